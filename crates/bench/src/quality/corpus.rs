//! The seeded generator of the quality corpus (contract 07 §7.2): a whole AIOS folder (context
//! files as `init` writes them, bundled skills, vault notes, decisions, references, daily and
//! inbox notes, memory JSONL events and signals, sessions) with every document's gold labels
//! recorded as it is written.
//!
//! Deterministic: the bytes, paths and modification times are a function of the seed text and
//! the anchor day alone (one `Mulberry32` stream, the bench's own generator, drawn in a fixed
//! order). Every age is a whole number of days plus under an hour before the anchor's midnight
//! (UTC), so a run that starts on the anchor day sees the designed ages in whole-day buckets.
//! It never reads what any system returns.

use std::collections::{BTreeMap, HashSet};
use std::fs;
use std::path::Path;
use std::time::{Duration, SystemTime};

use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

use super::prose::{MEMORY_PATTERNS, PASSING, PEOPLE, THEMES, THINGS, Theme};
use super::topics::{Host, ITEMS, TOPICS, Topic};
use crate::corpus::Mulberry32;

/// What a document is relevant to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Label {
    Topic(usize),
    Item(usize),
}

/// One searchable document of the corpus and its gold labels.
#[derive(Debug, Clone)]
pub(crate) struct Doc {
    /// The identity a result maps to: the `source` a Markdown or session result carries, or
    /// `jsonl:<record_id>` for a memory entry.
    pub(crate) id: String,
    /// The scope the product searches it in.
    pub(crate) scope: &'static str,
    /// How the CLI's text output names it: the Markdown `file`, the JSONL item line without
    /// highlighting, or the session id.
    pub(crate) cli_key: String,
    pub(crate) labels: Vec<(Label, u8)>,
}

/// One file of the folder.
#[derive(Debug, Clone)]
pub(crate) struct GenFile {
    /// Relative to the AIOS folder, `/`-separated.
    pub(crate) path: String,
    pub(crate) bytes: Vec<u8>,
    /// Seconds since the epoch.
    pub(crate) mtime: i64,
}

/// How many background documents to write; topics, items and queries are always complete.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Scale {
    pub(crate) filler_notes: usize,
    pub(crate) filler_memory: usize,
    pub(crate) daily_days: usize,
    pub(crate) filler_sessions: usize,
    pub(crate) references: usize,
    pub(crate) inbox: usize,
}

/// The harness's corpus: about 1,670 notes and sessions and 500 memory entries.
pub(crate) const FULL: Scale = Scale {
    filler_notes: 1_250,
    filler_memory: 400,
    daily_days: 150,
    filler_sessions: 12,
    references: 20,
    inbox: 10,
};

/// A small corpus for tests: every topic and query, little background.
pub(crate) const TINY: Scale = Scale {
    filler_notes: 40,
    filler_memory: 30,
    daily_days: 30,
    filler_sessions: 2,
    references: 2,
    inbox: 2,
};

/// The generated folder, its documents and their labels.
#[derive(Debug)]
pub(crate) struct Corpus {
    pub(crate) files: Vec<GenFile>,
    pub(crate) docs: Vec<Doc>,
}

const DAY: i64 = 86_400;

impl Corpus {
    /// The document of one id.
    pub(crate) fn doc(&self, id: &str) -> Option<&Doc> {
        self.docs.iter().find(|doc| doc.id == id)
    }

    /// SHA-256 over every path, modification time and content, in path order.
    pub(crate) fn digest(&self) -> String {
        let mut hasher = Sha256::new();
        for file in &self.files {
            hasher.update(file.path.as_bytes());
            hasher.update([0]);
            hasher.update(file.mtime.to_be_bytes());
            hasher.update(Sha256::digest(&file.bytes));
        }
        crate::corpus::hex(&hasher.finalize())
    }

