//! The working-context projection (contract 02) behind `dotaios brief --compact` and the MCP tool
//! `read_working_context`: one bounded, deterministic Markdown digest of the AIOS folder.
//!
//! Three layers, as the contract describes them:
//!
//! 1. **policy** — the memory policy ([`crate::folder::memory`]) is resolved by the caller
//!    before anything is opened; Off never reaches this module except for its fixed texts
//!    ([`off_cli_plain`], [`off_cli_hook_json`], [`off_mcp_payload`]).
//! 2. **projection** — [`project_working_context`]: reads the sources of the mode through one
//!    ledger between two authority snapshots, selects candidates, fits the budget and renders
//!    the digest ([`Projection`]).
//! 3. **envelope** — [`read_working_context`]: the projection plus the read-only migration
//!    inspection ([`WorkingContext`]), which formats each surface's exact output.
//!
//! **Architecture invariant:** every read goes through [`dotaios_contained::Root`]; nothing
//! here writes, reads the environment or the clock: `now` and the time zone are inputs, so a
//! test can pin both. Failures are typed ([`ContextError`]); their `Display` is the fixed,
//! path-free public text.
//!
//! Submodules: `sources` (what each mode reads), `parse` (Markdown helpers), `timeline`
//! (JSONL rows, order, filters, and the selection of the shown rows while they are parsed), `date` (clock and `Date.parse`), `render` (the grammar),
//! `fit` (budget and marker), `envelope` (notices and output texts).

mod date;
mod envelope;
mod fit;
pub(crate) mod parse;

pub(crate) use parse::{strip_frontmatter, unanswered_sections, without_comments};
mod provenance;
mod render;
pub(crate) mod sources;
mod timeline;

use std::borrow::Cow;

use dotaios_contained::Root;
use jiff::Timestamp;
use jiff::tz::TimeZone;
use serde_json::Value;

use self::render::{CandidateTexts, Candidates, HeaderSources, ProjectView};
use self::timeline::{Selection, SelectionRequest, TimelineTexts};
use crate::error::PublicError;
use crate::folder::attribution::attribute;
use crate::folder::inspection::{Inspection, inspect_migrations};
use crate::folder::memory::MemoryMode;
use crate::folder::projects::{
    Oversized, ProjectRecord, ProjectScope, ScopeError, read_catalog_with, resolve_scope,
};
use crate::folder::selector::{SELECTOR_INVALID_CODE, WorkingContextSelectorError};
use crate::request::{Budget, ContextSelector, Limit};
use crate::text::{JsString, NameOutput, escape_name};

pub use self::envelope::{
    MCP_METADATA_BOUND, MetadataTooLarge, off_cli_hook_json, off_cli_plain, off_mcp_payload,
};
pub use self::fit::{ContextBudget, Coverage};
pub use self::sources::ReadFailure;

const SIGNALS_SHOWN: usize = 8;
const EVENTS_SHOWN: usize = 8;
const PLAN_ITEMS: usize = 4;

/// The public message of every read failure of the projection (contract 02 §15).
pub const READ_FAILED_MESSAGE: &str = "DotAIOS could not read working context safely.";

/// Which memory the projection reads: the two modes that touch the folder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ContextScope<'a> {
    /// `Memory: Shared`: every source, every row.
    Shared,
    /// `Memory: This project`: the catalog and the rows attributed to one project.
    Project {
        /// The checked, JS-trimmed working-context selector (contract 01 §6.4.1).
        selector: ContextSelector<'a>,
    },
}

/// One projection request, its arguments checked ([`ContextInputs::check`], or the adapter's
/// static validation).
#[derive(Debug, Clone, Copy)]
pub struct ContextRequest<'a> {
    /// Shared or project memory.
    pub scope: ContextScope<'a>,
    /// Sessions shown.
    pub limit: Limit,
    /// The visible budget in UTF-16 units.
    pub budget: Budget,
    /// The request's single clock reading.
    pub now: Timestamp,
    /// The local time zone that defines `today` and offset-less session times.
    pub time_zone: &'a TimeZone,
}

