//! The migration plan (contract 01 §9.2–§9.3): the registry of schema steps, the byte rewrites each
//! step makes, the change list, the canonical plan body and the plan id derived from it.
//!
//! What it owns: everything that decides *what* `dotaios migrate` would write, so that the
//! preview, the apply (which recomputes the plan and must find the same id) and `doctor` (which
//! names the plan id in its `Migration state` check) agree by construction. The strings that
//! enter the hash are fixed here and nowhere else.
//!
//! What it must never do: write, or read anything but `aios.json` and `.gitignore` (through the
//! contained reader, in [`read_plan_source`]). [`build_plan`] is pure: bytes in, plan out. It
//! knows nothing of journals, receipts or ownership markers, which belong to the writer.

use std::cmp::Ordering;

use dotaios_contained::{Ledger, Limits, ReadError, RelPath, Root, UnsafeKind};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::folder::config::{
    CONFIG_PATH, SUPPORTED_SCHEMA_VERSION, SchemaSupport, SchemaVersion, parse_config_object,
    schema_support,
};
use crate::folder::inspection::{InspectionCode, read_config};
use crate::text::{collate, js_string_of, js_trim, js_trim_start, to_json_canonical};

/// The `schema` member of every plan body.
pub const PLAN_SCHEMA: &str = "dotaios.migration-plan.v1";

/// `.gitignore`, the one other file a migration may write.
pub const IGNORE_PATH: &str = ".gitignore";

/// The size bound of a `.gitignore` read (1 MiB, like `aios.json`; the contract sets none).
pub const IGNORE_CAP: u64 = 1 << 20;

/// The anchored ignore rule that schema 1.2.0 requires.
pub const WORKSPACES_RULE: &str = "/workspaces/";

/// The shelves a migration never writes, as they appear in the plan body.
pub const PROTECTED_SHELVES: [&str; 4] = ["context/", "projects/", "memory/", "vault/"];

/// `ownership` of the `aios.json` change.
pub const CONFIG_OWNERSHIP: &str = "DotAIOS compatibility metadata";
/// `ownership` of the `.gitignore` change.
pub const IGNORE_OWNERSHIP: &str = "DotAIOS sync safety metadata";
/// The per-step change summary for `aios.json`.
pub const CONFIG_SUMMARY: &str = "Update only schema_version; preserve every other config byte.";
/// The per-step change summary for `.gitignore`.
pub const IGNORE_SUMMARY: &str =
    "Append the anchored /workspaces/ rule while preserving existing ignore bytes.";

/// The mode of a file a migration creates (`.gitignore` when absent).
pub const CREATE_MODE: u32 = 0o644;

/// One registered schema step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Migration {
    /// The step id, e.g. `schema-1.1.0-to-1.2.0`.
    pub id: &'static str,
    /// The schema the step starts from.
    pub from: &'static str,
    /// The schema the step produces.
    pub to: &'static str,
    /// The step's one-line summary (enters the plan hash).
    pub summary: &'static str,
}

/// The registry: ordered, contiguous, ending at [`SUPPORTED_SCHEMA_VERSION`].
pub const REGISTRY: [Migration; 2] = [
    Migration {
        id: "schema-1.0.0-to-1.1.0",
        from: "1.0.0",
        to: "1.1.0",
        summary: "Record support for preview-first, receipted folder migrations.",
    },
    Migration {
        id: "schema-1.1.0-to-1.2.0",
        from: "1.1.0",
        to: "1.2.0",
        summary: "Keep managed project workspaces outside the private AIOS mirror.",
    },
];

/// The registered steps from `from` to the supported schema: empty at the supported schema,
/// `None` when no registered step starts at `from`.
pub fn migration_chain(from: &str) -> Option<&'static [Migration]> {
    if from == SUPPORTED_SCHEMA_VERSION {
        return Some(&[]);
    }
    let start = REGISTRY.iter().position(|step| step.from == from)?;
    Some(&REGISTRY[start..])
}

/// A live file as read for planning: its bytes and permission bits (`& 0o777`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LiveFile {
    /// The whole file.
    pub bytes: Vec<u8>,
    /// Permission bits.
    pub mode: u32,
}

/// What a plan is computed from: the two files a migration may touch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanSource {
    /// `aios.json`.
    pub config: LiveFile,
    /// `.gitignore`, `None` when absent.
    pub ignore: Option<LiveFile>,
}

