//! The deterministic intent → skill ranking (contract 04 §3): the exact-name rule, each skill's
//! evidence over its name, triggers, headings and description (search's analyzer, weighted by
//! how specific each intent word is within the catalog), partial trigger coverage, the phrase
//! bonus, ordering, reasons, rounding, each match's calibrated confidence and ambiguity, and the
//! routing threshold below which no skill is returned. [`Ranked::confidence`] is the one
//! confidence every surface prints or carries (CLI text, CLI `--json`, `resolve_skill`, the
//! demo; contract 04 §3.3); no surface computes its own.
//!
//! Purely lexical and pure: no I/O, no randomness, no locale from the environment, work linear
//! in the catalog's text (each text bounded by `tokenize::MAX_FIELD_WORDS` words, an intent by
//! 32 terms). The raw (unrounded) score orders the matches; rounding happens only when a
//! surface prints it.

use std::cmp::Ordering;
use std::fmt;

use super::catalog::Skill;
use super::tokenize::{Query, for_each_word};
use crate::search::relevance::MAX_TERMS;
use crate::text;

/// Candidates scoring below this are dropped (contract 04 §3.2, `MIN_SCORE`).
const MIN_SCORE: f64 = 0.05;

/// The score of an exact name or directory match.
const EXACT_SCORE: f64 = 100.0;

/// How much an intent term met in each field counts (contract 04 §3.1): a trigger or the name
/// is the author's own routing phrase, a heading names a step of the workflow, the description
/// says what the skill is for in many more words.
const TRIGGER_WEIGHT: f64 = 1.0;
const NAME_WEIGHT: f64 = 1.0;
const HEADING_WEIGHT: f64 = 0.8;
const DESCRIPTION_WEIGHT: f64 = 0.7;

/// The weight of the evidence part, and the most terms' worth of evidence that counts
/// (contract 04 §3.1): more distinct, specific terms met is more evidence, within reason.
const EVIDENCE_WEIGHT: f64 = 0.5;
const EVIDENCE_CAP: f64 = 3.0;

/// The weight of the phrase part: the share of the best-covered trigger or name.
const PHRASE_WEIGHT: f64 = 0.5;

/// The specificity of an intent term no skill meets (contract 04 §3.1): it still counts
/// against every skill's coverage, at half the weight of a term only one skill meets, so a
/// paraphrase's own words do not drown what it shares with the right skill.
const UNKNOWN_SPECIFICITY: f64 = 0.5;

/// Two matches whose scores are within this ratio are near-equal: both are `ambiguous`
/// (contract 04 §3.3).
const AMBIGUITY_RATIO: f64 = 0.8;

/// The calibration of contract 04 §3.3: confidence =
/// `separation / (1 + e^-(a + b·score + c·corroborated))`, `[a, b, c]` fitted by maximum
/// likelihood with a weak ridge (λ = 0.1 on `b` and `c`, which keeps `c` finite: on the tuning
/// data an uncorroborated match is almost never right) on the tuning part of the bench's skill
/// set (`docs/benchmark.md`, "Skill routing"). The logistic part says how likely a skill with
/// this much evidence is the right one; the separation shares it between near-equal matches.
const CALIBRATION: [f64; 3] = [-3.2, 2.2, 2.8];

/// The routing threshold (contract 04 §3.2): when the first candidate's fit ([`Ranked::fit`]) is
/// below this, no skill is returned. The lowest threshold of the bench's sweep whose false
/// routes on the tuning part are at most 0.05.
pub const ROUTE_THRESHOLD: f64 = 0.9;

/// One ranked skill.
#[derive(Debug, Clone, PartialEq)]
pub struct Ranked<'a> {
    /// The catalog entry.
    pub skill: &'a Skill,
    /// The raw score; print it through [`round_score`].
    pub score: f64,
    /// Why it matched.
    pub reason: Reason<'a>,
    /// Its unrounded separation from the best other match, `score / (score + competitor)`, in
    /// 0..1 (contract 04 §3.3); surfaces print [`Ranked::confidence`], never this.
    pub separation: f64,
    /// Whether another match scores near-equal (contract 04 §3.3).
    pub ambiguous: bool,
    /// Whether the match is corroborated (contract 04 §3.1): an exact name, a phrase bonus, two
    /// or more intent terms met, every intent term met, or a whole trigger or name covered.
    pub corroborated: bool,
}

