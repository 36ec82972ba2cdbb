//! The JSONL side of the `memory` scope (contract 03 §10): the entry model, field flattening and
//! matching, retry suppression across archive generations, project attribution, and the
//! ranked, deduplicated, capped list.
//!
//! Entries follow the JavaScript object model because several results are observable through
//! the entry's `JSON.stringify` text (IDF tokens, matched terms, the whole-entry fallback,
//! suppression identity). Pure: the engine reads the sources and passes their text.

use std::cmp::Ordering;
use std::collections::{BinaryHeap, HashMap};

use serde_json::{Map, Value};

use crate::search::hit::MemoryHit;
use crate::search::matcher::{Match, MatchKind, Query, lowercase};
use crate::search::rank::{Clock, parse_ts};
use crate::search::relevance::{Features, Field, LineFacts, Stats, fold_accents, kind_of};
use crate::text::{
    LoneSurrogates, apply_js_key_order, collate, js_number_of, js_number_to_string, js_trim,
    serde_read, to_json_compact, utf16_len, utf16_prefix,
};
use crate::text::{NameOutput, escape_name};

#[cfg(test)]
pub(crate) mod oracle;

/// The family of a JSONL source (§10.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Family {
    Events,
    Signals,
}

/// The generation of a JSONL source (§10.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Generation {
    Live,
    /// An archive shard with its number.
    Shard(u32),
    ActiveArchive,
}

/// One parsed JSONL entry.
#[derive(Debug, Clone)]
pub(crate) struct Entry {
    pub(crate) object: Map<String, Value>,
    /// The `JSON.stringify` text of the entry.
    pub(crate) text: String,
}

/// One JSONL source: its text, read and charged at discovery (contract 03 §14.1), parsed one
/// line at a time whenever it is walked, so no source's entries are ever all held (issue 21 F2).
#[derive(Debug)]
pub(crate) struct Source {
    pub(crate) label: String,
    pub(crate) family: Family,
    pub(crate) generation: Generation,
    pub(crate) text: String,
}

/// The outcome of reading a JSONL text: its entries and the number of non-blank lines (each
/// costs one ledger entry, parsed or not).
#[cfg(test)]
#[derive(Debug)]
pub(crate) struct Parsed {
    pub(crate) entries: Vec<Entry>,
    pub(crate) lines: u64,
}

/// The non-blank lines of a JSONL text (§10.2), in line order; each costs one ledger entry.
fn lines(text: &str) -> impl DoubleEndedIterator<Item = &str> {
    text.split('\n').filter(|line| !js_trim(line).is_empty())
}

/// How many ledger entries a JSONL text costs (§10.2, §13): its non-blank lines. Counting parses
/// nothing, so the entry ceiling is decided before any entry is built.
pub(crate) fn count_lines(text: &str) -> u64 {
    lines(text).count() as u64
}

/// The entries of a JSONL text in line order, parsed as they are pulled (§10.2).
pub(crate) fn entries(text: &str) -> impl Iterator<Item = Entry> + '_ {
    lines(text).filter_map(parse_entry)
}

/// The entries of a JSONL text from the last line to the first, parsed as they are pulled.
pub(crate) fn entries_reversed(text: &str) -> impl Iterator<Item = Entry> + '_ {
    lines(text).rev().filter_map(parse_entry)
}

/// Splits `text` into entries (§10.2): blank lines are skipped, corrupt lines and lines that
/// are not objects (the open point) are skipped silently, nothing is repaired.
#[cfg(test)]
pub(crate) fn parse(text: &str) -> Parsed {
    Parsed {
        entries: entries(text).collect(),
        lines: count_lines(text),
    }
}

/// Parses one line into an entry; `None` for anything that is not a JSON object Rust can hold.
pub(crate) fn parse_entry(line: &str) -> Option<Entry> {
    let mut value: Value = serde_read(line, LoneSurrogates::Refuse).ok()?;
    apply_js_key_order(&mut value);
    let Value::Object(object) = value else {
        return None;
    };
    let text = to_json_compact(&Value::Object(object.clone()));
    Some(Entry { object, text })
}

