//! `dotaios-bench quality` (contract 07 §7): how well search finds what the agent means.
//!
//! One run: generate the seeded, gold-labelled folder (`corpus`, `topics`, `prose`), derive the
//! queries and their gold (`queries`) and write both out before any system runs; then ask every
//! query of every system in the same run (`systems`: `search_aios` at MCP defaults through the
//! built `dotaios-mcp`, the CLI's text order; `controls`: BM25, BM25 + Snowball, `rg`), score
//! the answers (`metrics`), print the tables on stdout and write the JSON report.
//!
//! It is not a test: `cargo test` checks the metrics, the generator and the gold, never a
//! figure. Progress goes to stderr; only the tables go to stdout.

pub(crate) mod controls;
mod corpus;
pub(crate) mod metrics;
pub(crate) mod prose;
mod queries;
pub(crate) mod systems;
mod topics;

#[cfg(test)]
mod tests;

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use serde_json::{Map, Value, json};

use crate::flag_value;

use self::corpus::Corpus;
use self::metrics::{Scores, Summary};
use self::queries::Query;
use self::topics::Kind;

/// The seed of the published figures.
const DEFAULT_SEED: &str = "22";
/// How many results of a control are kept (the metrics look at 10).
const CONTROL_LIMIT: usize = 20;

/// Options of `quality`.
#[derive(Debug, Default)]
pub(crate) struct Options {
    pub(crate) report: Option<PathBuf>,
    pub(crate) out: Option<PathBuf>,
    pub(crate) seed: Option<String>,
    /// Days since the epoch.
    pub(crate) anchor_day: Option<i64>,
    pub(crate) dotaios: Option<PathBuf>,
    pub(crate) dotaios_mcp: Option<PathBuf>,
    pub(crate) tiny: bool,
}

pub(crate) fn parse(args: &[OsString]) -> Result<Options, String> {
    let mut options = Options::default();
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        let mut value = |name: &str| -> Result<String, String> {
            flag_value(&mut iter, name)?
                .to_str()
                .map(str::to_owned)
                .ok_or_else(|| format!("{name} requires a value"))
        };
        match arg.to_str() {
            Some("--report") => options.report = Some(value("--report")?.into()),
            Some("--out") => options.out = Some(value("--out")?.into()),
            Some("--seed") => options.seed = Some(value("--seed")?),
            Some("--anchor") => {
                let text = value("--anchor")?;
                let date: jiff::civil::Date = text
                    .parse()
                    .map_err(|_| format!("--anchor must be a date YYYY-MM-DD, not {text:?}"))?;
                let seconds = date
                    .to_zoned(jiff::tz::TimeZone::UTC)
                    .map_err(|error| error.to_string())?
                    .timestamp()
                    .as_second();
                options.anchor_day = Some(seconds.div_euclid(86_400));
            }
            Some("--dotaios") => options.dotaios = Some(value("--dotaios")?.into()),
            Some("--dotaios-mcp") => options.dotaios_mcp = Some(value("--dotaios-mcp")?.into()),
            Some("--tiny") => options.tiny = true,
            _ => return Err(format!("unknown argument: {}", arg.to_string_lossy())),
        }
    }
    Ok(options)
}

/// The systems of one run, in table order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum System {
    Mcp,
    Cli,
    Bm25,
    Snowball,
    Rg,
}

impl System {
    fn name(self) -> &'static str {
        match self {
            System::Mcp => "search_aios (MCP defaults)",
            System::Cli => "dotaios search (CLI)",
            System::Bm25 => "control: BM25",
            System::Snowball => "control: BM25 + Snowball",
            System::Rg => "control: rg -F -i",
        }
    }

    /// The product's own surfaces (the others are controls).
    fn is_product(self) -> bool {
        matches!(self, System::Mcp | System::Cli)
    }

    fn id(self) -> &'static str {
        match self {
            System::Mcp => "mcp",
            System::Cli => "cli",
            System::Bm25 => "bm25",
            System::Snowball => "bm25-snowball",
            System::Rg => "rg",
        }
    }
}

/// Every answer of one system.
struct Run {
    system: System,
    answers: Vec<systems::Answer>,
    scores: Vec<Scores>,
}

impl Run {
    fn summary(&self, queries: &[Query], kind: Option<Kind>) -> Summary {
        metrics::summarise(
            self.scores
                .iter()
                .zip(queries)
                .filter(|(_, query)| kind.is_none_or(|kind| query.kind == kind))
                .map(|(scores, _)| scores),
        )
    }

