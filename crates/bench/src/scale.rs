//! `dotaios-bench scale` (contract 07 §10, issue 37): the large-folder goals of `search_aios`.
//! It generates (seeded, deterministic) a vault of English-prose-like notes in nested folders,
//! about 200 MB at 45,000 notes, then in one interleaved run measures the raw-read and
//! safe-enumerate controls, the first `search_aios` call of fresh servers, repeated calls, the
//! servers' peak RSS and whether an edit made between two calls is seen by the second; it
//! prints a Markdown table and writes a JSON report with each goal's pass or fail beside the
//! controls.
//!
//! It owns the scale corpus (`dotaios-scale-v1`), its receipt and the goals' verdicts. It never
//! writes outside `--out`, never runs on a folder whose receipt it did not write (the edit
//! check appends to a note and restores it), and asserts no timing in `cargo test`.

use std::ffi::OsString;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant, SystemTime};

use dotaios_mcp::client::Client;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::corpus::{AIOS_JSON, Mulberry32, hex, set_fixed_time, write_file};
use crate::flag_value;
use crate::mcp_server::{initialized_server, server_peak};
use crate::measure::{raw_counts, vault_notes};
use crate::quality::prose::{THEMES, THINGS};
use crate::timing::elapsed_ns;

/// The corpus's name, part of every note's seed text and of the receipt.
const GENERATOR: &str = "dotaios-scale-v1";
/// The receipt `scale` writes beside the AIOS folder, and requires before it runs again.
const RECEIPT: &str = "scale-receipt.json";
const DEFAULT_NOTES: usize = 45_000;
const DEFAULT_SEED: u64 = 37;
/// More notes than this would pass the ledger's file count (contract 03 §13: 50,000).
const MAX_NOTES: usize = 49_000;
/// A note's body is at least this long and at most this much longer: about 4.4 KB on
/// average, about 200 MB at 45,000 notes, every note far under the 4 MiB per-file cap.
const BODY_MIN: usize = 1_200;
const BODY_SPREAD: usize = 6_500;
/// One note in this many holds the rare word.
const RARE_EVERY: usize = 5_000;
const RARE_WORD: &str = "quillwort";

/// The queries of the repeated calls: (id, text).
const QUERIES: [(&str, &str); 4] = [
    ("common", "next week"),
    ("common-2", "notes time"),
    ("rare", RARE_WORD),
    ("no-hit", "zqxj-unfindable-scale"),
];
/// The result limit every call asks for (`search_aios`'s default), and the largest budget, so
/// that the common queries' answers are not cut (contract 03 §16.3).
const LIMIT: usize = 10;
const BUDGET: usize = 32_000;
/// Fresh servers whose first call is timed.
const FIRST_CALLS: usize = 3;
/// Rounds of repeated calls: the first `WARMUP` are discarded.
const ROUNDS: usize = 12;
const WARMUP: usize = 2;
/// How long one answer may take (a first call over 200 MB included).
const ANSWER_DEADLINE: Duration = Duration::from_secs(300);
const MAX_LINE_BYTES: u64 = 16 * 1024 * 1024;
const MCP_VERSION: &str = "2025-06-18";

/// Issue 37's goals.
const GOAL_REPEAT_P95_MS: f64 = 50.0;
const GOAL_FIRST_RATIO: f64 = 4.0;
const GOAL_RSS_BYTES: u64 = 128 * 1024 * 1024;

const USAGE: &str = "\
Usage: dotaios-bench scale --out <DIR> --report <FILE> [--notes <N>] [--seed <N>]
                           [--dotaios-mcp <PATH>]
  Generates (or reuses, when its receipt matches) a seeded vault of N prose notes (default
  45,000, about 200 MB) under <DIR>/aios, then measures raw-read, the first search_aios call
  of fresh servers, repeated calls, the servers' peak RSS and an edit check against issue 37's
  goals. Writes only inside <DIR>; the report file must not exist.
";

#[derive(Debug)]
struct Options {
    out: PathBuf,
    report: PathBuf,
    notes: usize,
    seed: u64,
    dotaios_mcp: PathBuf,
}

