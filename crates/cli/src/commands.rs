//! Command dispatch (contract 06 §1.1) and the read-only commands. Each command module exposes
//! `run(args, env) -> Result<ExitCode, CliError>` and parses its own options with
//! [`crate::args::Scanner`].

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use dotaios_core::folder::check::is_aios_folder;
use dotaios_core::folder::location::{LocationInputs, resolve_folder};
use dotaios_core::folder::memory::{
    MemoryMode, MemoryPolicy, MemoryPolicyError, PolicyArg, PolicyInputs, resolve_memory_policy,
};

mod brief;
mod completions;
mod connect;
#[allow(
    clippy::disallowed_methods,
    reason = "demo lays out and removes its own temporary copy of the sample folder"
)]
mod demo;
mod doctor;
mod init;
mod mcp;
mod migrate;
mod search;
mod skills;

use crate::args::{CommandSpec, did_you_mean, value_hint};
use crate::output::out;
use crate::{CliError, Env};

/// Every command the dispatcher knows, in the order of the top-level help: the table the
/// help texts, the completions and the help tests read.
pub(crate) static COMMANDS: &[&CommandSpec] = &[
    &init::SPEC,
    &brief::SPEC,
    &search::SPEC,
    &skills::SPEC,
    &skills::RESOLVE_SPEC,
    &doctor::SPEC,
    &migrate::SPEC,
    &mcp::SPEC,
    &mcp::STATUS_SPEC,
    &mcp::INSTALL_SPEC,
    &connect::SPEC,
    &demo::SPEC,
    &completions::SPEC,
    &HELP_SPEC,
];

/// `dotaios help [command]`.
static HELP_SPEC: CommandSpec = CommandSpec {
    name: "help",
    label: "help [command]",
    summary: "Show this help, or a command's help",
    usage: "\
Usage:
  dotaios help [command] [subcommand]

Print the top-level help, or the help of one command (the same text as
dotaios <command> --help).
",
    options: &[],
    words: &[],
    footer: "",
};

/// The top-level help of contract 06 §1.5, its command list drawn from [`COMMANDS`].
pub(crate) fn top_level_help() -> String {
    let mut text = String::from(
        "DotAIOS — local AIOS folder tools (read side)\n\nUsage:\n  dotaios <command> [options]\n\nCommands:\n",
    );
    for spec in COMMANDS.iter().filter(|spec| !spec.label.is_empty()) {
        text.push_str(&format!("  {:<18}{}\n", spec.label, spec.summary));
    }
    text.push_str(
        "\nCommon command options:\n  --path <dir>      Use a non-default AIOS folder (default ~/aios)\n\n  -h, --help        Show this help\n  -v, --version     Show the version (also -V)\n",
    );
    text
}

/// The names the dispatcher accepts as the first argument.
fn command_names() -> impl Iterator<Item = &'static str> {
    COMMANDS
        .iter()
        .filter(|spec| !spec.name.contains(' '))
        .map(|spec| spec.name)
}

/// Runs the command named by the first argument.
pub(crate) fn dispatch(argv: &[OsString], env: &Env) -> Result<ExitCode, CliError> {
    let Some(command) = argv.first() else {
        out(&top_level_help())?;
        return Ok(ExitCode::SUCCESS);
    };
    let rest = &argv[1..];
    match command.to_str() {
        Some("-h" | "--help") => {
            out(&top_level_help())?;
            Ok(ExitCode::SUCCESS)
        }
        Some("-v" | "-V" | "--version") => {
            out(concat!(env!("CARGO_PKG_VERSION"), "\n"))?;
            Ok(ExitCode::SUCCESS)
        }
        // Only names of [`COMMANDS`] are dispatched, so the help and completions drawn from
        // it list every command there is.
        Some(name) if !command_names().any(|known| known == name) => Err(unknown_command(command)),
        Some("init") => init::run(rest, env),
        Some("brief") => brief::run(rest, env),
        Some("search") => search::run(rest, env),
        Some("skills") => skills::run(rest, env),
        Some("doctor") => doctor::run(rest, env),
        Some("migrate") => migrate::run(rest, env),
        Some("mcp") => mcp::run(rest, env),
        Some("demo") => demo::run(rest, env),
        Some("connect") => connect::run(rest, env),
        Some("completions") => completions::run(rest),
        Some("help") => help(rest, env),
        _ => Err(unknown_command(command)),
    }
}

/// `dotaios help [command …]`: the command's own `--help`, so each text has one home.
fn help(rest: &[OsString], env: &Env) -> Result<ExitCode, CliError> {
    let Some(command) = rest.first() else {
        out(&top_level_help())?;
        return Ok(ExitCode::SUCCESS);
    };
    if command == "help" || command == "-h" || command == "--help" {
        out(&HELP_SPEC.help())?;
        return Ok(ExitCode::SUCCESS);
    }
    if !command_names().any(|name| command == name) {
        return Err(unknown_command(command));
    }
    let mut argv = rest.to_vec();
    argv.push(OsString::from("--help"));
    dispatch(&argv, env)
}

/// The flags the dispatcher knows in the first position (contract 06 §1.1), for suggestions.
const GLOBAL_FLAGS: [&str; 2] = ["--help", "--version"];

/// Contract 06 §1.1: one line on stderr and nothing on stdout, exit 1, so the suggestion is
/// the last thing on the screen. A first argument that looks like an option is an unknown
/// option, matched against the global flags; any other is an unknown command, matched against
/// the commands (§1.2). Without a close match the line points to the help.
fn unknown_command(command: &OsStr) -> CliError {
    let name = command.to_string_lossy();
    let line = if name.starts_with('-') {
        let hint = did_you_mean(&name, GLOBAL_FLAGS, "--");
        format!("Unknown option: {name}{}", or_see_help(hint))
    } else {
        let hint = did_you_mean(&name, command_names(), "");
        format!("Unknown command: {name}{}", or_see_help(hint))
    };
    CliError::UnknownCommand(line)
}

