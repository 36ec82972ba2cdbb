//! The resolver's tokenizer (contract 04 §2): lower-case, split on everything outside `[a-z0-9]`,
//! drop the 31 stopwords, keep the first occurrence of each token.
//!
//! Pure string work; it must never consult anything but its argument, so that the same intent
//! ranks the same on every machine.

/// The 31 stopwords of contract 04 §2, exactly. Sorted so that lookups can use binary search.
const STOPWORDS: [&str; 31] = [
    "a", "an", "and", "can", "do", "for", "get", "help", "how", "i", "in", "into", "is", "it",
    "me", "my", "of", "on", "or", "out", "please", "should", "that", "the", "this", "to", "want",
    "wants", "what", "with", "you",
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
        let shared = self
            .items
            .iter()
            .filter(|item| other.contains(item))
            .count();
        (2 * shared) as f64 / (self.len() + other.len()) as f64
    }

    fn insert(&mut self, token: &str) {
        if !self.contains(token) {
            self.items.push(token.to_owned());
        }
    }
}

/// The token set of `text`.
pub(crate) fn tokens(text: &str) -> Tokens {
    let mut set = Tokens::default();
    if text.is_empty() {
        return set;
    }
    // `str::to_lowercase` is the full Unicode default mapping, as JavaScript's `toLowerCase`
    // (final sigma included); it can turn non-ASCII into ASCII (U+212A → `k`).
    let lower = text.to_lowercase();
    for piece in lower.split(|c: char| !(c.is_ascii_lowercase() || c.is_ascii_digit())) {
        if !piece.is_empty() && !is_stopword(piece) {
            set.insert(piece);
        }
    }
    set
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
        assert_eq!(words("what's my focus today"), ["s", "focus", "today"]);
        assert_eq!(words("Plan-Today!"), ["plan", "today"]);
        assert_eq!(words("café"), ["caf"]);
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
