//! Behaviour tests of the whole search over real temporary folders: scopes, ranking order,
//! memory and sessions end to end, every omission reason with its full record, containment
//! refusals, Unicode queries, determinism and the read-only guarantee.
//!
//! They live inside the crate so that the request ceilings can be lowered
//! ([`engine::run_with_limits`]) and every ceiling reached with a small tree.

use std::fs;
#[cfg(unix)]
use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::engine::run_with_limits;
use super::*;
use crate::request::Limit;
use crate::text::to_json_compact;

const NOW_MS: f64 = 1_786_579_200_000.0;

static UTC: jiff::tz::TimeZone = jiff::tz::TimeZone::UTC;

fn clock() -> Clock<'static> {
    Clock {
        now_ms: NOW_MS,
        time_zone: &UTC,
    }
}

/// A temporary AIOS folder with `aios.json`.
struct Folder {
    temp: tempfile::TempDir,
}

impl Folder {
    fn new() -> Folder {
        let temp = tempfile::tempdir().unwrap();
        fs::create_dir(temp.path().join("aios")).unwrap();
        let folder = Folder { temp };
        folder.write(
            "aios.json",
            r#"{"schema_version":"1.2.0","vault_path":null}"#,
        );
        folder
    }

    fn root(&self) -> PathBuf {
        self.temp.path().join("aios")
    }

    fn outside(&self) -> PathBuf {
        self.temp.path().to_path_buf()
    }

    fn write(&self, path: &str, text: &str) -> &Folder {
        self.write_bytes(path, text.as_bytes())
    }

    fn write_bytes(&self, path: &str, bytes: &[u8]) -> &Folder {
        let full = self.root().join(path);
        fs::create_dir_all(full.parent().unwrap()).unwrap();
        fs::write(full, bytes).unwrap();
        self
    }

    fn mkdir(&self, path: &str) {
        fs::create_dir_all(self.root().join(path)).unwrap();
    }

    fn sized(&self, path: &str, size: u64) {
        let full = self.root().join(path);
        fs::create_dir_all(full.parent().unwrap()).unwrap();
        fs::File::create(&full).unwrap().set_len(size).unwrap();
    }

    #[cfg(unix)]
    fn link(&self, target: &Path, path: &str) {
        let full = self.root().join(path);
        fs::create_dir_all(full.parent().unwrap()).unwrap();
        symlink(target, full).unwrap();
    }
}

struct Ask<'a> {
    query: &'a str,
    scope: ScopeRequest,
    memory: MemoryMode,
    project: Option<&'a str>,
    limit: usize,
    filters: SessionFilters,
    workers: usize,
    limits: Counts,
    snippets: SnippetForm,
}

impl<'a> Ask<'a> {
    fn new(query: &'a str) -> Ask<'a> {
        Ask {
            query,
            scope: ScopeRequest::All,
            memory: MemoryMode::Shared,
            project: None,
            limit: 20,
            filters: SessionFilters::default(),
            workers: 2,
            limits: REQUEST_LIMITS,
            snippets: SnippetForm::Lines,
        }
    }

    fn scope(mut self, name: &str) -> Ask<'a> {
        self.scope = ScopeRequest::parse(name).unwrap();
        self
    }

    fn project(mut self, selector: &'a str) -> Ask<'a> {
        self.memory = MemoryMode::Project;
        self.project = Some(selector);
        self
    }

    fn windows(mut self) -> Ask<'a> {
        self.snippets = SnippetForm::Windows;
        self
    }

    fn workers(mut self, workers: usize) -> Ask<'a> {
        self.workers = workers;
        self
    }

    fn limits(mut self, files: u64, bytes: u64, entries: u64) -> Ask<'a> {
        self.limits = Counts {
            files,
            bytes,
            entries,
        };
        self
    }

    /// Builds the request as a surface does (the selector checked once, here) and runs it.
    fn run(&self, folder: &Path) -> Result<SearchOutcome, SearchError> {
        let project = self
            .project
            .map(Selector::canonical)
            .transpose()
            .map_err(SearchError::Selector)?;
        let request = SearchRequest {
            query: self.query,
            scope: self.scope,
            limit: Limit::count(self.limit),
            memory: self.memory,
            project,
            session_filters: &self.filters,
            clock: clock(),
            workers: self.workers,
            snippets: self.snippets,
        };
        run_with_limits(folder, &request, self.limits)
    }
}

fn sources(outcome: &SearchOutcome, scope: Scope) -> Vec<String> {
    outcome
        .groups
        .iter()
        .find(|group| group.scope == scope)
        .map(|group| {
            group
                .results
                .iter()
                .map(|hit| hit.source().to_owned())
                .collect()
        })
        .unwrap_or_default()
}

fn group_names(outcome: &SearchOutcome) -> Vec<&'static str> {
    outcome
        .groups
        .iter()
        .map(|group| group.scope.as_str())
        .collect()
}

fn omission_json(outcome: &SearchOutcome) -> Vec<String> {
    outcome
        .omissions
        .iter()
        .map(|omission| to_json_compact(&omission.to_value()))
        .collect()
}

fn evidence(result: Result<SearchOutcome, SearchError>) -> EvidenceError {
    match result {
        Err(SearchError::Evidence(error)) => error,
        other => panic!("expected an evidence error, got {other:?}"),
    }
}

// ----- modes, scopes, groups -------------------------------------------------------------

