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

use crate::search::clock::{Clock, parse_ts};
use crate::search::hit::MatchKind;
use crate::search::hit::MemoryHit;
use crate::search::matcher::Query;
use crate::search::relevance::{
    DocClass, Features, Field, LineFacts, Stats, fold_accents, kind_of, lowercase,
};
use crate::text::{
    JsonLayout, JsonWriter, LoneSurrogates, apply_js_key_order, collate, js_number_of,
    js_number_to_string, js_object_entries, js_trim, serde_read_line, utf16_len, utf16_prefix,
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

/// The most items (values, members, containers: [`crate::text::json_within`]) one JSONL line
/// may hold (contract 03 §10.2). A line over it is skipped like a corrupt line before anything
/// is built, so one machine-written line (a 4 MiB array of two million numbers) costs a scan
/// of its bytes, not two million flattened fields in each of the request's two passes. A
/// memory entry holds tens of values; 10,000 keeps a large hand-written payload.
pub(crate) const MAX_ENTRY_ITEMS: usize = 10_000;

/// One parsed JSONL entry.
#[derive(Debug, Clone)]
pub(crate) struct Entry {
    pub(crate) object: Map<String, Value>,
}

impl Entry {
    /// The entry text (§10.2): the `JSON.stringify` text of the entry. Built only where a rule
    /// reads it (retry suppression), never for every entry.
    pub(crate) fn text(&self) -> String {
        let mut writer = JsonWriter::new(JsonLayout::Compact);
        writer.begin_object();
        for (name, value) in js_object_entries(&self.object) {
            writer.name(name);
            writer.value(value);
        }
        writer.end_object();
        writer.finish()
    }
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

/// Parses one line into an entry; `None` for anything that is not a JSON object Rust can hold
/// or that holds more than [`MAX_ENTRY_ITEMS`] items (§10.2). A number beyond the double range
/// is kept as JavaScript keeps it and printed `null` (`serde_read_line`).
pub(crate) fn parse_entry(line: &str) -> Option<Entry> {
    let mut value: Value = serde_read_line(line, LoneSurrogates::Refuse, MAX_ENTRY_ITEMS).ok()?;
    apply_js_key_order(&mut value);
    let Value::Object(object) = value else {
        return None;
    };
    Some(Entry { object })
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
                        family_counts.entry(entry.text()).or_default()[group] += 1;
                    }
                }
            }
            counts[slot] = Some(family_counts);
        }
        Suppression { groups, counts }
    }

    /// Whether `entry` in source `source` is suppressed. Its text is built only when its
    /// family keeps counts.
    pub(crate) fn suppresses(&self, source: usize, entry: &Entry) -> bool {
        let Some((slot, group)) = self.groups[source] else {
            return false;
        };
        let Some(counts) = self.counts[slot].as_ref() else {
            return false;
        };
        let Some(count) = counts.get(&entry.text()) else {
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
    /// Per field, its match facts (empty when the entry cannot match).
    facts: Vec<LineFacts>,
    length: usize,
    matched: Option<(Features, Option<(usize, LineFacts)>)>,
}

fn measure(entry: &Entry, query: &Query) -> Measured {
    let model = &query.analysed;
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
            facts: Vec::new(),
            length,
            matched: None,
        };
    }
    let mut collector = model.collector();
    collector.add_length(length);
    // The first field with the most terms (exact hits counting double) is shown.
    let mut best: Option<(usize, u32, LineFacts)> = None;
    let mut all_facts = Vec::with_capacity(fields.len());
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
        all_facts.push(facts);
    }
    let features = collector.finish();
    Measured {
        fields,
        facts: all_facts,
        length,
        matched: Some((features, best.map(|(index, _, facts)| (index, facts)))),
    }
}

