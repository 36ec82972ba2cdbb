//! What a search holds per matching note (contract 03 §19.3; issue 37's large folder), counted
//! by a global allocator and never timed: every note of a folder matches, with long snippet
//! lines, and the peak of live bytes a whole `search` adds may grow with the notes only by the
//! per-file candidate data ranking needs, not by each candidate's title and snippets, which
//! only the `limit` shown ones are built for.
//!
//! One test function, so no other test allocates while the counter runs.
#![allow(
    clippy::disallowed_methods,
    reason = "the test builds its folder with std::fs; the search it measures only reads"
)]

use std::fs;
use std::path::Path;

use dotaios_core::folder::memory::MemoryMode;
use dotaios_core::request::Limit;
use dotaios_core::search::{
    Clock, ScopeRequest, SearchRequest, SessionFilters, SnippetForm, search,
};
use peak_alloc::PeakAlloc;

#[global_allocator]
static COUNTER: PeakAlloc = PeakAlloc;

/// The peak of live bytes `run` adds above what was live when it started.
fn added_peak(run: impl FnOnce()) -> usize {
    let before = COUNTER.current_usage();
    COUNTER.reset_peak_usage();
    run();
    COUNTER.peak_usage().saturating_sub(before)
}

/// A folder of `notes` notes, each with five long lines holding the query's word, so each
/// would show five snippets of about 600 bytes.
fn folder(root: &Path, notes: usize) {
    fs::write(
        root.join("aios.json"),
        r#"{"schema_version":"1.2.0","vault_path":null}"#,
    )
    .unwrap();
    let filler = "the quick brown fox jumps over the lazy dog and runs on ".repeat(3);
    for index in 0..notes {
        let dir = root.join("vault").join(format!("d{:02}", index % 16));
        fs::create_dir_all(&dir).unwrap();
        let mut text = format!("# Note {index}\n\n");
        for line in 0..5 {
            text.push_str(&format!("{filler}needle {line} {filler}\n\nplain line\n\n"));
        }
        fs::write(dir.join(format!("note-{index:05}.md")), text).unwrap();
    }
}

fn search_peak(root: &Path) -> usize {
    let filters = SessionFilters::default();
    let request = SearchRequest {
        query: "needle",
        scope: ScopeRequest::All,
        limit: Limit::count(10),
        memory: MemoryMode::Shared,
        project: None,
        session_filters: &filters,
        clock: Clock {
            now_ms: 1_800_000_000_000.0,
            time_zone: &jiff::tz::TimeZone::UTC,
        },
        workers: 1,
        snippets: SnippetForm::Lines,
    };
    added_peak(|| {
        let outcome = search(root, &request).unwrap();
        assert_eq!(outcome.order.len(), 10);
    })
}

#[test]
fn a_search_holds_no_snippets_for_the_candidates_it_does_not_show() {
    let (small, large) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    folder(small.path(), 200);
    folder(large.path(), 1_000);
    // Warm up lazily built tables (stemmers, stop words) so they count in neither run.
    search_peak(small.path());
    let small = search_peak(small.path());
    let large = search_peak(large.path());
    let per_note = large.saturating_sub(small) / 800;
    // A shown candidate holds five snippets of about 600 bytes (3,000 bytes and more); what
    // ranking needs per note (its path, identity, features and name) is a few hundred.
    assert!(
        per_note < 1_200,
        "{per_note} bytes per matching note ({small} bytes at 200 notes, {large} at 1,000)"
    );
}
