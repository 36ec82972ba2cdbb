//! Execution (contract 03 §4.7, §8, §9): reading each admitted Markdown file (through the
//! server's cache when there is one), matching and ranking it, and the JSONL and session
//! scopes' results.
//!
//! Every file read here must still be the object inspection recorded (§4.8 rules 2–3).

use std::collections::HashMap;
use std::sync::Arc;

use dotaios_contained::{Identity, Ledger, Limits, RelPath, Root};
use serde_json::Value;

use crate::search::allocation::CountsExt;
use crate::search::error::{EvidenceError, ScopeFailure, SearchError, fatal, observed_path_error};
use crate::search::hit::{MarkdownHit, SearchHit};
use crate::search::jsonl::{Family, ProjectIdentity};
use crate::search::markdown::{FileAnalysis, HitForm, analyze, analyze_as};
use crate::search::matcher::Query;
use crate::search::omission::{Counts, OmissionReason};
use crate::search::relevance::{
    DocClass, Features, Field, Stats, fold_accents, lowercase, lowercase_into,
};
use crate::search::{Explanation, MAX_FILE_BYTES, Scope, jsonl};
use crate::text::collate;

use super::parallel::parallel_map;
use super::{Corpus, CorpusFile, Engine, RootId, ScopeWork};

/// A result of one admitted scope before the request-wide order (§9.4): its hit, what its
/// score is computed from, and its tie-break inside the scope.
pub(super) struct Pending {
    pub(super) group: usize,
    pub(super) hit: SearchHit,
    pub(super) features: Features,
    /// The statistics class of §9.2 (Markdown file, memory entry, session).
    pub(super) class: DocClass,
    pub(super) age_ms: f64,
    /// The cross-family dedupe of memory entries (§10.6 step 4).
    pub(super) family: Option<(Family, String)>,
    /// A Markdown candidate's hit holds only what ranking reads ([`HitForm::Ranking`]); this
    /// is where its shown hit is built from if it is chosen ([`Engine::shown_hit`]).
    pub(super) deferred: Option<Deferred>,
}

/// The file a Markdown candidate was analysed from: a request keeps this much per candidate
/// rather than its title and snippets, which only the `limit` chosen ones need (contract 03
/// §19.3: per-file candidate data, not texts).
pub(super) struct Deferred {
    root: RootId,
    rel: RelPath,
    strip: usize,
    prefix: Arc<str>,
    identity: Identity,
    /// The cached text the file was analysed from, when the server's cache served it.
    text: Option<Arc<str>>,
}

