//! The one entry point of skill resolution (contract 04 §5, §6; 05 §7.5), behind both
//! `dotaios skills resolve` and the MCP tool `resolve_skill`: memory policy short-circuit, the
//! root, the portable identity check in Project mode, the catalog read and the ranking, in that
//! order; [`Resolution::payload`] then fits the bounded `resolve_skill` text.
//!
//! **Invariant:** an Off request performs no filesystem operation of any kind. Every failure is
//! a [`SkillError`] with an internal code and a fixed, path-free public message; nothing here
//! prints, frames or knows which surface asked.

use std::borrow::Cow;
use std::path::Path;

use dotaios_contained::{Ledger, Limits, Root};

use super::catalog::{CatalogError, Instructions, Skill, read_catalog, read_instructions};
use super::payload::{BudgetHint, MatchUri, MemoryFields, SkillPayload, fit_payload};
use super::resolve::{Ranked, rank};
use crate::error::{
    PROJECT_AMBIGUOUS_MESSAGE, PROJECT_UNREGISTERED_MESSAGE, PayloadError, PublicError,
};
use crate::folder::memory::MemoryMode;
use crate::folder::projects::{IdentityError, resolve_portable_identity};
use crate::request::{Budget, Limit};
use crate::search::REQUEST_LIMITS;

/// One resolution request. The memory policy has already been resolved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SkillRequest<'a> {
    /// The intent as the surface received it (the adapter echoes it untrimmed; the CLI passes
    /// its JS-trimmed words). Ranking trims it itself.
    pub intent: &'a str,
    /// The resolved memory mode. Off reads nothing and matches nothing.
    pub memory: MemoryMode,
    /// The raw project selector, checked against the folder's portable identities in Project
    /// mode only (skills are capabilities, not memory: the catalog is the same in every mode).
    pub project: Option<&'a str>,
    /// How many ranked matches [`Resolution::matches`] keeps; `None` keeps them all.
    pub limit: Option<Limit>,
}

/// What one request found: the whole catalog (in catalog order) and the request it answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolution<'a> {
    /// Every installed skill, in catalog order; empty in Off mode.
    pub catalog: Vec<Skill>,
    request: SkillRequest<'a>,
}

impl Resolution<'_> {
    /// The ranked matches, best first, cut to the request's limit.
    pub fn matches(&self) -> Vec<Ranked<'_>> {
        let mut ranked = rank(self.request.intent, &self.catalog);
        ranked.truncate(self.request.limit.map_or(usize::MAX, Limit::get));
        ranked
    }

    /// The bounded `resolve_skill` payload of [`Self::matches`] within `budget` UTF-16 units
    /// (contract 04 §6.5; 05 §7.5, §7.6 for the Off envelope), with `budget.hint` when `hint`
    /// asks for it (05 §7.5.1), each match's resource `uri` when `uri` asks for it, and the
    /// start of the best match's `instructions` in what the budget leaves (05 §7.7).
    pub fn payload(
        &self,
        budget: Budget,
        hint: BudgetHint,
        uri: MatchUri,
        instructions: Option<&Instructions>,
    ) -> Result<SkillPayload, SkillError> {
        let memory = MemoryFields::of(self.request.memory);
        fit_payload(
            self.request.intent,
            &self.matches(),
            memory,
            budget.units(),
            hint,
            uri,
            instructions,
        )
        .map_err(SkillError::from)
    }

    /// The start of the best match's instructions, as much as a `budget`-unit answer could
    /// show (at most 3 bytes of UTF-8 per UTF-16 unit), read from the AIOS folder at `folder`
    /// (contract 05 §7.7). `None` in Off mode (nothing is read), without a match, and when the
    /// read fails: the answer then goes without it, and `resources/read` reports the failure.
    pub fn instructions(&self, folder: &Path, budget: Budget) -> Option<Instructions> {
        let best = self.matches().into_iter().next()?;
        let root = open_root(folder).ok()?;
        read_instructions(&root, &best.skill.dir, 3 * budget.units() as u64).ok()
    }
}

