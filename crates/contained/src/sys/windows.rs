//! Windows: the reader on NT handles (contract 01 §4.2). The root is opened once by path with
//! `CreateFileW` (`FILE_FLAG_BACKUP_SEMANTICS`, share read, write and delete; a linked root is
//! followed, the one link the reader follows). Every later lookup is **one name** relative to a
//! handle opened contained: `NtCreateFile` with `RootDirectory` = the parent handle and
//! `FILE_OPEN_REPARSE_POINT`, so a final reparse point is opened as itself and never followed,
//! and a multi-component name is never handed to the kernel. After every open the handle's
//! `FileAttributeTagInfo` decides its kind: any reparse point (symbolic link, junction, mount
//! point, cloud placeholder, app-execution alias, WSL link) is a link and refused where a file
//! or directory is needed, and so are devices and files that are offline or recalled from
//! elsewhere on access.
//!
//! Identities come from the open handle (`FileIdInfo`: volume serial and 128-bit file id,
//! falling back to `GetFileInformationByHandle`'s 64-bit index; `FileStandardInfo`: links and
//! size; `FileBasicInfo`: last-write and change times), listings from
//! `GetFileInformationByHandleEx` with `FileIdBothDirectoryInfo` (or `FileFullDirectoryInfo`
//! where a filesystem has no file ids) on a handle of their own. Files are opened for reading
//! with share read, write and delete, so editors and sync clients can still replace them.
//!
//! All `unsafe` code is in [`nt`]; this module is safe.

mod nt;

use std::ffi::{OsStr, OsString};
use std::io;
use std::os::windows::ffi::{OsStrExt, OsStringExt};
use std::os::windows::fs::OpenOptionsExt;
use std::os::windows::io::{AsHandle, BorrowedHandle, OwnedHandle};
use std::path::Path;

use windows_sys::Wdk::Storage::FileSystem::{
    FILE_DIRECTORY_FILE, FILE_NON_DIRECTORY_FILE, FILE_OPEN_REPARSE_POINT, FILE_SEQUENTIAL_ONLY,
    FILE_SYNCHRONOUS_IO_NONALERT,
};
use windows_sys::Win32::Foundation::{
    NTSTATUS, STATUS_DELETE_PENDING, STATUS_FILE_IS_A_DIRECTORY, STATUS_NO_SUCH_FILE,
    STATUS_NOT_A_DIRECTORY, STATUS_OBJECT_NAME_NOT_FOUND, STATUS_OBJECT_PATH_NOT_FOUND,
};
use windows_sys::Win32::Storage::FileSystem::{
    FILE_ATTRIBUTE_DEVICE, FILE_ATTRIBUTE_DIRECTORY, FILE_ATTRIBUTE_OFFLINE,
    FILE_ATTRIBUTE_READONLY, FILE_ATTRIBUTE_RECALL_ON_DATA_ACCESS, FILE_ATTRIBUTE_RECALL_ON_OPEN,
    FILE_ATTRIBUTE_REPARSE_POINT, FILE_ATTRIBUTE_TAG_INFO, FILE_BASIC_INFO,
    FILE_FLAG_BACKUP_SEMANTICS, FILE_FULL_DIR_INFO, FILE_ID_BOTH_DIR_INFO, FILE_ID_INFO,
    FILE_INFO_BY_HANDLE_CLASS, FILE_LIST_DIRECTORY, FILE_READ_ATTRIBUTES, FILE_READ_DATA,
    FILE_SHARE_DELETE, FILE_SHARE_READ, FILE_SHARE_WRITE, FILE_STANDARD_INFO, FILE_TRAVERSE,
    FileFullDirectoryInfo, FileFullDirectoryRestartInfo, FileIdBothDirectoryInfo,
    FileIdBothDirectoryRestartInfo, SYNCHRONIZE,
};

use crate::error::{ReadError, RootError, UnsafeKind};
use crate::found::DirEntry;
use crate::identity::{EntryKind, Identity};
use crate::open::{OpenFailure, Strategy};
use crate::relpath::{RelPath, is_windows_name};

/// An open handle: an NT handle.
pub(crate) type Handle = OwnedHandle;
/// A borrowed handle.
pub(crate) type HandleRef<'a> = BorrowedHandle<'a>;