    /// Writes the folder into `root`, which must not exist yet.
    pub(crate) fn write(&self, root: &Path) -> Result<(), String> {
        let fail = |what: &Path, error: std::io::Error| {
            format!("cannot write {}: {error}", what.display())
        };
        fs::create_dir(root).map_err(|error| fail(root, error))?;
        for file in &self.files {
            let path = root.join(&file.path);
            if let Some(parent) = path.parent() {
                fs::create_dir_all(parent).map_err(|error| fail(parent, error))?;
            }
            fs::write(&path, &file.bytes).map_err(|error| fail(&path, error))?;
            let time = SystemTime::UNIX_EPOCH + Duration::from_secs(file.mtime.max(0) as u64);
            fs::File::options()
                .write(true)
                .open(&path)
                .and_then(|handle| handle.set_modified(time))
                .map_err(|error| fail(&path, error))?;
        }
        Ok(())
    }
}

/// The generator's state: one random stream, the files and documents written so far.
struct Builder {
    rng: Mulberry32,
    anchor_day: i64,
    files: BTreeMap<String, GenFile>,
    docs: Vec<Doc>,
    /// Memory entries, written into their JSONL files at the end: (file, ts seconds, line).
    memory: Vec<(String, i64, String)>,
    next_record: usize,
    cli_keys: HashSet<String>,
    sessions: Vec<(i64, Value)>,
}

/// Generates the corpus of `seed` with ages counted back from `anchor_day` (days since the
/// epoch, UTC).
pub(crate) fn generate(seed: &str, anchor_day: i64, scale: Scale) -> Corpus {
    let mut b = Builder {
        rng: Mulberry32::from_seed_text(&format!("dotaios-quality-v1:{seed}")),
        anchor_day,
        files: BTreeMap::new(),
        docs: Vec::new(),
        memory: Vec::new(),
        next_record: 0,
        cli_keys: HashSet::new(),
        sessions: Vec::new(),
    };
    b.fixed_files();
    for (index, topic) in TOPICS.iter().enumerate() {
        b.topic(index, topic);
    }
    b.reviews();
    for (index, item) in ITEMS.iter().enumerate() {
        b.item(index, item);
    }
    b.daily(scale.daily_days);
    for index in 0..scale.filler_notes {
        let age = b.range(0, 700);
        b.filler_note("vault", index, age, None);
    }
    for index in 0..scale.references {
        let age = b.range(30, 900);
        b.filler_note("references", index, age, None);
    }
    b.inbox(scale.inbox);
    for _ in 0..scale.filler_memory {
        b.filler_memory();
    }
    b.topic_sessions();
    for index in 0..scale.filler_sessions {
        b.filler_session(index);
    }
    b.finish_memory();
    b.finish_sessions();
    let Builder { files, docs, .. } = b;
    Corpus {
        files: files.into_values().collect(),
        docs,
    }
}

impl Builder {
    fn range(&mut self, low: i64, high: i64) -> i64 {
        low + (self.rng.next() * (high - low + 1) as f64) as i64
    }

    fn chance(&mut self, p: f64) -> bool {
        self.rng.next() < p
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[(self.rng.next() * items.len() as f64) as usize]
    }

    fn shuffled<T: Clone>(&mut self, items: &[T]) -> Vec<T> {
        let mut out = items.to_vec();
        for i in (1..out.len()).rev() {
            let j = (self.rng.next() * (i + 1) as f64) as usize;
            out.swap(i, j);
        }
        out
    }

    /// A time `age` days and under an hour before the anchor's midnight.
    fn time(&mut self, age: i64) -> i64 {
        let minutes = self.range(1, 59);
        (self.anchor_day - age) * DAY - minutes * 60
    }

    fn add_file(&mut self, path: String, text: String, mtime: i64) {
        let previous = self.files.insert(
            path.clone(),
            GenFile {
                path,
                bytes: text.into_bytes(),
                mtime,
            },
        );
        debug_assert!(previous.is_none(), "one path written twice");
    }

