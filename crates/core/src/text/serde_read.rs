//! The one bounded `serde_json` read, for every reader of the workspace that parses untrusted
//! JSON into `serde_json` types: JSONL lines (search entries, the session timeline), `aios.json`,
//! the migration journal and receipt, and the adapter client's answer lines. The steps are always
//! the same three, in this order:
//!
//! 1. **Depth:** at most [`MAX_NESTING`](super::MAX_NESTING) (64) containers deep, checked by [`json_nesting_ok`]
//!    in one linear pass before `serde_json`, whose reader recurses once per level, sees the
//!    text (deeper is [`SerdeReadError::TooDeep`]; `docs/decisions.md`, *Hostile content*);
//! 2. **Lone surrogates:** under [`LoneSurrogates::Replace`] every escaped lone surrogate is
//!    rewritten to `\ufffd` ([`replace_lone_surrogate_escapes`], contract 02 §16, 05 §10.5);
//!    under [`LoneSurrogates::Refuse`] the text goes to `serde_json` as written, which refuses
//!    such an escape in every string it builds (contract 03 §10.2: such a line is skipped);
//! 3. **Parse:** `serde_json` reads exactly one value followed by nothing but whitespace.
//!
//! **Size:** no limit of its own. The text's size is the caller's read cap; the work is linear
//! in it and holds at most one copy of the text (the rewrite, made only when the text has a
//! `\u` escape) besides the parsed value.
//!
//! **JSONL lines** ([`serde_read_line`], contract 03 §10.2) add two rules for machine-written
//! lines: step 1 also counts the line's items ([`json_within`]) and refuses a line over the
//! caller's ceiling before anything is built ([`SerdeReadError::TooLarge`]); and a number
//! outside the double range (`1e400`), which `serde_json` refuses, is read as JavaScript's
//! `JSON.parse` reads it, as ±Infinity, which `JSON.stringify` and so every later writer
//! prints as `null`: the line is parsed again with each such number written `null`.
//!
//! **Invariant:** this module owns the order of the steps and nothing else: the grammar is
//! `serde_json`'s, the limit and its pre-check are `nesting.rs`'s, the rewrite is `json.rs`'s.
//! It never recurses, reads no file and keeps nothing of the text in its errors.

use std::borrow::Cow;

use serde::de::DeserializeOwned;
use serde_json::Deserializer;
use serde_json::de::StrRead;

use super::{JsonBound, LoneSurrogates, json_within, replace_lone_surrogate_escapes};

/// Why a text is not read. Callers map both to their own "not JSON" outcome; the distinction
/// is for tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum SerdeReadError {
    /// Containers nested deeper than [`MAX_NESTING`](super::MAX_NESTING); `serde_json` never saw the text.
    #[error("nesting too deep")]
    TooDeep,
    /// More items than the ceiling of [`serde_read_line`]; `serde_json` never saw the text.
    #[error("too many values")]
    TooLarge,
    /// `serde_json` refused the text (syntax, a lone surrogate under
    /// [`LoneSurrogates::Refuse`], a number outside the double range, trailing characters, or
    /// a value of the wrong shape for the target type).
    #[error("not JSON")]
    Invalid,
}

/// Reads `text` as one `T` through the three steps of this module.
pub fn serde_read<T: DeserializeOwned>(
    text: &str,
    lone_surrogates: LoneSurrogates,
) -> Result<T, SerdeReadError> {
    serde_read_with(text, lone_surrogates, |deserializer| {
        T::deserialize(deserializer)
    })
}

/// [`serde_read`] with the caller's own visit of the value (a visitor that looks at a value
/// without building it); the text must hold nothing after the value but whitespace.
pub fn serde_read_with<T>(
    text: &str,
    lone_surrogates: LoneSurrogates,
    visit: impl for<'de> FnOnce(&mut Deserializer<StrRead<'de>>) -> serde_json::Result<T>,
) -> Result<T, SerdeReadError> {
    checked(text, usize::MAX)?;
    parse(text, lone_surrogates, visit)
}

/// Reads one JSONL line as one `T` (contract 03 §10.2): the steps of [`serde_read`] with at
/// most `max_items` items ([`json_within`]), and a number outside the double range read as
/// ±Infinity and kept as `null`, as `JSON.parse` then `JSON.stringify` would keep it.
pub fn serde_read_line<T: DeserializeOwned>(
    text: &str,
    lone_surrogates: LoneSurrogates,
    max_items: usize,
) -> Result<T, SerdeReadError> {
    checked(text, max_items)?;
    match parse(text, lone_surrogates, build::<T>) {
        Err(SerdeReadError::Invalid) => match infinite_numbers_as_null(text) {
            // Each rewrite is shorter than its number and adds no item, so the bounds hold.
            Some(rewritten) => parse(&rewritten, lone_surrogates, build::<T>),
            None => Err(SerdeReadError::Invalid),
        },
        read => read,
    }
}

