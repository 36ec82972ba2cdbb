//! AIOS folders for tests, built in temporary directories by copying files, never by running a
//! `dotaios` binary: the repository's `examples/aios` ([`write_sample`]) or the folder a fresh
//! `dotaios init` writes ([`write_fresh`], frozen under `fixtures/fresh/`; a CLI test proves it
//! equal to what `init` writes today). It never writes outside the destination it is given or
//! the temporary directory it creates.

use std::fs;
use std::path::{Path, PathBuf};

/// The repository's `examples/aios`, the documented sample folder.
pub fn examples_aios() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/aios")
}

/// The frozen copy of a fresh `dotaios init` folder. Names that begin with a dot are stored
/// with `dot` in front (`dot.gitignore`), so the copy's own `.gitignore` cannot hide its files
/// from git; the folder's empty directories are [`FRESH_EMPTY_DIRS`], since git keeps none.
fn fresh_source() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/fresh")
}

/// The directories a fresh `dotaios init` leaves empty.
const FRESH_EMPTY_DIRS: [&str; 12] = [
    "archives",
    "connections/apis",
    "memory/daily",
    "memory/sessions",
    "memory/signals",
    "plugins",
    "projects",
    "vault/org/companies",
    "vault/org/people",
    "vault/outputs",
    "vault/raw",
    "vault/wiki",
];

/// The `created_at` stamp of the frozen fresh folder (in `aios.json` and three context files).
pub const FRESH_CREATED_AT: &str = "2026-11-20T09:02:11.482Z";

/// Copies a tree of directories and regular files from `from` to `to` (created). Panics on a
/// link or special file: fixtures that need one make it themselves.
pub fn copy_tree(from: &Path, to: &Path) {
    copy_renaming(from, to, |name| name.to_owned());
}

fn copy_renaming(from: &Path, to: &Path, rename: fn(&str) -> String) {
    fs::create_dir_all(to).unwrap_or_else(|e| panic!("mkdir {}: {e}", to.display()));
    let listing = fs::read_dir(from).unwrap_or_else(|e| panic!("list {}: {e}", from.display()));
    for entry in listing {
        let entry = entry.expect("directory entry");
        let name = entry.file_name().to_string_lossy().into_owned();
        let target = to.join(rename(&name));
        let kind = entry.file_type().expect("file type");
        if kind.is_dir() {
            copy_renaming(&entry.path(), &target, rename);
        } else if kind.is_file() {
            fs::copy(entry.path(), &target)
                .unwrap_or_else(|e| panic!("copy {}: {e}", entry.path().display()));
        } else {
            panic!(
                "{} is neither a file nor a directory",
                entry.path().display()
            );
        }
    }
}

/// Writes a copy of `examples/aios` at `dest`.
pub fn write_sample(dest: &Path) {
    copy_tree(&examples_aios(), dest);
}

/// Writes the folder a fresh `dotaios init` writes at `dest` (with [`FRESH_CREATED_AT`]).
pub fn write_fresh(dest: &Path) {
    copy_renaming(&fresh_source(), dest, |name| {
        match name.strip_prefix("dot.") {
            Some(rest) => format!(".{rest}"),
            None => name.to_owned(),
        }
    });
    for dir in FRESH_EMPTY_DIRS {
        fs::create_dir_all(dest.join(dir)).unwrap_or_else(|e| panic!("mkdir {dir}: {e}"));
    }
}

/// A temporary directory holding `aios/` (the folder under test, made by one of the
/// constructors) and `home/`, an empty home directory for commands that look at `HOME`.
/// Everything is removed when it is dropped.
pub struct Folder {
    temp: tempfile::TempDir,
    root: PathBuf,
}

impl Folder {
    /// `aios/` does not exist yet.
    pub fn missing() -> Folder {
        Folder::missing_in(&std::env::temp_dir())
    }

    /// Like [`Folder::missing`], below `parent`.
    pub fn missing_in(parent: &Path) -> Folder {
        let temp = tempfile::tempdir_in(parent).expect("a temporary directory");
        fs::create_dir(temp.path().join("home")).expect("home");
        let root = temp.path().join("aios");
        Folder { temp, root }
    }

    /// `aios/` is an empty directory.
    pub fn empty() -> Folder {
        let folder = Folder::missing();
        fs::create_dir(&folder.root).expect("aios");
        folder
    }

    /// `aios/` is a copy of `examples/aios`.
    pub fn sample() -> Folder {
        let folder = Folder::missing();
        write_sample(&folder.root);
        folder
    }

    /// `aios/` is what a fresh `dotaios init` writes.
    pub fn fresh() -> Folder {
        Folder::fresh_in(&std::env::temp_dir())
    }

    /// Like [`Folder::fresh`], below `parent`.
    pub fn fresh_in(parent: &Path) -> Folder {
        let folder = Folder::missing_in(parent);
        write_fresh(&folder.root);
        folder
    }

    /// The AIOS folder, `<temp>/aios`.
    pub fn path(&self) -> &Path {
        &self.root
    }

    /// `<temp>/home`.
    pub fn home(&self) -> PathBuf {
        self.temp.path().join("home")
    }

    /// The temporary directory holding both.
    pub fn temp(&self) -> &Path {
        self.temp.path()
    }

    /// Writes `bytes` at `relative` below the folder, creating parent directories.
    pub fn write(&self, relative: &str, bytes: impl AsRef<[u8]>) -> &Folder {
        let path = self.root.join(relative);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).unwrap_or_else(|e| panic!("mkdir {relative}: {e}"));
        }
        fs::write(&path, bytes).unwrap_or_else(|e| panic!("write {relative}: {e}"));
        self
    }

    /// Makes the directory `relative` (and its parents) below the folder.
    pub fn mkdir(&self, relative: &str) -> &Folder {
        fs::create_dir_all(self.root.join(relative))
            .unwrap_or_else(|e| panic!("mkdir {relative}: {e}"));
        self
    }

    /// Makes `relative` a symbolic link whose target text is `target` (Unix only: Windows
    /// needs a privilege to create links, and Wine does not create them).
    #[cfg(unix)]
    pub fn symlink(&self, relative: &str, target: impl AsRef<Path>) -> &Folder {
        std::os::unix::fs::symlink(target, self.root.join(relative))
            .unwrap_or_else(|e| panic!("symlink {relative}: {e}"));
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fresh_has_its_dotfiles_and_empty_directories() {
        let folder = Folder::fresh();
        assert!(folder.path().join(".gitignore").is_file());
        assert!(folder.path().join(".env.example").is_file());
        assert!(!folder.path().join("dot.gitignore").exists());
        assert!(folder.path().join("memory/sessions").is_dir());
        let config = fs::read_to_string(folder.path().join("aios.json")).unwrap();
        assert!(config.contains(FRESH_CREATED_AT));
        assert!(folder.home().is_dir());
    }

    #[test]
    fn sample_is_examples_aios() {
        let folder = Folder::sample();
        assert_eq!(
            crate::fingerprint(folder.path()).contents(),
            crate::fingerprint(&examples_aios()).contents()
        );
    }
}
