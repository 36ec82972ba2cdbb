//! `resolve_skill` (contract 05 §7.5, §7.6, §8.4): one call to `dotaios-core`'s
//! [`resolve_skill`] (memory policy, identity, catalog, ranking) and one to its payload fit;
//! this module only passes the validated arguments in and maps the error at
//! [`RpcError::from_core`].

use std::path::Path;

use dotaios_core::skills::{BudgetHint, MatchUri, SkillRequest, resolve_skill};

use crate::error::RpcError;
use crate::tools::args::SkillArgs;

/// Resolves the intent against the folder's catalog and fits the payload. In Off mode core
/// reads nothing, so this runs before the folder check too (§7.6). `hint` is the era's choice
/// of whether an answer without room for one match says which budget would hold it (§7.5.1),
/// and `uri` whether each match names its resource and the best one the start of its
/// instructions (§7.7).
pub(crate) fn run(
    folder: &Path,
    args: &SkillArgs,
    hint: BudgetHint,
    uri: MatchUri,
) -> Result<String, RpcError> {
    let request = SkillRequest {
        intent: args.intent,
        memory: args.mode,
        project: args.project,
        limit: Some(args.limit),
    };
    resolve_skill(folder, &request)
        .and_then(|resolution| {
            // The structured eras show the start of the best match's instructions (§7.7).
            let instructions = match uri {
                MatchUri::State => resolution.instructions(folder, args.budget),
                MatchUri::Omit => None,
            };
            resolution.payload(args.budget, hint, uri, instructions.as_ref())
        })
        .map(|payload| payload.text)
        .map_err(|error| RpcError::from_core(&error))
}
