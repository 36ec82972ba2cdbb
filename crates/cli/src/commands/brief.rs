//! `dotaios brief --compact`: the bounded working context (contract 02 §1, §14.1–§14.3, §15.1).
//!
//! This module parses options in the contract's order, resolves the memory policy before touching
//! anything (Off prints its fixed response without even checking the folder), checks the
//! folder, and prints what `dotaios_core::context` produced. It never writes: the daily-note
//! writer of the reference's non-compact `brief` does not exist in this product.

use std::ffi::OsString;
use std::process::ExitCode;

use dotaios_contained::Root;
use dotaios_core::context::{
    ContextInputs, off_cli_hook_json, off_cli_plain, off_mcp_payload, read_working_context,
};
use dotaios_core::folder::memory::{MemoryMode, PolicyArg, PolicyInputs};

use super::folder::checked_folder;
use super::memory::memory_policy;
use crate::args::{
    CommandSpec, Item, MEMORY_OPTION, OptionSpec, PATH_OPTION, Scanner, text, unexpected, unhandled,
};
use crate::output::out;
use crate::terminal::Stdout;
use crate::{CliError, Env};

/// `dotaios brief`: its options, help and completions.
pub(crate) static SPEC: CommandSpec = CommandSpec {
    name: "brief",
    label: "brief --compact",
    summary: "Print the bounded working context",
    usage: "\
Usage: dotaios brief --compact [options]

Print the bounded working context of the AIOS folder: identity, priorities, current work,
recent decisions, today's plan, carry-overs, the active project and recent sessions, signals
and events, fitted to a visible budget. Nothing is written.
",
    options: &[
        OptionSpec::flag("--compact", "Print the working context (required)"),
        PATH_OPTION,
        MEMORY_OPTION,
        OptionSpec::value(
            "--project",
            "<selector>",
            "Only this project's memory: its slug or stable id",
        ),
        OptionSpec::value("--limit", "<n>", "Recent sessions shown (default 3)"),
        OptionSpec::value(
            "--budget",
            "<n>",
            "Visible budget in UTF-16 code units (default 6000)",
        ),
        OptionSpec::flag(
            "--json",
            "Print the one-line agent-hook JSON (BeforeAgent hooks)",
        ),
        OptionSpec::flag("--hook-json", "Same as --json"),
        OptionSpec::flag(
            "--envelope",
            "Print the payload the MCP tool read_working_context returns",
        ),
        OptionSpec::value(
            "--first-message",
            "<text>",
            "Let the user's first message choose the memory mode",
        ),
    ],
    words: &[],
    footer: "",
};

/// What `brief --compact` prints.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum OutputForm {
    /// The Markdown (with notices), contract 02 §14.1.
    #[default]
    Markdown,
    /// The MCP `read_working_context` payload, contract 02 §14.4 (`--envelope`).
    Envelope,
    /// The agent-hook JSON of contract 02 §14.2 (`--json`, and its alias `--hook-json`).
    HookJson,
}

/// The options of one `brief` invocation, as given.
#[derive(Debug, Default)]
struct Options {
    compact: bool,
    output: OutputForm,
    path: Option<OsString>,
    project: Option<String>,
    memory: Option<String>,
    budget: Option<f64>,
    limit: Option<f64>,
    first_message: Option<String>,
}