/// The borrowed form of `handle`.
pub(crate) fn borrow(handle: &Handle) -> HandleRef<'_> {
    handle.as_handle()
}

/// What an open of one name is for: the access it asks and the options it passes.
#[derive(Clone, Copy)]
enum Purpose {
    /// Attributes only: the no-follow "stat" of one name.
    Query,
    /// An intermediate directory of a walk: traversal only.
    Walk,
    /// A directory to list.
    List,
    /// A regular file to read.
    Read,
}

impl Purpose {
    fn access(self) -> u32 {
        let access = match self {
            Purpose::Query => 0,
            Purpose::Walk => FILE_TRAVERSE,
            Purpose::List => FILE_LIST_DIRECTORY | FILE_TRAVERSE,
            Purpose::Read => FILE_READ_DATA,
        };
        access | FILE_READ_ATTRIBUTES | SYNCHRONIZE
    }

    fn options(self) -> u32 {
        let options = match self {
            Purpose::Query => 0,
            Purpose::Walk | Purpose::List => FILE_DIRECTORY_FILE,
            Purpose::Read => FILE_NON_DIRECTORY_FILE | FILE_SEQUENTIAL_ONLY,
        };
        options | FILE_OPEN_REPARSE_POINT | FILE_SYNCHRONOUS_IO_NONALERT
    }
}

/// What a failed `NtCreateFile` means to the reader.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum NtFailure {
    /// Nothing by that name (or the name is being deleted).
    Absent,
    /// A directory was required and this is not one.
    NotDirectory,
    /// A non-directory was required and this is a directory.
    IsDirectory,
    /// Anything else (access denied, sharing violation, I/O error).
    Other(io::ErrorKind),
}

fn classify(status: NTSTATUS) -> NtFailure {
    match status {
        STATUS_OBJECT_NAME_NOT_FOUND
        | STATUS_OBJECT_PATH_NOT_FOUND
        | STATUS_NO_SUCH_FILE
        | STATUS_DELETE_PENDING => NtFailure::Absent,
        STATUS_NOT_A_DIRECTORY => NtFailure::NotDirectory,
        STATUS_FILE_IS_A_DIRECTORY => NtFailure::IsDirectory,
        other => NtFailure::Other(io::Error::from_raw_os_error(nt::dos_error(other) as i32).kind()),
    }
}

/// Opens the one name `name` (already checked: a single Windows name) relative to `dir` for
/// `purpose`, never following a final reparse point.
fn open_name(dir: HandleRef<'_>, name: &OsStr, purpose: Purpose) -> Result<Handle, NtFailure> {
    let units: Vec<u16> = name.encode_wide().collect();
    debug_assert!(is_single_component(name));
    nt::open_relative(dir, &units, purpose.access(), purpose.options()).map_err(classify)
}

fn io_error(error: &io::Error) -> ReadError {
    ReadError::Io(error.kind())
}

/// `CreateFileW(path, FILE_LIST_DIRECTORY | FILE_TRAVERSE | FILE_READ_ATTRIBUTES | SYNCHRONIZE,
/// share read | write | delete, OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS)` through
/// `std::fs::OpenOptions` (which also handles long and `\\?\` paths): the one open by path,
/// which follows a linked root (contract 01 §4.2). The result must be a directory.
#[expect(
    clippy::disallowed_methods,
    reason = "the root is the one path the contained reader opens by name (contract 01 §4.2)"
)]
pub(crate) fn open_root(path: &Path) -> Result<Handle, RootError> {
    let file = std::fs::OpenOptions::new()
        .access_mode(Purpose::List.access())
        .share_mode(FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE)
        .custom_flags(FILE_FLAG_BACKUP_SEMANTICS)
        .open(path)
        .map_err(|error| match error.kind() {
            io::ErrorKind::NotFound => RootError::NotFound,
            io::ErrorKind::NotADirectory => RootError::NotDirectory,
            kind => RootError::Io(kind),
        })?;
    let handle = OwnedHandle::from(file);
    let tag = nt::query::<FILE_ATTRIBUTE_TAG_INFO>(borrow(&handle))
        .map_err(|error| RootError::Io(error.kind()))?;
    if tag.FileAttributes & FILE_ATTRIBUTE_DIRECTORY == 0 {
        return Err(RootError::NotDirectory);
    }
    Ok(handle)
}