    /// A Markdown document: its file, and its labels under its search identity.
    fn add_markdown(
        &mut self,
        scope: &'static str,
        path: String,
        text: String,
        age: i64,
        labels: Vec<(Label, u8)>,
    ) {
        let (id, cli_key) = match scope {
            "vault" | "context" | "decisions" | "skills" | "references" => (
                path.clone(),
                path.split_once('/')
                    .map_or(&*path, |(_, rest)| rest)
                    .to_owned(),
            ),
            // memory/daily/… and memory/inbox/…: the CLI shows the file below its corpus.
            _ => (
                path.clone(),
                path.splitn(3, '/').nth(2).unwrap_or(&path).to_owned(),
            ),
        };
        let mtime = self.time(age);
        self.add_file(path, text, mtime);
        self.docs.push(Doc {
            id,
            scope,
            cli_key,
            labels,
        });
    }

    /// One memory entry, in `memory/events.jsonl` or a dated `memory/signals/*.jsonl`.
    fn add_memory(
        &mut self,
        kind: &str,
        summary: &str,
        tags: &[&str],
        age: i64,
        labels: Vec<(Label, u8)>,
    ) {
        let ts = self.time(age);
        let ts_text = iso(ts);
        let cli_key = format!("[{}] {kind} — {}", &ts_text[..10], truncate(summary, 100));
        if !self.cli_keys.insert(cli_key.clone()) {
            // The CLI's text line must name one entry; a repeat is not written.
            return;
        }
        self.next_record += 1;
        let record_id = format!("rec-{:05}", self.next_record);
        let mut entry = Map::new();
        entry.insert("ts".into(), Value::from(ts_text.clone()));
        entry.insert("type".into(), Value::from(kind));
        entry.insert("summary".into(), Value::from(summary));
        if !tags.is_empty() {
            entry.insert("tags".into(), json!(tags));
        }
        entry.insert("record_id".into(), Value::from(record_id.clone()));
        let file = if self.chance(0.35) {
            format!("memory/signals/{}.jsonl", &ts_text[..10])
        } else {
            "memory/events.jsonl".to_owned()
        };
        self.memory
            .push((file, ts, Value::Object(entry).to_string()));
        self.docs.push(Doc {
            id: format!("jsonl:{record_id}"),
            scope: "memory",
            cli_key,
            labels,
        });
    }

    fn fixed_files(&mut self) {
        let created = iso(self.anchor_day * DAY - 400 * DAY);
        let aios = format!(
            "{{\n  \"schema_version\": \"1.2.0\",\n  \"created_at\": \"{created}\",\n  \"ai_tools\": [\n    \"claude-code\",\n    \"codex\"\n  ],\n  \"vault_path\": null\n}}\n"
        );
        let mtime = self.anchor_day * DAY - 400 * DAY;
        self.add_file("aios.json".into(), aios, mtime);
        let values = [
            ("created_at", created.as_str()),
            ("name", "Alex Rivera"),
            ("role", "Product engineer"),
            (
                "current_work",
                "- Client work for three small companies\n- The internal tools",
            ),
            (
                "priorities",
                "- Finish the quarterly report\n- Hire a support lead\n- Take a real holiday",
            ),
        ];
        for (path, template) in INIT_FILES {
            let text = render(template, &values);
            let scope = path.split('/').next().unwrap_or_default();
            let scope = match scope {
                "context" => "context",
                "decisions" => "decisions",
                _ => "skills",
            };
            self.add_markdown(scope, (*path).to_owned(), text, 400, Vec::new());
        }
    }

    fn topic(&mut self, index: usize, topic: &Topic) {
        let label = vec![(Label::Topic(index), 2)];
        let items = |host: fn(&Host) -> Option<&'static str>| -> Vec<usize> {
            ITEMS
                .iter()
                .enumerate()
                .filter(|(_, item)| host(&item.host) == Some(topic.slug))
                .map(|(i, _)| i)
                .collect()
        };
        // The main note: frontmatter with a description, the title, the facts in a new order.
        let facts = self.shuffled(topic.facts);
        let age = self.range(40, 400);
        let mut text = format!(
            "---\ndescription: {}\nupdated: {}\n---\n# {}\n\n{} {}\n\n## Details\n\n",
            facts[0],
            &iso(self.time(age))[..10],
            topic.title,
            facts[1],
            facts[2]
        );
        for fact in &facts[3..] {
            text.push_str(&format!("- {fact}\n"));
        }
        let mut labels = label.clone();
        for item in items(|host| match host {
            Host::MainNote(slug) => Some(slug),
            _ => None,
        }) {
            text.push_str(&format!("\n{}\n", ITEMS[item].sentence));
            labels.push((Label::Item(item), 2));
        }
        let theme = self.pick(THEMES);
        text.push_str(&format!(
            "\n## Open questions\n\n- {}\n",
            self.pick(theme.sentences)
        ));
        let path = format!("vault/{}/{}.md", topic.area, topic.slug);
        self.add_markdown("vault", path, text, age, labels);

