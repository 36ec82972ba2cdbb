//! The Unicode fast paths and the UTF-16 offset conversion that search needs (contract 03 §0,
//! §5.1): the ranges where lowercasing and accent folding leave a character as it is, each
//! proven by an exhaustive test, and the length of a run of ASCII, which both leave as it is
//! but for case. Pure functions only.

/// Whether `c` is in a block where no character has a lowercase mapping other than itself, so
/// lowercasing copies it (contract 03 §0): kana and CJK ideographs and symbols, Hangul
/// syllables, pictographs. A fast path only; the test below checks every character of it.
pub(crate) fn is_caseless(c: char) -> bool {
    matches!(c as u32, 0x3000..=0x9FFF | 0xAC00..=0xD7A3 | 0x1F000..=0x1FAFF | 0x20000..=0x2FFFF)
}

/// Whether accent folding (contract 03 §5.1) keeps `c` as it is, checked by ranges: CJK
/// ideographs and pictographs have no canonical decomposition and are no combining marks. A
/// fast path only; the test below checks every character of it.
pub(crate) fn folds_to_itself(c: char) -> bool {
    matches!(c as u32, 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0x1F000..=0x1FAFF | 0x20000..=0x2A6DF)
}

/// How many bytes `bytes` starts with that are ASCII, read a word of eight at a time: the
/// lowercase and fold filters (contract 03 §5.1) pass over ASCII runs whole, and in prose with
/// an accented word here and there those runs are nearly all of the text.
pub(crate) fn ascii_prefix_len(bytes: &[u8]) -> usize {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut words = bytes.chunks_exact(8);
    let mut at = 0;
    for word in words.by_ref() {
        let mut eight = [0; 8];
        eight.copy_from_slice(word);
        let high = u64::from_le_bytes(eight) & HIGH;
        if high != 0 {
            return at + (high.trailing_zeros() / 8) as usize;
        }
        at += 8;
    }
    at + words
        .remainder()
        .iter()
        .position(|byte| !byte.is_ascii())
        .unwrap_or(bytes.len() - at)
}

/// The UTF-16 offset of the byte offset `bytes` (which must be a char boundary).
pub(crate) fn units_of_bytes(text: &str, bytes: usize) -> usize {
    let head = &text[..bytes];
    if head.is_ascii() {
        return bytes;
    }
    head.chars().map(char::len_utf16).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The word-at-a-time count equals the byte-by-byte one, wherever the first byte that
        /// is not ASCII falls in a word.
        #[test]
        fn the_ascii_prefix_is_counted_exactly(text in "[a-z ]{0,20}(\\PC[a-zé ]{0,12}){0,3}") {
            let expected = text.bytes().position(|byte| !byte.is_ascii()).unwrap_or(text.len());
            prop_assert_eq!(ascii_prefix_len(text.as_bytes()), expected);
        }
    }

    /// Every character the fast paths cover lowercases and folds to itself, as the general
    /// rules would have it.
    #[test]
    fn fast_ranges_are_what_the_general_rules_give() {
        use unicode_normalization::char::{decompose_canonical, is_combining_mark};
        let mut caseless = 0;
        let mut fixed = 0;
        for c in (0..=0x10FFFF_u32).filter_map(char::from_u32) {
            if is_caseless(c) {
                caseless += 1;
                assert!(c.to_lowercase().eq([c]), "{c:?} lowercases");
            }
            if folds_to_itself(c) {
                fixed += 1;
                let mut parts = Vec::new();
                decompose_canonical(c, |part| parts.push(part));
                assert_eq!(parts, [c], "{c:?} decomposes");
                assert!(!is_combining_mark(c), "{c:?} is a mark");
            }
        }
        assert!(caseless > 100_000 && fixed > 70_000, "{caseless} {fixed}");
    }

    #[test]
    fn unit_offsets() {
        assert_eq!(units_of_bytes("a😀b", 5), 3);
        assert_eq!(units_of_bytes("abc", 2), 2);
    }
}
