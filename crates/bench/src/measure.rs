//! The measurement protocol of contract 07 §3: the measures of each cell, interleaved by round
//! (`raw-read`, `raw-stat`, `safe-corpus`, `safe-walk`, `safe-enumerate`, `core`, `cli`,
//! `mcp`, `ripgrep`), 3 cold + 3 discarded warm-up + 20 measured samples, and the correctness
//! checks that make a sample count. `raw-stat`, `safe-walk` and `safe-enumerate` are ours, not
//! contract 07's: one stat by path per note of the inventory, and the contained reader's
//! walk-relative handles alone (`crate::walk`). `ripgrep` (`rg -F -i -c <query> <vault>`, a fresh process per
//! sample) runs in the same rounds when `rg` is on `PATH` (contract 07 §3.7), as an outside
//! control.
//!
//! A wrong sample stops the run: the report is written with `"verdict": "incorrect"` and the
//! failing sample, and no time is reported as if it were valid.
//!
//! This module owns the rounds and their order and turns a failed check into the run's
//! verdict; `sample` takes one timed sample of each measure, `check` decides whether an answer
//! counts, and `control` is `dotaios-bench control`. It never takes a sample or checks an
//! answer itself.

mod check;
mod control;
mod sample;
#[cfg(test)]
mod tests;

pub(crate) use self::control::{control, vault_notes};
pub(crate) use self::sample::{find_on_path, raw_counts};

use std::path::Path;
use std::process::ExitCode;

use crate::RunOptions;
use crate::corpus::{Verified, verify_fixture};
use crate::fixtures::{ControlledQuery, Fixture, QUERIES};
use crate::protocol::{FULL, ORDER, Protocol, QUICK, slot};
use crate::report::{self, Cell, Environment, Failure, FixtureRecord, MeasureRecord, Report};
use crate::spawner::Spawner;

use self::check::{Check, Expectation};
use self::sample::{
    McpServer, Sample, cli, core, raw_read, raw_stat, ripgrep_sample, safe_corpus, safe_enumerate,
    safe_walk,
};

pub(crate) fn run(options: &RunOptions) -> ExitCode {
    let (Some(fixtures_dir), Some(report_path)) = (&options.fixtures_dir, &options.report) else {
        eprintln!("run requires --fixtures <DIR> and --report <FILE>");
        return ExitCode::from(1);
    };
    // The report is created exclusively before any timing, so a run never overwrites one.
    let Some(report_file) = report::create(report_path) else {
        return ExitCode::from(1);
    };
    let protocol = if options.quick { QUICK } else { FULL };
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get().min(32));
    let mut report = Report::new(
        Environment::capture(fixtures_dir, options, workers),
        protocol,
        workers,
        options.quick,
    );

    let outcome = run_cells(options, fixtures_dir, protocol, workers, &mut report);
    let code = match outcome {
        Ok(()) => {
            report.evaluate_targets();
            print!("{}", report::table(&report));
            if report.verdict == "pass" {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(3)
            }
        }
        Err(RunError::Incorrect(failure)) => {
            eprintln!("incorrect sample: {}", failure.detail);
            report.verdict = "incorrect".to_owned();
            report.failure = Some(*failure);
            ExitCode::from(1)
        }
        Err(RunError::Harness(message)) => {
            eprintln!("harness error: {message}");
            report.verdict = "error".to_owned();
            report.failure = Some(Failure {
                measure: String::new(),
                cell: String::new(),
                round: 0,
                expected: Vec::new(),
                actual: Vec::new(),
                detail: message,
            });
            ExitCode::from(1)
        }
    };
    if let Err(error) = report::write(report_file, &report) {
        eprintln!("cannot write the report: {error}");
        return ExitCode::from(1);
    }
    code
}

pub(crate) enum RunError {
    Incorrect(Box<Failure>),
    Harness(String),
}

