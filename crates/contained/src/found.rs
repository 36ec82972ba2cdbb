//! What the reader hands back: a file's text, bytes or prefix with the identity it had from
//! before to after the read, a directory listing, and a no-follow probe. Plain values, shared
//! by the walk-relative [`crate::Dir`] and the full-path [`crate::Root`] APIs.
//!
//! It owns no handle and does no I/O; [`decode`] is the one strict UTF-8 decoding of a read,
//! and [`name_pieces`] the one lossless reading of a listed name that is not UTF-8 (its
//! platform part is the seam's, `sys`).

use std::ffi::{OsStr, OsString};

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

/// One piece of a listed name, in order, as [`name_pieces`] reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NamePiece {
    /// A character the name holds.
    Char(char),
    /// A byte that is no part of a valid UTF-8 sequence (Unix, where a name is bytes).
    Byte(u8),
    /// A UTF-16 surrogate without its pair (Windows, where a name is UTF-16 units).
    Unit(u16),
}

/// Reads `name` piece by piece, losing nothing: valid text as characters, and what is not text
/// as the platform holds it (a byte on Unix, an unpaired surrogate on Windows), so a caller can
/// show a name that is not UTF-8 without guessing an encoding. Linear in the name's length.
pub fn name_pieces(name: &OsStr, each: impl FnMut(NamePiece)) {
    crate::sys::name_pieces(name, each);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn pieces(name: &OsStr) -> Vec<NamePiece> {
        let mut out = Vec::new();
        name_pieces(name, |piece| out.push(piece));
        out
    }

    #[test]
    fn a_text_name_is_its_characters() {
        assert_eq!(
            pieces(OsStr::new("é.md")),
            [
                NamePiece::Char('é'),
                NamePiece::Char('.'),
                NamePiece::Char('m'),
                NamePiece::Char('d')
            ]
        );
    }

    #[cfg(unix)]
    #[test]
    fn bytes_that_are_not_utf8_come_back_one_by_one() {
        use std::os::unix::ffi::OsStrExt;
        // Latin-1 `é`, then a UTF-8 sequence cut after its lead byte, then text again.
        let name = OsStr::from_bytes(b"caf\xe9\xc3x");
        assert_eq!(
            pieces(name),
            [
                NamePiece::Char('c'),
                NamePiece::Char('a'),
                NamePiece::Char('f'),
                NamePiece::Byte(0xE9),
                NamePiece::Byte(0xC3),
                NamePiece::Char('x')
            ]
        );
    }

    #[cfg(windows)]
    #[test]
    fn an_unpaired_surrogate_comes_back_as_its_unit() {
        use std::os::windows::ffi::OsStringExt;
        let name = OsString::from_wide(&[u16::from(b'a'), 0xD800, 0xD83D, 0xDE00]);
        assert_eq!(
            pieces(&name),
            [
                NamePiece::Char('a'),
                NamePiece::Unit(0xD800),
                NamePiece::Char('\u{1F600}')
            ]
        );
    }
}
