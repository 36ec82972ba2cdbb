//! [`Dir`]: a directory handle opened contained, and every operation on one child of it by a
//! single name — the walk-relative core of the reader (contract 03 §4.8).
//!
//! A single component opened with `O_NOFOLLOW` relative to a handle that was itself opened
//! contained is contained, so none of these operations resolves more than one name. The same
//! child operations ([`At`]) serve the full-relative-path API of [`crate::Root`] once its
//! strategy resolved the parent directory.
//!
//! **Invariant:** a name is one normal component (never empty, `.`, `..`, or holding `/` or
//! NUL); nothing here follows a symlink, opens a non-regular file for reading, or writes.

use std::ffi::OsStr;
use std::sync::{Mutex, PoisonError};

use crate::error::{ReadError, UnsafeKind};
use crate::found::{FileBytes, FilePrefix, FileText, Listing, Probe, decode};
use crate::identity::{EntryKind, Identity};
use crate::ledger::Ledger;
use crate::open::{OpenFailure, Strategy};
use crate::read::{AfterRead, Extent, read_bounded};
use crate::sys::{self, Handle, HandleRef};

/// A directory opened contained: the root itself ([`crate::Root::dir`]), a directory below it
/// ([`crate::Root::open_dir`]) or a child of another `Dir` ([`Dir::open_dir`]). Holds a
/// descriptor, never a path.
///
/// Every operation takes **one name**, as a listing returned it: [`Dir::list`],
/// [`Dir::stat`], [`Dir::open_dir`], the reads and [`Dir::still_matches`]. A name that is not
/// one normal component is refused as [`UnsafeKind::Escape`].
///
/// A `Dir` is `Send + Sync`: reads of different children may run on different threads. Each
/// holds one descriptor; a caller walking a large tree should drop handles it no longer needs
/// (macOS's default limit is 256 open descriptors) and reopen them contained when it must
/// revalidate.
///
/// ```no_run
/// use dotaios_contained::{Ledger, Limits, ReadOptions, Root};
/// let root = Root::open(std::path::Path::new("/home/ada/aios"))?;
/// let mut ledger = Ledger::new(Limits { files: 512, bytes: 16 << 20, entries: 10_000 });
/// let vault = root.open_dir(&dotaios_contained::RelPath::new("vault")?)?.expect("present");
/// for entry in vault.list(10_000, &mut ledger)?.entries {
///     // The enumeration identity (contract 03 §4.8 rule 1) ...
///     let Some(found) = vault.stat(&entry.name)? else { continue };
///     // ... then the open, whose `fstat` must equal it (rule 2), and one read of size + 1.
///     let options = ReadOptions::new(1 << 20).expecting(found.identity).caller_revalidates();
///     let text = vault.read_text_with(&entry.name, &options, &mut ledger)?;
///     // Before publishing: `vault.still_matches(&entry.name, &found.identity)?` (rule 4).
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Dir {
    handle: Handle,
    identity: Identity,
    strategy: Strategy,
    /// Held while the handle is listed: a listing may run on the handle's own position
    /// (`sys::list`), which two listings at once would share.
    listing: Mutex<()>,
}

/// How a walk-relative read checks the file (see [`Dir::read_bytes_with`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadOptions {
    cap: u64,
    expected: Option<Identity>,
    after: AfterRead,
}

impl ReadOptions {
    /// A read of a whole file of at most `cap` bytes that takes its own identity first and
    /// `fstat`s after the read (contract 01 §4.3).
    pub fn new(cap: u64) -> ReadOptions {
        ReadOptions {
            cap,
            expected: None,
            after: AfterRead::Fstat,
        }
    }

    /// The file was already stat'ed by name (contract 03 §4.8 rule 1): skip that stat; the
    /// `fstat` of the opened handle must equal `identity` in every field (rule 2). An
    /// `identity` that is not a regular file is refused without opening anything.
    pub fn expecting(mut self, identity: Identity) -> ReadOptions {
        self.expected = Some(identity);
        self
    }

