//! Atomic, no-follow creation and replacement of files and directories relative to an open
//! directory handle: the one primitive through which every writer (`init`, `migrate`,
//! `connect`) puts bytes on disk.
//!
//! What a caller can rely on:
//! - **Handles, not paths.** A [`Dir`] is opened once from a path ([`Dir::open`], which may
//!   follow a symlinked directory: that is the caller's chosen root). Every later operation
//!   takes a single name component (no `/`, not `.` or `..`, not empty) and resolves it
//!   relative to the handle. Nothing below a handle is ever reached through a symbolic link:
//!   directories are opened with `O_DIRECTORY | O_NOFOLLOW`, files are created with
//!   `O_CREAT | O_EXCL | O_NOFOLLOW`, and renames and links never follow their last component.
//! - **All or nothing.** File bytes are written to a temporary file in the same directory
//!   (`.<name>.<pid>.<64 random bits>.tmp`, created exclusively), flushed with `fsync`, and only
//!   then moved to the final name in one step. A reader sees either no file (or the old one)
//!   or the complete new bytes, never a prefix. On any failure the temporary file is removed.
//! - **Durable on success.** After the final name is in place the directory handle is
//!   `fsync`ed, so the entry survives a crash; [`Dir::ensure_dir`] does the same for a new
//!   directory.
//! - **Exclusive creation never replaces.** [`Dir::create_file`] moves the temporary file into
//!   place with `renameat2(RENAME_NOREPLACE)` (or, where the filesystem does not support it,
//!   `linkat` then `unlinkat`), so an existing entry of any kind — file, directory, symlink —
//!   makes it fail with [`WriteError::Exists`] and stay untouched, even if that entry appeared
//!   after the caller looked.
//! - **Replacement only of regular files.** [`Dir::replace_file`] refuses an existing symlink,
//!   directory or special file; a symlink is refused, never followed, and its target is not
//!   touched.
//! - **Modes.** [`FileMode::Umask`] asks for permission bits that the process umask then
//!   narrows (what `init` wants); [`FileMode::Exact`] sets the bits with `fchmod` after
//!   creation so the umask cannot interfere (what `migrate` and `connect` want).
//!
//! The calls named above are the Unix backend of [`crate::sys`]; on Windows the same rules hold
//! through its Windows backend: children opened with `FILE_FLAG_OPEN_REPARSE_POINT` and every
//! reparse point refused as a link, `CREATE_NEW` for exclusive creation, `MoveFileExW` for the
//! replacing rename and a hard link for the exclusive one, retried while a scanner holds the
//! file; no mode is applied and no directory is flushed there (`docs/decisions.md`, "Writers,
//! launcher and client configurations on Windows").
//!
//! What it must never do: follow a link below a handle, accept a multi-component name, or
//! resolve an absolute path after [`Dir::open`]. It reads nothing back; reads below an AIOS
//! root go through `dotaios-contained`. A crash between the temporary write and the final
//! rename can leave a hidden `.tmp` file behind; it is never mistaken for the real one.

use std::collections::hash_map::RandomState;
use std::ffi::{OsStr, OsString};
use std::hash::{BuildHasher, Hasher};
use std::path::Path;

use crate::sys::{self, DirHandle, FileKind, OpenedDir};

/// How a new file's permission bits are chosen. On Windows neither variant changes anything:
/// the file gets the ACL its directory passes on (`docs/decisions.md`, "Writers, launcher and client configurations on Windows").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FileMode {
    /// These bits, narrowed by the process umask (`0o644` gives `0644` under umask `022`).
    Umask(u32),
    /// Exactly these bits (`& 0o777`), whatever the umask.
    Exact(u32),
}

/// What a name below a directory handle currently is, seen without following it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum EntryKind {
    /// Nothing has this name.
    Absent,
    /// A regular file.
    File,
    /// A real directory.
    Directory,
    /// A symbolic link, whatever it points to (on Windows also a junction).
    Symlink,
    /// A FIFO, socket or device (on Windows also a reparse point that is not a link).
    Special,
}

