//! `dotaios mcp status [--json]` (contract 06 §4): resolves the launcher, really starts the
//! adapter, speaks MCP to it over stdio through `dotaios_mcp::client` (`initialize`,
//! `notifications/initialized`, `tools/list`) and reports what answered, and which clients'
//! configuration files already hold the `dotaios` server (`super::setup`, read only).
//!
//! What it must never do: write a client configuration, call a tool, touch the AIOS
//! folder beyond the `aios.json` existence check already done by the parser, show the
//! adapter's stderr, or wait on the child without a deadline.

use std::path::Path;
use std::process::{Command, ExitCode};
use std::time::{Duration, Instant};

use dotaios_core::text::to_json_pretty;
use dotaios_mcp::client::{Client, ClientError};
use serde_json::{Value, json};

use super::options::{Agent, McpOptions, install_line};
use super::setup::{self, ClientConfig, ConfigState};
use crate::launcher::{self, Launcher, LauncherError, ProcessFacts, Source};
use crate::output::out;
use crate::{CliError, Env};

/// The whole exchange, from spawn to the second answer.
const EXCHANGE_DEADLINE: Duration = Duration::from_secs(10);
/// How long a child may take to exit once its stdin is closed before it is killed.
const EXIT_GRACE: Duration = Duration::from_secs(2);
/// A longer stdout line is not an MCP response we would accept; stop reading rather than
/// buffer without bound.
const MAX_LINE_BYTES: u64 = 4 * 1024 * 1024;
const PROTOCOL_VERSION: &str = "2025-11-25";
const TOOLS: [&str; 3] = dotaios_mcp::TOOL_NAMES;
const OWN_VERSION: &str = env!("CARGO_PKG_VERSION");

/// Why the adapter check failed (§4.1), in the table's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Failure {
    LauncherNotFound,
    SpawnFailed,
    Timeout,
    ExitedEarly,
    InvalidResponse,
    InitializeFailed,
    UnexpectedServer,
    UnexpectedTools,
}

impl Failure {
    fn code(self) -> &'static str {
        match self {
            Failure::LauncherNotFound => "launcher_not_found",
            Failure::SpawnFailed => "spawn_failed",
            Failure::Timeout => "timeout",
            Failure::ExitedEarly => "exited_early",
            Failure::InvalidResponse => "invalid_response",
            Failure::InitializeFailed => "initialize_failed",
            Failure::UnexpectedServer => "unexpected_server",
            Failure::UnexpectedTools => "unexpected_tools",
        }
    }

    /// The failure's text; `install` is the install command that works where it is printed
    /// (`launcher::install_command`).
    fn text(self, install: &str) -> String {
        let fixed = match self {
            Failure::LauncherNotFound => {
                return format!(
                    "no dotaios-mcp found next to dotaios (install both binaries together with {install}, or pass --launcher)"
                );
            }
            Failure::SpawnFailed => "could not start the adapter",
            Failure::Timeout => "the adapter did not answer within 10 seconds",
            Failure::ExitedEarly => "the adapter exited before answering",
            Failure::InvalidResponse => "the adapter wrote something that is not an MCP response",
            Failure::InitializeFailed => "the adapter answered initialize with an error",
            Failure::UnexpectedServer => "the program answering is not dotaios-mcp",
            Failure::UnexpectedTools => "the adapter does not list the three read-only tools",
        };
        fixed.to_owned()
    }
}

/// What the probe learned. Fields stay `None` / empty where the exchange did not get that far.
#[derive(Debug, Default)]
pub(crate) struct Probe {
    pub(crate) started: bool,
    pub(crate) server_name: Option<String>,
    pub(crate) server_version: Option<String>,
    pub(crate) protocol_version: Option<String>,
    /// `initialize` answered with a result (so the tools line can be shown on a tool failure).
    pub(crate) initialized: bool,
    pub(crate) tools: Vec<String>,
    pub(crate) failure: Option<Failure>,
}

impl Probe {
    fn failed(failure: Failure) -> Probe {
        Probe {
            failure: Some(failure),
            ..Probe::default()
        }
    }

    fn version_matches(&self) -> Option<bool> {
        self.server_version
            .as_deref()
            .map(|version| version == OWN_VERSION)
    }
}

