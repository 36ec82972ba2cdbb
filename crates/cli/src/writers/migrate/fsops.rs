//! The few filesystem operations the migration journal needs beyond
//! [`crate::writers::atomic`]: in-place exclusive creation (the journal protocol relies on a
//! file appearing under its final name, so that a crash leaves either nothing or a partial file
//! that recovery recognises, never a stray temporary name), renames and hard links between two
//! directory handles, removal of files and of whole transaction directories, and a no-follow
//! `stat`.
//!
//! Every operation takes a [`Dir`] handle and a single name component; nothing here resolves a
//! path, follows a link (`O_NOFOLLOW`, `AT_SYMLINK_NOFOLLOW`, `linkat` without
//! `AT_SYMLINK_FOLLOW`, `renameat` which never follows its last component) or reads file
//! contents (reads go through `dotaios-contained`).

use std::ffi::{OsStr, OsString};
use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;

use rustix::fs::{Access, AtFlags, FileType, Gid, Mode, OFlags, Stat, Uid};
use rustix::io::Errno;

use crate::writers::atomic::Dir;

/// How deep [`remove_tree`] descends. Transaction directories are three levels deep; anything
/// deeper was not written by `migrate` and is refused rather than walked without end.
const MAX_DEPTH: usize = 8;

fn retry<T>(mut call: impl FnMut() -> rustix::io::Result<T>) -> io::Result<T> {
    loop {
        match call() {
            Err(Errno::INTR) => {}
            other => return other.map_err(io::Error::from),
        }
    }
}

/// The owner to give a new file (`fchown`), when it should differ from the creating process.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Owner {
    /// User id.
    pub(crate) uid: u32,
    /// Group id.
    pub(crate) gid: u32,
}

/// Creates `name` exclusively (`O_CREAT | O_EXCL | O_NOFOLLOW`) under its final name, writes
/// `bytes`, optionally hands it to `owner` (best effort: only a privileged process can), sets
/// exactly `mode` with `fchmod` (the umask cannot interfere) and `fsync`s it. The caller
/// `fsync`s the directory. On failure after creation the partial file is removed.
pub(crate) fn create_exclusive(
    dir: &Dir,
    name: &str,
    bytes: &[u8],
    mode: u32,
    owner: Option<Owner>,
) -> io::Result<()> {
    let flags = OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    let fd = retry(|| rustix::fs::openat(dir, name, flags, Mode::from_raw_mode(0o600)))?;
    let filled = fill(&fd, bytes, mode, owner);
    drop(fd);
    if filled.is_err() {
        let _ = rustix::fs::unlinkat(dir, name, AtFlags::empty());
    }
    filled
}

fn fill(fd: &OwnedFd, bytes: &[u8], mode: u32, owner: Option<Owner>) -> io::Result<()> {
    let mut rest = bytes;
    while !rest.is_empty() {
        match rustix::io::write(fd, rest) {
            Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
            Ok(written) => rest = &rest[written..],
            Err(Errno::INTR) => {}
            Err(errno) => return Err(errno.into()),
        }
    }
    if let Some(owner) = owner {
        // Keeping the original owner matters only when a privileged user migrates someone
        // else's folder; an unprivileged process cannot, and that is not an error.
        match retry(|| {
            rustix::fs::fchown(
                fd,
                Some(Uid::from_raw(owner.uid)),
                Some(Gid::from_raw(owner.gid)),
            )
        }) {
            Ok(()) => {}
            Err(error) if error.raw_os_error() == Some(Errno::PERM.raw_os_error()) => {}
            Err(error) => return Err(error),
        }
    }
    retry(|| {
        rustix::fs::fchmod(
            fd,
            Mode::from_raw_mode((mode & 0o777) as rustix::fs::RawMode),
        )
    })?;
    retry(|| rustix::fs::fsync(fd))?;
    Ok(())
}

/// `renameat(from/from_name, to/to_name)`: atomically replaces `to_name` (never following it).
pub(crate) fn rename(from: &Dir, from_name: &str, to: &Dir, to_name: &str) -> io::Result<()> {
    retry(|| rustix::fs::renameat(from, from_name, to, to_name))
}

/// `linkat(from/from_name, to/to_name)` without following; fails with `AlreadyExists` when
/// `to_name` exists.
pub(crate) fn link(from: &Dir, from_name: &str, to: &Dir, to_name: &str) -> io::Result<()> {
    retry(|| rustix::fs::linkat(from, from_name, to, to_name, AtFlags::empty()))
}

/// Removes the non-directory `name`; `false` when it was already absent.
pub(crate) fn remove_file(dir: &Dir, name: &str) -> io::Result<bool> {
    match retry(|| rustix::fs::unlinkat(dir, name, AtFlags::empty())) {
        Ok(()) => Ok(true),
        Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(false),
        Err(error) => Err(error),
    }
}

/// Creates the directory `name` exclusively (`EEXIST` is [`io::ErrorKind::AlreadyExists`]),
/// `fsync`s `parent`, and opens it without following. The mode is `0o777` narrowed by the
/// umask, like every directory `init` makes.
pub(crate) fn make_dir_exclusive(parent: &Dir, name: &str) -> io::Result<Dir> {
    retry(|| rustix::fs::mkdirat(parent, name, Mode::from_raw_mode(0o777)))?;
    parent.sync().map_err(write_error_to_io)?;
    open_dir(parent, name)?.ok_or_else(|| io::ErrorKind::NotFound.into())
}