impl From<FileKind> for EntryKind {
    fn from(kind: FileKind) -> EntryKind {
        match kind {
            FileKind::File => EntryKind::File,
            FileKind::Directory => EntryKind::Directory,
            FileKind::Symlink => EntryKind::Symlink,
            FileKind::Special => EntryKind::Special,
        }
    }
}

/// Why a write was refused or failed. Carries no path: the caller knows which name it asked
/// for and words the message.
#[derive(Debug, thiserror::Error)]
pub(crate) enum WriteError {
    /// The name is empty, `.`, `..`, or contains a separator or NUL.
    #[error("not a single path component")]
    InvalidName,
    /// Exclusive creation found an existing entry with this name.
    #[error("already exists")]
    Exists,
    /// The entry is a symbolic link; it was not followed.
    #[error("is a symbolic link")]
    Symlink,
    /// A directory was needed and the entry is something else.
    #[error("is not a directory")]
    NotDirectory,
    /// A regular file was needed (to replace) and the entry is something else.
    #[error("is not a regular file")]
    NotRegular,
    /// [`Dir::replace_file_if`]: the caller's last-moment check found the target changed.
    #[error("changed since it was read")]
    Changed,
    /// Any other operating-system failure.
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// An open directory handle that every operation is relative to.
#[derive(Debug)]
pub(crate) struct Dir {
    handle: DirHandle,
}

impl Dir {
    /// Opens the directory at `path`. A symlink at `path` itself (or in its ancestors) is
    /// followed: this is where a caller chooses its root. Nothing after this takes a path.
    pub(crate) fn open(path: &Path) -> Result<Dir, WriteError> {
        match sys::open_dir_path(path) {
            Ok(handle) => Ok(Dir { handle }),
            Err(error) if error.kind() == std::io::ErrorKind::NotADirectory => {
                Err(WriteError::NotDirectory)
            }
            Err(error) => Err(error.into()),
        }
    }

    /// The platform handle, for the operations of [`crate::sys`] that other writers need.
    pub(crate) fn handle(&self) -> &DirHandle {
        &self.handle
    }

    /// What `name` is, without following it.
    pub(crate) fn kind(&self, name: &OsStr) -> Result<EntryKind, WriteError> {
        let name = checked_name(name)?;
        Ok(sys::stat_at(&self.handle, name)?.map_or(EntryKind::Absent, |meta| meta.kind.into()))
    }

    /// Opens the existing directory `name` without following a link. `None` when absent.
    pub(crate) fn open_dir(&self, name: &OsStr) -> Result<Option<Dir>, WriteError> {
        let name = checked_name(name)?;
        match sys::open_dir_at(&self.handle, name)? {
            OpenedDir::Dir(handle) => Ok(Some(Dir { handle })),
            OpenedDir::Absent => Ok(None),
            OpenedDir::Link => Err(WriteError::Symlink),
            OpenedDir::NotDirectory => Err(WriteError::NotDirectory),
        }
    }

    /// Makes sure `name` is a real directory below this handle, creating it (mode `0o777`
    /// narrowed by the umask) when absent, and opens it. Returns whether it was created. An
    /// existing symlink or non-directory is refused.
    pub(crate) fn ensure_dir(&self, name: &OsStr) -> Result<(Dir, bool), WriteError> {
        let name = checked_name(name)?;
        let created = match sys::make_dir_at(&self.handle, name) {
            Ok(()) => true,
            Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => false,
            Err(error) => return Err(error.into()),
        };
        if created {
            self.sync()?;
        }
        match self.open_dir(name)? {
            Some(dir) => Ok((dir, created)),
            // Removed between mkdir and open: report it rather than retry forever.
            None => Err(WriteError::Io(std::io::ErrorKind::NotFound.into())),
        }
    }

