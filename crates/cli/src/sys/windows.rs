//! The Windows backend of [`crate::sys`], on the standard library only (no `unsafe`).
//!
//! A [`DirHandle`] is an open directory handle together with its verbatim (`\\?\`) path; each
//! operation names one child of that path. Verbatim paths make every name literal: no DOS
//! device (`CON`, `NUL`), no `/` translation, no `.`/`..` folding. Nothing below a handle is
//! reached through a reparse point: children are opened with `FILE_FLAG_OPEN_REPARSE_POINT`
//! and the opened handle's attributes are checked, so a symbolic link, junction, mount point or
//! any other reparse point is refused as a link, never entered. Renames and removals are
//! retried a few times on the sharing violations and access-denied answers that virus scanners
//! and indexers cause by holding a just-written file open. What each Unix guarantee means here
//! is written in `docs/decisions.md` ("Writers, launcher and client configurations on Windows").

use std::ffi::{OsStr, OsString};
use std::fs::{File, OpenOptions};
use std::io;
use std::os::windows::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::{FileKind, Meta, OpenedDir, Owner};

/// `FILE_FLAG_BACKUP_SEMANTICS`: needed to open a directory.
const FILE_FLAG_BACKUP_SEMANTICS: u32 = 0x0200_0000;
/// `FILE_FLAG_OPEN_REPARSE_POINT`: open a reparse point itself, never what it names.
const FILE_FLAG_OPEN_REPARSE_POINT: u32 = 0x0020_0000;
const FILE_ATTRIBUTE_READONLY: u32 = 0x1;
const FILE_ATTRIBUTE_DIRECTORY: u32 = 0x10;
const FILE_ATTRIBUTE_DEVICE: u32 = 0x40;
const FILE_ATTRIBUTE_REPARSE_POINT: u32 = 0x400;

const ERROR_INVALID_FUNCTION: i32 = 1;
const ERROR_FILE_NOT_FOUND: i32 = 2;
const ERROR_PATH_NOT_FOUND: i32 = 3;
const ERROR_TOO_MANY_OPEN_FILES: i32 = 4;
const ERROR_ACCESS_DENIED: i32 = 5;
const ERROR_NOT_ENOUGH_MEMORY: i32 = 8;
const ERROR_WRITE_PROTECT: i32 = 19;
const ERROR_SHARING_VIOLATION: i32 = 32;
const ERROR_LOCK_VIOLATION: i32 = 33;
const ERROR_HANDLE_DISK_FULL: i32 = 39;
const ERROR_NOT_SUPPORTED: i32 = 50;
const ERROR_FILE_EXISTS: i32 = 80;
const ERROR_DISK_FULL: i32 = 112;
const ERROR_DIR_NOT_EMPTY: i32 = 145;
const ERROR_ALREADY_EXISTS: i32 = 183;
const ERROR_FILENAME_EXCED_RANGE: i32 = 206;
const ERROR_DIRECTORY: i32 = 267;
const ERROR_CANT_RESOLVE_FILENAME: i32 = 1921;

/// The waits between attempts of an operation a scanner's open handle refused: seven retries,
/// about 0.6 s in all, then the error stands.
const LOCK_RETRY_WAITS_MS: [u64; 7] = [5, 10, 20, 40, 80, 160, 320];

/// An open directory and its verbatim path; every operation is relative to that path.
#[derive(Debug)]
pub(crate) struct DirHandle {
    path: PathBuf,
    // Held open so that the directory is in use for as long as the handle lives; shared for
    // reading, writing and deletion, so that the writers' own renames of open directories
    // (the migration staging directory) are never refused by it.
    file: File,
}

impl DirHandle {
    fn child(&self, name: &OsStr) -> PathBuf {
        self.path.join(name)
    }
}

fn raw(error: &io::Error) -> Option<i32> {
    error.raw_os_error()
}

