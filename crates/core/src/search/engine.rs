//! The phases of one search request over the contained reader (contract 03 §3, §4, §13, §14):
//! configuration read, project selection, inspection, preliminary allocation, discovery,
//! final allocation, execution and final revalidation.
//!
//! Every read goes through `dotaios_contained::Root`, relative to the AIOS root or the
//! authorised external vault. The request ledger is kept here; each contained call gets a
//! sub-ledger sized to what the scope may still charge, and what it charged is then booked to
//! the request ledger, the scope's demand and the phase budget. Parallel work (probing and
//! reading files) is merged in enumeration order, so the reported failure and every result are
//! independent of scheduling.
//!
//! One `impl Engine` block per phase: `vault` (the configuration read and the vault's
//! authorisation), `inspect` (with `observe`, the early read of the accepted files),
//! `discover`, `execute` and `revalidate`, with the shared parallel helper in `parallel`;
//! `safe_corpus` is the benchmark's control. This module holds the request, its ledger,
//! project selection and the phase loop; it never parses `aios.json` or a corpus file itself.

mod discover;
mod execute;
mod inspect;
mod observe;
mod parallel;
mod revalidate;
mod safe_corpus;
mod vault;

#[cfg(test)]
pub(crate) use crate::run_again::before_revalidation;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use dotaios_contained::{Dir, Identity, Ledger, RelPath, Root, RootError, Strategy};

use crate::folder::memory::MemoryMode;
use crate::folder::projects::{IdentityError, resolve_portable_identity};
use crate::request::Selector;
use crate::search::allocation::{AllocationItem, CountsExt, PhaseBudgets, allocate, observed};
use crate::search::cache::SearchCache;
use crate::search::error::{EvidenceError, ScopeFailure, SearchError, fatal, fixed_location_error};
use crate::search::hit::SearchHit;
use crate::search::jsonl::{self, Family, Generation, ProjectIdentity};
use crate::search::markdown::FileAnalysis;
use crate::search::matcher::Query;
use crate::search::omission::{
    Counts, Omission, OmissionCause, OmissionReason, SkippedFile, cap_omissions,
};
use crate::search::sessions::UnsafeSessionPath;
use crate::search::{
    Explanation, Group, REQUEST_LIMITS, Scope, ScopeMeta, ScopeRequest, SearchOutcome,
    SearchRequest,
};

use self::execute::MemoryCorpus;
pub(crate) use self::safe_corpus::read_vault_corpus;
use self::vault::VaultPlace;

/// Opens an authorised root (the AIOS folder, or an external vault) with the process's
/// resolution strategy; the tests run the same requests under every strategy
/// ([`with_strategy`]).
fn open_root(path: &Path) -> Result<Root, RootError> {
    Root::open_with(path, strategy())
}

#[cfg(not(test))]
fn strategy() -> Strategy {
    Strategy::Auto
}

#[cfg(test)]
thread_local! {
    /// The strategy [`with_strategy`] sets for the requests it runs.
    static STRATEGY: std::cell::Cell<Strategy> = const { std::cell::Cell::new(Strategy::Auto) };
}

#[cfg(test)]
fn strategy() -> Strategy {
    STRATEGY.with(std::cell::Cell::get)
}

/// Runs `body` with every root its requests open resolved by `strategy` (the link tests, which
/// are Unix-only: they make links).
#[cfg(all(test, unix))]
pub(crate) fn with_strategy<T>(strategy: Strategy, body: impl FnOnce() -> T) -> T {
    STRATEGY.with(|cell| cell.set(strategy));
    let result = body();
    STRATEGY.with(|cell| cell.set(Strategy::Auto));
    result
}

/// Runs one request.
pub(crate) fn run(
    folder: &Path,
    request: &SearchRequest<'_>,
) -> Result<SearchOutcome, SearchError> {
    run_with_limits(folder, request, REQUEST_LIMITS)
}

/// [`run`] with other request ceilings, so tests can reach every ceiling with small trees.
pub(crate) fn run_with_limits(
    folder: &Path,
    request: &SearchRequest<'_>,
    limits: Counts,
) -> Result<SearchOutcome, SearchError> {
    run_cached(folder, request, limits, None)
}

