//! `dotaios-bench syscalls`: system calls per file of each way of searching a fixture, counted
//! by `strace -f -c` (contract 07 §3.7: what the per-file floor is, and how far each measure is
//! from it). Rows: the raw-read and safe-corpus controls (this binary's `control`), a fresh
//! `dotaios search`, `rg -F -i -c` when it is on `PATH`, and one repeated `search_aios` call on
//! a warm `dotaios-mcp` (the calls of a session with five calls minus those of a session with
//! one, divided by four).
//!
//! It owns the counting and its table; it times nothing and checks no answer (`run` does both),
//! and it never writes inside a fixture: strace's summaries go to a scratch directory.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use dotaios_mcp::client::Client;
use serde_json::{Value, json};

use crate::fixtures::{Fixture, QUERIES};
use crate::measure::find_on_path;

/// The columns shown apart in the table, each the calls of one kind under their names on this
/// kernel and C library; the rest are only in "total".
const NAMED: [(&str, &[&str]); 6] = [
    ("stat", &["statx", "newfstatat", "lstat", "stat"]),
    ("open", &["openat", "openat2", "open"]),
    ("fstat", &["fstat"]),
    ("read", &["read", "pread64"]),
    ("close", &["close"]),
    ("getdents64", &["getdents64"]),
];
/// Repeated calls in the longer MCP session.
const REPEATS: u32 = 4;
/// How long one strace'd server answer may take.
const ANSWER_DEADLINE: Duration = Duration::from_secs(300);
/// The protocol version the sessions negotiate.
const MCP_VERSION: &str = "2025-06-18";

/// The counts of one traced run: calls per system call name.
#[derive(Debug, Default, Clone, PartialEq)]
struct Counts(BTreeMap<String, u64>);

impl Counts {
    fn total(&self) -> u64 {
        self.0.values().sum()
    }

    fn get(&self, name: &str) -> u64 {
        self.0.get(name).copied().unwrap_or(0)
    }

    fn sum(&self, names: &[&str]) -> u64 {
        names.iter().map(|name| self.get(name)).sum()
    }

    /// `self − other`, call by call, never below zero.
    fn minus(&self, other: &Counts) -> Counts {
        let mut out = self.clone();
        for (name, count) in &other.0 {
            let entry = out.0.entry(name.clone()).or_default();
            *entry = entry.saturating_sub(*count);
        }
        out
    }
}

/// Parses the summary table `strace -c` writes: one row per call, `calls` in the fourth
/// column and the name last; the header, rule and `total` rows are skipped.
fn parse_summary(text: &str) -> Counts {
    let mut counts = Counts::default();
    for line in text.lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        // `% time  seconds  usecs/call  calls  [errors]  syscall`
        if fields.len() < 5 || fields[0].starts_with('%') || fields[0].starts_with('-') {
            continue;
        }
        let Some(&name) = fields.last() else { continue };
        if name == "total" {
            continue;
        }
        if let Ok(calls) = fields[3].parse::<u64>() {
            *counts.0.entry(name.to_owned()).or_default() += calls;
        }
    }
    counts
}

/// Runs `argv` under `strace -f -c` with its output discarded; its counts.
fn traced(
    strace: &Path,
    scratch: &Path,
    label: &str,
    argv: &[&std::ffi::OsStr],
) -> Result<Counts, String> {
    let summary = scratch.join(format!("{label}.strace"));
    let status = Command::new(strace)
        .args(["-f", "-c", "-o"])
        .arg(&summary)
        .arg("--")
        .args(argv)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map_err(|error| format!("cannot run strace: {error}"))?;
    if !status.success() && label != "rg" {
        // rg exits 1 when nothing matched; every other command must succeed.
        return Err(format!("{label} failed under strace: {status}"));
    }
    let text = std::fs::read_to_string(&summary)
        .map_err(|error| format!("cannot read strace's summary: {error}"))?;
    Ok(parse_summary(&text))
}

