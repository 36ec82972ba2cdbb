//! The `dotaios doctor` report (contract 01 §10): a read-only health check of one AIOS folder.
//!
//! Every check reads through the contained reader and its limits; nothing is written, no
//! process is started, no network is used. The report is plain data ([`Report`]); the CLI
//! renders it as text or JSON. Paths in checks are folder-relative; the folder itself appears
//! only as the `<folder>` placeholder, which the renderer replaces (text) or keeps (JSON).
//!
//! Besides the contract's eleven checks, check 12 (`Reader limits and links`) walks the shelves
//! the readers use and lists every link, special file and over-cap file that a reader would
//! refuse or omit, and, after check 7 or 7a failed, every file a reader cannot read or decode
//! (contract 01 §10; `docs/decisions.md`), check 13
//! (`Context filled in`) warns while the three core context files are still `init`'s
//! templates (`docs/decisions.md`), and check 7a (`Search readable`) runs the default search
//! once, failing when it fails and listing every link it skipped (contract 03 §4.4).

use std::borrow::Cow;
use std::time::SystemTime;

use dotaios_contained::{
    DirEntry, EntryKind, Ledger, Limits, ReadError, RelPath, Root, UnsafeKind,
};

use crate::context::sources::{
    DECISIONS_CAP, LEDGER_LIMITS, MARKDOWN_CAP, SIGNAL_DIRECTORY_ENTRIES, TIMELINE_CAP,
};
use crate::context::{ContextError, ContextRequest, ContextScope, project_working_context};
use crate::folder::config::{CONFIG_CAP, SUPPORTED_SCHEMA_VERSION, check_config_identity};
use crate::folder::frontmatter::split_frontmatter;
use crate::folder::inspection::{
    Inspection, InspectionCode, MigrationStatus, inspect_migrations, read_config,
};
use crate::folder::plan::{IGNORE_CAP, plan_for_root};
use crate::folder::projects::{Oversized, read_catalog_with};
use crate::request::{Budget, Limit};
use crate::search::walk::is_skipped;
use crate::text::{NameOutput, escape_name, escape_os_name};

/// The placeholder for the folder in check names, details and fixes.
pub const FOLDER_PLACEHOLDER: &str = "<folder>";

/// The outcome of one check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Healthy.
    Ok,
    /// Works, but worth fixing.
    Warn,
    /// Blocking.
    Fail,
}

impl Status {
    /// `ok`, `warn` or `fail`.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Warn => "warn",
            Status::Fail => "fail",
        }
    }
}

/// One line of the report, with its optional detail and fix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Check {
    /// The check name (may contain [`FOLDER_PLACEHOLDER`]).
    pub name: String,
    /// The outcome.
    pub status: Status,
    /// Detail lines (folder-relative).
    pub details: Vec<String>,
    /// A suggested action (may contain [`FOLDER_PLACEHOLDER`]).
    pub fix: Option<String>,
}

impl Check {
    fn new(name: impl Into<String>, status: Status) -> Check {
        Check {
            name: name.into(),
            status,
            details: Vec::new(),
            fix: None,
        }
    }

    /// Adds a detail line. Details name the folder's files and directories, so every line passes
    /// the one name rule here (contract 02 §10.1): no name can print a raw format or control
    /// character. The rule changes nothing in the fixed texts, and applying it twice is applying
    /// it once.
    fn detail(mut self, line: impl Into<String>) -> Check {
        let line = line.into();
        self.details
            .push(match escape_name(&line, NameOutput::Data) {
                Cow::Borrowed(_) => line,
                Cow::Owned(escaped) => escaped,
            });
        self
    }

    fn fix(mut self, fix: impl Into<String>) -> Check {
        self.fix = Some(fix.into());
        self
    }
}

/// The whole report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// The checks, in the contract's order.
    pub checks: Vec<Check>,
}

impl Report {
    /// Number of failed checks.
    pub fn failures(&self) -> usize {
        self.checks
            .iter()
            .filter(|check| check.status == Status::Fail)
            .count()
    }

    /// Number of warnings.
    pub fn warnings(&self) -> usize {
        self.checks
            .iter()
            .filter(|check| check.status == Status::Warn)
            .count()
    }

    /// The summary line of contract 01 §10.
    pub fn summary(&self) -> String {
        let (failures, warnings) = (self.failures(), self.warnings());
        if failures > 0 {
            format!(
                "Found {failures} blocking issue(s). Fix those first, then run dotaios doctor again."
            )
        } else if warnings > 0 {
            format!("Found {warnings} warning(s). DotAIOS works, but consider the fixes above.")
        } else {
            "Everything looks good.".to_owned()
        }
    }
}

/// What the caller knows about the process and the folder.
#[derive(Debug, Clone)]
pub struct DoctorInputs<'a> {
    /// The folder, opened; `None` when it does not exist or is not a directory.
    pub root: Option<&'a Root>,
    /// The folder's path, for the search check, which opens it as a search does; never shown.
    pub folder: &'a std::path::Path,
    /// The folder argument (`--path <folder>`) fixes must carry, `None` for the default folder.
    /// Fixes name it only by [`FOLDER_PLACEHOLDER`], which the renderer replaces (text) or
    /// keeps (JSON); the text itself never enters the report.
    pub path_suffix: Option<&'a str>,
    /// The current time (for freshness).
    pub now: SystemTime,
    /// The effective user id (for the `.env` ownership check).
    pub uid: u32,
    /// The local time zone, which defines "today" for the working-context check.
    pub time_zone: &'a jiff::tz::TimeZone,
}

