//! Query normalisation, the four match tiers and inflection folding (spec 03 §5–§7).
//!
//! Everything here works on text that the caller has already lowercased (the "haystack" `h`
//! of §6): matching never lowercases on its own, so a file is lowercased once and every line,
//! title and path check reuses slices of that one lowercase copy. Only query terms are ever
//! folded; documents are not.
//!
//! This module must stay pure: no I/O, no allocation per haystack beyond what a match needs.

use memchr::memmem::Finder;

use crate::search::unicode::{is_letter, is_letter_or_number};
use crate::text::{is_js_space, js_trim, utf16_len};

/// The kind (tier) of a match, in the order of spec 03 §6.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MatchKind {
    /// The whole normalised phrase occurs.
    Phrase,
    /// Every term occurs (two or more terms).
    Terms,
    /// Some but not all terms occur (two or more terms).
    Partial,
    /// No term occurs literally, but every term's folded stem starts a word.
    Inflected,
}

impl MatchKind {
    /// The wire name: `phrase`, `terms`, `partial` or `inflected`.
    pub fn as_str(self) -> &'static str {
        match self {
            MatchKind::Phrase => "phrase",
            MatchKind::Terms => "terms",
            MatchKind::Partial => "partial",
            MatchKind::Inflected => "inflected",
        }
    }

    /// The ranking tier of §9.1: phrase 4, terms 3, partial 2, inflected 1.
    pub(crate) fn tier(self) -> f64 {
        match self {
            MatchKind::Phrase => 4.0,
            MatchKind::Terms => 3.0,
            MatchKind::Partial => 2.0,
            MatchKind::Inflected => 1.0,
        }
    }

    /// The snippet sort weight of §8.2 (open point: `inflected` weighs 0).
    pub(crate) fn snippet_weight(self) -> u8 {
        match self {
            MatchKind::Phrase => 3,
            MatchKind::Terms => 2,
            MatchKind::Partial => 1,
            MatchKind::Inflected => 0,
        }
    }
}

/// The outcome of `match(text, query)` when it matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Match {
    pub(crate) kind: MatchKind,
    pub(crate) score: u32,
}

/// One query term with its precomputed searchers.
#[derive(Debug)]
pub(crate) struct Term {
    pub(crate) text: String,
    finder: Finder<'static>,
    /// The folded stem (§7), when the term folds.
    stem: Option<Finder<'static>>,
    /// Whether the term can ever be a token of §9.2 (only `[a-z0-9_-]`, non-empty).
    pub(crate) tokenlike: bool,
}

impl Term {
    fn new(text: &str) -> Term {
        Term {
            text: text.to_owned(),
            finder: Finder::new(text.as_bytes()).into_owned(),
            stem: fold(text).map(|stem| Finder::new(stem.as_bytes()).into_owned()),
            tokenlike: !text.is_empty() && text.bytes().all(is_token_byte),
        }
    }

    /// Whether the term is a substring of the lowercase haystack.
    pub(crate) fn occurs_in(&self, lower: &str) -> bool {
        self.finder.find(lower.as_bytes()).is_some()
    }

    /// Non-overlapping occurrences, counted up to `cap`.
    fn count_in(&self, lower: &str, cap: u32) -> u32 {
        count_non_overlapping(&self.finder, lower.as_bytes(), cap)
    }

    /// Whether the term is one of the document's tokens (§9.2): an occurrence with no token
    /// character on either side.
    pub(crate) fn is_token_of(&self, lower: &str) -> bool {
        if !self.tokenlike {
            return false;
        }
        let bytes = lower.as_bytes();
        let needle_len = self.text.len();
        let mut from = 0;
        while let Some(found) = self.finder.find(&bytes[from..]) {
            let start = from + found;
            let end = start + needle_len;
            let before_ok = start == 0 || !is_token_byte(bytes[start - 1]);
            let after_ok = end == bytes.len() || !is_token_byte(bytes[end]);
            if before_ok && after_ok {
                return true;
            }
            // Overlapping occurrences can hide a whole-token one, so advance by one byte.
            from = start + 1;
        }
        false
    }