/// Runs `dotaios brief`.
pub(crate) fn run(args: &[OsString], env: &Env) -> Result<ExitCode, CliError> {
    if Scanner::wants_help(args) {
        out(&SPEC.help())?;
        return Ok(ExitCode::SUCCESS);
    }
    let options = parse(args)?;
    if options.first_message.is_some() && !options.compact {
        return Err(CliError::CompactOnly("--first-message and --cwd"));
    }
    let policy = memory_policy(PolicyInputs {
        mode: text_arg(options.memory.as_deref()),
        project: text_arg(options.project.as_deref()),
        first_user_message: text_arg(options.first_message.as_deref()),
    })?;
    if policy.mode == MemoryMode::Off {
        out(&match options.output {
            OutputForm::Markdown => off_cli_plain(),
            OutputForm::Envelope => format!("{}\n", off_mcp_payload()),
            OutputForm::HookJson => off_cli_hook_json(),
        })?;
        return Ok(ExitCode::SUCCESS);
    }
    if !options.compact {
        if options.memory.is_some() || options.project.is_some() {
            return Err(CliError::CompactOnly("--memory and --project"));
        }
        // The reference's non-compact brief writes today's daily note; this product has no
        // such writer and says so (a usage error, exit 1: contract 06 §1.3).
        return Err(CliError::BriefNeedsCompact);
    }
    let folder = checked_folder(options.path.as_deref(), env)?;
    // The folder passed its check; a root that cannot be opened now is still no folder.
    let root = Root::open(&folder).map_err(|_| CliError::NoFolder(folder.clone()))?;
    let time_zone = jiff::tz::TimeZone::system();
    let selector = match &policy.project_selector {
        Some(selector) if policy.mode == MemoryMode::Project => Some(selector.as_str()),
        _ => None,
    };
    let request = ContextInputs {
        selector,
        limit: options.limit,
        budget: options.budget,
    }
    .check(jiff::Timestamp::now(), &time_zone)?;
    let context = read_working_context(&root, &request)?;
    out(&match options.output {
        // Contract 06 §1.9: a person at a terminal reads the people form; a pipe gets the
        // digest of contract 02 §14.1 byte for byte.
        OutputForm::Markdown if Stdout::of_process(env).is_terminal => {
            for_people(&context.cli_plain(), policy.mode)
        }
        OutputForm::Markdown => context.cli_plain(),
        OutputForm::Envelope => {
            // The metadata bound (contract 02 §14.4) is a read failure like any other.
            let payload = context
                .mcp_payload()
                .map_err(|_| CliError::ContextReadFailed)?;
            format!("{payload}\n")
        }
        OutputForm::HookJson => context.cli_hook_json(policy.project_selector.as_deref()),
    })?;
    Ok(ExitCode::SUCCESS)
}

/// The digest as a person reads it at a terminal (contract 06 §1.9): the receipt line explained
/// once ([`super::explained_receipt`]), and a source's own leading `# Title` dropped where it
/// only repeats the `### Title` of its section (with the blank line after it), so a heading is
/// not nested directly under its own name. One pass over the lines; nothing else changes.
fn for_people(digest: &str, mode: MemoryMode) -> String {
    let receipt = mode.receipt();
    let mut text = String::with_capacity(digest.len() + 80);
    let mut receipt_seen = false;
    let mut section: Option<&str> = None;
    let mut skip_blank = false;
    for line in digest.split_inclusive('\n') {
        let bare = line.strip_suffix('\n').unwrap_or(line);
        if skip_blank {
            skip_blank = false;
            if bare.is_empty() {
                continue;
            }
        }
        if let Some(title) = section.take()
            && let Some(own) = bare.strip_prefix("# ")
            && own.trim().eq_ignore_ascii_case(title.trim())
        {
            skip_blank = true;
            continue;
        }
        if !receipt_seen && bare == receipt {
            receipt_seen = true;
            text.push_str(&super::memory::explained_receipt(mode));
            text.push_str(&line[bare.len()..]);
            continue;
        }
        section = bare.strip_prefix("### ");
        text.push_str(line);
    }
    text
}

/// A policy input from an optional option value.
fn text_arg(value: Option<&str>) -> PolicyArg<'_> {
    value.map_or(PolicyArg::Absent, PolicyArg::Text)
}

/// Parses the options left to right (contract 02 §15.1 step 2); the first problem wins.
fn parse(args: &[OsString]) -> Result<Options, CliError> {
    let mut options = Options::default();
    let mut scanner = Scanner::new(args, &SPEC);
    while let Some(item) = scanner.next_item()? {
        match item {
            Item::Flag("--compact") => options.compact = true,
            Item::Flag("--json" | "--hook-json") => options.output = OutputForm::HookJson,
            Item::Flag("--envelope") => options.output = OutputForm::Envelope,
            Item::Value("--path", value) => options.path = Some(value),
            Item::Value("--project", value) => options.project = Some(text(value, "--project")?),
            Item::Value("--memory", value) => options.memory = Some(text(value, "--memory")?),
            Item::Value("--budget", value) => {
                options.budget = Some(whole_number(&text(value, "--budget")?, "--budget")?);
            }
            Item::Value("--limit", value) => {
                options.limit = Some(whole_number(&text(value, "--limit")?, "--limit")?);
            }
            Item::Value("--first-message", value) => {
                options.first_message = Some(text(value, "--first-message")?);
            }
            // `daily` is the reference's optional subcommand word; it changes nothing.
            Item::Positional(word) if word == "daily" => {}
            Item::Positional(word) => return Err(unexpected(&word)),
            other => return Err(unhandled(&other)),
        }
    }
    Ok(options)
}