#[cfg(unix)]
#[test]
fn off_mode_touches_nothing() {
    let temp = tempfile::tempdir().unwrap();
    let missing = temp.path().join("does-not-exist");
    let mut ask = Ask::new("anything");
    ask.memory = MemoryMode::Off;
    let outcome = ask.run(&missing).unwrap();
    assert!(outcome.groups.is_empty() && outcome.complete());
    assert_eq!(outcome.notice(), MemoryMode::Off.notice());
    assert!(!missing.exists());
    // Even a folder whose every read would fail (no permissions at all) is never opened.
    let locked = temp.path().join("locked");
    fs::create_dir(&locked).unwrap();
    fs::set_permissions(&locked, fs::Permissions::from_mode(0o000)).unwrap();
    assert!(ask.run(&locked).unwrap().complete());
    fs::set_permissions(&locked, fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn a_fresh_folder_searches_cleanly() {
    let folder = Folder::new();
    let outcome = Ask::new("anything").run(&folder.root()).unwrap();
    assert_eq!(
        group_names(&outcome),
        [
            "sessions",
            "context",
            "memory",
            "vault",
            "decisions",
            "skills",
            "references",
            "plugins"
        ]
    );
    assert!(outcome.groups.iter().all(|group| group.results.is_empty()));
    assert!(outcome.complete());
    assert!(outcome.scope.projects_omitted);
}

fn rich_folder() -> Folder {
    let folder = Folder::new();
    folder
        .write("context/identity.md", "# Identity\nI run the harbour studio.\n")
        .write("context/domains/make.md", "---\ndescription: harbour tooling\n---\n# Make\nBoats.\n")
        .write("decisions/log.md", "# Decision Log\n\n## 2026-08-01 Harbour pricing\nFixed.\n")
        .write("skills/plan/SKILL.md", "---\nname: plan\n---\n# Plan\nharbour planning\n")
        .write("references/tides.md", "# Tides\nThe harbour floods.\n")
        .write("plugins/sync/manifest.json", "{\"name\":\"harbour-sync\"}\n")
        .write("plugins/sync/README.md", "# Sync\nharbour sync plugin\n")
        .write("plugins/sync/NOTE.MD", "harbour but not eligible in plugins\n")
        .write("vault/wiki/harbour.md", "# Harbour\nThe harbour notes.\n")
        .write("vault/.obsidian/harbour.md", "hidden harbour\n")
        .write("vault/credentials.md", "harbour secret\n")
        .write("vault/node_modules/x.md", "harbour module\n")
        .write("vault/asset.png", "harbour image\n")
        .write("memory/daily/2026-08-12.md", "# 2026-08-12\nWalked the harbour.\n")
        .write("memory/inbox/idea.md", "# Idea\nharbour ferry app\n")
        .write(
            "memory/events.jsonl",
            "{\"ts\":\"2026-08-12T10:00:00Z\",\"type\":\"note\",\"summary\":\"harbour meeting\"}\nnot json\n",
        )
        .write(
            "memory/signals/2026-08-11.jsonl",
            "{\"ts\":\"2026-08-11T10:00:00Z\",\"type\":\"signal\",\"summary\":\"harbour lead\"}\n",
        )
        .write(
            "memory/sessions/index.jsonl",
            "{\"session_id\":\"s1\",\"agent\":\"codex\",\"captured_at\":\"2026-08-10T09:00:00Z\",\"title\":\"Harbour call\",\"path\":\"memory/sessions/2026-08-10/a.md\"}\n",
        )
        .write("memory/sessions/2026-08-10/a.md", "---\nagent: codex\n---\ntranscript\n")
        .write(
            "projects/ferry/README.md",
            "---\nid: acme:ferry\n---\n# Ferry\nharbour ferry project\n",
        );
    folder
}

/// A signal file and a note whose names hold format or control characters are searched and
/// shown through the one name rule (contract 02 §10.1): `\u{…}` escapes, never the raw
/// characters; an ordinary name is unchanged. Unix only: Windows' name rules refuse U+0085.
#[cfg(unix)]
#[test]
fn odd_file_names_are_shown_escaped() {
    let folder = Folder::new();
    folder
        .write(
            "memory/signals/evil\u{202E}2026-08-11.jsonl",
            "{\"ts\":\"2026-08-11T10:00:00Z\",\"type\":\"signal\",\"summary\":\"harbour lead\"}\n",
        )
        .write("memory/inbox/a\u{85}b_c.md", "harbour ferry app\n")
        .write("memory/inbox/plain_name.md", "harbour ferry app\n");
    let outcome = Ask::new("harbour").run(&folder.root()).unwrap();
    assert_eq!(
        sources(&outcome, Scope::Memory),
        [
            "memory/signals/evil\\u{202E}2026-08-11.jsonl",
            "memory/inbox/a\\u{0085}b_c.md",
            "memory/inbox/plain_name.md",
        ]
    );
}

#[test]
fn every_shared_scope_finds_its_files() {
    let folder = rich_folder();
    let outcome = Ask::new("harbour").run(&folder.root()).unwrap();
    assert!(outcome.complete());
    assert_eq!(
        sources(&outcome, Scope::Sessions),
        ["sessions/memory/sessions/2026-08-10/a.md"]
    );
    assert_eq!(
        sources(&outcome, Scope::Context),
        ["context/domains/make.md", "context/identity.md"]
    );
    assert_eq!(
        sources(&outcome, Scope::Memory),
        [
            "memory/events.jsonl",
            "memory/signals/2026-08-11.jsonl",
            "memory/daily/2026-08-12.md",
            "memory/inbox/idea.md",
        ]
    );
    assert_eq!(sources(&outcome, Scope::Vault), ["vault/wiki/harbour.md"]);
    assert_eq!(sources(&outcome, Scope::Decisions), ["decisions/log.md"]);
    assert_eq!(sources(&outcome, Scope::Skills), ["skills/plan/SKILL.md"]);
    assert_eq!(
        sources(&outcome, Scope::References),
        ["references/tides.md"]
    );
    assert_eq!(
        sources(&outcome, Scope::Plugins),
        ["plugins/sync/manifest.json", "plugins/sync/README.md"]
    );
    // Projects are never part of Shared `all`.
    assert!(sources(&outcome, Scope::Projects).is_empty());
}

#[test]
fn markdown_result_shape_and_description_boost() {
    let folder = rich_folder();
    let outcome = Ask::new("harbour")
        .scope("context")
        .run(&folder.root())
        .unwrap();
    let first = &outcome.groups[0].results[0];
    assert_eq!(
        to_json_compact(&first.to_value()),
        r#"{"source":"context/domains/make.md","file":"domains/make.md","title":"Make","matches":[{"line":1,"lineEnd":1,"content":"description: harbour tooling","match":"phrase","area":"description"},{"line":1,"lineEnd":3,"content":"--- / description: harbour tooling / ---","match":"phrase","area":"body"}]}"#
    );
}

#[test]
fn explicit_scope_searches_one_scope() {
    let folder = rich_folder();
    let outcome = Ask::new("harbour")
        .scope("vault")
        .run(&folder.root())
        .unwrap();
    assert_eq!(group_names(&outcome), ["vault"]);
    assert!(!outcome.scope.projects_omitted);
}

#[test]
fn project_mode_scopes_and_attribution() {
    let folder = rich_folder();
    folder
        .write(
            "memory/events.jsonl",
            concat!(
                "{\"summary\":\"harbour for ferry\",\"project\":\"ferry\"}\n",
                "{\"summary\":\"harbour by id\",\"project_id\":\"acme:ferry\"}\n",
                "{\"summary\":\"harbour unattributed\"}\n",
                "{\"summary\":\"harbour other\",\"project\":\"other\"}\n",
            ),
        )
        .write(
            "memory/sessions/index.jsonl",
            concat!(
                "{\"title\":\"Harbour a\",\"project\":\"ferry\",\"path\":\"memory/sessions/x.md\"}\n",
                "{\"title\":\"Harbour b\",\"path\":\"memory/sessions/y.md\"}\n",
            ),
        );
    let outcome = Ask::new("harbour")
        .project("acme:ferry")
        .run(&folder.root())
        .unwrap();
    assert_eq!(group_names(&outcome), ["sessions", "memory", "projects"]);
    assert_eq!(outcome.scope.project.as_deref(), Some("ferry"));
    assert_eq!(outcome.scope.project_id.as_deref(), Some("acme:ferry"));
    assert!(!outcome.scope.projects_omitted);
    assert_eq!(
        sources(&outcome, Scope::Sessions),
        ["sessions/memory/sessions/x.md"]
    );
    // JSONL only: no daily or inbox notes in Project mode.
    let memory = &outcome.groups[1].results;
    assert_eq!(memory.len(), 2);
    assert_eq!(
        sources(&outcome, Scope::Projects),
        ["projects/ferry/README.md"]
    );
    // The same identity by slug.
    let by_slug = Ask::new("harbour")
        .project("ferry")
        .run(&folder.root())
        .unwrap();
    assert_eq!(by_slug.groups, outcome.groups);
}

#[test]
fn project_mode_forbids_other_scopes_after_resolving_the_selector() {
    let folder = rich_folder();
    let outcome = Ask::new("harbour")
        .project("ferry")
        .scope("vault")
        .run(&folder.root())
        .unwrap();
    assert!(outcome.groups.is_empty());
    assert_eq!(
        omission_json(&outcome),
        [
            r#"{"scope":"vault","reason":"scope_forbidden_by_memory_policy","observed":{"files":0,"bytes":0,"entries":0},"inspection":"not_searched","recovery":{"code":"choose_project_scope_or_shared_memory","message":"Search sessions, memory, or projects, or choose Shared memory for this scope."}}"#
        ]
    );
    let unknown = Ask::new("harbour")
        .project("nobody")
        .scope("vault")
        .run(&folder.root());
    assert_eq!(unknown, Err(SearchError::SelectorUnknown));
}

#[test]
fn selector_errors() {
    let folder = rich_folder();
    let padded = Ask::new("x").project(" ferry ").run(&folder.root());
    assert_eq!(
        padded.unwrap_err().to_string(),
        "project selector must be a safe project slug or stable id"
    );
    let mut shared_projects = Ask::new("x").scope("projects");
    shared_projects.memory = MemoryMode::Shared;
    assert_eq!(
        shared_projects.run(&folder.root()).unwrap_err().code(),
        "DOTAIOS_PROJECT_SELECTOR_INVALID"
    );
    folder.write("projects/bad/README.md", "---\nid: \" spaced \"\n---\n");
    let catalog = Ask::new("x")
        .project("bad")
        .run(&folder.root())
        .unwrap_err();
    assert_eq!(catalog.code(), "DOTAIOS_PROJECT_CATALOG_INVALID");
    assert!(!catalog.is_input_error());
    folder.write("projects/twin/README.md", "---\nid: ferry\n---\n");
    assert_eq!(
        Ask::new("x").project("ferry").run(&folder.root()),
        Err(SearchError::SelectorAmbiguous)
    );
}

// ----- ranking and order ------------------------------------------------------------------

#[test]
#[cfg_attr(
    windows,
    ignore = "needs b.md and B.md side by side, which a case-insensitive file system cannot hold"
)]
fn markdown_order_is_rank_then_collation() {
    let folder = Folder::new();
    folder
        .write("context/b.md", "alpha beta\n")
        .write("context/a.md", "alpha x beta\n")
        .write("context/B.md", "alpha beta\n")
        .write("context/c.md", "beta\n")
        .write("context/alpha-beta.md", "alpha beta\n");
    let outcome = Ask::new("alpha beta")
        .scope("context")
        .run(&folder.root())
        .unwrap();
    assert_eq!(
        sources(&outcome, Scope::Context),
        [
            "context/alpha-beta.md",
            "context/b.md",
            "context/B.md",
            "context/a.md",
            "context/c.md"
        ]
    );
}

#[test]
fn a_frontmatter_tag_weighs_as_a_heading() {
    // Same length, same word in the frontmatter; only `b.md` names it as a tag, so it ranks
    // first although collation would put `a.md` first on a tie (contract 03 §9.1).
    let folder = Folder::new();
    folder
        .write("context/a.md", "---\nkind: [pricing]\n---\nnotes\n")
        .write("context/b.md", "---\ntags: [pricing]\n---\nnotes\n");
    let outcome = Ask::new("pricing")
        .scope("context")
        .run(&folder.root())
        .unwrap();
    assert_eq!(
        sources(&outcome, Scope::Context),
        ["context/b.md", "context/a.md"]
    );
}

#[test]
fn recency_decays_in_day_buckets() {
    let folder = Folder::new();
    folder
        .write("context/old.md", "needle\n")
        .write("context/new.md", "needle\n");
    let set_time = |name: &str, seconds: i64| {
        let file = fs::File::options()
            .write(true)
            .open(folder.root().join(name))
            .unwrap();
        file.set_modified(std::time::UNIX_EPOCH + std::time::Duration::from_secs(seconds as u64))
            .unwrap();
    };
    let now = (NOW_MS / 1000.0) as i64;
    set_time("context/old.md", now - 90 * 86_400);
    set_time("context/new.md", now - 86_400);
    let outcome = Ask::new("needle")
        .scope("context")
        .run(&folder.root())
        .unwrap();
    assert_eq!(
        sources(&outcome, Scope::Context),
        ["context/new.md", "context/old.md"]
    );
}

#[test]
fn limit_bounds_the_merged_list() {
    let folder = Folder::new();
    for index in 0..5 {
        folder.write(&format!("context/{index}.md"), "needle\n");
        folder.write(&format!("vault/{index}.md"), "needle\n");
    }
    let mut ask = Ask::new("needle");
    ask.limit = 2;
    let outcome = ask.run(&folder.root()).unwrap();
    // Equal scores fall back to declared scope order, then file name (contract 03 §9.4).
    let ranked: Vec<&str> = outcome.ranked().map(|(_, hit)| hit.source()).collect();
    assert_eq!(ranked, ["context/0.md", "context/1.md"]);
    assert!(sources(&outcome, Scope::Vault).is_empty());
}