    fn median_ms(&self) -> Option<f64> {
        let samples: Vec<u64> = self.answers.iter().map(|answer| answer.ns).collect();
        metrics::median_ms(&samples)
    }

    /// How many results the answers hold, counted up to `limit` (issue 36: what the budget lets
    /// through): the mean and the answers holding `limit`.
    fn sizes(&self, limit: usize) -> Sizes {
        let count = self.answers.len();
        let total: usize = self
            .answers
            .iter()
            .map(|answer| answer.ranked.len().min(limit))
            .sum();
        Sizes {
            mean: if count == 0 {
                0.0
            } else {
                total as f64 / count as f64
            },
            holding_limit: self
                .answers
                .iter()
                .filter(|answer| answer.ranked.len() >= limit)
                .count(),
            answers: count,
            limit,
        }
    }
}

/// Results per answer of one system (see [`Run::sizes`]).
struct Sizes {
    mean: f64,
    holding_limit: usize,
    answers: usize,
    limit: usize,
}

/// The `limit` results per answer are counted against: `search_aios`'s default, which the
/// harness never overrides. The CLI's default is higher (contract 03 §17.1) and it has no
/// budget, so its count (up to this limit) is what the matches allow.
const ANSWER_LIMIT: usize = dotaios_core::request::Limit::SEARCH_TOOL.default as usize;

/// The outcome of one run, for the report.
struct Outcome {
    runs: Vec<Run>,
    notes: Vec<String>,
    index_ms: f64,
    control_docs: usize,
}

/// `quality --report <FILE> …`: exit 0 when the stated targets hold, 3 when one is missed, 1 on
/// a harness error.
pub(crate) fn run(options: &Options) -> ExitCode {
    match run_inner(options) {
        Ok(code) => code,
        Err(message) => {
            eprintln!("quality: {message}");
            ExitCode::from(1)
        }
    }
}

fn run_inner(options: &Options) -> Result<ExitCode, String> {
    let report_path = options
        .report
        .as_deref()
        .ok_or("quality requires --report <FILE>")?;
    let dotaios = options
        .dotaios
        .clone()
        .unwrap_or_else(|| crate::sibling("dotaios"));
    let dotaios_mcp = options
        .dotaios_mcp
        .clone()
        .unwrap_or_else(|| crate::sibling("dotaios-mcp"));
    let seed = options.seed.as_deref().unwrap_or(DEFAULT_SEED);
    let anchor_day = options
        .anchor_day
        .unwrap_or_else(|| jiff::Timestamp::now().as_second().div_euclid(86_400));
    let scale = if options.tiny {
        corpus::TINY
    } else {
        corpus::FULL
    };

    let mut report_file = crate::report::create(report_path).ok_or("no report file")?;
    let (out, temporary) = match &options.out {
        Some(out) => {
            crate::refuse_inside_repository(out)?;
            (out.clone(), false)
        }
        None => (
            std::env::temp_dir().join(format!("dotaios-bench-quality-{}", std::process::id())),
            true,
        ),
    };
    std::fs::create_dir(&out).map_err(|error| {
        format!(
            "cannot create {} (it must not exist): {error}",
            out.display()
        )
    })?;
    let aios = out.join("aios");

    // The corpus and the gold, written before any system runs (contract 07 §7.3).
    eprintln!("generating the quality corpus (seed {seed}) …");
    let corpus = corpus::generate(seed, anchor_day, scale);
    let queries = queries::build(&corpus);
    check_gold(&corpus, &queries)?;
    corpus.write(&aios)?;
    let mut gold_text = dotaios_core::text::to_json_pretty(&queries::to_value(&queries));
    gold_text.push('\n');
    std::fs::write(out.join("gold.json"), gold_text)
        .map_err(|error| format!("cannot write gold.json: {error}"))?;

    let measured = measure(&corpus, &queries, &aios, &dotaios, &dotaios_mcp);
    if temporary {
        let _ = std::fs::remove_dir_all(&out);
    } else {
        eprintln!("folder and gold kept in {}", out.display());
    }
    let outcome = measured?;

    let targets = targets(&outcome, &queries);
    print!("{}", tables(&outcome, &queries, &targets));
    let run_options = crate::RunOptions {
        fixtures_dir: None,
        report: options.report.clone(),
        fixtures: Vec::new(),
        dotaios: dotaios.clone(),
        dotaios_mcp: dotaios_mcp.clone(),
        drop_caches: false,
        quick: options.tiny,
    };
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    let environment =
        crate::report::Environment::capture(&std::env::temp_dir(), &run_options, workers);
    let value = report_value(
        &corpus,
        &queries,
        &outcome,
        &targets,
        seed,
        anchor_day,
        options.tiny,
        environment.to_value(),
    );
    let mut text = dotaios_core::text::to_json_pretty(&value);
    text.push('\n');
    report_file
        .write_all(text.as_bytes())
        .map_err(|error| format!("cannot write the report: {error}"))?;
    let missed = targets.iter().any(|target| !target.pass);
    Ok(if missed && !options.tiny {
        ExitCode::from(3)
    } else {
        ExitCode::SUCCESS
    })
}

