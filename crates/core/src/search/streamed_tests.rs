//! The streamed memory collection (contract 03 §10.6: statistics pass, then a bounded heap of
//! the best entries under the cross-family dedupe, kept in one walk) against the oracle
//! that holds every entry and sorts every candidate (`jsonl::oracle`): the whole outcome, order
//! included, must be identical on generated memory folders, on the rich test folder and on
//! the sample folder `examples/aios`.

use std::fs;
use std::path::Path;

use proptest::prelude::*;

use super::engine::{run_oracle, run_with_limits};
use super::*;

const NOW_MS: f64 = 1_786_579_200_000.0;

fn both(folder: &Path, query: &str, scope: ScopeRequest, limit: usize) {
    let filters = SessionFilters::default();
    compare(
        folder,
        &SearchRequest {
            query,
            scope,
            limit: Limit::count(limit),
            memory: MemoryMode::Shared,
            project: None,
            session_filters: &filters,
            clock: Clock {
                now_ms: NOW_MS,
                time_zone: &jiff::tz::TimeZone::UTC,
            },
            workers: 2,
            snippets: crate::search::SnippetForm::Lines,
        },
    );
}

fn compare(folder: &Path, request: &SearchRequest<'_>) {
    let (query, scope, limit) = (request.query, request.scope, request.limit.get());
    let streamed = run_with_limits(folder, request, REQUEST_LIMITS);
    let oracle = run_oracle(folder, request, REQUEST_LIMITS);
    match (streamed, oracle) {
        (Ok(streamed), Ok(oracle)) => {
            assert_eq!(streamed, oracle, "{query:?} {scope:?} limit {limit}");
            // Byte-identical as the adapter shows it, too.
            let text = |outcome: &SearchOutcome| {
                outcome
                    .mcp_payload(query, crate::request::Budget::whole(32_000))
                    .unwrap_or_default()
            };
            assert_eq!(text(&streamed), text(&oracle));
        }
        (streamed, oracle) => assert_eq!(streamed.err(), oracle.err()),
    }
}

fn sample_folder() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/aios")
}

#[test]
fn the_sample_folder_gives_the_oracles_answers() {
    let folder = sample_folder();
    for query in [
        "memory",
        "project",
        "decision",
        "the",
        "a",
        "ship launch",
        "skill",
        "notes",
        "x",
        "agent",
        "2026",
        "zzzz-none",
    ] {
        for scope in [ScopeRequest::All, ScopeRequest::One(Scope::Memory)] {
            for limit in [1, 3, 10, 20] {
                both(&folder, query, scope, limit);
            }
        }
    }
}

/// The `search_query` fuzz target's committed seeds (`fuzz/seeds/search_query`), decoded as
/// that target decodes them (scope, mode and limit bytes, then query, `--since` and `--agent`
/// lines), each with every limit byte's neighbourhood, over the sample folder.
#[test]
fn the_fuzz_seeds_give_the_oracles_answers() {
    const MODES: [MemoryMode; 3] = [MemoryMode::Shared, MemoryMode::Project, MemoryMode::Off];
    const PROJECTS: [Option<&str>; 4] =
        [Some("tidepool"), Some("acme:website"), Some("nope"), None];
    let seeds = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/seeds/search_query");
    let mut seen = 0;
    for seed in fs::read_dir(seeds).unwrap() {
        let data = fs::read(seed.unwrap().path()).unwrap();
        let [scope, mode, limit, rest @ ..] = data.as_slice() else {
            continue;
        };
        let Ok(rest) = std::str::from_utf8(rest) else {
            continue;
        };
        let mut parts: Vec<&str> = rest.splitn(3, '\n').collect();
        parts.resize(3, "");
        if parts[0].is_empty() {
            continue;
        }
        let filters = SessionFilters {
            agent: (!parts[2].is_empty()).then(|| parts[2].to_owned()),
            session_project: None,
            since: (!parts[1].is_empty()).then(|| parts[1].to_owned()),
        };
        let names = ScopeRequest::NAMES;
        let scope = ScopeRequest::parse(names[usize::from(*scope) % names.len()]).unwrap();
        for limit in [usize::from(*limit) % 20, 0, 2, 19] {
            compare(
                &sample_folder(),
                &SearchRequest {
                    query: parts[0],
                    scope,
                    limit: Limit::count(1 + limit),
                    memory: MODES[usize::from(*mode) % MODES.len()],
                    project: PROJECTS[usize::from(*mode / 3) % PROJECTS.len()]
                        .map(|selector| crate::request::Selector::canonical(selector).unwrap()),
                    session_filters: &filters,
                    clock: Clock {
                        now_ms: 1_796_083_200_000.0,
                        time_zone: &jiff::tz::TimeZone::UTC,
                    },
                    workers: 1,
                    snippets: crate::search::SnippetForm::Lines,
                },
            );
        }
        seen += 1;
    }
    assert!(seen >= 5, "the seeds were read");
}

