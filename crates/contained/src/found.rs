//! What the reader hands back: a file's text, bytes or prefix with the identity it had from
//! before to after the read, a directory listing, and a no-follow probe. Plain values, shared
//! by the walk-relative [`crate::Dir`] and the full-path [`crate::Root`] APIs.
//!
//! It owns no handle and does no I/O; [`decode`] is the one strict UTF-8 decoding of a read.

use std::ffi::OsString;

use crate::error::ReadError;
use crate::identity::{EntryKind, Identity};

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

/// Decodes a whole-file read as strict UTF-8 (contract 03 §4.7); `None` stays `None`.
pub(crate) fn decode(file: Option<FileBytes>) -> Result<Option<FileText>, ReadError> {
    let Some(file) = file else {
        return Ok(None);
    };
    let text = String::from_utf8(file.bytes).map_err(|_| ReadError::InvalidUtf8)?;
    Ok(Some(FileText {
        text,
        identity: file.identity,
    }))
}