fn parse(args: &[OsString]) -> Result<Options, String> {
    let (mut out, mut report, mut dotaios_mcp) = (None, None, None);
    let (mut notes, mut seed) = (DEFAULT_NOTES, DEFAULT_SEED);
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        match arg.to_str() {
            Some("--out") => out = Some(PathBuf::from(flag_value(&mut iter, "--out")?)),
            Some("--report") => report = Some(PathBuf::from(flag_value(&mut iter, "--report")?)),
            Some("--dotaios-mcp") => {
                dotaios_mcp = Some(PathBuf::from(flag_value(&mut iter, "--dotaios-mcp")?));
            }
            Some("--notes") => {
                notes = number(flag_value(&mut iter, "--notes")?, "--notes")?;
                if notes == 0 || notes > MAX_NOTES {
                    return Err(format!("--notes must be between 1 and {MAX_NOTES}"));
                }
            }
            Some("--seed") => seed = number(flag_value(&mut iter, "--seed")?, "--seed")?,
            _ => return Err(format!("unknown argument: {}", arg.to_string_lossy())),
        }
    }
    Ok(Options {
        out: out.ok_or("scale requires --out <DIR>")?,
        report: report.ok_or("scale requires --report <FILE>")?,
        notes,
        seed,
        dotaios_mcp: dotaios_mcp.unwrap_or_else(|| crate::sibling("dotaios-mcp")),
    })
}

fn number<T: std::str::FromStr>(value: &OsString, name: &str) -> Result<T, String> {
    value
        .to_str()
        .and_then(|text| text.parse().ok())
        .ok_or_else(|| format!("{name} requires a whole number"))
}

/// `dotaios-bench scale …`: 0 when every goal passes, 3 when a goal fails, 1 on an error.
pub(crate) fn run(args: &[OsString]) -> ExitCode {
    let options = match parse(args) {
        Ok(options) => options,
        Err(message) => {
            eprintln!("{message}");
            eprint!("{USAGE}");
            return ExitCode::from(1);
        }
    };
    match measure(&options) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(3),
        Err(message) => {
            eprintln!("{message}");
            ExitCode::from(1)
        }
    }
}

// ----- the corpus --------------------------------------------------------------------------

/// The vault-relative path of note `index`: `<theme>/<year>/<month>/note-NNNNN.md`, ten themes,
/// eight years and twelve months, so about 47 notes a folder at 45,000 notes.
fn note_path(index: usize) -> String {
    let theme = THEMES[index % THEMES.len()].folder;
    let group = index / THEMES.len();
    format!(
        "{theme}/{}/{:02}/note-{index:05}.md",
        2019 + group % 8,
        1 + (group / 8) % 12
    )
}

/// The text of note `index` under `seed`: a pure function of both (one generator per note,
/// seeded from its seed text, as contract 07 §1.3 does).
fn note_content(seed: u64, index: usize) -> String {
    let mut random = Mulberry32::from_seed_text(&format!("{GENERATOR}:{seed}:{index}"));
    let mut pick = |len: usize| ((random.next() * len as f64) as usize).min(len - 1);
    let theme = &THEMES[index % THEMES.len()];
    let target = BODY_MIN + pick(BODY_SPREAD);
    let mut text = String::with_capacity(target + 256);
    let title = theme.titles[pick(theme.titles.len())]
        .replace("{n}", &(1 + index / THEMES.len()).to_string())
        .replace("{w}", theme.words[pick(theme.words.len())]);
    if index.is_multiple_of(3) {
        text.push_str(&format!(
            "---\ntitle: \"{}\"\ntags: [{}]\n---\n",
            title.replace('"', "'"),
            theme.folder
        ));
    }
    text.push_str(&format!("# {title}\n\n"));
    if index % RARE_EVERY == RARE_EVERY / 2 {
        text.push_str(&format!("Found a {RARE_WORD} by the path today.\n\n"));
    }
    while text.len() < target {
        match pick(8) {
            0 => {
                text.push_str(theme.headings[pick(theme.headings.len())]);
                text.push_str("\n\n");
            }
            1 => {
                text.push_str(&format!("- Check {}.\n\n", THINGS[pick(THINGS.len())]));
            }
            _ => {
                // A paragraph of three to six sentences, one in five from another theme.
                for _ in 0..3 + pick(4) {
                    let from = if pick(5) == 0 {
                        &THEMES[pick(THEMES.len())]
                    } else {
                        theme
                    };
                    text.push_str(from.sentences[pick(from.sentences.len())]);
                    text.push(' ');
                }
                text.pop();
                text.push_str("\n\n");
            }
        }
    }
    text
}

