//! The preserved-paths inventory of contract 01 §9.5: a walk of `context/`, `projects/`,
//! `memory/` and `vault/` inside the root (never an external vault) that records every entry's
//! kind, size and SHA-256, so that the receipt shows what the protected shelves held.
//!
//! It never follows a link (directories are opened `O_DIRECTORY | O_NOFOLLOW` below the root
//! handle, files `O_NOFOLLOW | O_NONBLOCK` and only after `fstat` shows a regular file), never
//! opens a FIFO or device for reading, and streams file contents through the hash in fixed
//! chunks instead of loading whole files. It writes nothing.

use std::ffi::OsStr;
use std::io::{self, Read};

use dotaios_core::folder::plan::{PROTECTED_SHELVES, hex};
use dotaios_core::text::collate;
use sha2::{Digest, Sha256};

use super::fsops;
use crate::sys::{self, FileKind};
use crate::writers::atomic::Dir;

/// How deep the walk goes below a shelf. Deeper trees are recorded down to this depth and
/// the directory at the limit is recorded without its contents.
const MAX_DEPTH: usize = 64;

/// What an inventory entry is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    File,
    Directory,
    Symlink,
    Other,
}

impl Kind {
    fn of(kind: FileKind) -> Kind {
        match kind {
            FileKind::File => Kind::File,
            FileKind::Directory => Kind::Directory,
            FileKind::Symlink => Kind::Symlink,
            FileKind::Special => Kind::Other,
        }
    }

    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Kind::File => "file",
            Kind::Directory => "directory",
            Kind::Symlink => "symlink",
            Kind::Other => "other",
        }
    }
}

/// One inventory entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PreservedPath {
    /// Folder-relative, `/`-separated (a name that is not UTF-8 is recorded lossily).
    pub(crate) path: String,
    pub(crate) kind: Kind,
    /// File size; 0 for everything but files.
    pub(crate) bytes: u64,
    /// Hex SHA-256 of a file's bytes; `None` for everything else.
    pub(crate) sha256: Option<String>,
}

/// Walks the protected shelves below `root`, sorted by path in collation order.
pub(crate) fn inventory(root: &Dir) -> io::Result<Vec<PreservedPath>> {
    let mut found = Vec::new();
    for shelf in PROTECTED_SHELVES {
        let name = shelf.trim_end_matches('/');
        visit(root, name, name, 0, &mut found)?;
    }
    found.sort_by(|a, b| collate(&a.path, &b.path).then_with(|| a.path.cmp(&b.path)));
    Ok(found)
}

fn visit(
    parent: &Dir,
    name: &str,
    path: &str,
    depth: usize,
    found: &mut Vec<PreservedPath>,
) -> io::Result<()> {
    let Some(stat) = fsops::stat(parent, name)? else {
        return Ok(());
    };
    let kind = Kind::of(stat.kind);
    match kind {
        Kind::File => match hash_file(parent, name) {
            Ok(Some((bytes, sha256))) => found.push(PreservedPath {
                path: path.to_owned(),
                kind,
                bytes,
                sha256: Some(sha256),
            }),
            // Replaced by something else between the stat and the open.
            Ok(None) => found.push(PreservedPath {
                path: path.to_owned(),
                kind: Kind::Other,
                bytes: 0,
                sha256: None,
            }),
            // A file this user may not read is recorded without a hash rather than blocking
            // the migration of two other files.
            Err(error) if error.kind() == io::ErrorKind::PermissionDenied => {
                found.push(PreservedPath {
                    path: path.to_owned(),
                    kind,
                    bytes: stat.size,
                    sha256: None,
                });
            }
            Err(error) => return Err(error),
        },
        Kind::Directory => {
            found.push(PreservedPath {
                path: path.to_owned(),
                kind,
                bytes: 0,
                sha256: None,
            });
            if depth >= MAX_DEPTH {
                return Ok(());
            }
            let dir = match fsops::open_dir(parent, name) {
                Ok(Some(dir)) => dir,
                Ok(None) => return Ok(()),
                Err(error)
                    if fsops::is_unsafe_kind(&error)
                        || error.kind() == io::ErrorKind::PermissionDenied =>
                {
                    return Ok(());
                }
                Err(error) => return Err(error),
            };
            let children = match fsops::entries(&dir) {
                Ok(children) => children,
                Err(error) if error.kind() == io::ErrorKind::PermissionDenied => return Ok(()),
                Err(error) => return Err(error),
            };
            for (child, _) in children {
                let child_text = child.to_string_lossy();
                let child_path = format!("{path}/{child_text}");
                match child.to_str() {
                    Some(child_name) => visit(&dir, child_name, &child_path, depth + 1, found)?,
                    None => visit_raw(&dir, &child, &child_path, found)?,
                }
            }
        }
        Kind::Symlink | Kind::Other => found.push(PreservedPath {
            path: path.to_owned(),
            kind,
            bytes: 0,
            sha256: None,
        }),
    }
    Ok(())
}