/// The files a complete folder has (contract 01 §2).
pub const STARTER_FILES: [&str; 12] = [
    "aios.json",
    "README.md",
    "FIRST_SESSION.md",
    "CLAUDE.md",
    "AGENTS.md",
    ".cursorrules",
    "skills/INDEX.md",
    "skills/RESOLVER.md",
    "context/identity.md",
    "context/work.md",
    "context/priorities.md",
    "context/north-star.md",
];

const MIB: u64 = 1 << 20;
const FRESHNESS_DAYS: u64 = 90;

fn rel(path: &str) -> RelPath {
    RelPath::new(path).expect("doctor paths are static relative paths")
}

fn metadata_ledger() -> Ledger {
    Ledger::new(Limits {
        files: 4096,
        bytes: 256 * MIB,
        entries: 500_000,
    })
}

/// Check 1: the folder itself.
pub fn check_folder(exists: bool) -> Check {
    let name = format!("AIOS folder at {FOLDER_PLACEHOLDER}");
    if exists {
        Check::new(name, Status::Ok)
    } else {
        Check::new(name, Status::Fail)
            .detail("The folder does not exist or is not a directory.")
            .fix(format!(
                "Run `dotaios init --path {FOLDER_PLACEHOLDER}` to create it, or pass --path."
            ))
    }
}

/// Check 1 for a directory that exists but has no `aios.json` (contract 01 §1.3).
fn check_not_aios_folder() -> Check {
    Check::new(format!("AIOS folder at {FOLDER_PLACEHOLDER}"), Status::Fail)
        .detail("This directory has no aios.json, so it is not an AIOS folder.")
        .fix(format!(
            "Pass --path with your AIOS folder, or run `dotaios init --force --path {FOLDER_PLACEHOLDER}` to make this one (it only adds missing files)."
        ))
}

/// Check 4: the starter files of contract 01 §2.
pub fn check_starter_files(root: &Root) -> Check {
    let missing: Vec<&str> = STARTER_FILES
        .iter()
        .copied()
        .filter(|path| !matches!(root.probe(&rel(path)), Ok(Some(probe)) if probe.kind == EntryKind::File))
        .collect();
    if missing.is_empty() {
        return Check::new("Starter files present", Status::Ok);
    }
    Check::new("Starter files present", Status::Warn)
        .detail(format!("Missing: {}", missing.join(", ")))
        .fix(format!(
            "Run `dotaios init --force --path {FOLDER_PLACEHOLDER}` to add missing files."
        ))
}

/// Check 5: the anchored `/workspaces/` rule (only meaningful at schema 1.2.0).
pub fn check_workspace_ignore_rule(root: &Root) -> Check {
    const NAME: &str = "Workspace ignore rule";
    let fix = "Add the line /workspaces/ as the last rule of .gitignore so managed checkouts stay out of the mirror.";
    let text = match root.read_text(&rel(".gitignore"), IGNORE_CAP, &mut metadata_ledger()) {
        Ok(Some(file)) => file.text,
        Ok(None) => {
            return Check::new(NAME, Status::Warn)
                .detail(".gitignore is missing.")
                .fix(fix);
        }
        Err(error) => {
            return Check::new(NAME, Status::Warn)
                .detail(format!(
                    ".gitignore cannot be read safely ({}).",
                    describe_read_error(error)
                ))
                .fix(fix);
        }
    };
    let lines: Vec<&str> = text
        .split('\n')
        .map(|line| line.strip_suffix('\r').unwrap_or(line))
        .collect();
    let Some(rule_at) = lines.iter().rposition(|line| *line == "/workspaces/") else {
        return Check::new(NAME, Status::Warn)
            .detail(".gitignore has no exact /workspaces/ line.")
            .fix(fix);
    };
    let negated = lines[rule_at + 1..].iter().any(|line| {
        let trimmed = crate::text::js_trim_start(line);
        !trimmed.starts_with('#') && trimmed.starts_with('!')
    });
    if negated {
        return Check::new(NAME, Status::Warn)
            .detail("A later rule starting with ! can re-include files under /workspaces/.")
            .fix(fix);
    }
    Check::new(NAME, Status::Ok)
}

/// Check 6: `.env` is private and is not part of memory. Only metadata is inspected.
pub fn check_env_file(root: &Root, uid: u32) -> Check {
    const NAME: &str = "Local secret file is private and outside memory";
    let probe = match root.probe(&rel(".env")) {
        Ok(None) => return Check::new(NAME, Status::Ok),
        Ok(Some(probe)) => probe,
        Err(error) => {
            return Check::new(NAME, Status::Fail)
                .detail(format!(
                    ".env cannot be inspected safely ({}).",
                    describe_read_error(error)
                ))
                .fix("Replace .env with one regular file owned by you.");
        }
    };
    if probe.kind != EntryKind::File || probe.identity.nlink != 1 {
        return Check::new(NAME, Status::Fail)
            .detail(".env is not one regular, single-link file.")
            .fix("Replace .env with one regular file owned by you.");
    }
    if probe.identity.permissions() & 0o077 != 0 {
        return Check::new(NAME, Status::Fail)
            .detail(format!(
                ".env is readable by others (mode {:o}).",
                probe.identity.permissions()
            ))
            .fix(format!("chmod 600 {FOLDER_PLACEHOLDER}/.env"));
    }
    if probe.identity.uid != uid {
        return Check::new(NAME, Status::Fail)
            .detail(".env is owned by another user.")
            .fix("Make .env yours (chown) or remove it.");
    }
    Check::new(NAME, Status::Ok)
}