/// [`run_with_limits`] with the memory corpus collected by the non-streamed oracle
/// (`jsonl::oracle`: every entry held, every candidate scored and sorted), for the tests that
/// check the streamed collection against it.
#[cfg(test)]
pub(crate) fn run_oracle(
    folder: &Path,
    request: &SearchRequest<'_>,
    limits: Counts,
) -> Result<SearchOutcome, SearchError> {
    ORACLE.with(|flag| flag.set(true));
    let outcome = run_cached(folder, request, limits, None);
    ORACLE.with(|flag| flag.set(false));
    outcome
}

#[cfg(test)]
thread_local! {
    /// Set only inside [`run_oracle`].
    static ORACLE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether this request collects memory through the oracle.
#[cfg(test)]
fn oracle() -> bool {
    ORACLE.with(std::cell::Cell::get)
}

/// [`run_with_limits`] that reuses and fills the server's content cache (§19.2). Everything
/// but the source of a Markdown corpus file's text is unchanged, so the outcome is the same.
pub(crate) fn run_cached(
    folder: &Path,
    request: &SearchRequest<'_>,
    limits: Counts,
    cache: Option<&SearchCache>,
) -> Result<SearchOutcome, SearchError> {
    if request.memory == MemoryMode::Off {
        return Ok(SearchOutcome {
            groups: Vec::new(),
            order: Vec::new(),
            explanations: Vec::new(),
            scope: ScopeMeta {
                requested: request.scope,
                project: None,
                project_id: None,
                projects_omitted: false,
            },
            omissions: Vec::new(),
            skipped_links: Vec::new(),
            skipped_files: Vec::new(),
            memory: MemoryMode::Off,
        });
    }
    let selector = check_request(request)?;
    let mut engine = Engine::open(folder, request, limits)?;
    engine.cache = cache.map(|cache| (cache, cache.begin()));
    engine.read_config()?;
    let project = match selector {
        Some(selector) => Some(engine.resolve_project(selector)?),
        None => None,
    };

    let scopes: Vec<Scope> = match (request.memory, request.scope) {
        (MemoryMode::Project, ScopeRequest::All) => Scope::PROJECT_ALL.to_vec(),
        (MemoryMode::Project, ScopeRequest::One(scope)) if !Scope::PROJECT_ALL.contains(&scope) => {
            engine.revalidate()?;
            return Ok(SearchOutcome {
                groups: Vec::new(),
                order: Vec::new(),
                explanations: Vec::new(),
                scope: meta(request, project.as_ref()),
                omissions: vec![Omission {
                    scope: scope.as_str(),
                    reason: OmissionReason::ScopeForbiddenByMemoryPolicy,
                    observed: Counts::default(),
                    cause: None,
                }],
                skipped_links: Vec::new(),
                skipped_files: Vec::new(),
                memory: request.memory,
            });
        }
        (_, ScopeRequest::All) => Scope::SHARED_ALL.to_vec(),
        (_, ScopeRequest::One(scope)) => vec![scope],
    };
    let outcome = engine.search(&scopes, project.as_ref())?;
    engine.revalidate()?;
    if let Some((cache, generation)) = engine.cache {
        cache.finish(generation);
    }
    Ok(SearchOutcome {
        groups: outcome.groups,
        order: outcome.order,
        explanations: outcome.explanations,
        scope: meta(request, project.as_ref()),
        omissions: cap_omissions(outcome.omissions),
        skipped_links: outcome.skipped_links,
        skipped_files: outcome.skipped_files,
        memory: request.memory,
    })
}

/// The request checks that need no filesystem access; returns the Project-mode selector. The
/// selector itself was checked when the surface built its [`Selector`]; here only its presence
/// is: Project mode needs one, and so does a `projects` scope, which in Shared mode has none and
/// fails before any read (§2.2).
pub(crate) fn check_request<'a>(
    request: &SearchRequest<'a>,
) -> Result<Option<&'a str>, SearchError> {
    let selector = match request.memory {
        MemoryMode::Off => return Ok(None),
        MemoryMode::Project => request.project.map(Selector::as_str),
        MemoryMode::Shared => None,
    };
    let missing = request.memory == MemoryMode::Project && selector.is_none();
    if missing || request.scope.needs_project(selector) {
        return Err(SearchError::SelectorMissing);
    }
    Ok(selector)
}

