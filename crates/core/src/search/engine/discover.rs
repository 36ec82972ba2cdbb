//! Discovery (contract 03 §4.6, §10, §11): the memory JSONL streams and the session walk, whose
//! bodies must be read and parsed before the final allocation can be made.
//!
//! Charges every read to the scope and the phase; never ranks.

use dotaios_contained::{Identity, Ledger, Limits, ReadError, RelPath};

use crate::search::allocation::CountsExt;
use crate::search::error::{
    EvidenceError, ScopeFailure, ceiling_of, observed_path_error, unreadable_read,
};
use crate::search::hit::SearchHit;
use crate::search::jsonl::ProjectIdentity;
use crate::search::omission::OmissionReason;
use crate::search::sessions::search_sessions;
use crate::search::{MAX_FILE_BYTES, Scope, jsonl};

use super::{Engine, Meter, RootId, ScopeWork};

impl Engine<'_> {
    pub(super) fn discover(
        &mut self,
        work: &mut ScopeWork,
        meter: &mut Meter,
        project: Option<&ProjectIdentity>,
    ) -> Result<(), ScopeFailure> {
        match work.scope {
            Scope::Memory => {
                let plans = std::mem::take(&mut work.jsonl);
                for plan in &plans {
                    let read = match plan.identity {
                        Some(identity) => self
                            .read_charged(work, meter, &plan.rel, &identity)?
                            .map(|text| (text, identity)),
                        None => None,
                    };
                    let text = match read {
                        Some((text, identity)) => {
                            self.files.push((RootId::Aios, plan.rel.clone(), identity));
                            self.charge_lines(work, meter, &text)?;
                            text
                        }
                        // Missing, or skipped as unreadable: the source is empty.
                        None => String::new(),
                    };
                    work.memory_sources.push(jsonl::Source {
                        label: plan.label.clone(),
                        family: plan.family,
                        generation: plan.generation,
                        text,
                    });
                }
                Ok(())
            }
            Scope::Sessions => {
                let Some((index, identity)) = work.session_index.take() else {
                    return Ok(());
                };
                let Some(text) = self.read_charged(work, meter, &index, &identity)? else {
                    return Ok(());
                };
                self.files.push((RootId::Aios, index, identity));
                self.charge_lines(work, meter, &text)?;
                let request = self.request;
                let mut read_body = |path: &RelPath| -> Result<Option<String>, ScopeFailure> {
                    self.read_session_body(work, meter, path)
                };
                let hits = search_sessions(
                    &text,
                    request.query,
                    request.snippets,
                    request.session_filters,
                    project,
                    request.clock.now_ms,
                    request.limit.get(),
                    &mut read_body,
                )?;
                work.session_results = hits.into_iter().map(SearchHit::Session).collect();
                Ok(())
            }
            _ => Ok(()),
        }
    }

    pub(super) fn read_session_body(
        &mut self,
        work: &mut ScopeWork,
        meter: &mut Meter,
        path: &RelPath,
    ) -> Result<Option<String>, ScopeFailure> {
        let Some(identity) = self.demand_fixed_file(work, path)? else {
            return Ok(None);
        };
        let Some(text) = self.read_charged(work, meter, path, &identity)? else {
            return Ok(None);
        };
        self.files.push((RootId::Aios, path.clone(), identity));
        Ok(Some(text))
    }

    /// Reads a file whose demand is already counted, charging the ledger and the phase
    /// budget (the materialised part). `None` when the file is skipped as unreadable (§4.5,
    /// `search::error::unreadable_read`): not UTF-8, or no read permission.
    pub(super) fn read_charged(
        &mut self,
        work: &mut ScopeWork,
        meter: &mut Meter,
        path: &RelPath,
        expected: &Identity,
    ) -> Result<Option<String>, ScopeFailure> {
        let allowance = self.ledger.remaining().min(meter.left());
        let mut sub = Ledger::new(Limits {
            files: allowance.files,
            bytes: allowance.bytes,
            entries: 0,
        });
        let read = self.aios.read_text(path, MAX_FILE_BYTES, &mut sub);
        let used = sub.used();
        self.ledger.used = self.ledger.used.add(used);
        meter.used = meter.used.add(used);
        match read {
            Ok(Some(file)) if file.identity == *expected => Ok(Some(file.text)),
            Ok(_) => Err(EvidenceError::Changed.into()),
            Err(ReadError::Budget(dimension)) => {
                Err(ScopeFailure::Skippable(ceiling_of(dimension)))
            }
            Err(error) => match unreadable_read(&error) {
                Some(why) => {
                    self.skip_unreadable(work, RootId::Aios, path.as_str(), why);
                    Ok(None)
                }
                None => Err(observed_path_error(error)),
            },
        }
    }

    /// Charges one entry per non-blank line of a JSONL text (§10.2, §13). Lines are counted,
    /// not parsed, so a source over the ceiling costs no entry model at all (issue 21 F2).
    pub(super) fn charge_lines(
        &mut self,
        work: &mut ScopeWork,
        meter: &mut Meter,
        text: &str,
    ) -> Result<(), ScopeFailure> {
        let lines = jsonl::count_lines(text);
        let allowance = self.entry_allowance(work, meter);
        if lines > allowance {
            self.charge_entries(work, meter, allowance);
            return Err(ScopeFailure::Skippable(OmissionReason::EntryCountExceeded));
        }
        self.charge_entries(work, meter, lines);
        Ok(())
    }
}
