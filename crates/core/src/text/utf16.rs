//! UTF-16 measures and code-point-safe cuts of Rust strings (contract 01 §0 "Units", 03 §0
//! "Cutting text"), plus code-point measures for input maxima.
//!
//! Every length here is what JavaScript's `String.prototype.length` reports: UTF-16 code units,
//! so a character outside the Basic Multilingual Plane (an emoji) counts 2. Cuts work on `&str`
//! and therefore can never produce a lone surrogate: when an offset falls between the two halves
//! of a surrogate pair, the offset moves one unit towards the start of the string, leaving the
//! whole character out of a prefix. The working-context projection, which must reproduce the
//! reference's pair-splitting cuts, uses [`crate::text::JsString`] instead.

use std::borrow::Cow;
use std::cmp::Ordering;

/// The horizontal ellipsis `…` (U+2026, one UTF-16 unit) that marks a cut in visible text.
pub const ELLIPSIS: &str = "\u{2026}";

/// Returns the length of `text` in UTF-16 code units (JavaScript `length`).
pub fn utf16_len(text: &str) -> usize {
    // A 4-byte UTF-8 sequence is exactly a character that needs a surrogate pair, so counting
    // leading bytes avoids decoding: 1 unit per character plus 1 per 4-byte lead byte.
    text.bytes()
        .map(|b| usize::from(!is_utf8_continuation(b)) + usize::from(b >= 0xF0))
        .sum()
}

/// Returns the UTF-16 length of one character: 2 for supplementary characters, else 1.
pub fn char_utf16_len(c: char) -> usize {
    c.len_utf16()
}

/// Returns the byte index in `text` of the last character boundary whose UTF-16 offset is at
/// most `units`, or `text.len()` when `units` reaches past the end.
///
/// This is the single place where UTF-16 offsets become byte offsets: an offset between the two
/// halves of a surrogate pair rounds down to the start of that pair.
pub fn utf16_floor(text: &str, units: usize) -> usize {
    let mut offset = 0;
    for (index, c) in text.char_indices() {
        let next = offset + c.len_utf16();
        if next > units {
            return index;
        }
        offset = next;
    }
    text.len()
}

/// Returns the longest prefix of `text` of at most `max_units` UTF-16 units that does not split
/// a surrogate pair: if the cut falls inside a pair, the high half is dropped with it.
pub fn utf16_prefix(text: &str, max_units: usize) -> &str {
    &text[..utf16_floor(text, max_units)]
}

/// Returns the part of `text` between the UTF-16 offsets `start` (inclusive) and `end`
/// (exclusive), each rounded down to a character boundary as in [`utf16_floor`]. An `end` before
/// `start` gives the empty string.
pub fn utf16_slice(text: &str, start: usize, end: usize) -> &str {
    let from = utf16_floor(text, start);
    let to = utf16_floor(text, end).max(from);
    &text[from..to]
}

/// Compares two strings in UTF-16 code-unit order, JavaScript's default `sort` order and the
/// order of its `<` operator on strings.
///
/// This differs from Rust's `str` order (byte order, the same as code-point order) only when a
/// supplementary character meets a character in U+E000–U+FFFF: `"😀" < "\u{FF5E}"` in UTF-16
/// order because a high surrogate (U+D83D) is below U+FF5E.
pub fn utf16_cmp(a: &str, b: &str) -> Ordering {
    let common = a
        .bytes()
        .zip(b.bytes())
        .position(|(x, y)| x != y)
        .unwrap_or(a.len().min(b.len()));
    // Back up to the start of the character that contains the first difference; the bytes
    // before it are identical, so it is a boundary in both strings.
    let mut start = common;
    while !a.is_char_boundary(start) {
        start -= 1;
    }
    match (a[start..].chars().next(), b[start..].chars().next()) {
        (Some(x), Some(y)) => {
            let (mut ux, mut uy) = ([0_u16; 2], [0_u16; 2]);
            x.encode_utf16(&mut ux).cmp(&y.encode_utf16(&mut uy))
        }
        (x, y) => x.is_some().cmp(&y.is_some()),
    }
}

/// Shortens `text` to at most `max_units` UTF-16 units by keeping a code-point-safe prefix and
/// appending `marker`, so the result is at most `max_units` units whenever the marker itself
/// fits.
///
/// Returns `None` when `text` already fits (the caller keeps `text`). Otherwise the prefix is the
/// longest one of at most `max_units − len16(marker)` units (contract 03 §10.3 `truncate` with
/// `...`; contract 05 §9 sanitisation with `\n[truncated]`).
pub fn clip_units(text: &str, max_units: usize, marker: &str) -> Option<String> {
    if utf16_len(text) <= max_units {
        return None;
    }
    let prefix = utf16_prefix(text, max_units.saturating_sub(utf16_len(marker)));
    Some(format!("{prefix}{marker}"))
}

