//! The lower filter of the analyzer (contract 03 §5.1): the Unicode default full lowercase
//! (with Final_Sigma) that every haystack and query goes through first. It owns only that rule,
//! with its fast paths (ASCII, runs of caseless characters copied whole); it never folds,
//! splits or stems.

use crate::search::unicode::{ascii_prefix_len, is_caseless};

/// The Unicode default full lowercase (with Final_Sigma), with an ASCII fast path.
pub(crate) fn lowercase(text: &str) -> String {
    if text.is_ascii() {
        text.to_ascii_lowercase()
    } else {
        text.to_lowercase()
    }
}

/// Lowercases `text` into `buffer`, reusing its allocation: [`lowercase`], with runs of ASCII
/// lowercased whole and characters of caseless blocks copied without a table lookup.
pub(crate) fn lowercase_into(text: &str, buffer: &mut String) {
    buffer.clear();
    if text.is_ascii() {
        buffer.push_str(text);
        buffer.make_ascii_lowercase();
    } else if text.contains('Σ') {
        // Only capital sigma lowercases by its context (Final_Sigma): the whole text's rule.
        buffer.push_str(&text.to_lowercase());
    } else {
        // Runs of characters that lowercase to themselves are copied whole.
        buffer.reserve(text.len());
        let bytes = text.as_bytes();
        let mut run = 0;
        let mut at = 0;
        while at < bytes.len() {
            if bytes[at].is_ascii() {
                // A run of ASCII is lowercased whole, in place after one copy, instead of
                // byte by byte: prose in any Latin script is mostly ASCII.
                let end = at + ascii_prefix_len(&bytes[at..]);
                buffer.push_str(&text[run..end]);
                let copied = buffer.len() - (end - at);
                buffer[copied..].make_ascii_lowercase();
                run = end;
                at = end;
                continue;
            }
            let c = text[at..].chars().next().unwrap_or('\0');
            let width = c.len_utf8();
            if !is_caseless(c) {
                let lower = c.to_lowercase();
                if lower.len() != 1 || lower.clone().next() != Some(c) {
                    buffer.push_str(&text[run..at]);
                    buffer.extend(lower);
                    run = at + width;
                }
            }
            at += width;
        }
        buffer.push_str(&text[run..]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
    /// The lowercase of the search's file pass is the standard one, on any text.
    #[test]
    fn lowercase_into_is_the_standard_lowercase(
        text in "(\\PC|Σ|[Σσς]{1,3}|[a-zA-Z]{1,5}|[東京ーオフィス]{1,4}|[🎉🚀]|İ| ){0,40}",
    ) {
        let mut buffer = String::from("stale");
        lowercase_into(&text, &mut buffer);
        prop_assert_eq!(buffer, text.to_lowercase());
    }
    }
}