fn run_cells(
    options: &RunOptions,
    fixtures_dir: &Path,
    protocol: Protocol,
    workers: usize,
    report: &mut Report,
) -> Result<(), RunError> {
    let mut verified: Vec<(&'static Fixture, Verified)> = Vec::new();
    for fixture in &options.fixtures {
        eprintln!("verifying {} …", fixture.id);
        let checked = verify_fixture(fixtures_dir, fixture).map_err(RunError::Harness)?;
        verified.push((fixture, checked));
    }
    let mcp_available = options.dotaios_mcp.is_file();
    if !mcp_available {
        eprintln!(
            "note: {} not found; the mcp measure is skipped and target b is not evaluated",
            options.dotaios_mcp.display()
        );
    }
    if !options.dotaios.is_file() {
        return Err(RunError::Harness(format!(
            "{} not found; build it with cargo build --release",
            options.dotaios.display()
        )));
    }
    let ripgrep = find_on_path("rg");
    if ripgrep.is_none() {
        eprintln!("note: rg is not on PATH; the ripgrep measure is skipped");
    }
    let mut spawner = Spawner::start().map_err(RunError::Harness)?;
    for (fixture, checked) in &verified {
        let aios = fixtures_dir.join(fixture.id).join("aios");
        for query in &QUERIES {
            eprintln!("cell {} / {} …", fixture.id, query.id);
            let cell = measure_cell(
                &mut spawner,
                options,
                fixture,
                checked,
                query,
                &aios,
                protocol,
                workers,
                mcp_available,
                ripgrep.as_deref(),
            )?;
            report.cells.push(cell);
        }
    }
    spawner.finish();
    for (fixture, checked) in &verified {
        let after = verify_fixture(fixtures_dir, fixture)
            .map_err(|message| RunError::Harness(format!("after the run: {message}")))?;
        report.fixtures.push(FixtureRecord {
            fixture,
            source_bytes: checked.source_bytes,
            inventory_sha256: checked.inventory_sha256.clone(),
            verified_before: true,
            verified_after: after.inventory_sha256 == checked.inventory_sha256,
        });
    }
    Ok(())
}

#[expect(
    clippy::too_many_arguments,
    reason = "one cell's fixture, query, binaries and protocol, each read by a different measure"
)]
fn measure_cell(
    spawner: &mut Spawner,
    options: &RunOptions,
    fixture: &'static Fixture,
    checked: &Verified,
    query: &'static ControlledQuery,
    aios: &Path,
    protocol: Protocol,
    workers: usize,
    mcp_available: bool,
    ripgrep: Option<&Path>,
) -> Result<Cell, RunError> {
    let expect = Expectation::of(fixture, query);
    let mut server = if mcp_available {
        Some(McpServer::start(&options.dotaios_mcp, aios)?)
    } else {
        None
    };
    let mut records: Vec<MeasureRecord> = ORDER.iter().map(|_| MeasureRecord::default()).collect();
    let mut output_digest = String::new();
    let rounds = protocol.cold + protocol.warmup + protocol.measured;
    for round in 0..rounds {
        let cold = round < protocol.cold;
        let measured = round >= protocol.cold + protocol.warmup;
        for (slot, measure) in ORDER.iter().enumerate() {
            if (*measure == "mcp" && server.is_none())
                || (*measure == "ripgrep" && ripgrep.is_none())
            {
                continue;
            }
            if cold && options.drop_caches {
                drop_caches();
            }
            let sample = match *measure {
                "raw-read" => raw_read(&checked.files, workers, &expect),
                "raw-stat" => raw_stat(&checked.files, workers, &expect),
                "safe-corpus" => safe_corpus(aios, workers, &expect),
                "safe-walk" => safe_walk(aios, workers, &expect),
                "safe-enumerate" => safe_enumerate(aios, workers, &expect),
                "core" => core(aios, workers, &expect).map(|(ns, digest)| {
                    output_digest = digest;
                    Sample { ns, rss: None }
                }),
                "cli" => cli(spawner, &options.dotaios, aios, &expect),
                "ripgrep" => ripgrep.map_or_else(
                    || Err(Check::harness("no rg")),
                    |rg| ripgrep_sample(spawner, rg, aios, &expect),
                ),
                _ => server.as_mut().map_or_else(
                    || Err(Check::harness("no server")),
                    |server| server.call(&expect),
                ),
            };
            let sample = sample.map_err(|check| match check {
                Check::Harness(message) => {
                    RunError::Harness(format!("{} {}: {message}", expect.cell, measure))
                }
                Check::Wrong {
                    expected,
                    actual,
                    detail,
                } => RunError::Incorrect(Box::new(Failure {
                    measure: (*measure).to_owned(),
                    cell: expect.cell.clone(),
                    round,
                    expected,
                    actual,
                    detail,
                })),
            })?;
            let record = &mut records[slot];
            if let Some(rss) = sample.rss {
                record.peak_rss = Some(record.peak_rss.unwrap_or(0).max(rss));
            }
            if cold {
                record.cold.push(sample.ns);
            } else if measured {
                record.warm.push(sample.ns);
            }
        }
    }
    if let Some(server) = server {
        let peak = server.finish()?;
        records[slot("mcp")].peak_rss = Some(peak);
        records[slot("mcp")].present = true;
    }
    for (index, record) in records.iter_mut().enumerate() {
        if ORDER[index] != "mcp" && (ORDER[index] != "ripgrep" || ripgrep.is_some()) {
            record.present = true;
        }
    }
    Ok(Cell {
        fixture,
        query,
        expected_sources: expect.sources,
        output_digest,
        measures: records,
    })
}

/// `sync` and `echo 3 > /proc/sys/vm/drop_caches` (macOS: `purge`), when running as root;
/// nothing on Windows.
fn drop_caches() {
    #[cfg(unix)]
    if rustix::process::geteuid().is_root() {
        rustix::fs::sync();
        #[cfg(target_os = "linux")]
        let _ = std::fs::write("/proc/sys/vm/drop_caches", "3");
        #[cfg(not(target_os = "linux"))]
        let _ = std::process::Command::new("purge").status();
    }
}
