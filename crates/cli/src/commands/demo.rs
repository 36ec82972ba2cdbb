//! `dotaios demo`: a guided tour of the adapter. It lays out the sample folder of
//! `examples/aios/` (embedded in the binary through the package's `sample` link, so that the
//! published crate carries it too; every date moved so that its latest day is today) in a
//! temporary directory, starts the adapter on it as a child process, and speaks MCP to it
//! over stdio through `dotaios_mcp::client`, exactly as a client does: `initialize`, `tools/list`, then one call of each
//! tool. By default it prints one screen a person reads (80 columns, 24 lines, contract 06 §1.8):
//! the working context as its Markdown, the search and skill results as short lists; `--json`
//! prints one JSON document with every exchange as the client received it instead. The temporary directory is removed afterwards.
//!
//! The adapter is the sibling `dotaios-mcp` binary when it was built next to this one, else
//! this binary's own `dotaios mcp serve` (the same code). The demo never touches a real AIOS
//! folder.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::{Duration, Instant};

use dotaios_mcp::client::Client;
use jiff::civil::Date;
use serde_json::json;

use super::folder::{configured_folder, require_aios_json};
use super::mcp::options::Agent;
use super::mcp::setup::{self, Install};
use crate::args::{CommandSpec, Item, OptionSpec, Scanner, unhandled};
use crate::launcher::{self, ProcessFacts};
use crate::output::out;
use crate::{CliError, Env};

/// `dotaios demo`: its help and completions (it takes no options).
pub(crate) static SPEC: CommandSpec = CommandSpec {
    name: "demo",
    label: "demo",
    summary: "Serve a sample folder through the MCP adapter and show a client's view",
    usage: "\
Usage:
  dotaios demo [--json]

Creates a sample AIOS folder dated today in a temporary directory, starts the read-only MCP
adapter on it, and shows what an MCP client sees: the handshake, the tool list, and one call
of each tool, on one screen. The sample folder is removed afterwards, and the last line says
what to run next on this machine.
",
    options: &[OptionSpec::flag(
        "--json",
        "Print each tool's answer as the raw JSON text a client receives",
    )],
    words: &[],
    footer: "",
};

/// The latest day of the sample's own dates; it becomes today.
const SAMPLE_ANCHOR: &str = "2026-11-27";