/// Every gold document exists, and every query has at least one.
fn check_gold(corpus: &Corpus, queries: &[Query]) -> Result<(), String> {
    let paths: std::collections::HashSet<&str> =
        corpus.files.iter().map(|file| file.path.as_str()).collect();
    for query in queries {
        if query.gold.is_empty() {
            return Err(format!("query {} has no gold document", query.id));
        }
        for (id, _) in &query.gold {
            let doc = corpus
                .doc(id)
                .ok_or_else(|| format!("gold {id} of {} is not a document", query.id))?;
            let file = match doc.scope {
                "memory" if id.starts_with("jsonl:") => continue,
                "sessions" => id.strip_prefix("sessions/").unwrap_or(id),
                _ => id.as_str(),
            };
            if !paths.contains(file) {
                return Err(format!("gold {id} of {} has no file", query.id));
            }
        }
    }
    Ok(())
}

fn measure(
    corpus: &Corpus,
    queries: &[Query],
    aios: &Path,
    dotaios: &Path,
    dotaios_mcp: &Path,
) -> Result<Outcome, String> {
    let mut notes = Vec::new();
    let start = Instant::now();
    let control_corpus = controls::ControlCorpus::load(aios)?;
    let bm25 = controls::Bm25::new(&control_corpus, false);
    let snowball = controls::Bm25::new(&control_corpus, true);
    let index_ms = start.elapsed().as_secs_f64() * 1_000.0;
    let rg = controls::ripgrep();
    if rg.is_none() {
        notes.push("rg is not on PATH: the rg control was skipped".to_owned());
    }

    let mut runs = Vec::new();
    eprintln!("search_aios over dotaios-mcp: {} queries …", queries.len());
    let mut mcp = systems::Mcp::start(dotaios_mcp, aios)?;
    let mut answers = Vec::new();
    for query in queries {
        answers.push(mcp.search(corpus, query.text)?);
    }
    mcp.finish();
    runs.push((System::Mcp, answers));

    eprintln!("dotaios search: {} queries …", queries.len());
    let names = systems::CliNames::new(corpus);
    let mut answers = Vec::new();
    for query in queries {
        answers.push(systems::cli_search(dotaios, aios, &names, query.text)?);
    }
    runs.push((System::Cli, answers));

    eprintln!("controls …");
    for (system, index) in [(System::Bm25, &bm25), (System::Snowball, &snowball)] {
        let answers = queries
            .iter()
            .map(|query| {
                let start = Instant::now();
                let ranked = index.search(query.text, CONTROL_LIMIT);
                systems::Answer {
                    ranked,
                    ns: crate::timing::elapsed_ns(start),
                    ..systems::Answer::default()
                }
            })
            .collect();
        runs.push((system, answers));
    }
    if let Some(rg) = rg {
        let mut answers = Vec::new();
        for query in queries {
            let start = Instant::now();
            let ranked = controls::rg_search(&rg, &control_corpus, query.text, CONTROL_LIMIT)?;
            answers.push(systems::Answer {
                ranked,
                ns: crate::timing::elapsed_ns(start),
                ..systems::Answer::default()
            });
        }
        runs.push((System::Rg, answers));
    }
    let runs = runs
        .into_iter()
        .map(|(system, answers): (System, Vec<systems::Answer>)| {
            let unmapped: usize = answers.iter().map(|answer| answer.unmapped).sum();
            if unmapped > 0 {
                notes.push(format!(
                    "{}: {unmapped} result(s) matched no corpus document",
                    system.id()
                ));
            }
            let scores = answers
                .iter()
                .zip(queries)
                .map(|(answer, query)| metrics::score(query, &answer.ranked))
                .collect();
            Run {
                system,
                answers,
                scores,
            }
        })
        .collect();
    Ok(Outcome {
        runs,
        notes,
        index_ms,
        control_docs: control_corpus.len(),
    })
}

