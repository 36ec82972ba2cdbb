//! `connect opencode`'s reading of an existing `opencode.json` (contract 06 §6.3): the
//! order- and number-preserving JSON reader, the refusals of what `dotaios` does not own, the
//! merge of the `mcp.dotaios` entry and the pretty printer, through
//! `dotaios_cli::parsers::merged_config`, the function `connect` itself runs.
//!
//! Checks: no panic; a refusal has a message; a merged file ends in exactly one newline, is an
//! object whose `mcp.dotaios` is exactly the entry and whose legacy `mcp.servers` is gone (or
//! was `null` and stays so), keeps every top-level member of the input, and merges again to
//! the same bytes (idempotence). The shape is checked whenever `serde_json` reads the merged
//! file, which it must whenever it reads the input (kept number text beyond f64 is the one
//! thing it cannot read).
#![no_main]
#![forbid(unsafe_code)]

use std::path::Path;

use dotaios_cli::parsers::{entry_text, merged_config};
use dotaios_fuzz::{js_equal, parse_json};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

/// A launcher and a folder that need escaping, as a real home directory may.
const LAUNCHER: &str = "/home/ada/.cargo/bin/dotaios-mcp";
const FOLDER: &str = "/home/ada/my \"aios\" ☃";

fuzz_target!(|bytes: &[u8]| {
    let merged = match merged_config(Some(bytes), LAUNCHER, FOLDER) {
        Ok(merged) => merged,
        Err(error) => {
            assert!(!error.message(Path::new("opencode.json")).is_empty());
            return;
        }
    };
    assert!(merged.ends_with(b"\n") && !merged.ends_with(b"\n\n"));
    let again = merged_config(Some(&merged), LAUNCHER, FOLDER)
        .unwrap_or_else(|error| panic!("a merged file is refused: {error:?}"));
    assert!(again == merged, "merging twice changed the file");

    let text = std::str::from_utf8(&merged).expect("the printer writes UTF-8");
    // The merge keeps number text as written, so a number `serde_json` cannot hold (beyond
    // f64, which JavaScript reads as Infinity) stays; the shape is checked whenever the input
    // itself is JSON `serde_json` reads.
    let input = std::str::from_utf8(bytes).ok().and_then(parse_json);
    let output = match parse_json(text) {
        Some(Value::Object(output)) => output,
        Some(_) => panic!("the merged file is not a JSON object: {text:?}"),
        None => {
            assert!(
                input.is_none(),
                "readable input, unreadable merge: {text:?}"
            );
            return;
        }
    };
    let entry = parse_json(&entry_text(LAUNCHER, FOLDER)).expect("the entry is JSON");
    let mcp = output
        .get("mcp")
        .and_then(Value::as_object)
        .expect("mcp is an object");
    assert!(js_equal(&mcp["dotaios"], &entry), "{text:?}");
    // A legacy `mcp.servers` is migrated away; only a `null` one is kept as it was.
    assert!(mcp.get("servers").is_none_or(Value::is_null), "{text:?}");
    if let Some(Value::Object(input)) = input {
        for name in input.keys() {
            assert!(output.contains_key(name), "member {name:?} lost");
        }
    }
});
