//! Client wiring (contract 06 §2–§8): `mcp status` against the real adapter and against
//! fake launchers, `mcp install|config` fragments for the seven clients, and the guarded
//! `connect opencode` merge. Numbers in test names refer to the acceptance checklist of
//! contract 06 §8.
//!
//! The healthy-adapter tests start the `dotaios-mcp` binary built next to `dotaios` (the test
//! script builds every binary first; a plain `cargo test -p dotaios` needs
//! `cargo build --bins` before it).
#![allow(
    clippy::disallowed_methods,
    reason = "tests build and inspect their folders with std::fs"
)]
// Helpers and imports of the Unix-only cases (links, modes, FIFOs) are unused on Windows.
#![cfg_attr(not(unix), allow(unused_imports, dead_code))]

mod support;

use std::ffi::OsStr;
use std::fs;
#[cfg(unix)]
use std::os::unix::ffi::OsStrExt;
#[cfg(unix)]
use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use dotaios_testkit::fingerprint;
use serde_json::{Value, json};
use support::texts;

const AGENTS: [&str; 7] = [
    "claude",
    "codex",
    "cursor",
    "gemini",
    "antigravity",
    "kimi",
    "opencode",
];
const TOOLS: [&str; 3] = ["read_working_context", "search_aios", "resolve_skill"];
const FRAGMENT_START: &str = "MCP server config fragment:\n";
const FRAGMENT_END: &str = "\n\nDotAIOS does not edit MCP client config automatically yet.";

/// A temporary home and AIOS folder (`aios.json` = `{}`), and the built adapter.
struct Fixture {
    temp: tempfile::TempDir,
}

impl Fixture {
    fn new() -> Fixture {
        let temp = tempfile::tempdir().unwrap();
        fs::create_dir(temp.path().join("home")).unwrap();
        fs::create_dir(temp.path().join("aios")).unwrap();
        fs::write(temp.path().join("aios/aios.json"), "{}\n").unwrap();
        Fixture { temp }
    }

    fn root(&self) -> &Path {
        self.temp.path()
    }

    fn home(&self) -> PathBuf {
        self.root().join("home")
    }

    fn aios(&self) -> PathBuf {
        self.root().join("aios")
    }

    fn opencode_json(&self) -> PathBuf {
        support::below(&self.home(), ".config/opencode/opencode.json")
    }

    /// `dotaios` with this home, and no variable that would redirect the commands under test.
    fn command(&self) -> Command {
        let mut command = support::dotaios(&self.home());
        command.env_remove("XDG_CONFIG_HOME");
        command.env_remove("KIMI_CODE_HOME");
        command
    }

    /// `dotaios <args…>` with `--path <aios>` appended.
    fn run(&self, args: &[&str]) -> Output {
        self.command()
            .args(args)
            .arg("--path")
            .arg(self.aios())
            .output()
            .unwrap()
    }

    /// `dotaios <args…> --path <aios> --launcher <adapter>`, not started yet.
    fn adapter_command(&self, args: &[&str]) -> Command {
        self.adapter_command_at(&self.aios(), args)
    }

    /// [`Fixture::adapter_command`] with `folder` as the AIOS folder.
    fn adapter_command_at(&self, folder: &Path, args: &[&str]) -> Command {
        let mut command = self.command();
        command
            .args(args)
            .arg("--path")
            .arg(folder)
            .arg("--launcher")
            .arg(adapter());
        command
    }

    /// [`Fixture::adapter_command`], run.
    fn run_with_adapter(&self, args: &[&str]) -> Output {
        self.adapter_command(args).output().unwrap()
    }

    /// [`Fixture::run_with_adapter`] with `XDG_CONFIG_HOME` set to `xdg`.
    fn run_with_xdg(&self, xdg: impl AsRef<std::ffi::OsStr>, args: &[&str]) -> Output {
        self.adapter_command(args)
            .env("XDG_CONFIG_HOME", xdg)
            .output()
            .unwrap()
    }

    /// `connect opencode` with the adapter as launcher, plus `extra` arguments.
    fn connect(&self, extra: &[&str]) -> Output {
        let mut args = vec!["connect", "opencode"];
        args.extend_from_slice(extra);
        self.run_with_adapter(&args)
    }

    /// Writes `text` as an existing `opencode.json`.
    fn existing(&self, text: &str) {
        let file = self.opencode_json();
        fs::create_dir_all(file.parent().unwrap()).unwrap();
        fs::write(&file, text).unwrap();
    }

    /// `mcp status --json`'s `clients`: every agent's file below this home with `states`.
    fn client_states(&self, states: &[&str; 7]) -> Value {
        let files = [
            ".claude.json",
            ".codex/config.toml",
            ".cursor/mcp.json",
            ".gemini/settings.json",
            ".gemini/config/mcp_config.json",
            ".kimi-code/mcp.json",
            ".config/opencode/opencode.json",
        ];
        let agents = [
            "claude",
            "codex",
            "cursor",
            "gemini",
            "antigravity",
            "kimi",
            "opencode",
        ];
        Value::Array(
            (0..7)
                .map(|index| {
                    json!({
                        "agent": agents[index],
                        "file": support::below(&self.home(), files[index]).to_str().unwrap(),
                        "state": states[index],
                    })
                })
                .collect(),
        )
    }

    #[cfg(unix)]
    fn script(&self, name: &str, body: &str) -> PathBuf {
        let path = self.root().join(name);
        support::write_executable(&path, &format!("#!/bin/sh\n{body}"));
        path
    }
}

/// The `dotaios-mcp` binary next to the `dotaios` under test.
fn adapter() -> PathBuf {
    let path = support::native(Path::new(env!("CARGO_BIN_EXE_dotaios")))
        .with_file_name(support::exe("dotaios-mcp"));
    assert!(
        path.is_file(),
        "{} is missing: build every binary first (`cargo build --workspace --bins`, as scripts/test.sh does)",
        path.display()
    );
    path
}

/// This crate's directory as the CLI under test sees it.
fn crate_dir() -> PathBuf {
    support::native(Path::new(env!("CARGO_MANIFEST_DIR")))
}

fn adapter_text() -> String {
    adapter().to_str().unwrap().to_owned()
}

fn code(output: &Output) -> Option<i32> {
    output.status.code()
}

/// Asserts a one-line refusal: exit 1, stderr exactly `message` and a newline.
fn assert_refused(output: &Output, message: &str) {
    let (stdout, stderr) = texts(output);
    assert_eq!(code(output), Some(1), "stdout: {stdout}\nstderr: {stderr}");
    assert_eq!(stderr, format!("{message}\n"), "stdout: {stdout}");
}

/// The fragment between the two fixed markers of §5.4.
fn fragment_of(stdout: &str) -> &str {
    let (_, rest) = stdout.split_once(FRAGMENT_START).expect(stdout);
    let (fragment, _) = rest.split_once(FRAGMENT_END).expect(stdout);
    fragment
}

fn line_value<'a>(stdout: &'a str, prefix: &str) -> &'a str {
    stdout
        .lines()
        .find_map(|line| line.strip_prefix(prefix))
        .unwrap_or_else(|| panic!("no {prefix:?} line in {stdout}"))
}

fn assert_no_npx(text: &str) {
    // On Windows the default launcher is `dotaios-mcp.exe` itself (contract 06 §2.3).
    let exe = if cfg!(windows) { "npx" } else { ".exe" };
    for banned in ["npx", "_npx", "packages/mcp/src/server.mjs", exe] {
        assert!(!text.contains(banned), "{banned} in {text}");
    }
}

fn read_json(path: &Path) -> Value {
    serde_json::from_slice(&fs::read(path).unwrap()).unwrap()
}

#[cfg(unix)]
fn mode(path: &Path) -> u32 {
    fs::symlink_metadata(path).unwrap().permissions().mode() & 0o777
}

// ---------------------------------------------------------------------------------------------
// mcp install | config

#[test]
fn c01_targets_for_every_agent_below_home() {
    let fixture = Fixture::new();
    let home = fixture.root().join("elsewhere");
    let suffixes = [
        ".claude.json",
        ".codex/config.toml",
        ".cursor/mcp.json",
        ".gemini/settings.json",
        ".gemini/config/mcp_config.json",
        ".kimi-code/mcp.json",
        ".config/opencode/opencode.json",
    ];
    for (agent, suffix) in AGENTS.iter().zip(suffixes) {
        let output = fixture
            .command()
            .args(["mcp", "config", "--agent", agent, "--home"])
            .arg(&home)
            .arg("--path")
            .arg(fixture.aios())
            .arg("--launcher")
            .arg(adapter())
            .output()
            .unwrap();
        let (stdout, stderr) = texts(&output);
        assert_eq!(code(&output), Some(0), "{agent}: {stderr}");
        assert_eq!(
            line_value(&stdout, "Suggested target: "),
            support::below(&home, suffix).to_str().unwrap(),
            "{agent}"
        );
        assert_eq!(line_value(&stdout, "Agent: "), *agent);
    }
    assert!(!home.exists(), "config must never create anything");
}

