//! The tree fingerprint: every name below a root with its kind, permission bits, size,
//! modification time and bytes (a link's target text), so that two equal fingerprints taken
//! around an operation prove it wrote nothing there. Links are recorded as links and never
//! followed; the walk only reads.

use std::collections::BTreeMap;
use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};

/// What one name is.
#[derive(Clone, PartialEq, Eq)]
pub enum Kind {
    /// A directory (its entries are entries of the fingerprint).
    Dir,
    /// A regular file and all of its bytes.
    File(Vec<u8>),
    /// A symbolic link and its target text, not followed.
    Link(PathBuf),
    /// A FIFO, socket or device: recorded, never opened.
    Other,
}

impl fmt::Debug for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Kind::Dir => f.write_str("Dir"),
            Kind::File(bytes) => write!(f, "File({:?})", String::from_utf8_lossy(bytes)),
            Kind::Link(target) => write!(f, "Link({})", target.display()),
            Kind::Other => f.write_str("Other"),
        }
    }
}

/// One name of the tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// Kind and content.
    pub kind: Kind,
    /// Permission bits (`st_mode & 0o7777`).
    pub mode: u32,
    /// `st_size`.
    pub size: u64,
    /// `st_mtime` seconds and nanoseconds; `None` after [`Fingerprint::without_times`].
    pub mtime: Option<(i64, i64)>,
}

/// Every name below a root, keyed by its path relative to the root (`""` is the root itself).
/// A root that does not exist has an empty fingerprint.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Fingerprint(pub BTreeMap<String, Entry>);

/// The fingerprint of `root`. Panics on any read error: a test that cannot see the tree
/// cannot prove anything about it.
pub fn fingerprint(root: &Path) -> Fingerprint {
    let mut entries = BTreeMap::new();
    if fs::symlink_metadata(root).is_ok() {
        walk(root, root, &mut entries);
    }
    Fingerprint(entries)
}

