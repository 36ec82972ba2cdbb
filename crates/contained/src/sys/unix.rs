//! Unix: the platform calls the reader makes on one name relative to one directory handle
//! (open, no-follow stat, kind, listing), the root open, and the strategies that resolve a
//! relative path's parent ([`resolve`]). What Linux, macOS and other Unix systems share is here;
//! what differs between them is chosen by `cfg` inside.
//!
//! **Invariant:** every function takes a directory handle and a single name or a relative path
//! made of normal components (only [`open_root`] takes the root's path); none follows a final
//! symlink.

mod resolve;

use std::ffi::{OsStr, OsString};
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use rustix::fs::{AtFlags, FileType, Mode, OFlags, Stat};
use rustix::io::Errno;

pub(crate) use self::resolve::open_directory;
use self::resolve::{open_directory_component, stat_call};
use crate::error::{ReadError, RootError};
use crate::found::DirEntry;
use crate::identity::{EntryKind, Identity};
use crate::open::{OpenFailure, Strategy};
use crate::relpath::{RelPath, is_single_component_bytes};

/// An open handle: a file descriptor.
pub(crate) type Handle = OwnedFd;
/// A borrowed handle.
pub(crate) type HandleRef<'a> = BorrowedFd<'a>;

/// The borrowed form of `handle`.
pub(crate) fn borrow(handle: &Handle) -> HandleRef<'_> {
    handle.as_fd()
}

/// `open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)`: the one open by path, which follows a
/// symlinked root (contract 01 §4.2).
pub(crate) fn open_root(path: &Path) -> Result<Handle, RootError> {
    let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
    loop {
        match rustix::fs::open(path.as_os_str().as_bytes(), flags, Mode::empty()) {
            Ok(dir) => return Ok(dir),
            Err(Errno::INTR) => {}
            Err(Errno::NOENT) => return Err(RootError::NotFound),
            Err(Errno::NOTDIR) => return Err(RootError::NotDirectory),
            Err(errno) => return Err(RootError::Io(io_kind(errno))),
        }
    }
}

/// A fresh listable handle on the directory `dir` itself (`openat(dir, ".")`).
pub(crate) fn reopen_listable(dir: HandleRef<'_>) -> Result<Handle, ReadError> {
    open_at(dir, ".", listable_directory()).map_err(|errno| ReadError::Io(io_kind(errno)))
}

/// The identity of an open handle (`fstat`).
pub(crate) fn identity(handle: HandleRef<'_>) -> Result<Identity, ReadError> {
    fstat(handle)
}

/// The identity of an open file (`fstat`).
pub(crate) fn file_identity(file: &std::fs::File) -> Result<Identity, ReadError> {
    fstat(file)
}

/// The no-follow identity of the child `name` of `dir`: `statx`/`fstatat(dir, name,
/// AT_SYMLINK_NOFOLLOW)` as `strategy` says. `None` when absent.
pub(crate) fn stat_child(
    dir: HandleRef<'_>,
    name: &OsStr,
    strategy: Strategy,
) -> Result<Option<Identity>, ReadError> {
    match stat_at(dir, name, stat_call(strategy)) {
        Ok(identity) => Ok(Some(identity)),
        Err(Errno::NOENT) => Ok(None),
        Err(errno) => Err(ReadError::Io(io_kind(errno))),
    }
}

/// Whether the child `name` of `dir` is still `identity`: one no-follow stat; absent, or not
/// reachable as a non-link, is `false`.
pub(crate) fn still_matches(
    dir: HandleRef<'_>,
    name: &OsStr,
    identity: &Identity,
    strategy: Strategy,
) -> Result<bool, ReadError> {
    match stat_at(dir, name, stat_call(strategy)) {
        Ok(now) => Ok(now == *identity),
        Err(Errno::NOENT | Errno::NOTDIR | Errno::LOOP) => Ok(false),
        Err(errno) => Err(ReadError::Io(io_kind(errno))),
    }
}

