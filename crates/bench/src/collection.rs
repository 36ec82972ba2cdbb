//! `dotaios-bench collection` (contract 07 §9): search quality on a public test collection with
//! human relevance judgments (Cranfield), as a second table beside `quality`'s own corpus.
//!
//! One run: read the collection (`cranfield`), write it as an AIOS folder, one vault note per
//! document, with the queries and judgments in TREC form (`convert`), then ask every query of
//! `search_aios` at MCP defaults (one long-lived `dotaios-mcp` session), `dotaios search --json
//! --limit 10` and the BM25 / BM25 + Snowball controls of `quality`, and write one TREC run file
//! per system (`runs`). The metrics are not computed here: `crates/bench/collection/evaluate.py`
//! adds tantivy as a further control and scores every run with `trec_eval` (an evaluator
//! nobody here wrote), so this command only converts and asks.
//!
//! It never writes inside the repository, and never changes what a system is asked beyond the
//! query. Progress goes to stderr.

mod convert;
mod cranfield;
mod runs;

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;

use crate::flag_value;

/// Options of `collection`.
#[derive(Debug, Default)]
struct Options {
    cran: Option<PathBuf>,
    out: Option<PathBuf>,
    dotaios: Option<PathBuf>,
    dotaios_mcp: Option<PathBuf>,
    convert_only: bool,
}

fn parse(args: &[OsString]) -> Result<Options, String> {
    let mut options = Options::default();
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        let mut value = |name: &str| -> Result<PathBuf, String> {
            flag_value(&mut iter, name).map(PathBuf::from)
        };
        match arg.to_str() {
            Some("--cran") => options.cran = Some(value("--cran")?),
            Some("--out") => options.out = Some(value("--out")?),
            Some("--dotaios") => options.dotaios = Some(value("--dotaios")?),
            Some("--dotaios-mcp") => options.dotaios_mcp = Some(value("--dotaios-mcp")?),
            Some("--convert-only") => options.convert_only = true,
            _ => return Err(format!("unknown argument: {}", arg.to_string_lossy())),
        }
    }
    Ok(options)
}

/// `collection --cran <DIR> --out <DIR> …`: exit 0 when every run file is written, 1 otherwise.
pub(crate) fn run(args: &[OsString]) -> ExitCode {
    match parse(args).and_then(|options| run_inner(&options)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("collection: {message}");
            ExitCode::from(1)
        }
    }
}

fn run_inner(options: &Options) -> Result<(), String> {
    let cran = options
        .cran
        .as_deref()
        .ok_or("collection requires --cran <DIR> (cran.all.1400, cran.qry, cranqrel)")?;
    let out = options
        .out
        .as_deref()
        .ok_or("collection requires --out <DIR> (a directory that does not exist yet)")?;
    crate::refuse_inside_repository(out)?;
    let collection = cranfield::load(cran)?;
    eprintln!(
        "Cranfield: {} documents, {} queries, {} judgments",
        collection.docs.len(),
        collection.queries.len(),
        collection.judgments.len()
    );
    let converted = convert::write(&collection, out)?;
    if options.convert_only {
        return Ok(());
    }
    let dotaios = options
        .dotaios
        .clone()
        .unwrap_or_else(|| crate::sibling("dotaios"));
    let dotaios_mcp = options
        .dotaios_mcp
        .clone()
        .unwrap_or_else(|| crate::sibling("dotaios-mcp"));
    runs::write_all(&converted, &dotaios, &dotaios_mcp)
}
