//! `dotaios mcp install --dry-run --agent <agent>` and its alias `mcp config` (contract 06 §5):
//! the client-specific fragment that starts the adapter, the suggested target file, the release
//! evidence for that client (`evidence`) and merge instructions.
//!
//! What it must never do: write or create a file, with or without `--dry-run` (users merge the
//! fragment themselves; only `connect opencode` writes a client configuration), or put a
//! disposable default launcher into a fragment.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use dotaios_core::folder::location::absolutize;
use dotaios_core::text::{push_json_string, to_json_pretty};
use serde_json::json;

use super::evidence;
use super::options::{Agent, McpOptions, install_line};
use crate::commands::folder::utf8_path;
use crate::launcher::{self, ProcessFacts};
use crate::output::{below, lines_text, out, shell_words};
use crate::package_install;
use crate::sys::Os;
use crate::{CliError, Env};

/// The fragment's text format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Format {
    Json,
    Toml,
}

/// Runs `mcp install` / `mcp config` with options already parsed and the folder checked.
pub(crate) fn run(options: &McpOptions, env: &Env) -> Result<ExitCode, CliError> {
    let facts = ProcessFacts::capture(env);
    // From an npm or PyPI install, the version-pinned package launcher (contract 06 §2, as
    // changed); an explicit --launcher always wins.
    // The wheel's `uvx` launcher only where `uvx` is found; else the venv's own adapter, the
    // launcher `mcp status` checks (contract 06 §2.4).
    let package = match options.launcher {
        Some(_) => None,
        None => facts
            .current_exe
            .as_deref()
            .and_then(|exe| package_install::detect(exe, env!("CARGO_PKG_VERSION"), Os::HOST))
            .filter(|package| {
                package
                    .required_program(Os::HOST)
                    .is_none_or(|program| launcher::find_in_path(program, &facts).is_some())
            }),
    };
    let (command, prefix) = match &package {
        Some(package) => {
            let (program, prefix) = package.launcher(Os::HOST);
            (program.to_owned(), prefix)
        }
        None => {
            let launcher = launcher::resolve(options.launcher.as_deref(), &facts)?;
            launcher::refuse_disposable(&launcher, &facts, |path| {
                install_line(options.agent, options, Some(path))
            })?;
            (utf8_path(&launcher.path)?.to_owned(), Vec::new())
        }
    };
    let launcher_text = std::iter::once(command.as_str())
        .chain(prefix.iter().map(String::as_str))
        .collect::<Vec<_>>()
        .join(" ");
    let folder_text = utf8_path(&options.folder)?;
    let home = options.home.clone().unwrap_or_else(|| env.home_or_root());
    // Client variables describe the current user, so they apply only without `--home`.
    let kimi_code_home = match options.home {
        Some(_) => None,
        None => env
            .kimi_code_home
            .as_deref()
            .map(|dir| absolutize(Path::new(dir), &env.cwd)),
    };
    let target = target_path(
        options.agent,
        &home,
        options.home.is_none(),
        kimi_code_home.as_deref(),
    );
    let (format, fragment) = fragment_with(options.agent, &command, &prefix, folder_text);

    let mut lines = vec![
        if options.dry_run {
            "DotAIOS MCP dry run".to_owned()
        } else {
            "DotAIOS MCP config".to_owned()
        },
        format!("Agent: {}", options.agent.as_str()),
        format!("AIOS path: {folder_text}"),
        format!("Launcher: {launcher_text}"),
        format!("Suggested target: {}", target.display()),
        format!(
            "Format: {}",
            match format {
                Format::Json => "JSON",
                Format::Toml => "TOML",
            }
        ),
        evidence::line(options.agent),
        String::new(),
        "MCP server config fragment:".to_owned(),
        fragment,
        String::new(),
        "DotAIOS does not edit MCP client config automatically yet.".to_owned(),
    ];
    // Claude Code rewrites ~/.claude.json itself, so its own command comes first (§5.4).
    if options.agent == Agent::Claude {
        let words: Vec<&str> = std::iter::once(command.as_str())
            .chain(prefix.iter().map(String::as_str))
            .chain(["--path", folder_text])
            .collect();
        lines.push(
            "For Claude Code, run its own command (it rewrites ~/.claude.json itself):".to_owned(),
        );
        lines.push(format!(
            "  claude mcp add --scope user dotaios -- {}",
            shell_words(&words)
        ));
        lines.push(
            "Or merge the fragment into the existing client config, then restart that client."
                .to_owned(),
        );
    } else {
        lines.push(
            "Merge the fragment into the existing client config, then restart that client."
                .to_owned(),
        );
    }
    lines.push(evidence::EXPLANATION.to_owned());
    out(&lines_text(&lines))?;
    Ok(ExitCode::SUCCESS)
}

