//! The hostile-content rows of `dotaios-bench extra` (contract 07 §4.1 target h): folders whose
//! every file fits the documented caps but is shaped for the most work per byte, each call timed
//! on one running `dotaios-mcp` (every call counted, the first, cold one included) and followed
//! by a `ping` on the same connection, with the server's lifetime peak RSS; and `doctor --json`
//! as fresh processes. Target: every call ≤ 2 s and every process ≤ 128 MiB.
//!
//! The shapes (issue 21):
//! - F1: 8 vault notes of 4 MiB of `x\n`, `search_aios {"query":"x","scope":"vault"}`;
//! - F2: three memory sources (`memory/events.jsonl`, `memory/events-archive.jsonl`,
//!   `memory/signals/a.jsonl`) of 4 MiB of `{"summary":"x"}` lines, searched in scope `memory`
//!   (786,432 entries: over the request's 500,000, so the scope is omitted, contract 03 §13); and
//!   the same three with 160,000 entries each, padded to 4 MiB, inside that ceiling, searched in
//!   scope `memory` and with a query no entry holds in scope `all`;
//! - F2: an 8 MiB `memory/events.jsonl` of note lines dated today, `read_working_context`;
//! - issue 35, machine-written JSONL: one event and three 4 MiB `memory/signals/` files of
//!   entries sharing its `record_id` (483,957 entries, the cross-family dedupe), searched in
//!   scope `memory` through the adapter and as `dotaios search x --scope memory` processes; one
//!   4 MiB `memory/events.jsonl` line of a two-million-element array, and one of a
//!   300,000-member object (over the line item ceiling, contract 03 §10.2); and 490,000 tiny
//!   matching entries without records in two `memory/signals/` files;
//! - F3: 500 skills, each with just under 64 KiB of nested flow YAML (`[[…]]`, 32 levels, within
//!   the nesting limit) in its frontmatter, `resolve_skill` and `doctor --json`; and 500 skills
//!   whose frontmatter is at each document's bounds (just under 8,192 events, padded to just
//!   under 64 KiB), which parse until the request's allowance is spent;
//! - F3: 16 project READMEs of just under 1 MiB of that frontmatter, `read_working_context` in
//!   project mode; and 16 READMEs whose frontmatter is at the per-document bounds and whose
//!   body fills the 1 MiB cap.
//!
//! An answer is checked for what the contract says it must be (results, the fixed failure
//! message), never for timing. Every folder is written below the system temporary directory and
//! removed.

use std::path::{Path, PathBuf};
use std::time::Instant;

use serde_json::{Value, json};

use dotaios_core::folder::frontmatter::MAX_DOCUMENT_EVENTS;

use super::{ANSWER_DEADLINE, MAX_LINE_BYTES, Row, WorstLimit};
use crate::mcp_server::{initialized_server, server_peak};
use crate::spawner::Spawner;

/// Contract 07 §4.1 target h.
const LIMIT: WorstLimit = WorstLimit {
    ms: 2_000.0,
    rss_bytes: 128 * 1024 * 1024,
};
const MIB: usize = 1024 * 1024;
/// The fixed message of a tool call that failed safely (contract 05 §6.10).
const FAILED_SAFELY: &str = "DotAIOS request failed safely.";
/// The fixed message of a working-context read that failed safely (contract 02 §15).
const CONTEXT_FAILED: &str = "DotAIOS could not read working context safely.";

/// One generated folder, removed when dropped.
pub(super) struct Folder(PathBuf);

