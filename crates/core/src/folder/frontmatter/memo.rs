//! The process's memo of loaded frontmatter (contract 01 §5.7 item 5): what [`super::load`]
//! returned for a YAML text, kept so that a long-running adapter's repeated `resolve_skill` or
//! `read_working_context` does not parse unchanged frontmatter again.
//!
//! It is keyed by the text itself, not by the file it came from: a 128-bit digest of the exact
//! bytes under two keys drawn at random for this process, so no document can aim for a
//! collision. A changed file is therefore never served an old answer, whatever its identity
//! says (a write through a shared `mmap` keeps mtime and ctime), and the memo needs no
//! invalidation. Every caller still reads the file, charges it and revalidates it as if
//! uncached; an entry records the work its parse took, which the caller charges again, so a
//! memoised answer is the answer a fresh parse gives under the same request budget.
//!
//! It owns the entries and their cap ([`MEMO_CAP`]); it never reads a file and never decides
//! anything about a document.

use std::collections::HashMap;
use std::hash::{BuildHasher, RandomState};
use std::sync::{LazyLock, Mutex, MutexGuard};

use super::{YamlError, YamlValue};

/// At most this much loaded value (as [`super::load::Loaded::cost`] counts it) is kept; an
/// insert that would pass it empties the memo first.
pub(super) const MEMO_CAP: usize = 16 * 1024 * 1024;

/// One memoised load: the outcome and the events it pulled.
#[derive(Clone)]
pub(super) struct Memoised {
    pub(super) outcome: Result<YamlValue, YamlError>,
    pub(super) events: usize,
}

struct Entry {
    len: usize,
    memoised: Memoised,
    cost: usize,
}

struct Memo {
    keys: (RandomState, RandomState),
    entries: HashMap<(u64, u64), Entry>,
    bytes: usize,
    hits: u64,
}

static MEMO: LazyLock<Mutex<Memo>> = LazyLock::new(|| {
    Mutex::new(Memo {
        keys: (RandomState::new(), RandomState::new()),
        entries: HashMap::new(),
        bytes: 0,
        hits: 0,
    })
});

/// A panic while the lock was held may have left the count wrong: start afresh.
fn lock() -> MutexGuard<'static, Memo> {
    match MEMO.lock() {
        Ok(guard) => guard,
        Err(poisoned) => {
            let mut guard = poisoned.into_inner();
            guard.entries.clear();
            guard.bytes = 0;
            MEMO.clear_poison();
            guard
        }
    }
}

fn digest(memo: &Memo, text: &str) -> (u64, u64) {
    (memo.keys.0.hash_one(text), memo.keys.1.hash_one(text))
}

/// The memoised load of `text`, or `load()`'s, which is then kept (within [`MEMO_CAP`]).
pub(super) fn get_or_load(text: &str, load: impl FnOnce() -> super::load::Loaded) -> Memoised {
    let key = {
        let mut memo = lock();
        let key = digest(&memo, text);
        if let Some(entry) = memo.entries.get(&key)
            && entry.len == text.len()
        {
            let memoised = entry.memoised.clone();
            memo.hits += 1;
            return memoised;
        }
        key
    };
    // Parsed without the lock, so other threads are not held up by a long parse.
    let loaded = load();
    let memoised = Memoised {
        outcome: loaded.outcome,
        events: loaded.events,
    };
    let cost = loaded.cost.saturating_add(64);
    if cost <= MEMO_CAP {
        let mut memo = lock();
        if memo.bytes.saturating_add(cost) > MEMO_CAP {
            memo.entries.clear();
            memo.bytes = 0;
        }
        if let Some(old) = memo.entries.insert(
            key,
            Entry {
                len: text.len(),
                memoised: memoised.clone(),
                cost,
            },
        ) {
            memo.bytes -= old.cost;
        }
        memo.bytes += cost;
    }
    memoised
}

/// How many loads the memo has answered since the process started (tests and diagnostics).
pub fn hits() -> u64 {
    lock().hits
}
