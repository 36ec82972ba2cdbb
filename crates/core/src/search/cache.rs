//! The in-process content cache of contract 03 §19.2, for a long-running MCP server only: the text
//! of Markdown corpus files, its lowercase form and that form's query-independent profile (the
//! [`ByteSet`] of its bytes, which lets matching skip needles it cannot contain), kept between
//! requests. The profile is made from the lowercase text when the entry is stored and lives in
//! the same entry, so it is validated, replaced and evicted exactly with the text.
//!
//! It owns the entries and their validity rules, nothing else. It never decides what a request
//! enumerates, charges or omits (every request still walks and charges as if uncached), never
//! skips the final revalidation, and never outlives the process: nothing here touches the
//! disk. An entry is reused only when a `statx` taken in the current request (beneath the
//! root handle, without following a final symlink) gives the identity recorded when the
//! content was read; content changed less than [`RACY_WINDOW_MS`] before the request's clock
//! is never stored, since a same-size rewrite within one timestamp tick would be invisible.
//! Keys are the root directory's device and inode plus the relative path; entries the latest
//! enumerating request did not see are evicted; the total is capped ([`DEFAULT_CAP_BYTES`]).
//! Beside the texts it remembers each walked directory's visiting order (a pure function of
//! the listing's names), reused only for a listing of exactly the same names.
//! The CLI never builds one: core search is uncached unless the caller passes a cache in.

use std::cmp::Ordering;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use std::ffi::OsString;

use dotaios_contained::{DirEntry, Identity};

use crate::search::matcher::ByteSet;

/// The recommended cap on cached text plus derived data: 32 MiB.
///
/// An entry counts its path, its text, its lowercase text and its profile
/// ([`PROFILE_BYTES`]); a listing order counts its path, its names and 4 bytes per position.
pub const DEFAULT_CAP_BYTES: usize = 32 * 1024 * 1024;

/// What an entry's [`ByteSet`] profile counts against the cap.
pub(crate) const PROFILE_BYTES: usize = std::mem::size_of::<ByteSet>();

/// Content whose mtime or ctime is this close to the request's clock is not stored.
pub(crate) const RACY_WINDOW_MS: f64 = 2000.0;

/// A content cache shared by the requests of one server process. Cheap to share: clone an
/// `Arc` of it. Safe to use from several threads; a request only reads entries it has just
/// validated.
#[derive(Debug)]
pub struct SearchCache {
    cap_bytes: usize,
    inner: Mutex<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    /// By root (device, inode), then by path: a lookup borrows the path, so validating a
    /// cached file allocates nothing.
    entries: HashMap<(u64, u64), HashMap<String, Entry>>,
    /// The visiting order of each walked directory's listing, by root and directory path (the
    /// root itself is `""`): a memo of [`crate::search::walk::collation_order`], which
    /// depends on the names alone, reused only for a listing of exactly the same names.
    orders: HashMap<(u64, u64), HashMap<String, Order>>,
    bytes: usize,
    /// Validated reuses since the cache was made (for tests and diagnostics).
    hits: u64,
    /// Incremented by each enumerating request; an entry carries the last one that saw it.
    generation: u64,
}

/// Root identity (device, inode) and the path relative to that root.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct Key {
    pub(crate) root_dev: u64,
    pub(crate) root_ino: u64,
    pub(crate) path: String,
}

/// A [`Key`] whose path is borrowed: what [`SearchCache::get`] looks up by.
#[derive(Debug, Clone, Copy)]
pub(crate) struct KeyRef<'a> {
    pub(crate) root_dev: u64,
    pub(crate) root_ino: u64,
    pub(crate) path: &'a str,
}

impl<'a> From<&'a Key> for KeyRef<'a> {
    fn from(key: &'a Key) -> KeyRef<'a> {
        KeyRef {
            root_dev: key.root_dev,
            root_ino: key.root_ino,
            path: &key.path,
        }
    }
}

#[derive(Debug)]
struct Entry {
    identity: Identity,
    text: Arc<str>,
    lower: Arc<str>,
    /// The bytes of `lower`, made when the entry was stored.
    profile: ByteSet,
    seen: u64,
}

impl Entry {
    fn cost(path: &str, text: &str, lower: &str) -> usize {
        path.len() + text.len() + lower.len() + PROFILE_BYTES
    }
}

/// A listing's names in byte order and their visiting order (`None`: byte order).
#[derive(Debug)]
struct Order {
    names: Vec<OsString>,
    order: Option<Vec<u32>>,
    seen: u64,
}

