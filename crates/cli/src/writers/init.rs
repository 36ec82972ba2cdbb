//! The `dotaios init` writer (contract 01 §11): decides whether a folder may be initialised, then
//! creates the §11.2 directories and §11.3 files through [`super::atomic`].
//!
//! It works in two phases so that nothing is written before every refusal has had its chance:
//! [`check`] runs the four checks of §11.1 in the contract's order and only reads; [`write()`]
//! first looks at every path it is going to touch (a symlink or a wrong kind anywhere is
//! refused while the folder is still unchanged), then creates what is missing.
//!
//! Invariants: an existing file is never replaced unless `--overwrite` is given and the file
//! is a generated one ([`Policy::Generated`]); `aios.json` and `.gitignore` are never replaced
//! (`migrate` is their only writer); nothing below the target is reached through a symbolic
//! link; reads go through `dotaios-contained`, writes through [`super::atomic`]. This module
//! never prints: the command turns its report and errors into text.

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use dotaios_contained::{EntryKind, Ledger, Limits, ReadError, RelPath, Root, RootError};
use dotaios_core::folder::inspection::{
    Inspection as CoreInspection, InspectionCode, MigrationStatus, inspect_migrations,
};

use super::atomic::{self, Dir, FileMode, WriteError};
use super::templates::{self, BUNDLED_SKILLS};

/// The folder schema `init` writes and the only one it continues on.
pub(crate) const SCHEMA_VERSION: &str = "1.2.0";

/// `ai_tools` written with `--yes` (and offered as the default when prompting).
pub(crate) const DEFAULT_AI_TOOLS: [&str; 3] = ["claude-code", "codex", "cursor"];

/// Directories of §11.2 below the target, parents before children.
const DIRECTORIES: [&str; 10] = [
    "context/domains",
    "projects",
    "connections/apis",
    "memory/signals",
    "memory/daily",
    "memory/sessions",
    "skills",
    "plugins",
    "decisions",
    "archives",
];

/// Vault subfolders of §11.2, relative to the vault (built in or external).
const VAULT_DIRECTORIES: [&str; 5] = ["wiki", "raw", "org/companies", "org/people", "outputs"];

/// What an already-present file may become.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Policy {
    /// Never replaced, not even with `--overwrite`: `migrate` is the only writer (decision D1).
    MigrationOwned,
    /// Starter content the user makes their own (context, logs, registries): kept always.
    UserContent,
    /// Generated from the product's templates (the §2 "generated" files and bundled skills):
    /// replaced with `--overwrite`.
    Generated,
}

/// A validated request: absolute paths, flags.
#[derive(Debug, Clone)]
pub(crate) struct InitRequest {
    /// The target folder, absolute and lexically normalised (contract 01 §1).
    pub(crate) target: PathBuf,
    /// `--vault-path`, when given.
    pub(crate) vault: Option<VaultRequest>,
    /// `--force`: add missing files to a non-empty folder.
    pub(crate) force: bool,
    /// `--overwrite`: like `--force`, and replace generated files.
    pub(crate) overwrite: bool,
}

/// `--vault-path` as typed (for messages) and resolved (tilde-expanded, absolute).
#[derive(Debug, Clone)]
pub(crate) struct VaultRequest {
    pub(crate) raw: OsString,
    pub(crate) path: PathBuf,
}

/// The answers that fill the context templates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Answers {
    pub(crate) name: String,
    pub(crate) role: String,
    pub(crate) current_work: String,
    pub(crate) priorities: String,
    pub(crate) ai_tools: Vec<String>,
}

impl Answers {
    /// The `--yes` answers of §11.3: HTML-comment placeholders and the default tools.
    pub(crate) fn placeholders() -> Answers {
        Answers {
            name: "<!-- Your Name -->".into(),
            role: "<!-- Your Role -->".into(),
            current_work: "<!-- Add the active work threads agents should keep in mind. -->".into(),
            priorities: "<!-- Add the current bets and near-term priorities. -->".into(),
            ai_tools: DEFAULT_AI_TOOLS
                .iter()
                .map(|tool| (*tool).to_owned())
                .collect(),
        }
    }
}

