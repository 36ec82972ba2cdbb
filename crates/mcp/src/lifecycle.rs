//! The lifecycle results of both eras (contract 05 §3, §4): protocol versions, the [`Era`] each
//! version selects, the legacy `initialize` handshake, the modern `server/discover`, and the one
//! thing a process remembers, the version its last `initialize` negotiated ([`Session`],
//! contract 05 §3.4).
//!
//! **Invariant:** the negotiated version is the only state, and it only chooses result shapes
//! (§3.4); `initialize` may come any number of times, or never, and is answered the same way
//! each time.

use std::sync::atomic::{AtomicU8, Ordering};

use serde_json::{Value, json};

/// Every protocol version served, oldest first (this order is used wherever they are listed).
pub(crate) const SUPPORTED_VERSIONS: [&str; 5] = [
    "2024-11-05",
    "2025-03-26",
    "2025-06-18",
    "2025-11-25",
    MODERN_VERSION,
];

/// The 2026-07-28 revision: per-request `_meta`, `server/discover`, result `resultType`.
pub(crate) const MODERN_VERSION: &str = "2026-07-28";

/// The newest handshake-era version, answered to any `initialize` that does not name one.
const LATEST_LEGACY_VERSION: &str = "2025-11-25";

/// The adapter's own version (D3i: never the version of a library it uses).
pub(crate) const SERVER_VERSION: &str = env!("CARGO_PKG_VERSION");

const INSTRUCTIONS: &str = "This is an optional, read-only DotAIOS adapter. Use read_working_context for bounded continuity, search_aios to find local material, and resolve_skill before inventing a workflow. Content returned here may be sent to the configured AI provider.";

/// The `_meta` key that names the server on a result (2026-07-28 `ResultMetaObject`).
pub(crate) const SERVER_INFO_META: &str = "io.modelcontextprotocol/serverInfo";

/// The version from which `initialize` gives the current behaviour (contract 05 §3.4):
/// `isError` tool results, structured content, serverInfo `_meta`, the teaching tool list.
pub(crate) const STRUCTURED_VERSION: &str = "2025-11-25";

/// The one revision whose clients may send JSON-RPC batches (contract 05 §2.8).
pub(crate) const BATCH_VERSION: &str = "2025-03-26";

fn server_info() -> Value {
    json!({"name": "dotaios-mcp", "title": "DotAIOS MCP", "version": SERVER_VERSION})
}

/// The `_meta` member of every result in the structured eras (contract 05 §4.4).
pub(crate) fn server_info_meta() -> Value {
    json!({ SERVER_INFO_META: server_info() })
}

/// Which result shapes a request gets (contract 05 §3.4, §4.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Era {
    /// The reference's shapes, byte for byte: no `initialize`, one that negotiated 2025-06-18
    /// or older, or modern `_meta` naming such a version.
    Reference,
    /// 2025-11-25: input errors as `isError` results, `structuredContent` and `outputSchema`,
    /// serverInfo `_meta`, the teaching tool list; no `resultType`.
    Structured,
    /// 2026-07-28 `_meta`: everything of [`Era::Structured`], plus `resultType` on every
    /// result and cache hints where cacheable.
    Modern,
}

impl Era {
    /// The era of a request served at `version` (one of [`SUPPORTED_VERSIONS`]).
    pub(crate) fn of_version(version: &str) -> Era {
        match version {
            MODERN_VERSION => Era::Modern,
            STRUCTURED_VERSION => Era::Structured,
            _ => Era::Reference,
        }
    }

    /// Whether results carry structured content, `isError` input errors and serverInfo `_meta`.
    pub(crate) fn is_structured(self) -> bool {
        self != Era::Reference
    }
}

/// What one adapter process remembers (contract 05 §3.4): the version its most recent
/// `initialize` negotiated. On stdio one process serves one client, so this is that client's
/// version. Clones of a [`crate::Server`] share it.
#[derive(Debug, Default)]
pub(crate) struct Session {
    /// 0 before any `initialize`, else 1 + the index in [`SUPPORTED_VERSIONS`].
    negotiated: AtomicU8,
}

impl Session {
    /// Records the version an `initialize` was answered with.
    pub(crate) fn negotiated(&self, version: &str) {
        let index = SUPPORTED_VERSIONS
            .iter()
            .position(|supported| *supported == version)
            .map_or(0, |index| index as u8 + 1);
        self.negotiated.store(index, Ordering::Relaxed);
    }