/// Check 10: quarantine sidecars written by other tools.
pub fn check_memory_health(root: &Root) -> Check {
    const NAME: &str = "Memory health";
    let mut sidecars: Vec<String> = [
        "memory/events.jsonl.bad.jsonl",
        "memory/events-archive.jsonl.bad.jsonl",
        "memory/signals-archive.jsonl.bad.jsonl",
    ]
    .iter()
    .map(|path| (*path).to_owned())
    .collect();
    let mut ledger = metadata_ledger();
    match root.list_dir(
        Some(&rel("memory/signals")),
        SIGNAL_DIRECTORY_ENTRIES,
        &mut ledger,
    ) {
        Ok(Some(listing)) => {
            let mut names: Vec<String> = listing
                .entries
                .iter()
                .filter_map(|entry| entry.name_str())
                .filter(|name| name.ends_with(".bad.jsonl"))
                .map(|name| format!("memory/signals/{name}"))
                .collect();
            names.sort();
            sidecars.extend(names);
        }
        Ok(None) => {}
        Err(error) => {
            return Check::new(NAME, Status::Warn).detail(format!(
                "memory/signals cannot be listed safely ({}).",
                describe_read_error(error)
            ));
        }
    }
    let mut quarantined = 0usize;
    let mut unreadable = Vec::new();
    for path in &sidecars {
        let Ok(path_rel) = RelPath::new(path) else {
            continue;
        };
        match root.read_text(&path_rel, TIMELINE_CAP, &mut ledger) {
            Ok(Some(file)) => {
                quarantined += file
                    .text
                    .split('\n')
                    .filter(|line| !crate::text::js_trim(line).is_empty())
                    .count();
            }
            Ok(None) => {}
            Err(_) => unreadable.push(path.clone()),
        }
    }
    let mut check = if quarantined > 0 || !unreadable.is_empty() {
        Check::new(NAME, Status::Warn)
    } else {
        Check::new(NAME, Status::Ok)
    };
    if quarantined > 0 {
        check = check
            .detail(format!("{quarantined} quarantined line(s) in *.bad.jsonl sidecars."))
            .fix("Review the quarantined lines; move what is still useful back by hand, then delete the sidecars.");
    }
    if !unreadable.is_empty() {
        check = check.detail(format!("Unreadable sidecars: {}", unreadable.join(", ")));
    }
    check
}

/// Check 11: modification times of the core context files (the files are never opened).
pub fn check_context_freshness(root: &Root, now: SystemTime) -> Check {
    const NAME: &str = "Context freshness";
    let now_secs = now
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_secs());
    let limit = FRESHNESS_DAYS * 86_400;
    let stale: Vec<&str> = [
        "context/identity.md",
        "context/priorities.md",
        "context/work.md",
        "context/north-star.md",
    ]
    .into_iter()
    .filter(|path| match root.probe(&rel(path)) {
        Ok(Some(probe)) if probe.kind == EntryKind::File => {
            let modified = u64::try_from(probe.identity.mtime_sec).unwrap_or(0);
            now_secs.saturating_sub(modified) > limit
        }
        _ => false,
    })
    .collect();
    if stale.is_empty() {
        Check::new(NAME, Status::Ok)
    } else {
        Check::new(NAME, Status::Warn)
            .detail(format!(
                "Not updated for more than {FRESHNESS_DAYS} days: {}",
                stale.join(", ")
            ))
            .fix("Review these files so agents do not work from stale context.")
    }
}

/// The three context files `init` writes as templates.
const CORE_CONTEXT: [&str; 3] = [
    "context/identity.md",
    "context/priorities.md",
    "context/work.md",
];

/// Check 13: what the three core context files still leave to `init`'s template. A file
/// that holds nothing but the template, or sections that hold nothing but its `<!-- … -->`
/// placeholders, tells agents nothing (the working context leaves such sections out, contract
/// 02 §6), so doctor warns and names them instead of saying "Everything looks good". A file
/// counts as unfilled when, past its frontmatter and with HTML comments removed, only headings
/// and bare list labels (`- Name:`) remain. Missing or unreadable files are reported by other
/// checks.
pub fn check_context_filled(root: &Root) -> Check {
    const NAME: &str = "Context filled in";
    let mut ledger = metadata_ledger();
    let mut unfilled: Vec<&str> = Vec::new();
    let mut empty_sections: Vec<String> = Vec::new();
    for path in CORE_CONTEXT {
        let Ok(Some(file)) = root.read_text(&rel(path), MARKDOWN_CAP, &mut ledger) else {
            continue;
        };
        if is_unfilled_template(&file.text) {
            unfilled.push(path);
            continue;
        }
        let sections =
            crate::context::unanswered_sections(&crate::context::strip_frontmatter(&file.text));
        if !sections.is_empty() {
            empty_sections.push(format!("{path} ({})", sections.join(", ")));
        }
    }
    let mut details = Vec::new();
    if !unfilled.is_empty() {
        details.push(format!("Still the init template: {}", unfilled.join(", ")));
    }
    if !empty_sections.is_empty() {
        details.push(format!(
            "Sections left empty, not shown to agents: {}",
            empty_sections.join("; ")
        ));
    }
    if details.is_empty() {
        Check::new(NAME, Status::Ok)
    } else {
        details
            .into_iter()
            .fold(Check::new(NAME, Status::Warn), Check::detail)
            .fix("Fill in these files (who you are, what matters now, what you work on) so agents get real context.")
    }
}

