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
    if is_byte_ordered(a) && is_byte_ordered(b) {
        return a.as_bytes().cmp(b.as_bytes());
    }
    ROOT.compare(a, b)
}

/// Whether every byte of `text` is one of `-./0-9a-z`. Root collation gives each of these
/// characters its own non-ignorable primary weight, in the order of their bytes (`-` < `.` <
/// `/` < digits < letters), with no contraction among them; so two such strings compare as
/// their bytes do, and equal only when identical. Most names a walk sorts (`note-00017.md`,
/// `branch-01`) are of this kind, and a byte comparison is a few instructions where the
/// collator's is a thousand (contract 03 §4.1's order is unchanged: the test below checks it
/// against the collator).
fn is_byte_ordered(text: &str) -> bool {
    text.bytes().all(|byte| BYTE_ORDERED[usize::from(byte)])
}

/// [`is_byte_ordered`]'s alphabet as a table: one load a byte.
static BYTE_ORDERED: [bool; 256] = {
    let mut table = [false; 256];
    let mut byte = 0;
    while byte < 256 {
        table[byte] = matches!(byte as u8, b'-' | b'.' | b'/' | b'0'..=b'9' | b'a'..=b'z');
        byte += 1;
    }
    table
};

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

    /// The byte-order shortcut of [`collate`] agrees with the collator: every string of at most
    /// two characters of its alphabet (prefixes included) sorts the same both ways, and so do
    /// longer strings built from them.
    #[test]
    fn the_byte_order_shortcut_is_collation_order() {
        let alphabet: Vec<char> = ('-'..='/').chain('0'..='9').chain('a'..='z').collect();
        let mut words = vec![String::new()];
        for first in &alphabet {
            words.push(first.to_string());
            for second in &alphabet {
                words.push(format!("{first}{second}"));
            }
        }
        for (index, seed) in words.clone().iter().enumerate().step_by(7) {
            words.push(format!(
                "{seed}{}note-{index:05}.md",
                alphabet[index % alphabet.len()]
            ));
        }
        assert!(words.iter().all(|word| is_byte_ordered(word)));
        let mut by_collator = words.clone();
        by_collator.sort_by(|x, y| ROOT.compare(x, y));
        words.sort();
        assert_eq!(by_collator, words);
        assert!(
            by_collator
                .windows(2)
                .all(|pair| ROOT.compare(&pair[0], &pair[1]).is_lt())
        );
        // Outside the alphabet the collator decides: `_` sorts before `-`, `B` right after `a`.
        assert_eq!(collate("_", "-"), Ordering::Less);
        assert_eq!(collate("a", "B"), Ordering::Less);
    }

    #[test]
    fn canonically_equivalent_strings_are_equal() {
        assert_eq!(collate("e\u{301}", "\u{e9}"), Ordering::Equal);
    }
}
