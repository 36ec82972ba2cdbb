//! [`RelPath`]: the only kind of path the contained reader accepts below a root.

use std::fmt;

/// A relative path of one or more normal components separated by `/`: no empty, `.` or `..`
/// component, no leading `/`, no NUL. It names something below a root and cannot name
/// anything else.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RelPath(String);

/// Why a string is not a [`RelPath`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a contained relative path")]
pub struct InvalidRelPath;

impl RelPath {
    /// Validates `path` (for example `memory/events.jsonl`).
    pub fn new(path: &str) -> Result<RelPath, InvalidRelPath> {
        if path.is_empty() || path.contains('\0') {
            return Err(InvalidRelPath);
        }
        if path.split('/').all(is_normal_component) {
            Ok(RelPath(path.to_owned()))
        } else {
            Err(InvalidRelPath)
        }
    }

    /// `self` followed by one more component (a directory entry name).
    pub fn join(&self, name: &str) -> Result<RelPath, InvalidRelPath> {
        if !is_normal_component(name) || name.contains(['/', '\0']) {
            return Err(InvalidRelPath);
        }
        // Sized once and filled by hand: this runs once per walked entry.
        let mut path = String::with_capacity(self.0.len() + 1 + name.len());
        path.push_str(&self.0);
        path.push('/');
        path.push_str(name);
        Ok(RelPath(path))
    }

    /// The path as text, `/`-separated.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The components, outermost first.
    pub fn components(&self) -> impl Iterator<Item = &str> {
        self.0.split('/')
    }

    /// The last component.
    pub fn file_name(&self) -> &str {
        self.0.rsplit('/').next().unwrap_or(&self.0)
    }

    /// Everything before the last component, when there is more than one.
    pub(crate) fn parent(&self) -> Option<&str> {
        self.0.rsplit_once('/').map(|(parent, _)| parent)
    }
}

/// Whether `name` is one normal component: what a directory handle's child operations accept
/// (no empty name, no `.` or `..`, no `/`, no NUL).
pub(crate) fn is_single_component(name: &[u8]) -> bool {
    !name.is_empty() && name != b"." && name != b".." && !name.contains(&b'/') && !name.contains(&0)
}

fn is_normal_component(component: &str) -> bool {
    !component.is_empty() && component != "." && component != ".."
}

impl fmt::Debug for RelPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0, f)
    }
}

impl fmt::Display for RelPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_normal_paths() {
        assert!(RelPath::new("aios.json").is_ok());
        assert!(RelPath::new("memory/signals/2026-11-30.jsonl").is_ok());
        assert!(RelPath::new("...").is_ok());
    }

    #[test]
    fn refuses_everything_that_could_leave() {
        for bad in [
            "",
            "/etc/passwd",
            "a//b",
            "a/",
            "./a",
            "a/..",
            "../x",
            "a\0b",
            ".",
        ] {
            assert_eq!(RelPath::new(bad), Err(InvalidRelPath), "{bad:?}");
        }
        let base = RelPath::new("a").unwrap();
        assert!(base.join("..").is_err());
        assert!(base.join("b/c").is_err());
        assert_eq!(base.join("b").unwrap().as_str(), "a/b");
    }

    #[test]
    fn parent_and_single_components() {
        assert_eq!(RelPath::new("a/b/c").unwrap().parent(), Some("a/b"));
        assert_eq!(RelPath::new("a").unwrap().parent(), None);
        assert!(is_single_component(b"note.md"));
        assert!(is_single_component(b"..."));
        for bad in [&b""[..], b".", b"..", b"a/b", b"/", b"a\0b"] {
            assert!(!is_single_component(bad), "{bad:?}");
        }
    }
}
