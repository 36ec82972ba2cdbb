//! The skill catalog and resolver (contract 04) behind `dotaios skills`, `dotaios skills resolve`
//! and the MCP tool `resolve_skill`.
//!
//! - [`resolve_skill`] is the one entry point both surfaces call: memory policy, root,
//!   Project-mode identity check, catalog; its [`Resolution`] ranks ([`Resolution::matches`])
//!   and fits the `resolve_skill` payload ([`Resolution::payload`]).
//! - [`read_catalog`] lists `skills/` through the contained reader and returns the [`Skill`]s
//!   in catalog order (name, then directory, byte order); [`read_skill_text`] reads one whole
//!   `SKILL.md` for display.
//! - [`Skill::uri`], [`resource_entries`] and [`read_skill_resource`] serve skills as the
//!   adapter's MCP resources: path-free URIs, and only what the catalog lists is read.
//! - [`rank`] scores every skill against an intent and orders the matches; [`round_score`] and
//!   [`confidence`] are the numbers surfaces print.
//! - [`fit_payload`] builds the bounded `resolve_skill` text from ranked matches.
//! - [`routing_hint`] and [`escape_table_cell`] are the shared pieces of the generated tables
//!   (`skills/RESOLVER.md`, the boot context).
//!
//! **Architecture invariant:** routing is lexical and deterministic: no model, no network, no
//! environment. Only a bounded prefix of each `SKILL.md` (its frontmatter and headings) is read
//! for routing, and
//! nothing here writes. Errors are typed ([`SkillError`], [`CatalogError`], [`PayloadError`]),
//! each with its internal code and fixed public message (`crate::error::PublicError`); the
//! surfaces only decide whether to show it.
//!
//! ```no_run
//! use dotaios_contained::Root;
//! use dotaios_core::skills::{rank, read_catalog, round_score};
//! let root = Root::open(std::path::Path::new("/home/ada/aios"))?;
//! let catalog = read_catalog(&root)?;
//! if let Some(best) = rank("plan my day", &catalog).first() {
//!     println!("{} {} ({})", best.skill.name, round_score(best.score), best.reason);
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod catalog;
mod payload;
mod request;
mod resolve;
mod resource;
mod tokenize;

pub use self::catalog::{
    CatalogError, Instructions, MAX_HEADING_CHARS, MAX_HEADINGS, MAX_SKILL_FILE_BYTES, Skill,
    find_invalid_skill, read_catalog, read_instructions, read_skill_text,
};
pub use self::payload::{
    BudgetHint, INSTRUCTIONS_MARKER, INTENT_MARKER, MatchItem, MatchUri, MemoryFields,
    SkillPayload, fit_items, fit_payload,
};
pub use self::request::{Resolution, SkillError, SkillRequest, read_catalog_at, resolve_skill};
pub use self::resolve::{
    ROUTE_THRESHOLD, Ranked, Reason, candidates, confidence, rank, round_score,
};
pub use self::resource::{
    MAX_SKILL_URI_BYTES, SKILL_MIME_TYPE, SKILL_URI_PREFIX, SKILL_URI_SUFFIX, SkillResourceEntry,
    is_skill_uri, read_skill_resource, resource_entries,
};
pub use crate::error::PayloadError;

/// The hint a generated table shows for a skill: its triggers joined with ` · `, else its
/// description, else its name (contract 04 §1.5, §5.4). Not escaped.
pub fn routing_hint(skill: &Skill) -> String {
    if !skill.triggers.is_empty() {
        skill.triggers.join(" \u{b7} ")
    } else if !skill.description.is_empty() {
        skill.description.clone()
    } else {
        skill.name.clone()
    }
}

/// Makes `text` safe inside one Markdown table cell: every `|` becomes `\|`, and every line
/// break with the whitespace around it (`\s*\n\s*`, JS `\s`) becomes one space. That regex
/// replaces each maximal run of JS whitespace that holds a `\n` with one space and leaves
/// other runs alone.
pub fn escape_table_cell(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut run = String::new();
    let flush = |out: &mut String, run: &mut String| {
        if run.contains('\n') {
            out.push(' ');
        } else {
            out.push_str(run);
        }
        run.clear();
    };
    for c in text.chars() {
        if crate::text::is_js_space(c) {
            run.push(c);
            continue;
        }
        flush(&mut out, &mut run);
        if c == '|' {
            out.push_str("\\|");
        } else {
            out.push(c);
        }
    }
    flush(&mut out, &mut run);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn skill(dir: &str, description: &str, triggers: &[&str]) -> Skill {
        Skill::new(dir, description, triggers)
    }

    #[test]
    fn hints_fall_back_from_triggers_to_description_to_name() {
        assert_eq!(routing_hint(&skill("x", "d", &["a", "b"])), "a \u{b7} b");
        assert_eq!(routing_hint(&skill("x", "d", &[])), "d");
        assert_eq!(routing_hint(&skill("x", "", &[])), "x");
    }

    #[test]
    fn cells_escape_pipes_and_fold_line_breaks() {
        assert_eq!(escape_table_cell("a|b"), "a\\|b");
        assert_eq!(escape_table_cell("a  \n \r\n\t b"), "a b");
        assert_eq!(escape_table_cell("a  b\n"), "a  b ");
        assert_eq!(escape_table_cell("\nx"), " x");
        assert_eq!(escape_table_cell("a\rb"), "a\rb");
        assert_eq!(escape_table_cell("a\u{2028}\nb"), "a b");
    }
}