#[test]
fn memory_entries_and_notes_share_one_order() {
    let folder = Folder::new();
    folder
        .write("memory/events.jsonl", "{\"summary\":\"needle\"}\n")
        .write(
            "memory/events-archive.000001.jsonl",
            "{\"summary\":\"needle one\"}\n",
        )
        .write(
            "memory/events-archive.000002.jsonl",
            "{\"summary\":\"needle two\"}\n",
        )
        .write("memory/daily/a.md", "needle\n")
        .write("memory/daily/b.md", "needle\n")
        .write("memory/inbox/c.md", "needle\n");
    let mut ask = Ask::new("needle").scope("memory");
    ask.limit = 5;
    let outcome = ask.run(&folder.root()).unwrap();
    assert_eq!(
        sources(&outcome, Scope::Memory),
        // One relevance order: the entries hold the term in their summary, the notes in the
        // body only; `limit` bounds the merged list (contract 03 §9.4, §10.7).
        [
            "memory/events.jsonl",
            "memory/events-archive.000001.jsonl",
            "memory/events-archive.000002.jsonl",
            "memory/daily/a.md",
            "memory/daily/b.md",
        ]
    );
}

#[test]
fn memory_hit_shape_and_retry_suppression() {
    let folder = Folder::new();
    let line =
        "{\"ts\":\"2026-08-12T00:00:00Z\",\"type\":\"note\",\"summary\":\"needle\",\"10\":1}\n";
    folder
        .write("memory/events.jsonl", line)
        .write("memory/events-archive.jsonl", &line.repeat(2));
    let outcome = Ask::new("needle")
        .scope("memory")
        .run(&folder.root())
        .unwrap();
    let hits = &outcome.groups[0].results;
    assert_eq!(
        hits.len(),
        2,
        "the archive holds more copies, so the live copy is suppressed"
    );
    assert_eq!(hits[0].source(), "memory/events-archive.jsonl");
    assert_eq!(
        to_json_compact(&hits[0].to_value()),
        r#"{"10":1,"source":"memory/events-archive.jsonl","match":{"field":"summary","value":"needle","kind":"phrase","score":10},"matchedField":null,"matchedSnippet":null,"ts":"2026-08-12T00:00:00Z","type":"note","summary":"needle"}"#
    );
}

#[test]
fn sessions_end_to_end_with_filters() {
    let folder = rich_folder();
    folder.write(
        "memory/sessions/index.jsonl",
        concat!(
            "{\"agent\":\"codex\",\"title\":\"t\",\"captured_at\":\"2026-08-01T00:00:00Z\",\"path\":\"memory/sessions/2026-08-10/a.md\"}\n",
            "{broken\n",
            "{\"agent\":\"claude\",\"title\":\"Transcript talk\",\"captured_at\":\"2026-08-12T00:00:00Z\",\"path\":\"memory/sessions/b.md\"}\n",
        ),
    );
    let outcome = Ask::new("TRANSCRIPT")
        .scope("sessions")
        .run(&folder.root())
        .unwrap();
    let hits: Vec<Value> = outcome.groups[0]
        .results
        .iter()
        .map(SearchHit::to_value)
        .collect();
    assert_eq!(hits.len(), 2);
    assert_eq!(hits[0]["title"], "Transcript talk");
    assert_eq!(hits[0]["matches"], Value::Array(Vec::new()));
    assert_eq!(hits[1]["matches"][0]["content"], "transcript");
    let mut filtered = Ask::new("transcript").scope("sessions");
    filtered.filters.agent = Some("codex".into());
    let outcome = filtered.run(&folder.root()).unwrap();
    assert_eq!(outcome.groups[0].results.len(), 1);
}

// ----- omissions: every reason, the full record --------------------------------------------

#[test]
fn file_too_large_omits_the_scope() {
    let folder = Folder::new();
    folder.sized("vault/huge.md", MAX_FILE_BYTES + 1);
    folder.write("context/a.md", "needle\n");
    let outcome = Ask::new("needle").run(&folder.root()).unwrap();
    assert!(!outcome.complete());
    assert_eq!(
        omission_json(&outcome),
        [
            r#"{"scope":"vault","reason":"file_too_large","observed":{"files":0,"bytes":0,"entries":1},"inspection":"not_searched","recovery":{"code":"split_or_move_file","message":"Split the oversized file, or move it outside this search scope."}}"#
        ]
    );
    assert!(!group_names(&outcome).contains(&"vault"));
    assert_eq!(sources(&outcome, Scope::Context), ["context/a.md"]);
    // Exactly 4 MiB is allowed.
    folder.sized("vault/huge.md", MAX_FILE_BYTES);
    assert!(Ask::new("needle").run(&folder.root()).unwrap().complete());
}

#[test]
fn an_oversized_file_in_every_scope() {
    let folder = Folder::new();
    for path in [
        "memory/sessions/index.jsonl",
        "context/big.md",
        "memory/events.jsonl",
        "vault/big.md",
        "decisions/big.md",
        "skills/oversized/SKILL.md",
        "references/big.md",
        "plugins/oversized/manifest.json",
    ] {
        folder.sized(path, MAX_FILE_BYTES + 1);
    }
    let outcome = Ask::new("missing").run(&folder.root()).unwrap();
    let scopes: Vec<&str> = outcome
        .omissions
        .iter()
        .map(|omission| omission.scope)
        .collect();
    assert_eq!(
        scopes,
        [
            "sessions",
            "context",
            "memory",
            "vault",
            "decisions",
            "skills",
            "references",
            "plugins"
        ]
    );
    assert!(
        outcome
            .omissions
            .iter()
            .all(|omission| omission.reason == OmissionReason::FileTooLarge)
    );
    // Each record names its file for the CLI (§17.4), never in its JSON.
    let causes: Vec<Option<OmissionCause>> = outcome
        .omissions
        .iter()
        .map(|omission| omission.cause.clone())
        .collect();
    let file = |path: &str| {
        Some(OmissionCause::File {
            path: path.to_owned(),
            bytes: MAX_FILE_BYTES + 1,
        })
    };
    assert_eq!(
        causes,
        [
            file("memory/sessions/index.jsonl"),
            file("context/big.md"),
            file("memory/events.jsonl"),
            file("vault/big.md"),
            file("decisions/big.md"),
            file("skills/oversized/SKILL.md"),
            file("references/big.md"),
            file("plugins/oversized/manifest.json"),
        ]
    );
    assert!(
        omission_json(&outcome)
            .iter()
            .all(|json| !json.contains("big"))
    );
    assert!(outcome.groups.is_empty());
}

#[test]
fn directory_entries_exceeded_is_partially_enumerated() {
    let folder = Folder::new();
    folder.mkdir("references/big");
    for index in 0..=MAX_DIRECTORY_ENTRIES {
        fs::File::create(folder.root().join(format!("references/big/{index}.txt"))).unwrap();
    }
    let outcome = Ask::new("needle").run(&folder.root()).unwrap();
    assert_eq!(
        omission_json(&outcome),
        [
            r#"{"scope":"references","reason":"directory_entries_exceeded","observed":{"files":0,"bytes":0,"entries":8194},"inspection":"partially_enumerated","recovery":{"code":"reduce_directory_entries","message":"Move some directory entries elsewhere, then retry the same search."}}"#
        ]
    );
    assert_eq!(
        outcome.omissions[0].cause,
        Some(OmissionCause::Directory {
            path: "references/big/".to_owned()
        })
    );
    // Exactly 8,192 entries are allowed.
    fs::remove_file(folder.root().join("references/big/0.txt")).unwrap();
    assert!(Ask::new("needle").run(&folder.root()).unwrap().complete());
}

/// An external vault's own root over the entry limit is named `vault/` (§3.4, §17.4).
#[cfg(unix)]
#[test]
fn an_external_vault_root_over_the_entry_limit_is_named_vault() {
    let folder = Folder::new();
    let outside = folder.outside().join("obsidian");
    fs::create_dir(&outside).unwrap();
    for index in 0..=MAX_DIRECTORY_ENTRIES {
        fs::File::create(outside.join(format!("{index}.txt"))).unwrap();
    }
    folder.link(&outside, "vault");
    let outcome = Ask::new("needle").run(&folder.root()).unwrap();
    let causes: Vec<_> = outcome.omissions.iter().map(|o| o.cause.clone()).collect();
    assert_eq!(
        causes,
        [Some(OmissionCause::Directory {
            path: "vault/".to_owned()
        })]
    );
}

/// Searches `needle` under `limits` (files, bytes, entries) in `folder`, whose
/// `context/c.md` holds it: that context source must survive whatever the limits omit
/// elsewhere. Returns the omissions as JSON.
fn omitted_beside_context(folder: &Folder, files: u64, bytes: u64, entries: u64) -> Vec<String> {
    folder.write("context/c.md", "needle\n");
    let outcome = Ask::new("needle")
        .limits(files, bytes, entries)
        .run(&folder.root())
        .unwrap();
    assert_eq!(sources(&outcome, Scope::Context), ["context/c.md"]);
    omission_json(&outcome)
}

#[test]
fn aggregate_bytes_exceeded() {
    let folder = Folder::new();
    folder
        .write("vault/a.md", &"x".repeat(600))
        .write("vault/b.md", &"x".repeat(600));
    let config = fs::metadata(folder.root().join("aios.json")).unwrap().len();
    assert_eq!(
        omitted_beside_context(&folder, 100, config + 1000, 1000),
        [
            r#"{"scope":"vault","reason":"aggregate_bytes_exceeded","observed":{"files":1,"bytes":1001,"entries":2},"inspection":"not_searched","recovery":{"code":"narrow_or_reduce_scope","message":"Search a narrower scope, or move older material outside this scope."}}"#
        ]
    );
}