/// [`still_matches`] for a full relative path: one no-follow stat of the whole path relative
/// to the root handle (see [`crate::Root::still_matches`] for why that is sound).
pub(crate) fn still_matches_path(
    root: HandleRef<'_>,
    rel: &RelPath,
    identity: &Identity,
    strategy: Strategy,
) -> Result<bool, ReadError> {
    still_matches(root, OsStr::new(rel.as_str()), identity, strategy)
}

/// Opens the child directory `name` of `dir` for listing (`O_RDONLY | O_DIRECTORY |
/// O_NOFOLLOW`); a symlink or a non-directory is refused as unsafe.
pub(crate) fn open_dir(dir: HandleRef<'_>, name: &OsStr) -> Result<Handle, OpenFailure> {
    open_directory_component(dir, name, listable_directory())
}

/// Opens the child `name` of `dir`, a moment ago a regular file, for reading:
/// `openat(dir, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)`. Removed, or replaced
/// by a link or a directory since, is [`ReadError::Changed`].
pub(crate) fn open_file(dir: HandleRef<'_>, name: &OsStr) -> Result<Handle, ReadError> {
    match open_at(dir, name, OFlags::RDONLY | OFlags::NONBLOCK) {
        Ok(fd) => Ok(fd),
        Err(Errno::NOENT | Errno::LOOP | Errno::NOTDIR | Errno::ISDIR) => Err(ReadError::Changed),
        Err(errno) => Err(ReadError::Io(io_kind(errno))),
    }
}

/// The entries of the directory open as `dir` (never `.` or `..`), in the kernel's order.
/// `admit` is called before each entry is taken and stops the listing with its error.
///
/// On Linux the enumeration runs on `dir`'s own descriptor, rewound first: one `lseek` where a
/// descriptor of its own would cost an `fcntl`, an `openat(dir, ".")` and a `close`. The
/// position is then shared, so the caller must not list one handle on two threads at once
/// ([`crate::Dir::list`] holds a lock for it).
pub(crate) fn list(
    dir: HandleRef<'_>,
    mut admit: impl FnMut() -> Result<(), ReadError>,
) -> Result<Vec<DirEntry>, ReadError> {
    let mut entries = Vec::new();
    let mut take = |name: &[u8], file_type: FileType| -> Result<(), ReadError> {
        if name == b"." || name == b".." {
            return Ok(());
        }
        admit()?;
        let name = OsString::from(OsStr::from_bytes(name));
        let mut kind = kind_of_file_type(file_type);
        if kind == EntryKind::Unknown {
            // Some filesystems do not fill d_type; ask without following.
            kind = kind_at(dir, &name).unwrap_or(EntryKind::Unknown);
        }
        entries.push(DirEntry { name, kind });
        Ok(())
    };
    #[cfg(target_os = "linux")]
    {
        /// One `getdents64` batch; a name is at most 255 bytes, so any entry fits.
        const BATCH_BYTES: usize = 32 * 1024;
        retry(|| rustix::fs::seek(dir, rustix::fs::SeekFrom::Start(0)))
            .map_err(|errno| ReadError::Io(io_kind(errno)))?;
        let mut buffer: Vec<u8> = Vec::with_capacity(BATCH_BYTES);
        let mut stream = rustix::fs::RawDir::new(dir, buffer.spare_capacity_mut());
        while let Some(entry) = stream.next() {
            let entry = entry.map_err(|errno| ReadError::Io(io_kind(errno)))?;
            take(entry.file_name().to_bytes(), entry.file_type())?;
        }
    }
    #[cfg(not(target_os = "linux"))]
    {
        // `read_from` enumerates through a descriptor of its own, so listings of one handle
        // never share a position.
        let mut stream =
            rustix::fs::Dir::read_from(dir).map_err(|errno| ReadError::Io(io_kind(errno)))?;
        while let Some(entry) = stream.read() {
            let entry = entry.map_err(|errno| ReadError::Io(io_kind(errno)))?;
            take(entry.file_name().to_bytes(), entry.file_type())?;
        }
    }
    Ok(entries)
}

