//! JSON text identical to JavaScript's `JSON.stringify(value)` and
//! `JSON.stringify(value, null, 2)` (contract 05 §10), plus the JavaScript object model for parsed
//! JSON (array-index names first, contract 05 §10.4, 03 §10.2).
//!
//! `budget.used` is compared with the UTF-16 length of this text and acceptance tests compare it
//! byte for byte, so nothing here may use `serde_json`'s own writer: its floats (`100.0`, `1e21`)
//! and its escapes differ. Object member order is JavaScript's own-property order: names that are
//! array indices first in ascending numeric order, then the rest in insertion order (the
//! workspace enables `serde_json/preserve_order`, so a `Map` keeps insertion order).
//!
//! A `&str` can never hold a lone surrogate, so the only way one reaches this writer is a
//! [`JsString`] passed to [`JsonWriter::js_string`]; it is written as `\udxxx`, lower-case, as
//! JavaScript does.

use std::borrow::Cow;

use serde_json::{Map, Value};

use super::js_string::JsString;
use super::number::{js_number_of, push_js_number};
use super::utf16::utf16_cmp;

/// How the JSON text is laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JsonLayout {
    /// `JSON.stringify(value)`: no whitespace at all.
    Compact,
    /// `JSON.stringify(value, null, 2)`: one member or element per line, two spaces per level,
    /// `": "` after names, empty containers as `{}` / `[]`, no trailing newline.
    Pretty,
}

/// Serialises `value` as `JSON.stringify` would, in the given layout.
pub fn to_json(value: &Value, layout: JsonLayout) -> String {
    let mut writer = JsonWriter::new(layout);
    writer.value(value);
    writer.finish()
}

/// `JSON.stringify(value)`.
pub fn to_json_compact(value: &Value) -> String {
    to_json(value, JsonLayout::Compact)
}

/// `JSON.stringify(value, null, 2)`.
pub fn to_json_pretty(value: &Value) -> String {
    to_json(value, JsonLayout::Pretty)
}

/// Canonical compact JSON (contract 01 §8.3 plan body): object names sorted in UTF-16 order at
/// every depth, arrays in order. As in JavaScript, where an object rebuilt with sorted names still
/// lists array-index names first, such names come first.
pub fn to_json_canonical(value: &Value) -> String {
    to_json_compact(&sorted_keys(value))
}

/// `JSON.stringify(text)` for a string: the quoted, escaped literal (contract 05 §10.2).
pub fn json_quote(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    push_json_string(&mut out, text);
    out
}

/// Appends `JSON.stringify(text)` to `out`: `"` and `\` escaped with a backslash, U+0008,
/// U+0009, U+000A, U+000C and U+000D as `\b \t \n \f \r`, every other character below U+0020 as
/// `\u00xx` in lower-case hex, and everything else raw (including U+007F–U+009F, U+2028, U+2029
/// and `/`).
pub fn push_json_string(out: &mut String, text: &str) {
    out.push('"');
    let mut run_start = 0;
    for (index, byte) in text.bytes().enumerate() {
        // Multi-byte UTF-8 sequences never contain bytes below 0x80, so testing single bytes
        // finds exactly the characters to escape.
        if byte >= 0x20 && byte != b'"' && byte != b'\\' {
            continue;
        }
        out.push_str(&text[run_start..index]);
        push_escape(out, byte);
        run_start = index + 1;
    }
    out.push_str(&text[run_start..]);
    out.push('"');
}

/// Returns whether `name` is a canonical array index: the decimal form of an integer from 0 to
/// 4,294,967,294 without sign or leading zeros. JavaScript lists such property names first.
pub fn is_array_index(name: &str) -> bool {
    let bytes = name.as_bytes();
    if bytes.is_empty() || bytes.len() > 10 || !bytes.iter().all(u8::is_ascii_digit) {
        return false;
    }
    if bytes.len() > 1 && bytes[0] == b'0' {
        return false;
    }
    name.parse::<u64>().is_ok_and(|n| n <= 4_294_967_294)
}

