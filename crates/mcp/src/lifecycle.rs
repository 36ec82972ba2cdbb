//! The lifecycle results of both eras (contract 05 §3, §4): protocol versions, the legacy
//! `initialize` handshake, the modern `server/discover`, and `ping`.
//!
//! **Invariant:** stateless. Nothing here remembers an earlier request; `initialize` may come
//! any number of times, or never.

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

fn server_info() -> Value {
    json!({"name": "dotaios-mcp", "title": "DotAIOS MCP", "version": SERVER_VERSION})
}

/// The version answered to an `initialize` asking for `requested` (§4.1).
pub(crate) fn negotiate(requested: Option<&str>) -> &'static str {
    SUPPORTED_VERSIONS[..4]
        .iter()
        .find(|version| Some(**version) == requested)
        .copied()
        .unwrap_or(LATEST_LEGACY_VERSION)
}

/// The `initialize` result.
pub(crate) fn initialize_result(requested: Option<&str>) -> Value {
    json!({
        "protocolVersion": negotiate(requested),
        "capabilities": {"tools": {}},
        "serverInfo": server_info(),
        "instructions": INSTRUCTIONS,
    })
}

/// The `server/discover` result (the same whichever supported version the request names).
pub(crate) fn discover_result() -> Value {
    json!({
        "resultType": "complete",
        "supportedVersions": SUPPORTED_VERSIONS,
        "capabilities": {"tools": {}},
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
        let discover = discover_result();
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