/// The leaf fields of an entry (§10.3 step 1–2): `name` paths with `.` and `[i]`, text
/// values, `null` skipped, the first `summary` field moved to the front.
pub(crate) fn flatten(object: &Map<String, Value>) -> Vec<(String, String)> {
    let mut fields = Vec::new();
    for (name, value) in object {
        flatten_into(name.clone(), value, &mut fields);
    }
    if let Some(position) = fields.iter().position(|(name, _)| name == "summary") {
        let summary = fields.remove(position);
        fields.insert(0, summary);
    }
    fields
}

fn flatten_into(path: String, value: &Value, fields: &mut Vec<(String, String)>) {
    match value {
        Value::Null => {}
        Value::Bool(flag) => fields.push((path, flag.to_string())),
        Value::Number(number) => fields.push((path, js_number_to_string(js_number_of(number)))),
        Value::String(text) => fields.push((path, text.clone())),
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                flatten_into(format!("{path}[{index}]"), item, fields);
            }
        }
        Value::Object(members) => {
            for (name, member) in members {
                flatten_into(format!("{path}.{name}"), member, fields);
            }
        }
    }
}

/// `truncate(s, n)` of §10.3: longer strings become their first `n − 3` units plus `...`.
pub fn truncate(text: &str, max_units: usize) -> String {
    if utf16_len(text) <= max_units {
        return text.to_owned();
    }
    format!("{}...", utf16_prefix(text, max_units.saturating_sub(3)))
}

/// Retry suppression (§10.4), decided per entry text. Built in one streamed pass over the
/// sources; only a family with entries in two or more of its groups (A, S, L) can suppress
/// anything, so only such a family keeps a count per distinct entry text.
#[derive(Debug)]
pub(crate) struct Suppression {
    /// Per source: its family's slot in `counts` and its group, `None` when it takes no part.
    groups: Vec<Option<(usize, usize)>>,
    /// Per family (events, signals): the counts of each distinct text in A, S and L, or `None`
    /// when fewer than two groups hold entries.
    counts: [Option<HashMap<String, [u64; 3]>>; 2],
}

impl Suppression {
    pub(crate) fn new(sources: &[Source]) -> Suppression {
        let mut groups = vec![None; sources.len()];
        let mut counts = [None, None];
        for (slot, family) in [Family::Events, Family::Signals].into_iter().enumerate() {
            let newest_shard = sources
                .iter()
                .filter(|source| source.family == family)
                .filter_map(|source| match source.generation {
                    Generation::Shard(number) => Some(number),
                    _ => None,
                })
                .max();
            let mut populated = [false; 3];
            for (index, source) in sources.iter().enumerate() {
                if source.family != family {
                    continue;
                }
                // Group 0 = active archive, 1 = newest shard, 2 = live; older shards take no part.
                let group = match source.generation {
                    Generation::ActiveArchive => 0,
                    Generation::Shard(number) if Some(number) == newest_shard => 1,
                    Generation::Shard(_) => continue,
                    Generation::Live => 2,
                };
                groups[index] = Some((slot, group));
                populated[group] |= entries(&source.text).next().is_some();
            }
            if populated.iter().filter(|&&held| held).count() < 2 {
                continue;
            }
            let mut family_counts: HashMap<String, [u64; 3]> = HashMap::new();
            for (index, source) in sources.iter().enumerate() {
                if let Some((_, group)) = groups[index].filter(|(at, _)| *at == slot) {
                    for entry in entries(&source.text) {
                        family_counts.entry(entry.text).or_default()[group] += 1;
                    }
                }
            }
            counts[slot] = Some(family_counts);
        }
        Suppression { groups, counts }
    }

    /// Whether the entry with this text in source `source` is suppressed.
    pub(crate) fn suppresses(&self, source: usize, text: &str) -> bool {
        let Some((slot, group)) = self.groups[source] else {
            return false;
        };
        let Some(count) = self.counts[slot]
            .as_ref()
            .and_then(|counts| counts.get(text))
        else {
            return false;
        };
        // The highest count wins; on a tie the later group (A < S < L) wins.
        let winner = (0..3)
            .max_by(|&a, &b| count[a].cmp(&count[b]).then(a.cmp(&b)))
            .unwrap_or(2);
        winner != group
    }
}

/// The selected project of Project mode, for attribution (§10.5).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProjectIdentity {
    /// The project directory name.
    pub slug: String,
    /// The stable id.
    pub id: String,
}