        // The second note: a paraphrased title, no frontmatter, steps.
        let facts = self.shuffled(topic.facts);
        let age = self.range(40, 400);
        let mut text = format!("# {}\n\n{}\n\n## Steps\n\n", topic.alt_title, facts[0]);
        for (step, fact) in facts[1..4].iter().enumerate() {
            text.push_str(&format!("{}. {fact}\n", step + 1));
        }
        let mut labels = label.clone();
        for item in items(|host| match host {
            Host::AltNote(slug) => Some(slug),
            _ => None,
        }) {
            text.push_str(&format!("\n{}\n", ITEMS[item].sentence));
            labels.push((Label::Item(item), 2));
        }
        let path = format!("vault/{}/{}.md", topic.area, topic.alt_slug);
        self.add_markdown("vault", path, text, age, labels);

        // The decision record.
        let facts = self.shuffled(topic.facts);
        let age = self.range(60, 400);
        let date = iso(self.time(age))[..10].to_owned();
        let text = format!(
            "# Decision: {}\n\nDate: {date}\nStatus: accepted\n\n## Context\n\n{}\n\n## Decision\n\n{}\n\n## Consequences\n\n{}\n",
            topic.title, facts[0], facts[1], facts[2]
        );
        let path = format!("decisions/{date}-{}.md", topic.slug);
        self.add_markdown("decisions", path, text, age, label.clone());

        // Three memory entries, each one fact, tagged with the topic.
        let facts = self.shuffled(topic.facts);
        for fact in facts.iter().take(3) {
            let kind = *self.pick(&["decision", "note", "meeting"]);
            let age = self.range(20, 300);
            self.add_memory(kind, fact, &[topic.slug], age, label.clone());
        }

