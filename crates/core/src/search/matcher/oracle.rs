//! The term-by-term matcher that linear matching replaced, kept only as a test oracle: every
//! term is searched on its own over the whole haystack, exactly as contract 03 §6, and §7
//! read. Quadratic in the worst case, so it never runs outside tests.

use memchr::memmem::Finder;

use super::{MatchKind, count_non_overlapping, inflection_stem};
use crate::search::unicode::is_letter_or_number;

pub(super) struct OracleTerm {
    finder: Finder<'static>,
    stem: Option<Finder<'static>>,
}

pub(super) struct OracleQuery {
    phrase: Finder<'static>,
    empty: bool,
    terms: Vec<OracleTerm>,
}

impl OracleQuery {
    /// Builds the oracle from an already normalised phrase and its terms.
    pub(super) fn new(phrase: &str, terms: &[&str]) -> OracleQuery {
        OracleQuery {
            phrase: Finder::new(phrase.as_bytes()).into_owned(),
            empty: phrase.is_empty(),
            terms: terms
                .iter()
                .map(|text| OracleTerm {
                    finder: Finder::new(text.as_bytes()).into_owned(),
                    stem: inflection_stem(text)
                        .map(|stem| Finder::new(stem.as_bytes()).into_owned()),
                })
                .collect(),
        }
    }

    pub(super) fn match_lower(&self, lower: &str) -> Option<(MatchKind, u32)> {
        if self.empty {
            return None;
        }
        if self.phrase.find(lower.as_bytes()).is_some() {
            let occurrences = count_non_overlapping(&self.phrase, lower.as_bytes(), 6);
            return Some((MatchKind::Phrase, 10 + (occurrences - 1).min(5)));
        }
        let term_count = self.terms.len() as u32;
        if self.terms.len() >= 2 {
            let counts: Vec<u32> = self
                .terms
                .iter()
                .map(|term| count_non_overlapping(&term.finder, lower.as_bytes(), 6))
                .collect();
            let present = counts.iter().filter(|&&count| count > 0).count() as u32;
            if present == term_count {
                let total: u32 = counts.iter().sum();
                return Some((MatchKind::Terms, 5 + (total - term_count).min(5)));
            }
            if present > 0 {
                return Some((MatchKind::Partial, present));
            }
        }
        if !self.terms.is_empty() && self.terms.iter().all(|term| inflection_hit(term, lower)) {
            return Some((MatchKind::Inflected, term_count));
        }
        None
    }

    pub(super) fn present(&self, lower: &str) -> Vec<bool> {
        self.terms
            .iter()
            .map(|term| term.finder.find(lower.as_bytes()).is_some())
            .collect()
    }
}

fn inflection_hit(term: &OracleTerm, lower: &str) -> bool {
    let Some(stem) = &term.stem else {
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