impl Engine<'_> {
    /// Executes one admitted scope: its candidates go to `pending` (with `group` = the index of
    /// its group), and every document it searched is counted in `stats`.
    pub(super) fn execute(
        &mut self,
        work: ScopeWork,
        project: Option<&ProjectIdentity>,
        group: usize,
        stats: &mut Stats,
        pending: &mut Vec<Pending>,
    ) -> Result<(), SearchError> {
        match work.scope {
            Scope::Sessions => {
                let model = &self.query.analysed;
                for hit in work.session_results {
                    let SearchHit::Session(session) = &hit else {
                        continue;
                    };
                    let mut collector = model.collector();
                    let title =
                        fold_accents(&lowercase(session.title.as_str().unwrap_or_default()))
                            .into_owned();
                    collector.piece(&title, Field::Title);
                    let mut length = title.len();
                    for snippet in &session.matches {
                        let content = fold_accents(&lowercase(&snippet.content)).into_owned();
                        length += content.len();
                        collector.piece(&content, Field::Body);
                    }
                    collector.add_length(length);
                    let features = collector.finish();
                    stats.add(DocClass::Session, length as u64, Some(&features));
                    pending.push(Pending {
                        group,
                        hit,
                        features,
                        class: DocClass::Session,
                        age_ms: f64::NAN,
                        family: None,
                        deferred: None,
                    });
                }
            }
            #[cfg(test)]
            Scope::Memory if super::oracle() => {
                let entries = jsonl::oracle::candidates(
                    &work.memory_sources,
                    &self.query,
                    &self.request.clock,
                    project,
                    stats,
                );
                for entry in entries {
                    pending.push(Pending {
                        group,
                        hit: SearchHit::Memory(entry.hit),
                        features: entry.features,
                        class: DocClass::MemoryEntry,
                        age_ms: entry.age_ms,
                        family: entry.record_id.map(|id| (entry.family, id)),
                        deferred: None,
                    });
                }
                for corpus in work.corpora {
                    self.execute_corpus(corpus, group, stats, pending)?;
                }
            }
            Scope::Memory => {
                // Statistics now; the candidates once the statistics are final (`ranked`).
                let sources = work.memory_sources;
                let suppression = jsonl::Suppression::new(&sources);
                jsonl::count(&sources, &suppression, &self.query, project, stats);
                self.memory = Some(MemoryCorpus {
                    group,
                    slot: pending.len(),
                    sources,
                    suppression,
                    project: project.cloned(),
                });
                for corpus in work.corpora {
                    self.execute_corpus(corpus, group, stats, pending)?;
                }
            }
            _ => {
                for corpus in work.corpora {
                    self.execute_corpus(corpus, group, stats, pending)?;
                }
            }
        }
        Ok(())
    }

    /// Reads and matches one Markdown corpus (§8); its candidates go to `pending`.
    pub(super) fn execute_corpus(
        &mut self,
        corpus: Corpus,
        group: usize,
        stats: &mut Stats,
        pending: &mut Vec<Pending>,
    ) -> Result<(), SearchError> {
        let reader = self.root_for(corpus.root).map_err(fatal)?;
        let query = &self.query;
        let prefix = &*corpus.prefix;
        let waiting: Vec<&CorpusFile> = corpus
            .files
            .iter()
            .filter(|file| file.analysis.is_none())
            .collect();
        let mut late = parallel_map(&waiting, self.request.workers, |file, buffer| {
            read_and_analyze(reader, file, prefix, query, buffer)
        })
        .into_iter();
        let mut files = corpus.files;
        // The late analyses go into their files' slots, in file order, so the first failure
        // in file order is the one reported.
        for file in files.iter_mut().filter(|file| file.analysis.is_none()) {
            let analysis = late
                .next()
                .unwrap_or(Err(ScopeFailure::Fatal(EvidenceError::ReadFailed.into())));
            file.analysis = Some(analysis.map_err(fatal)?);
        }
        // Room for exactly the candidates: a vector that grows by doubling would briefly hold
        // twice them (contract 03 §19.3).
        let candidates = files
            .iter()
            .filter(|file| {
                file.analysis
                    .as_ref()
                    .is_some_and(|analysis| analysis.candidate.is_some())
            })
            .count();
        pending.reserve(candidates);
        let mut charged = Counts::default();
        let now = self.request.clock.now_ms;
        for file in &mut files {
            let analysis = file
                .analysis
                .take()
                .ok_or(SearchError::Evidence(EvidenceError::ReadFailed))?;
            charged.files += 1;
            charged.bytes += file.identity.size;
            stats.add(
                DocClass::Markdown,
                analysis.length,
                analysis
                    .candidate
                    .as_ref()
                    .map(|candidate| &candidate.features),
            );
            // Pushed before the charge below: a charge that fails ends the request, and
            // `pending` with it.
            if let Some(candidate) = analysis.candidate {
                let candidate = *candidate;
                pending.push(Pending {
                    group,
                    hit: SearchHit::Markdown(candidate.hit),
                    features: candidate.features,
                    class: DocClass::Markdown,
                    age_ms: now - candidate.mtime_ms,
                    family: None,
                    deferred: Some(Deferred {
                        root: corpus.root,
                        rel: file.rel.clone(),
                        strip: file.strip,
                        prefix: Arc::clone(&corpus.prefix),
                        identity: file.identity,
                        text: file.text.take(),
                    }),
                });
            }
        }
        if !charged.fits_in(self.ledger.remaining()) {
            let reason = if charged.files > self.ledger.remaining().files {
                OmissionReason::FileCountExceeded
            } else {
                OmissionReason::AggregateBytesExceeded
            };
            return Err(EvidenceError::of_ceiling(reason).into());
        }
        self.ledger.used = self.ledger.used.add(charged);
        for file in files.into_iter().filter(|file| !file.cached) {
            self.searched_files
                .push((corpus.root, file.rel, file.identity));
        }
        Ok(())
    }
}