/// The suggested target file below `home` (§5.2). `CODEX_HOME`, `CLAUDE_CONFIG_DIR` and
/// `OPENCODE_CONFIG` are ignored, as in the reference. Without `--home`, Kimi Code's hint is
/// `kimi_code_home/mcp.json` (`$KIMI_CODE_HOME`, absolute), the file Kimi Code reads, and
/// OpenCode's follows `XDG_CONFIG_HOME`, so that it names the file `connect opencode` writes
/// (see `docs/decisions.md`).
pub(crate) fn target_path(
    agent: Agent,
    home: &Path,
    home_is_default: bool,
    kimi_code_home: Option<&Path>,
) -> PathBuf {
    match agent {
        Agent::Kimi => match kimi_code_home {
            Some(dir) => dir.join("mcp.json"),
            None => below(home, home_target(agent).iter().copied()),
        },
        Agent::OpenCode => {
            let config_home = if home_is_default {
                crate::commands::connect::xdg_config_home()
            } else {
                None
            };
            match config_home {
                Some(config) => below(&config, home_target(agent)[1..].iter().copied()),
                None => below(home, home_target(agent).iter().copied()),
            }
        }
        _ => below(home, home_target(agent).iter().copied()),
    }
}

/// Each client's user-level configuration file below the home directory, as components
/// (contract 06 §5.2, §7). The same on every platform: on Windows the home is
/// `%USERPROFILE%`, where each of these clients keeps its file (Cursor documents
/// `%USERPROFILE%\.cursor\mcp.json`).
fn home_target(agent: Agent) -> &'static [&'static str] {
    match agent {
        Agent::Claude => &[".claude.json"],
        Agent::Codex => &[".codex", "config.toml"],
        Agent::Cursor => &[".cursor", "mcp.json"],
        Agent::Gemini => &[".gemini", "settings.json"],
        Agent::Antigravity => &[".gemini", "config", "mcp_config.json"],
        Agent::Kimi => &[".kimi-code", "mcp.json"],
        Agent::OpenCode => &[".config", "opencode", "opencode.json"],
    }
}

/// The fragment text for `agent` (§5.3): pretty JSON without a trailing newline, or three
/// TOML lines.
#[cfg(test)]
pub(crate) fn fragment(agent: Agent, launcher: &str, folder: &str) -> (Format, String) {
    fragment_with(agent, launcher, &[], folder)
}

/// [`fragment`] for a launcher `command` that takes `prefix` arguments before `--path`
/// (a package launcher such as `npx -y --package …`; empty for an executable path).
pub(crate) fn fragment_with(
    agent: Agent,
    command: &str,
    prefix: &[String],
    folder: &str,
) -> (Format, String) {
    let mut args: Vec<&str> = prefix.iter().map(String::as_str).collect();
    args.extend(["--path", folder]);
    match agent {
        Agent::Codex => (Format::Toml, codex_fragment(command, &args)),
        Agent::OpenCode => {
            let mut line = vec![command];
            line.extend(&args);
            (
                Format::Json,
                to_json_pretty(&json!({"mcp": {"dotaios": opencode_entry(&line)}})),
            )
        }
        Agent::Claude | Agent::Cursor | Agent::Gemini | Agent::Antigravity | Agent::Kimi => (
            Format::Json,
            to_json_pretty(&json!({
                "mcpServers": {"dotaios": {"command": command, "args": args}}
            })),
        ),
    }
}

