//! The correctness checks of contract 07 §2 that make a sample count: what each cell must
//! answer ([`Expectation`]), and one check per kind of answer (file and byte counts, the core
//! outcome, the CLI's text, the adapter's payload, ripgrep's listing) ending in the ordered
//! sources and the result digest.
//!
//! It owns the verdict on an answer; it never starts a process, reads a file or takes a time.

use std::path::Path;

use dotaios_core::search::{Scope, SearchOutcome};
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::corpus::hex;
use crate::fixtures::{
    ControlledQuery, Fixture, RESULT_LIMIT, expected_digest, expected_lines, expected_sources,
};
use crate::spawner::SpawnedRun;

/// What one cell needs to check a sample.
pub(super) struct Expectation<'a> {
    pub(super) cell: String,
    pub(super) sources: Vec<String>,
    pub(super) digest: &'static str,
    pub(super) files: usize,
    pub(super) bytes: u64,
    pub(super) query: &'a ControlledQuery,
}

impl<'a> Expectation<'a> {
    /// What every sample of `query` on `fixture` must answer (contract 07 §2).
    pub(super) fn of(fixture: &Fixture, query: &'a ControlledQuery) -> Expectation<'a> {
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

/// Why a sample does not count.
pub(super) enum Check {
    Harness(String),
    Wrong {
        expected: Vec<String>,
        actual: Vec<String>,
        detail: String,
    },
}

impl Check {
    pub(super) fn harness(message: impl Into<String>) -> Check {
        Check::Harness(message.into())
    }

    pub(super) fn wrong(
        expect: &Expectation<'_>,
        actual: Vec<String>,
        detail: impl Into<String>,
    ) -> Check {
        Check::Wrong {
            expected: expect.sources.clone(),
            actual,
            detail: detail.into(),
        }
    }
}

/// The files and bytes a reading pass reports equal the fixture's inventory.
pub(super) fn check_counts(
    expect: &Expectation<'_>,
    files: usize,
    bytes: u64,
) -> Result<(), Check> {
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

/// A core outcome: the eight Shared scopes in order, complete, results only in `vault`, then
/// [`check_digest`] over the vault's results; returns the digest.
pub(super) fn check_core(
    outcome: &SearchOutcome,
    expect: &Expectation<'_>,
) -> Result<String, Check> {
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
pub(super) fn check_digest(
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

/// A `dotaios search` answer (§3.4): exit status 0, nothing on stderr, no group but `vault/`,
/// the final count line, and the expected sources in order.
pub(super) fn check_cli(expect: &Expectation<'_>, run: &SpawnedRun) -> Result<(), Check> {
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
    Ok(())
}

/// A `search_aios` answer: a successful tool result whose payload is complete, has no
/// omission, is not truncated and omits projects, then the ordered sources and the digest of
/// its results (each without its `scope`).
pub(super) fn check_mcp(expect: &Expectation<'_>, response: &Value) -> Result<(), Check> {
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
    Ok(())
}

/// Checks one ripgrep answer against the expected sources: ripgrep lists every matching file
/// (it neither ranks nor limits), so an answer counts when each expected source is listed and,
/// when the expected hits are fewer than the result limit, nothing else is.
pub(super) fn check_ripgrep(
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

/// The sources printed under `── vault/ (…) ──` (§3.4): the last parenthesised group of each
/// `  <title> (<file>)` line.
pub(super) fn cli_sources(stdout: &str) -> Vec<String> {
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
