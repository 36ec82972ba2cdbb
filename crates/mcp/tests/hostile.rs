//! Hostile folder content and requests (contract 01 §5.7, contract 05 §2.7, `docs/security.md`):
//! frontmatter nested far past the limit, a 16 MiB request line of tiny objects, and deep JSON;
//! each is answered with the contract's error or omission, the adapter keeps serving, and nothing
//! is written.

mod support;

use dotaios_core::text::MAX_NESTING;
use dotaios_mcp::Server;
use serde_json::{Value, json};
use support::*;

/// Levels of nested block sequences: far past the 64-level limit, and past the ~17,000 that
/// overflowed the main thread's stack before the loader became iterative.
const DEEP: usize = 30_000;

const FAILED: &str = "DotAIOS request failed safely.";
const CONTEXT_FAILED: &str = "DotAIOS could not read working context safely.";

/// A skill and a project whose frontmatter carries `extra` YAML after the usual fields.
fn folder_with_frontmatter(extra: &str) -> Fixture {
    let fixture = Fixture::init();
    fixture.write(
        "skills/deep-skill/SKILL.md",
        format!("---\nname: deep-skill\ndescription: Plan the deep day.\n{extra}---\n# Deep\n"),
    );
    fixture.write(
        "projects/deep-project/README.md",
        format!(
            "---\nid: deep-project\nproject: deep-project\nname: Deep\nstatus: active\n\
             domain: build\n{extra}---\n# Deep\n"
        ),
    );
    fixture
}

fn deep_folder() -> Fixture {
    folder_with_frontmatter(&format!("nest:\n{}x\n", "- ".repeat(DEEP)))
}

/// Answers `lines` in order on a thread with a 256 KiB stack (the main thread has 8 MiB). A
/// stack overflow there aborts the whole test process, as it would abort the adapter.
fn on_small_stack(server: Server, lines: Vec<String>) -> Vec<Value> {
    std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(move || {
            lines
                .iter()
                .map(|line| {
                    let answer = server.handle_line(line.as_bytes()).expect("an answer");
                    serde_json::from_str(&answer).unwrap()
                })
                .collect()
        })
        .unwrap()
        .join()
        .expect("the handler finishes on a 256 KiB stack")
}

fn ping(id: u64) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": "ping"}).to_string()
}

fn requests() -> Vec<String> {
    vec![
        call(1, "resolve_skill", json!({"intent": "plan the deep day"})),
        call(2, "read_working_context", json!({})),
        ping(3),
    ]
}

/// Through the built adapter: the deep skill and the deep README take the path invalid
/// frontmatter takes (the same answers as a duplicate key gives), then `ping` is answered.
#[test]
fn deep_frontmatter_is_answered_and_the_adapter_keeps_serving() {
    let fixture = deep_folder();
    let before = fixture.snapshot();
    let responses = fixture.responses(&requests());
    assert_eq!(error_of(&responses[0]), (-32603, FAILED.to_owned()));
    assert_eq!(error_of(&responses[1]), (-32603, CONTEXT_FAILED.to_owned()));
    assert_eq!(
        responses[2],
        json!({"jsonrpc": "2.0", "id": 3, "result": {}})
    );
    assert_eq!(fixture.snapshot(), before, "nothing is written");

    let invalid = folder_with_frontmatter("name: again\n");
    let baseline = invalid.responses(&requests());
    for (deep, invalid) in responses.iter().zip(&baseline) {
        assert_eq!(deep, invalid);
    }
}

/// The handler itself on a thread with a 256 KiB stack (the main thread has 8 MiB): deep
/// frontmatter and deep request JSON are errors there too, never a stack overflow, which
/// would abort the whole process (a panic is caught per request; an overflow is not).
#[test]
fn deep_input_cannot_abort_the_process_on_a_small_stack() {
    let fixture = deep_folder();
    let server = Server::new(fixture.aios.clone());
    let deep_json = format!(
        r#"{{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{{"name":"search_aios","arguments":{{"query":{}1{}}}}}}}"#,
        "[".repeat(1_000_000),
        "]".repeat(1_000_000)
    );
    let mut lines = requests();
    lines.push(deep_json);
    let answers = on_small_stack(server, lines);
    assert_eq!(error_of(&answers[0]), (-32603, FAILED.to_owned()));
    assert_eq!(error_of(&answers[1]), (-32603, CONTEXT_FAILED.to_owned()));
    assert_eq!(answers[2]["result"], json!({}));
    assert_eq!(
        answers[3],
        json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": "Parse error"}})
    );
}

/// JSONL content on a 256 KiB stack: a line at the nesting limit is kept and found; one just
/// past it and one nested 100,000 levels are skipped as lines Rust does not hold (contract 03
/// §10.2), by the working context and by search alike.
#[test]
fn deep_jsonl_lines_are_read_on_a_small_stack() {
    let fixture = Fixture::init();
    let now = jiff::Timestamp::now().to_string();
    // The entry object is one level; `x` adds `depth` more.
    let nested = |word: &str, depth: usize| {
        format!(
            r#"{{"ts":"{now}","type":"note","summary":"{word} marker","x":{}1{}}}"#,
            "[".repeat(depth),
            "]".repeat(depth)
        )
    };
    fixture.write(
        "memory/events.jsonl",
        format!(
            "{}\n{}\n{}\n",
            nested("keptline", MAX_NESTING - 1),
            nested("skippedline", MAX_NESTING),
            nested("skippedline", 100_000)
        ),
    );
    let before = fixture.snapshot();
    let server = Server::new(fixture.aios.clone());
    let lines = [
        call(1, "read_working_context", json!({})),
        call(
            2,
            "search_aios",
            json!({"query": "keptline", "scope": "memory"}),
        ),
        call(
            3,
            "search_aios",
            json!({"query": "skippedline", "scope": "memory"}),
        ),
        ping(4),
    ];
    let answers = on_small_stack(server, lines.to_vec());
    let context = payload_text(&answers[0]);
    assert!(context.contains("keptline marker"), "{context}");
    assert!(!context.contains("skippedline"), "{context}");
    let hits = |answer: &Value| payload(answer)["results"].as_array().map_or(0, Vec::len);
    assert_eq!(hits(&answers[1]), 1, "{}", answers[1]);
    assert_eq!(hits(&answers[2]), 0, "{}", answers[2]);
    assert_eq!(answers[3]["result"], json!({}));
    assert_eq!(fixture.snapshot(), before, "nothing is written");
}

/// One 16 MiB line of one-member objects (about 1 GB once built, before the value budget) is
/// refused as unparseable, and the next request is answered.
#[test]
fn a_line_of_many_small_objects_is_refused_and_serving_goes_on() {
    let fixture = Fixture::init();
    let cap = 16 * 1024 * 1024;
    let count = (cap - 2) / 8;
    let array = format!("[{}{{\"a\":0}}]", "{\"a\":0},".repeat(count - 1));
    assert!(array.len() <= cap);
    // The same inside a request object, within the cap.
    let junk = format!("[{}0]", "{\"a\":0},".repeat(count - 20));
    let object =
        format!(r#"{{"jsonrpc":"2.0","id":1,"method":"ping","params":{{"junk":{junk}}}}}"#);
    assert!(object.len() <= cap);
    let transcript = fixture.run(&[array, object, ping(2)]);
    transcript.assert_clean(&fixture);
    let parse_error =
        json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": "Parse error"}});
    assert_eq!(
        transcript.responses,
        [
            parse_error.clone(),
            parse_error,
            json!({"jsonrpc": "2.0", "id": 2, "result": {}})
        ]
    );
}
