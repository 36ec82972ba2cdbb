//! The deterministic intent → skill ranking (contract 04 §3): exact-name rule, best-trigger and
//! capped description scoring, the evidence rule that keeps a skill sharing only a stray word
//! out, the 0.05 threshold, ordering, reasons, rounding, and each match's confidence and
//! ambiguity. [`Ranked::confidence`] is the one confidence every surface prints or carries (CLI
//! text, CLI `--json`, `resolve_skill`, the demo; contract 04 §3.3); no surface computes its own.
//!
//! Purely lexical and pure: no I/O, no randomness, no locale from the environment. The raw
//! (unrounded) score orders the matches; rounding happens only when a surface prints it.

use std::cmp::Ordering;
use std::fmt;

use super::catalog::Skill;
use super::tokenize::{Tokens, content_tokens, tokens};
use crate::text;

/// Matches scoring below this are dropped (contract 04 §3.2, `MIN_SCORE`).
const MIN_SCORE: f64 = 0.05;

/// The score of an exact name or directory match.
const EXACT_SCORE: f64 = 100.0;

/// The description contributes at most this much.
const DESCRIPTION_CAP: f64 = 0.5;

/// Two matches whose scores are within this ratio are near-equal: both are `ambiguous`
/// (contract 04 §3.3). At 0.8 a confidence of 5/9 (≈ 0.556) or less is ambiguous.
const AMBIGUITY_RATIO: f64 = 0.8;

/// One ranked skill.
#[derive(Debug, Clone, PartialEq)]
pub struct Ranked<'a> {
    /// The catalog entry.
    pub skill: &'a Skill,
    /// The raw score; print it through [`round_score`].
    pub score: f64,
    /// Why it matched.
    pub reason: Reason<'a>,
    /// Its unrounded separation from the best other match, in 0..1 (contract 04 §3.3); surfaces
    /// print [`Ranked::confidence`], never this.
    pub separation: f64,
    /// Whether another match scores near-equal (contract 04 §3.3).
    pub ambiguous: bool,
}

/// Why a skill matched (contract 04 §3.1). `Display` gives the exact wire text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason<'a> {
    /// `exact name match`.
    ExactName,
    /// `matched trigger "<trigger as written>"`.
    Trigger(&'a str),
    /// `matched description`.
    Description,
    /// `weak overlap`.
    WeakOverlap,
}

impl fmt::Display for Reason<'_> {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::ExactName => formatter.write_str("exact name match"),
            Reason::Trigger(trigger) => write!(formatter, "matched trigger \"{trigger}\""),
            Reason::Description => formatter.write_str("matched description"),
            Reason::WeakOverlap => formatter.write_str("weak overlap"),
        }
    }
}

/// Ranks every catalog entry against `intent`: entries scoring at least 0.05, by raw score
/// descending, then by name in collation order; equal names keep catalog order.
pub fn rank<'a>(intent: &str, catalog: &'a [Skill]) -> Vec<Ranked<'a>> {
    let prepared = Intent::new(intent);
    let mut ranked: Vec<Ranked<'a>> = catalog
        .iter()
        .filter_map(|skill| {
            let (score, reason) = prepared.score(skill)?;
            // `score <= 0` is implied by the threshold but written as the contract writes it; a NaN
            // cannot arise (every division has a positive denominator).
            if score <= 0.0 || score < MIN_SCORE {
                return None;
            }
            Some(Ranked {
                skill,
                score,
                reason,
                separation: 1.0,
                ambiguous: false,
            })
        })
        .collect();
    // `sort_by` is stable, which keeps catalog order for names that collate equal.
    ranked.sort_by(|left, right| {
        right
            .score
            .partial_cmp(&left.score)
            .unwrap_or(Ordering::Equal)
            .then_with(|| text::collate(&left.skill.name, &right.skill.name))
    });
    let scores: Vec<f64> = ranked.iter().map(|entry| entry.score).collect();
    for (index, entry) in ranked.iter_mut().enumerate() {
        (entry.separation, entry.ambiguous) = separation(&scores, index);
    }
    ranked
}

impl Ranked<'_> {
    /// The match's confidence as every surface prints or carries it (contract 04 §3.3, §3.4):
    /// its separation rounded to three decimals, in [0, 1]. The CLI's text block, its `--json`
    /// and `resolve_skill` all take it from here, so they cannot disagree.
    pub fn confidence(&self) -> f64 {
        round_score(self.separation)
    }
}