/// The working-context arguments as `brief --compact` reads them (contract 02 §2): the raw
/// selector and two JavaScript numbers.
#[derive(Debug, Clone, Copy, Default)]
pub struct ContextInputs<'a> {
    /// The Project-mode selector as given; `None` in Shared mode.
    pub selector: Option<&'a str>,
    /// `Number(--limit)`; `None` → [`Limit::CONTEXT_DEFAULT`].
    pub limit: Option<f64>,
    /// `Number(--budget)`; `None` → [`Budget::DEFAULT`].
    pub budget: Option<f64>,
}

impl<'a> ContextInputs<'a> {
    /// Checks the arguments in contract 02 §2's order (selector, limit, budget) and returns the
    /// request they make; the first failure wins.
    pub fn check(
        self,
        now: Timestamp,
        time_zone: &'a TimeZone,
    ) -> Result<ContextRequest<'a>, ContextInputError> {
        let scope = match self.selector {
            None => ContextScope::Shared,
            Some(raw) => ContextScope::Project {
                selector: ContextSelector::check(raw)?,
            },
        };
        let limit = match self.limit {
            None => Limit::CONTEXT_DEFAULT,
            Some(value) => Limit::from_js_number(value).ok_or(ContextInputError::InvalidLimit)?,
        };
        let budget = match self.budget {
            None => Budget::DEFAULT,
            Some(value) => Budget::from_js_number(value).ok_or(ContextInputError::InvalidBudget)?,
        };
        Ok(ContextRequest {
            scope,
            limit,
            budget,
            now,
            time_zone,
        })
    }
}

/// Why the working-context arguments were refused (contract 02 §2). `Display` is the exact CLI
/// message; the adapter's static validation refuses these inputs first, with its own texts.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ContextInputError {
    /// The project selector failed contract 01 §6.4.1.
    #[error(transparent)]
    InvalidSelector(#[from] WorkingContextSelectorError),
    /// The session limit is not a finite non-negative number.
    #[error("Working-context limit must be non-negative")]
    InvalidLimit,
    /// The budget is not a finite non-negative number.
    #[error("Working-context visible character budget must be non-negative")]
    InvalidBudget,
}

impl PublicError for ContextInputError {
    fn code(&self) -> &'static str {
        match self {
            ContextInputError::InvalidSelector(_) => SELECTOR_INVALID_CODE,
            ContextInputError::InvalidLimit | ContextInputError::InvalidBudget => {
                ARGUMENT_INVALID_CODE
            }
        }
    }

    fn message(&self) -> Cow<'static, str> {
        Cow::Owned(self.to_string())
    }

    fn is_input_error(&self) -> bool {
        true
    }
}

/// Why the working context could not be produced. `Display` is the exact CLI message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ContextError {
    /// A source could not be read safely (the code is internal; the message is fixed).
    #[error("DotAIOS could not read working context safely.")]
    ReadFailed(ReadFailure),
    /// The selector matches no catalog record, or more than one (the resolver's error and
    /// text, contract 01 §6.4.1).
    #[error(transparent)]
    Project(ScopeError),
}

/// The code of a working-context `limit` or `budget` that is not a finite, non-negative number
/// (the reference raised a bare `TypeError`; contract 02 §2 gives only the message).
pub const ARGUMENT_INVALID_CODE: &str = "DOTAIOS_WORKING_CONTEXT_ARGUMENT_INVALID";

/// The public code of every read failure (contract 01 §4.11); [`ReadFailure::code`] is the
/// internal one.
pub const READ_FAILED_CODE: &str = "DOTAIOS_WORKING_CONTEXT_READ_FAILED";

/// The message is the CLI's (`Display`); the MCP tool answers the selector failures with the
/// texts of contract 05 §6.8 instead ([`crate::error::PROJECT_AMBIGUOUS_MESSAGE`] and
/// [`crate::error::PROJECT_UNREGISTERED_MESSAGE`]).
impl PublicError for ContextError {
    fn code(&self) -> &'static str {
        match self {
            ContextError::ReadFailed(_) => READ_FAILED_CODE,
            ContextError::Project(error) => error.code(),
        }
    }

    fn message(&self) -> Cow<'static, str> {
        match self {
            ContextError::ReadFailed(_) => Cow::Borrowed(READ_FAILED_MESSAGE),
            other => Cow::Owned(other.to_string()),
        }
    }

    fn is_input_error(&self) -> bool {
        !matches!(self, ContextError::ReadFailed(_))
    }
}

