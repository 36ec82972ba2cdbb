//! `dotaios-bench`, the search benchmark (contract 07): `generate` writes the deterministic
//! fixtures, `verify` checks them against the published receipts, `run` measures the product
//! (fresh `dotaios search` processes, one `dotaios-mcp` server per cell, in-process core
//! searches) beside the raw-read and safe-corpus controls, checks every sample's hits, and
//! prints one Markdown table (stdout) and a JSON report.
//!
//! It is not a test: no timing is ever asserted by `cargo test`. Progress and diagnostics go to
//! stderr; only the table goes to stdout.
#![allow(
    clippy::disallowed_methods,
    reason = "the benchmark writes fixtures and reports and times raw-read controls; it is never the read side"
)]
#![deny(unsafe_code)]
#![allow(clippy::print_stdout, clippy::print_stderr)]

mod collection;
mod corpus;
mod extra;
mod fixtures;
mod mcp_server;
mod measure;
mod protocol;
mod quality;
mod report;
mod scale;
mod skill_quality;
mod spawner;
mod syscalls;
mod threads;
mod timing;
#[cfg(target_os = "linux")]
mod uring;
mod walk;

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::fixtures::{FIXTURES, Fixture, fixture};

const USAGE: &str = "\
Usage:
  dotaios-bench generate --out <DIR> [--fixture <id>]...
  dotaios-bench verify   --fixtures <DIR> [--fixture <id>]...
  dotaios-bench run      --fixtures <DIR> --report <FILE> [--fixture <id>]...
                         [--dotaios <PATH>] [--dotaios-mcp <PATH>] [--drop-caches] [--quick]
  dotaios-bench extra    --report <FILE> [--aios <DIR>] [--dotaios <PATH>]
                         [--dotaios-mcp <PATH>] [--quick]
                         (fresh-process `brief --compact` and MCP start-up on the sample
                         folder, default examples/aios)
  dotaios-bench quality  --report <FILE> [--seed <S>] [--anchor <YYYY-MM-DD>] [--out <DIR>]
                         [--dotaios <PATH>] [--dotaios-mcp <PATH>] [--tiny]
                         (search quality on a seeded, gold-labelled folder: search_aios,
                         the CLI and the BM25 / BM25 + Snowball / rg controls)
  dotaios-bench collection --cran <DIR> --out <DIR> [--dotaios <PATH>]
                         [--dotaios-mcp <PATH>] [--convert-only]
                         (a public test collection, Cranfield, as an AIOS folder with TREC
                         topics and qrels, and TREC runs of search_aios, the CLI and the
                         BM25 controls; crates/bench/collection/evaluate.py scores them)
  dotaios-bench quality  --skills [--dotaios <PATH>] [--report <FILE>]
                         (skill routing against the gold set data/skill-intents.json)
  dotaios-bench syscalls --fixtures <DIR> --report <FILE> [--fixture <id>]...
                         [--dotaios <PATH>] [--dotaios-mcp <PATH>]
                         (system calls per file of each measure, counted by strace -f -c)
  dotaios-bench scale    --out <DIR> --report <FILE> [--notes <N>] [--seed <N>]
                         [--dotaios-mcp <PATH>]
                         (issue 37's large-folder goals: a seeded 45,000-note vault, raw-read,
                         first and repeated search_aios calls, peak RSS, an edit check)
  dotaios-bench control  <raw-read|raw-stat|safe-corpus|safe-walk|safe-enumerate> <AIOS-DIR> [<workers>]
                         (one pass of one control alone, for profiling: `strace -c -f`)
  dotaios-bench control  <floor-plain|floor-uring> <AIOS-DIR> [<workers>]
                         (Linux: search's per-file calls, plain or batched through io_uring)
  dotaios-bench control  uring <AIOS-DIR> [<rounds>]
                         (Linux: both, interleaved in one process; p50/p95 and ratios)

Fixture ids: 500-shallow-prose, 500-nested-high-entropy, 2500-shallow-prose,
2500-nested-high-entropy, 10000-shallow-prose, 10000-nested-high-entropy (default: all six).
";

/// Parsed command-line options.
#[derive(Debug, Default)]
struct Options {
    out: Option<PathBuf>,
    fixtures_dir: Option<PathBuf>,
    report: Option<PathBuf>,
    aios: Option<PathBuf>,
    fixtures: Vec<&'static Fixture>,
    dotaios: Option<PathBuf>,
    dotaios_mcp: Option<PathBuf>,
    drop_caches: bool,
    quick: bool,
}

fn main() -> ExitCode {
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    let Some(command) = args.first().and_then(|arg| arg.to_str()) else {
        eprint!("{USAGE}");
        return ExitCode::from(1);
    };
    if command == "control" {
        return measure::control(&args[1..]);
    }
    if command == "scale" {
        return scale::run(&args[1..]);
    }
    if command == "collection" {
        return collection::run(&args[1..]);
    }
    if command == "quality" && args[1..].iter().any(|arg| arg == "--skills") {
        let rest: Vec<OsString> = args[1..]
            .iter()
            .filter(|a| *a != "--skills")
            .cloned()
            .collect();
        let (dotaios, report) = match parse(&rest) {
            Ok(options) => {
                let run = options_for_run(&options);
                (run.dotaios, run.report)
            }
            Err(message) => {
                eprintln!("{message}");
                return ExitCode::from(1);
            }
        };
        return match skill_quality::run(&dotaios, report.as_deref()) {
            Ok(()) => ExitCode::SUCCESS,
            Err(message) => {
                eprintln!("{message}");
                ExitCode::from(1)
            }
        };
    }
    if command == "quality" {
        return match quality::parse(&args[1..]) {
            Ok(options) => quality::run(&options),
            Err(message) => {
                eprintln!("{message}");
                eprint!("{USAGE}");
                ExitCode::from(1)
            }
        };
    }
    let options = match parse(&args[1..]) {
        Ok(options) => options,
        Err(message) => {
            eprintln!("{message}");
            eprint!("{USAGE}");
            return ExitCode::from(1);
        }
    };
    let result = match command {
        "generate" => generate(&options),
        "verify" => verify(&options),
        "run" => return measure::run(&options_for_run(&options)),
        "syscalls" => {
            let run = options_for_run(&options);
            let fixtures_dir = options
                .fixtures_dir
                .as_deref()
                .ok_or("syscalls requires --fixtures <DIR>");
            let report = run
                .report
                .as_deref()
                .ok_or("syscalls requires --report <FILE>");
            match (fixtures_dir, report) {
                (Ok(dir), Ok(report)) => syscalls::run(
                    dir,
                    &options.fixtures,
                    &run.dotaios,
                    &run.dotaios_mcp,
                    report,
                ),
                (Err(message), _) | (_, Err(message)) => Err(message.to_owned()),
            }
        }
        "extra" => {
            let aios = options.aios.clone().unwrap_or_else(extra::default_aios);
            return extra::run(&options_for_run(&options), &aios);
        }
        // Internal: the small process that spawns and measures `dotaios search` samples.
        "spawn-server" => return spawner::spawn_server(),
        "-h" | "--help" => {
            print!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        other => Err(format!("unknown command: {other}")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("{message}");
            ExitCode::from(1)
        }
    }
}

/// The value after a flag: the next argument, which must not be empty. The one rule every
/// subcommand's parser uses.
pub(crate) fn flag_value<'a>(
    args: &mut impl Iterator<Item = &'a OsString>,
    name: &str,
) -> Result<&'a OsString, String> {
    args.next()
        .filter(|value| !value.is_empty())
        .ok_or_else(|| format!("{name} requires a value"))
}

