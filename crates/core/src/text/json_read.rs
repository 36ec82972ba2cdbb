//! The one JavaScript-faithful JSON reader: what `JSON.parse` accepts, into a tree that keeps
//! member order (a repeated name keeps its first position and its last value, JavaScript's
//! object model) and each number's text as written. The MCP adapter reads requests with it and
//! `connect` a user's `opencode.json`; the two differ only in the [`JsonReadOptions`] they pass
//! (lone-surrogate policy, value budget).
//!
//! Why not `serde_json::Value`: request numbers are IEEE doubles in the reference, so `1e400` is
//! a valid number (Infinity) there, `-0` is a number, and `12345678901234567890` is echoed as
//! `12345678901234567000`; a configuration file rewritten by `connect` must keep `1.0` as
//! written. `serde_json` refuses the first and keeps neither text (keeping it needs
//! `arbitrary_precision`, a feature that would change number handling in every crate of the
//! workspace). JSONL stays on `serde_json` (`docs/decisions.md` says why).
//!
//! **Invariant:** parsing does not recurse: containers being built sit on an explicit stack,
//! at most [`MAX_NESTING`] deep, so the recursive walks over a finished value (echoing,
//! converting, printing, dropping) are bounded too. With a value budget, a text holding more
//! values is refused before they are built. It accepts nothing `JSON.parse` refuses (comments,
//! trailing commas, a byte-order mark, control characters in strings, JSON whitespace other than
//! space, tab, line feed and carriage return), and never reorders members.

use indexmap::IndexMap;

use super::MAX_NESTING;

/// Object members in first-occurrence order; a repeated name keeps the last value.
pub type JsonObject = IndexMap<String, JsonValue>;

/// A parsed JSON value with JavaScript's object model.
#[derive(Debug, Clone, PartialEq)]
pub enum JsonValue {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, as written in the text.
    Number(JsonNumber),
    /// A string, its escapes decoded.
    String(String),
    /// An array, in order.
    Array(Vec<JsonValue>),
    /// An object, members in first-occurrence order.
    Object(JsonObject),
}

/// A JSON number: its text exactly as written (already validated against the grammar), and the
/// double JavaScript would hold for it. Two numbers are equal when their texts are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsonNumber(String);

impl JsonNumber {
    /// The number's text as written, e.g. `1.0`, `-0`, `1E+400`.
    pub fn text(&self) -> &str {
        &self.0
    }

    /// The double `JSON.parse` gives: correctly rounded, possibly infinite or `-0`.
    pub fn value(&self) -> f64 {
        // The text matched the JSON number grammar, which Rust's float parser accepts; it
        // rounds correctly and overflows to infinity, as JavaScript does.
        self.0.parse().unwrap_or(f64::NAN)
    }
}

impl JsonValue {
    /// The members, when the value is an object.
    pub fn as_object(&self) -> Option<&JsonObject> {
        match self {
            JsonValue::Object(members) => Some(members),
            _ => None,
        }
    }

    /// The text, when the value is a string.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            JsonValue::String(text) => Some(text),
            _ => None,
        }
    }

    /// JavaScript truthiness: `null`, `false`, `0`, `-0`, `NaN` and `""` are falsy.
    pub fn is_truthy(&self) -> bool {
        match self {
            JsonValue::Null => false,
            JsonValue::Bool(value) => *value,
            JsonValue::Number(number) => {
                let value = number.value();
                value != 0.0 && !value.is_nan()
            }
            JsonValue::String(text) => !text.is_empty(),
            JsonValue::Array(_) | JsonValue::Object(_) => true,
        }
    }

    /// The value as `JSON.stringify` sees it, with numbers as doubles: a non-finite number
    /// becomes `null`, which is what `JSON.stringify(Infinity)` writes. Recursion is bounded
    /// by the nesting limit.
    pub fn to_serde_value(&self) -> serde_json::Value {
        use serde_json::Value;
        match self {
            JsonValue::Null => Value::Null,
            JsonValue::Bool(value) => Value::Bool(*value),
            JsonValue::Number(number) => serde_json::Number::from_f64(number.value())
                .map(Value::Number)
                .unwrap_or(Value::Null),
            JsonValue::String(text) => Value::String(text.clone()),
            JsonValue::Array(items) => {
                Value::Array(items.iter().map(JsonValue::to_serde_value).collect())
            }
            JsonValue::Object(members) => Value::Object(
                members
                    .iter()
                    .map(|(name, member)| (name.clone(), member.to_serde_value()))
                    .collect(),
            ),
        }
    }
}

