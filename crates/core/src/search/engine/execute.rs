//! Execution (contract 03 §4.7, §8, §9): reading each admitted Markdown file (through the
//! server's cache when there is one), matching and ranking it, and the JSONL and session
//! scopes' results.
//!
//! Every file read here must still be the object inspection recorded (§4.8 rules 2–3).

use super::*;

impl Engine<'_> {
    pub(super) fn execute(
        &mut self,
        work: ScopeWork,
        project: Option<&ProjectIdentity>,
    ) -> Result<Group, SearchError> {
        let _ = project;
        let limit = self.request.limit;
        let scope = work.scope;
        let results = match scope {
            Scope::Sessions => work.session_results,
            Scope::Memory => {
                let mut lists: Vec<Vec<SearchHit>> = vec![
                    jsonl::rank_sources(
                        &work.memory_sources,
                        &self.query,
                        &self.request.clock,
                        project,
                        limit,
                    )
                    .into_iter()
                    .map(SearchHit::Memory)
                    .collect(),
                ];
                for corpus in work.corpora {
                    lists.push(
                        self.execute_corpus(corpus)?
                            .into_iter()
                            .map(SearchHit::Markdown)
                            .collect(),
                    );
                }
                jsonl::round_robin(lists, limit)
            }
            _ => {
                let mut results = Vec::new();
                for corpus in work.corpora {
                    results.extend(
                        self.execute_corpus(corpus)?
                            .into_iter()
                            .map(SearchHit::Markdown),
                    );
                }
                results
            }
        };
        Ok(Group { scope, results })
    }

    /// Reads, matches and ranks one Markdown corpus (§8, §9).
    pub(super) fn execute_corpus(
        &mut self,
        corpus: Corpus,
    ) -> Result<Vec<MarkdownHit>, SearchError> {
        let reader = self.root_for(corpus.root).map_err(fatal)?;
        let query = &self.query;
        let prefix = corpus.prefix.as_str();
        let pending: Vec<&CorpusFile> = corpus
            .files
            .iter()
            .filter(|file| file.analysis.is_none())
            .collect();
        let mut late = parallel_map(&pending, self.request.workers, |file, buffer| {
            read_and_analyze(reader, file, prefix, query, buffer)
        })
        .into_iter();
        let mut files = corpus.files;
        let analyses: Vec<Result<FileAnalysis, ScopeFailure>> = files
            .iter_mut()
            .map(|file| match file.analysis.take() {
                Some(analysis) => Ok(analysis),
                None => late
                    .next()
                    .unwrap_or(Err(ScopeFailure::Fatal(EvidenceError::ReadFailed.into()))),
            })
            .collect();
        let mut stats = CorpusStats::new(self.query.terms.len());
        let mut candidates = Vec::new();
        let mut charged = Counts::default();
        for (file, analysis) in files.iter().zip(analyses) {
            let analysis = analysis.map_err(fatal)?;
            charged.files += 1;
            charged.bytes += file.identity.size;
            stats.add(&analysis.token_hits);
            if let Some(candidate) = analysis.candidate {
                candidates.push(candidate);
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
        let now = self.request.clock.now_ms;
        let mut ranked: Vec<(f64, MarkdownHit)> = candidates
            .into_iter()
            .map(|candidate| {
                let idf_sum = stats.idf_sum(&candidate.matched_terms);
                let value = rank(
                    candidate.kind,
                    idf_sum,
                    candidate.structural_boost,
                    decay(now - candidate.mtime_ms),
                );
                (value, candidate.hit)
            })
            .collect();
        // Stable: equal ranks and equally collating names keep enumeration order.
        ranked.sort_by(|(rank_a, a), (rank_b, b)| {
            rank_b
                .partial_cmp(rank_a)
                .unwrap_or(std::cmp::Ordering::Equal)
                .then_with(|| collate(&a.file, &b.file))
        });
        ranked.truncate(self.request.limit);
        Ok(ranked.into_iter().map(|(_, hit)| hit).collect())
    }
}

/// Reads an enumerated file, which must still be the object enumeration saw (§4.8 rules 2–3).
pub(super) fn read_checked(reader: &Root, file: &CorpusFile) -> Result<String, ScopeFailure> {
    let mut sub = Ledger::new(Limits {
        files: 1,
        bytes: MAX_FILE_BYTES,
        entries: 0,
    });
    match reader.read_text(&file.rel, MAX_FILE_BYTES, &mut sub) {
        Ok(Some(text)) if text.identity == file.identity => Ok(text.text),
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
    let mtime_ms = mtime_ms(&file.identity);
    Ok(analyze(
        &text,
        file.relative(),
        prefix,
        mtime_ms,
        query,
        buffer,
    ))
}

/// A file's modification time in milliseconds (fractional), for recency.
pub(super) fn mtime_ms(identity: &Identity) -> f64 {
    identity.mtime_sec as f64 * 1000.0 + f64::from(identity.mtime_nsec) / 1_000_000.0
}
