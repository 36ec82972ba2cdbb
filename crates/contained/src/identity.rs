//! What the reader observes about an object without reading it: its kind and its identity.

use rustix::fs::{FileType, Stat};

/// The kind of a directory entry or probed object. Symlinks are reported, never followed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryKind {
    /// A regular file.
    File,
    /// A directory.
    Directory,
    /// A symbolic link.
    Symlink,
    /// A named pipe.
    Fifo,
    /// A Unix socket.
    Socket,
    /// A character device.
    CharDevice,
    /// A block device.
    BlockDevice,
    /// Anything the kernel did not classify.
    Unknown,
}

impl EntryKind {
    pub(crate) fn from_file_type(file_type: FileType) -> EntryKind {
        match file_type {
            FileType::RegularFile => EntryKind::File,
            FileType::Directory => EntryKind::Directory,
            FileType::Symlink => EntryKind::Symlink,
            FileType::Fifo => EntryKind::Fifo,
            FileType::Socket => EntryKind::Socket,
            FileType::CharacterDevice => EntryKind::CharDevice,
            FileType::BlockDevice => EntryKind::BlockDevice,
            FileType::Unknown => EntryKind::Unknown,
        }
    }
}

/// An object's identity as `fstat` reports it (contract 01 §4.6: device, inode, mode, link count,
/// size and the nanosecond modification and change times; the owner is kept as well). Two observations of an unchanged object are
/// equal; a rename, rewrite, chmod, link or truncation makes them differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Identity {
    /// Device number.
    pub dev: u64,
    /// Inode number.
    pub ino: u64,
    /// Type and permission bits (`st_mode`).
    pub mode: u32,
    /// Hard-link count.
    pub nlink: u64,
    /// Owner user id.
    pub uid: u32,
    /// Size in bytes.
    pub size: u64,
    /// Modification time, seconds since the epoch.
    pub mtime_sec: i64,
    /// Modification time, nanoseconds.
    pub mtime_nsec: u32,
    /// Status-change time, seconds since the epoch.
    pub ctime_sec: i64,
    /// Status-change time, nanoseconds.
    pub ctime_nsec: u32,
}

impl Identity {
    #[allow(clippy::unnecessary_cast, clippy::useless_conversion)]
    pub(crate) fn from_stat(stat: &Stat) -> Identity {
        Identity {
            dev: stat.st_dev as u64,
            ino: stat.st_ino as u64,
            mode: stat.st_mode as u32,
            nlink: stat.st_nlink as u64,
            uid: stat.st_uid as u32,
            size: u64::try_from(stat.st_size).unwrap_or(0),
            mtime_sec: stat.st_mtime as i64,
            mtime_nsec: stat.st_mtime_nsec as u32,
            ctime_sec: stat.st_ctime as i64,
            ctime_nsec: stat.st_ctime_nsec as u32,
        }
    }

    /// The same fields from `statx`, encoded like `fstat` (the device number through
    /// `makedev`), so identities from either call compare equal.
    #[cfg(target_os = "linux")]
    #[allow(clippy::unnecessary_cast, clippy::useless_conversion)]
    pub(crate) fn from_statx(statx: &rustix::fs::Statx) -> Identity {
        Identity {
            dev: rustix::fs::makedev(statx.stx_dev_major, statx.stx_dev_minor) as u64,
            ino: statx.stx_ino,
            mode: u32::from(statx.stx_mode),
            nlink: u64::from(statx.stx_nlink),
            uid: statx.stx_uid,
            size: statx.stx_size,
            mtime_sec: statx.stx_mtime.tv_sec,
            mtime_nsec: statx.stx_mtime.tv_nsec,
            ctime_sec: statx.stx_ctime.tv_sec,
            ctime_nsec: statx.stx_ctime.tv_nsec,
        }
    }

    /// The kind encoded in `mode`.
    #[allow(clippy::unnecessary_cast)]
    pub fn kind(&self) -> EntryKind {
        // `mode_t` is 32 bits on Linux and 16 bits on macOS; the type bits fit either.
        EntryKind::from_file_type(FileType::from_raw_mode(self.mode as _))
    }

    /// The permission bits (`mode & 0o777`).
    pub fn permissions(&self) -> u32 {
        self.mode & 0o777
    }

    /// Same object (device and inode), whatever else changed.
    pub fn same_object(&self, other: &Identity) -> bool {
        self.dev == other.dev && self.ino == other.ino
    }
}
