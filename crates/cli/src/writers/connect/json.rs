//! A faithful JSON document for rewriting a user's configuration file: the workspace's one
//! JavaScript-faithful reader (`dotaios_core::text::read_json`, which keeps member order and
//! each number's original text) under `connect`'s policy, and a
//! `JSON.stringify(value, null, 2)`-shaped printer that writes numbers as they were written.
//!
//! What it must never do: accept what RFC 8259 does not (comments, trailing commas, a
//! byte-order mark, lone surrogate escapes, control characters in strings), or reorder members.
//! It owns no grammar: parsing is the core reader's.

use dotaios_core::text::{JsonReadOptions, push_json_string, read_json};

pub(crate) use dotaios_core::text::{JsonObject as Members, JsonValue as Json};

/// `connect`'s reading policy: a lone surrogate escape is not text and cannot be written back
/// in UTF-8, so the file is refused rather than silently changed. No value budget: the file's
/// size is bounded when it is read, and the reader's nesting limit bounds the printer's
/// recursion.
const CONFIG: JsonReadOptions = JsonReadOptions::REFUSE;

/// The text is not strict JSON.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Invalid;

/// Parses `bytes` as one strict JSON text (UTF-8, no byte-order mark).
pub(crate) fn parse(bytes: &[u8]) -> Result<Json, Invalid> {
    let text = std::str::from_utf8(bytes).map_err(|_| Invalid)?;
    read_json(text, &CONFIG).map_err(|_| Invalid)
}

/// `JSON.stringify(value, null, 2)` with each number's original text.
pub(crate) fn to_pretty(value: &Json) -> String {
    let mut out = String::new();
    write_value(&mut out, value, 0);
    out
}

fn write_value(out: &mut String, value: &Json, depth: usize) {
    match value {
        Json::Null => out.push_str("null"),
        Json::Bool(true) => out.push_str("true"),
        Json::Bool(false) => out.push_str("false"),
        Json::Number(number) => out.push_str(number.text()),
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
            for (index, (name, member)) in members.iter().enumerate() {
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
    use dotaios_core::text::MAX_NESTING;

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
        let deep = "[".repeat(MAX_NESTING + 1) + &"]".repeat(MAX_NESTING + 1);
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
                    "[{\"a\":".repeat(MAX_NESTING / 2),
                    "}]".repeat(MAX_NESTING / 2)
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
