//! The stem filter of the analyzer (contract 03 §5.1): the two Snowball stemmers, English and
//! Italian, that a token and a query term are compared by. It owns only their creation; which
//! tokens are stemmed, and how far (`STEM_MARGIN`), is the matching's rule in `relevance.rs`.

use rust_stemmers::{Algorithm, Stemmer};

/// The two Snowball stemmers of §5.1.
pub(super) struct Stemmers {
    pub(super) english: Stemmer,
    pub(super) italian: Stemmer,
}

impl Stemmers {
    pub(super) fn new() -> Stemmers {
        Stemmers {
            english: Stemmer::create(Algorithm::English),
            italian: Stemmer::create(Algorithm::Italian),
        }
    }
}

impl std::fmt::Debug for Stemmers {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("Stemmers")
    }
}
