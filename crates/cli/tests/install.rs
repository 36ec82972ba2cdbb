//! The README's install command (contract 06 §1.7): `cargo install --locked --path crates/cli` puts
//! `dotaios` and `dotaios-mcp` side by side, and the installed pair wires a client. It builds
//! the package from scratch into a temporary root, so it is `#[ignore]`d by default; `.ci/run`
//! runs it (`cargo test -p dotaios --test install -- --ignored`).
#![allow(
    clippy::disallowed_methods,
    reason = "tests build and inspect their folders with std::fs"
)]

mod support;

use std::path::Path;
use std::process::Command;

use support::texts;

#[test]
#[ignore = "builds and installs the package (minutes); run by .ci/run"]
fn readme_install_yields_both_binaries_that_wire_a_client() {
    let repository = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let readme = std::fs::read_to_string(repository.join("README.md")).unwrap();
    let install = "cargo install --locked --path crates/cli";
    assert!(
        readme.contains(install),
        "README no longer shows `{install}`"
    );

    let temp = tempfile::tempdir().unwrap();
    let root = temp.path().join("root");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = Command::new(cargo)
        .current_dir(&repository)
        .args(["install", "--locked", "--path", "crates/cli", "--root"])
        .arg(&root)
        // An exported CARGO_TARGET_DIR (as in .ci/run) keeps the release build cached.
        .env(
            "CARGO_TARGET_DIR",
            std::env::var_os("CARGO_TARGET_DIR")
                .unwrap_or_else(|| temp.path().join("target").into()),
        )
        .status()
        .unwrap();
    assert!(status.success());
    let bin = root.join("bin");
    let (cli, adapter) = (
        bin.join(support::exe("dotaios")),
        bin.join(support::exe("dotaios-mcp")),
    );
    assert!(cli.is_file() && adapter.is_file(), "{}", bin.display());

    let home = temp.path().join("home");
    std::fs::create_dir(&home).unwrap();
    let run = |args: &[&str]| {
        Command::new(&cli)
            .args(args)
            .env("HOME", &home)
            .env("USERPROFILE", &home)
            .env_remove("DOTAIOS_PATH")
            .output()
            .unwrap()
    };
    let version = Command::new(&adapter).arg("--version").output().unwrap();
    assert_eq!(
        String::from_utf8_lossy(&version.stdout),
        format!("{}\n", env!("CARGO_PKG_VERSION"))
    );
    let init = run(&["init", "--yes"]);
    assert_eq!(init.status.code(), Some(0), "{:?}", texts(&init));
    // The installed adapter is found next to the installed CLI, without --launcher (a root
    // under the temporary directory counts as disposable, so status warns and its [next]
    // line names the launcher; a real install root such as ~/.cargo does not).
    let status = run(&["mcp", "status"]);
    let (stdout, stderr) = texts(&status);
    assert_eq!(status.status.code(), Some(0), "{stdout}{stderr}");
    assert!(
        stdout.contains(&format!("MCP server launcher: {}", adapter.display())),
        "{stdout}"
    );
    assert!(
        stdout.contains("[ok] Read-only tools: read_working_context, search_aios, resolve_skill\n")
    );
    let next = format!(
        "[next] Run `dotaios mcp install --dry-run --agent claude --launcher {}` to print client config.\n",
        adapter.display()
    );
    assert!(stdout.contains(&next), "{stdout}");
    let adapter_text = adapter.to_str().unwrap();
    let install = run(&[
        "mcp",
        "install",
        "--dry-run",
        "--agent",
        "claude",
        "--launcher",
        adapter_text,
    ]);
    let (stdout, stderr) = texts(&install);
    assert_eq!(install.status.code(), Some(0), "{stdout}{stderr}");
    assert!(
        stdout.contains(&format!("\"command\": \"{adapter_text}\"")),
        "{stdout}"
    );
    assert!(stdout.contains(&format!("Launcher: {adapter_text}\n")));
}