/// Resolves `request` against the AIOS folder at `folder` (an absolute path whose `aios.json`
/// the caller has already checked for existence, except in Off mode, which never looks).
pub fn resolve_skill<'a>(
    folder: &Path,
    request: &SkillRequest<'a>,
) -> Result<Resolution<'a>, SkillError> {
    if request.memory == MemoryMode::Off {
        return Ok(Resolution {
            catalog: Vec::new(),
            request: *request,
        });
    }
    let root = open_root(folder).map_err(SkillError::Catalog)?;
    if let (MemoryMode::Project, Some(selector)) = (request.memory, request.project) {
        let mut ledger = Ledger::new(Limits {
            files: REQUEST_LIMITS.files,
            bytes: REQUEST_LIMITS.bytes,
            entries: REQUEST_LIMITS.entries,
        });
        resolve_portable_identity(&root, &mut ledger, selector).map_err(SkillError::Identity)?;
    }
    let catalog = read_catalog(&root).map_err(SkillError::Catalog)?;
    Ok(Resolution {
        catalog,
        request: *request,
    })
}

/// The catalog of the AIOS folder at `folder` ([`read_catalog`] behind a freshly opened root),
/// for the surfaces that list or show skills without resolving an intent.
pub fn read_catalog_at(folder: &Path) -> Result<Vec<Skill>, CatalogError> {
    read_catalog(&open_root(folder)?)
}

/// The folder passed its check a moment ago; a root that cannot be opened now is a read
/// failure like any other and names no path.
pub(super) fn open_root(folder: &Path) -> Result<Root, CatalogError> {
    Root::open(folder).map_err(|_| CatalogError::ReadFailed)
}

/// Why a resolution failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SkillError {
    /// The catalog (or the root) could not be read; [`CatalogError`] has the code.
    #[error("{}", .0.message())]
    Catalog(CatalogError),
    /// The Project-mode selector failed the portable identity check (contract 01 §6.3).
    #[error("{}", skill_identity_message(.0))]
    Identity(IdentityError),
    /// The payload does not fit its budget; [`PayloadError`] has the code and message.
    #[error(transparent)]
    Payload(#[from] PayloadError),
}

/// The `resolve_skill` texts of the identity failures (contract 05 §7.5). A read failure while
/// scanning identities has the evidence reader's message; it is internal to the adapter.
fn skill_identity_message(error: &IdentityError) -> Cow<'static, str> {
    match error {
        IdentityError::Unknown => Cow::Borrowed(PROJECT_UNREGISTERED_MESSAGE),
        IdentityError::Ambiguous => Cow::Borrowed(PROJECT_AMBIGUOUS_MESSAGE),
        IdentityError::Selector(error) => Cow::Owned(error.to_string()),
        IdentityError::CatalogInvalid(problem) => Cow::Owned(problem.to_string()),
        IdentityError::Read(error) => Cow::Borrowed(CatalogError::from(*error).message()),
    }
}

