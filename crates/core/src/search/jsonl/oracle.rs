//! The collector the streamed memory search is checked against (tests only): every entry of
//! every source parsed and held, suppression counted over all of them, every candidate built
//! and returned, for the caller to score, sort and cut. Obviously correct, O(input) memory.

use std::collections::HashMap;

use serde_json::Value;

use super::{
    Entry, EntryCandidate, Family, Generation, ProjectIdentity, Source, flatten, is_attributed,
    parse, truncate,
};
use crate::search::clock::{Clock, parse_ts};
use crate::search::hit::MemoryHit;
use crate::search::matcher::Query;

use crate::search::relevance::{DocClass, Field, LineFacts, Stats, fold_accents, lowercase};
use crate::text::{NameOutput, escape_name};

/// A source with all its entries parsed.
pub(crate) struct Held {
    family: Family,
    generation: Generation,
    entries: Vec<Entry>,
    /// The entry text of each entry (§10.2).
    texts: Vec<String>,
}

impl Held {
    fn of(source: &Source) -> Held {
        let entries = parse(&source.text).entries;
        Held {
            family: source.family,
            generation: source.generation,
            texts: entries.iter().map(Entry::text).collect(),
            entries,
        }
    }
}

/// Retry suppression (§10.4): for each source, which entries are suppressed.
pub(crate) fn suppressed(sources: &[Held]) -> Vec<Vec<bool>> {
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
        let group_of = |source: &Held| -> Option<usize> {
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
                for text in &source.texts {
                    counts.entry(text.as_str()).or_default()[group] += 1;
                }
            }
        }
        for (source_index, source) in sources.iter().enumerate() {
            let Some(group) = group_of(source) else {
                continue;
            };
            for (entry_index, text) in source.texts.iter().enumerate() {
                let count = counts[text.as_str()];
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
    let held: Vec<Held> = sources.iter().map(Held::of).collect();
    let suppressed = suppressed(&held);
    let model = &query.analysed;
    let terms = model.term_count();
    let mut found = Vec::new();
    for ((source, held), flags) in sources.iter().zip(&held).zip(&suppressed) {
        for (entry, &is_suppressed) in held.entries.iter().zip(flags) {
            if is_suppressed
                || project.is_some_and(|project| !is_attributed(&entry.object, project))
            {
                continue;
            }
            let fields = flatten(&entry.object);
            let length: usize = fields.iter().map(|(_, value)| value.len()).sum();
            let folded: Vec<String> = fields
                .iter()
                .map(|(_, value)| fold_accents(&lowercase(value)).into_owned())
                .collect();
            if terms == 0 || !folded.iter().any(|value| model.may_match(value)) {
                stats.add(DocClass::MemoryEntry, length as u64, None);
                continue;
            }
            let mut collector = model.collector();
            collector.add_length(length);
            // The first field with the most terms (exact hits counting double) is shown.
            let mut best: Option<(usize, u32, LineFacts)> = None;
            let mut all_facts = Vec::new();
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
            stats.add(DocClass::MemoryEntry, length as u64, Some(&features));
            let Some((index, _, facts)) = best else {
                continue;
            };
            let (index, kind, score) =
                super::shown_match(&fields, &all_facts, (index, facts), query);
            let (field, value) = &fields[index];
            let ts = entry.object.get("ts").and_then(Value::as_str);
            let age_ms = ts
                .and_then(|ts| parse_ts(ts, clock))
                .map_or(f64::NAN, |at| clock.now_ms - at);
            found.push(EntryCandidate {
                hit: MemoryHit {
                    // A signal file's label holds its name (contract 02 §10.1).
                    source: escape_name(&source.label, NameOutput::Data).into_owned(),
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
