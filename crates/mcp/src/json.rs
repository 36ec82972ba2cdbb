//! The request-side JSON model and parser: what JavaScript's `JSON.parse` accepts, with
//! JavaScript's values (contract 05 §2.3 step 1, §10.5).
//!
//! Why not `serde_json::Value`: request numbers are IEEE doubles in the reference, so `1e400` is
//! a valid number (Infinity) there, `-0` is a number, and `12345678901234567890` is echoed as
//! `12345678901234567000`. `serde_json` refuses the first and keeps integers exact. Here every
//! number is an `f64`, an escaped lone surrogate becomes U+FFFD (the contract's recommended
//! choice), and a duplicate member name keeps its first position with the last value (JavaScript's
//! object model).
//!
//! **Invariant:** parsing does not recurse: containers being built sit on an explicit stack,
//! at most [`MAX_DEPTH`] deep, so the recursive walks over a finished value (echoing,
//! converting, dropping) are bounded too. A line holding more than [`MAX_VALUES`] values is
//! refused before it is built (a 16 MiB line of `{"a":0},` would otherwise become about 1 GB
//! of maps). Both refusals are `Parse error` (`-32700`, contract 05 §2.3); `docs/security.md`
//! gives the reasons for the numbers.

use indexmap::IndexMap;

/// Containers nested deeper than this make the line unparseable (`-32700`). JavaScript has no
/// such limit; a JSON-RPC request never needs more than a handful of levels. The workspace's
/// one nesting limit (`docs/security.md`): it keeps the recursive walks over a parsed value
/// (the `id` echo, conversion, drop) within a small stack.
pub(crate) const MAX_DEPTH: usize = dotaios_core::text::MAX_NESTING;

/// Values (scalars, containers and member names) beyond this make the line unparseable
/// (`-32700`). A real request holds a few dozen; at the worst shape (one-member objects) this
/// many cost about 20 MiB, so a line's peak stays far below 128 MiB.
pub(crate) const MAX_VALUES: usize = 100_000;

/// A parsed JSON value with JavaScript semantics.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Json {
    Null,
    Bool(bool),
    /// Any JSON number, as the double JavaScript would hold (possibly infinite or `-0`).
    Number(f64),
    String(String),
    Array(Vec<Json>),
    /// Members in first-occurrence order; a repeated name keeps the last value.
    Object(IndexMap<String, Json>),
}

impl Json {
    pub(crate) fn as_object(&self) -> Option<&IndexMap<String, Json>> {
        match self {
            Json::Object(members) => Some(members),
            _ => None,
        }
    }

    pub(crate) fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(text) => Some(text),
            _ => None,
        }
    }

    /// JavaScript truthiness: `null`, `false`, `0`, `-0`, `NaN` and `""` are falsy.
    pub(crate) fn is_truthy(&self) -> bool {
        match self {
            Json::Null => false,
            Json::Bool(value) => *value,
            Json::Number(value) => *value != 0.0 && !value.is_nan(),
            Json::String(text) => !text.is_empty(),
            Json::Array(_) | Json::Object(_) => true,
        }
    }

    /// The value as `JSON.stringify` sees it, for echoing (`id`) and for JavaScript's
    /// `String()` conversion: a non-finite number becomes `null`, which is what
    /// `JSON.stringify(Infinity)` writes.
    pub(crate) fn to_value(&self) -> serde_json::Value {
        use serde_json::Value;
        match self {
            Json::Null => Value::Null,
            Json::Bool(value) => Value::Bool(*value),
            Json::Number(value) => serde_json::Number::from_f64(*value)
                .map(Value::Number)
                .unwrap_or(Value::Null),
            Json::String(text) => Value::String(text.clone()),
            Json::Array(items) => Value::Array(items.iter().map(Json::to_value).collect()),
            Json::Object(members) => Value::Object(
                members
                    .iter()
                    .map(|(name, member)| (name.clone(), member.to_value()))
                    .collect(),
            ),
        }
    }
}

