//! The measurement protocol of contract 07 §3: the measures of each cell, interleaved by round
//! (`raw-read`, `safe-corpus`, `safe-walk`, `core`, `cli`, `mcp`, `ripgrep`), 3 cold + 3
//! discarded warm-up + 20 measured samples, and the correctness checks that make a sample
//! count. `safe-walk` is ours, not contract 07's: the contained reader's walk-relative handles
//! alone (`crate::walk`). `ripgrep` (`rg -F -i -c <query> <vault>`, a fresh process per
//! sample) runs in the same rounds when `rg` is on `PATH` (contract 07 §3.7), as an outside
//! control.
//!
//! A wrong sample stops the run: the report is written with `"verdict": "incorrect"` and the
//! failing sample, and no time is reported as if it were valid.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitCode, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use dotaios_core::folder::memory::MemoryMode;
use dotaios_core::search::{
    Clock, Scope, ScopeRequest, SearchOutcome, SearchRequest, SessionFilters, read_vault_corpus,
    search,
};
use dotaios_mcp::client::{Client, ClientError};
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};
use wait4::Wait4;

use crate::RunOptions;
use crate::corpus::{Verified, hex, verify_fixture};
use crate::fixtures::{
    ControlledQuery, Fixture, QUERIES, RESULT_LIMIT, expected_digest, expected_lines,
    expected_sources,
};
use crate::report::{self, Cell, Environment, Failure, FixtureRecord, MeasureRecord, Report};

/// Samples per phase.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Protocol {
    pub(crate) cold: usize,
    pub(crate) warmup: usize,
    pub(crate) measured: usize,
}

pub(crate) const FULL: Protocol = Protocol {
    cold: 3,
    warmup: 3,
    measured: 20,
};
pub(crate) const QUICK: Protocol = Protocol {
    cold: 1,
    warmup: 1,
    measured: 5,
};

/// The measure names in round order.
pub(crate) const ORDER: [&str; 7] = [
    "raw-read",
    "safe-corpus",
    "safe-walk",
    "core",
    "cli",
    "mcp",
    "ripgrep",
];

/// The slot of a measure in [`ORDER`].
pub(crate) fn slot(name: &str) -> usize {
    ORDER.iter().position(|known| *known == name).unwrap_or(0)
}

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
    let mut spawner = Spawner::start()?;
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

/// What one cell needs to check a sample.
struct Expectation<'a> {
    cell: String,
    sources: Vec<String>,
    digest: &'static str,
    files: usize,
    bytes: u64,
    query: &'a ControlledQuery,
}

impl<'a> Expectation<'a> {
    /// What every sample of `query` on `fixture` must answer (contract 07 §2).
    fn of(fixture: &Fixture, query: &'a ControlledQuery) -> Expectation<'a> {
        Expectation {
            cell: format!("{}/{}", fixture.id, query.id),
            sources: expected_sources(fixture, query),
            digest: expected_digest(fixture, query),
            files: fixture.count,
            bytes: fixture.source_bytes,
            query,
        }
    }
}

#[allow(clippy::too_many_arguments)]
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
                "safe-corpus" => safe_corpus(aios, workers, &expect),
                "safe-walk" => safe_walk(aios, workers, &expect),
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

/// One timed sample.
struct Sample {
    ns: u64,
    rss: Option<u64>,
}

/// Why a sample does not count.
enum Check {
    Harness(String),
    Wrong {
        expected: Vec<String>,
        actual: Vec<String>,
        detail: String,
    },
}

impl Check {
    fn harness(message: impl Into<String>) -> Check {
        Check::Harness(message.into())
    }