/// A name that is not UTF-8 is recorded by kind only (its lossy path could collide with
/// another name, so its contents are not attributed to it).
fn visit_raw(
    parent: &Dir,
    name: &OsStr,
    path: &str,
    found: &mut Vec<PreservedPath>,
) -> io::Result<()> {
    let Some(stat) = sys::stat_at(parent.handle(), name)? else {
        return Ok(());
    };
    let kind = match Kind::of(stat.kind) {
        Kind::File => Kind::Other,
        other => other,
    };
    found.push(PreservedPath {
        path: path.to_owned(),
        kind,
        bytes: 0,
        sha256: None,
    });
    Ok(())
}

/// Streams a regular file through SHA-256. `None` when what is there now is not a regular
/// file.
fn hash_file(parent: &Dir, name: &str) -> io::Result<Option<(u64, String)>> {
    let Some((mut file, meta)) = sys::open_file_at(parent.handle(), OsStr::new(name))? else {
        return Ok(None);
    };
    if meta.kind != FileKind::File {
        return Ok(None);
    }
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; 64 * 1024];
    let mut total: u64 = 0;
    loop {
        match file.read(&mut buffer) {
            Ok(0) => break,
            Ok(read) => {
                hasher.update(&buffer[..read]);
                total += read as u64;
            }
            Err(error)
                if matches!(
                    error.kind(),
                    io::ErrorKind::Interrupted | io::ErrorKind::WouldBlock
                ) => {}
            Err(error) => return Err(error),
        }
    }
    Ok(Some((total, hex(&hasher.finalize()))))
}

// Links: Unix only.
#[cfg(all(test, unix))]
mod tests {
    use std::os::unix::fs::symlink;

    use super::*;

    #[test]
    fn walks_shelves_without_following_links() {
        let temp = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret.md"), b"s").unwrap();
        std::fs::create_dir_all(temp.path().join("context")).unwrap();
        std::fs::write(temp.path().join("context/work.md"), b"abc").unwrap();
        std::fs::create_dir_all(temp.path().join("memory/daily")).unwrap();
        symlink(outside.path(), temp.path().join("memory/out")).unwrap();
        symlink(outside.path(), temp.path().join("vault")).unwrap();
        std::fs::write(temp.path().join("README.md"), b"not a shelf").unwrap();
        let list = inventory(&Dir::open(temp.path()).unwrap()).unwrap();
        let summary: Vec<(&str, &str, u64)> = list
            .iter()
            .map(|entry| (entry.path.as_str(), entry.kind.as_str(), entry.bytes))
            .collect();
        assert_eq!(
            summary,
            [
                ("context", "directory", 0),
                ("context/work.md", "file", 3),
                ("memory", "directory", 0),
                ("memory/daily", "directory", 0),
                ("memory/out", "symlink", 0),
                ("vault", "symlink", 0),
            ]
        );
        assert_eq!(
            list[1].sha256.as_deref(),
            Some("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        );
    }
}
