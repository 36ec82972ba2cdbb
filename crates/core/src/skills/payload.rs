//! The `resolve_skill` payload (contract 04 §6.4–§6.5; 05 §7.5, §8.1, §8.4, §9): match items
//! sanitised by [`crate::sanitize`]'s string rule (no item key is `content` or `summary`, so
//! every string is capped at 300 units) and no array cap, the envelope's members in their
//! order, the intent marker and the error mapping of the budget fit, whose algorithm (greedy
//! admission, final fit, intent cut, fixed-point `used`) is [`crate::budget`]'s.
//!
//! Plain values in, one `JSON.stringify(…, null, 2)`-identical text out. Nothing here knows the
//! protocol, reads a file or produces a public error message: the adapter maps
//! [`PayloadError`] to its JSON-RPC answer. **Promise:** a returned text is never longer than
//! the budget (UTF-16 units) and its `budget.used` equals its length exactly.
//!
//! With [`BudgetHint::State`] (the adapter's structured eras) an answer whose budget cannot hold
//! one match also says, in `budget.hint`, which budget would (contract 05 §7.5.1); with
//! [`BudgetHint::Omit`] the text is the reference's, byte for byte.

use super::catalog::Instructions;
use super::resolve::Ranked;
use crate::budget::{FitError, candidate, fit, fixed_point, write_hinted_member};
use crate::error::PayloadError;
use crate::folder::memory::MemoryMode;
use crate::request::Budget;
use crate::sanitize::cap_string;
use crate::text::{JsonLayout, JsonWriter};

/// What replaces the cut part of an intent that does not fit (contract 04 §6.5 step 4).
pub const INTENT_MARKER: &str = "[intent truncated]";

/// The memory members of the envelope, as the memory policy resolved them (contract 01 §7.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MemoryFields<'a> {
    /// `"shared"`, `"project"` or `"off"`.
    pub memory: &'a str,
    /// `"Memory: Shared"`, `"Memory: This project"` or `"Memory: Off"`.
    pub receipt: &'a str,
    /// The Off notice in Off mode, else `None` (written as `null`).
    pub notice: Option<&'a str>,
}

impl MemoryFields<'static> {
    /// The members of a resolved memory mode: its wire name, receipt and (Off only) notice.
    pub fn of(mode: MemoryMode) -> MemoryFields<'static> {
        MemoryFields {
            memory: mode.as_str(),
            receipt: mode.receipt(),
            notice: mode.notice(),
        }
    }
}

/// One match as it goes on the wire, already sanitised (contract 04 §6.4).
#[derive(Debug, Clone, PartialEq)]
pub struct MatchItem {
    /// The skill name.
    pub name: String,
    /// The description, `""` when none.
    pub description: String,
    /// Every trigger (no array cap).
    pub triggers: Vec<String>,
    /// The rounded score (three decimals).
    pub score: f64,
    /// [`Ranked::confidence`] (contract 04 §3.3).
    pub confidence: f64,
    /// Whether another match scores near-equal.
    pub ambiguous: bool,
    /// The reason text.
    pub reason: String,
    /// `skills/<dir>/SKILL.md`.
    pub resource: String,
    /// [`Skill::uri`](super::Skill::uri), the resource the structured eras serve (contract 05
    /// §7.7); `None` in the reference's payload. Never cut: a URI too long to read back is left
    /// out rather than shortened into one that names nothing.
    pub uri: Option<String>,
    /// The start of the skill's instructions (contract 05 §7.7), on the best match only, as much
    /// as the budget left over holds; never capped at 300 units, it is bounded by the budget.
    pub instructions: Option<String>,
}