    fn wrong(expect: &Expectation<'_>, actual: Vec<String>, detail: impl Into<String>) -> Check {
        Check::Wrong {
            expected: expect.sources.clone(),
            actual,
            detail: detail.into(),
        }
    }
}

fn elapsed_ns(start: Instant) -> u64 {
    u64::try_from(start.elapsed().as_nanos()).unwrap_or(u64::MAX)
}

// ----- raw-read ----------------------------------------------------------------------------

/// Opens every file `O_RDONLY | O_NOFOLLOW | O_CLOEXEC`, reads it to the end into a reused
/// buffer and closes it, on `workers` threads taking files from a shared index.
fn raw_read(files: &[PathBuf], workers: usize, expect: &Expectation<'_>) -> Result<Sample, Check> {
    let start = Instant::now();
    let (count, bytes) = raw_counts(files, workers).map_err(Check::harness)?;
    let ns = elapsed_ns(start);
    check_counts(expect, usize::try_from(count).unwrap_or(usize::MAX), bytes)?;
    Ok(Sample { ns, rss: None })
}

/// The files and bytes `raw-read` read.
fn raw_counts(files: &[PathBuf], workers: usize) -> Result<(u64, u64), String> {
    let next = AtomicUsize::new(0);
    let totals = on_threads(workers, || {
        let mut buffer = vec![0_u8; 64 * 1024];
        let (mut count, mut bytes) = (0_u64, 0_u64);
        loop {
            let index = next.fetch_add(1, Ordering::Relaxed);
            let Some(path) = files.get(index) else {
                break;
            };
            #[cfg(unix)]
            let fd = {
                let flags = rustix::fs::OFlags::RDONLY
                    | rustix::fs::OFlags::NOFOLLOW
                    | rustix::fs::OFlags::CLOEXEC;
                std::fs::File::from(
                    rustix::fs::open(path, flags, rustix::fs::Mode::empty())
                        .map_err(|error| error.to_string())?,
                )
            };
            // Windows: a plain open (the fixtures hold no links).
            #[cfg(not(unix))]
            let fd = std::fs::File::open(path).map_err(|error| error.to_string())?;
            loop {
                let read = std::io::Read::read(&mut &fd, &mut buffer)
                    .map_err(|error| error.to_string())?;
                if read == 0 {
                    break;
                }
                bytes += read as u64;
            }
            drop(fd);
            count += 1;
        }
        Ok((count, bytes))
    });
    let (mut count, mut bytes) = (0, 0);
    for total in totals {
        let (files, read) = total?;
        count += files;
        bytes += read;
    }
    Ok((count, bytes))
}

/// `dotaios-bench control <name> <aios> [<workers>]`: one pass of one control on its own, so
/// that it can be profiled alone (`strace -c -f` counts its system calls per file). Prints the
/// files, bytes and milliseconds of the pass. `raw-read` takes the vault's `.md` files in
/// path order.
pub(crate) fn control(args: &[std::ffi::OsString]) -> ExitCode {
    let (Some(name), Some(aios)) = (args.first().and_then(|name| name.to_str()), args.get(1))
    else {
        eprintln!(
            "control requires <raw-read|safe-corpus|safe-walk|floor-plain|floor-uring|uring> <AIOS-DIR> [<workers>|<rounds>]"
        );
        return ExitCode::from(1);
    };
    let aios = Path::new(aios);
    let workers = args
        .get(2)
        .and_then(|workers| workers.to_str()?.parse().ok())
        .unwrap_or(2);
    let start = Instant::now();
    let counts = match name {
        "raw-read" => {
            vault_notes(&aios.join("vault")).and_then(|files| raw_counts(&files, workers))
        }
        "safe-corpus" => read_vault_corpus(aios, workers)
            .map(|counts| (counts.files, counts.bytes))
            .map_err(|error| error.code().to_owned()),
        "safe-walk" => {
            crate::walk::read_vault(aios, workers).map(|totals| (totals.files, totals.bytes))
        }
        #[cfg(target_os = "linux")]
        "floor-plain" | "floor-uring" => {
            let variant = if name == "floor-plain" {
                crate::uring::Variant::Plain
            } else {
                crate::uring::Variant::Uring
            };
            crate::uring::pass(aios, variant, workers).map(|totals| (totals.files, totals.bytes))
        }
        #[cfg(target_os = "linux")]
        "uring" => {
            let rounds = args
                .get(2)
                .and_then(|rounds| rounds.to_str()?.parse().ok())
                .unwrap_or(20);
            return match crate::uring::compare(aios, rounds) {
                Ok(()) => ExitCode::SUCCESS,
                Err(message) => {
                    eprintln!("uring: {message}");
                    ExitCode::from(1)
                }
            };
        }
        other => Err(format!("unknown control: {other}")),
    };
    match counts {
        Ok((files, bytes)) => {
            println!(
                "{name}: {files} files, {bytes} bytes, {:.2} ms",
                elapsed_ns(start) as f64 / 1e6
            );
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("{name}: {message}");
            ExitCode::from(1)
        }
    }
}

/// The `.md` files below `dir`, in path order.
fn vault_notes(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).map_err(|error| error.to_string())? {
            let entry = entry.map_err(|error| error.to_string())?;
            let kind = entry.file_type().map_err(|error| error.to_string())?;
            if kind.is_dir() {
                stack.push(entry.path());
            } else if kind.is_file() && entry.path().extension().is_some_and(|ext| ext == "md") {
                files.push(entry.path());
            }
        }
    }
    files.sort();
    Ok(files)
}