/// A fresh listable handle on the directory `dir` itself: `NtCreateFile` with `RootDirectory`
/// = `dir` and an empty name, so the new handle has an enumeration position of its own.
pub(crate) fn reopen_listable(dir: HandleRef<'_>) -> Result<Handle, ReadError> {
    nt::open_relative(dir, &[], Purpose::List.access(), Purpose::List.options()).map_err(|status| {
        match classify(status) {
            NtFailure::Other(kind) => ReadError::Io(kind),
            // The directory a handle is open on was removed or is no directory: a change.
            _ => ReadError::Changed,
        }
    })
}

/// The file attributes that decide what an object is, whatever else it is: a reparse point is
/// a link; a device a device; offline and recall-on-access files are not plain files (reading
/// them would fetch them from elsewhere, or block).
pub(crate) fn kind_of_attributes(attributes: u32) -> EntryKind {
    if attributes & FILE_ATTRIBUTE_REPARSE_POINT != 0 {
        EntryKind::Symlink
    } else if attributes & FILE_ATTRIBUTE_DEVICE != 0 {
        EntryKind::CharDevice
    } else if attributes
        & (FILE_ATTRIBUTE_OFFLINE
            | FILE_ATTRIBUTE_RECALL_ON_OPEN
            | FILE_ATTRIBUTE_RECALL_ON_DATA_ACCESS)
        != 0
    {
        EntryKind::Unknown
    } else if attributes & FILE_ATTRIBUTE_DIRECTORY != 0 {
        EntryKind::Directory
    } else {
        EntryKind::File
    }
}

const S_IFMT: u32 = 0o170_000;
const S_IFREG: u32 = 0o100_000;
const S_IFDIR: u32 = 0o040_000;
const S_IFLNK: u32 = 0o120_000;
const S_IFCHR: u32 = 0o020_000;

/// The `st_mode` a kind and the read-only attribute stand for (see [`Identity`]).
fn mode_of(kind: EntryKind, attributes: u32) -> u32 {
    let kind_bits = match kind {
        EntryKind::File => S_IFREG,
        EntryKind::Directory => S_IFDIR,
        EntryKind::Symlink => S_IFLNK,
        EntryKind::CharDevice => S_IFCHR,
        _ => 0,
    };
    let mut permissions = if attributes & FILE_ATTRIBUTE_READONLY != 0 {
        0o444
    } else {
        0o666
    };
    if kind == EntryKind::Directory {
        permissions |= 0o111;
    }
    kind_bits | permissions
}

/// The kind encoded in a `mode` made by [`mode_of`].
pub(crate) fn kind_of_mode(mode: u32) -> EntryKind {
    match mode & S_IFMT {
        S_IFREG => EntryKind::File,
        S_IFDIR => EntryKind::Directory,
        S_IFLNK => EntryKind::Symlink,
        S_IFCHR => EntryKind::CharDevice,
        _ => EntryKind::Unknown,
    }
}

/// Seconds and nanoseconds since the Unix epoch of an NT time (100 ns units since 1601).
fn unix_time(nt_time: i64) -> (i64, u32) {
    const TICKS_PER_SECOND: i64 = 10_000_000;
    const EPOCH_DIFFERENCE: i64 = 11_644_473_600;
    let seconds = nt_time.div_euclid(TICKS_PER_SECOND) - EPOCH_DIFFERENCE;
    let nanos = nt_time.rem_euclid(TICKS_PER_SECOND) * 100;
    (seconds, u32::try_from(nanos).unwrap_or(0))
}