    /// Creates the file `name` with `bytes`, atomically and exclusively: if anything already
    /// has this name (file, directory, symlink), fails with [`WriteError::Exists`] and changes
    /// nothing.
    pub(crate) fn create_file(
        &self,
        name: &OsStr,
        bytes: &[u8],
        mode: FileMode,
    ) -> Result<(), WriteError> {
        let name = checked_name(name)?;
        let temp = self.write_temp(name, bytes, mode)?;
        let placed = match sys::rename_no_replace_at(&self.handle, &temp, name) {
            Ok(()) => Ok(()),
            Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => {
                Err(WriteError::Exists)
            }
            Err(error) => Err(error.into()),
        };
        self.finish(&temp, placed)
    }

    /// Writes `bytes` to `name` atomically, replacing an existing regular file or creating the
    /// file when absent. An existing symlink, directory or special file is refused and left
    /// alone.
    pub(crate) fn replace_file(
        &self,
        name: &OsStr,
        bytes: &[u8],
        mode: FileMode,
    ) -> Result<(), WriteError> {
        self.replace_file_if(name, bytes, mode, |_, _| Ok(true))
    }

    /// [`Dir::replace_file`], with `unchanged(self, name)` called after the temporary file is
    /// written and just before the rename: when it answers `false` (the caller sees the target
    /// differ from what it read), the temporary file is removed, the target is left alone and
    /// the result is [`WriteError::Changed`]. Used by `connect` to refuse a concurrent edit.
    pub(crate) fn replace_file_if(
        &self,
        name: &OsStr,
        bytes: &[u8],
        mode: FileMode,
        unchanged: impl FnOnce(&Dir, &OsStr) -> Result<bool, WriteError>,
    ) -> Result<(), WriteError> {
        let name = checked_name(name)?;
        refuse_unless_replaceable(self.kind(name)?)?;
        let temp = self.write_temp(name, bytes, mode)?;
        // Look again just before the rename: a link planted meanwhile is still refused. (A
        // link planted after this check is replaced as a name by the rename, which never
        // follows it, so its target stays untouched either way.)
        let placed = self
            .kind(name)
            .and_then(refuse_unless_replaceable)
            .and_then(|()| match unchanged(self, name)? {
                true => Ok(()),
                false => Err(WriteError::Changed),
            })
            .and_then(|()| {
                sys::rename_at(&self.handle, &temp, &self.handle, name).map_err(WriteError::from)
            });
        self.finish(&temp, placed)
    }

    /// Flushes this directory's entries to disk (a no-op on Windows, `crate::sys`).
    pub(crate) fn sync(&self) -> Result<(), WriteError> {
        sys::sync_dir(&self.handle).map_err(WriteError::from)
    }

    /// Creates, fills and flushes a temporary file next to `name`; returns its name.
    fn write_temp(
        &self,
        name: &OsStr,
        bytes: &[u8],
        mode: FileMode,
    ) -> Result<OsString, WriteError> {
        let (requested, exact) = match mode {
            FileMode::Umask(bits) => (bits & 0o777, None),
            FileMode::Exact(bits) => (bits & 0o777, Some(bits & 0o777)),
        };
        let mut attempts = 0;
        let (temp, mut file) = loop {
            let temp = temp_name(name);
            match sys::create_new_at(&self.handle, &temp, requested) {
                Ok(file) => break (temp, file),
                // 64 random bits collide only if someone plants names on purpose; try a few.
                Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists && attempts < 8 => {
                    attempts += 1;
                }
                Err(error) => return Err(error.into()),
            }
        };
        let filled = sys::fill(&mut file, bytes, exact, None);
        drop(file);
        match filled {
            Ok(()) => Ok(temp),
            Err(error) => {
                let _ = sys::remove_file_at(&self.handle, &temp);
                Err(error.into())
            }
        }
    }