/// Runs `work` on `workers` threads (each takes its items from a shared index) and collects
/// what each returned; a thread that panicked is an error.
pub(crate) fn on_threads<T: Send>(
    workers: usize,
    work: impl Fn() -> Result<T, String> + Sync,
) -> Vec<Result<T, String>> {
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers.max(1)).map(|_| scope.spawn(&work)).collect();
        handles
            .into_iter()
            .map(|handle| {
                handle
                    .join()
                    .unwrap_or_else(|_| Err("a reader thread panicked".to_owned()))
            })
            .collect()
    })
}

fn check_counts(expect: &Expectation<'_>, files: usize, bytes: u64) -> Result<(), Check> {
    if files != expect.files || bytes != expect.bytes {
        return Err(Check::Wrong {
            expected: vec![
                format!("{} files", expect.files),
                format!("{} bytes", expect.bytes),
            ],
            actual: vec![format!("{files} files"), format!("{bytes} bytes")],
            detail: "file count or total bytes differ from the inventory".to_owned(),
        });
    }
    Ok(())
}

// ----- safe-corpus and core ----------------------------------------------------------------

fn safe_corpus(aios: &Path, workers: usize, expect: &Expectation<'_>) -> Result<Sample, Check> {
    let start = Instant::now();
    let counts = read_vault_corpus(aios, workers).map_err(|error| Check::harness(error.code()))?;
    let ns = elapsed_ns(start);
    check_counts(
        expect,
        usize::try_from(counts.files).unwrap_or(usize::MAX),
        counts.bytes,
    )?;
    Ok(Sample { ns, rss: None })
}

fn safe_walk(aios: &Path, workers: usize, expect: &Expectation<'_>) -> Result<Sample, Check> {
    let start = Instant::now();
    let totals = crate::walk::read_vault(aios, workers).map_err(Check::harness)?;
    let ns = elapsed_ns(start);
    check_counts(
        expect,
        usize::try_from(totals.files).unwrap_or(usize::MAX),
        totals.bytes,
    )?;
    Ok(Sample { ns, rss: None })
}

fn core(aios: &Path, workers: usize, expect: &Expectation<'_>) -> Result<(u64, String), Check> {
    let filters = SessionFilters::default();
    let start = Instant::now();
    let now_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0.0, |elapsed| elapsed.as_millis() as f64);
    let request = SearchRequest {
        query: expect.query.text,
        scope: ScopeRequest::All,
        limit: dotaios_core::request::Limit::count(RESULT_LIMIT),
        memory: MemoryMode::Shared,
        project: None,
        session_filters: &filters,
        clock: Clock {
            now_ms,
            time_zone: &jiff::tz::TimeZone::UTC,
        },
        workers,
    };
    let outcome = search(aios, &request);
    let ns = elapsed_ns(start);
    let outcome = outcome.map_err(|error| {
        Check::wrong(
            expect,
            Vec::new(),
            format!("search failed: {}", error.code()),
        )
    })?;
    let digest = check_core(&outcome, expect)?;
    Ok((ns, digest))
}

fn check_core(outcome: &SearchOutcome, expect: &Expectation<'_>) -> Result<String, Check> {
    let scopes: Vec<Scope> = outcome.groups.iter().map(|group| group.scope).collect();
    let vault = outcome
        .groups
        .iter()
        .find(|group| group.scope == Scope::Vault);
    let actual: Vec<String> = vault.map_or_else(Vec::new, |group| {
        group
            .results
            .iter()
            .map(|hit| hit.source().to_owned())
            .collect()
    });
    if scopes != Scope::SHARED_ALL {
        return Err(Check::wrong(
            expect,
            actual,
            "the groups are not the eight Shared scopes in order",
        ));
    }
    if !outcome.complete() {
        return Err(Check::wrong(expect, actual, "the search is incomplete"));
    }
    if outcome
        .groups
        .iter()
        .any(|group| group.scope != Scope::Vault && !group.results.is_empty())
    {
        return Err(Check::wrong(
            expect,
            actual,
            "a scope other than vault has results",
        ));
    }
    let results: Vec<Value> = vault.map_or_else(Vec::new, |group| {
        group.results.iter().map(|hit| hit.to_value()).collect()
    });
    check_digest(expect, actual, &results)
}

