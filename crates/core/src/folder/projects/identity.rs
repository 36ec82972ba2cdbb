//! The portable `{id, slug}` identity (contract 01 §6.3) that search and `resolve_skill`
//! require: the directly named README strictly, then every other project leniently, each from
//! its bounded frontmatter prefix, with what was observed so the caller can revalidate it.
//!
//! It reads at most 16 KiB of each README through the contained reader and the request ledger,
//! never the whole catalog record; it never writes and its errors carry no path.

use dotaios_contained::{EntryKind, Identity, Ledger, ReadError, RelPath, Root};

use super::{PROJECTS_DIR, README_CAP, rel};
use crate::folder::frontmatter::{
    FrontmatterError, YamlValue, parse_mapping, split_frontmatter_prefix,
};
use crate::folder::selector::{SelectorError, check_canonical_selector, is_project_slug};

/// The frontmatter prefix the portable identity reads (16 KiB, contract 01 §5.5).
pub const IDENTITY_PREFIX: u64 = 16 << 10;

/// The evidence reader's per-directory bound (contract 01 §5.3), used by the identity scan.
pub const IDENTITY_SCAN_DIRECTORY_LIMIT: u64 = 8192;

/// A portable project identity (contract 01 §6.3): a valid stable id and its directory slug.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PortableIdentity {
    /// The stable id (it passes the canonical selector grammar).
    pub id: String,
    /// The directory name under `projects/`.
    pub slug: String,
}

/// A resolved identity plus what was observed to resolve it, so the evidence reader can
/// revalidate every identity once more before it returns results (contract 01 §4.6).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IdentityResolution {
    /// The selected project.
    pub identity: PortableIdentity,
    /// The `projects/` listing and every README read, with the identities seen.
    pub observed: Vec<(RelPath, Identity)>,
}

/// Why the directly named project's identity is invalid (`DOTAIOS_PROJECT_CATALOG_INVALID`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum IdentityProblem {
    /// The README exists but cannot be read safely: a link or special file, larger than 1 MiB,
    /// or not strict UTF-8.
    #[error("project identity README cannot be read safely")]
    Unreadable(ReadError),
    /// No frontmatter block closed within the first 16 KiB, or its YAML is invalid.
    #[error("project identity frontmatter is invalid")]
    FrontmatterInvalid,
    /// The frontmatter is not a mapping.
    #[error("project identity frontmatter is not a mapping")]
    NotMapping,
    /// `id` or `project_id` is present but not a non-empty string.
    #[error("project identity id fields must be non-empty strings")]
    InvalidIdFields,
    /// `id` and `project_id` differ.
    #[error("project identity has different id and project_id values")]
    ConflictingIds,
    /// Neither `id` nor `project_id` is present.
    #[error("project identity has no stable id")]
    MissingId,
    /// The id does not pass the canonical selector grammar.
    #[error("project identity requires a valid stable id")]
    InvalidId,
}

/// Why a portable identity could not be resolved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum IdentityError {
    /// The selector failed the canonical grammar (an input error).
    #[error(transparent)]
    Selector(#[from] SelectorError),
    /// No project matches.
    #[error("project selector is unknown")]
    Unknown,
    /// More than one project matches (the tools' text, contract 05 §6.8).
    #[error("{}", crate::error::PROJECT_AMBIGUOUS_MESSAGE)]
    Ambiguous,
    /// The directly named project's identity is invalid (fatal).
    #[error(transparent)]
    CatalogInvalid(IdentityProblem),
    /// The reader failed outside any one record (the `projects/` listing, the request ledger,
    /// an observed change, an operating-system error); the caller maps it to its own code.
    #[error("project identity could not be read: {0}")]
    Read(ReadError),
}

impl IdentityError {
    /// The internal code, or `None` for [`IdentityError::Read`], which the caller maps.
    pub fn code(&self) -> Option<&'static str> {
        match self {
            IdentityError::Selector(error) => Some(error.code()),
            IdentityError::Unknown => Some("DOTAIOS_PROJECT_SELECTOR_UNKNOWN"),
            IdentityError::Ambiguous => Some("DOTAIOS_PROJECT_SELECTOR_AMBIGUOUS"),
            IdentityError::CatalogInvalid(_) => Some("DOTAIOS_PROJECT_CATALOG_INVALID"),
            IdentityError::Read(_) => None,
        }
    }
}

