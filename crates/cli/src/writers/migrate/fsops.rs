//! The few filesystem operations the migration journal needs beyond
//! [`crate::writers::atomic`]: in-place exclusive creation (the journal protocol relies on a
//! file appearing under its final name, so that a crash leaves either nothing or a partial file
//! that recovery recognises, never a stray temporary name), renames and hard links between two
//! directory handles, removal of files and of whole transaction directories, and a no-follow
//! `stat`.
//!
//! Every operation takes a [`Dir`] handle and a single name component and goes through the
//! platform seam [`crate::sys`]; nothing here resolves a path, follows a link or reads file
//! contents (reads go through `dotaios-contained`).

use std::ffi::{OsStr, OsString};
use std::io;

use crate::sys::{self, FileKind};
pub(crate) use crate::sys::{Meta, Owner};
use crate::writers::atomic::{Dir, WriteError};

/// How deep [`remove_tree`] descends. Transaction directories are three levels deep; anything
/// deeper was not written by `migrate` and is refused rather than walked without end.
const MAX_DEPTH: usize = 8;

/// Creates `name` exclusively (no link followed) under its final name, writes `bytes`,
/// optionally hands it to `owner` (best effort: only a privileged process can), sets exactly
/// `mode` (the umask cannot interfere; no effect on Windows) and flushes it, all through
/// [`sys::fill`]. The caller `fsync`s the directory. On failure after creation the partial
/// file is removed.
pub(crate) fn create_exclusive(
    dir: &Dir,
    name: &str,
    bytes: &[u8],
    mode: u32,
    owner: Option<Owner>,
) -> io::Result<()> {
    let name = OsStr::new(name);
    let mut file = sys::create_new_at(dir.handle(), name, 0o600)?;
    let filled = sys::fill(&mut file, bytes, Some(mode), owner);
    drop(file);
    if filled.is_err() {
        let _ = sys::remove_file_at(dir.handle(), name);
    }
    filled
}

/// Renames `from/from_name` to `to/to_name`, atomically replacing `to_name` (never following it).
pub(crate) fn rename(from: &Dir, from_name: &str, to: &Dir, to_name: &str) -> io::Result<()> {
    sys::rename_at(
        from.handle(),
        OsStr::new(from_name),
        to.handle(),
        OsStr::new(to_name),
    )
}

/// Hard-links `from/from_name` as `to/to_name` without following; fails with
/// `AlreadyExists` when `to_name` exists.
pub(crate) fn link(from: &Dir, from_name: &str, to: &Dir, to_name: &str) -> io::Result<()> {
    sys::link_at(
        from.handle(),
        OsStr::new(from_name),
        to.handle(),
        OsStr::new(to_name),
    )
}

/// Removes the non-directory `name`; `false` when it was already absent.
pub(crate) fn remove_file(dir: &Dir, name: &str) -> io::Result<bool> {
    match sys::remove_file_at(dir.handle(), OsStr::new(name)) {
        Ok(()) => Ok(true),
        Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(false),
        Err(error) => Err(error),
    }
}

/// Creates the directory `name` exclusively (an existing name is
/// [`io::ErrorKind::AlreadyExists`]), `fsync`s `parent`, and opens it without following. The
/// mode is `0o777` narrowed by the umask, like every directory `init` makes.
pub(crate) fn make_dir_exclusive(parent: &Dir, name: &str) -> io::Result<Dir> {
    sys::make_dir_at(parent.handle(), OsStr::new(name))?;
    parent.sync().map_err(write_error_to_io)?;
    open_dir(parent, name)?.ok_or_else(|| io::ErrorKind::NotFound.into())
}

/// Opens the directory `name` without following a link; `None` when absent.
pub(crate) fn open_dir(parent: &Dir, name: &str) -> io::Result<Option<Dir>> {
    parent.open_dir(OsStr::new(name)).map_err(write_error_to_io)
}

/// What `name` is, not following a link; `None` when absent.
pub(crate) fn stat(dir: &Dir, name: &str) -> io::Result<Option<Meta>> {
    sys::stat_at(dir.handle(), OsStr::new(name))
}

/// Whether a `stat` is of a regular file.
pub(crate) fn is_regular(stat: &Meta) -> bool {
    stat.kind == FileKind::File
}

/// Whether the effective user may create and remove entries in `dir`.
pub(crate) fn is_writable(dir: &Dir) -> io::Result<bool> {
    sys::dir_is_writable(dir.handle())
}

/// The names in `dir`, without `.` and `..`, each with whether it is a real directory.
pub(crate) fn entries(dir: &Dir) -> io::Result<Vec<(OsString, bool)>> {
    sys::entries(dir.handle())
}

/// Removes everything inside `dir` except the names in `keep`, depth first, never following a
/// link (a link is removed as a name).
pub(crate) fn empty_dir(dir: &Dir, keep: &[&str]) -> io::Result<()> {
    empty_dir_at_depth(dir, keep, 0)
}

