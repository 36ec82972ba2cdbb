//! Resolution of a [`RelPath`] beneath a root handle: `openat2` with
//! `RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS`, or the component-wise
//! `O_NOFOLLOW` walk where the kernel refuses `openat2`.
//!
//! **Invariant:** every descriptor this module returns was resolved beneath the root handle
//! without following a single symlink. No function here takes an absolute path.

use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::sync::atomic::{AtomicU8, Ordering};

use rustix::fs::{AtFlags, Mode, OFlags, ResolveFlags};
use rustix::io::Errno;

use crate::error::{ReadError, UnsafeKind, io_kind};
use crate::identity::EntryKind;
use crate::relpath::RelPath;

/// How paths are resolved below a root.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strategy {
    /// `openat2` when the kernel offers it, otherwise the fallback (decided once per process).
    Auto,
    /// Always the component-wise `O_NOFOLLOW` walk (used by tests to exercise the fallback).
    ComponentWalk,
}

const UNKNOWN: u8 = 0;
const OPENAT2: u8 = 1;
const WALK: u8 = 2;

/// What the process learned about `openat2`; once it fails with `ENOSYS`, `EPERM` or
/// `EINVAL`, every later resolution uses the walk.
static KERNEL_SUPPORT: AtomicU8 = AtomicU8::new(UNKNOWN);

/// Concurrent renames can make `openat2` fail with `EAGAIN`; after this many retries the
/// object counts as changed.
const EAGAIN_RETRIES: usize = 3;

/// Why a resolution did not produce a descriptor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum OpenFailure {
    /// The object (or a missing ancestor) does not exist; every existing component was a
    /// real directory.
    Absent,
    /// A refusal or failure the caller reports as is.
    Error(ReadError),
}

impl From<ReadError> for OpenFailure {
    fn from(error: ReadError) -> OpenFailure {
        OpenFailure::Error(error)
    }
}

/// Opens `rel` beneath `root` with `flags` (which must include `O_NOFOLLOW` semantics for the
/// final component: callers pass `O_PATH`, `O_RDONLY | O_NONBLOCK` or `O_DIRECTORY`).
pub(crate) fn open_beneath(
    root: BorrowedFd<'_>,
    rel: &RelPath,
    flags: OFlags,
    strategy: Strategy,
) -> Result<OwnedFd, OpenFailure> {
    let flags = flags | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    if strategy == Strategy::Auto && KERNEL_SUPPORT.load(Ordering::Relaxed) != WALK {
        match open_with_openat2(root, rel, flags) {
            Ok(fd) => {
                KERNEL_SUPPORT.store(OPENAT2, Ordering::Relaxed);
                return Ok(fd);
            }
            Err(Openat2Failure::Unsupported) => KERNEL_SUPPORT.store(WALK, Ordering::Relaxed),
            Err(Openat2Failure::Failed(failure)) => return Err(failure),
        }
    }
    open_with_walk(root, rel, flags)
}

enum Openat2Failure {
    Unsupported,
    Failed(OpenFailure),
}

