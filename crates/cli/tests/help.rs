//! The top-level dispatcher (spec 06 §1.1, §1.5).

mod support;

use support::{dotaios, sample_copy};

/// Spec 06 §1.5: every dispatchable command appears at the start of an indented help line.
#[test]
fn top_level_help_lists_every_command() {
    let temp = sample_copy();
    let output = dotaios(&temp.path().join("home"))
        .arg("--help")
        .output()
        .unwrap();
    let help = String::from_utf8(output.stdout).unwrap();
    for command in [
        "init", "brief", "search", "skills", "doctor", "migrate", "mcp", "connect", "demo",
    ] {
        assert!(
            help.lines()
                .any(|line| line.starts_with("  ") && line.trim_start().starts_with(command)),
            "{command} missing from:\n{help}"
        );
    }
}

#[test]
fn unknown_command_is_one_stderr_line_help_on_stdout_and_exit_1() {
    let temp = sample_copy();
    let output = dotaios(&temp.path().join("home"))
        .arg("frobnicate")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "Unknown command: frobnicate\n"
    );
    assert!(
        String::from_utf8_lossy(&output.stdout).starts_with("DotAIOS — local AIOS folder tools")
    );
    let version = dotaios(&temp.path().join("home"))
        .arg("-v")
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&version.stdout),
        format!("{}\n", env!("CARGO_PKG_VERSION"))
    );
}
