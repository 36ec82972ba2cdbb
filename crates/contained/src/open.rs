//! The resolution strategy of a [`crate::Root`] and the resolution of a [`RelPath`]'s parent
//! directory beneath the root handle (contract 01 §4.2). How each strategy resolves is platform
//! code ([`crate::sys`]); the final component is then handled by the walk-relative operations of
//! [`crate::dir`], the same code every strategy and every [`crate::Dir`] uses. Which strategy runs
//! never changes an answer: the attack suite runs every one available on the platform.
//!
//! **Invariant:** every handle this module returns was resolved beneath the root handle without
//! following a single link. No function here takes an absolute path.

use crate::error::ReadError;
use crate::relpath::RelPath;
use crate::sys::{self, Handle, HandleRef};

/// How paths are resolved below a root. Every strategy gives the same answers; they differ in
/// system calls only.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strategy {
    /// The platform's own, decided once per process: on Linux `openat2` when the kernel offers
    /// it, otherwise the component walk; on other Unix systems the portable walk; on Windows the
    /// NT walk (one `NtCreateFile` per component relative to its parent's handle).
    Auto,
    /// Always the component-wise walk: on Linux `O_NOFOLLOW` with `O_PATH` intermediates and
    /// `statx` identities (the fallback of contract 01 §4.2), on other Unix systems the portable
    /// walk, on Windows the NT walk (the only one there, so the same as `Auto`).
    ComponentWalk,
    /// The walk macOS and other Unix systems run: a readable `O_DIRECTORY | O_NOFOLLOW` handle
    /// per component and `fstatat` identities; no `openat2`, `O_PATH` or `statx`. Available on
    /// Linux too, so the code path of the other systems is exercised on every test run.
    #[cfg(unix)]
    PortableWalk,
    /// macOS 11 and later: one `openat(root, parent, O_NOFOLLOW_ANY | O_DIRECTORY)` per path,
    /// which refuses a symlink in any component; `fstatat` identities.
    #[cfg(target_vendor = "apple")]
    NoFollowAny,
}

impl Strategy {
    /// Every strategy that can run on this platform (for tests and benchmarks). On Windows that
    /// is `Auto` alone: `ComponentWalk` runs the same calls.
    pub fn available() -> &'static [Strategy] {
        &[
            Strategy::Auto,
            #[cfg(target_os = "linux")]
            Strategy::ComponentWalk,
            #[cfg(unix)]
            Strategy::PortableWalk,
            #[cfg(target_vendor = "apple")]
            Strategy::NoFollowAny,
        ]
    }
}

/// Why a resolution did not produce a handle.
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

/// The directory holding the last component of a path: the root itself, or a handle
/// resolved beneath it.
pub(crate) enum Parent<'root> {
    Root(HandleRef<'root>),
    Opened(Handle),
}

impl Parent<'_> {
    pub(crate) fn handle(&self) -> HandleRef<'_> {
        match self {
            Parent::Root(handle) => *handle,
            Parent::Opened(handle) => sys::borrow(handle),
        }
    }
}

/// Resolves the directory that holds `rel`'s last component, beneath `root`. The handle may
/// be `O_PATH` on Linux: it is only ever used as the directory of lookups by one name.
pub(crate) fn open_parent<'root>(
    root: HandleRef<'root>,
    rel: &RelPath,
    strategy: Strategy,
) -> Result<Parent<'root>, OpenFailure> {
    let Some(parent) = rel.parent() else {
        return Ok(Parent::Root(root));
    };
    sys::open_directory(root, parent, strategy).map(Parent::Opened)
}
