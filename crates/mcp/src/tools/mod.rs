//! `tools/call` (contract 05 §6–§7): the envelope checks, the dispatch to one of the three tools,
//! the Off short-circuit, the folder check, and the result wrapper.
//!
//! **Invariant:** the order of §6 is the order of this code: arguments shape, tool name, static
//! validation, memory policy, Off (no filesystem access of any kind), `aios.json` existence,
//! execution. Every failure is a JSON-RPC error, never an `isError: true` result.

pub(crate) mod args;
mod context;
pub(crate) mod schema;
mod search;
mod skill;

use std::path::Path;

use dotaios_core::context::off_mcp_payload;
use dotaios_core::folder::memory::MemoryMode;
use dotaios_core::search::{SearchCache, off_mcp_payload as off_search_payload};
use indexmap::IndexMap;
use jiff::tz::TimeZone;
use serde_json::{Value, json};

use crate::error::RpcError;
use crate::json::Json;
use crate::server::Era;

/// Runs a `tools/call` request and returns the payload text of its single text block.
pub(crate) fn call(
    folder: &Path,
    time_zone: &TimeZone,
    cache: Option<&SearchCache>,
    params: Option<&Json>,
) -> Result<String, RpcError> {
    let params = params.and_then(Json::as_object);
    let no_arguments = IndexMap::new();
    let arguments = match params.and_then(|params| params.get("arguments")) {
        None => &no_arguments,
        Some(Json::Object(arguments)) => arguments,
        Some(_) => return Err(args::ArgError::ArgumentsNotObject.into()),
    };
    let name = params.and_then(|params| params.get("name"));
    match name.and_then(Json::as_str) {
        Some("read_working_context") => {
            let args = args::context_args(arguments)?;
            if args.mode == MemoryMode::Off {
                return Ok(off_mcp_payload());
            }
            require_folder(folder)?;
            context::run(folder, &args, time_zone)
        }
        Some("search_aios") => {
            let args = args::search_args(arguments)?;
            if args.mode == MemoryMode::Off {
                return Ok(off_search_payload(&args.query, args.raw_scope.as_deref()));
            }
            require_folder(folder)?;
            search::run(folder, &args, time_zone, cache)
        }
        Some("resolve_skill") => {
            let args = args::skill_args(arguments)?;
            if args.mode == MemoryMode::Off {
                return skill::run(folder, &args);
            }
            require_folder(folder)?;
            skill::run(folder, &args)
        }
        _ => Err(RpcError::UnknownTool(crate::echo::js_string(name))),
    }
}

/// The `tools/call` result around a payload (§7.1, §4.4).
pub(crate) fn call_result(era: Era, text: String) -> Value {
    let content = json!([{"type": "text", "text": text}]);
    match era {
        Era::Legacy => json!({"content": content, "isError": false}),
        Era::Modern => json!({"resultType": "complete", "content": content, "isError": false}),
    }
}

/// §6.7: an existence-only check of `aios.json` directly inside the folder, following a
/// symlink at that name (like `fs.existsSync`). Every real read later goes through the
/// contained reader, which refuses links below the root.
pub(crate) fn require_folder(folder: &Path) -> Result<(), RpcError> {
    let exists = std::fs::metadata(folder.join("aios.json")).is_ok();
    if exists {
        Ok(())
    } else {
        Err(RpcError::NoFolder)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::parse;
    use dotaios_core::error::NO_FOLDER_MESSAGE;

    fn call_with(params: &str) -> Result<String, RpcError> {
        let params = parse(params).unwrap();
        call(
            Path::new("/nonexistent/dotaios-mcp-tests/aios"),
            &TimeZone::UTC,
            None,
            Some(&params),
        )
    }

    fn message(params: &str) -> String {
        call_with(params).unwrap_err().wire().1.into_owned()
    }

    #[test]
    fn envelope_order() {
        assert_eq!(
            message(r#"{"name":"nope","arguments":42}"#),
            "tool arguments must be an object"
        );
        assert_eq!(
            message(r#"{"arguments":null}"#),
            "tool arguments must be an object"
        );
        assert_eq!(message("{}"), "Unknown tool: undefined");
        assert_eq!(message(r#"{"name":null}"#), "Unknown tool: null");
        assert_eq!(
            message(r#"{"name":"log_event"}"#),
            "Unknown tool: log_event"
        );
        assert_eq!(
            message(&format!(r#"{{"name":"{}"}}"#, "n".repeat(100))),
            format!("Unknown tool: {}…", "n".repeat(64))
        );
        assert_eq!(
            message(&format!(r#"{{"name":"{}"}}"#, "n".repeat(64))),
            format!("Unknown tool: {}", "n".repeat(64))
        );
        let missing = call(Path::new("/nonexistent"), &TimeZone::UTC, None, None).unwrap_err();
        assert_eq!(missing.wire().1, "Unknown tool: undefined");
    }

    #[test]
    fn off_needs_no_folder() {
        let text = call_with(
            r#"{"name":"read_working_context","arguments":{"memory":"off","budget":6000}}"#,
        )
        .unwrap();
        assert_eq!(
            text,
            "{\n  \"markdown\": \"Memory: Off\\n\\nDotAIOS is off; your AI app may still keep its own conversation history. DotAIOS did not read, search, save, or capture this turn.\",\n  \"scope\": {\n    \"project\": null\n  },\n  \"memory\": \"off\",\n  \"receipt\": \"Memory: Off\",\n  \"notice\": \"DotAIOS is off; your AI app may still keep its own conversation history. DotAIOS did not read, search, save, or capture this turn.\",\n  \"complete\": true\n}"
        );
        // The raw query and the raw, untrimmed scope reach core's Off payload (§7.6).
        let text = call_with(r#"{"name":"search_aios","arguments":{"memory":"off","query":" private ","scope":" memory "}}"#).unwrap();
        assert_eq!(text, off_search_payload(" private ", Some(" memory ")));
        let text =
            call_with(r#"{"name":"resolve_skill","arguments":{"memory":"off","intent":"plan"}}"#)
                .unwrap();
        assert!(text.starts_with("{\n  \"intent\": \"plan\",\n  \"matches\": [],"));
    }

    #[test]
    fn missing_folder_after_validation() {
        assert_eq!(
            message(r#"{"name":"read_working_context"}"#),
            NO_FOLDER_MESSAGE
        );
        assert_eq!(
            message(r#"{"name":"search_aios","arguments":{"query":"x"}}"#),
            NO_FOLDER_MESSAGE
        );
        assert_eq!(
            message(r#"{"name":"resolve_skill","arguments":{"intent":"x"}}"#),
            NO_FOLDER_MESSAGE
        );
        assert_eq!(
            message(r#"{"name":"read_working_context","arguments":{"budget":20}}"#),
            "budget must be an integer from 256 to 32000"
        );
    }
}
