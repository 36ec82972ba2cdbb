//! The `dotaios init` writer (contract 01 §11): decides whether a folder may be initialised, then
//! creates the §11.2 directories and §11.3 files through [`super::atomic`].
//!
//! It works in two phases so that nothing is written before every refusal has had its chance:
//! [`check`] runs the four checks of §11.1 in the contract's order and only reads; [`write()`]
//! first looks at every path it is going to touch (a symlink or a wrong kind anywhere is
//! refused while the folder is still unchanged), then creates what is missing. One job a file:
//! `checks.rs` (§11.1), `plan.rs` (what is written, and `aios.json`), `preflight.rs` (the look
//! before writing), `place.rs` (creating directories and placing files). This module holds the
//! request, answer, report and error types and [`write()`], which sequences the three.
//!
//! Invariants: an existing file is never replaced unless `--overwrite` is given and the file
//! is a generated one ([`plan::Policy::Generated`]); `aios.json` and `.gitignore` are never replaced
//! (`migrate` is their only writer); nothing below the target is reached through a symbolic
//! link; reads go through `dotaios-contained`, writes through [`super::atomic`]. This module
//! never prints: the command turns its report and errors into text.

use std::ffi::OsString;
use std::path::PathBuf;
use std::time::SystemTime;

use dotaios_contained::{Ledger, Limits, RelPath, Root};

use super::atomic::WriteError;
use super::iso_utc_millis;

mod checks;
mod place;
mod plan;
mod preflight;

pub(crate) use checks::check;
pub(crate) use plan::DEFAULT_AI_TOOLS;

use place::{Placed, ensure_dir_path, open_or_create_dir, place_file, write_error};
use plan::{DIRECTORIES, VAULT_DIRECTORIES, planned_files};
use preflight::preflight;

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
    /// The argument as given, for messages.
    pub(crate) raw: OsString,
    /// Tilde-expanded and absolute.
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

/// Opens an existing target read-only through `dotaios-contained`; `None` when nothing exists
/// there yet. A non-directory or an unreadable target is refused with its typed error.
fn open_existing_target(target: &std::path::Path) -> Result<Option<Root>, InitError> {
    match Root::open(target) {
        Ok(root) => Ok(Some(root)),
        Err(dotaios_contained::RootError::NotFound) => Ok(None),
        Err(dotaios_contained::RootError::NotDirectory) => Err(InitError::TargetNotDirectory {
            target: target.to_path_buf(),
        }),
        Err(dotaios_contained::RootError::Io(kind)) => Err(InitError::TargetUnreadable {
            target: target.to_path_buf(),
            kind,
        }),
    }
}

pub(crate) use crate::output::shell_quote;

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    #[test]
    fn quoting_follows_the_migrate_rule() {
        assert_eq!(shell_quote(Path::new("/home/ada/aios")), "/home/ada/aios");
        assert_eq!(shell_quote(Path::new("/tmp/my aios")), "'/tmp/my aios'");
        assert_eq!(shell_quote(Path::new("/tmp/it's")), "'/tmp/it'\\''s'");
    }
}
