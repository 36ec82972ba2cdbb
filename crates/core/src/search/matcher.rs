//! Query normalisation (contract 03 §5) and the literal score of §6: how often the phrase or
//! each query word occurs as a substring of a memory entry's field, which picks the field a
//! memory result shows and its wire `score` (§10.3). It decides nothing else: which text
//! matches, and the `match` kind of every result, are the relevance analyzer's
//! (`relevance::kind_of`, §6.1); this module has no analyzer of its own (no stems, no
//! suffixes, no tokens) and must never grow one.
//!
//! Everything here works on text that the caller has already lowercased (the "haystack" `h`
//! of §6): matching never lowercases on its own. It must stay pure: no I/O, no allocation per
//! haystack beyond what a count needs, and no pass over a haystack whose cost grows with the
//! number of query terms.

use std::collections::HashMap;

use aho_corasick::{AhoCorasick, Input, MatchKind as AcMatchKind};
use memchr::memmem::Finder;

use crate::search::relevance::{AnalysedQuery, lowercase};
use crate::search::window::SnippetForm;
use crate::text::{is_js_space, js_trim};

/// The set of byte values occurring in a text: a query-independent profile of a haystack that
/// rules a needle out without a scan, since a needle with a byte the haystack lacks cannot occur
/// in it. The server's cache keeps one beside each lowercase text (contract 03 §19.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct ByteSet([u64; 4]);

impl ByteSet {
    /// The bytes of `bytes`.
    pub(crate) fn of(bytes: &[u8]) -> ByteSet {
        let mut seen = [false; 256];
        for &byte in bytes {
            seen[usize::from(byte)] = true;
        }
        let mut words = [0_u64; 4];
        for (value, present) in seen.iter().enumerate() {
            if *present {
                words[value / 64] |= 1 << (value % 64);
            }
        }
        ByteSet(words)
    }

    /// Whether every byte is ASCII (so a text of this profile folds to itself, §5.1).
    pub(crate) fn is_ascii(&self) -> bool {
        self.0[2] == 0 && self.0[3] == 0
    }

    /// Whether every byte of `needle` is in `self`.
    pub(crate) fn covers(&self, needle: &ByteSet) -> bool {
        self.0
            .iter()
            .zip(&needle.0)
            .all(|(have, need)| need & !have == 0)
    }
}

/// The distinct terms of a query and the searchers that scan a haystack once for all of them.
///
/// Matching costs one pass per haystack whatever the number of terms (contract 03 §19 rule 6): each
/// distinct term is counted once and weighted by how often the query repeats it, counting stops at
/// the score caps of §6, and all terms are found by one Aho-Corasick automaton.
#[derive(Debug)]
struct Distinct {
    texts: Vec<String>,
    /// How many query terms have each distinct text.
    multiplicity: Vec<u32>,
    /// All distinct texts, pattern `i` being `texts[i]`; `None` when there are no terms or
    /// the automaton cannot be built (then `finders` count term by term).
    automaton: Option<AhoCorasick>,
    finders: Vec<Finder<'static>>,
    /// The bytes of each distinct text.
    bytes: Vec<ByteSet>,
    max_len: usize,
}

/// Reports of already saturated terms tolerated before the automaton is rebuilt without them.
/// Each rebuild drops at least one term, so a haystack costs at most `terms × REBUILD_AFTER`
/// wasted reports on top of one pass.
const REBUILD_AFTER: u32 = 256;

impl Distinct {
    fn new(terms: &[&str]) -> (Distinct, Vec<usize>) {
        let mut texts: Vec<String> = Vec::new();
        let mut multiplicity: Vec<u32> = Vec::new();
        let mut index_of: HashMap<&str, usize> = HashMap::new();
        let mut order = Vec::with_capacity(terms.len());
        for &term in terms {
            let index = *index_of.entry(term).or_insert_with(|| {
                texts.push(term.to_owned());
                multiplicity.push(0);
                texts.len() - 1
            });
            multiplicity[index] += 1;
            order.push(index);
        }
        let automaton = build_automaton(texts.iter().map(String::as_str));
        let finders = texts
            .iter()
            .map(|text| Finder::new(text.as_bytes()).into_owned())
            .collect();
        let distinct = Distinct {
            max_len: texts.iter().map(String::len).max().unwrap_or(0),
            bytes: texts
                .iter()
                .map(|text| ByteSet::of(text.as_bytes()))
                .collect(),
            texts,
            multiplicity,
            automaton,
            finders,
        };
        (distinct, order)
    }

    fn len(&self) -> usize {
        self.texts.len()
    }

