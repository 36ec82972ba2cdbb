//! The one display rule for a name taken from the folder (a directory or file name) wherever it
//! reaches output (contract 02 §10.1): a name is the user's, but the folder may be anyone's, so
//! it must not be able to reorder the text around it, hide characters, break a line, or open
//! Markdown or HTML.
//!
//! The rule, in one pass (linear; the result is at most eight bytes per input byte):
//!
//! 1. a character of general category `Cc` (controls, line breaks included), `Cf` (format:
//!    bidirectional overrides and isolates, zero-width characters, tags, the BOM), `Zl` or `Zp`
//!    (U+2028, U+2029) is written as `\u{XXXX}` (its code point in upper-case hex, at least four
//!    digits);
//! 2. in Markdown only, each of `` \ ` * _ [ ] < > # | & `` is preceded by a backslash
//!    (CommonMark's backslash escape; `&` so that no entity such as `&#x202E;` can bring a
//!    format character back).
//!
//! A name with none of these characters is returned borrowed and unchanged, so ordinary names
//! print exactly as the reference prints them. This module never decides whether a name is
//! valid or skipped (the readers do) and never shortens one.
//!
//! A listed name that is not UTF-8 ([`escape_os_name`], contract 03 §4.6) follows the same rule
//! for its characters, and shows what is not text as the platform holds it: a byte that is no
//! part of a UTF-8 sequence as `\xHH` (Unix), a UTF-16 surrogate without its pair as `\u{XXXX}`
//! (Windows), so the name can be found and renamed, never guessed in another encoding.

use std::borrow::Cow;
use std::ffi::OsStr;
use std::fmt::Write as _;

use dotaios_contained::{NamePiece, name_pieces};

use icu_properties::CodePointMapData;
use icu_properties::props::GeneralCategory;

/// Where an escaped name is printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NameOutput {
    /// Markdown text (the working-context digest): rule 1 and rule 2.
    Markdown,
    /// A JSON string or a terminal line, where Markdown characters are data: rule 1 only.
    Data,
}

/// The Markdown characters rule 2 escapes.
const MARKDOWN_SPECIALS: &[char] = &['\\', '`', '*', '_', '[', ']', '<', '>', '#', '|', '&'];

/// Whether `c` is written as a `\u{…}` escape (rule 1).
pub fn is_invisible_in_names(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_control();
    }
    matches!(
        CodePointMapData::<GeneralCategory>::new().get(c),
        GeneralCategory::Control
            | GeneralCategory::Format
            | GeneralCategory::LineSeparator
            | GeneralCategory::ParagraphSeparator
    )
}

/// `name` as it may be printed in `output` (the rule of this module's documentation).
pub fn escape_name(name: &str, output: NameOutput) -> Cow<'_, str> {
    let escapes = |c: char| {
        is_invisible_in_names(c)
            || (output == NameOutput::Markdown && MARKDOWN_SPECIALS.contains(&c))
    };
    let Some(first) = name.find(escapes) else {
        return Cow::Borrowed(name);
    };
    let mut out = String::with_capacity(name.len() + 16);
    out.push_str(&name[..first]);
    for c in name[first..].chars() {
        push_escaped(&mut out, c, output);
    }
    Cow::Owned(out)
}

/// A name as a listing returned it, as it may be printed in `output`: [`escape_name`] when it
/// is UTF-8, else each character by the same rule and each piece that is not text as `\xHH`
/// (a byte, Unix) or `\u{XXXX}` (an unpaired surrogate, Windows). Linear in the name's length.
pub fn escape_os_name(name: &OsStr, output: NameOutput) -> Cow<'_, str> {
    if let Some(text) = name.to_str() {
        return escape_name(text, output);
    }
    let mut out = String::with_capacity(name.len() + 16);
    name_pieces(name, |piece| match piece {
        NamePiece::Char(c) => push_escaped(&mut out, c, output),
        // Writing to a String cannot fail.
        NamePiece::Byte(byte) => {
            let _ = write!(out, "\\x{byte:02X}");
        }
        NamePiece::Unit(unit) => {
            let _ = write!(out, "\\u{{{unit:04X}}}");
        }
    });
    Cow::Owned(out)
}