        // Two recent notes about something else that name the topic once (grade 0).
        for _ in 0..2 {
            let age = self.range(0, 14);
            let sentence = self.pick(PASSING).replace("{m}", topic.mention);
            // Numbered apart from the background notes, so that no title repeats.
            let index = 10_000 + self.files.len();
            self.filler_note("vault", index, age, Some(sentence));
        }
    }

    /// Review notes that cover three topics each, one paragraph per topic (grade 1); every topic
    /// is covered twice.
    fn reviews(&mut self) {
        let indices: Vec<usize> = (0..TOPICS.len()).collect();
        let mut order = self.shuffled(&indices);
        order.extend(self.shuffled(&indices));
        for (number, group) in order.chunks(3).enumerate() {
            let age = self.range(10, 200);
            let title = if number % 2 == 0 {
                format!("Weekly review, week {}", 1 + number % 52)
            } else {
                format!("Leadership sync notes #{}", number + 1)
            };
            let mut text = format!("# {title}\n\n");
            let mut labels: Vec<(Label, u8)> = Vec::new();
            for &topic_index in group {
                let topic = &TOPICS[topic_index];
                let fact = self.pick(topic.facts);
                text.push_str(&format!("On {}: {fact}\n\n", topic.mention));
                if !labels
                    .iter()
                    .any(|(label, _)| *label == Label::Topic(topic_index))
                {
                    labels.push((Label::Topic(topic_index), 1));
                }
            }
            let theme = self.pick(THEMES);
            text.push_str(&format!("Other: {}\n", self.pick(theme.sentences)));
            let path = format!("vault/reviews/{}-{}.md", slugify(&title), number + 1);
            self.add_markdown("vault", path, text, age, labels);
        }
    }

    fn item(&mut self, index: usize, item: &super::topics::Item) {
        match item.host {
            Host::MainNote(_) | Host::AltNote(_) => {}
            Host::Memory(kind) => {
                let age = self.range(5, 120);
                self.add_memory(kind, item.sentence, &[], age, vec![(Label::Item(index), 2)]);
            }
            Host::Note(folder, title) => {
                let age = self.range(5, 500);
                let theme = self.pick(THEMES);
                let mut text = format!("# {title}\n\n{}\n\n", item.sentence);
                for _ in 0..3 {
                    let sentence = *self.pick(theme.sentences);
                    text.push_str(sentence);
                    text.push(' ');
                }
                text.push('\n');
                let path = format!("vault/{folder}/{}.md", slugify(title));
                self.add_markdown("vault", path, text, age, vec![(Label::Item(index), 2)]);
            }
        }
    }

    /// `memory/daily/<date>.md` for the last `days` days; every topic gets two bullets in two
    /// different days (grade 1 there).
    fn daily(&mut self, days: usize) {
        let mut bullets: BTreeMap<usize, Vec<(usize, &'static str)>> = BTreeMap::new();
        for (topic_index, topic) in TOPICS.iter().enumerate() {
            let first = self.range(0, days as i64 - 1) as usize;
            let mut second = self.range(0, days as i64 - 1) as usize;
            if second == first {
                second = (first + 1) % days;
            }
            for day in [first, second] {
                let fact = self.pick(topic.facts);
                bullets.entry(day).or_default().push((topic_index, fact));
            }
        }
        for day in 0..days {
            let age = day as i64 + 1;
            let date = iso((self.anchor_day - age) * DAY)[..10].to_owned();
            let mut text = format!("# {date}\n\n## Plan\n\n");
            for _ in 0..2 {
                let theme = self.pick(THEMES);
                text.push_str(&format!("- {}\n", self.pick(theme.sentences)));
            }
            text.push_str("\n## Log\n\n");
            let mut labels = Vec::new();
            for (topic_index, fact) in bullets.remove(&day).unwrap_or_default() {
                let topic = &TOPICS[topic_index];
                text.push_str(&format!("- {}: {fact}\n", capitalise(topic.mention)));
                if !labels
                    .iter()
                    .any(|(label, _)| *label == Label::Topic(topic_index))
                {
                    labels.push((Label::Topic(topic_index), 1));
                }
            }
            let theme = self.pick(THEMES);
            text.push_str(&format!("- {}\n", self.pick(theme.sentences)));
            let path = format!("memory/daily/{date}.md");
            self.add_markdown("memory", path, text, age, labels);
        }
    }

    fn inbox(&mut self, count: usize) {
        for index in 0..count {
            let age = self.range(0, 60);
            let theme = self.pick(THEMES);
            let mut text = format!("# Read later {}\n\n", index + 1);
            for _ in 0..3 {
                text.push_str(&format!("- {}\n", self.pick(theme.sentences)));
            }
            let date = iso(self.time(age))[..10].to_owned();
            let path = format!("memory/inbox/{date}-read-later-{}.md", index + 1);
            self.add_markdown("memory", path, text, age, Vec::new());
        }
    }

    /// An everyday note (grade 0), optionally carrying one extra sentence.
    fn filler_note(&mut self, root: &'static str, index: usize, age: i64, extra: Option<String>) {
        let theme: &Theme = self.pick(THEMES);
        let pattern = self.pick(theme.titles);
        let word = self.pick(theme.words);
        let title = pattern
            .replace("{w}", word)
            .replace("{n}", &(index + 1).to_string());
        let mut text = String::new();
        if self.chance(0.3) {
            text.push_str(&format!("---\ntags: [{}]\n---\n", theme.folder));
        }
        text.push_str(&format!("# {title}\n\n"));
        let paragraphs = self.range(2, 4);
        let mut extra = extra;
        for paragraph in 0..paragraphs {
            if paragraph > 0 && self.chance(0.5) {
                text.push_str(&format!("{}\n\n", self.pick(theme.headings)));
            }
            let sentences = self.range(2, 5);
            let mut line = Vec::new();
            for _ in 0..sentences {
                line.push((*self.pick(theme.sentences)).to_owned());
            }
            if paragraph == paragraphs - 1 {
                if let Some(sentence) = extra.take() {
                    let at = self.range(0, line.len() as i64) as usize;
                    line.insert(at, sentence);
                }
                if self.chance(0.35) {
                    let topic = self.pick(TOPICS);
                    line.push((*self.pick(topic.distractors)).to_owned());
                }
            }
            text.push_str(&line.join(" "));
            text.push_str("\n\n");
        }
        let folder = if root == "vault" {
            theme.folder
        } else {
            "notes"
        };
        let path = format!("{root}/{folder}/{}.md", slugify(&title));
        if self.files.contains_key(&path) {
            return;
        }
        let scope = if root == "vault" {
            "vault"
        } else {
            "references"
        };
        self.add_markdown(scope, path, text, age, Vec::new());
    }

    fn filler_memory(&mut self) {
        let (kind, pattern) = *self.pick(MEMORY_PATTERNS);
        let person = self.pick(PEOPLE);
        let thing = self.pick(THINGS);
        let summary = pattern.replace("{p}", person).replace("{w}", thing);
        let age = self.range(0, 400);
        self.add_memory(kind, &summary, &[], age, Vec::new());
    }

    /// Every third topic has a working session about it (grade 1).
    fn topic_sessions(&mut self) {
        for (index, topic) in TOPICS.iter().enumerate().step_by(3) {
            let facts = self.shuffled(topic.facts);
            let body = format!("# Session summary\n\n- {}\n- {}\n", facts[0], facts[1]);
            let title = format!("Working on {}", topic.mention);
            self.session(&title, &body, vec![(Label::Topic(index), 1)]);
        }
    }

    fn filler_session(&mut self, index: usize) {
        let thing = self.pick(THINGS);
        let theme = self.pick(THEMES);
        let body = format!("# Session summary\n\n- {}\n", self.pick(theme.sentences));
        let title = format!("Working on {thing} ({})", index + 1);
        self.session(&title, &body, Vec::new());
    }

    fn session(&mut self, title: &str, body: &str, labels: Vec<(Label, u8)>) {
        let age = self.range(1, 120);
        let agent = *self.pick(&["claude-code", "codex", "cursor"]);
        let captured = self.time(age);
        let captured_text = iso(captured);
        let session_id = format!("s-{:06x}", (self.rng.next() * 16_777_216.0) as u32);
        let stamp = captured_text[..19].replace(':', "-");
        let path = format!(
            "memory/sessions/{}/{stamp}_{agent}_{}.md",
            &captured_text[..10],
            &session_id[2..]
        );
        if self.files.contains_key(&path) {
            return;
        }
        self.add_file(path.clone(), body.to_owned(), captured);
        self.sessions.push((
            captured,
            json!({
                "session_id": session_id,
                "agent": agent,
                "captured_at": captured_text,
                "title": title,
                "path": path,
            }),
        ));
        self.docs.push(Doc {
            id: format!("sessions/{path}"),
            scope: "sessions",
            cli_key: session_id,
            labels,
        });
    }

    fn finish_memory(&mut self) {
        let mut by_file: BTreeMap<String, Vec<(i64, String)>> = BTreeMap::new();
        for (file, ts, line) in std::mem::take(&mut self.memory) {
            by_file.entry(file).or_default().push((ts, line));
        }
        by_file.entry("memory/events.jsonl".into()).or_default();
        for (file, mut lines) in by_file {
            // Append order: oldest first, as a log is written.
            lines.sort();
            let mtime = lines
                .last()
                .map_or(self.anchor_day * DAY - DAY, |(ts, _)| *ts);
            let mut text = String::new();
            for (_, line) in lines {
                text.push_str(&line);
                text.push('\n');
            }
            self.add_file(file, text, mtime);
        }
        let errors_mtime = self.anchor_day * DAY - 400 * DAY;
        self.add_file("memory/errors.jsonl".into(), String::new(), errors_mtime);
    }

    fn finish_sessions(&mut self) {
        let mut sessions = std::mem::take(&mut self.sessions);
        sessions.sort_by_key(|(captured, _)| *captured);
        let mtime = sessions.last().map_or(self.anchor_day * DAY, |(t, _)| *t);
        let mut text = String::new();
        for (_, entry) in sessions {
            text.push_str(&entry.to_string());
            text.push('\n');
        }
        self.add_file("memory/sessions/index.jsonl".into(), text, mtime);
    }
}

