//! The collection's runs (contract 07 §9.3): every query asked of `search_aios` at MCP defaults
//! over one long-lived `dotaios-mcp` session (only `query` is sent, at the protocol version
//! `quality` negotiates), of `dotaios search --json --limit 10` (one process a query), and of
//! `quality`'s BM25 and BM25 + Snowball controls over the same notes; each system's answers
//! written as a TREC run file `runs/<system>.trec`, and `runs/meta.json` with the facts the
//! evaluator reports beside the metrics (answers the budget cut, results that named no note,
//! median time).
//!
//! A run file keeps each answer's order: the result at rank r gets the score `limit + 1 - r`,
//! strictly decreasing, so `trec_eval`'s sort by score cannot reorder it. It only reads
//! answers; the metrics are `evaluate.py`'s.

use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::convert::Converted;
use crate::quality::controls::{Bm25, ControlCorpus};
use crate::timing::elapsed_ns;

/// Results asked of the CLI and the controls: `search_aios`'s default limit, which the MCP run
/// never overrides, so every system answers with at most as many.
const LIMIT: usize = dotaios_core::request::Limit::SEARCH_TOOL.default as usize;
const ANSWER_DEADLINE: Duration = Duration::from_secs(60);
const MAX_LINE_BYTES: u64 = 16 * 1024 * 1024;

/// One system's answers: per query, the ranked document ids.
struct SystemRun {
    id: &'static str,
    name: &'static str,
    ranked: Vec<Vec<String>>,
    ns: Vec<u64>,
    /// Answers whose payload says the budget cut it (`search_aios` only).
    truncated: usize,
    /// Results that named no note of the collection (a harness fault if not 0).
    unmapped: usize,
}

impl SystemRun {
    fn new(id: &'static str, name: &'static str) -> SystemRun {
        SystemRun {
            id,
            name,
            ranked: Vec::new(),
            ns: Vec::new(),
            truncated: 0,
            unmapped: 0,
        }
    }

    /// Records one answer given as note sources (`vault/cran-0001.md`).
    fn push<'a>(&mut self, sources: impl IntoIterator<Item = &'a str>, ns: u64) {
        let mut ids = Vec::new();
        for source in sources {
            match doc_of_source(source) {
                Some(id) => ids.push(id.to_owned()),
                None => self.unmapped += 1,
            }
        }
        self.ranked.push(ids);
        self.ns.push(ns);
    }
}

/// The document id of a note's `source`, or `None` for anything that is not a collection note.
pub(crate) fn doc_of_source(source: &str) -> Option<&str> {
    source
        .strip_prefix("vault/")?
        .strip_suffix(".md")
        .filter(|id| id.starts_with("cran-") && !id.contains('/'))
}

/// Every run, then `runs/meta.json`.
pub(crate) fn write_all(
    converted: &Converted,
    dotaios: &Path,
    dotaios_mcp: &Path,
) -> Result<(), String> {
    let queries = &converted.queries;
    let mut systems = Vec::new();

    eprintln!(
        "search_aios over one dotaios-mcp session: {} queries …",
        queries.len()
    );
    let mut run = SystemRun::new("mcp", "search_aios (MCP defaults)");
    let mut client = crate::mcp_server::initialized_server(
        dotaios_mcp,
        &converted.aios,
        crate::quality::systems::MCP_VERSION,
        MAX_LINE_BYTES,
        ANSWER_DEADLINE,
    )?;
    for (_, text) in queries {
        let (ns, payload) =
            crate::mcp_server::timed_search(&mut client, json!({"query": text}), ANSWER_DEADLINE)?;
        if payload["budget"]["truncated"] == Value::Bool(true) {
            run.truncated += 1;
        }
        run.push(sources(&payload["results"]), ns);
    }
    let _ = client.close(ANSWER_DEADLINE);
    systems.push(run);

    eprintln!("dotaios search --json: {} queries …", queries.len());
    let mut run = SystemRun::new("cli", "dotaios search --json --limit 10 (CLI)");
    for (_, text) in queries {
        let start = Instant::now();
        let payload = cli_search(dotaios, &converted.aios, text)?;
        let ns = elapsed_ns(start);
        // One scope holds notes here (vault), so the groups in order are the merged order.
        let groups = payload["groups"].as_array().into_iter().flatten();
        run.push(groups.flat_map(|group| sources(&group["results"])), ns);
    }
    systems.push(run);

    eprintln!("controls …");
    let corpus = ControlCorpus::load(&converted.aios)?;
    for (id, name, stemmed) in [
        ("bm25", "control: BM25", false),
        ("bm25-snowball", "control: BM25 + Snowball", true),
    ] {
        let index = Bm25::new(&corpus, stemmed);
        let mut run = SystemRun::new(id, name);
        for (_, text) in queries {
            let start = Instant::now();
            let ranked = index.search(text, LIMIT);
            run.push(ranked.iter().map(String::as_str), elapsed_ns(start));
        }
        systems.push(run);
    }

    let runs_dir = converted.out.join("runs");
    std::fs::create_dir(&runs_dir).map_err(|error| format!("cannot create runs/: {error}"))?;
    let mut meta = Vec::new();
    for run in &systems {
        let path = runs_dir.join(format!("{}.trec", run.id));
        std::fs::write(&path, trec_run(run.id, queries, &run.ranked))
            .map_err(|error| format!("cannot write {}: {error}", path.display()))?;
        if run.unmapped > 0 {
            eprintln!(
                "{}: {} result(s) named no collection note",
                run.id, run.unmapped
            );
        }
        meta.push(json!({
            "id": run.id,
            "name": run.name,
            "truncated": run.truncated,
            "unmapped": run.unmapped,
            "median_ms": crate::quality::metrics::median_ms(&run.ns),
        }));
    }
    let meta = json!({
        "collection": "cranfield",
        "limit": LIMIT,
        "queries": queries.len(),
        "systems": meta,
    });
    let mut text = dotaios_core::text::to_json_pretty(&meta);
    text.push('\n');
    std::fs::write(runs_dir.join("meta.json"), text)
        .map_err(|error| format!("cannot write runs/meta.json: {error}"))?;
    eprintln!("runs written to {}", runs_dir.display());
    Ok(())
}

