//! The `safe-walk` and `safe-enumerate` controls: the fixture's vault seen through the
//! contained reader's walk-relative handles alone (contract 03 §4.8), with no search logic.
//!
//! `safe-walk`, per directory: one contained open and a bounded listing. Per note: the
//! enumeration stat by name (`statx`/`fstatat`), the open by name whose `fstat` must equal it,
//! one read of `size + 1`, strict UTF-8, close; and at the end the revalidation of every
//! directory (reopened contained from the root) and of every note by name relative to it. It
//! measures what search costs when it reads through [`Dir`] handles, beside `raw-read` and
//! `safe-corpus` (search's own reader path) in the same run.
//!
//! `safe-enumerate` is the floor of a cached `search_aios` repeat (contract 03 §19.2): the same
//! opens and listings, and per note only the enumeration stat by name, which is all a repeat
//! may rely on to know a cached text is current; nothing is opened, read or revalidated. Its
//! bytes are the stat sizes. Whatever a repeat does beyond it is search's own work, so its
//! ratio to `raw-read` bounds from below what target b can reach while every request
//! enumerates (contract 07 §2).
//!
//! It never holds more than one batch of directories open at a time (macOS's default limit is
//! 256 descriptors), and never writes.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::threads::on_threads;
use dotaios_contained::{
    Dir, EntryKind, Identity, Ledger, Limits, ReadError, ReadOptions, RelPath, Root,
};

/// Per-file cap, as search's (contract 03 §13).
const MAX_FILE_BYTES: u64 = 1 << 20;
/// Per-directory entry bound, as search's.
const MAX_DIRECTORY_ENTRIES: u64 = 10_000;
/// Notes read per parallel batch; bounds the directories held open at once.
const BATCH: usize = 512;

/// Files and bytes read.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct Totals {
    pub(crate) files: u64,
    pub(crate) bytes: u64,
}

/// A note found by the walk: its directory (index into the walk's directories), its name and,
/// once its batch was read, its enumeration identity.
struct Note {
    dir: usize,
    name: String,
    identity: Option<Identity>,
}

/// What a pass does per note.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Pass {
    /// `safe-walk`: stat, open, read, and the final revalidation.
    Read,
    /// `safe-enumerate`: the enumeration stat alone.
    Enumerate,
}

/// Reads (or, for [`Pass::Enumerate`], stats) `aios/vault` as described above, on `workers`
/// threads.
pub(crate) fn read_vault(aios: &Path, workers: usize, pass: Pass) -> Result<Totals, String> {
    let root = Root::open(aios).map_err(|error| error.to_string())?;
    let root_identity = root.restat().map_err(text)?;
    let vault = RelPath::new("vault").map_err(|error| error.to_string())?;
    let Some(top) = root.open_dir(&vault).map_err(text)? else {
        return Ok(Totals::default());
    };
    let mut directories: Vec<(RelPath, Identity)> = vec![(vault.clone(), top.identity())];
    let mut notes: Vec<Note> = Vec::new();
    let mut batch: Vec<(Arc<Dir>, usize)> = Vec::new();
    let mut totals = Totals::default();
    // Depth-first; each stack entry is a directory whose subdirectories are still to visit.
    let mut stack: Vec<(Arc<Dir>, usize, Vec<String>)> = Vec::new();
    let mut ledger = Ledger::new(Limits {
        files: 0,
        bytes: 0,
        entries: u64::MAX,
    });
    visit(
        Arc::new(top),
        0,
        &mut ledger,
        &mut stack,
        &mut notes,
        &mut batch,
    )?;
    while let Some((dir, index, subdirectories)) = stack.last_mut() {
        let Some(name) = subdirectories.pop() else {
            stack.pop();
            continue;
        };
        let child = dir
            .open_dir(&name)
            .map_err(text)?
            .ok_or("a listed directory vanished")?;
        let path = directories[*index]
            .0
            .join(&name)
            .map_err(|error| error.to_string())?;
        directories.push((path, child.identity()));
        let child_index = directories.len() - 1;
        visit(
            Arc::new(child),
            child_index,
            &mut ledger,
            &mut stack,
            &mut notes,
            &mut batch,
        )?;
        if batch.len() >= BATCH {
            read_batch(&batch, &mut notes, workers, pass, &mut totals)?;
            batch.clear();
        }
    }
    read_batch(&batch, &mut notes, workers, pass, &mut totals)?;
    drop(batch);
    if pass == Pass::Read {
        revalidate(&root, &root_identity, &directories, &notes, workers)?;
    }
    Ok(totals)
}

/// Lists `dir`: notes are queued for the next batch, subdirectories pushed for later.
fn visit(
    dir: Arc<Dir>,
    index: usize,
    ledger: &mut Ledger,
    stack: &mut Vec<(Arc<Dir>, usize, Vec<String>)>,
    notes: &mut Vec<Note>,
    batch: &mut Vec<(Arc<Dir>, usize)>,
) -> Result<(), String> {
    let listing = dir.list(MAX_DIRECTORY_ENTRIES, ledger).map_err(text)?;
    let mut subdirectories = Vec::new();
    for entry in listing.entries {
        let Some(name) = entry.name_str() else {
            return Err("a name that is not UTF-8".to_owned());
        };
        if name.starts_with('.') {
            continue;
        }
        match entry.kind {
            EntryKind::Directory => subdirectories.push(name.to_owned()),
            EntryKind::File if name.to_ascii_lowercase().ends_with(".md") => {
                notes.push(Note {
                    dir: index,
                    name: name.to_owned(),
                    identity: None,
                });
                batch.push((dir.clone(), notes.len() - 1));
            }
            EntryKind::File => {}
            _ => return Err("a link or special file in the vault".to_owned()),
        }
    }
    // Popped from the end: reverse so the walk visits them in listing order.
    subdirectories.reverse();
    stack.push((dir, index, subdirectories));
    Ok(())
}

