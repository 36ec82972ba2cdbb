//! JavaScript whitespace and trimming (contract 01 §0 "JS trim").
//!
//! The set is ECMAScript WhiteSpace ∪ LineTerminator, which is neither Rust's
//! `char::is_whitespace` (that one includes U+0085 and excludes U+FEFF) nor Unicode `White_Space`.
//! Every trim in the product goes through these helpers; `str::trim` must never be used on user
//! text.

/// Returns whether `c` is in the ECMAScript WhiteSpace ∪ LineTerminator set, the characters that
/// JavaScript's `trim`, `trimStart`, `trimEnd` and regular-expression `\s` recognise.
///
/// The set is U+0009–U+000D, U+0020, U+00A0, U+1680, U+2000–U+200A, U+2028, U+2029, U+202F,
/// U+205F, U+3000 and U+FEFF. U+0085 (NEXT LINE) and U+180E (MONGOLIAN VOWEL SEPARATOR) are
/// deliberately absent.
pub fn is_js_space(c: char) -> bool {
    matches!(
        c,
        '\u{0009}'..='\u{000D}'
            | '\u{0020}'
            | '\u{00A0}'
            | '\u{1680}'
            | '\u{2000}'..='\u{200A}'
            | '\u{2028}'
            | '\u{2029}'
            | '\u{202F}'
            | '\u{205F}'
            | '\u{3000}'
            | '\u{FEFF}'
    )
}

/// Returns whether the UTF-16 code unit `unit` is a JS space. Every JS space is in the BMP, so a
/// single unit decides; surrogates are never spaces.
pub(crate) fn is_js_space_unit(unit: u16) -> bool {
    char::from_u32(u32::from(unit)).is_some_and(is_js_space)
}

/// JavaScript `String.prototype.trim`: removes JS spaces ([`is_js_space`]) from both ends.
pub fn js_trim(text: &str) -> &str {
    text.trim_matches(is_js_space)
}

/// JavaScript `String.prototype.trimStart`: removes JS spaces from the start only.
pub fn js_trim_start(text: &str) -> &str {
    text.trim_start_matches(is_js_space)
}

/// JavaScript `String.prototype.trimEnd`: removes JS spaces from the end only.
pub fn js_trim_end(text: &str) -> &str {
    text.trim_end_matches(is_js_space)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The set written out once more, by code point, so a typo in the `matches!` shows up.
    const SPEC_SET: &[u32] = &[
        0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0xA0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004,
        0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000,
        0xFEFF,
    ];

    #[test]
    fn set_is_exactly_the_spec_set() {
        let found: Vec<u32> = (0..=0x10FFFF_u32)
            .filter_map(char::from_u32)
            .filter(|&c| is_js_space(c))
            .map(u32::from)
            .collect();
        assert_eq!(found, SPEC_SET);
    }

    #[test]
    fn differs_from_rust_where_the_spec_says() {
        assert!(!is_js_space('\u{0085}'));
        assert!('\u{0085}'.is_whitespace());
        assert!(!is_js_space('\u{180E}'));
        assert!(is_js_space('\u{FEFF}'));
        assert!(!'\u{FEFF}'.is_whitespace());
        assert!(!is_js_space('\u{200B}'));
    }

    #[test]
    fn trims() {
        assert_eq!(js_trim("\u{FEFF} a b \u{3000}\n"), "a b");
        assert_eq!(js_trim("\u{0085}x\u{0085}"), "\u{0085}x\u{0085}");
        assert_eq!(js_trim("\u{180E}x"), "\u{180E}x");
        assert_eq!(js_trim_start(" \t x \t "), "x \t ");
        assert_eq!(js_trim_end(" \t x \t\r\n"), " \t x");
        assert_eq!(js_trim("\u{2028}\u{2029}"), "");
        assert_eq!(js_trim(""), "");
        assert_eq!(js_trim("😀 "), "😀");
    }

    #[test]
    fn unit_predicate_agrees() {
        for unit in 0..=u16::MAX {
            let expected = char::from_u32(u32::from(unit)).is_some_and(is_js_space);
            assert_eq!(is_js_space_unit(unit), expected);
        }
        assert!(!is_js_space_unit(0xD800));
    }

    proptest! {
        #[test]
        fn trim_is_both_sides(s in "[ \\t\\u{a0}\\u{feff}\\u{85}a-c😀]{0,12}") {
            prop_assert_eq!(js_trim(&s), js_trim_end(js_trim_start(&s)));
            let t = js_trim(&s);
            prop_assert!(!t.starts_with(is_js_space) && !t.ends_with(is_js_space));
            prop_assert!(s.contains(t));
        }
    }
}
