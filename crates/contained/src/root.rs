//! [`Root`]: a directory handle and every read below it.

use std::ffi::OsString;
use std::io::Read;
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use rustix::fs::{Mode, OFlags};
use rustix::io::Errno;

use crate::error::{ReadError, RootError, UnsafeKind, io_kind};
use crate::identity::{EntryKind, Identity};
use crate::ledger::Ledger;
use crate::open::{OpenFailure, Strategy, kind_at, open_beneath};
use crate::relpath::RelPath;

/// An open directory below which every read is contained. Holds a descriptor, never a path.
#[derive(Debug)]
pub struct Root {
    dir: OwnedFd,
    strategy: Strategy,
}

/// A file read in full and decoded as strict UTF-8.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileText {
    /// The text; a leading BOM is kept as U+FEFF.
    pub text: String,
    /// The file's identity, unchanged from before to after the read.
    pub identity: Identity,
}

/// A file read in full, undecoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileBytes {
    /// The bytes.
    pub bytes: Vec<u8>,
    /// The file's identity, unchanged from before to after the read.
    pub identity: Identity,
}

/// The first bytes of a file whose whole size was charged to the ledger.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FilePrefix {
    /// At most the requested prefix length; may end inside a UTF-8 sequence when the file is
    /// longer than the prefix.
    pub bytes: Vec<u8>,
    /// Whether `bytes` is the whole file.
    pub complete: bool,
    /// The file's identity, unchanged from before to after the read.
    pub identity: Identity,
}

/// One entry of a directory listing (`.` and `..` are never listed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DirEntry {
    /// The entry name as the kernel returned it (it may be invalid UTF-8).
    pub name: OsString,
    /// The entry kind; symlinks are reported, never followed.
    pub kind: EntryKind,
}

impl DirEntry {
    /// The name as text, when it is valid UTF-8.
    pub fn name_str(&self) -> Option<&str> {
        self.name.to_str()
    }
}

/// A bounded directory listing, in the kernel's order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listing {
    /// The entries.
    pub entries: Vec<DirEntry>,
    /// The directory's identity, unchanged from before to after the enumeration.
    pub identity: Identity,
}

/// What a no-follow probe saw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Probe {
    /// The kind of the object itself (a symlink is `Symlink`).
    pub kind: EntryKind,
    /// Its identity.
    pub identity: Identity,
}

impl Root {
    /// Opens `path` as a root. `path` should be absolute; a symlinked root is followed (the
    /// only link the reader ever follows). This is the only function that takes a path.
    pub fn open(path: &Path) -> Result<Root, RootError> {
        Root::open_with(path, Strategy::Auto)
    }

    /// [`Root::open`] with an explicit resolution strategy.
    pub fn open_with(path: &Path, strategy: Strategy) -> Result<Root, RootError> {
        let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
        let dir = loop {
            match rustix::fs::open(path.as_os_str().as_bytes(), flags, Mode::empty()) {
                Ok(dir) => break dir,
                Err(Errno::INTR) => {}
                Err(Errno::NOENT) => return Err(RootError::NotFound),
                Err(Errno::NOTDIR) => return Err(RootError::NotDirectory),
                Err(errno) => return Err(RootError::Io(io_kind(errno))),
            }
        };
        Ok(Root { dir, strategy })
    }

    /// The root directory's identity now (for authority snapshots).
    pub fn restat(&self) -> Result<Identity, ReadError> {
        fstat(&self.dir)
    }

    /// Looks at `rel` without following it and without reading it. `None` when absent.
    pub fn probe(&self, rel: &RelPath) -> Result<Option<Probe>, ReadError> {
        let fd = match self.resolve(rel, OFlags::PATH) {
            Ok(fd) => fd,
            Err(OpenFailure::Absent) => return Ok(None),
            Err(OpenFailure::Error(error)) => return Err(error),
        };
        let identity = fstat(&fd)?;
        Ok(Some(Probe {
            kind: identity.kind(),
            identity,
        }))
    }

