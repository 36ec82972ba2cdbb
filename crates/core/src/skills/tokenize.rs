//! The resolver's tokenizer (contract 04 §2): lower-case, split into words on everything outside
//! `[a-z0-9]` and the apostrophe, keep a word's part before its first apostrophe (`what's` is
//! `what`, `today's` is `today`), drop the 31 stopwords, reduce each word to its English
//! Snowball stem (`days` and `day` meet), keep the first occurrence of each token. A second,
//! longer list ([`content_tokens`]) also drops common function words: the words that may rank
//! a skill but never make a match on their own (contract 04 §3.2).
//!
//! Pure string work; it must never consult anything but its argument, so that the same intent
//! ranks the same on every machine.

use std::sync::OnceLock;

use rust_stemmers::{Algorithm, Stemmer};

/// The 31 stopwords of contract 04 §2, exactly. Sorted so that lookups can use binary search.
const STOPWORDS: [&str; 31] = [
    "a", "an", "and", "can", "do", "for", "get", "help", "how", "i", "in", "into", "is", "it",
    "me", "my", "of", "on", "or", "out", "please", "should", "that", "the", "this", "to", "want",
    "wants", "what", "with", "you",
];

/// Function words beyond [`STOPWORDS`] that carry no routing evidence (contract 04 §2): they
/// still count in scores, as in the reference, but a skill sharing only these with an intent
/// is not a match. Sorted.
const FUNCTION_WORDS: [&str; 71] = [
    "about", "after", "again", "all", "am", "any", "are", "as", "at", "back", "be", "been",
    "before", "but", "by", "could", "did", "does", "doing", "don", "from", "give", "go", "going",
    "good", "had", "has", "have", "he", "her", "here", "him", "his", "if", "its", "just", "let",
    "like", "make", "more", "much", "need", "new", "no", "not", "now", "our", "over", "she", "so",
    "some", "tell", "than", "them", "then", "there", "these", "they", "those", "up", "us", "was",
    "we", "were", "when", "where", "which", "who", "why", "will", "would",
];

/// A token set that remembers first-seen order. Sets are tiny (a handful of words), so a
/// vector with linear membership tests beats hashing.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Tokens {
    items: Vec<String>,
}

impl Tokens {
    pub(crate) fn len(&self) -> usize {
        self.items.len()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    pub(crate) fn contains(&self, token: &str) -> bool {
        self.items.iter().any(|item| item == token)
    }

    #[cfg(test)]
    pub(crate) fn as_slice(&self) -> &[String] {
        &self.items
    }

    /// `2·|A ∩ B| / (|A| + |B|)`, and 0 when either set is empty (contract 04 §3.1).
    pub(crate) fn overlap(&self, other: &Tokens) -> f64 {
        if self.is_empty() || other.is_empty() {
            return 0.0;
        }
        let shared = self.shared(other);
        (2 * shared) as f64 / (self.len() + other.len()) as f64
    }

    /// How many of these tokens occur in `other`.
    pub(crate) fn shared(&self, other: &Tokens) -> usize {
        self.items
            .iter()
            .filter(|item| other.contains(item))
            .count()
    }

    /// Adds every token of `other` not yet present.
    pub(crate) fn extend(&mut self, other: &Tokens) {
        for item in &other.items {
            self.insert(item);
        }
    }

    fn insert(&mut self, token: &str) {
        if !self.contains(token) {
            self.items.push(token.to_owned());
        }
    }
}

/// The token set of `text`: every word but the 31 stopwords, stemmed.
pub(crate) fn tokens(text: &str) -> Tokens {
    collect(text, |_| false)
}

/// The tokens of `text` that can make a match: [`tokens`] without the function words.
pub(crate) fn content_tokens(text: &str) -> Tokens {
    collect(text, |word| FUNCTION_WORDS.binary_search(&word).is_ok())
}

fn collect(text: &str, also_drop: impl Fn(&str) -> bool) -> Tokens {
    let mut set = Tokens::default();
    if text.is_empty() {
        return set;
    }
    // `str::to_lowercase` is the full Unicode default mapping, as JavaScript's `toLowerCase`
    // (final sigma included); it can turn non-ASCII into ASCII (U+212A → `k`).
    let lower = text.to_lowercase();
    let is_word = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit() || is_apostrophe(c);
    for piece in lower.split(|c: char| !is_word(c)) {
        // A word's part before its first apostrophe: a possessive or contraction adds no word
        // of its own (`what's` → `what`, `today's` → `today`); a leading quote is not a word.
        let word = piece.trim_start_matches(is_apostrophe);
        let word = word.split(is_apostrophe).next().unwrap_or_default();
        if word.is_empty() || is_stopword(word) || also_drop(word) {
            continue;
        }
        set.insert(&stem(word));
    }
    set
}

/// `'` (U+0027) and `’` (U+2019), the apostrophes people type.
fn is_apostrophe(c: char) -> bool {
    c == '\'' || c == '\u{2019}'
}

/// The English Snowball stem of an ASCII word (digits pass unchanged).
fn stem(word: &str) -> String {
    static STEMMER: OnceLock<Stemmer> = OnceLock::new();
    STEMMER
        .get_or_init(|| Stemmer::create(Algorithm::English))
        .stem(word)
        .into_owned()
}

fn is_stopword(word: &str) -> bool {
    STOPWORDS.binary_search(&word).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        tokens(text).as_slice().to_vec()
    }

