//! Unix: resolution of a relative path's parent directory beneath a root handle, by the
//! strategy the process runs (contract 01 §4.2):
//!
//! - Linux: `openat2` with `RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS`;
//!   where the kernel refuses it (`ENOSYS`, `EPERM` from a sandbox, `EINVAL`), the
//!   component walk with `O_PATH` intermediates for the rest of the process.
//! - macOS and other Unix systems: the portable walk, one `openat(…, O_RDONLY | O_DIRECTORY |
//!   O_NOFOLLOW)` per component; on macOS 11+ optionally one `openat(…, O_NOFOLLOW_ANY)`.
//!
//! **Invariant:** every descriptor this module returns was resolved beneath the root handle
//! without following a single symlink. No function here takes an absolute path.

use std::ffi::OsStr;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
#[cfg(target_os = "linux")]
use std::sync::atomic::{AtomicU8, Ordering};

use rustix::fs::OFlags;
use rustix::io::Errno;

use super::{StatCall, io_kind, kind_at, open_at, walk_directory};
use crate::error::{ReadError, UnsafeKind};
use crate::identity::EntryKind;
use crate::open::{OpenFailure, Strategy};

/// The call that takes identities by name under `strategy`.
pub(crate) fn stat_call(strategy: Strategy) -> StatCall {
    match strategy {
        #[cfg(target_os = "linux")]
        Strategy::Auto | Strategy::ComponentWalk => StatCall::Statx,
        _ => StatCall::Fstatat,
    }
}

/// Whether `strategy` avoids everything only Linux has (`O_PATH`, `statx`): the one decision
/// both the walk's flags and the stat call follow.
fn portable(strategy: Strategy) -> bool {
    stat_call(strategy) == StatCall::Fstatat
}

#[cfg(target_os = "linux")]
const UNKNOWN: u8 = 0;
#[cfg(target_os = "linux")]
const OPENAT2: u8 = 1;
#[cfg(target_os = "linux")]
const WALK: u8 = 2;

/// What the process learned about `openat2`; once it fails with `ENOSYS`, `EPERM` or
/// `EINVAL` before ever succeeding, every later resolution uses the walk.
#[cfg(target_os = "linux")]
static KERNEL_SUPPORT: AtomicU8 = AtomicU8::new(UNKNOWN);

/// Concurrent renames can make `openat2` fail with `EAGAIN`; after this many retries the
/// object counts as changed.
#[cfg(target_os = "linux")]
const EAGAIN_RETRIES: usize = 3;

/// Opens the directory `rel` beneath `root` for use as the directory of `*at` calls.
pub(crate) fn open_directory(
    root: BorrowedFd<'_>,
    rel: &str,
    strategy: Strategy,
) -> Result<OwnedFd, OpenFailure> {
    match strategy {
        #[cfg(target_os = "linux")]
        Strategy::Auto => {
            if KERNEL_SUPPORT.load(Ordering::Relaxed) != WALK {
                match open_with_openat2(root, rel, OFlags::PATH | OFlags::DIRECTORY) {
                    Ok(fd) => {
                        KERNEL_SUPPORT.store(OPENAT2, Ordering::Relaxed);
                        return Ok(fd);
                    }
                    Err(Openat2Failure::Unsupported) => {
                        KERNEL_SUPPORT.store(WALK, Ordering::Relaxed);
                    }
                    Err(Openat2Failure::Failed(failure)) => return Err(failure),
                }
            }
            open_with_walk(root, rel, portable(strategy))
        }
        #[cfg(not(target_os = "linux"))]
        Strategy::Auto => open_with_walk(root, rel, portable(strategy)),
        Strategy::ComponentWalk | Strategy::PortableWalk => {
            open_with_walk(root, rel, portable(strategy))
        }
        #[cfg(target_vendor = "apple")]
        Strategy::NoFollowAny => open_no_follow_any(root, rel),
    }
}

#[cfg(target_os = "linux")]
enum Openat2Failure {
    Unsupported,
    Failed(OpenFailure),
}

