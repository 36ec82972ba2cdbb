//! The Unix backend of [`crate::sys`]: `*at` system calls through rustix relative to an
//! `O_DIRECTORY` descriptor, each retried when a signal interrupts it.

use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use rustix::fs::{Access, AtFlags, FileType, Gid, Mode, OFlags, Stat, Uid};
use rustix::io::Errno;

use super::{FileKind, Meta, OpenedDir, Owner};

/// An open directory descriptor that every operation is relative to.
#[derive(Debug)]
pub(crate) struct DirHandle {
    fd: OwnedFd,
}

/// The one interrupt-retry loop of the writers' system calls.
fn retry<T>(mut call: impl FnMut() -> rustix::io::Result<T>) -> io::Result<T> {
    loop {
        match call() {
            Err(Errno::INTR) => {}
            other => return other.map_err(io::Error::from),
        }
    }
}

fn is_errno(error: &io::Error, errno: Errno) -> bool {
    error.raw_os_error() == Some(errno.raw_os_error())
}

fn kind_of(file_type: FileType) -> FileKind {
    match file_type {
        FileType::RegularFile => FileKind::File,
        FileType::Directory => FileKind::Directory,
        FileType::Symlink => FileKind::Symlink,
        _ => FileKind::Special,
    }
}

#[allow(
    clippy::unnecessary_cast,
    clippy::useless_conversion,
    clippy::cast_sign_loss,
    reason = "`st_dev`, `st_mode` and the time fields differ in width between Linux and macOS"
)]
fn meta_of(stat: &Stat) -> Meta {
    Meta {
        kind: kind_of(FileType::from_raw_mode(stat.st_mode)),
        size: u64::try_from(stat.st_size).unwrap_or(0),
        mode: u32::from(stat.st_mode) & 0o777,
        uid: stat.st_uid,
        gid: stat.st_gid,
        dev: stat.st_dev as u64,
        ino: stat.st_ino as u64,
        mtime: (stat.st_mtime as i64, stat.st_mtime_nsec as i64),
    }
}

/// Opens the directory at `path`, following links in it: where a caller chooses its root.
pub(crate) fn open_dir_path(path: &Path) -> io::Result<DirHandle> {
    let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
    let fd = retry(|| rustix::fs::open(path, flags, Mode::empty()))?;
    Ok(DirHandle { fd })
}

/// Opens the directory `name` below `dir` without following a link.
pub(crate) fn open_dir_at(dir: &DirHandle, name: &OsStr) -> io::Result<OpenedDir> {
    let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    match retry(|| rustix::fs::openat(&dir.fd, name, flags, Mode::empty())) {
        Ok(fd) => Ok(OpenedDir::Dir(DirHandle { fd })),
        Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(OpenedDir::Absent),
        // The kernel reports a link as ELOOP and a non-directory as ENOTDIR; look again
        // without following so that the caller gets the precise refusal.
        Err(error) if is_errno(&error, Errno::LOOP) || is_errno(&error, Errno::NOTDIR) => {
            Ok(match stat_at(dir, name)? {
                None => OpenedDir::Absent,
                Some(meta) if meta.kind == FileKind::Symlink => OpenedDir::Link,
                Some(_) => OpenedDir::NotDirectory,
            })
        }
        Err(error) => Err(error),
    }
}

/// `fstatat(dir, name, AT_SYMLINK_NOFOLLOW)`; `None` when absent.
pub(crate) fn stat_at(dir: &DirHandle, name: &OsStr) -> io::Result<Option<Meta>> {
    match retry(|| rustix::fs::statat(&dir.fd, name, AtFlags::SYMLINK_NOFOLLOW)) {
        Ok(stat) => Ok(Some(meta_of(&stat))),
        Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(error) => Err(error),
    }
}

/// `fstat` of the directory handle itself.
pub(crate) fn stat_dir(dir: &DirHandle) -> io::Result<Meta> {
    retry(|| rustix::fs::fstat(&dir.fd)).map(|stat| meta_of(&stat))
}