/// What a change does to its path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// The path exists and gets new bytes.
    Replace,
    /// The path is absent and is created.
    Create,
}

impl Action {
    /// `replace` or `create`.
    pub fn as_str(self) -> &'static str {
        match self {
            Action::Replace => "replace",
            Action::Create => "create",
        }
    }
}

/// One file the plan writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// Folder-relative path: `.gitignore` or `aios.json`.
    pub path: &'static str,
    /// Replace or create.
    pub action: Action,
    /// The bytes before, `None` for a create.
    pub before: Option<Vec<u8>>,
    /// The bytes after.
    pub after: Vec<u8>,
    /// Permission bits before, `None` for a create.
    pub before_mode: Option<u32>,
    /// Permission bits after: `before_mode`, or [`CREATE_MODE`] for a create.
    pub after_mode: u32,
    /// Who owns the file's meaning ([`CONFIG_OWNERSHIP`] or [`IGNORE_OWNERSHIP`]).
    pub ownership: &'static str,
    /// The summaries of every step that touched the path, joined with one space.
    pub summary: String,
    /// Lower-case hex SHA-256 of `before`.
    pub before_sha256: Option<String>,
    /// Lower-case hex SHA-256 of `after`.
    pub after_sha256: String,
}

/// A computed plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// `migrate-<from>-to-<to>-<hash16>` (contract 01 §8.4).
    pub id: String,
    /// The folder's schema.
    pub from_schema_version: String,
    /// Always [`SUPPORTED_SCHEMA_VERSION`].
    pub to_schema_version: &'static str,
    /// The steps, in order.
    pub migrations: &'static [Migration],
    /// The changes: every path but `aios.json` in collation order, then `aios.json` last.
    pub changes: Vec<Change>,
    /// The canonical JSON text of the plan body that the id hashes.
    pub canonical_body: String,
}

/// Why no plan could be computed. Carries no path and no machine detail.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    /// Reading or checking `aios.json` failed with a migration-inspection code
    /// (`MISSING_FILE`, `INVALID_CONFIG`, `INVALID_SCHEMA`, `FUTURE_SCHEMA`, …).
    #[error("{0}")]
    Config(InspectionCode),
    /// `.gitignore` cannot be planned on (`UNSAFE_IGNORE_FILE`).
    #[error("UNSAFE_IGNORE_FILE")]
    IgnoreFile(IgnoreProblem),
    /// A step found another schema than the one it starts from (`PLAN_CHANGED`).
    #[error("PLAN_CHANGED")]
    SchemaMismatch {
        /// The schema the step expects.
        expected: &'static str,
        /// What `aios.json` holds (`None` when `schema_version` is absent or `null`).
        found: Option<String>,
    },
    /// `aios.json` does not hold exactly one plain-text `schema_version` member whose value
    /// can be rewritten in place (`UNSAFE_CONFIG_LAYOUT`).
    #[error("UNSAFE_CONFIG_LAYOUT")]
    UnsafeConfigLayout,
    /// A change names a path the registry may not write (`INVALID_REGISTRY`).
    #[error("INVALID_REGISTRY")]
    InvalidRegistry,
    /// A change lies under a protected shelf (`PROTECTED_SHELF`).
    #[error("PROTECTED_SHELF")]
    ProtectedShelf,
}

/// Why `.gitignore` was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IgnoreProblem {
    /// A symbolic link (never followed).
    Link,
    /// A directory, FIFO, socket or device.
    NotRegular,
    /// Larger than [`IGNORE_CAP`].
    TooLarge,
    /// Not strict UTF-8.
    InvalidUtf8,
    /// It changed while it was read.
    Changed,
    /// Any other operating-system failure.
    Unreadable,
}

impl PlanError {
    /// The upper-snake code.
    pub fn code(&self) -> &'static str {
        match self {
            PlanError::Config(code) => code.as_str(),
            PlanError::IgnoreFile(_) => "UNSAFE_IGNORE_FILE",
            PlanError::SchemaMismatch { .. } => "PLAN_CHANGED",
            PlanError::UnsafeConfigLayout => "UNSAFE_CONFIG_LAYOUT",
            PlanError::InvalidRegistry => "INVALID_REGISTRY",
            PlanError::ProtectedShelf => "PROTECTED_SHELF",
        }
    }
}

