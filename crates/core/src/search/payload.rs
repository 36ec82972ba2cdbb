//! The `search_aios` payload (contract 05 §7.4, §7.6, §8.2, §8.3, §8.6): the outcome's groups
//! flattened into items and sanitised ([`crate::sanitize`]), the envelope's members in their
//! order, the pretty-or-compact layout, the query marker, and the error of a budget below the
//! envelope; the fitting algorithm itself is [`crate::budget`]'s.
//!
//! Plain values in, one `JSON.stringify`-identical text out. Nothing here knows the protocol or
//! reads a file. **Promise:** a returned text is never longer than the budget (UTF-16 units), its
//! `budget.used` equals its length exactly, and no omission record is ever dropped to fit.

use serde_json::{Map, Value, json};

use super::{ScopeRequest, SearchOutcome};
use crate::budget::{Envelope, fit, pretty_if_fits, write_member};
use crate::error::PayloadError;
use crate::folder::memory::{MemoryMode, OFF_NOTICE};
use crate::request::Budget;
use crate::sanitize::{SEARCH_ARRAY_CAP, sanitize_members};
use crate::text::{JsonLayout, JsonWriter, to_json_pretty};

/// What replaces the cut part of a query that does not fit (contract 05 §8.3 step 4).
pub const QUERY_MARKER: &str = "[query truncated]";

impl SearchOutcome {
    /// The fitted `search_aios` text of this outcome for `query` (as received) within `budget`
    /// UTF-16 units (contract 05 §8.3).
    pub fn mcp_payload(&self, query: &str, budget: Budget) -> Result<String, PayloadError> {
        let budget = budget.units();
        let items: Vec<Value> = self
            .ranked()
            .map(|(scope, hit)| item(scope.as_str(), &hit.to_value()))
            .collect();
        let envelope = SearchEnvelope {
            scope: self.scope.requested.as_str(),
            memory: self.memory.as_str(),
            receipt: self.receipt(),
            scope_selection: self.scope_selection(),
            omissions: Value::Array(
                self.omissions
                    .iter()
                    .map(|omission| omission.to_value())
                    .collect(),
            ),
            complete: self.complete(),
            limit: budget,
        };
        match fit(&envelope, &items, query, QUERY_MARKER, budget) {
            Ok(fitted) => Ok(fitted.text),
            Err(error) => Err(PayloadError::of_fit(error, budget, "search")),
        }
    }

    /// `scope_selection` (contract 05 §7.4): the selected project, or `{"projects":"omitted"}`
    /// when `all` ran without one.
    fn scope_selection(&self) -> Option<Value> {
        match (&self.scope.project, &self.scope.project_id) {
            (Some(slug), Some(id)) => Some(json!({"project": slug, "project_id": id})),
            _ if self.scope.projects_omitted => Some(json!({"projects": "omitted"})),
            _ => None,
        }
    }
}

/// The `search_aios` text in Off mode (contract 05 §7.6): the raw query and the raw (untrimmed)
/// scope argument, no results, no filesystem access.
pub fn off_mcp_payload(query: &str, raw_scope: Option<&str>) -> String {
    to_json_pretty(&json!({
        "query": query,
        "scope": raw_scope.unwrap_or(ScopeRequest::All.as_str()),
        "results": [],
        "omissions": [],
        "memory": MemoryMode::Off.as_str(),
        "receipt": MemoryMode::Off.receipt(),
        "notice": OFF_NOTICE,
        "complete": true,
    }))
}

/// `{"scope": <group scope>}` followed by the sanitised raw result (contract 05 §7.4.1). A raw
/// member named `scope` replaces the group scope but keeps the first position.
fn item(group_scope: &str, raw: &Value) -> Value {
    let mut item = Map::new();
    item.insert("scope".into(), Value::from(group_scope));
    if let Value::Object(members) = raw {
        for (name, value) in sanitize_members(members, Some(SEARCH_ARRAY_CAP)) {
            item.insert(name, value);
        }
    }
    Value::Object(item)
}

