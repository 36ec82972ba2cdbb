//! The product as the quality harness scores it (contract 07 §7.4): `search_aios` through the
//! real built `dotaios-mcp` over stdio at MCP defaults (only `query` is sent), and the CLI
//! `dotaios search <query>` in its text order. Each answer becomes a ranked list of document
//! ids (`corpus::Doc::id`): a Markdown or session result by its `source`, a memory entry by its
//! `record_id`; the CLI's lines by the file, the entry line or the session id it prints.
//!
//! It only reads answers; it never changes what the product is asked beyond the query.

use std::collections::HashMap;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use dotaios_mcp::client::Client;
use serde_json::{Value, json};

use crate::timing::elapsed_ns;

use super::corpus::Corpus;

/// One answer: the ranked ids, the time it took, and the payload facts worth reporting.
#[derive(Debug, Clone, Default)]
pub(crate) struct Answer {
    pub(crate) ranked: Vec<String>,
    pub(crate) ns: u64,
    /// Items that matched no document of the corpus (a harness or mapping fault if not 0).
    pub(crate) unmapped: usize,
    /// MCP only: `budget.truncated`.
    pub(crate) truncated: bool,
}

const ANSWER_DEADLINE: Duration = Duration::from_secs(60);

/// The protocol version the harness's client negotiates: the newest handshake-era version, what
/// a current client sends, whose answers carry snippet windows (contract 03 §8.2). The
/// reference era (2025-06-18 and older) keeps the reference's whole-line snippets.
pub(crate) const MCP_VERSION: &str = "2025-11-25";
const MAX_LINE_BYTES: u64 = 16 * 1024 * 1024;

/// One `dotaios-mcp` server for the whole run.
pub(crate) struct Mcp {
    client: Client,
}

impl Mcp {
    pub(crate) fn start(binary: &Path, aios: &Path) -> Result<Mcp, String> {
        let client = crate::mcp_server::initialized_server(
            binary,
            aios,
            MCP_VERSION,
            MAX_LINE_BYTES,
            ANSWER_DEADLINE,
        )?;
        Ok(Mcp { client })
    }

    /// `search_aios {query}`: scope, limit and budget at their defaults.
    pub(crate) fn search(&mut self, corpus: &Corpus, query: &str) -> Result<Answer, String> {
        let (ns, payload) = crate::mcp_server::timed_search(
            &mut self.client,
            json!({"query": query}),
            ANSWER_DEADLINE,
        )?;
        let mut answer = mcp_ids(corpus, &payload);
        answer.ns = ns;
        Ok(answer)
    }

    pub(crate) fn finish(self) {
        let _ = self.client.close(ANSWER_DEADLINE);
    }
}

/// The ids of a `search_aios` payload's `results`, in order (contract 03 §16.1, §12).
pub(crate) fn mcp_ids(corpus: &Corpus, payload: &Value) -> Answer {
    let mut answer = Answer {
        truncated: payload["budget"]["truncated"] == Value::Bool(true),
        ..Answer::default()
    };
    for item in payload["results"].as_array().into_iter().flatten() {
        let source = item["source"].as_str().unwrap_or_default();
        let id = match item["record_id"].as_str() {
            Some(record) if source.starts_with("memory/") && source.ends_with(".jsonl") => {
                format!("jsonl:{record}")
            }
            _ => source.to_owned(),
        };
        if corpus.doc(&id).is_none() {
            answer.unmapped += 1;
        }
        answer.ranked.push(id);
    }
    answer
}

/// The CLI's names of the corpus documents: (scope, name) → id.
pub(crate) struct CliNames {
    names: HashMap<(String, String), String>,
}

impl CliNames {
    pub(crate) fn new(corpus: &Corpus) -> CliNames {
        let names = corpus
            .docs
            .iter()
            .map(|doc| ((doc.scope.to_owned(), doc.cli_key.clone()), doc.id.clone()))
            .collect();
        CliNames { names }
    }
}

/// `dotaios search <query> --path <aios>`, defaults otherwise.
pub(crate) fn cli_search(
    binary: &Path,
    aios: &Path,
    names: &CliNames,
    query: &str,
) -> Result<Answer, String> {
    let start = Instant::now();
    let output = Command::new(binary)
        .arg("search")
        .arg(query)
        .arg("--path")
        .arg(aios)
        .output()
        .map_err(|error| format!("cannot run {}: {error}", binary.display()))?;
    let ns = elapsed_ns(start);
    // 0 complete, 2 incomplete with results still printed (contract 03 §17.3).
    if !matches!(output.status.code(), Some(0 | 2)) {
        return Err(format!(
            "dotaios search {query:?} exited with {}: {}",
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    let mut answer = cli_ids(names, &String::from_utf8_lossy(&output.stdout));
    answer.ns = ns;
    Ok(answer)
}

/// The ids of the CLI's text output, in printed order (contract 03 §17.4).
pub(crate) fn cli_ids(names: &CliNames, stdout: &str) -> Answer {
    let mut answer = Answer::default();
    let mut scope: Option<String> = None;
    for line in stdout.lines() {
        if let Some(header) = line.strip_prefix("── ") {
            scope = header.split('/').next().map(str::to_owned);
            continue;
        }
        let Some(scope) = &scope else {
            continue;
        };
        let Some(item) = line.strip_prefix("  ") else {
            continue;
        };
        if item.starts_with(' ') || item.is_empty() {
            continue;
        }
        let plain = item.replace(">>", "").replace("<<", "");
        let name = if scope == "sessions" {
            plain
                .split_whitespace()
                .last()
                .unwrap_or_default()
                .to_owned()
        } else if scope == "memory" && plain.starts_with('[') && plain.contains(" — ") {
            plain
        } else {
            // `<title> (<file>)`: the file is inside the last parentheses.
            match plain
                .strip_suffix(')')
                .and_then(|rest| rest.rsplit_once(" ("))
            {
                Some((_, file)) => file.to_owned(),
                None => plain,
            }
        };
        match names.names.get(&(scope.clone(), name.clone())) {
            Some(id) => answer.ranked.push(id.clone()),
            None => {
                answer.unmapped += 1;
                answer.ranked.push(format!("unmapped:{scope}:{name}"));
            }
        }
    }
    answer
}