    /// Removes the temporary name if it is still there and, on success, makes the new entry
    /// durable.
    fn finish(&self, temp: &OsStr, placed: Result<(), WriteError>) -> Result<(), WriteError> {
        match placed {
            Ok(()) => self.sync(),
            Err(error) => {
                let _ = sys::remove_file_at(&self.handle, temp);
                Err(error)
            }
        }
    }
}

fn refuse_unless_replaceable(kind: EntryKind) -> Result<(), WriteError> {
    match kind {
        EntryKind::Absent | EntryKind::File => Ok(()),
        EntryKind::Symlink => Err(WriteError::Symlink),
        EntryKind::Directory | EntryKind::Special => Err(WriteError::NotRegular),
    }
}

/// One name component: not empty, `.` or `..`, and free of NUL and of every separator of the
/// platform (`/`). On Windows also free of `\`, the characters Windows reserves
/// (`: * ? " < > |`, where `:` would name a drive or an alternate data stream), control
/// characters, and a trailing dot or space (which Windows strips, so the name would not be
/// the one asked for).
fn checked_name(name: &OsStr) -> Result<&OsStr, WriteError> {
    let bytes = name.as_encoded_bytes();
    if bytes.is_empty() || bytes == b"." || bytes == b".." || bytes.contains(&b'/') {
        return Err(WriteError::InvalidName);
    }
    if bytes.contains(&0) {
        return Err(WriteError::InvalidName);
    }
    if cfg!(windows) && !is_windows_name(bytes) {
        return Err(WriteError::InvalidName);
    }
    Ok(name)
}

/// The Windows rules of [`checked_name`] on a name's bytes (checked on every platform by the
/// unit tests, applied on Windows).
fn is_windows_name(bytes: &[u8]) -> bool {
    !bytes
        .iter()
        .any(|byte| *byte < 0x20 || b"\\:*?\"<>|".contains(byte))
        && !bytes.ends_with(b".")
        && !bytes.ends_with(b" ")
}

/// `.<name>.<pid>.<16 hex digits>.tmp`. The random part comes from the standard library's
/// per-process random hash keys, which are seeded from the operating system; uniqueness is
/// enforced by exclusive creation anyway, so the randomness only has to make collisions
/// unlikely.
fn temp_name(name: &OsStr) -> OsString {
    let mut hasher = RandomState::new().build_hasher();
    hasher.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |elapsed| elapsed.as_nanos()),
    );
    let random = hasher.finish();
    let mut temp = OsString::with_capacity(name.len() + 40);
    temp.push(".");
    temp.push(name);
    temp.push(format!(".{}.{random:016x}.tmp", std::process::id()));
    temp
}

#[cfg(test)]
mod tests {
    #[cfg(unix)]
    use std::os::unix::fs::{PermissionsExt, symlink};

    use super::*;