/// OpenCode's `mcp.dotaios` entry, members in the order written (§6.3 step 7).
fn opencode_entry(command_line: &[&str]) -> serde_json::Value {
    json!({"type": "local", "command": command_line, "enabled": true})
}

fn codex_fragment(command: &str, args: &[&str]) -> String {
    let args: Vec<String> = args.iter().map(|arg| toml_string(arg)).collect();
    format!(
        "[mcp_servers.dotaios]\ncommand = {}\nargs = [{}]",
        toml_string(command),
        args.join(",")
    )
}

/// A TOML basic string: the `JSON.stringify` literal, with DEL escaped as `\u007f` because TOML
/// forbids it raw. Every other escape `JSON.stringify` emits (`\" \\ \b \t \n \f \r \u00xx`)
/// is valid TOML, and every character it leaves raw is allowed in a basic string.
fn toml_string(text: &str) -> String {
    let mut literal = String::with_capacity(text.len() + 2);
    push_json_string(&mut literal, text);
    literal.replace('\u{7f}', "\\u007f")
}

#[cfg(test)]
mod tests {
    use super::*;

    const LAUNCHER: &str = "/home/ada/.cargo/bin/dotaios-mcp";
    const FOLDER: &str = "/home/ada/aios";

    #[test]
    fn mcp_servers_fragment_matches_the_spec_text() {
        for agent in [
            Agent::Claude,
            Agent::Cursor,
            Agent::Gemini,
            Agent::Antigravity,
            Agent::Kimi,
        ] {
            let (format, text) = fragment(agent, LAUNCHER, FOLDER);
            assert_eq!(format, Format::Json);
            assert_eq!(
                text,
                "{\n  \"mcpServers\": {\n    \"dotaios\": {\n      \"command\": \"/home/ada/.cargo/bin/dotaios-mcp\",\n      \"args\": [\n        \"--path\",\n        \"/home/ada/aios\"\n      ]\n    }\n  }\n}"
            );
        }
    }

    #[test]
    fn codex_fragment_is_three_lines() {
        let (format, text) = fragment(Agent::Codex, LAUNCHER, FOLDER);
        assert_eq!(format, Format::Toml);
        assert_eq!(
            text,
            "[mcp_servers.dotaios]\ncommand = \"/home/ada/.cargo/bin/dotaios-mcp\"\nargs = [\"--path\",\"/home/ada/aios\"]"
        );
    }

    #[test]
    fn opencode_fragment_matches_the_spec_text() {
        let (format, text) = fragment(Agent::OpenCode, LAUNCHER, FOLDER);
        assert_eq!(format, Format::Json);
        assert_eq!(
            text,
            "{\n  \"mcp\": {\n    \"dotaios\": {\n      \"type\": \"local\",\n      \"command\": [\n        \"/home/ada/.cargo/bin/dotaios-mcp\",\n        \"--path\",\n        \"/home/ada/aios\"\n      ],\n      \"enabled\": true\n    }\n  }\n}"
        );
    }

