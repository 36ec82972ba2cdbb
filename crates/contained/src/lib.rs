//! Kernel-enforced, bounded, read-only access below one directory handle.
//!
//! `dotaios-contained` is the only code in dotaios that opens anything below an AIOS root. A
//! [`Root`] is opened once per request from an absolute path (the root itself may be a symlink;
//! it is followed exactly once, here). From then on every open is **relative to a handle**
//! that was itself opened contained, and never follows a symlink (on Windows: any reparse
//! point).
//!
//! # Two ways in
//!
//! - **Walk-relative handles** (the core; contract 03 §4.8). [`Root::dir`] and
//!   [`Root::open_dir`] give a [`Dir`]; a `Dir` lists its entries ([`Dir::list`]) and works on
//!   one child by one name: [`Dir::stat`] (`statx`/`fstatat(dirfd, name,
//!   AT_SYMLINK_NOFOLLOW)`, the enumeration identity), [`Dir::open_dir`] (a child `Dir`),
//!   [`Dir::read_text`] / [`Dir::read_bytes`] / [`Dir::read_prefix`] and their
//!   [`ReadOptions`] forms (`openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
//!   O_CLOEXEC)`, `fstat` equal to the stat, one read of `size + 1`, close), and
//!   [`Dir::still_matches`] (the revalidation stat). Names are single normal components,
//!   exactly as a listing returned them.
//! - **Full relative paths** from the root, for the fixed locations: [`Root::read_text`],
//!   [`Root::probe`], [`Root::list_dir`], [`Root::still_matches`], … take a [`RelPath`]. The
//!   root's [`Strategy`] resolves the parent directory beneath the root (Linux: `openat2` with
//!   `RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS`, falling back to the
//!   component walk where the kernel refuses it; macOS and other Unix systems: the portable
//!   component walk with `fstatat`, or `O_NOFOLLOW_ANY` on macOS 11+; Windows: one
//!   `NtCreateFile` per component, see below), and the last component goes through the same
//!   walk-relative operations.
//!
//! Either way a symlink, a `..` escape or a non-directory ancestor is an error, never a
//! detour, and every strategy gives the same answers.
//!
//! # Windows
//!
//! The same API on NT handles (`sys/windows`, on `windows-sys`): the root is opened once with
//! `CreateFileW` (`FILE_FLAG_BACKUP_SEMANTICS`, share read, write and delete); every lookup is
//! one name with `NtCreateFile(RootDirectory = the parent handle, FILE_OPEN_REPARSE_POINT)`,
//! never a path of several names; after every open the handle's `FileAttributeTagInfo` makes
//! any reparse point (symbolic link, junction, mount point, cloud placeholder, app-execution
//! alias, WSL link) an [`EntryKind::Symlink`], refused as [`UnsafeKind::Symlink`] wherever a
//! file or directory is needed, a device a [`EntryKind::CharDevice`] and an offline or
//! recall-on-access file an [`EntryKind::Unknown`], neither of which is read. Files are read
//! with share read, write and delete, so an editor or sync client can still replace them.
//! Identities are volume serial and 128-bit file id, links, size, last-write and change times
//! ([`Identity`]), listings `FileIdBothDirectoryInfo` on a handle of their own. Names follow
//! the Windows name rules as well ([`RelPath`]). Under Wine this is tested except links, which
//! Wine cannot create (`docs/security.md`, "Windows").
//!
//! # Guarantees
//!
//! - **Containment.** Paths are [`RelPath`]s made only of normal components, names are single
//!   components, and every lookup is relative to a contained handle. After [`Root::open`]
//!   nothing in this crate accepts or returns an absolute path.
//! - **No blocking, no special files.** A file is stat'ed without following it first; only a
//!   regular file is then opened for reading, with `O_NONBLOCK | O_NOFOLLOW` (Windows:
//!   `FILE_NON_DIRECTORY_FILE | FILE_OPEN_REPARSE_POINT`), and its identity must equal the
//!   stat.
//! - **Bounds.** Every read has a per-file cap and is charged to a [`Ledger`] (files, bytes,
//!   directory entries); every listing has an entry bound. Limits fail closed.
//! - **Observed mutation.** A file's identity ([`Identity`]: device, inode, mode, links, size,
//!   mtime, ctime, nanoseconds) is compared between the stat, the open and (unless the caller
//!   revalidates, [`ReadOptions::caller_revalidates`]) after the read; a directory's between its
//!   open and the end of its listing; any difference is [`ReadError::Changed`].
//! - **Strict text.** The `*_text` reads decode UTF-8 strictly; a BOM is kept.
//! - **Read-only.** Nothing here creates, modifies, renames or deletes anything (Windows opens
//!   are `FILE_OPEN` with read access only).
//! - **Platforms.** Linux, macOS and other Unix systems, and Windows (contract 01 §4.2). All
//!   platform code is behind one seam, `sys` (`sys/unix`, `sys/windows`); the only `unsafe`
//!   code is `sys/windows/nt.rs`, one system call a block. Building for anything else fails
//!   with one message.
//!
//! What it does not know: anything about DotAIOS. Callers map [`ReadError`] kinds to their own
//! codes and public messages; errors here carry no path.
//!
//! ```no_run
//! use dotaios_contained::{Ledger, Limits, RelPath, Root};
//! let root = Root::open(std::path::Path::new("/home/ada/aios"))?;
//! let mut ledger = Ledger::new(Limits { files: 512, bytes: 16 << 20, entries: 10_000 });
//! // A fixed location, by its full relative path:
//! let work = root.read_text(&RelPath::new("context/work.md")?, 1 << 20, &mut ledger)?;
//! // A walk, one name at a time:
//! let context = root.open_dir(&RelPath::new("context")?)?.expect("present");
//! let same = context.read_text("work.md", 1 << 20, &mut ledger)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![cfg_attr(
    test,
    allow(
        clippy::disallowed_methods,
        reason = "unit tests build their folders with std::fs"
    )
)]
#![deny(unsafe_code)]

#[cfg(not(any(unix, windows)))]
compile_error!("dotaios supports Linux, macOS, other Unix systems and Windows only");

mod dir;
mod error;
mod found;
mod identity;
mod ledger;
mod open;
mod read;
mod relpath;
mod root;
mod sys;

pub use crate::dir::{Dir, ReadOptions};
pub use crate::error::{ReadError, RootError, UnsafeKind};
pub use crate::found::{
    DirEntry, FileBytes, FilePrefix, FileText, Listing, NamePiece, Probe, name_pieces,
};
pub use crate::identity::{EntryKind, Identity};
pub use crate::ledger::{BudgetDimension, Counts, Ledger, Limits};
pub use crate::open::Strategy;
pub use crate::relpath::{InvalidRelPath, RelPath};
pub use crate::root::Root;
