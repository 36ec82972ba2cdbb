//! Search over the AIOS folder (contract 03) behind `dotaios search` and the MCP tool
//! `search_aios`.
//!
//! One entry point, [`search`], serves both surfaces. It takes a [`SearchRequest`] (query,
//! scope, per-scope limit, resolved memory policy, session filters, clock) and returns a
//! [`SearchOutcome`]: result groups in declared scope order, omission records for scopes that
//! could not be searched whole, and the scope metadata. The CLI renders it as text; the adapter
//! asks it for its bounded `search_aios` text ([`SearchOutcome::mcp_payload`], `payload.rs`:
//! flattened, sanitised, fitted), and in Off mode for [`off_mcp_payload`].
//!
//! How a request runs (§14): every scope is inspected (directories listed, files `statx`ed, all
//! charged to one request ledger under fair phase budgets), a preliminary allocation admits
//! scopes whole or omits them whole, the admitted memory and sessions scopes read their JSONL,
//! a final allocation settles the rest, the admitted scopes are read and ranked, and every
//! observed file and directory is checked again before anything is returned.
//!
//! Module map: [`matcher`](self) normalises queries and decides the wire `match` kind,
//! `relevance` analyses text and scores (BM25F), `markdown` makes snippets, `clock` holds the
//! request clock and reads `ts` values against it, `jsonl` the memory entries,
//! `sessions` the session index, `allocation` the fair-share arithmetic, `walk` the name rules,
//! `engine` the phases over the contained reader, `payload` the `search_aios` text.
//!
//! **Invariants:** nothing is written, anywhere, ever: no index, cache or temporary file. The
//! only memory kept between requests is a server's optional in-process [`SearchCache`] (§19.2),
//! which [`search`] never uses.
//! Every read goes through `dotaios_contained::Root`. No result, omission or error carries an
//! absolute path. Results never depend on thread scheduling or directory order: the reported
//! failure is the first in enumeration order, ties fall back to collation and then bytes.

mod allocation;
#[doc(hidden)]
pub mod bounds;
mod cache;
#[cfg(test)]
mod cache_oracle_tests;
#[cfg(test)]
mod cache_tests;
mod clock;
mod engine;
mod error;
mod hit;
mod jsonl;
mod markdown;
mod matcher;
mod omission;
mod payload;
pub(crate) mod relevance;
mod sessions;
#[cfg(test)]
mod streamed_tests;
#[cfg(test)]
mod tests;
mod unicode;
pub(crate) mod walk;
mod window;

use std::path::Path;

use crate::folder::memory::MemoryMode;
use crate::request::{Limit, Selector};

pub use self::cache::{DEFAULT_CAP_BYTES, SearchCache};
pub use self::clock::Clock;
pub use self::error::{EvidenceError, SearchError};
pub use self::hit::MatchKind;
pub use self::hit::{Area, MarkdownHit, MemoryHit, SearchHit, SessionHit, SessionSnippet, Snippet};
pub use self::jsonl::{ProjectIdentity, truncate};
pub use self::matcher::query_terms;
pub use self::omission::{
    Counts, Omission, OmissionCause, OmissionReason, SkippedFile, Unreadable,
};
pub use self::payload::{QUERY_MARKER, off_mcp_payload};
pub use self::relevance::explain::{
    BonusExplanation, Explanation, FieldExplanation, TermExplanation,
};
pub use self::sessions::SessionFilters;
pub use self::window::SnippetForm;

/// The per-file size ceiling, 4 MiB (§13).
pub const MAX_FILE_BYTES: u64 = 4 * 1024 * 1024;
/// The per-directory entry ceiling (§13).
pub const MAX_DIRECTORY_ENTRIES: u64 = 8192;
/// The request ceilings (§13): 50,000 files, 256 MiB, 500,000 entries.
pub const REQUEST_LIMITS: Counts = Counts {
    files: 50_000,
    bytes: 256 * 1024 * 1024,
    entries: 500_000,
};
/// The largest `aios.json` search reads (§3.2): the one bound of every `aios.json` read.
pub const MAX_CONFIG_BYTES: u64 = crate::folder::config::CONFIG_CAP;

/// A logical scope.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Scope {
    /// `memory/sessions/index.jsonl` and the bodies it references.
    Sessions,
    /// `context/**`.
    Context,
    /// The JSONL streams, `memory/daily/**` and `memory/inbox/**`.
    Memory,
    /// The vault directory.
    Vault,
    /// `projects/<slug>/**` of the selected project.
    Projects,
    /// `decisions/**`.
    Decisions,
    /// `skills/**`.
    Skills,
    /// `references/**`.
    References,
    /// `plugins/**` Markdown and `manifest.json`.
    Plugins,
}

