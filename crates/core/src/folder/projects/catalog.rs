//! The working-context catalog (contract 01 §6.1): `projects/` listed in collation order, every
//! README read in full through the contained reader and parsed into a record, and the
//! catalog-wide checks (links, duplicate ids) with their typed errors.
//!
//! A directory whose name is not a project slug is left out and named in
//! [`Catalog::not_slugs`] (one odd name never fails the catalog, contract 01 §6.1); every other
//! anomaly fails the whole catalog (plain files are not projects). It never writes, never
//! prints a name itself, and its messages name folder-relative paths only.

use std::cmp::Ordering;

use dotaios_contained::{EntryKind, Ledger, ReadError, Root};

use super::record::{ProjectRecord, ReadmeProblem, parse_project_readme_within};
use super::{PROJECTS_DIR, README_CAP, rel};
use crate::folder::frontmatter::{YamlError, YamlWork};
use crate::folder::selector::is_project_slug;
use crate::text::collate;

/// Working-context bound on `projects/` entries ("more than 256 fails", contract 01 §5.1).
pub const PROJECT_DIRECTORY_LIMIT: u64 = 256;

/// A failure of the working-context catalog read (contract 01 §6.1). Every one ends as the single
/// working-context failure; [`CatalogError::message`] is the internal text `doctor` shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CatalogError {
    /// An entry of `projects/` is a symbolic link.
    LinkedProjectDirectory,
    /// `projects/<slug>/README.md` exists but is a link or not a regular file.
    ReadmeNotRegular {
        /// The project slug.
        slug: String,
    },
    /// The README frontmatter is invalid YAML.
    InvalidFrontmatter {
        /// The project slug.
        slug: String,
        /// What the YAML parser refused.
        error: YamlError,
    },
    /// The README frontmatter is not a mapping.
    FrontmatterNotMapping {
        /// The project slug.
        slug: String,
    },
    /// `id` and `project_id` differ.
    ConflictingIds {
        /// The project slug.
        slug: String,
    },
    /// Two records share a stable id (slugs in catalog order).
    DuplicateId {
        /// The id.
        id: String,
        /// The first slug using it.
        first: String,
        /// The second slug using it.
        second: String,
    },
    /// More than 256 entries in `projects/`.
    DirectoryLimit,
    /// The contained reader refused a read.
    Read {
        /// The folder-relative path that was read.
        path: String,
        /// What the reader reported.
        error: ReadError,
    },
}

impl CatalogError {
    /// The internal code: the reader codes of contract 01 §4.11 for read failures,
    /// `DOTAIOS_PROJECT_DIRECTORY_LIMIT_EXCEEDED`, and `DOTAIOS_PROJECT_CATALOG_INVALID` for
    /// every catalog-content error.
    pub fn code(&self) -> &'static str {
        match self {
            CatalogError::DirectoryLimit => "DOTAIOS_PROJECT_DIRECTORY_LIMIT_EXCEEDED",
            CatalogError::Read { error, .. } => match error {
                ReadError::Unsafe(_) | ReadError::NotRegular(_) => "DOTAIOS_UNSAFE_READ_PATH",
                ReadError::TooLarge => "DOTAIOS_CONTEXT_SOURCE_TOO_LARGE",
                ReadError::Changed => "DOTAIOS_CONTEXT_SOURCE_CHANGED",
                ReadError::InvalidUtf8 => "DOTAIOS_INVALID_UTF8",
                ReadError::Budget(_) => "DOTAIOS_PROJECTION_READ_BUDGET_EXCEEDED",
                ReadError::DirectoryLimit => "DOTAIOS_PROJECT_DIRECTORY_LIMIT_EXCEEDED",
                ReadError::Io(_) => "DOTAIOS_WORKING_CONTEXT_READ_FAILED",
            },
            _ => "DOTAIOS_PROJECT_CATALOG_INVALID",
        }
    }

    /// The internal message with folder-relative paths (`doctor` check 8). The linked-entry and
    /// duplicate-id texts are the contract's.
    pub fn message(&self) -> String {
        match self {
            CatalogError::LinkedProjectDirectory => "Project README path is outside the AIOS project shelf because its project directory is a symbolic link.".to_owned(),
            CatalogError::DuplicateId { id, first, second } => {
                format!("Project id {id} is used by both \"{first}\" and \"{second}\".")
            }
            CatalogError::ReadmeNotRegular { slug } => format!(
                "projects/{slug}/README.md is a symbolic link or a special file; a project README must be a regular file."
            ),
            CatalogError::InvalidFrontmatter { slug, error } => {
                format!("projects/{slug}/README.md has invalid YAML frontmatter ({error}).")
            }
            CatalogError::FrontmatterNotMapping { slug } => {
                format!("projects/{slug}/README.md has frontmatter that is not a key: value mapping.")
            }
            CatalogError::ConflictingIds { slug } => {
                format!("projects/{slug}/README.md sets id and project_id to different values.")
            }
            CatalogError::DirectoryLimit => format!(
                "projects/ holds more than {PROJECT_DIRECTORY_LIMIT} entries."
            ),
            CatalogError::Read { path, error } => {
                format!("{path} could not be read safely ({error}).")
            }
        }
    }
}

