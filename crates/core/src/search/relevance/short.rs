//! The short-term rule of contract 03 §6.1: a query term of one or two characters (`d` in
//! `vitamin D`, `2` in `type 2`, `c`, `ai`) matches only the same whole token, never as a
//! prefix and never by stem. It owns only that decision; how a token matches a longer term is
//! [`AnalysedQuery::match_token`](super::AnalysedQuery)'s.
//!
//! Why: as a prefix, `d` matches `data`, `does`, `deploy` and `2` matches `2026`, so the
//! term's document frequency covers nearly every note and its idf collapses to about 0.01
//! (issue 36); as a whole token it keeps the idf of the few notes that say it.

/// Whether the folded term `text` matches whole tokens only (one or two characters).
pub(super) fn is_short(text: &str) -> bool {
    text.chars().count() <= 2
}

#[cfg(test)]
mod tests {
    use super::super::AnalysedQuery;
    use super::is_short;

    fn matches(query: &str, token: &str) -> bool {
        let mut hit = false;
        AnalysedQuery::new(query).match_weights(token, |_, _| hit = true);
        hit
    }

    #[test]
    fn one_and_two_character_terms_are_short() {
        assert!(is_short("d") && is_short("c") && is_short("10") && is_short("会"));
        assert!(!is_short("api"));
    }

    #[test]
    fn short_terms_match_whole_tokens_only() {
        assert!(matches("d", "d"));
        assert!(!matches("d", "data"));
        assert!(!matches("2", "2026"));
        assert!(!matches("ab", "about"));
        assert!(matches("2", "2"));
        // Longer terms keep their prefix matches (§6.1).
        assert!(matches("mito", "mitochondria"));
    }
}
