//! The term-by-term matcher that linear matching replaced, kept only as a test oracle: every
//! term is searched on its own over the whole haystack, exactly as contract 03 §6, §7 and §9.2
//! read. Quadratic in the worst case, so it never runs outside tests.

use memchr::memmem::Finder;

use super::{MatchKind, count_non_overlapping, fold, is_token_byte};
use crate::search::unicode::is_letter_or_number;

pub(super) struct OracleTerm {
    finder: Finder<'static>,
    stem: Option<Finder<'static>>,
    tokenlike: bool,
    len: usize,
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
                    stem: fold(text).map(|stem| Finder::new(stem.as_bytes()).into_owned()),
                    tokenlike: !text.is_empty() && text.bytes().all(is_token_byte),
                    len: text.len(),
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

    pub(super) fn token_hits(&self, lower: &str) -> Vec<bool> {
        self.terms
            .iter()
            .map(|term| is_token_of(term, lower))
            .collect()
    }

    /// The first line (of `lines`, already lowercase) containing each term, in term order.
    pub(super) fn first_lines(&self, lines: &[&str]) -> Vec<Option<usize>> {
        self.terms
            .iter()
            .map(|term| {
                lines
                    .iter()
                    .position(|line| term.finder.find(line.as_bytes()).is_some())
            })
            .collect()
    }
}

fn is_token_of(term: &OracleTerm, lower: &str) -> bool {
    if !term.tokenlike {
        return false;
    }
    let bytes = lower.as_bytes();
    let mut from = 0;
    while let Some(found) = term.finder.find(&bytes[from..]) {
        let start = from + found;
        let end = start + term.len;
        let before_ok = start == 0 || !is_token_byte(bytes[start - 1]);
        let after_ok = end == bytes.len() || !is_token_byte(bytes[end]);
        if before_ok && after_ok {
            return true;
        }
        from = start + 1;
    }
    false
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