#[test]
fn c02_c06_codex_fragment_is_toml_with_exact_command_and_args() {
    let fixture = Fixture::new();
    let output = fixture
        .command()
        .args(["mcp", "config", "--agent", "codex", "--path"])
        .arg(fixture.aios())
        .arg("--home")
        .arg(fixture.home())
        .arg("--launcher")
        .arg(adapter())
        .output()
        .unwrap();
    let (stdout, stderr) = texts(&output);
    assert_eq!(code(&output), Some(0), "{stderr}");
    assert!(stdout.contains(&format!(
        "Suggested target: {}\n",
        support::below(&fixture.home(), ".codex/config.toml").display()
    )));
    assert!(stdout.contains("Format: TOML\n"));
    assert!(stdout.contains("Merge the fragment"));
    assert!(!stdout.contains("\"mcpServers\""));
    // A TOML basic string writes each `\` as `\\`.
    let toml = |text: &str| text.replace('\\', "\\\\");
    let aios = fixture.aios().to_str().unwrap().to_owned();
    let fragment = fragment_of(&stdout);
    assert_eq!(
        fragment.lines().collect::<Vec<_>>(),
        [
            "[mcp_servers.dotaios]".to_owned(),
            format!("command = \"{}\"", toml(&adapter_text())),
            format!("args = [\"--path\",\"{}\"]", toml(&aios)),
        ]
    );
    assert_codex_fragment(fragment, &adapter_text(), &aios);
    assert_no_npx(&stdout);
}

/// The fragment parses as TOML and names exactly the launcher and `["--path", aios]`.
fn assert_codex_fragment(fragment: &str, launcher: &str, aios: &str) {
    let document: toml_edit::DocumentMut = fragment.parse().expect(fragment);
    let servers = document["mcp_servers"]
        .as_table()
        .expect("mcp_servers table");
    assert_eq!(servers.len(), 1);
    let entry = servers["dotaios"].as_table().expect("dotaios table");
    assert_eq!(entry.len(), 2, "only command and args");
    assert_eq!(entry["command"].as_str(), Some(launcher));
    let args: Vec<&str> = entry["args"]
        .as_array()
        .expect("args array")
        .iter()
        .map(|value| value.as_str().expect("string arg"))
        .collect();
    assert_eq!(args, ["--path", aios]);
}

#[test]
fn c03_c07_json_fragments_parse_with_exact_command_and_args() {
    let fixture = Fixture::new();
    let aios = fixture.aios().to_str().unwrap().to_owned();
    for agent in ["claude", "cursor", "gemini", "antigravity", "kimi"] {
        let output = fixture.run_with_adapter(&["mcp", "install", "--dry-run", "--agent", agent]);
        let (stdout, stderr) = texts(&output);
        assert_eq!(code(&output), Some(0), "{agent}: {stderr}");
        assert!(stdout.contains("\nFormat: JSON\n"), "{agent}");
        assert_no_npx(&stdout);
        let fragment: Value = serde_json::from_str(fragment_of(&stdout)).expect(agent);
        assert_eq!(
            fragment,
            json!({"mcpServers": {"dotaios": {"command": adapter_text(), "args": ["--path", aios]}}}),
            "{agent}: exactly command and args, nothing else"
        );
    }
}

#[test]
fn c04_c08_opencode_fragment_parses_with_exact_command() {
    let fixture = Fixture::new();
    let output = fixture.run_with_adapter(&["mcp", "install", "--dry-run", "--agent", "opencode"]);
    let (stdout, stderr) = texts(&output);
    assert_eq!(code(&output), Some(0), "{stderr}");
    assert!(stdout.contains("\nFormat: JSON\n"));
    assert_no_npx(&stdout);
    let fragment: Value = serde_json::from_str(fragment_of(&stdout)).unwrap();
    let aios = fixture.aios().to_str().unwrap().to_owned();
    assert_eq!(
        fragment,
        json!({"mcp": {"dotaios": {"type": "local", "command": [adapter_text(), "--path", aios], "enabled": true}}})
    );
}

/// The `Evidence:` line states the level recorded for the client version pinned in
/// `tests/hosts/package.json` (so a pin bumped without a new `scripts/test-hosts.sh
/// --write-docs` run fails here), and "configured only" for the clients no run covers.
#[test]
fn install_states_the_recorded_evidence_for_the_pinned_client() {
    let fixture = Fixture::new();
    let hosts: Value = serde_json::from_str(
        &fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/hosts/package.json"),
        )
        .unwrap(),
    )
    .unwrap();
    let pinned = |package: &str| {
        hosts["devDependencies"][package]
            .as_str()
            .or_else(|| hosts["optionalDependencies"][package].as_str())
            .unwrap_or_else(|| panic!("{package} is not pinned"))
            .to_owned()
    };
    let expected = [
        (
            "claude",
            format!(
                "produced with Claude Code {}",
                pinned("@anthropic-ai/claude-code")
            ),
        ),
        (
            "codex",
            format!("produced with Codex CLI {}", pinned("@openai/codex")),
        ),
        (
            "cursor",
            "configured only (not tested with a real Cursor)".to_owned(),
        ),
        (
            "gemini",
            format!("produced with Gemini CLI {}", pinned("@google/gemini-cli")),
        ),
        (
            "antigravity",
            "configured only (not tested with a real Antigravity)".to_owned(),
        ),
        (
            "kimi",
            format!(
                "produced with Kimi Code {}",
                pinned("@moonshot-ai/kimi-code")
            ),
        ),
        (
            "opencode",
            format!("produced with OpenCode {}", pinned("opencode-linux-x64")),
        ),
    ];
    for (agent, evidence) in expected {
        let output = fixture.run_with_adapter(&["mcp", "install", "--dry-run", "--agent", agent]);
        assert_eq!(code(&output), Some(0), "{agent}");
        assert_eq!(
            line_value(&texts(&output).0, "Evidence: "),
            evidence,
            "{agent}"
        );
    }
}

#[test]
fn every_agent_output_has_the_exact_layout() {
    let fixture = Fixture::new();
    let aios = fixture.aios().to_str().unwrap().to_owned();
    for agent in AGENTS {
        let output = fixture.run_with_adapter(&["mcp", "install", "--dry-run", "--agent", agent]);
        let (stdout, _) = texts(&output);
        let fragment = fragment_of(&stdout);
        let format = if agent == "codex" { "TOML" } else { "JSON" };
        let target = line_value(&stdout, "Suggested target: ").to_owned();
        let evidence = line_value(&stdout, "Evidence: ").to_owned();
        let how = if agent == "claude" {
            format!(
                "For Claude Code, run its own command (it rewrites ~/.claude.json itself):\n  claude mcp add --scope user dotaios -- {} --path {aios}\nOr merge the fragment into the existing client config, then restart that client.\n",
                adapter_text()
            )
        } else {
            "Merge the fragment into the existing client config, then restart that client.\n"
                .to_owned()
        };
        assert_eq!(
            stdout,
            format!(
                "DotAIOS MCP dry run\nAgent: {agent}\nAIOS path: {aios}\nLauncher: {}\nSuggested target: {target}\nFormat: {format}\nEvidence: {evidence}\n\nMCP server config fragment:\n{fragment}\n\nDotAIOS does not edit MCP client config automatically yet.\n{how}{EVIDENCE_EXPLANATION}\n",
                adapter_text()
            )
        );
        assert!(!fragment.ends_with('\n'));
    }
}

#[test]
fn c05_unknown_agent_is_refused_with_nothing_on_stdout() {
    let fixture = Fixture::new();
    for args in [
        &["mcp", "install", "--agent", "zai"][..],
        &["mcp", "status", "--agent", "zai"][..],
        &["mcp", "--agent", "zai"][..],
    ] {
        let output = fixture.run_with_adapter(args);
        assert_refused(
            &output,
            "Invalid --agent: zai. Use claude, codex, cursor, gemini, antigravity, kimi, opencode.",
        );
        assert!(output.stdout.is_empty());
    }
    // A near miss names the closest agent (contract 06 §1.2), as typed in any case.
    for args in [
        &["mcp", "install", "--agent", "claud"][..],
        &["mcp", "status", "--agent", "Claud"][..],
    ] {
        let output = fixture.run_with_adapter(args);
        assert_refused(
            &output,
            "Invalid --agent: claud. Use claude, codex, cursor, gemini, antigravity, kimi, opencode. Did you mean claude?",
        );
        assert!(output.stdout.is_empty());
    }
}

