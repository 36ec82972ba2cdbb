//! Property tests and a bounded stable-toolchain fuzz smoke over the adapter's entry points
//! ([`dotaios_mcp::Server::handle_line`], in process, on a real `dotaios init` folder):
//!
//! - for random *valid* arguments, every tool answers within its budget, `used` equals the
//!   text's UTF-16 length, `complete` is false exactly when omissions exist, and no absolute
//!   path of the test machine appears;
//! - for random bytes, random JSON values and random argument objects, every line yields at
//!   most one JSON-RPC response, never a panic, never a path, never a write.

mod support;

use std::sync::OnceLock;

use dotaios_mcp::Server;
use proptest::prelude::*;
use serde_json::{Value, json};
use support::{Fixture, len16};

/// One folder for every case (the adapter never writes, which the last test checks).
fn fixture() -> &'static (Fixture, Server) {
    static FIXTURE: OnceLock<(Fixture, Server)> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        let fixture = Fixture::init_in(std::path::Path::new(env!("CARGO_TARGET_TMPDIR")));
        fixture.write(
            "context/work.md",
            format!("# Work\n\n{}\n", "bounded launch notes 😀 ".repeat(300)),
        );
        for n in 0..12 {
            fixture.write(
                &format!("references/ref-{n}.md"),
                format!("# Reference {n}\n\nlaunch plan review {}\n", "detail ".repeat(40 * n)),
            );
        }
        fixture.write(
            "memory/events.jsonl",
            (0..30)
                .map(|n| format!("{}\n", json!({"ts": "2026-01-01T00:00:00Z", "type": "note", "summary": format!("launch review {n}"), "path": "/abs/secret", "10": n})))
                .collect::<String>(),
        );
        let server = Server::new(fixture.aios.clone());
        (fixture, server)
    })
}

fn answer(line: &str) -> Option<Value> {
    let (fixture, server) = fixture();
    let response = server.handle_line(line.as_bytes())?;
    assert!(!response.contains('\n'), "one line per response");
    let root = fixture.tmp.path().to_string_lossy();
    assert!(
        !response.contains(root.as_ref()),
        "a machine path leaked: {response}"
    );
    Some(serde_json::from_str(&response).expect("a response is JSON"))
}

fn call(tool: &str, arguments: &Value) -> Value {
    let line = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": tool, "arguments": arguments}});
    answer(&line.to_string()).expect("a request is answered")
}

fn words() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            Just("launch"),
            Just("review"),
            Just("plan"),
            Just("my"),
            Just("day"),
            Just("bounded"),
            Just("notes"),
            Just("😀"),
            Just("zzz"),
        ],
        1..60,
    )
    .prop_map(|words| words.join(" "))
}

