//! The DotAIOS read model.
//!
//! `dotaios-core` turns what the contained reader (`dotaios-contained`) returns into the
//! DotAIOS model and its projections. It is pure logic over that reader:
//!
//! - [`folder`]: location rules, `aios.json`, migration inspection, projects and selectors,
//!   attribution, memory policy and receipts.
//! - [`text`]: JavaScript-compatible text rules (UTF-16 lengths and cuts, JS trim,
//!   `JSON.stringify`-identical output, collation).
//! - [`context`]: the working-context projection (`brief --compact`, `read_working_context`).
//! - [`search`]: scopes, matching, ranking, omissions (`search`, `search_aios`).
//! - [`skills`]: the skill catalog, resolver and `resolve_skill` payload.
//! - [`request`]: the typed values a surface checks once and core takes (`Budget`, `Limit`,
//!   `Selector`, `ScopeRequest`) with their bounds and defaults.
//! - [`sanitize`]: the one result sanitiser of the tool payloads (contract 05 §9).
//! - [`budget`]: the shared budget-fitting algorithm of the tool payloads.
//! - [`doctor`]: the read-only health report.
//! - [`error`]: the public-error vocabulary every surface maps at its one boundary.
//!
//! **Architecture invariant:** this crate performs no I/O except through
//! `dotaios_contained::Root` (and the existence-only folder check, `folder::check`), reads no
//! environment variable and never sees JSON-RPC. Binaries
//! pass the home directory and `DOTAIOS_PATH` in. Nothing here can write to the folder.
#![cfg_attr(
    test,
    allow(
        clippy::disallowed_methods,
        reason = "unit tests build their folders with std::fs"
    )
)]
#![forbid(unsafe_code)]

pub mod budget;
pub mod context;
pub mod doctor;
pub mod error;
pub mod folder;
pub mod request;
mod run_again;
pub mod sanitize;
pub mod search;
pub mod skills;
pub mod text;
