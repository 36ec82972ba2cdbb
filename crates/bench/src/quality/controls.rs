//! The quality controls of contract 07 §7.4, written independently of the product: none of
//! the product's reader, matcher or ranker is used.
//!
//! - The control corpus: the generated folder read with `std::fs` alone: every Markdown file of
//!   the scopes that Shared `all` searches is one document, every memory JSONL entry is one
//!   (its string values), every session is one (index title and body).
//! - `bm25`: Okapi BM25 (k1 = 1.2, b = 0.75) over one field, tokens = lowercased runs of
//!   letters and digits, CJK runs as character bigrams; no stemming, no stop words.
//! - `bm25+snowball`: the same with every non-CJK token through the English Snowball stemmer
//!   (`rust-stemmers`).
//! - `rg`: `rg -F -i -n` of the whole query in the folder, documents ordered by their number of
//!   matching lines, then by id.
//!
//! A control is a yardstick, not a product: it never decides what the product does.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use rust_stemmers::{Algorithm, Stemmer};
use serde_json::Value;

/// One searchable document of the control corpus.
struct ControlDoc {
    id: String,
    text: String,
}

/// The folder's documents as the controls see them.
pub(crate) struct ControlCorpus {
    root: PathBuf,
    docs: Vec<ControlDoc>,
    /// `(relative file, 1-based line)` → document id, for JSONL lines found by `rg`.
    lines: HashMap<(String, usize), String>,
    /// Session body file → session document id.
    bodies: HashMap<String, String>,
}

/// The Markdown roots of Shared `all` (contract 03 §2.2, §2.4), relative to the folder.
const MARKDOWN_ROOTS: [&str; 8] = [
    "context",
    "memory/daily",
    "memory/inbox",
    "vault",
    "decisions",
    "skills",
    "references",
    "plugins",
];

impl ControlCorpus {
    pub(crate) fn load(root: &Path) -> Result<ControlCorpus, String> {
        let mut corpus = ControlCorpus {
            root: root.to_path_buf(),
            docs: Vec::new(),
            lines: HashMap::new(),
            bodies: HashMap::new(),
        };
        for base in MARKDOWN_ROOTS {
            let mut files = Vec::new();
            markdown_files(&root.join(base), base, &mut files)?;
            files.sort();
            for relative in files {
                let text = read(&root.join(&relative))?;
                corpus.docs.push(ControlDoc { id: relative, text });
            }
        }
        let mut jsonl = vec!["memory/events.jsonl".to_owned()];
        let signals = root.join("memory/signals");
        if signals.is_dir() {
            let mut names: Vec<String> = read_dir(&signals)?
                .into_iter()
                .filter(|name| name.ends_with(".jsonl") && !name.starts_with('.'))
                .collect();
            names.sort();
            jsonl.extend(
                names
                    .into_iter()
                    .map(|name| format!("memory/signals/{name}")),
            );
        }
        for relative in jsonl {
            let path = root.join(&relative);
            if !path.exists() {
                continue;
            }
            for (number, line) in read(&path)?.lines().enumerate() {
                let Ok(entry) = serde_json::from_str::<Value>(line) else {
                    continue;
                };
                let id = match entry["record_id"].as_str() {
                    Some(record) => format!("jsonl:{record}"),
                    None => format!("jsonl:{relative}:{}", number + 1),
                };
                let mut text = String::new();
                string_values(&entry, &mut text);
                corpus
                    .lines
                    .insert((relative.clone(), number + 1), id.clone());
                corpus.docs.push(ControlDoc { id, text });
            }
        }
        let index = root.join("memory/sessions/index.jsonl");
        if index.exists() {
            for (number, line) in read(&index)?.lines().enumerate() {
                let Ok(entry) = serde_json::from_str::<Value>(line) else {
                    continue;
                };
                let Some(path) = entry["path"].as_str() else {
                    continue;
                };
                let id = format!("sessions/{path}");
                let body = read(&root.join(path)).unwrap_or_default();
                let title = entry["title"].as_str().unwrap_or_default();
                let text = format!("{title}\n{body}");
                corpus.lines.insert(
                    ("memory/sessions/index.jsonl".to_owned(), number + 1),
                    id.clone(),
                );
                corpus.bodies.insert(path.to_owned(), id.clone());
                corpus.docs.push(ControlDoc { id, text });
            }
        }
        Ok(corpus)
    }

    pub(crate) fn len(&self) -> usize {
        self.docs.len()
    }
}

fn read(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path)
        .map_err(|error| format!("cannot read {}: {error}", path.display()))
}