/// Resolves `selector` to a portable identity (contract 01 §6.3), reading only bounded frontmatter:
/// the directly named record strictly, then every other project directory leniently. A record
/// matches when the selector equals its slug or its id (the `project` alias is not used).
pub fn resolve_portable_identity(
    root: &Root,
    ledger: &mut Ledger,
    selector: &str,
) -> Result<IdentityResolution, IdentityError> {
    check_canonical_selector(selector)?;
    let mut observed = Vec::new();
    let direct = if is_project_slug(selector) {
        match read_identity(root, ledger, selector, &mut observed) {
            Ok(identity) => identity,
            Err(Failure::Record(problem)) => return Err(IdentityError::CatalogInvalid(problem)),
            Err(Failure::Read(error)) => return Err(IdentityError::Read(error)),
        }
    } else {
        None
    };

    let shelf = rel(PROJECTS_DIR);
    let listing = root
        .list_dir(Some(&shelf), IDENTITY_SCAN_DIRECTORY_LIMIT, ledger)
        .map_err(IdentityError::Read)?;
    let direct_found = direct.is_some();
    let mut matches: Vec<PortableIdentity> = direct.into_iter().collect();
    if let Some(listing) = listing {
        observed.push((shelf, listing.identity));
        for entry in listing.entries {
            // Linked entries are skipped silently, non-directories ignored, names that are
            // not slugs unselectable.
            if entry.kind != EntryKind::Directory {
                continue;
            }
            let Some(slug) = entry.name.to_str().filter(|name| is_project_slug(name)) else {
                continue;
            };
            if direct_found && slug == selector {
                continue;
            }
            match read_identity(root, ledger, slug, &mut observed) {
                Ok(Some(identity)) => {
                    if identity.slug == selector || identity.id == selector {
                        matches.push(identity);
                    }
                }
                Ok(None) | Err(Failure::Record(_)) => {}
                Err(Failure::Read(error)) => return Err(IdentityError::Read(error)),
            }
        }
    }
    match matches.len() {
        0 => Err(IdentityError::Unknown),
        1 => Ok(IdentityResolution {
            identity: matches.remove(0),
            observed,
        }),
        _ => Err(IdentityError::Ambiguous),
    }
}

enum Failure {
    /// This record is invalid: fatal when named directly, unselectable in the scan.
    Record(IdentityProblem),
    /// The request cannot go on.
    Read(ReadError),
}

/// Reads the identity of `projects/<slug>/README.md` from its bounded frontmatter. `Ok(None)`
/// when the README (or the directory) is absent.
fn read_identity(
    root: &Root,
    ledger: &mut Ledger,
    slug: &str,
    observed: &mut Vec<(RelPath, Identity)>,
) -> Result<Option<PortableIdentity>, Failure> {
    let path = rel(&format!("{PROJECTS_DIR}/{slug}/README.md"));
    let prefix = match root.read_prefix(&path, README_CAP, IDENTITY_PREFIX, ledger) {
        Ok(Some(prefix)) => prefix,
        Ok(None) => return Ok(None),
        Err(
            error @ (ReadError::Unsafe(_)
            | ReadError::NotRegular(_)
            | ReadError::TooLarge
            | ReadError::InvalidUtf8),
        ) => return Err(Failure::Record(IdentityProblem::Unreadable(error))),
        Err(error) => return Err(Failure::Read(error)),
    };
    observed.push((path, prefix.identity));
    let text = decode_prefix(&prefix.bytes, prefix.complete).ok_or(Failure::Record(
        IdentityProblem::Unreadable(ReadError::InvalidUtf8),
    ))?;
    identity_from_frontmatter(slug, text, prefix.complete)
        .map(Some)
        .map_err(Failure::Record)
}

/// Strict UTF-8, except that a prefix cut inside a character loses that character.
fn decode_prefix(bytes: &[u8], complete: bool) -> Option<&str> {
    match std::str::from_utf8(bytes) {
        Ok(text) => Some(text),
        Err(error) if !complete && error.error_len().is_none() => {
            std::str::from_utf8(&bytes[..error.valid_up_to()]).ok()
        }
        Err(_) => None,
    }
}

