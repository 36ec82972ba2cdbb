//! JavaScript conversions on parsed JSON values: truthiness and `String(value)` (contract 02 §7,
//! §10 "truthy", "stringified"; 03 §10.3 leaves as text).

use serde_json::Value;

use super::number::{js_number_of, push_js_number};

/// JavaScript truthiness of a JSON value: `null`, `false`, `0`, `-0`, `NaN` and `""` are falsy;
/// every other value, including `[]` and `{}`, is truthy.
pub fn js_truthy(value: &Value) -> bool {
    match value {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => {
            let x = js_number_of(n);
            x != 0.0 && !x.is_nan()
        }
        Value::String(s) => !s.is_empty(),
        Value::Array(_) | Value::Object(_) => true,
    }
}

/// JavaScript `String(value)` for a JSON value: `null` → `"null"`, booleans → `"true"` /
/// `"false"`, numbers in [`crate::text::js_number_to_string`] form, strings unchanged, arrays →
/// their elements joined with `,` (with `null` elements as empty text, as `Array.prototype.join`
/// does), objects → `"[object Object]"`.
pub fn js_string_of(value: &Value) -> String {
    let mut out = String::new();
    push_js_string_of(&mut out, value);
    out
}

fn push_js_string_of(out: &mut String, value: &Value) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => push_js_number(out, js_number_of(n)),
        Value::String(s) => out.push_str(s),
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                if !item.is_null() {
                    push_js_string_of(out, item);
                }
            }
        }
        Value::Object(_) => out.push_str("[object Object]"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn truthiness() {
        for falsy in [
            json!(null),
            json!(false),
            json!(0),
            json!(-0.0),
            json!(0.0),
            json!(""),
        ] {
            assert!(!js_truthy(&falsy), "{falsy}");
        }
        for truthy in [
            json!(true),
            json!(1),
            json!(-0.5),
            json!(" "),
            json!("0"),
            json!([]),
            json!({}),
        ] {
            assert!(js_truthy(&truthy), "{truthy}");
        }
    }

    #[test]
    fn stringification() {
        assert_eq!(js_string_of(&json!(null)), "null");
        assert_eq!(js_string_of(&json!(true)), "true");
        assert_eq!(js_string_of(&json!(12.0)), "12");
        assert_eq!(js_string_of(&json!(1e21)), "1e+21");
        assert_eq!(js_string_of(&json!("a\"b")), "a\"b");
        assert_eq!(
            js_string_of(&json!([1, null, "x", [2, [3]], {}])),
            "1,,x,2,3,[object Object]"
        );
        assert_eq!(js_string_of(&json!([])), "");
        assert_eq!(js_string_of(&json!({"a": 1})), "[object Object]");
    }
}
