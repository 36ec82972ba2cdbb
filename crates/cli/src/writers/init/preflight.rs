//! The look before writing: every directory and file `init` is going to touch, below the target
//! and the external vault, must be absent or already of the right kind (a real directory, a
//! regular file); a symbolic link or a wrong kind anywhere is refused while the folder is still
//! unchanged.
//!
//! Read-only, through `dotaios-contained`; it never creates anything and never follows a link.

use std::path::Path;

use dotaios_contained::{EntryKind, ReadError, RelPath, Root};

use super::InitError;
use super::plan::PlannedFile;

/// Refuses, before anything is written, every planned path that exists as the wrong kind of
/// object or as a symbolic link (directories must be real directories, files regular files).
pub(super) fn preflight(
    base: &Path,
    directories: &[String],
    files: &[PlannedFile],
) -> Result<(), InitError> {
    // Nothing exists yet, so nothing can be in the way.
    let Some(root) = super::open_existing_target(base)? else {
        return Ok(());
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
