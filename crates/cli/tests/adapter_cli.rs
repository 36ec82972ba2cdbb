//! The `dotaios-mcp` binary's own command line (contract 05 §1): it ships in this package, says
//! what it is, prints its version, and tells a person who starts it at a terminal what it waits
//! for; and `dotaios mcp serve` answers byte for byte as it does (contract 05 §14 item 61).
#![allow(
    clippy::disallowed_methods,
    reason = "tests build and inspect their folders with std::fs"
)]
// Helpers and imports of the Unix-only cases (links, modes, FIFOs) are unused on Windows.
#![cfg_attr(not(unix), allow(unused_imports, dead_code))]

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const ADAPTER: &str = env!("CARGO_BIN_EXE_dotaios-mcp");

#[test]
fn help_says_what_it_is_and_version_prints_the_version() {
    let help = Command::new(ADAPTER).arg("--help").output().unwrap();
    assert_eq!(help.status.code(), Some(0));
    let text = String::from_utf8(help.stdout).unwrap();
    for needle in [
        "Usage:\n  dotaios-mcp [options]\n",
        "This starts the optional read-only DotAIOS stdio adapter",
        "An MCP client",
        "AIOS folder: --path if given, else $DOTAIOS_PATH, else ~/aios.",
        "DOTAIOS_SEARCH_CACHE=off",
        "dotaios mcp status",
        "dotaios mcp install --dry-run --agent <agent>",
        "-V, --version",
    ] {
        assert!(text.contains(needle), "{needle}\n{text}");
    }
    for flag in ["--version", "-V"] {
        let version = Command::new(ADAPTER).arg(flag).output().unwrap();
        assert_eq!(version.status.code(), Some(0));
        assert_eq!(
            String::from_utf8_lossy(&version.stdout),
            format!("{}\n", env!("CARGO_PKG_VERSION"))
        );
        assert!(version.stderr.is_empty());
    }
}

#[cfg(unix)]
/// Started by hand (stdin is a terminal): one line on stderr, nothing on stdout; closing the
/// terminal ends it. With a pipe as stdin (every other test) stderr stays empty.
#[test]
fn at_a_terminal_it_says_it_waits_for_a_client() {
    #[cfg(unix)]
    use rustix::pty::{OpenptFlags, grantpt, openpt, ptsname, unlockpt};
    let master = openpt(OpenptFlags::RDWR | OpenptFlags::NOCTTY).unwrap();
    // The child must not inherit the terminal's other end.
    rustix::io::fcntl_setfd(&master, rustix::io::FdFlags::CLOEXEC).unwrap();
    grantpt(&master).unwrap();
    unlockpt(&master).unwrap();
    let name = ptsname(&master, Vec::new()).unwrap();
    let slave = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(name.to_str().unwrap())
        .unwrap();
    let home = tempfile::tempdir().unwrap();
    let mut child = Command::new(ADAPTER)
        .env("HOME", home.path())
        .env("USERPROFILE", home.path())
        .env_remove("DOTAIOS_PATH")
        .stdin(Stdio::from(slave))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    // The home holds no aios.json: first the path-free line saying so (contract 05 §1.4).
    let mut line = String::new();
    stderr.read_line(&mut line).unwrap();
    assert_eq!(
        line,
        format!("dotaios-mcp: {}\n", dotaios_core::error::NO_FOLDER_MESSAGE)
    );
    assert!(!line.contains(&*home.path().to_string_lossy()));
    line.clear();
    stderr.read_line(&mut line).unwrap();
    assert_eq!(
        line,
        "dotaios-mcp is waiting for an MCP client on stdin (an MCP client starts it; press Ctrl-D to stop).\n"
    );
    // Ctrl-D, as the line says, ends the adapter's input: exit 0 at end of input.
    let mut terminal = std::fs::File::from(master);
    std::io::Write::write_all(&mut terminal, b"\x04").unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            child.kill().unwrap();
            panic!("the adapter did not stop at Ctrl-D");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(child.wait().unwrap().code(), Some(0));
    drop(terminal);
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stderr, &mut rest).unwrap();
    assert_eq!(rest, "");
    let mut stdout = String::new();
    std::io::Read::read_to_string(&mut child.stdout.take().unwrap(), &mut stdout).unwrap();
    assert_eq!(stdout, "");

    // With a pipe as stdin: only the missing-folder line; once the folder exists, nothing.
    let piped = || {
        Command::new(ADAPTER)
            .env("HOME", home.path())
            .env("USERPROFILE", home.path())
            .env_remove("DOTAIOS_PATH")
            .stdin(Stdio::null())
            .output()
            .unwrap()
    };
    let first = piped();
    assert_eq!(first.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&first.stderr),
        format!("dotaios-mcp: {}\n", dotaios_core::error::NO_FOLDER_MESSAGE)
    );
    assert!(first.stdout.is_empty());
    std::fs::create_dir(home.path().join("aios")).unwrap();
    std::fs::write(home.path().join("aios/aios.json"), "{}\n").unwrap();
    let again = piped();
    assert_eq!(again.status.code(), Some(0));
    assert!(again.stderr.is_empty() && again.stdout.is_empty());
}

