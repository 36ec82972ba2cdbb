//! Projects (contract 01 §3.7, §6.1–§6.3, §6.5): the catalog record of a project README, the
//! working-context catalog, the scope a working-context selector resolves to, and the portable
//! `{id, slug}` identity that search and `resolve_skill` require.
//!
//! Every read goes through the contained reader and the caller's request ledger. Errors carry
//! folder-relative names only (`projects/<slug>/README.md`), never a machine path, and the
//! record never keeps `repo_url`/`repo` or any other frontmatter key that readers must not
//! render.

use std::cmp::Ordering;
use std::sync::LazyLock;

use dotaios_contained::{EntryKind, Identity, Ledger, ReadError, RelPath, Root};
use regex::Regex;

use crate::folder::frontmatter::{
    FrontmatterError, YamlError, YamlMapping, YamlValue, parse_mapping, split_frontmatter,
    split_frontmatter_prefix,
};
use crate::folder::selector::{SelectorError, check_canonical_selector, is_project_slug};
use crate::text::{ELLIPSIS, clip_units_trim_end, collate, is_js_space, js_trim};

/// The project shelf below the root.
pub const PROJECTS_DIR: &str = "projects";

/// Working-context bound on `projects/` entries ("more than 256 fails", contract 01 §5.1).
pub const PROJECT_DIRECTORY_LIMIT: u64 = 256;

/// Per-README cap, for the catalog and the portable identity alike (1 MiB).
pub const README_CAP: u64 = 1 << 20;

/// The frontmatter prefix the portable identity reads (16 KiB, contract 01 §5.5).
pub const IDENTITY_PREFIX: u64 = 16 << 10;

/// The evidence reader's per-directory bound (contract 01 §5.3), used by the identity scan.
pub const IDENTITY_SCAN_DIRECTORY_LIMIT: u64 = 8192;

/// The longest `contextExcerpt`, in UTF-16 units.
pub const EXCERPT_UNITS: usize = 1200;

/// One catalog record (contract 01 §6.2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProjectRecord {
    /// The stable id (`id`, else the legacy `project_id`), trimmed; `None` when neither is a
    /// non-empty string.
    pub id: Option<String>,
    /// The directory name.
    pub slug: String,
    /// The alias: `project`, then `slug` from frontmatter, else the directory slug.
    pub project: String,
    /// The display name.
    pub name: String,
    /// `status`, default `unknown`.
    pub status: String,
    /// `domain` values, not restricted to build/make/sell.
    pub domains: Vec<String>,
    /// `description`, else the first plain body line, else empty.
    pub description: String,
    /// The body without a leading H1, trimmed, at most 1,200 units.
    pub context_excerpt: String,
    /// Whether `context_excerpt` was cut.
    pub context_excerpt_clipped: bool,
    /// The full README text (never rendered as such).
    pub readme: String,
}

/// Why a README's frontmatter makes it unusable as a catalog record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ReadmeProblem {
    /// The frontmatter YAML is invalid (syntax, duplicate key, …).
    #[error("invalid YAML frontmatter")]
    InvalidYaml(YamlError),
    /// The frontmatter is not a mapping.
    #[error("frontmatter is not a mapping")]
    NotMapping,
    /// `id` and `project_id` are both set and differ.
    #[error("id and project_id differ")]
    ConflictingIds,
}

/// Builds the catalog record of `projects/<slug>/README.md` from its text (contract 01 §3.7, §6.2).
pub fn parse_project_readme(slug: &str, text: &str) -> Result<ProjectRecord, ReadmeProblem> {
    let (metadata, body) = match split_frontmatter(text) {
        None => (YamlMapping::default(), text),
        Some(block) => match parse_mapping(block.yaml) {
            Ok(mapping) => (mapping, block.body),
            Err(FrontmatterError::InvalidYaml(error)) => {
                return Err(ReadmeProblem::InvalidYaml(error));
            }
            Err(FrontmatterError::NotMapping) => return Err(ReadmeProblem::NotMapping),
        },
    };
    let id = optional_string(&metadata, "id");
    let legacy_id = optional_string(&metadata, "project_id");
    if let (Some(id), Some(legacy)) = (id, legacy_id)
        && id != legacy
    {
        return Err(ReadmeProblem::ConflictingIds);
    }
    let project = optional_string(&metadata, "project")
        .or_else(|| optional_string(&metadata, "slug"))
        .unwrap_or(slug)
        .to_owned();
    let name = optional_string(&metadata, "name")
        .map(str::to_owned)
        .or_else(|| first_heading(body).filter(|heading| !heading.is_empty()))
        .unwrap_or_else(|| project.clone());
    let (context_excerpt, context_excerpt_clipped) = context_excerpt(body);
    Ok(ProjectRecord {
        id: id.or(legacy_id).map(str::to_owned),
        slug: slug.to_owned(),
        project,
        name,
        status: optional_string(&metadata, "status")
            .unwrap_or("unknown")
            .to_owned(),
        domains: domains(metadata.get("domain")),
        description: optional_string(&metadata, "description")
            .map(str::to_owned)
            .unwrap_or_else(|| first_description(body).to_owned()),
        context_excerpt,
        context_excerpt_clipped,
        readme: text.to_owned(),
    })
}