/// One of issue 22's targets, evaluated on this run.
struct Target {
    id: &'static str,
    text: String,
    pass: bool,
}

fn targets(outcome: &Outcome, queries: &[Query]) -> Vec<Target> {
    let find = |system: System| outcome.runs.iter().find(|run| run.system == system);
    let (Some(mcp), Some(snowball)) = (find(System::Mcp), find(System::Snowball)) else {
        return Vec::new();
    };
    let all = mcp.summary(queries, None);
    let control = snowball.summary(queries, None);
    let question = mcp.summary(queries, Some(Kind::Question));
    let paraphrase = mcp.summary(queries, Some(Kind::Paraphrase));
    vec![
        Target {
            id: "mrr",
            text: format!("search_aios MRR@10 {:.3} ≥ 0.95", all.mrr10),
            pass: all.mrr10 >= 0.95,
        },
        Target {
            id: "ndcg-over-snowball",
            text: format!(
                "search_aios nDCG@10 {:.3} > BM25 + Snowball {:.3}",
                all.ndcg10, control.ndcg10
            ),
            pass: all.ndcg10 > control.ndcg10,
        },
        Target {
            id: "question-mrr",
            text: format!("search_aios question MRR@10 {:.3} ≥ 0.90", question.mrr10),
            pass: question.mrr10 >= 0.90,
        },
        Target {
            id: "paraphrase-mrr",
            text: format!(
                "search_aios paraphrase MRR@10 {:.3} ≥ 0.90",
                paraphrase.mrr10
            ),
            pass: paraphrase.mrr10 >= 0.90,
        },
    ]
}

fn fixed(value: f64) -> String {
    format!("{value:.3}")
}

fn tables(outcome: &Outcome, queries: &[Query], targets: &[Target]) -> String {
    let mut out = String::from(
        "| system | MRR@10 | R@5 | R@10 | nDCG@10 | zero-result | median ms |\n\
         |---|---:|---:|---:|---:|---:|---:|\n",
    );
    for run in &outcome.runs {
        let s = run.summary(queries, None);
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} |\n",
            run.system.name(),
            fixed(s.mrr10),
            fixed(s.recall5),
            fixed(s.recall10),
            fixed(s.ndcg10),
            fixed(s.zero_rate),
            run.median_ms()
                .map_or_else(|| "—".to_owned(), |ms| format!("{ms:.2}")),
        ));
    }
    for (metric, pick) in [
        ("MRR@10", (|s: &Summary| s.mrr10) as fn(&Summary) -> f64),
        ("nDCG@10", |s: &Summary| s.ndcg10),
    ] {
        out.push_str(&format!("\n{metric} by query kind:\n\n| kind | n |"));
        for run in &outcome.runs {
            out.push_str(&format!(" {} |", run.system.id()));
        }
        out.push_str("\n|---|---:|");
        for _ in &outcome.runs {
            out.push_str("---:|");
        }
        out.push('\n');
        for kind in Kind::ALL {
            let n = queries.iter().filter(|query| query.kind == kind).count();
            if n == 0 {
                continue;
            }
            out.push_str(&format!("| {} | {n} |", kind.name()));
            for run in &outcome.runs {
                out.push_str(&format!(
                    " {} |",
                    fixed(pick(&run.summary(queries, Some(kind))))
                ));
            }
            out.push('\n');
        }
    }
    out.push_str(&format!(
        "\nResults per answer (limit {ANSWER_LIMIT}):\n\n| system | mean | holding {ANSWER_LIMIT} | cut by the budget |\n|---|---:|---:|---:|\n"
    ));
    for run in outcome.runs.iter().filter(|run| run.system.is_product()) {
        let sizes = run.sizes(ANSWER_LIMIT);
        let truncated = run.answers.iter().filter(|answer| answer.truncated).count();
        out.push_str(&format!(
            "| {} | {:.2} | {} of {} ({:.3}) | {} |\n",
            run.system.name(),
            sizes.mean,
            sizes.holding_limit,
            sizes.answers,
            share(sizes.holding_limit, sizes.answers),
            if run.system == System::Mcp {
                truncated.to_string()
            } else {
                "—".to_owned()
            },
        ));
    }
    if !targets.is_empty() {
        out.push_str("\nTargets (issue 22):\n\n");
        for target in targets {
            let mark = if target.pass { "pass" } else { "miss" };
            out.push_str(&format!("- {mark}: {}\n", target.text));
        }
    }
    for note in &outcome.notes {
        out.push_str(&format!("\nNote: {note}\n"));
    }
    out
}

