//! `resolve_skill` (contract 05 §7.5, §7.6, §8.4): the portable identity in project mode, the
//! catalog, the ranking and the fitted payload all come from `dotaios-core`; this module
//! sequences them and maps their errors to the wire.

use std::path::Path;

use dotaios_contained::{Ledger, Limits, Root};
use dotaios_core::folder::memory::MemoryMode;
use dotaios_core::folder::projects::{IdentityError, resolve_portable_identity};
use dotaios_core::search::REQUEST_LIMITS;
use dotaios_core::skills::{MemoryFields, PayloadError, fit_payload, rank, read_catalog};

use crate::error::RpcError;
use crate::tools::args::SkillArgs;

/// Resolves the intent against the folder's catalog and fits the payload.
pub(crate) fn run(folder: &Path, args: &SkillArgs) -> Result<String, RpcError> {
    let root = Root::open(folder).map_err(|_| RpcError::Failed)?;
    if let (MemoryMode::Project, Some(selector)) = (args.mode, args.project.as_deref()) {
        let mut ledger = Ledger::new(Limits {
            files: REQUEST_LIMITS.files,
            bytes: REQUEST_LIMITS.bytes,
            entries: REQUEST_LIMITS.entries,
        });
        resolve_portable_identity(&root, &mut ledger, selector).map_err(identity_error)?;
    }
    let catalog = read_catalog(&root).map_err(|_| RpcError::Failed)?;
    let ranked = rank(&args.intent, &catalog);
    let limit = usize::try_from(args.limit)
        .unwrap_or(usize::MAX)
        .min(ranked.len());
    payload(args, &ranked[..limit])
}

/// The bounded Off envelope (§7.6): no catalog read, no matches.
pub(crate) fn off_payload(args: &SkillArgs) -> Result<String, RpcError> {
    payload(args, &[])
}

fn payload(
    args: &SkillArgs,
    matches: &[dotaios_core::skills::Ranked<'_>],
) -> Result<String, RpcError> {
    let memory = MemoryFields {
        memory: args.mode.as_str(),
        receipt: args.mode.receipt(),
        notice: args.mode.notice(),
    };
    let budget = usize::try_from(args.budget).unwrap_or(usize::MAX);
    match fit_payload(&args.intent, matches, memory, budget) {
        Ok(payload) => Ok(payload.text),
        Err(PayloadError::BudgetTooSmall { .. }) => Err(RpcError::invalid_owned(format!(
            "budget {} is too small for the skill response envelope",
            args.budget
        ))),
        Err(PayloadError::Unstable) => Err(RpcError::Failed),
    }
}

fn identity_error(error: IdentityError) -> RpcError {
    match error {
        IdentityError::Unknown => {
            RpcError::invalid("project is not registered; choose a registered slug or stable id")
        }
        IdentityError::Ambiguous => {
            RpcError::invalid("project selector is ambiguous; use its stable id")
        }
        IdentityError::Selector(error) => RpcError::invalid_owned(error.to_string()),
        IdentityError::CatalogInvalid(_) | IdentityError::Read(_) => RpcError::Failed,
    }
}
