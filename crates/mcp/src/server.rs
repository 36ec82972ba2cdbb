//! One line in, at most one response line out (contract 05 §2.3–§3.4): parse, ignore non-requests
//! (or answer a 2025-03-26 batch), check the envelope, classify the era, check modern `_meta`,
//! dispatch.
//!
//! **Invariant:** total, and stateless but for two things that never change what a tool
//! computes: the search content cache of contract 03 §19.2 (each use is validated against the
//! file's current identity), and the version the last `initialize` negotiated
//! ([`lifecycle::Session`]), which chooses only the result *shapes* (§3.4). [`Server::handle_line`]
//! answers every request line with exactly one compact JSON-RPC line and every other line with
//! nothing; a panic inside a request is caught and answered with the fixed `-32603` message. It
//! never writes anywhere: the transport owns stdout.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::sync::Arc;

use dotaios_core::search::SearchCache;
use dotaios_core::text::{JsonLayout, JsonWriter, js_trim, to_json_compact};
use indexmap::IndexMap;
use jiff::tz::TimeZone;
use serde_json::{Value, json};

use crate::error::RpcError;
use crate::json::{self, Json};
use crate::lifecycle::{self, BATCH_VERSION, Era, SUPPORTED_VERSIONS, Session, server_info_meta};
use crate::{resources, tools};

const META_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
const META_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
const META_LOG_LEVEL: &str = "io.modelcontextprotocol/logLevel";

/// The 2026-07-28 `LoggingLevel` values (RFC 5424 severities).
const LOG_LEVELS: [&str; 8] = [
    "debug",
    "info",
    "notice",
    "warning",
    "error",
    "critical",
    "alert",
    "emergency",
];

/// The most elements one 2025-03-26 batch may hold (contract 05 §2.8); a longer batch is one
/// `Invalid Request`. Lines are served one at a time (§2.2), so a batch holds up every line
/// after it: eight elements keep that to a few tool calls' worth, whatever the elements are.
pub(crate) const MAX_BATCH: usize = 8;

/// The adapter for one configured AIOS folder. Cheap to build; holds the search content cache
/// and the negotiated version (clones share both).
#[derive(Debug, Clone)]
pub struct Server {
    folder: PathBuf,
    /// The process time zone (honouring `TZ`), read once: it defines "today".
    time_zone: TimeZone,
    /// File texts kept between `search_aios` calls (contract 03 §19.2); `None` searches uncached.
    cache: Option<Arc<SearchCache>>,
    /// The version the last `initialize` negotiated (contract 05 §3.4).
    session: Arc<Session>,
}

impl Server {
    /// An adapter for the AIOS folder at `folder` (absolute). The folder is not checked here:
    /// each tool call checks it after validation and the Off short-circuit.
    pub fn new(folder: PathBuf) -> Server {
        Server {
            folder,
            time_zone: TimeZone::system(),
            cache: Some(Arc::new(SearchCache::new())),
            session: Arc::new(Session::default()),
        }
    }

    /// [`Server::new`] without the search content cache: every `search_aios` call reads
    /// every file. What `DOTAIOS_SEARCH_CACHE=off` starts (contract 03 §19.2). Answers are
    /// byte-identical to a cached server's except after a change no file identity shows;
    /// tests compare the two.
    pub fn without_cache(folder: PathBuf) -> Server {
        Server {
            cache: None,
            ..Server::new(folder)
        }
    }

    /// How many cached file texts this server's searches have reused so far (contract 03 §19.2),
    /// `None` without a cache. Lets tests prove that a cached server really answered from its
    /// cache.
    pub fn cache_hits(&self) -> Option<u64> {
        self.cache.as_ref().map(|cache| cache.hits())
    }

    /// Handles one raw input line (without its terminator) and returns the response line
    /// (without a newline), or `None` when the line is not a request.
    pub fn handle_line(&self, line: &[u8]) -> Option<String> {
        let text = String::from_utf8_lossy(line);
        let text = js_trim(&text);
        if text.is_empty() {
            return None;
        }
        let value = match json::parse(text) {
            Ok(value) => value,
            Err(_) => return Some(error_response(&Json::Null, &RpcError::Parse)),
        };
        match value {
            Json::Object(request) => self.answer(&request, false),
            Json::Array(batch) if self.session.version() == Some(BATCH_VERSION) => {
                self.answer_batch(&batch)
            }
            _ => None,
        }
    }