/// Like [`clip_units`], but JS-`trimEnd`s the kept prefix before appending `marker`, as the
/// project excerpt does (contract 01 §6.2: more than 1,200 units → the first 1,199 units without a
/// trailing lone high surrogate, `trimEnd`, `…`).
///
/// Returns `None` when `text` already fits.
pub fn clip_units_trim_end(text: &str, max_units: usize, marker: &str) -> Option<String> {
    if utf16_len(text) <= max_units {
        return None;
    }
    let prefix = utf16_prefix(text, max_units.saturating_sub(utf16_len(marker)));
    Some(format!("{}{marker}", super::js_trim_end(prefix)))
}

/// Returns the number of Unicode code points (Rust `char`s) in `text`, the unit of the input
/// maxima (200 for selectors, 500 for queries and intents).
pub fn code_point_len(text: &str) -> usize {
    text.bytes().filter(|&b| !is_utf8_continuation(b)).count()
}

/// Returns the first `count` code points of `text` (all of it when it is shorter).
pub fn code_point_prefix(text: &str, count: usize) -> &str {
    match text.char_indices().nth(count) {
        Some((index, _)) => &text[..index],
        None => text,
    }
}

/// Bounds an echoed value: more than `max_code_points` code points → the first
/// `max_code_points` of them followed by `marker`; otherwise `text` unchanged (contract 05 §2.6:
/// unknown tool and method names, 64 code points then `…`).
pub fn clip_code_points<'a>(text: &'a str, max_code_points: usize, marker: &str) -> Cow<'a, str> {
    let prefix = code_point_prefix(text, max_code_points);
    if prefix.len() == text.len() {
        Cow::Borrowed(text)
    } else {
        Cow::Owned(format!("{prefix}{marker}"))
    }
}