/// `mkdirat(dir, name, 0o777)` (narrowed by the umask); an existing name is
/// [`io::ErrorKind::AlreadyExists`].
pub(crate) fn make_dir_at(dir: &DirHandle, name: &OsStr) -> io::Result<()> {
    retry(|| rustix::fs::mkdirat(&dir.fd, name, Mode::from_raw_mode(0o777)))
}

/// Creates `name` exclusively (`O_CREAT | O_EXCL | O_NOFOLLOW`: any existing entry, a link
/// included, is [`io::ErrorKind::AlreadyExists`]) with `mode` narrowed by the umask.
pub(crate) fn create_new_at(dir: &DirHandle, name: &OsStr, mode: u32) -> io::Result<File> {
    let flags = OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    let fd = retry(|| {
        rustix::fs::openat(
            &dir.fd,
            name,
            flags,
            Mode::from_raw_mode((mode & 0o777) as rustix::fs::RawMode),
        )
    })?;
    Ok(File::from(fd))
}

/// Opens the existing `name` for reading without following a link and without blocking on a
/// FIFO, with the metadata of what was opened. `None` when absent, a link, or a device that
/// cannot be opened (`ENXIO`).
pub(crate) fn open_file_at(dir: &DirHandle, name: &OsStr) -> io::Result<Option<(File, Meta)>> {
    let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC;
    let fd = match retry(|| rustix::fs::openat(&dir.fd, name, flags, Mode::empty())) {
        Ok(fd) => fd,
        Err(error)
            if error.kind() == io::ErrorKind::NotFound
                || is_errno(&error, Errno::LOOP)
                || is_errno(&error, Errno::NXIO) =>
        {
            return Ok(None);
        }
        Err(error) => return Err(error),
    };
    let meta = retry(|| rustix::fs::fstat(&fd)).map(|stat| meta_of(&stat))?;
    Ok(Some((File::from(fd), meta)))
}

/// Opens `path` for reading, following links, without blocking on a FIFO; with the metadata
/// of what was opened. `None` when absent (a dangling link included).
pub(crate) fn open_file_path(path: &Path) -> io::Result<Option<(File, Meta)>> {
    let flags = OFlags::RDONLY | OFlags::CLOEXEC | OFlags::NONBLOCK;
    let fd = match retry(|| rustix::fs::open(path, flags, Mode::empty())) {
        Ok(fd) => fd,
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(error),
    };
    let meta = retry(|| rustix::fs::fstat(&fd)).map(|stat| meta_of(&stat))?;
    Ok(Some((File::from(fd), meta)))
}

/// `lstat(path)`; `None` when absent.
pub(crate) fn stat_path(path: &Path) -> io::Result<Option<Meta>> {
    match retry(|| rustix::fs::lstat(path)) {
        Ok(stat) => Ok(Some(meta_of(&stat))),
        Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(error) => Err(error),
    }
}

/// `fchmod`.
pub(crate) fn set_mode(file: &File, mode: u32) -> io::Result<()> {
    retry(|| rustix::fs::fchmod(file, Mode::from_raw_mode(mode as rustix::fs::RawMode)))
}

/// `fchown`; `EPERM` (an unprivileged process) is not an error.
pub(crate) fn set_owner(file: &File, owner: Owner) -> io::Result<()> {
    match retry(|| {
        rustix::fs::fchown(
            file,
            Some(Uid::from_raw(owner.uid)),
            Some(Gid::from_raw(owner.gid)),
        )
    }) {
        Err(error) if is_errno(&error, Errno::PERM) => Ok(()),
        other => other,
    }
}

/// `renameat`: atomically replaces `to_name` (never following it).
pub(crate) fn rename_at(
    from: &DirHandle,
    from_name: &OsStr,
    to: &DirHandle,
    to_name: &OsStr,
) -> io::Result<()> {
    retry(|| rustix::fs::renameat(&from.fd, from_name, &to.fd, to_name))
}

