//! `dotaios-mcp`: the optional, read-only DotAIOS MCP adapter over stdio (contract 05).
//!
//! One JSON-RPC request per line in, one response line out, strictly in order. Both MCP eras
//! are served side by side: the handshake era (`initialize`, versions 2024-11-05 … 2025-11-25)
//! and the 2026-07-28 era (`server/discover`, per-request `_meta`). Result shapes follow the
//! request's era (contract 05 §3.4): the reference's bytes for 2025-06-18 and older, and from
//! 2025-11-25 `isError` input errors, `outputSchema`/`structuredContent` and serverInfo `_meta`;
//! the negotiated version is the only thing a process remembers.
//! Three tools are listed and callable: `read_working_context`, `search_aios` and
//! `resolve_skill`; each validates its arguments strictly, honours the memory policy (Off
//! touches nothing), and answers a bounded, path-free, `JSON.stringify`-identical payload
//! computed by `dotaios-core`. In the structured eras the skills are also resources
//! (`resources/list`, `resources/read`), so an agent can read the skill it resolved.
//!
//! Entry points: [`run`] (what both `dotaios-mcp` and `dotaios mcp serve` call), [`Server`]
//! (one line in, one answer out; used by tests and fuzzing), [`serve`] (the framing loop) and
//! [`client::Client`], the small stdio client `dotaios demo`, `dotaios mcp status` and the
//! benchmark speak to an adapter with.
//!
//! **Architecture invariants:**
//! - Only [`transport`](serve) writes protocol output; stderr stays silent after start-up.
//! - The adapter owns the wire: JSON-RPC envelopes, eras, schemas, argument validation, and
//!   the single mapping from errors to JSON-RPC answers (`error.rs`). It never re-implements
//!   the read model: projection, search, skill resolution, the three tool payloads (their
//!   envelopes, sanitisation and budget fit) and their public messages come from
//!   `dotaios-core`.
//! - No request can write to the AIOS folder, print its path, or outlive a panic.
//!
//! See `docs/decisions.md` for why the protocol loop is hand-written rather than built on
//! `rmcp`.
#![cfg_attr(
    test,
    allow(
        clippy::disallowed_methods,
        reason = "unit tests build their folders with std::fs"
    )
)]
#![forbid(unsafe_code)]

pub mod client;
mod echo;
mod error;
mod json;
mod launch;
mod lifecycle;
mod resources;
mod server;
mod tools;
mod transport;

pub use crate::launch::{Environment, Invocation, run, usage};
pub use crate::server::Server;
pub use crate::tools::TOOL_NAMES;
pub use crate::transport::{MAX_LINE_BYTES, serve};