impl Folder {
    pub(super) fn new(name: &str) -> Result<Folder, String> {
        let path = std::env::temp_dir().join(format!(
            "dotaios-bench-hostile-{name}-{}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&path);
        let folder = Folder(path);
        folder.write("aios.json", crate::corpus::AIOS_JSON.as_bytes())?;
        Ok(folder)
    }

    pub(super) fn write(&self, relative: &str, bytes: &[u8]) -> Result<(), String> {
        let path = self.0.join(relative);
        let fail = |error: std::io::Error| format!("cannot write the hostile folder: {error}");
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(fail)?;
        }
        std::fs::write(path, bytes).map_err(fail)
    }
}

impl Drop for Folder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A folder whose three memory sources of contract 03 §10 each hold `entries`.
fn memory_folder(name: &str, entries: String) -> Result<Folder, String> {
    let folder = Folder::new(name)?;
    for source in [
        "memory/events.jsonl",
        "memory/events-archive.jsonl",
        "memory/signals/a.jsonl",
    ] {
        folder.write(source, entries.as_bytes())?;
    }
    Ok(folder)
}

/// `line` repeated to at most `bytes`.
pub(super) fn repeated(line: &str, bytes: usize) -> Vec<u8> {
    line.repeat(bytes / line.len()).into_bytes()
}

/// A flow sequence of 32-level nested sequences, `units` of them: about one parser event per
/// byte, every level within the nesting limit.
fn nested_flow(units: usize) -> String {
    let unit = format!("{}x{}", "[".repeat(32), "]".repeat(32));
    format!("nest: [{}]\n", vec![unit; units].join(","))
}

/// A nested-flow frontmatter value of just under `bytes`.
fn nested_flow_within(bytes: usize) -> String {
    // Each unit is 65 bytes and a separator.
    nested_flow(bytes.saturating_sub(256) / 66)
}

/// What one call must answer.
pub(super) enum Expect {
    /// A successful result whose payload has this many `results`.
    Results(usize),
    /// A successful result with at least one of `results` (the budget may leave out others).
    Found,
    /// A successful result with no `results` and the scope omitted for this reason.
    Omitted(&'static str),
    /// A successful working context whose text holds this.
    Context(&'static str),
    /// A result or an error; an error must carry this fixed message.
    SafeFailure(&'static str),
}

fn check(name: &str, response: &Value, expect: &Expect) -> Result<(), String> {
    let wrong = || format!("{name}: unexpected answer {}", clip(response));
    let result = &response["result"];
    let text = result["content"][0]["text"].as_str().unwrap_or_default();
    match expect {
        Expect::Results(count) => {
            let payload: Value = serde_json::from_str(text).map_err(|_| wrong())?;
            let found = payload["results"].as_array().map_or(usize::MAX, Vec::len);
            if result["isError"] != Value::Bool(false) || found != *count {
                return Err(wrong());
            }
        }
        Expect::Found => {
            let payload: Value = serde_json::from_str(text).map_err(|_| wrong())?;
            let found = payload["results"].as_array().map_or(0, Vec::len);
            if result["isError"] != Value::Bool(false) || found == 0 {
                return Err(wrong());
            }
        }
        Expect::Omitted(reason) => {
            let payload: Value = serde_json::from_str(text).map_err(|_| wrong())?;
            let omitted = payload["omissions"]
                .as_array()
                .is_some_and(|omissions| omissions.iter().any(|o| o["reason"] == *reason));
            if result["isError"] != Value::Bool(false)
                || payload["results"] != json!([])
                || !omitted
            {
                return Err(wrong());
            }
        }
        Expect::Context(needle) => {
            if result["isError"] != Value::Bool(false) || !text.contains(needle) {
                return Err(wrong());
            }
        }
        Expect::SafeFailure(message) => {
            let error = response["error"]["message"].as_str();
            let tool_error = result["isError"] == Value::Bool(true);
            let ok = match (error, tool_error) {
                (Some(error), _) => error == *message,
                (None, true) => text.contains(message),
                (None, false) => !text.is_empty(),
            };
            if !ok {
                return Err(wrong());
            }
        }
    }
    Ok(())
}

fn clip(value: &Value) -> String {
    let text = value.to_string();
    text.chars().take(300).collect()
}

/// `calls` timed calls of `tool` on one fresh server, then a `ping`; the row carries every
/// call's time and the server's peak.
pub(super) fn adapter_row(
    name: &'static str,
    binary: &Path,
    folder: &Folder,
    call: (&str, Value),
    expect: &Expect,
    calls: usize,
) -> Result<Row, String> {
    eprintln!("{name} …");
    let failed = |error| format!("{name}: dotaios-mcp: {error}");
    let mut client = initialized_server(
        binary,
        &folder.0,
        "2025-06-18",
        MAX_LINE_BYTES,
        ANSWER_DEADLINE,
    )
    .map_err(|error| format!("{name}: {error}"))?;
    let mut row = Row::worst(name, LIMIT);
    for _ in 0..calls {
        let start = Instant::now();
        let response = client
            .call_tool(call.0, call.1.clone(), start + ANSWER_DEADLINE)
            .map_err(failed)?;
        row.samples.push(crate::timing::elapsed_ns(start));
        check(name, &response, expect)?;
    }
    let pong = client
        .request("ping", None, Instant::now() + ANSWER_DEADLINE)
        .map_err(failed)?;
    if pong["result"] != json!({}) {
        return Err(format!("{name}: ping answered {}", clip(&pong)));
    }
    row.max_rss = Some(server_peak(client)?);
    Ok(row)
}

/// The hostile rows; `calls` is the number of calls per adapter row and of `doctor` runs.
pub(super) fn rows(dotaios: &Path, dotaios_mcp: &Path, calls: usize) -> Result<Vec<Row>, String> {
    let mut rows = Vec::new();

    let notes = Folder::new("notes")?;
    let note = repeated("x\n", 4 * MIB);
    for index in 0..8 {
        notes.write(&format!("vault/note-{index}.md"), &note)?;
    }
    rows.push(adapter_row(
        "hostile F1: search_aios x, vault of 8 × 4 MiB `x` lines",
        dotaios_mcp,
        &notes,
        ("search_aios", json!({"query": "x", "scope": "vault"})),
        &Expect::Results(8),
        calls,
    )?);
    drop(notes);

    let memory = memory_folder("memory", "{\"summary\":\"x\"}\n".repeat(4 * MIB / 16))?;
    rows.push(adapter_row(
        "hostile F2: search_aios x, memory of 3 × 4 MiB tiny entries",
        dotaios_mcp,
        &memory,
        ("search_aios", json!({"query": "x", "scope": "memory"})),
        &Expect::Omitted("entry_count_exceeded"),
        calls,
    )?);
    drop(memory);

    // 160,000 entries a source, each padded so that they fill 4 MiB: 480,000 in all, inside
    // the request's 500,000.
    let per_source = 160_000;
    let pad = (4 * MIB / per_source).saturating_sub("{\"summary\":\"x\",\"p\":\"\"}\n".len());
    let entry = format!("{{\"summary\":\"x\",\"p\":\"{}\"}}\n", "p".repeat(pad));
    let memory = memory_folder("memory-within", entry.repeat(per_source))?;
    rows.push(adapter_row(
        "hostile F2: search_aios x, memory of 3 × 160,000 entries",
        dotaios_mcp,
        &memory,
        ("search_aios", json!({"query": "x", "scope": "memory"})),
        &Expect::Results(10),
        calls,
    )?);
    rows.push(adapter_row(
        "hostile F2: search_aios no hit, scope all, 3 × 160,000 entries",
        dotaios_mcp,
        &memory,
        ("search_aios", json!({"query": "qqqzzz", "scope": "all"})),
        &Expect::Results(0),
        calls,
    )?);
    drop(memory);

    rows.extend(jsonl_rows(dotaios, dotaios_mcp, calls)?);

    let events = Folder::new("events")?;
    // Dated today in the server's zone, so every row is inside the date window.
    let today = jiff::Zoned::now().date().to_string();
    let line = format!("{{\"ts\":\"{today}T08:00:00.000Z\",\"type\":\"note\",\"note\":\"x\"}}\n");
    events.write("memory/events.jsonl", &repeated(&line, 8 * MIB))?;
    rows.push(adapter_row(
        "hostile F2: read_working_context, 8 MiB events.jsonl",
        dotaios_mcp,
        &events,
        ("read_working_context", json!({})),
        &Expect::Context("### Recent Events"),
        calls,
    )?);
    drop(events);

    // The shapes: nesting that fills the file; each document is over its own bounds,
    // so the first one read takes the invalid-frontmatter path.
    let filled = nested_flow_within(64 * 1024);
    // At the bounds: each document just inside its own event bound and padded to just under
    // the 64 KiB frontmatter prefix with one long scalar, so documents parse until the
    // request's allowance is spent (contract 01 §5.7 item 5).
    let at_bounds = |bytes: usize| {
        let nest = nested_flow(MAX_DOCUMENT_EVENTS / 65 - 8);
        let pad = bytes.saturating_sub(nest.len() + 512);
        format!("{nest}pad: {}\n", "p".repeat(pad))
    };
    for (label, extra, expect) in [
        (
            [
                "hostile F3: resolve_skill, 500 skills of 64 KiB nested YAML",
                "hostile F3: doctor --json, 500 skills of 64 KiB nested YAML",
            ],
            filled.clone(),
            FAILED_SAFELY,
        ),
        (
            [
                "hostile F3: resolve_skill, 500 skills at the per-document bounds",
                "hostile F3: doctor --json, 500 skills at the per-document bounds",
            ],
            at_bounds(64 * 1024),
            FAILED_SAFELY,
        ),
    ] {
        let skills = Folder::new("skills")?;
        for index in 0..500 {
            skills.write(
                &format!("skills/skill-{index:03}/SKILL.md"),
                format!(
                    "---\nname: skill-{index:03}\ndescription: Plan the day {index}.\n{extra}---\n# Skill\n"
                )
                .as_bytes(),
            )?;
        }
        rows.push(adapter_row(
            label[0],
            dotaios_mcp,
            &skills,
            ("resolve_skill", json!({"intent": "plan my day"})),
            &Expect::SafeFailure(expect),
            calls,
        )?);
        rows.push(doctor_row(label[1], dotaios, &skills, calls)?);
    }

    // A README is read whole (1 MiB cap); the shape fills it with nesting, the bounded
    // one pads the frontmatter to just under 64 KiB and the body to just under 1 MiB, and every
    // project parses within the request's allowance.
    let body = "x\n".repeat((MIB - 64 * 1024 - 4096) / 2);
    for (name, extra, body, expect) in [
        (
            "hostile F3: read_working_context project, 16 READMEs of 1 MiB nested YAML",
            nested_flow_within(MIB - 4096),
            "",
            Expect::SafeFailure(CONTEXT_FAILED),
        ),
        (
            "hostile F3: read_working_context project, 16 READMEs at the per-document bounds",
            at_bounds(64 * 1024),
            body.as_str(),
            Expect::Context("P03"),
        ),
    ] {
        let projects = Folder::new("projects")?;
        for index in 0..16 {
            projects.write(
                &format!("projects/p{index:02}/README.md"),
                format!(
                    "---\nid: p{index:02}\nproject: p{index:02}\nname: P{index:02}\nstatus: active\ndomain: build\n{extra}---\n# P{index:02}\n{body}"
                )
                .as_bytes(),
            )?;
        }
        rows.push(adapter_row(
            name,
            dotaios_mcp,
            &projects,
            ("read_working_context", json!({"project": "p03"})),
            &expect,
            calls,
        )?);
    }
    Ok(rows)
}

/// The machine-written JSONL rows (issue 35, contract 03 §10.2, §10.6).
fn jsonl_rows(dotaios: &Path, dotaios_mcp: &Path, calls: usize) -> Result<Vec<Row>, String> {
    let mut rows = Vec::new();
    let memory_x = ("search_aios", json!({"query": "x", "scope": "memory"}));

    // The event ranks first, so the dedupe drops every signal: one result.
    let shared = Folder::new("shared-record")?;
    shared.write(
        "memory/events.jsonl",
        b"{\"summary\":\"x\",\"record_id\":\"r\"}\n",
    )?;
    let signal = repeated("{\"s\":\"x\",\"record_id\":\"r\"}\n", 4 * MIB);
    for name in ["a", "b", "c"] {
        shared.write(&format!("memory/signals/{name}.jsonl"), &signal)?;
    }
    rows.push(adapter_row(
        "issue 35: search_aios x, 1 event + 483,957 signals sharing its record_id",
        dotaios_mcp,
        &shared,
        memory_x.clone(),
        &Expect::Results(1),
        calls,
    )?);
    rows.push(cli_row(
        "issue 35: dotaios search x --scope memory, the same folder",
        dotaios,
        &shared,
        &["search", "x", "--scope", "memory"],
        calls,
    )?);
    drop(shared);

    // Each long line is over the item ceiling and skipped; the entry after it is found.
    let array = format!(
        "{{\"summary\":\"x\",\"a\":[{}0]}}\n",
        "0,".repeat((4 * MIB - 64) / 2)
    );
    let members = (0..300_000)
        .map(|index| format!("\"{index:x}\":0"))
        .collect::<Vec<_>>()
        .join(",");
    let object = format!("{{\"summary\":\"x\",\"o\":{{{members}}}}}\n");
    for (name, line) in [
        (
            "issue 35: search_aios x, a 4 MiB line of a 2,000,000-element array",
            array,
        ),
        (
            "issue 35: search_aios x, a line of a 300,000-member object",
            object,
        ),
    ] {
        let long = Folder::new("long-line")?;
        long.write(
            "memory/events.jsonl",
            format!("{line}{{\"summary\":\"x\"}}\n").as_bytes(),
        )?;
        rows.push(adapter_row(
            name,
            dotaios_mcp,
            &long,
            memory_x.clone(),
            &Expect::Results(1),
            calls,
        )?);
    }

    let tiny = Folder::new("tiny")?;
    let entries = "{\"summary\":\"x\"}\n".repeat(245_000);
    for name in ["a", "b"] {
        tiny.write(&format!("memory/signals/{name}.jsonl"), entries.as_bytes())?;
    }
    rows.push(adapter_row(
        "issue 35: search_aios x, 490,000 tiny entries in 2 signal files",
        dotaios_mcp,
        &tiny,
        memory_x,
        &Expect::Results(10),
        calls,
    )?);
    Ok(rows)
}

/// `dotaios <args> --path <folder>`, a fresh process per run: exit 0 with output.
fn cli_row(
    name: &'static str,
    dotaios: &Path,
    folder: &Folder,
    args: &[&str],
    runs: usize,
) -> Result<Row, String> {
    eprintln!("{name} …");
    let mut argv = vec![dotaios.to_string_lossy().into_owned()];
    argv.extend(args.iter().map(|arg| (*arg).to_owned()));
    argv.extend(["--path".to_owned(), folder.0.to_string_lossy().into_owned()]);
    let mut spawner = Spawner::start().map_err(|_| "cannot start the spawner".to_owned())?;
    let mut row = Row::worst(name, LIMIT);
    for round in 0..runs {
        let run = spawner.run(&argv)?;
        if run.code != 0 || run.stdout.trim().is_empty() {
            return Err(format!(
                "{name} run {round}: exit {} stdout {:?}",
                run.code,
                run.stdout.chars().take(200).collect::<String>()
            ));
        }
        row.samples.push(run.ns);
        row.max_rss = row.max_rss.max(Some(run.maxrss));
    }
    spawner.finish();
    Ok(row)
}

/// `dotaios doctor --json` on the skills folder, a fresh process per run: exit 0 or 1 (a failed
/// check) with one JSON report on stdout.
fn doctor_row(
    name: &'static str,
    dotaios: &Path,
    folder: &Folder,
    runs: usize,
) -> Result<Row, String> {
    eprintln!("{name} …");
    let argv = [
        dotaios.to_string_lossy().into_owned(),
        "doctor".to_owned(),
        "--json".to_owned(),
        "--path".to_owned(),
        folder.0.to_string_lossy().into_owned(),
    ];
    let mut spawner = Spawner::start().map_err(|_| "cannot start the spawner".to_owned())?;
    let mut row = Row::worst(name, LIMIT);
    for round in 0..runs {
        let run = spawner.run(&argv)?;
        let report: Option<Value> = serde_json::from_str(&run.stdout).ok();
        if !(run.code == 0 || run.code == 1) || report.is_none_or(|report| !report.is_object()) {
            return Err(format!(
                "{name} run {round}: exit {} stdout {:?}",
                run.code,
                run.stdout.chars().take(200).collect::<String>()
            ));
        }
        row.samples.push(run.ns);
        row.max_rss = row.max_rss.max(Some(run.maxrss));
    }
    spawner.finish();
    Ok(row)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_flow_stays_within_its_size_and_the_nesting_limit() {
        let nest = nested_flow_within(64 * 1024);
        assert!(
            nest.len() < 64 * 1024 && nest.len() > 60 * 1024,
            "{}",
            nest.len()
        );
        let mut depth = 0_usize;
        let mut deepest = 0;
        for byte in nest.bytes() {
            match byte {
                b'[' => depth += 1,
                b']' => depth -= 1,
                _ => {}
            }
            deepest = deepest.max(depth);
        }
        assert_eq!(deepest, 33);
        assert!(deepest < dotaios_core::text::MAX_NESTING);
    }

    #[test]
    fn answers_are_checked() {
        let results = |n: usize| {
            let items: Vec<Value> = (0..n).map(|_| json!({})).collect();
            let payload = json!({"results": items}).to_string();
            json!({"result": {"isError": false, "content": [{"text": payload}]}})
        };
        assert!(check("t", &results(8), &Expect::Results(8)).is_ok());
        assert!(check("t", &results(7), &Expect::Results(8)).is_err());
        assert!(check("t", &results(3), &Expect::Found).is_ok());
        assert!(check("t", &results(0), &Expect::Found).is_err());
        let failure = json!({"error": {"code": -32603, "message": FAILED_SAFELY}});
        assert!(check("t", &failure, &Expect::SafeFailure(FAILED_SAFELY)).is_ok());
        let other = json!({"error": {"code": -32603, "message": "boom"}});
        assert!(check("t", &other, &Expect::SafeFailure(FAILED_SAFELY)).is_err());
        let context =
            json!({"result": {"isError": false, "content": [{"text": "### Recent Events\n- x"}]}});
        assert!(check("t", &context, &Expect::Context("### Recent Events")).is_ok());
        assert!(check("t", &context, &Expect::Context("### Other")).is_err());
    }
}