/// Moves `from` to `to` within `dir` only if nothing has the name `to`
/// ([`io::ErrorKind::AlreadyExists`] otherwise): `renameat2(RENAME_NOREPLACE)` where the
/// kernel and filesystem offer it, else a hard link and the removal of `from`.
pub(crate) fn rename_no_replace_at(dir: &DirHandle, from: &OsStr, to: &OsStr) -> io::Result<()> {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    {
        match retry(|| {
            rustix::fs::renameat_with(
                &dir.fd,
                from,
                &dir.fd,
                to,
                rustix::fs::RenameFlags::NOREPLACE,
            )
        }) {
            Ok(()) => return Ok(()),
            // Filesystems without RENAME_NOREPLACE: fall back to a hard link, which also
            // fails when the name exists.
            Err(error)
                if is_errno(&error, Errno::INVAL)
                    || is_errno(&error, Errno::NOSYS)
                    || is_errno(&error, Errno::OPNOTSUPP) => {}
            Err(error) => return Err(error),
        }
    }
    link_at(dir, from, dir, to)?;
    // The final name now holds the bytes; the temporary name is just a second link.
    let _ = remove_file_at(dir, from);
    Ok(())
}

/// `linkat` without following; [`io::ErrorKind::AlreadyExists`] when `to_name` exists.
pub(crate) fn link_at(
    from: &DirHandle,
    from_name: &OsStr,
    to: &DirHandle,
    to_name: &OsStr,
) -> io::Result<()> {
    retry(|| rustix::fs::linkat(&from.fd, from_name, &to.fd, to_name, AtFlags::empty()))
}

/// `unlinkat` of a non-directory.
pub(crate) fn remove_file_at(dir: &DirHandle, name: &OsStr) -> io::Result<()> {
    retry(|| rustix::fs::unlinkat(&dir.fd, name, AtFlags::empty()))
}

/// `unlinkat(AT_REMOVEDIR)` of an empty directory.
pub(crate) fn remove_dir_at(dir: &DirHandle, name: &OsStr) -> io::Result<()> {
    retry(|| rustix::fs::unlinkat(&dir.fd, name, AtFlags::REMOVEDIR))
}

/// `fsync` of the directory, so that its new entries survive a crash.
pub(crate) fn sync_dir(dir: &DirHandle) -> io::Result<()> {
    retry(|| rustix::fs::fsync(&dir.fd))
}

/// The names in `dir`, without `.` and `..`, each with whether it is a real directory.
pub(crate) fn entries(dir: &DirHandle) -> io::Result<Vec<(OsString, bool)>> {
    let mut stream = rustix::fs::Dir::read_from(dir.fd.as_fd()).map_err(io::Error::from)?;
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
            FileType::Unknown => match stat_at(dir, &name)? {
                Some(meta) => meta.kind == FileKind::Directory,
                None => continue,
            },
            _ => false,
        };
        names.push((name, is_dir));
    }
    Ok(names)
}

/// Whether the effective user may create and remove entries in `dir` (`faccessat` with
/// `AT_EACCESS`, which also reports a read-only filesystem).
pub(crate) fn dir_is_writable(dir: &DirHandle) -> io::Result<bool> {
    match retry(|| {
        rustix::fs::accessat(
            &dir.fd,
            ".",
            Access::WRITE_OK | Access::EXEC_OK,
            AtFlags::EACCESS,
        )
    }) {
        Ok(()) => Ok(true),
        Err(error)
            if [Errno::ACCESS, Errno::ROFS, Errno::PERM]
                .into_iter()
                .any(|errno| is_errno(&error, errno)) =>
        {
            Ok(false)
        }
        Err(error) => Err(error),
    }
}

/// Whether the existing directory at `path` is one this user may create entries in.
pub(crate) fn path_is_writable(path: &Path) -> bool {
    rustix::fs::access(path, Access::WRITE_OK | Access::EXEC_OK).is_ok()
}