/// A non-empty JS-trimmed string value; anything else (a number such as `id: 123`, `null`, a
/// list) counts as absent.
fn optional_string<'a>(metadata: &'a YamlMapping, key: &str) -> Option<&'a str> {
    metadata
        .get(key)
        .and_then(YamlValue::as_str)
        .map(js_trim)
        .filter(|text| !text.is_empty())
}

fn domains(value: Option<&YamlValue>) -> Vec<String> {
    match value {
        Some(YamlValue::Sequence(items)) => items
            .iter()
            .filter_map(YamlValue::as_str)
            .map(js_trim)
            .filter(|item| !item.is_empty())
            .map(str::to_owned)
            .collect(),
        Some(YamlValue::String(text)) => text
            .split(',')
            .map(js_trim)
            .filter(|item| !item.is_empty())
            .map(str::to_owned)
            .collect(),
        _ => Vec::new(),
    }
}

/// The JS whitespace set as a regex class body (contract 01 §0: `\s`).
const JS_SPACE_CLASS: &str = r"\t\n\x0B\x0C\r \x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}";

/// `^#\s+(.+)$` on one line, with JS meanings: `.` is anything but a line terminator and `$`
/// is the end of the line string. The `regex` crate's leftmost-first matching reports the same
/// capture as JavaScript's backtracking engine.
static HEADING_LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"\A#[{JS_SPACE_CLASS}]+([^\n\r\x{{2028}}\x{{2029}}]+)\z"
    ))
    .expect("valid pattern")
});

/// `^#\s+.+(?:\r?\n|$)` at the very start of a body, without flags: `\s+` may span line breaks.
static LEADING_H1: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"\A#[{JS_SPACE_CLASS}]+[^\n\r\x{{2028}}\x{{2029}}]+(?:\r?\n|\z)"
    ))
    .expect("valid pattern")
});

/// Splits like JavaScript's `split(/\r?\n/)`.
fn split_crlf_lines(text: &str) -> impl Iterator<Item = &str> {
    let mut pieces = text.split('\n').peekable();
    std::iter::from_fn(move || {
        let piece = pieces.next()?;
        let has_break_after = pieces.peek().is_some();
        Some(match piece.strip_suffix('\r') {
            Some(stripped) if has_break_after => stripped,
            _ => piece,
        })
    })
}

/// The trimmed capture of the first body line matching `^#\s+(.+)$`; the first matching line
/// decides even when its trimmed capture is empty.
fn first_heading(body: &str) -> Option<String> {
    split_crlf_lines(body).find_map(|line| {
        HEADING_LINE
            .captures(line)
            .map(|captures| js_trim(&captures[1]).to_owned())
    })
}

/// The first body line that, JS-trimmed, is non-empty and does not start with `#`, `<!--` or
/// a bullet (`-`/`*` followed by whitespace).
fn first_description(body: &str) -> &str {
    split_crlf_lines(body)
        .map(js_trim)
        .find(|line| {
            let mut chars = line.chars();
            let bullet =
                matches!(chars.next(), Some('-' | '*')) && chars.next().is_some_and(is_js_space);
            !line.is_empty() && !line.starts_with('#') && !line.starts_with("<!--") && !bullet
        })
        .unwrap_or("")
}

/// The body without a leading H1, JS-trimmed; more than 1,200 units → the first 1,199 units
/// (without a trailing lone high surrogate), `trimEnd`, `…`.
fn context_excerpt(body: &str) -> (String, bool) {
    let without_heading = match LEADING_H1.find(body) {
        Some(found) => &body[found.end()..],
        None => body,
    };
    let excerpt = js_trim(without_heading);
    match clip_units_trim_end(excerpt, EXCERPT_UNITS, ELLIPSIS) {
        Some(clipped) => (clipped, true),
        None => (excerpt.to_owned(), false),
    }
}