/// What `init` did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct InitReport {
    pub(crate) target: PathBuf,
    pub(crate) vault: PathBuf,
    pub(crate) created: usize,
    pub(crate) updated: usize,
    pub(crate) kept: usize,
}

/// The result of the read-only migration inspection of an existing `aios.json` (§8.1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Inspection {
    /// Schema 1.2.0, no interrupted transaction.
    Current,
    /// An older supported schema; `migrate` must run first.
    SchemaOutdated { from: String },
    /// An interrupted `migrate` transaction exists.
    TransactionPresent,
    /// Anything else, with its §8.1 code (`FUTURE_SCHEMA`, `INVALID_CONFIG`, …).
    Failed { code: String },
}

/// Why `init` refused or failed. The `Display` text is the user-facing message (it may name
/// the target or vault path: contract 01 §1.3 allows that for `init`).
#[derive(Debug, thiserror::Error)]
pub(crate) enum InitError {
    #[error(
        "Invalid --vault-path: {raw}\nAn external vault must be outside the AIOS target. Omit --vault-path to use the target's built-in vault.",
        raw = .raw.to_string_lossy()
    )]
    VaultInsideTarget { raw: OsString },
    #[error(
        "Existing AIOS schema {from} needs a versioned migration.\nRun `dotaios migrate --path {target}` to preview it. --force and --overwrite are not migration ownership proof.",
        target = shell_quote(.target)
    )]
    SchemaOutdated { from: String, target: PathBuf },
    #[error(
        "An interrupted migration must be recovered before init can inspect this folder. Run `dotaios migrate --recover --path {target}`.",
        target = shell_quote(.target)
    )]
    TransactionPresent { target: PathBuf },
    #[error(
        "Existing AIOS folder failed its migration inspection ({code}); init changes nothing.\nRun `dotaios doctor --path {target}` for details.",
        target = shell_quote(.target)
    )]
    InspectionFailed { code: String, target: PathBuf },
    #[error(
        "Target already exists and is not empty: {target}\nRe-run with --force to add missing files, or --overwrite to replace generated files.",
        target = .target.display()
    )]
    TargetNotEmpty { target: PathBuf },
    #[error("Target exists and is not a directory: {target}", target = .target.display())]
    TargetNotDirectory { target: PathBuf },
    #[error("Cannot read the target folder {target} ({kind}).", target = .target.display())]
    TargetUnreadable {
        target: PathBuf,
        kind: std::io::ErrorKind,
    },
    #[error("Invalid --vault-path: {raw}\n{problem}", raw = .raw.to_string_lossy())]
    VaultUnusable { raw: OsString, problem: String },
    #[error(
        "Refusing to initialize: {path} {problem}.\nNothing was written. Move it aside, then run dotaios init again.",
        path = .path.display()
    )]
    Conflict {
        path: PathBuf,
        problem: &'static str,
    },
    #[error("Could not write {path}: {source}.", path = .path.display())]
    Write { path: PathBuf, source: WriteError },
}

/// Runs the four checks of §11.1, in order, without writing anything.
pub(crate) fn check(request: &InitRequest) -> Result<(), InitError> {
    // 1. The external vault must be outside the target.
    if let Some(vault) = &request.vault
        && lies_inside(&vault.path, &request.target)
    {
        return Err(InitError::VaultInsideTarget {
            raw: vault.raw.clone(),
        });
    }
    // 2. An existing AIOS folder is inspected first, whatever --force/--overwrite say.
    if request.target.join("aios.json").exists() {
        match inspect_existing_folder(&request.target) {
            Inspection::Current => {}
            Inspection::SchemaOutdated { from } => {
                return Err(InitError::SchemaOutdated {
                    from,
                    target: request.target.clone(),
                });
            }
            Inspection::TransactionPresent => {
                return Err(InitError::TransactionPresent {
                    target: request.target.clone(),
                });
            }
            Inspection::Failed { code } => {
                return Err(InitError::InspectionFailed {
                    code,
                    target: request.target.clone(),
                });
            }
        }
    }
    // 3. A non-empty target needs --force or --overwrite.
    let may_add = request.force || request.overwrite;
    if !may_add && !target_is_missing_or_empty(&request.target)? {
        return Err(InitError::TargetNotEmpty {
            target: request.target.clone(),
        });
    }
    // 4. The vault's nearest existing ancestor must be a writable directory.
    if let Some(vault) = &request.vault {
        check_vault_location(vault)?;
    }
    Ok(())
}