fn read_dir(dir: &Path) -> Result<Vec<String>, String> {
    let entries = std::fs::read_dir(dir)
        .map_err(|error| format!("cannot list {}: {error}", dir.display()))?;
    Ok(entries
        .filter_map(Result::ok)
        .filter_map(|entry| entry.file_name().into_string().ok())
        .collect())
}

fn markdown_files(dir: &Path, relative: &str, out: &mut Vec<String>) -> Result<(), String> {
    if !dir.is_dir() {
        return Ok(());
    }
    for name in read_dir(dir)? {
        if name.starts_with('.') {
            continue;
        }
        let path = dir.join(&name);
        let child = format!("{relative}/{name}");
        if path.is_dir() {
            markdown_files(&path, &child, out)?;
        } else if name.to_ascii_lowercase().ends_with(".md") {
            out.push(child);
        }
    }
    Ok(())
}

fn string_values(value: &Value, out: &mut String) {
    match value {
        Value::String(text) => {
            out.push_str(text);
            out.push('\n');
        }
        Value::Array(items) => items.iter().for_each(|item| string_values(item, out)),
        Value::Object(map) => map.values().for_each(|item| string_values(item, out)),
        _ => {}
    }
}

fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xAC00..=0xD7AF | 0xF900..=0xFAFF)
}

/// Lowercased runs of letters and digits; a run of CJK characters becomes its bigrams (a lone
/// CJK character stays a unigram).
pub(crate) fn tokens(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut cjk: Vec<char> = Vec::new();
    let flush_cjk = |cjk: &mut Vec<char>, out: &mut Vec<String>| {
        match cjk.len() {
            0 => {}
            1 => out.push(cjk[0].to_string()),
            _ => out.extend(cjk.windows(2).map(|pair| pair.iter().collect())),
        }
        cjk.clear();
    };
    for c in text.chars() {
        if is_cjk(c) {
            if !word.is_empty() {
                out.push(std::mem::take(&mut word));
            }
            cjk.push(c);
        } else if c.is_alphanumeric() {
            flush_cjk(&mut cjk, &mut out);
            word.extend(c.to_lowercase());
        } else {
            flush_cjk(&mut cjk, &mut out);
            if !word.is_empty() {
                out.push(std::mem::take(&mut word));
            }
        }
    }
    flush_cjk(&mut cjk, &mut out);
    if !word.is_empty() {
        out.push(word);
    }
    out
}

/// A BM25 index of the control corpus, with or without stemming.
pub(crate) struct Bm25 {
    stemmer: Option<Stemmer>,
    ids: Vec<String>,
    lengths: Vec<f64>,
    average: f64,
    /// term → (document index, term frequency).
    postings: HashMap<String, Vec<(usize, u32)>>,
}

const K1: f64 = 1.2;
const B: f64 = 0.75;

impl Bm25 {
    pub(crate) fn new(corpus: &ControlCorpus, stemmed: bool) -> Bm25 {
        let stemmer = stemmed.then(|| Stemmer::create(Algorithm::English));
        let mut index = Bm25 {
            stemmer,
            ids: Vec::new(),
            lengths: Vec::new(),
            average: 0.0,
            postings: HashMap::new(),
        };
        for (number, doc) in corpus.docs.iter().enumerate() {
            let terms = index.terms(&doc.text);
            let mut counts: HashMap<String, u32> = HashMap::new();
            for term in &terms {
                *counts.entry(term.clone()).or_default() += 1;
            }
            for (term, count) in counts {
                index
                    .postings
                    .entry(term)
                    .or_default()
                    .push((number, count));
            }
            index.ids.push(doc.id.clone());
            index.lengths.push(terms.len() as f64);
        }
        let total: f64 = index.lengths.iter().sum();
        index.average = if index.ids.is_empty() {
            1.0
        } else {
            (total / index.ids.len() as f64).max(1.0)
        };
        index
    }

    fn terms(&self, text: &str) -> Vec<String> {
        let tokens = tokens(text);
        match &self.stemmer {
            None => tokens,
            Some(stemmer) => tokens
                .into_iter()
                .map(|token| {
                    if token.chars().any(is_cjk) {
                        token
                    } else {
                        stemmer.stem(&token).into_owned()
                    }
                })
                .collect(),
        }
    }