/// `name` piece by piece ([`crate::NamePiece`]): a name is bytes here, so what is not valid
/// UTF-8 is handed back byte by byte.
pub(crate) fn name_pieces(name: &OsStr, mut each: impl FnMut(crate::NamePiece)) {
    for chunk in name.as_bytes().utf8_chunks() {
        chunk
            .valid()
            .chars()
            .for_each(|c| each(crate::NamePiece::Char(c)));
        chunk
            .invalid()
            .iter()
            .for_each(|&byte| each(crate::NamePiece::Byte(byte)));
    }
}

/// Whether `name` is one normal component (contract 01 §4.2): the byte rule of
/// [`is_single_component_bytes`]. Unix names are bytes, and any other byte is a valid name.
pub(crate) fn is_single_component(name: &OsStr) -> bool {
    is_single_component_bytes(name.as_bytes())
}

/// The kind encoded in a `st_mode`.
#[allow(
    clippy::unnecessary_cast,
    reason = "`mode_t` is u32 on Linux and u16 on macOS"
)]
pub(crate) fn kind_of_mode(mode: u32) -> EntryKind {
    // `mode_t` is 32 bits on Linux and 16 bits on macOS; the type bits fit either.
    kind_of_file_type(FileType::from_raw_mode(mode as _))
}

fn kind_of_file_type(file_type: FileType) -> EntryKind {
    match file_type {
        FileType::RegularFile => EntryKind::File,
        FileType::Directory => EntryKind::Directory,
        FileType::Symlink => EntryKind::Symlink,
        FileType::Fifo => EntryKind::Fifo,
        FileType::Socket => EntryKind::Socket,
        FileType::CharacterDevice => EntryKind::CharDevice,
        FileType::BlockDevice => EntryKind::BlockDevice,
        FileType::Unknown => EntryKind::Unknown,
    }
}

pub(crate) fn io_kind(errno: Errno) -> std::io::ErrorKind {
    std::io::Error::from(errno).kind()
}

#[allow(
    clippy::unnecessary_cast,
    clippy::useless_conversion,
    reason = "the `stat` field widths differ between Linux and macOS"
)]
fn identity_from_stat(stat: &Stat) -> Identity {
    Identity {
        dev: stat.st_dev as u64,
        ino: stat.st_ino as u64,
        mode: stat.st_mode as u32,
        nlink: stat.st_nlink as u64,
        uid: stat.st_uid as u32,
        size: u64::try_from(stat.st_size).unwrap_or(0),
        mtime_sec: stat.st_mtime as i64,
        mtime_nsec: stat.st_mtime_nsec as u32,
        ctime_sec: stat.st_ctime as i64,
        ctime_nsec: stat.st_ctime_nsec as u32,
    }
}

/// The same fields from `statx`, encoded like `fstat` (the device number through `makedev`),
/// so identities from either call compare equal.
#[cfg(target_os = "linux")]
#[allow(
    clippy::unnecessary_cast,
    clippy::useless_conversion,
    reason = "the `stat` field widths differ between Linux and macOS"
)]
fn identity_from_statx(statx: &rustix::fs::Statx) -> Identity {
    Identity {
        dev: rustix::fs::makedev(statx.stx_dev_major, statx.stx_dev_minor) as u64,
        ino: statx.stx_ino,
        mode: u32::from(statx.stx_mode),
        nlink: u64::from(statx.stx_nlink),
        uid: statx.stx_uid,
        size: statx.stx_size,
        mtime_sec: statx.stx_mtime.tv_sec,
        mtime_nsec: statx.stx_mtime.tv_nsec,
        ctime_sec: statx.stx_ctime.tv_sec,
        ctime_nsec: statx.stx_ctime.tv_nsec,
    }
}