fn checked_payload(response: &Value, budget: u64) -> Value {
    let text = response["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("expected a result: {response}"));
    let value: Value = serde_json::from_str(text).unwrap();
    assert!(len16(text) as u64 <= budget, "{} > {budget}", len16(text));
    assert_eq!(value["budget"]["limit"], budget);
    assert_eq!(value["budget"]["used"], len16(text));
    value
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn search_fits_its_budget(
        query in words(),
        scope in prop::sample::select(vec!["all", "context", "memory", "references", "vault", "skills"]),
        limit in 1_u64..=20,
        budget in 3530_u64..=32000,
    ) {
        let response = call("search_aios", &json!({"query": query, "scope": scope, "limit": limit, "budget": budget}));
        let value = checked_payload(&response, budget);
        let omissions = value["omissions"].as_array().unwrap();
        prop_assert_eq!(value["complete"].as_bool().unwrap(), omissions.is_empty());
        prop_assert!(!response.to_string().contains("/abs/secret"));
    }

    #[test]
    fn skills_fit_their_budget_or_say_why(
        intent in words(),
        limit in 1_u64..=10,
        budget in 256_u64..=32000,
        off in any::<bool>(),
    ) {
        let memory = if off { "off" } else { "shared" };
        let response = call("resolve_skill", &json!({"intent": intent, "limit": limit, "budget": budget, "memory": memory}));
        if let Some(error) = response.get("error") {
            prop_assert_eq!(error["code"].as_i64(), Some(-32602));
            prop_assert_eq!(error["message"].as_str().unwrap(), format!("budget {budget} is too small for the skill response envelope"));
        } else {
            checked_payload(&response, budget);
        }
    }

    #[test]
    fn working_context_fits_its_budget(limit in 1_u64..=10, budget in 256_u64..=32000) {
        let response = call("read_working_context", &json!({"limit": limit, "budget": budget}));
        let text = response["result"]["content"][0]["text"].as_str().unwrap();
        let value: Value = serde_json::from_str(text).unwrap();
        let markdown = value["markdown"].as_str().unwrap();
        prop_assert!(len16(markdown) as u64 <= budget);
        prop_assert_eq!(value["budget"]["used"].as_u64().unwrap(), len16(markdown) as u64);
    }
}

/// Random JSON values of bounded depth.
fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<f64>()
            .prop_filter("finite", |x| x.is_finite())
            .prop_map(|x| json!(x)),
        ".{0,12}".prop_map(Value::String),
        prop::sample::select(vec![
            "memory",
            "project",
            "off",
            "shared",
            "all",
            "search_aios",
            "resolve_skill",
            "read_working_context",
            "tools/call",
            "2.0"
        ])
        .prop_map(|s| json!(s)),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            proptest::collection::vec(
                (
                    prop::sample::select(vec![
                        "memory",
                        "project",
                        "query",
                        "intent",
                        "scope",
                        "limit",
                        "budget",
                        "x",
                        "__proto__",
                        "0"
                    ]),
                    inner
                ),
                0..6
            )
            .prop_map(|members| Value::Object(
                members
                    .into_iter()
                    .map(|(k, v)| (k.to_owned(), v))
                    .collect()
            )),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    /// Fuzz smoke: arbitrary bytes on a line.
    #[test]
    fn random_bytes_never_crash(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let (_, server) = fixture();
        let line: Vec<u8> = bytes.into_iter().filter(|&b| b != b'\n' && b != b'\r').collect();
        if let Some(response) = server.handle_line(&line) {
            let value: Value = serde_json::from_str(&response).unwrap();
            prop_assert_eq!(value["jsonrpc"].as_str(), Some("2.0"));
        }
    }

    /// Fuzz smoke: arbitrary JSON values as whole lines and as tool arguments.
    #[test]
    fn random_requests_never_crash(
        value in json_value(),
        arguments in json_value(),
        tool in prop::sample::select(vec!["read_working_context", "search_aios", "resolve_skill", "nope"]),
    ) {
        let _ = answer(&value.to_string());
        let line = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": tool, "arguments": arguments}});
        let response = answer(&line.to_string()).expect("a request is answered");
        prop_assert_eq!(&response["id"], &json!(7));
        let answered = response.get("result").is_some() != response.get("error").is_some();
        prop_assert!(answered);
        if let Some(code) = response["error"]["code"].as_i64() {
            prop_assert!(code == -32602 || code == -32603, "{}", response);
        }
    }
}

/// Runs after the properties in the same process only by chance, so it re-runs a sample of
/// requests itself and compares the tree before and after.
#[test]
fn the_folder_is_never_written() {
    let (fixture, _) = fixture();
    let before = fixture.snapshot();
    for line in [
        json!({"query": "launch", "scope": "all", "budget": 3530}),
        json!({"query": "review", "scope": "memory"}),
    ] {
        call("search_aios", &line);
    }
    call("read_working_context", &json!({"budget": 6000}));
    call("resolve_skill", &json!({"intent": "plan my day"}));
    assert_eq!(fixture.snapshot(), before);
}
