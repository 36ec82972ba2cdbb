//! Project attribution of timeline rows (contract 01 §6.6): which session, signal and event rows a
//! working-context project scope keeps.
//!
//! Pure: it looks at the `project` and `project_id` fields of one parsed JSON row and at the
//! scope built by [`crate::folder::projects::resolve_scope`]. Search uses its own, simpler rule
//! (contract 03 §10.5).

use serde_json::Value;

use crate::folder::memory::MemoryMode;
use crate::folder::projects::ProjectScope;
use crate::text::js_trim;

/// One attribution field of a row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttributionField<'a> {
    /// The key is missing or its value is `null`.
    Absent,
    /// A non-empty string equal to its JS-trimmed form.
    Valid(&'a str),
    /// Present but not valid: an empty or padded string, a number, a boolean, an array or an
    /// object.
    Invalid,
}

impl<'a> AttributionField<'a> {
    /// Reads `key` of `row`. Rows that are not JSON objects have no fields.
    pub fn of(row: &'a Value, key: &str) -> AttributionField<'a> {
        match row.get(key) {
            None | Some(Value::Null) => AttributionField::Absent,
            Some(Value::String(text)) if !text.is_empty() && js_trim(text) == text => {
                AttributionField::Valid(text)
            }
            Some(_) => AttributionField::Invalid,
        }
    }

    fn is_present(self) -> bool {
        !matches!(self, AttributionField::Absent)
    }
}

/// What the filter decided for one row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Attribution {
    /// Keep the row.
    Keep,
    /// Keep the row and mark it ` (unscoped)`: a scope exists, the row names no project, and
    /// the memory mode is not project. Under the current policy a scope exists only in project
    /// mode, so this is never produced there; renderers keep the support.
    KeepUnscoped,
    /// Drop the row.
    Exclude,
}

impl Attribution {
    /// Whether the row stays.
    pub fn is_kept(self) -> bool {
        !matches!(self, Attribution::Exclude)
    }
}