impl MatchItem {
    /// The sanitised wire item of one ranked match: every string at most 300 units, cut on a
    /// code-point boundary and marked `\n[truncated]`.
    pub fn from_ranked(ranked: &Ranked<'_>, uri: MatchUri) -> MatchItem {
        let skill = ranked.skill;
        let uri = match uri {
            MatchUri::Omit => None,
            MatchUri::State => Some(skill.uri()).filter(|uri| super::is_skill_uri(uri)),
        };
        // Array elements are capped as members without a name (contract 05 §9).
        MatchItem {
            name: cap_string(&skill.name, "name"),
            description: cap_string(&skill.description, "description"),
            triggers: skill
                .triggers
                .iter()
                .map(|trigger| cap_string(trigger, ""))
                .collect(),
            score: super::round_score(ranked.score),
            confidence: ranked.confidence(),
            ambiguous: ranked.ambiguous,
            reason: cap_string(&ranked.reason.to_string(), "reason"),
            resource: cap_string(&skill.resource(), "resource"),
            uri,
            instructions: None,
        }
    }
}

/// A fitted payload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillPayload {
    /// The pretty JSON text, at most the budget in UTF-16 units.
    pub text: String,
    /// Its UTF-16 length, which is also its `budget.used`.
    pub used: usize,
    /// `budget.truncated`: a match was dropped or the intent was cut.
    pub truncated: bool,
    /// How many matches the text carries.
    pub matches: usize,
    /// Whether the intent was cut to a prefix plus [`INTENT_MARKER`].
    pub intent_truncated: bool,
}

/// Whether an answer whose budget cannot hold one match says so (contract 05 §7.5.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BudgetHint {
    /// The reference's payload: `budget` is `{limit, used, truncated}` and nothing more.
    Omit,
    /// When matches were offered but none fits, `budget` also carries `hint`, naming the
    /// smallest budget that holds the best match, as long as the answer still fits with it.
    State,
}

/// Whether each match carries `uri`, the MCP resource of its `SKILL.md` (contract 05 §7.7).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatchUri {
    /// The reference's match items: no `uri`.
    Omit,
    /// Each match item ends with `uri` (`aios://skills/<dir>/SKILL.md`).
    State,
}

/// What replaces the rest of instructions that the budget does not hold (contract 05 §7.7).
pub const INSTRUCTIONS_MARKER: &str = "\n[instructions truncated; read the whole skill at uri]";

