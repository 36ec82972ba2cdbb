//! Project README → catalog record (contract 01 §3.7, §6.2): frontmatter, headings, description and
//! the bounded context excerpt.
//!
//! Checks: no panic; an error happens exactly when the frontmatter is unusable; a record keeps
//! the slug and text it was given, has non-empty trimmed names, and its excerpt respects the
//! 1,200-unit bound (ending with `…` exactly when clipped).
#![no_main]
#![forbid(unsafe_code)]

use dotaios_core::folder::frontmatter::{parse_mapping, split_frontmatter};
use dotaios_core::folder::projects::{EXCERPT_UNITS, ReadmeProblem, parse_project_readme};
use dotaios_core::text::{js_trim, utf16_len};
use libfuzzer_sys::fuzz_target;

const SLUG: &str = "fuzz-project";

fn trimmed_non_empty(text: &str) -> bool {
    !text.is_empty() && js_trim(text) == text
}

fuzz_target!(|text: &str| {
    let frontmatter_ok =
        split_frontmatter(text).is_none_or(|block| parse_mapping(block.yaml).is_ok());
    match parse_project_readme(SLUG, text) {
        Err(ReadmeProblem::InvalidYaml(_) | ReadmeProblem::NotMapping) => assert!(!frontmatter_ok),
        Err(ReadmeProblem::ConflictingIds) => assert!(frontmatter_ok),
        Ok(record) => {
            assert!(frontmatter_ok);
            assert_eq!(record.slug, SLUG);
            assert_eq!(record.readme, text);
            assert!(trimmed_non_empty(&record.project));
            assert!(trimmed_non_empty(&record.name));
            assert!(trimmed_non_empty(&record.status));
            assert!(record.id.as_deref().is_none_or(trimmed_non_empty));
            assert!(
                record
                    .domains
                    .iter()
                    .all(|domain| trimmed_non_empty(domain))
            );
            assert!(utf16_len(&record.context_excerpt) <= EXCERPT_UNITS);
            if record.context_excerpt_clipped {
                assert!(record.context_excerpt.ends_with('\u{2026}'));
            }
        }
    }
});
