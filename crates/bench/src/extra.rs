//! `dotaios-bench extra`: start-up measures outside contract 07's search table (contract 07 §3.7,
//! §4.1). Two rows, each a fresh process per sample on the sample folder (`examples/aios`):
//!
//! - `brief`: `dotaios brief --compact --path <aios>`, spawn to exit with all output read;
//! - `mcp-startup`: spawn `dotaios-mcp --path <aios>` → `initialize` → `notifications/initialized`
//!   → `tools/list` → `read_working_context`, timed until that last answer has arrived.
//!
//! - `worst case …` (contract 07 §4.1 target w): `dotaios search <query> --path <folder>` on a
//!   generated folder of 8 vault notes of 4 MiB (the per-file limit of contract 03 §13) of the one
//!   letter `a`, with a query of 30 overlapping distinct terms (`a aa … a×30`) and one of 250
//!   repeats of `a`; each must answer in ≤ 2 s. The folder is written below the system temporary
//!   directory and removed.
//!
//! - `hostile …` (contract 07 §4.1 target h, `extra/hostile.rs`): the hostile-content shapes of
//!   issue 21 (one-character notes, tiny-entry JSONL, nested-flow YAML skills and project
//!   READMEs), every call on one running `dotaios-mcp` followed by a `ping`, and `doctor --json`;
//!   the worst call ≤ 2 s and the peak RSS ≤ 128 MiB.
//!
//! - `prose …` (contract 07 §4.1 target p, `extra/prose.rs`): ordinary prose at the per-file
//!   cap (English with inflections, CJK, emoji, 32 terms hitting every token, and F1 with 30
//!   overlapping terms), measured like the hostile rows; the worst call ≤ 0.5 s.
//!
//! Each phase is 3 discarded warm-ups then the measured samples; every sample is checked
//! (exit status 0 and non-empty stdout with empty stderr for `brief`; well-formed, successful
//! answers with the three tools and a non-empty context for the server) and a wrong sample
//! stops the run. It prints its own small table on stdout and writes its own JSON report; the
//! search `run` and its one table are untouched.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::{Duration, Instant};

use dotaios_mcp::client::{Client, ClientError};
use serde_json::{Map, Value, json};

mod hostile;
mod prose;

use crate::RunOptions;
use crate::report::{Environment, percentile};
use crate::spawner::Spawner;

/// Discarded samples before each measured phase.
const WARMUP: usize = 3;
/// Measured samples per row (full and `--quick`).
const MEASURED_FULL: usize = 20;
const MEASURED_QUICK: usize = 5;
/// How long one server answer, or its exit once its stdin is closed, may take.
const ANSWER_DEADLINE: Duration = Duration::from_secs(30);
/// Longer answer lines are not a start-up answer.
const MAX_LINE_BYTES: u64 = 16 * 1024 * 1024;
/// Contract 07 §4.1 target s: the server's start-up p95 stays within 20 ms.
const MCP_STARTUP_P95_MS: f64 = 20.0;
/// Contract 07 §4.1 target w: each worst-case matching query answers within 2 s.
const WORST_CASE_P95_MS: f64 = 2_000.0;
/// The worst-case folder: this many notes of [`WORST_CASE_NOTE_BYTES`] of one letter.
const WORST_CASE_NOTES: usize = 8;
const WORST_CASE_NOTE_BYTES: usize = 4 * 1024 * 1024;
/// Samples of each worst-case row (each can take seconds before linear matching).
const WORST_CASE_WARMUP: usize = 1;
const WORST_CASE_MEASURED_FULL: usize = 5;
const WORST_CASE_MEASURED_QUICK: usize = 2;

/// Samples of each hostile row: calls on one server, or `doctor` runs.
const HOSTILE_CALLS_FULL: usize = 5;
const HOSTILE_CALLS_QUICK: usize = 2;

/// One measured row.
struct Row {
    name: &'static str,
    samples: Vec<u64>,
    max_rss: Option<u64>,
    /// The p95 limit in milliseconds, when the issue states one.
    limit_ms: Option<f64>,
    /// A limit on the worst sample and the peak RSS instead (the hostile rows).
    worst_limit: Option<WorstLimit>,
}

