//! The scope a working-context selector resolves to (contract 01 §6.5): which catalog record it
//! names, that record's aliases, which of them are unique in the catalog, and its unique id.
//!
//! Pure: it works on a catalog already read and never touches the folder. Its errors are raised
//! after the safe read and are never turned into the generic read failure.

use super::record::ProjectRecord;

/// The scope a working-context selector resolves to (contract 01 §6.5).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProjectScope {
    /// The selected record's slug (reported as `scope.project`).
    pub filter: String,
    /// The record's distinct non-empty `slug`, `project` and `id`, in that order.
    pub aliases: Vec<String>,
    /// Those aliases that belong to the alias set of exactly one catalog record.
    pub unique_aliases: Vec<String>,
    /// The record's id when it is unique in the catalog.
    pub id: Option<String>,
    /// The index of the selected record in the catalog.
    pub record: usize,
}

/// Why a working-context selector did not resolve. These are raised after the safe read and
/// are not turned into the generic read failure.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ScopeError {
    /// More than one record matches (the trimmed selector is echoed).
    #[error("Project reference \"{selector}\" is ambiguous. Use its stable id.")]
    Ambiguous {
        /// The trimmed selector.
        selector: String,
    },
    /// No record matches.
    #[error("Project selector is unknown.")]
    Unknown,
}

impl ScopeError {
    /// `DOTAIOS_AMBIGUOUS_PROJECT` or `DOTAIOS_PROJECT_SELECTOR_UNKNOWN`.
    pub fn code(&self) -> &'static str {
        match self {
            ScopeError::Ambiguous { .. } => "DOTAIOS_AMBIGUOUS_PROJECT",
            ScopeError::Unknown => "DOTAIOS_PROJECT_SELECTOR_UNKNOWN",
        }
    }
}

fn aliases_of(record: &ProjectRecord) -> Vec<&str> {
    let mut aliases: Vec<&str> = Vec::with_capacity(3);
    for alias in [
        Some(record.slug.as_str()),
        Some(record.project.as_str()),
        record.id.as_deref(),
    ]
    .into_iter()
    .flatten()
    {
        if !alias.is_empty() && !aliases.contains(&alias) {
            aliases.push(alias);
        }
    }
    aliases
}

/// Resolves a trimmed working-context selector against the catalog: a record matches when its
/// `id`, `slug` or `project` equals the selector exactly.
pub fn resolve_scope(
    catalog: &[ProjectRecord],
    selector: &str,
) -> Result<ProjectScope, ScopeError> {
    let mut candidates = catalog.iter().enumerate().filter(|(_, record)| {
        record.id.as_deref() == Some(selector)
            || record.slug == selector
            || record.project == selector
    });
    let (index, record) = candidates.next().ok_or(ScopeError::Unknown)?;
    if candidates.next().is_some() {
        return Err(ScopeError::Ambiguous {
            selector: selector.to_owned(),
        });
    }
    let aliases = aliases_of(record);
    let unique_aliases = aliases
        .iter()
        .filter(|alias| {
            catalog
                .iter()
                .filter(|other| aliases_of(other).contains(alias))
                .count()
                == 1
        })
        .map(|alias| (*alias).to_owned())
        .collect();
    let id = record
        .id
        .as_ref()
        .filter(|id| {
            !id.is_empty()
                && catalog
                    .iter()
                    .filter(|other| other.id.as_ref() == Some(id))
                    .count()
                    == 1
        })
        .cloned();
    Ok(ProjectScope {
        filter: record.slug.clone(),
        aliases: aliases.into_iter().map(str::to_owned).collect(),
        unique_aliases,
        id,
        record: index,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::folder::projects::parse_project_readme;

    fn catalog() -> Vec<ProjectRecord> {
        vec![
            parse_project_readme("alt", "---\nid: p-alt\nproject: rust-port\n---\n").unwrap(),
            parse_project_readme("plain", "").unwrap(),
            parse_project_readme("rust-port", "---\nid: proj-rust-001\n---\n").unwrap(),
        ]
    }

    #[test]
    fn scope_resolution() {
        let catalog = catalog();
        let scope = resolve_scope(&catalog, "proj-rust-001").unwrap();
        assert_eq!(scope.filter, "rust-port");
        assert_eq!(scope.record, 2);
        assert_eq!(scope.aliases, ["rust-port", "proj-rust-001"]);
        // `rust-port` is also the alias of `alt`, so only the id is unique.
        assert_eq!(scope.unique_aliases, ["proj-rust-001"]);
        assert_eq!(scope.id.as_deref(), Some("proj-rust-001"));
        let plain = resolve_scope(&catalog, "plain").unwrap();
        assert_eq!(
            (plain.aliases.as_slice(), plain.id.as_deref()),
            (["plain".to_owned()].as_slice(), None)
        );
        let alt = resolve_scope(&catalog, "p-alt").unwrap();
        assert_eq!(alt.aliases, ["alt", "rust-port", "p-alt"]);
        assert_eq!(alt.unique_aliases, ["alt", "p-alt"]);
    }

    #[test]
    fn scope_errors() {
        let catalog = catalog();
        let ambiguous = resolve_scope(&catalog, "rust-port").unwrap_err();
        assert_eq!(
            ambiguous.to_string(),
            "Project reference \"rust-port\" is ambiguous. Use its stable id."
        );
        assert_eq!(ambiguous.code(), "DOTAIOS_AMBIGUOUS_PROJECT");
        let unknown = resolve_scope(&catalog, "Rust-Port").unwrap_err();
        assert_eq!(unknown.to_string(), "Project selector is unknown.");
        assert_eq!(unknown.code(), "DOTAIOS_PROJECT_SELECTOR_UNKNOWN");
        assert_eq!(resolve_scope(&[], "x"), Err(ScopeError::Unknown));
    }
}
