//! The CLI error boundary: every failure of every command ends here as one stderr line and a
//! non-zero exit code (contract 06 §1.3). Commands return a typed [`CliError`], most variants
//! carrying the typed error of the layer that failed; [`report`], called only by
//! `crate::main`, is the one place where an error becomes text and an exit status.
//!
//! What it must never do: print anything but the one message (no backtrace, no debug form), or
//! name a machine path except where the contract allows it (the folder check, `init`, the
//! client configuration `connect` writes, the launcher).

use std::path::PathBuf;
use std::process::ExitCode;

use dotaios_core::context::{ContextError, ContextInputError};
use dotaios_core::folder::memory::MemoryPolicyError;
use dotaios_core::search::{ScopeRequest, SearchError};
use dotaios_core::skills::{CatalogError, SkillError};

use crate::launcher::LauncherError;
use crate::output;
use crate::writers::connect::ConnectError;
use crate::writers::init::InitError;
use crate::writers::migrate::MigrateError;

/// A command failure, already classified for the user. Its `Display` is the fixed public
/// message.
#[derive(Debug, thiserror::Error)]
pub(crate) enum CliError {
    /// A write to stdout or stderr failed (`crate::output`). A closed pipe is reported as
    /// nothing and status 0; any other failure as this line and status 1 (contract 06 §1.3).
    #[error("dotaios: could not write output: {}", output::write_failure(.0))]
    Output(std::io::Error),
    /// A first argument that names no command, or an option where a command belongs, with its
    /// hint already chosen (contract 06 §1.1). Exit 1.
    #[error("{0}")]
    UnknownCommand(String),
    /// An option that the command's table does not declare (contract 06 §1.2), with the
    /// "Did you mean" hint already chosen (possibly empty). Exit 1.
    #[error("Unknown option: {name}{hint}")]
    UnknownOption {
        /// The option or word as typed.
        name: String,
        /// `. Did you mean --x?` or nothing.
        hint: String,
    },
    /// An option the command's chapter names as unsupported, with the chapter's message
    /// (`Scanner::refusing`). Exit 1.
    #[error("{0}")]
    RefusedOption(&'static str),
    /// A value-taking option without a usable value. Exit 1.
    #[error("{0} requires a value")]
    RequiresValue(String),
    /// A flag given `=value`. Exit 1.
    #[error("{0} does not take a value")]
    TakesNoValue(&'static str),
    /// An option with a value given a second time (contract 06 §1.2). Exit 1.
    #[error("{0} may only be provided once")]
    RepeatedOption(&'static str),
    /// A command's usage line, for a call that names nothing it can run. Exit 1.
    #[error("{0}")]
    UsageLine(&'static str),
    /// A positional argument after the one a command takes. Exit 1.
    #[error("Unexpected argument: {0}")]
    UnexpectedArgument(String),
    /// Options that only the compact brief accepts (contract 02 §15.1). Exit 1.
    #[error("{0} are supported with --compact only.")]
    CompactOnly(&'static str),
    /// A numeric option that is not a non-negative whole number. Exit 1.
    #[error("{0} must be a non-negative whole number.")]
    NotWholeNumber(&'static str),
    /// `--limit` that is not a positive whole number, as the command shows it (`search` clips
    /// it to 64 code points, `skills resolve` does not). Exit 1.
    #[error("Invalid --limit \"{0}\". Use a positive whole number.")]
    InvalidLimit(String),
    /// `search` without a query. Exit 1.
    #[error("Usage: dotaios search <query> [--scope {}]", ScopeRequest::NAMES.join("|"))]
    SearchUsage,
    /// A `--scope` that is not a scope name (shown clipped), with the closest name when near.
    /// Exit 1.
    #[error("Invalid --scope \"{given}\". Use one of: {}.{hint}", ScopeRequest::NAMES.join(", "))]
    InvalidScope {
        /// The scope as typed, clipped to 64 code points.
        given: String,
        /// [`crate::args::value_hint`] or nothing.
        hint: String,
    },
    /// `--apply` and `--recover` together. Exit 1.
    #[error("Choose either --apply or --recover, not both.")]
    ApplyAndRecover,
    /// `connect` with a service it does not know, with the closest one when near
    /// ([`crate::args::did_you_mean`]'s `. Did you mean …?` or nothing). Exit 1.
    #[error("Unsupported connection: {name}. Supported: opencode{hint}")]
    UnsupportedConnection {
        /// The service as typed.
        name: String,
        /// The suggestion, or nothing.
        hint: String,
    },
    /// `completions` for a shell it does not know, with its hint. Exit 1.
    #[error("Unknown shell: {name}{hint}")]
    UnknownShell {
        /// The shell as typed.
        name: String,
        /// `. Did you mean zsh?` or the list of shells.
        hint: String,
    },
    /// A `--color` that is not `auto`, `always` or `never` (shown clipped), with the closest
    /// when near (contract 06 §1.9). Exit 1.
    #[error("Invalid --color \"{given}\". Use one of: auto, always, never.{hint}")]
    InvalidColor {
        /// The value as typed, clipped to 64 code points.
        given: String,
        /// The suggestion, or nothing.
        hint: String,
    },
    /// `--memory`, `--project` or `--first-message` refused by the memory policy. Exit 1.
    #[error(transparent)]
    MemoryPolicy(#[from] MemoryPolicyError),
    /// `--memory` that names no mode: the policy's message, then the closest mode when near
    /// ([`crate::args::value_hint`] or nothing). Exit 1.
    #[error("{}{hint}", MemoryPolicyError::InvalidMode)]
    InvalidMemoryMode {
        /// The suggestion, or nothing.
        hint: String,
    },
    /// The folder check of contract 01 §1.3 failed. This is one of the few messages that may name a
    /// machine path: it is addressed to the person at the terminal.
    #[error("No AIOS folder found at {}. Run dotaios init first, or pass --path.", .0.display())]
    NoFolder(PathBuf),
    /// `brief` without `--compact`: this product has no daily-note writer (contract 02 §15.1).
    /// Exit 1, a usage error like every missing argument (contract 06 §1.3).
    #[error("dotaios brief prints the working context only; pass --compact.")]
    BriefNeedsCompact,
    /// The compact brief's envelope could not be fitted (contract 02 §14.4): the read failure.
    #[error("{}", dotaios_core::context::READ_FAILED_MESSAGE)]
    ContextReadFailed,
    /// The working-context arguments were refused (contract 02 §2; its fixed messages).
    #[error(transparent)]
    ContextInputs(#[from] ContextInputError),
    /// The working context could not be built (contract 02; its fixed public messages).
    #[error(transparent)]
    Context(#[from] ContextError),
    /// The search request or the search failed (contract 03; its fixed public messages).
    #[error(transparent)]
    Search(#[from] SearchError),
    /// `init` refused or failed (contract 01 §11).
    #[error(transparent)]
    Init(#[from] InitError),
    /// `migrate` refused or failed (contract 01 §9).
    #[error(transparent)]
    Migrate(#[from] MigrateError),
    /// `connect opencode` refused or failed; the message names the configuration file.
    #[error("{}", .error.message(.file))]
    Connect {
        /// What went wrong.
        error: ConnectError,
        /// The `opencode.json` concerned.
        file: PathBuf,
    },
    /// `init` without `--yes` and without a terminal to ask at.
    #[error("interactive terminal required (or pass --yes for non-interactive)")]
    NoTerminal,
    /// A path that client configuration must store but that is not UTF-8.
    #[error(
        "Cannot write client configuration for a path that is not valid UTF-8: {}",
        .0.display()
    )]
    NonUtf8Path(PathBuf),
    /// The default launcher lies in a build or temporary directory (contract 06 §2.2): `rerun`
    /// is the same command with `--launcher <path>`; `install` the install command, for a
    /// launcher that was built rather than installed.
    #[error(
        "Refusing to use the dotaios-mcp launcher at {}: it is inside a build or temporary directory and may disappear.{}\nTo use it where it is, run: {rerun}",
        .path.display(),
        .install.as_ref().map(|install| format!("\nTo install dotaios and dotaios-mcp side by side, run: {install}")).unwrap_or_default()
    )]
    DisposableLauncher {
        path: PathBuf,
        rerun: String,
        install: Option<String>,
    },
    /// No usable `dotaios-mcp` launcher (contract 06 §2).
    #[error(transparent)]
    Launcher(#[from] LauncherError),
    /// The skill catalog could not be read (contract 04 §5.1 step 2; core's fixed, path-free
    /// messages).
    #[error("{}", .0.message())]
    Catalog(CatalogError),
    /// `skills resolve` could not resolve (contract 04; core's fixed messages).
    #[error(transparent)]
    Skill(#[from] SkillError),
    /// `skills <name>` names no installed skill; `path` is ` --path <folder>` or nothing
    /// (contract 04 §5.5). Exit 1.
    #[error("No skill found: {name}{hint}\nRun \"dotaios skills{path}\" to list installed skills.")]
    NoSkill {
        /// The name as typed (its words joined by spaces).
        name: String,
        /// The closest installed skill's `. Did you mean …?`, or nothing.
        hint: String,
        /// The `--path` suffix of the printed next step.
        path: String,
    },
    /// `skills resolve` with no intent and no `--boot-context`; `path` as in
    /// [`CliError::NoSkill`]. Exit 1, a usage error like every missing argument (contract 06
    /// §1.3, 04 §5.3).
    #[error(
        "Pass an intent to resolve, e.g. dotaios skills resolve \"plan my day\"{path}.\nOr print a boot block: dotaios skills resolve --boot-context{path}."
    )]
    NoIntent {
        /// The `--path` suffix of the printed next steps.
        path: String,
    },
    /// `skills resolve` in text mode matched nothing; `path` as in [`CliError::NoSkill`].
    /// Exit 2: the command ran and found no answer (contract 06 §1.3).
    #[error(
        "No skill matched: {intent}{hint}\nRun \"dotaios skills{path}\" to list installed skills."
    )]
    NoSkillMatched {
        /// The trimmed intent.
        intent: String,
        /// The `. Did you mean …?` of an installed skill's name close to the whole intent, or
        /// nothing.
        hint: String,
        /// The `--path` suffix of the printed next step.
        path: String,
    },
    /// A skill's `SKILL.md` could not be read in full; names the skill's folder-relative
    /// resource, never a machine path. Exit 1.
    #[error("Could not read skill file: {0}")]
    SkillFileUnreadable(String),
    /// `demo` could not start or talk to the sample adapter. Exit 1.
    #[error("dotaios demo could not run the sample adapter.")]
    DemoFailed,
    /// `mcp` with an `--agent` it does not know (lowercased as typed), with the closest agent
    /// when near ([`crate::args::value_hint`] or nothing). Exit 1.
    #[error(
        "Invalid --agent: {name}. Use claude, codex, cursor, gemini, antigravity, kimi, opencode.{hint}"
    )]
    InvalidAgent {
        /// The agent as typed, lowercased.
        name: String,
        /// The suggestion, or nothing.
        hint: String,
    },
    /// `mcp status` in text mode, after its report on stdout, when the adapter check failed
    /// (contract 06 §4). Exit 1.
    #[error("MCP adapter check failed.")]
    AdapterCheckFailed,
    /// `mcp` with a subcommand it does not know, with the closest one when near (`hint` is
    /// [`crate::args::did_you_mean`]'s `. Did you mean …?` or empty). Exit 1.
    #[error("Unknown mcp command: {name}.{} Try `dotaios mcp --help`.", .hint.trim_start_matches('.'))]
    UnknownMcpCommand {
        /// The word given.
        name: String,
        /// The suggestion, or empty.
        hint: String,
    },
}

impl CliError {
    /// The one exit-code table of contract 06 §1.3: 0 for a closed stdout, 2 for "ran, but no
    /// answer", 1 for every other failure, usage errors included.
    fn exit_code(&self) -> u8 {
        match self {
            CliError::Output(error) if error.kind() == std::io::ErrorKind::BrokenPipe => 0,
            CliError::NoSkillMatched { .. } => 2,
            _ => 1,
        }
    }
}

/// Prints `error` as its one line on stderr and returns the exit code.
pub(crate) fn report(error: &CliError) -> ExitCode {
    // The reader of stdout went away (`dotaios … | head`): it has what it wanted, and there is
    // no one to tell (contract 06 §1.3).
    if let CliError::Output(failure) = error
        && failure.kind() == std::io::ErrorKind::BrokenPipe
    {
        return ExitCode::from(error.exit_code());
    }
    // A message is one line by contract; a multi-line message (init's two-line refusals) is
    // printed as the contract writes it.
    output::last_err_line(&error.to_string());
    ExitCode::from(error.exit_code())
}

#[cfg(test)]
mod tests {
    use super::CliError;

    /// The sample adapter cannot be made to fail from the integration tests, so its message
    /// and status are pinned here.
    #[test]
    fn demo_failure_message_and_status() {
        let error = CliError::DemoFailed;
        assert_eq!(
            error.to_string(),
            "dotaios demo could not run the sample adapter."
        );
        assert_eq!(error.exit_code(), 1);
    }
}