/// Iterates an object's members in JavaScript's own-property order: array-index names
/// ([`is_array_index`]) in ascending numeric order, then every other name in insertion order.
pub fn js_object_entries(map: &Map<String, Value>) -> impl Iterator<Item = (&String, &Value)> {
    let mut indices: Vec<(u64, &String, &Value)> = map
        .iter()
        .filter(|(name, _)| is_array_index(name))
        .map(|(name, value)| (name.parse::<u64>().unwrap_or(0), name, value))
        .collect();
    indices.sort_by_key(|&(number, _, _)| number);
    let others = map.iter().filter(|(name, _)| !is_array_index(name));
    indices
        .into_iter()
        .map(|(_, name, value)| (name, value))
        .chain(others)
}

/// Reorders every object inside `value`, at every depth, into JavaScript's own-property order
/// (see [`js_object_entries`]), so that plain iteration afterwards visits members as JavaScript
/// would. Apply it to parsed user data (JSONL entries) before flattening or rendering it.
pub fn apply_js_key_order(value: &mut Value) {
    match value {
        Value::Array(items) => items.iter_mut().for_each(apply_js_key_order),
        Value::Object(map) => {
            if map.keys().any(|name| is_array_index(name)) {
                let reordered: Map<String, Value> = js_object_entries(map)
                    .map(|(name, value)| (name.clone(), value.clone()))
                    .collect();
                *map = reordered;
            }
            map.values_mut().for_each(apply_js_key_order);
        }
        Value::Null | Value::Bool(_) | Value::Number(_) | Value::String(_) => {}
    }
}

/// Rewrites every `\uXXXX` escape of a lone surrogate inside the string literals of a JSON text
/// as `\ufffd`, so that a Rust parser accepts what `JSON.parse` accepts (contract 02 §16, 05 §10.5:
/// the recommended U+FFFD replacement at parse time). A well-formed escaped pair is kept. Text
/// outside string literals, and any malformed input, is left for the parser to judge.
///
/// Returns the input unchanged (borrowed) when it contains no such escape.
pub fn replace_lone_surrogate_escapes(json: &str) -> Cow<'_, str> {
    let bytes = json.as_bytes();
    let mut out: Option<String> = None;
    let mut copied = 0;
    let mut in_string = false;
    let mut index = 0;
    while index < bytes.len() {
        let byte = bytes[index];
        if !in_string {
            in_string = byte == b'"';
            index += 1;
            continue;
        }
        match byte {
            b'"' => {
                in_string = false;
                index += 1;
            }
            b'\\' => match hex_escape_at(bytes, index) {
                Some(0xD800..=0xDBFF)
                    if hex_escape_at(bytes, index + 6)
                        .is_some_and(|low| (0xDC00..=0xDFFF).contains(&low)) =>
                {
                    index += 12;
                }
                Some(0xD800..=0xDFFF) => {
                    let out = out.get_or_insert_with(|| String::with_capacity(json.len()));
                    out.push_str(&json[copied..index]);
                    out.push_str("\\ufffd");
                    index += 6;
                    copied = index;
                }
                Some(_) => index += 6,
                // Any other escape is two bytes; a malformed one is the parser's to reject.
                None => index += 2,
            },
            _ => index += 1,
        }
    }
    match out {
        None => Cow::Borrowed(json),
        Some(mut out) => {
            out.push_str(&json[copied..]);
            Cow::Owned(out)
        }
    }
}