fn walk(root: &Path, path: &Path, into: &mut BTreeMap<String, Entry>) {
    let meta =
        fs::symlink_metadata(path).unwrap_or_else(|e| panic!("stat {}: {e}", path.display()));
    let kind = meta.file_type();
    let content = if kind.is_symlink() {
        Kind::Link(fs::read_link(path).unwrap_or_else(|e| panic!("readlink: {e}")))
    } else if kind.is_dir() {
        Kind::Dir
    } else if kind.is_file() {
        Kind::File(fs::read(path).unwrap_or_else(|e| panic!("read {}: {e}", path.display())))
    } else {
        Kind::Other
    };
    // Components joined by `/` on every platform, so that keys read the same everywhere.
    let relative = path
        .strip_prefix(root)
        .expect("below the root")
        .components()
        .map(|part| part.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/");
    let (mode, mtime) = mode_and_time(&meta);
    into.insert(
        relative,
        Entry {
            kind: content,
            mode,
            size: meta.len(),
            mtime: Some(mtime),
        },
    );
    if kind.is_dir() {
        let listing = fs::read_dir(path).unwrap_or_else(|e| panic!("list {}: {e}", path.display()));
        for entry in listing {
            walk(root, &entry.expect("directory entry").path(), into);
        }
    }
}

/// The permission bits (`st_mode & 0o7777`) and `st_mtime` seconds and nanoseconds.
#[cfg(unix)]
fn mode_and_time(meta: &fs::Metadata) -> (u32, (i64, i64)) {
    use std::os::unix::fs::MetadataExt;
    (meta.mode() & 0o7777, (meta.mtime(), meta.mtime_nsec()))
}

/// Windows has no permission bits: the read-only attribute as the C runtime shows it (`0o444`,
/// else `0o666`), and the last-write time since the Unix epoch.
#[cfg(windows)]
fn mode_and_time(meta: &fs::Metadata) -> (u32, (i64, i64)) {
    let mode = if meta.permissions().readonly() {
        0o444
    } else {
        0o666
    };
    let since_epoch = meta
        .modified()
        .ok()
        .and_then(|time| time.duration_since(std::time::UNIX_EPOCH).ok())
        .unwrap_or_default();
    (
        mode,
        (
            i64::try_from(since_epoch.as_secs()).unwrap_or(i64::MAX),
            i64::from(since_epoch.subsec_nanos()),
        ),
    )
}

impl Fingerprint {
    /// The same names, kinds, modes and contents with modification times and directory sizes
    /// dropped, for writers whose output is compared by content: a rewrite of equal bytes
    /// counts as equal, and so does a directory whose entries came and went (its `st_size` is
    /// the file system's bookkeeping, which some never shrink).
    pub fn without_times(mut self) -> Fingerprint {
        for entry in self.0.values_mut() {
            entry.mtime = None;
            if entry.kind == Kind::Dir {
                entry.size = 0;
            }
        }
        self
    }

    /// Without `name` and everything below it.
    pub fn without(mut self, name: &str) -> Fingerprint {
        let below = format!("{name}/");
        self.0
            .retain(|path, _| path != name && !path.starts_with(&below));
        self
    }

    /// The names and kinds only (no modes, sizes or times).
    pub fn contents(&self) -> BTreeMap<String, Kind> {
        self.0
            .iter()
            .map(|(path, entry)| (path.clone(), entry.kind.clone()))
            .collect()
    }

    /// The entry at `path`, if any.
    pub fn get(&self, path: &str) -> Option<&Entry> {
        self.0.get(path)
    }

    /// The relative paths, in byte order.
    pub fn paths(&self) -> Vec<&str> {
        self.0.keys().map(String::as_str).collect()
    }

    /// True when the tree has no names (the root did not exist).
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

// Links and mode bits: Unix only.
#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::{PermissionsExt, symlink};

    fn sample() -> tempfile::TempDir {
        let temp = tempfile::tempdir().unwrap();
        fs::create_dir(temp.path().join("d")).unwrap();
        fs::write(temp.path().join("d/f"), b"one").unwrap();
        symlink("d/f", temp.path().join("l")).unwrap();
        temp
    }

    #[test]
    fn records_links_as_links_and_walks_everything() {
        let temp = sample();
        let print = fingerprint(temp.path());
        assert_eq!(print.paths(), ["", "d", "d/f", "l"]);
        assert_eq!(print.get("l").unwrap().kind, Kind::Link("d/f".into()));
        assert_eq!(print.get("d/f").unwrap().kind, Kind::File(b"one".to_vec()));
        assert!(fingerprint(&temp.path().join("missing")).is_empty());
    }

    #[test]
    fn sees_bytes_modes_times_and_names() {
        let temp = sample();
        let before = fingerprint(temp.path());
        assert_eq!(before, fingerprint(temp.path()));

        fs::write(temp.path().join("d/f"), b"two").unwrap();
        assert_ne!(before, fingerprint(temp.path()), "same size, other bytes");

        let temp = sample();
        let before = fingerprint(temp.path());
        fs::set_permissions(temp.path().join("d/f"), fs::Permissions::from_mode(0o600)).unwrap();
        assert_ne!(before, fingerprint(temp.path()), "mode");

        let temp = sample();
        let before = fingerprint(temp.path());
        let file = fs::File::options()
            .write(true)
            .open(temp.path().join("d/f"))
            .unwrap();
        file.set_modified(std::time::SystemTime::UNIX_EPOCH)
            .unwrap();
        assert_ne!(before, fingerprint(temp.path()), "mtime");
        assert_eq!(
            before.clone().without_times(),
            fingerprint(temp.path()).without_times()
        );

        let temp = sample();
        let before = fingerprint(temp.path());
        fs::write(temp.path().join("d/g"), b"").unwrap();
        assert_ne!(before, fingerprint(temp.path()), "a new name");
        assert_eq!(before.without("d"), fingerprint(temp.path()).without("d"));
    }
}