#[test]
fn c33_missing_folder_is_refused_by_status_and_install() {
    let fixture = Fixture::new();
    fs::remove_file(fixture.aios().join("aios.json")).unwrap();
    let message = format!(
        "No AIOS folder found at {}. Run dotaios init first, or pass --path.",
        fixture.aios().display()
    );
    for args in [
        &["mcp", "status"][..],
        &["mcp"][..],
        &["mcp", "install", "--dry-run"][..],
        &["connect", "opencode"][..],
    ] {
        let output = fixture.run_with_adapter(args);
        assert_refused(&output, &message);
        assert!(output.stdout.is_empty(), "{args:?}");
    }
    // Without --path: the default folder below HOME.
    let output = fixture.command().args(["mcp", "status"]).output().unwrap();
    assert_refused(
        &output,
        &format!(
            "No AIOS folder found at {}. Run dotaios init first, or pass --path.",
            fixture.home().join("aios").display()
        ),
    );
    assert!(!fixture.home().join(".config").exists());
}

#[test]
fn c34_default_launcher_in_the_build_directory_is_refused() {
    let fixture = Fixture::new();
    adapter();
    let output = fixture.run(&["mcp", "install", "--agent", "claude"]);
    let (stdout, stderr) = texts(&output);
    assert_eq!(code(&output), Some(1));
    assert!(stdout.is_empty(), "{stdout}");
    assert!(
        // Built, not installed: the install that works in this working directory (the crate's
        // own, inside the clone) first, then the same command with the launcher given.
        stderr.starts_with(&format!(
            "Refusing to use the dotaios-mcp launcher at {}: it is inside a build or temporary directory and may disappear.\nTo install dotaios and dotaios-mcp side by side, run: cargo install --locked --path {}\nTo use it where it is, run: dotaios mcp install --dry-run --agent claude --path {} --launcher {}\n",
            adapter().display(),
            crate_dir().display(),
            fixture.aios().display(),
            adapter().display()
        )),
        "{stderr}"
    );
    let accepted = fixture.run_with_adapter(&["mcp", "install", "--agent", "claude"]);
    assert_eq!(code(&accepted), Some(0), "{}", texts(&accepted).1);
}

/// Copies `dotaios` and `dotaios-mcp` into `dir` and runs `mcp install` from there without
/// `--launcher`.
fn install_with_copied_pair(fixture: &Fixture, dir: &Path) -> Output {
    fs::create_dir_all(dir).unwrap();
    for name in ["dotaios", "dotaios-mcp"] {
        let from = Path::new(env!("CARGO_BIN_EXE_dotaios")).with_file_name(support::exe(name));
        support::copy_executable(&from, &dir.join(support::exe(name)));
    }
    Command::new(dir.join(support::exe("dotaios")))
        .env("HOME", fixture.home())
        .env("USERPROFILE", fixture.home())
        .args(["mcp", "install", "--dry-run", "--path"])
        .arg(fixture.aios())
        .output()
        .unwrap()
}

/// Removes a directory created inside the source tree, even when the test fails.
struct RemoveOnDrop(PathBuf);

impl Drop for RemoveOnDrop {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

#[test]
fn c35_copied_pair_is_refused_in_a_temporary_directory_and_accepted_elsewhere() {
    let fixture = Fixture::new();
    adapter();
    let temporary = fixture.root().join("bin");
    let output = install_with_copied_pair(&fixture, &temporary);
    let (stdout, stderr) = texts(&output);
    assert_eq!(code(&output), Some(1), "{stdout}");
    assert!(
        stderr.starts_with(&format!(
            "Refusing to use the dotaios-mcp launcher at {}:",
            temporary.join(support::exe("dotaios-mcp")).display()
        )),
        "{stderr}"
    );

    // A directory outside every temporary and build directory: next to this crate's sources,
    // unless the checkout itself lives in one (then only the first half can run here).
    let crate_dir = crate_dir();
    let crate_dir = crate_dir.as_path();
    let persistent = crate_dir.join(format!(".clients-test-{}", std::process::id()));
    let canonical_crate = fs::canonicalize(crate_dir).unwrap();
    let temporary_roots = [
        std::env::temp_dir(),
        PathBuf::from("/tmp"),
        PathBuf::from("/var/tmp"),
        PathBuf::from("/dev/shm"),
    ];
    let checkout_is_disposable = canonical_crate
        .ancestors()
        .any(|dir| dir.join("CACHEDIR.TAG").exists())
        || temporary_roots.iter().any(|root| {
            canonical_crate.starts_with(fs::canonicalize(root).unwrap_or_else(|_| root.clone()))
        });
    if checkout_is_disposable {
        return;
    }
    let _cleanup = RemoveOnDrop(persistent.clone());
    let output = install_with_copied_pair(&fixture, &persistent);
    let (stdout, stderr) = texts(&output);
    assert_eq!(code(&output), Some(0), "{stderr}");
    let launcher = persistent.join(support::exe("dotaios-mcp"));
    assert_eq!(
        line_value(&stdout, "Launcher: "),
        launcher.to_str().unwrap()
    );
    let fragment: Value = serde_json::from_str(fragment_of(&stdout)).unwrap();
    assert_eq!(
        fragment["mcpServers"]["dotaios"]["command"],
        json!(launcher.to_str().unwrap())
    );
}

#[test]
fn c36_explicit_launcher_must_exist_and_be_executable() {
    let fixture = Fixture::new();
    let missing = fixture.root().join("nonexistent").join("dotaios-mcp");
    let output = fixture.run(&["mcp", "install", "--launcher", missing.to_str().unwrap()]);
    assert_refused(
        &output,
        &format!(
            "Launcher not found or not executable: {}",
            missing.display()
        ),
    );
    let plain = fixture.root().join("plain");
    fs::write(&plain, "").unwrap();
    let output = fixture.run(&["mcp", "status", "--launcher", plain.to_str().unwrap()]);
    assert_refused(
        &output,
        &format!("Launcher not found or not executable: {}", plain.display()),
    );
    assert!(output.stdout.is_empty());
}

#[test]
fn c37_install_never_writes_and_dry_run_changes_only_the_first_line() {
    let fixture = Fixture::new();
    let before = fingerprint(fixture.root());
    let dry = fixture.run_with_adapter(&["mcp", "install", "--dry-run", "--agent", "cursor"]);
    let real = fixture.run_with_adapter(&["mcp", "install", "--agent", "cursor"]);
    let config = fixture.run_with_adapter(&["mcp", "config", "--agent", "cursor"]);
    let (dry, _) = texts(&dry);
    let (real, _) = texts(&real);
    let (config, _) = texts(&config);
    assert_eq!(
        dry.strip_prefix("DotAIOS MCP dry run\n"),
        real.strip_prefix("DotAIOS MCP config\n")
    );
    assert_eq!(real, config);
    assert_eq!(before, fingerprint(fixture.root()));
}

#[test]
fn c38_c39_option_errors() {
    let fixture = Fixture::new();
    assert_refused(
        &fixture.run_with_adapter(&["mcp", "install", "--json"]),
        "Unknown option: --json",
    );
    assert_refused(
        &fixture.run_with_adapter(&["mcp", "frobnicate"]),
        "Unknown mcp command: frobnicate. Try `dotaios mcp --help`.",
    );
    assert_refused(
        &fixture.run_with_adapter(&["mcp", "status", "extra"]),
        "Unknown option: extra",
    );
    assert_refused(
        &fixture.run_with_adapter(&["mcp", "--agnet=codex"]),
        "Unknown option: --agnet. Did you mean --agent?",
    );
    let output = fixture.command().args(["mcp", "--path"]).output().unwrap();
    assert_refused(&output, "--path requires a value");
    // A mistyped subcommand is refused before the folder check, with the closest one, on
    // stderr alone (contract 06 §1.2, §3.1).
    let missing = fixture
        .command()
        .args(["mcp", "instal", "--path"])
        .arg(fixture.root().join("nowhere"))
        .output()
        .unwrap();
    assert_refused(
        &missing,
        "Unknown mcp command: instal. Did you mean install? Try `dotaios mcp --help`.",
    );
    assert!(missing.stdout.is_empty());
}

/// The sentence `mcp install` prints after the fragment to explain the `Evidence:` line.
const EVIDENCE_EXPLANATION: &str = "Evidence: the furthest a real run of this client got with such a fragment (configured, discoverable, invoked, produced: its tool results reached the model); see docs/compatibility.md.";

#[cfg(unix)]
/// The `claude mcp add` line works as printed: run by a shell with a stand-in `claude` that
/// records its arguments, it passes exactly the fragment's command and args, also for a folder
/// whose path needs quoting (contract 06 §5.4).
#[test]
fn claude_mcp_add_line_runs_as_printed() {
    let fixture = Fixture::new();
    let odd = fixture.root().join("it's my aios");
    std::fs::create_dir_all(&odd).unwrap();
    std::fs::write(odd.join("aios.json"), "{}\n").unwrap();
    let output = fixture
        .adapter_command_at(&odd, &["mcp", "install", "--dry-run"])
        .output()
        .unwrap();
    let (stdout, stderr) = texts(&output);
    assert_eq!(code(&output), Some(0), "{stderr}");
    let line = stdout
        .lines()
        .find_map(|line| line.strip_prefix("  claude mcp add "))
        .expect(&stdout);
    let bin = fixture.root().join("fake-bin");
    std::fs::create_dir_all(&bin).unwrap();
    let fake = bin.join("claude");
    support::write_executable(
        &fake,
        "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done\n",
    );
    let ran = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("claude mcp add {line}"))
        .env("PATH", format!("{}:/usr/bin:/bin", bin.display()))
        .output()
        .unwrap();
    let args: Vec<String> = String::from_utf8(ran.stdout)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    let fragment: serde_json::Value = serde_json::from_str(fragment_of(&stdout)).unwrap();
    let entry = &fragment["mcpServers"]["dotaios"];
    let mut want = vec![
        "mcp".to_owned(),
        "add".into(),
        "--scope".into(),
        "user".into(),
        "dotaios".into(),
        "--".into(),
        entry["command"].as_str().unwrap().to_owned(),
    ];
    want.extend(
        entry["args"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap().to_owned()),
    );
    assert_eq!(args, want);
}