/// Which call takes an identity by name (contract 01 §4.2: `statx` on Linux,
/// `fstatat` elsewhere). Both produce equal [`Identity`] values for the same object.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StatCall {
    /// `statx(dirfd, name, AT_SYMLINK_NOFOLLOW)`, falling back to `fstatat` on kernels without
    /// it.
    #[cfg(target_os = "linux")]
    Statx,
    /// `fstatat(dirfd, name, AT_SYMLINK_NOFOLLOW)`: what macOS and other Unix systems use.
    Fstatat,
}

/// The identity of `name` (one component or a relative path) inside `dir`, without following
/// a final symlink.
fn stat_at<P: rustix::path::Arg>(
    dir: BorrowedFd<'_>,
    name: P,
    call: StatCall,
) -> Result<Identity, Errno> {
    // The name goes to the kernel through a stack buffer (rustix's `into_with_c_str`): no
    // allocation per call, three calls a file (rules 1, 2 and 4 of contract 03 §4.8).
    name.into_with_c_str(|name| match call {
        #[cfg(target_os = "linux")]
        StatCall::Statx => {
            match retry(|| {
                rustix::fs::statx(
                    dir,
                    name,
                    AtFlags::SYMLINK_NOFOLLOW,
                    rustix::fs::StatxFlags::BASIC_STATS,
                )
            }) {
                Ok(statx) => Ok(identity_from_statx(&statx)),
                // Kernels before 4.11, or a sandbox that filters statx.
                Err(Errno::NOSYS | Errno::PERM) => {
                    retry(|| rustix::fs::statat(dir, name, AtFlags::SYMLINK_NOFOLLOW))
                        .map(|stat| identity_from_stat(&stat))
                }
                Err(errno) => Err(errno),
            }
        }
        StatCall::Fstatat => retry(|| rustix::fs::statat(dir, name, AtFlags::SYMLINK_NOFOLLOW))
            .map(|stat| identity_from_stat(&stat)),
    })
}

/// `fstat` of an open handle.
fn fstat(fd: impl AsFd) -> Result<Identity, ReadError> {
    retry(|| rustix::fs::fstat(fd.as_fd()))
        .map(|stat| identity_from_stat(&stat))
        .map_err(|errno| ReadError::Io(io_kind(errno)))
}

/// `openat(dir, name, flags | O_NOFOLLOW | O_CLOEXEC)`, retried on `EINTR`.
pub(crate) fn open_at<P: rustix::path::Arg>(
    dir: BorrowedFd<'_>,
    name: P,
    flags: OFlags,
) -> Result<OwnedFd, Errno> {
    let flags = flags | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    name.into_with_c_str(|name| retry(|| rustix::fs::openat(dir, name, flags, Mode::empty())))
}

/// The kind of `name` inside `dir`, without following it.
pub(crate) fn kind_at(dir: BorrowedFd<'_>, name: &OsStr) -> Result<EntryKind, Errno> {
    stat_at(dir, name, StatCall::Fstatat).map(|identity| identity.kind())
}

/// Flags for a directory handle that can be listed.
fn listable_directory() -> OFlags {
    OFlags::RDONLY | OFlags::DIRECTORY
}

/// Flags for an intermediate component of the walk: on Linux `O_PATH` (no read permission
/// needed, nothing is read through it), elsewhere a readable directory handle.
pub(crate) fn walk_directory(portable: bool) -> OFlags {
    #[cfg(target_os = "linux")]
    if !portable {
        return OFlags::PATH | OFlags::DIRECTORY;
    }
    let _ = portable;
    OFlags::RDONLY | OFlags::DIRECTORY
}

fn retry<T>(mut call: impl FnMut() -> Result<T, Errno>) -> Result<T, Errno> {
    loop {
        match call() {
            Err(Errno::INTR) => {}
            other => return other,
        }
    }
}
