//! `read_working_context` in shared and project mode (contract 05 §7.2, §7.3, §8.5). The
//! projection, the migration inspection and the payload text are `dotaios-core`'s, the same
//! code as `dotaios brief --compact`; this module maps their errors to the wire (the tool
//! texts of contract 05 §6.8 are core's, `dotaios_core::error`; the CLI's are `ContextError`'s
//! `Display`).

use std::path::Path;

use dotaios_contained::Root;
use dotaios_core::context::{ContextError, ContextRequest, ContextScope, read_working_context};
use dotaios_core::error::{PROJECT_AMBIGUOUS_MESSAGE, PROJECT_UNREGISTERED_MESSAGE};
use dotaios_core::folder::memory::MemoryMode;
use dotaios_core::folder::projects::ScopeError;
use jiff::Timestamp;
use jiff::tz::TimeZone;

use crate::error::{Internal, RpcError};
use crate::tools::args::ContextArgs;

/// Runs the projection and returns the payload text.
pub(crate) fn run(
    folder: &Path,
    args: &ContextArgs,
    time_zone: &TimeZone,
) -> Result<String, RpcError> {
    let root = Root::open(folder).map_err(|_| RpcError::ContextUnreadable)?;
    let scope = match (args.mode, args.project) {
        (MemoryMode::Project, Some(selector)) => ContextScope::Project { selector },
        _ => ContextScope::Shared,
    };
    let request = ContextRequest {
        scope,
        limit: args.limit,
        budget: args.budget,
        now: Timestamp::now(),
        time_zone,
    };
    let context = read_working_context(&root, &request).map_err(public_error)?;
    context.mcp_payload().map_err(|_| RpcError::Failed)
}

fn public_error(error: ContextError) -> RpcError {
    match error {
        // A fixable folder problem keeps the projection's own fixed text in the reference era
        // (contract 05 §6.9, §6.12).
        ContextError::ReadFailed(failure) => {
            RpcError::internal(failure.code(), Internal::WorkingContext)
        }
        ContextError::Project(ScopeError::Ambiguous { .. }) => {
            RpcError::invalid(PROJECT_AMBIGUOUS_MESSAGE)
        }
        ContextError::Project(ScopeError::Unknown) => {
            RpcError::invalid(PROJECT_UNREGISTERED_MESSAGE)
        }
    }
}
