//! Final revalidation (contract 03 §4.8 rule 4): every observed root, directory and file is
//! observed again after execution, and any difference fails the request closed.
//!
//! Reads no file content. Where the walk kept a directory's handle, its files and child
//! directories are stat'ed by one name relative to it; everything else by its path from the
//! root handle, with `AT_SYMLINK_NOFOLLOW` either way.

use dotaios_contained::{Dir, Identity, RelPath};

use crate::search::error::{EvidenceError, SearchError};

use super::parallel::parallel_map;
use super::vault::VaultPlace;
use super::{Engine, RootId, open_root, parent_of};

/// An observed file: its root, its path from it and its identity.
type ObservedFile = (RootId, RelPath, Identity);

impl Engine<'_> {
    /// §4.8 rule 4: every observed directory and file is `statx`ed again, and every root path
    /// must still lead to the same directory.
    pub(super) fn revalidate(&self) -> Result<(), SearchError> {
        #[cfg(test)]
        crate::run_again::before_revalidation::run();
        let changed = || SearchError::Evidence(EvidenceError::Changed);
        let reopened = open_root(&self.aios_path).map_err(|_| changed())?;
        if reopened.restat().ok() != Some(self.aios_identity)
            || self.aios.restat().ok() != Some(self.aios_identity)
        {
            return Err(changed());
        }
        if let VaultPlace::External {
            root,
            path,
            identity,
        } = &self.vault
        {
            match (root, identity) {
                (Some(root), Some(identity)) => {
                    let reopened = open_root(path).map_err(|_| changed())?;
                    if reopened.restat().ok() != Some(*identity)
                        || root.restat().ok() != Some(*identity)
                    {
                        return Err(changed());
                    }
                }
                _ => {
                    if open_root(path).is_ok() {
                        return Err(changed());
                    }
                }
            }
        }
        let directories: Vec<(&(RootId, Option<RelPath>), &Identity)> =
            self.directories.iter().collect();
        let unchanged = parallel_map(
            &directories,
            self.request.workers,
            |((root, dir), identity), _| {
                let Some(reader) = self.root(*root) else {
                    return false;
                };
                match dir {
                    Some(dir) => match self.parent_handle(*root, dir) {
                        Some((parent, name)) => {
                            parent.still_matches(name, identity).unwrap_or(false)
                        }
                        None => reader.still_matches(dir, identity).unwrap_or(false),
                    },
                    None => reader.restat().ok() == Some(**identity),
                }
            },
        );
        if !unchanged.iter().all(|ok| *ok) {
            return Err(changed());
        }
        // Files come in enumeration order, so neighbours share a parent: its held handle is
        // looked up once per run of files, not once per file.
        let mut last: Option<(RootId, &str, Option<&Dir>)> = None;
        let all_files: Vec<(&ObservedFile, Option<&Dir>)> = self
            .files
            .iter()
            .chain(&self.searched_files)
            .chain(&self.omitted_files)
            .map(|file| {
                let (root, path, _) = file;
                let parent = path
                    .as_str()
                    .rsplit_once('/')
                    .map_or("", |(parent, _)| parent);
                let held = match last {
                    Some((seen_root, seen, held)) if seen_root == *root && seen == parent => held,
                    _ => {
                        let held = self.parent_handle(*root, path).map(|(dir, _)| dir);
                        last = Some((*root, parent, held));
                        held
                    }
                };
                (file, held)
            })
            .collect();
        let verdicts = parallel_map(
            &all_files,
            self.request.workers,
            |((root, path, identity), held), _| match held {
                Some(parent) => {
                    let name = path
                        .as_str()
                        .rsplit_once('/')
                        .map_or(path.as_str(), |(_, name)| name);
                    parent.still_matches(name, identity).unwrap_or(false)
                }
                None => self
                    .root(*root)
                    .is_some_and(|reader| reader.still_matches(path, identity).unwrap_or(false)),
            },
        );
        if verdicts.iter().all(|ok| *ok) {
            Ok(())
        } else {
            Err(changed())
        }
    }

    /// The held handle of `path`'s parent directory and `path`'s last component, when the walk
    /// kept that handle: rule 4 then stats one name relative to it (§4.8).
    fn parent_handle<'p>(&self, root: RootId, path: &'p RelPath) -> Option<(&Dir, &'p str)> {
        let (parent, name) = match path.as_str().rsplit_once('/') {
            Some((_, name)) => (parent_of(path), name),
            None => (None, path.as_str()),
        };
        let handle = self.handles.get(&(root, parent))?;
        Some((handle.as_ref(), name))
    }
}