/// Whether a migration may write `path`: `PROTECTED_SHELF` for a path under a protected shelf,
/// `INVALID_REGISTRY` for any other path but `.gitignore` and `aios.json`. Recovery applies the
/// same rule to every path named in a journal.
pub fn check_writable(path: &str) -> Result<(), PlanError> {
    if PROTECTED_SHELVES
        .iter()
        .any(|shelf| path.starts_with(shelf) || Some(path) == shelf.strip_suffix('/'))
    {
        return Err(PlanError::ProtectedShelf);
    }
    if path == IGNORE_PATH || path == CONFIG_PATH {
        Ok(())
    } else {
        Err(PlanError::InvalidRegistry)
    }
}

/// Reads the plan's inputs through the contained reader: `aios.json` (1 MiB, the §8.1 codes)
/// and `.gitignore` ([`IGNORE_CAP`]). Neither may be a link or a special file.
pub fn read_plan_source(root: &Root) -> Result<PlanSource, PlanError> {
    let config = read_config(root).map_err(PlanError::Config)?;
    let config_path = RelPath::new(CONFIG_PATH).map_err(|_| PlanError::InvalidRegistry)?;
    // `read_config` returns the text but not the mode; take it with a no-follow probe. The
    // writer re-verifies bytes and mode just before each rename, so a change in between is
    // caught there.
    let mode = match root.probe(&config_path) {
        Ok(Some(probe)) if probe.identity.size == config.text.len() as u64 => {
            probe.identity.permissions()
        }
        Ok(Some(_)) => return Err(PlanError::Config(InspectionCode::ConfigChanged)),
        Ok(None) => return Err(PlanError::Config(InspectionCode::ConfigChanged)),
        Err(_) => return Err(PlanError::Config(InspectionCode::UnsafeFile)),
    };
    let ignore_path = RelPath::new(IGNORE_PATH).map_err(|_| PlanError::InvalidRegistry)?;
    let mut ledger = Ledger::new(Limits {
        files: 1,
        bytes: IGNORE_CAP,
        entries: 0,
    });
    let ignore = match root.read_bytes(&ignore_path, IGNORE_CAP, &mut ledger) {
        Ok(None) => None,
        Ok(Some(file)) => Some(LiveFile {
            mode: file.identity.permissions(),
            bytes: file.bytes,
        }),
        Err(error) => return Err(PlanError::IgnoreFile(ignore_problem(error))),
    };
    Ok(PlanSource {
        config: LiveFile {
            bytes: config.text.into_bytes(),
            mode,
        },
        ignore,
    })
}

fn ignore_problem(error: ReadError) -> IgnoreProblem {
    match error {
        ReadError::Unsafe(UnsafeKind::Symlink) => IgnoreProblem::Link,
        ReadError::Unsafe(_) | ReadError::NotRegular(_) => IgnoreProblem::NotRegular,
        ReadError::TooLarge | ReadError::Budget(_) => IgnoreProblem::TooLarge,
        ReadError::InvalidUtf8 => IgnoreProblem::InvalidUtf8,
        ReadError::Changed => IgnoreProblem::Changed,
        ReadError::DirectoryLimit | ReadError::Io(_) => IgnoreProblem::Unreadable,
    }
}

/// Reads the folder and computes its plan: `Ok(None)` when the folder is at the supported
/// schema. This is what `doctor` calls for its `Migration state` check.
pub fn plan_for_root(root: &Root) -> Result<Option<Plan>, PlanError> {
    build_plan(&read_plan_source(root)?)
}

