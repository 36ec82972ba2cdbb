//! [`Root`]: the handle of an AIOS root, and every read below it by a full relative path (the
//! fixed locations of contract 01 §2 and 03 §4.4). The strategy resolves the parent directory
//! beneath the root; the last component is then handled by the same walk-relative operations
//! as a [`Dir`] child.

use std::ffi::OsStr;
use std::path::Path;

use crate::dir::{At, Dir, ReadOptions};
use crate::error::{ReadError, RootError};
use crate::found::{FileBytes, FilePrefix, FileText, Listing, Probe, decode};
use crate::identity::Identity;
use crate::ledger::Ledger;
use crate::open::{OpenFailure, Strategy, open_parent};
use crate::relpath::RelPath;
use crate::sys::{self, Handle};

/// An open directory below which every read is contained. Holds a descriptor, never a path.
///
/// Two ways to read below it, with the same checks and answers:
/// - by a full [`RelPath`] ([`Root::read_text`], [`Root::probe`], [`Root::list_dir`], …), for
///   the fixed locations; the parent is resolved with the root's [`Strategy`];
/// - walk-relative, through [`Dir`] handles ([`Root::dir`], [`Root::open_dir`],
///   [`Dir::open_dir`]), one name per call: what a walk over a tree uses.
#[derive(Debug)]
pub struct Root {
    dir: Handle,
    strategy: Strategy,
}

impl Root {
    /// Opens `path` as a root. `path` should be absolute; a symlinked root is followed (the
    /// only link the reader ever follows). This is the only function that takes a path.
    pub fn open(path: &Path) -> Result<Root, RootError> {
        Root::open_with(path, Strategy::Auto)
    }

    /// [`Root::open`] with an explicit resolution strategy.
    pub fn open_with(path: &Path, strategy: Strategy) -> Result<Root, RootError> {
        let dir = sys::open_root(path)?;
        Ok(Root { dir, strategy })
    }

    /// The strategy this root resolves full relative paths with.
    pub fn strategy(&self) -> Strategy {
        self.strategy
    }

    /// The root directory's identity now (for authority snapshots).
    pub fn restat(&self) -> Result<Identity, ReadError> {
        sys::identity(sys::borrow(&self.dir))
    }

    /// The root itself as a [`Dir`]: a fresh listable handle, and its identity.
    pub fn dir(&self) -> Result<Dir, ReadError> {
        let handle = sys::reopen_listable(sys::borrow(&self.dir))?;
        Dir::from_handle(handle, self.strategy)
    }

    /// Opens the directory `rel` as a [`Dir`]. `None` when it (or an ancestor) is absent; a
    /// symlink or non-directory anywhere on the path is refused as unsafe.
    pub fn open_dir(&self, rel: &RelPath) -> Result<Option<Dir>, ReadError> {
        self.with_parent(rel, |at, name| at.open_dir(name))
    }

    /// Looks at `rel` without following it and without reading it. `None` when absent.
    pub fn probe(&self, rel: &RelPath) -> Result<Option<Probe>, ReadError> {
        self.with_parent(rel, |at, name| at.stat(name))
    }

    /// Whether `rel` is still the object observed as `identity` (every field equal).
    ///
    /// One `statx`/`fstatat(AT_SYMLINK_NOFOLLOW)` relative to the root handle (contract 01 §4.6,
    /// 03 §19.2). Neither call has `RESOLVE_BENEATH`, so an ancestor swapped for a link would
    /// be followed for this one stat; that is harmless because nothing is read and nothing
    /// observed is returned: only "same object" or "not", and an object reached through a link
    /// is never the inode observed beneath the root, so the answer is "changed". A final
    /// symlink is not followed. A walk holding the parent's [`Dir`] uses
    /// [`Dir::still_matches`] instead, which resolves one name.
    pub fn still_matches(&self, rel: &RelPath, identity: &Identity) -> Result<bool, ReadError> {
        sys::still_matches_path(sys::borrow(&self.dir), rel, identity, self.strategy)
    }

    /// Reads a whole file of at most `cap` bytes as strict UTF-8. `None` when absent.
    pub fn read_text(
        &self,
        rel: &RelPath,
        cap: u64,
        ledger: &mut Ledger,
    ) -> Result<Option<FileText>, ReadError> {
        decode(self.read_bytes(rel, cap, ledger)?)
    }

    /// Reads a whole file of at most `cap` bytes. `None` when absent.
    ///
    /// Contract 01 §4.3: the no-follow stat of the last component must show a regular file; the
    /// `O_RDONLY | O_NOFOLLOW | O_NONBLOCK` handle's `fstat` must equal it; the size cap; the
    /// ledger; one read of `size + 1` bytes that returns `size`; the `fstat` after the read.
    pub fn read_bytes(
        &self,
        rel: &RelPath,
        cap: u64,
        ledger: &mut Ledger,
    ) -> Result<Option<FileBytes>, ReadError> {
        let options = ReadOptions::new(cap);
        self.with_parent(rel, |at, name| at.read_bytes(name, &options, ledger))
    }

    /// Reads at most `prefix_len` bytes of a file of at most `cap` bytes, charging the whole
    /// file size to the ledger. `None` when absent.
    pub fn read_prefix(
        &self,
        rel: &RelPath,
        cap: u64,
        prefix_len: u64,
        ledger: &mut Ledger,
    ) -> Result<Option<FilePrefix>, ReadError> {
        self.with_parent(rel, |at, name| {
            at.read_prefix(name, cap, prefix_len, ledger)
        })
    }

    /// Lists the directory `rel` (the root itself when `None`), failing with
    /// [`ReadError::DirectoryLimit`] when it has more than `max_entries` entries. Each entry is
    /// charged to the ledger. `None` when absent; a symlink or non-directory is refused.
    pub fn list_dir(
        &self,
        rel: Option<&RelPath>,
        max_entries: u64,
        ledger: &mut Ledger,
    ) -> Result<Option<Listing>, ReadError> {
        let dir = match rel {
            None => self.dir()?,
            Some(rel) => match self.open_dir(rel)? {
                Some(dir) => dir,
                None => return Ok(None),
            },
        };
        dir.list(max_entries, ledger).map(Some)
    }

    /// Resolves `rel`'s parent beneath the root with the strategy and runs `operation` on its
    /// last component. An absent ancestor makes the whole path absent (contract 01 §4.5).
    fn with_parent<T>(
        &self,
        rel: &RelPath,
        operation: impl FnOnce(At<'_>, &OsStr) -> Result<Option<T>, ReadError>,
    ) -> Result<Option<T>, ReadError> {
        let parent = match open_parent(sys::borrow(&self.dir), rel, self.strategy) {
            Ok(parent) => parent,
            Err(OpenFailure::Absent) => return Ok(None),
            Err(OpenFailure::Error(error)) => return Err(error),
        };
        let at = At {
            dir: parent.handle(),
            strategy: self.strategy,
        };
        operation(at, OsStr::new(rel.file_name()))
    }
}