/// A strace'd `dotaios-mcp` session: the handshake, then `calls` identical `search_aios`
/// calls; its counts once the server exited.
fn traced_session(
    strace: &Path,
    scratch: &Path,
    binary: &Path,
    aios: &Path,
    query: &str,
    calls: u32,
) -> Result<Counts, String> {
    let summary = scratch.join(format!("mcp-{calls}.strace"));
    let mut command = Command::new(strace);
    command
        .args(["-f", "-c", "-o"])
        .arg(&summary)
        .arg("--")
        .arg(binary)
        .arg("--path")
        .arg(aios);
    let mut client = Client::spawn(&mut command, 64 * 1024 * 1024)
        .map_err(|error| format!("cannot start dotaios-mcp under strace: {error}"))?;
    client
        .initialize(
            MCP_VERSION,
            "dotaios-bench",
            "1",
            Instant::now() + ANSWER_DEADLINE,
        )
        .map_err(|error| format!("dotaios-mcp: {error}"))?;
    for _ in 0..calls {
        let response = client
            .call_tool(
                "search_aios",
                json!({"query": query}),
                Instant::now() + ANSWER_DEADLINE,
            )
            .map_err(|error| format!("dotaios-mcp: {error}"))?;
        if response["result"]["isError"] != Value::Bool(false) {
            return Err(format!("search_aios {query:?} failed: {response}"));
        }
    }
    if client.close(ANSWER_DEADLINE).is_none() {
        return Err("dotaios-mcp did not exit when its stdin closed".to_owned());
    }
    let text = std::fs::read_to_string(&summary)
        .map_err(|error| format!("cannot read strace's summary: {error}"))?;
    Ok(parse_summary(&text))
}

/// The directory strace's summaries go to, removed when dropped.
struct Scratch(std::path::PathBuf);

