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
//! What it must never do: follow a link below a handle, accept a multi-component name, or
//! resolve an absolute path after [`Dir::open`]. It reads nothing back; reads below an AIOS
//! root go through `dotaios-contained`. A crash between the temporary write and the final
//! rename can leave a hidden `.tmp` file behind; it is never mistaken for the real one.

use std::collections::hash_map::RandomState;
use std::ffi::{OsStr, OsString};
use std::hash::{BuildHasher, Hasher};
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::Path;

use rustix::fs::{AtFlags, FileType, Mode, OFlags};
use rustix::io::Errno;

/// How a new file's permission bits are chosen.
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
    /// A symbolic link, whatever it points to.
    Symlink,
    /// A FIFO, socket or device.
    Special,
}

/// Why a write was refused or failed. Carries no path: the caller knows which name it asked
/// for and words the message.
#[derive(Debug, thiserror::Error)]
pub(crate) enum WriteError {
    /// The name is empty, `.`, `..`, or contains `/` or NUL.
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

impl From<Errno> for WriteError {
    fn from(errno: Errno) -> WriteError {
        WriteError::Io(std::io::Error::from(errno))
    }
}

/// An open directory handle that every operation is relative to.
#[derive(Debug)]
pub(crate) struct Dir {
    fd: OwnedFd,
}

impl Dir {
    /// Opens the directory at `path`. A symlink at `path` itself (or in its ancestors) is
    /// followed: this is where a caller chooses its root. Nothing after this takes a path.
    pub(crate) fn open(path: &Path) -> Result<Dir, WriteError> {
        let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
        let fd = retry_on_interrupt(|| rustix::fs::open(path, flags, Mode::empty())).map_err(
            |errno| match errno {
                Errno::NOTDIR => WriteError::NotDirectory,
                other => WriteError::from(other),
            },
        )?;
        Ok(Dir { fd })
    }

    /// What `name` is, without following it.
    pub(crate) fn kind(&self, name: &OsStr) -> Result<EntryKind, WriteError> {
        let name = checked_name(name)?;
        match retry_on_interrupt(|| rustix::fs::statat(&self.fd, name, AtFlags::SYMLINK_NOFOLLOW)) {
            Ok(stat) => Ok(kind_of(FileType::from_raw_mode(stat.st_mode))),
            Err(Errno::NOENT) => Ok(EntryKind::Absent),
            Err(errno) => Err(errno.into()),
        }
    }

    /// Opens the existing directory `name` without following a link. `None` when absent.
    pub(crate) fn open_dir(&self, name: &OsStr) -> Result<Option<Dir>, WriteError> {
        let name = checked_name(name)?;
        let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        match retry_on_interrupt(|| rustix::fs::openat(&self.fd, name, flags, Mode::empty())) {
            Ok(fd) => Ok(Some(Dir { fd })),
            Err(Errno::NOENT) => Ok(None),
            // The kernel reports a link as ELOOP and a non-directory as ENOTDIR; look again
            // without following so that the caller gets the precise refusal.
            Err(Errno::LOOP | Errno::NOTDIR) => match self.kind(name)? {
                EntryKind::Symlink => Err(WriteError::Symlink),
                EntryKind::Absent => Ok(None),
                _ => Err(WriteError::NotDirectory),
            },
            Err(errno) => Err(errno.into()),
        }
    }

