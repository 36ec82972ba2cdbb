//! The JSONL side of the `memory` scope (contract 03 §10): the entry model, field flattening and
//! matching, retry suppression across archive generations, project attribution, and the
//! ranked, deduplicated, capped list.
//!
//! Entries follow the JavaScript object model because several results are observable through
//! the entry's `JSON.stringify` text (IDF tokens, matched terms, the whole-entry fallback,
//! suppression identity). Pure: the engine reads the sources and passes their text.

use std::cmp::Ordering;
use std::collections::HashMap;

use serde_json::{Map, Value};

use crate::search::hit::MemoryHit;
use crate::search::matcher::{Match, MatchKind, Query, lowercase};
use crate::search::rank::{Clock, parse_ts};
use crate::search::relevance::{Features, Field, LineFacts, Stats, fold, kind_of};
use crate::text::{
    apply_js_key_order, collate, js_number_of, js_number_to_string, js_trim, to_json_compact,
    utf16_len, utf16_prefix,
};

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

/// One JSONL source with its parsed entries, in line order.
#[derive(Debug)]
pub(crate) struct Source {
    pub(crate) label: String,
    pub(crate) family: Family,
    pub(crate) generation: Generation,
    pub(crate) entries: Vec<Entry>,
}

/// The outcome of reading a JSONL text: its entries and the number of non-blank lines (each
/// costs one ledger entry, parsed or not).
#[derive(Debug)]
pub(crate) struct Parsed {
    pub(crate) entries: Vec<Entry>,
    pub(crate) lines: u64,
}

/// Splits `text` into entries (§10.2): blank lines are skipped, corrupt lines and lines that
/// are not objects (the open point) are skipped silently, nothing is repaired.
pub(crate) fn parse(text: &str) -> Parsed {
    let mut entries = Vec::new();
    let mut lines = 0;
    for line in text.split('\n') {
        if js_trim(line).is_empty() {
            continue;
        }
        lines += 1;
        if let Some(entry) = parse_entry(line) {
            entries.push(entry);
        }
    }
    Parsed { entries, lines }
}

/// Parses one line into an entry; `None` for anything that is not a JSON object Rust can hold.
pub(crate) fn parse_entry(line: &str) -> Option<Entry> {
    if !crate::text::json_nesting_ok(line) {
        return None;
    }
    let mut value: Value = serde_json::from_str(line).ok()?;
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

/// Retry suppression (§10.4): for each source, which entries are suppressed.
pub(crate) fn suppressed(sources: &[Source]) -> Vec<Vec<bool>> {
    let mut flags: Vec<Vec<bool>> = sources
        .iter()
        .map(|source| vec![false; source.entries.len()])
        .collect();
    for family in [Family::Events, Family::Signals] {
        let newest_shard = sources
            .iter()
            .filter(|source| source.family == family)
            .filter_map(|source| match source.generation {
                Generation::Shard(number) => Some(number),
                _ => None,
            })
            .max();
        // Group 0 = active archive, 1 = newest shard, 2 = live; older shards take no part.
        let group_of = |source: &Source| -> Option<usize> {
            if source.family != family {
                return None;
            }
            match source.generation {
                Generation::ActiveArchive => Some(0),
                Generation::Shard(number) if Some(number) == newest_shard => Some(1),
                Generation::Shard(_) => None,
                Generation::Live => Some(2),
            }
        };
        let mut counts: HashMap<&str, [u64; 3]> = HashMap::new();
        for source in sources {
            if let Some(group) = group_of(source) {
                for entry in &source.entries {
                    counts.entry(entry.text.as_str()).or_default()[group] += 1;
                }
            }
        }
        for (source_index, source) in sources.iter().enumerate() {
            let Some(group) = group_of(source) else {
                continue;
            };
            for (entry_index, entry) in source.entries.iter().enumerate() {
                let count = counts[entry.text.as_str()];
                // The highest count wins; on a tie the later group (A < S < L) wins.
                let winner = (0..3)
                    .max_by(|&a, &b| count[a].cmp(&count[b]).then(a.cmp(&b)))
                    .unwrap_or(2);
                if winner != group {
                    flags[source_index][entry_index] = true;
                }
            }
        }
    }
    flags
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

/// Matches the memory JSONL corpus (§10.6 steps 1–2): every entry that survives suppression and
/// attribution is counted in `stats` (document class 1); the matching ones are returned in
/// source and line order.
pub(crate) fn candidates(
    sources: &[Source],
    query: &Query,
    clock: &Clock<'_>,
    project: Option<&ProjectIdentity>,
    stats: &mut Stats,
) -> Vec<EntryCandidate> {
    let suppressed = suppressed(sources);
    let model = &query.relevance;
    let terms = model.term_count();
    let mut found = Vec::new();
    for (source, flags) in sources.iter().zip(&suppressed) {
        for (entry, &is_suppressed) in source.entries.iter().zip(flags) {
            if is_suppressed
                || project.is_some_and(|project| !is_attributed(&entry.object, project))
            {
                continue;
            }
            let fields = flatten(&entry.object);
            let length: usize = fields.iter().map(|(_, value)| value.len()).sum();
            let folded: Vec<String> = fields
                .iter()
                .map(|(_, value)| fold(&lowercase(value)).into_owned())
                .collect();
            if terms == 0 || !folded.iter().any(|value| model.may_match(value)) {
                stats.add(1, length as u64, None);
                continue;
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
            stats.add(1, length as u64, Some(&features));
            let Some((index, _, facts)) = best else {
                continue;
            };
            // The field shown is §10.3's: the first with the highest §6 score; when no field
            // matches literally, the first with the most normalised terms (exact hits double).
            let literal = fields.iter().enumerate().fold(
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
            let ts = entry.object.get("ts").and_then(Value::as_str);
            let age_ms = ts
                .and_then(|ts| parse_ts(ts, clock))
                .map_or(f64::NAN, |at| clock.now_ms - at);
            found.push(EntryCandidate {
                hit: MemoryHit {
                    source: source.label.clone(),
                    field: field.clone(),
                    value: truncate(value, 160),
                    kind,
                    score,
                    entry: entry.object.clone(),
                },
                features,
                age_ms,
                family: source.family,
                record_id: entry
                    .object
                    .get("record_id")
                    .and_then(Value::as_str)
                    .filter(|id| !id.is_empty())
                    .map(str::to_owned),
            });
        }
    }
    found
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

    fn clock() -> Clock<'static> {
        Clock {
            now_ms: 1_786_579_200_000.0,
            local_offset_ms: &|_| 0.0,
        }
    }

    fn source(label: &str, family: Family, generation: Generation, lines: &str) -> Source {
        Source {
            label: label.into(),
            family,
            generation,
            entries: parse(lines).entries,
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

    fn matched(lines: &str, query: &str) -> Vec<EntryCandidate> {
        let source = source(
            "memory/events.jsonl",
            Family::Events,
            Generation::Live,
            lines,
        );
        let query = Query::new(query);
        let mut stats = Stats::new(query.relevance.term_count());
        candidates(&[source], &query, &clock(), None, &mut stats)
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
        let flags = suppressed(&sources);
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
        let flags = suppressed(&sources);
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
        let mut stats = Stats::new(1);
        let found = candidates(&[events], &query, &clock(), None, &mut stats);
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].record_id.as_deref(), Some("r1"));
        assert_eq!(found[0].age_ms, 3.0 * 86_400_000.0);
        assert!(found[1].age_ms.is_nan());
        assert!(found.iter().all(|hit| hit.hit.kind == MatchKind::Phrase));
        assert_eq!(found[0].hit.matched_field(), None);
    }
}