/// `dotaios mcp help` prints what `dotaios mcp --help` prints (contract 06 §3.1).
#[test]
fn mcp_help_word_is_the_help_flag() {
    let fixture = Fixture::new();
    let word = fixture.command().args(["mcp", "help"]).output().unwrap();
    let flag = fixture.command().args(["mcp", "--help"]).output().unwrap();
    assert_eq!(code(&word), Some(0));
    assert_eq!(word.stdout, flag.stdout);
    assert!(texts(&word).0.starts_with("Usage:\n  dotaios mcp status"));
}

/// `mcp --help` lists the client commands; `status`, `install` and `config` each print their
/// own help, from their own option tables (contract 06 §3.1 step 3, §3.2).
#[test]
fn mcp_help_and_each_subcommand_help() {
    let fixture = Fixture::new();
    for (args, usage, has, lacks) in [
        (
            &["mcp", "--help"][..],
            "Usage:\n  dotaios mcp status [options]\n  dotaios mcp install",
            &["--dry-run", "--json"][..],
            &[][..],
        ),
        (
            &["mcp", "status", "--help"],
            "Usage:\n  dotaios mcp status [options]\n\nStart the dotaios-mcp adapter",
            &["--json", "Exit status: "],
            &["--dry-run", "mcp install"],
        ),
        (
            &["mcp", "--path", "x", "-h", "status"],
            "Usage:\n  dotaios mcp status [options]\n\n",
            &["--json"],
            &["--dry-run"],
        ),
        (
            &["mcp", "install", "-h", "--bogus"],
            "Usage:\n  dotaios mcp install --dry-run --agent <agent> [options]\n  dotaios mcp config",
            &["--dry-run"],
            &["--json", "mcp status"],
        ),
        (
            &["mcp", "config", "--help"],
            "Usage:\n  dotaios mcp install --dry-run --agent <agent> [options]\n  dotaios mcp config",
            &["--dry-run"],
            &["--json"],
        ),
    ] {
        let output = fixture.command().args(args).output().unwrap();
        let (stdout, _) = texts(&output);
        assert_eq!(code(&output), Some(0), "{args:?}");
        assert!(stdout.starts_with(usage), "{args:?}: {stdout}");
        assert!(
            stdout.contains(
                "  --launcher <path>  Use this dotaios-mcp executable in client config\n"
            ),
            "{args:?}"
        );
        for text in has {
            assert!(stdout.contains(text), "{args:?} lacks {text}");
        }
        for text in lacks {
            assert!(!stdout.contains(text), "{args:?} has {text}");
        }
    }
}

#[test]
#[cfg_attr(windows, ignore = "a `\"` cannot be part of a Windows file name")]
fn c40_del_character_is_escaped_in_toml() {
    let fixture = Fixture::new();
    let aios = fixture.root().join("ai\u{7f}os \"quoted\"");
    fs::create_dir(&aios).unwrap();
    fs::write(aios.join("aios.json"), "{}\n").unwrap();
    let output = fixture
        .command()
        .args(["mcp", "config", "--agent", "codex", "--path"])
        .arg(&aios)
        .arg("--launcher")
        .arg(adapter())
        .output()
        .unwrap();
    let (stdout, stderr) = texts(&output);
    assert_eq!(code(&output), Some(0), "{stderr}");
    let fragment = fragment_of(&stdout);
    assert!(
        fragment.contains("ai\\u007fos \\\"quoted\\\""),
        "{fragment}"
    );
    assert!(!fragment.contains('\u{7f}'));
    assert_codex_fragment(fragment, &adapter_text(), aios.to_str().unwrap());
}

#[cfg(unix)]
#[test]
fn c41_non_utf8_folder_cannot_go_into_client_configuration() {
    let fixture = Fixture::new();
    let aios = fixture.root().join(OsStr::from_bytes(b"aios-\xff"));
    fs::create_dir(&aios).unwrap();
    fs::write(aios.join("aios.json"), "{}\n").unwrap();
    for args in [&["mcp", "install"][..], &["connect", "opencode"][..]] {
        let output = fixture
            .command()
            .args(args)
            .arg("--path")
            .arg(&aios)
            .arg("--launcher")
            .arg(adapter())
            .output()
            .unwrap();
        let (stdout, stderr) = texts(&output);
        assert_eq!(code(&output), Some(1), "{stdout}");
        assert!(
            stderr.starts_with(
                "Cannot write client configuration for a path that is not valid UTF-8: "
            ) && stderr.contains("aios-\u{fffd}"),
            "{stderr}"
        );
    }
    assert!(!fixture.home().join(".config").exists());
}

#[test]
fn c26_no_fragment_names_npx_or_an_exe() {
    let fixture = Fixture::new();
    for agent in AGENTS {
        let output = fixture.run_with_adapter(&["mcp", "config", "--agent", agent]);
        assert_no_npx(fragment_of(&texts(&output).0));
    }
}