impl std::fmt::Display for CatalogError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message())
    }
}

impl std::error::Error for CatalogError {}

/// Reads the working-context catalog (contract 01 §6.1): `projects/` (≤ 256 entries) in collation
/// order, every README in full (≤ 1 MiB each), all charged to `ledger`. A missing `projects/`
/// is an empty catalog; plain files are not projects, and directories whose names are not slugs
/// are left out ([`read_catalog_with`] names them); every other anomaly fails the whole catalog.
pub fn read_catalog(root: &Root, ledger: &mut Ledger) -> Result<Vec<ProjectRecord>, CatalogError> {
    read_catalog_with(root, ledger, Oversized::Fail).map(|catalog| catalog.records)
}

/// What the catalog read does with a README over its 1 MiB cap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Oversized {
    /// Fail the whole catalog (shared mode, `doctor`: every README is rendered or checked).
    Fail,
    /// Leave the project out and name it in [`Catalog::oversized`] (project mode, contract 01
    /// §6.1: only the selected project is rendered, so a sibling that cannot be read in full is
    /// an omitted source, not a failed request).
    Omit,
}

/// The records of a catalog read and the slugs of the projects left out for an over-cap README
/// (only with [`Oversized::Omit`]), both in catalog order, and the directories left out for their
/// names, in byte order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Catalog {
    /// The readable records.
    pub records: Vec<ProjectRecord>,
    /// Slugs whose README is larger than [`README_CAP`].
    pub oversized: Vec<String>,
    /// Directory names that are not project slugs, raw (one that is not UTF-8 in
    /// [`crate::text::escape_os_name`]'s form, its stray bytes as `\xHH`): a caller that prints
    /// one passes it through [`crate::text::escape_name`]. At most
    /// [`PROJECT_DIRECTORY_LIMIT`] of them, as the listing is bounded.
    pub not_slugs: Vec<String>,
}

