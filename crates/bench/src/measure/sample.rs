//! One timed sample of each measure of contract 07 §3: `raw-read` (plain no-follow opens),
//! `safe-corpus` (the core's vault read without matching), `safe-walk` (`crate::walk`), `core`
//! (an in-process search), `cli` (a fresh `dotaios search` through the spawner), `ripgrep`
//! (a fresh `rg -F -i -c`) and `mcp` (one `tools/call` to the cell's server).
//!
//! It owns what each timer covers; every answer goes to `check` before the sample counts, and it
//! never decides the round order or the run's verdict.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use dotaios_core::folder::memory::MemoryMode;
use dotaios_core::search::{
    Clock, ScopeRequest, SearchRequest, SessionFilters, read_vault_corpus, search,
};
use dotaios_mcp::client::{Client, ClientError};
use serde_json::{Map, Value};

use crate::fixtures::RESULT_LIMIT;
use crate::mcp_server::server_peak;
use crate::spawner::Spawner;
use crate::threads::on_threads;
use crate::timing::elapsed_ns;

use super::RunError;
use super::check::{
    Check, Expectation, check_cli, check_core, check_counts, check_mcp, check_ripgrep,
};

/// One timed sample.
pub(super) struct Sample {
    pub(super) ns: u64,
    pub(super) rss: Option<u64>,
}

// ----- raw-read ----------------------------------------------------------------------------

/// Opens every file `O_RDONLY | O_NOFOLLOW | O_CLOEXEC`, reads it to the end into a reused
/// buffer and closes it, on `workers` threads taking files from a shared index.
pub(super) fn raw_read(
    files: &[PathBuf],
    workers: usize,
    expect: &Expectation<'_>,
) -> Result<Sample, Check> {
    let start = Instant::now();
    let (count, bytes) = raw_counts(files, workers).map_err(Check::harness)?;
    let ns = elapsed_ns(start);
    check_counts(expect, usize::try_from(count).unwrap_or(usize::MAX), bytes)?;
    Ok(Sample { ns, rss: None })
}

/// `raw-stat`: the inventory's notes stat'ed by path (no link followed), nothing listed,
/// opened or read; its bytes are the stat sizes, checked like a read's.
pub(super) fn raw_stat(
    files: &[PathBuf],
    workers: usize,
    expect: &Expectation<'_>,
) -> Result<Sample, Check> {
    let start = Instant::now();
    let (count, bytes) = raw_stat_counts(files, workers).map_err(Check::harness)?;
    let ns = elapsed_ns(start);
    check_counts(expect, usize::try_from(count).unwrap_or(usize::MAX), bytes)?;
    Ok(Sample { ns, rss: None })
}

/// The files and stat bytes of `raw-stat`.
pub(crate) fn raw_stat_counts(files: &[PathBuf], workers: usize) -> Result<(u64, u64), String> {
    let next = AtomicUsize::new(0);
    let totals = on_threads(workers, || {
        let (mut count, mut bytes) = (0_u64, 0_u64);
        while let Some(path) = files.get(next.fetch_add(1, Ordering::Relaxed)) {
            let metadata = std::fs::symlink_metadata(path).map_err(|error| error.to_string())?;
            count += 1;
            bytes += metadata.len();
        }
        Ok((count, bytes))
    });
    let (mut count, mut bytes) = (0, 0);
    for total in totals {
        let (files, stat) = total?;
        count += files;
        bytes += stat;
    }
    Ok((count, bytes))
}

/// The files and bytes `raw-read` read.
pub(crate) fn raw_counts(files: &[PathBuf], workers: usize) -> Result<(u64, u64), String> {
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

// ----- safe-corpus and core ----------------------------------------------------------------

pub(super) fn safe_corpus(
    aios: &Path,
    workers: usize,
    expect: &Expectation<'_>,
) -> Result<Sample, Check> {
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

pub(super) fn safe_walk(
    aios: &Path,
    workers: usize,
    expect: &Expectation<'_>,
) -> Result<Sample, Check> {
    walk_pass(aios, workers, crate::walk::Pass::Read, expect)
}

/// `safe-enumerate`: its bytes are the notes' stat sizes, checked like a read's.
pub(super) fn safe_enumerate(
    aios: &Path,
    workers: usize,
    expect: &Expectation<'_>,
) -> Result<Sample, Check> {
    walk_pass(aios, workers, crate::walk::Pass::Enumerate, expect)
}

fn walk_pass(
    aios: &Path,
    workers: usize,
    pass: crate::walk::Pass,
    expect: &Expectation<'_>,
) -> Result<Sample, Check> {
    let start = Instant::now();
    let totals = crate::walk::read_vault(aios, workers, pass).map_err(Check::harness)?;
    let ns = elapsed_ns(start);
    check_counts(
        expect,
        usize::try_from(totals.files).unwrap_or(usize::MAX),
        totals.bytes,
    )?;
    Ok(Sample { ns, rss: None })
}

pub(super) fn core(
    aios: &Path,
    workers: usize,
    expect: &Expectation<'_>,
) -> Result<(u64, String), Check> {
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
        snippets: dotaios_core::search::SnippetForm::Lines,
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

// ----- cli ---------------------------------------------------------------------------------

pub(super) fn cli(
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
    check_cli(expect, &run)?;
    Ok(Sample {
        ns: run.ns,
        rss: Some(run.maxrss),
    })
}

// ----- ripgrep -----------------------------------------------------------------------------

/// The first executable file called `name` in a directory of `PATH`.
pub(crate) fn find_on_path(name: &str) -> Option<PathBuf> {
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

/// `rg -F -i -c <query> <aios>/vault`, fresh process, its listing checked by [`check_ripgrep`].
pub(super) fn ripgrep_sample(
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

// ----- mcp ---------------------------------------------------------------------------------

/// One `dotaios-mcp` server for one cell, spoken to through `dotaios_mcp::client`.
pub(super) struct McpServer {
    client: Client,
}

/// How long one server answer may take (a cold search of the largest fixture included).
const MCP_ANSWER_DEADLINE: Duration = Duration::from_secs(120);
/// Longer answer lines are not a search answer within its budget.
const MCP_MAX_LINE_BYTES: u64 = 16 * 1024 * 1024;

impl McpServer {
    pub(super) fn start(binary: &Path, aios: &Path) -> Result<McpServer, RunError> {
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

    pub(super) fn call(&mut self, expect: &Expectation<'_>) -> Result<Sample, Check> {
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
        check_mcp(expect, &response)?;
        Ok(Sample { ns, rss: None })
    }

    /// The server's lifetime peak RSS; the server is reaped.
    pub(super) fn finish(self) -> Result<u64, RunError> {
        server_peak(self.client).map_err(RunError::Harness)
    }
}