    #[test]
    fn package_launcher_arguments_come_before_the_path() {
        let prefix = [
            "--from".to_owned(),
            "dotaios-rs==1.0.0".to_owned(),
            "dotaios-mcp".to_owned(),
        ];
        let (_, text) = fragment_with(Agent::OpenCode, "uvx", &prefix, FOLDER);
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            value["mcp"]["dotaios"]["command"],
            json!([
                "uvx",
                "--from",
                "dotaios-rs==1.0.0",
                "dotaios-mcp",
                "--path",
                FOLDER
            ])
        );
        let (_, text) = fragment_with(Agent::Codex, "uvx", &prefix, FOLDER);
        assert_eq!(
            text,
            "[mcp_servers.dotaios]\ncommand = \"uvx\"\nargs = [\"--from\",\"dotaios-rs==1.0.0\",\"dotaios-mcp\",\"--path\",\"/home/ada/aios\"]"
        );
    }

    #[test]
    fn toml_strings_escape_del_and_controls() {
        assert_eq!(toml_string("a\u{7f}b"), "\"a\\u007fb\"");
        assert_eq!(toml_string("q\"\\\t\u{1}"), "\"q\\\"\\\\\\t\\u0001\"");
        assert_eq!(toml_string("é\u{85}"), "\"é\u{85}\"");
    }

    const WINDOWS_LAUNCHER: &str = r"C:\Users\ada\.cargo\bin\dotaios-mcp.exe";
    const WINDOWS_FOLDER: &str = r"C:\Users\ada\aios";

    #[test]
    fn windows_paths_are_escaped_in_every_fragment() {
        for agent in [
            Agent::Claude,
            Agent::Cursor,
            Agent::Gemini,
            Agent::Antigravity,
            Agent::Kimi,
        ] {
            let (_, text) = fragment(agent, WINDOWS_LAUNCHER, WINDOWS_FOLDER);
            assert!(
                text.contains(r#""command": "C:\\Users\\ada\\.cargo\\bin\\dotaios-mcp.exe""#),
                "{text}"
            );
            let value: serde_json::Value = serde_json::from_str(&text).unwrap();
            assert_eq!(value["mcpServers"]["dotaios"]["command"], WINDOWS_LAUNCHER);
            assert_eq!(
                value["mcpServers"]["dotaios"]["args"],
                json!(["--path", WINDOWS_FOLDER])
            );
            assert!(!text.contains("npx"), "{text}");
        }
        let (_, text) = fragment(Agent::OpenCode, WINDOWS_LAUNCHER, WINDOWS_FOLDER);
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            value["mcp"]["dotaios"]["command"],
            json!([WINDOWS_LAUNCHER, "--path", WINDOWS_FOLDER])
        );
        let (_, text) = fragment(Agent::Codex, WINDOWS_LAUNCHER, WINDOWS_FOLDER);
        assert_eq!(
            text,
            r#"[mcp_servers.dotaios]
command = "C:\\Users\\ada\\.cargo\\bin\\dotaios-mcp.exe"
args = ["--path","C:\\Users\\ada\\aios"]"#
        );
        let table: toml_edit::DocumentMut = text.parse().unwrap();
        assert_eq!(
            table["mcp_servers"]["dotaios"]["command"].as_str(),
            Some(WINDOWS_LAUNCHER)
        );
    }

    #[test]
    fn windows_npm_launcher_runs_through_cmd_in_every_client() {
        let npm = package_install::PackageInstall::Npm {
            version: "1.0.0".to_owned(),
        };
        let (command, prefix) = npm.launcher(Os::Windows);
        let (_, text) = fragment_with(Agent::Claude, command, &prefix, WINDOWS_FOLDER);
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(value["mcpServers"]["dotaios"]["command"], "cmd");
        assert_eq!(
            value["mcpServers"]["dotaios"]["args"],
            json!([
                "/c",
                "npx",
                "-y",
                "--package",
                "dotaios-rs@1.0.0",
                "dotaios-mcp",
                "--path",
                WINDOWS_FOLDER
            ])
        );
        let (_, text) = fragment_with(Agent::OpenCode, command, &prefix, WINDOWS_FOLDER);
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(value["mcp"]["dotaios"]["command"][0], "cmd");
        assert_eq!(value["mcp"]["dotaios"]["command"][2], "npx");
        let (_, text) = fragment_with(Agent::Codex, command, &prefix, WINDOWS_FOLDER);
        assert!(
            text.starts_with("[mcp_servers.dotaios]\ncommand = \"cmd\"\nargs = [\"/c\",\"npx\","),
            "{text}"
        );
    }

    #[test]
    fn targets_are_below_the_home_one_component_at_a_time() {
        let home = Path::new("/home/ada");
        assert_eq!(
            target_path(Agent::Codex, home, false, None),
            home.join(".codex").join("config.toml")
        );
        assert_eq!(
            target_path(Agent::OpenCode, home, false, None),
            home.join(".config/opencode/opencode.json")
        );
        assert_eq!(
            target_path(Agent::Kimi, home, true, Some(Path::new("/k"))),
            Path::new("/k/mcp.json")
        );
        assert_eq!(
            home_target(Agent::Antigravity),
            [".gemini", "config", "mcp_config.json"]
        );
    }
}
