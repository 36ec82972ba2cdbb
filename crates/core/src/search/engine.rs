//! The phases of one search request over the contained reader (spec 03 §3, §4, §13, §14):
//! configuration read, project selection, inspection, preliminary allocation, discovery,
//! final allocation, execution and final revalidation.
//!
//! Every read goes through `dotaios_contained::Root`, relative to the AIOS root or the
//! authorised external vault. The request ledger is kept here; each contained call gets a
//! sub-ledger sized to what the scope may still charge, and what it charged is then booked to
//! the request ledger, the scope's demand and the phase budget. Parallel work (probing and
//! reading files) is merged in enumeration order, so the reported failure and every result are
//! independent of scheduling.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering as AtomicOrdering};

use dotaios_contained::{DirEntry, EntryKind, Identity, Ledger, Limits, ReadError, RelPath, Root};
use serde_json::Value;

use crate::folder::location::absolutize;
use crate::folder::memory::MemoryMode;
use crate::folder::projects::{IdentityError, resolve_portable_identity};
use crate::search::allocation::{AllocationItem, PhaseBudgets, allocate, observed};
use crate::search::cache::{Key, SearchCache};
use crate::search::error::{
    EvidenceError, ScopeFailure, SearchError, ceiling_of, fatal, fixed_location_error,
    observed_path_error,
};
use crate::search::hit::{MarkdownHit, SearchHit};
use crate::search::jsonl::{self, Family, Generation, ProjectIdentity};
use crate::search::markdown::{FileAnalysis, analyze, analyze_lowered};
use crate::search::matcher::Query;
use crate::search::matcher::lowercase_into;
use crate::search::omission::{Counts, Omission, OmissionReason, cap_omissions};
use crate::search::rank::{CorpusStats, decay, rank};
use crate::search::sessions::{UnsafeSessionPath, search_sessions};
use crate::search::walk::{Eligibility, is_skipped, order_entries};
use crate::search::{
    Group, MAX_CONFIG_BYTES, MAX_DIRECTORY_ENTRIES, MAX_FILE_BYTES, REQUEST_LIMITS, Scope,
    ScopeMeta, ScopeRequest, SearchOutcome, SearchRequest,
};
use crate::text::{collate, replace_lone_surrogate_escapes, utf16_cmp};

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
            scope: ScopeMeta {
                requested: request.scope,
                project: None,
                project_id: None,
                projects_omitted: false,
            },
            omissions: Vec::new(),
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
                scope: meta(request, project.as_ref()),
                omissions: vec![Omission {
                    scope: scope.as_str(),
                    reason: OmissionReason::ScopeForbiddenByMemoryPolicy,
                    observed: Counts::default(),
                }],
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
        scope: meta(request, project.as_ref()),
        omissions: cap_omissions(outcome.omissions),
        memory: request.memory,
    })
}

/// The safe-corpus control of the benchmark (07 §3.1): the vault scope's walk, eligibility,
/// containment, identity checks, UTF-8 validation and final revalidation, with no matching or
/// ranking. Returns the files and bytes read.
pub(crate) fn read_vault_corpus(folder: &Path, workers: usize) -> Result<Counts, SearchError> {
    let filters = crate::search::SessionFilters::default();
    let request = SearchRequest {
        query: "",
        scope: ScopeRequest::One(Scope::Vault),
        limit: 1,
        memory: MemoryMode::Shared,
        project: None,
        session_filters: &filters,
        clock: crate::search::Clock {
            now_ms: 0.0,
            local_offset_ms: &|_| 0.0,
        },
        workers,
    };
    let mut engine = Engine::open(folder, &request, REQUEST_LIMITS)?;
    engine.read_config()?;
    engine.available = engine.ledger.remaining();
    let mut work = ScopeWork::new(Scope::Vault);
    let mut meter = Meter {
        allowance: engine.available,
        used: Counts::default(),
    };
    engine.inspect(&mut work, &mut meter, None).map_err(fatal)?;
    let mut read = Counts::default();
    for corpus in work.corpora {
        let reader = engine.root_for(corpus.root).map_err(fatal)?;
        // Files read during inspection were validated then; the rest are read now.
        let pending: Vec<&CorpusFile> = corpus
            .files
            .iter()
            .filter(|file| file.analysis.is_none())
            .collect();
        let outcomes = parallel_map(&pending, engine.request.workers, |file, _| {
            read_checked(reader, file).map(|_| ())
        });
        for outcome in outcomes {
            outcome.map_err(fatal)?;
        }
        for file in corpus.files {
            read.files += 1;
            read.bytes += file.identity.size;
            engine
                .searched_files
                .push((corpus.root, file.rel, file.identity));
        }
    }
    engine.revalidate()?;
    Ok(read)
}

