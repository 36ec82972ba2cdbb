//! The one JavaScript-faithful JSON reader (`text::read_json`), which reads the adapter's
//! requests and `connect`'s `opencode.json`, against `serde_json` as a second opinion.
//!
//! Checks: no panic; whatever the workspace's one `serde_json` read (`text::serde_read`: the
//! nesting limit, then the lone-surrogate rewrite, then `serde_json`) accepts the reader accepts
//! too, with a `JSON.parse`-equal value; whatever the reader accepts, `serde_json` accepts,
//! unless it holds a number outside the double range (`1e400`, which `JSON.parse` reads as
//! Infinity); the refusing policy accepts a subset of the replacing one, with the same value,
//! and refuses exactly the texts with a lone surrogate escape; a value budget only ever refuses.
#![no_main]
#![forbid(unsafe_code)]

use dotaios_core::text::{
    JsonReadError, JsonReadOptions, JsonValue, LoneSurrogates, read_json, serde_read,
};
use dotaios_fuzz::js_equal;
use libfuzzer_sys::fuzz_target;

const REPLACE: JsonReadOptions = JsonReadOptions::REPLACE;
const REFUSE: JsonReadOptions = JsonReadOptions::REFUSE;

/// Whether some number of the value is outside the double range.
fn has_infinite_number(value: &JsonValue) -> bool {
    match value {
        JsonValue::Number(number) => number.value().is_infinite(),
        JsonValue::Array(items) => items.iter().any(has_infinite_number),
        JsonValue::Object(members) => members.values().any(has_infinite_number),
        _ => false,
    }
}

fuzz_target!(|text: &str| {
    let replaced = read_json(text, &REPLACE);
    let refused = read_json(text, &REFUSE);
    let serde = serde_read::<serde_json::Value>(text, LoneSurrogates::Replace).ok();

    match (&replaced, &serde) {
        (Ok(value), Some(expected)) => {
            assert!(js_equal(&value.to_serde_value(), expected), "{text:?}");
        }
        (Ok(value), None) => assert!(has_infinite_number(value), "{text:?}"),
        (Err(_), Some(_)) => panic!("serde_json accepts what the reader refuses: {text:?}"),
        (Err(_), None) => {}
    }

    match (&replaced, &refused) {
        (Ok(a), Ok(b)) => assert_eq!(a, b, "{text:?}"),
        (Ok(_), Err(error)) => assert_eq!(*error, JsonReadError::LoneSurrogate, "{text:?}"),
        (Err(a), Err(b)) => assert!(*b == JsonReadError::LoneSurrogate || a == b, "{text:?}"),
        (Err(_), Ok(_)) => panic!("refusing accepts what replacing refuses: {text:?}"),
    }

    let budget = JsonReadOptions {
        lone_surrogates: LoneSurrogates::Replace,
        max_values: Some(text.len() % 64),
    };
    match read_json(text, &budget) {
        Ok(value) => assert_eq!(Ok(value), replaced, "{text:?}"),
        Err(JsonReadError::TooMany) => {}
        Err(error) => assert_eq!(Err(error), replaced, "{text:?}"),
    }
});
