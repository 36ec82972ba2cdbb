//! The CLI error boundary: every failure of every command ends here as one stderr line and a
//! non-zero exit code (contract 06 §1.3). Commands build a [`CliError`] from their typed errors;
//! this module is the only place that prints one.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::output;

/// A command failure, already classified for the user.
#[derive(Debug, thiserror::Error)]
pub(crate) enum CliError {
    /// A usage problem: unknown option, missing value, bad combination. Exit 1.
    #[error("{0}")]
    Usage(String),
    /// The folder check of contract 01 §1.3 failed. This is one of the few messages that may name a
    /// machine path: it is addressed to the person at the terminal.
    #[error("No AIOS folder found at {}. Run dotaios init first, or pass --path.", .0.display())]
    NoFolder(PathBuf),
    /// A command-specific failure whose one-line, user-facing text the command has fixed.
    #[error("{message}")]
    Failed {
        /// The line printed on stderr.
        message: String,
        /// The exit status (1 unless the command's chapter says otherwise).
        exit: u8,
    },
}

impl CliError {
    /// A failure with exit status 1.
    pub(crate) fn failed(message: impl Into<String>) -> CliError {
        CliError::Failed {
            message: message.into(),
            exit: 1,
        }
    }

    fn exit_code(&self) -> u8 {
        match self {
            CliError::Usage(_) | CliError::NoFolder(_) => 1,
            CliError::Failed { exit, .. } => *exit,
        }
    }
}

/// Prints `error` as its one line on stderr and returns the exit code.
pub(crate) fn report(error: &CliError) -> ExitCode {
    // A message is one line by contract; a multi-line message (init's two-line refusals) is
    // printed as the contract writes it.
    output::err_line(&error.to_string());
    ExitCode::from(error.exit_code())
}