#[test]
fn c25_top_level_help_lists_mcp_and_connect() {
    let fixture = Fixture::new();
    let output = fixture.command().arg("--help").output().unwrap();
    let (stdout, _) = texts(&output);
    assert_eq!(code(&output), Some(0));
    for command in ["mcp", "connect"] {
        assert!(
            stdout
                .lines()
                .any(|line| line.starts_with(' ') && line.trim_start().starts_with(command)),
            "{command}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// mcp status

#[test]
fn c28_status_against_the_real_adapter() {
    let fixture = Fixture::new();
    let before = fingerprint(&fixture.aios());
    let output = fixture.run_with_adapter(&["mcp", "status"]);
    let (stdout, stderr) = texts(&output);
    assert_eq!(code(&output), Some(0), "{stdout}{stderr}");
    assert_eq!(stderr, "");
    assert_eq!(
        stdout,
        format!(
            "DotAIOS optional MCP adapter\nAIOS path: {}\n[ok] MCP server launcher: {}\n[info] Transport: stdio\n[ok] Adapter: dotaios-mcp {}, protocol 2025-11-25\n[ok] Read-only tools: read_working_context, search_aios, resolve_skill\n[next] Run `dotaios mcp install --dry-run --agent claude --path {} --launcher {}` to print client config.\n",
            fixture.aios().display(),
            adapter().display(),
            env!("CARGO_PKG_VERSION"),
            fixture.aios().display(),
            adapter().display(),
        )
    );
    assert_eq!(before, fingerprint(&fixture.aios()));
}

#[test]
fn c29_status_json_against_the_real_adapter() {
    let fixture = Fixture::new();
    let output = fixture.run_with_adapter(&["mcp", "status", "--json"]);
    let (stdout, stderr) = texts(&output);
    assert_eq!(code(&output), Some(0), "{stdout}");
    assert_eq!(stderr, "");
    let report: Value = serde_json::from_str(&stdout).unwrap();
    let members: Vec<&str> = report
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        members,
        [
            "aios_path",
            "transport",
            "launcher",
            "adapter",
            "tools",
            "clients",
            "ok"
        ]
    );
    assert_eq!(
        report,
        json!({
            "aios_path": fixture.aios().to_str().unwrap(),
            "transport": "stdio",
            "launcher": {"path": adapter_text(), "source": "flag", "disposable": false},
            "adapter": {
                "started": true,
                "server_name": "dotaios-mcp",
                "server_version": env!("CARGO_PKG_VERSION"),
                "protocol_version": "2025-11-25",
                "version_matches": true,
                "error": null,
            },
            "tools": TOOLS,
            "clients": fixture.client_states(&["missing"; 7]),
            "ok": true,
        })
    );
    assert!(stdout.starts_with("{\n  \"aios_path\": ") && stdout.ends_with("}\n"));
}

/// `mcp status` reads (never writes) each client's configuration file, the files `mcp install`
/// suggests, and says which already hold the `dotaios` server (issue 39 item 9): the `[next]`
/// step becomes using it; a file it cannot parse is a warning, never a guess.
#[test]
fn status_knows_which_clients_are_configured() {
    let fixture = Fixture::new();
    let home = fixture.home();
    fs::write(
        home.join(".claude.json"),
        r#"{"projects":{},"mcpServers":{"dotaios":{"command":"/x/dotaios-mcp","args":["--path","/x"]}}}"#,
    )
    .unwrap();
    fs::create_dir_all(home.join(".codex")).unwrap();
    fs::write(
        home.join(".codex/config.toml"),
        "[mcp_servers.other]\ncommand = \"x\"\n",
    )
    .unwrap();
    fs::create_dir_all(home.join(".cursor")).unwrap();
    fs::write(home.join(".cursor/mcp.json"), "{\"mcpServers\": {,}}").unwrap();
    let before = fingerprint(fixture.root());
    let output = fixture.run_with_adapter(&["mcp", "status"]);
    let (stdout, stderr) = texts(&output);
    assert_eq!(code(&output), Some(0), "{stdout}{stderr}");
    assert!(
        stdout.ends_with(&format!(
            "[ok] Read-only tools: read_working_context, search_aios, resolve_skill\n[ok] Client config: claude has the dotaios server ({})\n[warn] Client config: cursor could not be read ({})\n[next] Start a new claude session to use the dotaios tools.\n",
            home.join(".claude.json").display(),
            support::below(&home, ".cursor/mcp.json").display(),
        )),
        "{stdout}"
    );
    let json_output = fixture.run_with_adapter(&["mcp", "status", "--json"]);
    let report: Value = serde_json::from_str(&texts(&json_output).0).unwrap();
    assert_eq!(
        report["clients"],
        fixture.client_states(&[
            "configured",
            "not_configured",
            "unreadable",
            "missing",
            "missing",
            "missing",
            "missing"
        ])
    );
    assert_eq!(before, fingerprint(fixture.root()));
}

/// Runs `mcp status` with `launcher`, in text and JSON form; returns both outputs.
fn status_with(fixture: &Fixture, launcher: &Path) -> (Output, Output) {
    let run = |json: bool| {
        let mut command = fixture.command();
        command
            .args(["mcp", "status", "--path"])
            .arg(fixture.aios())
            .arg("--launcher")
            .arg(launcher);
        if json {
            command.arg("--json");
        }
        command.output().unwrap()
    };
    (run(false), run(true))
}

fn assert_status_failure(text: &Output, json: &Output, failure: &str, codes: &[&str]) {
    let (stdout, stderr) = texts(text);
    assert_eq!(code(text), Some(1), "{stdout}");
    assert_eq!(stderr, "MCP adapter check failed.\n");
    assert!(
        stdout.contains(&format!("\n[fail] Adapter: {failure}\n")),
        "{stdout}"
    );
    assert!(!stdout.contains("[next]"), "{stdout}");
    let (stdout, stderr) = texts(json);
    assert_eq!(code(json), Some(1));
    assert_eq!(stderr, "");
    let report: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["ok"], json!(false));
    let error = report["adapter"]["error"].as_str().unwrap();
    assert!(codes.contains(&error), "{error}");
}

#[cfg(unix)]
#[test]
fn status_with_a_launcher_that_exits_at_once() {
    let fixture = Fixture::new();
    let launcher = fixture.script("quits", "exit 0\n");
    let (text, json) = status_with(&fixture, &launcher);
    assert_status_failure(
        &text,
        &json,
        "the adapter exited before answering",
        &["exited_early"],
    );
    let report: Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(report["adapter"]["started"], json!(true));
    assert_eq!(report["tools"], json!([]));
}

#[cfg(unix)]
#[test]
fn c30_status_with_a_launcher_that_prints_no_json() {
    let fixture = Fixture::new();
    let launcher = fixture.script("chatty", "echo 'hello, I am not MCP'\n");
    let (text, json) = status_with(&fixture, &launcher);
    assert_status_failure(
        &text,
        &json,
        "the adapter wrote something that is not an MCP response",
        &["invalid_response", "exited_early"],
    );
}

const INITIALIZE_ANSWER: &str = r#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"SERVER","version":"9.9.9"}}}"#;

#[cfg(unix)]
/// `mcp status` (text and `--json`) against a launcher script that answers `initialize` as
/// `server` (version 9.9.9) and `tools/list` with `tools`; also the parsed JSON report.
fn status_of_server(fixture: &Fixture, server: &str, tools: &str) -> (Output, Output, Value) {
    let launcher = fixture.script(
        server,
        &format!(
            "read -r line\nprintf '%s\\n' '{}'\nread -r line\nread -r line\nprintf '%s\\n' '{tools}'\n",
            INITIALIZE_ANSWER.replace("SERVER", server)
        ),
    );
    let (text, json) = status_with(fixture, &launcher);
    let report = serde_json::from_slice(&json.stdout).unwrap();
    (text, json, report)
}

#[cfg(unix)]
#[test]
fn c31_status_with_a_server_listing_two_tools() {
    let fixture = Fixture::new();
    let tools = r#"{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"read_working_context","annotations":{"readOnlyHint":true}},{"name":"search_aios","annotations":{"readOnlyHint":true}}]}}"#;
    let (text, json, report) = status_of_server(&fixture, "dotaios-mcp", tools);
    assert_status_failure(
        &text,
        &json,
        "the adapter does not list the three read-only tools",
        &["unexpected_tools"],
    );
    assert!(
        texts(&text)
            .0
            .ends_with("\n[fail] Read-only tools: read_working_context, search_aios\n")
    );
    assert_eq!(
        report["tools"],
        json!(["read_working_context", "search_aios"])
    );
    assert_eq!(report["adapter"]["server_version"], json!("9.9.9"));
    assert_eq!(report["adapter"]["version_matches"], json!(false));
}

#[cfg(unix)]
#[test]
fn status_with_another_server() {
    let fixture = Fixture::new();
    let tools = r#"{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}"#;
    let (text, json, report) = status_of_server(&fixture, "other-server", tools);
    assert_status_failure(
        &text,
        &json,
        "the program answering is not dotaios-mcp",
        &["unexpected_server"],
    );
    assert_eq!(report["adapter"]["server_name"], json!("other-server"));
}

#[cfg(unix)]
#[test]
fn c31_status_with_a_launcher_that_never_answers() {
    let fixture = Fixture::new();
    let launcher = fixture.script("silent", "exec sleep 60\n");
    let started = Instant::now();
    let output = fixture
        .command()
        .args(["mcp", "status", "--json", "--path"])
        .arg(fixture.aios())
        .arg("--launcher")
        .arg(&launcher)
        .output()
        .unwrap();
    let elapsed = started.elapsed();
    assert_eq!(code(&output), Some(1));
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["adapter"]["error"], json!("timeout"));
    assert!(
        elapsed >= Duration::from_secs(10) && elapsed < Duration::from_secs(20),
        "{elapsed:?}"
    );
}