    /// Whether `rel` is still the object observed as `identity` (every field equal).
    ///
    /// One `statx(AT_SYMLINK_NOFOLLOW)` relative to the root handle (spec 01 §4.6, 03 §19.2).
    /// `statx` has no `RESOLVE_BENEATH`, so an ancestor swapped for a link would be followed
    /// for this one stat; that is harmless because nothing is read and nothing observed is
    /// returned: only "same object" or "not", and an object reached through a link is never
    /// the inode observed beneath the root, so the answer is "changed". A final symlink is not
    /// followed. Kernels without `statx` fall back to the `O_PATH` probe.
    pub fn still_matches(&self, rel: &RelPath, identity: &Identity) -> Result<bool, ReadError> {
        let flags = rustix::fs::AtFlags::SYMLINK_NOFOLLOW;
        match rustix::fs::statx(
            &self.dir,
            rel.as_str(),
            flags,
            rustix::fs::StatxFlags::BASIC_STATS,
        ) {
            Ok(statx) => Ok(Identity::from_statx(&statx) == *identity),
            Err(Errno::NOENT | Errno::NOTDIR | Errno::LOOP) => Ok(false),
            Err(Errno::NOSYS | Errno::PERM) => Ok(self
                .probe(rel)?
                .is_some_and(|probe| probe.identity == *identity)),
            Err(errno) => Err(ReadError::Io(io_kind(errno))),
        }
    }

    /// Reads a whole file of at most `cap` bytes as strict UTF-8. `None` when absent.
    pub fn read_text(
        &self,
        rel: &RelPath,
        cap: u64,
        ledger: &mut Ledger,
    ) -> Result<Option<FileText>, ReadError> {
        let Some(file) = self.read_bytes(rel, cap, ledger)? else {
            return Ok(None);
        };
        let text = String::from_utf8(file.bytes).map_err(|_| ReadError::InvalidUtf8)?;
        Ok(Some(FileText {
            text,
            identity: file.identity,
        }))
    }