/// One character of a name by the module's rule.
fn push_escaped(out: &mut String, c: char, output: NameOutput) {
    if is_invisible_in_names(c) {
        // Writing to a String cannot fail.
        let _ = write!(out, "\\u{{{:04X}}}", u32::from(c));
    } else if output == NameOutput::Markdown && MARKDOWN_SPECIALS.contains(&c) {
        out.push('\\');
        out.push(c);
    } else {
        out.push(c);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use icu_properties::props::GeneralCategoryGroup;

    /// Every `Cc`, `Cf`, `Zl` and `Zp` code point, from the Unicode data itself.
    fn invisible_code_points() -> Vec<char> {
        let map = CodePointMapData::<GeneralCategory>::new();
        let group = GeneralCategoryGroup::Control
            .union(GeneralCategoryGroup::Format)
            .union(GeneralCategoryGroup::LineSeparator)
            .union(GeneralCategoryGroup::ParagraphSeparator);
        map.iter_ranges_for_group(group)
            .flat_map(|range| range.filter_map(char::from_u32))
            .collect()
    }

    #[test]
    fn ordinary_names_are_borrowed_unchanged() {
        for name in [
            "tidepool",
            "2026-11-24T15-05-12_claude-code_a3f9c1.md",
            "café (draft).md",
            "会議メモ.md",
        ] {
            assert!(matches!(
                escape_name(name, NameOutput::Data),
                Cow::Borrowed(n) if n == name
            ));
        }
        assert!(matches!(
            escape_name("tidepool-2", NameOutput::Markdown),
            Cow::Borrowed("tidepool-2")
        ));
        // Data output leaves Markdown characters alone.
        assert_eq!(escape_name("a_b#[c].md", NameOutput::Data), "a_b#[c].md");
    }

    #[test]
    fn every_invisible_character_is_escaped_in_both_outputs() {
        let all = invisible_code_points();
        // Cc alone is 65 code points; Cf adds the bidi controls, tags and more.
        assert!(all.len() > 65 + 100, "{}", all.len());
        for c in all {
            assert!(is_invisible_in_names(c), "{:04X}", u32::from(c));
            let name = format!("a{c}b");
            for output in [NameOutput::Markdown, NameOutput::Data] {
                let escaped = escape_name(&name, output);
                assert_eq!(escaped, format!("a\\u{{{:04X}}}b", u32::from(c)));
                assert!(!escaped.contains(c));
            }
        }
        assert_eq!(
            escape_name("evil\u{202E}gnp.EMDAER", NameOutput::Data),
            "evil\\u{202E}gnp.EMDAER"
        );
        assert_eq!(escape_name("a\nb", NameOutput::Data), "a\\u{000A}b");
        assert_eq!(escape_name("\u{E0001}", NameOutput::Data), "\\u{E0001}");
        // Letters, marks, spaces and symbols are not invisible.
        for c in ['a', 'é', '\u{0301}', ' ', '\u{00A0}', '€', '東', '\u{FFFD}'] {
            assert!(!is_invisible_in_names(c), "{c:?}");
        }
    }

    #[test]
    fn markdown_specials_are_backslash_escaped() {
        assert_eq!(
            escape_name("zz`<img src=x>`", NameOutput::Markdown),
            "zz\\`\\<img src=x\\>\\`"
        );
        assert_eq!(
            escape_name("\\*_[]#|&", NameOutput::Markdown),
            "\\\\\\*\\_\\[\\]\\#\\|\\&"
        );
        // An escape's own backslash is not escaped again: the rule is one pass.
        assert_eq!(
            escape_name("\u{202E}\\", NameOutput::Markdown),
            "\\u{202E}\\\\"
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_name_that_is_not_utf8_shows_its_stray_bytes() {
        use std::os::unix::ffi::OsStrExt;
        let name = OsStr::from_bytes(b"caf\xe9.md");
        assert_eq!(escape_os_name(name, NameOutput::Data), "caf\\xE9.md");
        // Its characters follow the same rule as any name's.
        let name = OsStr::from_bytes(b"\xff_a\n\xc3");
        assert_eq!(
            escape_os_name(name, NameOutput::Markdown),
            "\\xFF\\_a\\u{000A}\\xC3"
        );
        assert_eq!(
            escape_os_name(OsStr::new("caf\u{e9}.md"), NameOutput::Data),
            "caf\u{e9}.md"
        );
    }

    #[cfg(windows)]
    #[test]
    fn a_name_with_an_unpaired_surrogate_shows_it_as_its_unit() {
        use std::ffi::OsString;
        use std::os::windows::ffi::OsStringExt;
        let name = OsString::from_wide(&[u16::from(b'a'), 0xDC00, u16::from(b'.')]);
        assert_eq!(escape_os_name(&name, NameOutput::Data), "a\\u{DC00}.");
    }
}