impl PublicError for SkillError {
    fn code(&self) -> &'static str {
        match self {
            SkillError::Catalog(error) => error.code(),
            SkillError::Identity(IdentityError::Read(error)) => CatalogError::from(*error).code(),
            SkillError::Identity(error) => error.code().unwrap_or("DOTAIOS_EVIDENCE_READ_FAILED"),
            SkillError::Payload(error) => error.code(),
        }
    }

    fn message(&self) -> Cow<'static, str> {
        match self {
            SkillError::Catalog(error) => Cow::Borrowed(CatalogError::message(*error)),
            SkillError::Identity(error) => skill_identity_message(error),
            SkillError::Payload(error) => error.message(),
        }
    }

    fn is_input_error(&self) -> bool {
        match self {
            SkillError::Identity(error) => matches!(
                error,
                IdentityError::Unknown | IdentityError::Ambiguous | IdentityError::Selector(_)
            ),
            SkillError::Catalog(_) => false,
            SkillError::Payload(error) => error.is_input_error(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn folder_with_skill() -> tempfile::TempDir {
        let temp = tempfile::tempdir().unwrap();
        fs::write(temp.path().join("aios.json"), "{}").unwrap();
        let dir = temp.path().join("skills/plan-today");
        fs::create_dir_all(&dir).unwrap();
        fs::write(
            dir.join("SKILL.md"),
            "---\nname: plan-today\ndescription: Plan the day.\ntriggers:\n  - plan my day\n---\nBody\n",
        )
        .unwrap();
        temp
    }

    fn request(memory: MemoryMode, project: Option<&str>) -> SkillRequest<'_> {
        SkillRequest {
            intent: "plan my day",
            memory,
            project,
            limit: Some(Limit::SKILL_DEFAULT),
        }
    }

    #[test]
    fn shared_reads_the_catalog_and_ranks() {
        let temp = folder_with_skill();
        let resolution = resolve_skill(temp.path(), &request(MemoryMode::Shared, None)).unwrap();
        assert_eq!(resolution.catalog.len(), 1);
        let matches = resolution.matches();
        assert_eq!(matches[0].skill.name, "plan-today");
        let payload = resolution
            .payload(Budget::DEFAULT, BudgetHint::Omit, MatchUri::Omit, None)
            .unwrap();
        assert_eq!(payload.matches, 1);
        assert!(payload.text.contains("\"memory\": \"shared\""));
    }

    #[test]
    fn off_reads_nothing() {
        // A folder that does not exist: any read would fail.
        let missing = Path::new("/nonexistent/dotaios-core-skills/aios");
        let resolution = resolve_skill(missing, &request(MemoryMode::Off, None)).unwrap();
        assert!(resolution.catalog.is_empty() && resolution.matches().is_empty());
        let payload = resolution
            .payload(Budget::DEFAULT, BudgetHint::Omit, MatchUri::Omit, None)
            .unwrap();
        assert!(payload.text.contains("\"memory\": \"off\""));
        assert_eq!(
            resolve_skill(missing, &request(MemoryMode::Shared, None)).unwrap_err(),
            SkillError::Catalog(CatalogError::ReadFailed)
        );
    }

    #[test]
    fn project_mode_checks_the_identity_first() {
        let temp = folder_with_skill();
        let error =
            resolve_skill(temp.path(), &request(MemoryMode::Project, Some("ghost"))).unwrap_err();
        assert_eq!(error, SkillError::Identity(IdentityError::Unknown));
        assert!(error.is_input_error());
        assert_eq!(error.code(), "DOTAIOS_PROJECT_SELECTOR_UNKNOWN");
        assert_eq!(
            error.message(),
            "project is not registered; choose a registered slug or stable id"
        );
        // Shared mode ignores the selector: skills are not memory.
        assert!(resolve_skill(temp.path(), &request(MemoryMode::Shared, Some("ghost"))).is_ok());
    }

    #[test]
    fn budget_errors_have_codes_and_messages() {
        let intent = "x".repeat(500);
        let off = SkillRequest {
            intent: &intent,
            ..request(MemoryMode::Off, None)
        };
        let resolution = resolve_skill(Path::new("/nonexistent"), &off).unwrap();
        let error = resolution
            .payload(Budget::whole(256), BudgetHint::Omit, MatchUri::Omit, None)
            .unwrap_err();
        assert_eq!(
            error,
            SkillError::Payload(PayloadError::BudgetTooSmall {
                budget: 256,
                envelope: "skill"
            })
        );
        assert!(error.is_input_error());
        assert_eq!(
            error.message(),
            "budget 256 is too small for the skill response envelope"
        );
        let unstable = SkillError::Payload(PayloadError::Unstable);
        assert!(!unstable.is_input_error());
        assert_eq!(unstable.message(), "DotAIOS request failed safely.");
        assert_eq!(unstable.code(), "DOTAIOS_BUDGET_UNSTABLE");
        assert!(!SkillError::Catalog(CatalogError::MetadataInvalid).is_input_error());
    }
}