/// The compact form of a JSON text written by [`JsonWriter`] or [`to_json`] in either layout:
/// every space, tab, carriage return and line feed outside string literals removed. Lexical, so
/// the result holds exactly the same tokens, escapes included (a `\udxxx` escape of a lone
/// surrogate stays as written), and `JSON.parse` reads the same value from both. The MCP
/// adapter's `structuredContent` is this of the payload text (contract 05 §7.1), so the two can
/// never disagree. Linear in the text's length.
pub fn compact_json_text(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    let mut in_string = false;
    let mut escaped = false;
    for c in json.chars() {
        if in_string {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
            out.push(c);
        } else if !matches!(c, ' ' | '\t' | '\n' | '\r') {
            in_string = c == '"';
            out.push(c);
        }
    }
    out
}

/// A streaming writer of `JSON.stringify`-identical text, for payloads that are assembled piece
/// by piece or that carry a [`JsString`] (a string that may hold lone surrogates).
///
/// Members are written in the order the caller gives them; [`JsonWriter::value`] writes a whole
/// `serde_json::Value`, whose objects follow JavaScript's own-property order. Misuse (a value in
/// an object without a name, unbalanced containers) is a bug in the caller and is caught by
/// debug assertions.
#[derive(Debug)]
pub struct JsonWriter {
    out: String,
    layout: JsonLayout,
    open: Vec<Open>,
    after_name: bool,
}

#[derive(Debug)]
struct Open {
    is_object: bool,
    is_empty: bool,
}

impl JsonWriter {
    /// Starts an empty text in the given layout.
    pub fn new(layout: JsonLayout) -> Self {
        Self {
            out: String::new(),
            layout,
            open: Vec::new(),
            after_name: false,
        }
    }

    /// Opens an object (`{`), as a value.
    pub fn begin_object(&mut self) {
        self.before_value();
        self.out.push('{');
        self.open.push(Open {
            is_object: true,
            is_empty: true,
        });
    }

    /// Closes the innermost object (`}`).
    pub fn end_object(&mut self) {
        self.close('}', true);
    }

    /// Opens an array (`[`), as a value.
    pub fn begin_array(&mut self) {
        self.before_value();
        self.out.push('[');
        self.open.push(Open {
            is_object: false,
            is_empty: true,
        });
    }

    /// Closes the innermost array (`]`).
    pub fn end_array(&mut self) {
        self.close(']', false);
    }

    /// Writes a member name in the innermost object; the next call writes its value.
    pub fn name(&mut self, name: &str) {
        debug_assert!(
            self.open.last().is_some_and(|open| open.is_object) && !self.after_name,
            "a member name outside an object or after another name"
        );
        self.separate();
        push_json_string(&mut self.out, name);
        self.out.push_str(match self.layout {
            JsonLayout::Compact => ":",
            JsonLayout::Pretty => ": ",
        });
        self.after_name = true;
    }

    /// Writes `null`.
    pub fn null(&mut self) {
        self.before_value();
        self.out.push_str("null");
    }

    /// Writes `true` or `false`.
    pub fn bool(&mut self, value: bool) {
        self.before_value();
        self.out.push_str(if value { "true" } else { "false" });
    }

    /// Writes a number as JavaScript does (contract 05 §10.3); a non-finite value is `null`.
    pub fn number(&mut self, value: f64) {
        self.before_value();
        if value.is_finite() {
            push_js_number(&mut self.out, value);
        } else {
            self.out.push_str("null");
        }
    }

    /// Writes a string literal.
    pub fn str(&mut self, text: &str) {
        self.before_value();
        push_json_string(&mut self.out, text);
    }

    /// Writes a string literal from UTF-16 text; each lone surrogate becomes `\udxxx`
    /// (lower-case hex), as `JSON.stringify` writes it.
    pub fn js_string(&mut self, text: &JsString) {
        self.before_value();
        self.out.push('"');
        let mut utf8 = [0_u8; 4];
        for c in text.chars() {
            match c {
                Ok(c) if c.is_ascii() => {
                    let byte = c as u8;
                    if byte >= 0x20 && byte != b'"' && byte != b'\\' {
                        self.out.push(c);
                    } else {
                        push_escape(&mut self.out, byte);
                    }
                }
                Ok(c) => self.out.push_str(c.encode_utf8(&mut utf8)),
                Err(unit) => self.out.push_str(&format!("\\u{unit:04x}")),
            }
        }
        self.out.push('"');
    }