/// The ordered sources, then the result digest of §2.3, plus the per-hit shape of §2.1.
fn check_digest(
    expect: &Expectation<'_>,
    actual: Vec<String>,
    results: &[Value],
) -> Result<String, Check> {
    if actual != expect.sources {
        return Err(Check::wrong(expect, actual, "ordered sources differ"));
    }
    for result in results {
        let source = result
            .get("source")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let (line, end) = expected_lines(source);
        let snippet = &result["matches"];
        let shape_ok = snippet.as_array().is_some_and(|items| items.len() == 1)
            && snippet[0]["line"] == line
            && snippet[0]["lineEnd"] == end
            && snippet[0]["content"] == expect.query.text
            && snippet[0]["match"] == "phrase"
            && snippet[0]["area"] == "body";
        if !shape_ok {
            return Err(Check::wrong(
                expect,
                actual,
                format!("unexpected snippet for {source}"),
            ));
        }
    }
    let canonical = dotaios_core::text::to_json_canonical(&Value::Array(results.to_vec()));
    let digest = hex(&Sha256::digest(canonical.as_bytes()));
    if digest != expect.digest {
        return Err(Check::wrong(
            expect,
            actual,
            format!("result digest {digest} differs from {}", expect.digest),
        ));
    }
    Ok(digest)
}

// ----- cli ---------------------------------------------------------------------------------

fn cli(
    spawner: &mut Spawner,
    dotaios: &Path,
    aios: &Path,
    expect: &Expectation<'_>,
) -> Result<Sample, Check> {
    let run = spawner
        .run(&[
            dotaios.to_string_lossy().into_owned(),
            "search".to_owned(),
            expect.query.text.to_owned(),
            "--path".to_owned(),
            aios.to_string_lossy().into_owned(),
        ])
        .map_err(Check::harness)?;
    let actual = cli_sources(&run.stdout);
    if run.code != 0 {
        return Err(Check::wrong(
            expect,
            actual,
            format!("exit status {}", run.code),
        ));
    }
    if !run.stderr.is_empty() {
        return Err(Check::wrong(
            expect,
            actual,
            format!("stderr is not empty: {}", run.stderr),
        ));
    }
    let foreign_header = run
        .stdout
        .lines()
        .any(|line| line.starts_with("── ") && !line.starts_with("── vault/ ("));
    if foreign_header {
        return Err(Check::wrong(
            expect,
            actual,
            "a group other than vault/ was printed",
        ));
    }
    let final_line = run.stdout.lines().last().unwrap_or_default();
    let expected_final = if expect.sources.is_empty() {
        "No results found.".to_owned()
    } else {
        format!("{} result(s) found.", expect.sources.len())
    };
    if final_line != expected_final {
        return Err(Check::wrong(
            expect,
            actual,
            format!("final line {final_line:?}"),
        ));
    }
    if actual != expect.sources {
        return Err(Check::wrong(expect, actual, "ordered sources differ"));
    }
    Ok(Sample {
        ns: run.ns,
        rss: Some(run.maxrss),
    })
}

// ----- ripgrep -----------------------------------------------------------------------------

/// The first executable file called `name` in a directory of `PATH`.
fn find_on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|directory| {
            directory
                .join(name)
                .with_extension(std::env::consts::EXE_EXTENSION)
        })
        .find(|candidate| {
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                std::fs::metadata(candidate)
                    .is_ok_and(|meta| meta.is_file() && meta.permissions().mode() & 0o111 != 0)
            }
            #[cfg(not(unix))]
            {
                std::fs::metadata(candidate).is_ok_and(|meta| meta.is_file())
            }
        })
}

