//! Unicode general categories and the UTF-16 offset conversion that search needs (contract 03 §0,
//! §7).
//!
//! `char::is_alphabetic` is the `Alphabetic` property, which also covers combining marks and
//! letter numbers; the contract asks for general category `L*` (letters) and `N*` (numbers), so
//! these helpers read the Unicode data through `icu_properties`. Pure functions only.

use icu_properties::CodePointMapData;
use icu_properties::props::{GeneralCategory, GeneralCategoryGroup};

/// Whether `c` has general category `L*`.
pub(crate) fn is_letter(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphabetic();
    }
    GeneralCategoryGroup::Letter.contains(CodePointMapData::<GeneralCategory>::new().get(c))
}

/// Whether `c` has general category `L*` or `N*`.
pub(crate) fn is_letter_or_number(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphanumeric();
    }
    let category = CodePointMapData::<GeneralCategory>::new().get(c);
    GeneralCategoryGroup::Letter.contains(category)
        || GeneralCategoryGroup::Number.contains(category)
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

    #[test]
    fn categories() {
        assert!(is_letter('a'));
        assert!(is_letter('é'));
        assert!(is_letter('東'));
        assert!(!is_letter('1'));
        assert!(!is_letter('-'));
        // A combining mark is Alphabetic for Rust but not a letter for the contract.
        assert!('\u{0345}'.is_alphabetic());
        assert!(!is_letter('\u{0345}'));
        assert!(is_letter_or_number('٣'));
        assert!(is_letter_or_number('Ⅻ'));
        assert!(!is_letter_or_number(' '));
    }

    #[test]
    fn unit_offsets() {
        assert_eq!(units_of_bytes("a😀b", 5), 3);
        assert_eq!(units_of_bytes("abc", 2), 2);
    }
}