/// Runs `call` again after a short wait while it fails with a sharing or lock violation or
/// access denied (what a scanner holding the file open causes), at most
/// [`LOCK_RETRY_WAITS_MS`] times.
fn retry_locked<T>(mut call: impl FnMut() -> io::Result<T>) -> io::Result<T> {
    let mut waits = LOCK_RETRY_WAITS_MS.iter();
    loop {
        match call() {
            Err(error)
                if matches!(
                    raw(&error),
                    Some(ERROR_SHARING_VIOLATION | ERROR_LOCK_VIOLATION | ERROR_ACCESS_DENIED)
                ) =>
            {
                match waits.next() {
                    Some(wait) => std::thread::sleep(Duration::from_millis(*wait)),
                    None => return Err(error),
                }
            }
            other => return other,
        }
    }
}

fn kind_of(meta: &std::fs::Metadata) -> FileKind {
    let attributes = meta.file_attributes();
    if attributes & FILE_ATTRIBUTE_REPARSE_POINT != 0 {
        FileKind::Symlink
    } else if attributes & FILE_ATTRIBUTE_DEVICE != 0 {
        FileKind::Special
    } else if meta.is_dir() {
        FileKind::Directory
    } else if meta.is_file() {
        FileKind::File
    } else {
        FileKind::Special
    }
}

/// The shape of [`Meta`] on Windows: the mode as the C runtime (and `dotaios-contained`)
/// reports it, no owner, the creation time as the identity, times in 100 ns ticks.
fn meta_of(meta: &std::fs::Metadata) -> Meta {
    let kind = kind_of(meta);
    let read_only = meta.file_attributes() & FILE_ATTRIBUTE_READONLY != 0;
    let mut mode = if read_only { 0o444 } else { 0o666 };
    if kind == FileKind::Directory {
        mode |= 0o111;
    }
    let ticks = meta.last_write_time();
    Meta {
        kind,
        size: meta.file_size(),
        mode,
        uid: 0,
        gid: 0,
        dev: 0,
        ino: meta.creation_time(),
        mtime: unix_time(ticks),
    }
}

/// A `FILETIME` (100 ns ticks since 1601) as seconds and nanoseconds since the Unix epoch,
/// the form `dotaios-contained` reports.
fn unix_time(ticks: u64) -> (i64, i64) {
    const TICKS_PER_SECOND: u64 = 10_000_000;
    const SECONDS_1601_TO_1970: i64 = 11_644_473_600;
    let seconds = i64::try_from(ticks / TICKS_PER_SECOND).unwrap_or(i64::MAX);
    let nanos = i64::try_from(ticks % TICKS_PER_SECOND).unwrap_or(0) * 100;
    (seconds - SECONDS_1601_TO_1970, nanos)
}

fn is_absent(error: &io::Error) -> bool {
    error.kind() == io::ErrorKind::NotFound
        || matches!(
            raw(error),
            Some(ERROR_FILE_NOT_FOUND | ERROR_PATH_NOT_FOUND)
        )
}

fn open_directory(path: &Path, no_follow: bool) -> io::Result<File> {
    let mut flags = FILE_FLAG_BACKUP_SEMANTICS;
    if no_follow {
        flags |= FILE_FLAG_OPEN_REPARSE_POINT;
    }
    OpenOptions::new().read(true).custom_flags(flags).open(path)
}

/// Opens the directory at `path`, following links in it: where a caller chooses its root.
/// The path kept is the canonical verbatim one, so later names are taken literally.
pub(crate) fn open_dir_path(path: &Path) -> io::Result<DirHandle> {
    let canonical = std::fs::canonicalize(path)?;
    let file = open_directory(&canonical, false)?;
    if !file.metadata()?.is_dir() {
        return Err(io::ErrorKind::NotADirectory.into());
    }
    Ok(DirHandle {
        path: canonical,
        file,
    })
}

/// Opens the directory `name` below `dir` without following a reparse point.
pub(crate) fn open_dir_at(dir: &DirHandle, name: &OsStr) -> io::Result<OpenedDir> {
    let path = dir.child(name);
    let file = match open_directory(&path, true) {
        Ok(file) => file,
        Err(error) if is_absent(&error) => return Ok(OpenedDir::Absent),
        Err(error) => return Err(error),
    };
    let meta = file.metadata()?;
    Ok(match kind_of(&meta) {
        FileKind::Directory => OpenedDir::Dir(DirHandle { path, file }),
        FileKind::Symlink => OpenedDir::Link,
        FileKind::File | FileKind::Special => OpenedDir::NotDirectory,
    })
}