/// Builds the `resolve_skill` text for `intent` (as received, untrimmed) and the ranked
/// `matches` already cut to the request's `limit`, within `budget` UTF-16 units (contract 04
/// §6.5). Off mode passes no matches and the Off memory fields. `instructions`, the start of
/// the best match's body, fills what the answer leaves of the budget (contract 05 §7.7).
pub fn fit_payload(
    intent: &str,
    matches: &[Ranked<'_>],
    memory: MemoryFields<'_>,
    budget: usize,
    hint: BudgetHint,
    uri: MatchUri,
    instructions: Option<&Instructions>,
) -> Result<SkillPayload, PayloadError> {
    let items: Vec<MatchItem> = matches
        .iter()
        .map(|ranked| MatchItem::from_ranked(ranked, uri))
        .collect();
    let plain = fit_items(intent, &items, memory, budget, hint)?;
    match instructions {
        Some(body) if plain.matches > 0 && !plain.intent_truncated => {
            with_instructions(plain, intent, &items, memory, budget, body)
        }
        _ => Ok(plain),
    }
}

/// The fitted answer `plain` (at least one match admitted, the intent whole) with as much of
/// `body` on its best match as the budget still holds: the same matches, the same
/// `budget.truncated`, never longer than `budget`. The body is cut on a code-point boundary
/// and then ends with [`INSTRUCTIONS_MARKER`]; when not even the marker fits, `plain` is the
/// answer. Work is bounded: one binary search over the body's code points (at most
/// `3 × budget` bytes were read), each probe one serialisation of the admitted matches.
fn with_instructions(
    plain: SkillPayload,
    intent: &str,
    items: &[MatchItem],
    memory: MemoryFields<'_>,
    budget: usize,
    body: &Instructions,
) -> Result<SkillPayload, PayloadError> {
    let envelope = Envelope {
        memory,
        limit: budget,
        hint: None,
    };
    let mut admitted = items[..plain.matches].to_vec();
    let mut probe = |excerpt: String| -> Result<Option<String>, PayloadError> {
        admitted[0].instructions = Some(excerpt);
        let text = candidate(&envelope, &admitted, intent, plain.truncated)
            .map_err(|_| PayloadError::Unstable)?;
        Ok((crate::text::utf16_len(&text) <= budget).then_some(text))
    };
    let length = crate::text::code_point_len(&body.text);
    let cut = |keep: usize| {
        format!(
            "{}{INSTRUCTIONS_MARKER}",
            crate::text::code_point_prefix(&body.text, keep)
        )
    };
    let mut best = None;
    if body.complete {
        best = probe(body.text.clone())?;
    }
    if best.is_none() {
        // Longer cuts are longer texts, so the fitting cuts are a prefix of 0..length.
        let (mut low, mut high) = (0_usize, length);
        while low < high {
            let keep = low + (high - low).div_ceil(2);
            match probe(cut(keep))? {
                Some(_) => low = keep,
                None => high = keep - 1,
            }
        }
        best = probe(cut(low))?;
    }
    Ok(match best {
        Some(text) => SkillPayload {
            used: crate::text::utf16_len(&text),
            text,
            ..plain
        },
        None => plain,
    })
}

/// [`fit_payload`] over items that are already sanitised.
pub fn fit_items(
    intent: &str,
    items: &[MatchItem],
    memory: MemoryFields<'_>,
    budget: usize,
    hint: BudgetHint,
) -> Result<SkillPayload, PayloadError> {
    let envelope = Envelope {
        memory,
        limit: budget,
        hint: None,
    };
    let plain = fit_envelope(&envelope, items, intent, budget)?;
    let (BudgetHint::State, Some(best)) = (hint, items.first()) else {
        return Ok(plain);
    };
    if plain.matches > 0 {
        return Ok(plain);
    }
    let needed = needed_budget(intent, best, memory)?;
    let hinted = Envelope {
        hint: Some(hint_text(budget, needed)),
        ..envelope
    };
    // The hint must not cost the answer its intent: it is left out rather than cut the intent
    // (further) or refuse a budget the plain answer fits.
    match fit_envelope(&hinted, items, intent, budget) {
        Ok(fitted) if !fitted.intent_truncated || plain.intent_truncated => Ok(fitted),
        _ => Ok(plain),
    }
}

/// The `budget.hint` text (contract 05 §7.5.1): which budget holds the best match.
fn hint_text(budget: usize, needed: usize) -> String {
    let max = usize::try_from(Budget::TOOL.max).unwrap_or(usize::MAX);
    if needed <= max {
        format!("budget {budget} cannot hold one match; call again with budget {needed} or more")
    } else {
        format!("budget {budget} cannot hold one match, and no budget up to {max} can")
    }
}

/// The smallest budget whose answer admits `best` with this intent: the length of that answer
/// when its own `budget.limit` is that length (a fixed point, since the limit's digits count).
/// Work is bounded: at most `FIXED_POINT_ATTEMPTS`² serialisations of one sanitised match.
fn needed_budget(
    intent: &str,
    best: &MatchItem,
    memory: MemoryFields<'_>,
) -> Result<usize, PayloadError> {
    let mut failure = None;
    let text = fixed_point(|limit| {
        let envelope = Envelope {
            memory,
            limit,
            hint: None,
        };
        candidate(&envelope, std::slice::from_ref(best), intent, false).unwrap_or_else(|error| {
            failure = Some(error);
            String::new()
        })
    });
    match (text, failure) {
        (Ok(text), None) => Ok(crate::text::utf16_len(&text)),
        _ => Err(PayloadError::Unstable),
    }
}

/// One fit of `envelope`, its failure mapped to the payload's error.
fn fit_envelope(
    envelope: &Envelope<'_>,
    items: &[MatchItem],
    intent: &str,
    budget: usize,
) -> Result<SkillPayload, PayloadError> {
    fit(envelope, items, intent, INTENT_MARKER, budget)
        .map(|fitted| SkillPayload {
            text: fitted.text,
            used: fitted.used,
            truncated: fitted.truncated,
            matches: fitted.admitted,
            intent_truncated: fitted.echo_cut,
        })
        .map_err(|error: FitError| PayloadError::of_fit(error, budget, "skill"))
}

/// The members that do not change while fitting.
struct Envelope<'a> {
    memory: MemoryFields<'a>,
    limit: usize,
    /// `budget.hint`, written only on an answer without matches.
    hint: Option<String>,
}