/// `rg -F -i -c <query> <aios>/vault`, fresh process. ripgrep lists every matching file (it
/// neither ranks nor limits), so a sample counts when each expected source is listed and, when
/// the expected hits are fewer than the result limit, nothing else is.
fn ripgrep_sample(
    spawner: &mut Spawner,
    rg: &Path,
    aios: &Path,
    expect: &Expectation<'_>,
) -> Result<Sample, Check> {
    let vault = aios.join("vault");
    let run = spawner
        .run(&[
            rg.to_string_lossy().into_owned(),
            "-F".to_owned(),
            "-i".to_owned(),
            "-c".to_owned(),
            expect.query.text.to_owned(),
            vault.to_string_lossy().into_owned(),
        ])
        .map_err(Check::harness)?;
    check_ripgrep(expect, &vault, run.code, &run.stdout, &run.stderr)?;
    Ok(Sample {
        ns: run.ns,
        rss: Some(run.maxrss),
    })
}

/// Checks one ripgrep answer against the expected sources (see [`ripgrep_sample`]).
fn check_ripgrep(
    expect: &Expectation<'_>,
    vault: &Path,
    code: i64,
    stdout: &str,
    stderr: &str,
) -> Result<(), Check> {
    let prefix = format!("{}/", vault.to_string_lossy());
    let mut listed: Vec<String> = stdout
        .lines()
        .filter_map(|line| {
            let (path, _count) = line.rsplit_once(':')?;
            Some(format!("vault/{}", path.strip_prefix(&prefix)?))
        })
        .collect();
    listed.sort();
    // Exit 1 is ripgrep's "no match".
    let expected_code = if expect.sources.is_empty() { 1 } else { 0 };
    if code != expected_code || !stderr.is_empty() {
        return Err(Check::wrong(
            expect,
            listed,
            format!("rg exited {code} with stderr {stderr:?}"),
        ));
    }
    let all_listed = expect
        .sources
        .iter()
        .all(|source| listed.binary_search(source).is_ok());
    let exact = expect.sources.len() >= RESULT_LIMIT || listed.len() == expect.sources.len();
    if !all_listed || !exact || listed.len() != stdout.lines().count() {
        return Err(Check::wrong(expect, listed, "rg listed other files"));
    }
    Ok(())
}

/// What one spawned process did.
pub(crate) struct SpawnedRun {
    pub(crate) ns: u64,
    pub(crate) code: i64,
    pub(crate) stdout: String,
    pub(crate) stderr: String,
    pub(crate) maxrss: u64,
}

/// A small helper process (`dotaios-bench spawn-server`) that spawns each `dotaios search`
/// sample, times it and reports its `ru_maxrss`.
///
/// Linux carries a process's peak RSS across `exec`, starting from the memory of the process
/// that spawned it, so a child spawned directly by this (large) harness would report the
/// harness's own peak. A helper that stays a few MiB keeps `ru_maxrss` the child's own.
pub(crate) struct Spawner {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Spawner {
    pub(crate) fn start() -> Result<Spawner, RunError> {
        let exe = std::env::current_exe().map_err(|error| RunError::Harness(error.to_string()))?;
        let mut child = Command::new(exe)
            .arg("spawn-server")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|error| RunError::Harness(format!("cannot start the spawner: {error}")))?;
        let stdin = child
            .stdin
            .take()
            .ok_or_else(|| RunError::Harness("no spawner stdin".into()))?;
        let stdout = BufReader::new(
            child
                .stdout
                .take()
                .ok_or_else(|| RunError::Harness("no spawner stdout".into()))?,
        );
        Ok(Spawner {
            child,
            stdin,
            stdout,
        })
    }

    pub(crate) fn run(&mut self, argv: &[String]) -> Result<SpawnedRun, String> {
        let request = dotaios_core::text::to_json_compact(&Value::from(argv.to_vec()));
        self.stdin
            .write_all(format!("{request}\n").as_bytes())
            .and_then(|()| self.stdin.flush())
            .map_err(|error| format!("cannot talk to the spawner: {error}"))?;
        let mut line = String::new();
        if self
            .stdout
            .read_line(&mut line)
            .map_err(|error| error.to_string())?
            == 0
        {
            return Err("the spawner stopped".to_owned());
        }
        let reply: Value = serde_json::from_str(&line)
            .map_err(|_| "the spawner's reply is not JSON".to_owned())?;
        if let Some(error) = reply["error"].as_str() {
            return Err(error.to_owned());
        }
        Ok(SpawnedRun {
            ns: reply["ns"].as_u64().unwrap_or(0),
            code: reply["code"].as_i64().unwrap_or(-1),
            stdout: reply["stdout"].as_str().unwrap_or_default().to_owned(),
            stderr: reply["stderr"].as_str().unwrap_or_default().to_owned(),
            maxrss: reply["maxrss"].as_u64().unwrap_or(0),
        })
    }