impl Scope {
    /// The eight scopes of Shared `all`, in declared order (§2.2).
    pub const SHARED_ALL: [Scope; 8] = [
        Scope::Sessions,
        Scope::Context,
        Scope::Memory,
        Scope::Vault,
        Scope::Decisions,
        Scope::Skills,
        Scope::References,
        Scope::Plugins,
    ];

    /// The three scopes of Project `all`, in declared order (§2.3).
    pub const PROJECT_ALL: [Scope; 3] = [Scope::Sessions, Scope::Memory, Scope::Projects];

    /// The scope's name (§2.1).
    pub const fn as_str(self) -> &'static str {
        match self {
            Scope::Sessions => "sessions",
            Scope::Context => "context",
            Scope::Memory => "memory",
            Scope::Vault => "vault",
            Scope::Projects => "projects",
            Scope::Decisions => "decisions",
            Scope::Skills => "skills",
            Scope::References => "references",
            Scope::Plugins => "plugins",
        }
    }
}

/// The requested scope: one scope or `all`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScopeRequest {
    /// Every scope of the memory mode.
    All,
    /// Exactly one scope.
    One(Scope),
}

impl ScopeRequest {
    /// Every accepted request in the order of §2.1: the one table the names, the CLI's usage
    /// and error lines, and the adapter's input schema and `scope` error message come from.
    pub const ACCEPTED: [ScopeRequest; 10] = [
        ScopeRequest::One(Scope::Memory),
        ScopeRequest::One(Scope::Vault),
        ScopeRequest::One(Scope::Context),
        ScopeRequest::One(Scope::Projects),
        ScopeRequest::One(Scope::Decisions),
        ScopeRequest::One(Scope::Skills),
        ScopeRequest::One(Scope::References),
        ScopeRequest::One(Scope::Plugins),
        ScopeRequest::One(Scope::Sessions),
        ScopeRequest::All,
    ];

    /// The accepted names in the order of §2.1 ([`ScopeRequest::ACCEPTED`]'s names).
    pub const NAMES: [&'static str; 10] = {
        let mut names = [""; 10];
        let mut index = 0;
        while index < names.len() {
            names[index] = ScopeRequest::ACCEPTED[index].as_str();
            index += 1;
        }
        names
    };

    /// Whether this request lacks the project it needs: `projects` searches one project's
    /// files, so it needs a selected project (contract 03 §2.2, 05 §6.3). The adapter's
    /// validator (on the raw `project` argument) and [`check_request`] (on the Project-mode
    /// selector) both ask this; each answers with its own surface's message.
    pub fn needs_project(self, project: Option<&str>) -> bool {
        self == ScopeRequest::One(Scope::Projects) && project.is_none()
    }

    /// Parses one of the ten names of §2.1 (exactly, no trimming).
    pub fn parse(name: &str) -> Option<ScopeRequest> {
        ScopeRequest::ACCEPTED
            .into_iter()
            .find(|request| request.as_str() == name)
    }

    /// The name.
    pub const fn as_str(self) -> &'static str {
        match self {
            ScopeRequest::All => "all",
            ScopeRequest::One(scope) => scope.as_str(),
        }
    }
}

/// One search request. The memory policy has already been resolved (and Off handled or not,
/// as the caller likes: an Off request returns the empty, complete outcome without touching
/// the filesystem).
#[derive(Debug, Clone, Copy)]
pub struct SearchRequest<'a> {
    /// The raw query. Markdown and JSONL normalise it (§5); sessions use it as is (§11).
    pub query: &'a str,
    /// The requested scope.
    pub scope: ScopeRequest,
    /// The most results of the whole request, over every scope (at least 1; contract 03 §9.4).
    pub limit: Limit,
    /// The resolved memory mode.
    pub memory: MemoryMode,
    /// The Project-mode selector, checked once by the surface that read it.
    pub project: Option<Selector<'a>>,
    /// CLI session filters.
    pub session_filters: &'a SessionFilters,
    /// The request's clock.
    pub clock: Clock<'a>,
    /// Worker threads for reads and matching (1 = none); results do not depend on it.
    pub workers: usize,
    /// How Markdown snippets are shown (contract 03 §8.2): whole lines, or bounded windows.
    pub snippets: SnippetForm,
}

/// The scope metadata of §12.1.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScopeMeta {
    /// The requested scope.
    pub requested: ScopeRequest,
    /// The selected project's slug.
    pub project: Option<String>,
    /// The selected project's stable id.
    pub project_id: Option<String>,
    /// `all` was requested and no project was selected (§2.2).
    pub projects_omitted: bool,
}

/// One admitted scope and its results.
#[derive(Debug, Clone, PartialEq)]
pub struct Group {
    /// The scope.
    pub scope: Scope,
    /// Its results, best first, at most `limit`.
    pub results: Vec<SearchHit>,
}