    fn os(name: &str) -> &OsStr {
        OsStr::new(name)
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn create_file_writes_bytes_and_leaves_no_temporary() {
        let temp = tempfile::tempdir().unwrap();
        let dir = Dir::open(temp.path()).unwrap();
        dir.create_file(os("a.md"), b"hello\n", FileMode::Umask(0o644))
            .unwrap();
        assert_eq!(std::fs::read(temp.path().join("a.md")).unwrap(), b"hello\n");
        assert_eq!(names(temp.path()), ["a.md"]);
    }

    // Links and mode bits: Unix only (Windows cannot create links unprivileged).
    #[cfg(unix)]
    #[test]
    fn create_file_never_replaces_any_existing_entry() {
        let temp = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let target = outside.path().join("target.txt");
        std::fs::write(&target, b"outside").unwrap();
        std::fs::write(temp.path().join("file"), b"old").unwrap();
        std::fs::create_dir(temp.path().join("dir")).unwrap();
        symlink(&target, temp.path().join("link")).unwrap();
        symlink(outside.path().join("missing"), temp.path().join("dangling")).unwrap();
        let dir = Dir::open(temp.path()).unwrap();
        for name in ["file", "dir", "link", "dangling"] {
            let error = dir
                .create_file(os(name), b"new", FileMode::Umask(0o644))
                .unwrap_err();
            assert!(matches!(error, WriteError::Exists), "{name}: {error:?}");
        }
        assert_eq!(std::fs::read(temp.path().join("file")).unwrap(), b"old");
        assert_eq!(std::fs::read(&target).unwrap(), b"outside");
        assert!(!outside.path().join("missing").exists());
        assert_eq!(names(temp.path()), ["dangling", "dir", "file", "link"]);
    }

    // Links and mode bits: Unix only (Windows cannot create links unprivileged).
    #[cfg(unix)]
    #[test]
    fn replace_file_replaces_regular_files_and_refuses_links() {
        let temp = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let target = outside.path().join("target.txt");
        std::fs::write(&target, b"outside").unwrap();
        std::fs::write(temp.path().join("file"), b"old").unwrap();
        symlink(&target, temp.path().join("link")).unwrap();
        std::fs::create_dir(temp.path().join("dir")).unwrap();
        let dir = Dir::open(temp.path()).unwrap();
        dir.replace_file(os("file"), b"new", FileMode::Umask(0o644))
            .unwrap();
        dir.replace_file(os("fresh"), b"made", FileMode::Umask(0o644))
            .unwrap();
        assert!(matches!(
            dir.replace_file(os("link"), b"x", FileMode::Umask(0o644)),
            Err(WriteError::Symlink)
        ));
        assert!(matches!(
            dir.replace_file(os("dir"), b"x", FileMode::Umask(0o644)),
            Err(WriteError::NotRegular)
        ));
        assert_eq!(std::fs::read(temp.path().join("file")).unwrap(), b"new");
        assert_eq!(std::fs::read(temp.path().join("fresh")).unwrap(), b"made");
        assert_eq!(std::fs::read(&target).unwrap(), b"outside");
        assert_eq!(names(temp.path()), ["dir", "file", "fresh", "link"]);
    }

    #[test]
    fn replace_file_if_leaves_the_target_alone_when_the_check_fails() {
        let temp = tempfile::tempdir().unwrap();
        std::fs::write(temp.path().join("file"), b"old").unwrap();
        let dir = Dir::open(temp.path()).unwrap();
        let refused =
            dir.replace_file_if(os("file"), b"new", FileMode::Exact(0o600), |_, _| Ok(false));
        assert!(matches!(refused, Err(WriteError::Changed)));
        assert_eq!(std::fs::read(temp.path().join("file")).unwrap(), b"old");
        assert_eq!(names(temp.path()), ["file"]);
        dir.replace_file_if(os("file"), b"new", FileMode::Exact(0o600), |_, name| {
            Ok(name == "file")
        })
        .unwrap();
        assert_eq!(std::fs::read(temp.path().join("file")).unwrap(), b"new");
    }

    // Links and mode bits: Unix only (Windows cannot create links unprivileged).
    #[cfg(unix)]
    #[test]
    fn exact_mode_ignores_the_umask() {
        let temp = tempfile::tempdir().unwrap();
        let dir = Dir::open(temp.path()).unwrap();
        dir.create_file(os("secret"), b"x", FileMode::Exact(0o600))
            .unwrap();
        dir.create_file(os("wide"), b"x", FileMode::Exact(0o664))
            .unwrap();
        let mode = |name: &str| {
            std::fs::metadata(temp.path().join(name))
                .unwrap()
                .permissions()
                .mode()
                & 0o777
        };
        assert_eq!(mode("secret"), 0o600);
        assert_eq!(mode("wide"), 0o664);
    }

    // Links and mode bits: Unix only (Windows cannot create links unprivileged).
    #[cfg(unix)]
    #[test]
    fn ensure_dir_creates_once_and_refuses_links_and_files() {
        let temp = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        symlink(outside.path(), temp.path().join("link")).unwrap();
        std::fs::write(temp.path().join("file"), b"").unwrap();
        let dir = Dir::open(temp.path()).unwrap();
        let (made, created) = dir.ensure_dir(os("made")).unwrap();
        assert!(created);
        let (_, created_again) = dir.ensure_dir(os("made")).unwrap();
        assert!(!created_again);
        made.create_file(os("inside"), b"x", FileMode::Umask(0o644))
            .unwrap();
        assert!(temp.path().join("made/inside").is_file());
        assert!(matches!(
            dir.ensure_dir(os("link")),
            Err(WriteError::Symlink)
        ));
        assert!(matches!(
            dir.ensure_dir(os("file")),
            Err(WriteError::NotDirectory)
        ));
        assert!(matches!(dir.open_dir(os("link")), Err(WriteError::Symlink)));
        assert!(dir.open_dir(os("absent")).unwrap().is_none());
        assert_eq!(names(outside.path()), Vec::<String>::new());
    }

    #[test]
    fn names_must_be_single_components() {
        let temp = tempfile::tempdir().unwrap();
        let dir = Dir::open(temp.path()).unwrap();
        for name in ["", ".", "..", "a/b", "/abs"] {
            assert!(matches!(
                dir.create_file(os(name), b"x", FileMode::Umask(0o644)),
                Err(WriteError::InvalidName)
            ));
        }
        assert_eq!(names(temp.path()), Vec::<String>::new());
    }

    // Links and mode bits: Unix only (Windows cannot create links unprivileged).
    #[cfg(unix)]
    #[test]
    fn kinds_are_seen_without_following() {
        let temp = tempfile::tempdir().unwrap();
        std::fs::write(temp.path().join("file"), b"").unwrap();
        std::fs::create_dir(temp.path().join("dir")).unwrap();
        symlink("dir", temp.path().join("link")).unwrap();
        let dir = Dir::open(temp.path()).unwrap();
        assert_eq!(dir.kind(os("file")).unwrap(), EntryKind::File);
        assert_eq!(dir.kind(os("dir")).unwrap(), EntryKind::Directory);
        assert_eq!(dir.kind(os("link")).unwrap(), EntryKind::Symlink);
        assert_eq!(dir.kind(os("none")).unwrap(), EntryKind::Absent);
    }

    #[test]
    fn temporary_names_are_hidden_and_distinct() {
        let first = temp_name(os("aios.json"));
        let second = temp_name(os("aios.json"));
        assert_ne!(first, second);
        let text = first.to_string_lossy();
        assert!(
            text.starts_with(".aios.json.") && text.ends_with(".tmp"),
            "{text}"
        );
    }

    #[test]
    fn windows_names_refuse_reserved_characters_and_trailing_dots() {
        for good in ["aios.json", ".aios.json.12.00ff.tmp", "é", "a b"] {
            assert!(is_windows_name(good.as_bytes()), "{good}");
        }
        for bad in [
            "a\\b", "c:", "a*", "a?", "q\"", "<", ">", "|", "tab\t", "dot.", "space ",
        ] {
            assert!(!is_windows_name(bad.as_bytes()), "{bad}");
        }
    }

    #[test]
    fn directories_and_files_are_told_apart() {
        let temp = tempfile::tempdir().unwrap();
        let dir = Dir::open(temp.path()).unwrap();
        let (made, created) = dir.ensure_dir(os("made")).unwrap();
        assert!(created);
        made.create_file(os("inside"), b"x", FileMode::Umask(0o644))
            .unwrap();
        assert_eq!(dir.kind(os("made")).unwrap(), EntryKind::Directory);
        assert_eq!(made.kind(os("inside")).unwrap(), EntryKind::File);
        assert!(matches!(
            made.ensure_dir(os("inside")),
            Err(WriteError::NotDirectory)
        ));
        assert!(matches!(
            dir.replace_file(os("made"), b"x", FileMode::Umask(0o644)),
            Err(WriteError::NotRegular)
        ));
        assert!(matches!(
            made.create_file(os("inside"), b"y", FileMode::Umask(0o644)),
            Err(WriteError::Exists)
        ));
        assert_eq!(
            std::fs::read(temp.path().join("made").join("inside")).unwrap(),
            b"x"
        );
        assert_eq!(names(&temp.path().join("made")), ["inside"]);
    }
}
