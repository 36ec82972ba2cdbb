//! The server cache of contract 03 §19.2 end to end: a cached request returns exactly what the same
//! request returns without a cache, and every change to the folder between requests is seen.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use super::engine::run_cached;
use super::*;

/// Files are written "now", so a clock a minute ahead keeps them out of the racy window.
pub(super) fn clock_ahead() -> f64 {
    let now = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap();
    (now + Duration::from_secs(60)).as_millis() as f64
}

fn folder() -> tempfile::TempDir {
    let temp = tempfile::tempdir().unwrap();
    let root = temp.path();
    write(
        root,
        "aios.json",
        r#"{"schema_version":"1.2.0","vault_path":null}"#,
    );
    write(
        root,
        "vault/alpha.md",
        "# Alpha\n\nThe harbour lighthouse keeper.\n",
    );
    write(
        root,
        "vault/deep/beta.md",
        "---\ndescription: Lighthouse notes\n---\nbeta\n",
    );
    write(root, "vault/deep/gamma.md", "Nothing to see.\n");
    write(root, "context/now.md", "Lighthouse repairs this week.\n");
    write(root, "memory/daily/2026-01-01.md", "lighthouse visit\n");
    write(
        root,
        "memory/events.jsonl",
        "{\"ts\":\"2026-01-01T00:00:00Z\",\"type\":\"note\",\"text\":\"lighthouse\"}\n",
    );
    temp
}

pub(super) fn write(root: &Path, path: &str, text: &str) {
    let full = root.join(path);
    fs::create_dir_all(full.parent().unwrap()).unwrap();
    fs::write(full, text).unwrap();
}

/// The request's outcome, or its error, as text: what must be byte-identical.
fn ask(root: &Path, query: &str, now_ms: f64, cache: Option<&SearchCache>) -> String {
    ask_with(root, query, now_ms, cache, SnippetForm::Lines)
}

/// [`ask`] with the snippets in `snippets` form.
pub(super) fn ask_with(
    root: &Path,
    query: &str,
    now_ms: f64,
    cache: Option<&SearchCache>,
    snippets: SnippetForm,
) -> String {
    let filters = SessionFilters::default();
    let request = SearchRequest {
        query,
        scope: ScopeRequest::All,
        limit: crate::request::Limit::count(20),
        memory: MemoryMode::Shared,
        project: None,
        session_filters: &filters,
        clock: Clock {
            now_ms,
            time_zone: &jiff::tz::TimeZone::UTC,
        },
        workers: 2,
        snippets,
    };
    match run_cached(root, &request, REQUEST_LIMITS, cache) {
        Ok(outcome) => {
            let hits: Vec<String> = outcome
                .groups
                .iter()
                .flat_map(|group| group.results.iter())
                .map(|hit| crate::text::to_json_compact(&hit.to_value()))
                .collect();
            format!("{outcome:?}\n{}", hits.join("\n"))
        }
        Err(error) => format!("error: {error:?}"),
    }
}

fn both(root: &Path, query: &str, now_ms: f64, cache: &SearchCache) -> String {
    let uncached = ask(root, query, now_ms, None);
    let cached = ask(root, query, now_ms, Some(cache));
    assert_eq!(cached, uncached, "query {query:?}");
    cached
}

fn path(temp: &tempfile::TempDir) -> PathBuf {
    temp.path().to_path_buf()
}

#[test]
fn cached_requests_equal_uncached_ones() {
    let temp = folder();
    let root = path(&temp);
    let now = clock_ahead();
    let cache = SearchCache::new();
    let first = both(&root, "lighthouse", now, &cache);
    assert!(first.contains("vault/alpha.md"), "{first}");
    // The five Markdown files (vault, context, daily) are cached; JSONL is not.
    assert_eq!(cache.len(), 5);
    assert_eq!(cache.hits(), 0);
    both(&root, "lighthouse", now, &cache);
    assert_eq!(cache.hits(), 5);
    // Another query reuses the same texts.
    both(&root, "harbour keeper", now, &cache);
    both(&root, "", now, &cache);
    both(&root, "Nothing", now, &cache);
    assert_eq!(cache.hits(), 20);
}

#[test]
fn edits_additions_and_deletions_are_seen_on_the_next_request() {
    let temp = folder();
    let root = path(&temp);
    let now = clock_ahead();
    let cache = SearchCache::new();
    both(&root, "lighthouse", now, &cache);

    // A same-size rewrite with the old mtime put back still changes the ctime.
    let alpha = root.join("vault/alpha.md");
    let mtime = fs::metadata(&alpha).unwrap().modified().unwrap();
    fs::write(&alpha, "# Alpha\n\nThe harbour lightship keeper.\n").unwrap();
    fs::File::options()
        .write(true)
        .open(&alpha)
        .unwrap()
        .set_modified(mtime)
        .unwrap();
    let after = both(&root, "lightship", now, &cache);
    assert!(after.contains("vault/alpha.md"), "{after}");

    write(&root, "vault/new.md", "a new lightship\n");
    fs::remove_file(root.join("vault/deep/beta.md")).unwrap();
    let after = both(&root, "lightship", now, &cache);
    assert!(after.contains("vault/new.md"), "{after}");
    // beta.md is gone from the enumeration, so from the cache.
    assert_eq!(cache.len(), 5);
}

