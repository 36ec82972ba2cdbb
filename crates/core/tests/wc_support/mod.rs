//! The worked fixture of contract 02 §17 and tree helpers, shared by the core and CLI tests of the
//! working context. Dates can be shifted so that the CLI, which reads the real clock, sees the
//! fixture's "today" as its own.
#![allow(
    clippy::disallowed_methods,
    reason = "test support builds folders with std::fs"
)]
#![allow(dead_code)]

use std::fs;
use std::path::Path;

/// The fixture's own "today".
pub(crate) const FIXTURE_TODAY: &str = "2026-08-29";

/// The files of contract 02 §17.2, with the fixture's dates.
pub(crate) fn fixture_files() -> Vec<(&'static str, String)> {
    let sessions = [
        r#"{"session_id":"s1","agent":"claude-code","captured_at":"2026-08-29T09:00:00.000Z","source_type":"manual","project":"rust-port","project_id":"proj-rust-001","turns":12,"title":"Plan the port","path":"memory/sessions/2026-08-29/2026-08-29T09-00-00_claude-code_s1.md","content_hash":"0000000000000000"}"#,
        r#"{"session_id":"s2","agent":"codex","captured_at":"2026-08-28T15:00:00.000Z","source_type":"manual","turns":4,"title":"General chat","path":"memory/sessions/2026-08-28/2026-08-28T15-00-00_codex_s2.md","content_hash":"1111111111111111"}"#,
        "not-json",
        r#"{"session_id":"s3","agent":"codex","captured_at":"2026-08-20T08:00:00.000Z","source_type":"manual","project":"website","turns":2,"title":"Old website work","path":"memory/sessions/2026-08-20/2026-08-20T08-00-00_codex_s3.md","content_hash":"2222222222222222"}"#,
        r#"{"session_id":"s4","agent":"gemini","captured_at":"2026-08-10T08:00:00.000Z","source_type":"manual","turns":1,"title":"Very old","path":"memory/sessions/2026-08-10/2026-08-10T08-00-00_gemini_s4.md","content_hash":"3333333333333333"}"#,
    ];
    let lines = |items: &[&str]| {
        items
            .iter()
            .map(|line| format!("{line}\n"))
            .collect::<String>()
    };
    vec![
        ("aios.json", "{\"schema_version\":\"1.2.0\",\"created_at\":\"2026-08-01T00:00:00.000Z\",\"ai_tools\":[\"claude-code\"],\"vault_path\":null}\n".to_owned()),
        (".gitignore", ".env\n/workspaces/\n".to_owned()),
        ("context/identity.md", "---\nsource: dotaios init\nkind: context\n---\n# Identity\n\n- Name: Ada\n- Role: Founder\n".to_owned()),
        ("context/priorities.md", "# Priorities\n\n## Current Bets\n\n- Ship the Rust reader\n".to_owned()),
        ("context/work.md", "---\nkind: context\n---\n# Work\n\n## Current Work\n\nPorting the AIOS reader to Rust.\n\n## Active Projects\n\nSee projects/.\n".to_owned()),
        ("context/north-star.md", "# North Star\n".to_owned()),
        ("decisions/log.md", "# Decision Log\n\n## 2026-08-20 Use Markdown files\n\nBody.\n\n## 2026-08-25 Adopt Rust\n\nBody.\n\n## 2026-08-27 Keep JSONL\n\nBody.\n\n## 2026-08-28 Bound every read\n\nBody.\n".to_owned()),
        ("memory/daily/2026-08-29.md", "---\ndate: 2026-08-29\n---\n\n# 2026-08-29\n\n## Focus\n\nFinish the spec\n\n## Plan\n\n- [ ] Write fixture\n- [x] Read sources\n- Carried over from 2026-08-28: Review budget rules\n\n## Close\n".to_owned()),
        ("memory/daily/2026-08-28.md", "# 2026-08-28\n\n## Close\n\n### Done\n\n- Drafted outline\n\n### Carry-over\n\n- Review budget rules\n- Email Bob\n\n### Reflection\n\nGood day.\n".to_owned()),
        ("memory/sessions/index.jsonl", lines(&sessions)),
        ("memory/sessions/2026-08-29/2026-08-29T09-00-00_claude-code_s1.md", "---\nagent: claude-code\nsession_id: \"s1\"\ncaptured_at: 2026-08-29T09:00:00.000Z\nsource_type: manual\nproject: rust-port\nproject_id: proj-rust-001\nturns: 1\nbody_encoding: escaped-lines-v1\ntitle: \"Plan the port\"\nschema: 1\n---\n\n**user**\n\nPlan the port\n".to_owned()),
        ("memory/signals/2026-08-29.jsonl", lines(&[
            r#"{"ts":"2026-08-29T08:30:00.000Z","type":"signal","project":"rust-port","summary":"Budget marker is 26 chars"}"#,
            r#"{"ts":"2026-08-29T07:00:00.000Z","type":"update","source":"dotaios update","summary":"Decided to keep JSONL"}"#,
        ])),
        ("memory/signals/laptop-2026-08-28.jsonl", lines(&[r#"{"summary":"No timestamp signal from laptop"}"#])),
        ("memory/signals/2026-08-20.jsonl", lines(&[r#"{"ts":"2026-08-20T10:00:00.000Z","summary":"Stale signal"}"#])),
        ("memory/events.jsonl", lines(&[
            r#"{"ts":"2026-08-29T07:00:00.000Z","type":"update","source":"dotaios update","summary":"Decided to keep JSONL"}"#,
            r#"{"ts":"2026-08-28T18:00:00.000Z","type":"brief","source":"dotaios brief","summary":"Daily brief written for 2026-08-28."}"#,
            r#"{"ts":"2026-08-29T09:30:00.000Z","type":"note","project":"website","summary":"Website copy approved"}"#,
            r#"{"ts":"2026-08-26T09:00:00.000Z","type":"note","summary":"Too old event"}"#,
        ])),
        ("projects/rust-port/README.md", "---\nid: proj-rust-001\nproject: rust-port\nname: Rust Port\nstatus: active\ndomain: [build]\nrepo_url: https://github.com/example/rust-port.git\n---\n# Rust Port\n\nRe-implement the DotAIOS read side in Rust.\n\n- Keep outputs byte-identical.\n".to_owned()),
        ("projects/website/README.md", "---\nid: proj-web-002\nproject: website\nstatus: paused\n---\n# Website\n\nMarketing site.\n".to_owned()),
        ("projects/notes.txt", "loose file\n".to_owned()),
        ("skills/plan-today/SKILL.md", "---\nname: plan-today\ndescription: Plan the day from priorities and recent work.\ntriggers: plan my day, what should I work on\n---\n# plan-today\n\nSteps…\n".to_owned()),
        ("skills/closeday/SKILL.md", "---\nname: closeday\ndescription: Close out today's note.\ntriggers:\n  - close my day\n  - end of day\n---\n# closeday\n".to_owned()),
        ("skills/_drafts/SKILL.md", "---\nname: drafts\n---\n".to_owned()),
    ]
}

/// Replaces every `2026-08-DD` (DD two digits) in `text` by the date `29 − DD` days before
/// `today`, so that the fixture keeps its shape around another "today".
pub(crate) fn shift_dates(text: &str, today: &str) -> String {
    let base: jiff::civil::Date = today
        .parse()
        .unwrap_or_else(|_| jiff::civil::date(2026, 8, 29));
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("2026-08-") {
        out.push_str(&rest[..at]);
        let day = rest
            .get(at + 8..at + 10)
            .and_then(|d| d.parse::<i64>().ok());
        match day {
            Some(day) => {
                let date = base
                    .checked_sub(jiff::Span::new().days(29 - day))
                    .unwrap_or(base);
                out.push_str(&date.to_string());
                rest = &rest[at + 10..];
            }
            None => {
                out.push_str("2026-08-");
                rest = &rest[at + 8..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// Writes the fixture below `root`, with dates shifted to `today`.
pub(crate) fn write_fixture(root: &Path, today: &str) {
    for (path, text) in fixture_files() {
        write(root, &shift_dates(path, today), &shift_dates(&text, today));
    }
}

/// Writes one file, creating its directories.
pub(crate) fn write(root: &Path, path: &str, text: &str) {
    write_bytes(root, path, text.as_bytes());
}

/// Writes one file of raw bytes, creating its directories.
pub(crate) fn write_bytes(root: &Path, path: &str, bytes: &[u8]) {
    let full = root.join(path);
    if let Some(parent) = full.parent() {
        fs::create_dir_all(parent).unwrap_or_else(|e| panic!("mkdir {path}: {e}"));
    }
    fs::write(&full, bytes).unwrap_or_else(|e| panic!("write {path}: {e}"));
}

/// The whole tree's fingerprint (`dotaios-testkit`): every name, kind, mode, size, mtime and
/// byte (links as links). Equal fingerprints mean nothing was written.
pub(crate) use dotaios_testkit::fingerprint;

/// The expected shared-mode digest of contract 02 §17.3.
pub(crate) const SHARED_DIGEST: &str = "Memory: Shared

## Active Context · 2026-08-29

### Identity
# Identity

- Name: Ada
- Role: Founder
> Source: context/identity.md (excerpt; sha256:84c76653dd3f9ae60e9d031fe706859cbc5eb1190fac2218d7f51fca55b5546e)

### Priorities
# Priorities

## Current Bets

- Ship the Rust reader
> Source: context/priorities.md (excerpt; sha256:712d60b1a2508547122a604ec6e8fa1b2ae389a127265f871ed40a92b4e66732)

### Current Work
Porting the AIOS reader to Rust.
> Source: context/work.md (excerpt; sha256:1d701552f64e2a81ef33ce1c846e174f442a8506fa31a980f9ed8e12caf70c31)

### Decisions
- 2026-08-28 Bound every read
- 2026-08-27 Keep JSONL
- 2026-08-25 Adopt Rust

### Today
**Focus:** Finish the spec
- Write fixture
- Read sources
- Carried over from 2026-08-28: Review budget rules

### Carry-overs
- Carried over from 2026-08-28: Review budget rules
- Review budget rules
- Email Bob

### Active Project
- Rust Port · active · build
  Re-implement the DotAIOS read side in Rust.
> Re-implement the DotAIOS read side in Rust.
>
> - Keep outputs byte-identical.

### Recent Sessions
- 2026-08-29 · claude-code · rust-port · \"Plan the port\" (12 turns)
- 2026-08-28 · codex · \"General chat\" (4 turns)
- 2026-08-20 · codex · website · \"Old website work\" (2 turns)

### Recent Signals
- [2026-08-29] Budget marker is 26 chars
- [2026-08-28] No timestamp signal from laptop

### Recent Events
- [2026-08-29] Website copy approved
- [2026-08-29] Decided to keep JSONL
- [2026-08-28] Daily brief written for 2026-08-28.";

/// The expected project-mode digest of contract 02 §17.4.
pub(crate) const PROJECT_DIGEST: &str = "Memory: This project

## Active Context · 2026-08-29

### Active Project
- Rust Port · active · build
  Re-implement the DotAIOS read side in Rust.
> Re-implement the DotAIOS read side in Rust.
>
> - Keep outputs byte-identical.
> Source: projects/rust-port/README.md (excerpt; sha256:0ecfcb64b87a46047567f49fdfaaf70f7a41b914c37c1e4557946e526931ed70)

### Recent Sessions
- 2026-08-29 · claude-code · rust-port · \"Plan the port\" (12 turns)

### Recent Signals
- [2026-08-29] Budget marker is 26 chars";

/// The expected stdout of `--project proj-rust-001 --budget 220` (contract 02 §17.4).
pub(crate) const PROJECT_220_STDOUT: &str = "> [DotAIOS] Selected project README context is incomplete: text omitted by output budget. Missing text may contain constraints. Do not infer it.

Memory: This project

## Active Context · 2026-08-29

### Recent Sessions
- 2026-08-29 · claude-code · rust-port · \"Plan the port\" (12 turns)

### Recent Signals
- [2026-08-29] Budget marker is

[context budget reached]
";

/// The off notice line of contract 01 §7.3.
pub(crate) const OFF_NOTICE: &str = "DotAIOS is off; your AI app may still keep its own conversation history. DotAIOS did not read, search, save, or capture this turn.";