/// The metadata of `name` itself (a reparse point is reported, not followed); `None` when
/// absent.
pub(crate) fn stat_at(dir: &DirHandle, name: &OsStr) -> io::Result<Option<Meta>> {
    stat_path(&dir.child(name))
}

/// The metadata of the directory handle itself.
pub(crate) fn stat_dir(dir: &DirHandle) -> io::Result<Meta> {
    dir.file.metadata().map(|meta| meta_of(&meta))
}

/// Creates the directory `name`; an existing name is [`io::ErrorKind::AlreadyExists`]. It
/// gets the ACL its parent passes on.
pub(crate) fn make_dir_at(dir: &DirHandle, name: &OsStr) -> io::Result<()> {
    std::fs::create_dir(dir.child(name))
}

/// Creates `name` exclusively (`CREATE_NEW`, which the standard library opens with
/// `FILE_FLAG_OPEN_REPARSE_POINT`: any existing entry, a link included, is
/// [`io::ErrorKind::AlreadyExists`]). `_mode` has no Windows meaning: the file gets the ACL
/// its directory passes on.
pub(crate) fn create_new_at(dir: &DirHandle, name: &OsStr, _mode: u32) -> io::Result<File> {
    OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(dir.child(name))
}

/// Opens the existing `name` for reading without following a reparse point, with the metadata
/// of what was opened. `None` when absent or a reparse point.
pub(crate) fn open_file_at(dir: &DirHandle, name: &OsStr) -> io::Result<Option<(File, Meta)>> {
    let file = match OpenOptions::new()
        .read(true)
        .custom_flags(FILE_FLAG_BACKUP_SEMANTICS | FILE_FLAG_OPEN_REPARSE_POINT)
        .open(dir.child(name))
    {
        Ok(file) => file,
        Err(error) if is_absent(&error) => return Ok(None),
        Err(error) => return Err(error),
    };
    let meta = meta_of(&file.metadata()?);
    if meta.kind == FileKind::Symlink {
        return Ok(None);
    }
    Ok(Some((file, meta)))
}

/// Opens `path` for reading, following links, with the metadata of what was opened (a
/// directory opens too, so that the caller can name it). `None` when absent.
pub(crate) fn open_file_path(path: &Path) -> io::Result<Option<(File, Meta)>> {
    let file = match OpenOptions::new()
        .read(true)
        .custom_flags(FILE_FLAG_BACKUP_SEMANTICS)
        .open(path)
    {
        Ok(file) => file,
        Err(error) if is_absent(&error) => return Ok(None),
        Err(error) => return Err(error),
    };
    let meta = meta_of(&file.metadata()?);
    Ok(Some((file, meta)))
}

/// The metadata of `path` itself (a reparse point is reported, not followed); `None` when
/// absent.
pub(crate) fn stat_path(path: &Path) -> io::Result<Option<Meta>> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) => Ok(Some(meta_of(&meta))),
        Err(error) if is_absent(&error) => Ok(None),
        Err(error) => Err(error),
    }
}

/// Modes have no Windows meaning for the writers: nothing is changed (`docs/decisions.md`).
pub(crate) fn set_mode(_file: &File, _mode: u32) -> io::Result<()> {
    Ok(())
}

/// Ownership is the ACL's business on Windows: nothing is changed.
pub(crate) fn set_owner(_file: &File, _owner: Owner) -> io::Result<()> {
    Ok(())
}

/// Renames `from/from_name` over `to/to_name` (`MoveFileExW` with
/// `MOVEFILE_REPLACE_EXISTING`, which replaces the name and never follows it), retried while a
/// scanner holds either file. A directory is never moved over an existing name: that is
/// [`io::ErrorKind::AlreadyExists`], as `renameat` reports it on Unix.
pub(crate) fn rename_at(
    from: &DirHandle,
    from_name: &OsStr,
    to: &DirHandle,
    to_name: &OsStr,
) -> io::Result<()> {
    let source = from.child(from_name);
    let target = to.child(to_name);
    let moving_directory = std::fs::symlink_metadata(&source)
        .is_ok_and(|meta| meta.file_attributes() & FILE_ATTRIBUTE_DIRECTORY != 0);
    if moving_directory && std::fs::symlink_metadata(&target).is_ok() {
        return Err(io::ErrorKind::AlreadyExists.into());
    }
    retry_locked(|| std::fs::rename(&source, &target))
}