/// The field, kind and score of a memory result's `match` object (contract 03 §10.3), given
/// each field's match facts and `chosen`, the first field with the most normalised terms:
/// the field is the first with the highest literal score (§6) among the fields the analyzer
/// matched, else `chosen` with the number of terms it matched; the kind is always the
/// analyzer's kind of that field (§6.1), as for every snippet of a Markdown result.
pub(super) fn shown_match(
    fields: &[(String, String)],
    facts: &[LineFacts],
    chosen: (usize, LineFacts),
    query: &Query,
) -> (usize, MatchKind, u32) {
    let terms = query.analysed.term_count();
    let literal = fields.iter().zip(facts).enumerate().fold(
        None,
        |best: Option<(usize, u32)>, (at, ((_, value), facts))| {
            if facts.terms == 0 {
                return best;
            }
            match query.literal_score_of(value) {
                Some(score) if best.is_none_or(|(_, seen)| score > seen) => Some((at, score)),
                _ => best,
            }
        },
    );
    let (index, facts, score) = match literal {
        Some((at, score)) => (at, facts[at], score),
        None => (chosen.0, chosen.1, chosen.1.terms.count_ones()),
    };
    // A field in `facts` or `chosen` matched some term, so it has a kind.
    let kind = kind_of(&facts, terms).unwrap_or(MatchKind::Inflected);
    (index, kind, score)
}