/// The `source` of each result of a `results` array, in order.
fn sources(results: &Value) -> impl Iterator<Item = &str> {
    results
        .as_array()
        .into_iter()
        .flatten()
        .map(|item| item["source"].as_str().unwrap_or_default())
}

/// `dotaios search --json --limit 10 --path <aios> -- <query>`; the payload.
fn cli_search(binary: &Path, aios: &Path, query: &str) -> Result<Value, String> {
    let output = Command::new(binary)
        .args(["search", "--json", "--limit", &LIMIT.to_string(), "--path"])
        .arg(aios)
        .arg("--")
        .arg(query)
        .output()
        .map_err(|error| format!("cannot run {}: {error}", binary.display()))?;
    // 0 complete, 2 incomplete with results still printed (contract 03 §17.3).
    if !matches!(output.status.code(), Some(0 | 2)) {
        return Err(format!(
            "dotaios search {query:?} exited with {}: {}",
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    serde_json::from_slice(&output.stdout)
        .map_err(|_| format!("dotaios search --json {query:?}: the output is not JSON"))
}

/// A TREC run: `<qid> Q0 <docid> <rank> <score> <tag>`, rank from 1, score `limit + 1 - rank`.
pub(crate) fn trec_run(tag: &str, queries: &[(String, String)], ranked: &[Vec<String>]) -> String {
    let mut out = String::new();
    for ((qid, _), ids) in queries.iter().zip(ranked) {
        for (rank, id) in ids.iter().take(LIMIT).enumerate() {
            let _ = writeln!(out, "{qid} Q0 {id} {} {} {tag}", rank + 1, LIMIT - rank);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_map_to_collection_notes_only() {
        assert_eq!(doc_of_source("vault/cran-0012.md"), Some("cran-0012"));
        assert_eq!(doc_of_source("vault/sub/cran-0012.md"), None);
        assert_eq!(doc_of_source("vault/cran-0001/cran-0012.md"), None);
        assert_eq!(doc_of_source("context/cran-0012.md"), None);
        assert_eq!(doc_of_source("vault/notes.md"), None);
    }

    #[test]
    fn a_run_file_keeps_the_answer_order_and_the_limit() {
        let queries = vec![
            ("1".to_owned(), "a".to_owned()),
            ("2".to_owned(), "b".to_owned()),
        ];
        let many: Vec<String> = (1..=12).map(|n| format!("cran-{n:04}")).collect();
        let text = trec_run(
            "mcp",
            &queries,
            &[vec!["cran-0009".into(), "cran-0002".into()], many],
        );
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "1 Q0 cran-0009 1 10 mcp");
        assert_eq!(lines[1], "1 Q0 cran-0002 2 9 mcp");
        assert_eq!(lines.len(), 2 + LIMIT);
        assert_eq!(lines[2 + LIMIT - 1], "2 Q0 cran-0010 10 1 mcp");
    }
}