fn open_with_openat2(
    root: BorrowedFd<'_>,
    rel: &RelPath,
    flags: OFlags,
) -> Result<OwnedFd, Openat2Failure> {
    let resolve = ResolveFlags::BENEATH | ResolveFlags::NO_SYMLINKS | ResolveFlags::NO_MAGICLINKS;
    let mut attempts = 0;
    loop {
        match rustix::fs::openat2(root, rel.as_str(), flags, Mode::empty(), resolve) {
            Ok(fd) => return Ok(fd),
            Err(Errno::AGAIN) if attempts < EAGAIN_RETRIES => attempts += 1,
            Err(Errno::AGAIN) => {
                return Err(Openat2Failure::Failed(ReadError::Changed.into()));
            }
            Err(Errno::INTR) => {}
            Err(Errno::NOSYS | Errno::PERM | Errno::INVAL)
                if KERNEL_SUPPORT.load(Ordering::Relaxed) != OPENAT2 =>
            {
                return Err(Openat2Failure::Unsupported);
            }
            // `O_DIRECTORY | O_NOFOLLOW` on a final symlink says ENOTDIR; look again without
            // `O_DIRECTORY` to tell a link from a file.
            Err(Errno::NOTDIR) if flags.contains(OFlags::DIRECTORY) => {
                let probe = OFlags::PATH | OFlags::NOFOLLOW | OFlags::CLOEXEC;
                let kind = rustix::fs::openat2(root, rel.as_str(), probe, Mode::empty(), resolve)
                    .ok()
                    .and_then(|fd| rustix::fs::fstat(fd).ok())
                    .map(|stat| {
                        EntryKind::from_file_type(rustix::fs::FileType::from_raw_mode(stat.st_mode))
                    });
                let unsafe_kind = if kind == Some(EntryKind::Symlink) {
                    UnsafeKind::Symlink
                } else {
                    UnsafeKind::NotDirectory
                };
                return Err(Openat2Failure::Failed(
                    ReadError::Unsafe(unsafe_kind).into(),
                ));
            }
            Err(errno) => return Err(Openat2Failure::Failed(classify_errno(errno))),
        }
    }
}

fn classify_errno(errno: Errno) -> OpenFailure {
    match errno {
        Errno::NOENT => OpenFailure::Absent,
        Errno::LOOP => ReadError::Unsafe(UnsafeKind::Symlink).into(),
        Errno::XDEV => ReadError::Unsafe(UnsafeKind::Escape).into(),
        Errno::NOTDIR => ReadError::Unsafe(UnsafeKind::NotDirectory).into(),
        other => ReadError::Io(io_kind(other)).into(),
    }
}

/// The fallback: every intermediate component is opened `O_PATH | O_DIRECTORY | O_NOFOLLOW`
/// relative to the previous one, starting at the root handle; the final component is opened
/// with the caller's flags relative to its parent.
fn open_with_walk(
    root: BorrowedFd<'_>,
    rel: &RelPath,
    flags: OFlags,
) -> Result<OwnedFd, OpenFailure> {
    let components: Vec<&str> = rel.components().collect();
    let (last, ancestors) = components
        .split_last()
        .expect("a RelPath has at least one component");
    let mut parent: Option<OwnedFd> = None;
    for name in ancestors {
        let dir = parent.as_ref().map_or(root, |fd| fd.as_fd());
        let next = open_component(
            dir,
            name,
            OFlags::PATH | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        )?;
        parent = Some(next);
    }
    let dir = parent.as_ref().map_or(root, |fd| fd.as_fd());
    open_component(dir, last, flags)
}

fn open_component(dir: BorrowedFd<'_>, name: &str, flags: OFlags) -> Result<OwnedFd, OpenFailure> {
    loop {
        match rustix::fs::openat(dir, name, flags, Mode::empty()) {
            Ok(fd) => return Ok(fd),
            Err(Errno::INTR) => {}
            // `O_NOFOLLOW` reports a final symlink as ELOOP, and `O_DIRECTORY` reports a
            // symlink or a file as ENOTDIR; look at the entry itself to say which.
            Err(Errno::LOOP | Errno::NOTDIR) => {
                return Err(match kind_at(dir, name) {
                    Ok(EntryKind::Symlink) => ReadError::Unsafe(UnsafeKind::Symlink).into(),
                    _ => ReadError::Unsafe(UnsafeKind::NotDirectory).into(),
                });
            }
            Err(errno) => return Err(classify_errno(errno)),
        }
    }
}

/// The kind of `name` inside `dir`, without following it.
pub(crate) fn kind_at(dir: BorrowedFd<'_>, name: &str) -> Result<EntryKind, Errno> {
    let stat = rustix::fs::statat(dir, name, AtFlags::SYMLINK_NOFOLLOW)?;
    Ok(EntryKind::from_file_type(
        rustix::fs::FileType::from_raw_mode(stat.st_mode),
    ))
}
