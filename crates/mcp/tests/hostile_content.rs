//! Hostile content inside the documented caps (issue 21, `docs/security.md` "Per-call bounds"),
//! through the built adapter: each shape gets its contract answer and a `ping` after it on the
//! same connection is answered, so one call cannot stall the ones behind it. The fixtures are
//! scaled down from the benchmark's (`dotaios-bench extra`, the `hostile` rows, where time and
//! memory are measured) but each still reaches the bound it exercises: more matching lines than
//! the snippets kept, more JSONL entries than are shown, and more frontmatter parse work than one
//! request's allowance (contract 01 §5.7 item 5).

mod support;

use dotaios_core::folder::frontmatter::MAX_DOCUMENT_EVENTS;
use serde_json::{Value, json};
use support::*;

const FAILED: &str = "DotAIOS request failed safely.";
const CONTEXT_FAILED: &str = "DotAIOS could not read working context safely.";

fn ping(id: u64) -> String {
    request(id, "ping", json!({}))
}

fn pong(id: u64) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": {}})
}

/// The answers to `lines`, each followed by a `ping` whose answer is checked; nothing written.
fn answered_then_ping(fixture: &Fixture, lines: Vec<String>) -> Vec<Value> {
    let before = fixture.snapshot();
    let mut with_pings = Vec::new();
    for (index, line) in lines.into_iter().enumerate() {
        with_pings.push(line);
        with_pings.push(ping(1000 + index as u64));
    }
    let responses = fixture.responses(&with_pings);
    let mut answers = Vec::new();
    for (index, pair) in responses.chunks(2).enumerate() {
        assert_eq!(
            pair[1],
            pong(1000 + index as u64),
            "the ping after call {index}"
        );
        answers.push(pair[0].clone());
    }
    assert_eq!(fixture.snapshot(), before, "nothing is written");
    answers
}

/// A flow sequence of `units` sequences nested 32 deep: about one parser event per byte, every
/// level inside the nesting limit, and `65 × units` events.
fn nested_flow(units: usize) -> String {
    let unit = format!("{}x{}", "[".repeat(32), "]".repeat(32));
    format!("nest: [{}]\n", vec![unit; units].join(","))
}

/// `count` skills and `count` projects, each with `nest` in its frontmatter.
fn write_skills_and_projects(fixture: &Fixture, count: usize, nest: &str) {
    for index in 0..count {
        fixture.write(
            &format!("skills/skill-{index:03}/SKILL.md"),
            format!(
                "---\nname: skill-{index:03}\ndescription: Plan the day {index}.\n{nest}---\n# Skill\n"
            ),
        );
        fixture.write(
            &format!("projects/p{index:03}/README.md"),
            format!(
                "---\nid: p{index:03}\nproject: p{index:03}\nname: P{index:03}\nstatus: active\n\
                 domain: build\n{nest}---\n# P{index:03}\n"
            ),
        );
    }
}

/// F1: notes of one character per line. Every line matches; the answer still names each note
/// once with its few snippets.
#[test]
fn f1_one_character_notes_are_answered_and_ping_follows() {
    let fixture = Fixture::init();
    let note = "x\n".repeat(128 * 1024);
    for index in 0..4 {
        fixture.write(&format!("vault/note-{index}.md"), &note);
    }
    let answers = answered_then_ping(
        &fixture,
        vec![
            call(1, "search_aios", json!({"query": "x", "scope": "vault"})),
            call(
                2,
                "search_aios",
                json!({"query": "x x x", "scope": "vault"}),
            ),
        ],
    );
    for answer in &answers {
        let results = payload(answer)["results"].as_array().unwrap().clone();
        let mut sources: Vec<&str> = results
            .iter()
            .map(|item| item["source"].as_str().unwrap())
            .collect();
        sources.sort_unstable();
        assert_eq!(
            sources,
            [
                "vault/note-0.md",
                "vault/note-1.md",
                "vault/note-2.md",
                "vault/note-3.md"
            ]
        );
        // Every line matches; the first five windows of §8.2 are shown, each of `x` lines.
        for item in &results {
            let matches = item["matches"].as_array().unwrap();
            let windows: Vec<(u64, u64)> = matches
                .iter()
                .map(|found| {
                    (
                        found["line"].as_u64().unwrap(),
                        found["lineEnd"].as_u64().unwrap(),
                    )
                })
                .collect();
            assert_eq!(windows, [(1, 2), (1, 3), (2, 4), (3, 5), (4, 6)], "{item}");
            assert!(
                matches.iter().all(|found| found["content"]
                    .as_str()
                    .unwrap()
                    .split(" / ")
                    .all(|line| line == "x")),
                "{item}"
            );
        }
    }
}