/// The confidence and ambiguity of the match at `index` among the ranked `scores` (contract 04
/// §3.3). Its competitor is the best other match: the runner-up for the top, the top for every
/// other. Confidence is `score / (score + competitor)` (1 alone or for an exact name); two
/// matches are ambiguous when the lower scores at least 0.8 of the higher.
fn separation(scores: &[f64], index: usize) -> (f64, bool) {
    let score = scores[index];
    if score >= EXACT_SCORE {
        return (1.0, false);
    }
    let competitor = if index == 0 {
        scores.get(1)
    } else {
        scores.first()
    };
    let Some(&competitor) = competitor else {
        return (1.0, false);
    };
    let (low, high) = if score < competitor {
        (score, competitor)
    } else {
        (competitor, score)
    };
    (score / (score + competitor), low >= AMBIGUITY_RATIO * high)
}

/// JavaScript `Math.round(score × 1000) / 1000`: three decimals, halves towards +∞ (contract 04
/// §3.4). This is the score every surface prints.
pub fn round_score(score: f64) -> f64 {
    text::round_thousandths(score)
}

/// The [`Ranked::confidence`] of the top match (contract 04 §3.3); `None` without matches.
pub fn confidence(ranked: &[Ranked<'_>]) -> Option<f64> {
    ranked.first().map(Ranked::confidence)
}

/// The intent, lower-cased and tokenised once for the whole catalog.
struct Intent {
    /// JS-trim of the lower-cased intent.
    lower: String,
    tokens: Tokens,
    /// The tokens that can make a match (no function words).
    content: Tokens,
}

impl Intent {
    fn new(intent: &str) -> Intent {
        Intent {
            lower: text::js_trim(&intent.to_lowercase()).to_owned(),
            tokens: tokens(intent),
            content: content_tokens(intent),
        }
    }

    /// The score and reason of `skill`, or `None` when the skill has no evidence for the
    /// intent (contract 04 §3.2).
    fn score<'a>(&self, skill: &'a Skill) -> Option<(f64, Reason<'a>)> {
        if self.lower == skill.name.to_lowercase() || self.lower == skill.dir.to_lowercase() {
            return Some((EXACT_SCORE, Reason::ExactName));
        }
        if !self.has_evidence(skill) {
            return None;
        }
        let mut trigger_part = 0.0_f64;
        // The reason's trigger is chosen by overlap alone, first on ties.
        let mut reason_trigger: Option<(&'a str, f64)> = None;
        for trigger in &skill.triggers {
            let overlap = self.tokens.overlap(&tokens(trigger));
            let candidate = overlap + self.bonus(trigger);
            if candidate > trigger_part {
                trigger_part = candidate;
            }
            if overlap > 0.0 && reason_trigger.is_none_or(|(_, best)| overlap > best) {
                reason_trigger = Some((trigger.as_str(), overlap));
            }
        }
        let description_part = self
            .tokens
            .overlap(&tokens(&skill.description))
            .min(DESCRIPTION_CAP);
        let reason = match reason_trigger {
            Some((trigger, _)) => Reason::Trigger(trigger),
            None if description_part > 0.0 => Reason::Description,
            None => Reason::WeakOverlap,
        };
        Some((trigger_part + description_part, reason))
    }

    /// The evidence rule of contract 04 §3.2. A skill may match only when a trigger's phrase
    /// bonus applies, or when, counting content tokens only: some trigger's tokens all occur in
    /// the intent, or some trigger shares two tokens with it, or the skill as a whole (name,
    /// directory, triggers, description) shares two tokens with it, or every content token of
    /// the intent occurs in the skill. One shared word among many (`write`, `today`) is not
    /// evidence; that is what routed `write a haiku about autumn` to a decision skill.
    fn has_evidence(&self, skill: &Skill) -> bool {
        if self.content.is_empty() {
            return false;
        }
        let mut whole = content_tokens(&skill.name);
        whole.extend(&content_tokens(&skill.dir));
        whole.extend(&content_tokens(&skill.description));
        for trigger in &skill.triggers {
            if self.bonus(trigger) > 0.0 {
                return true;
            }
            let trigger_tokens = content_tokens(trigger);
            let shared = self.content.shared(&trigger_tokens);
            if shared >= 2 || (shared > 0 && shared == trigger_tokens.len()) {
                return true;
            }
            whole.extend(&trigger_tokens);
        }
        let shared = self.content.shared(&whole);
        shared >= 2 || shared == self.content.len()
    }

    /// The phrase bonus of one trigger (contract 04 §3.1).
    fn bonus(&self, trigger: &str) -> f64 {
        let trigger = trigger.to_lowercase();
        if self.lower.is_empty() || trigger.is_empty() {
            return 0.0;
        }
        let contains_trigger = self.lower.contains(&trigger) && text::utf16_len(&trigger) >= 4;
        let contained_in_trigger =
            trigger.contains(&self.lower) && text::utf16_len(&self.lower) >= 4;
        if self.lower == trigger {
            0.5
        } else if contains_trigger || contained_in_trigger {
            0.4
        } else {
            0.0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn skill(dir: &str, name: &str, description: &str, triggers: &[&str]) -> Skill {
        Skill {
            name: name.to_owned(),
            ..Skill::new(dir, description, triggers)
        }
    }

    /// The four bundled skills with the recommended descriptions (contract 01 §11.4), in catalog
    /// order.
    fn bundled() -> Vec<Skill> {
        vec![
            skill(
                "closeday",
                "closeday",
                "Close out today's daily note, record what shipped, stage carry-over items for \
                 tomorrow, and add one reflection.",
                &[
                    "close the day",
                    "wrap up today",
                    "end of day",
                    "log what I shipped",
                    "close out my daily note",
                ],
            ),
            skill(
                "plan-today",
                "plan-today",
                "Plan the day from priorities, active work, and recent signals. Use it when the \
                 user asks for structure, what to focus on today, or what is next.",
                &[
                    "plan my day",
                    "what should I work on",
                    "structure today",
                    "what's my focus today",
                ],
            ),
            skill(
                "today",
                "today",
                "Write today's plan into the daily note under memory/daily and keep its \
                 close-out section ready. Use it to start the day or open today's note.",
                &[
                    "start my day",
                    "open today's note",
                    "today's plan",
                    "build today",
                ],
            ),
            skill(
                "weekly-review",
                "weekly-review",
                "Review the last week of memory, daily notes, projects, and priorities, then \
                 suggest a few small context updates.",
                &[
                    "weekly review",
                    "review my week",
                    "reflect on the week",
                    "weekly memory review",
                ],
            ),
        ]
    }

    /// The fixture of contract 02 §17.2 / 04 §4.2.
    fn fixture() -> Vec<Skill> {
        vec![
            skill(
                "closeday",
                "closeday",
                "Close out today's note.",
                &["close my day", "end of day"],
            ),
            skill(
                "plan-today",
                "plan-today",
                "Plan the day from priorities and recent work.",
                &["plan my day", "what should I work on"],
            ),
        ]
    }

    /// `name score reason` per match, scores rounded as printed.
    fn check(intent: &str, catalog: &[Skill]) -> Vec<String> {
        rank(intent, catalog)
            .iter()
            .map(|m| {
                let score = text::js_number_to_string(round_score(m.score));
                format!("{} {score} {}", m.skill.name, m.reason)
            })
            .collect()
    }

    #[test]
    fn plan_my_day_routes_to_plan_today() {
        let catalog = bundled();
        assert_eq!(
            check("plan my day", &catalog),
            [
                "plan-today 1.722 matched trigger \"plan my day\"",
                "today 0.722 matched trigger \"start my day\"",
            ]
        );
        let ranked = rank("plan my day", &catalog);
        // 1.5 for the trigger plus min(2·2/18, 0.5) for the 16-token description.
        assert!((ranked[0].score - (1.5 + 4.0 / 18.0)).abs() < 1e-12);
    }

    #[test]
    fn plan_this_work_reason_is_the_best_overlap_trigger() {
        assert_eq!(
            check("plan this work", &bundled()),
            ["plan-today 0.889 matched trigger \"what should I work on\"",]
        );
    }

    #[test]
    fn remaining_rows_of_the_worked_table() {
        let catalog = bundled();
        let scores = |intent: &str| -> Vec<String> {
            check(intent, &catalog)
                .iter()
                .map(|line| line.splitn(3, ' ').take(2).collect::<Vec<_>>().join(" "))
                .collect()
        };
        assert_eq!(scores("what should i work on today"), ["plan-today 1.289"]);
        assert_eq!(scores("start my day"), ["today 1.722"]);
        assert_eq!(scores("close the day"), ["closeday 1.625", "today 0.722"]);
        assert_eq!(scores("review my week"), ["weekly-review 1.75"]);
        assert_eq!(
            check("Plan-Today", &catalog),
            [
                "plan-today 100 exact name match",
                "today 1.222 matched trigger \"today's plan\"",
            ]
        );
        assert!(rank("zzzzz qzzzz", &catalog).is_empty());
    }

    #[test]
    fn a_stray_shared_word_is_not_a_match() {
        let catalog = bundled();
        // Before the evidence rule each of these routed to a skill (contract 04 §3.2).
        for intent in [
            "what's the weather in Lisbon tomorrow",
            "is it going to rain today",
            "write a haiku about autumn",
            "what should I do about it",
        ] {
            assert_eq!(check(intent, &catalog), Vec::<String>::new(), "{intent}");
        }
        // `days` meets `day`, `reviewing` meets `review`.
        assert_eq!(
            check("reviewing the past weeks", &catalog),
            ["weekly-review 1.035 matched trigger \"weekly review\""]
        );
    }

    #[test]
    fn confidence_and_ambiguity_of_every_match() {
        let twins = vec![
            skill("a", "a", "", &["sort my inbox"]),
            skill("b", "b", "", &["sort my inbox"]),
            skill("c", "c", "", &["sort inbox mail"]),
        ];
        let ranked = rank("sort my inbox", &twins);
        let seen: Vec<(f64, bool)> = ranked.iter().map(|m| (m.separation, m.ambiguous)).collect();
        assert_eq!(seen[..2], [(0.5, true), (0.5, true)]);
        // The third is measured against the top: 0.8 / (0.8 + 1.5).
        assert_eq!((round_score(seen[2].0), seen[2].1), (0.348, false));
        let catalog = bundled();
        let ranked = rank("plan my day", &catalog);
        assert_eq!(ranked[0].confidence(), 0.705);
        assert_eq!(confidence(&ranked), Some(0.705));
        assert!(!ranked[0].ambiguous && !ranked[1].ambiguous);
        let exact = rank("closeday", &catalog);
        assert_eq!((exact[0].confidence(), exact[0].ambiguous), (1.0, false));
    }

    #[test]
    fn fixture_table_of_section_4_2() {
        let catalog = fixture();
        assert_eq!(
            check("plan my day", &catalog),
            ["plan-today 2 matched trigger \"plan my day\"",]
        );
        assert_eq!(confidence(&rank("plan my day", &catalog)), Some(1.0));
        assert_eq!(
            check("end of day", &catalog),
            ["closeday 1.5 matched trigger \"end of day\"",]
        );
        assert_eq!(
            check("work", &catalog),
            ["plan-today 1.686 matched trigger \"what should I work on\""]
        );
        assert_eq!(
            check("closeday", &catalog),
            ["closeday 100 exact name match"]
        );
        assert_eq!(confidence(&rank("closeday", &catalog)), Some(1.0));
        assert!(rank("zzzzz qzzzz", &catalog).is_empty());
        assert_eq!(confidence(&[]), None);
    }

    #[test]
    fn exact_name_matches_name_or_directory_after_trim_and_case() {
        let catalog = vec![
            skill("planner", "Daily Planner", "", &[]),
            skill("other", "other", "", &["planner"]),
        ];
        let ranked = rank("  PLANNER\t", &catalog);
        assert_eq!(ranked[0].skill.dir, "planner");
        assert_eq!(ranked[0].score, 100.0);
        assert_eq!(ranked[0].reason, Reason::ExactName);
        assert_eq!(rank("daily planner", &catalog)[0].reason, Reason::ExactName);
        // The other skill still ranks through its trigger: 1.0 overlap + 0.5 equality.
        assert_eq!(ranked[1].score, 1.5);
    }

    #[test]
    fn weak_overlap_is_a_bonus_without_shared_tokens() {
        let catalog = vec![skill("chores", "chores", "Tidy the house.", &["homework"])];
        let ranked = rank("work", &catalog);
        assert_eq!(ranked.len(), 1);
        assert_eq!(ranked[0].score, 0.4);
        assert_eq!(ranked[0].reason, Reason::WeakOverlap);
        assert_eq!(ranked[0].reason.to_string(), "weak overlap");
        // Below four units the substring bonus does not apply.
        assert!(rank("wor", &catalog).is_empty());
    }

    #[test]
    fn description_only_match_and_the_threshold() {
        let words: Vec<String> = (0..40).map(|n| format!("w{n}")).collect();
        // One shared token out of 1 + 38 → 2/39 ≥ 0.05; out of 1 + 40 → 2/41 < 0.05.
        let kept = skill("kept", "kept", &words[..38].join(" "), &[]);
        let dropped = skill("dropped", "dropped", &words.join(" "), &[]);
        let catalog = vec![dropped, kept];
        let ranked = rank("w0", &catalog);
        assert_eq!(ranked.len(), 1);
        assert_eq!(ranked[0].skill.name, "kept");
        assert_eq!(ranked[0].reason, Reason::Description);
        assert_eq!(ranked[0].score, 2.0 / 39.0);
    }

    #[test]
    fn description_part_is_capped_and_trigger_part_is_the_best_single_trigger() {
        let catalog = vec![skill(
            "x",
            "x",
            "alpha beta",
            &["alpha", "beta", "alpha beta gamma"],
        )];
        let ranked = rank("alpha beta", &catalog);
        // Best trigger: "alpha beta gamma" 2·2/5 = 0.8 (+0.4: the intent is a substring);
        // description 1.0 capped to 0.5. Never a sum over triggers.
        assert_eq!(ranked[0].score, 0.8 + 0.4 + 0.5);
        assert_eq!(ranked[0].reason, Reason::Trigger("alpha beta gamma"));
    }

    #[test]
    fn reason_trigger_is_chosen_by_overlap_alone() {
        // "deploy" equals the intent (overlap 1 + bonus 0.5); "deploy now" has overlap 2/3 and
        // no bonus. Both beat nothing, and the first on equal overlap wins.
        let catalog = vec![skill(
            "d",
            "d",
            "",
            &["ship it now", "deploy now", "deploy"],
        )];
        let ranked = rank("deploy", &catalog);
        assert_eq!(ranked[0].score, 1.5);
        assert_eq!(ranked[0].reason, Reason::Trigger("deploy"));
        let catalog = vec![skill("d", "d", "", &["deploy app", "app deploy"])];
        assert_eq!(
            rank("deploy app", &catalog)[0].reason,
            Reason::Trigger("deploy app")
        );
        assert_eq!(
            rank("app deploy", &catalog)[0].reason,
            Reason::Trigger("deploy app")
        );
    }

    #[test]
    fn ties_are_broken_by_name_in_collation_order() {
        // Catalog order is byte order ("Zeta" < "alpha" < "beta"); the rank reorders ties by
        // collation, where case only breaks ties ("alpha" < "beta" < "Zeta").
        let catalog = vec![
            skill("z", "Zeta", "", &["sync notes"]),
            skill("a", "alpha", "", &["sync notes"]),
            skill("b", "beta", "", &["sync notes"]),
            skill("c", "gamma", "", &["sync"]),
        ];
        let names: Vec<&str> = rank("sync notes", &catalog)
            .iter()
            .map(|m| m.skill.name.as_str())
            .collect();
        assert_eq!(names, ["alpha", "beta", "Zeta", "gamma"]);
        assert_eq!(confidence(&rank("sync notes", &catalog)), Some(0.5));
    }

    #[test]
    fn equal_names_keep_catalog_order() {
        let catalog = vec![
            skill("one", "same", "", &["tidy inbox"]),
            skill("two", "same", "", &["tidy inbox"]),
        ];
        let dirs: Vec<&str> = rank("tidy inbox", &catalog)
            .iter()
            .map(|m| m.skill.dir.as_str())
            .collect();
        assert_eq!(dirs, ["one", "two"]);
    }

    #[test]
    fn empty_and_blank_intents_match_nothing() {
        assert!(rank("", &bundled()).is_empty());
        assert!(rank(" \u{3000}\t", &bundled()).is_empty());
        assert!(rank("how do I", &bundled()).is_empty());
    }

    #[test]
    fn rounding_is_javascript_math_round() {
        assert_eq!(round_score(1.5 + 4.0 / 18.0), 1.722);
        assert_eq!(round_score(0.0005), 0.001);
        assert_eq!(round_score(100.0), 100.0);
        assert_eq!(
            text::js_number_to_string(round_score(2.0 / 3.0 + 4.0 / 18.0)),
            "0.889"
        );
    }
}