    /// Non-overlapping occurrences (§6 `occ`) of every distinct term in `haystack`, each
    /// counted up to `cap`, in one pass that stops once every term has reached the cap.
    fn count(&self, haystack: &[u8], cap: u32) -> Vec<u32> {
        let terms = self.len();
        let mut counts = vec![0_u32; terms];
        let Some(full) = &self.automaton else {
            for (count, finder) in counts.iter_mut().zip(&self.finders) {
                *count = count_non_overlapping(finder, haystack, cap);
            }
            return counts;
        };
        // Where each term's next counted occurrence may start: occurrences arrive in order of
        // their end, which for one term is the order of their start, so counting greedily
        // here is the left-to-right scan of §6.
        let mut resume = vec![0_usize; terms];
        let mut unsaturated = terms;
        let mut rebuilt: Option<(AhoCorasick, Vec<usize>)> = None;
        let mut from = 0;
        loop {
            let (automaton, ids) = match &rebuilt {
                Some((automaton, ids)) => (automaton, Some(ids.as_slice())),
                None => (full, None),
            };
            let mut wasted = 0_u32;
            let mut restart = None;
            for found in automaton.find_overlapping_iter(Input::new(haystack).range(from..)) {
                let pattern = found.pattern().as_usize();
                let index = ids.map_or(pattern, |ids| ids[pattern]);
                if counts[index] >= cap {
                    wasted += 1;
                    if wasted == REBUILD_AFTER {
                        let remaining: Vec<usize> =
                            (0..terms).filter(|&index| counts[index] < cap).collect();
                        if let Some(next) =
                            build_automaton(remaining.iter().map(|&index| &*self.texts[index]))
                        {
                            // Every occurrence ending after this one starts at or after
                            // `end + 1 - max_len`; occurrences seen again are skipped by
                            // `resume`, so rescanning that overlap changes no count.
                            restart = Some((
                                (found.end() + 1).saturating_sub(self.max_len),
                                next,
                                remaining,
                            ));
                            break;
                        }
                    }
                    continue;
                }
                if found.start() >= resume[index] {
                    counts[index] += 1;
                    resume[index] = found.end();
                    if counts[index] == cap {
                        unsaturated -= 1;
                        if unsaturated == 0 {
                            return counts;
                        }
                    }
                }
            }
            match restart {
                Some((start, automaton, ids)) => {
                    from = start;
                    rebuilt = Some((automaton, ids));
                }
                None => return counts,
            }
        }
    }
}

fn build_automaton<'a>(patterns: impl Iterator<Item = &'a str>) -> Option<AhoCorasick> {
    let patterns: Vec<&str> = patterns.collect();
    if patterns.is_empty() {
        return None;
    }
    AhoCorasick::builder()
        .match_kind(AcMatchKind::Standard)
        .build(patterns)
        .ok()
}

/// The query normalisation of contract 03 §5, the one both the search and the CLI's
/// highlighting (§17.4) use: trimmed of JS whitespace, lowercased (Unicode default full
/// lowercase), and split at every run of JS whitespace. The terms keep their order and their
/// duplicates; the normalised phrase is them joined by one space.
pub fn query_terms(raw: &str) -> Vec<String> {
    js_trim(raw)
        .to_lowercase()
        .split(is_js_space)
        .filter(|piece| !piece.is_empty())
        .map(str::to_owned)
        .collect()
}

/// A normalised query (§5): the phrase and its terms, duplicates kept.
#[derive(Debug)]
pub(crate) struct Query {
    pub(crate) phrase: String,
    phrase_finder: Finder<'static>,
    phrase_bytes: ByteSet,
    /// Per query term, in order (duplicates kept), the index of its text in `distinct`.
    pub(crate) terms: Vec<usize>,
    distinct: Distinct,
    /// The normalised terms of the relevance model (§5.1), which decide candidates and order.
    pub(crate) analysed: AnalysedQuery,
    /// The bytes of each of `analysed`'s gates, for [`Query::ruled_out_by`].
    gate_bytes: Vec<ByteSet>,
    /// How Markdown snippets are shown (§8.2); the request's, lines unless it asks for windows.
    pub(crate) snippets: SnippetForm,
}