/// The identity of an open handle (see [`Identity`] for how each field is filled).
pub(crate) fn identity(handle: HandleRef<'_>) -> Result<Identity, ReadError> {
    let tag = nt::query::<FILE_ATTRIBUTE_TAG_INFO>(handle).map_err(|e| io_error(&e))?;
    let basic = nt::query::<FILE_BASIC_INFO>(handle).map_err(|e| io_error(&e))?;
    let standard = nt::query::<FILE_STANDARD_INFO>(handle).map_err(|e| io_error(&e))?;
    let (dev, id) = match nt::query::<FILE_ID_INFO>(handle) {
        Ok(info) => (
            info.VolumeSerialNumber,
            u128::from_le_bytes(info.FileId.Identifier),
        ),
        Err(_) => {
            let info = nt::by_handle(handle).map_err(|e| io_error(&e))?;
            let index = u64::from(info.nFileIndexHigh) << 32 | u64::from(info.nFileIndexLow);
            (u64::from(info.dwVolumeSerialNumber), u128::from(index))
        }
    };
    let kind = kind_of_attributes(tag.FileAttributes);
    let (mtime_sec, mtime_nsec) = unix_time(basic.LastWriteTime);
    let (ctime_sec, ctime_nsec) = unix_time(basic.ChangeTime);
    Ok(Identity {
        dev,
        ino: id as u64,
        ino_high: (id >> 64) as u64,
        mode: mode_of(kind, tag.FileAttributes),
        nlink: u64::from(standard.NumberOfLinks),
        uid: 0,
        size: u64::try_from(standard.EndOfFile).unwrap_or(0),
        mtime_sec,
        mtime_nsec,
        ctime_sec,
        ctime_nsec,
    })
}

/// The identity of an open file.
pub(crate) fn file_identity(file: &std::fs::File) -> Result<Identity, ReadError> {
    identity(file.as_handle())
}

/// The identity of the child `name` of `dir`, without following it: an attributes-only open
/// of that one name with `FILE_OPEN_REPARSE_POINT`, its identity, close. `None` when absent.
pub(crate) fn stat_child(
    dir: HandleRef<'_>,
    name: &OsStr,
    _strategy: Strategy,
) -> Result<Option<Identity>, ReadError> {
    match open_name(dir, name, Purpose::Query) {
        Ok(handle) => identity(borrow(&handle)).map(Some),
        Err(NtFailure::Absent) => Ok(None),
        Err(NtFailure::NotDirectory | NtFailure::IsDirectory) => {
            Err(ReadError::Io(io::ErrorKind::InvalidInput))
        }
        Err(NtFailure::Other(kind)) => Err(ReadError::Io(kind)),
    }
}

/// Whether the child `name` of `dir` is still `identity`; absent is `false`.
pub(crate) fn still_matches(
    dir: HandleRef<'_>,
    name: &OsStr,
    identity: &Identity,
    strategy: Strategy,
) -> Result<bool, ReadError> {
    match stat_child(dir, name, strategy) {
        Ok(now) => Ok(now.as_ref() == Some(identity)),
        Err(error) => Err(error),
    }
}

/// [`still_matches`] for a full relative path: the walk to its parent, one name at a time
/// (Windows never resolves more than one name per call), then the last name. An ancestor that
/// is absent, a link or no directory means the object is not the one observed: `false`.
pub(crate) fn still_matches_path(
    root: HandleRef<'_>,
    rel: &RelPath,
    identity: &Identity,
    strategy: Strategy,
) -> Result<bool, ReadError> {
    let parent = match rel.parent() {
        None => None,
        Some(parent) => match open_directory(root, parent, strategy) {
            Ok(handle) => Some(handle),
            Err(OpenFailure::Absent | OpenFailure::Error(ReadError::Unsafe(_))) => {
                return Ok(false);
            }
            Err(OpenFailure::Error(error)) => return Err(error),
        },
    };
    let dir = parent.as_ref().map_or(root, borrow);
    still_matches(dir, OsStr::new(rel.file_name()), identity, strategy)
}