    /// Whether the folded stem starts a word somewhere in the haystack (§7 "inflection hit").
    fn has_inflection_hit(&self, lower: &str) -> bool {
        let Some(stem) = &self.stem else {
            return false;
        };
        let bytes = lower.as_bytes();
        let mut from = 0;
        while let Some(found) = stem.find(&bytes[from..]) {
            let start = from + found;
            let preceded_by_word = lower[..start]
                .chars()
                .next_back()
                .is_some_and(is_letter_or_number);
            if !preceded_by_word {
                return true;
            }
            from = start + 1;
        }
        false
    }
}

/// A normalised query (§5): the phrase and its terms, duplicates kept.
#[derive(Debug)]
pub(crate) struct Query {
    pub(crate) phrase: String,
    phrase_finder: Finder<'static>,
    pub(crate) terms: Vec<Term>,
}

impl Query {
    /// Trims, lowercases and collapses every run of JS whitespace to one space.
    pub(crate) fn new(raw: &str) -> Query {
        let lowered = js_trim(raw).to_lowercase();
        let mut phrase = String::with_capacity(lowered.len());
        let mut in_space = false;
        for c in lowered.chars() {
            if is_js_space(c) {
                in_space = true;
                continue;
            }
            if in_space && !phrase.is_empty() {
                phrase.push(' ');
            }
            in_space = false;
            phrase.push(c);
        }
        let terms = phrase
            .split(' ')
            .filter(|piece| !piece.is_empty())
            .map(Term::new)
            .collect();
        Query {
            phrase_finder: Finder::new(phrase.as_bytes()).into_owned(),
            phrase,
            terms,
        }
    }

    /// `match(text, query)` of §6, given `lower` = lowercase(text).
    pub(crate) fn match_lower(&self, lower: &str) -> Option<Match> {
        if self.phrase.is_empty() {
            return None;
        }
        if self.phrase_finder.find(lower.as_bytes()).is_some() {
            let occurrences = count_non_overlapping(&self.phrase_finder, lower.as_bytes(), 6);
            return Some(Match {
                kind: MatchKind::Phrase,
                score: 10 + (occurrences - 1).min(5),
            });
        }
        let term_count = self.terms.len() as u32;
        if self.terms.len() >= 2 {
            // A present term counts at least once, so capping each count at 6 keeps the
            // saturated sum (≥ terms + 5) exact.
            let counts: Vec<u32> = self
                .terms
                .iter()
                .map(|term| term.count_in(lower, 6))
                .collect();
            let present = counts.iter().filter(|&&count| count > 0).count() as u32;
            if present == term_count {
                let total: u32 = counts.iter().sum();
                return Some(Match {
                    kind: MatchKind::Terms,
                    score: 5 + (total - term_count).min(5),
                });
            }
            if present > 0 {
                return Some(Match {
                    kind: MatchKind::Partial,
                    score: present,
                });
            }
        }
        if !self.terms.is_empty() && self.terms.iter().all(|term| term.has_inflection_hit(lower)) {
            return Some(Match {
                kind: MatchKind::Inflected,
                score: term_count,
            });
        }
        None
    }

    /// `match` on text that still needs lowercasing.
    pub(crate) fn match_text(&self, text: &str) -> Option<Match> {
        if self.phrase.is_empty() {
            return None;
        }
        self.match_lower(&lowercase(text))
    }
}

/// The suffixes of §7, in exactly the order the spec gives (not longest first; `ando` twice).
const SUFFIXES: [&str; 47] = [
    "azioni", "azione", "amento", "amenti", "endo", "ando", "arono", "erono", "irono", "iamo",
    "iate", "ando", "ata", "ate", "ati", "ato", "uta", "ute", "uti", "uto", "ita", "ite", "iti",
    "ito", "are", "ere", "ire", "arsi", "ersi", "irsi", "eremo", "eranno", "erebbe", "ization",
    "isation", "ations", "ation", "ings", "ing", "edly", "ed", "es", "s", "i", "e", "o", "a",
];