/// A failure of the working-context catalog read (contract 01 §6.1). Every one ends as the single
/// working-context failure; [`CatalogError::message`] is the internal text `doctor` shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CatalogError {
    /// An entry of `projects/` is a symbolic link.
    LinkedProjectDirectory,
    /// A directory of `projects/` is not a valid slug (the name, lossily decoded).
    InvalidSlug {
        /// The directory name.
        name: String,
    },
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

    /// The internal message with folder-relative paths (`doctor` check 8). The first two are
    /// the contract's exact texts.
    pub fn message(&self) -> String {
        match self {
            CatalogError::LinkedProjectDirectory => "Project README path is outside the AIOS project shelf because its project directory is a symbolic link.".to_owned(),
            CatalogError::InvalidSlug { name } => format!(
                "Invalid project directory slug \"{name}\". Use lowercase letters, numbers, and single hyphens."
            ),
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

fn rel(path: &str) -> RelPath {
    RelPath::new(path).expect("a constant or slug-validated relative path")
}

/// Reads the working-context catalog (contract 01 §6.1): `projects/` (≤ 256 entries) in collation
/// order, every README in full (≤ 1 MiB each), all charged to `ledger`. A missing `projects/`
/// is an empty catalog; every other anomaly fails the whole catalog, never skipping silently
/// (plain files are not projects and are skipped).
pub fn read_catalog(root: &Root, ledger: &mut Ledger) -> Result<Vec<ProjectRecord>, CatalogError> {
    let shelf = rel(PROJECTS_DIR);
    let listing = match root.list_dir(Some(&shelf), PROJECT_DIRECTORY_LIMIT, ledger) {
        Ok(Some(listing)) => listing,
        Ok(None) => return Ok(Vec::new()),
        Err(ReadError::DirectoryLimit) => return Err(CatalogError::DirectoryLimit),
        Err(error) => {
            return Err(CatalogError::Read {
                path: "projects/".to_owned(),
                error,
            });
        }
    };
    let mut entries: Vec<(String, EntryKind, bool)> = listing
        .entries
        .into_iter()
        .map(|entry| match entry.name.into_string() {
            Ok(name) => (name, entry.kind, true),
            Err(raw) => (raw.to_string_lossy().into_owned(), entry.kind, false),
        })
        .collect();
    entries.sort_by(|a, b| catalog_order(&a.0, &b.0));

    let mut records: Vec<ProjectRecord> = Vec::new();
    for (name, kind, utf8) in entries {
        match kind {
            EntryKind::Symlink => return Err(CatalogError::LinkedProjectDirectory),
            EntryKind::Directory => {}
            _ => continue,
        }
        if !utf8 || !is_project_slug(&name) {
            return Err(CatalogError::InvalidSlug { name });
        }
        if let Some(record) = read_catalog_entry(root, ledger, &name)? {
            records.push(record);
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
    Ok(records)
}

fn read_catalog_entry(
    root: &Root,
    ledger: &mut Ledger,
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
    parse_project_readme(slug, &text)
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
    /// More than one project matches.
    #[error("project selector is ambiguous; use its stable id")]
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

/// Orders names as the catalog does: collation, then bytes for names that collate equal (so
/// the order is total and does not depend on the kernel's listing order).
fn catalog_order(a: &str, b: &str) -> Ordering {
    collate(a, b).then_with(|| a.cmp(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(text: &str) -> ProjectRecord {
        parse_project_readme("rust-port", text).unwrap()
    }

    #[test]
    fn record_defaults_without_frontmatter() {
        let r = record("# Rust Port\n\nPort the reader to Rust.\n\n- a bullet\n");
        assert_eq!(r.id, None);
        assert_eq!(r.slug, "rust-port");
        assert_eq!(r.project, "rust-port");
        assert_eq!(r.name, "Rust Port");
        assert_eq!(r.status, "unknown");
        assert!(r.domains.is_empty());
        assert_eq!(r.description, "Port the reader to Rust.");
        assert_eq!(r.context_excerpt, "Port the reader to Rust.\n\n- a bullet");
        assert!(!r.context_excerpt_clipped);
        let empty = record("");
        assert_eq!(
            (
                empty.name.as_str(),
                empty.description.as_str(),
                empty.context_excerpt.as_str()
            ),
            ("rust-port", "", "")
        );
    }

    #[test]
    fn record_fields_from_frontmatter() {
        let r = record(
            "---\nid: ' proj-rust-001 '\nproject: rp\nname: The Port\nstatus: active\n\
             domain: [build, ' make ', 3, '']\ndescription: Bounded reads.\nrepo_url: git@example:x\n\
             local_path: /home/ada/src\n---\n# Heading\nBody line.\n",
        );
        assert_eq!(r.id.as_deref(), Some("proj-rust-001"));
        assert_eq!(r.project, "rp");
        assert_eq!(r.name, "The Port");
        assert_eq!(r.status, "active");
        assert_eq!(r.domains, ["build", "make"]);
        assert_eq!(r.description, "Bounded reads.");
        assert_eq!(r.context_excerpt, "Body line.");
        assert!(
            r.readme.contains("local_path"),
            "the full text is kept, but no field carries it"
        );
    }

    #[test]
    fn record_fallbacks() {
        // `id: 123` is an integer, so it counts as absent; project_id then supplies the id.
        let r = record(
            "---\nid: 123\nproject_id: p-1\nslug: alias\nstatus: ''\ndomain: 'build, ,sell '\n---\nx",
        );
        assert_eq!(r.id.as_deref(), Some("p-1"));
        assert_eq!(r.project, "alias");
        assert_eq!(r.status, "unknown");
        assert_eq!(r.domains, ["build", "sell"]);
        // Equal after trimming is not a conflict.
        assert!(parse_project_readme("s", "---\nid: a\nproject_id: ' a'\n---\n").is_ok());
        // `yes` and dates stay strings.
        let r = record("---\nname: yes\nstatus: 2026-08-29\n---\n");
        assert_eq!((r.name.as_str(), r.status.as_str()), ("yes", "2026-08-29"));
    }

    #[test]
    fn record_errors() {
        assert_eq!(
            parse_project_readme("s", "---\nid: a\nproject_id: b\n---\n"),
            Err(ReadmeProblem::ConflictingIds)
        );
        assert!(matches!(
            parse_project_readme("s", "---\nid: [unterminated\n---\n"),
            Err(ReadmeProblem::InvalidYaml(YamlError::Syntax { .. }))
        ));
        assert!(matches!(
            parse_project_readme("s", "---\nid: a\nid: b\n---\n"),
            Err(ReadmeProblem::InvalidYaml(YamlError::DuplicateKey { .. }))
        ));
        assert_eq!(
            parse_project_readme("s", "---\n- a\n---\n"),
            Err(ReadmeProblem::NotMapping)
        );
        assert_eq!(
            parse_project_readme("s", "---\n\n---\n"),
            Err(ReadmeProblem::NotMapping)
        );
        // A BOM hides the block, so its YAML is never parsed.
        assert!(parse_project_readme("s", "\u{feff}---\nid: [\n---\n").is_ok());
    }

    #[test]
    fn name_from_the_first_heading_line() {
        assert_eq!(record("intro\n#  Title  \r\nmore").name, "Title");
        assert_eq!(record("#NoSpace\n# Real").name, "Real");
        // The first matching line decides, even when its capture trims to nothing.
        assert_eq!(record("# \u{a0}\n# Later").name, "rust-port");
        // A lone CR or U+2028 inside the line defeats `$`.
        assert_eq!(record("# a\rb\n# Second").name, "Second");
        assert_eq!(record("## Sub\n# Top").name, "Top");
    }

    #[test]
    fn description_skips_headings_comments_and_bullets() {
        let r = record("# T\n<!-- note -->\n- item\n* star\n  -x\n");
        assert_eq!(r.description, "-x");
        assert_eq!(record("-\u{3000}wide bullet\nplain").description, "plain");
        assert_eq!(record("#tag\n\n  text  ").description, "text");
    }

    #[test]
    fn excerpt_heading_removal_follows_js() {
        assert_eq!(record("# T\nbody").context_excerpt, "body");
        assert_eq!(record("# T\r\nbody").context_excerpt, "body");
        assert_eq!(record("# T").context_excerpt, "");
        // `\s+` may span line breaks: "#\nfoo" is a heading.
        assert_eq!(record("#\nfoo\nbar").context_excerpt, "bar");
        // A blank line between frontmatter and H1 keeps the H1.
        assert_eq!(
            record("---\nid: a\n---\n\n# T\nbody").context_excerpt,
            "# T\nbody"
        );
        // A lone CR after the heading text is not a line end.
        assert_eq!(record("# T\rbody").context_excerpt, "# T\rbody");
        assert_eq!(record("#T\nbody").context_excerpt, "#T\nbody");
    }

    #[test]
    fn excerpt_clipping() {
        let exact = "a".repeat(1200);
        let r = record(&exact);
        assert_eq!(
            (r.context_excerpt.len(), r.context_excerpt_clipped),
            (1200, false)
        );
        let r = record(&"a".repeat(1201));
        assert_eq!(r.context_excerpt, format!("{}…", "a".repeat(1199)));
        assert!(r.context_excerpt_clipped);
        // A cut between the halves of a pair drops the high half; trailing space is trimmed.
        let pair = format!("{}😀{}", "b".repeat(1198), "c".repeat(10));
        assert_eq!(
            record(&pair).context_excerpt,
            format!("{}…", "b".repeat(1198))
        );
        let spaced = format!("{}   {}", "d".repeat(1197), "e".repeat(20));
        assert_eq!(
            record(&spaced).context_excerpt,
            format!("{}…", "d".repeat(1197))
        );
    }

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

    #[test]
    fn crlf_line_split() {
        let lines: Vec<_> = split_crlf_lines("a\r\nb\r\r\nc\rd\n\r").collect();
        assert_eq!(lines, ["a", "b\r", "c\rd", "\r"]);
    }
}