/// The suggestion, or a pointer to the top-level help when nothing is close.
fn or_see_help(hint: String) -> String {
    if hint.is_empty() {
        ". Run dotaios --help to see the commands.".to_owned()
    } else {
        hint
    }
}

/// The memory policy of `--memory`, `--project` and `--first-message` (contract 01 §7.1), its
/// refusal of a `--memory` that names no mode continued by the closest mode (contract 06 §1.2).
pub(crate) fn memory_policy(inputs: PolicyInputs<'_>) -> Result<MemoryPolicy, CliError> {
    let mode = inputs.mode;
    resolve_memory_policy(inputs).map_err(|error| match (error, mode) {
        (MemoryPolicyError::InvalidMode, PolicyArg::Text(given)) => CliError::InvalidMemoryMode {
            hint: value_hint(given, MemoryMode::ALL.map(MemoryMode::as_str)),
        },
        (error, _) => error.into(),
    })
}

/// The memory receipt a person reads at a terminal (contract 06 §1.9): the receipt of contract
/// 01 §7 followed by what the mode covers and the option that changes it, said once at the top
/// of `brief --compact` and of search's grouped form. Scripts and agents get the bare receipt.
pub(crate) fn explained_receipt(mode: MemoryMode) -> String {
    let explanation = match mode {
        MemoryMode::Shared => "all of this AIOS folder; --memory project or off narrows it",
        MemoryMode::Project => "this project's memory only; --memory shared widens it",
        MemoryMode::Off => return mode.receipt().to_owned(),
    };
    format!("{} ({explanation})", mode.receipt())
}

/// The AIOS folder a command works on (contract 01 §1): `--path`, else `~/aios`, made absolute
/// against the working directory. `DOTAIOS_PATH` is never consulted here; only the adapter
/// reads it.
pub(crate) fn configured_folder(path_flag: Option<&OsStr>, env: &Env) -> PathBuf {
    resolve_folder(LocationInputs {
        path_flag,
        env_path: None,
        home: &env.home_or_root(),
        cwd: &env.cwd,
    })
}

/// [`configured_folder`] after the folder check of contract 01 §1.3.
pub(crate) fn checked_folder(path_flag: Option<&OsStr>, env: &Env) -> Result<PathBuf, CliError> {
    let folder = configured_folder(path_flag, env);
    require_aios_json(&folder)?;
    Ok(folder)
}

/// A path that goes into a client configuration (`mcp install`, `connect`) must be UTF-8 text
/// (contract 06 §2.3).
pub(crate) fn utf8_path(path: &Path) -> Result<&str, CliError> {
    path.to_str()
        .ok_or_else(|| CliError::NonUtf8Path(path.to_path_buf()))
}

/// The folder check of contract 01 §1.3 ([`is_aios_folder`], shared with the adapter), refused
/// with the CLI's message, which names the folder.
pub(crate) fn require_aios_json(folder: &Path) -> Result<(), CliError> {
    if is_aios_folder(folder) {
        Ok(())
    } else {
        Err(CliError::NoFolder(folder.to_path_buf()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::{Item, Scanner, Takes};

    /// Every option of every table is read back by the scanner in both spellings, and shown
    /// in its command's help (the integration tests check that each command handles it).
    #[test]
    fn every_table_option_scans_in_both_forms_and_is_in_the_help() {
        for spec in COMMANDS {
            let help = spec.help();
            assert!(top_level_help().contains(spec.summary), "{}", spec.name);
            for option in spec.options {
                assert!(
                    help.contains(&option.synopsis()),
                    "{} {}",
                    spec.name,
                    option.name
                );
                let forms: Vec<Vec<OsString>> = match option.takes {
                    Takes::Nothing => vec![vec![option.name.into()]],
                    Takes::Value(_) | Takes::OptionalValue(_) => vec![
                        vec![option.name.into(), "v".into()],
                        vec![format!("{}=v", option.name).into()],
                    ],
                };
                for args in forms {
                    let mut scanner = Scanner::new(&args, spec);
                    let item = scanner.next_item().map_err(|e| e.to_string());
                    let expected = match option.takes {
                        Takes::Nothing => Item::Flag(option.name),
                        Takes::Value(_) => Item::Value(option.name, "v".into()),
                        Takes::OptionalValue(_) => Item::MaybeValue(option.name, Some("v".into())),
                    };
                    assert_eq!(item, Ok(Some(expected)), "{} {args:?}", spec.name);
                }
            }
        }
    }

    #[test]
    fn top_level_help_keeps_the_contract_lines() {
        let help = top_level_help();
        assert!(help.starts_with("DotAIOS — local AIOS folder tools (read side)\n\nUsage:\n  dotaios <command> [options]\n\nCommands:\n  init              Create a new AIOS folder\n  brief --compact   Print the bounded working context\n"));
        assert!(
            help.contains("\n  --path <dir>      Use a non-default AIOS folder (default ~/aios)\n")
        );
        assert!(help.contains("\n  help [command]    "));
        let commands = help.split("Commands:\n").nth(1);
        let commands = commands.and_then(|rest| rest.split("\n\n").next());
        for line in commands.unwrap_or_default().lines() {
            assert!(
                line[2..].contains("  "),
                "label and summary run together: {line}"
            );
        }
    }
}