    /// The answer to a line that was too long to buffer: like an unparseable line.
    pub fn oversized_line(&self) -> String {
        error_response(&Json::Null, &RpcError::Parse)
    }

    /// One request object's answer line, or `None` for a notification.
    fn answer(&self, request: &IndexMap<String, Json>, in_batch: bool) -> Option<String> {
        let id = request.get("id")?;
        let outcome = catch_unwind(AssertUnwindSafe(|| self.handle_request(request, in_batch)))
            .unwrap_or(Err(RpcError::Failed));
        Some(match outcome {
            Ok(result) => success_response(id, &result),
            Err(error) => error_response(id, &error),
        })
    }

    /// A 2025-03-26 JSON-RPC batch (contract 05 §2.8): one array of the answers, in order;
    /// nothing when every element is a notification; one `Invalid Request` for an empty or
    /// oversized batch; `Invalid Request` (id `null`) for an element that is not an object.
    fn answer_batch(&self, batch: &[Json]) -> Option<String> {
        if batch.is_empty() || batch.len() > MAX_BATCH {
            return Some(error_response(&Json::Null, &RpcError::InvalidRequest));
        }
        let answers: Vec<String> = batch
            .iter()
            .filter_map(|element| match element {
                Json::Object(request) => self.answer(request, true),
                _ => Some(error_response(&Json::Null, &RpcError::InvalidRequest)),
            })
            .collect();
        (!answers.is_empty()).then(|| format!("[{}]", answers.join(",")))
    }

    /// The era of a request that names no version of its own: the negotiated one's.
    fn session_era(&self) -> Era {
        self.session
            .version()
            .map_or(Era::Reference, Era::of_version)
    }

    /// The compact JSON text of the result, or the error to answer.
    fn handle_request(
        &self,
        request: &IndexMap<String, Json>,
        in_batch: bool,
    ) -> Result<String, RpcError> {
        let version_ok = request.get("jsonrpc").and_then(Json::as_str) == Some("2.0");
        let method = request.get("method").filter(|method| method.is_truthy());
        let (true, Some(method)) = (version_ok, method) else {
            return Err(RpcError::InvalidRequest);
        };
        let params = request.get("params");
        let name = method.as_str();
        let era = match name {
            Some("initialize") => Era::Reference,
            Some("server/discover") => modern_era(params)?,
            _ if has_modern_meta(params) => modern_era(params)?,
            _ => self.session_era(),
        };
        let result = match name {
            // 2025-03-26 forbids `initialize` inside a batch.
            Some("initialize") if in_batch => return Err(RpcError::InvalidRequest),
            Some("initialize") => {
                let requested = params
                    .and_then(Json::as_object)
                    .and_then(|params| params.get("protocolVersion"))
                    .and_then(Json::as_str);
                let result = lifecycle::initialize_result(requested);
                self.session.negotiated(lifecycle::negotiate(requested));
                result
            }
            Some("server/discover") => lifecycle::discover_result(era),
            Some("ping") => shaped(era, json!({})),
            Some("tools/list") => {
                if era.is_structured() {
                    check_cursor(params)?;
                }
                let tools = match era {
                    Era::Reference => tools::schema::tools(),
                    Era::Structured | Era::Modern => tools::schema::structured_tools(),
                };
                let mut result = json!({"tools": tools});
                if era == Era::Modern {
                    result["ttlMs"] = json!(0);
                    result["cacheScope"] = json!("public");
                }
                shaped(era, result)
            }
            // Skills as resources (§7.7): the structured eras only; the reference era keeps
            // the reference's `-32601` below.
            Some("resources/list") if era.is_structured() => {
                check_cursor(params)?;
                shaped(era, resources::list(params, &self.folder)?)
            }
            Some("resources/templates/list") if era.is_structured() => {
                check_cursor(params)?;
                shaped(era, resources::templates())
            }
            Some("resources/read") if era.is_structured() => {
                shaped(era, resources::read(params, &self.folder, era)?)
            }
            Some("tools/call") => {
                let call = tools::ToolCall::of(params)?;
                let outcome = call.run(era, &self.folder, &self.time_zone, self.cache.as_deref());
                return match outcome {
                    Ok(text) => Ok(tools::call_result(era, &text)),
                    Err(error) => match error.tool_error_text() {
                        Some(text) if era.is_structured() => Ok(tools::error_result(era, &text)),
                        _ => Err(error),
                    },
                };
            }
            _ => {
                return Err(RpcError::MethodNotFound(crate::echo::js_string(Some(
                    method,
                ))));
            }
        };
        Ok(to_json_compact(&result))
    }
}