impl From<ReadFailure> for ContextError {
    fn from(failure: ReadFailure) -> ContextError {
        ContextError::ReadFailed(failure)
    }
}

/// The bounded digest and its metadata.
#[derive(Debug, Clone)]
pub struct Projection {
    mode: MemoryMode,
    /// The digest (contract 02 §10–§11); at most `budget.limit` UTF-16 units. It may hold a lone
    /// surrogate left by a UTF-16 cut, hence a [`JsString`].
    pub markdown: JsString,
    /// The budget report.
    pub budget: ContextBudget,
    /// The README coverage (project mode only).
    pub coverage: Option<Coverage>,
    /// The selected project's slug (`scope.project`), `None` in shared mode.
    pub scope_project: Option<String>,
    /// `now` in UTC as `YYYY-MM-DDTHH:MM:SS.sssZ`.
    pub generated_at: String,
    /// The local date of the digest header.
    pub today: String,
}

/// The projection with the migration state beside it (contract 02 §13).
#[derive(Debug, Clone)]
pub struct WorkingContext {
    /// The projection.
    pub projection: Projection,
    /// The read-only migration inspection (`operational.migration`).
    pub migration: Inspection,
}

/// Runs the projection and the migration inspection. A projection failure fails the request;
/// an inspection failure only changes the notice and `operational.migration`.
pub fn read_working_context(
    root: &Root,
    request: &ContextRequest<'_>,
) -> Result<WorkingContext, ContextError> {
    let projection = project_working_context(root, request)?;
    let migration = inspect_migrations(root);
    Ok(WorkingContext {
        projection,
        migration,
    })
}

/// Reads the sources of the requested mode and builds the fitted digest (contract 02 §4–§12).
///
/// A projection that observed a change runs again from the start, at most
/// [`crate::search::CHANGED_RUNS`] runs in all (contract 02 §4 step 5); every other failure is
/// returned at once.
pub fn project_working_context(
    root: &Root,
    request: &ContextRequest<'_>,
) -> Result<Projection, ContextError> {
    crate::run_again::run_again_if_changed(
        |error| matches!(error, ContextError::ReadFailed(ReadFailure::SourceChanged)),
        || project_once(root, request),
    )
}

/// One whole projection: its own snapshots, ledger and reads (contract 02 §4 steps 1–4).
fn project_once(root: &Root, request: &ContextRequest<'_>) -> Result<Projection, ContextError> {
    let selector = match request.scope {
        ContextScope::Shared => None,
        ContextScope::Project { selector } => Some(selector.as_str()),
    };
    let mode = if selector.is_some() {
        MemoryMode::Project
    } else {
        MemoryMode::Shared
    };
    let dates = date::local_dates(request.now, request.time_zone);
    let read = read_sources(root, mode, &dates.today, &dates.yesterday)?;

    let scope = match selector {
        None => None,
        Some(selector) => Some(resolve_scope(&read.catalog, selector).map_err(
            |error| match error {
                // A selector that names no readable project may name the one whose README was
                // over its cap (by slug, alias or id, which cannot be read): the selected
                // source is then too large and the request fails as it would have read it
                // (contract 01 §6.1).
                ScopeError::Unknown if !read.oversized.is_empty() => {
                    ContextError::from(ReadFailure::SourceTooLarge)
                }
                other => ContextError::Project(other),
            },
        )?),
    };
    let admit = |row: &Value| attribute(row, scope.as_ref(), mode);
    let selection = timeline::select(
        TimelineTexts {
            session_index: &read.session_index,
            signal_files: &read.signal_files,
            event_log: &read.event_log,
        },
        &SelectionRequest {
            today: &dates.today,
            yesterday: &dates.yesterday,
            time_zone: request.time_zone,
            sessions: request.limit.get(),
            signals: SIGNALS_SHOWN,
            events: EVENTS_SHOWN,
            infer_project: scope.is_none(),
        },
        admit,
    );

    let active = active_project(
        scope.as_ref(),
        selection.inferred_project.as_deref(),
        &read.catalog,
    );
    let excerpt_clipped = active.as_ref().is_some_and(|view| view.excerpt_clipped);
    let texts = candidate_texts(&read.shared, active, selection);
    let candidates = Candidates::new(mode.receipt(), &dates.today, &texts);
    let mut fitted = fit::fit(
        &candidates,
        request.budget.value(),
        scope.is_some(),
        excerpt_clipped,
    );
    if let Some(coverage) = fitted.coverage.as_mut() {
        coverage.omitted_siblings = read.oversized.len();
    }
    Ok(Projection {
        mode,
        markdown: fitted.markdown,
        budget: fitted.budget,
        coverage: fitted.coverage,
        scope_project: scope.map(|scope| scope.filter),
        generated_at: crate::text::iso_utc(request.now),
        today: dates.today,
    })
}