fn parse(args: &[OsString]) -> Result<Options, String> {
    let mut options = Options::default();
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        let mut value = |name: &str| -> Result<PathBuf, String> {
            flag_value(&mut iter, name).map(PathBuf::from)
        };
        match arg.to_str() {
            Some("--out") => options.out = Some(value("--out")?),
            Some("--fixtures") => options.fixtures_dir = Some(value("--fixtures")?),
            Some("--report") => options.report = Some(value("--report")?),
            Some("--aios") => options.aios = Some(value("--aios")?),
            Some("--dotaios") => options.dotaios = Some(value("--dotaios")?),
            Some("--dotaios-mcp") => options.dotaios_mcp = Some(value("--dotaios-mcp")?),
            Some("--fixture") => {
                let id = value("--fixture")?;
                let id = id.to_string_lossy();
                options
                    .fixtures
                    .push(fixture(&id).ok_or_else(|| format!("unknown fixture: {id}"))?);
            }
            Some("--drop-caches") => options.drop_caches = true,
            Some("--quick") => options.quick = true,
            _ => return Err(format!("unknown argument: {}", arg.to_string_lossy())),
        }
    }
    if options.fixtures.is_empty() {
        options.fixtures = FIXTURES.iter().collect();
    } else {
        // Fixture order is the table's order, whatever the order of the flags.
        options
            .fixtures
            .sort_by_key(|chosen| FIXTURES.iter().position(|known| known.id == chosen.id));
        options.fixtures.dedup_by_key(|chosen| chosen.id);
    }
    Ok(options)
}

fn generate(options: &Options) -> Result<(), String> {
    let out = options
        .out
        .as_deref()
        .ok_or("generate requires --out <DIR>")?;
    refuse_inside_repository(out)?;
    std::fs::create_dir_all(out)
        .map_err(|error| format!("cannot create the output directory: {error}"))?;
    for fixture in &options.fixtures {
        eprintln!("generating {} …", fixture.id);
        corpus::write_fixture(out, fixture)?;
        corpus::verify_fixture(out, fixture)?;
    }
    Ok(())
}