impl Query {
    /// The query of [`query_terms`]: its terms, and the phrase they make joined by one space.
    pub(crate) fn new(raw: &str) -> Query {
        let normalised = query_terms(raw);
        let phrase = normalised.join(" ");
        let pieces: Vec<&str> = normalised.iter().map(String::as_str).collect();
        let (distinct, terms) = Distinct::new(&pieces);
        let analysed = AnalysedQuery::new(&phrase);
        Query {
            gate_bytes: analysed
                .gates()
                .map(|gate| ByteSet::of(gate.as_bytes()))
                .collect(),
            analysed,
            phrase_finder: Finder::new(phrase.as_bytes()).into_owned(),
            phrase_bytes: ByteSet::of(phrase.as_bytes()),
            phrase,
            terms,
            distinct,
            snippets: SnippetForm::Lines,
        }
    }

    /// The same query, its Markdown snippets shown in `form` (§8.2).
    pub(crate) fn with_snippets(mut self, form: SnippetForm) -> Query {
        self.snippets = form;
        self
    }

    /// The literal score of §6 (`match(text, query)`), given `lower` = lowercase(text): `None`
    /// when neither the phrase nor any term occurs.
    pub(crate) fn literal_score(&self, lower: &str) -> Option<u32> {
        self.literal_score_in(lower, None)
    }

    /// Whether a text whose lowercase form has the byte set `profile` cannot match, known from
    /// the profile alone: the text is ASCII, so folding leaves it as it is, and every query
    /// term's gate has a byte it lacks, so `AnalysedQuery::may_match` would find none (contract
    /// 03 §19.2: the cache's profile only ever rules a file out). `false` when it cannot tell.
    pub(crate) fn ruled_out_by(&self, profile: &ByteSet) -> bool {
        profile.is_ascii() && !self.gate_bytes.iter().any(|gate| profile.covers(gate))
    }

    /// [`Query::literal_score`] given, when known, the [`ByteSet`] of `lower`: a needle with a
    /// byte outside it is absent without a scan, so the outcome is the same.
    pub(crate) fn literal_score_in(&self, lower: &str, profile: Option<&ByteSet>) -> Option<u32> {
        if self.phrase.is_empty() {
            return None;
        }
        let possible = |needle: &ByteSet| profile.is_none_or(|profile| profile.covers(needle));
        if possible(&self.phrase_bytes) && self.phrase_finder.find(lower.as_bytes()).is_some() {
            let occurrences = count_non_overlapping(&self.phrase_finder, lower.as_bytes(), 6);
            return Some(10 + (occurrences - 1).min(5));
        }
        let terms = self.terms.len();
        if terms < 2 || !self.distinct.bytes.iter().any(possible) {
            return None;
        }
        // A present term counts at least once, so capping each distinct count at 6 keeps the
        // saturated sum (≥ terms + 5) exact even when weighted by multiplicity.
        let counts = self.distinct.count(lower.as_bytes(), 6);
        let mut present = 0;
        let mut total = 0;
        for (count, multiplicity) in counts.iter().zip(&self.distinct.multiplicity) {
            if *count > 0 {
                present += multiplicity;
                total += count * multiplicity;
            }
        }
        let term_count = terms as u32;
        if present == term_count {
            Some(5 + (total - term_count).min(5))
        } else if present > 0 {
            Some(present)
        } else {
            None
        }
    }

    /// The text of every query term, in order (tests only).
    #[cfg(test)]
    pub(crate) fn term_texts(&self) -> Vec<&str> {
        self.terms
            .iter()
            .map(|&term| self.distinct.texts[term].as_str())
            .collect()
    }

    /// [`Query::literal_score`] on text that still needs lowercasing.
    pub(crate) fn literal_score_of(&self, text: &str) -> Option<u32> {
        if self.phrase.is_empty() {
            return None;
        }
        self.literal_score(&lowercase(text))
    }
}

fn count_non_overlapping(finder: &Finder<'_>, haystack: &[u8], cap: u32) -> u32 {
    let needle_len = finder.needle().len().max(1);
    let mut count = 0;
    let mut from = 0;
    while count < cap {
        match finder.find(&haystack[from..]) {
            Some(found) => {
                count += 1;
                from += found + needle_len;
            }
            None => break,
        }
    }
    count
}

#[cfg(test)]
mod oracle;

#[cfg(test)]
mod tests {
    use super::oracle::OracleQuery;
    use super::*;
    use proptest::prelude::*;

    fn score(query: &str, text: &str) -> Option<u32> {
        Query::new(query).literal_score_of(text)
    }

    #[test]
    fn normalisation_trims_lowercases_and_collapses() {
        let query = Query::new("\u{3000} Alpha\t\n  BETA \u{feff}");
        assert_eq!(query.phrase, "alpha beta");
        let terms = query.term_texts();
        assert_eq!(terms, ["alpha", "beta"]);
        assert_eq!(
            query_terms("\u{3000} Alpha\t\n  BETA \u{feff}"),
            ["alpha", "beta"]
        );
        // U+0085 is not JS whitespace: it stays inside the term.
        assert_eq!(Query::new("a\u{85}b").terms.len(), 1);
    }