/// What the receipt records: the corpus's identity and its totals.
#[derive(Debug, Clone, PartialEq)]
struct Receipt {
    notes: usize,
    seed: u64,
    bytes: u64,
    sha256: String,
}

impl Receipt {
    fn to_value(&self) -> Value {
        json!({
            "generator": GENERATOR,
            "notes": self.notes,
            "seed": self.seed,
            "bytes": self.bytes,
            "sha256": self.sha256,
        })
    }

    fn from_value(value: &Value) -> Option<Receipt> {
        if value["generator"] != GENERATOR {
            return None;
        }
        Some(Receipt {
            notes: usize::try_from(value["notes"].as_u64()?).ok()?,
            seed: value["seed"].as_u64()?,
            bytes: value["bytes"].as_u64()?,
            sha256: value["sha256"].as_str()?.to_owned(),
        })
    }
}

#[cfg(test)]
/// The digest of a corpus: SHA-256 over each note's path, length and text, in index order.
fn corpus_digest(seed: u64, notes: usize) -> (u64, String) {
    let mut hasher = Sha256::new();
    let mut bytes = 0;
    for index in 0..notes {
        let text = note_content(seed, index);
        hasher.update(note_path(index).as_bytes());
        hasher.update((text.len() as u64).to_be_bytes());
        hasher.update(text.as_bytes());
        bytes += text.len() as u64;
    }
    (bytes, hex(&hasher.finalize()))
}

/// Writes the corpus under `out` (which must be empty or absent), or reuses it when its
/// receipt matches; refuses any other folder. The AIOS folder.
fn prepare(out: &Path, notes: usize, seed: u64) -> Result<(PathBuf, Receipt), String> {
    crate::refuse_inside_repository(out)?;
    let aios = out.join("aios");
    let receipt_path = out.join(RECEIPT);
    if out.exists() {
        let empty = fs::read_dir(out)
            .map_err(|error| format!("cannot read {}: {error}", out.display()))?
            .next()
            .is_none();
        if !empty {
            let text = fs::read_to_string(&receipt_path).map_err(|_| {
                format!(
                    "{} is not empty and holds no {RECEIPT}: scale runs only on a folder it generated",
                    out.display()
                )
            })?;
            let found = serde_json::from_str::<Value>(&text)
                .ok()
                .as_ref()
                .and_then(Receipt::from_value)
                .ok_or_else(|| format!("{RECEIPT} in {} is not scale's", out.display()))?;
            if found.notes != notes || found.seed != seed {
                return Err(format!(
                    "{} holds {} notes of seed {}; choose another --out for {notes} notes of seed {seed}",
                    out.display(),
                    found.notes,
                    found.seed
                ));
            }
            check_on_disk(&aios, &found)?;
            eprintln!("reusing the corpus in {}", out.display());
            return Ok((aios, found));
        }
    }
    eprintln!("generating {notes} notes (seed {seed}) …");
    let vault = aios.join("vault");
    fs::create_dir_all(&vault).map_err(|error| format!("cannot create the vault: {error}"))?;
    write_file(&aios.join("aios.json"), AIOS_JSON.as_bytes())?;
    let mut hasher = Sha256::new();
    let mut bytes = 0;
    for index in 0..notes {
        let path = note_path(index);
        let text = note_content(seed, index);
        let full = vault.join(&path);
        if let Some(parent) = full.parent() {
            fs::create_dir_all(parent)
                .map_err(|error| format!("cannot create a vault folder: {error}"))?;
        }
        write_file(&full, text.as_bytes())?;
        hasher.update(path.as_bytes());
        hasher.update((text.len() as u64).to_be_bytes());
        hasher.update(text.as_bytes());
        bytes += text.len() as u64;
    }
    let receipt = Receipt {
        notes,
        seed,
        bytes,
        sha256: hex(&hasher.finalize()),
    };
    let text = serde_json::to_string_pretty(&receipt.to_value()).map_err(|e| e.to_string())?;
    fs::write(&receipt_path, text + "\n")
        .map_err(|error| format!("cannot write the receipt: {error}"))?;
    Ok((aios, receipt))
}