#[test]
fn c32_status_from_the_build_directory_warns_and_still_probes() {
    let fixture = Fixture::new();
    adapter();
    let output = fixture.run(&["mcp", "status"]);
    let (stdout, stderr) = texts(&output);
    assert_eq!(code(&output), Some(0), "{stdout}{stderr}");
    assert!(
        stdout.contains(&format!(
            "\n[warn] MCP server launcher: {} (inside a build or temporary directory; client config will need --launcher)\n",
            adapter().display()
        )),
        "{stdout}"
    );
    assert!(stdout.contains("\n[ok] Read-only tools: "));
    let json = fixture.run(&["mcp", "status", "--json"]);
    let report: Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(
        report["launcher"],
        json!({"path": adapter_text(), "source": "default", "disposable": true})
    );
}

#[test]
fn status_without_any_adapter_reports_launcher_not_found() {
    let fixture = Fixture::new();
    adapter();
    // `dotaios` alone, away from the adapter and from PATH.
    let bin = fixture.root().join("lonely");
    fs::create_dir(&bin).unwrap();
    support::copy_executable(
        Path::new(env!("CARGO_BIN_EXE_dotaios")),
        &bin.join(support::exe("dotaios")),
    );
    let run = |json: bool| {
        let mut command = Command::new(bin.join(support::exe("dotaios")));
        command
            .env("HOME", fixture.home())
            .env("USERPROFILE", fixture.home())
            .env("PATH", "/usr/bin:/bin")
            .args(["mcp", "status", "--path"])
            .arg(fixture.aios());
        if json {
            command.arg("--json");
        }
        command.output().unwrap()
    };
    let (text, json) = (run(false), run(true));
    let (stdout, _) = texts(&text);
    assert!(
        stdout.contains("\n[fail] MCP server launcher: not found\n"),
        "{stdout}"
    );
    assert_status_failure(
        &text,
        &json,
        &format!(
            "no dotaios-mcp found next to dotaios (install both binaries together with cargo install --locked --path {}, or pass --launcher)",
            crate_dir().display()
        ),
        &["launcher_not_found"],
    );
    let report: Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(report["adapter"]["started"], json!(false));
    assert_eq!(report["launcher"]["path"], Value::Null);
    // install cannot fall back to a report: it is an error.
    let install = Command::new(bin.join(support::exe("dotaios")))
        .env("HOME", fixture.home())
        .env("USERPROFILE", fixture.home())
        .env("PATH", "/usr/bin:/bin")
        .args(["mcp", "install", "--path"])
        .arg(fixture.aios())
        .output()
        .unwrap();
    assert_refused(
        &install,
        &format!(
            "Could not find the dotaios-mcp adapter next to dotaios. Install both binaries together (cargo install --locked --path {} installs both), or pass --launcher <path>.",
            crate_dir().display()
        ),
    );
}

// ---------------------------------------------------------------------------------------------
// connect opencode

fn expected_entry(fixture: &Fixture) -> Value {
    json!({
        "type": "local",
        "command": [adapter_text(), "--path", fixture.aios().to_str().unwrap()],
        "enabled": true,
    })
}

/// Asserts a refusal whose message matches `pattern` pieces (in order), and that the file is
/// byte-identical to `before`.
fn assert_connect_refused(fixture: &Fixture, output: &Output, pieces: &[&str], before: &[u8]) {
    let (stdout, stderr) = texts(output);
    assert_eq!(code(output), Some(1), "{stdout}");
    // Nothing on stdout before an error is known (contract 06 §1.3, §6.2).
    assert_eq!(stdout, "");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    let mut rest = stderr.as_str();
    for piece in pieces {
        let at = rest
            .find(piece)
            .unwrap_or_else(|| panic!("{piece:?} not in {stderr:?}"));
        rest = &rest[at + piece.len()..];
    }
    assert_eq!(fs::read(fixture.opencode_json()).unwrap(), before);
}

#[cfg(unix)]
#[test]
fn c11_fresh_home_gets_a_private_file() {
    let fixture = Fixture::new();
    let aios_before = fingerprint(&fixture.aios());
    let output = fixture.connect(&[]);
    let (stdout, stderr) = texts(&output);
    assert_eq!(code(&output), Some(0), "{stderr}");
    assert_eq!(
        stdout,
        format!(
            "DotAIOS → OpenCode\nAIOS path: {}\nLauncher: {}\n[info] ~/.config/opencode not found — will create\n[ok] ~/.config/opencode/opencode.json (MCP server entry)\n\nOpenCode configured.\nRead-only MCP tools available: read_working_context, search_aios, resolve_skill\n",
            fixture.aios().display(),
            adapter().display()
        )
    );
    let file = fixture.opencode_json();
    let text = fs::read_to_string(&file).unwrap();
    assert!(text.ends_with("}\n") && !text.ends_with("\n\n"));
    assert_no_npx(&text);
    assert_eq!(
        read_json(&file),
        json!({"mcp": {"dotaios": expected_entry(&fixture)}})
    );
    assert_eq!(mode(&file), 0o600);
    assert_eq!(aios_before, fingerprint(&fixture.aios()));
    let names: Vec<_> = fs::read_dir(file.parent().unwrap())
        .unwrap()
        .map(|entry| entry.unwrap().file_name())
        .collect();
    assert_eq!(names, ["opencode.json"], "no temporary file left behind");
}

#[test]
fn c42_second_run_is_byte_identical() {
    let fixture = Fixture::new();
    fixture.existing("{\"theme\":\"dark\",\"mcp\":{\"custom\":{\"type\":\"remote\",\"url\":\"https://example.test/mcp\"}}}");
    let aios_before = fingerprint(&fixture.aios());
    assert_eq!(code(&fixture.connect(&[])), Some(0));
    let first = fs::read(fixture.opencode_json()).unwrap();
    let output = fixture.connect(&[]);
    let (stdout, _) = texts(&output);
    assert_eq!(code(&output), Some(0));
    assert!(
        stdout.contains("\n[ok] ~/.config/opencode found\n"),
        "{stdout}"
    );
    assert_eq!(fs::read(fixture.opencode_json()).unwrap(), first);
    assert_eq!(aios_before, fingerprint(&fixture.aios()));
}

#[test]
fn c12_populated_file_keeps_other_servers() {
    let fixture = Fixture::new();
    let custom = json!({"type": "remote", "url": "https://example.test/mcp"});
    fixture.existing(&json!({"mcp": {"custom": custom}}).to_string());
    assert_eq!(code(&fixture.connect(&[])), Some(0));
    let after = read_json(&fixture.opencode_json());
    assert_eq!(after["mcp"]["custom"], custom);
    let names: Vec<&String> = after["mcp"].as_object().unwrap().keys().collect();
    assert_eq!(names, ["custom", "dotaios"]);
}

#[test]
fn c44_every_other_member_is_preserved_in_order() {
    let fixture = Fixture::new();
    // An absolute adapter path of this platform (contract 06 §6.4 (a)), written as JSON.
    let old_adapter = if cfg!(windows) {
        r"C:\\old\\place\\dotaios-mcp.exe"
    } else {
        "/old/place/dotaios-mcp"
    };
    fixture.existing(
        &r#"{
  "$schema": "https://opencode.ai/config.json",
  "provider": {"anthropic": {"options": {"apiKey": "{env:KEY}"}}},
  "mcp": {
    "custom": {"type": "local", "command": ["x"], "environment": {"A": "1"}},
    "dotaios": {"type": "local", "command": ["OLD_ADAPTER", "--path", "/old"], "enabled": false},
    "zeta": {"type": "remote", "url": "https://z.test"}
  },
  "9": "numeric name stays where it was",
  "theme": "dark"
}"#
        .replace("OLD_ADAPTER", old_adapter),
    );
    assert_eq!(code(&fixture.connect(&[])), Some(0));
    let after = read_json(&fixture.opencode_json());
    let root: Vec<&String> = after.as_object().unwrap().keys().collect();
    assert_eq!(root, ["$schema", "provider", "mcp", "9", "theme"]);
    let mcp: Vec<&String> = after["mcp"].as_object().unwrap().keys().collect();
    assert_eq!(mcp, ["custom", "dotaios", "zeta"]);
    assert_eq!(after["mcp"]["dotaios"], expected_entry(&fixture));
    assert_eq!(
        after["provider"],
        json!({"anthropic": {"options": {"apiKey": "{env:KEY}"}}})
    );
    assert_eq!(after["mcp"]["custom"]["environment"], json!({"A": "1"}));
}

