//! Creating what is missing: directories made relative to their parent's handle, files created
//! exclusively, and a generated file replaced only under `--overwrite` when its bytes differ.
//!
//! Every write goes through [`crate::writers::atomic`]; below a handle nothing is reached
//! through a symbolic link, and an existing file that is not [`Policy::Generated`] is never
//! replaced.

use std::ffi::OsStr;
use std::path::Path;

use crate::writers::atomic::{self, Dir, FileMode, WriteError};

use super::InitError;
use super::plan::{PlannedFile, Policy};

pub(super) fn write_error(base: &Path, rel: &str, source: WriteError) -> InitError {
    InitError::Write {
        path: base.join(rel),
        source,
    }
}

/// Opens `path` as a directory, creating it and any missing ancestors. Ancestors that exist
/// are followed (they are outside the folder being created); every directory this creates is
/// made with `mkdirat` relative to its parent's handle and reopened without following links.
pub(super) fn open_or_create_dir(path: &Path) -> Result<Dir, WriteError> {
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
pub(super) fn ensure_dir_path(base: &Dir, rel: &str) -> Result<Dir, WriteError> {
    let mut components = rel.split('/');
    let first = components.next().unwrap_or_default();
    let (mut dir, _) = base.ensure_dir(OsStr::new(first))?;
    for component in components {
        dir = dir.ensure_dir(OsStr::new(component))?.0;
    }
    Ok(dir)
}

pub(super) enum Placed {
    Created,
    Updated,
    Kept,
}

pub(super) fn place_file(
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
