//! Search (contract 03) over a private copy of the sample folder: query normalisation, the four
//! matching tiers, ranking, snippets, the JSONL memory entries and the session filters, through
//! the one public entry point, `dotaios_core::search::search`. (The query normaliser and
//! matcher themselves are crate-private.)
//!
//! Input: `<scope byte><mode byte><limit byte><query>\n<since>\n<agent>`.
//!
//! Checks: no panic; the request checks agree with the search; Off touches nothing and returns
//! the empty, complete outcome; groups follow the declared order and hold at most `limit`
//! results; nothing returned contains the folder's absolute path.
#![no_main]
#![forbid(unsafe_code)]

use dotaios_core::folder::memory::MemoryMode;
use dotaios_core::request::{Limit, Selector};
use dotaios_core::search::{
    Clock, ScopeRequest, SearchRequest, SessionFilters, check_request, search,
};
use dotaios_fuzz::{fields, sample_folder};
use libfuzzer_sys::fuzz_target;

/// 2026-12-01T00:00:00Z, a few days after the sample folder's newest entries.
const NOW_MS: f64 = 1_796_083_200_000.0;
const MODES: [MemoryMode; 3] = [MemoryMode::Shared, MemoryMode::Project, MemoryMode::Off];
const PROJECTS: [Option<&str>; 4] = [Some("tidepool"), Some("acme:website"), Some("nope"), None];

fuzz_target!(|data: &[u8]| {
    let [scope, mode, limit, rest @ ..] = data else {
        return;
    };
    let Ok(rest) = std::str::from_utf8(rest) else {
        return;
    };
    let parts = fields(rest, 3);
    let query = parts[0];
    if query.is_empty() {
        return;
    }
    let filters = SessionFilters {
        agent: (!parts[2].is_empty()).then(|| parts[2].to_owned()),
        session_project: None,
        since: (!parts[1].is_empty()).then(|| parts[1].to_owned()),
    };
    let names = ScopeRequest::NAMES;
    let scope = ScopeRequest::parse(names[usize::from(*scope) % names.len()]).expect("a name");
    let memory = MODES[usize::from(*mode) % MODES.len()];
    let request = SearchRequest {
        query,
        scope,
        limit: Limit::count(1 + usize::from(*limit) % 20),
        memory,
        project: PROJECTS[usize::from(*mode / 3) % PROJECTS.len()]
            .map(|selector| Selector::canonical(selector).expect("a canonical selector")),
        session_filters: &filters,
        clock: Clock {
            now_ms: NOW_MS,
            local_offset_ms: &|_| 0.0,
        },
        workers: 1,
    };
    let folder = sample_folder("search_query");
    let checked = check_request(&request);
    let outcome = search(folder, &request);
    if checked.is_err() {
        assert_eq!(checked.err(), outcome.err());
        return;
    }
    let Ok(outcome) = outcome else {
        return;
    };
    if memory == MemoryMode::Off {
        assert!(outcome.groups.is_empty() && outcome.complete());
    }
    for pair in outcome.groups.windows(2) {
        assert!(
            pair[0].scope < pair[1].scope,
            "groups out of declared order"
        );
    }
    for group in &outcome.groups {
        assert!(group.results.len() <= request.limit.get());
    }
    let shown = format!("{outcome:?}");
    let machine = folder.to_string_lossy();
    assert!(!shown.contains(machine.as_ref()), "machine path in {shown}");
});