/// Whether a record is attributed to `project` (§10.5).
pub(crate) fn is_attributed(object: &Map<String, Value>, project: &ProjectIdentity) -> bool {
    let by_project = object.get("project");
    let by_id = object.get("project_id");
    if by_project.is_none() && by_id.is_none() {
        return false;
    }
    let project_ok = by_project.is_none_or(|value| {
        value.as_str() == Some(project.slug.as_str()) || value.as_str() == Some(project.id.as_str())
    });
    let id_ok = by_id.is_none_or(|value| value.as_str() == Some(project.id.as_str()));
    project_ok && id_ok
}

/// A memory entry that matched, before the request-wide ranking (§10.6).
#[derive(Debug)]
pub(crate) struct EntryCandidate {
    pub(crate) hit: MemoryHit,
    pub(crate) features: Features,
    /// Age in milliseconds from `ts`, `NaN` when it is missing or does not parse.
    pub(crate) age_ms: f64,
    pub(crate) family: Family,
    /// A non-empty string `record_id`, for the cross-family dedupe.
    pub(crate) record_id: Option<String>,
}

/// One entry's part in the request statistics: its length and, when its values match a term,
/// its features with the field of §10.6 step 1 that the normalised terms chose.
struct Measured {
    fields: Vec<(String, String)>,
    length: usize,
    matched: Option<(Features, Option<(usize, LineFacts)>)>,
}

fn measure(entry: &Entry, query: &Query) -> Measured {
    let model = &query.relevance;
    let terms = model.term_count();
    let fields = flatten(&entry.object);
    let length: usize = fields.iter().map(|(_, value)| value.len()).sum();
    let folded: Vec<String> = fields
        .iter()
        .map(|(_, value)| fold_accents(&lowercase(value)).into_owned())
        .collect();
    if terms == 0 || !folded.iter().any(|value| model.may_match(value)) {
        return Measured {
            fields,
            length,
            matched: None,
        };
    }
    let mut collector = model.collector();
    collector.add_length(length);
    // The first field with the most terms (exact hits counting double) is shown.
    let mut best: Option<(usize, u32, LineFacts)> = None;
    for (index, ((name, _), value)) in fields.iter().zip(&folded).enumerate() {
        let field = Field::of_entry_key(name);
        let facts = collector.piece(value, field);
        if field == Field::Heading {
            collector.cover(&facts);
        }
        let weight = facts.terms.count_ones() + facts.exact.count_ones();
        if weight > 0 && best.is_none_or(|(_, seen, _)| weight > seen) {
            best = Some((index, weight, facts));
        }
    }
    let features = collector.finish();
    Measured {
        fields,
        length,
        matched: Some((features, best.map(|(index, _, facts)| (index, facts)))),
    }
}

/// The candidate of a measured entry that matched (§10.3, §10.6 step 1).
fn candidate_of(
    source: &Source,
    entry: Entry,
    fields: &[(String, String)],
    features: Features,
    chosen: (usize, LineFacts),
    query: &Query,
    clock: &Clock<'_>,
) -> EntryCandidate {
    let terms = query.relevance.term_count();
    let (index, facts) = chosen;
    // The field shown is §10.3's: the first with the highest §6 score; when no field
    // matches literally, the first with the most normalised terms (exact hits double).
    let literal =
        fields
            .iter()
            .enumerate()
            .fold(
                None,
                |best: Option<(usize, Match)>, (at, (_, value))| match query.match_text(value) {
                    Some(found) if best.is_none_or(|(_, seen)| found.score > seen.score) => {
                        Some((at, found))
                    }
                    _ => best,
                },
            );
    let (index, kind, score) = match literal {
        Some((at, found)) => (at, found.kind, found.score),
        None => (
            index,
            kind_of(&facts, terms).unwrap_or(MatchKind::Inflected),
            facts.terms.count_ones(),
        ),
    };
    let (field, value) = &fields[index];
    let age_ms = age_of(&entry, clock);
    let record_id = entry
        .object
        .get("record_id")
        .and_then(Value::as_str)
        .filter(|id| !id.is_empty())
        .map(str::to_owned);
    EntryCandidate {
        hit: MemoryHit {
            // A signal file's label holds its name (contract 02 §10.1).
            source: escape_name(&source.label, NameOutput::Data).into_owned(),
            field: field.clone(),
            value: truncate(value, 160),
            kind,
            score,
            entry: entry.object,
        },
        features,
        age_ms,
        family: source.family,
        record_id,
    }
}