/// Whether `error` says a link or a non-directory was met where a directory was needed.
pub(crate) fn is_link_or_not_dir(error: &io::Error) -> bool {
    is_errno(error, Errno::LOOP) || is_errno(error, Errno::NOTDIR)
}

/// The symbolic name of `error`'s OS code, as the connect messages print it (contract 06
/// §6.3 step 1), or `None` when the code is not one of these.
pub(crate) fn error_name(error: &io::Error) -> Option<&'static str> {
    const NAMES: [(Errno, &str); 20] = [
        (Errno::ACCESS, "EACCES"),
        (Errno::PERM, "EPERM"),
        (Errno::LOOP, "ELOOP"),
        (Errno::ISDIR, "EISDIR"),
        (Errno::NOTDIR, "ENOTDIR"),
        (Errno::NAMETOOLONG, "ENAMETOOLONG"),
        (Errno::IO, "EIO"),
        (Errno::NOMEM, "ENOMEM"),
        (Errno::MFILE, "EMFILE"),
        (Errno::NFILE, "ENFILE"),
        (Errno::FBIG, "EFBIG"),
        (Errno::OVERFLOW, "EOVERFLOW"),
        (Errno::NXIO, "ENXIO"),
        (Errno::ROFS, "EROFS"),
        (Errno::BUSY, "EBUSY"),
        (Errno::NOSPC, "ENOSPC"),
        (Errno::DQUOT, "EDQUOT"),
        (Errno::STALE, "ESTALE"),
        (Errno::AGAIN, "EAGAIN"),
        (Errno::EXIST, "EEXIST"),
    ];
    let raw = error.raw_os_error()?;
    NAMES
        .iter()
        .find(|(known, _)| known.raw_os_error() == raw)
        .map(|(_, name)| *name)
}

/// The effective user and group ids of this process.
pub(crate) fn effective_ids() -> (u32, u32) {
    (
        rustix::process::geteuid().as_raw(),
        rustix::process::getegid().as_raw(),
    )
}

/// Whether no process with id `pid` exists (`kill(pid, 0)` answers `ESRCH`). A pid that
/// cannot be a process id is not "gone": the caller then leaves what it names alone.
pub(crate) fn process_is_gone(pid: u32) -> bool {
    i32::try_from(pid)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
        .is_some_and(|pid| rustix::process::test_kill_process(pid) == Err(Errno::SRCH))
}

/// How a migrate failpoint stops this process (`writers/migrate/failpoint.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SelfStop {
    /// `SIGKILL`: no handler runs.
    Kill,
    /// `SIGTERM`: the interrupt handler runs.
    Terminate,
    /// `SIGSTOP`: suspended until a `SIGCONT`.
    Suspend,
}

/// Sends this process the signal of `how`.
pub(crate) fn stop_self(how: SelfStop) {
    use rustix::process::{Signal, getpid, kill_process};
    let signal = match how {
        SelfStop::Kill => Signal::KILL,
        SelfStop::Terminate => Signal::TERM,
        SelfStop::Suspend => Signal::STOP,
    };
    let _ = kill_process(getpid(), signal);
}

/// Whether `dir` is the directory the contained reader saw as its root (same device and
/// inode), so that a root swapped between two opens of one path is noticed.
pub(crate) fn same_directory(
    dir: &DirHandle,
    seen: &dotaios_contained::Identity,
) -> io::Result<bool> {
    let meta = stat_dir(dir)?;
    Ok(meta.dev == seen.dev && meta.ino == seen.ino)
}

/// The column count of the terminal on stdout (`TIOCGWINSZ`), `None` when stdout is no terminal
/// or the terminal reports 0 (contract 06 §1.9).
pub(crate) fn stdout_columns() -> Option<usize> {
    let size = rustix::termios::tcgetwinsize(std::io::stdout()).ok()?;
    (size.ws_col > 0).then_some(usize::from(size.ws_col))
}
