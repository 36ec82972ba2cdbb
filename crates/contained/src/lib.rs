//! Kernel-enforced, bounded, read-only access below one directory handle.
//!
//! `dotaios-contained` is the only code in dotaios that opens anything below an AIOS root. A
//! [`Root`] is opened once per request from an absolute path (the root itself may be a symlink;
//! it is followed exactly once, here). From then on every open is **relative to the root
//! handle**: on Linux with `openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
//! RESOLVE_NO_MAGICLINKS)`, and where the kernel refuses `openat2` (old kernels, seccomp
//! sandboxes) by walking the path one component at a time with `O_NOFOLLOW` from the root
//! handle. Either way a symlink, a `..` escape or a non-directory ancestor is an error, never a
//! detour.
//!
//! What it guarantees:
//! - **Containment.** Paths are [`RelPath`]s made only of normal components; the kernel
//!   resolves them beneath the root handle. After [`Root::open`] nothing in this crate accepts
//!   or returns an absolute path.
//! - **No blocking, no special files.** A file is first opened `O_PATH` and `fstat`ed; only a
//!   regular file is then opened for reading, with `O_NONBLOCK`, and must be the same inode.
//! - **Bounds.** Every read has a per-file cap and is charged to a [`Ledger`] (files, bytes,
//!   directory entries); every listing has an entry bound. Limits fail closed.
//! - **Observed mutation.** A file's identity ([`Identity`]: device, inode, mode, links, size,
//!   mtime, ctime) is taken before and after each read, a directory's before and after each
//!   listing; any difference is [`ReadError::Changed`].
//! - **Strict text.** [`Root::read_text`] decodes UTF-8 strictly; a BOM is kept.
//! - **Read-only.** Nothing here creates, modifies, renames or deletes anything.
//!
//! What it does not know: anything about DotAIOS. Callers map [`ReadError`] kinds to their own
//! codes and public messages; errors here carry no path.
//!
//! ```no_run
//! use dotaios_contained::{Ledger, Limits, RelPath, Root};
//! let root = Root::open(std::path::Path::new("/home/ada/aios"))?;
//! let mut ledger = Ledger::new(Limits { files: 512, bytes: 16 << 20, entries: 10_000 });
//! let work = root.read_text(&RelPath::new("context/work.md")?, 1 << 20, &mut ledger)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![forbid(unsafe_code)]
#![cfg(target_os = "linux")]

mod error;
mod identity;
mod ledger;
mod open;
mod relpath;
mod root;

pub use crate::error::{ReadError, RootError, UnsafeKind};
pub use crate::identity::{EntryKind, Identity};
pub use crate::ledger::{BudgetDimension, Ledger, Limits};
pub use crate::open::Strategy;
pub use crate::relpath::{InvalidRelPath, RelPath};
pub use crate::root::{DirEntry, FileBytes, FilePrefix, FileText, Listing, Probe, Root};