#[cfg(unix)]
#[test]
fn a_cached_file_swapped_for_a_symlink_is_refused() {
    let temp = folder();
    let root = path(&temp);
    let now = clock_ahead();
    let cache = SearchCache::new();
    both(&root, "lighthouse", now, &cache);
    let outside = tempfile::tempdir().unwrap();
    let target = outside.path().join("alpha.md");
    fs::rename(root.join("vault/alpha.md"), &target).unwrap();
    std::os::unix::fs::symlink(&target, root.join("vault/alpha.md")).unwrap();
    // It is skipped and reported (contract 03 §4.4); its cached text is never served.
    let skipped = both(&root, "lighthouse", now, &cache);
    assert!(
        skipped.contains(r#"skipped_links: ["vault/alpha.md"]"#),
        "{skipped}"
    );
    assert!(
        !skipped.contains(r#""source":"vault/alpha.md""#),
        "{skipped}"
    );
    // A directory swapped for a symlink to its new name is never entered: the same inodes
    // are found (and read afresh) under the new name only.
    fs::remove_file(root.join("vault/alpha.md")).unwrap();
    let both_ok = both(&root, "lighthouse", now, &cache);
    assert!(!both_ok.starts_with("error: "), "{both_ok}");
    fs::rename(root.join("vault/deep"), root.join("vault/moved")).unwrap();
    std::os::unix::fs::symlink("moved", root.join("vault/deep")).unwrap();
    let after = both(&root, "lighthouse", now, &cache);
    assert!(after.contains("vault/moved/beta.md"), "{after}");
    assert!(!after.contains("vault/deep/beta.md"), "{after}");
}

#[test]
fn racy_files_are_not_cached() {
    let temp = folder();
    let root = path(&temp);
    // The real clock: every file was changed within the last two seconds.
    let now = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap()
        .as_millis() as f64;
    let cache = SearchCache::new();
    both(&root, "lighthouse", now, &cache);
    assert!(cache.is_empty());
}

#[test]
fn the_cap_only_limits_what_is_kept() {
    let temp = folder();
    let root = path(&temp);
    let now = clock_ahead();
    let cache = SearchCache::with_cap(100);
    both(&root, "lighthouse", now, &cache);
    assert!(cache.cached_bytes() <= 100);
    assert!(cache.len() < 5);
    both(&root, "lighthouse", now, &cache);
}

#[cfg(unix)]
/// Ties and accents: the visiting order differs from byte order, so the remembered order is
/// what decides the cached request's order, and a renamed file must not reuse it.
#[test]
fn remembered_listing_orders_equal_fresh_ones() {
    let temp = folder();
    let root = path(&temp);
    for name in ["b.md", "B.md", "a.md", "_x.md", "10.md", "2.md", "á.md"] {
        write(
            &root,
            &format!("vault/mixed/{name}"),
            "same lighthouse line\n",
        );
    }
    let now = clock_ahead();
    let cache = SearchCache::new();
    let first = both(&root, "lighthouse", now, &cache);
    let position = |answer: &str, name: &str| {
        answer
            .find(&format!("vault/mixed/{name}\""))
            .unwrap_or_else(|| panic!("{name} missing: {answer}"))
    };
    // Equal ranks keep the walk's order: collation order, not byte order.
    assert!(
        position(&first, "_x.md") < position(&first, "10.md"),
        "{first}"
    );
    assert!(
        position(&first, "a.md") < position(&first, "á.md"),
        "{first}"
    );
    assert!(
        position(&first, "á.md") < position(&first, "B.md"),
        "{first}"
    );
    let second = both(&root, "lighthouse", now, &cache);
    assert_eq!(first, second);
    // Same number of names, one of them different: the remembered order is not reused.
    fs::rename(root.join("vault/mixed/b.md"), root.join("vault/mixed/c.md")).unwrap();
    let renamed = both(&root, "lighthouse", now, &cache);
    assert!(
        position(&renamed, "B.md") < position(&renamed, "c.md"),
        "{renamed}"
    );
    // Ranking hides the walk's order, but the skipped links are reported in it: `B.md` comes
    // first in byte order, `á.md` in collation order (§4.1, §4.4).
    for name in ["B.md", "á.md"] {
        fs::remove_file(root.join("vault/mixed").join(name)).unwrap();
        std::os::unix::fs::symlink("a.md", root.join("vault/mixed").join(name)).unwrap();
    }
    for _ in 0..2 {
        let skipped = both(&root, "lighthouse", now, &cache);
        assert!(
            skipped.contains(r#"skipped_links: ["vault/mixed/á.md", "vault/mixed/B.md"]"#),
            "{skipped}"
        );
    }
}

/// The profile kept beside a cached text (the bytes of its lowercase form) rules needles out
/// without a scan, so it must be the profile of the text being matched: a changed file gets a
/// fresh one, and it is made from the lowercase text, not the original.
#[test]
fn a_changed_file_never_reuses_its_cached_profile() {
    let temp = folder();
    let root = path(&temp);
    write(&root, "vault/wharf.md", "harbour wall\n");
    let now = clock_ahead();
    let cache = SearchCache::new();
    // No `q` or `y` anywhere in the cached text: the profile rules `quay` out.
    let miss = both(&root, "quay", now, &cache);
    assert!(!miss.contains("vault/wharf.md"), "{miss}");
    assert_eq!(both(&root, "quay", now, &cache), miss);
    let hits = cache.hits();
    assert!(hits >= 5, "{hits}");
    // Same size, old mtime put back: only the ctime tells the change.
    let wharf = root.join("vault/wharf.md");
    let mtime = fs::metadata(&wharf).unwrap().modified().unwrap();
    fs::write(&wharf, "harbor QUAY!\n").unwrap();
    fs::File::options()
        .write(true)
        .open(&wharf)
        .unwrap()
        .set_modified(mtime)
        .unwrap();
    for _ in 0..2 {
        // Read afresh, then served from the cache with the new profile.
        let found = both(&root, "quay", now, &cache);
        assert!(found.contains("vault/wharf.md"), "{found}");
        let gone = both(&root, "wall", now, &cache);
        assert!(!gone.contains("vault/wharf.md"), "{gone}");
    }
    assert!(cache.hits() > hits);
}
