//! The early read of inspection (contract 03 §4.8 rule 1, §14.1): each file a corpus walk
//! accepted is stat'ed through the directory handle that listed it and, on the observing
//! threads while the walk goes on listing, read and analysed against the query (or served from
//! the server's cache, §19.2), so that execution only reads the files this pass could not.
//!
//! It owns the enumeration identity, the early analysis of accepted files and the hand-off
//! from the walk to the observing threads; it never lists a directory, never charges the
//! ledger (only the demand, in enumeration order), and never ranks.

use std::collections::{BTreeMap, VecDeque};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};

use dotaios_contained::{Dir, EntryKind, Identity, Ledger, Limits, ReadOptions, RelPath};

use crate::search::MAX_FILE_BYTES;
use crate::search::cache::{Key, KeyRef, SearchCache};
use crate::search::error::{EvidenceError, ScopeFailure, observed_path_error, unreadable_read};
use crate::search::markdown::{FileAnalysis, HitForm, analyze_as};
use crate::search::matcher::Query;
use crate::search::omission::Unreadable;
use crate::search::relevance::lowercase_into;

use super::execute::mtime_ms;
use super::inspect::charge_file_demand;
use super::{CorpusFile, Engine, RootId, ScopeWork};
use crate::search::omission::Counts;

/// How far, in files, the early reads may run ahead of the first file whose demand is not yet
/// known to fit (see [`observe_while_walking`]).
const OBSERVE_BATCH: usize = 512;

/// How many accepted files the walk hands to the observing threads at a time: small enough
/// that they start while the walk lists, large enough to keep the queue's lock cold.
const CHUNK: usize = 32;

/// A file the walk accepted: its path from the root, and its name in the directory handle that
/// listed it.
pub(super) struct Accepted {
    pub(super) path: RelPath,
    pub(super) dir: Arc<Dir>,
    pub(super) name: String,
}

/// What the observing threads need: what [`observe_one`] reads, and the inputs of the file
/// demand (§14.1) that bounds how far they read ahead.
pub(super) struct Observing<'a> {
    pub(super) query: &'a Query,
    pub(super) cache: Option<(&'a SearchCache, u64, Identity)>,
    pub(super) now_ms: f64,
    /// Where the path from the corpus directory starts in an accepted file's path.
    pub(super) strip: usize,
    pub(super) prefix: &'a str,
    pub(super) workers: usize,
    /// The scope's demand before this corpus, and `available`.
    pub(super) demand: Counts,
    pub(super) available: Counts,
}

/// An accepted file and what its early observation found; `None` when it was not observed
/// because the demand of an earlier file already failed the scope.
pub(super) type Observed = (Accepted, Option<Result<Early, ScopeFailure>>);

/// The state the walk and the observing threads share.
struct Shared {
    /// Chunks of accepted files not yet taken, each with the index of its first file and the
    /// room for its results. Both are allocated by the walk's thread: results held until the
    /// walk ends would otherwise grow the observing threads' heaps a page at a time.
    queue: VecDeque<(usize, Vec<Accepted>, Vec<Observed>)>,
    /// Observing threads asleep on the condition variable: a wake-up is a system call, made
    /// only when one of them waits.
    waiting: usize,
    /// The walk has ended: no more chunks will come.
    walked: bool,
    /// The first file, in enumeration order, whose demand is not yet checked.
    next: usize,
    /// Observed chunks waiting for the ones before them: per file, its size when it is charged,
    /// `Some(None)` when it is skipped uncharged, `None` when the request stops there.
    finished: BTreeMap<usize, Vec<Option<Option<u64>>>>,
    /// The demand of the files up to `next`.
    demand: Counts,
    /// A file's demand failed (or its observation did): nothing after it is read.
    stopped: bool,
}