fn is_utf8_continuation(byte: u8) -> bool {
    byte & 0xC0 == 0x80
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn units(s: &str) -> Vec<u16> {
        s.encode_utf16().collect()
    }

    #[test]
    fn lengths() {
        assert_eq!(utf16_len(""), 0);
        assert_eq!(utf16_len("abc"), 3);
        assert_eq!(utf16_len("é"), 1);
        assert_eq!(utf16_len("€"), 1);
        assert_eq!(utf16_len("😀"), 2);
        assert_eq!(utf16_len("a😀b"), 4);
        assert_eq!(utf16_len("👩‍👩‍👧"), 8);
        assert_eq!(code_point_len("a😀b"), 3);
        assert_eq!(code_point_len("👩‍👩‍👧"), 5);
        assert_eq!(char_utf16_len('😀'), 2);
        assert_eq!(ELLIPSIS.chars().count(), 1);
        assert_eq!(utf16_len(ELLIPSIS), 1);
    }

    #[test]
    fn prefix_never_splits_a_pair() {
        assert_eq!(utf16_prefix("a😀b", 0), "");
        assert_eq!(utf16_prefix("a😀b", 1), "a");
        assert_eq!(
            utf16_prefix("a😀b", 2),
            "a",
            "the cut inside the pair drops its high half"
        );
        assert_eq!(utf16_prefix("a😀b", 3), "a😀");
        assert_eq!(utf16_prefix("a😀b", 4), "a😀b");
        assert_eq!(utf16_prefix("a😀b", 99), "a😀b");
        assert_eq!(utf16_prefix("😀😀", 3), "😀");
        assert_eq!(utf16_floor("é😀", 2), 2);
    }

    #[test]
    fn slices() {
        let text = "ab😀cd";
        assert_eq!(utf16_slice(text, 0, 6), text);
        assert_eq!(
            utf16_slice(text, 1, 3),
            "b",
            "end inside the pair rounds down"
        );
        assert_eq!(
            utf16_slice(text, 3, 5),
            "😀c",
            "start inside the pair rounds down"
        );
        assert_eq!(utf16_slice(text, 4, 2), "");
        assert_eq!(utf16_slice(text, 10, 20), "");
    }

    #[test]
    fn utf16_order_differs_from_byte_order() {
        assert_eq!(utf16_cmp("😀", "\u{FF5E}"), Ordering::Less);
        assert_eq!("😀".cmp("\u{FF5E}"), Ordering::Greater);
        assert_eq!(utf16_cmp("a", "ab"), Ordering::Less);
        assert_eq!(utf16_cmp("ab", "a"), Ordering::Greater);
        assert_eq!(utf16_cmp("", ""), Ordering::Equal);
        assert_eq!(utf16_cmp("B", "a"), Ordering::Less);
        assert_eq!(utf16_cmp("x\u{E000}", "x😀"), Ordering::Greater);
        assert_eq!(utf16_cmp("é", "ê"), Ordering::Less);
    }

    #[test]
    fn clips() {
        assert_eq!(clip_units("abcdef", 6, "..."), None);
        assert_eq!(clip_units("abcdefg", 6, "...").as_deref(), Some("abc..."));
        assert_eq!(clip_units("ab😀defg", 6, "...").as_deref(), Some("ab..."));
        assert_eq!(clip_units("", 0, "..."), None);
        assert_eq!(clip_units("abcd", 2, "...").as_deref(), Some("..."));
        let long = "x".repeat(400);
        let cut = clip_units(&long, 300, "\n[truncated]").unwrap_or_default();
        assert_eq!(utf16_len(&cut), 300);
        assert!(cut.ends_with("x\n[truncated]"));

        assert_eq!(clip_units_trim_end("abc", 3, ELLIPSIS), None);
        assert_eq!(
            clip_units_trim_end("ab  cd", 5, ELLIPSIS).as_deref(),
            Some("ab…")
        );
        assert_eq!(
            clip_units_trim_end("abc😀d", 5, ELLIPSIS).as_deref(),
            Some("abc…")
        );
        let excerpt = format!("{}😀tail", "y".repeat(1198));
        let clipped = clip_units_trim_end(&excerpt, 1200, ELLIPSIS).unwrap_or_default();
        assert_eq!(clipped, format!("{}…", "y".repeat(1198)));
    }

    #[test]
    fn code_points() {
        assert_eq!(code_point_prefix("a😀b", 2), "a😀");
        assert_eq!(code_point_prefix("a😀b", 3), "a😀b");
        assert_eq!(code_point_prefix("a😀b", 9), "a😀b");
        let name64 = "x".repeat(64);
        assert!(matches!(
            clip_code_points(&name64, 64, ELLIPSIS),
            Cow::Borrowed(_)
        ));
        let name100 = "😀".repeat(100);
        let echoed = clip_code_points(&name100, 64, ELLIPSIS);
        assert_eq!(echoed, format!("{}…", "😀".repeat(64)));
    }

    proptest! {
        #[test]
        fn len_matches_encode_utf16(s in "\\PC{0,40}") {
            prop_assert_eq!(utf16_len(&s), s.encode_utf16().count());
            prop_assert_eq!(code_point_len(&s), s.chars().count());
        }

        #[test]
        fn prefix_is_the_longest_safe_prefix(s in "[a😀é\\u{FF5E}]{0,20}", max in 0_usize..45) {
            let p = utf16_prefix(&s, max);
            prop_assert!(s.starts_with(p));
            prop_assert!(utf16_len(p) <= max);
            // One more character would not fit (or there is none).
            if let Some(c) = s[p.len()..].chars().next() {
                prop_assert!(utf16_len(p) + c.len_utf16() > max);
            }
            // The result's units are the source's first units.
            prop_assert_eq!(&units(p)[..], &units(&s)[..utf16_len(p)]);
        }

        #[test]
        fn cmp_matches_code_unit_order(a in "[a\\u{FF5E}\\u{E000}😀𐀀]{0,6}", b in "[a\\u{FF5E}\\u{E000}😀𐀀]{0,6}") {
            prop_assert_eq!(utf16_cmp(&a, &b), units(&a).cmp(&units(&b)));
        }

        #[test]
        fn cmp_matches_code_unit_order_anywhere(a in "\\PC{0,8}", b in "\\PC{0,8}") {
            prop_assert_eq!(utf16_cmp(&a, &b), units(&a).cmp(&units(&b)));
        }

        #[test]
        fn clip_units_bounds(s in "[ab 😀]{0,30}", max in 3_usize..30) {
            match clip_units(&s, max, "...") {
                None => prop_assert!(utf16_len(&s) <= max),
                Some(c) => {
                    prop_assert!(utf16_len(&c) <= max);
                    prop_assert!(c.ends_with("..."));
                    prop_assert!(s.starts_with(&c[..c.len() - 3]));
                }
            }
        }

        #[test]
        fn slice_is_a_substring(s in "[ab😀]{0,12}", a in 0_usize..30, b in 0_usize..30) {
            let part = utf16_slice(&s, a, b);
            prop_assert!(s.contains(part));
            prop_assert!(utf16_len(part) <= b.saturating_sub(a) + 1);
        }
    }
}