/// The memory JSONL corpus of an admitted `memory` scope, kept from its execution to the merge:
/// its candidates can only be chosen once the request statistics are final (§9.2, §10.6).
pub(super) struct MemoryCorpus {
    group: usize,
    /// Where its candidates stand in the push order (before the scope's Markdown notes).
    slot: usize,
    sources: Vec<jsonl::Source>,
    suppression: jsonl::Suppression,
    project: Option<ProjectIdentity>,
}

impl Engine<'_> {
    /// The merged order of §9.4 with the memory corpus's candidates (§10.6) chosen in bounded
    /// memory in one walk: the `limit` best entries under the final statistics that the
    /// cross-family dedupe keeps (`jsonl::best`), so no other memory entry can be shown.
    pub(super) fn ranked(
        &mut self,
        mut pending: Vec<Pending>,
        stats: &Stats,
    ) -> Result<Vec<(usize, SearchHit, Explanation)>, SearchError> {
        let limit = self.request.limit.get();
        if let Some(memory) = self.memory.take() {
            let model = &self.query.analysed;
            let found = jsonl::best(
                &memory.sources,
                &memory.suppression,
                &self.query,
                &self.request.clock,
                memory.project.as_ref(),
                limit,
                |features, age| model.score(features, stats, DocClass::MemoryEntry, age),
            );
            let items = found.into_iter().map(|entry| Pending {
                group: memory.group,
                hit: SearchHit::Memory(entry.hit),
                features: entry.features,
                class: DocClass::MemoryEntry,
                age_ms: entry.age_ms,
                family: entry.record_id.map(|id| (entry.family, id)),
                deferred: None,
            });
            pending.splice(memory.slot..memory.slot, items);
        }
        let chosen = merge(&pending, &self.query, stats, limit);
        let mut buffer = String::new();
        take(pending, chosen, &self.query, stats)
            .into_iter()
            .map(|(group, hit, explanation, deferred)| {
                let hit = match deferred {
                    Some(deferred) => SearchHit::Markdown(self.shown_hit(&deferred, &mut buffer)?),
                    None => hit,
                };
                Ok((group, hit, explanation))
            })
            .collect()
    }

    /// The shown hit of a chosen Markdown candidate: its text analysed again in the full
    /// form, from the cached text it was analysed from, or read again, which must still be
    /// the object enumeration saw (§4.8 rules 2–3; the final revalidation re-stats it as
    /// well). Analysis is a pure function of the text, so the hit is the one a single
    /// full analysis would have built.
    fn shown_hit(
        &self,
        deferred: &Deferred,
        buffer: &mut String,
    ) -> Result<MarkdownHit, SearchError> {
        let text = match &deferred.text {
            Some(text) => Arc::clone(text),
            None => {
                let reader = self.root_for(deferred.root).map_err(fatal)?;
                Arc::from(
                    read_identified(reader, &deferred.rel, &deferred.identity).map_err(fatal)?,
                )
            }
        };
        let analysis = analyze(
            &text,
            &deferred.rel.as_str()[deferred.strip..],
            &deferred.prefix,
            mtime_ms(&deferred.identity),
            &self.query,
            buffer,
        );
        analysis
            .candidate
            .map(|candidate| candidate.hit)
            .ok_or(EvidenceError::Changed.into())
    }
}

/// The hits at `chosen` (indices into `pending`, with the scores they were ranked by), in that
/// order, with their groups, the explanation of each score (§9.5) and where a Markdown hit's
/// shown form is built from.
fn take(
    pending: Vec<Pending>,
    chosen: Vec<(usize, f64)>,
    query: &Query,
    stats: &Stats,
) -> Vec<(usize, SearchHit, Explanation, Option<Deferred>)> {
    let mut slots: Vec<Option<Pending>> = pending.into_iter().map(Some).collect();
    chosen
        .into_iter()
        .filter_map(|(index, score)| slots[index].take().map(|item| (item, score)))
        .map(|(item, score)| {
            let explanation =
                query
                    .analysed
                    .explain(&item.features, stats, item.class, item.age_ms, score);
            (item.group, item.hit, explanation, item.deferred)
        })
        .collect()
}

