//! Typed errors of the contained reader. None of them carries a path: the caller knows which
//! relative path it asked for and decides what, if anything, to show.

use crate::identity::EntryKind;
use crate::ledger::BudgetDimension;

/// Why a path below the root is unsafe to resolve.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnsafeKind {
    /// A symbolic link somewhere below the root (the final component or an ancestor); on
    /// Windows any reparse point.
    Symlink,
    /// An attempt to leave the root: the kernel's `EXDEV`, or a name that is not one normal
    /// component (on Windows also one the Windows name rules refuse).
    Escape,
    /// A component that should be a directory is not one.
    NotDirectory,
}

/// A refused or failed contained read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ReadError {
    /// The path cannot be resolved safely beneath the root.
    #[error("unsafe path below the root")]
    Unsafe(UnsafeKind),
    /// The object exists but is not the kind the caller needs (a FIFO, socket or device where a
    /// file is read, a file where a directory is listed).
    #[error("not a regular file")]
    NotRegular(EntryKind),
    /// The file is larger than the caller's cap.
    #[error("file too large")]
    TooLarge,
    /// The object changed while it was observed.
    #[error("changed while read")]
    Changed,
    /// The bytes are not strict UTF-8.
    #[error("invalid UTF-8")]
    InvalidUtf8,
    /// The request ledger refused the reservation.
    #[error("read budget exceeded")]
    Budget(BudgetDimension),
    /// A listing had more entries than its bound.
    #[error("directory entry limit exceeded")]
    DirectoryLimit,
    /// Any other operating-system failure (permission denied, I/O error).
    #[error("read failed")]
    Io(std::io::ErrorKind),
}

/// Why a root could not be opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum RootError {
    /// Nothing exists at the path.
    #[error("root not found")]
    NotFound,
    /// The path exists but is not a directory.
    #[error("root is not a directory")]
    NotDirectory,
    /// Any other failure.
    #[error("root could not be opened")]
    Io(std::io::ErrorKind),
}