/// A reused corpus must still be the one its receipt describes: every note's bytes, in order.
fn check_on_disk(aios: &Path, receipt: &Receipt) -> Result<(), String> {
    let vault = aios.join("vault");
    let mut hasher = Sha256::new();
    let mut bytes = 0;
    for index in 0..receipt.notes {
        let path = note_path(index);
        let text = fs::read(vault.join(&path))
            .map_err(|_| format!("note {path} is missing; regenerate into an empty --out"))?;
        hasher.update(path.as_bytes());
        hasher.update((text.len() as u64).to_be_bytes());
        hasher.update(&text);
        bytes += text.len() as u64;
    }
    if bytes != receipt.bytes || hex(&hasher.finalize()) != receipt.sha256 {
        return Err(
            "the corpus on disk differs from its receipt; regenerate into an empty --out"
                .to_owned(),
        );
    }
    Ok(())
}

// ----- the measurement ---------------------------------------------------------------------

/// Percentile `p` (0–100) of `samples` by the nearest-rank rule, in milliseconds.
fn percentile_ms(samples: &[u64], p: f64) -> f64 {
    if samples.is_empty() {
        return f64::NAN;
    }
    let mut sorted = samples.to_vec();
    sorted.sort_unstable();
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1] as f64 / 1e6
}

/// The figures the goals are judged on.
#[derive(Debug, Clone, PartialEq)]
struct Figures {
    raw_read_p50_ms: f64,
    first_p50_ms: f64,
    /// Per query: (id, p50, p95) of the repeated calls, in ms.
    repeats: Vec<(String, f64, f64)>,
    peak_rss_bytes: u64,
    edit_seen: bool,
}

/// One goal's verdict.
#[derive(Debug, Clone, PartialEq)]
struct Goal {
    name: &'static str,
    value: String,
    bound: String,
    pass: bool,
}

/// Issue 37's goals against `figures`: repeated p95 of every query ≤ 50 ms, the first call's
/// median ≤ 4 × raw-read's median, peak RSS ≤ 128 MiB, the edit seen. A bound exactly met
/// passes; a missing figure (NaN) fails.
fn goals(figures: &Figures) -> Vec<Goal> {
    let worst_repeat =
        figures
            .repeats
            .iter()
            .map(|(_, _, p95)| *p95)
            .fold(f64::NAN, |worst, p95| {
                if p95 > worst || worst.is_nan() {
                    p95
                } else {
                    worst
                }
            });
    let ratio = figures.first_p50_ms / figures.raw_read_p50_ms;
    vec![
        Goal {
            name: "repeat p95",
            value: format!("{worst_repeat:.1} ms (worst query)"),
            bound: format!("≤ {GOAL_REPEAT_P95_MS} ms"),
            pass: worst_repeat <= GOAL_REPEAT_P95_MS,
        },
        Goal {
            name: "first call",
            value: format!(
                "{:.1} ms = {ratio:.2} × raw-read {:.1} ms",
                figures.first_p50_ms, figures.raw_read_p50_ms
            ),
            bound: format!("≤ {GOAL_FIRST_RATIO} × raw-read"),
            pass: ratio <= GOAL_FIRST_RATIO,
        },
        Goal {
            name: "peak RSS",
            value: format!("{:.1} MiB", figures.peak_rss_bytes as f64 / 1048576.0),
            bound: "≤ 128 MiB".to_owned(),
            pass: figures.peak_rss_bytes <= GOAL_RSS_BYTES,
        },
        Goal {
            name: "edit seen",
            value: if figures.edit_seen { "yes" } else { "no" }.to_owned(),
            bound: "the second call finds the appended word".to_owned(),
            pass: figures.edit_seen,
        },
    ]
}