fn age_of(entry: &Entry, clock: &Clock<'_>) -> f64 {
    entry
        .object
        .get("ts")
        .and_then(Value::as_str)
        .and_then(|ts| parse_ts(ts, clock))
        .map_or(f64::NAN, |at| clock.now_ms - at)
}

/// Walks the memory JSONL corpus in source and line order (§10.6 step 1), one entry at a
/// time: suppressed occurrences and, in Project mode, unattributed entries are skipped.
fn walk(
    sources: &[Source],
    suppression: &Suppression,
    project: Option<&ProjectIdentity>,
    mut each: impl FnMut(&Source, Entry),
) {
    for (index, source) in sources.iter().enumerate() {
        for entry in entries(&source.text) {
            if suppression.suppresses(index, &entry.text)
                || project.is_some_and(|project| !is_attributed(&entry.object, project))
            {
                continue;
            }
            each(source, entry);
        }
    }
}

/// The statistics pass (§9.2, §10.6 step 1): every entry that survives suppression and
/// attribution is counted in `stats` as a document of class 1. Keeps nothing but the counters.
pub(crate) fn count(
    sources: &[Source],
    suppression: &Suppression,
    query: &Query,
    project: Option<&ProjectIdentity>,
    stats: &mut Stats,
) {
    walk(sources, suppression, project, |_, entry| {
        let measured = measure(&entry, query);
        stats.add(
            1,
            measured.length as u64,
            measured.matched.as_ref().map(|(features, _)| features),
        );
    });
}

/// One retained candidate with what orders it among the memory entries (§9.4): score
/// descending, `ts` descending, then enumeration order.
struct Ranked {
    score: f64,
    index: u64,
    candidate: EntryCandidate,
}

impl Ranked {
    fn ts(&self) -> Option<&str> {
        self.candidate.hit.entry.get("ts").and_then(Value::as_str)
    }
}

/// The order of §9.4 between two memory entries: `Less` comes first.
fn order(
    score_a: f64,
    ts_a: Option<&str>,
    index_a: u64,
    score_b: f64,
    ts_b: Option<&str>,
    index_b: u64,
) -> Ordering {
    score_b
        .partial_cmp(&score_a)
        .unwrap_or(Ordering::Equal)
        .then_with(|| compare_ts_descending(ts_a, ts_b))
        .then(index_a.cmp(&index_b))
}