impl crate::budget::Envelope for Envelope<'_> {
    type Item = MatchItem;

    fn write(
        &self,
        items: &[MatchItem],
        intent: &str,
        truncated: bool,
        used: usize,
        layout: JsonLayout,
    ) -> String {
        let mut json = JsonWriter::new(layout);
        json.begin_object();
        json.name("intent");
        json.str(intent);
        json.name("matches");
        json.begin_array();
        for item in items {
            write_item(&mut json, item);
        }
        json.end_array();
        json.name("memory");
        json.str(self.memory.memory);
        json.name("receipt");
        json.str(self.memory.receipt);
        json.name("notice");
        match self.memory.notice {
            Some(notice) => json.str(notice),
            None => json.null(),
        }
        json.name("complete");
        json.bool(true);
        let hint = self.hint.as_deref().filter(|_| items.is_empty());
        write_hinted_member(&mut json, self.limit, used, truncated, hint);
        json.end_object();
        json.finish()
    }
}

fn write_item(json: &mut JsonWriter, item: &MatchItem) {
    json.begin_object();
    json.name("name");
    json.str(&item.name);
    json.name("description");
    json.str(&item.description);
    json.name("triggers");
    json.begin_array();
    for trigger in &item.triggers {
        json.str(trigger);
    }
    json.end_array();
    json.name("score");
    json.number(item.score);
    json.name("confidence");
    json.number(item.confidence);
    json.name("ambiguous");
    json.bool(item.ambiguous);
    json.name("reason");
    json.str(&item.reason);
    json.name("resource");
    json.str(&item.resource);
    if let Some(uri) = &item.uri {
        json.name("uri");
        json.str(uri);
    }
    if let Some(instructions) = &item.instructions {
        json.name("instructions");
        json.str(instructions);
    }
    json.end_object();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::skills::{Instructions, Skill, rank};
    use crate::text;
    use proptest::prelude::*;

    const OFF_NOTICE: &str = "DotAIOS is off; your AI app may still keep its own conversation \
                              history. DotAIOS did not read, search, save, or capture this turn.";
    const SHARED: MemoryFields<'static> = MemoryFields {
        memory: "shared",
        receipt: "Memory: Shared",
        notice: None,
    };
    const OFF: MemoryFields<'static> = MemoryFields {
        memory: "off",
        receipt: "Memory: Off",
        notice: Some(OFF_NOTICE),
    };

    fn skill(dir: &str, description: &str, triggers: &[&str]) -> Skill {
        Skill::new(dir, description, triggers)
    }

    fn plan_today() -> Skill {
        skill(
            "plan-today",
            "Plan the day from priorities, active work, and recent signals. Use it when the user \
             asks for structure, what to focus on today, or what is next.",
            &[
                "plan my day",
                "what should I work on",
                "structure today",
                "what's my focus today",
            ],
        )
    }

    /// The payload must be what it claims: parseable, `used` equal to its length, within the
    /// budget.
    fn assert_honest(payload: &SkillPayload, budget: usize) -> serde_json::Value {
        let value: serde_json::Value = serde_json::from_str(&payload.text).unwrap();
        assert_eq!(payload.used, text::utf16_len(&payload.text));
        assert!(payload.used <= budget, "{} > {budget}", payload.used);
        assert_eq!(value["budget"]["used"], payload.used);
        assert_eq!(value["budget"]["limit"], budget);
        assert_eq!(value["budget"]["truncated"], payload.truncated);
        assert_eq!(text::to_json_pretty(&value), payload.text);
        value
    }

    #[test]
    fn worked_example_of_section_6_7() {
        let catalog = vec![plan_today()];
        let ranked = rank("plan my day", &catalog);
        let payload = fit_payload(
            "plan my day",
            &ranked[..1],
            SHARED,
            6000,
            BudgetHint::Omit,
            MatchUri::Omit,
            None,
        )
        .unwrap();
        let expected = r#"{
  "intent": "plan my day",
  "matches": [
    {
      "name": "plan-today",
      "description": "Plan the day from priorities, active work, and recent signals. Use it when the user asks for structure, what to focus on today, or what is next.",
      "triggers": [
        "plan my day",
        "what should I work on",
        "structure today",
        "what's my focus today"
      ],
      "score": 3,
      "confidence": 0.998,
      "ambiguous": false,
      "reason": "matched trigger \"plan my day\"",
      "resource": "skills/plan-today/SKILL.md"
    }
  ],
  "memory": "shared",
  "receipt": "Memory: Shared",
  "notice": null,
  "complete": true,
  "budget": {
    "limit": 6000,
    "used": 740,
    "truncated": false
  }
}"#;
        assert_eq!(payload.text, expected);
        assert_eq!(payload.used, 740);
        assert_eq!(payload.matches, 1);
        assert!(!payload.truncated && !payload.intent_truncated);
    }

    #[test]
    fn off_envelopes() {
        let payload = fit_items("plan my day", &[], OFF, 6000, BudgetHint::Omit).unwrap();
        assert_eq!(payload.used, 337);
        let value = assert_honest(&payload, 6000);
        assert_eq!(value["matches"], serde_json::json!([]));
        assert_eq!(value["notice"], OFF_NOTICE);

        // The smallest Off envelope is 342 units: budget 256 can never answer.
        let tiny = "x".repeat(500);
        assert_eq!(
            fit_items(&tiny, &[], OFF, 256, BudgetHint::Omit),
            Err(PayloadError::BudgetTooSmall {
                budget: 256,
                envelope: "skill"
            })
        );
        assert_eq!(
            PayloadError::BudgetTooSmall {
                budget: 256,
                envelope: "skill"
            }
            .to_string(),
            "budget 256 is too small for the skill response envelope"
        );
        let marker_only = fit_items(&tiny, &[], OFF, 342, BudgetHint::Omit).unwrap();
        assert_eq!(marker_only.used, 342);
        assert!(
            marker_only
                .text
                .contains("\"intent\": \"[intent truncated]\"")
        );
        assert_eq!(
            fit_items(&tiny, &[], OFF, 341, BudgetHint::Omit),
            Err(PayloadError::BudgetTooSmall {
                budget: 341,
                envelope: "skill"
            })
        );

        // A 500-code-point intent at budget 512 is cut to exactly 512 units.
        let cut = fit_items(&tiny, &[], OFF, 512, BudgetHint::Omit).unwrap();
        assert_eq!(cut.used, 512);
        assert!(cut.truncated && cut.intent_truncated);
        let value = assert_honest(&cut, 512);
        let intent = value["intent"].as_str().unwrap();
        assert!(intent.ends_with(INTENT_MARKER));
        assert!(tiny.starts_with(intent.strip_suffix(INTENT_MARKER).unwrap()));
    }

    #[test]
    fn acceptance_11_verbose_description() {
        let description = "bounded routing metadata ".repeat(200);
        let catalog = vec![skill("verbose", &description, &["bounded routing intent"])];
        let ranked = rank("bounded routing intent", &catalog);
        assert_eq!(ranked.len(), 1);
        for budget in [256, 6000, 32000] {
            let payload = fit_payload(
                "bounded routing intent",
                &ranked,
                SHARED,
                budget,
                BudgetHint::Omit,
                MatchUri::Omit,
                None,
            )
            .unwrap();
            let value = assert_honest(&payload, budget);
            assert_eq!(payload.truncated, budget == 256);
            if budget > 256 {
                // The description was sanitised to 300 units, ending with the marker.
                let kept = value["matches"][0]["description"].as_str().unwrap();
                assert_eq!(text::utf16_len(kept), 300);
                assert!(kept.ends_with("\n[truncated]"));
            }
        }
    }

    #[test]
    fn acceptance_12_astral_intent() {
        let intent = "\u{1F600}".repeat(434);
        let payload = fit_items(&intent, &[], SHARED, 256, BudgetHint::Omit).unwrap();
        let value = assert_honest(&payload, 256);
        assert!(payload.truncated);
        // Prefixes never split a surrogate pair: the kept part is whole emoji.
        let kept = value["intent"]
            .as_str()
            .unwrap()
            .strip_suffix(INTENT_MARKER)
            .unwrap();
        assert!(kept.chars().all(|c| c == '\u{1F600}'));
    }

    #[test]
    fn acceptance_29_long_intent_many_matches() {
        let intent = format!("plan my day {}", "context ".repeat(60));
        assert_eq!(intent.chars().count(), 492);
        let catalog = vec![
            plan_today(),
            skill("today", "Start the day.", &["start my day"]),
            skill("closeday", "Close the day.", &["close the day"]),
        ];
        let ranked = rank(&intent, &catalog);
        let payload = fit_payload(
            &intent,
            &ranked,
            SHARED,
            256,
            BudgetHint::Omit,
            MatchUri::Omit,
            None,
        )
        .unwrap();
        assert_honest(&payload, 256);
        assert!(payload.truncated);
    }

    #[test]
    fn greedy_admission_stops_at_the_first_match_that_does_not_fit() {
        let long = "word ".repeat(50);
        let catalog = vec![
            skill("a-first", &long, &["sync notes"]),
            skill("b-second", &long, &["sync notes now"]),
            skill("c-small", "", &["sync"]),
        ];
        let ranked = rank("sync notes", &catalog);
        assert_eq!(ranked.len(), 3);
        let first_and_third = [ranked[0].clone(), ranked[2].clone()];
        let budget = fit_payload(
            "sync notes",
            &first_and_third,
            SHARED,
            6000,
            BudgetHint::Omit,
            MatchUri::Omit,
            None,
        )
        .unwrap()
        .used;
        let first_two = fit_payload(
            "sync notes",
            &ranked[..2],
            SHARED,
            6000,
            BudgetHint::Omit,
            MatchUri::Omit,
            None,
        )
        .unwrap();
        assert!(first_two.used > budget);
        // The second match does not fit, so the smaller third one, which would, is not tried.
        let payload = fit_payload(
            "sync notes",
            &ranked,
            SHARED,
            budget,
            BudgetHint::Omit,
            MatchUri::Omit,
            None,
        )
        .unwrap();
        assert_eq!(payload.matches, 1);
        assert!(payload.truncated);
        let value = assert_honest(&payload, budget);
        assert_eq!(value["matches"][0]["name"], "a-first");
    }

    #[test]
    fn sanitiser_caps_every_string_at_300_units() {
        let astral = "\u{1D400}".repeat(200);
        let trigger = "t".repeat(301);
        let catalog = vec![skill("s", &astral, &[&trigger, "ok"])];
        let ranked = rank(&trigger, &catalog);
        let item = MatchItem::from_ranked(&ranked[0], MatchUri::Omit);
        assert_eq!(text::utf16_len(&item.description), 300);
        assert!(item.description.ends_with("\n[truncated]"));
        assert_eq!(
            item.description
                .chars()
                .filter(|c| *c == '\u{1D400}')
                .count(),
            144
        );
        assert_eq!(text::utf16_len(&item.triggers[0]), 300);
        assert_eq!(item.triggers[1], "ok");
        assert_eq!(text::utf16_len(&item.reason), 300);
        assert_eq!(item.resource, "skills/s/SKILL.md");
    }

    /// 05 §7.7: `State` ends every match with its resource URI, counted in `used` like every
    /// member; `Omit` is the reference's item; a URI too long to read back is left out, not cut.
    #[test]
    fn match_items_name_their_resource_uri_only_when_asked() {
        let catalog = vec![plan_today()];
        let ranked = rank("plan my day", &catalog);
        let stated = fit_payload(
            "plan my day",
            &ranked,
            SHARED,
            6000,
            BudgetHint::State,
            MatchUri::State,
            None,
        )
        .unwrap();
        let value: serde_json::Value = serde_json::from_str(&stated.text).unwrap();
        let item = value["matches"][0].as_object().unwrap();
        assert_eq!(item.keys().next_back().unwrap(), "uri");
        assert_eq!(item["uri"], "aios://skills/plan-today/SKILL.md");
        assert_eq!(stated.used, text::utf16_len(&stated.text));
        let plain = fit_payload(
            "plan my day",
            &ranked,
            SHARED,
            6000,
            BudgetHint::State,
            MatchUri::Omit,
            None,
        )
        .unwrap();
        assert!(!plain.text.contains("\"uri\""));
        let long = vec![skill(&"\u{e9}".repeat(200), "", &["plan my day"])];
        let ranked = rank("plan my day", &long);
        assert_eq!(
            MatchItem::from_ranked(&ranked[0], MatchUri::State).uri,
            None
        );
    }

    /// 05 §7.7: the best match's instructions fill what the answer leaves of the budget: whole
    /// when they fit, else cut with the marker; the same matches and flag as without them,
    /// never over the budget; left out when not even the marker fits, and without a match.
    #[test]
    fn instructions_fill_the_budget_left_over() {
        let catalog = vec![
            plan_today(),
            skill("closeday", "Close the day.", &["plan my day"]),
        ];
        let ranked = rank("plan my day", &catalog);
        let body = Instructions {
            text: "Step \u{1D400} one.\n".repeat(100),
            complete: true,
        };
        let fit = |budget: usize, body: &Instructions| {
            fit_payload(
                "plan my day",
                &ranked,
                SHARED,
                budget,
                BudgetHint::State,
                MatchUri::State,
                Some(body),
            )
            .unwrap()
        };
        let plain = |budget: usize| {
            fit_payload(
                "plan my day",
                &ranked,
                SHARED,
                budget,
                BudgetHint::State,
                MatchUri::State,
                None,
            )
            .unwrap()
        };
        let whole = fit(6000, &body);
        let value = assert_honest(&whole, 6000);
        assert_eq!(value["matches"][0]["instructions"], body.text.as_str());
        assert!(value["matches"][1].get("instructions").is_none());
        // Budgets between the plain answer (plus room for a cut) and the whole body's answer.
        let (low, high) = (plain(6000).used + 100, whole.used - 1);
        for budget in [low, (low + high) / 2, high] {
            let filled = fit(budget, &body);
            let value = assert_honest(&filled, budget);
            let without = plain(budget);
            assert_eq!(
                (filled.matches, filled.truncated),
                (without.matches, without.truncated)
            );
            let text = value["matches"][0]["instructions"].as_str().unwrap();
            let kept = text.strip_suffix(INSTRUCTIONS_MARKER).unwrap();
            assert!(body.text.starts_with(kept));
            // One more code point would not have fitted.
            let longer =
                crate::text::code_point_prefix(&body.text, crate::text::code_point_len(kept) + 1);
            assert!(filled.used + text::utf16_len(longer) - text::utf16_len(kept) > budget);
        }
        // An incomplete body always ends with the marker.
        let partial = Instructions {
            text: "Short.".into(),
            complete: false,
        };
        let value = assert_honest(&fit(6000, &partial), 6000);
        assert_eq!(
            value["matches"][0]["instructions"],
            format!("Short.{INSTRUCTIONS_MARKER}")
        );
        // No room for the marker: the plain answer; no match: nothing to fill.
        let tight = plain(6000).used;
        assert_eq!(fit(tight, &body), plain(tight));
        let none = fit_payload(
            "nothing here",
            &[],
            SHARED,
            6000,
            BudgetHint::State,
            MatchUri::State,
            Some(&body),
        )
        .unwrap();
        assert!(!none.text.contains("instructions"));
    }

    /// 05 §7.5.1: an answer that cannot hold one match names the smallest budget that does,
    /// and that budget admits the match while one unit less does not; `Omit` keeps the plain
    /// text, and an answer that holds a match has no hint.
    #[test]
    fn a_budget_that_holds_no_match_names_one_that_does() {
        let catalog = vec![plan_today()];
        let ranked = rank("plan my day", &catalog);
        let plain = fit_payload(
            "plan my day",
            &ranked,
            SHARED,
            700,
            BudgetHint::Omit,
            MatchUri::Omit,
            None,
        )
        .unwrap();
        assert_eq!((plain.matches, plain.truncated), (0, true));
        assert!(!plain.text.contains("hint"));
        let hinted = fit_payload(
            "plan my day",
            &ranked,
            SHARED,
            700,
            BudgetHint::State,
            MatchUri::Omit,
            None,
        )
        .unwrap();
        let value = assert_honest(&hinted, 700);
        assert_eq!((hinted.matches, hinted.truncated), (0, true));
        // This one-skill example is 740 units at limit 6000; at limit 740 it is one digit
        // shorter.
        assert_eq!(
            value["budget"]["hint"],
            "budget 700 cannot hold one match; call again with budget 739 or more"
        );
        let enough = fit_payload(
            "plan my day",
            &ranked,
            SHARED,
            739,
            BudgetHint::State,
            MatchUri::Omit,
            None,
        )
        .unwrap();
        assert_eq!(enough.matches, 1);
        assert!(!enough.text.contains("hint"));
        let short = fit_payload(
            "plan my day",
            &ranked,
            SHARED,
            738,
            BudgetHint::State,
            MatchUri::Omit,
            None,
        )
        .unwrap();
        assert_eq!(short.matches, 0);
        // Without matches offered there is nothing to hint at.
        let none = fit_items("plan my day", &[], SHARED, 700, BudgetHint::State).unwrap();
        assert!(!none.text.contains("hint"));
        // The hint never costs the intent: where only the plain answer fits, it is left out.
        let tight = fit_payload(
            "plan my day",
            &ranked,
            SHARED,
            plain.used,
            BudgetHint::State,
            MatchUri::Omit,
            None,
        )
        .unwrap();
        assert_eq!(
            tight.text,
            fit_payload(
                "plan my day",
                &ranked,
                SHARED,
                plain.used,
                BudgetHint::Omit,
                MatchUri::Omit,
                None
            )
            .unwrap()
            .text
        );
    }

    proptest! {
        #[test]
        fn fitted_text_is_within_budget_and_used_is_its_length(
            intent in "[a-z \u{e9}\u{1F600}\"\\\\\n]{0,500}",
            words in proptest::collection::vec("[a-z]{1,8}", 1..6),
            limit in 1_usize..=10,
            budget in 256_usize..=32_000,
            description_len in 0_usize..400,
        ) {
            let catalog: Vec<Skill> = (0..12)
                .map(|n| {
                    let description = format!("{} {}", words.join(" "), "x".repeat(description_len));
                    skill(&format!("skill-{n:02}"), &description, &[&words[n % words.len()]])
                })
                .collect();
            let query = format!("{intent} {}", words[0]);
            let ranked = rank(&query, &catalog);
            let offered = &ranked[..ranked.len().min(limit)];
            match fit_payload(&intent, offered, SHARED, budget, BudgetHint::State, MatchUri::Omit, None) {
                Ok(payload) => {
                    prop_assert_eq!(payload.used, text::utf16_len(&payload.text));
                    prop_assert!(payload.used <= budget);
                    let value: serde_json::Value = serde_json::from_str(&payload.text).unwrap();
                    prop_assert_eq!(&value["budget"]["used"], &serde_json::json!(payload.used));
                    prop_assert!(payload.matches <= offered.len());
                    prop_assert_eq!(payload.truncated, payload.matches < offered.len() || payload.intent_truncated);
                }
                // Only a budget below the smallest envelope may refuse.
                Err(error) => prop_assert_eq!(error, PayloadError::BudgetTooSmall { budget, envelope: "skill" }),
            }
        }
    }
}
