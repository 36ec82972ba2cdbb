//! [`JsString`]: text held as JavaScript holds it, UTF-16 code units that may include lone
//! surrogates.
//!
//! The working-context projection reproduces the reference's cuts by UTF-16 unit (contract 02 §5
//! `compactHeader`, §11 the marker cut and `truncateVisible`), which can split a surrogate pair.
//! A Rust `String` cannot hold the resulting lone surrogate, so that text is carried in this type
//! until it leaves the process: [`JsString::to_string_lossy`] for stdout (a lone surrogate
//! becomes U+FFFD) and [`crate::text::JsonWriter::js_string`] for JSON (a lone surrogate
//! becomes `\udxxx`, as `JSON.stringify` writes it). Everywhere else, prefer `&str` and the
//! code-point-safe cuts of [`crate::text::utf16_prefix`].

use std::fmt;

use super::space::is_js_space_unit;

/// A JavaScript string value: a sequence of UTF-16 code units, possibly ill-formed.
///
/// Its [`len`](Self::len) is JavaScript's `length`, and [`truncate`](Self::truncate) is
/// `slice(0, n)`, which may leave a lone high surrogate at the end.
#[derive(Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct JsString {
    units: Vec<u16>,
}

impl JsString {
    /// Creates an empty string.
    pub fn new() -> Self {
        Self::default()
    }

    /// Creates a string from raw UTF-16 code units, which may be ill-formed.
    pub fn from_units(units: Vec<u16>) -> Self {
        Self { units }
    }

    /// Returns the length in UTF-16 code units (JavaScript `length`).
    pub fn len(&self) -> usize {
        self.units.len()
    }

    /// Returns whether the string has no code units.
    pub fn is_empty(&self) -> bool {
        self.units.is_empty()
    }

    /// Returns the code units.
    pub fn units(&self) -> &[u16] {
        &self.units
    }

    /// Appends well-formed text.
    pub fn push_str(&mut self, text: &str) {
        self.units.extend(text.encode_utf16());
    }

    /// Appends another JavaScript string unit by unit. As in JavaScript, a lone high surrogate
    /// at the end of `self` followed by a lone low surrogate at the start of `other` become a
    /// pair.
    pub fn push_js(&mut self, other: &JsString) {
        self.units.extend_from_slice(&other.units);
    }

    /// Keeps the first `units` code units (JavaScript `slice(0, units)`), even when that splits a
    /// surrogate pair. Does nothing when the string is not longer.
    pub fn truncate(&mut self, units: usize) {
        self.units.truncate(units);
    }

    /// Removes trailing JS spaces (JavaScript `trimEnd`, contract 01 §0). A lone surrogate is not a
    /// space and stops the trim.
    pub fn trim_end(&mut self) {
        let keep = self
            .units
            .iter()
            .rposition(|&unit| !is_js_space_unit(unit))
            .map_or(0, |last| last + 1);
        self.units.truncate(keep);
    }

    /// Returns whether `self` begins with the code units of `prefix`.
    pub fn starts_with(&self, prefix: &JsString) -> bool {
        self.units.starts_with(&prefix.units)
    }

    /// Returns whether the string is well-formed UTF-16 (no lone surrogate).
    pub fn is_well_formed(&self) -> bool {
        char::decode_utf16(self.units.iter().copied()).all(|c| c.is_ok())
    }

    /// Converts to UTF-8, replacing each lone surrogate with U+FFFD, which is what Node writes
    /// to stdout for such a string (contract 02 §16: bytes `EF BF BD`).
    pub fn to_string_lossy(&self) -> String {
        String::from_utf16_lossy(&self.units)
    }

    /// Iterates the string as characters, a lone surrogate appearing as `Err(unit)`.
    pub(crate) fn chars(&self) -> impl Iterator<Item = Result<char, u16>> + '_ {
        char::decode_utf16(self.units.iter().copied())
            .map(|r| r.map_err(|e| e.unpaired_surrogate()))
    }
}

impl From<&str> for JsString {
    fn from(text: &str) -> Self {
        Self {
            units: text.encode_utf16().collect(),
        }
    }
}

impl From<String> for JsString {
    fn from(text: String) -> Self {
        Self::from(text.as_str())
    }
}

impl fmt::Debug for JsString {
    /// Shows the text with each lone surrogate as `\u{dxxx}`, so tests can see it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("\"")?;
        for c in self.chars() {
            match c {
                Ok(c) => write!(f, "{}", c.escape_debug())?,
                Err(unit) => write!(f, "\\u{{{unit:x}}}")?,
            }
        }
        f.write_str("\"")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn cuts_like_javascript_slice() {
        let mut s = JsString::from("ab😀c");
        assert_eq!(s.len(), 5);
        s.truncate(3);
        assert_eq!(s.len(), 3);
        assert!(!s.is_well_formed());
        assert_eq!(s.units(), &[0x61, 0x62, 0xD83D]);
        assert_eq!(s.to_string_lossy(), "ab\u{FFFD}");
        assert_eq!(format!("{s:?}"), "\"ab\\u{d83d}\"");
        s.truncate(10);
        assert_eq!(s.len(), 3);
    }

    #[test]
    fn compact_header_shape() {
        // compactHeader: 799 units, trimEnd, then `…`; the cut can leave a lone high surrogate.
        let text = format!("{}😀", "x".repeat(798));
        let mut s = JsString::from(text.as_str());
        s.truncate(799);
        s.trim_end();
        s.push_str("…");
        assert_eq!(s.len(), 800);
        assert_eq!(s.units()[798], 0xD83D);
        assert_eq!(s.to_string_lossy(), format!("{}\u{FFFD}…", "x".repeat(798)));
    }

    #[test]
    fn trim_end_stops_at_lone_surrogate() {
        let mut s = JsString::from_units(vec![0x61, 0xD800, 0x20, 0x3000, 0xFEFF]);
        s.trim_end();
        assert_eq!(s.units(), &[0x61, 0xD800]);
        let mut blank = JsString::from(" \n\u{2028}");
        blank.trim_end();
        assert!(blank.is_empty());
        let mut keeps_nel = JsString::from("a\u{85}");
        keeps_nel.trim_end();
        assert_eq!(keeps_nel.len(), 2);
    }

    #[test]
    fn joining_halves_makes_a_pair() {
        let mut high = JsString::from_units(vec![0xD83D]);
        high.push_js(&JsString::from_units(vec![0xDE00]));
        assert!(high.is_well_formed());
        assert_eq!(high.to_string_lossy(), "😀");
        assert!(JsString::from("abc").starts_with(&JsString::from("ab")));
        assert!(!JsString::from("abc").starts_with(&JsString::from("b")));
    }

    proptest! {
        #[test]
        fn trim_end_matches_str(s in "[ a😀\\u{feff}\\u{85}\\u{3000}]{0,12}") {
            let mut js = JsString::from(s.as_str());
            js.trim_end();
            prop_assert_eq!(js.to_string_lossy(), crate::text::js_trim_end(&s));
        }

        #[test]
        fn round_trips_well_formed_text(s in "\\PC{0,20}") {
            let js = JsString::from(s.as_str());
            prop_assert!(js.is_well_formed());
            prop_assert_eq!(js.len(), crate::text::utf16_len(&s));
            prop_assert_eq!(js.to_string_lossy(), s);
        }
    }
}
