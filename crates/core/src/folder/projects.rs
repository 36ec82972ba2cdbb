//! Projects (contract 01 §3.7, §6.1–§6.3, §6.5): the catalog record of a project README
//! (`record`), the working-context catalog (`catalog`), the scope a working-context selector
//! resolves to (`scope`), and the portable `{id, slug}` identity that search and
//! `resolve_skill` require (`identity`). This module holds only what they share: the shelf's
//! name, the per-README cap and the relative-path helper; every public item is re-exported here.
//!
//! Every read goes through the contained reader and the caller's request ledger. Errors carry
//! folder-relative names only (`projects/<slug>/README.md`), never a machine path, and the
//! record never keeps `repo_url`/`repo` or any other frontmatter key that readers must not
//! render.

use dotaios_contained::RelPath;

mod catalog;
mod identity;
mod record;
mod scope;

pub use catalog::{
    Catalog, CatalogError, Oversized, PROJECT_DIRECTORY_LIMIT, read_catalog, read_catalog_with,
};
pub use identity::{
    IDENTITY_PREFIX, IDENTITY_SCAN_DIRECTORY_LIMIT, IdentityError, IdentityProblem,
    IdentityResolution, PortableIdentity, resolve_portable_identity,
};
pub use record::{
    EXCERPT_UNITS, ProjectRecord, ReadmeProblem, parse_project_readme, parse_project_readme_within,
};
pub use scope::{ProjectScope, ScopeError, resolve_scope};

/// The project shelf below the root.
pub const PROJECTS_DIR: &str = "projects";

/// Per-README cap, for the catalog and the portable identity alike (1 MiB).
pub const README_CAP: u64 = 1 << 20;

fn rel(path: &str) -> RelPath {
    RelPath::new(path).expect("a constant or slug-validated relative path")
}