/// The search envelope of contract 05 §7.4; everything but the items, the echoed query, the flag
/// and `used` is fixed for one request.
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

    /// Pretty when the pretty form with `used = limit` fits, else compact (contract 05 §8.2).
    fn layout(&self, items: &[Value], query: &str, truncated: bool) -> JsonLayout {
        pretty_if_fits(self, items, query, truncated, self.limit)
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
    use crate::error::PublicError;
    use crate::request::SEARCH_BUDGET_MIN;
    use crate::search::{Counts, Omission, OmissionReason, REQUEST_LIMITS, Scope, ScopeMeta};
    use crate::text::utf16_len;

    fn outcome(omissions: Vec<Omission>) -> SearchOutcome {
        SearchOutcome {
            order: Vec::new(),
            explanations: Vec::new(),
            groups: Vec::new(),
            scope: ScopeMeta {
                requested: ScopeRequest::All,
                project: None,
                project_id: None,
                projects_omitted: true,
            },
            omissions,
            skipped_links: Vec::new(),
            skipped_files: Vec::new(),
            memory: MemoryMode::Shared,
        }
    }

    /// One omission per Shared `all` scope, each observed just past every request ceiling.
    fn worst_omissions(reason: OmissionReason) -> Vec<Omission> {
        Scope::SHARED_ALL
            .iter()
            .map(|scope| Omission {
                scope: scope.as_str(),
                reason,
                observed: Counts {
                    files: REQUEST_LIMITS.files + 1,
                    bytes: REQUEST_LIMITS.bytes + 1,
                    entries: REQUEST_LIMITS.entries + 1,
                },
                cause: None,
            })
            .collect()
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
                scope_selection: outcome.scope_selection(),
                omissions: Value::Array(outcome.omissions.iter().map(Omission::to_value).collect()),
                complete: false,
                limit: limit as usize,
            };
            let layout = envelope.layout(&[], QUERY_MARKER, true);
            let text = crate::budget::fixed_point(|used| {
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
        let floor = Budget::whole(SEARCH_BUDGET_MIN);
        let text = outcome.mcp_payload("missing", floor).unwrap();
        assert_eq!(utf16_len(&text), 3243, "the contract's example figure");
        let value: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(value["omissions"].as_array().unwrap().len(), 8);
        assert_eq!(value["budget"]["used"], 3243);
        // A 1,000-unit query still fits at the floor (compactly), and is cut below it.
        let long = "😀".repeat(500);
        let text = outcome.mcp_payload(&long, floor).unwrap();
        assert!(utf16_len(&text) <= 3530 && !text.contains('\n') && text.contains(&long));
        let text = outcome.mcp_payload(&long, Budget::whole(3000)).unwrap();
        assert!(utf16_len(&text) <= 3000 && text.contains("[query truncated]"));
        let value: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(value["omissions"].as_array().unwrap().len(), 8);
        assert_eq!(value["budget"]["truncated"], true);
        let error = outcome.mcp_payload(&long, Budget::whole(1000)).unwrap_err();
        assert_eq!(
            error,
            PayloadError::BudgetTooSmall {
                budget: 1000,
                envelope: "search"
            }
        );
        assert!(error.is_input_error());
        assert_eq!(
            error.message(),
            "budget 1000 is too small for the search response envelope"
        );
    }

    #[test]
    fn items_keep_scope_first_and_lose_paths() {
        let raw = json!({"source": "memory/events.jsonl", "scope": "custom", "path": "/x", "b": 1, "10": 2});
        let value = item("memory", &raw);
        let names: Vec<&String> = value.as_object().unwrap().keys().collect();
        assert_eq!(names, ["scope", "source", "b", "10"]);
        assert_eq!(value["scope"], "custom");
        assert_eq!(
            crate::text::to_json_compact(&value),
            r#"{"10":2,"scope":"custom","source":"memory/events.jsonl","b":1}"#
        );
    }

    #[test]
    fn off_payload_echoes_the_raw_arguments() {
        let text = off_mcp_payload(" private ", Some(" memory "));
        let value: Value = serde_json::from_str(&text).unwrap();
        let names: Vec<&String> = value.as_object().unwrap().keys().collect();
        assert_eq!(
            names,
            [
                "query",
                "scope",
                "results",
                "omissions",
                "memory",
                "receipt",
                "notice",
                "complete"
            ]
        );
        assert_eq!(
            (value["query"].as_str(), value["scope"].as_str()),
            (Some(" private "), Some(" memory "))
        );
        assert_eq!(
            serde_json::from_str::<Value>(&off_mcp_payload("q", None)).unwrap()["scope"],
            "all"
        );
    }
}