/// The sample folder, `examples/aios/`, file by file (a test keeps this list complete).
const SAMPLE: &[(&str, &[u8])] = &[
    (".cursorrules", include_bytes!("../../sample/.cursorrules")),
    (".env.example", include_bytes!("../../sample/.env.example")),
    (".gitignore", include_bytes!("../../sample/.gitignore")),
    ("AGENTS.md", include_bytes!("../../sample/AGENTS.md")),
    ("CLAUDE.md", include_bytes!("../../sample/CLAUDE.md")),
    (
        "FIRST_SESSION.md",
        include_bytes!("../../sample/FIRST_SESSION.md"),
    ),
    ("README.md", include_bytes!("../../sample/README.md")),
    ("aios.json", include_bytes!("../../sample/aios.json")),
    (
        "archives/2026-bike-rental-site/README.md",
        include_bytes!("../../sample/archives/2026-bike-rental-site/README.md"),
    ),
    (
        "archives/README.md",
        include_bytes!("../../sample/archives/README.md"),
    ),
    (
        "connections/apis/linear.md",
        include_bytes!("../../sample/connections/apis/linear.md"),
    ),
    (
        "connections/registry.md",
        include_bytes!("../../sample/connections/registry.md"),
    ),
    (
        "context/domains/build.md",
        include_bytes!("../../sample/context/domains/build.md"),
    ),
    (
        "context/domains/make.md",
        include_bytes!("../../sample/context/domains/make.md"),
    ),
    (
        "context/domains/sell.md",
        include_bytes!("../../sample/context/domains/sell.md"),
    ),
    (
        "context/identity.md",
        include_bytes!("../../sample/context/identity.md"),
    ),
    (
        "context/north-star.md",
        include_bytes!("../../sample/context/north-star.md"),
    ),
    (
        "context/preferences.md",
        include_bytes!("../../sample/context/preferences.md"),
    ),
    (
        "context/priorities.md",
        include_bytes!("../../sample/context/priorities.md"),
    ),
    (
        "context/work.md",
        include_bytes!("../../sample/context/work.md"),
    ),
    (
        "decisions/log.md",
        include_bytes!("../../sample/decisions/log.md"),
    ),
    (
        "memory/daily/2026-11-25.md",
        include_bytes!("../../sample/memory/daily/2026-11-25.md"),
    ),
    (
        "memory/daily/2026-11-26.md",
        include_bytes!("../../sample/memory/daily/2026-11-26.md"),
    ),
    (
        "memory/daily/2026-11-27.md",
        include_bytes!("../../sample/memory/daily/2026-11-27.md"),
    ),
    (
        "memory/errors.jsonl",
        include_bytes!("../../sample/memory/errors.jsonl"),
    ),
    (
        "memory/events.jsonl",
        include_bytes!("../../sample/memory/events.jsonl"),
    ),
    (
        "memory/inbox/2026-11-26-read-later.md",
        include_bytes!("../../sample/memory/inbox/2026-11-26-read-later.md"),
    ),
    (
        "memory/inbox/2026-11-27-tidepool-webhooks.md",
        include_bytes!("../../sample/memory/inbox/2026-11-27-tidepool-webhooks.md"),
    ),
    (
        "memory/sessions/2026-11-24/2026-11-24T15-05-12_claude-code_a3f9c1.md",
        include_bytes!(
            "../../sample/memory/sessions/2026-11-24/2026-11-24T15-05-12_claude-code_a3f9c1.md"
        ),
    ),
    (
        "memory/sessions/2026-11-25/2026-11-25T10-12-40_codex_7c0de4.md",
        include_bytes!(
            "../../sample/memory/sessions/2026-11-25/2026-11-25T10-12-40_codex_7c0de4.md"
        ),
    ),
    (
        "memory/sessions/2026-11-26/2026-11-26T20-31-05_claude-code_e51b8a.md",
        include_bytes!(
            "../../sample/memory/sessions/2026-11-26/2026-11-26T20-31-05_claude-code_e51b8a.md"
        ),
    ),
    (
        "memory/sessions/2026-11-27/2026-11-27T09-48-19_claude-code_f20a97.md",
        include_bytes!(
            "../../sample/memory/sessions/2026-11-27/2026-11-27T09-48-19_claude-code_f20a97.md"
        ),
    ),
    (
        "memory/sessions/index.jsonl",
        include_bytes!("../../sample/memory/sessions/index.jsonl"),
    ),
    (
        "memory/signals/2026-11-20.jsonl",
        include_bytes!("../../sample/memory/signals/2026-11-20.jsonl"),
    ),
    (
        "memory/signals/2026-11-24.jsonl",
        include_bytes!("../../sample/memory/signals/2026-11-24.jsonl"),
    ),
    (
        "memory/signals/2026-11-26.jsonl",
        include_bytes!("../../sample/memory/signals/2026-11-26.jsonl"),
    ),
    (
        "memory/signals/2026-11-27.jsonl",
        include_bytes!("../../sample/memory/signals/2026-11-27.jsonl"),
    ),
    (
        "memory/signals/laptop-2026-11-27.jsonl",
        include_bytes!("../../sample/memory/signals/laptop-2026-11-27.jsonl"),
    ),
    (
        "plugins/linear-sync/README.md",
        include_bytes!("../../sample/plugins/linear-sync/README.md"),
    ),
    (
        "plugins/linear-sync/manifest.json",
        include_bytes!("../../sample/plugins/linear-sync/manifest.json"),
    ),
    (
        "projects/acme-website/README.md",
        include_bytes!("../../sample/projects/acme-website/README.md"),
    ),
    (
        "projects/acme-website/sources/brand-guidelines.md",
        include_bytes!("../../sample/projects/acme-website/sources/brand-guidelines.md"),
    ),
    (
        "projects/field-notes/README.md",
        include_bytes!("../../sample/projects/field-notes/README.md"),
    ),
    (
        "projects/tidepool/README.md",
        include_bytes!("../../sample/projects/tidepool/README.md"),
    ),
    (
        "references/tide-harmonics-primer.md",
        include_bytes!("../../sample/references/tide-harmonics-primer.md"),
    ),
    (
        "references/wcag-22-quick-reference.md",
        include_bytes!("../../sample/references/wcag-22-quick-reference.md"),
    ),
    (
        "schedules.yml",
        include_bytes!("../../sample/schedules.yml"),
    ),
    (
        "skills/INDEX.md",
        include_bytes!("../../sample/skills/INDEX.md"),
    ),
    (
        "skills/RESOLVER.md",
        include_bytes!("../../sample/skills/RESOLVER.md"),
    ),
    (
        "skills/_registry.json",
        include_bytes!("../../sample/skills/_registry.json"),
    ),
    (
        "skills/client-update/SKILL.md",
        include_bytes!("../../sample/skills/client-update/SKILL.md"),
    ),
    (
        "skills/closeday/SKILL.md",
        include_bytes!("../../sample/skills/closeday/SKILL.md"),
    ),
    (
        "skills/plan-today/SKILL.md",
        include_bytes!("../../sample/skills/plan-today/SKILL.md"),
    ),
    (
        "skills/release-tidepool/SKILL.md",
        include_bytes!("../../sample/skills/release-tidepool/SKILL.md"),
    ),
    (
        "skills/today/SKILL.md",
        include_bytes!("../../sample/skills/today/SKILL.md"),
    ),
    (
        "skills/weekly-review/SKILL.md",
        include_bytes!("../../sample/skills/weekly-review/SKILL.md"),
    ),
    (
        "vault/org/companies/acme-outdoor.md",
        include_bytes!("../../sample/vault/org/companies/acme-outdoor.md"),
    ),
    (
        "vault/org/people/jonas-berg.md",
        include_bytes!("../../sample/vault/org/people/jonas-berg.md"),
    ),
    (
        "vault/org/people/priya-nair.md",
        include_bytes!("../../sample/vault/org/people/priya-nair.md"),
    ),
    (
        "vault/outputs/2026-11-26-acme-page-inventory-summary.md",
        include_bytes!("../../sample/vault/outputs/2026-11-26-acme-page-inventory-summary.md"),
    ),
    (
        "vault/raw/2026-11-24-acme-kickoff-notes.md",
        include_bytes!("../../sample/vault/raw/2026-11-24-acme-kickoff-notes.md"),
    ),
    (
        "vault/wiki/fixed-scope-pricing.md",
        include_bytes!("../../sample/vault/wiki/fixed-scope-pricing.md"),
    ),
    (
        "vault/wiki/static-site-launch-checklist.md",
        include_bytes!("../../sample/vault/wiki/static-site-launch-checklist.md"),
    ),
];