/// Why a skill matched (contract 04 §3.1). `Display` gives the exact wire text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason<'a> {
    /// `exact name match`.
    ExactName,
    /// `matched trigger "<trigger as written>"`.
    Trigger(&'a str),
    /// `matched heading "<heading as written>"`.
    Heading(&'a str),
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
            Reason::Heading(heading) => write!(formatter, "matched heading \"{heading}\""),
            Reason::Description => formatter.write_str("matched description"),
            Reason::WeakOverlap => formatter.write_str("weak overlap"),
        }
    }
}

/// The skills that route `intent` (contract 04 §3.2): [`candidates`], or none when the first
/// one's fit ([`Ranked::fit`]) is below [`ROUTE_THRESHOLD`] (an exact name always routes).
/// Near-equal matches all route, flagged `ambiguous`: the threshold asks whether a skill fits,
/// the separation which one.
pub fn rank<'a>(intent: &str, catalog: &'a [Skill]) -> Vec<Ranked<'a>> {
    let ranked = candidates(intent, catalog);
    match ranked.first() {
        Some(top) if top.fit() < ROUTE_THRESHOLD => Vec::new(),
        _ => ranked,
    }
}

/// Every skill with evidence for `intent` scoring at least 0.05, by raw score descending, then
/// by name in collation order (equal names keep catalog order), before the routing threshold:
/// what the bench's threshold sweep reads (contract 07).
pub fn candidates<'a>(intent: &str, catalog: &'a [Skill]) -> Vec<Ranked<'a>> {
    let lower = text::js_trim(&intent.to_lowercase()).to_owned();
    let query = Query::new(intent);
    let evidence: Vec<Evidence<'a>> = catalog
        .iter()
        .map(|skill| Evidence::collect(query.as_ref(), &lower, skill))
        .collect();
    let specificity = query
        .as_ref()
        .map(|query| specificity(query.len(), &evidence))
        .unwrap_or_default();
    let mut ranked: Vec<Ranked<'a>> = catalog
        .iter()
        .zip(&evidence)
        .filter_map(|(skill, evidence)| {
            let (score, reason, corroborated) = if is_exact(&lower, skill) {
                (EXACT_SCORE, Reason::ExactName, true)
            } else {
                evidence.score(&specificity)?
            };
            // `score <= 0` is implied by the threshold but written as the contract writes it;
            // a NaN cannot arise (every division has a positive denominator).
            if score <= 0.0 || score < MIN_SCORE {
                return None;
            }
            Some(Ranked {
                skill,
                score,
                reason,
                separation: 1.0,
                ambiguous: false,
                corroborated,
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
    /// the calibrated probability that this skill is the right one, from its score and its
    /// separation, rounded to three decimals, in [0, 1]; 1 for an exact name. The CLI's text
    /// block, its `--json` and `resolve_skill` all take it from here, so they cannot disagree.
    pub fn confidence(&self) -> f64 {
        round_score(self.separation * self.fit())
    }

    /// The calibrated probability that a skill with this match's evidence is the right one,
    /// before it is shared with near-equal matches (contract 04 §3.3): the confidence of a lone
    /// match, unrounded; 1 for an exact name. The routing threshold applies to it (§3.2).
    pub fn fit(&self) -> f64 {
        if self.score >= EXACT_SCORE {
            return 1.0;
        }
        fit(self.score, self.corroborated)
    }
}

/// The logistic part of the calibration of contract 04 §3.3.
fn fit(score: f64, corroborated: bool) -> f64 {
    let [a, b, c] = CALIBRATION;
    let corroboration = if corroborated { c } else { 0.0 };
    1.0 / (1.0 + (-(a + b * score + corroboration)).exp())
}

/// Whether the trimmed, lower-cased intent is the skill's name or directory (contract 04 §3.1).
fn is_exact(lower: &str, skill: &Skill) -> bool {
    lower == skill.name.to_lowercase() || lower == skill.dir.to_lowercase()
}

/// The separation and ambiguity of the match at `index` among the ranked `scores` (contract 04
/// §3.3). Its competitor is the best other match: the runner-up for the top, the top for every
/// other. Separation is `score / (score + competitor)` (1 alone or for an exact name); two
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

/// How specific each intent term is within this catalog (contract 04 §3.1): the BM25 inverse
/// document frequency of the number of skills it meets, relative to a term met by one skill,
/// at most 1; a term no skill meets has [`UNKNOWN_SPECIFICITY`].
fn specificity(terms: usize, evidence: &[Evidence<'_>]) -> Vec<f64> {
    let skills = evidence.len() as f64;
    let idf = |count: f64| (1.0 + (skills - count + 0.5) / (count + 0.5)).ln();
    let one = idf(1.0);
    (0..terms)
        .map(|term| {
            let count = evidence.iter().filter(|e| e.terms[term] > 0.0).count();
            if count == 0 {
                UNKNOWN_SPECIFICITY
            } else {
                (idf(count as f64) / one).min(1.0)
            }
        })
        .collect()
}

/// One routing phrase of a skill (a trigger, its name, its directory): how many words it has,
/// and which intent terms its words meet, as `(word, term, weight)`.
struct Phrase<'a> {
    trigger: Option<&'a str>,
    words: usize,
    meets: Vec<(usize, usize, f64)>,
}

impl Phrase<'_> {
    /// Whether every word of the phrase meets an intent term.
    fn is_covered(&self) -> bool {
        let mut seen = 0;
        let mut last = None;
        for &(word, _, _) in &self.meets {
            if last != Some(word) {
                seen += 1;
                last = Some(word);
            }
        }
        self.words > 0 && seen == self.words
    }

    /// The share of the phrase the intent covers (contract 04 §3.1): per word, the best weight
    /// of a term it meets times that term's specificity, summed, over the phrase's words.
    fn coverage(&self, specificity: &[f64]) -> f64 {
        if self.words == 0 {
            return 0.0;
        }
        let mut total = 0.0;
        let mut at = 0;
        while at < self.meets.len() {
            let word = self.meets[at].0;
            let mut best = 0.0_f64;
            while at < self.meets.len() && self.meets[at].0 == word {
                let (_, term, weight) = self.meets[at];
                best = best.max(weight * specificity[term]);
                at += 1;
            }
            total += best;
        }
        total / self.words as f64
    }
}

/// What one skill's text holds of the intent, before the catalog-wide specificity is known.
struct Evidence<'a> {
    /// Per intent term, the best field weight × match weight with which the skill meets it.
    terms: [f64; MAX_TERMS],
    phrases: Vec<Phrase<'a>>,
    /// The heading meeting the most intent terms (first on ties) and how many it meets.
    heading: Option<(&'a str, usize)>,
    /// Whether the description meets any intent term.
    description: bool,
    /// The best phrase bonus of its triggers (contract 04 §3.1).
    bonus: f64,
}

impl<'a> Evidence<'a> {
    fn collect(query: Option<&Query>, lower: &str, skill: &'a Skill) -> Evidence<'a> {
        let mut evidence = Evidence {
            terms: [0.0; MAX_TERMS],
            phrases: Vec::with_capacity(skill.triggers.len() + 2),
            heading: None,
            description: false,
            bonus: 0.0,
        };
        for trigger in &skill.triggers {
            evidence.bonus = evidence.bonus.max(bonus(lower, trigger));
        }
        let Some(query) = query else {
            return evidence;
        };
        for trigger in &skill.triggers {
            evidence.phrase(query, trigger, TRIGGER_WEIGHT, Some(trigger.as_str()));
        }
        evidence.phrase(query, &skill.name, NAME_WEIGHT, None);
        if skill.dir != skill.name {
            evidence.phrase(query, &skill.dir, NAME_WEIGHT, None);
        }
        for heading in &skill.headings {
            let met = evidence.field(query, heading, HEADING_WEIGHT);
            if met > 0 && evidence.heading.is_none_or(|(_, best)| met > best) {
                evidence.heading = Some((heading.as_str(), met));
            }
        }
        evidence.description = evidence.field(query, &skill.description, DESCRIPTION_WEIGHT) > 0;
        evidence
    }

    /// Records the terms `text` meets at `weight`; returns how many distinct terms it meets.
    fn field(&mut self, query: &Query, text: &str, weight: f64) -> usize {
        let mut met = 0_u32;
        for_each_word(text, |word| {
            query.meet(word, |term, quality| {
                self.terms[term] = self.terms[term].max(weight * quality);
                met |= 1 << term;
            });
        });
        met.count_ones() as usize
    }

    /// Records one routing phrase, and its terms at `weight`.
    fn phrase(&mut self, query: &Query, text: &str, weight: f64, trigger: Option<&'a str>) {
        let mut phrase = Phrase {
            trigger,
            words: 0,
            meets: Vec::new(),
        };
        for_each_word(text, |word| {
            let index = phrase.words;
            phrase.words += 1;
            query.meet(word, |term, quality| {
                self.terms[term] = self.terms[term].max(weight * quality);
                phrase.meets.push((index, term, quality));
            });
        });
        self.phrases.push(phrase);
    }

    /// The score and reason (contract 04 §3.1), or `None` without evidence: no intent term met
    /// and no phrase bonus. Score = coverage (the share of the intent's specificity the skill
    /// meets) + evidence (0.5 × the specificity met, at most 3 terms' worth) + phrase (0.5 × the
    /// best phrase's coverage) + the phrase bonus.
    fn score(&self, specificity: &[f64]) -> Option<(f64, Reason<'a>, bool)> {
        let total: f64 = specificity.iter().sum();
        let met: f64 = specificity
            .iter()
            .zip(&self.terms)
            .map(|(weight, met)| weight * met)
            .sum();
        let coverage = if total > 0.0 { met / total } else { 0.0 };
        let evidence = EVIDENCE_WEIGHT * met.min(EVIDENCE_CAP);
        if coverage <= 0.0 && self.bonus <= 0.0 {
            return None;
        }
        let mut phrase_part = 0.0_f64;
        let mut whole_phrase = false;
        // The reason's trigger is the one the intent covers most, first on ties.
        let mut reason_trigger: Option<(&'a str, f64)> = None;
        for phrase in &self.phrases {
            let covered = phrase.coverage(specificity);
            phrase_part = phrase_part.max(covered);
            whole_phrase |= phrase.is_covered();
            if let Some(trigger) = phrase.trigger
                && covered > 0.0
                && reason_trigger.is_none_or(|(_, best)| covered > best)
            {
                reason_trigger = Some((trigger, covered));
            }
        }
        let reason = match (reason_trigger, self.heading) {
            (Some((trigger, _)), _) => Reason::Trigger(trigger),
            (None, Some((heading, _))) => Reason::Heading(heading),
            (None, None) if self.description => Reason::Description,
            (None, None) => Reason::WeakOverlap,
        };
        let met_terms = self.terms[..specificity.len()]
            .iter()
            .filter(|met| **met > 0.0)
            .count();
        let corroborated =
            self.bonus > 0.0 || met_terms >= 2 || met_terms == specificity.len() || whole_phrase;
        Some((
            coverage + evidence + PHRASE_WEIGHT * phrase_part + self.bonus,
            reason,
            corroborated,
        ))
    }
}

/// The phrase bonus of one trigger (contract 04 §3.1): 0.5 when the trimmed, lower-cased intent
/// is the trigger, 0.4 when either contains the other and the contained one has at least four
/// units.
fn bonus(lower: &str, trigger: &str) -> f64 {
    let trigger = trigger.to_lowercase();
    if lower.is_empty() || trigger.is_empty() {
        return 0.0;
    }
    let contains_trigger = lower.contains(&trigger) && text::utf16_len(&trigger) >= 4;
    let contained_in_trigger = trigger.contains(lower) && text::utf16_len(lower) >= 4;
    if lower == trigger {
        0.5
    } else if contains_trigger || contained_in_trigger {
        0.4
    } else {
        0.0
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
                "plan-today 2.154 matched trigger \"plan my day\"",
                "today 1.58 matched trigger \"today's plan\"",
                "closeday 0.562 matched trigger \"close the day\"",
            ]
        );
        let ranked = rank("plan my day", &catalog);
        assert_eq!(ranked[0].confidence(), 0.569);
        assert_eq!(confidence(&ranked), Some(0.569));
        // A runner-up's confidence is measured against the top, so it is lower.
        assert!(ranked[1].confidence() < ranked[0].confidence());
        assert!(!ranked[0].ambiguous && !ranked[1].ambiguous);
    }

    #[test]
    fn a_paraphrase_meets_its_skill_through_stems() {
        let catalog = bundled();
        // No trigger is in the intent; `reviewing` meets `review`, `weeks` meets `weekly` and
        // `week` through their Snowball stems, as in search.
        let ranked = rank("reviewing the past weeks", &catalog);
        assert_eq!(ranked.len(), 1);
        assert_eq!(ranked[0].skill.name, "weekly-review");
        assert_eq!(ranked[0].reason, Reason::Trigger("weekly review"));
        assert!(ranked[0].fit() >= ROUTE_THRESHOLD);
    }

    #[test]
    fn partial_trigger_overlap_counts_in_proportion() {
        // One skill, so every term it meets has specificity 1: coverage 1, evidence 0.5 per
        // term, phrase 0.5 × the share of the four-word trigger the intent covers. The intents
        // are not inside the trigger's text, so no phrase bonus applies until it is whole.
        let catalog = vec![skill("s", "s", "", &["ant bee cat dog"])];
        let score = |intent: &str| round_score(candidates(intent, &catalog)[0].score);
        assert_eq!(score("ant"), 1.0 + 0.5 + 0.5 * 0.25);
        assert_eq!(score("bee ant"), 1.0 + 1.0 + 0.5 * 0.5);
        assert_eq!(score("cat bee ant"), 1.0 + 1.5 + 0.5 * 0.75);
        assert_eq!(score("ant bee cat dog"), 1.0 + 1.5 + 0.5 * 1.0 + 0.5);
    }

    #[test]
    fn headings_are_counted() {
        let mut drills = skill("drills", "drills", "Practise.", &["practice session"]);
        let other = skill("notes", "notes", "Take notes.", &["take notes"]);
        let intent = "spaced repetition schedule";
        assert!(candidates(intent, &[drills.clone(), other.clone()]).is_empty());
        drills.headings = vec!["Goal".to_owned(), "Spaced repetition".to_owned()];
        let catalog = [drills, other];
        let ranked = candidates(intent, &catalog);
        assert_eq!(ranked.len(), 1);
        assert_eq!(ranked[0].reason, Reason::Heading("Spaced repetition"));
        assert_eq!(
            ranked[0].reason.to_string(),
            "matched heading \"Spaced repetition\""
        );
    }

    #[test]
    fn an_intent_no_skill_fits_is_refused() {
        let catalog = bundled();
        // A stray shared word makes a candidate, whose confidence is below the threshold.
        for intent in [
            "what's the weather in Lisbon tomorrow",
            "is it going to rain today",
            "write a haiku about autumn",
        ] {
            let found = candidates(intent, &catalog);
            assert!(!found.is_empty(), "{intent}");
            assert!(found[0].fit() < ROUTE_THRESHOLD, "{intent}");
            assert!(rank(intent, &catalog).is_empty(), "{intent}");
        }
        // Only stop words: no candidate at all.
        assert!(candidates("what should I do about it", &catalog).is_empty());
    }

    #[test]
    fn corroboration_needs_two_terms_a_whole_phrase_or_the_whole_intent() {
        let catalog = vec![
            skill(
                "a",
                "a",
                "Track habits and streaks daily.",
                &["track my habits"],
            ),
            skill("b", "b", "Sort the inbox.", &["sort mail"]),
        ];
        let first = |intent: &str| candidates(intent, &catalog)[0].corroborated;
        // `package` and `delivery` are met nowhere: one of three terms, half a trigger.
        assert!(!first("track my package delivery"));
        // Two of three terms met, no whole phrase.
        assert!(first("streaks daily tomorrow"));
        // The whole intent is met.
        assert!(first("streaks"));
        // A whole trigger is covered.
        assert!(first("sort all incoming mail"));
    }

    #[test]
    fn confidence_is_calibrated_separation() {
        let twins = vec![
            skill("a", "a", "", &["sort my inbox"]),
            skill("b", "b", "", &["sort my inbox"]),
            skill("c", "c", "", &["sort inbox mail"]),
        ];
        let ranked = candidates("sort my inbox", &twins);
        assert_eq!(ranked.len(), 3);
        assert!(ranked[0].ambiguous && ranked[1].ambiguous && !ranked[2].ambiguous);
        assert_eq!(ranked[0].separation, 0.5);
        // A tie halves the calibrated value a lone match would have.
        let alone = candidates("sort my inbox", &twins[..1]);
        assert_eq!(alone[0].confidence(), round_score(alone[0].fit()));
        assert_eq!(ranked[0].confidence(), round_score(ranked[0].fit() / 2.0));
        // Both of a tie route: the threshold asks whether a skill fits, not which.
        assert_eq!(rank("sort my inbox", &twins).len(), 3);
        for entry in ranked.iter().chain(&alone) {
            assert!((0.0..=1.0).contains(&entry.confidence()));
        }
        let catalog = bundled();
        let exact = rank("closeday", &catalog);
        assert_eq!((exact[0].confidence(), exact[0].ambiguous), (1.0, false));
    }

    #[test]
    fn fixture_table_of_section_4_2() {
        let catalog = fixture();
        assert_eq!(
            check("plan my day", &catalog),
            [
                "plan-today 2.447 matched trigger \"plan my day\"",
                "closeday 0.406 matched trigger \"close my day\"",
            ]
        );
        assert_eq!(confidence(&rank("plan my day", &catalog)), Some(0.852));
        assert_eq!(
            check("end of day", &catalog)[0],
            "closeday 2.447 matched trigger \"end of day\""
        );
        assert_eq!(
            check("work", &catalog),
            ["plan-today 2.4 matched trigger \"what should I work on\""]
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
        assert_eq!(ranked[1].skill.dir, "other");
    }

    #[test]
    fn a_phrase_bonus_alone_is_weak_overlap() {
        // `work` shares no word with `homework` but is inside it (four units or more).
        let catalog = vec![skill("chores", "chores", "Tidy the house.", &["homework"])];
        let ranked = candidates("work", &catalog);
        assert_eq!(ranked.len(), 1);
        assert_eq!(ranked[0].score, 0.4);
        assert_eq!(ranked[0].reason, Reason::WeakOverlap);
        assert_eq!(ranked[0].reason.to_string(), "weak overlap");
        // Below four units the substring bonus does not apply.
        assert!(candidates("wor", &catalog).is_empty());
    }

    #[test]
    fn description_only_match_and_reason() {
        let catalog = vec![skill("k", "k", "Sharpen the pencils.", &["other thing"])];
        let ranked = candidates("pencil", &catalog);
        assert_eq!(ranked.len(), 1);
        assert_eq!(ranked[0].reason, Reason::Description);
        assert_eq!(ranked[0].reason.to_string(), "matched description");
    }

    #[test]
    fn reason_trigger_is_the_best_covered_first_on_ties() {
        let catalog = vec![skill(
            "d",
            "d",
            "",
            &["ship it soon", "deploy later", "deploy"],
        )];
        assert_eq!(
            candidates("deploy", &catalog)[0].reason,
            Reason::Trigger("deploy")
        );
        let catalog = vec![skill("d", "d", "", &["deploy app", "app deploy"])];
        assert_eq!(
            candidates("app deploy", &catalog)[0].reason,
            Reason::Trigger("deploy app")
        );
    }

    #[test]
    fn specific_words_outweigh_common_ones() {
        // `today` is in every skill, `streak` in one: the skill holding the specific word wins
        // though both share one word with the intent.
        let catalog = vec![
            skill("a", "a", "Plan today.", &["today"]),
            skill("b", "b", "Track today's streak.", &["today streak"]),
            skill("c", "c", "Close today.", &["today"]),
        ];
        let ranked = candidates("my streak", &catalog);
        assert_eq!(ranked[0].skill.dir, "b");
        assert_eq!(ranked.len(), 1);
        let ranked = candidates("today streak", &catalog);
        assert_eq!(ranked[0].skill.dir, "b");
        assert!(ranked[1].score < ranked[0].score / 2.0);
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
        let names: Vec<&str> = candidates("sync notes", &catalog)
            .iter()
            .map(|m| m.skill.name.as_str())
            .collect();
        assert_eq!(names, ["alpha", "beta", "Zeta", "gamma"]);
    }

    #[test]
    fn equal_names_keep_catalog_order() {
        let catalog = vec![
            skill("one", "same", "", &["tidy inbox"]),
            skill("two", "same", "", &["tidy inbox"]),
        ];
        let dirs: Vec<&str> = candidates("tidy inbox", &catalog)
            .iter()
            .map(|m| m.skill.dir.as_str())
            .collect();
        assert_eq!(dirs, ["one", "two"]);
    }

    #[test]
    fn empty_and_blank_intents_match_nothing() {
        assert!(candidates("", &bundled()).is_empty());
        assert!(candidates(" \u{3000}\t", &bundled()).is_empty());
        assert!(candidates("how do I", &bundled()).is_empty());
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