/// A result object in the shape of `era` (contract 05 §4.4): `resultType` first in the modern
/// era, the serverInfo `_meta` last in both structured eras, unchanged in the reference era.
pub(crate) fn shaped(era: Era, members: Value) -> Value {
    let Value::Object(members) = members else {
        return members;
    };
    let mut result = serde_json::Map::new();
    if era == Era::Modern {
        result.insert("resultType".into(), json!("complete"));
    }
    result.extend(members);
    if era.is_structured() {
        result.insert("_meta".into(), server_info_meta());
    }
    Value::Object(result)
}

/// `tools/list` hands out no cursor, so any cursor a structured-era client sends is invalid
/// (contract 05 §3.3): `-32602`. Absent and `null` mean "the first page".
fn check_cursor(params: Option<&Json>) -> Result<(), RpcError> {
    match params
        .and_then(Json::as_object)
        .and_then(|params| params.get("cursor"))
    {
        None | Some(Json::Null) => Ok(()),
        Some(_) => Err(RpcError::invalid("Invalid cursor")),
    }
}

/// A request is modern when `params._meta` is an object naming a protocol version (§3.1).
fn has_modern_meta(params: Option<&Json>) -> bool {
    meta_of(params).is_some_and(|meta| meta.contains_key(META_VERSION))
}

fn meta_of(params: Option<&Json>) -> Option<&IndexMap<String, Json>> {
    params?.as_object()?.get("_meta")?.as_object()
}

/// The §3.2 checks of a modern request; the era its result shapes follow.
fn modern_era(params: Option<&Json>) -> Result<Era, RpcError> {
    let meta = meta_of(params);
    let version = meta
        .and_then(|meta| meta.get(META_VERSION))
        .and_then(Json::as_str);
    let capabilities = meta
        .and_then(|meta| meta.get(META_CAPABILITIES))
        .and_then(Json::as_object);
    let mut malformed = Vec::new();
    if version.is_none() {
        malformed.push(META_VERSION);
    }
    if capabilities.is_none() {
        malformed.push(META_CAPABILITIES);
    }
    let Some(version) = version.filter(|_| malformed.is_empty()) else {
        return Err(RpcError::MetaMalformed(malformed));
    };
    if !SUPPORTED_VERSIONS.contains(&version) {
        return Err(RpcError::UnsupportedVersion {
            requested: version.to_owned(),
        });
    }
    let era = Era::of_version(version);
    // The log level is a 2026-07-28 `_meta` member (it replaced `logging/setLevel`); requests
    // naming an older version keep the reference's acceptance of anything there.
    if era == Era::Modern
        && let Some(level) = meta.and_then(|meta| meta.get(META_LOG_LEVEL))
        && !level
            .as_str()
            .is_some_and(|level| LOG_LEVELS.contains(&level))
    {
        return Err(RpcError::invalid("Invalid log level"));
    }
    Ok(era)
}

fn success_response(id: &Json, result: &str) -> String {
    let mut writer = envelope(id);
    writer.name("result");
    writer.raw_compact(result);
    writer.end_object();
    writer.finish()
}

fn error_response(id: &Json, error: &RpcError) -> String {
    let (code, message, data) = error.wire();
    let mut writer = envelope(id);
    writer.name("error");
    writer.begin_object();
    writer.name("code");
    // Codes are small integers; the cast is exact.
    writer.number(code as f64);
    writer.name("message");
    writer.str(&message);
    if let Some(data) = data {
        writer.member("data", &data);
    }
    writer.end_object();
    writer.end_object();
    writer.finish()
}