    /// Reads a whole file of at most `cap` bytes. `None` when absent.
    pub fn read_bytes(
        &self,
        rel: &RelPath,
        cap: u64,
        ledger: &mut Ledger,
    ) -> Result<Option<FileBytes>, ReadError> {
        let Some(opened) = self.open_regular(rel, cap, ledger, cap)? else {
            return Ok(None);
        };
        Ok(Some(FileBytes {
            bytes: opened.bytes,
            identity: opened.identity,
        }))
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
        let Some(opened) = self.open_regular(rel, cap, ledger, prefix_len)? else {
            return Ok(None);
        };
        Ok(Some(FilePrefix {
            complete: opened.bytes.len() as u64 == opened.identity.size,
            bytes: opened.bytes,
            identity: opened.identity,
        }))
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
            None => self.reopen_root()?,
            Some(rel) => match self.resolve(rel, OFlags::RDONLY | OFlags::DIRECTORY) {
                Ok(fd) => fd,
                Err(OpenFailure::Absent) => return Ok(None),
                Err(OpenFailure::Error(error)) => return Err(error),
            },
        };
        let before = fstat(&dir)?;
        let mut stream =
            rustix::fs::Dir::read_from(&dir).map_err(|errno| ReadError::Io(io_kind(errno)))?;
        let mut entries = Vec::new();
        while let Some(entry) = stream.read() {
            let entry = entry.map_err(|errno| ReadError::Io(io_kind(errno)))?;
            let name = entry.file_name().to_bytes();
            if name == b"." || name == b".." {
                continue;
            }
            if entries.len() as u64 >= max_entries {
                return Err(ReadError::DirectoryLimit);
            }
            ledger.reserve_entries(1).map_err(ReadError::Budget)?;
            let name = OsString::from(std::ffi::OsStr::from_bytes(name));
            let mut kind = EntryKind::from_file_type(entry.file_type());
            if kind == EntryKind::Unknown {
                // Some filesystems do not fill d_type; ask without following.
                kind = match name.to_str() {
                    Some(text) => kind_at(dir.as_fd(), text).unwrap_or(EntryKind::Unknown),
                    None => EntryKind::Unknown,
                };
            }
            entries.push(DirEntry { name, kind });
        }
        let after = fstat(&dir)?;
        if before != after {
            return Err(ReadError::Changed);
        }
        Ok(Some(Listing {
            entries,
            identity: before,
        }))
    }

    fn resolve(&self, rel: &RelPath, flags: OFlags) -> Result<OwnedFd, OpenFailure> {
        open_beneath(self.dir.as_fd(), rel, flags, self.strategy)
    }

    fn reopen_root(&self) -> Result<OwnedFd, ReadError> {
        rustix::fs::openat(
            &self.dir,
            ".",
            OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
            Mode::empty(),
        )
        .map_err(|errno| ReadError::Io(io_kind(errno)))
    }

    /// The two-step open of spec 01 §4.2–§4.3: an `O_PATH` probe that must show a regular
    /// file, then the non-blocking read handle that must be the same inode; the size cap, the
    /// ledger, a bounded read and the after-read identity check.
    fn open_regular(
        &self,
        rel: &RelPath,
        cap: u64,
        ledger: &mut Ledger,
        read_len: u64,
    ) -> Result<Option<Opened>, ReadError> {
        let probe_fd = match self.resolve(rel, OFlags::PATH) {
            Ok(fd) => fd,
            Err(OpenFailure::Absent) => return Ok(None),
            Err(OpenFailure::Error(error)) => return Err(error),
        };
        let probed = fstat(&probe_fd)?;
        match probed.kind() {
            EntryKind::File => {}
            EntryKind::Symlink => return Err(ReadError::Unsafe(UnsafeKind::Symlink)),
            other => return Err(ReadError::NotRegular(other)),
        }
        let read_fd = match self.resolve(rel, OFlags::RDONLY | OFlags::NONBLOCK) {
            Ok(fd) => fd,
            // It existed a moment ago: it was removed or replaced in between.
            Err(OpenFailure::Absent) => return Err(ReadError::Changed),
            Err(OpenFailure::Error(error)) => return Err(error),
        };
        let before = fstat(&read_fd)?;
        if !before.same_object(&probed) || before.kind() != EntryKind::File {
            return Err(ReadError::Changed);
        }
        if before.size > cap {
            return Err(ReadError::TooLarge);
        }
        ledger
            .reserve_file(before.size)
            .map_err(ReadError::Budget)?;

        // Read exactly what fstat promised (or the prefix). A file that grows, shrinks or is
        // rewritten meanwhile changes its size or times, which the after-read fstat compares,
        // so no extra read to probe for end-of-file is needed.
        let wanted = before.size.min(read_len);
        let mut bytes = vec![0u8; usize::try_from(wanted).map_err(|_| ReadError::TooLarge)?];
        let mut file = std::fs::File::from(read_fd);
        let mut filled = 0;
        while filled < bytes.len() {
            match file.read(&mut bytes[filled..]) {
                Ok(0) => return Err(ReadError::Changed),
                Ok(read) => filled += read,
                Err(error) if error.kind() == std::io::ErrorKind::Interrupted => {}
                Err(error) => return Err(ReadError::Io(error.kind())),
            }
        }
        let after = fstat(&file)?;
        if after != before {
            return Err(ReadError::Changed);
        }
        Ok(Some(Opened {
            bytes,
            identity: before,
        }))
    }
}

struct Opened {
    bytes: Vec<u8>,
    identity: Identity,
}

fn fstat(fd: impl AsFd) -> Result<Identity, ReadError> {
    rustix::fs::fstat(fd)
        .map(|stat| Identity::from_stat(&stat))
        .map_err(|errno| ReadError::Io(io_kind(errno)))
}