/// Moves `from` to `to` within `dir` only if nothing has the name `to`
/// ([`io::ErrorKind::AlreadyExists`] otherwise): a hard link (`CreateHardLinkW`, which fails
/// on an existing name) and the removal of `from`. On a filesystem without hard links (FAT,
/// exFAT) the name is checked and then renamed, so only a writer racing for the same name in
/// that instant could be replaced.
pub(crate) fn rename_no_replace_at(dir: &DirHandle, from: &OsStr, to: &OsStr) -> io::Result<()> {
    match link_at(dir, from, dir, to) {
        Ok(()) => {
            let _ = remove_file_at(dir, from);
            Ok(())
        }
        Err(error)
            if matches!(
                raw(&error),
                Some(ERROR_INVALID_FUNCTION | ERROR_NOT_SUPPORTED)
            ) =>
        {
            if stat_at(dir, to)?.is_some() {
                return Err(io::ErrorKind::AlreadyExists.into());
            }
            retry_locked(|| std::fs::rename(dir.child(from), dir.child(to)))
        }
        Err(error) => Err(error),
    }
}

/// A hard link `to/to_name` of `from/from_name`; [`io::ErrorKind::AlreadyExists`] when
/// `to_name` exists.
pub(crate) fn link_at(
    from: &DirHandle,
    from_name: &OsStr,
    to: &DirHandle,
    to_name: &OsStr,
) -> io::Result<()> {
    let source = from.child(from_name);
    let target = to.child(to_name);
    match retry_locked(|| std::fs::hard_link(&source, &target)) {
        Err(error) if matches!(raw(&error), Some(ERROR_ALREADY_EXISTS | ERROR_FILE_EXISTS)) => {
            Err(io::ErrorKind::AlreadyExists.into())
        }
        other => other,
    }
}

/// Removes the non-directory `name` (a directory link is removed as a name, never entered).
pub(crate) fn remove_file_at(dir: &DirHandle, name: &OsStr) -> io::Result<()> {
    let path = dir.child(name);
    let directory_link = std::fs::symlink_metadata(&path).is_ok_and(|meta| {
        let attributes = meta.file_attributes();
        attributes & FILE_ATTRIBUTE_REPARSE_POINT != 0 && attributes & FILE_ATTRIBUTE_DIRECTORY != 0
    });
    if directory_link {
        retry_locked(|| std::fs::remove_dir(&path))
    } else {
        retry_locked(|| std::fs::remove_file(&path))
    }
}

/// Removes the empty directory `name`.
pub(crate) fn remove_dir_at(dir: &DirHandle, name: &OsStr) -> io::Result<()> {
    let path = dir.child(name);
    match retry_locked(|| std::fs::remove_dir(&path)) {
        Err(error) if raw(&error) == Some(ERROR_DIR_NOT_EMPTY) => {
            Err(io::ErrorKind::DirectoryNotEmpty.into())
        }
        other => other,
    }
}

/// A no-op: Windows offers no flush of a directory's entries through the standard library,
/// and NTFS journals the metadata of a rename itself (`docs/decisions.md`).
pub(crate) fn sync_dir(_dir: &DirHandle) -> io::Result<()> {
    Ok(())
}

/// The names in `dir`, each with whether it is a real directory (a reparse point never is).
pub(crate) fn entries(dir: &DirHandle) -> io::Result<Vec<(OsString, bool)>> {
    let mut names = Vec::new();
    for entry in std::fs::read_dir(&dir.path)? {
        let entry = entry?;
        let meta = match entry.metadata() {
            Ok(meta) => meta,
            Err(error) if is_absent(&error) => continue,
            Err(error) => return Err(error),
        };
        names.push((entry.file_name(), kind_of(&meta) == FileKind::Directory));
    }
    Ok(names)
}