/// Opens the child directory `name` of `dir` as `purpose` says, refusing a reparse point and
/// anything that is not a directory, telling which it was.
fn open_directory_name(
    dir: HandleRef<'_>,
    name: &OsStr,
    purpose: Purpose,
) -> Result<Handle, OpenFailure> {
    match open_name(dir, name, purpose) {
        Ok(handle) => {
            let tag = nt::query::<FILE_ATTRIBUTE_TAG_INFO>(borrow(&handle))
                .map_err(|error| OpenFailure::Error(io_error(&error)))?;
            match kind_of_attributes(tag.FileAttributes) {
                EntryKind::Directory => Ok(handle),
                EntryKind::Symlink => Err(ReadError::Unsafe(UnsafeKind::Symlink).into()),
                _ => Err(ReadError::Unsafe(UnsafeKind::NotDirectory).into()),
            }
        }
        Err(NtFailure::Absent) => Err(OpenFailure::Absent),
        // A file, or a link to a file (a reparse point that is no directory): look at the
        // entry itself to say which.
        Err(NtFailure::NotDirectory) => Err(match stat_child(dir, name, Strategy::Auto) {
            Ok(Some(found)) if found.kind() == EntryKind::Symlink => {
                ReadError::Unsafe(UnsafeKind::Symlink).into()
            }
            _ => ReadError::Unsafe(UnsafeKind::NotDirectory).into(),
        }),
        Err(NtFailure::IsDirectory) => Err(ReadError::Unsafe(UnsafeKind::NotDirectory).into()),
        Err(NtFailure::Other(kind)) => Err(ReadError::Io(kind).into()),
    }
}

/// Opens the child directory `name` of `dir` for listing; a reparse point or a non-directory
/// is refused as unsafe.
pub(crate) fn open_dir(dir: HandleRef<'_>, name: &OsStr) -> Result<Handle, OpenFailure> {
    open_directory_name(dir, name, Purpose::List)
}

/// Opens the directory `rel` (a `/`-separated path of checked names) beneath `root`: one
/// `NtCreateFile` per component, each relative to the handle of the one before. Every strategy
/// is this walk on Windows.
pub(crate) fn open_directory(
    root: HandleRef<'_>,
    rel: &str,
    _strategy: Strategy,
) -> Result<Handle, OpenFailure> {
    let mut current: Option<Handle> = None;
    for name in rel.split('/') {
        let dir = current.as_ref().map_or(root, borrow);
        current = Some(open_directory_name(dir, OsStr::new(name), Purpose::Walk)?);
    }
    current.ok_or(OpenFailure::Error(ReadError::Unsafe(UnsafeKind::Escape)))
}

/// Opens the child `name` of `dir`, a moment ago a regular file, for reading (share read,
/// write and delete; `FILE_NON_DIRECTORY_FILE | FILE_OPEN_REPARSE_POINT`). Removed, or
/// replaced by a directory since, is [`ReadError::Changed`]; replaced by a link, its identity
/// (a link's mode) differs from the file's, which the caller compares.
pub(crate) fn open_file(dir: HandleRef<'_>, name: &OsStr) -> Result<Handle, ReadError> {
    match open_name(dir, name, Purpose::Read) {
        Ok(handle) => Ok(handle),
        Err(NtFailure::Absent | NtFailure::NotDirectory | NtFailure::IsDirectory) => {
            Err(ReadError::Changed)
        }
        Err(NtFailure::Other(kind)) => Err(ReadError::Io(kind)),
    }
}

/// The layout of one directory information class: the byte offsets of the fields the listing
/// reads, each taken from the `windows-sys` struct.
struct DirectoryClass {
    restart: FILE_INFO_BY_HANDLE_CLASS,
    next: FILE_INFO_BY_HANDLE_CLASS,
    attributes: usize,
    name_length: usize,
    name: usize,
}

const ID_BOTH: DirectoryClass = DirectoryClass {
    restart: FileIdBothDirectoryRestartInfo,
    next: FileIdBothDirectoryInfo,
    attributes: std::mem::offset_of!(FILE_ID_BOTH_DIR_INFO, FileAttributes),
    name_length: std::mem::offset_of!(FILE_ID_BOTH_DIR_INFO, FileNameLength),
    name: std::mem::offset_of!(FILE_ID_BOTH_DIR_INFO, FileName),
};

const FULL: DirectoryClass = DirectoryClass {
    restart: FileFullDirectoryRestartInfo,
    next: FileFullDirectoryInfo,
    attributes: std::mem::offset_of!(FILE_FULL_DIR_INFO, FileAttributes),
    name_length: std::mem::offset_of!(FILE_FULL_DIR_INFO, FileNameLength),
    name: std::mem::offset_of!(FILE_FULL_DIR_INFO, FileName),
};

/// Bytes of one enumeration batch (the size `FindFirstFileEx` with a large fetch uses).
const BATCH_WORDS: usize = 64 * 1024 / 8;

