//! `search_aios` in shared and project mode (contract 05 §7.4, §8.2, §8.3, §8.6): the search itself
//! is `dotaios-core`'s (the same function as `dotaios search`); this module flattens and
//! sanitises its groups, writes the envelope, fits it to the budget and maps errors.

use std::path::Path;

use dotaios_core::budget::{Envelope, FitError, fit, write_member};
use dotaios_core::search::{
    Clock, ScopeRequest, SearchCache, SearchError, SearchOutcome, SearchRequest, SessionFilters,
    search, search_cached,
};
use dotaios_core::text::{JsonLayout, JsonWriter, utf16_len};
use jiff::Timestamp;
use jiff::tz::TimeZone;
use serde_json::{Map, Value};

use crate::error::RpcError;
use crate::sanitize::{SEARCH_ARRAY_CAP, sanitise_members};
use crate::tools::args::SearchArgs;

/// What replaces the cut part of a query that does not fit (§8.3 step 4).
const QUERY_MARKER: &str = "[query truncated]";

/// Runs the search (through the server's content cache when it has one) and returns the
/// fitted payload text.
pub(crate) fn run(
    folder: &Path,
    args: &SearchArgs,
    time_zone: &TimeZone,
    cache: Option<&SearchCache>,
) -> Result<String, RpcError> {
    let scope = ScopeRequest::parse(args.scope).ok_or(RpcError::Failed)?;
    let local_offset_ms = |local_ms: f64| local_offset(time_zone, local_ms);
    let filters = SessionFilters::default();
    let request = SearchRequest {
        query: &args.query,
        scope,
        limit: args.limit as usize,
        memory: args.mode,
        project: args.project.as_deref(),
        session_filters: &filters,
        clock: Clock {
            now_ms: Timestamp::now().as_millisecond() as f64,
            local_offset_ms: &local_offset_ms,
        },
        workers: std::thread::available_parallelism().map_or(1, |count| count.get().min(4)),
    };
    // The clock above is the real time, as the cache's racy window requires.
    let outcome = match cache {
        Some(cache) => search_cached(folder, &request, cache),
        None => search(folder, &request),
    }
    .map_err(public_error)?;
    fit_outcome(args, &outcome)
}

/// Builds the items and fits the envelope (§8.3).
fn fit_outcome(args: &SearchArgs, outcome: &SearchOutcome) -> Result<String, RpcError> {
    let items: Vec<Value> = outcome
        .groups
        .iter()
        .flat_map(|group| {
            group
                .results
                .iter()
                .map(move |hit| item(group.scope.as_str(), &hit.to_value()))
        })
        .collect();
    let scope_selection = match (&outcome.scope.project, &outcome.scope.project_id) {
        (Some(slug), Some(id)) => Some(serde_json::json!({"project": slug, "project_id": id})),
        _ if outcome.scope.projects_omitted => Some(serde_json::json!({"projects": "omitted"})),
        _ => None,
    };
    let envelope = SearchEnvelope {
        scope: args.scope,
        memory: outcome.memory.as_str(),
        receipt: outcome.receipt(),
        scope_selection,
        omissions: Value::Array(
            outcome
                .omissions
                .iter()
                .map(|omission| omission.to_value())
                .collect(),
        ),
        complete: outcome.complete(),
        limit: args.budget as usize,
    };
    match fit(
        &envelope,
        &items,
        &args.query,
        QUERY_MARKER,
        args.budget as usize,
    ) {
        Ok(fitted) => Ok(fitted.text),
        Err(FitError::TooSmall) => Err(RpcError::invalid_owned(format!(
            "budget {} is too small for the search response envelope",
            args.budget
        ))),
        Err(FitError::Unstable(_)) => Err(RpcError::Failed),
    }
}

/// `{"scope": <group scope>}` followed by the sanitised raw result (§7.4.1). A raw member
/// named `scope` replaces the group scope but keeps the first position.
fn item(group_scope: &str, raw: &Value) -> Value {
    let mut item = Map::new();
    item.insert("scope".into(), Value::from(group_scope));
    if let Value::Object(members) = raw {
        for (name, value) in sanitise_members(members, Some(SEARCH_ARRAY_CAP)) {
            item.insert(name, value);
        }
    }
    Value::Object(item)
}

fn public_error(error: SearchError) -> RpcError {
    if error.is_input_error() {
        RpcError::invalid_owned(error.to_string())
    } else {
        RpcError::Failed
    }
}

/// The offset from UTC (ms, positive east) of `time_zone` at a local wall-clock time given as
/// milliseconds since the epoch as if it were UTC; JavaScript reads offset-less date-times so.
fn local_offset(time_zone: &TimeZone, local_ms: f64) -> f64 {
    let Ok(instant) = Timestamp::from_millisecond(local_ms as i64) else {
        return 0.0;
    };
    let wall = instant.to_zoned(TimeZone::UTC).datetime();
    time_zone
        .to_ambiguous_zoned(wall)
        .compatible()
        .map_or(0.0, |zoned| f64::from(zoned.offset().seconds()) * 1000.0)
}

/// The search envelope of §7.4; everything but the items, the echoed query, the flag and
/// `used` is fixed for one request.
struct SearchEnvelope<'a> {
    scope: &'a str,
    memory: &'a str,
    receipt: &'a str,
    scope_selection: Option<Value>,
    omissions: Value,
    complete: bool,
    limit: usize,
}