fn meta(request: &SearchRequest<'_>, project: Option<&ProjectIdentity>) -> ScopeMeta {
    ScopeMeta {
        requested: request.scope,
        project: project.map(|project| project.slug.clone()),
        project_id: project.map(|project| project.id.clone()),
        projects_omitted: request.scope == ScopeRequest::All && project.is_none(),
    }
}

/// Which authorised root a path lies beneath.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum RootId {
    Aios,
    Vault,
}

/// The request ledger (§13): one per request, shared by every read.
#[derive(Debug, Clone, Copy)]
struct RequestLedger {
    limits: Counts,
    used: Counts,
}

impl RequestLedger {
    fn remaining(&self) -> Counts {
        self.limits.saturating_sub(self.used)
    }
}

/// A file accepted by a walk and `statx`ed.
#[derive(Debug)]
struct CorpusFile {
    rel: RelPath,
    /// Where the path from the corpus directory starts in `rel` (see [`CorpusFile::relative`]).
    strip: usize,
    identity: Identity,
    /// Served from the server's cache: the enumeration stat that validated it is also its
    /// final observation (contract 03 §19.2), so it is not revalidated again.
    cached: bool,
    /// The cached text when the cache served it: what the shown hit is built from, so a
    /// cached file is never read again in this request (contract 03 §19.2).
    text: Option<Arc<str>>,
    /// The file's analysis when it was already read during inspection (see
    /// [`Engine::observe_accepted`]); `None` means it is read at execution.
    analysis: Option<FileAnalysis>,
}

impl CorpusFile {
    /// The path from the corpus directory: a slice of `rel`, so keeping it allocates nothing.
    fn relative(&self) -> &str {
        &self.rel.as_str()[self.strip..]
    }
}

/// One Markdown corpus (a statistics unit, §9.2).
#[derive(Debug)]
struct Corpus {
    root: RootId,
    prefix: Arc<str>,
    files: Vec<CorpusFile>,
}

/// One JSONL source of the memory scope, after inspection.
#[derive(Debug)]
struct JsonlPlan {
    rel: RelPath,
    label: String,
    family: Family,
    generation: Generation,
    identity: Option<Identity>,
}

/// Everything one scope collects across the phases.
#[derive(Debug)]
struct ScopeWork {
    scope: Scope,
    demand: Counts,
    materialised: Counts,
    error: Option<OmissionReason>,
    corpora: Vec<Corpus>,
    jsonl: Vec<JsonlPlan>,
    session_index: Option<(RelPath, Identity)>,
    memory_sources: Vec<jsonl::Source>,
    session_results: Vec<SearchHit>,
    /// Symbolic links skipped where something would have been read (§4.4), as the CLI shows
    /// them.
    links: Vec<String>,
    /// Eligible files skipped as unreadable (§4.5: not a regular file, not UTF-8, permission
    /// denied), as the CLI shows them.
    unreadable: Vec<SkippedFile>,
    /// The file or folder over a per-file or per-directory limit that failed the scope, as the
    /// CLI shows it (§17.4).
    cause: Option<OmissionCause>,
}

impl ScopeWork {
    fn new(scope: Scope) -> ScopeWork {
        ScopeWork {
            scope,
            demand: Counts::default(),
            materialised: Counts::default(),
            error: None,
            corpora: Vec::new(),
            jsonl: Vec::new(),
            session_index: None,
            memory_sources: Vec::new(),
            session_results: Vec::new(),
            links: Vec::new(),
            unreadable: Vec::new(),
            cause: None,
        }
    }

    fn need(&self) -> Counts {
        self.demand.saturating_sub(self.materialised)
    }
}

/// The phase budget of one scope in one phase.
#[derive(Debug, Clone, Copy)]
struct Meter {
    allowance: Counts,
    used: Counts,
}

impl Meter {
    fn left(&self) -> Counts {
        self.allowance.saturating_sub(self.used)
    }
}