/// What a search returns (§12.1).
#[derive(Debug, Clone, PartialEq)]
pub struct SearchOutcome {
    /// Groups of the admitted scopes, in declared order (a group may be empty).
    pub groups: Vec<Group>,
    /// The one relevance order over every group (contract 03 §9.4): `(group, result)` indices,
    /// best first; every result of every group appears exactly once.
    pub order: Vec<(usize, usize)>,
    /// Why each result of `order` scored what it did, in the same order (§9.5): what
    /// `dotaios search --explain` prints; the MCP payload leaves it out.
    pub explanations: Vec<Explanation>,
    /// The scope metadata.
    pub scope: ScopeMeta,
    /// Omission records: preliminary-allocation omissions, then final-allocation omissions,
    /// each in declared order; at most 32 plus one remainder.
    pub omissions: Vec<Omission>,
    /// The symbolic links the search skipped where a file or folder would have been read
    /// (§4.4), relative to the AIOS folder (an external vault's as `vault/…`), in enumeration
    /// order. The CLI names them; the MCP payload carries only their `symlink_skipped`
    /// omission records, which stay path-free.
    pub skipped_links: Vec<String>,
    /// The eligible files the search skipped as unreadable (§4.5: not a regular file, not
    /// UTF-8, permission denied), named like [`SearchOutcome::skipped_links`], with why, in
    /// scope order. The CLI names them; the MCP payload carries only their
    /// `unreadable_skipped` omission records, which stay path-free.
    pub skipped_files: Vec<SkippedFile>,
    /// The memory mode.
    pub memory: MemoryMode,
}

impl SearchOutcome {
    /// Every result with its scope, in the one relevance order (§9.4).
    pub fn ranked(&self) -> impl Iterator<Item = (Scope, &SearchHit)> {
        self.order.iter().map(|&(group, index)| {
            let group = &self.groups[group];
            (group.scope, &group.results[index])
        })
    }

    /// `true` exactly when nothing was omitted (§14.5).
    pub fn complete(&self) -> bool {
        self.omissions.is_empty()
    }

    /// The receipt line of the memory mode.
    pub fn receipt(&self) -> &'static str {
        self.memory.receipt()
    }

    /// The notice of the memory mode (Off only).
    pub fn notice(&self) -> Option<&'static str> {
        self.memory.notice()
    }
}

/// The check of a request that needs no filesystem access (§2.2, §2.5): Project mode and a
/// `projects` scope need a selector ([`ScopeRequest::needs_project`]); its grammar was checked
/// when the surface built the [`Selector`]. The CLI runs it before its folder check; [`search`]
/// asks it too, since only a complete request may read.
pub fn check_request(request: &SearchRequest<'_>) -> Result<(), SearchError> {
    engine::check_request(request).map(|_| ())
}

/// The benchmark's safe-corpus control (07 §3.1): enumerate and read the vault scope exactly
/// as search does (walk, eligibility, containment, identity checks, UTF-8, final
/// revalidation) without matching or ranking. Returns the files and bytes read.
#[doc(hidden)]
pub fn read_vault_corpus(folder: &Path, workers: usize) -> Result<Counts, SearchError> {
    engine::read_vault_corpus(folder, workers)
}

/// Searches the AIOS folder at `folder` (an absolute path whose `aios.json` the caller has
/// already checked for existence).
///
/// In Off mode this returns the empty, complete outcome without any filesystem operation.
pub fn search(folder: &Path, request: &SearchRequest<'_>) -> Result<SearchOutcome, SearchError> {
    run_again_if_changed(|| engine::run(folder, request))
}

pub use crate::run_again::CHANGED_RUNS;

/// Runs a search again while it fails with `DOTAIOS_EVIDENCE_CHANGED` (contract 03 §4.8 rule
/// 6), through the one loop the working context shares ([`crate::run_again`]).
fn run_again_if_changed(
    run: impl FnMut() -> Result<SearchOutcome, SearchError>,
) -> Result<SearchOutcome, SearchError> {
    crate::run_again::run_again_if_changed(
        |error| matches!(error, SearchError::Evidence(EvidenceError::Changed)),
        run,
    )
}

/// [`search`] for a long-running server that keeps a [`SearchCache`] between requests
/// (§19.2): each request still enumerates, charges and revalidates everything, and a Markdown
/// file's cached text is reused only after a fresh identity check, so the outcome is the one
/// [`search`] would return. `request.clock.now_ms` must be the real current time: content
/// changed within 2 seconds of it is not cached.
pub fn search_cached(
    folder: &Path,
    request: &SearchRequest<'_>,
    cache: &SearchCache,
) -> Result<SearchOutcome, SearchError> {
    run_again_if_changed(|| engine::run_cached(folder, request, REQUEST_LIMITS, Some(cache)))
}