impl Envelope for SearchEnvelope<'_> {
    type Item = Value;

    /// Pretty when the pretty form with `used = limit` fits, else compact (§8.2).
    fn layout(&self, items: &[Value], query: &str, truncated: bool) -> JsonLayout {
        let pretty = self.write(items, query, truncated, self.limit, JsonLayout::Pretty);
        if utf16_len(&pretty) <= self.limit {
            JsonLayout::Pretty
        } else {
            JsonLayout::Compact
        }
    }

    fn write(
        &self,
        items: &[Value],
        query: &str,
        truncated: bool,
        used: usize,
        layout: JsonLayout,
    ) -> String {
        let mut writer = JsonWriter::new(layout);
        writer.begin_object();
        writer.name("query");
        writer.str(query);
        writer.name("scope");
        writer.str(self.scope);
        writer.name("memory");
        writer.str(self.memory);
        writer.name("receipt");
        writer.str(self.receipt);
        writer.name("notice");
        writer.null();
        if let Some(selection) = &self.scope_selection {
            writer.member("scope_selection", selection);
        }
        writer.name("results");
        writer.begin_array();
        for item in items {
            writer.value(item);
        }
        writer.end_array();
        writer.name("complete");
        writer.bool(self.complete);
        writer.member("omissions", &self.omissions);
        write_member(&mut writer, self.limit, used, truncated);
        writer.end_object();
        writer.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::schema::SEARCH_BUDGET_MIN;
    use dotaios_core::folder::memory::MemoryMode;
    use dotaios_core::search::{Counts, Omission, OmissionReason, REQUEST_LIMITS, ScopeMeta};

    fn outcome(omissions: Vec<Omission>) -> SearchOutcome {
        SearchOutcome {
            groups: Vec::new(),
            scope: ScopeMeta {
                requested: ScopeRequest::All,
                project: None,
                project_id: None,
                projects_omitted: true,
            },
            omissions,
            memory: MemoryMode::Shared,
        }
    }

    fn worst_omissions(reason: OmissionReason) -> Vec<Omission> {
        let scopes = [
            "sessions",
            "context",
            "memory",
            "vault",
            "decisions",
            "skills",
            "references",
            "plugins",
        ];
        scopes
            .iter()
            .map(|scope| Omission {
                scope,
                reason,
                observed: Counts {
                    files: REQUEST_LIMITS.files + 1,
                    bytes: REQUEST_LIMITS.bytes + 1,
                    entries: REQUEST_LIMITS.entries + 1,
                },
            })
            .collect()
    }

    fn args(query: &str, budget: u32) -> SearchArgs {
        SearchArgs {
            mode: MemoryMode::Shared,
            query: query.into(),
            scope: "all",
            raw_scope: None,
            project: None,
            limit: 10,
            budget,
        }
    }

    /// §8.6: the worst-case envelope at its own fixed point stays under the advertised floor.
    #[test]
    fn derived_floor_is_within_3530() {
        let outcome = outcome(worst_omissions(OmissionReason::DirectoryEntriesExceeded));
        let mut limit = 0_u32;
        let mut derived = None;
        for _ in 0..8 {
            let envelope = SearchEnvelope {
                scope: "all",
                memory: "shared",
                receipt: "Memory: Shared",
                scope_selection: Some(serde_json::json!({"projects": "omitted"})),
                omissions: Value::Array(outcome.omissions.iter().map(Omission::to_value).collect()),
                complete: false,
                limit: limit as usize,
            };
            let layout = envelope.layout(&[], QUERY_MARKER, true);
            let text = dotaios_core::budget::fixed_point(|used| {
                envelope.write(&[], QUERY_MARKER, true, used, layout)
            })
            .unwrap();
            let length = utf16_len(&text) as u32;
            if length == limit {
                derived = Some(length);
                break;
            }
            limit = length;
        }
        let derived = derived.expect("the floor reaches a fixed point");
        assert_eq!(
            derived, 2498,
            "the contract's figure for the current reader limits"
        );
        assert!(derived <= SEARCH_BUDGET_MIN);
    }

    #[test]
    fn worst_case_answers_at_the_floor_without_dropping_omissions() {
        let outcome = outcome(worst_omissions(OmissionReason::FileTooLarge));
        let text = fit_outcome(&args("missing", SEARCH_BUDGET_MIN), &outcome).unwrap();
        assert_eq!(utf16_len(&text), 3243, "the contract's example figure");
        let value: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(value["omissions"].as_array().unwrap().len(), 8);
        assert_eq!(value["budget"]["used"], 3243);
        // A 1,000-unit query still fits at the floor (compactly), and is cut below it.
        let long = "😀".repeat(500);
        let text = fit_outcome(&args(&long, SEARCH_BUDGET_MIN), &outcome).unwrap();
        assert!(utf16_len(&text) <= 3530 && !text.contains('\n') && text.contains(&long));
        let text = fit_outcome(&args(&long, 3000), &outcome).unwrap();
        assert!(utf16_len(&text) <= 3000 && text.contains("[query truncated]"));
        let value: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(value["omissions"].as_array().unwrap().len(), 8);
        assert_eq!(value["budget"]["truncated"], true);
        let error = fit_outcome(&args(&long, 1000), &outcome).unwrap_err();
        assert_eq!(
            error.wire().1,
            "budget 1000 is too small for the search response envelope"
        );
    }

    #[test]
    fn items_keep_scope_first_and_lose_paths() {
        let raw = serde_json::json!({"source": "memory/events.jsonl", "scope": "custom", "path": "/x", "b": 1, "10": 2});
        let value = item("memory", &raw);
        let names: Vec<&String> = value.as_object().unwrap().keys().collect();
        assert_eq!(names, ["scope", "source", "b", "10"]);
        assert_eq!(value["scope"], "custom");
        assert_eq!(
            dotaios_core::text::to_json_compact(&value),
            r#"{"10":2,"scope":"custom","source":"memory/events.jsonl","b":1}"#
        );
    }
}
