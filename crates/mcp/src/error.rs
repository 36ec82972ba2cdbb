//! Every error the adapter can answer, and the one place where an error becomes a JSON-RPC code
//! and a public message ([`RpcError::wire`], contract 05 §6.10).
//!
//! **Invariant:** no message here is built from an OS error, a path or file content. Input
//! errors carry the contract's exact text (some of which echo a bounded caller-supplied name,
//! §2.6); every internal failure is one of the two fixed `-32603` texts, chosen by kind. Core
//! errors are classified here, by [`RpcError::from_core`] over core's `PublicError` (input
//! errors keep core's public message), and never by formatting them elsewhere.

use std::borrow::Cow;
use std::fmt;

use dotaios_core::context::READ_FAILED_MESSAGE;
use dotaios_core::error::{INTERNAL_FAILURE_MESSAGE, NO_FOLDER_MESSAGE, PublicError};
use serde_json::{Value, json};

use crate::echo::bounded;
use crate::lifecycle::SUPPORTED_VERSIONS;

/// A JSON-RPC error answer. Its `Display` is the public message of [`RpcError::wire`], the
/// one source of every text here.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum RpcError {
    /// The line is not JSON (`-32700`, answered with `id: null`).
    Parse,
    /// A request object without `"jsonrpc":"2.0"` or without a truthy `method`.
    InvalidRequest,
    /// No such method; carries the method already converted by JavaScript's `String()`.
    MethodNotFound(String),
    /// `tools/call` naming no known tool; carries the name already converted by `String()`.
    UnknownTool(String),
    /// A modern request whose `_meta` lacks or mistypes required members (names in order).
    MetaMalformed(Vec<&'static str>),
    /// A modern request naming a protocol version this adapter does not speak.
    UnsupportedVersion {
        /// The version the client asked for.
        requested: String,
    },
    /// Invalid tool input (`-32602`) with its exact catalogue message.
    InvalidParams(Cow<'static, str>),
    /// The configured path holds no `aios.json` (contract 05 §6.7), answered as `-32602`.
    NoFolder,
    /// Any failure while building the working-context projection.
    ContextUnreadable,
    /// Every other internal failure, including a caught panic.
    Failed,
}

impl RpcError {
    /// `-32602` with a fixed catalogue message.
    pub(crate) const fn invalid(message: &'static str) -> RpcError {
        RpcError::InvalidParams(Cow::Borrowed(message))
    }

    /// `-32602` with a message assembled from catalogue parts (names, bounds, a bounded echo).
    pub(crate) fn invalid_owned(message: String) -> RpcError {
        RpcError::InvalidParams(Cow::Owned(message))
    }

    /// A core error at this one boundary: an input error keeps its public message as
    /// `-32602`; every internal failure becomes the fixed `-32603` text (§6.10).
    pub(crate) fn from_core(error: &impl PublicError) -> RpcError {
        if error.is_input_error() {
            RpcError::InvalidParams(error.message())
        } else {
            RpcError::Failed
        }
    }

    /// Whether a known tool's failure is the caller's to correct (an argument, selector, budget
    /// or missing-folder error), which the structured eras answer as an `isError` tool result
    /// carrying the same message (contract 05 §6.11). Internal failures stay `-32603`.
    pub(crate) fn is_tool_input(&self) -> bool {
        matches!(self, RpcError::InvalidParams(_) | RpcError::NoFolder)
    }

    /// The JSON-RPC `error` member: code, public message and, for `-32022` only, `data`.
    pub(crate) fn wire(&self) -> (i64, Cow<'static, str>, Option<Value>) {
        match self {
            RpcError::Parse => (-32700, Cow::Borrowed("Parse error"), None),
            RpcError::InvalidRequest => (-32600, Cow::Borrowed("Invalid Request"), None),
            RpcError::MethodNotFound(method) => (
                -32601,
                Cow::Owned(format!("Method not found: {}", bounded(method))),
                None,
            ),
            RpcError::UnknownTool(name) => (
                -32602,
                Cow::Owned(format!("Unknown tool: {}", bounded(name))),
                None,
            ),
            RpcError::MetaMalformed(names) => (
                -32602,
                Cow::Owned(format!(
                    "request _meta is missing or has malformed required fields: {}",
                    names.join(", ")
                )),
                None,
            ),
            RpcError::UnsupportedVersion { requested } => (
                -32022,
                Cow::Borrowed("Unsupported protocol version"),
                Some(json!({
                    "supported": SUPPORTED_VERSIONS,
                    "requested": bounded(requested),
                })),
            ),
            RpcError::InvalidParams(message) => (-32602, message.clone(), None),
            RpcError::NoFolder => (-32602, Cow::Borrowed(NO_FOLDER_MESSAGE), None),
            RpcError::ContextUnreadable => (-32603, Cow::Borrowed(READ_FAILED_MESSAGE), None),
            RpcError::Failed => (-32603, Cow::Borrowed(INTERNAL_FAILURE_MESSAGE), None),
        }
    }
}

impl fmt::Display for RpcError {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(&self.wire().1)
    }
}

impl std::error::Error for RpcError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_and_fixed_messages() {
        assert_eq!(RpcError::Parse.wire().0, -32700);
        assert_eq!(RpcError::InvalidRequest.wire().1, "Invalid Request");
        assert_eq!(
            RpcError::MethodNotFound("x".repeat(100)).wire().1,
            format!("Method not found: {}…", "x".repeat(64))
        );
        assert_eq!(
            RpcError::MetaMalformed(vec!["a", "b"]).wire().1,
            "request _meta is missing or has malformed required fields: a, b"
        );
        let (code, message, data) = RpcError::UnsupportedVersion {
            requested: "1999-01-01".into(),
        }
        .wire();
        assert_eq!(
            (code, message.as_ref()),
            (-32022, "Unsupported protocol version")
        );
        assert_eq!(
            data.unwrap().to_string(),
            r#"{"supported":["2024-11-05","2025-03-26","2025-06-18","2025-11-25","2026-07-28"],"requested":"1999-01-01"}"#
        );
        assert_eq!(RpcError::Failed.wire().1, "DotAIOS request failed safely.");
        assert_eq!(
            RpcError::ContextUnreadable.wire().1,
            "DotAIOS could not read working context safely."
        );
    }

    #[test]
    fn display_is_the_wire_message() {
        for error in [
            RpcError::Parse,
            RpcError::InvalidRequest,
            RpcError::MethodNotFound("tools/lst".into()),
            RpcError::UnknownTool("x".repeat(100)),
            RpcError::MetaMalformed(vec!["a", "b"]),
            RpcError::UnsupportedVersion {
                requested: "1999-01-01".into(),
            },
            RpcError::invalid("query is required"),
            RpcError::NoFolder,
            RpcError::ContextUnreadable,
            RpcError::Failed,
        ] {
            assert_eq!(error.to_string(), error.wire().1, "{error:?}");
        }
        assert_eq!(
            RpcError::MethodNotFound("tools/lst".into()).to_string(),
            "Method not found: tools/lst"
        );
        assert_eq!(RpcError::NoFolder.to_string(), NO_FOLDER_MESSAGE);
    }
}
