//! What this machine already has, for the next-step hints of `dotaios demo` and `dotaios mcp
//! status` (contract 06 §1.8, §4.2): whether `dotaios` and `dotaios-mcp` are installed and found
//! on `PATH` (and whether the running `dotaios` is that one or a build), and which clients'
//! configuration files, the ones `mcp install` names (§5.2), already hold a `dotaios` server.
//!
//! What it must never do: write, create or lock any file, start a program, or read a client
//! file without its size bound (`MAX_CONFIG_BYTES`) and the parsers' nesting limits. It never
//! reads the AIOS folder. A file it cannot read or parse is reported as such, never guessed.

use std::io::Read;
use std::path::{Path, PathBuf};

use dotaios_core::text::{JsonReadOptions, JsonValue, read_json};

use super::install::target_path;
use super::options::Agent;
use crate::Env;
use crate::launcher::{self, ProcessFacts};
use crate::package_install;
use crate::sys::{self, FileKind, Os};

/// A larger client configuration is not read (the bound `connect` puts on `opencode.json`,
/// contract 06 §6.3 step 1); Claude Code's `~/.claude.json` keeps history and grows, but stays
/// far below this.
const MAX_CONFIG_BYTES: u64 = 16 * 1024 * 1024;
/// The server key every fragment uses (contract 06 §5.2).
const SERVER_KEY: &str = "dotaios";

/// How `dotaios` is installed, as far as the next step is concerned (contract 06 §1.8).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Install {
    /// From a registry package (npm or PyPI, §2.4), run through its launcher: `PATH` is not
    /// judged.
    Package,
    /// The first `dotaios` on `PATH` has `dotaios-mcp` beside it, outside any build directory.
    /// `running` says whether the running `dotaios` is that file.
    OnPath { dir: PathBuf, running: bool },
    /// The running `dotaios` is installed (its adapter beside it, not in a build directory),
    /// but `PATH` finds no installed pair.
    OffPath { dir: PathBuf },
    /// Only a build (or nothing) exists: the install step comes first.
    Missing,
}

impl Install {
    /// Reads the facts of this process: the registry package check, the `PATH` lookup and the
    /// adapter beside the running `dotaios` (§2.1).
    pub(crate) fn detect(facts: &ProcessFacts) -> Install {
        let package = facts
            .current_exe
            .as_deref()
            .and_then(|exe| package_install::detect(exe, env!("CARGO_PKG_VERSION"), Os::HOST));
        if package.is_some() {
            return Install::Package;
        }
        if let Some(dir) = installed_on_path(facts) {
            let running = facts
                .current_exe
                .as_deref()
                .is_some_and(|exe| same_file(exe, &dir.join(launcher::CLI_NAME)));
            return Install::OnPath { dir, running };
        }
        let beside = facts
            .current_exe
            .as_deref()
            .and_then(Path::parent)
            .map(|dir| dir.join(launcher::ADAPTER_NAME))
            .filter(|adapter| {
                launcher::is_executable_file(adapter) && !launcher::is_build_output(adapter)
            });
        match beside {
            Some(adapter) => Install::OffPath {
                dir: adapter.parent().map(Path::to_path_buf).unwrap_or_default(),
            },
            None => Install::Missing,
        }
    }
}

/// The directory of the first `dotaios` on `PATH`, when `dotaios-mcp` is beside it and it is
/// no cargo build output (a `target/release` put on `PATH` is still a build, §2.2).
fn installed_on_path(facts: &ProcessFacts) -> Option<PathBuf> {
    let dir = launcher::find_in_path(launcher::CLI_NAME, facts)?;
    let adapter = dir.join(launcher::ADAPTER_NAME);
    (launcher::is_executable_file(&adapter) && !launcher::is_build_output(&adapter)).then_some(dir)
}

/// Whether two paths name one file (symlinks resolved): how a `cargo run` build is told apart
/// from the installed `dotaios` that `PATH` finds.
fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// What one client's configuration file says about the `dotaios` server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ConfigState {
    /// No such file.
    Missing,
    /// The file holds no `dotaios` server.
    NotConfigured,
    /// The file holds a `dotaios` server entry (any launcher, any folder).
    Configured,
    /// The file exists but could not be read or parsed within the bounds: not judged.
    Unreadable,
}