/// Creates the folder. `check` must have passed; `now` becomes `created_at`.
pub(crate) fn write(
    request: &InitRequest,
    answers: &Answers,
    now: SystemTime,
) -> Result<InitReport, InitError> {
    let created_at = iso_utc_millis(now);
    let files = planned_files(request, answers, &created_at);
    let vault_root = match &request.vault {
        Some(vault) => vault.path.clone(),
        None => request.target.join("vault"),
    };
    let mut directories: Vec<String> = DIRECTORIES.iter().map(|dir| (*dir).to_owned()).collect();
    if request.vault.is_none() {
        directories.extend(VAULT_DIRECTORIES.iter().map(|dir| format!("vault/{dir}")));
    }

    // Look before writing: every planned path must be absent or already of the right kind.
    preflight(&request.target, &directories, &files)?;
    if let Some(vault) = &request.vault {
        let vault_dirs: Vec<String> = VAULT_DIRECTORIES.iter().map(|d| (*d).to_owned()).collect();
        preflight(&vault.path, &vault_dirs, &[])?;
    }

    let target = open_or_create_dir(&request.target).map_err(|source| InitError::Write {
        path: request.target.clone(),
        source,
    })?;
    for dir in &directories {
        ensure_dir_path(&target, dir)
            .map_err(|source| write_error(&request.target, dir, source))?;
    }
    if let Some(vault) = &request.vault {
        let vault_dir = open_or_create_dir(&vault.path).map_err(|source| InitError::Write {
            path: vault.path.clone(),
            source,
        })?;
        for dir in VAULT_DIRECTORIES {
            ensure_dir_path(&vault_dir, dir)
                .map_err(|source| write_error(&vault.path, dir, source))?;
        }
    }

    let mut report = InitReport {
        target: request.target.clone(),
        vault: vault_root,
        created: 0,
        updated: 0,
        kept: 0,
    };
    // Read back through the contained reader, so that `--overwrite` only counts (and only
    // rewrites) generated files whose bytes actually differ.
    let reader = Root::open(&request.target).ok();
    let mut ledger = Ledger::new(Limits {
        files: 64,
        bytes: 64 << 20,
        entries: 0,
    });
    for file in &files {
        let unchanged = |path: &str| -> bool {
            let (Some(reader), Ok(rel)) = (reader.as_ref(), RelPath::new(path)) else {
                return false;
            };
            matches!(
                reader.read_bytes(&rel, 8 << 20, &mut ledger),
                Ok(Some(existing)) if existing.bytes == file.bytes
            )
        };
        let outcome = place_file(&target, file, request.overwrite, unchanged)
            .map_err(|source| write_error(&request.target, &file.path, source))?;
        match outcome {
            Placed::Created => report.created += 1,
            Placed::Updated => report.updated += 1,
            Placed::Kept => report.kept += 1,
        }
    }
    Ok(report)
}

/// The read-only migration inspection of contract 01 §8.1 for a target that holds `aios.json`,
/// as `dotaios_core::folder::inspection` performs it, reduced to what `init` acts on.
pub(crate) fn inspect_existing_folder(target: &Path) -> Inspection {
    let Ok(root) = Root::open(target) else {
        return Inspection::Failed {
            code: InspectionCode::InspectionFailed.as_str().to_owned(),
        };
    };
    match inspect_migrations(&root) {
        CoreInspection::Inspected(state) => match state.status {
            MigrationStatus::Current => Inspection::Current,
            MigrationStatus::SchemaOutdated => Inspection::SchemaOutdated {
                from: state.folder_schema_version.to_string(),
            },
            MigrationStatus::TransactionPresent => Inspection::TransactionPresent,
        },
        CoreInspection::Failed(code) => Inspection::Failed {
            code: code.as_str().to_owned(),
        },
    }
}

/// One file `init` writes.
#[derive(Debug, Clone)]
pub(crate) struct PlannedFile {
    /// Relative to the target, `/`-separated.
    pub(crate) path: String,
    pub(crate) bytes: Vec<u8>,
    pub(crate) policy: Policy,
}

