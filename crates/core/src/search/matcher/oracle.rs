//! The term-by-term counter that linear counting replaced, kept only as a test oracle: every
//! term is searched on its own over the whole haystack, exactly as contract 03 §6 reads.
//! Quadratic in the worst case, so it never runs outside tests.

use memchr::memmem::Finder;

use super::count_non_overlapping;

pub(super) struct OracleQuery {
    phrase: Finder<'static>,
    empty: bool,
    terms: Vec<Finder<'static>>,
}

impl OracleQuery {
    /// Builds the oracle from an already normalised phrase and its terms.
    pub(super) fn new(phrase: &str, terms: &[&str]) -> OracleQuery {
        OracleQuery {
            phrase: Finder::new(phrase.as_bytes()).into_owned(),
            empty: phrase.is_empty(),
            terms: terms
                .iter()
                .map(|text| Finder::new(text.as_bytes()).into_owned())
                .collect(),
        }
    }

    /// The literal score of §6.
    pub(super) fn literal_score(&self, lower: &str) -> Option<u32> {
        if self.empty {
            return None;
        }
        if self.phrase.find(lower.as_bytes()).is_some() {
            let occurrences = count_non_overlapping(&self.phrase, lower.as_bytes(), 6);
            return Some(10 + (occurrences - 1).min(5));
        }
        let term_count = self.terms.len() as u32;
        if self.terms.len() >= 2 {
            let counts: Vec<u32> = self
                .terms
                .iter()
                .map(|term| count_non_overlapping(term, lower.as_bytes(), 6))
                .collect();
            let present = counts.iter().filter(|&&count| count > 0).count() as u32;
            if present == term_count {
                let total: u32 = counts.iter().sum();
                return Some(5 + (total - term_count).min(5));
            }
            if present > 0 {
                return Some(present);
            }
        }
        None
    }
}
