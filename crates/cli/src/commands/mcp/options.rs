//! The options of `dotaios mcp status`, `install` and `config` (contract 06 §3): the clients,
//! option parsing and the folder check (§3.1 steps 4–9), and the one spelling of the install
//! command that both subcommands print.
//!
//! A leaf of `commands/mcp/`: the subcommands use it, it uses none of them. `dotaios mcp
//! serve` never reaches it. Nothing here writes a file or starts a process.

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

use dotaios_core::folder::location::{absolutize, expand_tilde};

use crate::args::{Item, Scanner, did_you_mean, unhandled, value_hint};
use crate::commands::folder::checked_folder;
use crate::output::shell_quote;
use crate::{CliError, Env};

/// A client the `install` fragments target, in the order of every listing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Agent {
    Claude,
    Codex,
    Cursor,
    Gemini,
    Antigravity,
    Kimi,
    OpenCode,
}

impl Agent {
    pub(crate) const ALL: [Agent; 7] = [
        Agent::Claude,
        Agent::Codex,
        Agent::Cursor,
        Agent::Gemini,
        Agent::Antigravity,
        Agent::Kimi,
        Agent::OpenCode,
    ];

    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Agent::Claude => "claude",
            Agent::Codex => "codex",
            Agent::Cursor => "cursor",
            Agent::Gemini => "gemini",
            Agent::Antigravity => "antigravity",
            Agent::Kimi => "kimi",
            Agent::OpenCode => "opencode",
        }
    }

    fn parse(value: &str) -> Option<Agent> {
        Agent::ALL.into_iter().find(|agent| agent.as_str() == value)
    }
}

/// The subcommands that take these options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Subcommand {
    Status,
    Install,
}

/// Parsed and validated `mcp` options, with the AIOS folder resolved and checked.
#[derive(Debug)]
pub(crate) struct McpOptions {
    pub(crate) agent: Agent,
    pub(crate) dry_run: bool,
    /// `--home`, `~`-expanded and absolute; `None` when not given.
    pub(crate) home: Option<PathBuf>,
    pub(crate) launcher: Option<OsString>,
    pub(crate) json: bool,
    /// The absolute AIOS folder (lexical, as printed and written into client configuration).
    pub(crate) folder: PathBuf,
    /// `--path` was given, so printed next steps repeat it.
    pub(crate) path_given: bool,
}

/// `dotaios mcp install --dry-run --agent <agent>` with the `--path` and `--home` that were
/// given, and `--launcher <launcher>`: the one spelling of the command that `mcp status`'s
/// `[next]` line and `mcp install`'s disposable-launcher refusal print (contract 06 §2.2, §4.2),
/// so that the two agree and the line runs where it is printed.
pub(crate) fn install_line(agent: Agent, options: &McpOptions, launcher: Option<&Path>) -> String {
    let mut command = format!("dotaios mcp install --dry-run --agent {}", agent.as_str());
    if options.path_given {
        command.push_str(&format!(" --path {}", shell_quote(&options.folder)));
    }
    if let Some(home) = &options.home {
        command.push_str(&format!(" --home {}", shell_quote(home)));
    }
    if let Some(launcher) = launcher {
        command.push_str(&format!(" --launcher {}", shell_quote(launcher)));
    }
    command
}