/// Every §11.3 file, in writing order. `aios.json` comes last: a folder only becomes an AIOS
/// folder once everything else is in place, so an interrupted run is never mistaken for a
/// complete one.
pub(crate) fn planned_files(
    request: &InitRequest,
    answers: &Answers,
    created_at: &str,
) -> Vec<PlannedFile> {
    let context = |template: &str| -> Vec<u8> {
        templates::render(
            template,
            &[
                ("created_at", created_at),
                ("name", &answers.name),
                ("role", &answers.role),
                ("current_work", &answers.current_work),
                ("priorities", &answers.priorities),
            ],
        )
        .into_bytes()
    };
    let text = |text: &str| text.as_bytes().to_vec();
    let catalog = templates::bundled_catalog();
    let registry_names: Vec<&str> = BUNDLED_SKILLS.iter().map(|skill| skill.dir).collect();
    let vault_path = request
        .vault
        .as_ref()
        .and_then(|vault| vault.path.to_str().map(str::to_owned));

    use Policy::{Generated, MigrationOwned, UserContent};
    let mut files = vec![
        file(".gitignore", text(templates::GITIGNORE), MigrationOwned),
        file("README.md", text(templates::README), Generated),
        file(
            "FIRST_SESSION.md",
            text(templates::FIRST_SESSION),
            Generated,
        ),
        file("CLAUDE.md", text(templates::CLAUDE), Generated),
        file("AGENTS.md", text(templates::AGENTS), Generated),
        file(".cursorrules", text(templates::CURSORRULES), Generated),
        file(".env.example", text(templates::ENV_EXAMPLE), Generated),
        file("schedules.yml", text(templates::SCHEDULES), UserContent),
        file(
            "context/identity.md",
            context(templates::IDENTITY),
            UserContent,
        ),
        file(
            "context/priorities.md",
            context(templates::PRIORITIES),
            UserContent,
        ),
        file("context/work.md", context(templates::WORK), UserContent),
        file(
            "context/north-star.md",
            text(templates::NORTH_STAR),
            UserContent,
        ),
        file(
            "context/domains/build.md",
            text(templates::DOMAIN_BUILD),
            UserContent,
        ),
        file(
            "context/domains/make.md",
            text(templates::DOMAIN_MAKE),
            UserContent,
        ),
        file(
            "context/domains/sell.md",
            text(templates::DOMAIN_SELL),
            UserContent,
        ),
        file(
            "decisions/log.md",
            text(templates::DECISION_LOG),
            UserContent,
        ),
        file("memory/events.jsonl", Vec::new(), UserContent),
        file("memory/errors.jsonl", Vec::new(), UserContent),
        file(
            "connections/registry.md",
            text(templates::CONNECTIONS),
            UserContent,
        ),
    ];
    for skill in BUNDLED_SKILLS {
        files.push(file(
            format!("skills/{}/SKILL.md", skill.dir),
            text(skill.text),
            Generated,
        ));
    }
    files.push(file(
        "skills/_registry.json",
        templates::registry_json(&registry_names).into_bytes(),
        UserContent,
    ));
    files.push(file(
        "skills/INDEX.md",
        templates::index_markdown(&catalog).into_bytes(),
        Generated,
    ));
    files.push(file(
        "skills/RESOLVER.md",
        templates::resolver_markdown(&catalog).into_bytes(),
        Generated,
    ));
    files.push(file(
        "aios.json",
        aios_json(created_at, &answers.ai_tools, vault_path.as_deref()).into_bytes(),
        MigrationOwned,
    ));
    files
}

fn file(path: impl Into<String>, bytes: Vec<u8>, policy: Policy) -> PlannedFile {
    PlannedFile {
        path: path.into(),
        bytes,
        policy,
    }
}

/// `aios.json` as §3.1 writes it: 2-space pretty JSON, keys in the stated order, one `\n`.
pub(crate) fn aios_json(created_at: &str, ai_tools: &[String], vault_path: Option<&str>) -> String {
    let mut config = serde_json::Map::new();
    config.insert("schema_version".into(), SCHEMA_VERSION.into());
    config.insert("created_at".into(), created_at.into());
    config.insert(
        "ai_tools".into(),
        serde_json::Value::Array(ai_tools.iter().map(|tool| tool.as_str().into()).collect()),
    );
    config.insert(
        "vault_path".into(),
        vault_path.map_or(serde_json::Value::Null, serde_json::Value::from),
    );
    let mut text =
        serde_json::to_string_pretty(&serde_json::Value::Object(config)).unwrap_or_default();
    text.push('\n');
    text
}