/// Computes the plan for `source` (contract 01 §9.2): `Ok(None)` at the supported schema. The
/// schema is checked as migration inspection checks it (§8.1 steps 1–2).
pub fn build_plan(source: &PlanSource) -> Result<Option<Plan>, PlanError> {
    let config_text = std::str::from_utf8(&source.config.bytes)
        .map_err(|_| PlanError::Config(InspectionCode::InvalidConfigEncoding))?;
    let object =
        parse_config_object(config_text).ok_or(PlanError::Config(InspectionCode::InvalidConfig))?;
    let version = SchemaVersion::of_config(&object)
        .ok_or(PlanError::Config(InspectionCode::InvalidSchema))?;
    match schema_support(&version) {
        SchemaSupport::Current => return Ok(None),
        SchemaSupport::Future => return Err(PlanError::Config(InspectionCode::FutureSchema)),
        SchemaSupport::Unsupported => {
            return Err(PlanError::Config(InspectionCode::UnsupportedSchema));
        }
        SchemaSupport::Outdated => {}
    }
    let migrations = migration_chain(version.as_str())
        .ok_or(PlanError::Config(InspectionCode::UnsupportedSchema))?;

    let mut files = FileMap::new(source);
    for step in migrations {
        if step.id == "schema-1.1.0-to-1.2.0" {
            let current = files.ignore.current.as_deref().unwrap_or_default();
            let next = append_workspaces_rule(current)?;
            files.ignore.touch(Some(next), step.summary);
        }
        let next = rewrite_schema_version(&files.config.current_bytes(), step.from, step.to)?;
        files.config.touch(Some(next), step.summary);
    }

    let mut changes = Vec::new();
    for (path, entry, original_mode, ownership) in [
        (
            IGNORE_PATH,
            &files.ignore,
            source.ignore.as_ref().map(|file| file.mode),
            IGNORE_OWNERSHIP,
        ),
        (
            CONFIG_PATH,
            &files.config,
            Some(source.config.mode),
            CONFIG_OWNERSHIP,
        ),
    ] {
        let Some(after) = entry.current.clone() else {
            continue;
        };
        if entry.original.as_ref() == Some(&after) {
            continue;
        }
        check_writable(path)?;
        let action = if entry.original.is_some() {
            Action::Replace
        } else {
            Action::Create
        };
        changes.push(Change {
            path,
            action,
            before_sha256: entry.original.as_deref().map(sha256_hex),
            after_sha256: sha256_hex(&after),
            before: entry.original.clone(),
            after,
            before_mode: original_mode.filter(|_| action == Action::Replace),
            after_mode: original_mode
                .filter(|_| action == Action::Replace)
                .unwrap_or(CREATE_MODE),
            ownership,
            summary: entry.summaries.join(" "),
        });
    }
    changes.sort_by(|a, b| change_order(a.path, b.path));

    let to_schema_version = SUPPORTED_SCHEMA_VERSION;
    let body = plan_body(version.as_str(), to_schema_version, migrations, &changes);
    let canonical_body = to_json_canonical(&body);
    let hash = sha256_hex(canonical_body.as_bytes());
    let id = format!(
        "migrate-{}-to-{}-{}",
        version.as_str().replace('.', "_"),
        to_schema_version.replace('.', "_"),
        &hash[..16]
    );
    Ok(Some(Plan {
        id,
        from_schema_version: version.as_str().to_owned(),
        to_schema_version,
        migrations,
        changes,
        canonical_body,
    }))
}

/// Every path but `aios.json` in collation order, `aios.json` last.
fn change_order(a: &str, b: &str) -> Ordering {
    match (a == CONFIG_PATH, b == CONFIG_PATH) {
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Greater,
        (false, true) => Ordering::Less,
        (false, false) => collate(a, b),
    }
}

/// The plan body of contract 01 §9.2 step 5.
fn plan_body(from: &str, to: &str, migrations: &[Migration], changes: &[Change]) -> Value {
    let migrations: Vec<Value> = migrations
        .iter()
        .map(|step| {
            json!({"id": step.id, "from": step.from, "to": step.to, "summary": step.summary})
        })
        .collect();
    let operations: Vec<Value> = changes
        .iter()
        .map(|change| {
            json!({
                "path": change.path,
                "action": change.action.as_str(),
                "ownership": change.ownership,
                "summary": change.summary,
                "before_sha256": change.before_sha256,
                "after_sha256": change.after_sha256,
                "before_bytes": change.before.as_ref().map_or(0, Vec::len),
                "after_bytes": change.after.len(),
            })
        })
        .collect();
    json!({
        "schema": PLAN_SCHEMA,
        "from_schema_version": from,
        "to_schema_version": to,
        "migrations": migrations,
        "operations": operations,
        "protected_shelves": PROTECTED_SHELVES,
    })
}

/// The working copy of one file while the steps run.
struct Entry {
    original: Option<Vec<u8>>,
    current: Option<Vec<u8>>,
    summaries: Vec<&'static str>,
}