    #[test]
    fn duplicates_are_kept_and_quotes_are_characters() {
        let query = Query::new("alpha alpha");
        assert_eq!(query.terms.len(), 2);
        let query = Query::new("\"launch c++ EPIPE-4712");
        let terms = query.term_texts();
        assert_eq!(terms, ["\"launch", "c++", "epipe-4712"]);
    }

    #[test]
    fn empty_phrase_matches_nothing() {
        assert_eq!(score("", "anything"), None);
        assert_eq!(score(" \t ", "  "), None);
    }

    #[test]
    fn phrase_scores_count_non_overlapping_occurrences() {
        assert_eq!(score("ab", "xx ab"), Some(10));
        assert_eq!(score("aa", "aaaa"), Some(11));
        assert_eq!(score("aa", "aaa"), Some(10));
        assert_eq!(score("x", &"x".repeat(40)), Some(15));
        assert_eq!(score("Hello", "HELLO"), Some(10));
    }

    #[test]
    fn whitespace_in_haystack_is_not_normalised() {
        assert_eq!(score("alpha beta", "alpha  beta"), Some(5));
        assert_eq!(score("alpha beta", "alpha\nbeta"), Some(5));
    }

    #[test]
    fn terms_and_partial_scores() {
        assert_eq!(score("alpha beta", "beta alpha x beta y alpha"), Some(7));
        assert_eq!(
            score("alpha beta", &"alpha beta ".repeat(9).replace(' ', "  ")),
            Some(10)
        );
        assert_eq!(score("alpha beta gamma", "gamma alpha"), Some(2));
        // Duplicated terms count again.
        assert_eq!(score("alpha alpha beta", "alpha"), Some(2));
        assert_eq!(score("alpha alpha", "alpha x alpha"), Some(7));
    }

    /// No inflection here: a word that only shares a stem with a query word has no literal
    /// score (its kind is the analyzer's, §6.1).
    #[test]
    fn inflections_have_no_literal_score() {
        assert_eq!(score("programmare", "programma di lavoro"), None);
        assert_eq!(score("meetings", "(meet) later"), None);
        assert_eq!(score("meetings fatture", "meeting fattura"), None);
        assert_eq!(score("meetings fattura", "meeting fattura"), Some(1));
    }

    #[test]
    fn unicode_queries_match() {
        assert_eq!(score("東京", "会議は東京で"), Some(10));
        assert_eq!(score("CAFÉ", "un café"), Some(10));
        assert_eq!(score("🎉", "party 🎉🎉"), Some(11));
        assert_eq!(score("İstanbul", "i\u{307}stanbul"), Some(10));
    }

    proptest! {
        #[test]
        fn never_panics_and_a_single_term_is_a_phrase(query in "\\PC{0,12}", text in "\\PC{0,60}") {
            let parsed = Query::new(&query);
            if let Some(found) = parsed.literal_score_of(&text) {
                prop_assert!(!parsed.phrase.is_empty());
                if parsed.terms.len() == 1 {
                    prop_assert!(found >= 10);
                }
            }
        }

        #[test]
        fn a_text_containing_the_phrase_scores_as_phrase(
            words in proptest::collection::vec("[a-zA-Zé東]{1,6}", 1..4),
            before in "\\PC{0,10}",
            after in "\\PC{0,10}",
        ) {
            let query = words.join(" ");
            let text = format!("{before}{query}{after}");
            let found = Query::new(&query).literal_score_of(&text).unwrap();
            prop_assert!(found >= 10);
        }

        /// Linear counting agrees with the term-by-term oracle, over small alphabets that make
        /// terms overlap and repeat.
        #[test]
        fn linear_matching_agrees_with_the_oracle(
            words in proptest::collection::vec(
                proptest::sample::select(&WORDS[..]),
                0..9,
            ),
            text in "(a|b|aa|ab| |\\n|-|_|x|é|meet|meeting|ing|fattura|fatture|2|\\.)*",
        ) {
            let raw = words.join(" ");
            assert_same(&raw, &text);
        }

        /// The same over ASCII texts only, where a profile can rule a text out.
        #[test]
        fn linear_matching_agrees_with_the_oracle_on_ascii_text(
            words in proptest::collection::vec(
                proptest::sample::select(&WORDS[..]),
                0..4,
            ),
            text in "(a|b|ab| |\\n|-|_|x|meet|ing|fattura|2|\\.)*",
        ) {
            let raw = words.join(" ");
            assert_same(&raw, &text);
        }


        #[test]
        fn linear_matching_agrees_with_the_oracle_on_any_text(
            query in "\\PC{0,16}",
            text in "\\PC{0,80}",
        ) {
            assert_same(&query, &text);
        }
    }