fn empty_dir_at_depth(dir: &Dir, keep: &[&str], depth: usize) -> io::Result<()> {
    if depth > MAX_DEPTH {
        return Err(io::Error::other("directory tree too deep"));
    }
    for (name, is_dir) in entries(dir)? {
        if keep.iter().any(|kept| name == OsStr::new(kept)) {
            continue;
        }
        let removed = if is_dir {
            if let Some(child) = dir.open_dir(&name).map_err(write_error_to_io)? {
                empty_dir_at_depth(&child, &[], depth + 1)?;
            }
            sys::remove_dir_at(dir.handle(), &name)
        } else {
            sys::remove_file_at(dir.handle(), &name)
        };
        match removed {
            Ok(()) => {}
            Err(error) if error.kind() == io::ErrorKind::NotFound => {}
            Err(error) => return Err(error),
        }
    }
    Ok(())
}

/// Removes the empty directory `name`; `false` when it was already absent.
pub(crate) fn remove_empty_dir(parent: &Dir, name: &str) -> io::Result<bool> {
    match sys::remove_dir_at(parent.handle(), OsStr::new(name)) {
        Ok(()) => Ok(true),
        Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(false),
        Err(error) => Err(error),
    }
}

/// Removes the directory `name` and everything below it (never following a link).
pub(crate) fn remove_tree(parent: &Dir, name: &str) -> io::Result<()> {
    let Some(dir) = open_dir(parent, name)? else {
        return Ok(());
    };
    empty_dir(&dir, &[])?;
    drop(dir);
    remove_empty_dir(parent, name).map(|_| ())
}

/// `fsync` of a directory handle as an `io::Error`.
pub(crate) fn sync(dir: &Dir) -> io::Result<()> {
    dir.sync().map_err(write_error_to_io)
}

/// The marker of an `io::Error` made from a link or non-directory refusal of the atomic layer.
#[derive(Debug, thiserror::Error)]
#[error("a link or non-directory where a directory was needed")]
struct UnsafeKind;

/// Folds the atomic layer's refusals into `io::Error`s: a link or a non-directory where a
/// directory is expected becomes one [`is_unsafe_kind`] recognises. Callers that must tell
/// these apart check first.
pub(crate) fn write_error_to_io(error: WriteError) -> io::Error {
    match error {
        WriteError::Io(error) => error,
        WriteError::Symlink | WriteError::NotDirectory | WriteError::NotRegular => {
            io::Error::new(io::ErrorKind::NotADirectory, UnsafeKind)
        }
        WriteError::Exists => io::ErrorKind::AlreadyExists.into(),
        // Refusals migrate never provokes (an invalid name, a replace-if-unchanged).
        other => io::Error::other(other.to_string()),
    }
}

/// Whether `error` says a link or a non-directory was met where a real directory was needed.
pub(crate) fn is_unsafe_kind(error: &io::Error) -> bool {
    error
        .get_ref()
        .is_some_and(|inner| inner.is::<UnsafeKind>())
        || sys::is_link_or_not_dir(error)
}

#[cfg(test)]
mod tests {
    #[cfg(unix)]
    use std::os::unix::fs::{PermissionsExt, symlink};

    use super::*;

    // Links and mode bits: Unix only.
    #[cfg(unix)]
    #[test]
    fn exclusive_creation_sets_the_exact_mode_and_refuses_existing_names() {
        let temp = tempfile::tempdir().unwrap();
        let dir = Dir::open(temp.path()).unwrap();
        create_exclusive(&dir, "a", b"bytes", 0o640, None).unwrap();
        let meta = std::fs::metadata(temp.path().join("a")).unwrap();
        assert_eq!(meta.permissions().mode() & 0o777, 0o640);
        assert_eq!(std::fs::read(temp.path().join("a")).unwrap(), b"bytes");
        let again = create_exclusive(&dir, "a", b"other", 0o600, None).unwrap_err();
        assert_eq!(again.kind(), io::ErrorKind::AlreadyExists);
        symlink("a", temp.path().join("link")).unwrap();
        assert!(create_exclusive(&dir, "link", b"x", 0o600, None).is_err());
        assert_eq!(std::fs::read(temp.path().join("a")).unwrap(), b"bytes");
    }

    // Links and mode bits: Unix only.
    #[cfg(unix)]
    #[test]
    fn remove_tree_removes_links_as_names() {
        let temp = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("keep"), b"x").unwrap();
        let tree = temp.path().join("t");
        std::fs::create_dir_all(tree.join("a/b")).unwrap();
        std::fs::write(tree.join("a/b/file"), b"x").unwrap();
        symlink(outside.path(), tree.join("a/out")).unwrap();
        let dir = Dir::open(temp.path()).unwrap();
        remove_tree(&dir, "t").unwrap();
        assert!(!tree.exists());
        assert!(outside.path().join("keep").exists());
        remove_tree(&dir, "t").unwrap();
    }

    #[test]
    fn empty_dir_keeps_what_it_is_told() {
        let temp = tempfile::tempdir().unwrap();
        std::fs::write(temp.path().join("journal.json"), b"{}").unwrap();
        std::fs::create_dir(temp.path().join("staged")).unwrap();
        std::fs::write(temp.path().join("staged/aios.json"), b"{}").unwrap();
        let dir = Dir::open(temp.path()).unwrap();
        empty_dir(&dir, &["journal.json"]).unwrap();
        let names: Vec<_> = std::fs::read_dir(temp.path())
            .unwrap()
            .map(|entry| entry.unwrap().file_name())
            .collect();
        assert_eq!(names, [OsString::from("journal.json")]);
    }
}
