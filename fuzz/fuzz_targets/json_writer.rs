//! The `JSON.stringify`-identical writer (contract 05 §10) on arbitrary parsed JSON.
//!
//! Checks: no panic; compact and pretty output both parse back to a value `JSON.parse`-equal
//! to the input (numbers compared as doubles, as JavaScript has only doubles); writing the
//! re-parsed value again gives the same text (the writer is a fixed point); compact output has
//! no line break; pretty output differs from compact only by layout.
#![no_main]
#![forbid(unsafe_code)]

use dotaios_core::text::{to_json_compact, to_json_pretty};
use dotaios_fuzz::{js_equal, parse_json};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let Some(value) = parse_json(text) else {
        return;
    };
    let compact = to_json_compact(&value);
    let pretty = to_json_pretty(&value);
    assert!(!compact.contains('\n'));

    let from_compact = parse_json(&compact).expect("compact output parses");
    assert!(js_equal(&value, &from_compact), "{text:?} -> {compact}");
    let from_pretty = parse_json(&pretty).expect("pretty output parses");
    assert!(js_equal(&value, &from_pretty), "{text:?} -> {pretty}");

    assert_eq!(to_json_compact(&from_compact), compact);
    assert_eq!(to_json_compact(&from_pretty), compact);
    assert_eq!(to_json_pretty(&from_compact), pretty);
});
