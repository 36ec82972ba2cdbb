//! Entry points for the allocation-bounded tests (`crates/core/tests/alloc_bounds.rs`): the
//! snippet collector of one Markdown text and both passes of the memory JSONL collection, over
//! inputs the caller has already allocated, so a counting allocator sees only what the
//! collection itself holds (contract 03 §8.2, §10.6; issue 21 F1, F2).
//!
//! Not part of the product's API (hidden from the docs); never reads a file.

use crate::search::clock::Clock;
use crate::search::jsonl::{self, Family, Generation, Source, Suppression};
use crate::search::markdown::analyze;
use crate::search::matcher::Query;

/// The snippets of one Markdown `text` for `query` (§8.2); `lower` is the caller's lowercase
/// buffer, as each engine worker keeps one. Returns how many snippets the file yields.
pub fn snippet_count(text: &str, query: &str, lower: &mut String) -> usize {
    let query = Query::new(query);
    analyze(text, "note.md", "vault", 0.0, &query, lower)
        .candidate
        .map_or(0, |candidate| candidate.hit.matches.len())
}

/// Both passes of the memory JSONL collection (§10.6) over `texts`, each taken as a live
/// `memory/signals/<i>.jsonl` source: the statistics, then the `limit` best entries. Returns
/// how many entries were kept.
pub fn memory_kept(texts: Vec<String>, query: &str, limit: usize) -> usize {
    memory_kept_in(String::new(), texts, query, limit)
}

/// [`memory_kept`] with `events` as `memory/events.jsonl` before the signal sources, so the
/// cross-family dedupe of §10.6 step 3 takes part.
pub fn memory_kept_in(events: String, signals: Vec<String>, query: &str, limit: usize) -> usize {
    let query = Query::new(query);
    let sources: Vec<Source> = std::iter::once((Family::Events, events))
        .chain(signals.into_iter().map(|text| (Family::Signals, text)))
        .map(|(family, text)| Source {
            label: String::new(),
            family,
            generation: Generation::Live,
            text,
        })
        .collect();
    let suppression = Suppression::new(&sources);
    let mut stats = query.analysed.stats();
    jsonl::count(&sources, &suppression, &query, None, &mut stats);
    let clock = Clock {
        now_ms: 0.0,
        time_zone: &jiff::tz::TimeZone::UTC,
    };
    jsonl::best(
        &sources,
        &suppression,
        &query,
        &clock,
        None,
        limit,
        |features, age| {
            query.analysed.score(
                features,
                &stats,
                crate::search::relevance::DocClass::MemoryEntry,
                age,
            )
        },
    )
    .len()
}
