//! The request side's JSON policy (contract 05 §2.3 step 1, §10.5): requests are read by the one
//! JavaScript-faithful reader, `dotaios_core::text::read_json`, with what this adapter decides
//! on top: an escaped lone surrogate becomes U+FFFD (the contract's recommended choice), and a
//! line holding more than [`MAX_VALUES`] values is refused before it is built (a 16 MiB line of
//! `{"a":0},` would otherwise become about 1 GB of maps). The nesting limit is the reader's,
//! `dotaios_core::text::MAX_NESTING`. Every refusal is `Parse error` (`-32700`, contract 05
//! §2.3); `docs/security.md` gives the reasons for the numbers.
//!
//! **Invariant:** this module owns no grammar; it must never parse JSON itself.

use dotaios_core::text::{JsonReadOptions, LoneSurrogates, read_json};

pub(crate) use dotaios_core::text::{JsonReadError as ParseError, JsonValue as Json};

/// Values (scalars, containers and member names) beyond this make the line unparseable
/// (`-32700`). A real request holds a few dozen; at the worst shape (one-member objects) this
/// many cost about 20 MiB, so a line's peak stays far below 128 MiB.
pub(crate) const MAX_VALUES: usize = 100_000;

/// The adapter's reading policy.
const REQUEST: JsonReadOptions = JsonReadOptions {
    lone_surrogates: LoneSurrogates::Replace,
    max_values: Some(MAX_VALUES),
};

/// Parses one request line exactly as `JSON.parse` would accept it (JSON whitespace is only
/// space, tab, line feed and carriage return), under the request policy.
pub(crate) fn parse(text: &str) -> Result<Json, ParseError> {
    read_json(text, &REQUEST)
}

#[cfg(test)]
mod tests {
    use dotaios_core::text::MAX_NESTING;

    use super::*;

    fn ok(text: &str) -> Json {
        parse(text).unwrap_or_else(|error| panic!("{text}: {error}"))
    }

    #[test]
    fn lone_surrogates_become_replacement_characters() {
        assert_eq!(ok(r#""\ud800""#), Json::String("\u{FFFD}".into()));
        assert_eq!(ok(r#""\udc00x""#), Json::String("\u{FFFD}x".into()));
        assert_eq!(ok(r#""\ud800\u0041""#), Json::String("\u{FFFD}A".into()));
        assert_eq!(ok(r#""\ud83d\ude00""#), Json::String("😀".into()));
    }

    #[test]
    fn nesting_is_the_workspace_limit() {
        let at = format!("{}{}", "[".repeat(MAX_NESTING), "]".repeat(MAX_NESTING));
        assert!(parse(&at).is_ok());
        let over = format!(
            "{}{}",
            "[".repeat(MAX_NESTING + 1),
            "]".repeat(MAX_NESTING + 1)
        );
        assert_eq!(parse(&over), Err(ParseError::TooDeep));
    }

    #[test]
    fn the_value_count_is_bounded() {
        // One-member objects: each costs two values (its name and its value) plus itself.
        let objects = |count: usize| format!("[{}{{\"a\":0}}]", "{\"a\":0},".repeat(count - 1));
        assert!(parse(&objects((MAX_VALUES - 1) / 3)).is_ok());
        assert_eq!(
            parse(&objects(MAX_VALUES / 3 + 1)),
            Err(ParseError::TooMany)
        );
        let scalars = |count: usize| format!("[{}0]", "0,".repeat(count - 1));
        assert!(parse(&scalars(MAX_VALUES - 1)).is_ok());
        assert_eq!(parse(&scalars(MAX_VALUES)), Err(ParseError::TooMany));
        // A 16 MiB line of small objects is refused without building it.
        let line = format!("[{}{{\"a\":0}}]", "{\"a\":0},".repeat(2_000_000));
        assert_eq!(parse(&line), Err(ParseError::TooMany));
        // Long strings are not many values: a 4 MiB string is fine.
        let long = format!("{{\"s\":\"{}\"}}", "x".repeat(4 << 20));
        assert!(parse(&long).is_ok());
    }
}