impl Entry {
    fn new(original: Option<&LiveFile>) -> Entry {
        let bytes = original.map(|file| file.bytes.clone());
        Entry {
            original: bytes.clone(),
            current: bytes,
            summaries: Vec::new(),
        }
    }

    fn current_bytes(&self) -> Vec<u8> {
        self.current.clone().unwrap_or_default()
    }

    /// Records that a step produced `next`. A step that leaves the bytes as they are still
    /// "touched" the path only when it changed it, so its summary is kept only then.
    fn touch(&mut self, next: Option<Vec<u8>>, summary: &'static str) {
        if next != self.current {
            self.current = next;
            self.summaries.push(summary);
        }
    }
}

struct FileMap {
    config: Entry,
    ignore: Entry,
}

impl FileMap {
    fn new(source: &PlanSource) -> FileMap {
        FileMap {
            config: Entry::new(Some(&source.config)),
            ignore: Entry::new(source.ignore.as_ref()),
        }
    }
}

/// Step rewrite of `aios.json` (contract 01 §9.3): only the `schema_version` value changes, every
/// other byte is kept.
fn rewrite_schema_version(
    bytes: &[u8],
    from: &'static str,
    to: &'static str,
) -> Result<Vec<u8>, PlanError> {
    let text = std::str::from_utf8(bytes)
        .map_err(|_| PlanError::Config(InspectionCode::InvalidConfigEncoding))?;
    let object =
        parse_config_object(text).ok_or(PlanError::Config(InspectionCode::InvalidConfig))?;
    let found = match object.get("schema_version") {
        None | Some(Value::Null) => None,
        Some(value) => Some(js_string_of(value)),
    };
    if found.as_deref() != Some(from) || !object.get("schema_version").is_some_and(Value::is_string)
    {
        return Err(PlanError::SchemaMismatch {
            expected: from,
            found,
        });
    }
    let matches = schema_version_matches(text);
    let [value] = matches.as_slice() else {
        return Err(PlanError::UnsafeConfigLayout);
    };
    if &text[value.clone()] != from {
        return Err(PlanError::UnsafeConfigLayout);
    }
    let mut rewritten = String::with_capacity(text.len() + to.len());
    rewritten.push_str(&text[..value.start]);
    rewritten.push_str(to);
    rewritten.push_str(&text[value.end..]);
    let reparsed = parse_config_object(&rewritten).ok_or(PlanError::UnsafeConfigLayout)?;
    if reparsed.get("schema_version").and_then(Value::as_str) != Some(to) {
        return Err(PlanError::UnsafeConfigLayout);
    }
    Ok(rewritten.into_bytes())
}

/// The byte ranges of the captured values of every match of
/// `"schema_version"\s*:\s*"([^"]*)"` (global, non-overlapping, left to right; `\s` is the
/// JavaScript whitespace set).
fn schema_version_matches(text: &str) -> Vec<std::ops::Range<usize>> {
    const KEY: &str = "\"schema_version\"";
    let mut found = Vec::new();
    let mut search_from = 0;
    while let Some(offset) = text[search_from..].find(KEY) {
        let start = search_from + offset;
        let after_key = start + KEY.len();
        let rest = js_trim_start(&text[after_key..]);
        let matched = rest.strip_prefix(':').and_then(|rest| {
            let rest = js_trim_start(rest);
            let value = rest.strip_prefix('"')?;
            let len = value.find('"')?;
            let value_start = text.len() - value.len();
            Some(value_start..value_start + len)
        });
        match matched {
            Some(range) => {
                // The match ends after the closing quote.
                search_from = range.end + 1;
                found.push(range);
            }
            // A failed attempt moves on by one character, as a global regex does.
            None => search_from = start + 1,
        }
    }
    found
}

/// Step rewrite of `.gitignore` (contract 01 §9.3): append `/workspaces/` unless it is already the
/// last meaningful line. Returns the new bytes (equal to the old ones when nothing is needed).
fn append_workspaces_rule(bytes: &[u8]) -> Result<Vec<u8>, PlanError> {
    let text = std::str::from_utf8(bytes)
        .map_err(|_| PlanError::IgnoreFile(IgnoreProblem::InvalidUtf8))?;
    if last_meaningful_line(text) == Some(WORKSPACES_RULE) {
        return Ok(bytes.to_vec());
    }
    let eol = if text.contains("\r\n") { "\r\n" } else { "\n" };
    let mut out = String::with_capacity(text.len() + WORKSPACES_RULE.len() + 2 * eol.len());
    out.push_str(text);
    if !text.is_empty() && !text.ends_with('\n') {
        out.push_str(eol);
    }
    out.push_str(WORKSPACES_RULE);
    out.push_str(eol);
    Ok(out.into_bytes())
}