    /// Leave out the `fstat` after the read: the caller revalidates the returned identity
    /// before publishing anything (contract 03 §4.8).
    pub fn caller_revalidates(mut self) -> ReadOptions {
        self.after = AfterRead::CallerRevalidates;
        self
    }

    /// The size cap.
    pub fn cap(&self) -> u64 {
        self.cap
    }
}

impl Dir {
    pub(crate) fn from_handle(handle: Handle, strategy: Strategy) -> Result<Dir, ReadError> {
        let identity = sys::identity(sys::borrow(&handle))?;
        Ok(Dir {
            handle,
            identity,
            strategy,
            listing: Mutex::new(()),
        })
    }

    /// The directory's identity, taken by `fstat` when it was opened.
    pub fn identity(&self) -> Identity {
        self.identity
    }

    /// The directory's identity now (`fstat` of the handle).
    pub fn restat(&self) -> Result<Identity, ReadError> {
        sys::identity(sys::borrow(&self.handle))
    }

    /// Lists the directory, failing with [`ReadError::DirectoryLimit`] when it has more than
    /// `max_entries` entries. Each entry is charged to the ledger. The directory's `fstat`
    /// after the enumeration must equal [`Dir::identity`] (contract 01 §4.6), so anything added,
    /// removed or renamed in it since it was opened is [`ReadError::Changed`].
    pub fn list(&self, max_entries: u64, ledger: &mut Ledger) -> Result<Listing, ReadError> {
        // A listing that panicked left nothing behind that the next one relies on.
        let _listing = self.listing.lock().unwrap_or_else(PoisonError::into_inner);
        list_handle(
            sys::borrow(&self.handle),
            &self.identity,
            max_entries,
            ledger,
        )
    }

    /// Looks at the child `name` without following it and without opening it for data: one
    /// `statx`/`fstatat(dirfd, name, AT_SYMLINK_NOFOLLOW)` (Windows: an attributes-only
    /// `NtCreateFile` of that one name with `FILE_OPEN_REPARSE_POINT`). `None` when absent. A
    /// symlink (Windows: any reparse point) is reported as [`EntryKind::Symlink`], not refused.
    pub fn stat(&self, name: impl AsRef<OsStr>) -> Result<Option<Probe>, ReadError> {
        self.at().stat(checked(name.as_ref())?)
    }

    /// Whether the child `name` is still the object observed as `identity` (every field
    /// equal): one no-follow stat relative to this handle (contract 03 §4.8 rule 4).
    /// Absent, or replaced by anything else, is `false`.
    pub fn still_matches(
        &self,
        name: impl AsRef<OsStr>,
        identity: &Identity,
    ) -> Result<bool, ReadError> {
        self.at().still_matches(checked(name.as_ref())?, identity)
    }

    /// Opens the child directory `name` (`O_RDONLY | O_DIRECTORY | O_NOFOLLOW`; Windows:
    /// `FILE_DIRECTORY_FILE | FILE_OPEN_REPARSE_POINT`, then `FileAttributeTagInfo`) and takes
    /// its identity. `None` when absent; a symlink or a non-directory is refused as unsafe.
    pub fn open_dir(&self, name: impl AsRef<OsStr>) -> Result<Option<Dir>, ReadError> {
        self.at().open_dir(checked(name.as_ref())?)
    }

    /// Reads the whole child file `name` of at most `cap` bytes (contract 01 §4.3 through one
    /// name). `None` when absent.
    pub fn read_bytes(
        &self,
        name: impl AsRef<OsStr>,
        cap: u64,
        ledger: &mut Ledger,
    ) -> Result<Option<FileBytes>, ReadError> {
        self.read_bytes_with(name, &ReadOptions::new(cap), ledger)
    }

    /// [`Dir::read_bytes`], decoded as strict UTF-8 (a BOM is kept).
    pub fn read_text(
        &self,
        name: impl AsRef<OsStr>,
        cap: u64,
        ledger: &mut Ledger,
    ) -> Result<Option<FileText>, ReadError> {
        self.read_text_with(name, &ReadOptions::new(cap), ledger)
    }