/// Everything one projection read. The JSONL sources stay text, bounded by the ledger; the
/// selection parses them row by row and keeps only what it can show (`timeline::select`).
struct Read {
    shared: sources::SharedSources,
    session_index: String,
    signal_files: Vec<sources::SignalFile>,
    event_log: String,
    catalog: Vec<ProjectRecord>,
    /// Project mode: slugs of sibling projects left out for an over-cap README.
    oversized: Vec<String>,
}

/// Steps 1–4 of contract 02 §4: snapshot, reads through one ledger, snapshot again.
fn read_sources(
    root: &Root,
    mode: MemoryMode,
    today: &str,
    yesterday: &str,
) -> Result<Read, ReadFailure> {
    let before = sources::authority_snapshot(root)?;
    let mut ledger = sources::projection_ledger();
    let shared = match mode {
        MemoryMode::Shared => sources::read_shared(root, today, yesterday, &mut ledger)?,
        // Project mode never opens the context files, the decision log or the daily notes.
        MemoryMode::Project | MemoryMode::Off => sources::SharedSources::default(),
    };
    let session_index = sources::read_session_index(root, &mut ledger)?;
    let signal_files = sources::read_signals(root, today, yesterday, &mut ledger)?;
    let event_log = sources::read_event_log(root, &mut ledger)?;
    // Shared mode renders every project, so an over-cap README fails it; project mode renders
    // only the selected one and omits an over-cap sibling (contract 01 §5.1, §6.1).
    let oversized = match mode {
        MemoryMode::Project => Oversized::Omit,
        MemoryMode::Shared | MemoryMode::Off => Oversized::Fail,
    };
    let catalog =
        read_catalog_with(root, &mut ledger, oversized).map_err(|error| catalog_failure(&error))?;
    #[cfg(test)]
    crate::run_again::before_revalidation::run();
    let after = sources::authority_snapshot(root)?;
    if before != after {
        return Err(ReadFailure::SourceChanged);
    }
    Ok(Read {
        shared,
        session_index,
        signal_files,
        event_log,
        catalog: catalog.records,
        oversized: catalog.oversized,
    })
}

fn catalog_failure(error: &crate::folder::projects::CatalogError) -> ReadFailure {
    use crate::folder::projects::CatalogError;
    match error {
        CatalogError::DirectoryLimit => ReadFailure::ProjectDirectoryLimit,
        CatalogError::Read { error, .. } => {
            ReadFailure::from_read(*error, ReadFailure::ProjectDirectoryLimit)
        }
        _ => ReadFailure::ProjectCatalog,
    }
}

/// The Active Project candidate (contract 02 §8.2). With a scope it is the resolved record itself
/// (open point 1: never another project that shares an alias).
fn active_project(
    scope: Option<&ProjectScope>,
    inferred: Option<&str>,
    catalog: &[ProjectRecord],
) -> Option<ProjectView> {
    if let Some(scope) = scope {
        // Only the selected project's README carries its provenance line (contract 02 §10).
        return catalog.get(scope.record).map(|record| ProjectView {
            source: provenance::project_readme(&record.slug, record.id.as_deref())
                .map(|path| provenance::line(&path, &record.readme)),
            ..record_view(record)
        });
    }
    match inferred {
        Some(inferred) => Some(
            catalog
                .iter()
                .find(|record| record.slug == inferred || record.project == inferred)
                .map_or_else(|| synthetic_view(inferred), record_view),
        ),
        None => catalog
            .iter()
            .find(|record| record.status == "active")
            .map(record_view),
    }
}