#[test]
fn c45_numbers_keep_their_text() {
    let fixture = Fixture::new();
    fixture.existing(r#"{"a":1.0,"b":12345678901234567890,"c":[1e2,-0.50]}"#);
    assert_eq!(code(&fixture.connect(&[])), Some(0));
    let text = fs::read_to_string(fixture.opencode_json()).unwrap();
    assert!(
        text.starts_with(
            "{\n  \"a\": 1.0,\n  \"b\": 12345678901234567890,\n  \"c\": [\n    1e2,\n    -0.50\n  ],\n  \"mcp\": {\n"
        ),
        "{text}"
    );
}

#[test]
fn c09_c10_invalid_files_are_refused_untouched() {
    let fixture = Fixture::new();
    let cases: [(&str, &[&str]); 9] = [
        ("{ broken", &["not valid JSON"]),
        ("", &["not valid JSON"]),
        ("{\"a\":1,}", &["not valid JSON"]),
        ("\u{feff}{}", &["not valid JSON"]),
        ("[\"\\ud800\"]", &["not valid JSON"]),
        // JSONC: OpenCode accepts comments, DotAIOS does not rewrite what it cannot keep.
        ("{\n  // my servers\n  \"mcp\": {}\n}", &["not valid JSON"]),
        ("{\"mcp\":[]}", &["mcp field must contain a JSON object"]),
        ("[]", &["must contain a JSON object"]),
        ("null", &["must contain a JSON object"]),
    ];
    let file = fixture.opencode_json();
    for (text, pieces) in cases {
        fixture.existing(text);
        let mut expected = vec!["Existing ", file.to_str().unwrap()];
        expected.extend_from_slice(pieces);
        expected.push("refusing to overwrite it.");
        for extra in [&[][..], &["--dry-run"][..]] {
            let output = fixture.connect(extra);
            assert_connect_refused(&fixture, &output, &expected, text.as_bytes());
        }
    }
    fs::write(fixture.opencode_json(), b"{\"a\":\"\xff\"}").unwrap();
    let output = fixture.connect(&[]);
    assert_connect_refused(&fixture, &output, &["not valid JSON"], b"{\"a\":\"\xff\"}");
}

#[test]
fn c13_c14_c15_foreign_dotaios_entries_are_refused() {
    let fixture = Fixture::new();
    let adapter = adapter_text();
    let entries = [
        json!({"type": "remote", "url": "https://example.test/mcp"}),
        json!({"type": "local", "command": [adapter, "--path", "/x", "fourth"]}),
        json!({"type": "local", "command": ["npx", "foreign-prelude", "--package", "dotaios@2.0.19", "foreign-middle", "dotaios-mcp", "--foreign-flag", "--path", "/foreign-aios", "--tail"]}),
        json!({"type": "local", "command": [adapter, "--path", "/x"], "url": "https://example.test"}),
        json!({"type": "local", "command": [adapter, "--path", "/x"], "environment": {}}),
        json!({"type": "local", "command": [adapter, "--path", "/x"], "timeout": 5000}),
    ];
    for entry in entries {
        let text = json!({"mcp": {"dotaios": entry}}).to_string();
        fixture.existing(&text);
        let output = fixture.connect(&[]);
        assert_connect_refused(
            &fixture,
            &output,
            &[
                "has an unrecognized mcp.dotaios entry",
                "refusing to overwrite it.",
            ],
            text.as_bytes(),
        );
    }
}

#[test]
fn c16_c17_c21_c22_legacy_servers_are_refused() {
    let fixture = Fixture::new();
    let legacy_node = json!({"type": "local", "command": "/usr/bin/node", "args": ["/src/packages/mcp/src/server.mjs", "--path", "/x"]});
    let cases = [
        (json!("wrong"), "has an invalid legacy mcp.servers value"),
        (json!([]), "has an invalid legacy mcp.servers value"),
        (json!(42), "has an invalid legacy mcp.servers value"),
        (
            json!({"custom": {"type": "local", "command": "x"}}),
            "uses legacy mcp.servers entries (custom)",
        ),
        (
            json!({"dotaios": legacy_node, "custom": {}, "more": {}}),
            "uses legacy mcp.servers entries (custom, more)",
        ),
        (
            json!({"dotaios": {"type": "local", "command": "python3", "args": ["/src/packages/mcp/src/server.mjs", "--path", "/x"]}}),
            "has an unrecognized legacy mcp.servers.dotaios entry",
        ),
    ];
    for (servers, message) in cases {
        let text = json!({"mcp": {"servers": servers}}).to_string();
        fixture.existing(&text);
        let output = fixture.connect(&[]);
        assert_connect_refused(&fixture, &output, &[message], text.as_bytes());
    }
}

#[test]
fn c23_c46_legacy_entry_is_migrated_and_empty_servers_removed() {
    let fixture = Fixture::new();
    fixture.existing(
        &json!({"mcp": {"a": {}, "servers": {"dotaios": {"type": "local", "command": "/usr/bin/node", "args": ["/src/packages/mcp/src/server.mjs", "--path", "/x"]}}, "b": {}}})
            .to_string(),
    );
    assert_eq!(code(&fixture.connect(&[])), Some(0));
    let after = read_json(&fixture.opencode_json());
    assert_eq!(
        after,
        json!({"mcp": {"a": {}, "b": {}, "dotaios": expected_entry(&fixture)}})
    );

    fixture.existing(r#"{"mcp":{"a":{},"servers":{},"b":{}}}"#);
    assert_eq!(code(&fixture.connect(&[])), Some(0));
    let mcp: Vec<String> = read_json(&fixture.opencode_json())["mcp"]
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect();
    assert_eq!(mcp, ["a", "b", "dotaios"]);

    fixture.existing(r#"{"mcp":{"servers":null}}"#);
    assert_eq!(code(&fixture.connect(&[])), Some(0));
    assert_eq!(
        read_json(&fixture.opencode_json()),
        json!({"mcp": {"servers": null, "dotaios": expected_entry(&fixture)}})
    );
}

#[test]
fn c27_reference_launchers_are_replaced() {
    let fixture = Fixture::new();
    for program in ["npx", "npx.cmd"] {
        fixture.existing(
            &json!({"mcp": {"dotaios": {"type": "local", "command": [program, "--yes", "--package", "dotaios@2.0.19", "dotaios-mcp", "--path", "/x"], "enabled": true}}})
                .to_string(),
        );
        let output = fixture.connect(&[]);
        assert_eq!(code(&output), Some(0), "{}", texts(&output).1);
        assert_eq!(
            read_json(&fixture.opencode_json())["mcp"]["dotaios"]["command"],
            expected_entry(&fixture)["command"]
        );
    }
}

#[cfg(unix)]
#[test]
fn c18_mode_is_preserved() {
    let fixture = Fixture::new();
    fixture.existing("{}");
    fs::set_permissions(fixture.opencode_json(), fs::Permissions::from_mode(0o640)).unwrap();
    assert_eq!(code(&fixture.connect(&[])), Some(0));
    assert_eq!(mode(&fixture.opencode_json()), 0o640);
}

#[cfg(unix)]
#[test]
fn read_only_file_is_replaced_and_stays_read_only() {
    let fixture = Fixture::new();
    fixture.existing("{\"theme\":\"dark\"}");
    fs::set_permissions(fixture.opencode_json(), fs::Permissions::from_mode(0o444)).unwrap();
    let output = fixture.connect(&[]);
    assert_eq!(code(&output), Some(0), "{}", texts(&output).1);
    assert_eq!(mode(&fixture.opencode_json()), 0o444);
    let after = read_json(&fixture.opencode_json());
    assert_eq!(after["theme"], json!("dark"));
    assert_eq!(after["mcp"]["dotaios"], expected_entry(&fixture));
}

#[test]
fn c19_directory_at_the_file_path_is_refused() {
    let fixture = Fixture::new();
    fs::create_dir_all(fixture.opencode_json()).unwrap();
    for extra in [&[][..], &["--dry-run"][..]] {
        let output = fixture.connect(extra);
        let (_, stderr) = texts(&output);
        assert_eq!(code(&output), Some(1));
        assert_eq!(
            stderr,
            format!(
                "Could not read existing {} (EISDIR). Refusing to overwrite it.\n",
                fixture.opencode_json().display()
            )
        );
    }
    assert!(fixture.opencode_json().is_dir());
}

#[cfg(unix)]
#[test]
fn c20_c43_symlinked_file_is_refused_and_left_intact() {
    let fixture = Fixture::new();
    let target = fixture.root().join("dotfiles-opencode.json");
    fs::write(&target, "{\"theme\":\"dark\"}").unwrap();
    fs::create_dir_all(fixture.opencode_json().parent().unwrap()).unwrap();
    symlink(&target, fixture.opencode_json()).unwrap();
    for extra in [&[][..], &["--dry-run"][..]] {
        let output = fixture.connect(extra);
        let (stdout, stderr) = texts(&output);
        assert_eq!(code(&output), Some(1), "{stdout}");
        assert_eq!(
            stderr,
            format!(
                "Existing {} is not a regular file. Refusing to overwrite it.\n",
                fixture.opencode_json().display()
            )
        );
        assert!(!stdout.contains("Would write"));
    }
    assert_eq!(fs::read_link(fixture.opencode_json()).unwrap(), target);
    assert_eq!(fs::read_to_string(&target).unwrap(), "{\"theme\":\"dark\"}");
    // A dangling link reads as "no file", and is still refused at the write.
    fs::remove_file(&target).unwrap();
    let output = fixture.connect(&[]);
    assert!(texts(&output).1.contains("is not a regular file"));
    assert!(!target.exists());
}

#[test]
fn c43_dry_run_writes_nothing() {
    let fixture = Fixture::new();
    let before = fingerprint(fixture.root());
    let output = fixture.connect(&["--dry-run"]);
    let (stdout, stderr) = texts(&output);
    assert_eq!(code(&output), Some(0), "{stderr}");
    assert!(
        stdout.contains(
            "[info] ~/.config/opencode not found — will create\n\nWould write:\n  ~/.config/opencode/opencode.json  — MCP server entry\n"
        ),
        "{stdout}"
    );
    let (_, entry) = stdout.split_once("mcp.dotaios would be:\n").unwrap();
    assert_eq!(
        serde_json::from_str::<Value>(entry).unwrap(),
        expected_entry(&fixture)
    );
    assert_eq!(before, fingerprint(fixture.root()));

    fixture.existing("{\"theme\":\"dark\"}");
    let before = fingerprint(fixture.root());
    let output = fixture.connect(&["--dry-run"]);
    assert_eq!(code(&output), Some(0));
    assert!(texts(&output).0.contains("[ok] ~/.config/opencode found\n"));
    assert_eq!(before, fingerprint(fixture.root()));
}

#[test]
fn c24_c47_usage_errors_touch_nothing() {
    let fixture = Fixture::new();
    let before = fingerprint(fixture.root());
    for (args, message) in [
        (
            &["connect", "opencode", "--status"][..],
            "Unknown option: --status",
        ),
        (
            &["connect", "opencode", "--gws-bin", "x"][..],
            "Unknown option: --gws-bin",
        ),
        (
            &["connect", "opencode", "--json"][..],
            "Unknown option: --json",
        ),
        (
            &["connect"][..],
            "Usage: dotaios connect opencode [--dry-run] [--path <dir>] [--launcher <path>]",
        ),
        (
            &["connect", "google"][..],
            "Unsupported connection: google. Supported: opencode",
        ),
        (
            &["connect", "opencod"][..],
            "Unsupported connection: opencod. Supported: opencode. Did you mean opencode?",
        ),
        (
            &["connect", "opencode", "extra"][..],
            "Unexpected argument: extra",
        ),
    ] {
        let output = fixture.run_with_adapter(args);
        assert_refused(&output, message);
        assert!(output.stdout.is_empty(), "{args:?}");
    }
    assert_eq!(before, fingerprint(fixture.root()));
    let help = fixture
        .command()
        .args(["connect", "--help"])
        .output()
        .unwrap();
    assert_eq!(code(&help), Some(0));
    assert!(
        texts(&help)
            .0
            .starts_with("Usage:\n  dotaios connect opencode [options]\n")
    );
}

#[test]
fn connect_refuses_a_disposable_default_launcher() {
    let fixture = Fixture::new();
    adapter();
    let output = fixture.run(&["connect", "opencode"]);
    let (_, stderr) = texts(&output);
    assert_eq!(code(&output), Some(1));
    assert!(
        stderr.starts_with("Refusing to use the dotaios-mcp launcher at "),
        "{stderr}"
    );
    assert!(!fixture.home().join(".config").exists());
}

#[test]
fn connect_follows_xdg_config_home() {
    let fixture = Fixture::new();
    let xdg = fixture.root().join("xdg");
    let output = fixture.run_with_xdg(&xdg, &["connect", "opencode"]);
    let (stdout, stderr) = texts(&output);
    assert_eq!(code(&output), Some(0), "{stderr}");
    let file = support::below(&xdg, "opencode/opencode.json");
    assert!(
        stdout.contains(&format!("[ok] {} (MCP server entry)", file.display())),
        "{stdout}"
    );
    assert_eq!(read_json(&file)["mcp"]["dotaios"], expected_entry(&fixture));
    assert!(!fixture.home().join(".config").exists());
    // The opencode hint follows the same file when no --home is given.
    let hint = fixture.run_with_xdg(&xdg, &["mcp", "config", "--agent", "opencode"]);
    assert_eq!(
        line_value(&texts(&hint).0, "Suggested target: "),
        file.to_str().unwrap()
    );
    // A relative XDG_CONFIG_HOME is ignored, as the XDG rules say.
    let relative = fixture.run_with_xdg("relative/xdg", &["connect", "opencode", "--dry-run"]);
    assert!(
        texts(&relative)
            .0
            .contains("  ~/.config/opencode/opencode.json  — MCP server entry")
    );
}

#[test]
fn kimi_target_follows_kimi_code_home_without_home_flag() {
    let fixture = Fixture::new();
    let target = |kimi_code_home: &str, extra: &[&str]| {
        let mut args = vec!["mcp", "install", "--dry-run", "--agent", "kimi"];
        args.extend_from_slice(extra);
        let output = fixture
            .adapter_command(&args)
            .env("KIMI_CODE_HOME", kimi_code_home)
            .current_dir(fixture.root())
            .output()
            .unwrap();
        let (stdout, stderr) = texts(&output);
        assert_eq!(code(&output), Some(0), "{stderr}");
        line_value(&stdout, "Suggested target: ").to_owned()
    };
    // Kimi Code reads `$KIMI_CODE_HOME/mcp.json` (contract 06 §5.2); a relative value is
    // resolved against the working directory, as Kimi Code resolves it.
    let kimi = fixture.root().join("kimi-home");
    assert_eq!(
        target(kimi.to_str().unwrap(), &[]),
        kimi.join("mcp.json").to_str().unwrap()
    );
    assert_eq!(
        target("relative/kimi", &[]),
        support::below(fixture.root(), "relative/kimi/mcp.json")
            .to_str()
            .unwrap()
    );
    // Empty means unset; an explicit --home names another user's home, so the variable of
    // this one does not apply.
    let default = support::below(&fixture.home(), ".kimi-code/mcp.json");
    assert_eq!(target("", &[]), default.to_str().unwrap());
    let other = fixture.root().join("other");
    assert_eq!(
        target(kimi.to_str().unwrap(), &["--home", other.to_str().unwrap()]),
        support::below(&other, ".kimi-code/mcp.json")
            .to_str()
            .unwrap()
    );
    // Only the kimi hint reads it.
    let claude = fixture
        .adapter_command(&["mcp", "install", "--dry-run", "--agent", "claude"])
        .env("KIMI_CODE_HOME", &kimi)
        .output()
        .unwrap();
    assert_eq!(
        line_value(&texts(&claude).0, "Suggested target: "),
        fixture.home().join(".claude.json").to_str().unwrap()
    );
    assert!(!kimi.exists(), "install must never create anything");
}

#[cfg(unix)]
#[test]
fn symlinked_config_directory_is_followed() {
    let fixture = Fixture::new();
    let dotfiles = fixture.root().join("dotfiles/opencode");
    fs::create_dir_all(&dotfiles).unwrap();
    fs::create_dir_all(fixture.home().join(".config")).unwrap();
    symlink(&dotfiles, fixture.home().join(".config/opencode")).unwrap();
    let output = fixture.connect(&[]);
    let (stdout, stderr) = texts(&output);
    assert_eq!(code(&output), Some(0), "{stderr}");
    assert!(stdout.contains("[ok] ~/.config/opencode found\n"));
    assert_eq!(
        read_json(&dotfiles.join("opencode.json"))["mcp"]["dotaios"],
        expected_entry(&fixture)
    );
}