/// Every sample within `ms` and the process within `rss_bytes`.
#[derive(Debug, Clone, Copy)]
struct WorstLimit {
    ms: f64,
    rss_bytes: u64,
}

impl Row {
    /// A row judged by its worst sample and peak RSS.
    fn worst(name: &'static str, limit: WorstLimit) -> Row {
        Row {
            name,
            samples: Vec::new(),
            max_rss: None,
            limit_ms: None,
            worst_limit: Some(limit),
        }
    }

    fn max_ms(&self) -> Option<f64> {
        self.samples.iter().max().map(|ns| *ns as f64 / 1_000_000.0)
    }

    fn limit_text(&self) -> String {
        match (self.limit_ms, self.worst_limit) {
            (_, Some(limit)) => format!(
                "max ≤ {:.0} ms, RSS ≤ {} MiB",
                limit.ms,
                limit.rss_bytes / 1_048_576
            ),
            (Some(limit), None) => format!("p95 ≤ {limit:.0} ms"),
            (None, None) => "—".to_owned(),
        }
    }

    fn p50(&self) -> Option<f64> {
        percentile(&self.samples, 0.5)
    }

    fn p95(&self) -> Option<f64> {
        percentile(&self.samples, 0.95)
    }

    fn status(&self, quick: bool) -> &'static str {
        if let (false, Some(limit)) = (quick, self.worst_limit) {
            let slow = self.max_ms().is_none_or(|max| max > limit.ms);
            let large = self.max_rss.is_none_or(|rss| rss > limit.rss_bytes);
            return if slow || large { "miss" } else { "pass" };
        }
        match (self.limit_ms, self.p95()) {
            _ if quick => "not-evaluated",
            (Some(limit), Some(p95)) if p95 > limit => "miss",
            (Some(_), Some(_)) => "pass",
            _ => "reported",
        }
    }
}

/// `extra --report <FILE> [--aios <DIR>] [--quick]`; exit 0 when every stated limit holds,
/// 3 when one is missed, 1 on a wrong sample or a harness error.
pub(crate) fn run(options: &RunOptions, aios: &Path) -> ExitCode {
    let Some(report_path) = &options.report else {
        eprintln!("extra requires --report <FILE>");
        return ExitCode::from(1);
    };
    let Some(report_file) = crate::report::create(report_path) else {
        return ExitCode::from(1);
    };
    let measured = if options.quick {
        MEASURED_QUICK
    } else {
        MEASURED_FULL
    };
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get().min(32));
    let environment = Environment::capture(aios, options, workers);
    let outcome = measure_rows(options, aios, measured);
    let (code, rows, failure) = match outcome {
        Ok(rows) => {
            print!("{}", table(&rows, options.quick));
            let missed = rows.iter().any(|row| row.status(options.quick) == "miss");
            (
                if missed {
                    ExitCode::from(3)
                } else {
                    ExitCode::SUCCESS
                },
                rows,
                None,
            )
        }
        Err(message) => {
            eprintln!("extra: {message}");
            (ExitCode::from(1), Vec::new(), Some(message))
        }
    };
    let verdict = match (&failure, options.quick) {
        (Some(_), _) => "incorrect",
        (None, true) => "quick",
        (None, false) if rows.iter().any(|row| row.status(false) == "miss") => "miss",
        (None, false) => "pass",
    };
    let value = json!({
        "kind": "dotaios-bench extra",
        "verdict": verdict,
        "quick": options.quick,
        "environment": environment.to_value(),
        "protocol": {"warmup": WARMUP, "measured": measured},
        "rows": rows.iter().map(|row| row_value(row, options.quick)).collect::<Vec<_>>(),
        "failure": failure,
    });
    let mut text = dotaios_core::text::to_json_pretty(&value);
    text.push('\n');
    let mut report_file = report_file;
    if let Err(error) = report_file.write_all(text.as_bytes()) {
        eprintln!("cannot write the report: {error}");
        return ExitCode::from(1);
    }
    code
}