/// The one relevance order of a request (contract 03 §9.4): every pending result scored on the
/// request-wide statistics, sorted by score, then declared scope order, then the scope's own
/// tie-break (file name by collation for notes, `ts` descending for memory entries), then
/// enumeration order; memory entries whose `record_id` the other family already showed are
/// dropped (§10.6 step 3); the first `limit` are kept. Returns the indices into `pending` in
/// that order with their scores. The streamed memory collection hands over only entries this dedupe keeps; the
/// oracle (tests) hands over every candidate, so the rule is applied here as it is defined.
pub(super) fn merge(
    pending: &[Pending],
    query: &Query,
    stats: &Stats,
    limit: usize,
) -> Vec<(usize, f64)> {
    let model = &query.analysed;
    let mut scored: Vec<(f64, usize)> = pending
        .iter()
        .enumerate()
        .map(|(index, item)| {
            let score = model.score(&item.features, stats, item.class, item.age_ms);
            (score, index)
        })
        .collect();
    // Stable: the push order (declared scopes, enumeration) is the last tie-break.
    scored.sort_by(|(score_a, a), (score_b, b)| {
        let (a, b) = (&pending[*a], &pending[*b]);
        score_b
            .partial_cmp(score_a)
            .unwrap_or(std::cmp::Ordering::Equal)
            .then(a.group.cmp(&b.group))
            .then_with(|| match (&a.hit, &b.hit) {
                (SearchHit::Markdown(a), SearchHit::Markdown(b)) => collate(&a.file, &b.file),
                (SearchHit::Memory(a), SearchHit::Memory(b)) => jsonl::compare_ts_descending(
                    a.entry.get("ts").and_then(Value::as_str),
                    b.entry.get("ts").and_then(Value::as_str),
                ),
                _ => std::cmp::Ordering::Equal,
            })
    });
    let mut shown: HashMap<String, Vec<Family>> = HashMap::new();
    let mut out = Vec::new();
    for &(score, index) in &scored {
        if out.len() == limit {
            break;
        }
        let item = &pending[index];
        if let Some((family, id)) = &item.family {
            let families = shown.entry(id.clone()).or_default();
            if families.iter().any(|seen| seen != family) {
                continue;
            }
            families.push(*family);
        }
        out.push((index, score));
    }
    out
}

/// Reads an enumerated file, which must still be the object enumeration saw (§4.8 rules 2–3).
pub(super) fn read_checked(reader: &Root, file: &CorpusFile) -> Result<String, ScopeFailure> {
    read_identified(reader, &file.rel, &file.identity)
}

/// Reads `rel`, which must still be the object of `identity`.
fn read_identified(
    reader: &Root,
    rel: &RelPath,
    identity: &Identity,
) -> Result<String, ScopeFailure> {
    let mut sub = Ledger::new(Limits {
        files: 1,
        bytes: MAX_FILE_BYTES,
        entries: 0,
    });
    match reader.read_text(rel, MAX_FILE_BYTES, &mut sub) {
        Ok(Some(text)) if text.identity == *identity => Ok(text.text),
        Ok(_) => Err(EvidenceError::Changed.into()),
        Err(error) => Err(observed_path_error(error)),
    }
}

pub(super) fn read_and_analyze(
    reader: &Root,
    file: &CorpusFile,
    prefix: &str,
    query: &Query,
    buffer: &mut String,
) -> Result<FileAnalysis, ScopeFailure> {
    let text = read_checked(reader, file)?;
    lowercase_into(&text, buffer);
    Ok(analyze_as(
        &text,
        buffer,
        None,
        file.relative(),
        prefix,
        mtime_ms(&file.identity),
        query,
        HitForm::Ranking,
    ))
}

/// A file's modification time in milliseconds (fractional), for recency.
pub(super) fn mtime_ms(identity: &Identity) -> f64 {
    identity.mtime_sec as f64 * 1000.0 + f64::from(identity.mtime_nsec) / 1_000_000.0
}
