//! The benchmark's `safe-corpus` control (contract 07 §3.1), served here because only the
//! engine can run the vault scope's phases without the rest of a search: the walk,
//! eligibility, containment, identity checks, UTF-8 validation and final revalidation.
//!
//! It serves `dotaios-bench` alone (through `search::read_vault_corpus`); it never matches or
//! ranks, never reads another scope, and no product surface calls it.

use std::path::Path;

use crate::folder::memory::MemoryMode;
use crate::request::Limit;
use crate::search::error::{SearchError, fatal};
use crate::search::omission::Counts;
use crate::search::{REQUEST_LIMITS, Scope, ScopeRequest, SearchRequest};

use super::execute::read_checked;
use super::parallel::parallel_map;
use super::{CorpusFile, Engine, Meter, ScopeWork};

/// The safe-corpus control of the benchmark (07 §3.1): the vault scope's walk, eligibility,
/// containment, identity checks, UTF-8 validation and final revalidation, with no matching or
/// ranking. Returns the files and bytes read.
pub(crate) fn read_vault_corpus(folder: &Path, workers: usize) -> Result<Counts, SearchError> {
    let filters = crate::search::SessionFilters::default();
    let request = SearchRequest {
        query: "",
        scope: ScopeRequest::One(Scope::Vault),
        limit: Limit::count(1),
        memory: MemoryMode::Shared,
        project: None,
        session_filters: &filters,
        clock: crate::search::Clock {
            now_ms: 0.0,
            time_zone: &jiff::tz::TimeZone::UTC,
        },
        workers,
        snippets: crate::search::SnippetForm::Lines,
    };
    let mut engine = Engine::open(folder, &request, REQUEST_LIMITS)?;
    engine.read_config()?;
    engine.available = engine.ledger.remaining();
    let mut work = ScopeWork::new(Scope::Vault);
    let mut meter = Meter {
        allowance: engine.available,
        used: Counts::default(),
    };
    engine.inspect(&mut work, &mut meter, None).map_err(fatal)?;
    let mut read = Counts::default();
    for corpus in work.corpora {
        let reader = engine.root_for(corpus.root).map_err(fatal)?;
        // Files read during inspection were validated then; the rest are read now.
        let pending: Vec<&CorpusFile> = corpus
            .files
            .iter()
            .filter(|file| file.analysis.is_none())
            .collect();
        let outcomes = parallel_map(&pending, engine.request.workers, |file, _| {
            read_checked(reader, file).map(|_| ())
        });
        for outcome in outcomes {
            outcome.map_err(fatal)?;
        }
        for file in corpus.files {
            read.files += 1;
            read.bytes += file.identity.size;
            engine
                .searched_files
                .push((corpus.root, file.rel, file.identity));
        }
    }
    engine.revalidate()?;
    Ok(read)
}