/// `^\d+$`, converted like JavaScript's `Number` (a value too large for a double becomes
/// infinity and is refused later by the projection with its own message).
fn whole_number(value: &str, flag: &'static str) -> Result<f64, CliError> {
    if value.is_empty() || !value.bytes().all(|byte| byte.is_ascii_digit()) {
        return Err(CliError::NotWholeNumber(flag));
    }
    // Digits only, so the parse cannot fail; Rust rounds decimal text exactly as JavaScript.
    Ok(value.parse::<f64>().unwrap_or(f64::INFINITY))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::os_args as os;
    use dotaios_core::request::{Budget, Limit};

    #[test]
    fn the_people_form_explains_the_receipt_and_drops_repeated_titles() {
        let digest = "Memory: Shared\n\n## Active Context · 2026-12-06\n\n### Identity\n# Identity\n\n## Basics\n- Name: Ada\n\n### Priorities\n# This quarter\n\n### Current Work\n# current work \nMemory: Shared\n";
        assert_eq!(
            for_people(digest, MemoryMode::Shared),
            "Memory: Shared (all of this AIOS folder; --memory project or off narrows it)\n\n## Active Context · 2026-12-06\n\n### Identity\n## Basics\n- Name: Ada\n\n### Priorities\n# This quarter\n\n### Current Work\nMemory: Shared\n"
        );
        // A notice before the receipt stays; the project receipt says what it covers.
        assert_eq!(
            for_people("> note\n\nMemory: This project\n", MemoryMode::Project),
            "> note\n\nMemory: This project (this project's memory only; --memory shared widens it)\n"
        );
    }

    /// The help states the defaults `ContextInputs::check` applies.
    #[test]
    fn help_states_the_request_defaults() {
        assert_eq!(
            SPEC.option_help("--limit").map(str::to_owned),
            Some(format!(
                "Recent sessions shown (default {})",
                Limit::CONTEXT_DEFAULT.get()
            ))
        );
        assert_eq!(
            SPEC.option_help("--budget").map(str::to_owned),
            Some(format!(
                "Visible budget in UTF-16 code units (default {})",
                Budget::DEFAULT.value()
            ))
        );
    }

    #[test]
    fn budget_and_limit_are_ascii_digits() {
        assert_eq!(whole_number("0", "--budget").ok(), Some(0.0));
        assert_eq!(whole_number("6000", "--budget").ok(), Some(6000.0));
        assert_eq!(
            whole_number("1".repeat(400).as_str(), "--budget").ok(),
            Some(f64::INFINITY)
        );
        for bad in ["", "-1", "1.5", "1e3", " 1", "١"] {
            assert_eq!(
                whole_number(bad, "--budget")
                    .map_err(|e| e.to_string())
                    .err()
                    .as_deref(),
                Some("--budget must be a non-negative whole number."),
                "{bad}"
            );
        }
    }

    #[test]
    fn options_in_order() {
        let parsed = parse(&os(&[
            "daily",
            "--compact",
            "--envelope",
            "--project",
            " p ",
            "--limit",
            "5",
        ]));
        let options = parsed.unwrap_or_default();
        assert!(options.compact && options.output == OutputForm::Envelope);
        assert_eq!(options.project.as_deref(), Some(" p "));
        assert_eq!(options.limit, Some(5.0));
        let unknown = parse(&os(&["--compact", "--cwd", "/x"])).map_err(|e| e.to_string());
        assert_eq!(unknown.err().as_deref(), Some("Unknown option: --cwd"));
        let missing = parse(&os(&["--project", "--compact"])).map_err(|e| e.to_string());
        assert_eq!(missing.err().as_deref(), Some("--project requires a value"));
        let positional = parse(&os(&["weekly"])).map_err(|e| e.to_string());
        assert_eq!(positional.err().as_deref(), Some("Unknown option: weekly"));
        let equals = parse(&os(&["--path=x", "--json"])).unwrap_or_default();
        assert_eq!(equals.path.as_deref(), Some("x".as_ref()));
        assert_eq!(equals.output, OutputForm::HookJson);
    }
}
