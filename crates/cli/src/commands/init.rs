//! `dotaios init` (contract 01 §11): options, the optional questions at a terminal, and the
//! summary. Everything that decides or writes is in [`crate::writers::init`].

use std::ffi::OsString;
use std::io::{BufRead, IsTerminal};
use std::process::ExitCode;
use std::time::SystemTime;

use dotaios_core::folder::location::{LocationInputs, absolutize, expand_tilde, resolve_folder};

use crate::args::{CommandSpec, Item, OptionSpec, Scanner, Takes, unexpected, unhandled};
use crate::output::{lines_text, out};
use crate::writers::init::{
    self as writer, Answers, DEFAULT_AI_TOOLS, InitReport, InitRequest, VaultRequest, shell_quote,
};
use crate::{CliError, Env};

/// `dotaios init`: its options, help and completions.
pub(crate) static SPEC: CommandSpec = CommandSpec {
    name: "init",
    label: "init",
    summary: "Create a new AIOS folder",
    usage: "\
Usage:
  dotaios init [--path <dir>] [--yes|-y] [--force] [--overwrite] [--vault-path <dir>]

Create an AIOS folder (schema 1.2.0) with starter context files, bundled skills and their
catalogs. Existing files are never replaced unless --overwrite is given, and even then
aios.json and .gitignore are kept (dotaios migrate is their only writer).
",
    options: &[
        OptionSpec::value("--path", "<dir>", "Folder to create (default ~/aios)"),
        OptionSpec {
            name: "--yes",
            short: Some("-y"),
            takes: Takes::Nothing,
            help: "Use placeholder answers; required without an interactive terminal",
        },
        OptionSpec::flag(
            "--force",
            "Add missing files to a non-empty folder, keeping every existing file",
        ),
        OptionSpec::flag(
            "--overwrite",
            "Like --force, and also replace generated files (README.md,\nFIRST_SESSION.md, agent instructions, bundled skills, skill catalogs)",
        ),
        OptionSpec::value(
            "--vault-path",
            "<dir>",
            "Keep the vault in this folder, outside the AIOS folder",
        ),
    ],
    words: &[],
    footer: "",
};

#[derive(Debug, Default)]
struct Options {
    path: Option<OsString>,
    vault_path: Option<OsString>,
    yes: bool,
    force: bool,
    overwrite: bool,
}

/// Runs `dotaios init`.
pub(crate) fn run(args: &[OsString], env: &Env) -> Result<ExitCode, CliError> {
    if Scanner::wants_help(args) {
        out(&SPEC.help())?;
        return Ok(ExitCode::SUCCESS);
    }
    let options = parse(args)?;
    let home = env.home_or_root();
    let folder = |path_flag: Option<&OsString>| {
        resolve_folder(LocationInputs {
            path_flag: path_flag.map(OsString::as_os_str),
            env_path: None,
            home: &home,
            cwd: &env.cwd,
        })
    };
    let target = folder(options.path.as_ref());
    let is_default_target = target == folder(None);
    let request = InitRequest {
        vault: options.vault_path.map(|raw| VaultRequest {
            path: absolutize(&expand_tilde(&raw, &home), &env.cwd),
            raw,
        }),
        target,
        force: options.force || options.overwrite,
        overwrite: options.overwrite,
    };

    writer::check(&request)?;
    let answers = if options.yes {
        Answers::placeholders()
    } else if std::io::stdin().is_terminal() {
        ask_at_terminal()?
    } else {
        return Err(CliError::NoTerminal);
    };
    let report = writer::write(&request, &answers, SystemTime::now())?;
    out(&summary(&report, is_default_target))?;
    Ok(ExitCode::SUCCESS)
}

fn parse(args: &[OsString]) -> Result<Options, CliError> {
    let mut options = Options::default();
    let mut scanner = Scanner::new(args, &SPEC);
    while let Some(item) = scanner.next_item()? {
        match item {
            Item::Value("--path", value) => options.path = Some(value),
            Item::Value("--vault-path", value) => options.vault_path = Some(value),
            Item::Flag("--yes") => options.yes = true,
            Item::Flag("--force") => options.force = true,
            Item::Flag("--overwrite") => options.overwrite = true,
            Item::Positional(word) => return Err(unexpected(&word)),
            other => return Err(unhandled(&other)),
        }
    }
    Ok(options)
}

/// Asks the five questions of the interactive flow; an empty answer (or end of input) keeps
/// the placeholder, so the result is never worse than `--yes`. A question that cannot be
/// written stops `init` before anything is written.
fn ask_at_terminal() -> Result<Answers, CliError> {
    out(
        "Answer a few questions to fill in your context. Press Enter to skip one; you can edit\nthe files later.\n\n",
    )?;
    let stdin = std::io::stdin();
    let ask = |question: &str| -> Result<String, CliError> {
        out(question)?;
        let mut line = String::new();
        Ok(match stdin.lock().read_line(&mut line) {
            Ok(_) => line.trim().to_owned(),
            Err(_) => String::new(),
        })
    };
    let replies = Replies {
        name: ask("Your name: ")?,
        role: ask("Your role: ")?,
        current_work: ask("What are you working on right now? ")?,
        priorities: ask("Your current priorities: ")?,
        ai_tools: ask(&format!(
            "AI tools you use, comma-separated [{}]: ",
            DEFAULT_AI_TOOLS.join(", ")
        ))?,
    };
    out("\n")?;
    Ok(answers_from(replies))
}