/// True when `text` has no content of its own (see [`check_context_filled`]).
fn is_unfilled_template(text: &str) -> bool {
    let body = split_frontmatter(text).map_or(text, |frontmatter| frontmatter.body);
    crate::context::without_comments(body)
        .lines()
        .map(str::trim)
        .all(|line| {
            line.is_empty()
                || line.starts_with('#')
                || ((line.starts_with("- ") || line.starts_with("* ")) && line.ends_with(':'))
        })
}

/// A short, path-free description of a contained read error for detail lines.
pub fn describe_read_error(error: ReadError) -> &'static str {
    match error {
        ReadError::Unsafe(UnsafeKind::Symlink) => "a symbolic link",
        ReadError::Unsafe(UnsafeKind::Escape) => "it escapes the folder",
        ReadError::Unsafe(UnsafeKind::NotDirectory) => "a parent is not a directory",
        ReadError::NotRegular(_) => "not a regular file",
        ReadError::TooLarge => "too large",
        ReadError::Changed => "it changed while being read",
        ReadError::InvalidUtf8 => "invalid UTF-8",
        ReadError::Budget(_) => "the read budget was exceeded",
        ReadError::DirectoryLimit => "too many directory entries",
        ReadError::Io(_) => "an I/O error",
    }
}

/// Per-file caps of the working context's fixed sources (contract 01 §5.1), the readers' own
/// values; every other eligible file is held to the evidence reader's cap (§5.3).
const SOURCE_CAPS: [(&str, u64); 7] = [
    ("context/identity.md", MARKDOWN_CAP),
    ("context/priorities.md", MARKDOWN_CAP),
    ("context/work.md", MARKDOWN_CAP),
    ("decisions/log.md", DECISIONS_CAP),
    ("memory/sessions/index.jsonl", TIMELINE_CAP),
    ("memory/events.jsonl", TIMELINE_CAP),
    ("aios.json", CONFIG_CAP),
];
const EVIDENCE_FILE_CAP: u64 = crate::search::MAX_FILE_BYTES;
const DIRECTORY_ENTRY_CAP: u64 = crate::search::MAX_DIRECTORY_ENTRIES;
const SHELVES: [&str; 9] = [
    "context",
    "decisions",
    "projects",
    "memory",
    "skills",
    "vault",
    "references",
    "plugins",
    "connections",
];
/// At most this many findings are listed; the rest are counted.
const FINDINGS_SHOWN: usize = 20;

/// Whether check 12 also reads the files a reader reads, to name the one whose bytes or
/// permissions failed it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReaderDepth {
    /// Names, kinds and sizes only: what a healthy folder costs.
    Metadata,
    /// Also every file a reader would read, under the search request's ledger (contract 03
    /// §13): only after check 7 or 7a failed, whose fix points here.
    Contents,
}

/// Check 12: links, special files and files over the readers' caps anywhere on the shelves
/// the readers use, directories that cannot be listed and, at [`ReaderDepth::Contents`], files
/// that cannot be read or are not UTF-8. Names the readers skip (hidden, secret-like,
/// `node_modules`) are skipped here too, so every finding is something a reader would refuse
/// or omit.
pub fn check_reader_limits(root: &Root, depth: ReaderDepth) -> Check {
    const NAME: &str = "Reader limits and links";
    let mut findings: Vec<String> = Vec::new();
    let mut ledger = metadata_ledger();
    let mut contents = (depth == ReaderDepth::Contents)
        .then(|| ContentsPass::new(Ledger::new(crate::search::REQUEST_LIMITS)));
    for (path, cap) in SOURCE_CAPS {
        if let Ok(Some(probe)) = root.probe(&rel(path)) {
            inspect_file(path, probe.kind, probe.identity.size, cap, &mut findings);
            if let Some(pass) = contents.as_mut() {
                pass.read(
                    root,
                    &rel(path),
                    probe.kind,
                    probe.identity.size,
                    cap,
                    &mut findings,
                );
            }
        }
    }
    let mut pending: Vec<RelPath> = SHELVES.iter().map(|shelf| rel(shelf)).collect();
    let mut walk_error = None;
    while let Some(dir) = pending.pop() {
        let listing = match root.list_dir(Some(&dir), DIRECTORY_ENTRY_CAP, &mut ledger) {
            Ok(Some(listing)) => listing,
            Ok(None) => continue,
            Err(ReadError::DirectoryLimit) => {
                findings.push(format!("{dir}/: more than {DIRECTORY_ENTRY_CAP} entries"));
                continue;
            }
            // A linked vault folder is searched as the vault it points to (contract 03 §3.4).
            Err(ReadError::Unsafe(UnsafeKind::Symlink)) if dir.as_str() == "vault" => continue,
            Err(ReadError::Unsafe(UnsafeKind::Symlink)) => {
                findings.push(format!("{dir}: a symbolic link"));
                continue;
            }
            // One folder that cannot be listed (no permission) hides only what is below it.
            Err(ReadError::Io(kind)) => {
                findings.push(format!("{dir}/: cannot be listed ({})", io_cause(kind)));
                continue;
            }
            Err(error) => {
                walk_error = Some(format!("{dir}: {}", describe_read_error(error)));
                break;
            }
        };
        for entry in &listing.entries {
            // The search walk's skip rule itself, on the raw name (contract 03 §4.2: ASCII
            // case-insensitive; §4.6).
            if is_skipped(entry.name.as_encoded_bytes()) {
                continue;
            }
            let Some(name) = entry.name_str() else {
                if let Some(finding) = non_utf8_finding(&dir, entry) {
                    findings.push(finding);
                }
                continue;
            };
            let Ok(child) = dir.join(name) else { continue };
            match entry.kind {
                EntryKind::Directory => pending.push(child),
                EntryKind::Symlink => findings.push(format!("{child}: a symbolic link")),
                EntryKind::File => {
                    if SOURCE_CAPS.iter().any(|(path, _)| *path == child.as_str()) {
                        continue;
                    }
                    if let Ok(Some(probe)) = root.probe(&child) {
                        inspect_file(
                            child.as_str(),
                            probe.kind,
                            probe.identity.size,
                            EVIDENCE_FILE_CAP,
                            &mut findings,
                        );
                        if let Some(pass) = contents
                            .as_mut()
                            .filter(|_| is_read_by_a_reader(name.as_bytes()))
                        {
                            pass.read(
                                root,
                                &child,
                                probe.kind,
                                probe.identity.size,
                                EVIDENCE_FILE_CAP,
                                &mut findings,
                            );
                        }
                    }
                }
                other => findings.push(format!("{child}: {}", special_kind(other))),
            }
        }
    }
    if let Some(error) = walk_error {
        findings.push(format!("walk stopped at {error}"));
    }
    if findings.is_empty() {
        return Check::new(NAME, Status::Ok);
    }
    findings.sort();
    findings.dedup();
    let total = findings.len();
    let mut check = Check::new(NAME, Status::Warn);
    for finding in findings.iter().take(FINDINGS_SHOWN) {
        check = check.detail(finding.clone());
    }
    if total > FINDINGS_SHOWN {
        check = check.detail(format!("… and {} more", total - FINDINGS_SHOWN));
    }
    check.fix("Readers never follow links (search skips them) and refuse special files, files over these sizes, files they cannot read as UTF-8 and names that are not UTF-8: replace links with real files, move special files out, split large files, re-save other text as UTF-8, make files readable and rename to valid UTF-8.")
}