struct SearchResultParts {
    groups: Vec<Group>,
    order: Vec<(usize, usize)>,
    explanations: Vec<Explanation>,
    omissions: Vec<Omission>,
    skipped_links: Vec<String>,
    skipped_files: Vec<SkippedFile>,
}

struct Engine<'r> {
    request: &'r SearchRequest<'r>,
    query: Query,
    aios: Root,
    aios_path: PathBuf,
    aios_identity: Identity,
    vault: VaultPlace,
    ledger: RequestLedger,
    /// `available` of §14.1, fixed when preflight starts.
    available: Counts,
    /// Observed directories and their identities (§4.8 rules 1, 4, 5).
    directories: HashMap<(RootId, Option<RelPath>), Identity>,
    /// Observed files outside the Markdown corpora (aios.json, JSONL, session bodies).
    files: Vec<(RootId, RelPath, Identity)>,
    /// Files of corpora whose scope was omitted (still observed, still revalidated).
    omitted_files: Vec<(RootId, RelPath, Identity)>,
    /// Files of corpora that were searched.
    searched_files: Vec<(RootId, RelPath, Identity)>,
    /// The server's content cache and this request's generation in it (§19.2).
    cache: Option<(&'r SearchCache, u64)>,
    /// Handles of the directories the corpus walks listed, kept for the final revalidation,
    /// which then stats each file and directory by one name relative to its parent's handle
    /// (contract 03 §4.8 rule 4). At most [`MAX_HELD_DIRECTORIES`]; past that,
    /// revalidation resolves the path from the root instead.
    handles: HashMap<(RootId, Option<RelPath>), Arc<Dir>>,
    /// The admitted memory scope's JSONL corpus, between its statistics pass and the merge.
    memory: Option<MemoryCorpus>,
}

/// The most directory handles one request keeps open for revalidation (each is one
/// descriptor; macOS allows 256 per process by default, Linux usually 1,024).
const MAX_HELD_DIRECTORIES: usize = 128;

