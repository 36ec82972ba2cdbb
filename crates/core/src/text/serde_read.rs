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
//! **Invariant:** this module owns the order of the steps and nothing else: the grammar is
//! `serde_json`'s, the limit and its pre-check are `nesting.rs`'s, the rewrite is `json.rs`'s.
//! It never recurses, reads no file and keeps nothing of the text in its errors.

use std::borrow::Cow;

use serde::de::DeserializeOwned;
use serde_json::Deserializer;
use serde_json::de::StrRead;

use super::{LoneSurrogates, json_nesting_ok, replace_lone_surrogate_escapes};

/// Why a text is not read. Callers map both to their own "not JSON" outcome; the distinction
/// is for tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum SerdeReadError {
    /// Containers nested deeper than [`MAX_NESTING`](super::MAX_NESTING); `serde_json` never saw the text.
    #[error("nesting too deep")]
    TooDeep,
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
    if !json_nesting_ok(text) {
        return Err(SerdeReadError::TooDeep);
    }
    let text = surrogate_policy(text, lone_surrogates);
    let mut deserializer = Deserializer::from_str(&text);
    let value = visit(&mut deserializer).map_err(|_| SerdeReadError::Invalid)?;
    deserializer.end().map_err(|_| SerdeReadError::Invalid)?;
    Ok(value)
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
