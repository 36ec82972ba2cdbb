//! The quality harness's own checks: the generator is deterministic, the gold is consistent
//! with the corpus, the answers map back to documents, and a tiny run goes end to end through
//! the built binaries. No figure is asserted.

use std::collections::BTreeSet;
use std::path::PathBuf;

use serde_json::Value;

use super::corpus::{self, Label};
use super::topics::{ITEMS, Kind, TOPICS};
use super::*;

/// 2026-11-30 in days since the epoch.
const ANCHOR: i64 = 20_422;

fn tree(root: &std::path::Path) -> BTreeSet<(String, Vec<u8>, i64)> {
    let fingerprint = dotaios_testkit::fingerprint(root);
    let mut out = BTreeSet::new();
    for path in fingerprint.paths() {
        let full = root.join(path);
        if full.is_file() {
            let mtime = std::fs::metadata(&full)
                .unwrap()
                .modified()
                .unwrap()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_secs() as i64;
            out.insert((path.to_owned(), std::fs::read(&full).unwrap(), mtime));
        }
    }
    out
}

#[test]
fn the_same_seed_writes_the_same_bytes() {
    let temp = tempfile::tempdir().unwrap();
    let a = corpus::generate("7", ANCHOR, corpus::TINY);
    let b = corpus::generate("7", ANCHOR, corpus::TINY);
    assert_eq!(a.digest(), b.digest());
    a.write(&temp.path().join("a")).unwrap();
    b.write(&temp.path().join("b")).unwrap();
    let (a_tree, b_tree) = (tree(&temp.path().join("a")), tree(&temp.path().join("b")));
    assert!(!a_tree.is_empty());
    assert_eq!(a_tree, b_tree);
    // Another seed or another anchor day is another folder.
    assert_ne!(
        corpus::generate("8", ANCHOR, corpus::TINY).digest(),
        a.digest()
    );
    assert_ne!(
        corpus::generate("7", ANCHOR + 1, corpus::TINY).digest(),
        a.digest()
    );
}

#[test]
fn the_full_corpus_has_the_stated_size() {
    let corpus = corpus::generate(DEFAULT_SEED, ANCHOR, corpus::FULL);
    let notes = corpus
        .docs
        .iter()
        .filter(|doc| !doc.id.starts_with("jsonl:"))
        .count();
    let entries = corpus.docs.len() - notes;
    assert!(notes + entries >= 1_500, "{notes} notes, {entries} entries");
    assert!(entries >= 400, "{entries} memory entries");
    assert!(TOPICS.len() >= 30);
    let queries = queries::build(&corpus);
    assert!(queries.len() >= 100, "{} queries", queries.len());
    for kind in Kind::ALL {
        assert!(
            queries.iter().filter(|query| query.kind == kind).count() >= 3,
            "kind {}",
            kind.name()
        );
    }
    // Ages spread over more than a year.
    let newest = corpus.files.iter().map(|file| file.mtime).max().unwrap();
    let oldest = corpus.files.iter().map(|file| file.mtime).min().unwrap();
    assert!(newest - oldest > 365 * 86_400);
    assert!(newest < ANCHOR * 86_400);
}

#[test]
fn every_gold_document_exists() {
    for scale in [corpus::TINY, corpus::FULL] {
        let corpus = corpus::generate(DEFAULT_SEED, ANCHOR, scale);
        let queries = queries::build(&corpus);
        check_gold(&corpus, &queries).unwrap();
        // Every topic and item is labelled somewhere, every topic on a main note of grade 2.
        let labels = corpus::labelled(&corpus);
        for index in 0..TOPICS.len() {
            assert!(labels.contains(&Label::Topic(index)));
        }
        for index in 0..ITEMS.len() {
            assert!(labels.contains(&Label::Item(index)), "item {index}");
        }
        for query in &queries {
            assert!(
                query.gold.iter().any(|(_, grade)| *grade == 2),
                "{}",
                query.id
            );
        }
        // Document ids are unique, and the CLI names too within a scope.
        let ids: BTreeSet<&str> = corpus.docs.iter().map(|doc| doc.id.as_str()).collect();
        assert_eq!(ids.len(), corpus.docs.len());
        let names: BTreeSet<(&str, &str)> = corpus
            .docs
            .iter()
            .map(|doc| (doc.scope, doc.cli_key.as_str()))
            .collect();
        assert_eq!(names.len(), corpus.docs.len());
    }
    // A gold id without a document is refused.
    let corpus = corpus::generate(DEFAULT_SEED, ANCHOR, corpus::TINY);
    let mut queries = queries::build(&corpus);
    queries[0].gold.push(("vault/nowhere.md".into(), 2));
    assert!(check_gold(&corpus, &queries).is_err());
}