/// One `search_aios` call: its time and its payload (the tool result's JSON text, parsed).
fn call(client: &mut Client, query: &str) -> Result<(u64, Value), String> {
    let (ns, payload) = crate::mcp_server::timed_search(
        client,
        json!({"query": query, "limit": LIMIT, "budget": BUDGET}),
        ANSWER_DEADLINE,
    )?;
    // Every answer must be whole: a scope omitted or a cut budget would time a smaller search.
    if payload["complete"] != Value::Bool(true)
        || payload["omissions"] != Value::Array(Vec::new())
        || payload["budget"]["truncated"] != Value::Bool(false)
    {
        return Err(format!(
            "search_aios {query:?} was not whole: complete {}, omissions {}, budget {}",
            payload["complete"], payload["omissions"], payload["budget"]
        ));
    }
    Ok((ns, payload))
}

fn sources(payload: &Value) -> Vec<String> {
    payload["results"]
        .as_array()
        .map(|items| {
            items
                .iter()
                .filter_map(|item| item["source"].as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

/// The hits an answer to query `id` must have on this corpus: some for the common words (the
/// limit at 1,000 notes and more), 1 to `notes / RARE_EVERY + 1` for the rare word, none for the
/// no-hit query.
fn plausible(id: &str, notes: usize, hits: usize) -> bool {
    match id {
        "common" | "common-2" => hits == LIMIT.min(notes) || (notes < 1_000 && hits > 0),
        "rare" => hits <= notes / RARE_EVERY + 1 && (notes <= RARE_EVERY / 2 || hits > 0),
        _ => hits == 0,
    }
}

fn start(binary: &Path, aios: &Path) -> Result<Client, String> {
    initialized_server(binary, aios, MCP_VERSION, MAX_LINE_BYTES, ANSWER_DEADLINE)
}

fn raw_read_ns(files: &[PathBuf], workers: usize, expected: (u64, u64)) -> Result<u64, String> {
    let begin = Instant::now();
    let counts = raw_counts(files, workers)?;
    let ns = elapsed_ns(begin);
    if counts != expected {
        return Err(format!("raw-read read {counts:?}, expected {expected:?}"));
    }
    Ok(ns)
}

/// The `safe-enumerate` floor (`crate::walk`): the listings and one stat a note that every
/// repeat must make while each request enumerates (contract 03 §19.2), checked like raw-read.
fn enumerate_ns(aios: &Path, workers: usize, expected: (u64, u64)) -> Result<u64, String> {
    let begin = Instant::now();
    let totals = crate::walk::read_vault(aios, workers, crate::walk::Pass::Enumerate)?;
    let ns = elapsed_ns(begin);
    if (totals.files, totals.bytes) != expected {
        return Err(format!(
            "safe-enumerate saw {:?}, expected {expected:?}",
            (totals.files, totals.bytes)
        ));
    }
    Ok(ns)
}

fn measure(options: &Options) -> Result<bool, String> {
    if !options.dotaios_mcp.is_file() {
        return Err(format!(
            "{} is not a file; pass --dotaios-mcp <PATH>",
            options.dotaios_mcp.display()
        ));
    }
    // Created before anything is timed, and never over an earlier report (contract 07 §0.1).
    let mut report = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&options.report)
        .map_err(|error| format!("cannot create {}: {error}", options.report.display()))?;
    let (aios, receipt) = prepare(&options.out, options.notes, options.seed)?;
    let load_before = load_average();
    let files = vault_notes(&aios.join("vault"))?;
    let expected = (receipt.notes as u64, receipt.bytes);
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get().min(32));
    // One untimed pass brings the folder into the OS cache: every figure is warm.
    raw_read_ns(&files, workers, expected)?;

    let mut raw = Vec::new();
    let mut firsts = Vec::new();
    let mut peak: u64 = 0;
    let (common_id, common_text) = QUERIES[0];
    for round in 0..FIRST_CALLS {
        eprintln!("first call {}/{FIRST_CALLS} …", round + 1);
        raw.push(raw_read_ns(&files, workers, expected)?);
        let mut client = start(&options.dotaios_mcp, &aios)?;
        let (ns, payload) = call(&mut client, common_text)?;
        if !plausible(common_id, receipt.notes, sources(&payload).len()) {
            return Err(format!(
                "first call: implausible hits {}",
                sources(&payload).len()
            ));
        }
        firsts.push(ns);
        peak = peak.max(server_peak(client)?);
    }

    // Repeated calls to one server, interleaved with raw-read by round; every repeat of a
    // query must answer exactly what its first answer said.
    let mut client = start(&options.dotaios_mcp, &aios)?;
    let mut answers: Vec<Option<Value>> = vec![None; QUERIES.len()];
    let mut repeats: Vec<Vec<u64>> = vec![Vec::new(); QUERIES.len()];
    let mut enumerate = Vec::new();
    for round in 0..ROUNDS {
        eprintln!("repeat round {}/{ROUNDS} …", round + 1);
        let raw_ns = raw_read_ns(&files, workers, expected)?;
        let enumerate_ns = enumerate_ns(&aios, workers, expected)?;
        for (slot, (id, text)) in QUERIES.iter().enumerate() {
            let (ns, payload) = call(&mut client, text)?;
            let hits = sources(&payload).len();
            if !plausible(id, receipt.notes, hits) {
                return Err(format!("query {id}: implausible hits {hits}"));
            }
            match &answers[slot] {
                None => answers[slot] = Some(payload),
                Some(first) if *first != payload => {
                    return Err(format!(
                        "query {id}: a repeated answer differs from the first"
                    ));
                }
                Some(_) => {}
            }
            if round >= WARMUP {
                repeats[slot].push(ns);
            }
        }
        if round >= WARMUP {
            raw.push(raw_ns);
            enumerate.push(enumerate_ns);
        }
    }

    let edit_seen = edit_check(&mut client, &aios, receipt.notes)?;
    peak = peak.max(server_peak(client)?);

    let figures = Figures {
        raw_read_p50_ms: percentile_ms(&raw, 50.0),
        first_p50_ms: percentile_ms(&firsts, 50.0),
        repeats: QUERIES
            .iter()
            .zip(&repeats)
            .map(|((id, _), samples)| {
                (
                    (*id).to_owned(),
                    percentile_ms(samples, 50.0),
                    percentile_ms(samples, 95.0),
                )
            })
            .collect(),
        peak_rss_bytes: peak,
        edit_seen,
    };
    let verdicts = goals(&figures);
    print_table(&receipt, &raw, &enumerate, &firsts, &figures, &verdicts);
    let mut value = report_value(options, &receipt, &raw, &firsts, &figures, &verdicts);
    value["safeEnumerate"] = json!({
        "samplesMs": enumerate.iter().map(|ns| *ns as f64 / 1e6).collect::<Vec<_>>(),
        "p50Ms": percentile_ms(&enumerate, 50.0),
        "p95Ms": percentile_ms(&enumerate, 95.0),
    });
    // The machine is shared: the load around the run says whether its times are comparable.
    value["loadAverage"] = json!({"before": load_before, "after": load_average()});
    let text = serde_json::to_string_pretty(&value).map_err(|e| e.to_string())?;
    report
        .write_all((text + "\n").as_bytes())
        .map_err(|error| format!("cannot write the report: {error}"))?;
    Ok(verdicts.iter().all(|goal| goal.pass))
}

/// The 1-, 5- and 15-minute load averages of `/proc/loadavg` (Linux; `None` elsewhere).
fn load_average() -> Option<String> {
    let text = fs::read_to_string("/proc/loadavg").ok()?;
    Some(
        text.split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" "),
    )
}

/// The edit check: a word no note holds is searched (no hit), appended to one note, searched
/// again on the same server (the note must be a hit), and the note restored byte for byte with
/// its fixed mtime. The appended word differs per run, so no earlier run can have cached it.
fn edit_check(client: &mut Client, aios: &Path, notes: usize) -> Result<bool, String> {
    let nanos = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |since| since.as_nanos());
    let word = format!("zqxedit{nanos}");
    let path = note_path(notes / 2);
    let full = aios.join("vault").join(&path);
    let (_, before) = call(client, &word)?;
    if !sources(&before).is_empty() {
        return Err(format!("the edit word {word} is already in the vault"));
    }
    let original =
        fs::read(&full).map_err(|error| format!("cannot read the edited note: {error}"))?;
    let appended = fs::OpenOptions::new()
        .append(true)
        .open(&full)
        .and_then(|mut file| file.write_all(format!("\nEdited: {word}.\n").as_bytes()));
    let after = appended
        .map_err(|error| format!("cannot append to the note: {error}"))
        .and_then(|()| call(client, &word));
    let restored = fs::write(&full, &original)
        .map_err(|error| format!("cannot restore the edited note: {error}"))
        .and_then(|()| {
            fs::File::options()
                .write(true)
                .open(&full)
                .map_err(|error| error.to_string())
                .and_then(|file| set_fixed_time(&file))
        });
    let (_, after) = after?;
    restored?;
    let seen = sources(&after).iter().any(|source| {
        source.ends_with(&path) || source.contains(&format!("note-{:05}", notes / 2))
    });
    Ok(seen)
}

