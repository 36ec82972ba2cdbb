//! Command dispatch (contract 06 §1.1) and the read-only commands. Each command module exposes
//! `run(args, env) -> Result<ExitCode, CliError>` and parses its own options with
//! [`crate::args::Scanner`].

use std::ffi::{OsStr, OsString};
use std::process::ExitCode;

mod brief;
mod completions;
mod connect;
#[allow(
    clippy::disallowed_methods,
    reason = "demo lays out and removes its own temporary copy of the sample folder"
)]
mod demo;
mod doctor;
mod folder;
mod init;
mod mcp;
mod memory;
mod migrate;
mod search;
mod skills;

use crate::args::{CommandSpec, did_you_mean};
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