/// [`read_catalog`] with the over-cap rule chosen by the caller.
pub fn read_catalog_with(
    root: &Root,
    ledger: &mut Ledger,
    oversized: Oversized,
) -> Result<Catalog, CatalogError> {
    let shelf = rel(PROJECTS_DIR);
    let listing = match root.list_dir(Some(&shelf), PROJECT_DIRECTORY_LIMIT, ledger) {
        Ok(Some(listing)) => listing,
        Ok(None) => return Ok(Catalog::default()),
        Err(ReadError::DirectoryLimit) => return Err(CatalogError::DirectoryLimit),
        Err(error) => {
            return Err(CatalogError::Read {
                path: "projects/".to_owned(),
                error,
            });
        }
    };
    let mut entries: Vec<(String, EntryKind)> = Vec::with_capacity(listing.entries.len());
    let mut not_slugs: Vec<String> = Vec::new();
    for entry in listing.entries {
        let (name, utf8) = match entry.name.into_string() {
            Ok(name) => (name, true),
            // Shown with its stray bytes as `\xHH`, never guessed (contract 03 §4.6).
            Err(raw) => (
                crate::text::escape_os_name(&raw, crate::text::NameOutput::Data).into_owned(),
                false,
            ),
        };
        // A directory name outside the slug grammar can be no project's path, and may hold
        // characters no output can show safely: the directory is left out, never read, and
        // named to `doctor` (contract 01 §6.1, 02 §10.1); its neighbours are unaffected. It is
        // set aside before the collation sort, which costs far more per name than this check.
        if entry.kind == EntryKind::Directory && !(utf8 && is_project_slug(&name)) {
            not_slugs.push(name);
        } else {
            entries.push((name, entry.kind));
        }
    }
    entries.sort_by(|a, b| catalog_order(&a.0, &b.0));
    not_slugs.sort_unstable();

    let mut records: Vec<ProjectRecord> = Vec::new();
    let mut work = YamlWork::per_request();
    let mut omitted: Vec<String> = Vec::new();
    for (name, kind) in entries {
        match kind {
            EntryKind::Symlink => return Err(CatalogError::LinkedProjectDirectory),
            EntryKind::Directory => {}
            _ => continue,
        }
        match read_catalog_entry(root, ledger, &mut work, &name) {
            Ok(Some(record)) => records.push(record),
            Ok(None) => {}
            Err(CatalogError::Read {
                error: ReadError::TooLarge,
                ..
            }) if oversized == Oversized::Omit => omitted.push(name),
            Err(error) => return Err(error),
        }
    }
    for (index, record) in records.iter().enumerate() {
        let Some(id) = &record.id else { continue };
        if let Some(first) = records[..index]
            .iter()
            .find(|earlier| earlier.id.as_ref() == Some(id))
        {
            return Err(CatalogError::DuplicateId {
                id: id.clone(),
                first: first.slug.clone(),
                second: record.slug.clone(),
            });
        }
    }
    Ok(Catalog {
        records,
        oversized: omitted,
        not_slugs,
    })
}

fn read_catalog_entry(
    root: &Root,
    ledger: &mut Ledger,
    work: &mut YamlWork,
    slug: &str,
) -> Result<Option<ProjectRecord>, CatalogError> {
    let directory_path = format!("{PROJECTS_DIR}/{slug}");
    let readme_path = format!("{directory_path}/README.md");
    let directory = rel(&directory_path);
    let read_failure = |path: &str, error| CatalogError::Read {
        path: path.to_owned(),
        error,
    };
    let before = match root.probe(&directory) {
        Ok(Some(probe)) if probe.kind == EntryKind::Directory => probe.identity,
        // It was a directory when listed.
        Ok(_) => return Err(read_failure(&directory_path, ReadError::Changed)),
        Err(error) => return Err(read_failure(&directory_path, error)),
    };
    let text = match root.read_text(&rel(&readme_path), README_CAP, ledger) {
        Ok(Some(file)) => file.text,
        Ok(None) => {
            // A project without a README is skipped, provided its directory did not change
            // while the README was found absent (contract 01 §4.6).
            return match root.still_matches(&directory, &before) {
                Ok(true) => Ok(None),
                Ok(false) => Err(read_failure(&directory_path, ReadError::Changed)),
                Err(error) => Err(read_failure(&directory_path, error)),
            };
        }
        Err(ReadError::Unsafe(_) | ReadError::NotRegular(_)) => {
            return Err(CatalogError::ReadmeNotRegular {
                slug: slug.to_owned(),
            });
        }
        Err(error) => return Err(read_failure(&readme_path, error)),
    };
    parse_project_readme_within(slug, &text, work)
        .map(Some)
        .map_err(|problem| match problem {
            ReadmeProblem::InvalidYaml(error) => CatalogError::InvalidFrontmatter {
                slug: slug.to_owned(),
                error,
            },
            ReadmeProblem::NotMapping => CatalogError::FrontmatterNotMapping {
                slug: slug.to_owned(),
            },
            ReadmeProblem::ConflictingIds => CatalogError::ConflictingIds {
                slug: slug.to_owned(),
            },
        })
}

/// Orders names as the catalog does: collation, then bytes for names that collate equal (so
/// the order is total and does not depend on the kernel's listing order).
fn catalog_order(a: &str, b: &str) -> Ordering {
    collate(a, b).then_with(|| a.cmp(b))
}