fn measure_rows(options: &RunOptions, aios: &Path, measured: usize) -> Result<Vec<Row>, String> {
    let mut spawner = Spawner::start().map_err(|_| "cannot start the spawner".to_owned())?;
    let argv = [
        options.dotaios.to_string_lossy().into_owned(),
        "brief".to_owned(),
        "--compact".to_owned(),
        "--path".to_owned(),
        aios.to_string_lossy().into_owned(),
    ];
    let mut brief = Row {
        name: "brief --compact",
        samples: Vec::new(),
        max_rss: None,
        limit_ms: None,
        worst_limit: None,
    };
    eprintln!("brief --compact …");
    for round in 0..WARMUP + measured {
        let run = spawner.run(&argv)?;
        if run.code != 0 {
            return Err(format!("brief sample {round}: exit status {}", run.code));
        }
        if run.stdout.trim().is_empty() {
            return Err(format!("brief sample {round}: empty output"));
        }
        if !run.stderr.is_empty() {
            return Err(format!("brief sample {round}: stderr {:?}", run.stderr));
        }
        if round >= WARMUP {
            brief.samples.push(run.ns);
            brief.max_rss = brief.max_rss.max(Some(run.maxrss));
        }
    }
    spawner.finish();

    let mut startup = Row {
        name: "mcp start-up",
        samples: Vec::new(),
        max_rss: None,
        limit_ms: Some(MCP_STARTUP_P95_MS),
        worst_limit: None,
    };
    eprintln!("mcp start-up …");
    for round in 0..WARMUP + measured {
        let ns = mcp_startup(&options.dotaios_mcp, aios)
            .map_err(|message| format!("mcp start-up sample {round}: {message}"))?;
        if round >= WARMUP {
            startup.samples.push(ns);
        }
    }
    let worst_measured = if measured == MEASURED_QUICK {
        WORST_CASE_MEASURED_QUICK
    } else {
        WORST_CASE_MEASURED_FULL
    };
    let mut rows = vec![brief, startup];
    rows.extend(worst_case_rows(&options.dotaios, worst_measured)?);
    let hostile_calls = if measured == MEASURED_QUICK {
        HOSTILE_CALLS_QUICK
    } else {
        HOSTILE_CALLS_FULL
    };
    rows.extend(hostile::rows(
        &options.dotaios,
        &options.dotaios_mcp,
        hostile_calls,
    )?);
    rows.extend(prose::rows(&options.dotaios_mcp, hostile_calls)?);
    Ok(rows)
}

/// The two worst-case matching rows over one generated folder, removed afterwards.
fn worst_case_rows(dotaios: &Path, measured: usize) -> Result<Vec<Row>, String> {
    let folder = std::env::temp_dir().join(format!("dotaios-bench-worst-{}", std::process::id()));
    let written = write_worst_case(&folder);
    let rows = written.and_then(|()| {
        let overlapping: Vec<String> = (1..=30).map(|len| "a".repeat(len)).collect();
        let repeated = vec!["a"; 250].join(" ");
        let mut spawner = Spawner::start().map_err(|_| "cannot start the spawner".to_owned())?;
        let mut rows = Vec::new();
        for (name, query) in [
            ("worst case: 30 overlapping terms", overlapping.join(" ")),
            ("worst case: 250 repeated terms", repeated),
        ] {
            eprintln!("{name} …");
            let argv = [
                dotaios.to_string_lossy().into_owned(),
                "search".to_owned(),
                query,
                "--scope".to_owned(),
                "vault".to_owned(),
                "--path".to_owned(),
                folder.to_string_lossy().into_owned(),
            ];
            let mut row = Row {
                name,
                samples: Vec::new(),
                max_rss: None,
                limit_ms: Some(WORST_CASE_P95_MS),
                worst_limit: None,
            };
            for round in 0..WORST_CASE_WARMUP + measured {
                let run = spawner.run(&argv)?;
                let last = run.stdout.lines().last().unwrap_or_default();
                let expected = format!("{WORST_CASE_NOTES} result(s) found.");
                if run.code != 0 || !run.stderr.is_empty() || last != expected {
                    return Err(format!(
                        "{name} sample {round}: exit {} stderr {:?} last line {last:?}",
                        run.code, run.stderr
                    ));
                }
                if round >= WORST_CASE_WARMUP {
                    row.samples.push(run.ns);
                    row.max_rss = row.max_rss.max(Some(run.maxrss));
                }
            }
            rows.push(row);
        }
        spawner.finish();
        Ok(rows)
    });
    let _ = std::fs::remove_dir_all(&folder);
    rows
}

