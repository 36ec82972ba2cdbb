//! The server's search content cache (contract 03 §19.2) seen from the wire: a server with the
//! cache answers every `search_aios` call byte for byte like a server without it, across
//! repeated calls, other queries and scopes, and edits, additions and deletions between calls.

mod support;

use std::time::Duration;

use dotaios_mcp::Server;
use serde_json::json;
use support::{Fixture, call};

fn fixture() -> Fixture {
    let fixture = Fixture::init_in(std::path::Path::new(env!("CARGO_TARGET_TMPDIR")));
    fixture.write("context/work.md", "# Work\n\nLighthouse launch notes.\n");
    for n in 0..40 {
        fixture.write(
            &format!("vault/notes/n{n:02}.md"),
            format!(
                "# Note {n}\n\nlighthouse keeper {} review\n",
                "detail ".repeat(n)
            ),
        );
    }
    fixture.write(
        "references/harbour.md",
        "---\ndescription: Harbour lighthouse\n---\nbody\n",
    );
    // The cache stores nothing changed within 2 seconds of a request.
    std::thread::sleep(Duration::from_millis(2100));
    fixture
}

/// Each line gets the same answer from both servers; returns how many cached texts the cached
/// server reused for them.
fn same_answers(cached: &Server, uncached: &Server, lines: &[String]) -> u64 {
    let before = cached.cache_hits().expect("the cached server has a cache");
    for line in lines {
        let with = cached.handle_line(line.as_bytes()).unwrap();
        let without = uncached.handle_line(line.as_bytes()).unwrap();
        assert_eq!(with, without, "request {line}");
        assert!(with.contains(r#""isError":false"#), "{with}");
    }
    assert_eq!(uncached.cache_hits(), None);
    cached.cache_hits().unwrap() - before
}

#[test]
fn cached_and_uncached_servers_answer_identically() {
    let fixture = fixture();
    let cached = Server::new(fixture.aios.clone());
    let uncached = Server::without_cache(fixture.aios.clone());
    let lines = [
        call(1, "search_aios", json!({"query": "lighthouse keeper"})),
        call(2, "search_aios", json!({"query": "lighthouse keeper"})),
        call(
            3,
            "search_aios",
            json!({"query": "detail", "scope": "vault", "limit": 5}),
        ),
        call(
            4,
            "search_aios",
            json!({"query": "lighthouse", "budget": 3600}),
        ),
        call(
            5,
            "search_aios",
            json!({"query": "harbour", "scope": "references"}),
        ),
        call(6, "search_aios", json!({"query": "lighthouse keeper"})),
    ];
    // The comparison means something only if the cached server answered from its cache: the
    // first call fills it, and the later calls that search the vault reuse its 40 notes (a
    // call that searches other scopes only evicts them again).
    let reused = same_answers(&cached, &uncached, &lines[..1]);
    assert_eq!(reused, 0, "the first call has nothing to reuse");
    let reused = same_answers(&cached, &uncached, &lines[1..]);
    assert!(reused >= 3 * 40, "only {reused} cached texts were reused");

    // A same-size rewrite (ctime changes), a new file and a deletion between calls.
    let path = fixture.aios.join("vault/notes/n03.md");
    let old = std::fs::read_to_string(&path).unwrap();
    let new = old.replace("lighthouse", "lightship!");
    assert_eq!(new.len(), old.len());
    std::fs::write(&path, new).unwrap();
    fixture.write("vault/notes/zz.md", "# Late\n\nlightship keeper\n");
    std::fs::remove_file(fixture.aios.join("vault/notes/n07.md")).unwrap();
    let lines = vec![
        call(7, "search_aios", json!({"query": "lightship"})),
        call(
            8,
            "search_aios",
            json!({"query": "lighthouse keeper", "limit": 20}),
        ),
    ];
    let reused = same_answers(&cached, &uncached, &lines);
    // The rewritten and the new file are read again; the 38 unchanged notes are reused by
    // both calls.
    assert!(reused >= 2 * 38, "only {reused} cached texts were reused");
    let answer = cached.handle_line(lines[0].as_bytes()).unwrap();
    assert!(answer.contains("vault/notes/n03.md"), "{answer}");
    assert!(answer.contains("vault/notes/zz.md"), "{answer}");
}