fn record_view(record: &ProjectRecord) -> ProjectView {
    // `name` and `project` are README text, rendered as written like every excerpt; the slug is
    // the directory's name and passes the one name rule (contract 02 §10.1), which leaves every
    // slug the catalog admits unchanged.
    let name = [&record.name, &record.project]
        .into_iter()
        .find(|value| !value.is_empty())
        .cloned()
        .unwrap_or_else(|| escape_name(&record.slug, NameOutput::Markdown).into_owned());
    let details = std::iter::once(&record.status)
        .chain(&record.domains)
        .filter(|detail| !detail.is_empty())
        .cloned()
        .collect();
    ProjectView {
        name,
        details,
        description: record.description.clone(),
        excerpt: record.context_excerpt.clone(),
        excerpt_clipped: record.context_excerpt_clipped,
        source: None,
    }
}

/// A project named only by sessions: its name, no status, no domains, no text.
fn synthetic_view(project: &str) -> ProjectView {
    ProjectView {
        name: project.to_owned(),
        details: Vec::new(),
        description: String::new(),
        excerpt: String::new(),
        excerpt_clipped: false,
        source: None,
    }
}

fn source_of(path: &str, text: &str) -> Option<String> {
    (!text.is_empty()).then(|| provenance::line(path, text))
}

