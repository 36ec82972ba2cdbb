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

#[test]
fn json_keeps_every_raw_answer() {
    let text = demo(&["--json"]);
    assert!(
        text.contains("→ tools/call read_working_context {\"budget\":1500}\n← {\n  \"markdown\": \"Memory: Shared\\n\\n## Active Context · "),
        "{text}"
    );
    assert!(
        text.contains("→ tools/call search_aios {\"query\":\"tidepool release\",\"limit\":1,\"budget\":8000}\n← {\n  \"query\": \"tidepool release\","),
        "{text}"
    );
    assert!(
        text.contains("→ tools/call resolve_skill {\"intent\":\"plan my day\"}\n← {\n  \"intent\": \"plan my day\","),
        "{text}"
    );
    assert!(text.contains("\n  \"operational\": {"), "{text}");
    assert!(text.ends_with(&format!(
        "\nThe sample folder has been removed.\n{}\n",
        text.lines().last().unwrap()
    )));
}