/// Runs `mcp status` with options already parsed and the folder checked.
pub(crate) fn run(options: &McpOptions, env: &Env) -> Result<ExitCode, CliError> {
    let facts = ProcessFacts::capture(env);
    let launcher = match launcher::resolve(options.launcher.as_deref(), &facts) {
        Ok(launcher) => Some(launcher),
        // A missing default launcher is part of the report; a bad explicit one is an error.
        Err(LauncherError::NotFound { .. }) => None,
        Err(error) => return Err(error.into()),
    };
    let probe = match &launcher {
        Some(launcher) => probe(&launcher.path, &options.folder),
        None => Probe::failed(Failure::LauncherNotFound),
    };
    let ok = probe.failure.is_none();
    // `--home` names another home: its files, without this user's variables (§5.2).
    let home = options.home.clone().unwrap_or_else(|| env.home_or_root());
    let clients = setup::client_configs(&home, options.home.is_none(), env);
    if options.json {
        out(&render_json(
            &options.folder,
            launcher.as_ref(),
            &probe,
            &clients,
        ))?;
    } else {
        let next = next_step(options, launcher.as_ref(), &setup::configured(&clients));
        out(&render_text(
            &options.folder,
            launcher.as_ref(),
            &probe,
            &clients,
            &next,
            &launcher::install_command(&env.cwd),
        ))?;
        if !ok {
            return Err(CliError::AdapterCheckFailed);
        }
    }
    Ok(if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// Starts `<launcher> --path <folder>` and performs the §4.1 exchange.
pub(crate) fn probe(launcher: &Path, folder: &Path) -> Probe {
    let mut command = Command::new(launcher);
    command.arg("--path").arg(folder);
    let Ok(mut client) = Client::spawn(&mut command, MAX_LINE_BYTES) else {
        return Probe::failed(Failure::SpawnFailed);
    };
    let deadline = Instant::now() + EXCHANGE_DEADLINE;
    let exchanged = client
        .initialize(PROTOCOL_VERSION, "dotaios-status", OWN_VERSION, deadline)
        .and_then(|initialize| {
            let tools = client.request("tools/list", None, deadline)?;
            Ok((initialize, tools))
        });
    let mut probe = match exchanged {
        Ok((initialize, tools)) => check(initialize, tools),
        Err(error) => Probe::failed(failure_of(error)),
    };
    probe.started = true;
    // The exit status is not judged.
    let _ = client.close(EXIT_GRACE);
    probe
}

/// The §4.1 failure a broken conversation reports.
fn failure_of(error: ClientError) -> Failure {
    match error {
        // A write fails when the child has already exited; the read would see the end of its
        // stdout next.
        ClientError::Write | ClientError::Closed => Failure::ExitedEarly,
        ClientError::Timeout => Failure::Timeout,
        ClientError::TooLong | ClientError::Invalid => Failure::InvalidResponse,
    }
}

/// The §4.1 step 6 checks on the two responses.
fn check(initialize: Value, tools: Value) -> Probe {
    let mut probe = Probe::default();
    let Some(result) = initialize.get("result") else {
        probe.failure = Some(Failure::InitializeFailed);
        return probe;
    };
    probe.initialized = true;
    let text = |value: Option<&Value>| value.and_then(Value::as_str).map(str::to_owned);
    probe.server_name = text(result.pointer("/serverInfo/name"));
    probe.server_version = text(result.pointer("/serverInfo/version"));
    probe.protocol_version = text(result.get("protocolVersion"));
    if probe.server_name.as_deref() != Some("dotaios-mcp") {
        probe.failure = Some(Failure::UnexpectedServer);
        return probe;
    }
    let listed: &[Value] = tools
        .pointer("/result/tools")
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice);
    probe.tools = listed
        .iter()
        .filter_map(|tool| text(tool.get("name")))
        .collect();
    let read_only = listed
        .iter()
        .all(|tool| tool.pointer("/annotations/readOnlyHint") == Some(&Value::Bool(true)));
    if probe.tools != TOOLS || listed.len() != TOOLS.len() || !read_only {
        probe.failure = Some(Failure::UnexpectedTools);
    }
    probe
}

/// The `[next]` line (contract 06 §4.2): once a client's configuration holds the server, using
/// it from that client; before, the `install` line, always `--agent claude`, with the `--path`
/// and launcher that were used, so the printed command works where it is printed. A default
/// launcher inside a build directory would be refused by `install`, so it is named too.
fn next_step(options: &McpOptions, launcher: Option<&Launcher>, configured: &[Agent]) -> String {
    if !configured.is_empty() {
        return format!(
            "[next] Start a new {} session to use the dotaios tools.",
            setup::agent_list(configured)
        );
    }
    let launcher = launcher
        .filter(|launcher| launcher.source == Source::Flag || launcher.disposable)
        .map(|launcher| launcher.path.as_path());
    let command = install_line(Agent::Claude, options, launcher);
    format!("[next] Run `{command}` to print client config.")
}

fn render_text(
    folder: &Path,
    launcher: Option<&Launcher>,
    probe: &Probe,
    clients: &[ClientConfig],
    next: &str,
    install: &str,
) -> String {
    let mut lines = vec![
        "DotAIOS optional MCP adapter".to_owned(),
        format!("AIOS path: {}", folder.display()),
    ];
    lines.push(match launcher {
        None => "[fail] MCP server launcher: not found".to_owned(),
        Some(launcher) if launcher.source == Source::Default && launcher.disposable => format!(
            "[warn] MCP server launcher: {} (inside a build or temporary directory; client config will need --launcher)",
            launcher.path.display()
        ),
        Some(launcher) => format!("[ok] MCP server launcher: {}", launcher.path.display()),
    });
    lines.push("[info] Transport: stdio".to_owned());
    match probe.failure {
        None => {
            lines.push(adapter_ok_line(probe));
            if probe.version_matches() == Some(false) {
                lines.push(version_warning(probe));
            }
            lines.push(format!("[ok] Read-only tools: {}", TOOLS.join(", ")));
            client_lines(clients, &mut lines);
            lines.push(next.to_owned());
        }
        Some(failure) => {
            lines.push(format!("[fail] Adapter: {}", failure.text(install)));
            if failure == Failure::UnexpectedTools {
                let listed = if probe.tools.is_empty() {
                    "none".to_owned()
                } else {
                    probe.tools.join(", ")
                };
                lines.push(format!("[fail] Read-only tools: {listed}"));
            }
            // A configured client starts this same adapter: worth knowing while it fails.
            client_lines(clients, &mut lines);
        }
    }
    let mut text = lines.join("\n");
    text.push('\n');
    text
}

/// One line per client whose configuration holds the server, or could not be read; nothing
/// for a missing file or one without the server.
fn client_lines(clients: &[ClientConfig], lines: &mut Vec<String>) {
    for client in clients {
        match client.state {
            ConfigState::Configured => lines.push(format!(
                "[ok] Client config: {} has the dotaios server ({})",
                client.agent.as_str(),
                client.file.display()
            )),
            ConfigState::Unreadable => lines.push(format!(
                "[warn] Client config: {} could not be read ({})",
                client.agent.as_str(),
                client.file.display()
            )),
            ConfigState::Missing | ConfigState::NotConfigured => {}
        }
    }
}

fn adapter_ok_line(probe: &Probe) -> String {
    format!(
        "[ok] Adapter: dotaios-mcp {}, protocol {}",
        probe.server_version.as_deref().unwrap_or("(no version)"),
        probe.protocol_version.as_deref().unwrap_or("(none)")
    )
}

fn version_warning(probe: &Probe) -> String {
    format!(
        "[warn] Adapter version {} differs from dotaios {OWN_VERSION}",
        probe.server_version.as_deref().unwrap_or_default()
    )
}

fn render_json(
    folder: &Path,
    launcher: Option<&Launcher>,
    probe: &Probe,
    clients: &[ClientConfig],
) -> String {
    let clients: Vec<Value> = clients
        .iter()
        .map(|client| {
            json!({
                "agent": client.agent.as_str(),
                "file": client.file.to_string_lossy(),
                "state": client.state.code(),
            })
        })
        .collect();
    let report = json!({
        "aios_path": folder.to_string_lossy(),
        "transport": "stdio",
        "launcher": {
            "path": launcher.map(|launcher| launcher.path.to_string_lossy()),
            "source": launcher.map_or(Source::Default, |launcher| launcher.source).as_str(),
            "disposable": launcher.is_some_and(|launcher| launcher.disposable),
        },
        "adapter": {
            "started": probe.started,
            "server_name": probe.server_name,
            "server_version": probe.server_version,
            "protocol_version": probe.protocol_version,
            "version_matches": probe.version_matches(),
            "error": probe.failure.map(Failure::code),
        },
        "tools": probe.tools,
        "clients": clients,
        "ok": probe.failure.is_none(),
    });
    let mut text = to_json_pretty(&report);
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tool(name: &str, read_only: bool) -> Value {
        json!({"name": name, "annotations": {"readOnlyHint": read_only}})
    }

    fn initialize_ok(name: &str) -> Value {
        json!({"jsonrpc": "2.0", "id": 1, "result": {
            "protocolVersion": "2025-11-25",
            "serverInfo": {"name": name, "version": OWN_VERSION},
        }})
    }

    fn tools_list(tools: Vec<Value>) -> Value {
        json!({"jsonrpc": "2.0", "id": 2, "result": {"tools": tools}})
    }

    fn three() -> Vec<Value> {
        TOOLS.iter().map(|name| tool(name, true)).collect()
    }

    #[test]
    fn healthy_answers_pass() {
        let probe = check(initialize_ok("dotaios-mcp"), tools_list(three()));
        assert_eq!(probe.failure, None);
        assert_eq!(probe.tools, TOOLS);
        assert_eq!(probe.version_matches(), Some(true));
        assert_eq!(probe.protocol_version.as_deref(), Some("2025-11-25"));
    }

    #[test]
    fn each_check_has_its_failure() {
        let error = json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -1, "message": "no"}});
        assert_eq!(
            check(error, tools_list(three())).failure,
            Some(Failure::InitializeFailed)
        );
        assert_eq!(
            check(initialize_ok("other"), tools_list(three())).failure,
            Some(Failure::UnexpectedServer)
        );
        let mut two = three();
        two.pop();
        let probe = check(initialize_ok("dotaios-mcp"), tools_list(two));
        assert_eq!(probe.failure, Some(Failure::UnexpectedTools));
        assert_eq!(probe.tools, ["read_working_context", "search_aios"]);
        let mut writable = three();
        writable[1] = tool("search_aios", false);
        assert_eq!(
            check(initialize_ok("dotaios-mcp"), tools_list(writable)).failure,
            Some(Failure::UnexpectedTools)
        );
        let mut reordered = three();
        reordered.swap(0, 2);
        assert_eq!(
            check(initialize_ok("dotaios-mcp"), tools_list(reordered)).failure,
            Some(Failure::UnexpectedTools)
        );
    }

    #[test]
    fn text_report_shows_the_failure_and_listed_tools() {
        let launcher = Launcher {
            path: "/opt/bin/dotaios-mcp".into(),
            source: Source::Flag,
            disposable: false,
        };
        let mut probe = check(
            initialize_ok("dotaios-mcp"),
            tools_list(vec![tool("search_aios", true)]),
        );
        probe.started = true;
        let text = render_text(
            Path::new("/a"),
            Some(&launcher),
            &probe,
            &[],
            "[next]",
            "cargo install --locked dotaios",
        );
        assert_eq!(
            text,
            "DotAIOS optional MCP adapter\nAIOS path: /a\n[ok] MCP server launcher: /opt/bin/dotaios-mcp\n[info] Transport: stdio\n[fail] Adapter: the adapter does not list the three read-only tools\n[fail] Read-only tools: search_aios\n"
        );
        let missing = render_text(
            Path::new("/a"),
            None,
            &Probe::failed(Failure::LauncherNotFound),
            &[],
            "[next]",
            "cargo install --locked dotaios",
        );
        assert!(
            missing.contains("[fail] MCP server launcher: not found\n[info] Transport: stdio\n[fail] Adapter: no dotaios-mcp found next to dotaios"),
            "{missing}"
        );
    }

    #[test]
    fn next_step_keeps_the_path_and_launcher_given() {
        let mut options = McpOptions {
            agent: super::super::options::Agent::Codex,
            dry_run: false,
            home: None,
            launcher: None,
            json: false,
            folder: "/srv/my aios".into(),
            path_given: false,
        };
        let launcher = Launcher {
            path: "/opt/bin/dotaios-mcp".into(),
            source: Source::Default,
            disposable: false,
        };
        assert_eq!(
            next_step(&options, Some(&launcher), &[]),
            "[next] Run `dotaios mcp install --dry-run --agent claude` to print client config."
        );
        options.path_given = true;
        let explicit = Launcher {
            source: Source::Flag,
            ..launcher
        };
        assert_eq!(
            next_step(&options, Some(&explicit), &[]),
            "[next] Run `dotaios mcp install --dry-run --agent claude --path '/srv/my aios' --launcher /opt/bin/dotaios-mcp` to print client config."
        );
        let built = Launcher {
            path: "/src/target/debug/dotaios-mcp".into(),
            source: Source::Default,
            disposable: true,
        };
        assert!(
            next_step(&options, Some(&built), &[])
                .contains(" --launcher /src/target/debug/dotaios-mcp`")
        );
    }

    #[test]
    fn version_mismatch_is_a_warning() {
        let mut answer = initialize_ok("dotaios-mcp");
        answer["result"]["serverInfo"]["version"] = json!("0.0.1-old");
        let probe = check(answer, tools_list(three()));
        assert_eq!(probe.failure, None);
        assert_eq!(probe.version_matches(), Some(false));
        let text = render_text(
            Path::new("/a"),
            None,
            &probe,
            &[],
            "[next]",
            "cargo install --locked dotaios",
        );
        assert!(
            text.contains(&format!(
                "[ok] Adapter: dotaios-mcp 0.0.1-old, protocol 2025-11-25\n[warn] Adapter version 0.0.1-old differs from dotaios {OWN_VERSION}\n[ok] Read-only tools"
            )),
            "{text}"
        );
    }
}
