//! Every error the adapter can answer, and the one place where an error becomes a JSON-RPC code
//! and a public message ([`RpcError::wire`], contract 05 §6.10).
//!
//! **Invariant:** no message here is built from an OS error, a path or file content. Input
//! errors carry the contract's exact text (some of which echo a bounded caller-supplied name,
//! §2.6); every internal failure is one of the two fixed `-32603` texts, chosen by kind, and a
//! fixable folder problem is additionally one of [`FolderProblem`]'s fixed texts, which the
//! structured eras show (§6.12). Core errors are classified here, by [`RpcError::from_core`]
//! over core's `PublicError` (input errors keep core's public message) and by
//! [`FolderProblem::of_code`] over core's internal codes, and never by formatting them
//! elsewhere.

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
    /// `resources/read` of a URI that names no listed skill (contract 05 §7.7): `-32002`, or
    /// `-32602` in the 2026-07-28 era (SEP-2164), with one fixed text that echoes nothing.
    ResourceNotFound {
        /// Whether the code is `-32602` (2026-07-28) rather than `-32002`.
        invalid_params: bool,
    },
    /// Any failure while building the working-context projection.
    ContextUnreadable,
    /// Every other internal failure, including a caught panic.
    Failed,
    /// A folder problem the user can fix (§6.12): in the reference era the internal failure
    /// `fallback` (its fixed `-32603` text, unchanged), in the structured eras an `isError`
    /// result that names the fix.
    Fixable {
        /// What to fix.
        problem: FolderProblem,
        /// [`RpcError::Failed`] or [`RpcError::ContextUnreadable`]: what the reference era answers.
        fallback: Internal,
    },
}

/// The two fixed internal failures of §6.9, as the fallback of [`RpcError::Fixable`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Internal {
    /// `DotAIOS request failed safely.`
    Request,
    /// `DotAIOS could not read working context safely.`
    WorkingContext,
}

/// A failure that is the folder's, not the request's, and that the folder's owner can fix
/// (contract 05 §6.12). Each has one fixed, path-free text that says what to fix and points at
/// `dotaios doctor`; the text names only the fixed layout of contract 01 §2 (`aios.json`,
/// `projects/`, …), never a path of the machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FolderProblem {
    /// `DOTAIOS_PROJECT_CATALOG_INVALID`: a project README with an invalid identity (a stable
    /// id that fails contract 01 §6.3, conflicting or missing ids, broken frontmatter), or, for
    /// the working context, any invalid catalog entry (01 §6.1).
    ProjectIdentity,
    /// `DOTAIOS_EVIDENCE_CONFIG_INVALID`: `aios.json` is not valid JSON, or its `vault_path` is
    /// unusable (contract 03 §3.2).
    Config,
    /// `DOTAIOS_EVIDENCE_PATH_UNSAFE` (search, skills) and `DOTAIOS_UNSAFE_READ_PATH` (working
    /// context): a symbolic link or special file where DotAIOS reads, such as a linked
    /// `context/` (contract 01 §4), or a vault outside the folder; and
    /// `DOTAIOS_EVIDENCE_NOT_REGULAR_FILE`, the special file named like a note that search
    /// refuses (contract 03 §4.5).
    UnsafeLink,
    /// `DOTAIOS_EVIDENCE_INVALID_UTF8` (search, skills) and `DOTAIOS_INVALID_UTF8` (working
    /// context): a file DotAIOS reads is not strict UTF-8 (contract 03 §4.7), which `dotaios
    /// doctor` names (contract 01 §10 check 12).
    NotUtf8,
    /// `DOTAIOS_CONTEXT_SOURCE_TOO_LARGE`: a working-context source over its per-file cap
    /// (contract 01 §5.1), typically a machine-written `memory/events.jsonl`, which `dotaios
    /// doctor` names.
    ContextSourceTooLarge,
}