/// `YYYY-MM-DDTHH:MM:SS.sssZ` (UTC) for `time`; times before 1970 print as the epoch.
pub(crate) fn iso_utc_millis(time: SystemTime) -> String {
    let millis = time
        .duration_since(UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_millis());
    let days = i64::try_from(millis / 86_400_000).unwrap_or(0);
    let in_day = millis % 86_400_000;
    let (year, month, day) = civil_from_days(days);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        in_day / 3_600_000,
        in_day / 60_000 % 60,
        in_day / 1000 % 60,
        in_day % 1000
    )
}

/// Days since 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's algorithm).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = u32::try_from(doy - (153 * mp + 2) / 5 + 1).unwrap_or(1);
    let month = u32::try_from(if mp < 10 { mp + 3 } else { mp - 9 }).unwrap_or(1);
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// Whether `inner` is `outer` or below it, lexically or once symlinks in their existing parts
/// are resolved.
fn lies_inside(inner: &Path, outer: &Path) -> bool {
    if inner.starts_with(outer) {
        return true;
    }
    match (
        resolve_existing_prefix(inner),
        resolve_existing_prefix(outer),
    ) {
        (Some(inner), Some(outer)) => inner.starts_with(outer),
        _ => false,
    }
}

/// Canonicalises the longest existing ancestor of the absolute, lexically normal `path` and
/// appends the rest (which does not exist, so it holds no link).
fn resolve_existing_prefix(path: &Path) -> Option<PathBuf> {
    let mut existing = path;
    let mut rest: Vec<&OsStr> = Vec::new();
    loop {
        if let Ok(real) = existing.canonicalize() {
            let mut resolved = real;
            resolved.extend(rest.iter().rev());
            return Some(resolved);
        }
        match (existing.parent(), existing.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name);
                existing = parent;
            }
            _ => return None,
        }
    }
}

fn target_is_missing_or_empty(target: &Path) -> Result<bool, InitError> {
    let root = match Root::open(target) {
        Ok(root) => root,
        Err(RootError::NotFound) => return Ok(true),
        Err(RootError::NotDirectory) => {
            return Err(InitError::TargetNotDirectory {
                target: target.to_path_buf(),
            });
        }
        Err(RootError::Io(kind)) => {
            return Err(InitError::TargetUnreadable {
                target: target.to_path_buf(),
                kind,
            });
        }
    };
    let mut ledger = Ledger::new(Limits {
        files: 0,
        bytes: 0,
        entries: 2,
    });
    // Only emptiness matters: list at most one entry.
    match root.list_dir(None, 1, &mut ledger) {
        Ok(Some(listing)) => Ok(listing.entries.is_empty()),
        Ok(None) => Ok(true),
        Err(ReadError::DirectoryLimit | ReadError::Budget(_)) => Ok(false),
        Err(ReadError::Io(kind)) => Err(InitError::TargetUnreadable {
            target: target.to_path_buf(),
            kind,
        }),
        Err(_) => Ok(false),
    }
}

fn check_vault_location(vault: &VaultRequest) -> Result<(), InitError> {
    let unusable = |problem: String| InitError::VaultUnusable {
        raw: vault.raw.clone(),
        problem,
    };
    if vault.path.to_str().is_none() {
        return Err(unusable(
            "The path is not valid UTF-8, so it cannot be stored in aios.json.".into(),
        ));
    }
    let mut candidate = vault.path.as_path();
    let existing = loop {
        match std::fs::metadata(candidate) {
            Ok(metadata) => break (candidate, metadata),
            Err(_) => match candidate.parent() {
                Some(parent) => candidate = parent,
                None => return Err(unusable("No part of the path exists.".into())),
            },
        }
    };
    let (existing, metadata) = existing;
    if !metadata.is_dir() {
        return Err(unusable(format!(
            "{} exists and is not a directory.",
            existing.display()
        )));
    }
    let access = rustix::fs::Access::WRITE_OK | rustix::fs::Access::EXEC_OK;
    if rustix::fs::access(existing, access).is_err() {
        return Err(unusable(format!(
            "{} is not a directory you can write to.",
            existing.display()
        )));
    }
    Ok(())
}