impl PartialEq for Ranked {
    fn eq(&self, other: &Ranked) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Ranked {}

impl PartialOrd for Ranked {
    fn partial_cmp(&self, other: &Ranked) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Ranked {
    /// The later in §9.4's order is the greater, so a max-heap's top is the worst kept.
    fn cmp(&self, other: &Ranked) -> Ordering {
        order(
            self.score,
            self.ts(),
            self.index,
            other.score,
            other.ts(),
            other.index,
        )
    }
}

/// The ranking pass (§9.4, §10.6): walks the corpus again once the request statistics are
/// final and keeps the `keep` best candidates under `score` in a bounded heap, so at most
/// `keep` entries are held whatever the size of the sources. Returns them in enumeration
/// order, the order in which the merge expects them.
pub(crate) fn best(
    sources: &[Source],
    suppression: &Suppression,
    query: &Query,
    clock: &Clock<'_>,
    project: Option<&ProjectIdentity>,
    keep: usize,
    score: impl Fn(&Features, f64) -> f64,
) -> Vec<EntryCandidate> {
    let mut heap: BinaryHeap<Ranked> = BinaryHeap::new();
    let mut index = 0u64;
    walk(sources, suppression, project, |source, entry| {
        let at = index;
        index += 1;
        if keep == 0 {
            return;
        }
        let measured = measure(&entry, query);
        let Some((features, Some(chosen))) = measured.matched else {
            return;
        };
        let value = score(&features, age_of(&entry, clock));
        if heap.len() >= keep
            && let Some(worst) = heap.peek()
        {
            let ts = entry.object.get("ts").and_then(Value::as_str);
            if order(value, ts, at, worst.score, worst.ts(), worst.index) != Ordering::Less {
                return;
            }
        }
        let candidate = candidate_of(
            source,
            entry,
            &measured.fields,
            features,
            chosen,
            query,
            clock,
        );
        heap.push(Ranked {
            score: value,
            index: at,
            candidate,
        });
        if heap.len() > keep {
            heap.pop();
        }
    });
    let mut kept = heap.into_vec();
    kept.sort_by_key(|ranked| ranked.index);
    kept.into_iter().map(|ranked| ranked.candidate).collect()
}

/// `ts` descending by collation; a missing or empty `ts` sorts after every present one.
pub(crate) fn compare_ts_descending(a: Option<&str>, b: Option<&str>) -> Ordering {
    let a = a.filter(|ts| !ts.is_empty());
    let b = b.filter(|ts| !ts.is_empty());
    match (a, b) {
        (Some(a), Some(b)) => collate(b, a),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => Ordering::Equal,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::matcher::MatchKind;

    static UTC: jiff::tz::TimeZone = jiff::tz::TimeZone::UTC;

    fn clock() -> Clock<'static> {
        Clock {
            now_ms: 1_786_579_200_000.0,
            time_zone: &UTC,
        }
    }

    fn source(label: &str, family: Family, generation: Generation, lines: &str) -> Source {
        Source {
            label: label.into(),
            family,
            generation,
            text: lines.to_owned(),
        }
    }

    #[test]
    fn parsing_skips_blank_corrupt_and_non_object_lines() {
        let parsed =
            parse("{\"a\":1}\n\n  \t\nnot json\n[1,2]\n\"s\"\n{\"b\":\"\\ud800\"}\n{\"c\":2}\r\n");
        assert_eq!(parsed.lines, 6);
        assert_eq!(parsed.entries.len(), 2);
        assert_eq!(parsed.entries[1].text, "{\"c\":2}");
    }

    #[test]
    fn entry_text_uses_the_js_object_model() {
        let entry =
            parse_entry(r#"{"b":1,"a":2,"b":3,"10":0,"2":0,"n":1.50,"big":12345678901234567890}"#)
                .unwrap();
        assert_eq!(
            entry.text,
            r#"{"2":0,"10":0,"b":3,"a":2,"n":1.5,"big":12345678901234567000}"#
        );
    }

    #[test]
    fn flattening() {
        let entry = parse_entry(r#"{"ts":"t","meta":{"author":"ada","tags":["x",null,{"c":true}]},"n":null,"e":{},"f":[],"summary":"s","num":1e21}"#).unwrap();
        let names: Vec<(String, String)> = flatten(&entry.object);
        assert_eq!(
            names,
            [
                ("summary".into(), "s".into()),
                ("ts".into(), "t".into()),
                ("meta.author".into(), "ada".into()),
                ("meta.tags[0]".into(), "x".into()),
                ("meta.tags[2].c".into(), "true".into()),
                ("num".into(), "1e+21".into()),
            ]
        );
    }

    /// Both passes over `sources`, every candidate kept.
    fn streamed(sources: &[Source], query: &Query) -> Vec<EntryCandidate> {
        let suppression = Suppression::new(sources);
        let mut stats = Stats::new(query.relevance.term_count());
        count(sources, &suppression, query, None, &mut stats);
        best(
            sources,
            &suppression,
            query,
            &clock(),
            None,
            usize::MAX,
            |features, age| query.relevance.score(features, &stats, 1, age),
        )
    }

    fn flags(sources: &[Source]) -> Vec<Vec<bool>> {
        let suppression = Suppression::new(sources);
        sources
            .iter()
            .enumerate()
            .map(|(index, source)| {
                entries(&source.text)
                    .map(|entry| suppression.suppresses(index, &entry.text))
                    .collect()
            })
            .collect()
    }

    fn matched(lines: &str, query: &str) -> Vec<EntryCandidate> {
        let source = source(
            "memory/events.jsonl",
            Family::Events,
            Generation::Live,
            lines,
        );
        let query = Query::new(query);
        streamed(&[source], &query)
    }

    #[test]
    fn best_field_is_first_highest_score() {
        let found = matched(
            r#"{"a":"alpha","b":"alpha alpha","summary":"nothing"}"#,
            "alpha",
        );
        assert_eq!((found[0].hit.field.as_str(), found[0].hit.score), ("b", 11));
        assert!(matched(r#"{"a":"x","b":"y"}"#, "zzz").is_empty());
        // Keys are not searched: only values are document text.
        assert!(matched(r#"{"a":"x","b":"y"}"#, "\"a\"").is_empty());
        // A value matched only through its stem is shown with the normalised kind.
        let found = matched(r#"{"a":"x","b":"Deploy done"}"#, "deployments");
        assert_eq!(found[0].hit.field, "b");
        assert_eq!(found[0].hit.kind, MatchKind::Inflected);
    }

    #[test]
    fn truncation() {
        assert_eq!(truncate("", 5), "");
        assert_eq!(truncate("abcde", 5), "abcde");
        assert_eq!(truncate("abcdef", 5), "ab...");
        assert_eq!(truncate("a😀bcdef", 5), "a...");
    }

    #[test]
    fn suppression_keeps_the_group_with_most_copies() {
        let line = "{\"summary\":\"dup\"}\n";
        let sources = vec![
            source(
                "memory/events.jsonl",
                Family::Events,
                Generation::Live,
                line,
            ),
            source(
                "memory/events-archive.000001.jsonl",
                Family::Events,
                Generation::Shard(1),
                &line.repeat(5),
            ),
            source(
                "memory/events-archive.000002.jsonl",
                Family::Events,
                Generation::Shard(2),
                &line.repeat(2),
            ),
            source(
                "memory/events-archive.jsonl",
                Family::Events,
                Generation::ActiveArchive,
                line,
            ),
        ];
        let flags = flags(&sources);
        assert_eq!(flags[0], [true]);
        assert_eq!(flags[1], [false; 5], "older shards take no part");
        assert_eq!(flags[2], [false, false]);
        assert_eq!(flags[3], [true]);
    }

    #[test]
    fn suppression_ties_go_to_the_later_group() {
        let line = "{\"summary\":\"dup\"}\n";
        let sources = vec![
            source(
                "memory/signals-archive.jsonl",
                Family::Signals,
                Generation::ActiveArchive,
                line,
            ),
            source(
                "memory/signals/a.jsonl",
                Family::Signals,
                Generation::Live,
                line,
            ),
            source(
                "memory/events.jsonl",
                Family::Events,
                Generation::Live,
                line,
            ),
        ];
        let flags = flags(&sources);
        assert_eq!(flags, [vec![true], vec![false], vec![false]]);
    }

    #[test]
    fn attribution() {
        let project = ProjectIdentity {
            slug: "demo".into(),
            id: "acme:demo".into(),
        };
        let check = |json: &str| is_attributed(&parse_entry(json).unwrap().object, &project);
        assert!(check(r#"{"project":"demo"}"#));
        assert!(check(r#"{"project":"acme:demo"}"#));
        assert!(check(r#"{"project_id":"acme:demo"}"#));
        assert!(check(r#"{"project":"demo","project_id":"acme:demo"}"#));
        assert!(!check(r#"{}"#));
        assert!(!check(r#"{"project":"other"}"#));
        assert!(!check(r#"{"project":"demo","project_id":"demo"}"#));
        assert!(!check(r#"{"project":null}"#));
        assert!(!check(r#"{"project_id":7}"#));
    }

    #[test]
    fn candidates_keep_source_order_and_record_ids() {
        let events = source(
            "memory/events.jsonl",
            Family::Events,
            Generation::Live,
            concat!(
                "{\"ts\":\"2026-08-10T00:00:00Z\",\"summary\":\"alpha\",\"record_id\":\"r1\"}\n",
                "{\"summary\":\"alpha\"}\n",
                "{\"ts\":\"2026-08-12T00:00:00Z\",\"summary\":\"beta\"}\n",
            ),
        );
        let query = Query::new("alpha");
        let found = streamed(&[events], &query);
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].record_id.as_deref(), Some("r1"));
        assert_eq!(found[0].age_ms, 3.0 * 86_400_000.0);
        assert!(found[1].age_ms.is_nan());
        assert!(found.iter().all(|hit| hit.hit.kind == MatchKind::Phrase));
        assert_eq!(found[0].hit.matched_field(), None);
    }
}