/// The finding for a listed entry whose name is not UTF-8, shown through the name rule's form
/// for such a name (`\xHH`, contract 02 §10.1), when a reader would have read it: a folder
/// (search skips it whole, contract 03 §4.6; the other readers never enter it), a file a
/// reader reads, a link or a special file.
/// Any other such name is ignored, as the readers ignore it.
fn non_utf8_finding(dir: &RelPath, entry: &DirEntry) -> Option<String> {
    let shown = escape_os_name(&entry.name, NameOutput::Data);
    let raw = entry.name.as_encoded_bytes();
    match entry.kind {
        EntryKind::Directory => Some(format!(
            "{dir}/{shown}/: name is not UTF-8, so readers skip this folder and everything in it; rename it to valid UTF-8"
        )),
        EntryKind::File if is_read_by_a_reader(raw) => Some(format!(
            "{dir}/{shown}: name is not UTF-8, so readers skip it; rename it to valid UTF-8"
        )),
        EntryKind::File => None,
        EntryKind::Symlink => Some(format!("{dir}/{shown}: a symbolic link")),
        other => Some(format!("{dir}/{shown}: {}", special_kind(other))),
    }
}

/// Whether a reader reads a file of this name when it lies on its shelf: Markdown (`.md`,
/// ASCII case-insensitive, contract 03 §4.3), JSONL and a plugin's `manifest.json`. Wider than
/// any one scope's rule, so no file a reader reads is left unchecked.
fn is_read_by_a_reader(name: &[u8]) -> bool {
    let lower = name.to_ascii_lowercase();
    lower.ends_with(b".md") || lower.ends_with(b".jsonl") || name == b"manifest.json"
}

/// The contents pass of check 12: each file a reader reads, read once as strict UTF-8 through
/// the contained reader under one ledger, so the pass is bounded like one search request.
struct ContentsPass {
    ledger: Ledger,
    exhausted: bool,
}

impl ContentsPass {
    fn new(ledger: Ledger) -> ContentsPass {
        ContentsPass {
            ledger,
            exhausted: false,
        }
    }

    /// Reads one regular file within its cap; over-cap and special files are findings of
    /// their own already.
    fn read(
        &mut self,
        root: &Root,
        path: &RelPath,
        kind: EntryKind,
        size: u64,
        cap: u64,
        findings: &mut Vec<String>,
    ) {
        if self.exhausted || kind != EntryKind::File || size > cap {
            return;
        }
        match root.read_text(path, cap, &mut self.ledger) {
            Ok(_) => {}
            Err(ReadError::InvalidUtf8) => findings.push(format!(
                "{path}: not UTF-8 text (saved as UTF-16 or Latin-1?)"
            )),
            Err(ReadError::Io(io)) => {
                findings.push(format!("{path}: cannot be read ({})", io_cause(io)));
            }
            Err(ReadError::Budget(_)) => {
                self.exhausted = true;
                findings.push(
                    "files not read for UTF-8: the read budget of one search was spent".to_owned(),
                );
            }
            // A file that changed, or turned into a link, between its stat and its read.
            Err(error) => findings.push(format!("{path}: {}", describe_read_error(error))),
        }
    }
}

fn io_cause(kind: std::io::ErrorKind) -> &'static str {
    match kind {
        std::io::ErrorKind::PermissionDenied => "permission denied",
        _ => "an I/O error",
    }
}