/// Refuses, before anything is written, every planned path that exists as the wrong kind of
/// object or as a symbolic link (directories must be real directories, files regular files).
fn preflight(base: &Path, directories: &[String], files: &[PlannedFile]) -> Result<(), InitError> {
    let root = match Root::open(base) {
        Ok(root) => root,
        // Nothing exists yet, so nothing can be in the way.
        Err(RootError::NotFound) => return Ok(()),
        Err(RootError::NotDirectory) => {
            return Err(InitError::TargetNotDirectory {
                target: base.to_path_buf(),
            });
        }
        Err(RootError::Io(kind)) => {
            return Err(InitError::TargetUnreadable {
                target: base.to_path_buf(),
                kind,
            });
        }
    };
    let mut dir_paths: Vec<String> = Vec::new();
    let mut add_ancestors = |path: &str, include_self: bool| {
        let parts: Vec<&str> = path.split('/').collect();
        let end = if include_self {
            parts.len()
        } else {
            parts.len() - 1
        };
        for len in 1..=end {
            let prefix = parts[..len].join("/");
            if !dir_paths.contains(&prefix) {
                dir_paths.push(prefix);
            }
        }
    };
    for dir in directories {
        add_ancestors(dir, true);
    }
    for file in files {
        add_ancestors(&file.path, false);
    }
    for dir in &dir_paths {
        match probe(&root, dir) {
            Ok(None | Some(EntryKind::Directory)) => {}
            Ok(Some(EntryKind::Symlink)) => return Err(conflict(base, dir, "is a symbolic link")),
            Ok(Some(_)) => return Err(conflict(base, dir, "exists and is not a directory")),
            Err(problem) => return Err(conflict(base, dir, problem)),
        }
    }
    for file in files {
        match probe(&root, &file.path) {
            Ok(None | Some(EntryKind::File)) => {}
            Ok(Some(EntryKind::Symlink)) => {
                return Err(conflict(base, &file.path, "is a symbolic link"));
            }
            Ok(Some(_)) => {
                return Err(conflict(
                    base,
                    &file.path,
                    "exists and is not a regular file",
                ));
            }
            Err(problem) => return Err(conflict(base, &file.path, problem)),
        }
    }
    Ok(())
}

fn probe(root: &Root, path: &str) -> Result<Option<EntryKind>, &'static str> {
    let rel = RelPath::new(path).map_err(|_| "is not a valid relative path")?;
    match root.probe(&rel) {
        Ok(found) => Ok(found.map(|probe| probe.kind)),
        Err(ReadError::Unsafe(_)) => Err("cannot be reached without following a symbolic link"),
        Err(_) => Err("cannot be inspected"),
    }
}

fn conflict(base: &Path, rel: &str, problem: &'static str) -> InitError {
    InitError::Conflict {
        path: base.join(rel),
        problem,
    }
}

fn write_error(base: &Path, rel: &str, source: WriteError) -> InitError {
    InitError::Write {
        path: base.join(rel),
        source,
    }
}

/// Opens `path` as a directory, creating it and any missing ancestors. Ancestors that exist
/// are followed (they are outside the folder being created); every directory this creates is
/// made with `mkdirat` relative to its parent's handle and reopened without following links.
fn open_or_create_dir(path: &Path) -> Result<Dir, WriteError> {
    match Dir::open(path) {
        Ok(dir) => Ok(dir),
        Err(WriteError::Io(error)) if error.kind() == std::io::ErrorKind::NotFound => {
            let (Some(parent), Some(name)) = (path.parent(), path.file_name()) else {
                return Err(WriteError::Io(error));
            };
            let parent = open_or_create_dir(parent)?;
            parent.ensure_dir(name).map(|(dir, _)| dir)
        }
        Err(error) => Err(error),
    }
}