    /// Makes sure `name` is a real directory below this handle, creating it (mode `0o777`
    /// narrowed by the umask) when absent, and opens it. Returns whether it was created. An
    /// existing symlink or non-directory is refused.
    pub(crate) fn ensure_dir(&self, name: &OsStr) -> Result<(Dir, bool), WriteError> {
        let name = checked_name(name)?;
        let created = match retry_on_interrupt(|| {
            rustix::fs::mkdirat(&self.fd, name, Mode::from_raw_mode(0o777))
        }) {
            Ok(()) => true,
            Err(Errno::EXIST) => false,
            Err(errno) => return Err(errno.into()),
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
        let placed = self.move_into_place_exclusively(&temp, name);
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
        // link planted after this check is replaced as a name by `renameat`, which never
        // follows it, so its target stays untouched either way.)
        let placed = self
            .kind(name)
            .and_then(refuse_unless_replaceable)
            .and_then(|()| match unchanged(self, name)? {
                true => Ok(()),
                false => Err(WriteError::Changed),
            })
            .and_then(|()| {
                retry_on_interrupt(|| rustix::fs::renameat(&self.fd, &temp, &self.fd, name))
                    .map_err(WriteError::from)
            });
        self.finish(&temp, placed)
    }

    /// Flushes this directory's entries to disk.
    pub(crate) fn sync(&self) -> Result<(), WriteError> {
        retry_on_interrupt(|| rustix::fs::fsync(&self.fd)).map_err(WriteError::from)
    }

    /// Creates, fills and flushes a temporary file next to `name`; returns its name.
    fn write_temp(
        &self,
        name: &OsStr,
        bytes: &[u8],
        mode: FileMode,
    ) -> Result<OsString, WriteError> {
        let requested = match mode {
            FileMode::Umask(bits) | FileMode::Exact(bits) => bits & 0o777,
        };
        let flags =
            OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        let mut attempts = 0;
        let (temp, fd) = loop {
            let temp = temp_name(name);
            match retry_on_interrupt(|| {
                rustix::fs::openat(
                    &self.fd,
                    &temp,
                    flags,
                    Mode::from_raw_mode(requested as rustix::fs::RawMode),
                )
            }) {
                Ok(fd) => break (temp, fd),
                // 64 random bits collide only if someone plants names on purpose; try a few.
                Err(Errno::EXIST) if attempts < 8 => attempts += 1,
                Err(errno) => return Err(errno.into()),
            }
        };
        let filled = fill(&fd, bytes, mode);
        drop(fd);
        match filled {
            Ok(()) => Ok(temp),
            Err(error) => {
                let _ = rustix::fs::unlinkat(&self.fd, &temp, AtFlags::empty());
                Err(error)
            }
        }
    }

    fn move_into_place_exclusively(&self, temp: &OsStr, name: &OsStr) -> Result<(), WriteError> {
        #[cfg(any(target_os = "linux", target_os = "android"))]
        {
            match retry_on_interrupt(|| {
                rustix::fs::renameat_with(
                    &self.fd,
                    temp,
                    &self.fd,
                    name,
                    rustix::fs::RenameFlags::NOREPLACE,
                )
            }) {
                Ok(()) => return Ok(()),
                Err(Errno::EXIST) => return Err(WriteError::Exists),
                // Filesystems without RENAME_NOREPLACE: fall back to a hard link, which also
                // fails when the name exists.
                Err(Errno::INVAL | Errno::NOSYS | Errno::OPNOTSUPP) => {}
                Err(errno) => return Err(errno.into()),
            }
        }
        match retry_on_interrupt(|| {
            rustix::fs::linkat(&self.fd, temp, &self.fd, name, AtFlags::empty())
        }) {
            Ok(()) => {
                // The final name now holds the bytes; the temporary name is just a second link.
                let _ = rustix::fs::unlinkat(&self.fd, temp, AtFlags::empty());
                Ok(())
            }
            Err(Errno::EXIST) => Err(WriteError::Exists),
            Err(errno) => Err(errno.into()),
        }
    }

    /// Removes the temporary name if it is still there and, on success, makes the new entry
    /// durable.
    fn finish(&self, temp: &OsStr, placed: Result<(), WriteError>) -> Result<(), WriteError> {
        match placed {
            Ok(()) => self.sync(),
            Err(error) => {
                let _ = rustix::fs::unlinkat(&self.fd, temp, AtFlags::empty());
                Err(error)
            }
        }
    }
}

impl AsFd for Dir {
    fn as_fd(&self) -> std::os::fd::BorrowedFd<'_> {
        self.fd.as_fd()
    }
}

fn fill(fd: &OwnedFd, bytes: &[u8], mode: FileMode) -> Result<(), WriteError> {
    let mut rest = bytes;
    while !rest.is_empty() {
        match rustix::io::write(fd, rest) {
            Ok(0) => return Err(WriteError::Io(std::io::ErrorKind::WriteZero.into())),
            Ok(written) => rest = &rest[written..],
            Err(Errno::INTR) => {}
            Err(errno) => return Err(errno.into()),
        }
    }
    if let FileMode::Exact(bits) = mode {
        retry_on_interrupt(|| {
            rustix::fs::fchmod(
                fd,
                Mode::from_raw_mode((bits & 0o777) as rustix::fs::RawMode),
            )
        })?;
    }
    retry_on_interrupt(|| rustix::fs::fsync(fd))?;
    Ok(())
}

fn refuse_unless_replaceable(kind: EntryKind) -> Result<(), WriteError> {
    match kind {
        EntryKind::Absent | EntryKind::File => Ok(()),
        EntryKind::Symlink => Err(WriteError::Symlink),
        EntryKind::Directory | EntryKind::Special => Err(WriteError::NotRegular),
    }
}

fn checked_name(name: &OsStr) -> Result<&OsStr, WriteError> {
    let bytes = name.as_bytes();
    if bytes.is_empty() || bytes == b"." || bytes == b".." || bytes.contains(&b'/') {
        return Err(WriteError::InvalidName);
    }
    if bytes.contains(&0) {
        return Err(WriteError::InvalidName);
    }
    Ok(name)
}

fn kind_of(file_type: FileType) -> EntryKind {
    match file_type {
        FileType::RegularFile => EntryKind::File,
        FileType::Directory => EntryKind::Directory,
        FileType::Symlink => EntryKind::Symlink,
        _ => EntryKind::Special,
    }
}

/// `.<name>.<pid>.<16 hex digits>.tmp`. The random part comes from the standard library's
/// per-process random hash keys, which are seeded from the operating system; uniqueness is
/// enforced by `O_EXCL` anyway, so the randomness only has to make collisions unlikely.
fn temp_name(name: &OsStr) -> OsString {
    let mut hasher = RandomState::new().build_hasher();
    hasher.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |elapsed| elapsed.as_nanos()),
    );
    let random = hasher.finish();
    let mut bytes = Vec::with_capacity(name.len() + 40);
    bytes.push(b'.');
    bytes.extend_from_slice(name.as_bytes());
    bytes.extend_from_slice(format!(".{}.{random:016x}.tmp", std::process::id()).as_bytes());
    OsString::from_vec(bytes)
}

fn retry_on_interrupt<T>(mut call: impl FnMut() -> rustix::io::Result<T>) -> rustix::io::Result<T> {
    loop {
        match call() {
            Err(Errno::INTR) => {}
            other => return other,
        }
    }
}

#[cfg(test)]
mod tests {
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
}