/// The files `init` writes that the search reads (contract 01 §11.3, §11.4), from the CLI's own
/// templates so that they stay what `init` writes.
const INIT_FILES: &[(&str, &str)] = &[
    (
        "context/identity.md",
        include_str!("../../../cli/templates/context/identity.md"),
    ),
    (
        "context/priorities.md",
        include_str!("../../../cli/templates/context/priorities.md"),
    ),
    (
        "context/work.md",
        include_str!("../../../cli/templates/context/work.md"),
    ),
    (
        "context/north-star.md",
        include_str!("../../../cli/templates/context/north-star.md"),
    ),
    (
        "context/domains/build.md",
        include_str!("../../../cli/templates/context/domains/build.md"),
    ),
    (
        "context/domains/make.md",
        include_str!("../../../cli/templates/context/domains/make.md"),
    ),
    (
        "context/domains/sell.md",
        include_str!("../../../cli/templates/context/domains/sell.md"),
    ),
    (
        "decisions/log.md",
        include_str!("../../../cli/templates/decisions/log.md"),
    ),
    (
        "skills/plan-today/SKILL.md",
        include_str!("../../../cli/templates/skills/plan-today/SKILL.md"),
    ),
    (
        "skills/today/SKILL.md",
        include_str!("../../../cli/templates/skills/today/SKILL.md"),
    ),
    (
        "skills/closeday/SKILL.md",
        include_str!("../../../cli/templates/skills/closeday/SKILL.md"),
    ),
    (
        "skills/weekly-review/SKILL.md",
        include_str!("../../../cli/templates/skills/weekly-review/SKILL.md"),
    ),
];