/// F2, search: three memory sources of tiny entries. The memory search answers with a full page
/// of hits, and a query no entry holds answers with none.
#[test]
fn f2_tiny_entry_memory_is_searched_and_ping_follows() {
    let fixture = Fixture::init();
    let entries = "{\"summary\":\"x\"}\n".repeat(20_000);
    for source in [
        "memory/events.jsonl",
        "memory/events-archive.jsonl",
        "memory/signals/a.jsonl",
    ] {
        fixture.write(source, &entries);
    }
    let answers = answered_then_ping(
        &fixture,
        vec![
            call(
                1,
                "search_aios",
                json!({"query": "x", "scope": "memory", "limit": 7}),
            ),
            call(2, "search_aios", json!({"query": "qqqzzz", "scope": "all"})),
        ],
    );
    let memory = payload(&answers[0]);
    let hits = memory["results"].as_array().unwrap();
    assert_eq!(hits.len(), 7, "{memory}");
    assert!(
        hits.iter()
            .all(|hit| hit["summary"] == "x"
                && hit["source"].as_str().unwrap().starts_with("memory/")),
        "{memory}"
    );
    let none = payload(&answers[1]);
    assert_eq!(none["results"], json!([]), "{none}");
    assert_eq!(none["complete"], json!(true), "{none}");
}

/// F2, working context: an event log of tiny note rows, all dated today. The digest shows its
/// eight events, the last rows of the log (equal times, so the stable key and the position
/// decide), and nothing else of them.
#[test]
fn f2_a_long_event_log_is_projected_and_ping_follows() {
    let fixture = Fixture::init();
    let today = jiff::Zoned::now().date().to_string();
    let mut log = String::new();
    for index in 0..30_000 {
        log.push_str(&format!(
            "{{\"ts\":\"{today}T08:00:00.000Z\",\"type\":\"note\",\"note\":\"n{index:05}\"}}\n"
        ));
    }
    fixture.write("memory/events.jsonl", &log);
    let answers = answered_then_ping(
        &fixture,
        vec![call(1, "read_working_context", json!({"budget": 20000}))],
    );
    let context = payload(&answers[0]);
    let text = context["markdown"].as_str().unwrap();
    let events = text
        .split("### Recent Events\n")
        .nth(1)
        .unwrap_or_else(|| panic!("no events section: {text}"));
    let shown: Vec<&str> = events
        .lines()
        .take_while(|line| line.starts_with("- "))
        .collect();
    assert_eq!(shown.len(), 8, "{text}");
    // Equal timestamps: the stable key orders them, and it holds the note text.
    for (line, index) in shown.iter().zip(0..) {
        assert!(line.ends_with(&format!("n{index:05}")), "{line}");
    }
}

/// F3: skills and project READMEs whose frontmatter fits each document's bounds but whose sum
/// is more parse work than one request may do. Past the allowance a document takes the
/// invalid-frontmatter path, so the skill call and the project-mode working context fail
/// safely, each with its fixed message, again on the repeated call; `ping` follows each.
#[test]
fn f3_frontmatter_past_the_request_allowance_fails_safely_and_ping_follows() {
    let fixture = Fixture::init();
    // 118 units are 7,670 events, just under one document's 8,192; 40 documents are 306,800,
    // over the request's 262,144 (contract 01 §5.7 item 5). Fixed numbers, so a changed bound
    // changes the answer instead of the fixture.
    let units = 118;
    let documents = 40;
    assert!(units * 65 < MAX_DOCUMENT_EVENTS);
    let nest = nested_flow(units);
    write_skills_and_projects(&fixture, documents, &nest);
    let answers = answered_then_ping(
        &fixture,
        vec![
            call(1, "resolve_skill", json!({"intent": "plan my day"})),
            call(2, "resolve_skill", json!({"intent": "plan my day"})),
            call(3, "read_working_context", json!({"project": "p001"})),
            call(4, "read_working_context", json!({"project": "p001"})),
        ],
    );
    for answer in &answers[..2] {
        assert_eq!(error_of(answer), (-32603, FAILED.to_owned()));
    }
    for answer in &answers[2..] {
        assert_eq!(error_of(answer), (-32603, CONTEXT_FAILED.to_owned()));
    }

    // The same documents, fewer of them: within the allowance, so both calls succeed. This
    // is what makes the failures above the allowance's, not the documents'.
    let within = Fixture::init();
    write_skills_and_projects(&within, 2, &nest);
    let answers = answered_then_ping(
        &within,
        vec![
            call(1, "resolve_skill", json!({"intent": "plan my day"})),
            call(2, "read_working_context", json!({"project": "p001"})),
        ],
    );
    let skills = payload(&answers[0]);
    assert_eq!(skills["complete"], json!(true), "{skills}");
    assert!(
        !skills["matches"].as_array().unwrap().is_empty(),
        "{skills}"
    );
    let context = payload(&answers[1]);
    assert!(
        context["markdown"].as_str().unwrap().contains("P001"),
        "{context}"
    );
}