/// Applies the rules of contract 01 §6.6, in their order, to one row. Without a scope every row
/// passes.
pub fn attribute(row: &Value, scope: Option<&ProjectScope>, mode: MemoryMode) -> Attribution {
    let Some(scope) = scope else {
        return Attribution::Keep;
    };
    let project = AttributionField::of(row, "project");
    let project_id = AttributionField::of(row, "project_id");
    if !project.is_present() && !project_id.is_present() {
        return match mode {
            MemoryMode::Project => Attribution::Exclude,
            MemoryMode::Shared | MemoryMode::Off => Attribution::KeepUnscoped,
        };
    }
    if project == AttributionField::Invalid || project_id == AttributionField::Invalid {
        return Attribution::Exclude;
    }
    if let AttributionField::Valid(name) = project
        && !scope.aliases.iter().any(|alias| alias == name)
    {
        return Attribution::Exclude;
    }
    if let AttributionField::Valid(id) = project_id
        && scope.id.as_deref() != Some(id)
    {
        return Attribution::Exclude;
    }
    if let AttributionField::Valid(name) = project {
        let unique = scope.unique_aliases.iter().any(|alias| alias == name);
        if !unique && !project_id.is_present() {
            return Attribution::Exclude;
        }
    }
    Attribution::Keep
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn scope(id: Option<&str>, aliases: &[&str], unique: &[&str]) -> ProjectScope {
        ProjectScope {
            filter: "rust-port".to_owned(),
            aliases: aliases.iter().map(|s| (*s).to_owned()).collect(),
            unique_aliases: unique.iter().map(|s| (*s).to_owned()).collect(),
            id: id.map(str::to_owned),
            record: 0,
        }
    }

    fn decide(row: Value, scope: Option<&ProjectScope>, mode: MemoryMode) -> Attribution {
        attribute(&row, scope, mode)
    }

    #[test]
    fn without_a_scope_every_row_passes() {
        for row in [
            json!({}),
            json!({"project": 3}),
            json!([1]),
            json!("x"),
            json!(null),
        ] {
            assert_eq!(decide(row, None, MemoryMode::Shared), Attribution::Keep);
        }
    }

    #[test]
    fn rule_1_unattributed_rows_depend_on_the_mode() {
        let s = scope(Some("p1"), &["rust-port", "p1"], &["rust-port", "p1"]);
        for row in [
            json!({}),
            json!({"project": null, "project_id": null}),
            json!([1, 2]),
        ] {
            assert_eq!(
                decide(row.clone(), Some(&s), MemoryMode::Project),
                Attribution::Exclude
            );
            assert_eq!(
                decide(row, Some(&s), MemoryMode::Shared),
                Attribution::KeepUnscoped
            );
        }
    }

    #[test]
    fn rule_2_invalid_fields_exclude() {
        let s = scope(Some("p1"), &["rust-port", "p1"], &["rust-port", "p1"]);
        for row in [
            json!({"project": ""}),
            json!({"project": " rust-port"}),
            json!({"project": "rust-port\n"}),
            json!({"project": 7}),
            json!({"project_id": true}),
            json!({"project": "rust-port", "project_id": ""}),
            json!({"project": ["rust-port"], "project_id": "p1"}),
        ] {
            assert_eq!(
                decide(row.clone(), Some(&s), MemoryMode::Project),
                Attribution::Exclude,
                "{row}"
            );
        }
    }

    #[test]
    fn rules_3_and_4_aliases_and_ids() {
        let s = scope(
            Some("p1"),
            &["rust-port", "rp", "p1"],
            &["rust-port", "rp", "p1"],
        );
        assert_eq!(
            decide(json!({"project": "other"}), Some(&s), MemoryMode::Project),
            Attribution::Exclude
        );
        assert_eq!(
            decide(
                json!({"project": "Rust-Port"}),
                Some(&s),
                MemoryMode::Project
            ),
            Attribution::Exclude
        );
        assert_eq!(
            decide(json!({"project_id": "p2"}), Some(&s), MemoryMode::Project),
            Attribution::Exclude
        );
        assert_eq!(
            decide(
                json!({"project": "rust-port", "project_id": "p2"}),
                Some(&s),
                MemoryMode::Project
            ),
            Attribution::Exclude
        );
        assert_eq!(
            decide(json!({"project": "rp"}), Some(&s), MemoryMode::Project),
            Attribution::Keep
        );
        assert_eq!(
            decide(json!({"project_id": "p1"}), Some(&s), MemoryMode::Project),
            Attribution::Keep
        );
        // The id is an alias, so a `project` holding the id matches.
        assert_eq!(
            decide(json!({"project": "p1"}), Some(&s), MemoryMode::Project),
            Attribution::Keep
        );
        assert_eq!(
            decide(
                json!({"project": "rust-port", "project_id": "p1"}),
                Some(&s),
                MemoryMode::Project
            ),
            Attribution::Keep
        );
        // A scope without an id excludes every `project_id`.
        let no_id = scope(None, &["rust-port"], &["rust-port"]);
        assert_eq!(
            decide(
                json!({"project_id": "p1"}),
                Some(&no_id),
                MemoryMode::Project
            ),
            Attribution::Exclude
        );
        assert_eq!(
            decide(
                json!({"project": "rust-port"}),
                Some(&no_id),
                MemoryMode::Project
            ),
            Attribution::Keep
        );
    }

    #[test]
    fn rule_5_an_ambiguous_alias_needs_the_id() {
        // `shared-name` is an alias of this record and of another one.
        let s = scope(
            Some("p1"),
            &["rust-port", "shared-name", "p1"],
            &["rust-port", "p1"],
        );
        assert_eq!(
            decide(
                json!({"project": "shared-name"}),
                Some(&s),
                MemoryMode::Project
            ),
            Attribution::Exclude
        );
        assert_eq!(
            decide(
                json!({"project": "shared-name", "project_id": "p1"}),
                Some(&s),
                MemoryMode::Project
            ),
            Attribution::Keep
        );
        assert_eq!(
            decide(
                json!({"project": "shared-name", "project_id": null}),
                Some(&s),
                MemoryMode::Project
            ),
            Attribution::Exclude
        );
        assert!(Attribution::KeepUnscoped.is_kept());
        assert!(!Attribution::Exclude.is_kept());
    }
}