    pub(crate) fn finish(mut self) {
        drop(self.stdin);
        let _ = self.child.wait();
    }
}

/// `dotaios-bench spawn-server`: one JSON array (program and arguments) per stdin line; for
/// each, spawns the program with stdin from `/dev/null`, reads its output, reaps it with
/// `wait4` and answers one JSON line. The timer covers spawning to exit with all output read.
pub(crate) fn spawn_server() -> ExitCode {
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let Ok(line) = line else {
            break;
        };
        let argv: Vec<String> = serde_json::from_str(&line).unwrap_or_default();
        let reply = match spawn_once(&argv) {
            Ok(run) => {
                let mut object = Map::new();
                object.insert("ns".into(), Value::from(run.ns));
                object.insert("code".into(), Value::from(run.code));
                object.insert("stdout".into(), Value::from(run.stdout));
                object.insert("stderr".into(), Value::from(run.stderr));
                object.insert("maxrss".into(), Value::from(run.maxrss));
                Value::Object(object)
            }
            Err(error) => serde_json::json!({ "error": error }),
        };
        let text = dotaios_core::text::to_json_compact(&reply);
        if writeln!(stdout, "{text}")
            .and_then(|()| stdout.flush())
            .is_err()
        {
            break;
        }
    }
    ExitCode::SUCCESS
}

fn spawn_once(argv: &[String]) -> Result<SpawnedRun, String> {
    let (program, args) = argv.split_first().ok_or("empty command")?;
    let start = Instant::now();
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|error| format!("cannot start {program}: {error}"))?;
    let mut stdout = String::new();
    let mut stderr = String::new();
    if let Some(mut pipe) = child.stdout.take() {
        pipe.read_to_string(&mut stdout)
            .map_err(|error| error.to_string())?;
    }
    if let Some(mut pipe) = child.stderr.take() {
        pipe.read_to_string(&mut stderr)
            .map_err(|error| error.to_string())?;
    }
    let usage = child.wait4().map_err(|error| error.to_string())?;
    let ns = elapsed_ns(start);
    Ok(SpawnedRun {
        ns,
        code: i64::from(usage.status.code().unwrap_or(-1)),
        stdout,
        stderr,
        maxrss: usage.rusage.maxrss,
    })
}

/// The sources printed under `── vault/ (…) ──` (§3.4): the last parenthesised group of each
/// `  <title> (<file>)` line.
pub(crate) fn cli_sources(stdout: &str) -> Vec<String> {
    let mut in_vault = false;
    let mut sources = Vec::new();
    for line in stdout.lines() {
        if line.starts_with("── ") {
            in_vault = line.starts_with("── vault/ (");
            continue;
        }
        if line.is_empty() {
            in_vault = false;
            continue;
        }
        if !in_vault || !line.starts_with("  ") || line.starts_with("    ") {
            continue;
        }
        let Some(open) = line.rfind('(') else {
            continue;
        };
        if let Some(file) = line[open + 1..].strip_suffix(')') {
            sources.push(format!("vault/{file}"));
        }
    }
    sources
}

// ----- mcp ---------------------------------------------------------------------------------

/// One `dotaios-mcp` server for one cell, spoken to through `dotaios_mcp::client`.
struct McpServer {
    client: Client,
}

/// How long one server answer may take (a cold search of the largest fixture included).
const MCP_ANSWER_DEADLINE: Duration = Duration::from_secs(120);
/// Longer answer lines are not a search answer within its budget.
const MCP_MAX_LINE_BYTES: u64 = 16 * 1024 * 1024;

impl McpServer {
    fn start(binary: &Path, aios: &Path) -> Result<McpServer, RunError> {
        let harness = |message: String| RunError::Harness(message);
        let mut command = Command::new(binary);
        command.arg("--path").arg(aios);
        let mut client = Client::spawn(&mut command, MCP_MAX_LINE_BYTES)
            .map_err(|error| harness(format!("cannot start dotaios-mcp: {error}")))?;
        client
            .initialize(
                "2025-06-18",
                "dotaios-bench",
                "1",
                Instant::now() + MCP_ANSWER_DEADLINE,
            )
            .map_err(|error| harness(format!("dotaios-mcp: {error}")))?;
        Ok(McpServer { client })
    }

