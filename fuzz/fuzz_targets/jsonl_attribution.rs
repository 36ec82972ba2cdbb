//! JSONL timeline rows (contract 02 §7.1) and project attribution (contract 01 §6.6).
//!
//! Each input line is read as the readers read it (`\r?\n` split, blank lines skipped,
//! `JSON.parse` with lone surrogates replaced, objects and arrays kept) and attributed under
//! scopes resolved from a small real catalog (built with `parse_project_readme` and
//! `resolve_scope`, including a shared alias and a project without an id).
//!
//! Checks: no panic; without a scope every row is kept; a kept row names no project the scope
//! does not own; project mode never keeps a row unscoped, nor a row without attribution.
#![no_main]
#![forbid(unsafe_code)]

use std::sync::OnceLock;

use dotaios_core::folder::attribution::{Attribution, AttributionField, attribute};
use dotaios_core::folder::memory::MemoryMode;
use dotaios_core::folder::projects::{ProjectScope, parse_project_readme, resolve_scope};
use dotaios_core::text::js_trim;
use dotaios_fuzz::parse_json;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

const MODES: [MemoryMode; 3] = [MemoryMode::Shared, MemoryMode::Project, MemoryMode::Off];

fn scopes() -> &'static [ProjectScope] {
    static SCOPES: OnceLock<Vec<ProjectScope>> = OnceLock::new();
    SCOPES.get_or_init(|| {
        let catalog = [
            ("alpha", "---\nid: p:alpha\n---\n# Alpha\n"),
            (
                "beta",
                "---\nid: p:beta\nproject: shared-name\n---\n# Beta\n",
            ),
            ("gamma", "---\nproject: shared-name\n---\n# Gamma\n"),
        ]
        .map(|(slug, text)| parse_project_readme(slug, text).expect("valid README"));
        ["alpha", "p:beta", "gamma"]
            .iter()
            .map(|selector| resolve_scope(&catalog, selector).expect("resolvable selector"))
            .collect()
    })
}

fn check(row: &Value) {
    for mode in MODES {
        assert_eq!(attribute(row, None, mode), Attribution::Keep);
    }
    let project = AttributionField::of(row, "project");
    let project_id = AttributionField::of(row, "project_id");
    let unattributed =
        project == AttributionField::Absent && project_id == AttributionField::Absent;
    for scope in scopes() {
        for mode in MODES {
            let decision = attribute(row, Some(scope), mode);
            if mode == MemoryMode::Project {
                assert_ne!(decision, Attribution::KeepUnscoped);
                if unattributed {
                    assert_eq!(decision, Attribution::Exclude);
                }
            }
            if decision == Attribution::KeepUnscoped {
                assert!(unattributed);
            }
            if decision.is_kept() {
                assert_ne!(project, AttributionField::Invalid);
                assert_ne!(project_id, AttributionField::Invalid);
                if let AttributionField::Valid(name) = project {
                    assert!(scope.aliases.iter().any(|alias| alias == name));
                }
                if let AttributionField::Valid(id) = project_id {
                    assert_eq!(scope.id.as_deref(), Some(id));
                }
            }
        }
    }
}

fuzz_target!(|text: &str| {
    for line in text.split('\n') {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if js_trim(line).is_empty() {
            continue;
        }
        let Some(row) = parse_json(line).filter(|row| row.is_object() || row.is_array()) else {
            continue;
        };
        check(&row);
    }
});