/// Issue 35: one event and many signals sharing its `record_id`. The event ranks first, so
/// the cross-family dedupe (contract 03 §10.6 step 3) drops every signal, and the memory page is
/// the event plus the entries without a record; the collection holds a bounded number of them
/// whatever the signals' count (`crates/core/tests/alloc_bounds.rs`).
#[test]
fn issue35_a_record_shared_by_many_signals_is_answered_and_ping_follows() {
    let fixture = Fixture::init();
    fixture.write(
        "memory/events.jsonl",
        "{\"summary\":\"x\",\"record_id\":\"r\",\"kind\":\"event\"}\n",
    );
    let signals = "{\"summary\":\"x y z\",\"record_id\":\"r\"}\n".repeat(10_000);
    fixture.write("memory/signals/a.jsonl", &signals);
    fixture.write(
        "memory/signals/b.jsonl",
        format!(
            "{signals}{}",
            "{\"summary\":\"x w v u\",\"kind\":\"other\"}\n".repeat(3)
        ),
    );
    let answers = answered_then_ping(
        &fixture,
        vec![
            call(
                1,
                "search_aios",
                json!({"query": "x", "scope": "memory", "limit": 5}),
            ),
            call(
                2,
                "search_aios",
                json!({"query": "x", "scope": "all", "limit": 20}),
            ),
        ],
    );
    for answer in &answers {
        let found = payload(answer);
        let kinds: Vec<&str> = found["results"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|hit| hit["scope"] == "memory")
            .map(|hit| hit["kind"].as_str().unwrap_or("signal"))
            .collect();
        assert_eq!(kinds, ["event", "other", "other", "other"], "{found}");
    }
}

/// Issue 35: machine-written lines over the item ceiling of contract 03 §10.2 (one array of
/// 20,000 numbers, one object of 20,000 members) are skipped like corrupt lines; the entry
/// beside them is found.
#[test]
fn issue35_lines_over_the_item_ceiling_are_skipped_and_ping_follows() {
    let fixture = Fixture::init();
    let array = format!(
        "{{\"summary\":\"x long array\",\"a\":[{}0]}}\n",
        "0,".repeat(20_000)
    );
    let members: Vec<String> = (0..20_000).map(|index| format!("\"k{index}\":0")).collect();
    let object = format!(
        "{{\"summary\":\"x wide object\",\"o\":{{{}}}}}\n",
        members.join(",")
    );
    // Just under the ceiling: 9,999 items (the line, its object, a comma, the array, 9,995
    // commas).
    let within = format!(
        "{{\"summary\":\"x within\",\"a\":[{}0]}}\n",
        "0,".repeat(9_995)
    );
    fixture.write(
        "memory/events.jsonl",
        format!("{array}{object}{within}{{\"summary\":\"x\"}}\n"),
    );
    let answers = answered_then_ping(
        &fixture,
        vec![call(
            1,
            "search_aios",
            json!({"query": "x", "scope": "memory"}),
        )],
    );
    let found = payload(&answers[0]);
    let mut summaries: Vec<&str> = found["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|hit| hit["summary"].as_str().unwrap())
        .collect();
    summaries.sort_unstable();
    assert_eq!(summaries, ["x", "x within"], "{found}");
    assert_eq!(found["complete"], json!(true), "{found}");
}

/// Issue 35: a number beyond the double range keeps its record, as JavaScript's `JSON.parse`
/// (Infinity) does, and is shown as `JSON.stringify` shows Infinity: `null`.
#[test]
fn issue35_a_number_beyond_the_double_range_keeps_its_record_and_ping_follows() {
    let fixture = Fixture::init();
    fixture.write(
        "memory/events.jsonl",
        "{\"summary\":\"x\",\"big\":1e400,\"small\":-1E+999,\"kept\":1.5}\n",
    );
    let answers = answered_then_ping(
        &fixture,
        vec![call(
            1,
            "search_aios",
            json!({"query": "x", "scope": "memory"}),
        )],
    );
    let found = payload(&answers[0]);
    let results = found["results"].as_array().unwrap();
    assert_eq!(results.len(), 1, "{found}");
    let hit = &results[0];
    assert_eq!(
        (&hit["summary"], &hit["big"], &hit["small"], &hit["kept"]),
        (&json!("x"), &json!(null), &json!(null), &json!(1.5)),
        "{found}"
    );
    let text = answers[0]["result"]["content"][0]["text"].as_str().unwrap();
    assert!(
        text.contains("\"big\":null") || text.contains("\"big\": null"),
        "{text}"
    );
}