/// The last line (lines split on `\r?\n`) that is neither blank after JS trim nor a comment
/// (JS-trimStart begins with `#`).
fn last_meaningful_line(text: &str) -> Option<&str> {
    text.split('\n')
        .map(|line| line.strip_suffix('\r').unwrap_or(line))
        .rev()
        .find(|line| !js_trim(line).is_empty() && !js_trim_start(line).starts_with('#'))
}

/// Lower-case hex SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// Lower-case hex of `bytes`.
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for byte in bytes {
        out.push(char::from(DIGITS[usize::from(byte >> 4)]));
        out.push(char::from(DIGITS[usize::from(byte & 0x0f)]));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const CONFIG_110: &str = "{\n  \"schema_version\": \"1.1.0\",\n  \"created_at\": \"2026-08-01T00:00:00.000Z\",\n  \"ai_tools\": [\"codex\"],\n  \"vault_path\": null\n}\n";

    fn source(config: &str, ignore: Option<&str>) -> PlanSource {
        PlanSource {
            config: LiveFile {
                bytes: config.as_bytes().to_vec(),
                mode: 0o640,
            },
            ignore: ignore.map(|text| LiveFile {
                bytes: text.as_bytes().to_vec(),
                mode: 0o600,
            }),
        }
    }

    fn plan(config: &str, ignore: Option<&str>) -> Plan {
        build_plan(&source(config, ignore)).unwrap().unwrap()
    }

    fn text(bytes: &[u8]) -> &str {
        std::str::from_utf8(bytes).unwrap()
    }

    #[test]
    fn chain_is_contiguous_and_ends_at_the_supported_schema() {
        assert_eq!(migration_chain("1.0.0").unwrap().len(), 2);
        assert_eq!(migration_chain("1.1.0").unwrap().len(), 1);
        assert!(migration_chain("1.2.0").unwrap().is_empty());
        assert!(migration_chain("0.9.0").is_none());
        for pair in REGISTRY.windows(2) {
            assert_eq!(pair[0].to, pair[1].from);
        }
        assert_eq!(REGISTRY.last().unwrap().to, SUPPORTED_SCHEMA_VERSION);
    }

    #[test]
    fn current_folder_has_no_plan() {
        let config = CONFIG_110.replace("1.1.0", "1.2.0");
        assert_eq!(build_plan(&source(&config, None)), Ok(None));
    }

    #[test]
    fn schema_checks_use_the_inspection_codes() {
        let code = |config: &str| build_plan(&source(config, None)).unwrap_err().code();
        assert_eq!(code("{\"schema_version\":\"1.3.0\"}"), "FUTURE_SCHEMA");
        assert_eq!(code("{\"schema_version\":\"0.9.0\"}"), "UNSUPPORTED_SCHEMA");
        assert_eq!(code("{\"schema_version\":\"1.1\"}"), "INVALID_SCHEMA");
        assert_eq!(code("{\"schema_version\":110}"), "INVALID_SCHEMA");
        assert_eq!(code("{}"), "INVALID_SCHEMA");
        assert_eq!(code("[]"), "INVALID_CONFIG");
        assert_eq!(code("{"), "INVALID_CONFIG");
    }

    #[test]
    fn one_one_zero_appends_the_rule_and_rewrites_only_the_value() {
        let plan = plan(CONFIG_110, Some("node_modules/\n"));
        assert_eq!(plan.from_schema_version, "1.1.0");
        assert_eq!(plan.to_schema_version, "1.2.0");
        assert_eq!(plan.migrations.len(), 1);
        assert!(plan.id.starts_with("migrate-1_1_0-to-1_2_0-"));
        assert!(crate::folder::inspection::is_plan_id(&plan.id));
        let [ignore, config] = plan.changes.as_slice() else {
            panic!("two changes expected: {:?}", plan.changes);
        };
        assert_eq!(ignore.path, ".gitignore");
        assert_eq!(ignore.action, Action::Replace);
        assert_eq!(text(&ignore.after), "node_modules/\n/workspaces/\n");
        assert_eq!(
            (ignore.before_mode, ignore.after_mode),
            (Some(0o600), 0o600)
        );
        assert_eq!(ignore.ownership, IGNORE_OWNERSHIP);
        assert_eq!(ignore.summary, REGISTRY[1].summary);
        assert_eq!(config.path, "aios.json");
        assert_eq!(text(&config.after), CONFIG_110.replace("1.1.0", "1.2.0"));
        assert_eq!(
            (config.before_mode, config.after_mode),
            (Some(0o640), 0o640)
        );
        assert_eq!(config.summary, REGISTRY[1].summary);
        assert_eq!(
            config.before_sha256.as_deref(),
            Some(sha256_hex(CONFIG_110.as_bytes()).as_str())
        );
    }

    #[test]
    fn one_zero_zero_runs_both_steps_and_joins_summaries() {
        let config = CONFIG_110.replace("1.1.0", "1.0.0");
        let plan = plan(&config, None);
        assert_eq!(plan.migrations.len(), 2);
        assert!(plan.id.starts_with("migrate-1_0_0-to-1_2_0-"));
        let [ignore, aios] = plan.changes.as_slice() else {
            panic!("two changes expected");
        };
        assert_eq!(ignore.action, Action::Create);
        assert_eq!((ignore.before_mode, ignore.after_mode), (None, 0o644));
        assert_eq!(ignore.before_sha256, None);
        assert_eq!(text(&ignore.after), "/workspaces/\n");
        assert_eq!(
            aios.summary,
            format!("{} {}", REGISTRY[0].summary, REGISTRY[1].summary)
        );
        assert_eq!(text(&aios.after), CONFIG_110.replace("1.1.0", "1.2.0"));
    }

    #[test]
    fn gitignore_line_endings_and_trailing_newlines() {
        let cases = [
            ("a\n", "a\n/workspaces/\n"),
            ("a", "a\n/workspaces/\n"),
            ("a\r\nb\r\n", "a\r\nb\r\n/workspaces/\r\n"),
            ("a\r\nb", "a\r\nb\r\n/workspaces/\r\n"),
            ("", "/workspaces/\n"),
            ("a\r", "a\r\n/workspaces/\n"),
            (
                "/workspaces/\n!/workspaces/keep\n",
                "/workspaces/\n!/workspaces/keep\n/workspaces/\n",
            ),
            (" /workspaces/\n", " /workspaces/\n/workspaces/\n"),
        ];
        for (before, after) in cases {
            let got = append_workspaces_rule(before.as_bytes()).unwrap();
            assert_eq!(text(&got), after, "{before:?}");
        }
        for already in [
            "/workspaces/",
            "/workspaces/\n",
            "/workspaces/\r\n",
            "x\n/workspaces/\n\n   \n# trailing comment\n  # indented\n",
            "/workspaces/\r\n\r\n#c\r\n",
        ] {
            let got = append_workspaces_rule(already.as_bytes()).unwrap();
            assert_eq!(text(&got), already, "{already:?}");
        }
        assert_eq!(
            append_workspaces_rule(b"\xff"),
            Err(PlanError::IgnoreFile(IgnoreProblem::InvalidUtf8))
        );
    }

    #[test]
    fn rule_already_present_leaves_gitignore_out_of_the_plan() {
        let plan = plan(CONFIG_110, Some("/workspaces/\n"));
        assert_eq!(plan.changes.len(), 1);
        assert_eq!(plan.changes[0].path, "aios.json");
        let with_crlf = self::plan(CONFIG_110, Some("/workspaces/\r\n"));
        assert_eq!(with_crlf.changes.len(), 1);
        assert_eq!(
            plan.id, with_crlf.id,
            "the plan body does not depend on .gitignore bytes"
        );
    }

    #[test]
    fn rewrite_keeps_every_other_byte() {
        let config = "{\"a\":1,\t\"schema_version\" \r\n:\n \"1.1.0\" , \"b\":\"x\"}";
        let got = rewrite_schema_version(config.as_bytes(), "1.1.0", "1.2.0").unwrap();
        assert_eq!(
            text(&got),
            "{\"a\":1,\t\"schema_version\" \r\n:\n \"1.2.0\" , \"b\":\"x\"}"
        );
    }

    #[test]
    fn rewrite_refuses_unusual_layouts() {
        let refuse = |config: &str| rewrite_schema_version(config.as_bytes(), "1.1.0", "1.2.0");
        // An escaped key or value.
        assert_eq!(
            refuse("{\"schema\\u005fversion\":\"1.1.0\"}"),
            Err(PlanError::UnsafeConfigLayout)
        );
        assert_eq!(
            refuse("{\"schema_version\":\"1.1\\u002e0\"}"),
            Err(PlanError::UnsafeConfigLayout)
        );
        // Two plain-text members (a nested one, or a repeated key).
        assert_eq!(
            refuse("{\"schema_version\":\"1.1.0\",\"x\":{\"schema_version\":\"1.1.0\"}}"),
            Err(PlanError::UnsafeConfigLayout)
        );
        assert_eq!(
            refuse("{\"schema_version\":\"1.0.0\",\"schema_version\":\"1.1.0\"}"),
            Err(PlanError::UnsafeConfigLayout)
        );
        // A wrong schema is a changed plan.
        assert_eq!(
            refuse("{\"schema_version\":\"1.0.0\"}"),
            Err(PlanError::SchemaMismatch {
                expected: "1.1.0",
                found: Some("1.0.0".into())
            })
        );
        assert_eq!(
            refuse("{\"x\":1}"),
            Err(PlanError::SchemaMismatch {
                expected: "1.1.0",
                found: None
            })
        );
    }

    #[test]
    fn matches_follow_global_regex_semantics() {
        let text = "\"schema_version\"x \"schema_version\" : \"v\" \"schema_version\":\"\"";
        let got: Vec<&str> = schema_version_matches(text)
            .into_iter()
            .map(|range| &text[range])
            .collect();
        assert_eq!(got, ["v", ""]);
        // The value capture stops at the first quote, backslashes included.
        let text = "\"schema_version\":\"a\\\"b\"";
        let got: Vec<&str> = schema_version_matches(text)
            .into_iter()
            .map(|range| &text[range])
            .collect();
        assert_eq!(got, ["a\\"]);
    }

    #[test]
    fn canonical_body_sorts_keys_and_hashes_to_the_id() {
        let plan = plan(CONFIG_110, Some("node_modules/\n"));
        let body = &plan.canonical_body;
        assert!(body.starts_with(
            "{\"from_schema_version\":\"1.1.0\",\"migrations\":[{\"from\":\"1.1.0\",\"id\":\"schema-1.1.0-to-1.2.0\","
        ));
        assert!(body.ends_with(
            "\"protected_shelves\":[\"context/\",\"projects/\",\"memory/\",\"vault/\"],\"schema\":\"dotaios.migration-plan.v1\",\"to_schema_version\":\"1.2.0\"}"
        ));
        assert!(body.contains("\"before_bytes\":14,"));
        assert_eq!(
            &plan.id[plan.id.len() - 16..],
            &sha256_hex(body.as_bytes())[..16]
        );
        // Modes never enter the hash.
        let mut other = source(CONFIG_110, Some("node_modules/\n"));
        other.config.mode = 0o600;
        assert_eq!(build_plan(&other).unwrap().unwrap().id, plan.id);
    }

    #[test]
    fn plan_id_golden() {
        // Computed independently in Node.js: the contract's plan body for exactly these bytes,
        // keys sorted, `JSON.stringify`, SHA-256. Any change to a hashed string breaks it.
        let plan = plan(CONFIG_110, Some("node_modules/\n"));
        assert_eq!(plan.id, GOLDEN_ID);
    }

    const GOLDEN_ID: &str = "migrate-1_1_0-to-1_2_0-143dd1da8635e219";

    #[test]
    fn writable_paths() {
        assert_eq!(check_writable("aios.json"), Ok(()));
        assert_eq!(check_writable(".gitignore"), Ok(()));
        assert_eq!(check_writable("README.md"), Err(PlanError::InvalidRegistry));
        assert_eq!(
            check_writable("context/work.md"),
            Err(PlanError::ProtectedShelf)
        );
        assert_eq!(check_writable("memory"), Err(PlanError::ProtectedShelf));
    }

    #[test]
    fn hex_is_lower_case() {
        assert_eq!(
            sha256_hex(b""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }
}
