//! The four checks of contract 01 §11.1, in the contract's order: the external vault lies
//! outside the target, an existing AIOS folder passes its migration inspection (§8.1), a
//! non-empty target needs `--force` or `--overwrite`, and the vault's nearest existing ancestor
//! is a writable directory.
//!
//! Read-only: it never creates, changes or removes anything, and reads below the target only
//! through `dotaios-contained`.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use dotaios_contained::{Ledger, Limits, ReadError, Root};
use dotaios_core::folder::check::is_aios_folder;
use dotaios_core::folder::inspection::{
    Inspection as CoreInspection, InspectionCode, MigrationStatus, inspect_migrations,
};

use super::{InitError, InitRequest, VaultRequest};

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
    if is_aios_folder(&request.target) {
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
    let Some(root) = super::open_existing_target(target)? else {
        return Ok(true);
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
    if !crate::sys::path_is_writable(existing) {
        return Err(unusable(format!(
            "{} is not a directory you can write to.",
            existing.display()
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
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
}