fn inspect_file(path: &str, kind: EntryKind, size: u64, cap: u64, findings: &mut Vec<String>) {
    match kind {
        EntryKind::File if size > cap => {
            findings.push(format!("{path}: {size} bytes, over the {cap}-byte limit"));
        }
        EntryKind::File | EntryKind::Directory => {}
        EntryKind::Symlink => findings.push(format!("{path}: a symbolic link")),
        other => findings.push(format!("{path}: {}", special_kind(other))),
    }
}

fn special_kind(kind: EntryKind) -> &'static str {
    match kind {
        EntryKind::Fifo => "a named pipe",
        EntryKind::Socket => "a socket",
        EntryKind::CharDevice | EntryKind::BlockDevice => "a device",
        _ => "not a regular file",
    }
}

/// Runs every check in the contract's order. Checks that need the folder are skipped when it is
/// missing.
pub fn run(inputs: &DoctorInputs<'_>) -> Report {
    let mut checks = vec![check_folder(inputs.root.is_some())];
    let Some(root) = inputs.root else {
        return Report { checks };
    };
    // A directory without `aios.json` is not an AIOS folder: one finding and one fix, instead
    // of every later check failing for the same reason (issue 39 item 10).
    if !crate::folder::check::is_aios_folder(inputs.folder) {
        return Report {
            checks: vec![check_not_aios_folder()],
        };
    }
    checks.push(check_config(root));
    checks.push(check_migration_state(root, inputs.path_suffix));
    checks.push(check_starter_files(root));
    if matches!(inspect_migrations(root), Inspection::Inspected(ref state) if state.folder_schema_version.as_str() == SUPPORTED_SCHEMA_VERSION)
    {
        checks.push(check_workspace_ignore_rule(root));
    }
    checks.push(check_env_file(root, inputs.uid));
    checks.push(check_working_context(root, inputs.now, inputs.time_zone));
    checks.push(check_search(inputs.folder, inputs.now, inputs.time_zone));
    // Checks 7 and 7a point here for the file to fix; only then are contents worth reading.
    let depth = if checks[checks.len() - 2..]
        .iter()
        .any(|check| check.status == Status::Fail)
    {
        ReaderDepth::Contents
    } else {
        ReaderDepth::Metadata
    };
    checks.push(check_project_catalog(root));
    checks.push(check_skills(root));
    checks.push(check_memory_health(root));
    checks.push(check_context_freshness(root, inputs.now));
    checks.push(check_reader_limits(root, depth));
    checks.push(check_context_filled(root));
    Report { checks }
}

/// Check 2: `aios.json` is present, readable and a JSON object; warn when the strict identity
/// check of contract 01 §3.1 fails.
pub fn check_config(root: &Root) -> Check {
    const NAME: &str = "aios.json present";
    let config = match read_config(root) {
        Ok(config) => config,
        Err(code) => {
            return Check::new(NAME, Status::Fail)
                .detail(format!("aios.json cannot be used ({}).", code.as_str()))
                .fix(format!(
                    "Restore aios.json as one regular JSON file, or run `dotaios init --path {FOLDER_PLACEHOLDER}` in an empty folder."
                ));
        }
    };
    let schema = config
        .object
        .get("schema_version")
        .and_then(serde_json::Value::as_str)
        .unwrap_or("none");
    let tools: Vec<&str> = config
        .object
        .get("ai_tools")
        .and_then(serde_json::Value::as_array)
        .map(|tools| tools.iter().filter_map(serde_json::Value::as_str).collect())
        .unwrap_or_default();
    let tools = if tools.is_empty() {
        "none".to_owned()
    } else {
        tools.join(", ")
    };
    match check_config_identity(&config.text) {
        Ok(()) => {
            Check::new(NAME, Status::Ok).detail(format!("schema {schema}, ai_tools: {tools}"))
        }
        Err(problem) => Check::new(NAME, Status::Warn)
            .detail(format!("schema {schema}, ai_tools: {tools}"))
            .detail(format!("Field {}: {problem}.", problem.field()))
            .fix("Correct that field by hand; migrate only ever changes schema_version."),
    }
}

/// Check 3: the migration state of contract 01 §8, with the plan id when a migration is due.
pub fn check_migration_state(root: &Root, path_suffix: Option<&str>) -> Check {
    const NAME: &str = "Migration state";
    // The folder is named by the placeholder, as in every other fix: the JSON report is
    // path-free (contract 01 §10), and the text renderer puts the folder back.
    let path = if path_suffix.is_some() {
        format!(" --path {FOLDER_PLACEHOLDER}")
    } else {
        String::new()
    };
    match inspect_migrations(root) {
        Inspection::Inspected(state) => match state.status {
            MigrationStatus::Current => Check::new(NAME, Status::Ok)
                .detail(format!("schema {} is current", state.folder_schema_version.as_str())),
            MigrationStatus::SchemaOutdated => {
                let plan = match plan_for_root(root) {
                    Ok(Some(plan)) => plan.id,
                    _ => "unavailable".to_owned(),
                };
                Check::new(NAME, Status::Warn)
                    .detail(format!(
                        "schema {} \u{2192} {SUPPORTED_SCHEMA_VERSION}, plan {plan}",
                        state.folder_schema_version.as_str()
                    ))
                    .fix(format!("Run `dotaios migrate{path}` to preview it."))
            }
            MigrationStatus::TransactionPresent => Check::new(NAME, Status::Fail)
                .detail(format!("Interrupted plan: {}", state.transaction_ids.join(", ")))
                .fix(format!("Run `dotaios migrate --recover{path}`.")),
        },
        Inspection::Failed(code @ (InspectionCode::FutureSchema | InspectionCode::UnsupportedSchema)) => {
            Check::new(NAME, Status::Fail)
                .detail(code.as_str())
                .fix("Install a DotAIOS release that supports this folder schema. This build will not write it.")
        }
        Inspection::Failed(code) => Check::new(NAME, Status::Fail).detail(code.as_str()),
    }
}