    fn call(&mut self, expect: &Expectation<'_>) -> Result<Sample, Check> {
        let mut arguments = Map::new();
        arguments.insert("query".into(), Value::from(expect.query.text));
        arguments.insert("limit".into(), Value::from(RESULT_LIMIT));
        arguments.insert("budget".into(), Value::from(32_000));
        let start = Instant::now();
        let response = self.client.call_tool(
            "search_aios",
            Value::Object(arguments),
            start + MCP_ANSWER_DEADLINE,
        );
        let ns = elapsed_ns(start);
        let response = response.map_err(|error| match error {
            ClientError::Invalid => Check::wrong(
                expect,
                Vec::new(),
                "the response is not a JSON-RPC response",
            ),
            other => Check::harness(format!("dotaios-mcp: {other}")),
        })?;
        let result = &response["result"];
        if result["isError"] != Value::Bool(false) {
            return Err(Check::wrong(
                expect,
                Vec::new(),
                format!("not a successful tool result: {response}"),
            ));
        }
        let text = result["content"][0]["text"].as_str().unwrap_or_default();
        let payload: Value = serde_json::from_str(text)
            .map_err(|_| Check::wrong(expect, Vec::new(), "the payload is not JSON"))?;
        let items: Vec<Value> = payload["results"]
            .as_array()
            .map(|items| {
                items
                    .iter()
                    .map(|item| {
                        let mut item = item.clone();
                        if let Value::Object(map) = &mut item {
                            map.shift_remove("scope");
                        }
                        item
                    })
                    .collect()
            })
            .unwrap_or_default();
        let actual: Vec<String> = items
            .iter()
            .map(|item| item["source"].as_str().unwrap_or_default().to_owned())
            .collect();
        let selection_ok = payload["scope_selection"] == serde_json::json!({"projects": "omitted"});
        if payload["complete"] != Value::Bool(true)
            || payload["omissions"] != Value::Array(Vec::new())
            || payload["budget"]["truncated"] != Value::Bool(false)
            || !selection_ok
        {
            return Err(Check::wrong(
                expect,
                actual,
                "complete, omissions, budget.truncated or scope_selection differ",
            ));
        }
        check_digest(expect, actual, &items)?;
        Ok(Sample { ns, rss: None })
    }

    /// The server's lifetime peak RSS; the server is reaped.
    fn finish(self) -> Result<u64, RunError> {
        server_peak(self.client).map_err(RunError::Harness)
    }
}

/// Spawns `binary --path <folder>` and completes the MCP handshake (2025-06-18) within
/// `answer_deadline`; the client, ready for calls.
pub(crate) fn initialized_server(
    binary: &Path,
    folder: &Path,
    max_line_bytes: u64,
    answer_deadline: Duration,
) -> Result<Client, String> {
    let mut command = Command::new(binary);
    command.arg("--path").arg(folder);
    let mut client = Client::spawn(&mut command, max_line_bytes)
        .map_err(|error| format!("cannot start {}: {error}", binary.display()))?;
    client
        .initialize(
            "2025-06-18",
            "dotaios-bench",
            "1",
            Instant::now() + answer_deadline,
        )
        .map_err(|error| format!("dotaios-mcp: {error}"))?;
    Ok(client)
}

/// A server's lifetime peak RSS in bytes, and the server reaped: on Linux its `VmHWM`, read
/// before stdin is closed; elsewhere (no `/proc`) the `ru_maxrss` of `wait4` once stdin is
/// closed. Either is the server's own peak, not the harness's.
#[cfg(target_os = "linux")]
pub(crate) fn server_peak(client: Client) -> Result<u64, String> {
    let id = client.id().unwrap_or_default();
    let status = std::fs::read_to_string(format!("/proc/{id}/status")).unwrap_or_default();
    let peak = report::proc_kib_field(&status, "VmHWM:")
        .ok_or_else(|| "cannot read the server's VmHWM".to_owned());
    let _ = client.into_child().wait();
    peak
}

