//! `tools/call` (contract 05 §6–§7): the envelope checks, the dispatch to one of the three tools,
//! the Off short-circuit, the folder check, and the result wrappers of each era.
//!
//! **Invariant:** the order of §6 is the order of this code: arguments shape, tool name
//! ([`ToolCall::of`], always JSON-RPC errors), then static validation, memory policy, Off (no
//! filesystem access of any kind), `aios.json` existence, execution ([`ToolCall::run`], whose
//! input errors and fixable folder problems the structured eras answer as `isError` results,
//! §6.11, §6.12). The structured
//! content is derived from the payload text itself, never built beside it (§7.1).

pub(crate) mod args;
mod context;
pub(crate) mod schema;
mod search;
mod skill;

use std::path::Path;

use dotaios_core::context::off_mcp_payload;
use dotaios_core::folder::check::is_aios_folder;
use dotaios_core::folder::memory::MemoryMode;
use dotaios_core::search::{SearchCache, SnippetForm, off_mcp_payload as off_search_payload};
use dotaios_core::skills::{BudgetHint, MatchUri};
use dotaios_core::text::{JsonLayout, JsonWriter, compact_json_text};
use indexmap::IndexMap;
use jiff::tz::TimeZone;

use crate::error::RpcError;
use crate::json::Json;
use crate::lifecycle::{Era, server_info_meta};

/// The three tools.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tool {
    ReadWorkingContext,
    SearchAios,
    ResolveSkill,
}

/// The tools' names in `tools/list` order (contract 05 §5): the one list the schema, the call
/// dispatch and the CLI's `mcp status` and `connect` reports read.
pub const TOOL_NAMES: [&str; 3] = [
    Tool::ReadWorkingContext.name(),
    Tool::SearchAios.name(),
    Tool::ResolveSkill.name(),
];

impl Tool {
    const ALL: [Tool; 3] = [
        Tool::ReadWorkingContext,
        Tool::SearchAios,
        Tool::ResolveSkill,
    ];

    /// The tool's name on the wire.
    pub(crate) const fn name(self) -> &'static str {
        match self {
            Tool::ReadWorkingContext => "read_working_context",
            Tool::SearchAios => "search_aios",
            Tool::ResolveSkill => "resolve_skill",
        }
    }

    fn named(name: &str) -> Option<Tool> {
        Tool::ALL.into_iter().find(|tool| tool.name() == name)
    }
}

/// A `tools/call` whose envelope passed (§6.1): a known tool and an argument object.
#[derive(Debug)]
pub(crate) struct ToolCall<'a> {
    tool: Tool,
    arguments: &'a IndexMap<String, Json>,
}

/// The arguments of a call that sends none.
static NO_ARGUMENTS: std::sync::LazyLock<IndexMap<String, Json>> =
    std::sync::LazyLock::new(IndexMap::new);

