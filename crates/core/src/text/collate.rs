//! Collation order: ICU root collation at the default (tertiary) strength, the product's
//! stand-in for the reference's `localeCompare` (contract 01 §0, 03 §0).
//!
//! The collator uses ICU4X compiled data (no data files at run time) and is built once per
//! process, on first use.

use std::cmp::Ordering;
use std::sync::LazyLock;

use icu_collator::options::CollatorOptions;
use icu_collator::{CollatorBorrowed, CollatorPreferences};

static ROOT: LazyLock<CollatorBorrowed<'static>> = LazyLock::new(|| {
    // The root locale with default options always exists in the compiled data; failing here
    // would mean the binary was built without it.
    CollatorBorrowed::try_new(CollatorPreferences::default(), CollatorOptions::default())
        .unwrap_or_else(|error| panic!("ICU4X root collation data is missing: {error}"))
});

/// Compares two strings in collation order: ICU root collation, tertiary strength, as
/// JavaScript's `a.localeCompare(b)` orders them in an English or root locale.
///
/// Case and accents only break ties (`"a" < "A" < "á" < "b"`), punctuation and spaces are
/// not ignored (`"a b" < "a-b" < "ab"`), and digits are compared character by character
/// (`"10" < "2"`). Strings that differ only in ways the collator ignores compare `Equal`, so use
/// a stable sort with a further tie-breaker where order must be total.
pub fn collate(a: &str, b: &str) -> Ordering {
    ROOT.compare(a, b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn root_orderings() {
        let mut words = vec![
            "b", "B", "a", "A", "á", "ab", "a b", "a-b", "_a", "10", "2", "1", "z", "Z", "😀",
        ];
        words.sort_by(|x, y| collate(x, y));
        assert_eq!(
            words,
            [
                "_a", "😀", "1", "10", "2", "a", "A", "á", "a b", "a-b", "ab", "b", "B", "z", "Z"
            ]
        );
        assert_eq!(collate("same", "same"), Ordering::Equal);
        assert_eq!(collate("", "a"), Ordering::Less);
    }

    #[test]
    fn canonically_equivalent_strings_are_equal() {
        assert_eq!(collate("e\u{301}", "\u{e9}"), Ordering::Equal);
    }
}