fn share(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}

fn sizes_value(sizes: &Sizes) -> Value {
    json!({
        "limit": sizes.limit,
        "mean": sizes.mean,
        "holdingLimit": sizes.holding_limit,
        "holdingLimitShare": share(sizes.holding_limit, sizes.answers),
    })
}

fn summary_value(summary: &Summary) -> Value {
    json!({
        "queries": summary.queries,
        "mrr10": summary.mrr10,
        "recall5": summary.recall5,
        "recall10": summary.recall10,
        "ndcg10": summary.ndcg10,
        "zeroResultRate": summary.zero_rate,
    })
}

#[expect(
    clippy::too_many_arguments,
    reason = "one report row takes every table of the run"
)]
fn report_value(
    corpus: &Corpus,
    queries: &[Query],
    outcome: &Outcome,
    targets: &[Target],
    seed: &str,
    anchor_day: i64,
    tiny: bool,
    environment: Value,
) -> Value {
    let mut by_scope: BTreeMap<&str, usize> = BTreeMap::new();
    for doc in &corpus.docs {
        *by_scope.entry(doc.scope).or_default() += 1;
    }
    let mut kinds: BTreeMap<&str, usize> = BTreeMap::new();
    for query in queries {
        *kinds.entry(query.kind.name()).or_default() += 1;
    }
    let systems: Vec<Value> = outcome
        .runs
        .iter()
        .map(|run| {
            let mut by_kind = Map::new();
            for kind in Kind::ALL {
                let summary = run.summary(queries, Some(kind));
                if summary.queries > 0 {
                    by_kind.insert(kind.name().into(), summary_value(&summary));
                }
            }
            json!({
                "id": run.system.id(),
                "name": run.system.name(),
                "overall": summary_value(&run.summary(queries, None)),
                "medianLatencyMs": run.median_ms(),
                "byKind": by_kind,
                "unmappedResults": run.answers.iter().map(|answer| answer.unmapped).sum::<usize>(),
                "budgetTruncatedAnswers": run.answers.iter().filter(|answer| answer.truncated).count(),
                "resultsPerAnswer": run.system.is_product().then(|| sizes_value(&run.sizes(ANSWER_LIMIT))),
            })
        })
        .collect();
    let per_query: Vec<Value> = queries
        .iter()
        .enumerate()
        .map(|(index, query)| {
            let mut answers = Map::new();
            for run in &outcome.runs {
                let answer = &run.answers[index];
                let scores = &run.scores[index];
                answers.insert(
                    run.system.id().into(),
                    json!({
                        "top10": answer.ranked.iter().take(10).collect::<Vec<_>>(),
                        "mrr10": scores.mrr10,
                        "recall10": scores.recall10,
                        "ndcg10": scores.ndcg10,
                        "ms": answer.ns as f64 / 1_000_000.0,
                    }),
                );
            }
            json!({
                "id": query.id,
                "kind": query.kind.name(),
                "query": query.text,
                "gold": query.gold.len(),
                "answers": answers,
            })
        })
        .collect();
    json!({
        "kind": "dotaios-bench quality",
        "generator": "dotaios-quality-v1",
        "seed": seed,
        "anchor": corpus::iso(anchor_day * 86_400)[..10],
        "tiny": tiny,
        "environment": environment,
        "corpus": {
            "digest": corpus.digest(),
            "files": corpus.files.len(),
            "documentsByScope": by_scope,
            "topics": topics::TOPICS.len(),
            "knownItems": topics::ITEMS.len(),
            "controlDocuments": outcome.control_docs,
            "controlIndexMs": outcome.index_ms,
        },
        "queriesByKind": kinds,
        "systems": systems,
        "targets": targets.iter().map(|target| json!({"id": target.id, "text": target.text, "pass": target.pass})).collect::<Vec<_>>(),
        "notes": outcome.notes,
        "queries": per_query,
    })
}