impl ConfigState {
    /// The state's name in `mcp status --json` (contract 06 §4.3).
    pub(crate) fn code(self) -> &'static str {
        match self {
            ConfigState::Missing => "missing",
            ConfigState::NotConfigured => "not_configured",
            ConfigState::Configured => "configured",
            ConfigState::Unreadable => "unreadable",
        }
    }
}

/// One client's configuration file and what it says.
#[derive(Debug, Clone)]
pub(crate) struct ClientConfig {
    pub(crate) agent: Agent,
    pub(crate) file: PathBuf,
    pub(crate) state: ConfigState,
}

/// Every client's configuration file below `home` (the files `mcp install` suggests, §5.2;
/// `home_is_default` as there: only then do `KIMI_CODE_HOME` and `XDG_CONFIG_HOME` apply), in
/// the order of [`Agent::ALL`], each read and judged.
pub(crate) fn client_configs(home: &Path, home_is_default: bool, env: &Env) -> Vec<ClientConfig> {
    let kimi_code_home = if home_is_default {
        env.kimi_code_home
            .as_deref()
            .map(|dir| dotaios_core::folder::location::absolutize(Path::new(dir), &env.cwd))
    } else {
        None
    };
    Agent::ALL
        .into_iter()
        .map(|agent| {
            let file = target_path(agent, home, home_is_default, kimi_code_home.as_deref());
            let state = config_state(agent, &file);
            ClientConfig { agent, file, state }
        })
        .collect()
}

/// The agents whose configuration holds a `dotaios` server, in [`Agent::ALL`] order.
pub(crate) fn configured(configs: &[ClientConfig]) -> Vec<Agent> {
    configs
        .iter()
        .filter(|config| config.state == ConfigState::Configured)
        .map(|config| config.agent)
        .collect()
}