/// Walks `rel` (`/`-separated) below `base`, creating missing directories, never following a
/// link.
fn ensure_dir_path(base: &Dir, rel: &str) -> Result<Dir, WriteError> {
    let mut components = rel.split('/');
    let first = components.next().unwrap_or_default();
    let (mut dir, _) = base.ensure_dir(OsStr::new(first))?;
    for component in components {
        dir = dir.ensure_dir(OsStr::new(component))?.0;
    }
    Ok(dir)
}

enum Placed {
    Created,
    Updated,
    Kept,
}

fn place_file(
    target: &Dir,
    file: &PlannedFile,
    overwrite: bool,
    unchanged: impl FnOnce(&str) -> bool,
) -> Result<Placed, WriteError> {
    let (parent, name) = match file.path.rsplit_once('/') {
        Some((parent, name)) => (Some(ensure_dir_path(target, parent)?), name),
        None => (None, file.path.as_str()),
    };
    let dir = parent.as_ref().unwrap_or(target);
    let name = OsStr::new(name);
    let mode = FileMode::Umask(0o644);
    match dir.kind(name)? {
        atomic::EntryKind::Absent => match dir.create_file(name, &file.bytes, mode) {
            Ok(()) => Ok(Placed::Created),
            // Appeared since we looked: treat it like any existing entry.
            Err(WriteError::Exists) => existing(dir, file, name, overwrite, unchanged),
            Err(error) => Err(error),
        },
        _ => existing(dir, file, name, overwrite, unchanged),
    }
}

fn existing(
    dir: &Dir,
    file: &PlannedFile,
    name: &OsStr,
    overwrite: bool,
    unchanged: impl FnOnce(&str) -> bool,
) -> Result<Placed, WriteError> {
    match dir.kind(name)? {
        atomic::EntryKind::File
            if overwrite && file.policy == Policy::Generated && !unchanged(&file.path) =>
        {
            dir.replace_file(name, &file.bytes, FileMode::Umask(0o644))?;
            Ok(Placed::Updated)
        }
        atomic::EntryKind::File => Ok(Placed::Kept),
        atomic::EntryKind::Symlink => Err(WriteError::Symlink),
        atomic::EntryKind::Absent => Err(WriteError::Io(std::io::ErrorKind::NotFound.into())),
        atomic::EntryKind::Directory | atomic::EntryKind::Special => Err(WriteError::NotRegular),
    }
}

