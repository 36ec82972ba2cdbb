//! Exit codes and output streams (contract 06 §1.3): every write to stdout is checked (a full
//! disk is one line on stderr and status 1, a closed pipe a quiet status 0), the one exit-code
//! table (usage errors are 1, whatever is missing), and nothing on stdout before an error is
//! known. Also the adapter binary's stdout: a lost stdout ends the server, silently, status 1
//! (contract 05 §2.4).
#![allow(
    clippy::disallowed_methods,
    reason = "tests build and inspect their folders with std::fs"
)]

mod support;

use std::process::{Command, Stdio};

use support::{dotaios, sample_copy, texts};

/// One command of every kind that prints: the demo (which must still remove its temporary
/// folder), the read commands, the help, the completions and the version.
#[cfg(unix)]
const PRINTING: &[&[&str]] = &[
    &["demo"],
    &["doctor", "--path", "AIOS"],
    &["search", "launch", "--path", "AIOS"],
    &["brief", "--compact", "--path", "AIOS"],
    &["skills", "--path", "AIOS"],
    &["skills", "resolve", "plan my day", "--path", "AIOS"],
    &["completions", "bash"],
    &["--version"],
    &["help", "search"],
    &["mcp", "status", "--help"],
];

/// `dotaios args…` in `temp` (`AIOS` stands for its sample folder), with a temporary directory
/// of its own so that the demo's clean-up can be checked.
fn command(temp: &tempfile::TempDir, args: &[&str]) -> Command {
    let aios = temp.path().join("aios");
    let scratch = temp.path().join("tmp");
    std::fs::create_dir_all(&scratch).unwrap();
    let mut command = dotaios(&temp.path().join("home"));
    command.env("TMPDIR", &scratch).stdin(Stdio::null());
    for arg in args {
        if *arg == "AIOS" {
            command.arg(&aios);
        } else {
            command.arg(arg);
        }
    }
    command
}

#[cfg(unix)]
fn scratch_is_empty(temp: &tempfile::TempDir) -> bool {
    std::fs::read_dir(temp.path().join("tmp"))
        .unwrap()
        .next()
        .is_none()
}

/// `> /dev/full`: ENOSPC on the first write. One path-free line, status 1.
#[cfg(target_os = "linux")]
#[test]
fn a_failed_write_is_one_line_and_status_1() {
    let temp = sample_copy();
    for args in PRINTING {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let output = command(&temp, args).stdout(full).output().unwrap();
        let (_, stderr) = texts(&output);
        assert_eq!(output.status.code(), Some(1), "{args:?}: {stderr}");
        assert_eq!(
            stderr, "dotaios: could not write output: No space left on device\n",
            "{args:?}"
        );
        assert!(
            scratch_is_empty(&temp),
            "{args:?} left its temporary folder"
        );
    }
}

/// A reader that went away before the first write (`dotaios … | head` at its limit): EPIPE.
/// Nothing on stderr, status 0.
#[cfg(unix)]
#[test]
fn a_closed_stdout_ends_quietly_with_status_0() {
    let temp = sample_copy();
    for args in PRINTING {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let output = command(&temp, args).stdout(writer).output().unwrap();
        let (_, stderr) = texts(&output);
        assert_eq!(output.status.code(), Some(0), "{args:?}: {stderr}");
        assert_eq!(stderr, "", "{args:?}");
        assert!(
            scratch_is_empty(&temp),
            "{args:?} left its temporary folder"
        );
    }
}

/// A missing argument is a usage error, status 1, whichever command it is; the message is on
/// stderr and stdout stays empty.
#[test]
fn every_missing_argument_is_a_usage_error_with_status_1() {
    let temp = sample_copy();
    for (args, message) in [
        (&["search"][..], "Usage: dotaios search <query>"),
        (
            &["search", "--path", "AIOS"],
            "Usage: dotaios search <query>",
        ),
        (&["completions"], "Usage: dotaios completions"),
        (&["connect"], "Usage: dotaios connect"),
        (
            &["brief", "--path", "AIOS"],
            "dotaios brief prints the working context only; pass --compact.",
        ),
        (
            &["skills", "resolve", "--path", "AIOS"],
            "Pass an intent to resolve",
        ),
    ] {
        let output = command(&temp, args).output().unwrap();
        let (stdout, stderr) = texts(&output);
        assert_eq!(output.status.code(), Some(1), "{args:?}: {stderr}");
        assert_eq!(stdout, "", "{args:?}");
        assert!(stderr.starts_with(message), "{args:?}: {stderr}");
    }
}

/// `search` prints its receipt line with its results, never before the folder check fails.
#[test]
fn search_prints_nothing_before_a_failure() {
    let temp = sample_copy();
    let missing = temp.path().join("missing");
    for extra in [&[][..], &["--memory", "project", "--project", "x"]] {
        let output = dotaios(&temp.path().join("home"))
            .args(["search", "launch", "--path"])
            .arg(&missing)
            .args(extra)
            .output()
            .unwrap();
        let (stdout, stderr) = texts(&output);
        assert_eq!(output.status.code(), Some(1), "{stderr}");
        assert_eq!(stdout, "");
        assert!(stderr.starts_with("No AIOS folder found at "), "{stderr}");
    }
    let output = command(&temp, &["search", "launch", "--path", "AIOS"])
        .output()
        .unwrap();
    let (stdout, _) = texts(&output);
    assert!(
        stdout.starts_with("Memory: Shared\nSearching for \"launch\" in all...\n"),
        "{stdout}"
    );
}

/// The adapter's answers to a stdout that cannot take them end the server: status 1, nothing
/// on stderr (contract 05 §2.4), for a full disk and for a closed pipe.
#[cfg(unix)]
#[test]
fn the_adapter_ends_when_its_stdout_is_lost() {
    use std::io::Write;

    let temp = sample_copy();
    let mut sinks: Vec<Stdio> = Vec::new();
    if cfg!(target_os = "linux") {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        sinks.push(full.into());
    }
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    sinks.push(writer.into());
    for sink in sinks {
        let mut child = Command::new(env!("CARGO_BIN_EXE_dotaios-mcp"))
            .arg("--path")
            .arg(temp.path().join("aios"))
            .env("HOME", temp.path().join("home"))
            .stdin(Stdio::piped())
            .stdout(sink)
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        // The server stops at the first answer it cannot write, so the later lines may meet a
        // closed stdin: their failure is expected.
        for _ in 0..3 {
            let _ = stdin.write_all(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n");
        }
        drop(stdin);
        let output = child.wait_with_output().unwrap();
        assert_eq!(output.status.code(), Some(1));
        assert_eq!(texts(&output).1, "");
    }
}