/// The entries of the directory open as `dir` (never `.` or `..`), in the filesystem's order.
/// `admit` is called before each entry is taken and stops the listing with its error. The
/// enumeration runs on a handle of its own, so listings of one handle never share a position;
/// at most one batch of entries beyond what `admit` allowed is ever held.
pub(crate) fn list(
    dir: HandleRef<'_>,
    mut admit: impl FnMut() -> Result<(), ReadError>,
) -> Result<Vec<DirEntry>, ReadError> {
    let own = reopen_listable(dir)?;
    let mut class = &ID_BOTH;
    let mut words = vec![0u64; BATCH_WORDS];
    let mut bytes = Vec::with_capacity(BATCH_WORDS * 8);
    let mut entries = Vec::new();
    let mut first = true;
    loop {
        let which = if first { class.restart } else { class.next };
        match nt::directory_batch(borrow(&own), which, &mut words) {
            Ok(true) => {}
            Ok(false) => break,
            // A filesystem without file ids (some network redirectors) lists with the class
            // that has none.
            Err(error) if first && std::ptr::eq(class, &ID_BOTH) && no_such_class(&error) => {
                class = &FULL;
                continue;
            }
            Err(error) => return Err(io_error(&error)),
        }
        first = false;
        bytes.clear();
        bytes.extend(words.iter().flat_map(|word| word.to_ne_bytes()));
        let mut offset = 0usize;
        loop {
            let next = read_u32(&bytes, offset)? as usize;
            let attributes = read_u32(&bytes, offset + class.attributes)?;
            let length = read_u32(&bytes, offset + class.name_length)? as usize;
            let start = offset + class.name;
            let name_bytes = bytes
                .get(start..start + length)
                .ok_or(ReadError::Io(io::ErrorKind::InvalidData))?;
            let units: Vec<u16> = name_bytes
                .chunks_exact(2)
                .map(|pair| u16::from_ne_bytes([pair[0], pair[1]]))
                .collect();
            if units != [u16::from(b'.')] && units != [u16::from(b'.'), u16::from(b'.')] {
                admit()?;
                entries.push(DirEntry {
                    name: OsString::from_wide(&units),
                    kind: kind_of_attributes(attributes),
                });
            }
            if next == 0 {
                break;
            }
            offset += next;
        }
    }
    Ok(entries)
}

fn no_such_class(error: &io::Error) -> bool {
    const ERROR_INVALID_FUNCTION: i32 = 1;
    const ERROR_NOT_SUPPORTED: i32 = 50;
    const ERROR_INVALID_PARAMETER: i32 = 87;
    const ERROR_INVALID_LEVEL: i32 = 124;
    matches!(
        error.raw_os_error(),
        Some(
            ERROR_INVALID_FUNCTION
                | ERROR_NOT_SUPPORTED
                | ERROR_INVALID_PARAMETER
                | ERROR_INVALID_LEVEL
        )
    )
}

fn read_u32(bytes: &[u8], offset: usize) -> Result<u32, ReadError> {
    bytes
        .get(offset..offset + 4)
        .and_then(|slice| <[u8; 4]>::try_from(slice).ok())
        .map(u32::from_ne_bytes)
        .ok_or(ReadError::Io(io::ErrorKind::InvalidData))
}

/// `name` piece by piece ([`crate::NamePiece`]): a name is UTF-16 units here, which a listing
/// keeps as they are (`OsString::from_wide`), so a surrogate without its pair is handed back as
/// that unit.
pub(crate) fn name_pieces(name: &OsStr, mut each: impl FnMut(crate::NamePiece)) {
    for decoded in char::decode_utf16(name.encode_wide()) {
        match decoded {
            Ok(c) => each(crate::NamePiece::Char(c)),
            Err(unpaired) => each(crate::NamePiece::Unit(unpaired.unpaired_surrogate())),
        }
    }
}

/// Whether `name` is one normal component on Windows: valid as a single name (no `/`, `\`,
/// NUL, not `.` or `..`) and a Windows name ([`is_windows_name`]: no reserved or control
/// character, no trailing dot or space, no DOS device, at most 255 UTF-16 units).
pub(crate) fn is_single_component(name: &OsStr) -> bool {
    let units: Vec<u16> = name.encode_wide().collect();
    is_windows_name(&units)
}