pub(crate) use crate::output::shell_quote;

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn timestamps_are_iso_utc_with_milliseconds() {
        assert_eq!(iso_utc_millis(UNIX_EPOCH), "1970-01-01T00:00:00.000Z");
        let when = UNIX_EPOCH + Duration::from_millis(1_795_165_331_482);
        assert_eq!(iso_utc_millis(when), "2026-11-20T09:02:11.482Z");
        let leap = UNIX_EPOCH + Duration::from_secs(951_782_400);
        assert_eq!(iso_utc_millis(leap), "2000-02-29T00:00:00.000Z");
    }

    #[test]
    fn aios_json_has_the_spec_shape() {
        let tools: Vec<String> = DEFAULT_AI_TOOLS.iter().map(|t| (*t).to_owned()).collect();
        assert_eq!(
            aios_json("2026-11-20T09:02:11.482Z", &tools, None),
            "{\n  \"schema_version\": \"1.2.0\",\n  \"created_at\": \"2026-11-20T09:02:11.482Z\",\n  \"ai_tools\": [\n    \"claude-code\",\n    \"codex\",\n    \"cursor\"\n  ],\n  \"vault_path\": null\n}\n"
        );
        assert!(
            aios_json("x", &[], Some("/v"))
                .contains("\"ai_tools\": [],\n  \"vault_path\": \"/v\"\n}")
        );
    }

    #[test]
    fn quoting_follows_the_migrate_rule() {
        assert_eq!(shell_quote(Path::new("/home/ada/aios")), "/home/ada/aios");
        assert_eq!(shell_quote(Path::new("/tmp/my aios")), "'/tmp/my aios'");
        assert_eq!(shell_quote(Path::new("/tmp/it's")), "'/tmp/it'\\''s'");
    }

    #[test]
    fn inside_is_lexical_or_through_links() {
        let temp = tempfile::tempdir().unwrap();
        let target = temp.path().join("aios");
        std::fs::create_dir(&target).unwrap();
        std::os::unix::fs::symlink(&target, temp.path().join("alias")).unwrap();
        assert!(lies_inside(&target, &target));
        assert!(lies_inside(&target.join("vault/x"), &target));
        assert!(lies_inside(&temp.path().join("alias/vault"), &target));
        assert!(!lies_inside(&temp.path().join("aios-vault"), &target));
        assert!(!lies_inside(&temp.path().join("vault"), &target));
    }

    #[test]
    fn inspection_grades_schema_versions() {
        let temp = tempfile::tempdir().unwrap();
        let cases = [
            ("{\"schema_version\":\"1.2.0\"}", Inspection::Current),
            (
                "{\"schema_version\":\"1.1.0\"}",
                Inspection::SchemaOutdated {
                    from: "1.1.0".into(),
                },
            ),
            (
                "{\"schema_version\":\"9.0.0\"}",
                Inspection::Failed {
                    code: "FUTURE_SCHEMA".into(),
                },
            ),
            (
                "{\"schema_version\":\"0.9.0\"}",
                Inspection::Failed {
                    code: "UNSUPPORTED_SCHEMA".into(),
                },
            ),
            (
                "{\"schema_version\":1}",
                Inspection::Failed {
                    code: "INVALID_SCHEMA".into(),
                },
            ),
            (
                "[]",
                Inspection::Failed {
                    code: "INVALID_CONFIG".into(),
                },
            ),
        ];
        for (text, expected) in cases {
            std::fs::write(temp.path().join("aios.json"), text).unwrap();
            assert_eq!(inspect_existing_folder(temp.path()), expected, "{text}");
        }
        std::fs::write(temp.path().join("aios.json"), b"\xff").unwrap();
        assert_eq!(
            inspect_existing_folder(temp.path()),
            Inspection::Failed {
                code: "INVALID_CONFIG_ENCODING".into()
            }
        );
    }

    #[test]
    fn overwrite_policy_protects_migration_owned_and_user_files() {
        let request = InitRequest {
            target: PathBuf::from("/t"),
            vault: None,
            force: false,
            overwrite: false,
        };
        let files = planned_files(
            &request,
            &Answers::placeholders(),
            "2026-11-20T00:00:00.000Z",
        );
        let policy = |path: &str| files.iter().find(|f| f.path == path).unwrap().policy;
        assert_eq!(policy("aios.json"), Policy::MigrationOwned);
        assert_eq!(policy(".gitignore"), Policy::MigrationOwned);
        assert_eq!(policy("context/identity.md"), Policy::UserContent);
        assert_eq!(policy("memory/events.jsonl"), Policy::UserContent);
        assert_eq!(policy("CLAUDE.md"), Policy::Generated);
        assert_eq!(policy("skills/plan-today/SKILL.md"), Policy::Generated);
        assert_eq!(files.last().unwrap().path, "aios.json");
    }

    #[test]
    fn placeholders_fill_the_context_templates() {
        let request = InitRequest {
            target: PathBuf::from("/t"),
            vault: None,
            force: false,
            overwrite: false,
        };
        let files = planned_files(
            &request,
            &Answers::placeholders(),
            "2026-11-20T00:00:00.000Z",
        );
        let text = |path: &str| {
            String::from_utf8(files.iter().find(|f| f.path == path).unwrap().bytes.clone()).unwrap()
        };
        let identity = text("context/identity.md");
        assert!(identity.starts_with(
            "---\nsource: dotaios init\ncreated_at: 2026-11-20T00:00:00.000Z\nkind: context\n---\n# Identity\n"
        ));
        assert!(
            identity
                .contains("## Basics\n\n- Name: <!-- Your Name -->\n- Role: <!-- Your Role -->\n")
        );
        assert!(text("context/work.md").contains(
            "## Current Work\n\n<!-- Add the active work threads agents should keep in mind. -->\n"
        ));
        assert!(text("context/priorities.md").contains(
            "## Current Bets\n\n<!-- Add the current bets and near-term priorities. -->\n"
        ));
        assert!(
            files
                .iter()
                .all(|f| !String::from_utf8_lossy(&f.bytes).contains("{{"))
        );
    }
}