impl Scratch {
    fn new() -> Result<Scratch, String> {
        let path =
            std::env::temp_dir().join(format!("dotaios-bench-syscalls-{}", std::process::id()));
        std::fs::create_dir_all(&path)
            .map_err(|error| format!("cannot make {}: {error}", path.display()))?;
        Ok(Scratch(path))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// One row of the table.
struct Row {
    fixture: &'static str,
    query: &'static str,
    measure: &'static str,
    counts: Counts,
    /// Divides the counts: the fixture's files (times the repeats for the MCP difference).
    per: f64,
}

impl Row {
    fn per_file(&self, value: u64) -> f64 {
        value as f64 / self.per
    }
}

/// `dotaios-bench syscalls`: the table on stdout, the JSON report to `report`.
pub(crate) fn run(
    fixtures_dir: &Path,
    fixtures: &[&'static Fixture],
    dotaios: &Path,
    dotaios_mcp: &Path,
    report: &Path,
) -> Result<(), String> {
    let strace = find_on_path("strace").ok_or("strace is not on PATH (apt-get install strace)")?;
    let ripgrep = find_on_path("rg");
    if ripgrep.is_none() {
        eprintln!("note: rg is not on PATH; its row is skipped");
    }
    if report.exists() {
        return Err(format!(
            "{} exists; choose a new report file",
            report.display()
        ));
    }
    let scratch = Scratch::new()?;
    let this = std::env::current_exe().map_err(|error| error.to_string())?;
    let mut rows = Vec::new();
    for fixture in fixtures {
        let aios = fixtures_dir.join(fixture.id).join("aios");
        if !aios.is_dir() {
            return Err(format!("{} is missing; run generate first", aios.display()));
        }
        let files = fixture.count as f64;
        let vault = aios.join("vault");
        for query in QUERIES.iter().filter(|query| query.id != "low-hit") {
            eprintln!("syscalls {} / {} …", fixture.id, query.id);
            let mut row = |measure: &'static str, counts: Counts, per: f64| {
                rows.push(Row {
                    fixture: fixture.id,
                    query: query.id,
                    measure,
                    counts,
                    per,
                });
            };
            for control in ["raw-read", "safe-corpus"] {
                let counts = traced(
                    &strace,
                    &scratch.0,
                    control,
                    &[
                        this.as_os_str(),
                        "control".as_ref(),
                        control.as_ref(),
                        aios.as_os_str(),
                    ],
                )?;
                row(control, counts, files);
            }
            let cli = traced(
                &strace,
                &scratch.0,
                "cli",
                &[
                    dotaios.as_os_str(),
                    "search".as_ref(),
                    query.text.as_ref(),
                    "--path".as_ref(),
                    aios.as_os_str(),
                ],
            )?;
            row("cli", cli, files);
            if let Some(rg) = &ripgrep {
                let counts = traced(
                    &strace,
                    &scratch.0,
                    "rg",
                    &[
                        rg.as_os_str(),
                        "-F".as_ref(),
                        "-i".as_ref(),
                        "-c".as_ref(),
                        query.text.as_ref(),
                        vault.as_os_str(),
                    ],
                )?;
                row("rg", counts, files);
            }
            if dotaios_mcp.is_file() {
                let one = traced_session(&strace, &scratch.0, dotaios_mcp, &aios, query.text, 1)?;
                let more = traced_session(
                    &strace,
                    &scratch.0,
                    dotaios_mcp,
                    &aios,
                    query.text,
                    1 + REPEATS,
                )?;
                row("mcp repeat", more.minus(&one), files * f64::from(REPEATS));
            }
        }
    }
    print_table(&rows);
    write_report(&rows, report)
}

fn print_table(rows: &[Row]) {
    println!(
        "| fixture | query | measure | total / file | {} |",
        NAMED.map(|(column, _)| column).join(" | ")
    );
    println!("|---|---|---|---:|{}", "---:|".repeat(NAMED.len()));
    for row in rows {
        let named: Vec<String> = NAMED
            .iter()
            .map(|(_, names)| format!("{:.2}", row.per_file(row.counts.sum(names))))
            .collect();
        println!(
            "| {} | {} | {} | {:.2} | {} |",
            row.fixture,
            row.query,
            row.measure,
            row.per_file(row.counts.total()),
            named.join(" | ")
        );
    }
}

fn write_report(rows: &[Row], report: &Path) -> Result<(), String> {
    let rows: Vec<Value> = rows
        .iter()
        .map(|row| {
            json!({
                "fixture": row.fixture,
                "query": row.query,
                "measure": row.measure,
                "per_file_total": row.per_file(row.counts.total()),
                "calls": row.counts.0,
                "divisor": row.per,
            })
        })
        .collect();
    let text = serde_json::to_string_pretty(&json!({"syscalls": rows}))
        .map_err(|error| error.to_string())?;
    std::fs::write(report, text + "\n")
        .map_err(|error| format!("cannot write {}: {error}", report.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SUMMARY: &str = "\
% time     seconds  usecs/call     calls    errors syscall
------ ----------- ----------- --------- --------- ------------------
 17.19    0.072121           3     20597         2 statx
  8.68    0.036413           3     11208         6 openat
  8.59    0.036031           3     11204           close
  0.69    0.002890           1      1724           getdents64
------ ----------- ----------- --------- --------- ------------------
100.00    0.419629           6     44733        8 total
";

    #[test]
    fn the_summary_is_read_call_by_call_without_its_total() {
        let counts = parse_summary(SUMMARY);
        assert_eq!(counts.get("statx"), 20597);
        assert_eq!(counts.get("openat"), 11208);
        assert_eq!(counts.get("getdents64"), 1724);
        assert_eq!(counts.get("total"), 0);
        assert_eq!(counts.total(), 20597 + 11208 + 11204 + 1724);
        assert_eq!(counts.sum(&["openat", "open"]), 11208);
    }

    #[test]
    fn a_difference_never_goes_below_zero() {
        let more = parse_summary(SUMMARY);
        let mut fewer = more.clone();
        fewer.0.insert("statx".to_owned(), 597);
        fewer.0.insert("futex".to_owned(), 9);
        let difference = more.minus(&fewer);
        assert_eq!(difference.get("statx"), 20000);
        assert_eq!(difference.get("openat"), 0);
        assert_eq!(difference.get("futex"), 0);
    }
}