/// The request checks that need no filesystem access; returns the Project-mode selector.
pub(crate) fn check_request<'a>(
    request: &SearchRequest<'a>,
) -> Result<Option<&'a str>, SearchError> {
    if request.memory == MemoryMode::Off {
        return Ok(None);
    }
    // A `projects` scope in Shared mode has no selector: it fails before any read (§2.2).
    if request.memory == MemoryMode::Shared && request.scope == ScopeRequest::One(Scope::Projects) {
        return Err(SearchError::SelectorMissing);
    }
    let selector = match request.memory {
        MemoryMode::Project => Some(request.project.ok_or(SearchError::SelectorMissing)?),
        _ => None,
    };
    if let Some(selector) = selector {
        crate::folder::selector::check_canonical_selector(selector)
            .map_err(SearchError::Selector)?;
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

/// Where the vault is read (§3.4).
#[derive(Debug)]
enum VaultPlace {
    /// Beneath the AIOS root, at this directory (`None` = the root itself).
    Inside(Option<RelPath>),
    /// A second authorised root; `None` when the directory does not exist.
    External {
        root: Option<Root>,
        path: PathBuf,
        identity: Option<Identity>,
    },
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
    relative: String,
    identity: Identity,
    /// The file's analysis when it was already read during inspection (see
    /// [`Engine::observe_accepted`]); `None` means it is read at execution.
    analysis: Option<FileAnalysis>,
}

/// One Markdown corpus (a statistics unit, §9.2).
#[derive(Debug)]
struct Corpus {
    root: RootId,
    prefix: String,
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
    omissions: Vec<Omission>,
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
}

const AIOS_JSON: &str = "aios.json";

/// How many accepted files inspection reads before it charges them (see
/// [`Engine::observe_accepted`]).
const OBSERVE_BATCH: usize = 512;

impl<'r> Engine<'r> {
    fn open(
        folder: &Path,
        request: &'r SearchRequest<'r>,
        limits: Counts,
    ) -> Result<Engine<'r>, SearchError> {
        let aios = Root::open(folder).map_err(|_| EvidenceError::ReadFailed)?;
        let aios_identity = aios.restat().map_err(|_| EvidenceError::ReadFailed)?;
        Ok(Engine {
            request,
            query: Query::new(request.query),
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
        })
    }

    fn root(&self, id: RootId) -> Option<&Root> {
        match (id, &self.vault) {
            (RootId::Aios, _) | (RootId::Vault, VaultPlace::Inside(_)) => Some(&self.aios),
            (RootId::Vault, VaultPlace::External { root, .. }) => root.as_ref(),
        }
    }

    /// §3.2–§3.4: reads `aios.json` (charged, fatal on every failure) and authorises the vault.
    fn read_config(&mut self) -> Result<(), SearchError> {
        let path = rel(AIOS_JSON);
        let mut sub = Ledger::new(limits_of(self.ledger.remaining()));
        let read = self.aios.read_text(&path, MAX_CONFIG_BYTES, &mut sub);
        self.book(sub.used());
        let file = match read {
            Ok(Some(file)) => file,
            // It existed when the caller checked: it has since gone.
            Ok(None) => return Err(EvidenceError::Changed.into()),
            Err(error) => return Err(fatal(fixed_location_error(error))),
        };
        self.files.push((RootId::Aios, path, file.identity));
        if !crate::text::json_nesting_ok(&file.text) {
            return Err(EvidenceError::ConfigInvalid.into());
        }
        let value: Value = serde_json::from_str(&replace_lone_surrogate_escapes(&file.text))
            .map_err(|_| EvidenceError::ConfigInvalid)?;
        let vault_path = match value.get("vault_path") {
            Some(Value::String(text)) if !text.is_empty() => Some(text.clone()),
            Some(other) if crate::text::js_truthy(other) => {
                // The reference crashed on a truthy non-string; the open point says: invalid.
                return Err(EvidenceError::ConfigInvalid.into());
            }
            _ => None,
        };
        if let Some(vault_path) = vault_path {
            self.vault = self.authorise_vault(&vault_path)?;
        }
        Ok(())
    }

    fn authorise_vault(&self, vault_path: &str) -> Result<VaultPlace, SearchError> {
        // No `~` expansion; relative values resolve against the AIOS root (01 §3.9 open point).
        let resolved = absolutize(Path::new(vault_path), &self.aios_path);
        let root = absolutize(&self.aios_path, Path::new("/"));
        if let Ok(inside) = resolved.strip_prefix(&root) {
            if inside.as_os_str().is_empty() {
                return Ok(VaultPlace::Inside(None));
            }
            let text = inside.to_str().ok_or(EvidenceError::PathUnsafe)?;
            let path = RelPath::new(text).map_err(|_| EvidenceError::PathUnsafe)?;
            return Ok(VaultPlace::Inside(Some(path)));
        }
        match Root::open(&resolved) {
            Ok(root) => {
                let identity = root.restat().map_err(|_| EvidenceError::ReadFailed)?;
                Ok(VaultPlace::External {
                    root: Some(root),
                    path: resolved,
                    identity: Some(identity),
                })
            }
            Err(dotaios_contained::RootError::NotFound) => Ok(VaultPlace::External {
                root: None,
                path: resolved,
                identity: None,
            }),
            Err(dotaios_contained::RootError::NotDirectory) => {
                Err(EvidenceError::PathUnsafe.into())
            }
            Err(dotaios_contained::RootError::Io(_)) => Err(EvidenceError::ReadFailed.into()),
        }
    }

    /// §2.5: the portable project identity, read outside any scope (ceilings are fatal).
    fn resolve_project(&mut self, selector: &str) -> Result<ProjectIdentity, SearchError> {
        let mut sub = Ledger::new(limits_of(self.ledger.remaining()));
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

    fn book(&mut self, used: Limits) {
        self.ledger.used = self.ledger.used.add(counts_of(used));
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
        let admitted = self.admit(candidates, &mut omissions);

        // 5. Execution, in declared order.
        let mut groups = Vec::new();
        for work in admitted {
            let results = self.execute(work, project)?;
            groups.push(results);
        }
        Ok(SearchResultParts { groups, omissions })
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
        }
    }

    /// An omitted scope's files stay observed: they are revalidated like every other file.
    fn forget(&mut self, work: ScopeWork) {
        for corpus in work.corpora {
            for file in corpus.files {
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

    // ----- inspection -------------------------------------------------------------------

    fn inspect(
        &mut self,
        work: &mut ScopeWork,
        meter: &mut Meter,
        project: Option<&ProjectIdentity>,
    ) -> Result<(), ScopeFailure> {
        match work.scope {
            Scope::Sessions => {
                let index = rel("memory/sessions/index.jsonl");
                if let Some(identity) = self.inspect_fixed_file(work, &index)? {
                    work.session_index = Some((index, identity));
                }
                Ok(())
            }
            Scope::Context
            | Scope::Decisions
            | Scope::Skills
            | Scope::References
            | Scope::Plugins => {
                // Each of these scopes is one folder of the same name directly below the root.
                let (folder, eligibility) = match work.scope {
                    Scope::Context => ("context", Eligibility::Markdown),
                    Scope::Decisions => ("decisions", Eligibility::Markdown),
                    Scope::Skills => ("skills", Eligibility::Markdown),
                    Scope::References => ("references", Eligibility::Markdown),
                    _ => ("plugins", Eligibility::Plugins),
                };
                self.inspect_corpus(
                    work,
                    meter,
                    RootId::Aios,
                    Some(rel(folder)),
                    folder,
                    eligibility,
                )
            }
            Scope::Vault => match &self.vault {
                VaultPlace::Inside(dir) => {
                    let dir = dir.clone();
                    self.inspect_corpus(
                        work,
                        meter,
                        RootId::Vault,
                        dir,
                        "vault",
                        Eligibility::Markdown,
                    )
                }
                VaultPlace::External { root: None, .. } => Ok(()),
                VaultPlace::External { .. } => self.inspect_corpus(
                    work,
                    meter,
                    RootId::Vault,
                    None,
                    "vault",
                    Eligibility::Markdown,
                ),
            },
            Scope::Projects => {
                let Some(project) = project else {
                    return Ok(());
                };
                let dir = RelPath::new(&format!("projects/{}", project.slug))
                    .map_err(|_| EvidenceError::PathUnsafe)?;
                let prefix = format!("projects/{}", project.slug);
                self.inspect_corpus(
                    work,
                    meter,
                    RootId::Aios,
                    Some(dir),
                    &prefix,
                    Eligibility::Markdown,
                )
            }
            Scope::Memory => self.inspect_memory(work, meter),
        }
    }

    /// Probes the directories between the root and `dir` (exclusive). `false` when one is
    /// missing (the corpus is then empty).
    fn observe_ancestors(&mut self, root: RootId, dir: &RelPath) -> Result<bool, ScopeFailure> {
        let components: Vec<&str> = dir.components().collect();
        let mut path = String::new();
        for component in &components[..components.len() - 1] {
            if !path.is_empty() {
                path.push('/');
            }
            path.push_str(component);
            let ancestor = rel(&path);
            let Some(found) = self
                .root_for(root)?
                .probe(&ancestor)
                .map_err(fixed_location_error)?
            else {
                return Ok(false);
            };
            if found.kind != EntryKind::Directory {
                return Err(EvidenceError::PathUnsafe.into());
            }
            self.record_directory(root, Some(ancestor), found.identity)?;
        }
        Ok(true)
    }

    /// The identity of the directory an authorised root was opened at.
    fn root_identity(&self, id: RootId) -> Option<Identity> {
        match (id, &self.vault) {
            (RootId::Aios, _) | (RootId::Vault, VaultPlace::Inside(_)) => Some(self.aios_identity),
            (RootId::Vault, VaultPlace::External { identity, .. }) => *identity,
        }
    }

    fn root_for(&self, id: RootId) -> Result<&Root, ScopeFailure> {
        self.root(id)
            .ok_or(ScopeFailure::Fatal(EvidenceError::RootUnauthorized.into()))
    }

    fn record_directory(
        &mut self,
        root: RootId,
        dir: Option<RelPath>,
        identity: Identity,
    ) -> Result<(), ScopeFailure> {
        match self.directories.get(&(root, dir.clone())) {
            Some(seen) if *seen != identity => Err(EvidenceError::Changed.into()),
            Some(_) => Ok(()),
            None => {
                self.directories.insert((root, dir), identity);
                Ok(())
            }
        }
    }

    /// Lists a directory, charging its entries to the ledger, the demand and the phase
    /// budget (§13, §14.1). `first_open` selects the error mapping of a fixed location.
    fn list(
        &mut self,
        work: &mut ScopeWork,
        meter: &mut Meter,
        root: RootId,
        dir: Option<&RelPath>,
        first_open: bool,
    ) -> Result<Option<Vec<DirEntry>>, ScopeFailure> {
        let allowance = self.entry_allowance(work, meter);
        let mut sub = Ledger::new(Limits {
            files: 0,
            bytes: 0,
            entries: allowance,
        });
        let listed = self
            .root_for(root)?
            .list_dir(dir, MAX_DIRECTORY_ENTRIES, &mut sub);
        self.charge_entries(work, meter, sub.used().entries);
        match listed {
            Ok(None) => Ok(None),
            Ok(Some(listing)) => {
                if allowance == 0 {
                    return Err(ScopeFailure::Skippable(OmissionReason::EntryCountExceeded));
                }
                self.record_directory(root, dir.cloned(), listing.identity)?;
                Ok(Some(listing.entries))
            }
            Err(ReadError::Budget(_)) => {
                Err(ScopeFailure::Skippable(OmissionReason::EntryCountExceeded))
            }
            Err(ReadError::DirectoryLimit) => {
                // The entry past the limit is charged before the per-directory check (§13).
                if self.entry_allowance(work, meter) == 0 {
                    return Err(ScopeFailure::Skippable(OmissionReason::EntryCountExceeded));
                }
                self.charge_entries(work, meter, 1);
                Err(ScopeFailure::Skippable(
                    OmissionReason::DirectoryEntriesExceeded,
                ))
            }
            Err(error) if first_open => Err(fixed_location_error(error)),
            Err(error) => Err(observed_path_error(error)),
        }
    }

    fn entry_allowance(&self, work: &ScopeWork, meter: &Meter) -> u64 {
        self.ledger
            .remaining()
            .entries
            .min(self.available.entries.saturating_sub(work.demand.entries))
            .min(meter.left().entries)
    }

    fn charge_entries(&mut self, work: &mut ScopeWork, meter: &mut Meter, count: u64) {
        self.ledger.used.entries += count;
        work.demand.entries += count;
        meter.used.entries += count;
    }

    /// Charges one `statx`ed file to the scope's demand only, bounded by `available`.
    fn demand_file(&self, work: &mut ScopeWork, size: u64) -> Result<(), ScopeFailure> {
        if size > MAX_FILE_BYTES {
            return Err(ScopeFailure::Skippable(OmissionReason::FileTooLarge));
        }
        if work.demand.files + 1 > self.available.files {
            return Err(ScopeFailure::Skippable(OmissionReason::FileCountExceeded));
        }
        if work.demand.bytes.saturating_add(size) > self.available.bytes {
            return Err(ScopeFailure::Skippable(
                OmissionReason::AggregateBytesExceeded,
            ));
        }
        work.demand.files += 1;
        work.demand.bytes += size;
        Ok(())
    }

    /// A fixed JSONL source or the session index: probed, type-checked, charged as demand.
    fn inspect_fixed_file(
        &mut self,
        work: &mut ScopeWork,
        path: &RelPath,
    ) -> Result<Option<Identity>, ScopeFailure> {
        let parent = parent_of(path);
        if let Some(parent) = &parent {
            if !self.observe_ancestors(RootId::Aios, parent)? {
                return Ok(None);
            }
            let Some(found) = self.aios.probe(parent).map_err(fixed_location_error)? else {
                return Ok(None);
            };
            if found.kind != EntryKind::Directory {
                return Err(EvidenceError::PathUnsafe.into());
            }
            self.record_directory(RootId::Aios, Some(parent.clone()), found.identity)?;
        }
        let Some(found) = self.aios.probe(path).map_err(fixed_location_error)? else {
            return Ok(None);
        };
        match found.kind {
            EntryKind::File => {}
            EntryKind::Symlink => return Err(EvidenceError::PathUnsafe.into()),
            _ => return Err(EvidenceError::NotRegularFile.into()),
        }
        self.demand_file(work, found.identity.size)?;
        Ok(Some(found.identity))
    }

    fn inspect_corpus(
        &mut self,
        work: &mut ScopeWork,
        meter: &mut Meter,
        root: RootId,
        dir: Option<RelPath>,
        prefix: &str,
        eligibility: Eligibility,
    ) -> Result<(), ScopeFailure> {
        if let Some(dir) = &dir
            && !self.observe_ancestors(root, dir)?
        {
            return Ok(());
        }
        let accepted = self.walk(work, meter, root, dir.clone(), eligibility)?;
        let strip = dir.as_ref().map_or(0, |dir| dir.as_str().len() + 1);
        let files = self.observe_accepted(work, root, accepted, strip, prefix)?;
        work.corpora.push(Corpus {
            root,
            prefix: prefix.to_owned(),
            files,
        });
        Ok(())
    }

    /// The depth-first walk of §4.1: collation order inside each directory, skip rule,
    /// symlinks, recursion, eligibility. Returns the accepted files in enumeration order.
    fn walk(
        &mut self,
        work: &mut ScopeWork,
        meter: &mut Meter,
        root: RootId,
        dir: Option<RelPath>,
        eligibility: Eligibility,
    ) -> Result<Vec<RelPath>, ScopeFailure> {
        let Some(mut entries) = self.list(work, meter, root, dir.as_ref(), true)? else {
            return Ok(Vec::new());
        };
        order_entries(&mut entries);
        let mut accepted = Vec::new();
        // A stack of (directory, its ordered entries, next index) keeps the walk depth-first
        // without recursion, whatever the depth.
        let mut stack: Vec<(Option<RelPath>, Vec<DirEntry>, usize)> = vec![(dir, entries, 0)];
        while let Some((parent, entries, index)) = stack.last_mut() {
            let Some(entry) = entries.get(*index) else {
                stack.pop();
                continue;
            };
            *index += 1;
            let parent: &Option<RelPath> = parent;
            let name = entry.name.as_encoded_bytes();
            if is_skipped(name) {
                continue;
            }
            let eligible = eligibility.accepts(name);
            match entry.kind {
                EntryKind::Symlink => {
                    // Never followed; fatal only when the name is eligible (§4.4).
                    if eligible {
                        return Err(EvidenceError::PathUnsafe.into());
                    }
                }
                EntryKind::Directory => {
                    // A name that is not UTF-8 cannot be recursed into safely (§4.6).
                    let name = entry.name_str().ok_or(EvidenceError::PathUnsafe)?;
                    let path = child_path(parent.as_ref(), name)?;
                    let Some(mut children) = self.list(work, meter, root, Some(&path), false)?
                    else {
                        // Listed a moment ago and now gone.
                        return Err(EvidenceError::Changed.into());
                    };
                    order_entries(&mut children);
                    stack.push((Some(path), children, 0));
                }
                kind => {
                    if !eligible {
                        continue;
                    }
                    let name = entry.name_str().ok_or(EvidenceError::PathUnsafe)?;
                    if kind != EntryKind::File {
                        return Err(EvidenceError::NotRegularFile.into());
                    }
                    accepted.push(child_path(parent.as_ref(), name)?);
                }
            }
        }
        Ok(accepted)
    }

    /// Observes the accepted files and charges them as demand, in enumeration order (§14.1).
    ///
    /// The spec's inspection `statx`es each file and execution reads it later. Here each file
    /// is read (and analysed) right away, in parallel, and the identity of that read stands in
    /// for the `statx`: it is taken by `fstat` on the opened file, before the read, beneath the
    /// root. What is observable is unchanged: only the size goes into the demand, the ledger is
    /// charged at execution as before, and a file whose read fails is `statx`ed instead and read
    /// again at execution, so a read error (invalid UTF-8, permissions) still only fails the
    /// request when its scope is admitted. This saves one path resolution per file.
    fn observe_accepted(
        &self,
        work: &mut ScopeWork,
        root: RootId,
        accepted: Vec<RelPath>,
        strip: usize,
        prefix: &str,
    ) -> Result<Vec<CorpusFile>, ScopeFailure> {
        let reader = self.root_for(root)?;
        let query = &self.query;
        let cache = self
            .cache
            .zip(self.root_identity(root))
            .map(|((cache, generation), root)| (cache, generation, root));
        let now_ms = self.request.clock.now_ms;
        let mut files = Vec::with_capacity(accepted.len());
        // Files are read a batch at a time, so a scope that the demand check stops early (a
        // ceiling) costs at most one batch of reads beyond that point.
        for batch in accepted.chunks(OBSERVE_BATCH) {
            let early = parallel_map(batch, self.request.workers, |path, buffer| {
                let relative = &path.as_str()[strip..];
                if let Some((cache, generation, root)) = cache {
                    return read_through_cache(
                        reader, cache, generation, &root, path, relative, prefix, query, now_ms,
                        buffer,
                    );
                }
                let mut sub = Ledger::new(Limits {
                    files: 1,
                    bytes: MAX_FILE_BYTES,
                    entries: 0,
                });
                match reader.read_text(path, MAX_FILE_BYTES, &mut sub) {
                    Ok(Some(file)) => Some((
                        file.identity,
                        analyze(
                            &file.text,
                            relative,
                            prefix,
                            mtime_ms(&file.identity),
                            query,
                            buffer,
                        ),
                    )),
                    _ => None,
                }
            });
            for (path, early) in batch.iter().zip(early) {
                let (identity, analysis) = match early {
                    Some((identity, analysis)) => (identity, Some(analysis)),
                    None => match reader.probe(path) {
                        Ok(Some(found)) if found.kind == EntryKind::File => (found.identity, None),
                        Ok(_) => return Err(EvidenceError::Changed.into()),
                        Err(error) => return Err(observed_path_error(error)),
                    },
                };
                self.demand_file(work, identity.size)?;
                files.push(CorpusFile {
                    relative: path.as_str()[strip..].to_owned(),
                    rel: path.clone(),
                    identity,
                    analysis,
                });
            }
        }
        Ok(files)
    }

    fn inspect_memory(
        &mut self,
        work: &mut ScopeWork,
        meter: &mut Meter,
    ) -> Result<(), ScopeFailure> {
        let memory = rel("memory");
        let Some(entries) = self.list(work, meter, RootId::Aios, Some(&memory), true)? else {
            // No memory directory: every source is missing, so the scope is empty.
            return Ok(());
        };
        let mut event_shards: Vec<(u32, String)> = Vec::new();
        let mut signal_shards: Vec<(u32, String)> = Vec::new();
        for entry in &entries {
            let Some(name) = entry.name_str() else {
                continue;
            };
            if let Some(number) = shard_number(name, "events-archive.") {
                event_shards.push((number, name.to_owned()));
            } else if let Some(number) = shard_number(name, "signals-archive.") {
                signal_shards.push((number, name.to_owned()));
            }
        }
        event_shards.sort();
        signal_shards.sort();

        let signals_dir = rel("memory/signals");
        let mut signal_files: Vec<String> = Vec::new();
        if let Some(entries) = self.list(work, meter, RootId::Aios, Some(&signals_dir), true)? {
            for entry in entries {
                let name = entry.name.as_encoded_bytes();
                if is_skipped(name) || !Eligibility::Signals.accepts(name) {
                    continue;
                }
                match entry.kind {
                    EntryKind::Symlink => return Err(EvidenceError::PathUnsafe.into()),
                    // Subdirectories are not entered; an eligible special file is refused.
                    EntryKind::Directory => continue,
                    EntryKind::File => {
                        let name = entry.name_str().ok_or(EvidenceError::PathUnsafe)?;
                        signal_files.push(name.to_owned());
                    }
                    _ => return Err(EvidenceError::NotRegularFile.into()),
                }
            }
        }
        signal_files.sort_by(|a, b| utf16_cmp(b, a));

        let mut plans: Vec<(String, Family, Generation)> = vec![(
            "memory/events.jsonl".into(),
            Family::Events,
            Generation::Live,
        )];
        for (number, name) in &event_shards {
            plans.push((
                format!("memory/{name}"),
                Family::Events,
                Generation::Shard(*number),
            ));
        }
        plans.push((
            "memory/events-archive.jsonl".into(),
            Family::Events,
            Generation::ActiveArchive,
        ));
        for (number, name) in &signal_shards {
            plans.push((
                format!("memory/{name}"),
                Family::Signals,
                Generation::Shard(*number),
            ));
        }
        plans.push((
            "memory/signals-archive.jsonl".into(),
            Family::Signals,
            Generation::ActiveArchive,
        ));
        for name in &signal_files {
            plans.push((
                format!("memory/signals/{name}"),
                Family::Signals,
                Generation::Live,
            ));
        }
        for (label, family, generation) in plans {
            let path = rel(&label);
            let identity = self.inspect_fixed_file(work, &path)?;
            work.jsonl.push(JsonlPlan {
                rel: path,
                label,
                family,
                generation,
                identity,
            });
        }

        if self.request.memory == MemoryMode::Shared {
            self.inspect_corpus(
                work,
                meter,
                RootId::Aios,
                Some(rel("memory/daily")),
                "memory/daily",
                Eligibility::Markdown,
            )?;
            self.inspect_corpus(
                work,
                meter,
                RootId::Aios,
                Some(rel("memory/inbox")),
                "memory/inbox",
                Eligibility::Markdown,
            )?;
        }
        Ok(())
    }

    // ----- discovery --------------------------------------------------------------------

    fn discover(
        &mut self,
        work: &mut ScopeWork,
        meter: &mut Meter,
        project: Option<&ProjectIdentity>,
    ) -> Result<(), ScopeFailure> {
        match work.scope {
            Scope::Memory => {
                let plans = std::mem::take(&mut work.jsonl);
                for plan in &plans {
                    let entries = match plan.identity {
                        Some(identity) => {
                            let text = self.read_charged(work, meter, &plan.rel, &identity)?;
                            self.files.push((RootId::Aios, plan.rel.clone(), identity));
                            self.parse_charged(work, meter, &text)?
                        }
                        None => Vec::new(),
                    };
                    work.memory_sources.push(jsonl::Source {
                        label: plan.label.clone(),
                        family: plan.family,
                        generation: plan.generation,
                        entries,
                    });
                }
                Ok(())
            }
            Scope::Sessions => {
                let Some((index, identity)) = work.session_index.take() else {
                    return Ok(());
                };
                let text = self.read_charged(work, meter, &index, &identity)?;
                self.files.push((RootId::Aios, index, identity));
                let entries = self.parse_charged(work, meter, &text)?;
                let request = self.request;
                let mut read_body = |path: &RelPath| -> Result<Option<String>, ScopeFailure> {
                    self.read_session_body(work, meter, path)
                };
                let hits = search_sessions(
                    &entries,
                    request.query,
                    request.session_filters,
                    project,
                    request.clock.now_ms,
                    request.limit,
                    &mut read_body,
                )?;
                work.session_results = hits.into_iter().map(SearchHit::Session).collect();
                Ok(())
            }
            _ => Ok(()),
        }
    }

    fn read_session_body(
        &mut self,
        work: &mut ScopeWork,
        meter: &mut Meter,
        path: &RelPath,
    ) -> Result<Option<String>, ScopeFailure> {
        let Some(found) = self.aios.probe(path).map_err(fixed_location_error)? else {
            return Ok(None);
        };
        match found.kind {
            EntryKind::File => {}
            EntryKind::Symlink => return Err(EvidenceError::PathUnsafe.into()),
            _ => return Err(EvidenceError::NotRegularFile.into()),
        }
        self.demand_file(work, found.identity.size)?;
        let text = self.read_charged(work, meter, path, &found.identity)?;
        self.files
            .push((RootId::Aios, path.clone(), found.identity));
        Ok(Some(text))
    }

    /// Reads a file whose demand is already counted, charging the ledger and the phase
    /// budget (the materialised part).
    fn read_charged(
        &mut self,
        work: &mut ScopeWork,
        meter: &mut Meter,
        path: &RelPath,
        expected: &Identity,
    ) -> Result<String, ScopeFailure> {
        let allowance = self.ledger.remaining().min(meter.left());
        let mut sub = Ledger::new(Limits {
            files: allowance.files,
            bytes: allowance.bytes,
            entries: 0,
        });
        let read = self.aios.read_text(path, MAX_FILE_BYTES, &mut sub);
        let used = counts_of(sub.used());
        self.ledger.used = self.ledger.used.add(used);
        meter.used = meter.used.add(used);
        let _ = work;
        match read {
            Ok(Some(file)) if file.identity == *expected => Ok(file.text),
            Ok(_) => Err(EvidenceError::Changed.into()),
            Err(ReadError::Budget(dimension)) => {
                Err(ScopeFailure::Skippable(ceiling_of(dimension)))
            }
            Err(error) => Err(observed_path_error(error)),
        }
    }

    /// Parses JSONL text, charging one entry per non-blank line.
    fn parse_charged(
        &mut self,
        work: &mut ScopeWork,
        meter: &mut Meter,
        text: &str,
    ) -> Result<Vec<jsonl::Entry>, ScopeFailure> {
        let parsed = jsonl::parse(text);
        let allowance = self.entry_allowance(work, meter);
        if parsed.lines > allowance {
            self.charge_entries(work, meter, allowance);
            return Err(ScopeFailure::Skippable(OmissionReason::EntryCountExceeded));
        }
        self.charge_entries(work, meter, parsed.lines);
        Ok(parsed.entries)
    }

    // ----- execution --------------------------------------------------------------------

    fn execute(
        &mut self,
        work: ScopeWork,
        project: Option<&ProjectIdentity>,
    ) -> Result<Group, SearchError> {
        let _ = project;
        let limit = self.request.limit;
        let scope = work.scope;
        let results = match scope {
            Scope::Sessions => work.session_results,
            Scope::Memory => {
                let mut lists: Vec<Vec<SearchHit>> = vec![
                    jsonl::rank_sources(
                        &work.memory_sources,
                        &self.query,
                        &self.request.clock,
                        project,
                        limit,
                    )
                    .into_iter()
                    .map(SearchHit::Memory)
                    .collect(),
                ];
                for corpus in work.corpora {
                    lists.push(
                        self.execute_corpus(corpus)?
                            .into_iter()
                            .map(SearchHit::Markdown)
                            .collect(),
                    );
                }
                jsonl::round_robin(lists, limit)
            }
            _ => {
                let mut results = Vec::new();
                for corpus in work.corpora {
                    results.extend(
                        self.execute_corpus(corpus)?
                            .into_iter()
                            .map(SearchHit::Markdown),
                    );
                }
                results
            }
        };
        Ok(Group { scope, results })
    }

    /// Reads, matches and ranks one Markdown corpus (§8, §9).
    fn execute_corpus(&mut self, corpus: Corpus) -> Result<Vec<MarkdownHit>, SearchError> {
        let reader = self.root_for(corpus.root).map_err(fatal)?;
        let query = &self.query;
        let prefix = corpus.prefix.as_str();
        let pending: Vec<&CorpusFile> = corpus
            .files
            .iter()
            .filter(|file| file.analysis.is_none())
            .collect();
        let mut late = parallel_map(&pending, self.request.workers, |file, buffer| {
            read_and_analyze(reader, file, prefix, query, buffer)
        })
        .into_iter();
        let mut files = corpus.files;
        let analyses: Vec<Result<FileAnalysis, ScopeFailure>> = files
            .iter_mut()
            .map(|file| match file.analysis.take() {
                Some(analysis) => Ok(analysis),
                None => late
                    .next()
                    .unwrap_or(Err(ScopeFailure::Fatal(EvidenceError::ReadFailed.into()))),
            })
            .collect();
        let mut stats = CorpusStats::new(self.query.terms.len());
        let mut candidates = Vec::new();
        let mut charged = Counts::default();
        for (file, analysis) in files.iter().zip(analyses) {
            let analysis = analysis.map_err(fatal)?;
            charged.files += 1;
            charged.bytes += file.identity.size;
            stats.add(&analysis.token_hits);
            if let Some(candidate) = analysis.candidate {
                candidates.push(candidate);
            }
        }
        if !charged.fits_in(self.ledger.remaining()) {
            let reason = if charged.files > self.ledger.remaining().files {
                OmissionReason::FileCountExceeded
            } else {
                OmissionReason::AggregateBytesExceeded
            };
            return Err(EvidenceError::of_ceiling(reason).into());
        }
        self.ledger.used = self.ledger.used.add(charged);
        for file in files {
            self.searched_files
                .push((corpus.root, file.rel, file.identity));
        }
        let now = self.request.clock.now_ms;
        let mut ranked: Vec<(f64, MarkdownHit)> = candidates
            .into_iter()
            .map(|candidate| {
                let idf_sum: f64 = candidate
                    .matched_terms
                    .iter()
                    .map(|&term| stats.idf(term))
                    .sum();
                let value = rank(
                    candidate.kind,
                    idf_sum,
                    candidate.structural_boost,
                    decay(now - candidate.mtime_ms),
                );
                (value, candidate.hit)
            })
            .collect();
        // Stable: equal ranks and equally collating names keep enumeration order.
        ranked.sort_by(|(rank_a, a), (rank_b, b)| {
            rank_b
                .partial_cmp(rank_a)
                .unwrap_or(std::cmp::Ordering::Equal)
                .then_with(|| collate(&a.file, &b.file))
        });
        ranked.truncate(self.request.limit);
        Ok(ranked.into_iter().map(|(_, hit)| hit).collect())
    }

    // ----- final revalidation -----------------------------------------------------------

    /// §4.8 rule 4: every observed directory and file is `statx`ed again, and every root path
    /// must still lead to the same directory.
    fn revalidate(&self) -> Result<(), SearchError> {
        let changed = || SearchError::Evidence(EvidenceError::Changed);
        let reopened = Root::open(&self.aios_path).map_err(|_| changed())?;
        if reopened.restat().ok() != Some(self.aios_identity)
            || self.aios.restat().ok() != Some(self.aios_identity)
        {
            return Err(changed());
        }
        if let VaultPlace::External {
            root,
            path,
            identity,
        } = &self.vault
        {
            match (root, identity) {
                (Some(root), Some(identity)) => {
                    let reopened = Root::open(path).map_err(|_| changed())?;
                    if reopened.restat().ok() != Some(*identity)
                        || root.restat().ok() != Some(*identity)
                    {
                        return Err(changed());
                    }
                }
                _ => {
                    if Root::open(path).is_ok() {
                        return Err(changed());
                    }
                }
            }
        }
        let directories: Vec<(&(RootId, Option<RelPath>), &Identity)> =
            self.directories.iter().collect();
        let unchanged = parallel_map(
            &directories,
            self.request.workers,
            |((root, dir), identity), _| {
                let Some(reader) = self.root(*root) else {
                    return false;
                };
                let now = match dir {
                    Some(dir) => reader.probe(dir).ok().flatten().map(|probe| probe.identity),
                    None => reader.restat().ok(),
                };
                now == Some(**identity)
            },
        );
        if !unchanged.iter().all(|ok| *ok) {
            return Err(changed());
        }
        let all_files: Vec<&(RootId, RelPath, Identity)> = self
            .files
            .iter()
            .chain(&self.searched_files)
            .chain(&self.omitted_files)
            .collect();
        let verdicts = parallel_map(
            &all_files,
            self.request.workers,
            |(root, path, identity), _| {
                self.root(*root)
                    .is_some_and(|reader| reader.still_matches(path, identity).unwrap_or(false))
            },
        );
        if verdicts.iter().all(|ok| *ok) {
            Ok(())
        } else {
            Err(changed())
        }
    }
}

/// Reads an enumerated file, which must still be the object enumeration saw (§4.8 rules 2–3).
fn read_checked(reader: &Root, file: &CorpusFile) -> Result<String, ScopeFailure> {
    let mut sub = Ledger::new(Limits {
        files: 1,
        bytes: MAX_FILE_BYTES,
        entries: 0,
    });
    match reader.read_text(&file.rel, MAX_FILE_BYTES, &mut sub) {
        Ok(Some(text)) if text.identity == file.identity => Ok(text.text),
        Ok(_) => Err(EvidenceError::Changed.into()),
        Err(error) => Err(observed_path_error(error)),
    }
}

/// The read of [`Engine::observe_accepted`] with the server's cache (§19.2): a fresh no-follow
/// `statx` beneath the root that still gives the recorded identity validates a cached entry; otherwise the file is read exactly as
/// without a cache, and stored if it is not racy. `None` when the read failed (the caller then
/// treats the file as uncached would).
#[allow(clippy::too_many_arguments)]
fn read_through_cache(
    reader: &Root,
    cache: &SearchCache,
    generation: u64,
    root: &Identity,
    path: &RelPath,
    relative: &str,
    prefix: &str,
    query: &Query,
    now_ms: f64,
    buffer: &mut String,
) -> Option<(Identity, FileAnalysis)> {
    let key = Key {
        root_dev: root.dev,
        root_ino: root.ino,
        path: path.as_str().to_owned(),
    };
    // `still_matches` is the one no-follow `statx` beneath the root that §19.2 asks for.
    if let Some(recorded) = cache.identity_of(&key)
        && let Ok(true) = reader.still_matches(path, &recorded)
        && let Some(hit) = cache.get(&key, &recorded, generation)
    {
        let analysis = analyze_lowered(
            &hit.text,
            &hit.lower,
            relative,
            prefix,
            mtime_ms(&recorded),
            query,
        );
        return Some((recorded, analysis));
    }
    let mut sub = Ledger::new(Limits {
        files: 1,
        bytes: MAX_FILE_BYTES,
        entries: 0,
    });
    let file = reader.read_text(path, MAX_FILE_BYTES, &mut sub).ok()??;
    lowercase_into(&file.text, buffer);
    let analysis = analyze_lowered(
        &file.text,
        buffer,
        relative,
        prefix,
        mtime_ms(&file.identity),
        query,
    );
    cache.insert(key, file.identity, &file.text, buffer, now_ms, generation);
    Some((file.identity, analysis))
}

fn read_and_analyze(
    reader: &Root,
    file: &CorpusFile,
    prefix: &str,
    query: &Query,
    buffer: &mut String,
) -> Result<FileAnalysis, ScopeFailure> {
    let text = read_checked(reader, file)?;
    let mtime_ms = mtime_ms(&file.identity);
    Ok(analyze(
        &text,
        &file.relative,
        prefix,
        mtime_ms,
        query,
        buffer,
    ))
}

/// A file's modification time in milliseconds (fractional), for recency.
fn mtime_ms(identity: &Identity) -> f64 {
    identity.mtime_sec as f64 * 1000.0 + f64::from(identity.mtime_nsec) / 1_000_000.0
}

/// Applies `work` to every item on up to `workers` threads and returns the results in item
/// order. Each thread gets its own scratch buffer.
fn parallel_map<T: Sync, R: Send>(
    items: &[T],
    workers: usize,
    work: impl Fn(&T, &mut String) -> R + Sync,
) -> Vec<R> {
    const CHUNK: usize = 32;
    let workers = workers.clamp(1, 32).min(items.len().div_ceil(CHUNK).max(1));
    if workers <= 1 {
        let mut buffer = String::new();
        return items.iter().map(|item| work(item, &mut buffer)).collect();
    }
    let next = AtomicUsize::new(0);
    let mut pieces: Vec<(usize, Vec<R>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                scope.spawn(|| {
                    let mut buffer = String::new();
                    let mut done: Vec<(usize, Vec<R>)> = Vec::new();
                    loop {
                        let start = next.fetch_add(CHUNK, AtomicOrdering::Relaxed);
                        if start >= items.len() {
                            break;
                        }
                        let end = (start + CHUNK).min(items.len());
                        let results = items[start..end]
                            .iter()
                            .map(|item| work(item, &mut buffer))
                            .collect();
                        done.push((start, results));
                    }
                    done
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|handle| {
                handle
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect()
    });
    pieces.sort_by_key(|(start, _)| *start);
    pieces
        .into_iter()
        .flat_map(|(_, results)| results)
        .collect()
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

fn limits_of(counts: Counts) -> Limits {
    Limits {
        files: counts.files,
        bytes: counts.bytes,
        entries: counts.entries,
    }
}

fn counts_of(limits: Limits) -> Counts {
    Counts {
        files: limits.files,
        bytes: limits.bytes,
        entries: limits.entries,
    }
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

    #[test]
    fn parallel_map_keeps_order() {
        let items: Vec<usize> = (0..1000).collect();
        for workers in [1, 2, 7] {
            let out = parallel_map(&items, workers, |item, _| item * 2);
            assert_eq!(out, items.iter().map(|item| item * 2).collect::<Vec<_>>());
        }
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