fn verify(options: &Options) -> Result<(), String> {
    let dir = options
        .fixtures_dir
        .as_deref()
        .ok_or("verify requires --fixtures <DIR>")?;
    for fixture in &options.fixtures {
        let verified = corpus::verify_fixture(dir, fixture)?;
        eprintln!(
            "{}: ok ({} files, {} bytes, {})",
            fixture.id,
            verified.files.len(),
            verified.source_bytes,
            verified.inventory_sha256
        );
    }
    Ok(())
}

/// `generate` never writes inside the project's repository, even through a symlinked route.
pub(crate) fn refuse_inside_repository(out: &Path) -> Result<(), String> {
    let repository = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let Ok(repository) = repository.canonicalize() else {
        return Ok(());
    };
    let absolute = if out.is_absolute() {
        out.to_path_buf()
    } else {
        std::env::current_dir()
            .map_err(|error| error.to_string())?
            .join(out)
    };
    // Resolve the longest existing prefix, so that a route through a symlink is seen through.
    let mut existing = absolute.clone();
    let mut rest = Vec::new();
    while !existing.exists() {
        let Some(name) = existing.file_name().map(ToOwned::to_owned) else {
            break;
        };
        rest.push(name);
        existing.pop();
    }
    let mut resolved = existing.canonicalize().unwrap_or(existing);
    for name in rest.into_iter().rev() {
        resolved.push(name);
    }
    if resolved.starts_with(&repository) {
        return Err("refusing to generate fixtures inside the project's repository; choose --out outside it".to_owned());
    }
    Ok(())
}

/// What `run` needs.
pub(crate) struct RunOptions {
    pub(crate) fixtures_dir: Option<PathBuf>,
    pub(crate) report: Option<PathBuf>,
    pub(crate) fixtures: Vec<&'static Fixture>,
    pub(crate) dotaios: PathBuf,
    pub(crate) dotaios_mcp: PathBuf,
    pub(crate) drop_caches: bool,
    pub(crate) quick: bool,
}

/// The executable `name` (with the platform's suffix, `.exe` on Windows) in this benchmark's
/// own directory: where `cargo build --workspace --bins` puts the binaries it measures when
/// `--dotaios`/`--dotaios-mcp` are not given.
pub(crate) fn sibling(name: &str) -> PathBuf {
    let beside = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(Path::to_path_buf))
        .unwrap_or_default();
    beside.join(format!("{name}{}", std::env::consts::EXE_SUFFIX))
}

fn options_for_run(options: &Options) -> RunOptions {
    RunOptions {
        fixtures_dir: options.fixtures_dir.clone(),
        report: options.report.clone(),
        fixtures: options.fixtures.clone(),
        dotaios: options
            .dotaios
            .clone()
            .unwrap_or_else(|| sibling("dotaios")),
        dotaios_mcp: options
            .dotaios_mcp
            .clone()
            .unwrap_or_else(|| sibling("dotaios-mcp")),
        drop_caches: options.drop_caches,
        quick: options.quick,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flag_needs_a_non_empty_value() {
        let args: Vec<OsString> = vec!["x".into(), "".into()];
        let mut iter = args.iter();
        assert_eq!(flag_value(&mut iter, "--out"), Ok(&args[0]));
        assert_eq!(
            flag_value(&mut iter, "--out"),
            Err("--out requires a value".to_owned())
        );
        assert!(flag_value(&mut iter, "--out").is_err());
        assert!(parse(&["--out".into(), "".into()]).is_err());
    }

    #[test]
    fn generate_refuses_the_repository() {
        let repository = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        assert!(refuse_inside_repository(&repository.join("target/fixtures")).is_err());
        assert!(refuse_inside_repository(&repository.join("crates/../fixtures")).is_err());
        let temp = tempfile::tempdir().unwrap();
        assert!(refuse_inside_repository(&temp.path().join("fixtures")).is_ok());
        // A symlinked route into the repository is seen through (links: Unix only).
        #[cfg(unix)]
        {
            let link = temp.path().join("route");
            std::os::unix::fs::symlink(&repository, &link).unwrap();
            assert!(refuse_inside_repository(&link.join("fixtures")).is_err());
        }
    }

    #[test]
    fn generate_refuses_a_non_empty_fixture_directory() {
        let temp = tempfile::tempdir().unwrap();
        let fixture = fixture("500-shallow-prose").unwrap();
        std::fs::create_dir_all(temp.path().join(fixture.id)).unwrap();
        std::fs::write(temp.path().join(fixture.id).join("x"), "x").unwrap();
        assert!(corpus::write_fixture(temp.path(), fixture).is_err());
    }
}