/// What to do with a `\u` escape that is half of a surrogate pair without its other half.
/// `JSON.parse` keeps it; a Rust `String` cannot hold it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LoneSurrogates {
    /// Replace it with U+FFFD (the contract's recommended choice for request text, contract 05
    /// §10.5, and for JSONL, contract 02 §16).
    Replace,
    /// Refuse the text ([`JsonReadError::LoneSurrogate`]): for a file that is written back,
    /// where a replacement would silently change the user's data.
    Refuse,
}

/// The caller's policy: the nesting limit ([`MAX_NESTING`]) and the grammar are not options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct JsonReadOptions {
    /// What a lone surrogate escape becomes.
    pub lone_surrogates: LoneSurrogates,
    /// Values (scalars, containers and member names) beyond this make the text unreadable
    /// ([`JsonReadError::TooMany`]), counted before each is built; `None` for no budget (the
    /// caller has bounded the text's size).
    pub max_values: Option<usize>,
}

impl JsonReadOptions {
    /// Lone surrogates become U+FFFD, no value budget (the request policy adds one).
    pub const REPLACE: JsonReadOptions = JsonReadOptions {
        lone_surrogates: LoneSurrogates::Replace,
        max_values: None,
    };
    /// Lone surrogates make the text unreadable, no value budget (the `connect` policy).
    pub const REFUSE: JsonReadOptions = JsonReadOptions {
        lone_surrogates: LoneSurrogates::Refuse,
        max_values: None,
    };
}

/// Why a text is not read. The detail is for tests and callers' own error choice; it carries no
/// part of the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum JsonReadError {
    /// The text ends inside a value.
    #[error("unexpected end of input")]
    Eof,
    /// A byte no JSON value can start or continue with.
    #[error("unexpected character")]
    Unexpected,
    /// A backslash escape JSON does not have, or a bad `\u` escape.
    #[error("invalid escape")]
    Escape,
    /// A lone surrogate escape under [`LoneSurrogates::Refuse`].
    #[error("lone surrogate escape")]
    LoneSurrogate,
    /// A raw control character (U+0000–U+001F) inside a string.
    #[error("control character in string")]
    Control,
    /// Containers nested deeper than [`MAX_NESTING`].
    #[error("nesting too deep")]
    TooDeep,
    /// More values than the budget of [`JsonReadOptions::max_values`].
    #[error("too many values")]
    TooMany,
    /// Something other than whitespace after the value.
    #[error("trailing characters")]
    Trailing,
}

/// Reads one complete JSON text exactly as `JSON.parse` would accept it, under `options`.
pub fn read_json(text: &str, options: &JsonReadOptions) -> Result<JsonValue, JsonReadError> {
    let mut parser = Parser {
        bytes: text.as_bytes(),
        text,
        position: 0,
        values: 0,
        options: *options,
    };
    parser.skip_whitespace();
    let value = parser.document()?;
    parser.skip_whitespace();
    if parser.position != parser.bytes.len() {
        return Err(JsonReadError::Trailing);
    }
    Ok(value)
}

struct Parser<'a> {
    bytes: &'a [u8],
    text: &'a str,
    position: usize,
    /// Values read so far, against the budget.
    values: usize,
    options: JsonReadOptions,
}