/// Stats (and for [`Pass::Read`] reads) one batch of notes in parallel, each by name through
/// its directory's handle, and records their identities.
fn read_batch(
    batch: &[(Arc<Dir>, usize)],
    notes: &mut [Note],
    workers: usize,
    pass: Pass,
    totals: &mut Totals,
) -> Result<(), String> {
    let next = AtomicUsize::new(0);
    let shared: &[Note] = notes;
    let results = on_threads(workers, || {
        let mut ledger = Ledger::new(Limits {
            files: u64::MAX,
            bytes: u64::MAX,
            entries: 0,
        });
        let mut read = Totals::default();
        let mut seen = Vec::new();
        loop {
            let index = next.fetch_add(1, Ordering::Relaxed);
            let Some((dir, note)) = batch.get(index) else {
                break;
            };
            let name = &shared[*note].name;
            // The enumeration identity (rule 1), then the open that must match it (rule 2).
            let found = dir
                .stat(name)
                .map_err(text)?
                .ok_or("a listed note vanished")?;
            if pass == Pass::Enumerate {
                read.files += 1;
                read.bytes += found.identity.size;
                seen.push((*note, found.identity));
                continue;
            }
            let options = ReadOptions::new(MAX_FILE_BYTES)
                .expecting(found.identity)
                .caller_revalidates();
            let file = dir
                .read_text_with(name, &options, &mut ledger)
                .map_err(text)?
                .ok_or("a listed note vanished")?;
            read.files += 1;
            read.bytes += file.text.len() as u64;
            seen.push((*note, found.identity));
        }
        Ok((read, seen))
    });
    for result in results {
        let (read, seen) = result?;
        totals.files += read.files;
        totals.bytes += read.bytes;
        for (note, identity) in seen {
            notes[note].identity = Some(identity);
        }
    }
    Ok(())
}

/// Contract 03 §4.8 rule 4: the root, every directory (reopened contained from the root, so its
/// path still leads to it) and every note (by name relative to that handle) are unchanged.
fn revalidate(
    root: &Root,
    root_identity: &Identity,
    directories: &[(RelPath, Identity)],
    notes: &[Note],
    workers: usize,
) -> Result<(), String> {
    if root.restat().map_err(text)? != *root_identity {
        return Err(text(ReadError::Changed));
    }
    let mut by_directory: Vec<Vec<&Note>> = directories.iter().map(|_| Vec::new()).collect();
    for note in notes {
        by_directory[note.dir].push(note);
    }
    let next = AtomicUsize::new(0);
    let results = on_threads(workers, || {
        loop {
            let index = next.fetch_add(1, Ordering::Relaxed);
            let (Some((path, identity)), Some(notes)) =
                (directories.get(index), by_directory.get(index))
            else {
                return Ok(());
            };
            let dir = root
                .open_dir(path)
                .map_err(text)?
                .ok_or("a directory vanished")?;
            if dir.identity() != *identity {
                return Err(text(ReadError::Changed));
            }
            for note in notes {
                let identity = note.identity.ok_or("a note was never read")?;
                if !dir.still_matches(&note.name, &identity).map_err(text)? {
                    return Err(text(ReadError::Changed));
                }
            }
        }
    });
    results.into_iter().collect()
}

fn text(error: ReadError) -> String {
    error.to_string()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A small AIOS folder's vault for the controls' tests: three notes of 1, 2 and 3 bytes
    /// (one with an upper-case extension), a hidden note and a picture that are not notes.
    pub(crate) fn small_vault() -> (tempfile::TempDir, std::path::PathBuf) {
        let temp = tempfile::tempdir().unwrap();
        let vault = temp.path().join("vault");
        std::fs::create_dir_all(vault.join("a/b")).unwrap();
        std::fs::write(vault.join("one.md"), "1").unwrap();
        std::fs::write(vault.join("a/two.MD"), "22").unwrap();
        std::fs::write(vault.join("a/b/three.md"), "333").unwrap();
        std::fs::write(vault.join("a/b/.hidden.md"), "skipped").unwrap();
        std::fs::write(vault.join("a/b/picture.png"), "skipped").unwrap();
        (temp, vault)
    }

    #[test]
    fn reads_every_note_and_refuses_a_change() {
        let (temp, vault) = small_vault();
        for pass in [Pass::Read, Pass::Enumerate] {
            let totals = read_vault(temp.path(), 2, pass).unwrap();
            assert_eq!((totals.files, totals.bytes), (3, 6), "{pass:?}");
        }
        // A link is a change both passes refuse (links: Unix only).
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink("one.md", vault.join("a/linked.md")).unwrap();
            assert!(read_vault(temp.path(), 2, Pass::Read).is_err());
            assert!(read_vault(temp.path(), 2, Pass::Enumerate).is_err());
        }
        #[cfg(not(unix))]
        let _ = vault;
    }

    /// The enumerate pass reads nothing: a note that is not UTF-8 counts by its stat, where the
    /// read pass refuses it.
    #[test]
    fn enumerate_reads_no_note() {
        let (temp, vault) = small_vault();
        std::fs::write(vault.join("one.md"), [0xff]).unwrap();
        let totals = read_vault(temp.path(), 1, Pass::Enumerate).unwrap();
        assert_eq!((totals.files, totals.bytes), (3, 6));
        assert!(read_vault(temp.path(), 1, Pass::Read).is_err());
    }
}