/// `fold(term)` of §7: the stem that a hit must start with, or `None` when the term does not
/// fold.
pub(crate) fn fold(term: &str) -> Option<String> {
    let term = term.to_lowercase();
    let units = utf16_len(&term);
    if units < 5 || !term.chars().all(is_letter) {
        return None;
    }
    let suffix = SUFFIXES
        .iter()
        .find(|suffix| term.ends_with(*suffix) && units - suffix.len() >= 4)?;
    let mut stem = term[..term.len() - suffix.len()].to_owned();
    let stem_units = units - suffix.len();
    if stem_units > 4 {
        let mut tail = stem.chars().rev();
        if let (Some(last), Some(before)) = (tail.next(), tail.next()) {
            // Two equal UTF-16 units at the end: only possible for two equal BMP characters,
            // since a low surrogate never equals the unit before it in a valid pair.
            if last == before && (last as u32) < 0x1_0000 {
                stem.pop();
            }
        }
    }
    Some(stem)
}

/// The Unicode default full lowercase (with Final_Sigma), with an ASCII fast path.
pub(crate) fn lowercase(text: &str) -> String {
    if text.is_ascii() {
        text.to_ascii_lowercase()
    } else {
        text.to_lowercase()
    }
}

/// Lowercases `text` into `buffer`, reusing its allocation.
pub(crate) fn lowercase_into(text: &str, buffer: &mut String) {
    buffer.clear();
    if text.is_ascii() {
        buffer.push_str(text);
        buffer.make_ascii_lowercase();
    } else {
        buffer.push_str(&text.to_lowercase());
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

/// The token alphabet of §9.2: `[a-z0-9_-]` (applied to lowercased text).
pub(crate) fn is_token_byte(byte: u8) -> bool {
    byte.is_ascii_lowercase() || byte.is_ascii_digit() || byte == b'_' || byte == b'-'
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn kind_score(query: &str, text: &str) -> Option<(&'static str, u32)> {
        Query::new(query)
            .match_text(text)
            .map(|found| (found.kind.as_str(), found.score))
    }

    #[test]
    fn normalisation_trims_lowercases_and_collapses() {
        let query = Query::new("\u{3000} Alpha\t\n  BETA \u{feff}");
        assert_eq!(query.phrase, "alpha beta");
        let terms: Vec<&str> = query.terms.iter().map(|term| term.text.as_str()).collect();
        assert_eq!(terms, ["alpha", "beta"]);
        // U+0085 is not JS whitespace: it stays inside the term.
        assert_eq!(Query::new("a\u{85}b").terms.len(), 1);
    }

    #[test]
    fn duplicates_are_kept_and_quotes_are_characters() {
        let query = Query::new("alpha alpha");
        assert_eq!(query.terms.len(), 2);
        let query = Query::new("\"launch c++ EPIPE-4712");
        let terms: Vec<&str> = query.terms.iter().map(|term| term.text.as_str()).collect();
        assert_eq!(terms, ["\"launch", "c++", "epipe-4712"]);
    }

    #[test]
    fn empty_phrase_matches_nothing() {
        assert_eq!(kind_score("", "anything"), None);
        assert_eq!(kind_score(" \t ", "  "), None);
    }

    #[test]
    fn phrase_scores_count_non_overlapping_occurrences() {
        assert_eq!(kind_score("ab", "xx ab"), Some(("phrase", 10)));
        assert_eq!(kind_score("aa", "aaaa"), Some(("phrase", 11)));
        assert_eq!(kind_score("aa", "aaa"), Some(("phrase", 10)));
        assert_eq!(kind_score("x", &"x".repeat(40)), Some(("phrase", 15)));
        assert_eq!(kind_score("Hello", "HELLO"), Some(("phrase", 10)));
    }

    #[test]
    fn whitespace_in_haystack_is_not_normalised() {
        assert_eq!(kind_score("alpha beta", "alpha  beta"), Some(("terms", 5)));
        assert_eq!(kind_score("alpha beta", "alpha\nbeta"), Some(("terms", 5)));
    }

    #[test]
    fn terms_and_partial_scores() {
        assert_eq!(
            kind_score("alpha beta", "beta alpha x beta y alpha"),
            Some(("terms", 7))
        );
        assert_eq!(
            kind_score("alpha beta", &"alpha beta ".repeat(9).replace(' ', "  ")),
            Some(("terms", 10))
        );
        assert_eq!(
            kind_score("alpha beta gamma", "gamma alpha"),
            Some(("partial", 2))
        );
        // Duplicated terms count again.
        assert_eq!(
            kind_score("alpha alpha beta", "alpha"),
            Some(("partial", 2))
        );
        assert_eq!(
            kind_score("alpha alpha", "alpha x alpha"),
            Some(("terms", 7))
        );
    }

    #[test]
    fn fold_examples_from_the_spec() {
        assert_eq!(fold("meetings").as_deref(), Some("meet"));
        assert_eq!(fold("fatture").as_deref(), Some("fattur"));
        assert_eq!(fold("preventivi").as_deref(), Some("preventiv"));
        assert_eq!(fold("programmare").as_deref(), Some("program"));
        assert_eq!(fold("emessa").as_deref(), Some("emes"));
        assert_eq!(fold("running").as_deref(), Some("runn"));
        for none in [
            "case",
            "sono",
            "the",
            "helicopter",
            "epipe-4712",
            "2026-08-11",
            "",
        ] {
            assert_eq!(fold(none), None, "{none}");
        }
    }

    #[test]
    fn fold_skips_suffixes_that_leave_a_short_stem() {
        // `ings` would leave `th`; `s` leaves `thing` (5 units) with no doubled ending.
        assert_eq!(fold("things").as_deref(), Some("thing"));
        // `ata` is listed before `a`: `parlata` → `parl`.
        assert_eq!(fold("parlata").as_deref(), Some("parl"));
    }

    #[test]
    fn inflection_hits_need_a_word_start() {
        assert_eq!(
            kind_score("programmare", "programma di lavoro"),
            Some(("inflected", 1))
        );
        assert_eq!(kind_score("programmare", "subprogramme"), None);
        assert_eq!(kind_score("case", "La casa"), None);
        assert_eq!(
            kind_score("meetings", "(meet) later"),
            Some(("inflected", 1))
        );
        assert_eq!(kind_score("meetings", "2meet"), None);
        assert_eq!(
            kind_score("meetings fatture", "meeting fattura"),
            Some(("inflected", 2))
        );
        // One literal term makes it partial, never inflected.
        assert_eq!(
            kind_score("meetings fattura", "meeting fattura"),
            Some(("partial", 1))
        );
    }

    #[test]
    fn tokens_need_boundaries() {
        let query = Query::new("need");
        let term = &query.terms[0];
        assert!(!term.is_token_of("needle"));
        assert!(term.is_token_of("a need."));
        assert!(term.is_token_of("perché need"));
        assert!(!term.is_token_of("need_x"));
        let query = Query::new("café");
        assert!(!query.terms[0].is_token_of("café"));
    }

    #[test]
    fn unicode_queries_match() {
        assert_eq!(kind_score("東京", "会議は東京で"), Some(("phrase", 10)));
        assert_eq!(kind_score("CAFÉ", "un café"), Some(("phrase", 10)));
        assert_eq!(kind_score("🎉", "party 🎉🎉"), Some(("phrase", 11)));
        assert_eq!(
            kind_score("İstanbul", "i\u{307}stanbul"),
            Some(("phrase", 10))
        );
    }

    proptest! {
        #[test]
        fn never_panics_and_is_consistent(query in "\\PC{0,12}", text in "\\PC{0,60}") {
            let parsed = Query::new(&query);
            let found = parsed.match_text(&text);
            if let Some(found) = found {
                prop_assert!(!parsed.phrase.is_empty());
                if parsed.terms.len() == 1 {
                    prop_assert!(matches!(found.kind, MatchKind::Phrase | MatchKind::Inflected));
                }
            }
        }

        #[test]
        fn a_text_containing_the_phrase_matches_as_phrase(
            words in proptest::collection::vec("[a-zA-Zé東]{1,6}", 1..4),
            before in "\\PC{0,10}",
            after in "\\PC{0,10}",
        ) {
            let query = words.join(" ");
            let text = format!("{before}{query}{after}");
            let found = Query::new(&query).match_text(&text).unwrap();
            prop_assert_eq!(found.kind, MatchKind::Phrase);
        }
    }
}