/// Opens the directory `name` without following a link; `None` when absent.
pub(crate) fn open_dir(parent: &Dir, name: &str) -> io::Result<Option<Dir>> {
    parent.open_dir(OsStr::new(name)).map_err(write_error_to_io)
}

/// `fstatat(dir, name, AT_SYMLINK_NOFOLLOW)`; `None` when absent.
pub(crate) fn stat(dir: &Dir, name: &str) -> io::Result<Option<Stat>> {
    match retry(|| rustix::fs::statat(dir, name, AtFlags::SYMLINK_NOFOLLOW)) {
        Ok(stat) => Ok(Some(stat)),
        Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(error) => Err(error),
    }
}

/// Whether a `stat` is of a regular file.
pub(crate) fn is_regular(stat: &Stat) -> bool {
    FileType::from_raw_mode(stat.st_mode) == FileType::RegularFile
}

/// Whether the effective user may create and remove entries in `dir` (`faccessat` with
/// `AT_EACCESS`, which also reports a read-only filesystem).
pub(crate) fn is_writable(dir: &Dir) -> io::Result<bool> {
    match retry(|| {
        rustix::fs::accessat(
            dir,
            ".",
            Access::WRITE_OK | Access::EXEC_OK,
            AtFlags::EACCESS,
        )
    }) {
        Ok(()) => Ok(true),
        Err(error)
            if [Errno::ACCESS, Errno::ROFS, Errno::PERM]
                .iter()
                .any(|errno| error.raw_os_error() == Some(errno.raw_os_error())) =>
        {
            Ok(false)
        }
        Err(error) => Err(error),
    }
}

/// The names in `dir`, without `.` and `..`, each with whether it is a real directory.
pub(crate) fn entries(dir: &Dir) -> io::Result<Vec<(OsString, bool)>> {
    let mut stream = rustix::fs::Dir::read_from(dir.as_fd()).map_err(io::Error::from)?;
    let mut names = Vec::new();
    while let Some(entry) = stream.read() {
        let entry = entry.map_err(io::Error::from)?;
        let name = entry.file_name().to_bytes();
        if name == b"." || name == b".." {
            continue;
        }
        let name = OsStr::from_bytes(name).to_os_string();
        let is_dir = match entry.file_type() {
            FileType::Directory => true,
            FileType::Unknown => {
                match retry(|| rustix::fs::statat(dir, name.as_os_str(), AtFlags::SYMLINK_NOFOLLOW))
                {
                    Ok(stat) => FileType::from_raw_mode(stat.st_mode) == FileType::Directory,
                    Err(error) if error.kind() == io::ErrorKind::NotFound => continue,
                    Err(error) => return Err(error),
                }
            }
            _ => false,
        };
        names.push((name, is_dir));
    }
    Ok(names)
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
        if is_dir {
            if let Some(child) = dir.open_dir(&name).map_err(write_error_to_io)? {
                empty_dir_at_depth(&child, &[], depth + 1)?;
            }
            match retry(|| rustix::fs::unlinkat(dir, name.as_os_str(), AtFlags::REMOVEDIR)) {
                Ok(()) => {}
                Err(error) if error.kind() == io::ErrorKind::NotFound => {}
                Err(error) => return Err(error),
            }
        } else {
            match retry(|| rustix::fs::unlinkat(dir, name.as_os_str(), AtFlags::empty())) {
                Ok(()) => {}
                Err(error) if error.kind() == io::ErrorKind::NotFound => {}
                Err(error) => return Err(error),
            }
        }
    }
    Ok(())
}

/// Removes the empty directory `name`; `false` when it was already absent.
pub(crate) fn remove_empty_dir(parent: &Dir, name: &str) -> io::Result<bool> {
    match retry(|| rustix::fs::unlinkat(parent, name, AtFlags::REMOVEDIR)) {
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

/// Folds the atomic layer's refusals into `io::Error`s: a link where a directory is expected is
/// `ELOOP`, a non-directory `ENOTDIR`. Callers that must tell these apart check first.
pub(crate) fn write_error_to_io(error: crate::writers::atomic::WriteError) -> io::Error {
    use crate::writers::atomic::WriteError;
    match error {
        WriteError::Io(error) => error,
        WriteError::Symlink => Errno::LOOP.into(),
        WriteError::NotDirectory | WriteError::NotRegular => Errno::NOTDIR.into(),
        WriteError::Exists => Errno::EXIST.into(),
        // Refusals migrate never provokes (an invalid name, a replace-if-unchanged).
        other => io::Error::other(other.to_string()),
    }
}

/// Whether `error` says a link or a non-directory was met where a real directory was needed.
pub(crate) fn is_unsafe_kind(error: &io::Error) -> bool {
    [Errno::LOOP, Errno::NOTDIR]
        .iter()
        .any(|errno| error.raw_os_error() == Some(errno.raw_os_error()))
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::{PermissionsExt, symlink};

    use super::*;

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