    /// Reads the whole child file `name`: the no-follow stat (unless
    /// [`ReadOptions::expecting`] supplied it), which must show a regular file within the cap;
    /// `openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)` (Windows:
    /// `NtCreateFile` with `FILE_NON_DIRECTORY_FILE | FILE_OPEN_REPARSE_POINT`, share read,
    /// write and delete); `fstat` equal to the stat; the ledger reservation; one read of `size + 1` bytes that must return `size`;
    /// the `fstat` after the read unless [`ReadOptions::caller_revalidates`]; close.
    ///
    /// `None` when absent at the stat. When the identity was supplied, or the object vanished
    /// or became something else between the stat and the open, the result is
    /// [`ReadError::Changed`].
    pub fn read_bytes_with(
        &self,
        name: impl AsRef<OsStr>,
        options: &ReadOptions,
        ledger: &mut Ledger,
    ) -> Result<Option<FileBytes>, ReadError> {
        self.at()
            .read_bytes(checked(name.as_ref())?, options, ledger)
    }

    /// [`Dir::read_bytes_with`], decoded as strict UTF-8 (a BOM is kept).
    pub fn read_text_with(
        &self,
        name: impl AsRef<OsStr>,
        options: &ReadOptions,
        ledger: &mut Ledger,
    ) -> Result<Option<FileText>, ReadError> {
        decode(self.read_bytes_with(name, options, ledger)?)
    }

    /// Reads at most `prefix_len` bytes of the child file `name` of at most `cap` bytes,
    /// charging the whole size to the ledger; the `fstat` after the read always runs. `None`
    /// when absent.
    pub fn read_prefix(
        &self,
        name: impl AsRef<OsStr>,
        cap: u64,
        prefix_len: u64,
        ledger: &mut Ledger,
    ) -> Result<Option<FilePrefix>, ReadError> {
        self.at()
            .read_prefix(checked(name.as_ref())?, cap, prefix_len, ledger)
    }

    fn at(&self) -> At<'_> {
        At {
            dir: sys::borrow(&self.handle),
            strategy: self.strategy,
        }
    }
}

/// Refuses anything but one normal component (on Windows also a name the Windows name rules
/// refuse, `crate::relpath`).
fn checked(name: &OsStr) -> Result<&OsStr, ReadError> {
    if sys::is_single_component(name) {
        Ok(name)
    } else {
        Err(ReadError::Unsafe(UnsafeKind::Escape))
    }
}

/// The operations on one child of a directory handle, by one already checked name.
#[derive(Clone, Copy)]
pub(crate) struct At<'dir> {
    pub(crate) dir: HandleRef<'dir>,
    pub(crate) strategy: Strategy,
}