impl Order {
    fn cost(path: &str, names: &[OsString], order: Option<&Vec<u32>>) -> usize {
        path.len()
            + names.iter().map(|name| name.len()).sum::<usize>()
            + order.map_or(0, |order| order.len() * 4)
    }
}

/// What a validated hit gives back.
pub(crate) struct Cached {
    pub(crate) text: Arc<str>,
    pub(crate) lower: Arc<str>,
    /// The [`ByteSet`] of `lower`.
    pub(crate) profile: ByteSet,
}

impl Default for SearchCache {
    fn default() -> SearchCache {
        SearchCache::new()
    }
}

impl SearchCache {
    /// An empty cache capped at [`DEFAULT_CAP_BYTES`].
    pub fn new() -> SearchCache {
        SearchCache::with_cap(DEFAULT_CAP_BYTES)
    }

    /// An empty cache holding at most `cap_bytes` of paths, texts, lowercase texts, their
    /// profiles and listing orders (as [`DEFAULT_CAP_BYTES`] counts them).
    pub fn with_cap(cap_bytes: usize) -> SearchCache {
        SearchCache {
            cap_bytes,
            inner: Mutex::new(Inner::default()),
        }
    }

    /// How many files are cached.
    pub fn len(&self) -> usize {
        self.lock().entries.values().map(HashMap::len).sum()
    }

    /// Whether nothing is cached.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// How many times a cached entry was validated and reused.
    pub fn hits(&self) -> u64 {
        self.lock().hits
    }

    /// The bytes counted against the cap.
    pub fn cached_bytes(&self) -> usize {
        self.lock().bytes
    }

    /// A panic while the lock was held may have left the byte count wrong: start afresh
    /// rather than trust it.
    fn lock(&self) -> MutexGuard<'_, Inner> {
        match self.inner.lock() {
            Ok(guard) => guard,
            Err(poisoned) => {
                let mut guard = poisoned.into_inner();
                *guard = Inner::default();
                self.inner.clear_poison();
                guard
            }
        }
    }

    /// Starts an enumerating request; returns its generation.
    pub(crate) fn begin(&self) -> u64 {
        let mut inner = self.lock();
        inner.generation += 1;
        inner.generation
    }

    /// The entry for `key` if `current` (a fresh no-follow `statx` of this request) equals
    /// the identity recorded at its read; marks it seen. A mismatching entry is dropped.
    pub(crate) fn get<'k>(
        &self,
        key: impl Into<KeyRef<'k>>,
        current: &Identity,
        generation: u64,
    ) -> Option<Cached> {
        let key = key.into();
        let mut guard = self.lock();
        let inner = &mut *guard;
        let paths = inner.entries.get_mut(&(key.root_dev, key.root_ino))?;
        let entry = paths.get_mut(key.path)?;
        if entry.identity != *current {
            let cost = Entry::cost(key.path, &entry.text, &entry.lower);
            paths.remove(key.path);
            inner.bytes -= cost;
            return None;
        }
        entry.seen = generation;
        let cached = Cached {
            text: Arc::clone(&entry.text),
            lower: Arc::clone(&entry.lower),
            profile: entry.profile,
        };
        inner.hits += 1;
        Some(cached)
    }

    /// The visiting order recorded for the directory `key` when its listing held exactly the
    /// names of `byte_sorted` (sorted by bytes); marks it seen. `None` when there is none or
    /// the names differ (the stale record is then dropped).
    pub(crate) fn order<'k>(
        &self,
        key: impl Into<KeyRef<'k>>,
        byte_sorted: &[DirEntry],
        generation: u64,
    ) -> Option<Option<Vec<u32>>> {
        let key = key.into();
        let mut guard = self.lock();
        let inner = &mut *guard;
        let paths = inner.orders.get_mut(&(key.root_dev, key.root_ino))?;
        let record = paths.get_mut(key.path)?;
        let same = record.names.len() == byte_sorted.len()
            && record
                .names
                .iter()
                .zip(byte_sorted)
                .all(|(name, entry)| *name == entry.name);
        if !same {
            let cost = Order::cost(key.path, &record.names, record.order.as_ref());
            paths.remove(key.path);
            inner.bytes -= cost;
            return None;
        }
        record.seen = generation;
        Some(record.order.clone())
    }

    /// Records the visiting order of the directory `key`'s listing `byte_sorted`, unless it
    /// would pass the cap.
    pub(crate) fn insert_order(
        &self,
        key: KeyRef<'_>,
        byte_sorted: &[DirEntry],
        order: Option<Vec<u32>>,
        generation: u64,
    ) {
        let names: Vec<OsString> = byte_sorted.iter().map(|entry| entry.name.clone()).collect();
        let cost = Order::cost(key.path, &names, order.as_ref());
        let mut guard = self.lock();
        let inner = &mut *guard;
        let paths = inner
            .orders
            .entry((key.root_dev, key.root_ino))
            .or_default();
        if let Some(old) = paths.remove(key.path) {
            inner.bytes -= Order::cost(key.path, &old.names, old.order.as_ref());
        }
        if inner.bytes + cost > self.cap_bytes {
            return;
        }
        inner.bytes += cost;
        paths.insert(
            key.path.to_owned(),
            Order {
                names,
                order,
                seen: generation,
            },
        );
    }

    /// Stores what a read of this request returned, unless its identity is racy against
    /// `now_ms` (the request's clock, taken before the read started) or it would pass the cap.
    pub(crate) fn insert(
        &self,
        key: Key,
        identity: Identity,
        text: &str,
        lower: &str,
        now_ms: f64,
        generation: u64,
    ) {
        if is_racy(&identity, now_ms) {
            return;
        }
        let cost = Entry::cost(&key.path, text, lower);
        let profile = ByteSet::of(lower.as_bytes());
        let mut guard = self.lock();
        let inner = &mut *guard;
        let paths = inner
            .entries
            .entry((key.root_dev, key.root_ino))
            .or_default();
        if let Some(old) = paths.remove(&key.path) {
            inner.bytes -= Entry::cost(&key.path, &old.text, &old.lower);
        }
        if inner.bytes + cost > self.cap_bytes {
            return;
        }
        inner.bytes += cost;
        paths.insert(
            key.path,
            Entry {
                identity,
                text: Arc::from(text),
                lower: Arc::from(lower),
                profile,
                seen: generation,
            },
        );
    }

    /// Ends an enumerating request: evicts every entry it did not see.
    pub(crate) fn finish(&self, generation: u64) {
        let mut inner = self.lock();
        let mut freed = 0;
        for paths in inner.entries.values_mut() {
            paths.retain(|path, entry| {
                let keep = entry.seen == generation;
                if !keep {
                    freed += Entry::cost(path, &entry.text, &entry.lower);
                }
                keep
            });
        }
        inner.entries.retain(|_, paths| !paths.is_empty());
        for paths in inner.orders.values_mut() {
            paths.retain(|path, record| {
                let keep = record.seen == generation;
                if !keep {
                    freed += Order::cost(path, &record.names, record.order.as_ref());
                }
                keep
            });
        }
        inner.orders.retain(|_, paths| !paths.is_empty());
        inner.bytes -= freed;
    }
}