/// Why a line is not JSON. The detail never reaches the wire (`Parse error` is fixed); it only
/// helps tests say what failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub(crate) enum ParseError {
    #[error("unexpected end of input")]
    Eof,
    #[error("unexpected character")]
    Unexpected,
    #[error("invalid escape")]
    Escape,
    #[error("control character in string")]
    Control,
    #[error("nesting too deep")]
    TooDeep,
    #[error("too many values")]
    TooMany,
    #[error("trailing characters")]
    Trailing,
}

/// Parses one complete JSON text exactly as `JSON.parse` would accept it (JSON whitespace is
/// only space, tab, line feed and carriage return).
pub(crate) fn parse(text: &str) -> Result<Json, ParseError> {
    let mut parser = Parser {
        bytes: text.as_bytes(),
        text,
        position: 0,
        values: 0,
    };
    parser.skip_whitespace();
    let value = parser.document()?;
    parser.skip_whitespace();
    if parser.position != parser.bytes.len() {
        return Err(ParseError::Trailing);
    }
    Ok(value)
}

struct Parser<'a> {
    bytes: &'a [u8],
    text: &'a str,
    position: usize,
    /// Values read so far, against [`MAX_VALUES`].
    values: usize,
}

/// A container being built.
enum Open {
    Array(Vec<Json>),
    /// The members so far and the name waiting for its value.
    Object(IndexMap<String, Json>, String),
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

    fn expect_literal(&mut self, literal: &[u8]) -> Result<(), ParseError> {
        let end = self.position + literal.len();
        if self.bytes.get(self.position..end) != Some(literal) {
            return Err(ParseError::Unexpected);
        }
        self.position = end;
        Ok(())
    }

    /// Counts one more value against the budget, before it is built.
    fn count(&mut self) -> Result<(), ParseError> {
        self.values += 1;
        if self.values > MAX_VALUES {
            return Err(ParseError::TooMany);
        }
        Ok(())
    }

