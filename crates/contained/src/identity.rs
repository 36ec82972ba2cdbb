//! What the reader observes about an object without reading it: its kind and its identity.

/// The kind of a directory entry or probed object. Symlinks are reported, never followed.
/// On Windows every reparse point (symbolic link, junction, mount point, cloud placeholder,
/// app-execution alias, WSL link) is a `Symlink`, a device is a `CharDevice`, and a file that is
/// offline or recalled from elsewhere on access is `Unknown`; the other kinds do not occur.
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

/// An object's identity as `fstat` reports it (contract 01 §4.6: device, inode, mode, link
/// count, size and the nanosecond modification and change times; the owner is kept as well).
/// Two observations of an unchanged object are equal; a rename, rewrite, chmod, link or
/// truncation makes them differ.
///
/// On Windows the same fields come from the handle's NT information: `dev` is the volume serial
/// number, `ino` and `ino_high` the low and high halves of the 128-bit file id (`FileIdInfo`,
/// or the 64-bit file index where the filesystem has no 128-bit id), `mode` the type bits of the
/// kind with `0o666` (`0o444` when read-only) as the C runtime reports them, plus `0o111`
/// for directories, `uid` 0, the times the last-write and change times (100 ns resolution).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Identity {
    /// Device number.
    pub dev: u64,
    /// Inode number (on Windows the low 64 bits of the file id).
    pub ino: u64,
    /// The high 64 bits of the 128-bit file id (Windows only).
    #[cfg(windows)]
    pub ino_high: u64,
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
    /// The kind encoded in `mode`.
    pub fn kind(&self) -> EntryKind {
        crate::sys::kind_of_mode(self.mode)
    }

    /// The permission bits (`mode & 0o777`).
    pub fn permissions(&self) -> u32 {
        self.mode & 0o777
    }

    /// Same object (device and inode; on Windows volume and the whole 128-bit file id),
    /// whatever else changed.
    pub fn same_object(&self, other: &Identity) -> bool {
        #[cfg(windows)]
        if self.ino_high != other.ino_high {
            return false;
        }
        self.dev == other.dev && self.ino == other.ino
    }
}