fn print_table(
    receipt: &Receipt,
    raw: &[u64],
    enumerate: &[u64],
    firsts: &[u64],
    figures: &Figures,
    verdicts: &[Goal],
) {
    println!(
        "Corpus {GENERATOR}: {} notes, {:.1} MB, seed {}\n",
        receipt.notes,
        receipt.bytes as f64 / 1e6,
        receipt.seed
    );
    println!("| measure | samples | p50 ms | p95 ms |");
    println!("|---|---:|---:|---:|");
    println!(
        "| raw-read (control) | {} | {:.1} | {:.1} |",
        raw.len(),
        percentile_ms(raw, 50.0),
        percentile_ms(raw, 95.0)
    );
    println!(
        "| safe-enumerate (control: listings and one stat a note, a repeat's floor) | {} | {:.1} | {:.1} |",
        enumerate.len(),
        percentile_ms(enumerate, 50.0),
        percentile_ms(enumerate, 95.0)
    );
    println!(
        "| first search_aios call, fresh server | {} | {:.1} | {:.1} |",
        firsts.len(),
        percentile_ms(firsts, 50.0),
        percentile_ms(firsts, 95.0)
    );
    for ((id, p50, p95), (_, text)) in figures.repeats.iter().zip(QUERIES) {
        println!(
            "| repeated search_aios `{text}` ({id}) | {} | {p50:.1} | {p95:.1} |",
            ROUNDS - WARMUP
        );
    }
    println!("\n| goal | measured | bound | verdict |");
    println!("|---|---|---|---|");
    for goal in verdicts {
        println!(
            "| {} | {} | {} | {} |",
            goal.name,
            goal.value,
            goal.bound,
            if goal.pass { "pass" } else { "FAIL" }
        );
    }
}