impl<'a> ToolCall<'a> {
    /// §6.1: the arguments shape, then the tool name. Both failures are protocol errors in
    /// every era.
    pub(crate) fn of(params: Option<&'a Json>) -> Result<ToolCall<'a>, RpcError> {
        let params = params.and_then(Json::as_object);
        let arguments = match params.and_then(|params| params.get("arguments")) {
            None => &*NO_ARGUMENTS,
            Some(Json::Object(arguments)) => arguments,
            Some(_) => return Err(args::ArgError::ArgumentsNotObject.into()),
        };
        let name = params.and_then(|params| params.get("name"));
        let Some(tool) = name.and_then(Json::as_str).and_then(Tool::named) else {
            return Err(RpcError::UnknownTool(crate::echo::js_string(name)));
        };
        Ok(ToolCall { tool, arguments })
    }

    /// §6.2–§6.9: validates, applies the memory policy, and runs the tool; the payload text of
    /// its single text block. The era only decides whether `resolve_skill` states its budget
    /// hint (§7.5.1), each match's resource `uri` (§7.7), and whether `search_aios` shows
    /// snippet windows (contract 03 §8.2).
    pub(crate) fn run(
        &self,
        era: Era,
        folder: &Path,
        time_zone: &TimeZone,
        cache: Option<&SearchCache>,
    ) -> Result<String, RpcError> {
        let arguments = self.arguments;
        match self.tool {
            Tool::ReadWorkingContext => {
                let args = args::context_args(arguments)?;
                if args.mode == MemoryMode::Off {
                    return Ok(off_mcp_payload());
                }
                require_folder(folder)?;
                context::run(folder, &args, time_zone)
            }
            Tool::SearchAios => {
                let args = args::search_args(arguments)?;
                if args.mode == MemoryMode::Off {
                    return Ok(off_search_payload(args.query, args.raw_scope));
                }
                require_folder(folder)?;
                // The reference era's recorded answers fix the whole-line snippets (contract 05
                // §3.4); the structured eras get bounded windows (contract 03 §8.2).
                let snippets = if era.is_structured() {
                    SnippetForm::Windows
                } else {
                    SnippetForm::Lines
                };
                search::run(folder, &args, snippets, time_zone, cache)
            }
            Tool::ResolveSkill => {
                let args = args::skill_args(arguments)?;
                let (hint, uri) = if era.is_structured() {
                    (BudgetHint::State, MatchUri::State)
                } else {
                    (BudgetHint::Omit, MatchUri::Omit)
                };
                if args.mode == MemoryMode::Off {
                    return skill::run(folder, &args, hint, uri);
                }
                require_folder(folder)?;
                skill::run(folder, &args, hint, uri)
            }
        }
    }
}

/// The compact JSON text of a successful `tools/call` result (§7.1, §4.4). The reference era
/// gets exactly `{"content":[…],"isError":false}`; the structured eras add `structuredContent`
/// (the payload text's own compact form, so it parses to the same value as the text) and the
/// serverInfo `_meta`, and the modern era leads with `resultType`.
pub(crate) fn call_result(era: Era, payload: &str) -> String {
    let mut writer = result_writer(era, payload);
    if era.is_structured() {
        writer.name("structuredContent");
        writer.raw_compact(&compact_json_text(payload));
    }
    finish_result(writer, era, false)
}

/// The compact JSON text of a tool input error (§6.11) or fixable folder problem (§6.12) in a
/// structured era: its fixed message as the one text block, `isError: true`, no structured
/// content.
pub(crate) fn error_result(era: Era, message: &str) -> String {
    finish_result(result_writer(era, message), era, true)
}

/// `{` + `resultType` (modern era) + `content` with one text block.
fn result_writer(era: Era, text: &str) -> JsonWriter {
    let mut writer = JsonWriter::new(JsonLayout::Compact);
    writer.begin_object();
    if era == Era::Modern {
        writer.name("resultType");
        writer.str("complete");
    }
    writer.name("content");
    writer.begin_array();
    writer.begin_object();
    writer.name("type");
    writer.str("text");
    writer.name("text");
    writer.str(text);
    writer.end_object();
    writer.end_array();
    writer
}

/// `isError`, the serverInfo `_meta` (structured eras), `}`.
fn finish_result(mut writer: JsonWriter, era: Era, is_error: bool) -> String {
    writer.name("isError");
    writer.bool(is_error);
    if era.is_structured() {
        writer.member("_meta", &server_info_meta());
    }
    writer.end_object();
    writer.finish()
}

/// §6.7: the folder check ([`is_aios_folder`], shared with the CLI), refused with the
/// adapter's fixed message, which names no path.
pub(crate) fn require_folder(folder: &Path) -> Result<(), RpcError> {
    if is_aios_folder(folder) {
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
        ToolCall::of(Some(&params))?.run(
            Era::Reference,
            Path::new("/nonexistent/dotaios-mcp-tests/aios"),
            &TimeZone::UTC,
            None,
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
        let missing = ToolCall::of(None).unwrap_err();
        assert_eq!(missing.wire().1, "Unknown tool: undefined");
    }

    #[test]
    fn result_wrappers_of_each_era() {
        let payload = "{\n  \"a\": [\n    1\n  ],\n  \"b\": \"x y\"\n}";
        assert_eq!(
            call_result(Era::Reference, payload),
            r#"{"content":[{"type":"text","text":"{\n  \"a\": [\n    1\n  ],\n  \"b\": \"x y\"\n}"}],"isError":false}"#
        );
        let meta = crate::lifecycle::server_info_meta();
        let meta = dotaios_core::text::to_json_compact(&meta);
        assert_eq!(
            call_result(Era::Structured, payload),
            format!(
                r#"{{"content":[{{"type":"text","text":"{{\n  \"a\": [\n    1\n  ],\n  \"b\": \"x y\"\n}}"}}],"structuredContent":{{"a":[1],"b":"x y"}},"isError":false,"_meta":{meta}}}"#
            )
        );
        assert!(
            call_result(Era::Modern, payload).starts_with(r#"{"resultType":"complete","content":"#)
        );
        assert_eq!(
            error_result(Era::Modern, "limit must be an integer from 1 to 10"),
            format!(
                r#"{{"resultType":"complete","content":[{{"type":"text","text":"limit must be an integer from 1 to 10"}}],"isError":true,"_meta":{meta}}}"#
            )
        );
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
