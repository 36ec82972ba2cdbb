//! The AIOS folder model (contract 01): location, `aios.json`, migration inspection,
//! projects and selectors, attribution and memory policy.
//!
//! **API summary.** The folder check of §1.3 is [`check::is_aios_folder`], asked by both
//! binaries. Resolve the memory policy first, before any filesystem access:
//! [`memory::resolve_memory_policy`] takes three raw [`memory::PolicyArg`]s and returns a
//! [`memory::MemoryPolicy`] (mode, selector kept only in project mode, `receipt()`,
//! `notice()`) or a [`memory::MemoryPolicyError`] whose `Display` is the exact message.
//! Selectors: [`selector::check_working_context_selector`] (§6.4.1, returns the trimmed
//! filter) and [`selector::check_canonical_selector`] (§6.4.2), each with an error enum whose
//! `Display` is the contract's message. The working context reads the catalog with
//! [`projects::read_catalog`]`(&Root, &mut Ledger)` → `Vec<`[`projects::ProjectRecord`]`>` (or a
//! [`projects::CatalogError`] with `code()` and a folder-relative `message()`), then resolves its
//! trimmed selector with [`projects::resolve_scope`] → [`projects::ProjectScope`] (or
//! [`projects::ScopeError`]: ambiguous / unknown), and filters each JSONL row with
//! [`attribution::attribute`]`(&row, Option<&ProjectScope>, MemoryMode)` →
//! [`attribution::Attribution`]. Search and `resolve_skill` use
//! [`projects::resolve_portable_identity`]`(&Root, &mut Ledger, selector)` →
//! [`projects::IdentityResolution`] (`{id, slug}` plus the observed identities to revalidate) or
//! an [`projects::IdentityError`]. Migration state: [`inspection::inspect_migrations`]`(&Root)`
//! → [`inspection::Inspection`] (never an error; `operational_json()` is §8.2's object in key
//! order); [`inspection::read_config`] and [`config::check_config_identity`] serve `doctor`.
//! Frontmatter, for READMEs and `SKILL.md`: [`frontmatter::split_frontmatter`] (and
//! `split_frontmatter_prefix` for bounded prefixes) and [`frontmatter::parse_mapping`] →
//! an ordered [`frontmatter::YamlMapping`] of [`frontmatter::YamlValue`]s (YAML 1.2 core
//! schema, strict, duplicate keys refused).
//!
//! **Architecture invariant:** nothing here writes, reads the environment, or opens a file
//! except through `dotaios_contained::Root` (the folder check only asks whether `aios.json`
//! exists); no error or value carries a machine path (only
//! folder-relative names such as `projects/<slug>/README.md`).

pub mod attribution;
pub mod check;
pub mod config;
pub mod frontmatter;
pub mod inspection;
pub mod location;
pub mod memory;
pub mod plan;
pub mod projects;
pub mod selector;