/// Check 7: the shared-mode projection with the default budget, text discarded. This is the
/// diagnosis the working context's path-free failure points to.
pub fn check_working_context(
    root: &Root,
    now: SystemTime,
    time_zone: &jiff::tz::TimeZone,
) -> Check {
    const NAME: &str = "Working context readable";
    let now = jiff::Timestamp::try_from(now).unwrap_or(jiff::Timestamp::UNIX_EPOCH);
    let request = ContextRequest {
        scope: ContextScope::Shared,
        limit: Limit::CONTEXT_DEFAULT,
        budget: Budget::DEFAULT,
        now,
        time_zone,
    };
    match project_working_context(root, &request) {
        Ok(projection) => Check::new(NAME, Status::Ok)
            .detail(format!("{} characters", projection.markdown.len())),
        Err(ContextError::ReadFailed(failure)) => Check::new(NAME, Status::Fail)
            .detail(failure.code())
            .fix("See the \"Reader limits and links\" and \"Project catalog\" checks for the file to fix."),
        Err(other) => Check::new(NAME, Status::Fail).detail(other.to_string()),
    }
}

/// The default search (Shared memory, every scope) run once, so that the report never says the
/// folder works while its default search fails or leaves a scope out, and lists every scope
/// it omits for a ceiling and every link and unreadable file it skips, by path, with the fix
/// (contract 03 §4.4, §4.5, §14.4). The query matches nothing on purpose: every file is
/// still enumerated, read and analysed.
pub fn check_search(
    folder: &std::path::Path,
    now: SystemTime,
    time_zone: &jiff::tz::TimeZone,
) -> Check {
    use crate::search::{Clock, OmissionReason, ScopeRequest, SearchRequest, SessionFilters};
    const NAME: &str = "Search readable";
    let now_ms = now
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0.0, |elapsed| elapsed.as_millis() as f64);
    let filters = SessionFilters::default();
    let request = SearchRequest {
        query: "dotaios-doctor-search-check",
        scope: ScopeRequest::All,
        limit: Limit::count(1),
        memory: crate::folder::memory::MemoryMode::Shared,
        project: None,
        session_filters: &filters,
        clock: Clock { now_ms, time_zone },
        workers: 1,
        snippets: crate::search::SnippetForm::Lines,
    };
    let outcome = match crate::search::search(folder, &request) {
        Ok(outcome) => outcome,
        Err(error) => {
            return Check::new(NAME, Status::Fail)
                .detail(error.code())
                .fix("See the \"Reader limits and links\" check for the file to fix.");
        }
    };
    // A scope omitted for a ceiling answers nothing from any of its files (contract 03 §14), so
    // an incomplete default search is worth a warning even without a link.
    let omitted: Vec<String> = outcome
        .omissions
        .iter()
        .filter(|omission| {
            !matches!(
                omission.reason,
                OmissionReason::SymlinkSkipped | OmissionReason::UnreadableSkipped
            )
        })
        .map(|omission| {
            format!(
                "{}: not searched, {}",
                omission.scope,
                omission.explanation()
            )
        })
        .collect();
    if outcome.skipped_links.is_empty() && outcome.skipped_files.is_empty() && omitted.is_empty() {
        return Check::new(NAME, Status::Ok);
    }
    let mut check = Check::new(NAME, Status::Warn);
    for line in &omitted {
        check = check.detail(line.clone());
    }
    let total = outcome.skipped_links.len();
    for link in outcome.skipped_links.iter().take(FINDINGS_SHOWN) {
        check = check.detail(format!("{link}: a symbolic link, skipped by search"));
    }
    if total > FINDINGS_SHOWN {
        check = check.detail(format!("… and {} more", total - FINDINGS_SHOWN));
    }
    let files = outcome.skipped_files.len();
    for file in outcome.skipped_files.iter().take(FINDINGS_SHOWN) {
        check = check.detail(format!(
            "{}: skipped by search, {}",
            file.path,
            file.why.fix()
        ));
    }
    if files > FINDINGS_SHOWN {
        check = check.detail(format!("… and {} more", files - FINDINGS_SHOWN));
    }
    if total == 0 && files > 0 {
        return check.fix("Search skips a file it cannot read and searches the rest: re-save, rename, make readable or move each file named above, as its line says.");
    }
    if total == 0 {
        return check.fix("Until the file or folder named above is split, moved or reduced as its line says, search leaves that scope out.");
    }
    check.fix("Search never follows links: move each linked note into the folder, or, for a linked vault, set vault_path in aios.json to the folder it points to.")
}

/// What to do about the one `SKILL.md` that breaks the catalog, by what is wrong with it: its
/// bytes, its size, what it is, or its frontmatter.
fn skill_fix(dir: &str, cause: crate::skills::CatalogError) -> String {
    use crate::skills::CatalogError;
    let file = format!("skills/{dir}/SKILL.md");
    match cause {
        CatalogError::InvalidUtf8 => {
            format!(
                "Re-save {file} as UTF-8 (it is not UTF-8 text), or move that skill out of skills/."
            )
        }
        CatalogError::FileTooLarge => {
            format!("Shorten {file} below 8 MiB, or move that skill out of skills/.")
        }
        CatalogError::PathUnsafe => {
            format!(
                "Replace {file} (a link or special file) with a regular file, or move that skill out of skills/."
            )
        }
        CatalogError::ReadFailed => {
            format!("Make {file} readable, or move that skill out of skills/.")
        }
        _ => format!("Fix the frontmatter of {file}, or move that skill out of skills/."),
    }
}

