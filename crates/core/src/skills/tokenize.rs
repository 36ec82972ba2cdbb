//! The resolver's analysis (contract 04 §2): the words of an intent or of a skill's text, and
//! which intent term a skill's word meets. It is the search analyzer (contract 03 §5.1, §6.1:
//! lower-casing, accent folding, tokens, stop words, English and Italian Snowball stems, prefix
//! matches), reused through `search::relevance`, with the two rules routing adds: a word's part
//! after an apostrophe is no word of its own (`what's` is `what`, `today's` is `today`), and the
//! routing stop words ([`ROUTING_STOP_WORDS`]) carry no routing evidence and are dropped.
//!
//! It owns no tokenizer, folding or stemmer of its own (one home for analysis: `search::
//! relevance`). Pure string work on its arguments only, so the same intent ranks the same on
//! every machine; each text yields at most [`MAX_FIELD_WORDS`] words.

use crate::search::relevance::{AnalysedQuery, fold_accents, for_each_token, is_stop_word};

/// Words that never route, beyond search's stop words (contract 04 §2): the request words of
/// the reference's stopword list (`help`, `please`, `want`…) and common function words
/// (`about`, `make`, `need`…). A skill sharing only these with an intent shares nothing.
/// Sorted, for binary search.
const ROUTING_STOP_WORDS: [&str; 80] = [
    "a", "about", "after", "again", "all", "am", "an", "and", "any", "are", "as", "at", "back",
    "be", "been", "before", "but", "by", "can", "could", "did", "do", "does", "doing", "don",
    "for", "from", "get", "give", "go", "going", "good", "had", "has", "have", "he", "help", "her",
    "here", "him", "his", "how", "i", "if", "in", "into", "is", "it", "its", "just", "let", "like",
    "make", "me", "more", "much", "my", "need", "new", "no", "not", "now", "of", "on", "or", "our",
    "out", "over", "please", "she", "should", "so", "some", "tell", "than", "want", "wants",
    "what", "with", "you",
];

/// At most this many words of one text (a trigger, a heading, a description, a name) take part
/// in routing; the rest of a longer text is ignored, which bounds the work per skill.
pub(crate) const MAX_FIELD_WORDS: usize = 256;

/// Calls `each(word)` for the routing words of `text` in order (repeats included), at most
/// [`MAX_FIELD_WORDS`] of them: folded tokens of the search analyzer, apostrophe tails and stop
/// words dropped.
pub(crate) fn for_each_word(text: &str, mut each: impl FnMut(&str)) {
    if text.is_empty() {
        return;
    }
    // `str::to_lowercase` is the full Unicode default mapping, as JavaScript's `toLowerCase`.
    let lower = text.to_lowercase();
    let folded = fold_accents(&lower);
    let mut count = 0;
    for_each_token(&folded, |start, token| {
        if count >= MAX_FIELD_WORDS || follows_apostrophe(&folded, start) || is_routing_stop(token)
        {
            return;
        }
        count += 1;
        each(token);
    });
}

/// Whether the token at `start` continues a word after an apostrophe (`s` of `what's`).
fn follows_apostrophe(folded: &str, start: usize) -> bool {
    let mut before = folded[..start].chars().rev();
    matches!(before.next(), Some('\'' | '\u{2019}'))
        && before.next().is_some_and(char::is_alphanumeric)
}

fn is_routing_stop(word: &str) -> bool {
    is_stop_word(word) || ROUTING_STOP_WORDS.binary_search(&word).is_ok()
}

/// An intent's terms: its distinct routing words (at most the search model's 32), matched the
/// way search matches a query's terms.
pub(crate) struct Query {
    analysed: AnalysedQuery,
}

impl Query {
    /// The terms of `intent`; `None` when it has no routing word.
    pub(crate) fn new(intent: &str) -> Option<Query> {
        let mut phrase = String::new();
        for_each_word(intent, |word| {
            if !phrase.is_empty() {
                phrase.push(' ');
            }
            phrase.push_str(word);
        });
        if phrase.is_empty() {
            return None;
        }
        let analysed = AnalysedQuery::new(&phrase);
        (analysed.term_count() > 0).then_some(Query { analysed })
    }

    /// The number of distinct terms, at most 32.
    pub(crate) fn len(&self) -> usize {
        self.analysed.term_count()
    }

    /// Calls `each(term, weight)` for every term `word` (from [`for_each_word`]) meets.
    pub(crate) fn meet(&self, word: &str, each: impl FnMut(usize, f64)) {
        self.analysed.match_weights(word, each);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        for_each_word(text, |word| out.push(word.to_owned()));
        out
    }

    /// Which of the intent's terms each word of `text` meets, as `word:term`.
    fn meets(intent: &str, text: &str) -> Vec<String> {
        let query = Query::new(intent).unwrap();
        let mut out = Vec::new();
        for_each_word(text, |word| {
            query.meet(word, |term, weight| {
                out.push(format!("{word}:{term}:{weight}"))
            });
        });
        out
    }

    #[test]
    fn stop_word_table_is_sorted() {
        let mut sorted = ROUTING_STOP_WORDS;
        sorted.sort_unstable();
        assert_eq!(sorted, ROUTING_STOP_WORDS);
    }

    #[test]
    fn words_fold_drop_stop_words_and_apostrophe_tails() {
        assert!(words("what should I work on").iter().eq(["work"]));
        assert_eq!(words("what's my focus today"), ["focus", "today"]);
        assert_eq!(
            words("Today\u{2019}s 'quoted' days"),
            ["today", "quoted", "days"]
        );
        assert_eq!(words("Plan-Today!"), ["plan", "today"]);
        // Folding is search's: `café` is `cafe`, `Größe` is `grosse`.
        assert_eq!(words("café Größe"), ["cafe", "grosse"]);
        assert!(words("How do I want to help you").is_empty());
        assert!(words("").is_empty());
    }

    #[test]
    fn words_are_bounded() {
        let long = "word ".repeat(MAX_FIELD_WORDS * 4);
        assert_eq!(words(&long).len(), MAX_FIELD_WORDS);
    }

    #[test]
    fn words_meet_terms_by_stem_as_in_search() {
        // `reviewing`, `reviews` and `weekly` meet `review` and `week` by their stems.
        assert_eq!(
            meets("review my week", "reviewing the weekly reviews"),
            ["reviewing:0:0.85", "weekly:1:0.85", "reviews:0:0.85"]
        );
        assert_eq!(meets("days", "day"), ["day:0:0.85"]);
        assert!(Query::new("what should I do about it").is_none());
        assert_eq!(Query::new("plan plan day").map(|q| q.len()), Some(2));
    }
}