fn build<T: DeserializeOwned>(
    deserializer: &mut Deserializer<StrRead<'_>>,
) -> serde_json::Result<T> {
    T::deserialize(deserializer)
}

/// Step 1: depth and, when the caller has one, the item ceiling.
fn checked(text: &str, max_items: usize) -> Result<(), SerdeReadError> {
    json_within(text, max_items).map_err(|bound| match bound {
        JsonBound::Depth => SerdeReadError::TooDeep,
        JsonBound::Items => SerdeReadError::TooLarge,
    })
}

/// Steps 2 and 3.
fn parse<T>(
    text: &str,
    lone_surrogates: LoneSurrogates,
    visit: impl for<'de> FnOnce(&mut Deserializer<StrRead<'de>>) -> serde_json::Result<T>,
) -> Result<T, SerdeReadError> {
    let text = surrogate_policy(text, lone_surrogates);
    let mut deserializer = Deserializer::from_str(&text);
    let value = visit(&mut deserializer).map_err(|_| SerdeReadError::Invalid)?;
    deserializer.end().map_err(|_| SerdeReadError::Invalid)?;
    Ok(value)
}

/// `text` with every number token outside strings that a double cannot hold (it rounds to
/// ±Infinity) written `null`, or `None` when there is none. One linear pass; only tokens with
/// an exponent or more digits than a finite double can have are converted.
fn infinite_numbers_as_null(text: &str) -> Option<String> {
    /// The longest decimal integer below `f64::MAX` has 309 digits.
    const MAX_FINITE_DIGITS: usize = 309;
    let bytes = text.as_bytes();
    let mut out: Option<String> = None;
    let mut copied = 0;
    let mut in_string = false;
    let mut escaped = false;
    let mut at = 0;
    while at < bytes.len() {
        let byte = bytes[at];
        if in_string {
            if escaped {
                escaped = false;
            } else if byte == b'\\' {
                escaped = true;
            } else if byte == b'"' {
                in_string = false;
            }
            at += 1;
            continue;
        }
        if byte == b'"' {
            in_string = true;
            at += 1;
            continue;
        }
        if byte != b'-' && !byte.is_ascii_digit() {
            at += 1;
            continue;
        }
        let start = at;
        while at < bytes.len()
            && matches!(bytes[at], b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E')
        {
            at += 1;
        }
        let token = &text[start..at];
        let may_overflow = token.len() > MAX_FINITE_DIGITS || token.contains(['e', 'E']);
        if may_overflow && token.parse::<f64>().is_ok_and(f64::is_infinite) {
            let out = out.get_or_insert_with(|| String::with_capacity(text.len()));
            out.push_str(&text[copied..start]);
            out.push_str("null");
            copied = at;
        }
    }
    out.map(|mut out| {
        out.push_str(&text[copied..]);
        out
    })
}

/// The text `serde_json` reads under the policy; a text without any `\u` escape is returned
/// as it is without a scan of its string literals.
fn surrogate_policy(text: &str, lone_surrogates: LoneSurrogates) -> Cow<'_, str> {
    match lone_surrogates {
        LoneSurrogates::Replace if text.contains("\\u") => replace_lone_surrogate_escapes(text),
        LoneSurrogates::Replace | LoneSurrogates::Refuse => Cow::Borrowed(text),
    }
}

#[cfg(test)]
mod tests {
    use serde::Deserializer as _;
    use serde::de::IgnoredAny;
    use serde_json::{Value, json};

    use super::*;
    use crate::text::MAX_NESTING;

    const REPLACE: LoneSurrogates = LoneSurrogates::Replace;
    const REFUSE: LoneSurrogates = LoneSurrogates::Refuse;

    fn nested(open: &str, close: &str, depth: usize) -> String {
        format!("{}1{}", open.repeat(depth), close.repeat(depth))
    }