#[cfg(test)]
mod tests {
    use super::*;
    use windows_sys::Win32::Storage::FileSystem::{
        FILE_ATTRIBUTE_ARCHIVE, FILE_ATTRIBUTE_HIDDEN, FILE_ATTRIBUTE_NORMAL,
    };

    /// A reparse point is a link whatever else it is (a junction is also a directory, a cloud
    /// placeholder also offline); then devices; then offline and recall-on-access files.
    #[test]
    fn attributes_decide_the_kind_in_order() {
        let cases = [
            (FILE_ATTRIBUTE_NORMAL, EntryKind::File),
            (
                FILE_ATTRIBUTE_ARCHIVE | FILE_ATTRIBUTE_HIDDEN,
                EntryKind::File,
            ),
            (FILE_ATTRIBUTE_DIRECTORY, EntryKind::Directory),
            (FILE_ATTRIBUTE_REPARSE_POINT, EntryKind::Symlink),
            (
                FILE_ATTRIBUTE_REPARSE_POINT | FILE_ATTRIBUTE_DIRECTORY,
                EntryKind::Symlink,
            ),
            (
                FILE_ATTRIBUTE_REPARSE_POINT | FILE_ATTRIBUTE_RECALL_ON_DATA_ACCESS,
                EntryKind::Symlink,
            ),
            (FILE_ATTRIBUTE_DEVICE, EntryKind::CharDevice),
            (FILE_ATTRIBUTE_OFFLINE, EntryKind::Unknown),
            (FILE_ATTRIBUTE_RECALL_ON_OPEN, EntryKind::Unknown),
            (
                FILE_ATTRIBUTE_RECALL_ON_DATA_ACCESS | FILE_ATTRIBUTE_DIRECTORY,
                EntryKind::Unknown,
            ),
        ];
        for (attributes, kind) in cases {
            assert_eq!(kind_of_attributes(attributes), kind, "{attributes:#x}");
            // The mode made from the kind says the same kind back.
            assert_eq!(
                kind_of_mode(mode_of(kind, attributes)),
                kind,
                "{attributes:#x}"
            );
        }
    }

    #[test]
    fn modes_follow_the_c_runtime() {
        assert_eq!(mode_of(EntryKind::File, 0), 0o100_666);
        assert_eq!(mode_of(EntryKind::File, FILE_ATTRIBUTE_READONLY), 0o100_444);
        assert_eq!(
            mode_of(EntryKind::Directory, FILE_ATTRIBUTE_DIRECTORY),
            0o040_777
        );
        assert_eq!(
            mode_of(EntryKind::Symlink, FILE_ATTRIBUTE_REPARSE_POINT) & S_IFMT,
            S_IFLNK
        );
    }

    #[test]
    fn nt_times_become_unix_times() {
        // 1970-01-01T00:00:00Z in 100 ns units since 1601.
        assert_eq!(unix_time(116_444_736_000_000_000), (0, 0));
        assert_eq!(unix_time(116_444_736_000_000_001), (0, 100));
        assert_eq!(unix_time(116_444_736_010_000_000), (1, 0));
        // Before the Unix epoch the nanoseconds stay positive.
        assert_eq!(unix_time(116_444_735_999_999_999), (-1, 999_999_900));
        assert_eq!(unix_time(0), (-11_644_473_600, 0));
    }

    /// A directory listing entry is read from the batch by the offsets of the `windows-sys`
    /// structs; a corrupt offset is an error, never a read outside the batch.
    #[test]
    fn listing_offsets_are_bounds_checked() {
        assert_eq!(read_u32(&[1, 0, 0, 0], 0), Ok(1));
        assert_eq!(
            read_u32(&[1, 0, 0], 0),
            Err(ReadError::Io(io::ErrorKind::InvalidData))
        );
        assert_eq!(
            read_u32(&[0; 8], 6),
            Err(ReadError::Io(io::ErrorKind::InvalidData))
        );
        // The layouts Microsoft documents for the two classes.
        let layout = |class: &DirectoryClass| (class.attributes, class.name_length, class.name);
        assert_eq!(layout(&ID_BOTH), (56, 60, 104));
        assert_eq!(layout(&FULL), (56, 60, 68));
    }
}