#[cfg(target_os = "linux")]
fn open_with_openat2(
    root: BorrowedFd<'_>,
    rel: &str,
    flags: OFlags,
) -> Result<OwnedFd, Openat2Failure> {
    use rustix::fs::{Mode, ResolveFlags};
    let flags = flags | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    let resolve = ResolveFlags::BENEATH | ResolveFlags::NO_SYMLINKS | ResolveFlags::NO_MAGICLINKS;
    let mut attempts = 0;
    loop {
        match rustix::fs::openat2(root, rel, flags, Mode::empty(), resolve) {
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
            Err(Errno::NOTDIR) => {
                let probe = OFlags::PATH | OFlags::NOFOLLOW | OFlags::CLOEXEC;
                let kind = rustix::fs::openat2(root, rel, probe, Mode::empty(), resolve)
                    .ok()
                    .and_then(|fd| super::fstat(fd).ok())
                    .map(|identity| identity.kind());
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

/// macOS 11+: `O_NOFOLLOW_ANY` refuses a symlink in any component with `ELOOP`.
#[cfg(target_vendor = "apple")]
fn open_no_follow_any(root: BorrowedFd<'_>, rel: &str) -> Result<OwnedFd, OpenFailure> {
    let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW_ANY;
    match open_at(root, rel, flags) {
        Ok(fd) => Ok(fd),
        // Which component is not a directory (or is a link) is told by the walk.
        Err(Errno::NOTDIR | Errno::LOOP) => open_with_walk(root, rel, true),
        Err(errno) => Err(classify_errno(errno)),
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

/// The walk: every component is opened `O_DIRECTORY | O_NOFOLLOW` relative to the previous
/// one, starting at the root handle (`O_PATH` on Linux unless `portable`).
fn open_with_walk(root: BorrowedFd<'_>, rel: &str, portable: bool) -> Result<OwnedFd, OpenFailure> {
    let flags = walk_directory(portable);
    let mut current: Option<OwnedFd> = None;
    for name in rel.split('/') {
        let dir = current.as_ref().map_or(root, |fd| fd.as_fd());
        current = Some(open_directory_component(dir, OsStr::new(name), flags)?);
    }
    current.ok_or(OpenFailure::Error(ReadError::Unsafe(UnsafeKind::Escape)))
}

/// Opens one directory component with `O_NOFOLLOW`, telling a link from a non-directory.
pub(crate) fn open_directory_component(
    dir: BorrowedFd<'_>,
    name: &OsStr,
    flags: OFlags,
) -> Result<OwnedFd, OpenFailure> {
    match open_at(dir, name, flags) {
        Ok(fd) => Ok(fd),
        // `O_NOFOLLOW` reports a symlink as ELOOP, and `O_DIRECTORY` reports a symlink or a
        // file as ENOTDIR; look at the entry itself to say which.
        Err(Errno::LOOP | Errno::NOTDIR) => Err(match kind_at(dir, name) {
            Ok(EntryKind::Symlink) => ReadError::Unsafe(UnsafeKind::Symlink).into(),
            _ => ReadError::Unsafe(UnsafeKind::NotDirectory).into(),
        }),
        Err(errno) => Err(classify_errno(errno)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The portable walk is what macOS and other Unix systems run, so on Linux it must not
    /// quietly use what only Linux has.
    #[test]
    fn the_portable_walk_uses_only_portable_calls() {
        assert_eq!(stat_call(Strategy::PortableWalk), StatCall::Fstatat);
        assert!(portable(Strategy::PortableWalk));
        let flags = walk_directory(true);
        assert_eq!(flags, OFlags::RDONLY | OFlags::DIRECTORY);
        #[cfg(target_os = "linux")]
        {
            assert_eq!(stat_call(Strategy::Auto), StatCall::Statx);
            assert!(!portable(Strategy::ComponentWalk));
            assert!(walk_directory(false).contains(OFlags::PATH));
        }
        assert!(Strategy::available().contains(&Strategy::PortableWalk));
    }

    /// Where the kernel offers `openat2`, `Auto` uses it (and does not quietly walk).
    #[cfg(target_os = "linux")]
    #[test]
    fn auto_uses_openat2_where_the_kernel_has_it() {
        use crate::open::open_parent;
        use crate::relpath::RelPath;
        let temp = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(temp.path().join("a/b")).unwrap();
        let root = rustix::fs::open(
            temp.path(),
            OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
            rustix::fs::Mode::empty(),
        )
        .unwrap();
        let kernel_has_it = open_with_openat2(root.as_fd(), "a", OFlags::PATH).is_ok();
        let rel = RelPath::new("a/b/c").unwrap();
        assert!(open_parent(root.as_fd(), &rel, Strategy::Auto).is_ok());
        let expected = if kernel_has_it { OPENAT2 } else { WALK };
        assert_eq!(KERNEL_SUPPORT.load(Ordering::Relaxed), expected);
    }
}