#[test]
fn file_count_exceeded() {
    let folder = Folder::new();
    for index in 0..6 {
        folder.write(&format!("vault/{index}.md"), "x\n");
    }
    assert_eq!(
        omitted_beside_context(&folder, 5, 1 << 20, 1000),
        [
            r#"{"scope":"vault","reason":"file_count_exceeded","observed":{"files":5,"bytes":8,"entries":6},"inspection":"not_searched","recovery":{"code":"narrow_or_reduce_scope","message":"Search a narrower scope, or move some files outside this scope."}}"#
        ]
    );
}

#[test]
fn entry_count_exceeded_by_jsonl_lines() {
    let folder = Folder::new();
    folder.write("memory/events.jsonl", &"{\"summary\":\"x\"}\n".repeat(50));
    assert_eq!(
        omitted_beside_context(&folder, 100, 1 << 20, 40),
        [
            r#"{"scope":"memory","reason":"entry_count_exceeded","observed":{"files":1,"bytes":800,"entries":41},"inspection":"not_searched","recovery":{"code":"narrow_or_reduce_scope","message":"Search a narrower scope, or archive entries outside this scope."}}"#
        ]
    );
}

#[test]
fn one_large_scope_does_not_starve_the_others() {
    let folder = Folder::new();
    for index in 0..30 {
        folder.write(&format!("vault/{index}.md"), "needle\n");
    }
    for scope in ["context", "decisions", "skills", "references", "plugins"] {
        folder.write(&format!("{scope}/a.md"), "needle\n");
    }
    // 40 files in all, but only 32 may be read: the vault (30) is the one omitted.
    let outcome = Ask::new("needle")
        .limits(32, 1 << 20, 10_000)
        .run(&folder.root())
        .unwrap();
    let scopes: Vec<&str> = outcome
        .omissions
        .iter()
        .map(|omission| omission.scope)
        .collect();
    assert_eq!(scopes, ["vault"]);
    assert_eq!(
        outcome.omissions[0].reason,
        OmissionReason::FileCountExceeded
    );
    for scope in [
        Scope::Context,
        Scope::Decisions,
        Scope::Skills,
        Scope::References,
    ] {
        assert_eq!(sources(&outcome, scope).len(), 1, "{scope:?}");
    }
}

#[test]
fn a_ceiling_outside_any_scope_is_fatal() {
    let folder = Folder::new();
    folder.sized("aios.json", MAX_CONFIG_BYTES + 1);
    assert_eq!(
        evidence(Ask::new("x").run(&folder.root())),
        EvidenceError::FileTooLarge
    );
    let folder = Folder::new();
    assert_eq!(
        evidence(Ask::new("x").limits(0, 0, 0).run(&folder.root())),
        EvidenceError::FileCountExceeded
    );
}

// ----- safety: fail closed, path-free, unchanged ------------------------------------------

use dotaios_testkit::fingerprint;

fn assert_fails_closed(folder: &Folder, ask: &Ask<'_>, expected: EvidenceError) {
    let before = fingerprint(&folder.outside());
    let error = ask.run(&folder.root()).unwrap_err();
    assert_eq!(error, SearchError::Evidence(expected));
    let message = error.to_string();
    assert!(!message.contains('/'), "path-free: {message}");
    assert_eq!(fingerprint(&folder.outside()), before);
}

/// The links of every kind a user's folder holds, below `dir`: to a note inside the folder,
/// to one outside it, dangling, looping, and a linked directory whose name ends in `.md`.
#[cfg(unix)]
fn plant_links(folder: &Folder, dir: &str) -> Vec<String> {
    folder.write("elsewhere.md", "needle inside");
    fs::write(folder.outside().join("outside.md"), "needle outside").unwrap();
    fs::create_dir_all(folder.outside().join("dir")).unwrap();
    fs::write(folder.outside().join("dir/x.md"), "needle in dir").unwrap();
    folder.link(
        &folder.root().join("elsewhere.md"),
        &format!("{dir}/inside.md"),
    );
    folder.link(
        &folder.outside().join("outside.md"),
        &format!("{dir}/outside.md"),
    );
    folder.link(
        &folder.outside().join("gone.md"),
        &format!("{dir}/dangling.md"),
    );
    folder.link(Path::new("loop.md"), &format!("{dir}/loop.md"));
    folder.link(&folder.outside().join("dir"), &format!("{dir}/notes.md"));
    [
        "dangling.md",
        "inside.md",
        "loop.md",
        "notes.md",
        "outside.md",
    ]
    .iter()
    .map(|name| format!("{dir}/{name}"))
    .collect()
}

/// Runs `ask` under every resolution strategy the platform has; each must give `expected`.
#[cfg(unix)]
fn under_every_strategy(folder: &Folder, ask: &Ask<'_>) -> SearchOutcome {
    let mut outcomes = dotaios_contained::Strategy::available()
        .iter()
        .map(|&strategy| super::engine::with_strategy(strategy, || ask.run(&folder.root())))
        .collect::<Vec<_>>();
    let first = outcomes.remove(0).unwrap();
    for other in outcomes {
        let other = other.unwrap();
        assert_eq!(omission_json(&other), omission_json(&first));
        assert_eq!(other.skipped_links, first.skipped_links);
        assert_eq!(other.ranked().count(), first.ranked().count());
    }
    first
}

/// §4.4: a link where a note would be read is skipped, never followed, and reported; the
/// request never fails for it, whatever the link points to, on every strategy.
#[cfg(unix)]
#[test]
fn linked_files_and_directories_in_every_scope_are_skipped_and_reported() {
    for (scope_dir, scope) in [
        ("context", "context"),
        ("vault", "vault"),
        ("decisions", "decisions"),
        ("skills/s", "skills"),
        ("references", "references"),
        ("plugins", "plugins"),
        ("memory/daily", "memory"),
        ("memory/inbox", "memory"),
    ] {
        let folder = Folder::new();
        folder.write(&format!("{scope_dir}/real.md"), "# Real\nneedle real\n");
        let planted = plant_links(&folder, scope_dir);
        // A link beside them whose name is not eligible stays silently ignored (§4.4).
        folder.link(
            &folder.outside().join("dir"),
            &format!("{scope_dir}/assets"),
        );
        let outcome = under_every_strategy(&folder, &Ask::new("needle").scope(scope));
        let found: Vec<String> = outcome
            .ranked()
            .map(|(_, hit)| hit.source().to_owned())
            .collect();
        let real = if scope == "vault" {
            "vault/real.md".to_owned()
        } else {
            format!("{scope_dir}/real.md")
        };
        assert_eq!(found, [real], "{scope_dir}");
        assert_eq!(outcome.skipped_links, planted, "{scope_dir}");
        assert!(!outcome.complete());
        assert_eq!(
            omission_json(&outcome),
            [format!(
                r#"{{"scope":"{scope}","reason":"symlink_skipped","observed":{{"files":5,"bytes":0,"entries":0}},"inspection":"partially_searched","recovery":{{"code":"replace_links","message":"{}"}}}}"#,
                OmissionReason::SymlinkSkipped.recovery_message()
            )],
            "{scope_dir}"
        );
        // Nothing of the machine's paths in what the adapter would print.
        let printed = omission_json(&outcome).join("");
        assert!(!printed.contains(folder.outside().to_str().unwrap()));
        assert!(!printed.contains("inside.md"));
    }
}

/// §4.4: a link at a fixed location (a scope folder, a folder on the way to one, a JSONL
/// source, the session index or a session body) is skipped and reported; its source counts
/// as empty and every other scope is searched.
#[cfg(unix)]
#[test]
fn linked_scope_directories_and_fixed_sources_are_skipped_and_reported() {
    for (path, scope) in [
        ("context", &["context"][..]),
        ("decisions", &["decisions"]),
        ("memory", &["sessions", "memory"]),
        ("memory/daily", &["memory"]),
        ("memory/signals", &["memory"]),
        ("memory/sessions", &["sessions"]),
        ("memory/events.jsonl", &["memory"]),
        ("memory/signals/a.jsonl", &["memory"]),
        ("memory/sessions/index.jsonl", &["sessions"]),
        ("memory/events-archive.000001.jsonl", &["memory"]),
    ] {
        let folder = Folder::new();
        folder.write("references/kept.md", "needle kept");
        fs::create_dir_all(folder.outside().join("real")).unwrap();
        fs::write(folder.outside().join("real/n.md"), "needle linked").unwrap();
        fs::write(
            folder.outside().join("x.jsonl"),
            "{\"summary\":\"needle linked\"}\n",
        )
        .unwrap();
        let target = if path.ends_with(".jsonl") {
            folder.outside().join("x.jsonl")
        } else {
            folder.outside().join("real")
        };
        folder.link(&target, path);
        let outcome = under_every_strategy(&folder, &Ask::new("needle"));
        let found: Vec<String> = outcome
            .ranked()
            .map(|(_, hit)| hit.source().to_owned())
            .collect();
        assert_eq!(found, ["references/kept.md"], "{path}");
        assert_eq!(outcome.skipped_links, [path], "{path}");
        let scopes: Vec<&str> = outcome.omissions.iter().map(|o| o.scope).collect();
        assert_eq!(scopes, scope, "{path}");
        assert!(
            outcome
                .omissions
                .iter()
                .all(|omission| omission.reason == OmissionReason::SymlinkSkipped)
        );
    }
    // A linked session body is skipped like any other link.
    let folder = Folder::new();
    fs::write(folder.outside().join("body.md"), "needle").unwrap();
    folder.link(&folder.outside().join("body.md"), "memory/sessions/b.md");
    folder.write(
        "memory/sessions/index.jsonl",
        "{\"title\":\"t\",\"path\":\"memory/sessions/b.md\"}\n",
    );
    let outcome = under_every_strategy(&folder, &Ask::new("needle").scope("sessions"));
    assert_eq!(outcome.skipped_links, ["memory/sessions/b.md"]);
    // `aios.json` decides which roots are authorised: a link there still fails (§3.2).
    let folder = Folder::new();
    fs::write(folder.outside().join("copy.json"), "{}").unwrap();
    fs::remove_file(folder.root().join("aios.json")).unwrap();
    folder.link(&folder.outside().join("copy.json"), "aios.json");
    assert_fails_closed(&folder, &Ask::new("x"), EvidenceError::PathUnsafe);
    // A scope directory that is a file.
    let folder = Folder::new();
    folder.write("context", "not a directory");
    assert_fails_closed(&folder, &Ask::new("x"), EvidenceError::PathUnsafe);
}