    #[test]
    fn the_nesting_limit_is_64_under_both_policies() {
        assert_eq!(MAX_NESTING, 64);
        for policy in [REPLACE, REFUSE] {
            for (open, close) in [("[", "]"), ("{\"a\":", "}")] {
                assert!(serde_read::<Value>(&nested(open, close, 64), policy).is_ok());
                assert_eq!(
                    serde_read::<Value>(&nested(open, close, 65), policy),
                    Err(SerdeReadError::TooDeep),
                    "{open}"
                );
            }
            // Refused before `serde_json` recurses, even far beyond its own limit of 128.
            assert_eq!(
                serde_read::<Value>(&"[".repeat(1_000_000), policy),
                Err(SerdeReadError::TooDeep)
            );
            // Brackets inside strings are text.
            let in_string = format!(r#"{{"a":"{}"}}"#, "[".repeat(500));
            assert!(serde_read::<Value>(&in_string, policy).is_ok());
        }
    }

    #[test]
    fn lone_surrogates_follow_the_policy() {
        let read = |text: &str, policy| serde_read::<Value>(text, policy);
        assert_eq!(
            read(r#"{"a":"x\ud800"}"#, REPLACE),
            Ok(json!({"a": "x\u{FFFD}"}))
        );
        assert_eq!(
            read(r#"["\udc00","\ud800\u0041"]"#, REPLACE),
            Ok(json!(["\u{FFFD}", "\u{FFFD}A"]))
        );
        assert_eq!(read(r#"{"\ud800":1}"#, REPLACE), Ok(json!({"\u{FFFD}": 1})));
        assert_eq!(
            read(r#"{"a":"x\ud800"}"#, REFUSE),
            Err(SerdeReadError::Invalid)
        );
        assert_eq!(
            read(r#"{"\udc00":1}"#, REFUSE),
            Err(SerdeReadError::Invalid)
        );
        // A pair is a character under both policies; an escaped backslash is not an escape.
        for policy in [REPLACE, REFUSE] {
            assert_eq!(read(r#""\ud83d\ude00""#, policy), Ok(json!("😀")));
            assert_eq!(read(r#""\\ud800""#, policy), Ok(json!("\\ud800")));
        }
    }

    #[test]
    fn one_value_and_only_whitespace_after_it() {
        for policy in [REPLACE, REFUSE] {
            assert_eq!(
                serde_read::<Value>(" {\"a\":1}\r\n", policy),
                Ok(json!({"a": 1}))
            );
            for bad in [
                "",
                "{",
                "{} {}",
                "[1,]",
                "{\"a\":1e400}",
                "\u{feff}{}",
                "nul",
            ] {
                assert_eq!(
                    serde_read::<Value>(bad, policy),
                    Err(SerdeReadError::Invalid),
                    "{bad:?}"
                );
            }
            // The target type decides the shape.
            assert_eq!(
                serde_read::<Vec<u8>>("{}", policy),
                Err(SerdeReadError::Invalid)
            );
        }
    }

    #[test]
    fn a_line_has_an_item_ceiling_and_keeps_infinite_numbers() {
        let line = |text: &str, max| serde_read_line::<Value>(text, REFUSE, max);
        assert_eq!(line("[1,2,3]", 4), Ok(json!([1, 2, 3])));
        assert_eq!(line("[1,2,3]", 3), Err(SerdeReadError::TooLarge));
        assert_eq!(
            line(&nested("[", "]", 65), 1000),
            Err(SerdeReadError::TooDeep)
        );
        // JSON.parse gives ±Infinity, which JSON.stringify writes as null.
        assert_eq!(
            line(
                r#"{"a":1e400,"b":-1E+400,"c":"1e400","d":1e308,"e":1e-400}"#,
                100
            ),
            Ok(json!({"a": null, "b": null, "c": "1e400", "d": 1e308, "e": 0.0}))
        );
        let digits = format!("[{}]", "9".repeat(400));
        assert_eq!(line(&digits, 100), Ok(json!([null])));
        // A line that is not JSON for another reason stays refused.
        assert_eq!(line("{\"a\":1e400,}", 100), Err(SerdeReadError::Invalid));
        assert_eq!(line("{\"a\":1e400", 100), Err(SerdeReadError::Invalid));
        // The plain read keeps refusing it (aios.json, requests: contract 01 §5).
        assert_eq!(
            serde_read::<Value>("{\"a\":1e400}", REFUSE),
            Err(SerdeReadError::Invalid)
        );
    }

    #[test]
    fn a_visit_gets_the_same_bounds_and_the_end_check() {
        let ignore = |text: &str| {
            serde_read_with(text, REPLACE, |deserializer| {
                deserializer.deserialize_any(IgnoredAny).map(|_| ())
            })
        };
        assert_eq!(ignore(r#"{"a":[1,"\ud800"]}"#), Ok(()));
        assert_eq!(ignore(&nested("[", "]", 65)), Err(SerdeReadError::TooDeep));
        assert_eq!(ignore("{} x"), Err(SerdeReadError::Invalid));
    }
}