/// Item 61 (contract 05 §14): `dotaios mcp serve` runs the same code as `dotaios-mcp`.
#[test]
fn item_61_cli_serve_is_byte_identical() {
    let folder = dotaios_testkit::Folder::fresh();
    let transcripts: [&[&str]; 3] = [
        &[
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_working_context","arguments":{"budget":20}}}"#,
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search_aios","arguments":{"query":"x","limit":100}}}"#,
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"log_event","arguments":{}}}"#,
        ],
        &[
            r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}"#,
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}"#,
        ],
        &["null", "42", r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#],
    ];
    let limit = dotaios_testkit::DEFAULT_LIMIT;
    for lines in transcripts {
        let input: String = lines.iter().map(|line| format!("{line}\n")).collect();
        let adapter_run = dotaios_testkit::run(
            Command::new(ADAPTER).arg("--path").arg(folder.path()),
            input.as_bytes(),
            limit,
        );
        let cli_run = dotaios_testkit::run(
            Command::new(env!("CARGO_BIN_EXE_dotaios"))
                .args(["mcp", "--path"])
                .arg(folder.path())
                .arg("serve"),
            input.as_bytes(),
            limit,
        );
        assert_eq!(adapter_run.code(), Some(0));
        assert_eq!(cli_run.code(), Some(0));
        assert_eq!(cli_run.stderr_text(), "");
        assert!(!adapter_run.stdout.is_empty(), "the adapter answered");
        assert_eq!(adapter_run.stdout_text(), cli_run.stdout_text());
    }
    let help = dotaios_testkit::output(
        Command::new(env!("CARGO_BIN_EXE_dotaios")).args(["mcp", "serve", "--help"]),
    );
    assert!(
        help.stdout_text()
            .starts_with("Usage:\n  dotaios mcp serve [options]\n")
    );
    let bogus = dotaios_testkit::output(
        Command::new(env!("CARGO_BIN_EXE_dotaios")).args(["mcp", "serve", "--agent", "x"]),
    );
    assert_eq!(bogus.code(), Some(1));
    assert_eq!(bogus.stderr_text(), "Unknown option: --agent\n");
}

/// Without `HOME`, both binaries take the platform's home (contract 01 §1.2), the one capture
/// in `dotaios_mcp::Environment`: `dotaios` suggests the client file there, as the adapter
/// would resolve `~/aios` there. The platform's answer comes from bash, which expands `~` from
/// the password database when `HOME` is unset.
#[test]
#[cfg_attr(
    windows,
    ignore = "asks bash for the platform home, which Windows lacks"
)]
fn without_home_the_cli_uses_the_platform_home_as_the_adapter_does() {
    let home = Command::new("bash")
        .args(["-c", "echo ~"])
        .env_remove("HOME")
        .env_remove("USERPROFILE")
        .output()
        .unwrap();
    let home = String::from_utf8(home.stdout).unwrap().trim().to_owned();
    assert!(
        home.starts_with('/') && home != "/",
        "platform home: {home:?}"
    );
    let output = Command::new(env!("CARGO_BIN_EXE_dotaios"))
        .args(["mcp", "install", "--dry-run", "--agent", "claude"])
        .args(["--launcher", ADAPTER, "--path"])
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/aios"))
        .env_remove("HOME")
        .env_remove("USERPROFILE")
        .env_remove("DOTAIOS_PATH")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    let expected = format!("Suggested target: {home}/.claude.json\n");
    assert!(stdout.contains(&expected), "{expected}\n{stdout}");
}