/// One line of a generated memory source: a summary drawn from a few words, maybe a
/// `record_id` shared across families, maybe a `ts`.
fn line() -> impl Strategy<Value = String> {
    (
        prop::sample::select(vec![
            "alpha",
            "alpha beta",
            "beta",
            "gamma alpha",
            "delta",
            "x",
        ]),
        prop::option::of(0_u8..4),
        prop::option::of(1_u8..28),
    )
        .prop_map(|(summary, record, day)| {
            let mut line = format!("{{\"summary\":\"{summary}\"");
            if let Some(record) = record {
                line.push_str(&format!(",\"record_id\":\"r{record}\""));
            }
            if let Some(day) = day {
                line.push_str(&format!(",\"ts\":\"2026-08-{day:02}T00:00:00Z\""));
            }
            line.push_str("}\n");
            line
        })
}

/// A line of a memory source where most entries share one of two `record_id`s, with few
/// distinct summaries and days, so scores and `ts` tie often.
fn shared_line() -> impl Strategy<Value = String> {
    (
        prop::sample::select(vec!["alpha", "alpha alpha beta", "beta", "alpha x"]),
        prop::option::weighted(0.8, 0_u8..2),
        prop::option::of(1_u8..4),
    )
        .prop_map(|(summary, record, day)| {
            let mut line = format!("{{\"summary\":\"{summary}\"");
            if let Some(record) = record {
                line.push_str(&format!(",\"record_id\":\"r{record}\""));
            }
            if let Some(day) = day {
                line.push_str(&format!(",\"ts\":\"2026-08-{day:02}T00:00:00Z\""));
            }
            line.push_str("}\n");
            line
        })
}

const SOURCES: [&str; 6] = [
    "memory/events.jsonl",
    "memory/events-archive.000001.jsonl",
    "memory/events-archive.jsonl",
    "memory/signals-archive.jsonl",
    "memory/signals/2026-08-01.jsonl",
    "memory/signals/2026-08-02.jsonl",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Duplicates across generations (retry suppression), `record_id`s shared across families
    /// (the dedupe that widens the heap), equal scores and `ts` ties: the streamed outcome is
    /// the oracle's.
    #[test]
    fn generated_memory_gives_the_oracles_answers(
        files in prop::collection::vec(prop::collection::vec(line(), 0..12), SOURCES.len()),
        note in prop::option::of(prop::sample::select(vec!["alpha", "beta notes"])),
        query in prop::sample::select(vec!["alpha", "beta", "alpha beta", "x", "none"]),
        limit in 1_usize..6,
    ) {
        let temp = tempfile::tempdir().unwrap();
        let root = temp.path();
        fs::write(root.join("aios.json"), r#"{"schema_version":"1.2.0","vault_path":null}"#).unwrap();
        fs::create_dir_all(root.join("memory/signals")).unwrap();
        for (path, lines) in SOURCES.iter().zip(&files) {
            fs::write(root.join(path), lines.concat()).unwrap();
        }
        if let Some(note) = note {
            fs::create_dir_all(root.join("memory/daily")).unwrap();
            fs::write(root.join("memory/daily/2026-08-03.md"), format!("# Day\n{note}\n")).unwrap();
            fs::create_dir_all(root.join("vault")).unwrap();
            fs::write(root.join("vault/n.md"), format!("# {note}\n")).unwrap();
        }
        for scope in [ScopeRequest::All, ScopeRequest::One(Scope::Memory)] {
            both(root, query, scope, limit);
        }
    }

    /// Many entries of a few records in both families, more than the collection holds between
    /// compactions: which family a record shows depends on entries still to come, and the
    /// one-walk collection (contract 03 §10.6) must still give the oracle's outcome.
    #[test]
    fn shared_records_give_the_oracles_answers(
        files in prop::collection::vec(prop::collection::vec(shared_line(), 0..60), SOURCES.len()),
        query in prop::sample::select(vec!["alpha", "beta", "alpha beta"]),
        limit in 1_usize..5,
    ) {
        let temp = tempfile::tempdir().unwrap();
        let root = temp.path();
        fs::write(root.join("aios.json"), r#"{"schema_version":"1.2.0","vault_path":null}"#).unwrap();
        fs::create_dir_all(root.join("memory/signals")).unwrap();
        for (path, lines) in SOURCES.iter().zip(&files) {
            fs::write(root.join(path), lines.concat()).unwrap();
        }
        both(root, query, ScopeRequest::One(Scope::Memory), limit);
    }
}
