//! Contract 05 §3.4: the reference era is byte-identical. The same requests, sent with no
//! `initialize` and after an `initialize` at each version of the reference era, must produce
//! exactly the answers recorded in `tests/golden/` (the `generated_at` clock aside). The
//! recordings were made with the adapter as it was before the structured eras existed; refresh
//! them only on purpose, with `DOTAIOS_GOLDEN_ADAPTER=<adapter binary> cargo test -p dotaios-mcp
//! --test golden`, which runs that binary instead and rewrites the files. One documented
//! difference: request 9's `resolve_skill` `score` and `confidence` are this product's ranking
//! (contract 04 §3.3, "Differs from the reference"), edited into the recordings.
#![allow(
    clippy::disallowed_methods,
    reason = "tests build and inspect their folders with std::fs"
)]

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};
use support::{Fixture, request, run_raw};

/// The requests of every transcript: lifecycle, both tool lists, each tool's success, Off and
/// error answers, protocol errors, inline `_meta` naming a reference-era version, and a line
/// that is an array (a batch, which the reference ignores).
fn requests() -> Vec<String> {
    let legacy_meta = json!({"io.modelcontextprotocol/protocolVersion": "2025-06-18", "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/logLevel": "loud"});
    let call = |id: u64, name: &str, arguments: Value| {
        request(
            id,
            "tools/call",
            json!({"name": name, "arguments": arguments}),
        )
    };
    vec![
        request(1, "ping", json!({})),
        request(2, "tools/list", json!({})),
        request(3, "tools/list", json!({"cursor": "abc"})),
        call(4, "read_working_context", json!({"memory": "off"})),
        call(5, "read_working_context", json!({"budget": 512})),
        call(
            6,
            "search_aios",
            json!({"query": "private", "memory": "off", "scope": " memory "}),
        ),
        call(7, "search_aios", json!({"query": "plan my day"})),
        call(
            8,
            "search_aios",
            json!({"query": "plan", "scope": "context", "limit": 2, "budget": 3530}),
        ),
        call(9, "resolve_skill", json!({"intent": "plan my day"})),
        call(
            10,
            "resolve_skill",
            json!({"intent": "plan privately", "memory": "off", "budget": 512}),
        ),
        call(11, "read_working_context", json!({"budget": 20})),
        call(12, "search_aios", json!({"query": "x", "bogus": 1})),
        call(
            13,
            "search_aios",
            json!({"query": "x", "scope": "projects"}),
        ),
        call(
            14,
            "read_working_context",
            json!({"project": "missing-project"}),
        ),
        call(
            15,
            "resolve_skill",
            json!({"intent": "x", "memory": "off", "budget": 256}),
        ),
        call(16, "log_event", json!({})),
        request(
            17,
            "tools/call",
            json!({"name": "search_aios", "arguments": 42}),
        ),
        request(18, "tools/list", json!({"_meta": legacy_meta})),
        request(19, "resources/list", json!({})),
        r#"[{"jsonrpc":"2.0","id":20,"method":"ping"}]"#.to_owned(),
        request(21, "server/discover", json!({})),
    ]
}

/// The transcripts: a name and the `initialize` version that opens it (`None`: no handshake).
const TRANSCRIPTS: [(&str, Option<&str>); 3] = [
    ("no-initialize", None),
    ("initialize-2024-11-05", Some("2024-11-05")),
    ("initialize-2025-06-18", Some("2025-06-18")),
];

fn golden(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(format!("{name}.jsonl"))
}

/// The clock-dependent members (`generated_at` and the day the working context's heading names,
/// contract 02 §4) and the crate version (which a release bumps), masked. The day is masked
/// rather than fixed so a transcript recorded today still holds tomorrow: it has ten
/// characters on every day, so the recorded budget figures do not depend on it.
fn without_clock(stdout: &str) -> String {
    let version = format!(r#""version":"{}""#, env!("CARGO_PKG_VERSION"));
    stdout
        .replace(&version, r#""version":"<version>""#)
        .lines()
        .map(|line| {
            let line = mask_after(line, r#"\"generated_at\": \""#, |rest| {
                rest.find(r#"\""#).expect("a closed string")
            });
            mask_after(&line, "## Active Context \u{b7} ", |rest| {
                let day = &rest[..rest.len().min(10)];
                assert!(
                    day.len() == 10 && day.bytes().all(|b| b.is_ascii_digit() || b == b'-'),
                    "a YYYY-MM-DD day after the heading"
                );
                10
            })
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// `line` with the text after the first `marker` replaced by `<clock>`, for as many bytes as
/// `len` says of the rest.
fn mask_after(line: &str, marker: &str, len: impl Fn(&str) -> usize) -> String {
    let Some(start) = line.find(marker) else {
        return line.to_owned();
    };
    let value = start + marker.len();
    let end = value + len(&line[value..]);
    format!("{}<clock>{}", &line[..value], &line[end..])
}

#[test]
fn reference_era_transcripts_are_byte_identical() {
    let recorder = std::env::var_os("DOTAIOS_GOLDEN_ADAPTER").map(PathBuf::from);
    let fixture = Fixture::init();
    for (name, version) in TRANSCRIPTS {
        let mut lines = Vec::new();
        if let Some(version) = version {
            lines.push(request(
                0,
                "initialize",
                json!({"protocolVersion": version}),
            ));
        }
        lines.extend(requests());
        let mut input = lines.join("\n");
        input.push('\n');
        let adapter = recorder.clone().unwrap_or_else(support::adapter);
        let ran = run_raw(
            Command::new(adapter).arg("--path").arg(&fixture.aios),
            input.as_bytes(),
        );
        ran.assert_clean(&fixture);
        let stdout = without_clock(&ran.stdout);
        if recorder.is_some() {
            std::fs::write(golden(name), format!("{stdout}\n")).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(golden(name)).expect("a recorded transcript");
        assert_eq!(format!("{stdout}\n"), expected, "transcript {name}");
    }
}
