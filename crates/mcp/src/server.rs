//! One line in, at most one response line out (contract 05 §2.3–§3.3): parse, ignore non-requests,
//! check the envelope, classify the era, check modern `_meta`, dispatch.
//!
//! **Invariant:** stateless and total. The one thing kept between requests is the search
//! content cache of contract 03 §19.2, which never changes an answer (each use is validated
//! against the file's current identity). [`Server::handle_line`] answers every request line with
//! exactly one compact JSON-RPC object and every other line with nothing; a panic inside a
//! request is caught and answered with the fixed `-32603` message. It never writes anywhere:
//! the transport owns stdout.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::sync::Arc;

use dotaios_core::search::SearchCache;
use dotaios_core::text::{JsonLayout, JsonWriter, js_trim};
use indexmap::IndexMap;
use jiff::tz::TimeZone;
use serde_json::{Value, json};

use crate::error::RpcError;
use crate::json::{self, Json};
use crate::lifecycle::{self, MODERN_VERSION, SUPPORTED_VERSIONS};
use crate::tools;

const META_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
const META_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";

/// The adapter for one configured AIOS folder. Cheap to build; holds no per-request state
/// beyond the search content cache (clones share it).
#[derive(Debug, Clone)]
pub struct Server {
    folder: PathBuf,
    /// The process time zone (honouring `TZ`), read once: it defines "today".
    time_zone: TimeZone,
    /// File texts kept between `search_aios` calls (contract 03 §19.2); `None` searches uncached.
    cache: Option<Arc<SearchCache>>,
}

/// Which result shapes a request gets (contract 05 §3.2, §4.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Era {
    /// Handshake-era shapes (also for modern `_meta` naming a handshake-era version).
    Legacy,
    /// 2026-07-28 shapes: `resultType` on every result, cache hints where cacheable.
    Modern,
}

impl Server {
    /// An adapter for the AIOS folder at `folder` (absolute). The folder is not checked here:
    /// each tool call checks it after validation and the Off short-circuit.
    pub fn new(folder: PathBuf) -> Server {
        Server {
            folder,
            time_zone: TimeZone::system(),
            cache: Some(Arc::new(SearchCache::new())),
        }
    }

    /// [`Server::new`] without the search content cache: every `search_aios` call reads
    /// every file. Answers are byte-identical to a cached server's; tests compare the two.
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
        let Json::Object(request) = value else {
            return None;
        };
        let id = request.get("id")?;
        let outcome = catch_unwind(AssertUnwindSafe(|| self.handle_request(&request)))
            .unwrap_or(Err(RpcError::Failed));
        Some(match outcome {
            Ok(result) => success_response(id, &result),
            Err(error) => error_response(id, &error),
        })
    }

    /// The answer to a line that was too long to buffer: like an unparseable line.
    pub fn oversized_line(&self) -> String {
        error_response(&Json::Null, &RpcError::Parse)
    }

    fn handle_request(&self, request: &IndexMap<String, Json>) -> Result<Value, RpcError> {
        let version_ok = request.get("jsonrpc").and_then(Json::as_str) == Some("2.0");
        let method = request.get("method").filter(|method| method.is_truthy());
        let (true, Some(method)) = (version_ok, method) else {
            return Err(RpcError::InvalidRequest);
        };
        let params = request.get("params");
        let name = method.as_str();
        let era = match name {
            Some("initialize") => Era::Legacy,
            Some("server/discover") => modern_era(params)?,
            _ if has_modern_meta(params) => modern_era(params)?,
            _ => Era::Legacy,
        };
        match name {
            Some("initialize") => {
                let requested = params
                    .and_then(Json::as_object)
                    .and_then(|params| params.get("protocolVersion"))
                    .and_then(Json::as_str);
                Ok(lifecycle::initialize_result(requested))
            }
            Some("server/discover") => Ok(lifecycle::discover_result()),
            Some("ping") => Ok(match era {
                Era::Legacy => json!({}),
                Era::Modern => json!({"resultType": "complete"}),
            }),
            Some("tools/list") => Ok(match era {
                Era::Legacy => json!({"tools": tools::schema::tools()}),
                Era::Modern => json!({
                    "resultType": "complete",
                    "tools": tools::schema::tools(),
                    "ttlMs": 0,
                    "cacheScope": "public",
                }),
            }),
            Some("tools/call") => {
                let text =
                    tools::call(&self.folder, &self.time_zone, self.cache.as_deref(), params)?;
                Ok(tools::call_result(era, text))
            }
            _ => Err(RpcError::MethodNotFound(crate::echo::js_string(Some(
                method,
            )))),
        }
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
    Ok(if version == MODERN_VERSION {
        Era::Modern
    } else {
        Era::Legacy
    })
}

fn success_response(id: &Json, result: &Value) -> String {
    let mut writer = envelope(id);
    writer.member("result", result);
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
            r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete"}}"#
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
