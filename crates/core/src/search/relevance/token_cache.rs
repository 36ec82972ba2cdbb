//! The per-document memo of token analyses (contract 03 §19.6): what one folded token matches,
//! computed once per distinct token of a document instead of once per occurrence. Prose repeats
//! its words, and a token's analysis (a comparison with every term, two Snowball stems) costs
//! far more than hashing it.
//!
//! It owns only the memo and the two-byte rejection in front of it ([`Starts`]); what a token matches is
//! [`AnalysedQuery::analyse_token`]'s alone, and the memo must never answer differently from it
//! (`tests.rs` holds it to that on random text). It is bounded: at most [`CAPACITY`] entries of
//! at most [`MAX_KEY_BYTES`] each, after which tokens are analysed directly. A token is
//! remembered from its first analysis: only a token that can match gets here, and its two stems
//! cost far more than the memo's first allocation. The first [`WARM_UP`] one-character tokens of
//! a document are analysed directly (a memory entry of a few words is not worth a table of
//! 256 slots).
//!
//! A token of one character (an ideograph, an emoji, a one-letter line) is looked up in a small
//! direct-mapped table by its code point instead of being hashed: CJK text is one token per
//! character, so that lookup is most of its work.

use std::collections::HashMap;
use std::hash::{BuildHasher, RandomState};
use std::sync::OnceLock;

use foldhash::SharedSeed;
use foldhash::fast::SeedableRandomState;

use super::AnalysedQuery;

/// Distinct tokens remembered per document (about 100 bytes each with their keys).
const CAPACITY: usize = 4096;
/// Longer tokens are analysed directly: prose words are short, and a long run is rare.
const MAX_KEY_BYTES: usize = 64;
/// One-character tokens that could match analysed directly before the one-character table is
/// made.
const WARM_UP: u32 = 8;
/// Slots of the one-character table, indexed by the code point's low bits.
const SINGLE_SLOTS: usize = 256;

/// Which terms one token matches and how (§6.1), and which joined-term part it is (§5.1).
/// Bit `i` of a mask is term `i`; a term is in at most one mask.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct TokenAnalysis {
    pub(super) exact: u32,
    pub(super) stem: u32,
    pub(super) prefix: u32,
    /// The index of the token among [`AnalysedQuery`]'s distinct joined-term parts, or
    /// [`TokenAnalysis::NO_PART`].
    pub(super) part: u32,
}

impl TokenAnalysis {
    /// Never equal to a part index.
    pub(super) const NO_PART: u32 = u32::MAX;

    /// A token that matches no term and is no part.
    pub(super) const NONE: TokenAnalysis = TokenAnalysis {
        exact: 0,
        stem: 0,
        prefix: 0,
        part: TokenAnalysis::NO_PART,
    };

    /// The terms it matches by any quality.
    pub(super) fn matched(&self) -> u32 {
        self.exact | self.stem | self.prefix
    }
}

/// The first two bytes of every token that can match a term or be a joined term's part, as
/// a set of 65,536 bits (8 KiB per query): in prose most tokens share no two-byte start with a
/// query's few terms, so they are passed over without a hash or a comparison. A token of one
/// byte is keyed by that byte and a zero byte, which no token holds.
#[derive(Debug, Clone)]
pub(super) struct Starts {
    bits: Box<[u64; 1024]>,
}

impl Starts {
    /// The set that passes nothing.
    pub(super) fn none() -> Starts {
        Starts {
            bits: Box::new([0; 1024]),
        }
    }

    fn key(first: u8, second: u8) -> usize {
        usize::from(first) << 8 | usize::from(second)
    }

    fn set(&mut self, key: usize) {
        self.bits[key / 64] |= 1 << (key % 64);
    }

    /// Passes every token whose first byte is `first`.
    fn allow_first(&mut self, first: u8) {
        for second in 0..=u8::MAX {
            self.set(Starts::key(first, second));
        }
    }

    /// Passes `word` itself: its first two bytes, or, for a word of one byte, that byte alone.
    pub(super) fn allow_equal(&mut self, word: &str) {
        match *word.as_bytes() {
            [] => {}
            [first] => self.set(Starts::key(first, 0)),
            [first, second, ..] => self.set(Starts::key(first, second)),
        }
    }