    /// Writes a whole JSON value; objects in JavaScript's own-property order.
    pub fn value(&mut self, value: &Value) {
        match value {
            Value::Null => self.null(),
            Value::Bool(b) => self.bool(*b),
            Value::Number(n) => self.number(js_number_of(n)),
            Value::String(s) => self.str(s),
            Value::Array(items) => {
                self.begin_array();
                for item in items {
                    self.value(item);
                }
                self.end_array();
            }
            Value::Object(map) => {
                self.begin_object();
                for (name, member) in js_object_entries(map) {
                    self.name(name);
                    self.value(member);
                }
                self.end_object();
            }
        }
    }

    /// Writes `json`, an already serialised compact JSON value (for example the result of
    /// [`compact_json_text`]), as the next value. Only for the compact layout; the caller
    /// guarantees that `json` is one well-formed compact value.
    pub fn raw_compact(&mut self, json: &str) {
        debug_assert!(
            self.layout == JsonLayout::Compact,
            "raw text in a pretty layout"
        );
        self.before_value();
        self.out.push_str(json);
    }

    /// Writes a member: its name, then its value.
    pub fn member(&mut self, name: &str, value: &Value) {
        self.name(name);
        self.value(value);
    }

    /// Returns the text. Its UTF-16 length ([`crate::text::utf16_len`]) is what JavaScript's
    /// `length` reports for the same `JSON.stringify` result.
    pub fn finish(self) -> String {
        debug_assert!(
            self.open.is_empty() && !self.after_name,
            "unbalanced JSON writer"
        );
        self.out
    }

    fn before_value(&mut self) {
        if self.after_name {
            self.after_name = false;
            return;
        }
        debug_assert!(
            self.open.last().is_none_or(|open| !open.is_object),
            "an object member without a name"
        );
        self.separate();
    }

    /// Starts an element of the innermost container: a comma after a previous element, then in
    /// the pretty layout a newline and the indentation of the element's depth.
    fn separate(&mut self) {
        let depth = self.open.len();
        let Some(open) = self.open.last_mut() else {
            return;
        };
        if !open.is_empty {
            self.out.push(',');
        }
        open.is_empty = false;
        if self.layout == JsonLayout::Pretty {
            self.newline(depth);
        }
    }

    fn close(&mut self, bracket: char, is_object: bool) {
        debug_assert!(!self.after_name, "a member name without a value");
        let open = self.open.pop();
        debug_assert!(
            open.as_ref()
                .is_some_and(|open| open.is_object == is_object),
            "mismatched container"
        );
        if self.layout == JsonLayout::Pretty && open.is_some_and(|open| !open.is_empty) {
            self.newline(self.open.len());
        }
        self.out.push(bracket);
    }

    fn newline(&mut self, depth: usize) {
        self.out.push('\n');
        for _ in 0..depth {
            self.out.push_str("  ");
        }
    }
}

fn push_escape(out: &mut String, byte: u8) {
    match byte {
        b'"' => out.push_str("\\\""),
        b'\\' => out.push_str("\\\\"),
        0x08 => out.push_str("\\b"),
        0x09 => out.push_str("\\t"),
        0x0A => out.push_str("\\n"),
        0x0C => out.push_str("\\f"),
        0x0D => out.push_str("\\r"),
        _ => {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            out.push_str("\\u00");
            out.push(char::from(HEX[usize::from(byte >> 4)]));
            out.push(char::from(HEX[usize::from(byte & 0xF)]));
        }
    }
}