/// See the Linux form.
#[cfg(not(target_os = "linux"))]
pub(crate) fn server_peak(client: Client) -> Result<u64, String> {
    let usage = client
        .into_child()
        .wait4()
        .map_err(|error| format!("cannot reap the server: {error}"))?;
    Ok(usage.rusage.maxrss)
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
        let _ = Command::new("purge").status();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::write_fixture;
    use crate::fixtures::FIXTURES;

    /// The expected ordered hits and result digests of contract 07 §2 at 500 files, through the
    /// core search, the safe-corpus and the safe-walk passes (untimed).
    #[test]
    fn expected_hits_at_500_files() {
        let temp = tempfile::tempdir().unwrap();
        for fixture in FIXTURES.iter().filter(|fixture| fixture.count == 500) {
            write_fixture(temp.path(), fixture).unwrap();
            let aios = temp.path().join(fixture.id).join("aios");
            for query in &QUERIES {
                let expect = Expectation::of(fixture, query);
                for workers in [1, 2] {
                    if let Err(check) = core(&aios, workers, &expect) {
                        panic!("{}: {}", expect.cell, describe(check));
                    }
                }
                assert!(safe_corpus(&aios, 2, &expect).is_ok(), "{}", expect.cell);
                for workers in [1, 2] {
                    assert!(
                        safe_walk(&aios, workers, &expect).is_ok(),
                        "{}",
                        expect.cell
                    );
                }
            }
        }
    }

    #[test]
    fn ripgrep_answers_are_checked() {
        let temp = tempfile::tempdir().unwrap();
        let fixture = FIXTURES
            .iter()
            .find(|fixture| fixture.id == "500-nested-high-entropy")
            .unwrap();
        write_fixture(temp.path(), fixture).unwrap();
        let vault = temp.path().join(fixture.id).join("aios").join("vault");
        let rg = find_on_path("rg");
        for query in &QUERIES {
            let expect = Expectation {
                cell: query.id.to_owned(),
                sources: expected_sources(fixture, query),
                digest: expected_digest(fixture, query),
                files: fixture.count,
                bytes: fixture.source_bytes,
                query,
            };
            let lines: Vec<String> = expect
                .sources
                .iter()
                .map(|source| {
                    let file = source.strip_prefix("vault/").unwrap();
                    format!("{}/{file}:1", vault.display())
                })
                .collect();
            let code = if lines.is_empty() { 1 } else { 0 };
            let stdout: String = lines.iter().map(|line| format!("{line}\n")).collect();
            assert!(check_ripgrep(&expect, &vault, code, &stdout, "").is_ok());
            // A wrong exit status, stderr, or a file outside the expected hits is wrong.
            assert!(check_ripgrep(&expect, &vault, 2, &stdout, "").is_err());
            assert!(check_ripgrep(&expect, &vault, code, &stdout, "boom").is_err());
            if expect.sources.len() < RESULT_LIMIT {
                let extra = format!("{stdout}{}/zz.md:1\n", vault.display());
                assert!(check_ripgrep(&expect, &vault, 0, &extra, "").is_err());
            }
            if let Some(rg) = &rg {
                // The real ripgrep agrees with the fixture's expected hits.
                let output = std::process::Command::new(rg)
                    .args(["-F", "-i", "-c", query.text])
                    .arg(&vault)
                    .output()
                    .unwrap();
                let result = check_ripgrep(
                    &expect,
                    &vault,
                    i64::from(output.status.code().unwrap_or(-1)),
                    &String::from_utf8_lossy(&output.stdout),
                    &String::from_utf8_lossy(&output.stderr),
                );
                if let Err(check) = result {
                    panic!("{}: {}", query.id, describe(check));
                }
            }
        }
    }

    fn describe(check: Check) -> String {
        match check {
            Check::Harness(message) => message,
            Check::Wrong { actual, detail, .. } => format!("{detail}: {actual:?}"),
        }
    }

    #[test]
    fn cli_sources_take_the_last_parenthesised_group() {
        let stdout = "Memory: Shared\nSearching for \"x\" in all...\n\n── vault/ (2 matches) ──\n  Title (odd) (a/b.md)\n    L2-4: x (y)\n  T (c.md)\n    L1: z\n\n2 result(s) found.\n";
        assert_eq!(cli_sources(stdout), ["vault/a/b.md", "vault/c.md"]);
    }
}
