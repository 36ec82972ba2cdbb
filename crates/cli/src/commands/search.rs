//! `dotaios search`.

use std::ffi::OsString;
use std::process::ExitCode;

use crate::{CliError, Env};

/// Runs `dotaios search`.
pub(crate) fn run(args: &[OsString], env: &Env) -> Result<ExitCode, CliError> {
    let _ = (args, env);
    Err(CliError::failed("dotaios search is not available in this build yet."))
}