/// Reads the code unit of a `\uXXXX` escape starting at `index` (the backslash), if there is a
/// well-formed one.
fn hex_escape_at(bytes: &[u8], index: usize) -> Option<u16> {
    let escape = bytes.get(index..index + 6)?;
    if escape[0] != b'\\' || escape[1] != b'u' {
        return None;
    }
    let hex = std::str::from_utf8(&escape[2..]).ok()?;
    if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    u16::from_str_radix(hex, 16).ok()
}

fn sorted_keys(value: &Value) -> Value {
    match value {
        Value::Array(items) => Value::Array(items.iter().map(sorted_keys).collect()),
        Value::Object(map) => {
            let mut members: Vec<(&String, &Value)> = map.iter().collect();
            members.sort_by(|a, b| utf16_cmp(a.0, b.0));
            Value::Object(
                members
                    .into_iter()
                    .map(|(name, member)| (name.clone(), sorted_keys(member)))
                    .collect(),
            )
        }
        Value::Null | Value::Bool(_) | Value::Number(_) | Value::String(_) => value.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    #[test]
    fn string_escapes() {
        assert_eq!(json_quote("a\"b\\c/d"), r#""a\"b\\c/d""#);
        assert_eq!(json_quote("\u{8}\t\n\u{c}\r"), r#""\b\t\n\f\r""#);
        assert_eq!(
            json_quote("\u{0}\u{1}\u{b}\u{1b}\u{1f}"),
            r#""\u0000\u0001\u000b\u001b\u001f""#
        );
        // Raw: DEL, C1 controls, the line and paragraph separators, non-ASCII, astral.
        assert_eq!(
            json_quote("\u{7f}\u{85}\u{2028}\u{2029}é😀"),
            "\"\u{7f}\u{85}\u{2028}\u{2029}é😀\""
        );
        assert_eq!(json_quote(""), "\"\"");
    }

    #[test]
    fn lone_surrogates_in_js_strings() {
        let mut writer = JsonWriter::new(JsonLayout::Compact);
        writer.js_string(&JsString::from_units(vec![
            0x61, 0xD83D, 0x2026, 0xDC00, 0xD83D, 0xDE00, 0x0A, 0x22, 0x1F,
        ]));
        assert_eq!(writer.finish(), r#""a\ud83d…\udc00😀\n\"\u001f""#);
    }

    #[test]
    fn layouts() {
        let value = json!({"a": [], "b": {}, "c": [1, {"d": []}], "e": "x"});
        assert_eq!(
            to_json_compact(&value),
            r#"{"a":[],"b":{},"c":[1,{"d":[]}],"e":"x"}"#
        );
        assert_eq!(
            to_json_pretty(&value),
            "{\n  \"a\": [],\n  \"b\": {},\n  \"c\": [\n    1,\n    {\n      \"d\": []\n    }\n  ],\n  \"e\": \"x\"\n}"
        );
        assert_eq!(to_json_pretty(&json!([])), "[]");
        assert_eq!(to_json_pretty(&json!({})), "{}");
        assert_eq!(to_json_pretty(&json!("s")), "\"s\"");
        assert_eq!(to_json_pretty(&json!(null)), "null");
    }

    #[test]
    fn numbers() {
        let value: Value = serde_json::from_str(
            "[100, 100.0, 1.722, 1e21, 1.5e-7, -0, -0.0, 12345678901234567890, 5e-324, 1e-6]",
        )
        .unwrap_or_default();
        assert_eq!(
            to_json_compact(&value),
            "[100,100,1.722,1e+21,1.5e-7,0,0,12345678901234567000,5e-324,0.000001]"
        );
        let mut writer = JsonWriter::new(JsonLayout::Compact);
        writer.begin_array();
        writer.number(f64::NAN);
        writer.number(f64::INFINITY);
        writer.number(0.5);
        writer.end_array();
        assert_eq!(writer.finish(), "[null,null,0.5]");
    }

    #[test]
    fn javascript_member_order() {
        let value: Value = serde_json::from_str(
            r#"{"scope":1,"b":2,"10":3,"a":4,"2":5,"01":6,"4294967295":7,"4294967294":8}"#,
        )
        .unwrap_or_default();
        assert_eq!(
            to_json_compact(&value),
            r#"{"2":5,"10":3,"4294967294":8,"scope":1,"b":2,"a":4,"01":6,"4294967295":7}"#
        );
        let mut reordered = value.clone();
        apply_js_key_order(&mut reordered);
        let names: Vec<&str> = reordered
            .as_object()
            .map(|m| m.keys().map(String::as_str).collect())
            .unwrap_or_default();
        assert_eq!(
            names,
            [
                "2",
                "10",
                "4294967294",
                "scope",
                "b",
                "a",
                "01",
                "4294967295"
            ]
        );
        // Duplicates: the last value at the first position.
        let dup: Value = serde_json::from_str(r#"{"b":1,"a":2,"b":3}"#).unwrap_or_default();
        assert_eq!(to_json_compact(&dup), r#"{"b":3,"a":2}"#);
    }

    #[test]
    fn array_indices() {
        for yes in ["0", "1", "10", "4294967294"] {
            assert!(is_array_index(yes), "{yes}");
        }
        for no in [
            "",
            "01",
            "-1",
            "+1",
            "1.0",
            "4294967295",
            "99999999999",
            "١",
            " 1",
            "1e3",
        ] {
            assert!(!is_array_index(no), "{no}");
        }
    }

    #[test]
    fn canonical_sorts_by_utf16() {
        let value =
            json!({"b": {"z": 1, "a": [ {"y": 1, "x": 2} ]}, "\u{FF5E}": 1, "😀": 2, "A": 3});
        assert_eq!(
            to_json_canonical(&value),
            r#"{"A":3,"b":{"a":[{"x":2,"y":1}],"z":1},"😀":2,"～":1}"#
        );
    }

    #[test]
    fn streaming_writer() {
        let mut writer = JsonWriter::new(JsonLayout::Pretty);
        writer.begin_object();
        writer.name("markdown");
        writer.js_string(&JsString::from_units(vec![0xD83D, 0x2026]));
        writer.member("budget", &json!({"limit": 10, "used": 2}));
        writer.name("list");
        writer.begin_array();
        writer.str("x");
        writer.bool(false);
        writer.null();
        writer.end_array();
        writer.end_object();
        assert_eq!(
            writer.finish(),
            "{\n  \"markdown\": \"\\ud83d…\",\n  \"budget\": {\n    \"limit\": 10,\n    \"used\": 2\n  },\n  \"list\": [\n    \"x\",\n    false,\n    null\n  ]\n}"
        );
    }

    #[test]
    fn lone_surrogate_escapes_are_replaced() {
        let cases: &[(&str, &str)] = &[
            (r#"{"a":"\ud800"}"#, r#"{"a":"\ufffd"}"#),
            (r#"{"a":"\uDC00x"}"#, r#"{"a":"\ufffdx"}"#),
            (r#"["\ud83d\ude00"]"#, r#"["\ud83d\ude00"]"#),
            (r#"["\ud83d\ud83d\ude00"]"#, r#"["\ufffd\ud83d\ude00"]"#),
            (r#"["\\ud800"]"#, r#"["\\ud800"]"#),
            (r#"["\ude00\ud83d"]"#, r#"["\ufffd\ufffd"]"#),
            (r#"{"\ud800":1}"#, r#"{"\ufffd":1}"#),
            (r#"["é\ud800é"]"#, r#"["é\ufffdé"]"#),
            (r#"["\u00e9"]"#, r#"["\u00e9"]"#),
        ];
        for &(input, expected) in cases {
            assert_eq!(replace_lone_surrogate_escapes(input), expected, "{input}");
        }
        assert!(matches!(
            replace_lone_surrogate_escapes(r#"{"a":"\n"}"#),
            Cow::Borrowed(_)
        ));
        let parsed: Value =
            serde_json::from_str(&replace_lone_surrogate_escapes(r#"{"a":"x\ud800"}"#))
                .unwrap_or_default();
        assert_eq!(parsed, json!({"a": "x\u{FFFD}"}));
    }

    fn arbitrary_json() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            any::<f64>()
                .prop_filter("finite", |x| x.is_finite())
                .prop_map(Value::from),
            "[\\u{0}-\\u{7f}é\\u{2028}😀\"\\\\]{0,8}".prop_map(Value::String),
        ];
        leaf.prop_recursive(4, 40, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                prop::collection::vec(("[a-c0-9]{0,3}", inner), 0..6)
                    .prop_map(|members| Value::Object(members.into_iter().collect())),
            ]
        })
    }

    /// Numbers compare by their JavaScript value: `-0` and `0`, `100` and `100.0` are the same.
    fn same_js_value(a: &Value, b: &Value) -> bool {
        match (a, b) {
            (Value::Number(x), Value::Number(y)) => js_number_of(x) == js_number_of(y),
            (Value::Array(x), Value::Array(y)) => {
                x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same_js_value(p, q))
            }
            (Value::Object(x), Value::Object(y)) => {
                x.len() == y.len()
                    && x.iter()
                        .all(|(k, v)| y.get(k).is_some_and(|w| same_js_value(v, w)))
            }
            _ => a == b,
        }
    }

    proptest! {
        #[test]
        fn output_parses_back(value in arbitrary_json()) {
            for layout in [JsonLayout::Compact, JsonLayout::Pretty] {
                let text = to_json(&value, layout);
                let back: Value = serde_json::from_str(&text)
                    .map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
                prop_assert!(same_js_value(&value, &back), "{} ≠ {}", value, back);
            }
        }

        #[test]
        fn pretty_and_compact_agree_outside_strings(value in arbitrary_json()) {
            // Removing layout whitespace from the pretty text gives the compact text whenever
            // no string contains a space or newline (pretty adds only those).
            let compact = to_json_compact(&value);
            prop_assume!(!compact.contains([' ', '\n']));
            let pretty = to_json_pretty(&value);
            prop_assert_eq!(pretty.replace(['\n', ' '], ""), compact);
        }

        #[test]
        fn quote_parses_back(s in "\\PC{0,16}|[\\u{0}-\\u{1f}\"\\\\]{0,8}") {
            let quoted = json_quote(&s);
            let back: String = serde_json::from_str(&quoted)
                .map_err(|e| TestCaseError::fail(format!("{quoted}: {e}")))?;
            prop_assert_eq!(back, s);
        }

        #[test]
        fn surrogate_rewrite_only_touches_lone_escapes(s in "\\PC{0,12}") {
            let text = serde_json::to_string(&s).unwrap_or_default();
            prop_assert_eq!(replace_lone_surrogate_escapes(&text), text.as_str());
        }
    }

    #[test]
    fn compact_text_of_a_pretty_text() {
        let value = json!({"a": [1, {"b": "x y\n\"z\\"}], "c": {}, "d": [], "e": " \t "});
        let pretty = to_json_pretty(&value);
        assert_eq!(compact_json_text(&pretty), to_json_compact(&value));
        // A lone-surrogate escape is kept as written.
        let mut writer = JsonWriter::new(JsonLayout::Pretty);
        writer.begin_array();
        writer.js_string(&JsString::from_units(vec![0xD800, 0x41]));
        writer.end_array();
        assert_eq!(compact_json_text(&writer.finish()), r#"["\ud800A"]"#);
    }

    proptest! {
        #[test]
        fn compact_text_equals_the_compact_writer(s in "\\PC*", n in any::<i32>()) {
            let value = json!({"s": s, "list": [n, s, {"k k": null}]});
            prop_assert_eq!(compact_json_text(&to_json_pretty(&value)), to_json_compact(&value));
        }
    }
}
