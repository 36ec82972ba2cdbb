//! The platform calls the reader makes on one name relative to one directory handle: open,
//! no-follow stat, kind. Everything platform-specific below the strategy choice lives here, so
//! the rest of the crate reads the same on Linux, macOS and other Unix systems.
//!
//! **Invariant:** every function takes a directory handle and a single name or a [`RelPath`]
//! made of normal components; none takes an absolute path, none follows a final symlink.
//!
//! [`RelPath`]: crate::RelPath

use std::ffi::OsStr;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};

use rustix::fs::{AtFlags, Mode, OFlags};
use rustix::io::Errno;

use crate::error::{ReadError, io_kind};
use crate::identity::{EntryKind, Identity};

/// Which call takes an identity by name (contract 01 §4.2 changed 2026-12: `statx` on Linux,
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
pub(crate) fn stat_at<P: rustix::path::Arg>(
    dir: BorrowedFd<'_>,
    name: P,
    call: StatCall,
) -> Result<Identity, Errno> {
    match call {
        #[cfg(target_os = "linux")]
        StatCall::Statx => {
            let name = name.into_c_str()?;
            match retry(|| {
                rustix::fs::statx(
                    dir,
                    &*name,
                    AtFlags::SYMLINK_NOFOLLOW,
                    rustix::fs::StatxFlags::BASIC_STATS,
                )
            }) {
                Ok(statx) => Ok(Identity::from_statx(&statx)),
                // Kernels before 4.11, or a sandbox that filters statx.
                Err(Errno::NOSYS | Errno::PERM) => {
                    retry(|| rustix::fs::statat(dir, &*name, AtFlags::SYMLINK_NOFOLLOW))
                        .map(|stat| Identity::from_stat(&stat))
                }
                Err(errno) => Err(errno),
            }
        }
        StatCall::Fstatat => {
            let name = name.into_c_str()?;
            retry(|| rustix::fs::statat(dir, &*name, AtFlags::SYMLINK_NOFOLLOW))
                .map(|stat| Identity::from_stat(&stat))
        }
    }
}

/// `fstat` of an open handle.
pub(crate) fn fstat(fd: impl AsFd) -> Result<Identity, ReadError> {
    retry(|| rustix::fs::fstat(fd.as_fd()))
        .map(|stat| Identity::from_stat(&stat))
        .map_err(|errno| ReadError::Io(io_kind(errno)))
}

/// `openat(dir, name, flags | O_NOFOLLOW | O_CLOEXEC)`, retried on `EINTR`.
pub(crate) fn open_at<P: rustix::path::Arg>(
    dir: BorrowedFd<'_>,
    name: P,
    flags: OFlags,
) -> Result<OwnedFd, Errno> {
    let name = name.into_c_str()?;
    let flags = flags | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    retry(|| rustix::fs::openat(dir, &*name, flags, Mode::empty()))
}

/// The kind of `name` inside `dir`, without following it.
pub(crate) fn kind_at(dir: BorrowedFd<'_>, name: &OsStr) -> Result<EntryKind, Errno> {
    stat_at(dir, name, StatCall::Fstatat).map(|identity| identity.kind())
}

/// Flags for a directory handle that can be listed.
pub(crate) fn listable_directory() -> OFlags {
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