/// Steps 4–9 of §3.1, up to (not including) the dispatch; `args` are the arguments after `mcp`.
pub(super) fn parse(args: &[OsString], env: &Env) -> Result<(Subcommand, McpOptions), CliError> {
    let mut agent_value: Option<String> = None;
    let mut dry_run = false;
    let mut home_flag: Option<OsString> = None;
    let mut path_flag: Option<OsString> = None;
    let mut launcher: Option<OsString> = None;
    let mut json = false;
    let mut subcommand_name: Option<OsString> = None;
    let mut scanner = Scanner::new(args, &super::SPEC);
    while let Some(item) = scanner.next_item()? {
        match item {
            Item::Value("--agent", value) => {
                agent_value = Some(value.to_string_lossy().to_lowercase());
            }
            Item::Value("--home", value) => home_flag = Some(value),
            Item::Value("--path", value) => path_flag = Some(value),
            Item::Value("--launcher", value) => launcher = Some(value),
            Item::Flag("--dry-run") => dry_run = true,
            Item::Flag("--json") => json = true,
            // The first word is the subcommand; a second one is refused (§3.1 step 4).
            Item::Positional(word) if subcommand_name.is_none() => subcommand_name = Some(word),
            other => return Err(unhandled(&other)),
        }
    }

    let agent = match agent_value {
        None => Agent::Claude,
        Some(value) => Agent::parse(&value).ok_or_else(|| CliError::InvalidAgent {
            hint: value_hint(&value, Agent::ALL.map(Agent::as_str)),
            name: value.clone(),
        })?,
    };
    let subcommand_name = subcommand_name.as_deref();
    let is_status = subcommand_name.is_none_or(|name| name == "status");
    if json && !is_status {
        return Err(CliError::UnknownOption {
            name: "--json".to_owned(),
            hint: String::new(),
        });
    }

    // A mistyped subcommand is a usage error, reported before the folder is looked at
    // (contract 06 §1.2, §3.1 step 8), with the closest subcommand when one is near.
    let subcommand = match subcommand_name.and_then(OsStr::to_str) {
        None | Some("status") => Subcommand::Status,
        Some("install" | "config") => Subcommand::Install,
        _ => {
            let name = subcommand_name.unwrap_or_default().to_string_lossy();
            let hint = did_you_mean(&name, super::SPEC.words.iter().copied(), "");
            return Err(CliError::UnknownMcpCommand {
                name: name.into_owned(),
                hint,
            });
        }
    };
    let path_given = path_flag.is_some();
    let folder = checked_folder(path_flag.as_deref(), env)?;
    let home_root = env.home_or_root();
    let home = home_flag.map(|raw| absolutize(&expand_tilde(&raw, &home_root), &env.cwd));
    Ok((
        subcommand,
        McpOptions {
            agent,
            dry_run,
            home,
            launcher,
            json,
            folder,
            path_given,
        },
    ))
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    fn os(items: &[&str]) -> Vec<OsString> {
        items.iter().map(OsString::from).collect()
    }

    #[test]
    fn agents_are_listed_in_order() {
        let names: Vec<&str> = Agent::ALL.iter().map(|agent| agent.as_str()).collect();
        assert_eq!(
            names.join(", "),
            "claude, codex, cursor, gemini, antigravity, kimi, opencode"
        );
        assert_eq!(Agent::parse("opencode"), Some(Agent::OpenCode));
        assert_eq!(Agent::parse("zai"), None);
    }

    fn env_at(dir: &Path) -> Env {
        Env {
            home: Some(dir.join("home")),
            cwd: dir.to_path_buf(),
            dotaios_path: Some(OsString::from("/ignored")),
            search_cache: None,
            kimi_code_home: None,
            no_color: false,
            dumb_terminal: false,
            columns: None,
        }
    }

    fn error_of(args: &[&str], env: &Env) -> String {
        parse(&os(args), env).unwrap_err().to_string()
    }

    #[test]
    fn parse_errors_come_in_the_spec_order() {
        let temp = tempfile::tempdir().unwrap();
        let env = env_at(temp.path());
        assert_eq!(
            error_of(&["--agnet=codex"], &env),
            "Unknown option: --agnet. Did you mean --agent?"
        );
        assert_eq!(
            error_of(&["--json=1"], &env),
            "--json does not take a value"
        );
        assert_eq!(error_of(&["--path"], &env), "--path requires a value");
        assert_eq!(
            error_of(&["--path", "--json"], &env),
            "--path requires a value"
        );
        assert_eq!(
            error_of(&["status", "extra"], &env),
            "Unknown option: extra"
        );
        // Agent validation precedes the folder check, and applies to status too.
        assert_eq!(
            error_of(&["status", "--agent", "ZAI"], &env),
            "Invalid --agent: zai. Use claude, codex, cursor, gemini, antigravity, kimi, opencode."
        );
        assert_eq!(
            error_of(&["install", "--json"], &env),
            "Unknown option: --json"
        );
        // A mistyped subcommand is a usage error: refused before the folder check, with the
        // closest subcommand when one is near.
        assert_eq!(
            error_of(&["frobnicate"], &env),
            "Unknown mcp command: frobnicate. Try `dotaios mcp --help`."
        );
        assert_eq!(
            error_of(&["instal", "--agent", "codex"], &env),
            "Unknown mcp command: instal. Did you mean install? Try `dotaios mcp --help`."
        );
        let missing = temp.path().join("home").join("aios");
        assert_eq!(
            error_of(&["status"], &env),
            format!(
                "No AIOS folder found at {}. Run dotaios init first, or pass --path.",
                missing.display()
            )
        );
    }

    #[test]
    fn options_are_accepted_anywhere_and_dotaios_path_is_ignored() {
        let temp = tempfile::tempdir().unwrap();
        let env = env_at(temp.path());
        let folder = temp.path().join("x");
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::write(folder.join("aios.json"), "{}\n").unwrap();
        let (subcommand, options) = parse(
            &os(&[
                "--agent",
                "Codex",
                "--path",
                "x",
                "config",
                "--home",
                "~/h",
                "--dry-run",
            ]),
            &env,
        )
        .unwrap();
        assert_eq!(subcommand, Subcommand::Install);
        assert_eq!(options.agent, Agent::Codex);
        assert!(options.dry_run);
        assert_eq!(options.folder, folder);
        assert_eq!(options.home, Some(temp.path().join("home/h")));
        let (subcommand, options) = parse(&os(&["--path", "x", "--json"]), &env).unwrap();
        assert_eq!(subcommand, Subcommand::Status);
        assert!(options.json);
        assert_eq!(options.agent, Agent::Claude);
    }
}