/// Runs `walk` on this thread while `workers` threads observe the files it accepts
/// ([`observe_one`]: the enumeration stat and the early read), so that reading starts while
/// directories are still being listed. Returns every accepted file with its observation, in
/// enumeration order (chunk by chunk, so that each chunk is freed as it is consumed), or the
/// walk's failure.
///
/// Reads never run more than [`OBSERVE_BATCH`] files past the first file whose file demand
/// (§14.1, `charge_file_demand`, the rule [`Engine::observe_accepted`] then applies for real)
/// is not yet known to fit, and stop at the first that does not fit: a scope that a ceiling
/// stops costs at most one batch of reads beyond that point.
pub(super) fn observe_while_walking(
    observing: &Observing<'_>,
    walk: impl FnOnce(&mut dyn FnMut(Accepted)) -> Result<(), ScopeFailure>,
) -> Result<Vec<Vec<Observed>>, ScopeFailure> {
    let shared = Mutex::new(Shared {
        queue: VecDeque::new(),
        waiting: 0,
        walked: false,
        next: 0,
        finished: BTreeMap::new(),
        demand: observing.demand,
        stopped: false,
    });
    let changed = Condvar::new();
    let lock = || shared.lock().unwrap_or_else(PoisonError::into_inner);
    let (walked, mut pieces) = std::thread::scope(|scope| {
        // This thread walks, then observes too: one thread a worker, never more runnable
        // threads than the request's workers (the CLI's are the machine's cores).
        let threads: Vec<_> = (1..observing.workers.clamp(1, 32))
            .map(|_| scope.spawn(|| observe_chunks(observing, &shared, &changed)))
            .collect();
        let mut chunk = Vec::with_capacity(CHUNK);
        let mut count = 0;
        let send = |chunk: Vec<Accepted>, start: usize| {
            let results = Vec::with_capacity(chunk.len());
            let mut state = lock();
            state.queue.push_back((start, chunk, results));
            if state.waiting > 0 {
                changed.notify_all();
            }
        };
        let walked = walk(&mut |file| {
            chunk.push(file);
            count += 1;
            if chunk.len() == CHUNK {
                send(
                    std::mem::replace(&mut chunk, Vec::with_capacity(CHUNK)),
                    count - CHUNK,
                );
            }
        });
        if !chunk.is_empty() {
            let start = count - chunk.len();
            send(chunk, start);
        }
        {
            let mut state = lock();
            state.walked = true;
            // A failed walk fails the scope: nothing more needs reading.
            state.stopped |= walked.is_err();
        }
        changed.notify_all();
        let mut pieces = observe_chunks(observing, &shared, &changed);
        for thread in threads {
            pieces.extend(
                thread
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            );
        }
        (walked, pieces)
    });
    walked?;
    pieces.sort_by_key(|(start, _)| *start);
    Ok(pieces.into_iter().map(|(_, files)| files).collect())
}

/// One observing thread of [`observe_while_walking`]: takes chunks in order until the walk has
/// ended and the queue is empty, waiting while a chunk lies more than [`OBSERVE_BATCH`] files
/// past the demand checked so far.
fn observe_chunks(
    observing: &Observing<'_>,
    shared: &Mutex<Shared>,
    changed: &Condvar,
) -> Vec<(usize, Vec<Observed>)> {
    let lock = || shared.lock().unwrap_or_else(PoisonError::into_inner);
    let mut buffer = String::new();
    let mut done = Vec::new();
    loop {
        let (start, files, mut observed, stopped) = {
            let mut state = lock();
            let (start, files, observed) = loop {
                if let Some(chunk) = state.queue.pop_front() {
                    break chunk;
                }
                if state.walked {
                    return done;
                }
                state = wait(changed, state);
            };
            // The chunk holding `next` is always taken by a thread that does not wait here,
            // since chunks are taken in order: the wait ends.
            while !state.stopped && start >= state.next + OBSERVE_BATCH {
                state = wait(changed, state);
            }
            (start, files, observed, state.stopped)
        };
        observed.extend(files.into_iter().map(|file| {
            let early = (!stopped).then(|| {
                let relative = &file.path.as_str()[observing.strip..];
                observe_one(&file, relative, observing, &mut buffer)
            });
            (file, early)
        }));
        let outcomes = observed
            .iter()
            .map(|(_, early)| match early {
                Some(Ok(Early::Read(identity, ..))) => Some(Some(identity.size)),
                Some(Ok(Early::Unreadable(_))) => Some(None),
                Some(Err(_)) | None => None,
            })
            .collect();
        {
            let mut state = lock();
            state.finished.insert(start, outcomes);
            let Shared {
                next,
                finished,
                demand,
                stopped,
                ..
            } = &mut *state;
            while !*stopped && let Some(outcomes) = finished.remove(next) {
                *next += outcomes.len();
                for outcome in outcomes {
                    let fits = match outcome {
                        Some(Some(size)) => {
                            charge_file_demand(demand, &observing.available, size).is_ok()
                        }
                        Some(None) => true,
                        None => false,
                    };
                    if !fits {
                        *stopped = true;
                        break;
                    }
                }
            }
            if state.waiting > 0 {
                changed.notify_all();
            }
        }
        done.push((start, observed));
    }
}

/// Sleeps on `changed`, counted in [`Shared::waiting`] so that wake-ups are sent only to
/// sleepers.
fn wait<'a>(changed: &Condvar, mut state: MutexGuard<'a, Shared>) -> MutexGuard<'a, Shared> {
    state.waiting += 1;
    let mut state = changed.wait(state).unwrap_or_else(PoisonError::into_inner);
    state.waiting -= 1;
    state
}