impl At<'_> {
    pub(crate) fn stat(&self, name: &OsStr) -> Result<Option<Probe>, ReadError> {
        Ok(
            sys::stat_child(self.dir, name, self.strategy)?.map(|identity| Probe {
                kind: identity.kind(),
                identity,
            }),
        )
    }

    pub(crate) fn still_matches(
        &self,
        name: &OsStr,
        identity: &Identity,
    ) -> Result<bool, ReadError> {
        sys::still_matches(self.dir, name, identity, self.strategy)
    }

    pub(crate) fn open_dir(&self, name: &OsStr) -> Result<Option<Dir>, ReadError> {
        match sys::open_dir(self.dir, name) {
            Ok(handle) => Dir::from_handle(handle, self.strategy).map(Some),
            Err(OpenFailure::Absent) => Ok(None),
            Err(OpenFailure::Error(error)) => Err(error),
        }
    }

    pub(crate) fn read_bytes(
        &self,
        name: &OsStr,
        options: &ReadOptions,
        ledger: &mut Ledger,
    ) -> Result<Option<FileBytes>, ReadError> {
        let Some((handle, identity)) = self.open_regular(name, options.expected, options.cap)?
        else {
            return Ok(None);
        };
        let bytes = read_bounded(
            handle,
            &identity,
            options.cap,
            ledger,
            Extent::Whole(options.after),
        )?;
        Ok(Some(FileBytes { bytes, identity }))
    }

    pub(crate) fn read_prefix(
        &self,
        name: &OsStr,
        cap: u64,
        prefix_len: u64,
        ledger: &mut Ledger,
    ) -> Result<Option<FilePrefix>, ReadError> {
        let Some((handle, identity)) = self.open_regular(name, None, cap)? else {
            return Ok(None);
        };
        let bytes = read_bounded(handle, &identity, cap, ledger, Extent::Prefix(prefix_len))?;
        Ok(Some(FilePrefix {
            complete: bytes.len() as u64 == identity.size,
            bytes,
            identity,
        }))
    }

    /// The stat (or the caller's identity), which must be a regular file within the cap, then
    /// the non-blocking open whose `fstat` must equal it.
    fn open_regular(
        &self,
        name: &OsStr,
        expected: Option<Identity>,
        cap: u64,
    ) -> Result<Option<(Handle, Identity)>, ReadError> {
        let identity = match expected {
            Some(identity) => identity,
            None => match self.stat(name)? {
                Some(probe) => probe.identity,
                None => return Ok(None),
            },
        };
        match identity.kind() {
            EntryKind::File => {}
            EntryKind::Symlink => return Err(ReadError::Unsafe(UnsafeKind::Symlink)),
            other => return Err(ReadError::NotRegular(other)),
        }
        // Refused before anything is opened (contract 01 §4.3 step 2).
        if identity.size > cap {
            return Err(ReadError::TooLarge);
        }
        // It was a regular file a moment ago: removed, or replaced by a link or a directory
        // since, is a change.
        let handle = sys::open_file(self.dir, name)?;
        if sys::identity(sys::borrow(&handle))? != identity {
            return Err(ReadError::Changed);
        }
        Ok(Some((handle, identity)))
    }
}

/// Lists the directory open as `dir`, whose identity was `identity` when it was opened: at
/// most `max_entries` entries, each charged to the ledger before it is taken, and the handle's
/// identity after the enumeration equal to `identity` (contract 01 §4.6).
pub(crate) fn list_handle(
    dir: HandleRef<'_>,
    identity: &Identity,
    max_entries: u64,
    ledger: &mut Ledger,
) -> Result<Listing, ReadError> {
    let mut taken: u64 = 0;
    let entries = sys::list(dir, || {
        if taken >= max_entries {
            return Err(ReadError::DirectoryLimit);
        }
        ledger.reserve_entries(1).map_err(ReadError::Budget)?;
        taken += 1;
        Ok(())
    })?;
    if sys::identity(dir)? != *identity {
        return Err(ReadError::Changed);
    }
    Ok(Listing {
        entries,
        identity: *identity,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ledger::Limits;
    use crate::root::Root;

    fn names(dir: &Dir) -> Vec<std::ffi::OsString> {
        let mut ledger = Ledger::new(Limits {
            files: 0,
            bytes: 0,
            entries: u64::MAX,
        });
        let mut names: Vec<_> = dir
            .list(10_000, &mut ledger)
            .unwrap()
            .entries
            .into_iter()
            .map(|entry| entry.name)
            .collect();
        names.sort();
        names
    }

    /// A listing may run on the handle's own position (`sys::list`): listing one handle again,
    /// or on several threads at once, must still see every entry each time.
    #[test]
    fn one_handle_lists_every_entry_each_time_and_on_every_thread() {
        let temp = tempfile::tempdir().unwrap();
        // Enough entries for several `getdents` batches.
        let expected: Vec<std::ffi::OsString> = (0..2_000)
            .map(|index| format!("entry-with-a-longish-name-{index:05}.md").into())
            .collect();
        for name in &expected {
            std::fs::write(temp.path().join(name), b"x").unwrap();
        }
        let mut expected = expected;
        expected.sort();
        let root = Root::open(temp.path()).unwrap();
        let dir = root.dir().unwrap();
        assert_eq!(names(&dir), expected);
        assert_eq!(names(&dir), expected);
        std::thread::scope(|scope| {
            let listings: Vec<_> = (0..4).map(|_| scope.spawn(|| names(&dir))).collect();
            for listing in listings {
                assert_eq!(listing.join().unwrap(), expected);
            }
        });
    }
}
