//! The platform seam of the command line: the file-system calls of the writers
//! (`crate::writers`) on one directory handle and one name, and the few process facts the CLI
//! needs (effective ids, whether a process is gone, the migrate failpoints' self-signals, the
//! width of the terminal on stdout).
//!
//! One backend per operating system, chosen here by `cfg` and nowhere else: `sys/unix.rs`
//! (`*at` system calls through rustix on an `O_DIRECTORY` descriptor) and `sys/windows.rs`
//! (the standard library on a pinned directory handle; `docs/decisions.md`, "Writers,
//! launcher and client configurations on Windows", says what each Unix guarantee means there). Both offer the same functions with the
//! same refusals, so `writers/atomic.rs` and `writers/migrate/fsops.rs` hold no platform code.
//!
//! What it must never do: follow a link below a handle (Unix: `O_NOFOLLOW`,
//! `AT_SYMLINK_NOFOLLOW`; Windows: `FILE_FLAG_OPEN_REPARSE_POINT` and a reparse-point check on
//! the opened handle), resolve more than one name below a handle, or print anything.

use std::io::{self, Write};

#[cfg(unix)]
mod unix;
#[cfg(unix)]
pub(crate) use unix::*;

#[cfg(windows)]
#[allow(
    clippy::disallowed_methods,
    reason = "the writers' Windows backend: the standard library on a pinned directory handle"
)]
mod windows;
#[cfg(windows)]
pub(crate) use windows::*;

#[cfg(not(any(unix, windows)))]
compile_error!("dotaios's writers support Unix and Windows only");

/// The platform whose rules a pure function applies. Code that depends on the platform takes
/// one as a value, and its caller passes [`Os::HOST`], so that the unit tests check both
/// platforms' rules on every run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Os {
    /// Linux, macOS and the other Unix systems.
    Unix,
    /// Windows.
    Windows,
}

impl Os {
    /// The platform this binary was built for.
    pub(crate) const HOST: Os = if cfg!(windows) { Os::Windows } else { Os::Unix };
}

/// What an existing name is, seen without following it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FileKind {
    /// A regular file.
    File,
    /// A real directory.
    Directory,
    /// A symbolic link (on Windows: any name-surrogate reparse point, junctions included).
    Symlink,
    /// A FIFO, socket, device, or (Windows) a reparse point that is not a link.
    Special,
}

/// The metadata the writers compare and copy, in one shape on every platform.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Meta {
    pub(crate) kind: FileKind,
    pub(crate) size: u64,
    /// Permission bits (`mode & 0o777`). Windows: `0o444` for a read-only file, else `0o666`.
    pub(crate) mode: u32,
    /// Owner and group ids. Windows: `0` (ownership is an ACL matter the writers leave alone).
    pub(crate) uid: u32,
    pub(crate) gid: u32,
    /// Which object this is: device and inode on Unix; on Windows `0` and the creation time,
    /// the closest stable identity the standard library reports for a name.
    pub(crate) dev: u64,
    pub(crate) ino: u64,
    /// Last modification time: seconds since the Unix epoch and nanoseconds (Windows: 100 ns
    /// resolution).
    pub(crate) mtime: (i64, i64),
}

/// What [`open_dir_at`] found under a name.
#[derive(Debug)]
pub(crate) enum OpenedDir {
    /// A real directory, now open.
    Dir(DirHandle),
    /// Nothing has this name.
    Absent,
    /// A link, not followed.
    Link,
    /// Something other than a directory.
    NotDirectory,
}

/// The owner to give a new file when it should differ from the creating process (Unix only;
/// on Windows the file keeps the ACL its directory gives it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Owner {
    /// User id.
    pub(crate) uid: u32,
    /// Group id.
    pub(crate) gid: u32,
}

/// The one write of a new file's bytes, for every writer: all of `bytes` (interrupted writes
/// retried by `write_all`), then the owner (best effort: only a privileged process can), then
/// exactly `mode` when given (so the umask cannot interfere), then a flush to disk. The
/// caller removes the file when this fails.
pub(crate) fn fill(
    file: &mut std::fs::File,
    bytes: &[u8],
    mode: Option<u32>,
    owner: Option<Owner>,
) -> io::Result<()> {
    file.write_all(bytes)?;
    if let Some(owner) = owner {
        set_owner(file, owner)?;
    }
    if let Some(bits) = mode {
        set_mode(file, bits & 0o777)?;
    }
    file.sync_all()
}