/// The candidates of contract 02 §6, with the slices of §7.5 already selected. The Active
/// Project has already been inferred from every admitted session.
fn candidate_texts(
    shared: &sources::SharedSources,
    active_project: Option<ProjectView>,
    selection: Selection,
) -> CandidateTexts {
    let today_plan = parse::read_section(&shared.today_note, "Plan");
    let mut plan = parse::compact_lines(today_plan);
    plan.truncate(PLAN_ITEMS);
    CandidateTexts {
        identity: parse::compact_header(&parse::drop_unanswered(&parse::strip_frontmatter(
            &shared.identity,
        ))),
        priorities: parse::compact_header(&parse::drop_unanswered(&parse::strip_frontmatter(
            &shared.priorities,
        ))),
        current_work: parse::current_work(&shared.work),
        // A file that was read names itself beneath its section; an absent one reads as "" and
        // shows no section (contract 02 §10).
        sources: HeaderSources {
            identity: source_of("context/identity.md", &shared.identity),
            priorities: source_of("context/priorities.md", &shared.priorities),
            current_work: source_of("context/work.md", &shared.work),
        },
        decisions: parse::recent_decisions(&shared.decisions)
            .into_iter()
            .map(str::to_owned)
            .collect(),
        focus: parse::first_line(parse::read_section(&shared.today_note, "Focus")).to_owned(),
        plan: plan.into_iter().map(str::to_owned).collect(),
        carry_over: parse::carry_over(&shared.today_note, &shared.yesterday_note)
            .into_iter()
            .map(str::to_owned)
            .collect(),
        active_project,
        sessions: selection.sessions,
        signals: selection.signals,
        events: selection.events,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    static UTC: TimeZone = TimeZone::UTC;

    fn first_failure(inputs: ContextInputs<'_>) -> Option<ContextInputError> {
        inputs.check(Timestamp::UNIX_EPOCH, &UTC).err()
    }

    /// Contract 02 §2's order: the selector, then the limit, then the budget; the first wins.
    #[test]
    fn inputs_are_checked_selector_limit_budget() {
        let all_bad = ContextInputs {
            selector: Some("  "),
            limit: Some(f64::INFINITY),
            budget: Some(f64::NAN),
        };
        assert_eq!(
            first_failure(all_bad),
            Some(ContextInputError::InvalidSelector(
                WorkingContextSelectorError::Blank
            ))
        );
        let numbers_bad = ContextInputs {
            selector: Some(" alpha "),
            ..all_bad
        };
        assert_eq!(
            first_failure(numbers_bad),
            Some(ContextInputError::InvalidLimit)
        );
        let budget_bad = ContextInputs {
            limit: Some(0.0),
            ..numbers_bad
        };
        assert_eq!(
            first_failure(budget_bad),
            Some(ContextInputError::InvalidBudget)
        );
        let request = ContextInputs::default()
            .check(Timestamp::UNIX_EPOCH, &UTC)
            .unwrap();
        assert_eq!(
            (request.scope, request.limit, request.budget),
            (
                ContextScope::Shared,
                Limit::CONTEXT_DEFAULT,
                Budget::DEFAULT
            )
        );
    }

    /// A projection that observed a change runs again from the start (contract 02 §4 step 5):
    /// the change comes between the reads and the second authority snapshot, as an agent's
    /// hook appending an event and rewriting `aios.json` by rename would make it.
    mod run_again_after_change {
        use std::cell::Cell;
        use std::fs;
        use std::io::Write;
        use std::path::{Path, PathBuf};
        use std::rc::Rc;

        use super::*;
        use crate::run_again::{CHANGED_RUNS, before_revalidation};

        const EVENT: &str = r#"{"ts":"2026-08-29T07:00:00.000Z","type":"note","summary":"beacon"}"#;

        fn folder() -> tempfile::TempDir {
            let temp = tempfile::tempdir().unwrap();
            fs::write(
                temp.path().join("aios.json"),
                r#"{"schema_version":"1.2.0","vault_path":null}"#,
            )
            .unwrap();
            fs::create_dir(temp.path().join("memory")).unwrap();
            fs::write(
                temp.path().join("memory/events.jsonl"),
                format!("{EVENT}\n"),
            )
            .unwrap();
            temp
        }

        /// Appends one event and replaces `aios.json` by rename, so the second snapshot differs.
        fn change(root: &Path, summary: &str) {
            let mut events = fs::OpenOptions::new()
                .append(true)
                .open(root.join("memory/events.jsonl"))
                .unwrap();
            let row = format!(
                r#"{{"ts":"2026-08-29T08:00:00.000Z","type":"note","summary":"{summary}"}}"#
            );
            writeln!(events, "{row}").unwrap();
            let fresh = root.join("aios.json.new");
            fs::write(&fresh, r#"{"schema_version":"1.2.0", "vault_path":null}"#).unwrap();
            fs::rename(fresh, root.join("aios.json")).unwrap();
        }

        fn project(root: &Path) -> Result<Projection, ContextError> {
            let handle = Root::open(root).unwrap();
            let now: Timestamp = "2026-08-29T10:00:00.000Z".parse().unwrap();
            let request = ContextInputs::default().check(now, &UTC).unwrap();
            project_working_context(&handle, &request)
        }

        #[test]
        fn a_change_during_the_first_run_is_answered_by_the_second() {
            let temp = folder();
            let root = temp.path().to_path_buf();
            let changed = root.clone();
            before_revalidation::set(move || change(&changed, "lighthouse"));
            let markdown = project(&root).unwrap().markdown.to_string_lossy();
            // The answer is the second run's: it read the appended event.
            assert!(markdown.contains("lighthouse"), "{markdown}");
            assert!(markdown.contains("beacon"), "{markdown}");
        }

        #[test]
        fn a_change_during_every_run_fails_after_three_runs() {
            fn change_every_time(root: PathBuf, runs: Rc<Cell<usize>>) {
                before_revalidation::set(move || {
                    runs.set(runs.get() + 1);
                    change(&root, "again");
                    change_every_time(root, runs);
                });
            }
            let temp = folder();
            let root = temp.path().to_path_buf();
            let runs = Rc::new(Cell::new(0));
            change_every_time(root.clone(), Rc::clone(&runs));
            assert_eq!(
                project(&root).unwrap_err(),
                ContextError::ReadFailed(ReadFailure::SourceChanged)
            );
            assert_eq!(runs.get(), CHANGED_RUNS);
            before_revalidation::set(|| {});
        }
    }
}