/// `aios.json`, and `vault/note-<i>.md` each [`WORST_CASE_NOTE_BYTES`] of `a`.
fn write_worst_case(folder: &Path) -> Result<(), String> {
    let fail = |error: std::io::Error| format!("cannot write the worst-case folder: {error}");
    std::fs::create_dir(folder).map_err(fail)?;
    std::fs::write(folder.join("aios.json"), crate::corpus::AIOS_JSON).map_err(fail)?;
    std::fs::create_dir(folder.join("vault")).map_err(fail)?;
    // A first line `a`, then one token of `a`s: a one- or two-character term matches whole
    // tokens only (contract 03 §6.1), so the 250 repeated `a` terms still find every note,
    // and the long token still stresses every term of the 30 overlapping ones.
    let mut note = vec![b'a'; WORST_CASE_NOTE_BYTES];
    note[1] = b'\n';
    for index in 0..WORST_CASE_NOTES {
        std::fs::write(folder.join("vault").join(format!("note-{index}.md")), &note)
            .map_err(fail)?;
    }
    Ok(())
}

/// One fresh server: spawn → initialize → initialized → tools/list → read_working_context.
/// The timer stops when the context answer has been read; closing the server is not timed,
/// but its exit status is checked.
fn mcp_startup(binary: &Path, aios: &Path) -> Result<u64, String> {
    let start = Instant::now();
    let deadline = start + ANSWER_DEADLINE;
    let failed = |error: ClientError| format!("dotaios-mcp: {error}");
    let mut command = Command::new(binary);
    command.arg("--path").arg(aios);
    let mut client = Client::spawn(&mut command, MAX_LINE_BYTES)
        .map_err(|error| format!("cannot start dotaios-mcp: {error}"))?;
    let initialized = client
        .initialize("2025-06-18", "dotaios-bench", "1", deadline)
        .map_err(failed)?;
    let listed = client
        .request("tools/list", None, deadline)
        .map_err(failed)?;
    let context = client
        .call_tool("read_working_context", json!({}), deadline)
        .map_err(failed)?;
    let ns = crate::timing::elapsed_ns(start);
    let status = client.close(ANSWER_DEADLINE);
    check_startup(&initialized, &listed, &context)?;
    match status {
        Some(status) if status.success() => Ok(ns),
        Some(status) => Err(format!("dotaios-mcp exited with {status}")),
        None => Err("dotaios-mcp did not exit once its stdin was closed".to_owned()),
    }
}

fn check_startup(initialized: &Value, listed: &Value, context: &Value) -> Result<(), String> {
    if initialized["id"] != 1 || !initialized["result"]["protocolVersion"].is_string() {
        return Err(format!("initialize answered {initialized}"));
    }
    let names: Vec<&str> = listed["result"]["tools"]
        .as_array()
        .map(|tools| {
            tools
                .iter()
                .filter_map(|tool| tool["name"].as_str())
                .collect()
        })
        .unwrap_or_default();
    if listed["id"] != 2 || names != ["read_working_context", "search_aios", "resolve_skill"] {
        return Err(format!("tools/list answered {listed}"));
    }
    let result = &context["result"];
    let text = result["content"][0]["text"].as_str().unwrap_or_default();
    if context["id"] != 3 || result["isError"] != Value::Bool(false) || text.trim().is_empty() {
        return Err(format!("read_working_context answered {context}"));
    }
    Ok(())
}