#[test]
fn special_files_and_invalid_utf8() {
    // A FIFO is a Unix special file (`mkfifo`); Windows has none to make.
    #[cfg(unix)]
    {
        // An ineligible FIFO is ignored, not even reported.
        let folder = Folder::new();
        folder.mkdir("context");
        mkfifo(&folder.root().join("context/pipe"));
        let outcome = Ask::new("x").run(&folder.root()).unwrap();
        assert!(outcome.complete() && outcome.skipped_files.is_empty());
    }

    // `aios.json` decides which roots are authorised (§3.2): it is never skipped.
    let cases: [(&str, &[u8], EvidenceError); 3] = [
        (
            "aios.json",
            b"{\"a\":\"\xed\xa0\x80\"}",
            EvidenceError::InvalidUtf8,
        ),
        ("aios.json", b"{not json", EvidenceError::ConfigInvalid),
        (
            "aios.json",
            b"{\"vault_path\": 42}",
            EvidenceError::ConfigInvalid,
        ),
    ];
    for (path, bytes, expected) in cases {
        let folder = Folder::new();
        folder.write_bytes(path, bytes);
        assert_fails_closed(&folder, &Ask::new("x"), expected);
    }
}

/// A FIFO (the `mkfifo` tool: rustix has no `mkfifoat` on macOS).
#[cfg(unix)]
fn mkfifo(path: &Path) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    let status = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .unwrap();
    assert!(status.success());
}

/// A note as Windows Notepad saves "UTF-16": a byte-order mark, then little-endian units.
#[cfg(unix)]
fn utf16(text: &str) -> Vec<u8> {
    "\u{FEFF}"
        .encode_utf16()
        .chain(text.encode_utf16())
        .flat_map(u16::to_le_bytes)
        .collect()
}

/// Runs `ask` on another thread and fails instead of hanging when it does not answer in
/// time: a FIFO opened for reading blocks until a writer comes (§4.5: never opened).
#[cfg(unix)]
fn within_a_minute(folder: &Folder, ask: Ask<'static>) -> SearchOutcome {
    let root = folder.root();
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let outcomes: Vec<SearchOutcome> = dotaios_contained::Strategy::available()
            .iter()
            .map(|&strategy| super::engine::with_strategy(strategy, || ask.run(&root)).unwrap())
            .collect();
        let _ = send.send(outcomes);
    });
    let mut outcomes = receive
        .recv_timeout(std::time::Duration::from_secs(60))
        .expect("the search answered (a FIFO was opened and blocked?)");
    let first = outcomes.remove(0);
    for other in outcomes {
        assert_eq!(omission_json(&other), omission_json(&first));
        assert_eq!(other.skipped_files, first.skipped_files);
    }
    first
}

/// §4.5: an eligible FIFO (never opened), a note or JSONL source that is not UTF-8 (a UTF-16
/// note from Notepad) is skipped and reported, in every scope that reads files; the rest is
/// searched, on every strategy, and nothing of the machine's paths reaches the records.
#[cfg(unix)]
#[test]
fn unreadable_files_are_skipped_and_reported() {
    let folder = Folder::new();
    folder.write("context/good.md", "# Good\nneedle good\n");
    mkfifo(&folder.root().join("context/p.md"));
    folder.write("vault/kept.md", "needle kept\n");
    folder.write_bytes("vault/notes/u16.md", &utf16("# Notes\nneedle u16\n"));
    folder.write_bytes("memory/daily/bad.md", b"needle \xff\xfe");
    folder.write_bytes(
        "memory/events.jsonl",
        b"{\"summary\":\"needle \xc0\xaf\"}\n",
    );
    folder.write(
        "memory/signals/ok.jsonl",
        "{\"summary\":\"needle signal\"}\n",
    );
    mkfifo(&folder.root().join("memory/signals/p.jsonl"));
    folder.write(
        "memory/sessions/index.jsonl",
        "{\"title\":\"t\",\"path\":\"memory/sessions/b.md\"}\n{\"title\":\"u\",\"path\":\"memory/sessions/b.md\"}\n",
    );
    folder.write_bytes("memory/sessions/b.md", &utf16("needle body"));
    let outcome = within_a_minute(&folder, Ask::new("needle"));
    let mut found: Vec<String> = outcome
        .ranked()
        .map(|(_, hit)| hit.source().to_owned())
        .collect();
    found.sort();
    assert_eq!(
        found,
        [
            "context/good.md",
            "memory/signals/ok.jsonl",
            "vault/kept.md"
        ]
    );
    let skipped: Vec<(&str, Unreadable)> = outcome
        .skipped_files
        .iter()
        .map(|file| (file.path.as_str(), file.why))
        .collect();
    assert_eq!(
        skipped,
        // Scope by scope in declared order (§2.1), each in its read order.
        [
            // Named by two index entries, skipped once.
            ("memory/sessions/b.md", Unreadable::NotUtf8),
            ("context/p.md", Unreadable::NotRegularFile),
            ("memory/signals/p.jsonl", Unreadable::NotRegularFile),
            ("memory/daily/bad.md", Unreadable::NotUtf8),
            ("memory/events.jsonl", Unreadable::NotUtf8),
            ("vault/notes/u16.md", Unreadable::NotUtf8),
        ]
    );
    assert!(!outcome.complete());
    let record = |scope: &str, files: u64| {
        format!(
            r#"{{"scope":"{scope}","reason":"unreadable_skipped","observed":{{"files":{files},"bytes":0,"entries":0}},"inspection":"partially_searched","recovery":{{"code":"fix_unreadable_files","message":"{}"}}}}"#,
            OmissionReason::UnreadableSkipped.recovery_message()
        )
    };
    let mut records = omission_json(&outcome);
    records.sort();
    let mut expected = vec![
        record("context", 1),
        record("vault", 1),
        record("memory", 3),
        record("sessions", 1),
    ];
    expected.sort();
    assert_eq!(records, expected);
    let printed = records.join("");
    assert!(!printed.contains(folder.outside().to_str().unwrap()));
    assert!(!printed.contains(".md") && !printed.contains(".jsonl"));
}

/// A special file or a bad encoding swapped in after the walk saw a regular UTF-8 file is a
/// change, not a skip (§4.8): only what the walk itself saw is skipped.
#[cfg(unix)]
#[test]
fn a_directory_where_a_source_is_expected_still_fails() {
    let folder = Folder::new();
    folder.mkdir("memory/events.jsonl");
    assert_fails_closed(&folder, &Ask::new("x"), EvidenceError::NotRegularFile);
}

/// §4.5: a note and a JSONL source without read permission are skipped and reported. Root
/// reads anything, so as root the test runs itself again as uid 65534 (`nobody`).
#[cfg(unix)]
#[test]
fn files_without_read_permission_are_skipped_and_reported() {
    use std::os::unix::process::CommandExt;
    const AS_NOBODY: &str = "DOTAIOS_TEST_AS_NOBODY";
    // Whether this process reads a file whose mode forbids it (root, or CAP_DAC_OVERRIDE).
    let probe = tempfile::NamedTempFile::new().unwrap();
    fs::set_permissions(probe.path(), fs::Permissions::from_mode(0o000)).unwrap();
    let is_root = fs::File::open(probe.path()).is_ok();
    if is_root && std::env::var_os(AS_NOBODY).is_none() {
        let test = "search::tests::files_without_read_permission_are_skipped_and_reported";
        let output = std::process::Command::new(std::env::current_exe().unwrap())
            .args(["--exact", test, "--nocapture", "--test-threads=1"])
            .env(AS_NOBODY, "1")
            .env("TMPDIR", "/tmp")
            .uid(65534)
            .gid(65534)
            .output();
        let Ok(output) = output else {
            // The one place this test may stop short: it says so where the run is read.
            #[expect(clippy::print_stderr, reason = "a skipped test prints why")]
            {
                eprintln!("skipped: the test binary cannot run as uid 65534 here");
            }
            return;
        };
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(
            output.status.success() && stdout.contains("1 passed"),
            "{stdout}{}",
            String::from_utf8_lossy(&output.stderr)
        );
        return;
    }
    assert!(!is_root, "still privileged after dropping to uid 65534");
    let folder = Folder::new();
    folder.write("context/good.md", "needle good\n");
    folder.write("context/locked.md", "needle locked\n");
    folder.write("memory/events.jsonl", "{\"summary\":\"needle locked\"}\n");
    for path in ["context/locked.md", "memory/events.jsonl"] {
        fs::set_permissions(folder.root().join(path), fs::Permissions::from_mode(0o000)).unwrap();
    }
    let outcome = Ask::new("needle").run(&folder.root()).unwrap();
    let found: Vec<&str> = outcome.ranked().map(|(_, hit)| hit.source()).collect();
    assert_eq!(found, ["context/good.md"]);
    let skipped: Vec<(&str, Unreadable)> = outcome
        .skipped_files
        .iter()
        .map(|file| (file.path.as_str(), file.why))
        .collect();
    assert_eq!(
        skipped,
        [
            ("context/locked.md", Unreadable::PermissionDenied),
            ("memory/events.jsonl", Unreadable::PermissionDenied),
        ]
    );
    let scopes: Vec<(&str, OmissionReason)> = outcome
        .omissions
        .iter()
        .map(|omission| (omission.scope, omission.reason))
        .collect();
    assert_eq!(
        scopes,
        [
            ("context", OmissionReason::UnreadableSkipped),
            ("memory", OmissionReason::UnreadableSkipped),
        ]
    );
}