struct Replies {
    name: String,
    role: String,
    current_work: String,
    priorities: String,
    ai_tools: String,
}

fn answers_from(replies: Replies) -> Answers {
    let placeholders = Answers::placeholders();
    let or_placeholder = |reply: String, placeholder: String| {
        if reply.is_empty() { placeholder } else { reply }
    };
    let mut ai_tools: Vec<String> = Vec::new();
    for tool in replies.ai_tools.split(',').map(str::trim) {
        if !tool.is_empty() && !ai_tools.iter().any(|known| known == tool) {
            ai_tools.push(tool.to_owned());
        }
    }
    Answers {
        name: or_placeholder(replies.name, placeholders.name),
        role: or_placeholder(replies.role, placeholders.role),
        current_work: or_placeholder(replies.current_work, placeholders.current_work),
        priorities: or_placeholder(replies.priorities, placeholders.priorities),
        ai_tools: if ai_tools.is_empty() {
            placeholders.ai_tools
        } else {
            ai_tools
        },
    }
}

fn summary(report: &InitReport, is_default_target: bool) -> String {
    let path_suffix = if is_default_target {
        String::new()
    } else {
        format!(" --path {}", shell_quote(&report.target))
    };
    let command = |text: &str| format!("{text}{path_suffix}");
    let lines = [
        "DotAIOS initialized".to_owned(),
        format!("AIOS path: {}", report.target.display()),
        format!("Vault path: {}", report.vault.display()),
        format!(
            "Files: {} created, {} updated, {} kept",
            report.created, report.updated, report.kept
        ),
        String::new(),
        "Next steps:".to_owned(),
        "  1. Fill in context/identity.md, context/priorities.md and context/work.md.".to_owned(),
        format!(
            "  2. Check the folder:          {}",
            command("dotaios doctor")
        ),
        format!(
            "  3. See what agents will read: {}",
            command("dotaios brief --compact")
        ),
        format!(
            "  4. Connect an AI client:      {}",
            command("dotaios mcp install --dry-run --agent claude")
        ),
    ];
    lines_text(&lines)
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;
    use crate::args::os_args as os;

    #[test]
    fn options_parse_and_reject_unknowns() {
        let options = parse(&os(&["-y", "--path", "b", "--force"])).unwrap();
        assert!(options.yes && options.force && !options.overwrite);
        assert_eq!(options.path, Some(OsString::from("b")));
        // A value-taking option given twice is refused (contract 06 §1.2).
        assert!(parse(&os(&["--path", "a", "--path", "b"])).is_err());
        for (args, message) in [
            (vec!["--bogus"], "Unknown option: --bogus"),
            (
                vec!["--pth=x"],
                "Unknown option: --pth. Did you mean --path?",
            ),
            (vec!["--yes=1"], "--yes does not take a value"),
            (vec!["--path="], "--path requires a value"),
            (vec!["stray"], "Unknown option: stray"),
            (vec!["--path"], "--path requires a value"),
            (
                vec!["--vault-path", "--yes"],
                "--vault-path requires a value",
            ),
        ] {
            assert_eq!(parse(&os(&args)).unwrap_err().to_string(), message);
        }
    }

    #[test]
    fn replies_fill_answers_and_blanks_keep_placeholders() {
        let answers = answers_from(Replies {
            name: "Maya Lindqvist".into(),
            role: String::new(),
            current_work: "Acme rebuild".into(),
            priorities: String::new(),
            ai_tools: " codex, , claude-code,codex ".into(),
        });
        assert_eq!(answers.name, "Maya Lindqvist");
        assert_eq!(answers.role, Answers::placeholders().role);
        assert_eq!(answers.current_work, "Acme rebuild");
        assert_eq!(answers.priorities, Answers::placeholders().priorities);
        assert_eq!(answers.ai_tools, ["codex", "claude-code"]);
        let blank = answers_from(Replies {
            name: String::new(),
            role: String::new(),
            current_work: String::new(),
            priorities: String::new(),
            ai_tools: String::new(),
        });
        assert_eq!(blank, Answers::placeholders());
    }

    #[test]
    fn summary_names_the_folder_and_counts() {
        let report = InitReport {
            target: PathBuf::from("/tmp/my aios"),
            vault: PathBuf::from("/tmp/my aios/vault"),
            created: 27,
            updated: 0,
            kept: 1,
        };
        let text = summary(&report, false);
        assert!(text.starts_with(
            "DotAIOS initialized\nAIOS path: /tmp/my aios\nVault path: /tmp/my aios/vault\nFiles: 27 created, 0 updated, 1 kept\n"
        ));
        assert!(text.contains("dotaios doctor --path '/tmp/my aios'\n"));
        assert!(!summary(&report, true).contains("--path"));
    }
}