/// The candidate of a measured entry that matched (§10.3, §10.6 step 1), showing the field,
/// kind and score of [`shown_match`].
fn candidate_of(
    source: &Source,
    entry: Entry,
    fields: &[(String, String)],
    features: Features,
    shown: (usize, MatchKind, u32),
    clock: &Clock<'_>,
) -> EntryCandidate {
    let (index, kind, score) = shown;
    let (field, value) = &fields[index];
    let age_ms = age_of(&entry, clock);
    let record_id = record_id_of(&entry).map(str::to_owned);
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

/// A non-empty string `record_id` (§10.6 step 3).
fn record_id_of(entry: &Entry) -> Option<&str> {
    entry
        .object
        .get("record_id")
        .and_then(Value::as_str)
        .filter(|id| !id.is_empty())
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
            if suppression.suppresses(index, &entry)
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
            DocClass::MemoryEntry,
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

/// A ranked position kept beyond its entry: everything ranked after it can be refused
/// before its candidate is built.
struct Floor {
    score: f64,
    ts: Option<String>,
    index: u64,
}

impl Floor {
    fn of(ranked: &Ranked) -> Floor {
        Floor {
            score: ranked.score,
            ts: ranked.ts().map(str::to_owned),
            index: ranked.index,
        }
    }

    /// Whether an entry at (`score`, `ts`, `index`) ranks after this position.
    fn passes(&self, score: f64, ts: Option<&str>, index: u64) -> bool {
        order(score, ts, index, self.score, self.ts.as_deref(), self.index) == Ordering::Greater
    }
}

fn family_slot(family: Family) -> usize {
    match family {
        Family::Events => 0,
        Family::Signals => 1,
    }
}

/// The exact `limit` best memory entries under §10.6 step 3's cross-family dedupe, kept in
/// bounded memory in one walk (contract 03 §10.6).
///
/// The dedupe keeps an entry with a `record_id` only when its family is the family of that
/// record's best entry, so which entries survive depends on entries still to come. Two facts
/// bound what must be held:
/// - the entries without a `record_id` and the best entry of each record always survive; the
///   `limit`-th best of them (the *floor*) only moves up as the walk goes on, and an entry
///   ranked after it can never be shown, since `limit` surviving entries precede it;
/// - at most `limit` entries of one record and one family can be shown, so one ranked after
///   the `limit`-th of its record and family (that group's floor) never is.
///
/// Candidates are held in a buffer that is compacted to what those two rules keep whenever it
/// has doubled (amortised O(log n) an entry); both floors refuse an entry before its
/// candidate is built. At most about `limit + 2·limit²` candidates survive a compaction.
struct Keeper {
    limit: usize,
    held: Vec<Ranked>,
    floor: Option<Floor>,
    /// Per `record_id`, the floor of each family (by [`family_slot`]) holding `limit` entries.
    group_floors: HashMap<String, [Option<Floor>; 2]>,
    compact_at: usize,
}

impl Keeper {
    fn new(limit: usize) -> Keeper {
        Keeper {
            limit,
            held: Vec::new(),
            floor: None,
            group_floors: HashMap::new(),
            compact_at: Keeper::slack(limit),
        }
    }

    /// Room a compaction leaves above what it kept, so compactions stay amortised. Tests
    /// compact after a few candidates, so the oracle comparisons walk through many compactions.
    fn slack(limit: usize) -> usize {
        const ROOM: usize = if cfg!(test) { 2 } else { 16 };
        limit.saturating_mul(2).saturating_add(ROOM)
    }

    /// Whether an entry at (`score`, `ts`, `index`) of `record` can never be shown.
    fn refuses(
        &self,
        score: f64,
        ts: Option<&str>,
        index: u64,
        record: Option<(&str, Family)>,
    ) -> bool {
        self.floor
            .as_ref()
            .is_some_and(|floor| floor.passes(score, ts, index))
            || record.is_some_and(|(id, family)| {
                self.group_floors
                    .get(id)
                    .and_then(|floors| floors[family_slot(family)].as_ref())
                    .is_some_and(|floor| floor.passes(score, ts, index))
            })
    }

    fn push(&mut self, ranked: Ranked) {
        self.held.push(ranked);
        if self.held.len() >= self.compact_at {
            self.compact();
            self.compact_at = self
                .held
                .len()
                .saturating_mul(2)
                .saturating_add(Keeper::slack(self.limit));
        }
    }

    /// Keeps what the two rules of [`Keeper`] keep and records both floors.
    fn compact(&mut self) {
        self.held.sort();
        let limit = self.limit;
        let mut survivors = 0;
        let mut per_group: HashMap<String, [usize; 2]> = HashMap::new();
        let mut group_floors: HashMap<String, [Option<Floor>; 2]> = HashMap::new();
        let mut kept = Vec::new();
        for ranked in std::mem::take(&mut self.held) {
            let (survives, within) = match &ranked.candidate.record_id {
                None => (true, true),
                Some(id) => {
                    let slot = family_slot(ranked.candidate.family);
                    let counts = per_group.entry(id.clone()).or_default();
                    let first = *counts == [0, 0];
                    counts[slot] += 1;
                    if counts[slot] == limit {
                        group_floors.entry(id.clone()).or_default()[slot] =
                            Some(Floor::of(&ranked));
                    }
                    (first, counts[slot] <= limit)
                }
            };
            let is_floor = survives && {
                survivors += 1;
                survivors == limit
            };
            if is_floor {
                self.floor = Some(Floor::of(&ranked));
            }
            if within {
                kept.push(ranked);
            }
            if is_floor {
                break;
            }
        }
        self.held = kept;
        self.group_floors = group_floors;
    }

    /// The shown memory entries in enumeration order: the best `limit` of those the dedupe
    /// keeps (a record's entries of its best entry's family), as the merge expects them.
    fn finish(mut self) -> Vec<EntryCandidate> {
        self.held.sort();
        let mut families: HashMap<&str, Family> = HashMap::new();
        let mut shown = Vec::new();
        for (at, ranked) in self.held.iter().enumerate() {
            if shown.len() == self.limit {
                break;
            }
            let candidate = &ranked.candidate;
            if let Some(id) = &candidate.record_id
                && *families.entry(id).or_insert(candidate.family) != candidate.family
            {
                continue;
            }
            shown.push(at);
        }
        let mut slots: Vec<Option<Ranked>> = self.held.into_iter().map(Some).collect();
        let mut out: Vec<Ranked> = shown
            .into_iter()
            .filter_map(|at| slots[at].take())
            .collect();
        out.sort_by_key(|ranked| ranked.index);
        out.into_iter().map(|ranked| ranked.candidate).collect()
    }
}

/// The ranking pass (§9.4, §10.6): walks the corpus again once the request statistics are
/// final and keeps, in bounded memory ([`Keeper`]), exactly the memory entries the merge can
/// show: the best `limit` under `score` that §10.6 step 3's dedupe keeps. Returns them in
/// enumeration order, the order in which the merge expects them.
pub(crate) fn best(
    sources: &[Source],
    suppression: &Suppression,
    query: &Query,
    clock: &Clock<'_>,
    project: Option<&ProjectIdentity>,
    limit: usize,
    score: impl Fn(&Features, f64) -> f64,
) -> Vec<EntryCandidate> {
    let mut keeper = Keeper::new(limit);
    let mut index = 0u64;
    walk(sources, suppression, project, |source, entry| {
        let at = index;
        index += 1;
        if limit == 0 {
            return;
        }
        let measured = measure(&entry, query);
        let Some((features, Some(chosen))) = measured.matched else {
            return;
        };
        let value = score(&features, age_of(&entry, clock));
        let ts = entry.object.get("ts").and_then(Value::as_str);
        let record = record_id_of(&entry).map(|id| (id, source.family));
        if keeper.refuses(value, ts, at, record) {
            return;
        }
        let candidate = candidate_of(
            source,
            entry,
            &measured.fields,
            features,
            shown_match(&measured.fields, &measured.facts, chosen, query),
            clock,
        );
        keeper.push(Ranked {
            score: value,
            index: at,
            candidate,
        });
    });
    keeper.finish()
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
    use crate::search::hit::MatchKind;

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
        assert_eq!(parsed.entries[1].text(), "{\"c\":2}");
    }

    #[test]
    fn entry_text_uses_the_js_object_model() {
        let entry =
            parse_entry(r#"{"b":1,"a":2,"b":3,"10":0,"2":0,"n":1.50,"big":12345678901234567890}"#)
                .unwrap();
        assert_eq!(
            entry.text(),
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
        let mut stats = query.analysed.stats();
        count(sources, &suppression, query, None, &mut stats);
        best(
            sources,
            &suppression,
            query,
            &clock(),
            None,
            usize::MAX,
            |features, age| {
                query
                    .analysed
                    .score(features, &stats, DocClass::MemoryEntry, age)
            },
        )
    }

    fn flags(sources: &[Source]) -> Vec<Vec<bool>> {
        let suppression = Suppression::new(sources);
        sources
            .iter()
            .enumerate()
            .map(|(index, source)| {
                entries(&source.text)
                    .map(|entry| suppression.suppresses(index, &entry))
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

    /// The kind of a memory result's `match` is the analyzer's (contract 03 §6.1, §10.3), as
    /// for a Markdown snippet; the literal score only picks the field and is the wire score.
    #[test]
    fn the_match_kind_is_the_analyzers() {
        let shown = |lines: &str, query: &str| {
            let found = matched(lines, query);
            let hit = &found[0].hit;
            (hit.field.clone(), hit.kind.as_str(), hit.score)
        };
        // `deploy` occurs inside `deployments` literally, but the word matches by its stem.
        assert_eq!(
            shown(r#"{"summary":"Deployments went fine"}"#, "deploy"),
            ("summary".into(), "inflected", 10)
        );
        // `ran` inside `Random` is no match of the word at all: the field where it is one is
        // shown.
        assert_eq!(
            shown(r#"{"summary":"Random notes","detail":"we ran it"}"#, "ran"),
            ("detail".into(), "phrase", 10)
        );
        // Only stems: the field with the most terms, and how many it holds.
        assert_eq!(
            shown(
                r#"{"summary":"nothing","a":"meeting fattura x"}"#,
                "meetings fatture"
            ),
            ("a".into(), "inflected", 2)
        );
        // Literal words keep the literal tiers' kinds and scores.
        assert_eq!(
            shown(r#"{"summary":"the quay wall","b":"quay"}"#, "quay wall"),
            ("summary".into(), "phrase", 10)
        );
        assert_eq!(
            shown(r#"{"summary":"wall then quay"}"#, "quay wall"),
            ("summary".into(), "terms", 5)
        );
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