/// The strict identity checks of contract 01 §6.3 step 2 on a README prefix.
fn identity_from_frontmatter(
    slug: &str,
    prefix: &str,
    at_end_of_file: bool,
) -> Result<PortableIdentity, IdentityProblem> {
    let block = split_frontmatter_prefix(prefix, at_end_of_file)
        .ok_or(IdentityProblem::FrontmatterInvalid)?;
    let metadata = parse_mapping(block.yaml).map_err(|error| match error {
        FrontmatterError::InvalidYaml(_) => IdentityProblem::FrontmatterInvalid,
        FrontmatterError::NotMapping => IdentityProblem::NotMapping,
    })?;
    // Present means the key exists, whatever its value; ids are not trimmed here, so a padded
    // id fails the grammar below.
    let field = |key: &str| match metadata.get(key) {
        None => Ok(None),
        Some(YamlValue::String(text)) if !text.is_empty() => Ok(Some(text.as_str())),
        Some(_) => Err(IdentityProblem::InvalidIdFields),
    };
    let id = field("id")?;
    let legacy = field("project_id")?;
    if let (Some(id), Some(legacy)) = (id, legacy)
        && id != legacy
    {
        return Err(IdentityProblem::ConflictingIds);
    }
    let id = id.or(legacy).ok_or(IdentityProblem::MissingId)?;
    check_canonical_selector(id).map_err(|_| IdentityProblem::InvalidId)?;
    Ok(PortableIdentity {
        id: id.to_owned(),
        slug: slug.to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identity_checks() {
        let id = |text: &str| identity_from_frontmatter("s", text, true);
        assert_eq!(
            id("---\nid: café:client.01\n---\n").unwrap().id,
            "café:client.01"
        );
        assert_eq!(id("---\nproject_id: p-1\n---\n").unwrap().id, "p-1");
        assert_eq!(
            id("---\nid: p-1\nproject_id: p-1\n---\n").unwrap().id,
            "p-1"
        );
        assert_eq!(id("# no block\n"), Err(IdentityProblem::FrontmatterInvalid));
        assert_eq!(
            id("\u{feff}---\nid: a\n---\n"),
            Err(IdentityProblem::FrontmatterInvalid)
        );
        assert_eq!(
            id("---\nid: [x\n---\n"),
            Err(IdentityProblem::FrontmatterInvalid)
        );
        assert_eq!(id("---\n- a\n---\n"), Err(IdentityProblem::NotMapping));
        assert_eq!(
            id("---\nid: 123\n---\n"),
            Err(IdentityProblem::InvalidIdFields)
        );
        assert_eq!(
            id("---\nid: ''\n---\n"),
            Err(IdentityProblem::InvalidIdFields)
        );
        assert_eq!(id("---\nid:\n---\n"), Err(IdentityProblem::InvalidIdFields));
        assert_eq!(
            id("---\nid: a\nproject_id: b\n---\n"),
            Err(IdentityProblem::ConflictingIds)
        );
        assert_eq!(id("---\nname: x\n---\n"), Err(IdentityProblem::MissingId));
        assert_eq!(id("---\nid: ' a'\n---\n"), Err(IdentityProblem::InvalidId));
        assert_eq!(id("---\nid: a/b\n---\n"), Err(IdentityProblem::InvalidId));
        assert_eq!(
            IdentityProblem::InvalidId.to_string(),
            "project identity requires a valid stable id"
        );
        assert_eq!(
            IdentityProblem::FrontmatterInvalid.to_string(),
            "project identity frontmatter is invalid"
        );
        // A block not closed within the prefix of a longer file is invalid.
        assert_eq!(
            identity_from_frontmatter("s", "---\nid: a\n---", false),
            Err(IdentityProblem::FrontmatterInvalid)
        );
    }

    #[test]
    fn prefix_decoding() {
        let bytes = "ab😀".as_bytes();
        assert_eq!(decode_prefix(&bytes[..4], false), Some("ab"));
        assert_eq!(decode_prefix(&bytes[..4], true), None);
        assert_eq!(decode_prefix(b"a\xffb", false), None);
        assert_eq!(decode_prefix(bytes, true), Some("ab😀"));
    }
}