/// A container being built.
enum Open {
    Array(Vec<JsonValue>),
    /// The members so far and the name waiting for its value.
    Object(JsonObject, String),
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.position).copied()
    }

    fn skip_whitespace(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.position += 1;
        }
    }

    fn expect_literal(&mut self, literal: &[u8]) -> Result<(), JsonReadError> {
        let end = self.position + literal.len();
        if self.bytes.get(self.position..end) != Some(literal) {
            return Err(JsonReadError::Unexpected);
        }
        self.position = end;
        Ok(())
    }

    /// Counts one more value against the budget, before it is built.
    fn count(&mut self) -> Result<(), JsonReadError> {
        self.values += 1;
        match self.options.max_values {
            Some(max) if self.values > max => Err(JsonReadError::TooMany),
            _ => Ok(()),
        }
    }

    /// One value and everything inside it, iteratively: each container opened goes on
    /// `stack`, each value finished is handed to the container on top.
    fn document(&mut self) -> Result<JsonValue, JsonReadError> {
        let mut stack: Vec<Open> = Vec::new();
        loop {
            // Read the start of a value: a scalar, an empty container, or an opened one.
            self.count()?;
            let mut value = match self.peek().ok_or(JsonReadError::Eof)? {
                open @ (b'{' | b'[') => {
                    if stack.len() >= MAX_NESTING {
                        return Err(JsonReadError::TooDeep);
                    }
                    self.position += 1;
                    self.skip_whitespace();
                    if open == b'[' {
                        if self.peek() == Some(b']') {
                            self.position += 1;
                            JsonValue::Array(Vec::new())
                        } else {
                            stack.push(Open::Array(Vec::new()));
                            continue;
                        }
                    } else if self.peek() == Some(b'}') {
                        self.position += 1;
                        JsonValue::Object(JsonObject::new())
                    } else {
                        let name = self.member_name()?;
                        stack.push(Open::Object(JsonObject::new(), name));
                        continue;
                    }
                }
                b'"' => JsonValue::String(self.string()?),
                b't' => self
                    .expect_literal(b"true")
                    .map(|()| JsonValue::Bool(true))?,
                b'f' => self
                    .expect_literal(b"false")
                    .map(|()| JsonValue::Bool(false))?,
                b'n' => self.expect_literal(b"null").map(|()| JsonValue::Null)?,
                b'-' | b'0'..=b'9' => self.number()?,
                _ => return Err(JsonReadError::Unexpected),
            };
            // Hand the finished value to its container; close containers that end here.
            loop {
                self.skip_whitespace();
                match stack.last_mut() {
                    None => return Ok(value),
                    Some(Open::Array(items)) => {
                        items.push(value);
                        match self.peek().ok_or(JsonReadError::Eof)? {
                            b',' => {
                                self.position += 1;
                                self.skip_whitespace();
                                break;
                            }
                            b']' => {
                                self.position += 1;
                                let Some(Open::Array(items)) = stack.pop() else {
                                    unreachable!("the top is an array")
                                };
                                value = JsonValue::Array(items);
                            }
                            _ => return Err(JsonReadError::Unexpected),
                        }
                    }
                    Some(Open::Object(members, name)) => {
                        // `IndexMap::insert` keeps an existing name at its first position and
                        // replaces the value: JavaScript's rule for duplicate names.
                        members.insert(std::mem::take(name), value);
                        match self.peek().ok_or(JsonReadError::Eof)? {
                            b',' => {
                                self.position += 1;
                                *name = self.member_name()?;
                                break;
                            }
                            b'}' => {
                                self.position += 1;
                                let Some(Open::Object(members, _)) = stack.pop() else {
                                    unreachable!("the top is an object")
                                };
                                value = JsonValue::Object(members);
                            }
                            _ => return Err(JsonReadError::Unexpected),
                        }
                    }
                }
            }
        }
    }

    /// `"name"` and its `:`, leaving the position at the member's value.
    fn member_name(&mut self) -> Result<String, JsonReadError> {
        self.skip_whitespace();
        if self.peek().ok_or(JsonReadError::Eof)? != b'"' {
            return Err(JsonReadError::Unexpected);
        }
        self.count()?;
        let name = self.string()?;
        self.skip_whitespace();
        if self.peek().ok_or(JsonReadError::Eof)? != b':' {
            return Err(JsonReadError::Unexpected);
        }
        self.position += 1;
        self.skip_whitespace();
        Ok(name)
    }

    fn number(&mut self) -> Result<JsonValue, JsonReadError> {
        let start = self.position;
        if self.peek() == Some(b'-') {
            self.position += 1;
        }
        match self.peek().ok_or(JsonReadError::Eof)? {
            b'0' => self.position += 1,
            b'1'..=b'9' => self.digits(),
            _ => return Err(JsonReadError::Unexpected),
        }
        if self.peek() == Some(b'.') {
            self.position += 1;
            self.required_digits()?;
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.position += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.position += 1;
            }
            self.required_digits()?;
        }
        Ok(JsonValue::Number(JsonNumber(
            self.text[start..self.position].to_owned(),
        )))
    }

    fn digits(&mut self) {
        while self.peek().is_some_and(|byte| byte.is_ascii_digit()) {
            self.position += 1;
        }
    }

    fn required_digits(&mut self) -> Result<(), JsonReadError> {
        if !self.peek().ok_or(JsonReadError::Eof)?.is_ascii_digit() {
            return Err(JsonReadError::Unexpected);
        }
        self.digits();
        Ok(())
    }

    fn string(&mut self) -> Result<String, JsonReadError> {
        self.position += 1;
        let mut out = String::new();
        let mut run_start = self.position;
        loop {
            let byte = self.peek().ok_or(JsonReadError::Eof)?;
            match byte {
                b'"' => {
                    out.push_str(&self.text[run_start..self.position]);
                    self.position += 1;
                    return Ok(out);
                }
                b'\\' => {
                    out.push_str(&self.text[run_start..self.position]);
                    self.escape(&mut out)?;
                    run_start = self.position;
                }
                0x00..=0x1f => return Err(JsonReadError::Control),
                // Multi-byte UTF-8 never contains these bytes, so stepping bytewise is safe.
                _ => self.position += 1,
            }
        }
    }

    fn escape(&mut self, out: &mut String) -> Result<(), JsonReadError> {
        self.position += 1;
        let byte = self.peek().ok_or(JsonReadError::Eof)?;
        self.position += 1;
        let simple = match byte {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let unit = self.hex4()?;
                out.push(self.code_point_from(unit)?);
                return Ok(());
            }
            _ => return Err(JsonReadError::Escape),
        };
        out.push(simple);
        Ok(())
    }

    /// Combines a high surrogate with an immediately following `\uDC00`–`\uDFFF` escape; any
    /// other surrogate is lone and goes to the caller's [`LoneSurrogates`] policy.
    fn code_point_from(&mut self, unit: u16) -> Result<char, JsonReadError> {
        match unit {
            0xD800..=0xDBFF => {
                let next = self.bytes.get(self.position..self.position + 2);
                if next == Some(b"\\u") {
                    let saved = self.position;
                    self.position += 2;
                    let low = self.hex4()?;
                    if (0xDC00..=0xDFFF).contains(&low) {
                        let code = 0x10000
                            + ((u32::from(unit) - 0xD800) << 10)
                            + (u32::from(low) - 0xDC00);
                        return char::from_u32(code).ok_or(JsonReadError::Escape);
                    }
                    // Not a low surrogate: leave that escape to be read on its own.
                    self.position = saved;
                }
                self.lone_surrogate()
            }
            0xDC00..=0xDFFF => self.lone_surrogate(),
            _ => char::from_u32(u32::from(unit)).ok_or(JsonReadError::Escape),
        }
    }

    fn lone_surrogate(&self) -> Result<char, JsonReadError> {
        match self.options.lone_surrogates {
            LoneSurrogates::Replace => Ok('\u{FFFD}'),
            LoneSurrogates::Refuse => Err(JsonReadError::LoneSurrogate),
        }
    }

    fn hex4(&mut self) -> Result<u16, JsonReadError> {
        let digits = self
            .bytes
            .get(self.position..self.position + 4)
            .ok_or(JsonReadError::Eof)?;
        let mut unit: u16 = 0;
        for &digit in digits {
            let value = char::from(digit)
                .to_digit(16)
                .ok_or(JsonReadError::Escape)?;
            unit = (unit << 4) | value as u16;
        }
        self.position += 4;
        Ok(unit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const REPLACE: JsonReadOptions = JsonReadOptions::REPLACE;
    const REFUSE: JsonReadOptions = JsonReadOptions::REFUSE;

    fn ok(text: &str) -> JsonValue {
        read_json(text, &REPLACE).unwrap_or_else(|error| panic!("{text}: {error}"))
    }

    fn number(text: &str) -> f64 {
        match ok(text) {
            JsonValue::Number(number) => number.value(),
            other => panic!("{text}: not a number: {other:?}"),
        }
    }

    fn string(text: &str, options: &JsonReadOptions) -> Result<String, JsonReadError> {
        read_json(text, options).map(|value| match value {
            JsonValue::String(text) => text,
            other => panic!("not a string: {other:?}"),
        })
    }

    #[test]
    fn scalars_follow_javascript() {
        assert_eq!(ok("null"), JsonValue::Null);
        assert_eq!(ok(" true "), JsonValue::Bool(true));
        assert!(number("-0") == 0.0 && number("-0").is_sign_negative());
        assert_eq!(number("1e400"), f64::INFINITY);
        assert_eq!(number("-1e400"), f64::NEG_INFINITY);
        assert_eq!(number("1e-400"), 0.0);
        assert_eq!(number("12345678901234567890"), 12_345_678_901_234_567_000.0);
        assert_eq!(number("3.0"), 3.0);
        assert_eq!(ok(r#""a\"b\u00e9\/""#), JsonValue::String("a\"bé/".into()));
    }

    #[test]
    fn numbers_keep_their_text() {
        let JsonValue::Array(items) = ok("[1.0,12345678901234567890,-0,1E+400,2e-3]") else {
            panic!("not an array")
        };
        let texts: Vec<&str> = items
            .iter()
            .map(|item| match item {
                JsonValue::Number(number) => number.text(),
                other => panic!("not a number: {other:?}"),
            })
            .collect();
        assert_eq!(
            texts,
            ["1.0", "12345678901234567890", "-0", "1E+400", "2e-3"]
        );
    }

    #[test]
    fn refuses_what_json_parse_refuses() {
        for text in [
            "",
            "  ",
            "{",
            "{ broken",
            "[1,]",
            "{\"a\":1,}",
            "{'a':1}",
            "01",
            "[01]",
            "1.",
            ".5",
            "+1",
            "NaN",
            "Infinity",
            "'x'",
            "\"\t\"",
            "\"\\x\"",
            "{not json",
            "[1] 2",
            "{} {}",
            "tru",
            "nul",
            "\"\\u12\"",
            "{\"a\" 1}",
            "-",
            "1e",
            "\u{a0}1",
            "\u{feff}{}",
            "{} // note",
            "/* c */ {}",
        ] {
            assert!(read_json(text, &REPLACE).is_err(), "{text:?} parsed");
            assert!(read_json(text, &REFUSE).is_err(), "{text:?} parsed");
        }
    }

    #[test]
    fn duplicate_names_keep_first_position_and_last_value() {
        let JsonValue::Object(members) = ok(r#"{"a":1,"b":2,"a":3}"#) else {
            panic!("not an object")
        };
        let names: Vec<&str> = members.keys().map(String::as_str).collect();
        assert_eq!(names, ["a", "b"]);
        assert_eq!(members["a"], ok("3"));
    }

    #[test]
    fn lone_surrogates_follow_the_policy() {
        for (text, replaced) in [
            (r#""\ud800""#, "\u{FFFD}"),
            (r#""\udc00x""#, "\u{FFFD}x"),
            (r#""\ud800\u0041""#, "\u{FFFD}A"),
            (r#""\ud800\ud83d\ude00""#, "\u{FFFD}😀"),
        ] {
            assert_eq!(string(text, &REPLACE).as_deref(), Ok(replaced), "{text}");
            assert_eq!(
                string(text, &REFUSE),
                Err(JsonReadError::LoneSurrogate),
                "{text}"
            );
        }
        for options in [REPLACE, REFUSE] {
            assert_eq!(
                string(r#""\ud83d\ude00\u00e9""#, &options).as_deref(),
                Ok("😀é")
            );
        }
    }

    #[test]
    fn nesting_is_bounded() {
        let deep_ok = format!("{}{}", "[".repeat(MAX_NESTING), "]".repeat(MAX_NESTING));
        assert!(read_json(&deep_ok, &REPLACE).is_ok());
        // The same limit as the pre-check of `serde_read`, every `serde_json` reader's gate.
        assert!(super::super::json_nesting_ok(&deep_ok));
        let too_deep = format!(
            "{}{}",
            "[".repeat(MAX_NESTING + 1),
            "]".repeat(MAX_NESTING + 1)
        );
        assert_eq!(read_json(&too_deep, &REPLACE), Err(JsonReadError::TooDeep));
        assert!(!super::super::json_nesting_ok(&too_deep));
        let unclosed = "{\"a\":".repeat(100_000);
        assert_eq!(read_json(&unclosed, &REPLACE), Err(JsonReadError::TooDeep));
        let mixed = format!(
            "{}0{}",
            "[{\"a\":".repeat(MAX_NESTING / 2),
            "}]".repeat(MAX_NESTING / 2)
        );
        assert!(read_json(&mixed, &REPLACE).is_ok());
    }

    /// Far deeper input than the limit, on a thread with a 256 KiB stack: refused, no crash;
    /// and a value at the limit is read, converted and dropped there too.
    #[test]
    fn deep_input_on_a_small_stack() {
        let handle = std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn(|| {
                let refused = read_json(&"[".repeat(1_000_000), &REPLACE);
                let at_limit = format!(
                    "{}0{}",
                    "[{\"a\":".repeat(MAX_NESTING / 2),
                    "}]".repeat(MAX_NESTING / 2)
                );
                let value = read_json(&at_limit, &REPLACE).map(|value| value.to_serde_value());
                (refused, value.is_ok())
            })
            .unwrap();
        let (refused, at_limit_ok) = handle.join().expect("no stack overflow");
        assert_eq!(refused, Err(JsonReadError::TooDeep));
        assert!(at_limit_ok);
    }

    #[test]
    fn the_value_count_is_bounded_when_asked() {
        let budget = |max| JsonReadOptions {
            lone_surrogates: LoneSurrogates::Replace,
            max_values: Some(max),
        };
        // `[0,0,0]` is four values; `[{"a":0}]` is four too (array, object, name, value).
        assert!(read_json("[0,0,0]", &budget(4)).is_ok());
        assert_eq!(
            read_json("[0,0,0]", &budget(3)),
            Err(JsonReadError::TooMany)
        );
        assert!(read_json(r#"[{"a":0}]"#, &budget(4)).is_ok());
        assert_eq!(
            read_json(r#"[{"a":0}]"#, &budget(3)),
            Err(JsonReadError::TooMany)
        );
        // Without a budget, many values are fine.
        let many = format!("[{}0]", "0,".repeat(200_000));
        assert!(read_json(&many, &REPLACE).is_ok());
    }

    #[test]
    fn values_convert_as_json_stringify_sees_them() {
        assert_eq!(ok("1e400").to_serde_value(), serde_json::Value::Null);
        assert_eq!(
            ok(r#"{"b":1,"a":[true]}"#).to_serde_value(),
            serde_json::json!({"b":1.0,"a":[true]})
        );
    }

    #[test]
    fn truthiness() {
        for (text, truthy) in [
            ("0", false),
            ("-0", false),
            ("0.0e5", false),
            ("\"\"", false),
            ("null", false),
            ("false", false),
            ("5", true),
            ("[]", true),
            ("{}", true),
            ("\"0\"", true),
        ] {
            assert_eq!(ok(text).is_truthy(), truthy, "{text}");
        }
    }

    /// A second opinion: the workspace's `serde_json` read (`serde_read`, with the nesting
    /// limit and the lone-surrogate rewrite) accepts exactly what the reader accepts, with an equal value,
    /// except numbers outside the double range, which only `JSON.parse` and the reader take.
    mod against_serde_json {
        use proptest::prelude::*;

        use super::*;
        use crate::text::serde_read;

        fn check(text: &str) -> Result<(), TestCaseError> {
            let ours = read_json(text, &REPLACE);
            let theirs = serde_read::<serde_json::Value>(text, LoneSurrogates::Replace).ok();
            match (ours, theirs) {
                (Ok(value), Some(expected)) => {
                    prop_assert_eq!(
                        crate::text::to_json_compact(&value.to_serde_value()),
                        crate::text::to_json_compact(&expected),
                        "{:?}",
                        text
                    );
                }
                (Ok(value), None) => prop_assert!(
                    crate::text::to_json_compact(&value.to_serde_value()).contains("null"),
                    "only the reader accepts {:?}",
                    text
                ),
                (Err(error), Some(_)) => {
                    prop_assert!(false, "only serde_json accepts {:?} ({})", text, error)
                }
                (Err(_), None) => {}
            }
            Ok(())
        }

        proptest! {
            #[test]
            fn on_json_like_noise(text in r#"[\[\]{}",:0-9eE.+\-tnulrfase\\ ]{0,24}"#) {
                check(&text)?;
            }

            #[test]
            fn on_escapes(body in r#"(\\u[dD][89abAB][0-9a-f]{2}|\\u[dD][c-fC-F][0-9a-f]{2}|\\u00[0-9a-f]{2}|\\[nt"/\\]|x|é){0,6}"#) {
                check(&format!("[\"{body}\",{{\"{body}\":1}}]"))?;
            }

            #[test]
            fn on_numbers(text in r"-?(0|[1-9][0-9]{0,25})(\.[0-9]{1,20})?([eE][+-]?[0-9]{1,3})?") {
                check(&text)?;
                let JsonValue::Number(number) = read_json(&text, &REPLACE).unwrap() else {
                    panic!("not a number")
                };
                prop_assert_eq!(number.text(), text.as_str());
            }
        }
    }
}