impl FolderProblem {
    /// The one classification of core's internal codes (contract 05 §6.12): the fixable folder
    /// problem a code stands for, or `None` for a failure that stays internal.
    pub(crate) fn of_code(code: &str) -> Option<FolderProblem> {
        match code {
            "DOTAIOS_PROJECT_CATALOG_INVALID" => Some(FolderProblem::ProjectIdentity),
            "DOTAIOS_EVIDENCE_CONFIG_INVALID" => Some(FolderProblem::Config),
            "DOTAIOS_EVIDENCE_PATH_UNSAFE"
            | "DOTAIOS_UNSAFE_READ_PATH"
            | "DOTAIOS_EVIDENCE_NOT_REGULAR_FILE" => Some(FolderProblem::UnsafeLink),
            "DOTAIOS_EVIDENCE_INVALID_UTF8" | "DOTAIOS_INVALID_UTF8" => {
                Some(FolderProblem::NotUtf8)
            }
            "DOTAIOS_CONTEXT_SOURCE_TOO_LARGE" => Some(FolderProblem::ContextSourceTooLarge),
            _ => None,
        }
    }

    /// The fixed text of the `isError` result (contract 05 §6.12's table).
    pub(crate) const fn message(self) -> &'static str {
        match self {
            FolderProblem::ProjectIdentity => {
                "A project in projects/ has an invalid identity (the one you named, if you named one). Its folder name must be a lowercase slug, its folder and README.md must not be links, and its README.md frontmatter must be valid YAML whose `id` (and `project_id`, if given, equal to it) is a stable id no other project uses: letters, digits, `:`, `.`, `_` or `-`, starting and ending with a letter or digit. Fix that project, then run `dotaios doctor` to check the folder."
            }
            FolderProblem::Config => {
                "aios.json is not valid JSON, or its vault_path is unusable. Fix aios.json; run `dotaios doctor` to see what is wrong."
            }
            FolderProblem::UnsafeLink => {
                "DotAIOS does not follow symbolic links or special files inside the AIOS folder, and one sits where it reads (for example a linked context/, memory/, projects/ or skills/ folder, or a vault_path outside the folder). Replace the link with the real folder or file; run `dotaios doctor` to see which one."
            }
            FolderProblem::NotUtf8 => {
                "A file DotAIOS reads in the AIOS folder is not UTF-8 text (for example a note saved as UTF-16 or Latin-1). Re-save it as UTF-8, or move it out of the folder; run `dotaios doctor` to see which one."
            }
            FolderProblem::ContextSourceTooLarge => {
                "A file the working context reads is over its size limit (for example a memory/events.jsonl over 8 MiB, or a context/ note over 1 MiB). Split it, or move older entries out of it; run `dotaios doctor` to see which one."
            }
        }
    }
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
    /// `-32602`; every other failure is [`RpcError::internal`] of its code (§6.10, §6.12).
    pub(crate) fn from_core(error: &impl PublicError) -> RpcError {
        if error.is_input_error() {
            RpcError::InvalidParams(error.message())
        } else {
            RpcError::internal(error.code(), Internal::Request)
        }
    }

    /// A failure that is not the request's, by core's internal `code`: a fixable folder
    /// problem ([`FolderProblem::of_code`]) keeps `fallback` for the reference era; anything
    /// else is `fallback` itself, a fixed `-32603` text.
    pub(crate) fn internal(code: &str, fallback: Internal) -> RpcError {
        match FolderProblem::of_code(code) {
            Some(problem) => RpcError::Fixable { problem, fallback },
            None => fallback.into(),
        }
    }

    /// The text of the `isError` tool result the structured eras answer this failure of a
    /// known tool with, if they do: the caller's own mistakes (an argument, selector, budget or
    /// the missing folder) with their `-32602` message (contract 05 §6.11), and fixable folder
    /// problems with their fix (§6.12). Every other failure stays a JSON-RPC error.
    pub(crate) fn tool_error_text(&self) -> Option<Cow<'static, str>> {
        match self {
            RpcError::InvalidParams(_) | RpcError::NoFolder => Some(self.wire().1),
            RpcError::Fixable { problem, .. } => Some(Cow::Borrowed(problem.message())),
            _ => None,
        }
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
            RpcError::ResourceNotFound { invalid_params } => (
                if *invalid_params { -32602 } else { -32002 },
                Cow::Borrowed("Resource not found"),
                None,
            ),
            RpcError::ContextUnreadable => (-32603, Cow::Borrowed(READ_FAILED_MESSAGE), None),
            RpcError::Failed => (-32603, Cow::Borrowed(INTERNAL_FAILURE_MESSAGE), None),
            RpcError::Fixable { fallback, .. } => RpcError::from(*fallback).wire(),
        }
    }
}