impl Engine<'_> {
    /// Charges the observed files as demand, in enumeration order (§14.1), and returns them.
    ///
    /// Each file was stat'ed by its name relative to the directory handle the walk holds (the
    /// enumeration identity of §4.8 rule 1) and, in the same pass and in parallel, read
    /// through that handle: `openat(dirfd, name)`, an `fstat` that must equal the stat, one
    /// read of `size + 1`, close; the `fstat` after the read is left out because final
    /// revalidation compares the same identity. With the server's cache, the stat alone
    /// validates a cached text (§19.2), and is that file's final observation. Only the size
    /// goes into the demand and the ledger is charged at execution, as the contract orders it.
    /// A file whose content is not UTF-8 or whose open is refused for permissions is skipped
    /// here (§4.5, the one rule in `search::error::unreadable_read`); a file whose read fails
    /// for any other reason is read again at execution, so that error only fails the request
    /// when its scope is admitted. The first failure in enumeration order is the one reported.
    pub(super) fn observe_accepted(
        &self,
        work: &mut ScopeWork,
        root: RootId,
        observed: Vec<Vec<Observed>>,
        strip: usize,
    ) -> Result<Vec<CorpusFile>, ScopeFailure> {
        let mut files = Vec::with_capacity(observed.iter().map(Vec::len).sum());
        for (file, early) in observed.into_iter().flatten() {
            // Only files after one whose demand failed go unobserved, and the loop stops there.
            let early = early.ok_or(ScopeFailure::Fatal(EvidenceError::Changed.into()))?;
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
                rel: file.path,
                strip,
                identity,
                cached: cached.is_some(),
                text: cached,
                analysis,
            });
        }
        Ok(files)
    }
}

/// What [`observe_one`] found: the file's identity, its analysis when it was read, and the
/// cached text when the cache served it; or that the file cannot be read and is skipped
/// (`search::error::unreadable_read`).
pub(super) enum Early {
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
    observing: &Observing<'_>,
    buffer: &mut String,
) -> Result<Early, ScopeFailure> {
    let Observing {
        query,
        cache,
        now_ms,
        prefix,
        ..
    } = *observing;
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

#[cfg(test)]
mod tests {
    use super::*;
    use dotaios_contained::Root;

    /// The early reads stop at the first file whose demand does not fit, and never run more
    /// than one batch past it, however far the walk goes on.
    #[test]
    fn reads_stop_one_batch_past_a_demand_that_does_not_fit() {
        let temp = tempfile::tempdir().unwrap();
        let total = 3 * OBSERVE_BATCH;
        for index in 0..total {
            std::fs::write(temp.path().join(format!("{index:05}.md")), "x\n").unwrap();
        }
        // The first file is slow to analyse, so the other thread runs far ahead of it unless
        // the window holds it back.
        let slow = "needle and haystack words\n".repeat(100_000);
        std::fs::write(temp.path().join("00000.md"), slow).unwrap();
        let root = Root::open(temp.path()).unwrap();
        let dir = Arc::new(root.dir().unwrap());
        let query = Query::new("x");
        let observing = Observing {
            query: &query,
            cache: None,
            now_ms: 0.0,
            strip: 0,
            prefix: "vault",
            workers: 2,
            demand: Counts::default(),
            // The fourth file is one too many.
            available: Counts {
                files: 3,
                bytes: 1 << 30,
                entries: 0,
            },
        };
        let observed = observe_while_walking(&observing, |sink| {
            for index in 0..total {
                let name = format!("{index:05}.md");
                sink(Accepted {
                    path: RelPath::new(&name).unwrap(),
                    dir: Arc::clone(&dir),
                    name,
                });
            }
            Ok(())
        })
        .unwrap();
        let observed: Vec<Observed> = observed.into_iter().flatten().collect();
        assert_eq!(observed.len(), total);
        let names: Vec<&str> = observed
            .iter()
            .map(|(file, _)| file.name.as_str())
            .collect();
        assert!(names.windows(2).all(|pair| pair[0] < pair[1]), "in order");
        assert!(observed[..4].iter().all(|(_, early)| early.is_some()));
        let read_past = observed[OBSERVE_BATCH..]
            .iter()
            .filter(|(_, early)| early.is_some())
            .count();
        assert_eq!(read_past, 0);
    }

    /// With room for every file, every file is observed, in order.
    #[test]
    fn every_file_is_observed_when_the_demand_fits() {
        let temp = tempfile::tempdir().unwrap();
        let total = 2 * OBSERVE_BATCH + 7;
        for index in 0..total {
            std::fs::write(temp.path().join(format!("{index:05}.md")), "x\n").unwrap();
        }
        let root = Root::open(temp.path()).unwrap();
        let dir = Arc::new(root.dir().unwrap());
        let query = Query::new("x");
        let observing = Observing {
            query: &query,
            cache: None,
            now_ms: 0.0,
            strip: 0,
            prefix: "vault",
            workers: 3,
            demand: Counts::default(),
            available: Counts {
                files: total as u64,
                bytes: 1 << 20,
                entries: 0,
            },
        };
        let observed = observe_while_walking(&observing, |sink| {
            for index in 0..total {
                let name = format!("{index:05}.md");
                sink(Accepted {
                    path: RelPath::new(&name).unwrap(),
                    dir: Arc::clone(&dir),
                    name,
                });
            }
            Ok(())
        })
        .unwrap();
        let observed: Vec<Observed> = observed.into_iter().flatten().collect();
        assert_eq!(observed.len(), total);
        for (index, (file, early)) in observed.iter().enumerate() {
            assert_eq!(file.name, format!("{index:05}.md"));
            assert!(matches!(early, Some(Ok(Early::Read(_, Some(_), None)))));
        }
    }
}