/// `{"jsonrpc":"2.0","id":<id>,` — the id echoed as parsed, written as `JSON.stringify` would.
fn envelope(id: &Json) -> JsonWriter {
    let mut writer = JsonWriter::new(JsonLayout::Compact);
    writer.begin_object();
    writer.name("jsonrpc");
    writer.str("2.0");
    writer.member("id", &id.to_serde_value());
    writer
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(line: &str) -> Option<String> {
        Server::new(PathBuf::from("/nonexistent/aios-for-tests")).handle_line(line.as_bytes())
    }

    #[test]
    fn non_requests_are_ignored() {
        for line in [
            "",
            "   ",
            "null",
            "42",
            "\"x\"",
            "[1,2]",
            "[]",
            "true",
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        ] {
            assert_eq!(answer(line), None, "{line}");
        }
    }

    #[test]
    fn parse_errors_and_envelopes() {
        let parse_error =
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#;
        assert_eq!(answer("{not json").as_deref(), Some(parse_error));
        assert_eq!(
            answer(r#"{"id":7,"method":"ping"}"#).as_deref(),
            Some(r#"{"jsonrpc":"2.0","id":7,"error":{"code":-32600,"message":"Invalid Request"}}"#)
        );
        assert_eq!(
            answer(r#"{"jsonrpc":"2.0","id":"a"}"#).as_deref(),
            Some(
                r#"{"jsonrpc":"2.0","id":"a","error":{"code":-32600,"message":"Invalid Request"}}"#
            )
        );
        for method in ["null", "false", "0", "\"\"", "-0"] {
            let line = format!(r#"{{"jsonrpc":"2.0","id":1,"method":{method}}}"#);
            assert!(answer(&line).unwrap().contains("-32600"), "{line}");
        }
        assert_eq!(
            answer(r#"{"jsonrpc":"2.0","id":3,"method":5}"#).as_deref(),
            Some(
                r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"Method not found: 5"}}"#
            )
        );
        assert_eq!(
            answer(r#"{"jsonrpc":"2.0","id":3,"method":1e400}"#).as_deref(),
            Some(
                r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"Method not found: Infinity"}}"#
            )
        );
    }

    #[test]
    fn ids_echo_as_javascript_would() {
        let cases = [
            ("null", "null"),
            ("12345678901234567890", "12345678901234567000"),
            ("-0", "0"),
            ("1e400", "null"),
            ("1.50", "1.5"),
            (r#"{"b":1,"2":true,"a":[]}"#, r#"{"2":true,"b":1,"a":[]}"#),
            (r#""\ud800""#, "\"\u{FFFD}\""),
        ];
        for (id, echoed) in cases {
            let line = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping"}}"#);
            assert_eq!(
                answer(&line),
                Some(format!(
                    r#"{{"jsonrpc":"2.0","id":{echoed},"result":{{}}}}"#
                )),
                "{id}"
            );
        }
    }

    #[test]
    fn eras() {
        let modern = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;
        assert_eq!(
            answer(&format!(
                r#"{{"jsonrpc":"2.0","id":1,"method":"ping","params":{{{modern}}}}}"#
            ))
            .unwrap(),
            format!(
                r#"{{"jsonrpc":"2.0","id":1,"result":{{"resultType":"complete","_meta":{{"io.modelcontextprotocol/serverInfo":{{"name":"dotaios-mcp","title":"DotAIOS MCP","version":"{}"}}}}}}}}"#,
                lifecycle::SERVER_VERSION
            )
        );
        let inline_legacy = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2025-06-18","io.modelcontextprotocol/clientCapabilities":{}}"#;
        assert_eq!(
            answer(&format!(
                r#"{{"jsonrpc":"2.0","id":1,"method":"ping","params":{{{inline_legacy}}}}}"#
            ))
            .unwrap(),
            r#"{"jsonrpc":"2.0","id":1,"result":{}}"#
        );
        assert_eq!(
            answer(r#"{"jsonrpc":"2.0","id":1,"method":"server/discover"}"#).unwrap(),
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"request _meta is missing or has malformed required fields: io.modelcontextprotocol/protocolVersion, io.modelcontextprotocol/clientCapabilities"}}"#
        );
        assert_eq!(
            answer(r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#).unwrap(),
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"request _meta is missing or has malformed required fields: io.modelcontextprotocol/clientCapabilities"}}"#
        );
        assert_eq!(
            answer(r#"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"1999-01-01","io.modelcontextprotocol/clientCapabilities":{}}}}"#).unwrap(),
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2024-11-05","2025-03-26","2025-06-18","2025-11-25","2026-07-28"],"requested":"1999-01-01"}}}"#
        );
        // A progress token alone does not make a request modern.
        assert_eq!(
            answer(
                r#"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"progressToken":1}}}"#
            )
            .unwrap(),
            r#"{"jsonrpc":"2.0","id":1,"result":{}}"#
        );
        // initialize is always legacy, whatever its _meta says.
        let init = answer(r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2026-07-28","_meta":{"io.modelcontextprotocol/protocolVersion":"1999"}}}"#).unwrap();
        assert!(init.contains(r#""protocolVersion":"2025-11-25""#), "{init}");
    }

    const INIT: &str =
        r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"VERSION"}}"#;

    fn session(version: &str) -> Server {
        let server = Server::new(PathBuf::from("/nonexistent/aios-for-tests"));
        server
            .handle_line(INIT.replace("VERSION", version).as_bytes())
            .unwrap();
        server
    }

    const CALL: &str = r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"read_working_context","arguments":{"budget":20}}}"#;

    /// §3.4: the reference era's answers do not change with an older `initialize`, or none.
    #[test]
    fn the_reference_era_is_unchanged() {
        let fresh = Server::new(PathBuf::from("/nonexistent/aios-for-tests"));
        let list = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":"abc"}}"#;
        let expected_list = fresh.handle_line(list.as_bytes()).unwrap();
        assert!(!expected_list.contains("outputSchema") && !expected_list.contains("_meta"));
        let error = r#"{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"budget must be an integer from 256 to 32000"}}"#;
        assert_eq!(fresh.handle_line(CALL.as_bytes()).unwrap(), error);
        for version in [
            "2024-11-05",
            "2025-03-26",
            "2025-06-18",
            "bogus-version-2025-06-18",
        ] {
            let server = session(if version.starts_with("bogus") {
                "2025-06-18"
            } else {
                version
            });
            assert_eq!(
                server.handle_line(list.as_bytes()).unwrap(),
                expected_list,
                "{version}"
            );
            assert_eq!(
                server.handle_line(CALL.as_bytes()).unwrap(),
                error,
                "{version}"
            );
            assert_eq!(
                server
                    .handle_line(br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#)
                    .unwrap(),
                r#"{"jsonrpc":"2.0","id":1,"result":{}}"#
            );
        }
    }

    /// §3.4, §6.11: after `initialize` at 2025-11-25 an input error is an `isError` result, the
    /// tool list is the structured one, and results carry the serverInfo `_meta`.
    #[test]
    fn a_2025_11_25_session_is_structured() {
        let server = session("2025-11-25");
        let meta = format!(
            r#""_meta":{{"io.modelcontextprotocol/serverInfo":{{"name":"dotaios-mcp","title":"DotAIOS MCP","version":"{}"}}}}"#,
            lifecycle::SERVER_VERSION
        );
        assert_eq!(
            server.handle_line(CALL.as_bytes()).unwrap(),
            format!(
                r#"{{"jsonrpc":"2.0","id":2,"result":{{"content":[{{"type":"text","text":"budget must be an integer from 256 to 32000"}}],"isError":true,{meta}}}}}"#
            )
        );
        let off = server
            .handle_line(br#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"read_working_context","arguments":{"memory":"off"}}}"#)
            .unwrap();
        let off: Value = serde_json::from_str(&off).unwrap();
        let text: Value =
            serde_json::from_str(off["result"]["content"][0]["text"].as_str().unwrap()).unwrap();
        assert_eq!(off["result"]["structuredContent"], text);
        assert_eq!(off["result"]["isError"], false);
        assert!(off["result"].get("resultType").is_none());
        // Unknown tools and non-object arguments stay protocol errors.
        assert_eq!(
            server.handle_line(br#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"log_event"}}"#).unwrap(),
            r#"{"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"Unknown tool: log_event"}}"#
        );
        assert_eq!(
            server.handle_line(br#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"search_aios","arguments":[]}}"#).unwrap(),
            r#"{"jsonrpc":"2.0","id":5,"error":{"code":-32602,"message":"tool arguments must be an object"}}"#
        );
        let list = server
            .handle_line(br#"{"jsonrpc":"2.0","id":6,"method":"tools/list"}"#)
            .unwrap();
        assert!(list.contains("outputSchema") && list.ends_with(&format!("{meta}}}}}")));
        assert_eq!(
            server
                .handle_line(
                    br#"{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{"cursor":"abc"}}"#
                )
                .unwrap(),
            r#"{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"Invalid cursor"}}"#
        );
        assert!(
            server
                .handle_line(
                    br#"{"jsonrpc":"2.0","id":8,"method":"tools/list","params":{"cursor":null}}"#
                )
                .unwrap()
                .contains("outputSchema")
        );
        // A later initialize at an older version returns the process to the reference era.
        server.handle_line(INIT.replace("VERSION", "2025-06-18").as_bytes());
        assert!(
            server
                .handle_line(CALL.as_bytes())
                .unwrap()
                .contains("-32602")
        );
    }

    /// §3.2: a modern request's log level must be a known one.
    #[test]
    fn modern_log_levels_are_checked() {
        let line = |level: &str| {
            format!(
                r#"{{"jsonrpc":"2.0","id":1,"method":"ping","params":{{"_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{{}},"io.modelcontextprotocol/logLevel":{level}}}}}}}"#
            )
        };
        assert!(answer(&line("\"debug\"")).unwrap().contains("resultType"));
        for bad in ["\"loud\"", "3", "null", "\"DEBUG\""] {
            assert_eq!(
                answer(&line(bad)).unwrap(),
                r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Invalid log level"}}"#,
                "{bad}"
            );
        }
    }

    /// §2.8: batches are answered only in a 2025-03-26 session.
    #[test]
    fn batches_in_2025_03_26() {
        let batch = br#"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"},42,{"jsonrpc":"2.0","id":2,"method":"nope"}]"#;
        assert_eq!(answer(std::str::from_utf8(batch).unwrap()), None);
        assert_eq!(session("2025-06-18").handle_line(batch), None);
        assert_eq!(session("2025-11-25").handle_line(batch), None);
        let server = session("2025-03-26");
        assert_eq!(
            server.handle_line(batch).unwrap(),
            r#"[{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}},{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"Method not found: nope"}}]"#
        );
        let invalid =
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}}"#;
        assert_eq!(server.handle_line(b"[]").unwrap(), invalid);
        let long = format!(
            "[{}]",
            [r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#; MAX_BATCH + 1].join(",")
        );
        assert_eq!(server.handle_line(long.as_bytes()).unwrap(), invalid);
        let full = format!(
            "[{}]",
            [r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#; MAX_BATCH].join(",")
        );
        assert_eq!(
            server
                .handle_line(full.as_bytes())
                .unwrap()
                .matches("result")
                .count(),
            MAX_BATCH
        );
        assert_eq!(
            server.handle_line(br#"[{"jsonrpc":"2.0","method":"notifications/initialized"}]"#),
            None
        );
        assert_eq!(
            server
                .handle_line(format!("[{}]", INIT.replace("VERSION", "2025-03-26")).as_bytes())
                .unwrap(),
            r#"[{"jsonrpc":"2.0","id":0,"error":{"code":-32600,"message":"Invalid Request"}}]"#
        );
    }

    #[test]
    fn unknown_methods_are_bounded() {
        let line = format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"{}"}}"#,
            "x".repeat(100)
        );
        assert_eq!(
            answer(&line).unwrap(),
            format!(
                r#"{{"jsonrpc":"2.0","id":1,"error":{{"code":-32601,"message":"Method not found: {}…"}}}}"#,
                "x".repeat(64)
            )
        );
        assert!(
            answer(r#"{"jsonrpc":"2.0","id":1,"method":"resources/list"}"#)
                .unwrap()
                .contains("Method not found: resources/list")
        );
    }

    #[test]
    fn invalid_utf8_is_replaced_not_fatal() {
        let line = b"{\"jsonrpc\":\"2.0\",\"id\":\"\xff\xfe\",\"method\":\"ping\"}";
        let answer = Server::new(PathBuf::from("/x")).handle_line(line).unwrap();
        assert_eq!(
            answer,
            "{\"jsonrpc\":\"2.0\",\"id\":\"\u{FFFD}\u{FFFD}\",\"result\":{}}"
        );
    }
}