impl<'r> Engine<'r> {
    fn open(
        folder: &Path,
        request: &'r SearchRequest<'r>,
        limits: Counts,
    ) -> Result<Engine<'r>, SearchError> {
        let aios = open_root(folder).map_err(|_| EvidenceError::ReadFailed)?;
        let aios_identity = aios.restat().map_err(|_| EvidenceError::ReadFailed)?;
        Ok(Engine {
            request,
            query: Query::new(request.query).with_snippets(request.snippets),
            aios,
            aios_path: folder.to_path_buf(),
            aios_identity,
            vault: VaultPlace::Inside(Some(rel("vault"))),
            ledger: RequestLedger {
                limits,
                used: Counts::default(),
            },
            available: Counts::default(),
            directories: HashMap::new(),
            files: Vec::new(),
            omitted_files: Vec::new(),
            searched_files: Vec::new(),
            cache: None,
            handles: HashMap::new(),
            memory: None,
        })
    }

    fn root(&self, id: RootId) -> Option<&Root> {
        match (id, &self.vault) {
            (RootId::Aios, _) | (RootId::Vault, VaultPlace::Inside(_)) => Some(&self.aios),
            (RootId::Vault, VaultPlace::External { root, .. }) => root.as_ref(),
        }
    }

    /// §2.5: the portable project identity, read outside any scope (ceilings are fatal).
    fn resolve_project(&mut self, selector: &str) -> Result<ProjectIdentity, SearchError> {
        let mut sub = Ledger::new(self.ledger.remaining());
        let resolved = resolve_portable_identity(&self.aios, &mut sub, selector);
        self.book(sub.used());
        let resolution = resolved.map_err(project_error)?;
        for (path, identity) in resolution.observed {
            self.files.push((RootId::Aios, path, identity));
        }
        Ok(ProjectIdentity {
            slug: resolution.identity.slug,
            id: resolution.identity.id,
        })
    }

    fn book(&mut self, used: Counts) {
        self.ledger.used = self.ledger.used.add(used);
    }

    /// Inspection, allocation, discovery, allocation, execution (§14.1).
    fn search(
        &mut self,
        scopes: &[Scope],
        project: Option<&ProjectIdentity>,
    ) -> Result<SearchResultParts, SearchError> {
        self.available = self.ledger.remaining();
        let mut works: Vec<ScopeWork> = scopes.iter().map(|&scope| ScopeWork::new(scope)).collect();

        // 1. Inspection, every scope in declared order.
        self.run_phase(&mut works, Phase::Inspect, project)?;

        // 2. Preliminary allocation.
        let mut omissions = Vec::new();
        let mut candidates = self.admit(works, &mut omissions);

        // 3. Discovery: memory JSONL and the session walk.
        self.run_phase(&mut candidates, Phase::Discover, project)?;

        // 4. Final allocation.
        let mut admitted = self.admit(candidates, &mut omissions);

        // Links an admitted scope skipped: one record per scope, after the allocation's (§14.4).
        let mut skipped_links = Vec::new();
        let mut named = std::collections::HashSet::new();
        for work in &mut admitted {
            if !work.links.is_empty() {
                omissions.push(Omission::skipped(
                    work.scope.as_str(),
                    OmissionReason::SymlinkSkipped,
                    work.links.len(),
                ));
                // A folder on the way to two scopes' sources is named once.
                for link in work.links.drain(..) {
                    if named.insert(link.clone()) {
                        skipped_links.push(link);
                    }
                }
            }
        }
        // Unreadable files an admitted scope skipped: one record per scope, after its links'
        // (§14.4). `bytes` is 0: a skipped file is never charged, like a skipped link.
        let mut skipped_files = Vec::new();
        for work in &mut admitted {
            // Two session entries naming one body skip it once.
            let mut seen = std::collections::HashSet::new();
            work.unreadable
                .retain(|file| seen.insert(file.path.clone()));
            if !work.unreadable.is_empty() {
                omissions.push(Omission::skipped(
                    work.scope.as_str(),
                    OmissionReason::UnreadableSkipped,
                    work.unreadable.len(),
                ));
                skipped_files.append(&mut work.unreadable);
            }
        }

        // 5. Execution, in declared order, then the one relevance order over every scope.
        let mut groups = Vec::new();
        let mut stats = self.query.analysed.stats();
        let mut pending = Vec::new();
        for (index, work) in admitted.into_iter().enumerate() {
            groups.push(Group {
                scope: work.scope,
                results: Vec::new(),
            });
            self.execute(work, project, index, &mut stats, &mut pending)?;
        }
        let mut order = Vec::new();
        let mut explanations = Vec::new();
        for (group, hit, explanation) in self.ranked(pending, &stats)? {
            order.push((group, groups[group].results.len()));
            groups[group].results.push(hit);
            explanations.push(explanation);
        }
        Ok(SearchResultParts {
            groups,
            order,
            explanations,
            omissions,
            skipped_links,
            skipped_files,
        })
    }

    /// Runs one metered phase over `works` in declared order, each scope with its fair share
    /// of what the ledger has left; a skippable failure is recorded on the scope, a fatal one
    /// ends the request.
    fn run_phase(
        &mut self,
        works: &mut [ScopeWork],
        phase: Phase,
        project: Option<&ProjectIdentity>,
    ) -> Result<(), SearchError> {
        let mut budgets = PhaseBudgets::new(self.ledger.remaining(), works.len());
        for work in works {
            let mut meter = Meter {
                allowance: budgets.allowance(),
                used: Counts::default(),
            };
            let ledger_before = self.ledger.used;
            let outcome = match phase {
                Phase::Inspect => self.inspect(work, &mut meter, project),
                Phase::Discover => self.discover(work, &mut meter, project),
            };
            match outcome {
                Ok(()) => {}
                Err(ScopeFailure::Skippable(reason)) => work.error = Some(reason),
                Err(ScopeFailure::Fatal(error)) => return Err(error),
            }
            work.materialised = work
                .materialised
                .add(self.ledger.used.saturating_sub(ledger_before));
            budgets.settle(meter.used);
        }
        Ok(())
    }

    /// Allocates the ledger over `works`: admitted scopes are returned in order, the others
    /// become omissions and their observations are dropped.
    fn admit(&mut self, works: Vec<ScopeWork>, omissions: &mut Vec<Omission>) -> Vec<ScopeWork> {
        let verdicts = self.allocate(&works);
        let mut admitted = Vec::new();
        for (work, verdict) in works.into_iter().zip(verdicts) {
            match verdict {
                Ok(()) => admitted.push(work),
                Err(reason) => {
                    omissions.push(self.omission(&work, reason));
                    self.forget(work);
                }
            }
        }
        admitted
    }

    fn allocate(&self, works: &[ScopeWork]) -> Vec<Result<(), OmissionReason>> {
        let items: Vec<AllocationItem> = works
            .iter()
            .map(|work| AllocationItem {
                need: work.need(),
                error: work.error,
            })
            .collect();
        allocate(&items, self.ledger.remaining())
    }

    fn omission(&self, work: &ScopeWork, reason: OmissionReason) -> Omission {
        Omission {
            scope: work.scope.as_str(),
            reason,
            observed: observed(work.demand, self.available, reason),
            // Only the ceiling the walk met names its file or folder; an allocation verdict
            // (the aggregate ceilings of §14.3) has none.
            cause: work.cause.clone().filter(|cause| cause.reason() == reason),
        }
    }

    /// An omitted scope's files stay observed: they are revalidated like every other file.
    fn forget(&mut self, work: ScopeWork) {
        for corpus in work.corpora {
            for file in corpus.files.into_iter().filter(|file| !file.cached) {
                self.omitted_files
                    .push((corpus.root, file.rel, file.identity));
            }
        }
        for plan in work.jsonl {
            if let Some(identity) = plan.identity {
                self.files.push((RootId::Aios, plan.rel, identity));
            }
        }
        if let Some((path, identity)) = work.session_index {
            self.files.push((RootId::Aios, path, identity));
        }
    }
}