/// `claude`, `claude or codex`, `claude, codex or cursor`.
pub(crate) fn agent_list(agents: &[Agent]) -> String {
    let names: Vec<&str> = agents.iter().map(|agent| agent.as_str()).collect();
    match names.split_last() {
        None => String::new(),
        Some((last, [])) => (*last).to_owned(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

/// Reads `file` (links followed: dotfiles are often linked) within [`MAX_CONFIG_BYTES`] and
/// judges it.
fn config_state(agent: Agent, file: &Path) -> ConfigState {
    let (handle, meta) = match sys::open_file_path(file) {
        Ok(Some(opened)) => opened,
        Ok(None) => return ConfigState::Missing,
        Err(_) => return ConfigState::Unreadable,
    };
    if meta.kind != FileKind::File || meta.size > MAX_CONFIG_BYTES {
        return ConfigState::Unreadable;
    }
    let mut bytes = Vec::new();
    if handle
        .take(MAX_CONFIG_BYTES + 1)
        .read_to_end(&mut bytes)
        .is_err()
        || bytes.len() as u64 > MAX_CONFIG_BYTES
    {
        return ConfigState::Unreadable;
    }
    let Ok(text) = std::str::from_utf8(&bytes) else {
        return ConfigState::Unreadable;
    };
    match holds_server(agent, text) {
        Some(true) => ConfigState::Configured,
        Some(false) => ConfigState::NotConfigured,
        None => ConfigState::Unreadable,
    }
}

/// Whether `text`, the configuration of `agent`, holds a `dotaios` server where that client
/// reads its servers (§5.2): `mcp_servers.dotaios` in Codex's TOML, `mcp.dotaios` in OpenCode's
/// JSON, top-level `mcpServers.dotaios` in the others' JSON (for Claude Code the user scope that
/// `claude mcp add --scope user` writes, §5.4). `None` when the text does not parse.
fn holds_server(agent: Agent, text: &str) -> Option<bool> {
    match agent {
        Agent::Codex => {
            // toml_edit's parser has its own nesting limit; the size is bounded above.
            let document: toml_edit::Document<&str> = toml_edit::Document::parse(text).ok()?;
            Some(
                document
                    .as_table()
                    .get("mcp_servers")
                    .and_then(|servers| servers.get(SERVER_KEY))
                    .is_some_and(|entry| entry.is_table_like()),
            )
        }
        _ => {
            // The one JavaScript-faithful reader: iterative, nesting-limited, linear in the text.
            let document = read_json(text, &JsonReadOptions::REPLACE).ok()?;
            let section = match agent {
                Agent::OpenCode => "mcp",
                _ => "mcpServers",
            };
            Some(
                document
                    .as_object()
                    .and_then(|root| root.get(section))
                    .and_then(JsonValue::as_object)
                    .and_then(|servers| servers.get(SERVER_KEY))
                    .is_some_and(|entry| entry.as_object().is_some()),
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_client_is_read_where_it_keeps_its_servers() {
        let entry = r#"{"command":"/x/dotaios-mcp","args":["--path","/a"]}"#;
        for agent in [
            Agent::Claude,
            Agent::Cursor,
            Agent::Gemini,
            Agent::Antigravity,
            Agent::Kimi,
        ] {
            let configured = format!(r#"{{"projects":{{}},"mcpServers":{{"dotaios":{entry}}}}}"#);
            assert_eq!(holds_server(agent, &configured), Some(true), "{agent:?}");
            let other = format!(r#"{{"mcpServers":{{"other":{entry}}}}}"#);
            assert_eq!(holds_server(agent, &other), Some(false), "{agent:?}");
            // Another section's `dotaios` is not where the client looks.
            let opencode_shape = format!(r#"{{"mcp":{{"dotaios":{entry}}}}}"#);
            assert_eq!(holds_server(agent, &opencode_shape), Some(false));
            assert_eq!(holds_server(agent, "{\"mcpServers\":"), None);
        }
        let opencode = r#"{"mcp":{"dotaios":{"type":"local","command":["/x"],"enabled":true}}}"#;
        assert_eq!(holds_server(Agent::OpenCode, opencode), Some(true));
        assert_eq!(
            holds_server(Agent::OpenCode, r#"{"mcp":{"dotaios":null}}"#),
            Some(false)
        );
        // JSONC is not JSON: not judged.
        assert_eq!(holds_server(Agent::OpenCode, "// c\n{}"), None);
        let codex = "model = \"x\"\n\n[mcp_servers.dotaios]\ncommand = \"/x\"\nargs = [\"--path\",\"/a\"]\n";
        assert_eq!(holds_server(Agent::Codex, codex), Some(true));
        let inline = "[mcp_servers]\ndotaios = { command = \"/x\" }\n";
        assert_eq!(holds_server(Agent::Codex, inline), Some(true));
        let other = "[mcp_servers.other]\ncommand = \"dotaios\"\n# [mcp_servers.dotaios]\n";
        assert_eq!(holds_server(Agent::Codex, other), Some(false));
        assert_eq!(holds_server(Agent::Codex, "[mcp_servers.dotaios"), None);
    }

    /// Deep nesting is refused by each parser's limit, never a stack overflow.
    #[test]
    fn deep_nesting_is_not_judged() {
        let deep_json = format!("{{\"mcpServers\":{}", "[".repeat(200_000));
        assert_eq!(holds_server(Agent::Claude, &deep_json), None);
        let deep_toml = format!("a = {}", "[".repeat(200_000));
        assert_eq!(holds_server(Agent::Codex, &deep_toml), None);
    }

    #[cfg(unix)]
    #[test]
    fn files_are_read_within_their_bound() {
        let temp = tempfile::tempdir().unwrap();
        let file = temp.path().join("c.json");
        assert_eq!(config_state(Agent::Claude, &file), ConfigState::Missing);
        std::fs::write(&file, r#"{"mcpServers":{"dotaios":{}}}"#).unwrap();
        assert_eq!(config_state(Agent::Claude, &file), ConfigState::Configured);
        std::fs::write(&file, "{}").unwrap();
        assert_eq!(
            config_state(Agent::Claude, &file),
            ConfigState::NotConfigured
        );
        let big = std::fs::File::create(&file).unwrap();
        big.set_len(MAX_CONFIG_BYTES + 1).unwrap();
        assert_eq!(config_state(Agent::Claude, &file), ConfigState::Unreadable);
        assert_eq!(
            config_state(Agent::Claude, temp.path()),
            ConfigState::Unreadable
        );
    }
}