    /// Passes every token that starts with `prefix` and whose first byte is `prefix`'s or
    /// `word`'s (an empty prefix: every token that starts with `word`'s first byte).
    pub(super) fn allow_prefix(&mut self, prefix: &str, word: &str) {
        match *prefix.as_bytes() {
            [] => {
                if let Some(&first) = word.as_bytes().first() {
                    self.allow_first(first);
                }
            }
            [first] => self.allow_first(first),
            [first, second, ..] => self.set(Starts::key(first, second)),
        }
    }

    /// Whether `token` (non-empty) may match: false only when no term, gate or part starts
    /// as it does.
    pub(super) fn may_start(&self, token: &str) -> bool {
        let key = match *token.as_bytes() {
            [] => return false,
            [first] => Starts::key(first, 0),
            [first, second, ..] => Starts::key(first, second),
        };
        self.bits[key / 64] & 1 << (key % 64) != 0
    }
}

/// The memo's hash: foldhash, keyed from `std`'s OS-random keys (`docs/decisions.md`, "The
/// token memo's hash"). The keys are the document's text, chosen by whoever wrote it, so a
/// fixed hash could be made to collide; a keyed one cannot without its keys, which nothing
/// reveals, and the memo's bound caps what any collision could cost. SipHash, `std`'s own,
/// cost more than the analysis it saved on short prose tokens.
fn memo_hasher() -> SeedableRandomState {
    static SHARED: OnceLock<SharedSeed> = OnceLock::new();
    // One `RandomState` a memo: its keys come from the OS once per thread and change with
    // every call, so every document's memo has its own seed.
    let keys = RandomState::new();
    let shared = SHARED.get_or_init(|| SharedSeed::from_u64(keys.hash_one(0_u64)));
    SeedableRandomState::with_seed(keys.hash_one(1_u64), shared)
}

/// The memo of one document's collector.
#[derive(Debug)]
pub(super) struct TokenCache {
    memo: HashMap<Box<str>, TokenAnalysis, SeedableRandomState>,
    /// One-character tokens analysed directly during the warm-up.
    direct: u32,
    /// One-character tokens by code point (`None` until the warm-up is over); a slot holds
    /// the last character that mapped to it.
    single: Option<Box<[(char, TokenAnalysis); SINGLE_SLOTS]>>,
}

impl Default for TokenCache {
    fn default() -> TokenCache {
        TokenCache {
            memo: HashMap::with_hasher(memo_hasher()),
            direct: 0,
            single: None,
        }
    }
}

impl TokenCache {
    /// The analysis of `token` (folded, non-empty), as [`AnalysedQuery::analyse_token`] gives it.
    #[inline]
    pub(super) fn analyse(&mut self, model: &AnalysedQuery, token: &str) -> TokenAnalysis {
        // A token whose first two bytes start no term, gate or part matches nothing (§6.1:
        // exact, stem and prefix matches all start with the term or its gate) and is no part.
        if !model.starts.may_start(token) {
            return TokenAnalysis::NONE;
        }
        self.look_up(model, token)
    }

    /// [`TokenCache::analyse`] past the rejection, kept out of line: most tokens of prose never
    /// get here, and inlined, its tables made every token's call set up a frame of kilobytes.
    #[inline(never)]
    fn look_up(&mut self, model: &AnalysedQuery, token: &str) -> TokenAnalysis {
        if token.len() > MAX_KEY_BYTES {
            return model.analyse_token(token);
        }
        let mut chars = token.chars();
        if let (Some(c), None) = (chars.next(), chars.next()) {
            if self.direct < WARM_UP {
                self.direct += 1;
                return model.analyse_token(token);
            }
            return self.single_char(model, token, c);
        }
        if let Some(found) = self.memo.get(token) {
            return *found;
        }
        let analysis = model.analyse_token(token);
        if self.memo.len() < CAPACITY {
            self.memo.insert(token.into(), analysis);
        }
        analysis
    }

    /// The analysis of the one-character `token`, `c`, through the direct-mapped table: a
    /// slot holding another character is overwritten (`'\0'` never starts a token, so an
    /// empty slot never answers).
    fn single_char(&mut self, model: &AnalysedQuery, token: &str, c: char) -> TokenAnalysis {
        let table = self
            .single
            .get_or_insert_with(|| Box::new([('\0', TokenAnalysis::NONE); SINGLE_SLOTS]));
        let slot = &mut table[c as usize % SINGLE_SLOTS];
        if slot.0 != c {
            *slot = (c, model.analyse_token(token));
        }
        slot.1
    }

    /// How many tokens the memo holds (tests only).
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.memo.len()
    }
}