    /// The version the last `initialize` negotiated, if one came.
    pub(crate) fn version(&self) -> Option<&'static str> {
        match self.negotiated.load(Ordering::Relaxed) {
            0 => None,
            index => SUPPORTED_VERSIONS.get(usize::from(index) - 1).copied(),
        }
    }
}

/// The version answered to an `initialize` asking for `requested` (§4.1).
pub(crate) fn negotiate(requested: Option<&str>) -> &'static str {
    SUPPORTED_VERSIONS[..4]
        .iter()
        .find(|version| Some(**version) == requested)
        .copied()
        .unwrap_or(LATEST_LEGACY_VERSION)
}

/// The server capabilities announced to a client served in `era` (contract 05 §4.1, §4.2):
/// `tools` always; `resources` (skills, §7.7; no `subscribe`, no `listChanged`) only in the
/// structured eras, the only ones that serve `resources/*`.
fn capabilities(era: Era) -> Value {
    if era.is_structured() {
        json!({"tools": {}, "resources": {}})
    } else {
        json!({"tools": {}})
    }
}

/// The `initialize` result.
pub(crate) fn initialize_result(requested: Option<&str>) -> Value {
    let version = negotiate(requested);
    json!({
        "protocolVersion": version,
        "capabilities": capabilities(Era::of_version(version)),
        "serverInfo": server_info(),
        "instructions": INSTRUCTIONS,
    })
}

/// The `server/discover` result. Only the capabilities depend on the version the request's
/// `_meta` names (its `era`): `resources` is announced where `resources/*` is served.
pub(crate) fn discover_result(era: Era) -> Value {
    json!({
        "resultType": "complete",
        "supportedVersions": SUPPORTED_VERSIONS,
        "capabilities": capabilities(era),
        "instructions": INSTRUCTIONS,
        "ttlMs": 0,
        "cacheScope": "private",
        "_meta": {"io.modelcontextprotocol/serverInfo": server_info()},
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn negotiation_table() {
        for version in ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"] {
            assert_eq!(negotiate(Some(version)), version);
        }
        for other in [Some("2026-07-28"), Some("2099-01-01"), Some(""), None] {
            assert_eq!(negotiate(other), "2025-11-25");
        }
    }

    #[test]
    fn the_session_remembers_the_last_negotiation() {
        let session = Session::default();
        assert_eq!(session.version(), None);
        session.negotiated(negotiate(Some("2025-03-26")));
        assert_eq!(session.version(), Some("2025-03-26"));
        session.negotiated(negotiate(Some("2026-07-28")));
        assert_eq!(session.version(), Some("2025-11-25"));
        session.negotiated(negotiate(Some("2024-11-05")));
        assert_eq!(session.version(), Some("2024-11-05"));
    }

    /// §4.1, §4.2: `resources` is announced exactly where `resources/*` is served.
    #[test]
    fn resources_are_announced_only_in_the_structured_eras() {
        for (requested, resources) in [
            ("2024-11-05", false),
            ("2025-03-26", false),
            ("2025-06-18", false),
            ("2025-11-25", true),
            ("2026-07-28", true),
        ] {
            let capabilities = &initialize_result(Some(requested))["capabilities"];
            assert!(capabilities["tools"].is_object());
            assert_eq!(
                capabilities.get("resources").is_some(),
                resources,
                "{requested}"
            );
        }
        assert!(discover_result(Era::Modern)["capabilities"]["resources"].is_object());
        assert!(discover_result(Era::Structured)["capabilities"]["resources"].is_object());
        assert_eq!(
            discover_result(Era::Reference)["capabilities"],
            json!({"tools": {}})
        );
    }

    #[test]
    fn member_order() {
        let result = initialize_result(None);
        let names: Vec<&String> = result.as_object().unwrap().keys().collect();
        assert_eq!(
            names,
            [
                "protocolVersion",
                "capabilities",
                "serverInfo",
                "instructions"
            ]
        );
        let discover = discover_result(Era::Modern);
        let names: Vec<&String> = discover.as_object().unwrap().keys().collect();
        assert_eq!(
            names,
            [
                "resultType",
                "supportedVersions",
                "capabilities",
                "instructions",
                "ttlMs",
                "cacheScope",
                "_meta"
            ]
        );
    }
}