/// Whether the mtime or the ctime is less than [`RACY_WINDOW_MS`] before `now_ms` (or after
/// it).
fn is_racy(identity: &Identity, now_ms: f64) -> bool {
    let ms = |sec: i64, nsec: u32| sec as f64 * 1000.0 + f64::from(nsec) / 1_000_000.0;
    let newest = ms(identity.mtime_sec, identity.mtime_nsec)
        .max(ms(identity.ctime_sec, identity.ctime_nsec));
    // A NaN clock compares as neither, so it counts as racy.
    !matches!(
        newest.partial_cmp(&(now_ms - RACY_WINDOW_MS)),
        Some(Ordering::Less | Ordering::Equal)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn identity(ino: u64, size: u64, mtime_sec: i64, ctime_sec: i64) -> Identity {
        Identity {
            dev: 1,
            ino,
            #[cfg(windows)]
            ino_high: 0,
            mode: 0o100_644,
            nlink: 1,
            uid: 0,
            size,
            mtime_sec,
            mtime_nsec: 0,
            ctime_sec,
            ctime_nsec: 0,
        }
    }

    fn key(path: &str) -> Key {
        Key {
            root_dev: 1,
            root_ino: 2,
            path: path.to_owned(),
        }
    }

    const NOW: f64 = 1_000_000.0 * 1000.0;

    #[test]
    fn a_hit_needs_the_same_identity() {
        let cache = SearchCache::new();
        let generation = cache.begin();
        let old = identity(7, 5, 100, 100);
        cache.insert(key("a.md"), old, "Hello", "hello", NOW, generation);
        assert_eq!(cache.len(), 1);
        assert_eq!(
            &*cache.get(&key("a.md"), &old, generation).unwrap().lower,
            "hello"
        );
        // Another root, or another path, is another key.
        let other_root = Key {
            root_ino: 3,
            ..key("a.md")
        };
        assert!(cache.get(&other_root, &old, generation).is_none());
        // Any change of identity (here only the ctime) drops the entry.
        let touched = identity(7, 5, 100, 101);
        assert!(cache.get(&key("a.md"), &touched, generation).is_none());
        assert!(cache.is_empty());
        assert_eq!(cache.cached_bytes(), 0);
    }

    #[test]
    fn racy_content_is_not_stored() {
        let cache = SearchCache::new();
        let generation = cache.begin();
        let now_sec = (NOW / 1000.0) as i64;
        cache.insert(
            key("m.md"),
            identity(1, 1, now_sec - 1, now_sec - 10),
            "x",
            "x",
            NOW,
            generation,
        );
        cache.insert(
            key("c.md"),
            identity(2, 1, now_sec - 10, now_sec - 1),
            "x",
            "x",
            NOW,
            generation,
        );
        cache.insert(
            key("f.md"),
            identity(3, 1, now_sec + 60, now_sec + 60),
            "x",
            "x",
            NOW,
            generation,
        );
        assert!(cache.is_empty());
        cache.insert(
            key("ok.md"),
            identity(4, 1, now_sec - 2, now_sec - 2),
            "x",
            "x",
            NOW,
            generation,
        );
        assert_eq!(cache.len(), 1);
    }

    #[test]
    fn unseen_entries_are_evicted() {
        let cache = SearchCache::new();
        let first = cache.begin();
        let a = identity(1, 1, 1, 1);
        let b = identity(2, 1, 1, 1);
        cache.insert(key("a.md"), a, "a", "a", NOW, first);
        cache.insert(key("b.md"), b, "b", "b", NOW, first);
        cache.finish(first);
        assert_eq!(cache.len(), 2);
        let second = cache.begin();
        assert!(cache.get(&key("a.md"), &a, second).is_some());
        cache.finish(second);
        assert_eq!(cache.len(), 1);
        let third = cache.begin();
        assert!(cache.get(&key("b.md"), &b, third).is_none());
        assert!(cache.get(&key("a.md"), &a, third).is_some());
        assert_eq!(cache.cached_bytes(), "a.md".len() + 2 + PROFILE_BYTES);
    }

    fn listing(names: &[&str]) -> Vec<DirEntry> {
        names
            .iter()
            .map(|name| DirEntry {
                name: (*name).into(),
                kind: dotaios_contained::EntryKind::File,
            })
            .collect()
    }

    #[test]
    fn an_order_is_reused_only_for_the_same_names() {
        let cache = SearchCache::new();
        let first = cache.begin();
        let dir = key("vault/d");
        let names = listing(&["B.md", "a.md"]);
        assert!(cache.order(&dir, &names, first).is_none());
        cache.insert_order((&dir).into(), &names, Some(vec![1, 0]), first);
        assert_eq!(cache.cached_bytes(), "vault/d".len() + 8 + 8);
        assert_eq!(cache.order(&dir, &names, first), Some(Some(vec![1, 0])));
        // Another directory, or another root, has no record.
        assert!(cache.order(&key("vault/e"), &names, first).is_none());
        // One name differs: the record is dropped.
        assert!(
            cache
                .order(&dir, &listing(&["B.md", "b.md"]), first)
                .is_none()
        );
        assert_eq!(cache.cached_bytes(), 0);
        cache.insert_order((&dir).into(), &names, None, first);
        cache.finish(first);
        let second = cache.begin();
        assert!(cache.order(&dir, &listing(&["B.md"]), second).is_none());
        cache.insert_order((&dir).into(), &names, None, second);
        cache.finish(second);
        // Not seen by the third request: evicted at its end.
        let third = cache.begin();
        cache.finish(third);
        assert_eq!(cache.cached_bytes(), 0);
    }

    #[test]
    fn the_cap_holds() {
        let cache = SearchCache::with_cap(20 + PROFILE_BYTES);
        let generation = cache.begin();
        cache.insert(
            key("a.md"),
            identity(1, 5, 1, 1),
            "aaaaa",
            "aaaaa",
            NOW,
            generation,
        );
        cache.insert(
            key("b.md"),
            identity(2, 5, 1, 1),
            "bbbbb",
            "bbbbb",
            NOW,
            generation,
        );
        assert_eq!(cache.len(), 1);
        assert_eq!(cache.cached_bytes(), 14 + PROFILE_BYTES);
        // Replacing an entry frees its old cost first.
        cache.insert(
            key("a.md"),
            identity(1, 3, 2, 2),
            "aaa",
            "aaa",
            NOW,
            generation,
        );
        assert_eq!(cache.cached_bytes(), 10 + PROFILE_BYTES);
    }
}