#[test]
fn answers_map_to_documents() {
    let corpus = corpus::generate(DEFAULT_SEED, ANCHOR, corpus::TINY);
    let jsonl = corpus
        .docs
        .iter()
        .find(|doc| doc.id.starts_with("jsonl:"))
        .unwrap();
    let record = jsonl.id.strip_prefix("jsonl:").unwrap();
    let payload = serde_json::json!({"results": [
        {"scope": "vault", "source": "vault/engineering/api-key-rotation.md", "file": "engineering/api-key-rotation.md"},
        {"scope": "memory", "source": "memory/events.jsonl", "record_id": record},
        {"scope": "vault", "source": "vault/nowhere.md"},
    ], "budget": {"truncated": true}});
    let answer = systems::mcp_ids(&corpus, &payload);
    assert_eq!(
        answer.ranked,
        [
            "vault/engineering/api-key-rotation.md",
            jsonl.id.as_str(),
            "vault/nowhere.md"
        ]
    );
    assert_eq!(answer.unmapped, 1);
    assert!(answer.truncated);

    let session = corpus
        .docs
        .iter()
        .find(|doc| doc.scope == "sessions")
        .unwrap();
    let daily = corpus
        .docs
        .iter()
        .find(|doc| doc.id.starts_with("memory/daily/"))
        .unwrap();
    let stdout = format!(
        "Memory: Shared\nSearching for \"x\" in all...\n\n\
         ── sessions/ (1 match) ──\n  [2026-01-01] codex  {}\n    Working on >>x<<\n\n\
         ── memory/ (2 matches) ──\n  {}\n    match: summary = y\n    source: memory/events.jsonl\n  Daily ({})\n    L3: y\n\n\
         ── vault/ (1 match) ──\n  API (key) rotation (engineering/api-key-rotation.md)\n    L1: >>API<<\n\n4 result(s) found.\n",
        session.cli_key,
        jsonl.cli_key.replacen(" — ", " — >>", 1) + "<<",
        daily.cli_key,
    );
    let answer = systems::cli_ids(&systems::CliNames::new(&corpus), &stdout);
    assert_eq!(
        answer.ranked,
        [
            session.id.as_str(),
            jsonl.id.as_str(),
            daily.id.as_str(),
            "vault/engineering/api-key-rotation.md"
        ]
    );
    assert_eq!(answer.unmapped, 0);
}

/// The built binaries beside this test's executable (`cargo build --workspace --bins`).
fn built(name: &str) -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let dir = exe.parent().unwrap().parent().unwrap();
    let path = dir.join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    assert!(
        path.is_file(),
        "{} is missing: run `cargo build --workspace --bins` first",
        path.display()
    );
    path
}

#[test]
fn a_tiny_run_scores_every_system() {
    let temp = tempfile::tempdir().unwrap();
    let report = temp.path().join("report.json");
    let options = Options {
        report: Some(report.clone()),
        out: Some(temp.path().join("run")),
        seed: Some("3".into()),
        anchor_day: Some(ANCHOR),
        dotaios: Some(built("dotaios")),
        dotaios_mcp: Some(built("dotaios-mcp")),
        tiny: true,
    };
    let code = run_inner(&options).unwrap();
    assert_eq!(code, std::process::ExitCode::SUCCESS);
    // The gold was written beside the folder.
    let gold: Value =
        serde_json::from_slice(&std::fs::read(temp.path().join("run/gold.json")).unwrap()).unwrap();
    let value: Value = serde_json::from_slice(&std::fs::read(&report).unwrap()).unwrap();
    assert_eq!(value["kind"], "dotaios-bench quality");
    assert_eq!(
        value["queries"].as_array().unwrap().len(),
        gold.as_array().unwrap().len()
    );
    let systems = value["systems"].as_array().unwrap();
    let ids: Vec<&str> = systems
        .iter()
        .map(|system| system["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids[..4], ["mcp", "cli", "bm25", "bm25-snowball"]);
    for system in systems {
        // Every result maps to a document of the corpus, and each system finds something.
        assert_eq!(system["unmappedResults"], 0, "{}", system["id"]);
        assert!(
            system["overall"]["zeroResultRate"].as_f64().unwrap() < 1.0,
            "{}",
            system["id"]
        );
    }
    // The plain control finds every known item by its identifier or title.
    let bm25 = &systems[2]["byKind"]["known-item"];
    assert!(bm25["mrr10"].as_f64().unwrap() > 0.9, "{bm25}");
}

/// Results per answer (contract 07 §7.5) count each answer up to the limit, and an answer holds
/// the limit when it has at least that many.
#[test]
fn results_per_answer_count_up_to_the_limit() {
    let answer = |count: usize| systems::Answer {
        ranked: (0..count).map(|index| format!("doc-{index}")).collect(),
        ..systems::Answer::default()
    };
    let run = Run {
        system: System::Cli,
        answers: vec![answer(10), answer(20), answer(4), answer(0)],
        scores: Vec::new(),
    };
    let sizes = run.sizes(10);
    assert_eq!(sizes.mean, 6.0);
    assert_eq!(
        (sizes.holding_limit, sizes.answers, sizes.limit),
        (2, 4, 10)
    );
    assert_eq!(share(sizes.holding_limit, sizes.answers), 0.5);
}