fn report_value(
    options: &Options,
    receipt: &Receipt,
    raw: &[u64],
    firsts: &[u64],
    figures: &Figures,
    verdicts: &[Goal],
) -> Value {
    let ms = |samples: &[u64]| -> Vec<f64> { samples.iter().map(|ns| *ns as f64 / 1e6).collect() };
    json!({
        "benchmark": "dotaios-bench scale",
        "corpus": receipt.to_value(),
        "dotaiosMcp": options.dotaios_mcp.file_name().map(|name| name.to_string_lossy().into_owned()),
        "peakRssMeasure": if cfg!(target_os = "linux") { "VmHWM of /proc/<pid>/status" } else { "ru_maxrss of wait4" },
        "rawRead": {"samplesMs": ms(raw), "p50Ms": figures.raw_read_p50_ms, "p95Ms": percentile_ms(raw, 95.0)},
        "firstCall": {"query": QUERIES[0].1, "samplesMs": ms(firsts), "p50Ms": figures.first_p50_ms},
        "repeated": figures.repeats.iter().zip(QUERIES).map(|((id, p50, p95), (_, text))| json!({
            "id": id, "query": text, "p50Ms": p50, "p95Ms": p95,
        })).collect::<Vec<_>>(),
        "peakRssBytes": figures.peak_rss_bytes,
        "editSeen": figures.edit_seen,
        "goals": verdicts.iter().map(|goal| json!({
            "goal": goal.name, "measured": goal.value, "bound": goal.bound, "pass": goal.pass,
        })).collect::<Vec<_>>(),
        "verdict": if verdicts.iter().all(|goal| goal.pass) { "pass" } else { "goal_missed" },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_corpus_is_a_pure_function_of_seed_and_index() {
        for index in [0, 1, 2, 2_500, 44_999] {
            assert_eq!(note_content(37, index), note_content(37, index));
            assert_ne!(note_content(37, index), note_content(38, index));
            let size = note_content(37, index).len();
            assert!((BODY_MIN..BODY_MIN + BODY_SPREAD + 1_024).contains(&size));
        }
        assert_eq!(note_path(307), "learning/2025/04/note-00307.md");
        // The first 200 notes of seed 37, pinned: a change to the generator changes the
        // published figures' corpus, so it must be deliberate.
        assert_eq!(
            corpus_digest(37, 200),
            (
                877_666,
                "9f8c481734089ce914e3056685fb510bc11e878a55b4c2e6799df0975782b900".to_owned()
            ),
        );
        // The rare word is where the queries expect it, and nowhere else.
        let holding: Vec<usize> = (0..12_000)
            .filter(|index| note_content(37, *index).contains(RARE_WORD))
            .collect();
        assert_eq!(holding, vec![2_500, 7_500]);
    }

    fn figures() -> Figures {
        Figures {
            raw_read_p50_ms: 100.0,
            first_p50_ms: 400.0,
            repeats: vec![
                ("common".to_owned(), 20.0, 50.0),
                ("rare".to_owned(), 5.0, 9.0),
            ],
            peak_rss_bytes: GOAL_RSS_BYTES,
            edit_seen: true,
        }
    }

    #[test]
    fn a_goal_exactly_met_passes_and_one_past_it_fails() {
        assert!(goals(&figures()).iter().all(|goal| goal.pass));
        let verdict = |figures: &Figures, name: &str| {
            goals(figures)
                .into_iter()
                .find(|goal| goal.name == name)
                .unwrap()
                .pass
        };
        let mut slow = figures();
        slow.repeats[1].2 = 50.1;
        assert!(!verdict(&slow, "repeat p95"));
        let mut first = figures();
        first.first_p50_ms = 400.1;
        assert!(!verdict(&first, "first call"));
        let mut fat = figures();
        fat.peak_rss_bytes += 1;
        assert!(!verdict(&fat, "peak RSS"));
        let mut stale = figures();
        stale.edit_seen = false;
        assert!(!verdict(&stale, "edit seen"));
        let mut missing = figures();
        missing.repeats.clear();
        assert!(!verdict(&missing, "repeat p95"));
    }

    #[test]
    fn percentiles_take_the_nearest_rank() {
        let samples: Vec<u64> = (1..=20).map(|ms| ms * 1_000_000).collect();
        assert_eq!(percentile_ms(&samples, 50.0), 10.0);
        assert_eq!(percentile_ms(&samples, 95.0), 19.0);
        assert!(percentile_ms(&[], 50.0).is_nan());
    }

    #[test]
    fn scale_refuses_a_folder_it_did_not_generate() {
        let temp = tempfile::tempdir().unwrap();
        fs::write(temp.path().join("mine.md"), "x").unwrap();
        assert!(prepare(temp.path(), 10, 37).is_err());
        let out = temp.path().join("scale");
        let (aios, receipt) = prepare(&out, 10, 37).unwrap();
        assert_eq!(receipt.bytes, corpus_digest(37, 10).0);
        assert!(aios.join("aios.json").is_file());
        // Its own folder is reused; another seed, or a changed note, is refused.
        assert_eq!(prepare(&out, 10, 37).unwrap().1, receipt);
        assert!(prepare(&out, 10, 38).is_err());
        // A note changed in place, its length kept, is seen by the digest alone.
        let note = aios.join("vault").join(note_path(3));
        let length = fs::read(&note).unwrap().len();
        fs::write(&note, "x".repeat(length)).unwrap();
        assert!(prepare(&out, 10, 37).is_err());
    }
}
