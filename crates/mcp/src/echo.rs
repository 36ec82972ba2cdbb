//! The echo bound for caller-supplied names (contract 05 §2.6, decision D3c): a value is converted
//! as JavaScript's `String()` does, then cut to 64 code points plus `…`.
//!
//! **Invariant:** no caller-supplied text reaches an error message without passing through
//! [`bounded`], so a response to a 10 MiB method name stays small.

use std::borrow::Cow;

use dotaios_core::text::{clip_code_points, js_number_to_string};

use crate::json::Json;

/// Code points kept from an echoed value.
const ECHO_CODE_POINTS: usize = 64;

/// JavaScript's `String(value)`; an absent value is `undefined`.
pub(crate) fn js_string(value: Option<&Json>) -> String {
    match value {
        None => "undefined".to_owned(),
        Some(value) => {
            let mut out = String::new();
            push_js_string(&mut out, value);
            out
        }
    }
}

/// Recursion is bounded by the parser's nesting limit.
fn push_js_string(out: &mut String, value: &Json) {
    match value {
        Json::Null => out.push_str("null"),
        Json::Bool(value) => out.push_str(if *value { "true" } else { "false" }),
        Json::Number(number) => out.push_str(&js_number_to_string(number.value())),
        Json::String(text) => out.push_str(text),
        Json::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                // `Array.prototype.join` writes `null` and `undefined` elements as nothing.
                if *item != Json::Null {
                    push_js_string(out, item);
                }
            }
        }
        Json::Object(_) => out.push_str("[object Object]"),
    }
}

/// `text` if it has at most 64 code points, else its first 64 code points and `…`.
pub(crate) fn bounded(text: &str) -> Cow<'_, str> {
    clip_code_points(text, ECHO_CODE_POINTS, "…")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::parse;

    fn string_of(text: &str) -> String {
        js_string(Some(&parse(text).unwrap()))
    }

    #[test]
    fn javascript_string_conversion() {
        assert_eq!(js_string(None), "undefined");
        assert_eq!(string_of("null"), "null");
        assert_eq!(string_of("true"), "true");
        assert_eq!(string_of("5"), "5");
        assert_eq!(string_of("1.5"), "1.5");
        assert_eq!(string_of("1e21"), "1e+21");
        assert_eq!(string_of("-0"), "0");
        assert_eq!(string_of("[1,null,\"a\",[2,3]]"), "1,,a,2,3");
        assert_eq!(string_of("{\"a\":1}"), "[object Object]");
        assert_eq!(string_of("\"x\""), "x");
        assert_eq!(string_of("1e400"), "Infinity");
        assert_eq!(string_of("[-1e400,[]]"), "-Infinity,");
    }

    #[test]
    fn bound_is_64_code_points() {
        assert_eq!(bounded(&"é".repeat(64)), "é".repeat(64));
        assert_eq!(bounded(&"😀".repeat(65)), format!("{}…", "😀".repeat(64)));
        assert_eq!(bounded(""), "");
    }
}