    #[test]
    fn byte_sets_cover_exactly_their_bytes() {
        let text = ByteSet::of("meet é\n".as_bytes());
        assert!(text.covers(&ByteSet::of(b"teem")));
        assert!(text.covers(&ByteSet::of("é".as_bytes())));
        assert!(text.covers(&ByteSet::of(b"")));
        assert!(!text.covers(&ByteSet::of(b"meat")));
        assert!(!text.covers(&ByteSet::of(&[0xff])));
        assert!(!ByteSet::of(b"").covers(&ByteSet::of(b"\0")));
        // A profile that rules a needle out turns a would-be match into no scan at all, so it
        // must be the haystack's own: a stale one changes the answer.
        let query = Query::new("quay wall");
        let lower = "the quay";
        assert_eq!(query.literal_score(lower), Some(1));
        assert_eq!(
            query.literal_score_in(lower, Some(&ByteSet::of(lower.as_bytes()))),
            Some(1)
        );
        let stale = ByteSet::of(b"the");
        assert_eq!(query.literal_score_in(lower, Some(&stale)), None);
    }

    #[test]
    fn a_profile_rules_out_only_an_ascii_text_lacking_every_gate() {
        let query = Query::new("quay wall");
        assert!(!query.ruled_out_by(&ByteSet::of(b"the harbour wall")));
        assert!(!query.ruled_out_by(&ByteSet::of(b"the quay")));
        assert!(query.ruled_out_by(&ByteSet::of(b"the harbour")));
        // Folding can make a gate's bytes out of others (`ï` is `i`): a text with a non-ASCII
        // byte is never ruled out by its profile.
        let query = Query::new("naive");
        assert!(query.ruled_out_by(&ByteSet::of(b"nave")));
        assert!(!query.ruled_out_by(&ByteSet::of("na\u{ef}ve".as_bytes())));
        assert!(
            query
                .analysed
                .may_match(&crate::search::relevance::fold_accents("na\u{ef}ve"))
        );
    }

    /// Query words that overlap, repeat and form tokens.
    const WORDS: [&str; 14] = [
        "a", "aa", "ab", "b", "ba", "aab", "ing", "meet", "meetings", "fatture", "é", "-", "x_",
        "aa-b",
    ];

    fn assert_same(raw: &str, text: &str) {
        let query = Query::new(raw);
        let terms = query.term_texts();
        let oracle = OracleQuery::new(&query.phrase, &terms);
        let lower = lowercase(text);
        let found = query.literal_score(&lower);
        // The cached profile of the haystack only skips needles it rules out.
        let profile = ByteSet::of(lower.as_bytes());
        assert_eq!(
            query.literal_score_in(&lower, Some(&profile)),
            found,
            "{raw:?} in {text:?} with its profile"
        );
        // And it rules out only a text the gate scan would rule out.
        if query.ruled_out_by(&profile) {
            assert!(
                !query
                    .analysed
                    .may_match(&crate::search::relevance::fold_accents(&lower)),
                "{raw:?} ruled out of {text:?} by its profile"
            );
        }
        assert_eq!(found, oracle.literal_score(&lower), "{raw:?} in {text:?}");
    }

    #[test]
    fn saturated_terms_are_dropped_without_changing_counts() {
        // Thirty overlapping terms over one long run: most saturate at once and are rebuilt
        // away; `b` never occurs and `a…a` (31) only at the very end.
        let mut words: Vec<String> = (1..=30).map(|len| "a".repeat(len)).collect();
        words.push("b".to_owned());
        let raw = words.join(" ");
        for text in [
            "a".repeat(20_000),
            format!("{}b", "a".repeat(20_000)),
            format!("b {}", "ab".repeat(5_000)),
        ] {
            assert_same(&raw, &text);
        }
        assert_same(&"a ".repeat(250), &"a".repeat(10_000));
        // A long term whose only occurrence straddles the point where the automaton is
        // rebuilt (after 256 wasted reports of the saturated `a`).
        let long = format!("{}b", "a".repeat(300));
        let query = Query::new(&format!("a {long}"));
        let text = format!("{}b", "a".repeat(400));
        assert!(
            query
                .literal_score(&text)
                .is_some_and(|score| (5..=10).contains(&score))
        );
        assert_same(&format!("a {long}"), &text);
    }
}