    /// One value and everything inside it, iteratively: each container opened goes on
    /// `stack`, each value finished is handed to the container on top.
    fn document(&mut self) -> Result<Json, ParseError> {
        let mut stack: Vec<Open> = Vec::new();
        loop {
            // Read the start of a value: a scalar, an empty container, or an opened one.
            self.count()?;
            let mut value = match self.peek().ok_or(ParseError::Eof)? {
                open @ (b'{' | b'[') => {
                    if stack.len() >= MAX_DEPTH {
                        return Err(ParseError::TooDeep);
                    }
                    self.position += 1;
                    self.skip_whitespace();
                    if open == b'[' {
                        if self.peek() == Some(b']') {
                            self.position += 1;
                            Json::Array(Vec::new())
                        } else {
                            stack.push(Open::Array(Vec::new()));
                            continue;
                        }
                    } else if self.peek() == Some(b'}') {
                        self.position += 1;
                        Json::Object(IndexMap::new())
                    } else {
                        let name = self.member_name()?;
                        stack.push(Open::Object(IndexMap::new(), name));
                        continue;
                    }
                }
                b'"' => Json::String(self.string()?),
                b't' => self.expect_literal(b"true").map(|()| Json::Bool(true))?,
                b'f' => self.expect_literal(b"false").map(|()| Json::Bool(false))?,
                b'n' => self.expect_literal(b"null").map(|()| Json::Null)?,
                b'-' | b'0'..=b'9' => self.number()?,
                _ => return Err(ParseError::Unexpected),
            };
            // Hand the finished value to its container; close containers that end here.
            loop {
                self.skip_whitespace();
                match stack.last_mut() {
                    None => return Ok(value),
                    Some(Open::Array(items)) => {
                        items.push(value);
                        match self.peek().ok_or(ParseError::Eof)? {
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
                                value = Json::Array(items);
                            }
                            _ => return Err(ParseError::Unexpected),
                        }
                    }
                    Some(Open::Object(members, name)) => {
                        // `IndexMap::insert` keeps an existing name at its first position and
                        // replaces the value: JavaScript's rule for duplicate names.
                        members.insert(std::mem::take(name), value);
                        match self.peek().ok_or(ParseError::Eof)? {
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
                                value = Json::Object(members);
                            }
                            _ => return Err(ParseError::Unexpected),
                        }
                    }
                }
            }
        }
    }

    /// `"name"` and its `:`, leaving the position at the member's value.
    fn member_name(&mut self) -> Result<String, ParseError> {
        self.skip_whitespace();
        if self.peek().ok_or(ParseError::Eof)? != b'"' {
            return Err(ParseError::Unexpected);
        }
        self.count()?;
        let name = self.string()?;
        self.skip_whitespace();
        if self.peek().ok_or(ParseError::Eof)? != b':' {
            return Err(ParseError::Unexpected);
        }
        self.position += 1;
        self.skip_whitespace();
        Ok(name)
    }

    fn number(&mut self) -> Result<Json, ParseError> {
        let start = self.position;
        if self.peek() == Some(b'-') {
            self.position += 1;
        }
        match self.peek().ok_or(ParseError::Eof)? {
            b'0' => self.position += 1,
            b'1'..=b'9' => self.digits(),
            _ => return Err(ParseError::Unexpected),
        }
        if self.peek() == Some(b'.') {
            self.position += 1;
            if !self.peek().ok_or(ParseError::Eof)?.is_ascii_digit() {
                return Err(ParseError::Unexpected);
            }
            self.digits();
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.position += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.position += 1;
            }
            if !self.peek().ok_or(ParseError::Eof)?.is_ascii_digit() {
                return Err(ParseError::Unexpected);
            }
            self.digits();
        }
        // Rust's float parser rounds correctly and overflows to infinity, as JavaScript does.
        let number: f64 = self.text[start..self.position]
            .parse()
            .map_err(|_| ParseError::Unexpected)?;
        Ok(Json::Number(number))
    }

    fn digits(&mut self) {
        while self.peek().is_some_and(|byte| byte.is_ascii_digit()) {
            self.position += 1;
        }
    }

    fn string(&mut self) -> Result<String, ParseError> {
        self.position += 1;
        let mut out = String::new();
        let mut run_start = self.position;
        loop {
            let byte = self.peek().ok_or(ParseError::Eof)?;
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
                0x00..=0x1f => return Err(ParseError::Control),
                // Multi-byte UTF-8 never contains these bytes, so stepping bytewise is safe.
                _ => self.position += 1,
            }
        }
    }

    fn escape(&mut self, out: &mut String) -> Result<(), ParseError> {
        self.position += 1;
        let byte = self.peek().ok_or(ParseError::Eof)?;
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
            _ => return Err(ParseError::Escape),
        };
        out.push(simple);
        Ok(())
    }

    /// Combines a high surrogate with an immediately following `\uDC00`–`\uDFFF` escape; any
    /// other surrogate is lone and becomes U+FFFD (contract 05 §10.5).
    fn code_point_from(&mut self, unit: u16) -> Result<char, ParseError> {
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
                        return Ok(char::from_u32(code).unwrap_or('\u{FFFD}'));
                    }
                    // Not a low surrogate: leave that escape to be read on its own.
                    self.position = saved;
                }
                Ok('\u{FFFD}')
            }
            0xDC00..=0xDFFF => Ok('\u{FFFD}'),
            _ => Ok(char::from_u32(u32::from(unit)).unwrap_or('\u{FFFD}')),
        }
    }

    fn hex4(&mut self) -> Result<u16, ParseError> {
        let digits = self
            .bytes
            .get(self.position..self.position + 4)
            .ok_or(ParseError::Eof)?;
        let mut unit: u16 = 0;
        for &digit in digits {
            let value = (digit as char).to_digit(16).ok_or(ParseError::Escape)?;
            unit = (unit << 4) | value as u16;
        }
        self.position += 4;
        Ok(unit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(text: &str) -> Json {
        parse(text).unwrap_or_else(|error| panic!("{text}: {error}"))
    }

    #[test]
    fn scalars_follow_javascript() {
        assert_eq!(ok("null"), Json::Null);
        assert_eq!(ok(" true "), Json::Bool(true));
        assert_eq!(ok("-0"), Json::Number(-0.0));
        assert!(matches!(ok("-0"), Json::Number(x) if x.is_sign_negative()));
        assert_eq!(ok("1e400"), Json::Number(f64::INFINITY));
        assert_eq!(ok("-1e400"), Json::Number(f64::NEG_INFINITY));
        assert_eq!(ok("1e-400"), Json::Number(0.0));
        assert_eq!(
            ok("12345678901234567890"),
            Json::Number(12_345_678_901_234_567_000.0)
        );
        assert_eq!(ok("3.0"), Json::Number(3.0));
        assert_eq!(ok(r#""a\"b\u00e9\/""#), Json::String("a\"bé/".into()));
    }

    #[test]
    fn refuses_what_json_parse_refuses() {
        for text in [
            "",
            "{",
            "[1,]",
            "{\"a\":1,}",
            "01",
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
            "tru",
            "\"\\u12\"",
            "{\"a\" 1}",
            "-",
            "1e",
            "\u{a0}1",
        ] {
            assert!(parse(text).is_err(), "{text:?} parsed");
        }
    }

    #[test]
    fn duplicate_names_keep_first_position_and_last_value() {
        let Json::Object(members) = ok(r#"{"a":1,"b":2,"a":3}"#) else {
            panic!("not an object")
        };
        let names: Vec<&str> = members.keys().map(String::as_str).collect();
        assert_eq!(names, ["a", "b"]);
        assert_eq!(members["a"], Json::Number(3.0));
    }

    #[test]
    fn lone_surrogates_become_replacement_characters() {
        assert_eq!(ok(r#""\ud800""#), Json::String("\u{FFFD}".into()));
        assert_eq!(ok(r#""\udc00x""#), Json::String("\u{FFFD}x".into()));
        assert_eq!(ok(r#""\ud800\u0041""#), Json::String("\u{FFFD}A".into()));
        assert_eq!(ok(r#""\ud83d\ude00""#), Json::String("😀".into()));
        assert_eq!(
            ok(r#""\ud800\ud83d\ude00""#),
            Json::String("\u{FFFD}😀".into())
        );
    }

    #[test]
    fn nesting_is_bounded() {
        let deep_ok = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        assert!(parse(&deep_ok).is_ok());
        let too_deep = format!("{}{}", "[".repeat(MAX_DEPTH + 1), "]".repeat(MAX_DEPTH + 1));
        assert_eq!(parse(&too_deep), Err(ParseError::TooDeep));
        let unclosed = "{\"a\":".repeat(100_000);
        assert_eq!(parse(&unclosed), Err(ParseError::TooDeep));
        let mixed = format!(
            "{}0{}",
            "[{\"a\":".repeat(MAX_DEPTH / 2),
            "}]".repeat(MAX_DEPTH / 2)
        );
        assert!(parse(&mixed).is_ok());
    }

    /// Far deeper input than the limit, on a thread with a 256 KiB stack: refused, no crash;
    /// and a value at the limit is parsed, converted and dropped there too.
    #[test]
    fn deep_input_on_a_small_stack() {
        let handle = std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn(|| {
                let refused = parse(&"[".repeat(1_000_000));
                let at_limit = format!(
                    "{}0{}",
                    "[{\"a\":".repeat(MAX_DEPTH / 2),
                    "}]".repeat(MAX_DEPTH / 2)
                );
                let value = parse(&at_limit).map(|value| value.to_value());
                (refused, value.is_ok())
            })
            .unwrap();
        let (refused, at_limit_ok) = handle.join().expect("no stack overflow");
        assert_eq!(refused, Err(ParseError::TooDeep));
        assert!(at_limit_ok);
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
        // The 16 MiB line of the issue is refused without building it.
        let line = format!("[{}{{\"a\":0}}]", "{\"a\":0},".repeat(2_000_000));
        assert_eq!(parse(&line), Err(ParseError::TooMany));
        // Long strings are not many values: a 4 MiB string is fine.
        let long = format!("{{\"s\":\"{}\"}}", "x".repeat(4 << 20));
        assert!(parse(&long).is_ok());
    }

    #[test]
    fn values_convert_for_echo() {
        assert_eq!(ok("1e400").to_value(), serde_json::Value::Null);
        assert_eq!(
            ok(r#"{"b":1,"a":[true]}"#).to_value(),
            serde_json::json!({"b":1.0,"a":[true]})
        );
    }

    #[test]
    fn truthiness() {
        for (text, truthy) in [
            ("0", false),
            ("-0", false),
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
}