/// Windows answers "may I write here" only by trying (ACLs, not mode bits; the read-only
/// attribute of a directory does not stop writes), so this says yes and a refusal surfaces at
/// the write itself.
pub(crate) fn dir_is_writable(_dir: &DirHandle) -> io::Result<bool> {
    Ok(true)
}

/// As [`dir_is_writable`], for an existing directory named by path.
pub(crate) fn path_is_writable(_path: &Path) -> bool {
    true
}

/// Whether `error` says a link or a non-directory was met where a directory was needed.
pub(crate) fn is_link_or_not_dir(error: &io::Error) -> bool {
    error.kind() == io::ErrorKind::NotADirectory
        || matches!(
            raw(error),
            Some(ERROR_DIRECTORY | ERROR_CANT_RESOLVE_FILENAME)
        )
}

/// The Unix symbolic name the connect messages print for `error`'s Windows code (contract 06
/// §6.3 step 1 names `EACCES`, `EISDIR`, …), or `None` when the code has no close match.
pub(crate) fn error_name(error: &io::Error) -> Option<&'static str> {
    Some(match raw(error)? {
        ERROR_ACCESS_DENIED => "EACCES",
        ERROR_SHARING_VIOLATION | ERROR_LOCK_VIOLATION => "EBUSY",
        ERROR_FILE_NOT_FOUND | ERROR_PATH_NOT_FOUND => "ENOENT",
        ERROR_FILE_EXISTS | ERROR_ALREADY_EXISTS => "EEXIST",
        ERROR_DIRECTORY => "ENOTDIR",
        ERROR_CANT_RESOLVE_FILENAME => "ELOOP",
        ERROR_FILENAME_EXCED_RANGE => "ENAMETOOLONG",
        ERROR_WRITE_PROTECT => "EROFS",
        ERROR_DISK_FULL | ERROR_HANDLE_DISK_FULL => "ENOSPC",
        ERROR_NOT_ENOUGH_MEMORY => "ENOMEM",
        ERROR_TOO_MANY_OPEN_FILES => "EMFILE",
        _ => return None,
    })
}

/// Windows has no user and group ids: `0`, the value `dotaios-contained` reports as every
/// file's owner there, so that comparisons of the two agree.
pub(crate) fn effective_ids() -> (u32, u32) {
    (0, 0)
}

/// The standard library cannot ask Windows whether a process id is in use, so no process is
/// ever taken for gone: what a crashed apply left behind stays, which is only untidy.
pub(crate) fn process_is_gone(_pid: u32) -> bool {
    false
}

/// How a migrate failpoint stops this process (`writers/migrate/failpoint.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SelfStop {
    /// Ends the process on the spot (`abort`: no destructor, no buffered output).
    Kill,
    /// Raises `SIGTERM` in the C runtime, which runs the interrupt handler.
    Terminate,
    /// Windows cannot suspend a process from inside with the standard library: no effect.
    Suspend,
}

/// Stops this process as `how` says.
pub(crate) fn stop_self(how: SelfStop) {
    match how {
        SelfStop::Kill => std::process::abort(),
        SelfStop::Terminate => {
            let _ = signal_hook::low_level::raise(signal_hook::consts::SIGTERM);
        }
        SelfStop::Suspend => {}
    }
}

/// Whether `dir` is the directory the contained reader saw as its root. The standard library
/// does not report a Windows file id, so the comparison is of what both observe: a directory,
/// with the same last-write time to the 100 ns.
pub(crate) fn same_directory(
    dir: &DirHandle,
    seen: &dotaios_contained::Identity,
) -> io::Result<bool> {
    let meta = stat_dir(dir)?;
    Ok(meta.kind == FileKind::Directory
        && meta.mtime == (seen.mtime_sec, i64::from(seen.mtime_nsec)))
}

/// The column count of the console on stdout: the standard library has no query for it, so
/// Windows takes `COLUMNS` or the default width (contract 06 §1.9).
pub(crate) fn stdout_columns() -> Option<usize> {
    None
}
