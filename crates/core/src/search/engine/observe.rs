//! The early read of inspection (contract 03 §4.8 rule 1, §14.1): each file a corpus walk
//! accepted is stat'ed through the directory handle that listed it and, in the same parallel
//! pass, read and analysed against the query (or served from the server's cache, §19.2), so
//! that execution only reads the files this pass could not.
//!
//! It owns the enumeration identity and the early analysis of accepted files; it never lists a
//! directory, never charges the ledger (only the demand), and never ranks.

use std::sync::Arc;

use dotaios_contained::{Dir, EntryKind, Identity, Ledger, Limits, ReadOptions, RelPath};

use crate::search::MAX_FILE_BYTES;
use crate::search::cache::{Key, KeyRef, SearchCache};
use crate::search::error::{EvidenceError, ScopeFailure, observed_path_error, unreadable_read};
use crate::search::markdown::{FileAnalysis, HitForm, analyze_as};
use crate::search::matcher::Query;
use crate::search::omission::Unreadable;
use crate::search::relevance::lowercase_into;

use super::execute::mtime_ms;
use super::parallel::parallel_map;
use super::{CorpusFile, Engine, RootId, ScopeWork};

/// How many accepted files inspection reads before it charges them (see
/// [`Engine::observe_accepted`]).
const OBSERVE_BATCH: usize = 512;

/// A file the walk accepted: its path from the root, and its name in the directory handle that
/// listed it.
pub(super) struct Accepted {
    pub(super) path: RelPath,
    pub(super) dir: Arc<Dir>,
    pub(super) name: String,
}

impl Engine<'_> {
    /// Observes the accepted files and charges them as demand, in enumeration order (§14.1).
    ///
    /// Each file is stat'ed by its name relative to the directory handle the walk holds (the
    /// enumeration identity of §4.8 rule 1,) and, in the same pass and in
    /// parallel, read through that handle: `openat(dirfd, name)`, an `fstat` that must equal
    /// the stat, one read of `size + 1`, close; the `fstat` after the read is left out because
    /// final revalidation compares the same identity. With the server's cache, the stat alone
    /// validates a cached text (§19.2), and is that file's final observation. Only the size
    /// goes into the demand and the ledger is charged at execution, as the contract orders it. A
    /// file whose content is not UTF-8 or whose open is refused for permissions is skipped here
    /// (§4.5, the one rule in `search::error::unreadable_read`); a file whose read fails for
    /// any other reason is read again at execution, so that error only fails the request when
    /// its scope is admitted.
    pub(super) fn observe_accepted(
        &self,
        work: &mut ScopeWork,
        root: RootId,
        accepted: Vec<Accepted>,
        strip: usize,
        prefix: &str,
    ) -> Result<Vec<CorpusFile>, ScopeFailure> {
        let query = &self.query;
        let cache = self
            .cache
            .zip(self.root_identity(root))
            .map(|((cache, generation), root)| (cache, generation, root));
        let now_ms = self.request.clock.now_ms;
        let mut files = Vec::with_capacity(accepted.len());
        // Files are read a batch at a time, so a scope that the demand check stops early (a
        // ceiling) costs at most one batch of reads beyond that point.
        for batch in accepted.chunks(OBSERVE_BATCH) {
            let early = parallel_map(batch, self.request.workers, |file, buffer| {
                let relative = &file.path.as_str()[strip..];
                observe_one(file, relative, prefix, query, cache, now_ms, buffer)
            });
            for (file, early) in batch.iter().zip(early) {
                let (identity, analysis, cached) = match early? {
                    Early::Read(identity, analysis, cached) => (identity, analysis, cached),
                    // Never charged, never read again, never revalidated: the rest of the
                    // scope is searched without it (§4.5).
                    Early::Unreadable(why) => {
                        self.skip_unreadable(work, root, file.path.as_str(), why);
                        continue;
                    }
                };
                self.demand_file(work, root, &file.path, identity.size)?;
                files.push(CorpusFile {
                    rel: file.path.clone(),
                    strip,
                    identity,
                    cached: cached.is_some(),
                    text: cached,
                    analysis,
                });
            }
        }
        Ok(files)
    }
}

/// What [`observe_one`] found: the file's identity, its analysis when it was read, and the
/// cached text when the cache served it; or that the file cannot be read and is skipped
/// (`search::error::unreadable_read`).
enum Early {
    Read(Identity, Option<FileAnalysis>, Option<Arc<str>>),
    Unreadable(Unreadable),
}

/// The enumeration stat and early read of one accepted file (see
/// [`Engine::observe_accepted`]): its identity, its analysis (in the ranking form, see
/// [`HitForm`]) when it was read, and the cached text when the cache served it, or that it is
/// unreadable; or why the stat failed.
fn observe_one(
    file: &Accepted,
    relative: &str,
    prefix: &str,
    query: &Query,
    cache: Option<(&SearchCache, u64, Identity)>,
    now_ms: f64,
    buffer: &mut String,
) -> Result<Early, ScopeFailure> {
    let identity = match file.dir.stat(&file.name) {
        Ok(Some(found)) if found.kind == EntryKind::File => found.identity,
        Ok(_) => return Err(EvidenceError::Changed.into()),
        Err(error) => return Err(observed_path_error(error)),
    };
    let key = cache.map(|(_, _, root)| KeyRef {
        root_dev: root.dev,
        root_ino: root.ino,
        path: file.path.as_str(),
    });
    // `get` reuses the entry only when this stat equals the identity recorded at its read.
    if let (Some((cache, generation, _)), Some(key)) = (cache, key)
        && let Some(hit) = cache.get(key, &identity, generation)
    {
        let analysis = analyze_as(
            &hit.text,
            &hit.lower,
            Some(&hit.profile),
            relative,
            prefix,
            mtime_ms(&identity),
            query,
            HitForm::Ranking,
        );
        return Ok(Early::Read(identity, Some(analysis), Some(hit.text)));
    }
    let mut sub = Ledger::new(Limits {
        files: 1,
        bytes: MAX_FILE_BYTES,
        entries: 0,
    });
    let options = ReadOptions::new(MAX_FILE_BYTES)
        .expecting(identity)
        .caller_revalidates();
    // Any other failed read is tried again at execution, where it fails the request only if
    // the scope is admitted.
    let read = match file.dir.read_text_with(&file.name, &options, &mut sub) {
        Ok(Some(read)) => read,
        Ok(None) => return Ok(Early::Read(identity, None, None)),
        Err(error) => {
            return Ok(match unreadable_read(&error) {
                Some(why) => Early::Unreadable(why),
                None => Early::Read(identity, None, None),
            });
        }
    };
    lowercase_into(&read.text, buffer);
    let analysis = analyze_as(
        &read.text,
        buffer,
        None,
        relative,
        prefix,
        mtime_ms(&identity),
        query,
        HitForm::Ranking,
    );
    if let (Some((cache, generation, _)), Some(key)) = (cache, key) {
        let key = Key {
            root_dev: key.root_dev,
            root_ino: key.root_ino,
            path: key.path.to_owned(),
        };
        cache.insert(key, identity, &read.text, buffer, now_ms, generation);
    }
    Ok(Early::Read(identity, Some(analysis), None))
}