#[test]
fn a_read_error_in_an_omitted_scope_does_not_fail_the_request() {
    // Invalid UTF-8 is found when a file is read; a scope omitted whole is never read, so
    // its bad file cannot fail the request (contract 03 §14.1: errors during execution only).
    let folder = Folder::new();
    folder.write_bytes("vault/a-bad.md", b"\xff needle");
    folder.sized("vault/b-huge.md", MAX_FILE_BYTES + 1);
    folder.write("context/c.md", "needle\n");
    let outcome = Ask::new("needle").run(&folder.root()).unwrap();
    assert_eq!(outcome.omissions.len(), 1);
    assert_eq!(outcome.omissions[0].scope, "vault");
    assert_eq!(sources(&outcome, Scope::Context), ["context/c.md"]);
    // Omitted by the allocation instead of by an inspection error: the same.
    let folder = Folder::new();
    folder.write_bytes("vault/a-bad.md", b"\xff needle");
    for index in 0..5 {
        folder.write(&format!("vault/{index}.md"), "x\n");
    }
    let outcome = Ask::new("needle")
        .limits(4, 1 << 20, 1000)
        .run(&folder.root())
        .unwrap();
    assert_eq!(
        outcome.omissions[0].reason,
        OmissionReason::FileCountExceeded
    );
}

/// §4.6: an eligible note, an eligible JSONL file of `memory/signals` and an eligible link whose
/// names are not UTF-8 are skipped and reported, never read, on every strategy; the rest of
/// each scope is searched, and the CLI's path shows the stray byte as `\xE9`.
#[cfg(unix)]
#[test]
fn eligible_names_that_are_not_utf8_are_skipped_and_reported() {
    use dotaios_testkit::non_utf8_entry;
    let folder = Folder::new();
    folder.write("vault/kept.md", "needle kept\n");
    folder.write("memory/signals/ok.jsonl", "{\"summary\":\"needle ok\"}\n");
    let vault = folder.root().join("vault");
    let Some(_) = non_utf8_entry(&vault, b"caf\xe9.md", Some(b"# Hi\nneedle latin\n")) else {
        return;
    };
    let signals = folder.root().join("memory/signals");
    non_utf8_entry(
        &signals,
        b"2026\xff.jsonl",
        Some(b"{\"summary\":\"needle bad\"}\n"),
    )
    .unwrap();
    {
        use std::os::unix::ffi::OsStrExt;
        symlink(
            folder.root().join("vault/kept.md"),
            vault.join(std::ffi::OsStr::from_bytes(b"l\xe9.md")),
        )
        .unwrap();
    }
    let outcome = within_a_minute(&folder, Ask::new("needle"));
    let mut found: Vec<&str> = outcome.ranked().map(|(_, hit)| hit.source()).collect();
    found.sort();
    assert_eq!(found, ["memory/signals/ok.jsonl", "vault/kept.md"]);
    let skipped: Vec<(&str, Unreadable)> = outcome
        .skipped_files
        .iter()
        .map(|file| (file.path.as_str(), file.why))
        .collect();
    assert_eq!(
        skipped,
        [
            ("memory/signals/2026\\xFF.jsonl", Unreadable::NameNotUtf8),
            ("vault/caf\\xE9.md", Unreadable::NameNotUtf8),
        ]
    );
    assert_eq!(outcome.skipped_links, ["vault/l\\xE9.md"]);
    assert!(!outcome.complete());
    let record = |scope: &str| {
        format!(
            r#"{{"scope":"{scope}","reason":"unreadable_skipped","observed":{{"files":1,"bytes":0,"entries":0}},"inspection":"partially_searched","recovery":{{"code":"fix_unreadable_files","message":"{}"}}}}"#,
            OmissionReason::UnreadableSkipped.recovery_message()
        )
    };
    let records = omission_json(&outcome);
    assert_eq!(records[1..], [record("memory"), record("vault")]);
    assert!(records[0].contains("symlink_skipped"), "{}", records[0]);
    let printed = records.join("");
    assert!(!printed.contains(folder.outside().to_str().unwrap()));
    assert!(!printed.contains("caf") && !printed.contains(".md"));
}

/// §4.6: a folder whose name is not UTF-8 is skipped and reported as one entry, and nothing
/// below it is visited: its notes are neither found nor named, whatever they hold.
#[cfg(unix)]
#[test]
fn a_folder_whose_name_is_not_utf8_is_skipped_whole() {
    use dotaios_testkit::non_utf8_entry;
    let folder = Folder::new();
    folder.write("vault/kept.md", "needle kept\n");
    folder.mkdir("vault/archive");
    let archive = folder.root().join("vault/archive");
    let Some(odd) = non_utf8_entry(&archive, b"old\xe9", None) else {
        return;
    };
    fs::write(odd.join("inside.md"), "needle inside\n").unwrap();
    fs::write(odd.join("also.md"), b"\xff not read either").unwrap();
    non_utf8_entry(&odd, b"deeper\xe9.md", Some(b"needle")).unwrap();
    let outcome = within_a_minute(&folder, Ask::new("needle"));
    let found: Vec<&str> = outcome.ranked().map(|(_, hit)| hit.source()).collect();
    assert_eq!(found, ["vault/kept.md"]);
    assert_eq!(
        outcome.skipped_files,
        [SkippedFile {
            path: "vault/archive/old\\xE9/".to_owned(),
            why: Unreadable::FolderNameNotUtf8,
        }]
    );
    assert_eq!(outcome.omissions.len(), 1);
    assert_eq!(outcome.omissions[0].scope, "vault");
    assert_eq!(
        outcome.omissions[0].reason,
        OmissionReason::UnreadableSkipped
    );
    assert_eq!(outcome.omissions[0].observed.files, 1);
}

/// §4.6: a name that is not UTF-8 and that the walk would neither enter nor accept stays
/// silently ignored: an ineligible file or link, a hidden or secret-like name (the skip rule
/// judges the raw bytes), and a folder of `memory/signals`, which is never entered.
#[cfg(unix)]
#[test]
fn other_names_that_are_not_utf8_stay_ignored() {
    use dotaios_testkit::non_utf8_entry;
    let folder = Folder::new();
    folder.write("vault/kept.md", "needle kept\n");
    let vault = folder.root().join("vault");
    let Some(_) = non_utf8_entry(&vault, b"bad\xff.txt", Some(b"needle")) else {
        return;
    };
    non_utf8_entry(&vault, b".hidden\xff.md", Some(b"needle")).unwrap();
    non_utf8_entry(&vault, b"Token.\xff.md", Some(b"needle")).unwrap();
    let hidden = non_utf8_entry(&vault, b".d\xff", None).unwrap();
    fs::write(hidden.join("x.md"), "needle hidden").unwrap();
    let modules = non_utf8_entry(&vault, b"secret\xff.key", None).unwrap();
    fs::write(modules.join("x.md"), "needle key").unwrap();
    folder.mkdir("memory/signals");
    let signals = folder.root().join("memory/signals");
    non_utf8_entry(&signals, b"d\xff.jsonl", None).unwrap();
    {
        use std::os::unix::ffi::OsStrExt;
        symlink(
            folder.root().join("vault/kept.md"),
            vault.join(std::ffi::OsStr::from_bytes(b"l\xe9.txt")),
        )
        .unwrap();
    }
    let outcome = within_a_minute(&folder, Ask::new("needle"));
    let found: Vec<&str> = outcome.ranked().map(|(_, hit)| hit.source()).collect();
    assert_eq!(found, ["vault/kept.md"]);
    assert!(outcome.complete(), "{:?}", outcome.omissions);
    assert!(outcome.skipped_files.is_empty() && outcome.skipped_links.is_empty());
}

#[cfg(unix)]
#[test]
fn session_paths_that_escape_fail_the_request() {
    for path in [
        "../outside-session.md",
        "/etc/hostname",
        "memory/other/x.md",
        "memory/sessions/../../x.md",
        "",
    ] {
        let folder = Folder::new();
        fs::write(folder.outside().join("outside-session.md"), "needle").unwrap();
        folder.write(
            "memory/sessions/index.jsonl",
            &format!(
                "{{\"title\":\"t\",\"path\":{}}}\n",
                serde_json::to_string(path).unwrap()
            ),
        );
        assert_fails_closed(
            &folder,
            &Ask::new("needle").scope("sessions"),
            EvidenceError::PathUnsafe,
        );
    }
}