/// Runs `dotaios demo`.
pub(crate) fn run(args: &[OsString], env: &Env) -> Result<ExitCode, CliError> {
    if Scanner::wants_help(args) {
        out(&SPEC.help())?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut json = false;
    let mut scanner = Scanner::new(args, &SPEC);
    while let Some(item) = scanner.next_item()? {
        match item {
            Item::Flag("--json") => json = true,
            other => return Err(unhandled(&other)),
        }
    }
    let today = jiff::Zoned::now().date();
    let workspace = TempFolder::create().map_err(|_| demo_failed())?;
    let aios = workspace.path.join("aios");
    write_sample(&aios, today).map_err(|_| demo_failed())?;
    let outcome = converse(&aios);
    drop(workspace);
    let conversation = outcome?;
    let next = next_step(env);
    if json {
        let document = conversation.json_document(today, &next);
        let text = serde_json::to_string_pretty(&document).map_err(|_| demo_failed())?;
        out(&format!("{text}\n"))?;
    } else {
        out(&conversation.screen(today, &next))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The one step that works next on this machine (contract 06 §1.8), from facts read, never
/// written: install the binaries when no installed pair exists (not when this `dotaios` is a
/// `cargo run` build and `PATH` finds an installed one), put an installed pair on `PATH` when
/// `PATH` misses it, create `~/aios`, connect a client, and once a client's configuration
/// holds the server, use it.
fn next_step(env: &Env) -> String {
    let facts = ProcessFacts::capture(env);
    let install = Install::detect(&facts);
    let has_folder = require_aios_json(&configured_folder(None, env)).is_ok();
    let configs = setup::client_configs(&env.home_or_root(), true, env);
    let step = match install {
        Install::Missing => Step::Install(launcher::install_command(&env.cwd)),
        Install::OffPath { dir } => Step::AddToPath(dir),
        Install::Package | Install::OnPath { .. } if !has_folder => Step::Init,
        Install::Package | Install::OnPath { .. } => Step::Connect(setup::configured(&configs)),
    };
    next_step_text(&step)
}

/// What comes next, in the order of contract 06 §1.8.
#[derive(Debug)]
enum Step {
    /// The install command that works in the working directory (§1.7).
    Install(String),
    /// The directory where `dotaios` and `dotaios-mcp` are installed but `PATH` does not look.
    AddToPath(std::path::PathBuf),
    Init,
    /// The clients whose configuration already holds the `dotaios` server (none: connect one).
    Connect(Vec<Agent>),
}

fn next_step_text(step: &Step) -> String {
    match step {
        Step::Install(install) => format!("Next: install dotaios and dotaios-mcp: {install}"),
        Step::AddToPath(dir) => format!(
            "Next: add {} to PATH: dotaios and dotaios-mcp are installed there",
            crate::output::shell_quote(dir)
        ),
        Step::Init => "Next: create your AIOS folder: dotaios init".to_owned(),
        Step::Connect(agents) if agents.is_empty() => {
            "Next: connect a client: dotaios mcp install --dry-run --agent claude".to_owned()
        }
        Step::Connect(agents) => format!(
            "Next: use dotaios from a new {} session; check it: dotaios mcp status",
            setup::agent_list(agents)
        ),
    }
}

fn demo_failed() -> CliError {
    CliError::DemoFailed
}

/// How long the adapter may take for one answer, and to exit once its stdin is closed.
const ANSWER_DEADLINE: Duration = Duration::from_secs(30);
/// Longer answer lines are not the sample adapter's.
const MAX_LINE_BYTES: u64 = 16 * 1024 * 1024;

/// The three tool calls, the same in both views.
fn calls() -> [(&'static str, serde_json::Value); 3] {
    [
        ("read_working_context", json!({"budget": 1500})),
        (
            "search_aios",
            json!({"query": "tidepool release", "limit": 1, "budget": 8000}),
        ),
        ("resolve_skill", json!({"intent": "plan my day"})),
    ]
}

/// What the client received.
struct Conversation {
    initialize: serde_json::Value,
    tools: serde_json::Value,
    /// Each call's arguments and response.
    calls: Vec<(&'static str, serde_json::Value, serde_json::Value)>,
}

/// The conversation a client has with the adapter.
fn converse(aios: &Path) -> Result<Conversation, CliError> {
    let mut adapter = start_adapter(aios).map_err(|_| demo_failed())?;
    let deadline = || Instant::now() + ANSWER_DEADLINE;
    let initialize = adapter
        .initialize(
            "2025-11-25",
            "dotaios-demo",
            env!("CARGO_PKG_VERSION"),
            deadline(),
        )
        .map_err(|_| demo_failed())?;
    let tools = adapter
        .request("tools/list", Some(json!({})), deadline())
        .map_err(|_| demo_failed())?;
    let mut answered = Vec::new();
    for (name, arguments) in calls() {
        let response = adapter
            .call_tool(name, arguments.clone(), deadline())
            .map_err(|_| demo_failed())?;
        answered.push((name, arguments, response));
    }
    // Closing stdin ends the adapter; it must exit with status 0.
    match adapter.close(ANSWER_DEADLINE) {
        Some(status) if status.success() => Ok(Conversation {
            initialize,
            tools,
            calls: answered,
        }),
        _ => Err(demo_failed()),
    }
}

/// The terminal the default view fits (contract 06 §1.8).
const SCREEN_COLUMNS: usize = 80;
/// Lines of the working context's Markdown shown; the rest is counted.
const CONTEXT_LINES: usize = 7;

impl Conversation {
    fn server_line(&self) -> String {
        let info = &self.initialize["result"]["serverInfo"];
        format!(
            "{} {} (protocol {})",
            info["title"].as_str().unwrap_or("?"),
            info["version"].as_str().unwrap_or("?"),
            self.initialize["result"]["protocolVersion"]
                .as_str()
                .unwrap_or("?"),
        )
    }

    fn tools(&self) -> impl Iterator<Item = &serde_json::Value> {
        self.tools["result"]["tools"]
            .as_array()
            .into_iter()
            .flatten()
    }

    /// The JSON text a call's first content item carries, or the error.
    fn answer_text(response: &serde_json::Value) -> String {
        match response["result"]["content"][0]["text"].as_str() {
            Some(text) => text.to_owned(),
            None => format!("error {}", response["error"]),
        }
    }

    /// `--json`: one JSON document holding every exchange as the client received it (each
    /// tool's answer with its text and `structuredContent`), the sample folder's date and the
    /// next step (contract 06 §1.3: every `--json` prints one JSON document).
    fn json_document(&self, today: Date, next: &str) -> serde_json::Value {
        let calls: Vec<serde_json::Value> = self
            .calls
            .iter()
            .map(|(name, arguments, response)| {
                json!({"tool": name, "arguments": arguments, "response": response})
            })
            .collect();
        json!({
            "sampleFolderDate": today.to_string(),
            "initialize": self.initialize,
            "toolsList": self.tools,
            "calls": calls,
            "sampleFolderRemoved": true,
            "next": next,
        })
    }

    /// The default view: one screen, at most 23 lines (a prompt fits below) of at most 80
    /// columns.
    fn screen(&self, today: Date, next: &str) -> String {
        let mut lines = vec![
            format!("DotAIOS demo: a sample folder dated {today}, served by dotaios-mcp (stdio)"),
            format!("→ initialize  ← {}", self.server_line()),
        ];
        let names: Vec<&str> = self
            .tools()
            .filter_map(|tool| tool["name"].as_str())
            .collect();
        let read_only = self
            .tools()
            .all(|tool| tool["annotations"]["readOnlyHint"] == json!(true));
        lines.push(format!(
            "→ tools/list  ← {}{}",
            names.join(", "),
            if read_only { ", all read-only" } else { "" }
        ));
        for (name, arguments, response) in &self.calls {
            lines.push(String::new());
            lines.push(format!("→ {name} {arguments}"));
            let answer: serde_json::Value =
                serde_json::from_str(&Self::answer_text(response)).unwrap_or_default();
            match *name {
                "read_working_context" => context_lines(&answer, &mut lines),
                "search_aios" => search_lines(&answer, arguments, &mut lines),
                _ => skill_lines(&answer, &mut lines),
            }
        }
        lines.push(String::new());
        lines.push("The sample folder has been removed. Raw JSON: dotaios demo --json".to_owned());
        let mut text = String::new();
        for line in lines {
            text.push_str(&fit_columns(&line));
            text.push('\n');
        }
        // The next step is a command: never cut.
        text.push_str(next);
        text.push('\n');
        text
    }
}

/// The working context's Markdown as it reads, blank lines dropped, its first lines shown.
fn context_lines(answer: &serde_json::Value, lines: &mut Vec<String>) {
    let markdown = answer["markdown"].as_str().unwrap_or("");
    let body: Vec<&str> = markdown
        .lines()
        .filter(|line| !line.trim().is_empty())
        .collect();
    for line in body.iter().take(CONTEXT_LINES) {
        lines.push(format!("  {line}"));
    }
    let more = body.len().saturating_sub(CONTEXT_LINES);
    let budget = &answer["budget"];
    lines.push(format!(
        "  … {more} more lines; {} of the budget of {} used{}",
        budget["used"],
        budget["limit"],
        if budget["truncated"] == json!(true) {
            ", cut to fit"
        } else {
            ""
        }
    ));
}

/// One line per result, then what `limit` counted (contract 03 §9.4: the merged list).
fn search_lines(
    answer: &serde_json::Value,
    arguments: &serde_json::Value,
    lines: &mut Vec<String>,
) {
    let results = answer["results"].as_array().map_or(&[][..], Vec::as_slice);
    for (index, result) in results.iter().enumerate() {
        let matches = result["matches"].as_array().map_or(0, Vec::len);
        lines.push(format!(
            "  {}. [{}] {} · {} ({matches} lines)",
            index + 1,
            result["scope"].as_str().unwrap_or("?"),
            result["source"].as_str().unwrap_or("?"),
            result["title"].as_str().unwrap_or("?"),
        ));
    }
    lines.push(format!(
        "  limit {} bounds one list merged across all scopes, not each scope.",
        arguments["limit"]
    ));
}

/// One line per matched skill: name, confidence and why.
fn skill_lines(answer: &serde_json::Value, lines: &mut Vec<String>) {
    for skill in answer["matches"].as_array().into_iter().flatten() {
        lines.push(format!(
            "  {} (confidence {}): {}",
            skill["name"].as_str().unwrap_or("?"),
            skill["confidence"],
            skill["reason"].as_str().unwrap_or(""),
        ));
    }
}

/// `line` cut to the screen width, in characters (the demo's text is ASCII, arrows and dots).
fn fit_columns(line: &str) -> String {
    if line.chars().count() <= SCREEN_COLUMNS {
        return line.to_owned();
    }
    let mut cut: String = line.chars().take(SCREEN_COLUMNS - 1).collect();
    cut.push('…');
    cut
}

/// The sibling `dotaios-mcp` when it was built next to this binary, else this binary's own
/// `dotaios mcp serve`, on `aios`.
fn start_adapter(aios: &Path) -> std::io::Result<Client> {
    let own = std::env::current_exe()?;
    let sibling = own.with_file_name(format!("dotaios-mcp{}", std::env::consts::EXE_SUFFIX));
    let mut command = if sibling.is_file() {
        Command::new(sibling)
    } else {
        let mut command = Command::new(own);
        command.args(["mcp", "serve"]);
        command
    };
    command.arg("--path").arg(aios);
    Client::spawn(&mut command, MAX_LINE_BYTES)
}

/// A private temporary directory, removed on drop.
struct TempFolder {
    path: PathBuf,
}

impl TempFolder {
    fn create() -> std::io::Result<TempFolder> {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |elapsed| elapsed.subsec_nanos());
        let path =
            std::env::temp_dir().join(format!("dotaios-demo-{}-{nanos}", std::process::id()));
        // `create_dir` (not `_all`) fails if the name exists, so nothing of anyone's is reused.
        std::fs::create_dir(&path)?;
        Ok(TempFolder { path })
    }
}

impl Drop for TempFolder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

/// Writes the sample below `aios`, every date moved by the days between the anchor and `today`.
fn write_sample(aios: &Path, today: Date) -> std::io::Result<()> {
    let anchor: Date = SAMPLE_ANCHOR
        .parse()
        .map_err(|_| std::io::ErrorKind::InvalidData)?;
    let shift = (today - anchor).get_days();
    for (relative, bytes) in SAMPLE {
        let path = aios.join(shift_dates(relative, shift));
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        match std::str::from_utf8(bytes) {
            Ok(text) => std::fs::write(&path, shift_dates(text, shift))?,
            Err(_) => std::fs::write(&path, bytes)?,
        }
    }
    Ok(())
}

/// Moves every valid `YYYY-MM-DD` date in `text` by `days`.
fn shift_dates(text: &str, days: i32) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    let mut index = 0;
    while index + 10 <= bytes.len() {
        let window = &bytes[index..index + 10];
        let shape = window.iter().enumerate().all(|(position, byte)| {
            if position == 4 || position == 7 {
                *byte == b'-'
            } else {
                byte.is_ascii_digit()
            }
        });
        let bounded = index == 0 || !bytes[index - 1].is_ascii_digit();
        if shape
            && bounded
            && let Some(moved) = text[index..index + 10]
                .parse::<Date>()
                .ok()
                .and_then(|date| date.checked_add(jiff::Span::new().days(days)).ok())
        {
            out.push_str(&text[copied..index]);
            out.push_str(&moved.to_string());
            index += 10;
            copied = index;
            continue;
        }
        index += 1;
    }
    out.push_str(&text[copied..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_move_and_nothing_else_does() {
        assert_eq!(
            shift_dates("2026-11-27T09-48-19_x 2026-11-25.md", 3),
            "2026-11-30T09-48-19_x 2026-11-28.md"
        );
        assert_eq!(
            shift_dates("v 2026-13-40 12026-11-27 x", 3),
            "v 2026-13-40 12026-11-27 x"
        );
        assert_eq!(shift_dates("2026-12-31", 1), "2027-01-01");
        assert_eq!(shift_dates("short 2026-1", 1), "short 2026-1");
    }

    #[test]
    fn the_next_step_follows_what_exists() {
        assert_eq!(
            next_step_text(&Step::Install("cargo install --locked dotaios".to_owned())),
            "Next: install dotaios and dotaios-mcp: cargo install --locked dotaios"
        );
        assert_eq!(
            next_step_text(&Step::AddToPath("/opt/my bin".into())),
            "Next: add '/opt/my bin' to PATH: dotaios and dotaios-mcp are installed there"
        );
        assert_eq!(
            next_step_text(&Step::Init),
            "Next: create your AIOS folder: dotaios init"
        );
        assert_eq!(
            next_step_text(&Step::Connect(Vec::new())),
            "Next: connect a client: dotaios mcp install --dry-run --agent claude"
        );
        assert_eq!(
            next_step_text(&Step::Connect(vec![
                Agent::Claude,
                Agent::Codex,
                Agent::Kimi
            ])),
            "Next: use dotaios from a new claude, codex or kimi session; check it: dotaios mcp status"
        );
    }

    /// The embedded list is exactly the files of `examples/aios/`.
    #[test]
    fn sample_matches_the_examples_folder() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/aios");
        let mut on_disk = Vec::new();
        collect(&root, &root, &mut on_disk);
        on_disk.sort();
        let mut embedded: Vec<String> = SAMPLE.iter().map(|(path, _)| (*path).to_owned()).collect();
        embedded.sort();
        assert_eq!(
            embedded, on_disk,
            "update SAMPLE in crates/cli/src/commands/demo.rs"
        );
    }

    fn collect(root: &Path, directory: &Path, files: &mut Vec<String>) {
        for entry in std::fs::read_dir(directory).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                collect(root, &path, files);
            } else {
                // The embedded paths use `/` on every platform.
                let parts: Vec<String> = path
                    .strip_prefix(root)
                    .unwrap()
                    .components()
                    .map(|part| part.as_os_str().to_string_lossy().into_owned())
                    .collect();
                files.push(parts.join("/"));
            }
        }
    }

    #[test]
    fn the_latest_sample_day_becomes_today() {
        let tmp = std::env::temp_dir().join(format!("dotaios-demo-test-{}", std::process::id()));
        let today: Date = "2030-01-15".parse().unwrap();
        write_sample(&tmp, today).unwrap();
        assert!(tmp.join("memory/daily/2030-01-15.md").is_file());
        assert!(!tmp.join("memory/daily/2026-11-27.md").exists());
        std::fs::remove_dir_all(&tmp).unwrap();
    }
}