/// Check 9: the skill catalog (contract 04 §1), naming the skill directory that breaks it.
pub fn check_skills(root: &Root) -> Check {
    const NAME: &str = "Skills";
    match crate::skills::read_catalog(root) {
        Ok(skills) => Check::new(NAME, Status::Ok).detail(format!("{} skill(s)", skills.len())),
        Err(error) => {
            let check = Check::new(NAME, Status::Fail);
            match crate::skills::find_invalid_skill(root) {
                Some((dir, cause)) => check
                    .detail(format!("skills/{dir}/SKILL.md: {} ({})", cause.message(), cause.code()))
                    .fix(skill_fix(&dir, cause)),
                None => check
                    .detail(format!("{} ({})", error.message(), error.code()))
                    .fix("Make skills/ a real directory of at most 512 entries holding regular SKILL.md files."),
            }
        }
    }
}

/// Check 8: the project catalog as the working context reads it (contract 01 §6.1).
pub fn check_project_catalog(root: &Root) -> Check {
    const NAME: &str = "Project catalog";
    let mut ledger = Ledger::new(LEDGER_LIMITS);
    match read_catalog_with(root, &mut ledger, Oversized::Fail) {
        Ok(catalog) => match catalog.not_slugs.first() {
            None => Check::new(NAME, Status::Ok)
                .detail(format!("{} project(s)", catalog.records.len())),
            // The working context leaves these directories out (contract 01 §6.1); `detail`
            // shows the name through the one name rule (contract 02 §10.1).
            Some(first) => Check::new(NAME, Status::Warn)
                .detail(format!(
                    "{} project(s); {} directory name(s) under projects/ are not project slugs and are left out, first \"{first}\".",
                    catalog.records.len(),
                    catalog.not_slugs.len(),
                ))
                .fix("Rename the directory with lowercase letters, numbers, and single hyphens, or move it out of projects/."),
        },
        Err(error) => Check::new(NAME, Status::Fail)
            .detail(error.message())
            .fix("Fix or move the named project directory; every README under projects/ is read."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn init_templates_count_as_unfilled() {
        let template = "---\nsource: dotaios init\nkind: context\n---\n# Identity\n\n## Basics\n\n- Name: <!-- Your Name -->\n- Role: <!-- Your Role -->\n\n## Background\n\n<!-- Two or three lines\non what you do. -->\n";
        assert!(is_unfilled_template(template));
        assert!(is_unfilled_template("# Work\n\n<!-- unterminated"));
        assert!(!is_unfilled_template(
            &template.replace("<!-- Your Name -->", "Ada")
        ));
        assert!(!is_unfilled_template("# Work\n\nShip the release.\n"));
        assert!(!is_unfilled_template(
            "# Work\n<!-- a -->Real text<!-- b -->\n"
        ));
    }

    #[test]
    fn summary_lines() {
        let mut report = Report {
            checks: vec![Check::new("a", Status::Ok)],
        };
        assert_eq!(report.summary(), "Everything looks good.");
        report.checks.push(Check::new("b", Status::Warn));
        assert_eq!(
            report.summary(),
            "Found 1 warning(s). DotAIOS works, but consider the fixes above."
        );
        report.checks.push(Check::new("c", Status::Fail));
        assert_eq!(
            report.summary(),
            "Found 1 blocking issue(s). Fix those first, then run dotaios doctor again."
        );
    }

    #[test]
    fn migration_fixes_name_the_folder_by_placeholder() {
        let temp = tempfile::tempdir().unwrap();
        let folder = temp.path().join("my aios");
        std::fs::create_dir(&folder).unwrap();
        std::fs::write(
            folder.join("aios.json"),
            r#"{"schema_version":"1.1.0","created_at":"2026-11-20T09:02:11.482Z","ai_tools":[],"vault_path":null}"#,
        )
        .unwrap();
        let root = Root::open(&folder).unwrap();
        let suffix = folder.to_str().unwrap();
        let outdated = check_migration_state(&root, Some(suffix));
        assert_eq!(outdated.status, Status::Warn);
        assert_eq!(
            outdated.fix.as_deref(),
            Some("Run `dotaios migrate --path <folder>` to preview it.")
        );
        let default = check_migration_state(&root, None);
        assert_eq!(
            default.fix.as_deref(),
            Some("Run `dotaios migrate` to preview it.")
        );

        let transactions = folder.join(".dotaios/migrations/transactions");
        std::fs::create_dir_all(transactions.join("migrate-1_1_0-to-1_2_0-0123456789abcdef"))
            .unwrap();
        std::fs::write(
            folder.join(".dotaios/migrations/owner.json"),
            "{\n  \"schema\": \"dotaios.migrations.v1\"\n}\n",
        )
        .unwrap();
        let interrupted = check_migration_state(&root, Some(suffix));
        assert_eq!(interrupted.status, Status::Fail);
        assert_eq!(
            interrupted.fix.as_deref(),
            Some("Run `dotaios migrate --recover --path <folder>`.")
        );
        let checks = [outdated, default, interrupted];
        assert!(
            checks
                .iter()
                .all(|check| { !format!("{check:?}").contains(temp.path().to_str().unwrap()) })
        );
    }
}
