//! A faithful JSON document for rewriting a user's configuration file: strict RFC 8259 parsing
//! into a tree that keeps member order and each number's original text, and a
//! `JSON.stringify(value, null, 2)`-shaped printer.
//!
//! Why not `serde_json::Value`: keeping `1.0` and `12345678901234567890` as written needs
//! `serde_json/arbitrary_precision`, a feature that would change number handling in every crate
//! of the workspace (features are unified). This tree is only for `connect`.
//!
//! What it must never do: accept what RFC 8259 does not (comments, trailing commas, a
//! byte-order mark, lone surrogate escapes, control characters in strings), or reorder members.

use dotaios_core::text::push_json_string;

/// Nesting deeper than this is refused as invalid rather than risking the stack: the
/// workspace's one nesting limit, which bounds this reader's recursion and the printer's. A
/// real configuration file is a handful of levels deep.
const MAX_DEPTH: usize = dotaios_core::text::MAX_NESTING;

/// A parsed JSON value.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Json {
    Null,
    Bool(bool),
    /// The number exactly as written in the file (already validated).
    Number(String),
    String(String),
    Array(Vec<Json>),
    Object(Members),
}

/// Object members in file order. A repeated name keeps its first position and its last value,
/// as `JSON.parse` does.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Members(Vec<(String, Json)>);

impl Members {
    pub(crate) fn get(&self, name: &str) -> Option<&Json> {
        self.0
            .iter()
            .find(|(member, _)| member == name)
            .map(|(_, value)| value)
    }

    pub(crate) fn get_mut(&mut self, name: &str) -> Option<&mut Json> {
        self.0
            .iter_mut()
            .find(|(member, _)| member == name)
            .map(|(_, value)| value)
    }

    /// Replaces the value of `name` in place, or appends the member.
    pub(crate) fn set(&mut self, name: &str, value: Json) {
        match self.get_mut(name) {
            Some(slot) => *slot = value,
            None => self.0.push((name.to_owned(), value)),
        }
    }

    /// Removes `name`, keeping the order of the others.
    pub(crate) fn remove(&mut self, name: &str) {
        self.0.retain(|(member, _)| member != name);
    }

