//! The stop-word filter of contract 03 §5.1: which folded query words carry no topic and are
//! dropped from a query that has anything else. It owns only the list and its test; it never
//! touches document text (a document's stop words are tokens like any other, so a query made
//! only of stop words still finds them).
//!
//! The rule of the list (03 §5.1): **English** entries are Lucene's English stop set
//! (articles, conjunctions, prepositions, `no`, `not`, `such`, `they`, `will`, …) and the
//! pronouns, auxiliary and modal verbs and question words a question is built from (`how`,
//! `what`, `does`, `can`, `been`, `than`, …). **Italian** entries are articles, prepositions
//! and conjunctions that are not also an English word, a chemical symbol, a unit or a common
//! abbreviation or identifier: `e` (E. coli, vitamin E), `lo` (CD4 lo), `il` (IL-10), `di`,
//! `su` (the `su` command), `si` (silicon), `la` (LA), `al`, `da`, `un`, `uno`, `ed`, `le`,
//! `del`, `dei`, `con`, `come` are real tokens and are never dropped.

/// The stop words, folded. Sorted, for binary search.
const STOP_WORDS: [&str; 78] = [
    "a", "about", "alla", "am", "an", "and", "any", "are", "as", "at", "be", "been", "but", "by",
    "can", "che", "could", "della", "delle", "did", "do", "does", "for", "from", "gli", "had",
    "has", "have", "how", "i", "if", "in", "into", "is", "it", "its", "me", "my", "nel", "nella",
    "no", "non", "not", "of", "on", "or", "our", "per", "should", "so", "sono", "such", "than",
    "that", "the", "their", "them", "then", "there", "these", "they", "this", "to", "una", "was",
    "we", "were", "what", "when", "where", "which", "who", "why", "will", "with", "would", "you",
    "your",
];

/// Whether `token` (folded) is a stop word.
pub(crate) fn is_stop_word(token: &str) -> bool {
    STOP_WORDS.binary_search(&token).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list_is_sorted() {
        let mut sorted = STOP_WORDS;
        sorted.sort_unstable();
        assert_eq!(sorted, STOP_WORDS);
    }

    #[test]
    fn common_english_function_words_are_stop_words() {
        for word in [
            "no", "not", "such", "they", "than", "been", "its", "can", "how", "your",
        ] {
            assert!(is_stop_word(word), "{word}");
        }
    }

    #[test]
    fn italian_words_that_are_also_identifiers_are_tokens() {
        for word in [
            "e", "lo", "il", "di", "su", "si", "la", "al", "da", "un", "uno", "ed", "le", "del",
            "dei", "con", "come",
        ] {
            assert!(!is_stop_word(word), "{word}");
        }
        for word in ["gli", "della", "che", "per", "non"] {
            assert!(is_stop_word(word), "{word}");
        }
    }

    #[test]
    fn a_query_keeps_the_tokens_and_drops_the_function_words() {
        use super::super::AnalysedQuery;
        assert_eq!(AnalysedQuery::new("e coli").term_count(), 2);
        assert_eq!(AnalysedQuery::new("cd4 lo cells").term_count(), 3);
        assert_eq!(
            AnalysedQuery::new("why is it not such a problem").term_count(),
            1
        );
    }
}