    /// The best `limit` document ids for `query`, by score, then id.
    pub(crate) fn search(&self, query: &str, limit: usize) -> Vec<String> {
        let mut terms = self.terms(query);
        terms.sort();
        terms.dedup();
        let n = self.ids.len() as f64;
        let mut scores: HashMap<usize, f64> = HashMap::new();
        for term in &terms {
            let Some(postings) = self.postings.get(term) else {
                continue;
            };
            let df = postings.len() as f64;
            let idf = (1.0 + (n - df + 0.5) / (df + 0.5)).ln();
            for &(doc, tf) in postings {
                let tf = f64::from(tf);
                let norm = K1 * (1.0 - B + B * self.lengths[doc] / self.average);
                *scores.entry(doc).or_default() += idf * tf * (K1 + 1.0) / (tf + norm);
            }
        }
        let mut ranked: Vec<(usize, f64)> = scores.into_iter().collect();
        ranked.sort_by(|a, b| {
            b.1.total_cmp(&a.1)
                .then_with(|| self.ids[a.0].cmp(&self.ids[b.0]))
        });
        ranked
            .into_iter()
            .take(limit)
            .map(|(doc, _)| self.ids[doc].clone())
            .collect()
    }
}

/// `rg` on PATH, or `None`.
pub(crate) fn ripgrep() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join("rg"))
        .find(|candidate| candidate.is_file())
}

/// `rg -F -i -n` of the whole query: documents by number of matching lines, then id.
pub(crate) fn rg_search(
    rg: &Path,
    corpus: &ControlCorpus,
    query: &str,
    limit: usize,
) -> Result<Vec<String>, String> {
    let output = Command::new(rg)
        .args([
            "-F",
            "-i",
            "-n",
            "--no-heading",
            "--with-filename",
            "--no-messages",
            "-e",
        ])
        .arg(query)
        .arg(".")
        .current_dir(&corpus.root)
        .output()
        .map_err(|error| format!("cannot run rg: {error}"))?;
    match output.status.code() {
        Some(0) => {}
        Some(1) => return Ok(Vec::new()),
        other => return Err(format!("rg exited with {other:?}")),
    }
    let known: std::collections::HashSet<&str> =
        corpus.docs.iter().map(|doc| doc.id.as_str()).collect();
    let mut counts: HashMap<String, usize> = HashMap::new();
    for line in String::from_utf8_lossy(&output.stdout).lines() {
        let mut parts = line.splitn(3, ':');
        let (Some(file), Some(number)) = (parts.next(), parts.next()) else {
            continue;
        };
        let file = file.strip_prefix("./").unwrap_or(file);
        let Ok(number) = number.parse::<usize>() else {
            continue;
        };
        let id = if let Some(id) = corpus.lines.get(&(file.to_owned(), number)) {
            id.clone()
        } else if let Some(id) = corpus.bodies.get(file) {
            id.clone()
        } else if known.contains(file) {
            file.to_owned()
        } else {
            continue;
        };
        *counts.entry(id).or_default() += 1;
    }
    let mut ranked: Vec<(String, usize)> = counts.into_iter().collect();
    ranked.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    Ok(ranked.into_iter().take(limit).map(|(id, _)| id).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_split_words_and_pair_cjk() {
        assert_eq!(
            tokens("API-key Rotation, v2.14"),
            ["api", "key", "rotation", "v2", "14"]
        );
        assert_eq!(
            tokens("東京オフィス移転 ok"),
            ["東京", "京オ", "オフ", "フィ", "ィス", "ス移", "移転", "ok"]
        );
        assert_eq!(tokens("Jürgen"), ["jürgen"]);
        assert_eq!(tokens("a 春 b"), ["a", "春", "b"]);
    }

    #[test]
    fn bm25_prefers_the_rare_term_and_the_stemmer_joins_forms() {
        let temp = tempfile::tempdir().unwrap();
        let root = temp.path();
        std::fs::create_dir_all(root.join("vault")).unwrap();
        std::fs::write(root.join("vault/a.md"), "the rotation of api keys").unwrap();
        std::fs::write(root.join("vault/b.md"), "the the the keys").unwrap();
        std::fs::write(root.join("vault/c.md"), "we are rotating things").unwrap();
        let corpus = ControlCorpus::load(root).unwrap();
        assert_eq!(corpus.len(), 3);
        let plain = Bm25::new(&corpus, false);
        assert_eq!(
            plain.search("rotation keys", 10),
            ["vault/a.md", "vault/b.md"]
        );
        assert!(plain.search("rotate", 10).is_empty());
        let stemmed = Bm25::new(&corpus, true);
        // "rotation" and "rotating" both stem to "rotat"; the shorter document ranks first.
        assert_eq!(stemmed.search("rotate", 10), ["vault/c.md", "vault/a.md"]);
    }
}