    pub(crate) fn names(&self) -> impl Iterator<Item = &str> {
        self.0.iter().map(|(name, _)| name.as_str())
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// The text is not strict JSON.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Invalid;

/// Parses `bytes` as one strict JSON text (UTF-8, no byte-order mark).
pub(crate) fn parse(bytes: &[u8]) -> Result<Json, Invalid> {
    let text = std::str::from_utf8(bytes).map_err(|_| Invalid)?;
    let mut parser = Parser {
        bytes: text.as_bytes(),
        text,
        position: 0,
    };
    parser.whitespace();
    let value = parser.value(0)?;
    parser.whitespace();
    if parser.position != parser.bytes.len() {
        return Err(Invalid);
    }
    Ok(value)
}

/// `JSON.stringify(value, null, 2)` with each number's original text.
pub(crate) fn to_pretty(value: &Json) -> String {
    let mut out = String::new();
    write_value(&mut out, value, 0);
    out
}

struct Parser<'a> {
    bytes: &'a [u8],
    text: &'a str,
    position: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.position).copied()
    }

    fn whitespace(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.position += 1;
        }
    }

    fn expect(&mut self, byte: u8) -> Result<(), Invalid> {
        if self.peek() == Some(byte) {
            self.position += 1;
            Ok(())
        } else {
            Err(Invalid)
        }
    }

    fn literal(&mut self, word: &str, value: Json) -> Result<Json, Invalid> {
        if self.bytes[self.position..].starts_with(word.as_bytes()) {
            self.position += word.len();
            Ok(value)
        } else {
            Err(Invalid)
        }
    }

    fn value(&mut self, depth: usize) -> Result<Json, Invalid> {
        if depth > MAX_DEPTH {
            return Err(Invalid);
        }
        match self.peek().ok_or(Invalid)? {
            b'{' => self.object(depth),
            b'[' => self.array(depth),
            b'"' => self.string().map(Json::String),
            b't' => self.literal("true", Json::Bool(true)),
            b'f' => self.literal("false", Json::Bool(false)),
            b'n' => self.literal("null", Json::Null),
            b'-' | b'0'..=b'9' => self.number(),
            _ => Err(Invalid),
        }
    }

    fn object(&mut self, depth: usize) -> Result<Json, Invalid> {
        self.expect(b'{')?;
        let mut members = Members::default();
        self.whitespace();
        if self.peek() == Some(b'}') {
            self.position += 1;
            return Ok(Json::Object(members));
        }
        loop {
            self.whitespace();
            let name = self.string()?;
            self.whitespace();
            self.expect(b':')?;
            self.whitespace();
            let value = self.value(depth + 1)?;
            members.set(&name, value);
            self.whitespace();
            match self.peek() {
                Some(b',') => self.position += 1,
                Some(b'}') => {
                    self.position += 1;
                    return Ok(Json::Object(members));
                }
                _ => return Err(Invalid),
            }
        }
    }

    fn array(&mut self, depth: usize) -> Result<Json, Invalid> {
        self.expect(b'[')?;
        let mut items = Vec::new();
        self.whitespace();
        if self.peek() == Some(b']') {
            self.position += 1;
            return Ok(Json::Array(items));
        }
        loop {
            self.whitespace();
            items.push(self.value(depth + 1)?);
            self.whitespace();
            match self.peek() {
                Some(b',') => self.position += 1,
                Some(b']') => {
                    self.position += 1;
                    return Ok(Json::Array(items));
                }
                _ => return Err(Invalid),
            }
        }
    }

    fn number(&mut self) -> Result<Json, Invalid> {
        let start = self.position;
        if self.peek() == Some(b'-') {
            self.position += 1;
        }
        match self.peek() {
            Some(b'0') => self.position += 1,
            Some(b'1'..=b'9') => self.digits(),
            _ => return Err(Invalid),
        }
        if self.peek() == Some(b'.') {
            self.position += 1;
            self.required_digits()?;
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.position += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.position += 1;
            }
            self.required_digits()?;
        }
        Ok(Json::Number(self.text[start..self.position].to_owned()))
    }

    fn digits(&mut self) {
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.position += 1;
        }
    }

    fn required_digits(&mut self) -> Result<(), Invalid> {
        let start = self.position;
        self.digits();
        if self.position == start {
            Err(Invalid)
        } else {
            Ok(())
        }
    }

    fn string(&mut self) -> Result<String, Invalid> {
        self.expect(b'"')?;
        let mut out = String::new();
        loop {
            let run_start = self.position;
            while let Some(byte) = self.peek() {
                if byte == b'"' || byte == b'\\' || byte < 0x20 {
                    break;
                }
                self.position += 1;
            }
            // The run ends at an ASCII byte, so it is a whole number of UTF-8 characters.
            out.push_str(&self.text[run_start..self.position]);
            match self.peek().ok_or(Invalid)? {
                b'"' => {
                    self.position += 1;
                    return Ok(out);
                }
                b'\\' => {
                    self.position += 1;
                    self.escape(&mut out)?;
                }
                _ => return Err(Invalid),
            }
        }
    }

    fn escape(&mut self, out: &mut String) -> Result<(), Invalid> {
        let byte = self.peek().ok_or(Invalid)?;
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
                let c = match unit {
                    0xD800..=0xDBFF => {
                        // A high surrogate must be followed by an escaped low surrogate; a lone
                        // one is not text, and writing it back is impossible in UTF-8.
                        if !self.bytes[self.position..].starts_with(b"\\u") {
                            return Err(Invalid);
                        }
                        self.position += 2;
                        let low = self.hex4()?;
                        if !(0xDC00..=0xDFFF).contains(&low) {
                            return Err(Invalid);
                        }
                        let code = 0x10000
                            + ((u32::from(unit) - 0xD800) << 10)
                            + (u32::from(low) - 0xDC00);
                        char::from_u32(code).ok_or(Invalid)?
                    }
                    0xDC00..=0xDFFF => return Err(Invalid),
                    _ => char::from_u32(u32::from(unit)).ok_or(Invalid)?,
                };
                out.push(c);
                return Ok(());
            }
            _ => return Err(Invalid),
        };
        out.push(simple);
        Ok(())
    }

    fn hex4(&mut self) -> Result<u16, Invalid> {
        let digits = self
            .bytes
            .get(self.position..self.position + 4)
            .ok_or(Invalid)?;
        if !digits.iter().all(u8::is_ascii_hexdigit) {
            return Err(Invalid);
        }
        self.position += 4;
        let text = std::str::from_utf8(digits).map_err(|_| Invalid)?;
        u16::from_str_radix(text, 16).map_err(|_| Invalid)
    }
}