impl From<Internal> for RpcError {
    fn from(internal: Internal) -> RpcError {
        match internal {
            Internal::Request => RpcError::Failed,
            Internal::WorkingContext => RpcError::ContextUnreadable,
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

    /// §6.12: the three fixable codes, and only they, become folder problems; on the wire (the
    /// reference era) each keeps its fallback's fixed `-32603` text, and each problem's
    /// `isError` text names its fix, `dotaios doctor`, and no path.
    #[test]
    fn fixable_folder_problems() {
        let cases = [
            (
                "DOTAIOS_PROJECT_CATALOG_INVALID",
                Some(FolderProblem::ProjectIdentity),
            ),
            (
                "DOTAIOS_EVIDENCE_CONFIG_INVALID",
                Some(FolderProblem::Config),
            ),
            (
                "DOTAIOS_EVIDENCE_PATH_UNSAFE",
                Some(FolderProblem::UnsafeLink),
            ),
            ("DOTAIOS_UNSAFE_READ_PATH", Some(FolderProblem::UnsafeLink)),
            (
                "DOTAIOS_EVIDENCE_NOT_REGULAR_FILE",
                Some(FolderProblem::UnsafeLink),
            ),
            (
                "DOTAIOS_EVIDENCE_INVALID_UTF8",
                Some(FolderProblem::NotUtf8),
            ),
            ("DOTAIOS_INVALID_UTF8", Some(FolderProblem::NotUtf8)),
            (
                "DOTAIOS_CONTEXT_SOURCE_TOO_LARGE",
                Some(FolderProblem::ContextSourceTooLarge),
            ),
            ("DOTAIOS_EVIDENCE_CHANGED", None),
            ("DOTAIOS_EVIDENCE_READ_FAILED", None),
            ("DOTAIOS_EVIDENCE_FILE_TOO_LARGE", None),
            ("DOTAIOS_BUDGET_UNSTABLE", None),
        ];
        for (code, problem) in cases {
            assert_eq!(FolderProblem::of_code(code), problem, "{code}");
            for fallback in [Internal::Request, Internal::WorkingContext] {
                let error = RpcError::internal(code, fallback);
                assert_eq!(error.wire(), RpcError::from(fallback).wire(), "{code}");
                assert_eq!(
                    error.tool_error_text().as_deref(),
                    problem.map(FolderProblem::message),
                    "{code}"
                );
            }
        }
        for problem in [
            FolderProblem::ProjectIdentity,
            FolderProblem::Config,
            FolderProblem::UnsafeLink,
        ] {
            let text = problem.message();
            assert!(text.contains("run `dotaios doctor`"), "{text}");
            assert!(!text.contains("/home") && !text.contains('\\'), "{text}");
        }
        assert_eq!(RpcError::Failed.tool_error_text(), None);
        assert_eq!(RpcError::ContextUnreadable.tool_error_text(), None);
        assert_eq!(
            RpcError::NoFolder.tool_error_text().as_deref(),
            Some(NO_FOLDER_MESSAGE)
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
            RpcError::internal("DOTAIOS_EVIDENCE_CONFIG_INVALID", Internal::Request),
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
