//! `dotaios demo` reads in one screen (contract 06 §1.8): at most 23 lines of at most 80
//! columns in an 80×24 terminal, the working context as Markdown text (not an escaped JSON
//! string), short result lists and a true note on what `limit` counts; `--json` keeps every
//! tool's raw JSON text.

use std::process::Command;

fn demo(args: &[&str]) -> String {
    let temp = tempfile::tempdir().unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_dotaios"))
        .arg("demo")
        .args(args)
        .env("HOME", temp.path())
        .env("USERPROFILE", temp.path())
        .current_dir(temp.path())
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(output.stderr.is_empty());
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn the_default_view_fits_an_80_by_24_terminal() {
    let text = demo(&[]);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() <= 23, "{} lines:\n{text}", lines.len());
    for line in &lines {
        assert!(line.chars().count() <= 80, "{line:?}");
    }
    // The working context reads as Markdown: its headings on their own lines, no JSON escapes.
    assert!(text.contains("\n  ## Active Context · "), "{text}");
    assert!(!text.contains("\\n"), "{text}");
    assert!(!text.contains("\"markdown\""), "{text}");
    // One result line for `limit 1`, and what the limit counted.
    assert!(
        text.contains("\n  1. [skills] skills/release-tidepool/SKILL.md · Release Tidepool ("),
        "{text}"
    );
    assert!(!text.contains("\n  2. "), "{text}");
    assert!(
        text.contains("\n  limit 1 bounds one list merged across all scopes, not each scope.\n"),
        "{text}"
    );
    assert!(text.contains("\n  plan-today (confidence "), "{text}");
    assert!(text.contains("Raw JSON: dotaios demo --json\n"), "{text}");
}

/// `--json` prints one JSON document (contract 06 §1.3) with every exchange as the client
/// received it.
#[test]
fn json_keeps_every_raw_answer_in_one_document() {
    let text = demo(&["--json"]);
    let document: serde_json::Value = serde_json::from_str(&text).expect("one JSON document");
    let calls = document["calls"].as_array().unwrap();
    let names: Vec<&str> = calls.iter().map(|c| c["tool"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        ["read_working_context", "search_aios", "resolve_skill"]
    );
    assert_eq!(calls[0]["arguments"], serde_json::json!({"budget": 1500}));
    let context = calls[0]["response"]["result"]["content"][0]["text"]
        .as_str()
        .unwrap();
    assert!(
        context.starts_with("{\n  \"markdown\": \"Memory: Shared\\n\\n## Active Context · "),
        "{context}"
    );
    assert!(context.contains("\n  \"operational\": {"), "{context}");
    let search = &calls[1]["response"]["result"]["structuredContent"];
    assert_eq!(search["query"], "tidepool release");
    let skill = &calls[2]["response"]["result"]["structuredContent"];
    assert_eq!(skill["intent"], "plan my day");
    assert_eq!(
        document["initialize"]["result"]["protocolVersion"],
        "2025-11-25"
    );
    assert_eq!(
        document["toolsList"]["result"]["tools"]
            .as_array()
            .unwrap()
            .len(),
        3
    );
    assert_eq!(document["sampleFolderRemoved"], true);
    assert!(document["next"].as_str().is_some());
}