    #[test]
    fn stopword_table_is_sorted_and_complete() {
        let mut sorted = STOPWORDS;
        sorted.sort_unstable();
        assert_eq!(sorted, STOPWORDS);
        let spec = "a an the my me i to for of and or on in is this that with it do how what \
                    should want wants please can you help get into out";
        let mut listed: Vec<&str> = spec.split_whitespace().collect();
        listed.sort_unstable();
        assert_eq!(listed, STOPWORDS);
    }

    #[test]
    fn spec_examples() {
        assert_eq!(words("what should I work on"), ["work"]);
        assert_eq!(words("what's my focus today"), ["focus", "today"]);
        assert_eq!(
            words("Today\u{2019}s 'quoted' days"),
            ["today", "quot", "day"]
        );
        assert_eq!(words("reviewing the weekly reviews"), ["review", "week"]);
        assert_eq!(words("Plan-Today!"), ["plan", "today"]);
        assert_eq!(words("café"), ["caf"]);
    }

    #[test]
    fn function_words_leave_only_content() {
        let mut sorted = FUNCTION_WORDS;
        sorted.sort_unstable();
        assert_eq!(sorted, FUNCTION_WORDS);
        assert_eq!(
            content_tokens("what's the weather at the beach").as_slice(),
            ["weather", "beach"]
        );
        assert!(content_tokens("what should I do about it").is_empty());
        assert_eq!(words("what should I do about it"), ["about"]);
    }

    #[test]
    fn empty_and_stopword_only_texts_have_no_tokens() {
        assert!(tokens("").is_empty());
        assert!(tokens("  -- !!").is_empty());
        assert!(tokens("How do I want to help you").is_empty());
    }

    #[test]
    fn duplicates_keep_first_position() {
        assert_eq!(words("day plan DAY plan x"), ["day", "plan", "x"]);
    }

    #[test]
    fn lower_casing_can_produce_ascii() {
        // KELVIN SIGN lower-cases to `k`; U+0130 to `i` + U+0307, whose `i` is a stopword.
        assert_eq!(words("\u{212A}ilo"), ["kilo"]);
        assert_eq!(words("\u{130}x"), ["x"]);
        assert_eq!(words("\u{130}"), Vec::<String>::new());
        // Non-ASCII letters and digits separate tokens.
        assert_eq!(words("ab\u{e9}cd 4\u{663}5"), ["ab", "cd", "4", "5"]);
    }

    #[test]
    fn overlap_is_dice() {
        let a = tokens("plan day");
        let b = tokens("plan my day");
        assert_eq!(a.overlap(&b), 1.0);
        assert_eq!(
            tokens("plan work").overlap(&tokens("what should I work on")),
            2.0 / 3.0
        );
        assert_eq!(a.overlap(&tokens("")), 0.0);
        assert_eq!(tokens("").overlap(&tokens("")), 0.0);
    }
}