fn write_value(out: &mut String, value: &Json, depth: usize) {
    match value {
        Json::Null => out.push_str("null"),
        Json::Bool(true) => out.push_str("true"),
        Json::Bool(false) => out.push_str("false"),
        Json::Number(text) => out.push_str(text),
        Json::String(text) => push_json_string(out, text),
        Json::Array(items) if items.is_empty() => out.push_str("[]"),
        Json::Array(items) => {
            out.push('[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                newline(out, depth + 1);
                write_value(out, item, depth + 1);
            }
            newline(out, depth);
            out.push(']');
        }
        Json::Object(members) if members.is_empty() => out.push_str("{}"),
        Json::Object(members) => {
            out.push('{');
            for (index, (name, member)) in members.0.iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                newline(out, depth + 1);
                push_json_string(out, name);
                out.push_str(": ");
                write_value(out, member, depth + 1);
            }
            newline(out, depth);
            out.push('}');
        }
    }
}

fn newline(out: &mut String, depth: usize) {
    out.push('\n');
    for _ in 0..depth {
        out.push_str("  ");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(text: &str) -> String {
        to_pretty(&parse(text.as_bytes()).unwrap())
    }

    #[test]
    fn valid_documents_are_printed_like_json_stringify() {
        assert_eq!(round_trip("{}"), "{}");
        assert_eq!(round_trip(" [ ] "), "[]");
        assert_eq!(
            round_trip(r#"{"a":[1,{"b":null}],"c":{},"d":true}"#),
            "{\n  \"a\": [\n    1,\n    {\n      \"b\": null\n    }\n  ],\n  \"c\": {},\n  \"d\": true\n}"
        );
    }

    #[test]
    fn numbers_keep_their_text() {
        assert_eq!(
            round_trip("[1.0,12345678901234567890,-0,1E+400,2e-3]"),
            "[\n  1.0,\n  12345678901234567890,\n  -0,\n  1E+400,\n  2e-3\n]"
        );
    }

    #[test]
    fn strings_are_re_escaped_like_the_adapter() {
        assert_eq!(
            round_trip(r#"["\u00e9\/\ud83d\ude00\u0001\u007f"]"#),
            "[\n  \"é/😀\\u0001\u{7f}\"\n]"
        );
    }

    #[test]
    fn duplicate_names_keep_the_first_position_and_the_last_value() {
        assert_eq!(
            round_trip(r#"{"a":1,"b":2,"a":3}"#),
            "{\n  \"a\": 3,\n  \"b\": 2\n}"
        );
    }

    #[test]
    fn non_json_is_refused() {
        for text in [
            "",
            "  ",
            "{ broken",
            "\u{feff}{}",
            "{} // note",
            "/* c */ {}",
            "{\"a\":1,}",
            "[1,]",
            "{'a':1}",
            "[01]",
            "[1.]",
            "[.5]",
            "[+1]",
            "[NaN]",
            "[\"\\ud800\"]",
            "[\"\\udc00\"]",
            "[\"\\ud800\\u0041\"]",
            "[\"tab\there\"]",
            "[\"\\x\"]",
            "{} {}",
            "nul",
        ] {
            assert_eq!(parse(text.as_bytes()), Err(Invalid), "{text:?}");
        }
        assert_eq!(parse(b"[\"\xff\"]"), Err(Invalid));
        let deep = "[".repeat(MAX_DEPTH + 2) + &"]".repeat(MAX_DEPTH + 2);
        assert_eq!(parse(deep.as_bytes()), Err(Invalid));
    }

    /// The reader and printer recurse once per level; at the limit that fits a 256 KiB stack,
    /// and far deeper input is refused there without overflowing.
    #[test]
    fn nesting_fits_a_small_stack() {
        let handle = std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn(|| {
                let at_limit = format!(
                    "{}1{}",
                    "[{\"a\":".repeat(MAX_DEPTH / 2),
                    "}]".repeat(MAX_DEPTH / 2)
                );
                let printed = parse(at_limit.as_bytes()).map(|value| to_pretty(&value));
                let refused = parse("[".repeat(1_000_000).as_bytes());
                (printed.is_ok(), refused)
            })
            .unwrap();
        assert_eq!(
            handle.join().expect("no stack overflow"),
            (true, Err(Invalid))
        );
    }
}