/// `{{key}}` placeholders replaced by their values; unknown ones stay as written.
fn render(template: &str, values: &[(&str, &str)]) -> String {
    let mut text = template.to_owned();
    for (key, value) in values {
        text = text.replace(&format!("{{{{{key}}}}}"), value);
    }
    text
}

/// `YYYY-MM-DDTHH:MM:SS.000Z` of seconds since the epoch.
pub(crate) fn iso(seconds: i64) -> String {
    jiff::Timestamp::from_second(seconds)
        .map(|ts| ts.strftime("%Y-%m-%dT%H:%M:%S.000Z").to_string())
        .unwrap_or_default()
}

/// Contract 03 §10.3 `truncate`: at most `n` UTF-16 units, `...` marking a cut.
pub(crate) fn truncate(text: &str, n: usize) -> String {
    if text.encode_utf16().count() <= n {
        return text.to_owned();
    }
    let mut out = String::new();
    let mut units = 0;
    for c in text.chars() {
        if units + c.len_utf16() > n - 3 {
            break;
        }
        units += c.len_utf16();
        out.push(c);
    }
    out.push_str("...");
    out
}

fn capitalise(text: &str) -> String {
    let text = text.strip_prefix("the ").unwrap_or(text);
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

/// Lowercase ASCII letters and digits joined by `-`; other characters separate.
fn slugify(title: &str) -> String {
    let mut out = String::new();
    for c in title.chars() {
        let c = match c {
            'à' | 'á' | 'â' | 'ã' => 'a',
            'é' | 'è' | 'ê' => 'e',
            'ó' | 'ô' | 'ö' => 'o',
            'ü' | 'ú' => 'u',
            'ł' => 'l',
            other => other,
        };
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_owned()
}

#[cfg(test)]
/// Every label's documents, for the gold check: which labels have at least one document.
pub(crate) fn labelled(corpus: &Corpus) -> std::collections::BTreeSet<Label> {
    corpus
        .docs
        .iter()
        .flat_map(|doc| doc.labels.iter().map(|(label, _)| *label))
        .collect()
}