impl From<UnsafeSessionPath> for ScopeFailure {
    fn from(_: UnsafeSessionPath) -> ScopeFailure {
        EvidenceError::PathUnsafe.into()
    }
}

fn child_path(parent: Option<&RelPath>, name: &str) -> Result<RelPath, ScopeFailure> {
    let joined = match parent {
        Some(parent) => parent.join(name),
        None => RelPath::new(name),
    };
    joined.map_err(|_| EvidenceError::PathUnsafe.into())
}

fn shard_number(name: &str, stem: &str) -> Option<u32> {
    let digits = name.strip_prefix(stem)?.strip_suffix(".jsonl")?;
    (digits.len() == 6 && digits.bytes().all(|b| b.is_ascii_digit()))
        .then(|| digits.parse().ok())?
}

fn parent_of(path: &RelPath) -> Option<RelPath> {
    let text = path.as_str();
    let (parent, _) = text.rsplit_once('/')?;
    RelPath::new(parent).ok()
}

/// A path the engine spells itself; always valid.
fn rel(path: &str) -> RelPath {
    RelPath::new(path).unwrap_or_else(|_| unreachable!("fixed relative path {path:?} is valid"))
}

fn project_error(error: IdentityError) -> SearchError {
    match error {
        IdentityError::Selector(error) => SearchError::Selector(error),
        IdentityError::Unknown => SearchError::SelectorUnknown,
        IdentityError::Ambiguous => SearchError::SelectorAmbiguous,
        IdentityError::CatalogInvalid(problem) => SearchError::Catalog(problem.to_string()),
        IdentityError::Read(error) => fatal(fixed_location_error(error)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_names() {
        assert_eq!(
            shard_number("events-archive.000001.jsonl", "events-archive."),
            Some(1)
        );
        assert_eq!(
            shard_number("events-archive.1.jsonl", "events-archive."),
            None
        );
        assert_eq!(
            shard_number("events-archive.jsonl", "events-archive."),
            None
        );
        assert_eq!(
            shard_number("events-archive.00000a.jsonl", "events-archive."),
            None
        );
    }
}

/// The two metered phases that run over every scope before an allocation.

#[derive(Debug, Clone, Copy)]
enum Phase {
    /// Listing and sizing each scope's files.
    Inspect,
    /// Memory JSONL and the session walk.
    Discover,
}