fn ms(value: Option<f64>) -> String {
    value.map_or_else(|| "—".to_owned(), |value| format!("{value:.2}"))
}

fn table(rows: &[Row], quick: bool) -> String {
    let mut out = String::from(
        "| measure | n | p50 ms | p95 ms | max ms | max RSS MiB | limit | status |\n\
         |---|---:|---:|---:|---:|---:|---|---|\n",
    );
    for row in rows {
        let rss = row.max_rss.map_or_else(
            || "—".to_owned(),
            |bytes| format!("{:.1}", bytes as f64 / 1_048_576.0),
        );
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} |\n",
            row.name,
            row.samples.len(),
            ms(row.p50()),
            ms(row.p95()),
            ms(row.max_ms()),
            rss,
            row.limit_text(),
            row.status(quick),
        ));
    }
    out
}

fn row_value(row: &Row, quick: bool) -> Value {
    let mut object = Map::new();
    object.insert("measure".into(), Value::from(row.name));
    object.insert("samplesNs".into(), Value::from(row.samples.clone()));
    object.insert("p50Ms".into(), json!(row.p50()));
    object.insert("p95Ms".into(), json!(row.p95()));
    object.insert("maxRssBytes".into(), json!(row.max_rss));
    object.insert("maxMs".into(), json!(row.max_ms()));
    object.insert("p95LimitMs".into(), json!(row.limit_ms));
    object.insert(
        "maxLimitMs".into(),
        json!(row.worst_limit.map(|limit| limit.ms)),
    );
    object.insert(
        "rssLimitBytes".into(),
        json!(row.worst_limit.map(|limit| limit.rss_bytes)),
    );
    object.insert("status".into(), Value::from(row.status(quick)));
    Value::Object(object)
}

/// The sample folder of the repository, the default of `--aios`.
pub(crate) fn default_aios() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/aios")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stated_limit_decides_the_status() {
        let mut row = Row {
            name: "mcp start-up",
            samples: (1..=20).map(|ms| ms * 1_000_000).collect(),
            max_rss: None,
            limit_ms: Some(18.0),
            worst_limit: None,
        };
        assert_eq!(row.status(false), "miss");
        assert_eq!(row.status(true), "not-evaluated");
        row.limit_ms = Some(19.0);
        assert_eq!(row.status(false), "pass");
        row.limit_ms = None;
        assert_eq!(row.status(false), "reported");

        let limit = WorstLimit {
            ms: 20.0,
            rss_bytes: 1 << 20,
        };
        let mut row = Row::worst("hostile", limit);
        row.samples = (1..=20).map(|ms| ms * 1_000_000).collect();
        row.max_rss = Some(1 << 20);
        assert_eq!(row.status(false), "pass");
        assert_eq!(row.status(true), "not-evaluated");
        row.samples.push(20_000_001);
        assert_eq!(row.status(false), "miss", "one slow call misses");
        row.samples.pop();
        row.max_rss = Some((1 << 20) + 1);
        assert_eq!(row.status(false), "miss", "a large peak misses");
    }

    #[test]
    fn startup_answers_are_checked() {
        let init = json!({"id": 1, "result": {"protocolVersion": "2025-06-18"}});
        let list = json!({"id": 2, "result": {"tools": [
            {"name": "read_working_context"}, {"name": "search_aios"}, {"name": "resolve_skill"}
        ]}});
        let context = json!({"id": 3, "result": {"isError": false, "content": [{"text": "{}"}]}});
        assert!(check_startup(&init, &list, &context).is_ok());
        let failed = json!({"id": 3, "result": {"isError": true, "content": [{"text": "x"}]}});
        assert!(check_startup(&init, &list, &failed).is_err());
        let empty = json!({"id": 3, "result": {"isError": false, "content": [{"text": " "}]}});
        assert!(check_startup(&init, &list, &empty).is_err());
        assert!(
            check_startup(&init, &json!({"id": 2, "result": {"tools": []}}), &context).is_err()
        );
    }
}