#[cfg(unix)]
#[test]
fn vault_locations() {
    // `<root>/vault` as a link to a directory is served as the external vault it points to,
    // as if vault_path named it (§3.4), on every strategy; its own links are still skipped.
    let folder = Folder::new();
    fs::create_dir(folder.outside().join("obsidian")).unwrap();
    fs::write(
        folder.outside().join("obsidian/note.md"),
        "# Note\nneedle\n",
    )
    .unwrap();
    fs::write(folder.outside().join("secret.md"), "needle secret").unwrap();
    std::os::unix::fs::symlink(
        folder.outside().join("secret.md"),
        folder.outside().join("obsidian/escape.md"),
    )
    .unwrap();
    folder.link(&folder.outside().join("obsidian"), "vault");
    let outcome = under_every_strategy(&folder, &Ask::new("needle"));
    assert_eq!(sources(&outcome, Scope::Vault), ["vault/note.md"]);
    assert_eq!(outcome.skipped_links, ["vault/escape.md"]);
    let vault = outcome
        .groups
        .iter()
        .find(|group| group.scope == Scope::Vault);
    let hit = to_json_compact(&vault.unwrap().results[0].to_value());
    assert!(!hit.contains(folder.outside().to_str().unwrap()), "{hit}");
    // A vault link that leads nowhere, or to a file, is skipped and reported.
    for target in ["gone", "obsidian/note.md"] {
        let folder = Folder::new();
        fs::create_dir(folder.outside().join("obsidian")).unwrap();
        fs::write(folder.outside().join("obsidian/note.md"), "needle").unwrap();
        folder.write("context/c.md", "needle");
        folder.link(&folder.outside().join(target), "vault");
        let outcome = under_every_strategy(&folder, &Ask::new("needle"));
        assert_eq!(outcome.skipped_links, ["vault"], "{target}");
        assert_eq!(sources(&outcome, Scope::Context), ["context/c.md"]);
    }

    let folder = Folder::new();
    fs::create_dir(folder.outside().join("obsidian")).unwrap();
    fs::write(
        folder.outside().join("obsidian/note.md"),
        "# Note\nneedle\n",
    )
    .unwrap();
    folder.write(
        "aios.json",
        &format!(
            "{{\"vault_path\":{}}}",
            serde_json::to_string(&folder.outside().join("obsidian")).unwrap()
        ),
    );
    let outcome = Ask::new("needle")
        .scope("vault")
        .run(&folder.root())
        .unwrap();
    let hit = outcome.groups[0].results[0].to_value();
    assert_eq!(hit["source"], "vault/note.md");
    assert_eq!(hit["file"], "note.md");
    assert!(!to_json_compact(&hit).contains(folder.outside().to_str().unwrap()));

    // A relative vault_path inside the root is read beneath the root.
    let folder = Folder::new();
    folder.write("notes/obsidian/n.md", "needle");
    folder.write("aios.json", "{\"vault_path\":\"notes/obsidian\"}");
    let outcome = Ask::new("needle")
        .scope("vault")
        .run(&folder.root())
        .unwrap();
    assert_eq!(sources(&outcome, Scope::Vault), ["vault/n.md"]);
    // A missing external vault is empty, not an error.
    let folder = Folder::new();
    folder.write(
        "aios.json",
        "{\"vault_path\":\"/nonexistent/dotaios-vault\"}",
    );
    assert!(Ask::new("needle").run(&folder.root()).unwrap().complete());
}

// ----- Unicode, determinism ---------------------------------------------------------------

#[test]
fn unicode_queries_find_their_files() {
    let folder = Folder::new();
    folder
        .write("context/ja.md", "# 会議\n東京で会議\n")
        .write("context/fr.md", "# Café\nUn café crème\n")
        .write("context/emoji.md", "# Party\nlaunch 🎉 today\n")
        .write("context/other.md", "nothing\n");
    for (query, file) in [
        ("会議", "context/ja.md"),
        ("CAFÉ", "context/fr.md"),
        ("crème", "context/fr.md"),
        ("🎉", "context/emoji.md"),
    ] {
        let outcome = Ask::new(query)
            .scope("context")
            .run(&folder.root())
            .unwrap();
        assert_eq!(sources(&outcome, Scope::Context), [file], "{query}");
    }
}

/// Issue 36: notes of long paragraphs, each matching once. At the default budget the windowed
/// answer holds `limit` results; the whole-line answer holds fewer (contract 03 §8.2, §16.3).
#[test]
fn windows_let_the_default_budget_hold_limit_results() {
    let folder = Folder::new();
    for note in 0..14 {
        let paragraph = |seed: usize| {
            (0..140)
                .map(|index| format!("w{}", (seed * 7919 + index * 31) % 997))
                .collect::<Vec<_>>()
                .join(" ")
        };
        folder.write(
            &format!("vault/notes/note-{note:02}.md"),
            &format!(
                "# Note {note}\n\n{}\n\n{} mitochondria {}\n\n{}\n",
                paragraph(note),
                paragraph(note + 100),
                paragraph(note + 200),
                paragraph(note + 300)
            ),
        );
    }
    let results = |ask: Ask| {
        let outcome = ask.run(&folder.root()).unwrap();
        let text = outcome
            .mcp_payload("mitochondria", crate::request::Budget::DEFAULT)
            .unwrap();
        let payload: Value =
            crate::text::serde_read(&text, crate::text::LoneSurrogates::Refuse).unwrap();
        assert!(text.encode_utf16().count() <= 6000);
        payload["results"].as_array().unwrap().len()
    };
    let mut windows = Ask::new("mitochondria").windows();
    windows.limit = 10;
    let mut lines = Ask::new("mitochondria");
    lines.limit = 10;
    assert_eq!(results(windows), 10);
    assert!(results(lines) < 10);
}

#[test]
fn results_do_not_depend_on_workers() {
    let folder = rich_folder();
    for index in 0..200 {
        folder.write(
            &format!("vault/n/{index:03}.md"),
            &format!("# N{index}\nharbour {}\n", "x ".repeat(index)),
        );
    }
    let mut one = Ask::new("harbour x");
    one.workers = 1;
    let mut many = Ask::new("harbour x");
    many.workers = 4;
    assert_eq!(
        one.run(&folder.root()).unwrap(),
        many.run(&folder.root()).unwrap()
    );
}

#[test]
fn search_writes_nothing() {
    let folder = rich_folder();
    folder.write(
        "memory/events.jsonl",
        "corrupt\n{\"summary\":\"harbour\"}\n",
    );
    folder.sized("references/huge.md", MAX_FILE_BYTES + 1);
    let before = fingerprint(&folder.outside());
    let outcome = Ask::new("harbour").run(&folder.root()).unwrap();
    assert!(!outcome.complete());
    assert_eq!(fingerprint(&folder.outside()), before);
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        /// Any Unicode query searches the whole folder without panicking, completely, and every
        /// result lies in its group's scope.
        #[test]
        fn any_query_searches_completely(query in "\\PC{0,24}") {
            let folder = rich_folder();
            let outcome = Ask::new(&query).run(&folder.root()).unwrap();
            prop_assert!(outcome.complete());
            for group in &outcome.groups {
                prop_assert!(group.results.len() <= 20);
                for hit in &group.results {
                    let source = hit.source();
                    let prefix = match group.scope {
                        Scope::Sessions => "sessions/",
                        Scope::Memory => "memory/",
                        other => other.as_str(),
                    };
                    prop_assert!(source.starts_with(prefix), "{source} in {:?}", group.scope);
                }
            }
        }

        /// The one relevance order (contract 03 §9.4) is a function of the folder and the
        /// query: any number of workers gives the same merged list, and every result of every
        /// group appears in it exactly once.
        #[test]
        fn merged_order_is_independent_of_scheduling(
            query in prop::sample::select(vec!["harbour", "harbour ferry", "ferry app", "the harbour notes", "tides"]),
            workers in 1_usize..6,
        ) {
            let folder = rich_folder();
            let one = Ask::new(query).workers(1).run(&folder.root()).unwrap();
            let many = Ask::new(query).workers(workers).run(&folder.root()).unwrap();
            prop_assert_eq!(&one, &many);
            let mut seen = one.order.clone();
            seen.sort_unstable();
            let all: Vec<(usize, usize)> = one
                .groups
                .iter()
                .enumerate()
                .flat_map(|(group, results)| (0..results.results.len()).map(move |at| (group, at)))
                .collect();
            prop_assert_eq!(seen, all);
        }

        /// Adding notes unrelated to the query never moves a note whose title is the query
        /// below a note that only mentions it in passing (contract 03 §9.1).
        #[test]
        fn unrelated_notes_never_bury_an_exact_title(
            noise in prop::collection::vec("[a-z]{3,9}( [a-z]{3,9}){0,12}", 0..12),
            mentions in 1_usize..4,
        ) {
            let folder = Folder::new();
            folder.write("vault/eviction.md", "# Pod eviction\nDrain the node first.\n");
            for index in 0..mentions {
                folder.write(
                    &format!("context/mention-{index}.md"),
                    "# Car service\nBrakes, tyres, and one pod eviction aside.\nMore about the car.\n",
                );
            }
            for (index, words) in noise.iter().enumerate() {
                let words = words.replace("pod", "pad").replace("eviction", "evection");
                folder.write(&format!("vault/noise-{index}.md"), &format!("# Noise {index}\n{words}\n"));
            }
            let outcome = Ask::new("pod eviction").run(&folder.root()).unwrap();
            let first = outcome.ranked().next().map(|(_, hit)| hit.source().to_owned());
            prop_assert_eq!(first.as_deref(), Some("vault/eviction.md"));
        }
    }
}

/// Final revalidation (contract 03 §4.8 rule 4), by one name relative to the walk's handles: a
/// change after the files were read and before the answer is published fails the request.
mod final_revalidation {
    use super::*;
    use crate::search::engine::before_revalidation;

    fn folder() -> Folder {
        let folder = Folder::new();
        folder.write("vault/a/b/deep.md", "# Deep\n\nbeacon here\n");
        folder.write("vault/top.md", "# Top\n\nbeacon too\n");
        folder
    }

    /// The public entry point runs a search that observed a change again (contract 03 §4.8):
    /// one change (an append to a note) is answered from the second run, which read it; a
    /// folder that changes under every run fails after [`crate::search::CHANGED_RUNS`] runs.
    #[test]
    fn search_runs_again_after_a_change_and_gives_up_after_three_runs() {
        use std::cell::Cell;
        use std::rc::Rc;
        let folder = folder();
        let root = folder.root();
        let note = root.join("vault/top.md");
        let appended = note.clone();
        before_revalidation::set(move || {
            let mut file = fs::OpenOptions::new().append(true).open(&appended).unwrap();
            std::io::Write::write_all(&mut file, b"lighthouse appended\n").unwrap();
        });
        let filters = SessionFilters::default();
        let request = |query| SearchRequest {
            query,
            scope: ScopeRequest::One(Scope::Vault),
            limit: Limit::count(10),
            memory: MemoryMode::Shared,
            project: None,
            session_filters: &filters,
            clock: clock(),
            workers: 1,
            snippets: SnippetForm::Lines,
        };
        let outcome = crate::search::search(&root, &request("lighthouse")).unwrap();
        assert_eq!(sources(&outcome, Scope::Vault), ["vault/top.md"]);

        fn change_every_time(note: PathBuf, runs: Rc<Cell<usize>>) {
            before_revalidation::set(move || {
                runs.set(runs.get() + 1);
                let mut file = fs::OpenOptions::new().append(true).open(&note).unwrap();
                std::io::Write::write_all(&mut file, b"more\n").unwrap();
                change_every_time(note, runs);
            });
        }
        let runs = Rc::new(Cell::new(0));
        change_every_time(note, Rc::clone(&runs));
        assert_eq!(
            crate::search::search(&root, &request("beacon")).unwrap_err(),
            SearchError::Evidence(EvidenceError::Changed)
        );
        assert_eq!(runs.get(), crate::search::CHANGED_RUNS);
        before_revalidation::set(|| {});
    }

    /// A change made while the search runs fails it as `Changed`.
    fn assert_changed(change: impl FnOnce(&Path) + 'static) {
        assert_eq!(
            changed_after_read(change).unwrap_err(),
            SearchError::Evidence(EvidenceError::Changed)
        );
    }

    fn changed_after_read(
        change: impl FnOnce(&Path) + 'static,
    ) -> Result<SearchOutcome, SearchError> {
        let folder = folder();
        let root = folder.root();
        let moved = root.clone();
        before_revalidation::set(move || change(&moved));
        Ask::new("beacon").scope("vault").run(&root)
    }

    #[test]
    fn unchanged_folder_passes() {
        let outcome = changed_after_read(|_| {}).unwrap();
        assert_eq!(sources(&outcome, Scope::Vault).len(), 2);
    }

    #[test]
    fn a_rewritten_nested_file_fails() {
        assert_changed(|root| {
            fs::write(
                root.join("vault/a/b/deep.md"),
                "# Deep\n\nbeacon, rewritten\n",
            )
            .unwrap();
        });
    }

    #[cfg(unix)]
    #[test]
    fn a_changed_mode_fails() {
        assert_changed(|root| {
            let path = root.join("vault/top.md");
            fs::set_permissions(&path, fs::Permissions::from_mode(0o600)).unwrap();
        });
    }

    #[test]
    fn a_file_added_to_a_nested_directory_fails() {
        assert_changed(|root| {
            fs::write(root.join("vault/a/b/new.txt"), "x").unwrap();
        });
    }

    #[test]
    fn a_swapped_nested_directory_fails() {
        assert_changed(|root| {
            let dir = root.join("vault/a/b");
            fs::rename(&dir, root.join("vault/a/old")).unwrap();
            fs::create_dir(&dir).unwrap();
            fs::write(dir.join("deep.md"), "# Deep\n\nbeacon here\n").unwrap();
        });
    }
}

/// The one table of scope names: §2.1's ten names in its order, each parsed back to itself,
/// and nothing else accepted (no trimming, no case folding).
#[test]
fn scope_names_come_from_one_table() {
    assert_eq!(
        ScopeRequest::NAMES,
        [
            "memory",
            "vault",
            "context",
            "projects",
            "decisions",
            "skills",
            "references",
            "plugins",
            "sessions",
            "all"
        ]
    );
    for (name, request) in ScopeRequest::NAMES.into_iter().zip(ScopeRequest::ACCEPTED) {
        assert_eq!(ScopeRequest::parse(name), Some(request));
        assert_eq!(request.as_str(), name);
    }
    for name in ["", "All", " memory", "memory ", "project", "session"] {
        assert_eq!(ScopeRequest::parse(name), None, "{name:?}");
    }
}

/// Only `projects` needs a project, and only when none is given: the one rule the
/// adapter's validator and `search::check_request` both ask.
#[test]
fn only_projects_needs_a_project() {
    for request in ScopeRequest::ACCEPTED {
        let projects = request.as_str() == "projects";
        assert_eq!(request.needs_project(None), projects, "{request:?}");
        assert!(!request.needs_project(Some("acme")), "{request:?}");
    }
}

/// `dotaios search --explain` (contract 03 §9.5): every result's explained parts add up to the
/// score it was ranked by, on queries that exercise each part: field weights and length
/// normalisation, part terms of a joined word (earning and skipped), the phrase, proximity
/// and title-cover bonuses and the recency prior, over notes, memory entries and sessions.
#[test]
fn explained_parts_add_up_to_the_ranking_score() {
    let folder = Folder::new();
    folder
        .write(
            "context/rollback.md",
            "# Deploy rollback plan\nHow we roll back a deploy.\nThe deploy rollback runs first.\n",
        )
        .write(
            "context/near.md",
            "---\ndescription: deploy notes\n---\n# Notes\nA deploy then a quick rollback.\n",
        )
        .write("vault/mail.md", "# Mail\nThe e-mail follow-up went out.\n")
        .write("vault/parts.md", "# Parts\nThe e-mail asked us to follow the plan.\n")
        .write(
            "vault/long.md",
            &format!("# Long\n{}deploy rollback\n", "filler words here. ".repeat(200)),
        )
        .write(
            "memory/events.jsonl",
            "{\"ts\":\"2026-08-12T10:00:00Z\",\"type\":\"note\",\"summary\":\"deploy rollback done\",\"tags\":[\"deploy\"]}\n\
             {\"ts\":\"2025-01-01\",\"type\":\"note\",\"summary\":\"an e-mail about mail\"}\n",
        )
        .write(
            "memory/sessions/index.jsonl",
            "{\"session_id\":\"s1\",\"agent\":\"codex\",\"captured_at\":\"2026-08-10T09:00:00Z\",\"title\":\"Deploy call\",\"path\":\"memory/sessions/2026-08-10/a.md\"}\n",
        )
        .write(
            "memory/sessions/2026-08-10/a.md",
            "---\nagent: codex\n---\nwe talked about the deploy rollback\n",
        );
    let mut seen = std::collections::BTreeSet::new();
    for query in [
        "deploy rollback",
        "deploy",
        "rollback deploy plan",
        "e-mail follow-up",
        "mail",
        "deploy quick rollback",
    ] {
        let outcome = Ask::new(query).run(&folder.root()).unwrap();
        assert!(!outcome.order.is_empty(), "{query:?}");
        assert_eq!(outcome.explanations.len(), outcome.order.len(), "{query:?}");
        let mut previous = f64::INFINITY;
        for ((_, hit), explanation) in outcome.ranked().zip(&outcome.explanations) {
            assert_eq!(
                explanation.total(),
                explanation.score,
                "{query:?}: {} explained {explanation:#?}",
                hit.source()
            );
            assert!(
                explanation.score <= previous,
                "{query:?}: ranked by its score"
            );
            previous = explanation.score;
            seen.insert(explanation.class);
            seen.extend(explanation.bonuses.iter().map(|bonus| bonus.name));
            for term in &explanation.terms {
                seen.insert(if term.skipped { "skipped" } else { term.kind });
                seen.extend(term.fields.iter().map(|field| field.field));
            }
            if explanation.recency != 1.0 {
                seen.insert("recency");
            }
        }
    }
    // Every part of the score took part somewhere above, so none can drop out of the sum
    // unnoticed.
    for part in [
        "markdown",
        "memory entry",
        "session",
        "phrase",
        "proximity",
        "title cover",
        "query",
        "part",
        "skipped",
        "title",
        "heading",
        "description",
        "body",
        "recency",
    ] {
        assert!(seen.contains(part), "no query exercised {part:?}: {seen:?}");
    }
}

/// Final revalidation stats each file by its name in its own directory's held handle
/// (contract 03 §4.8 rule 4), even when neighbouring directories hold the same names: the
/// handle found for one run of files is never reused for the next directory's.
#[test]
fn revalidation_stats_each_file_in_its_own_directory() {
    let folder = Folder::new();
    for dir in ["aa", "ab", "ba"] {
        folder.write(&format!("vault/{dir}/note.md"), &format!("needle {dir}\n"));
        folder.write(&format!("vault/{dir}/other.md"), "needle\n");
    }
    let outcome = Ask::new("needle")
        .scope("vault")
        .run(&folder.root())
        .unwrap();
    let mut found = sources(&outcome, Scope::Vault);
    found.sort();
    assert_eq!(
        found,
        [
            "vault/aa/note.md",
            "vault/aa/other.md",
            "vault/ab/note.md",
            "vault/ab/other.md",
            "vault/ba/note.md",
            "vault/ba/other.md"
        ]
    );
}
