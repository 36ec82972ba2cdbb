//! `mcp install` run from an npm platform package or a PyPI wheel install prints the
//! version-pinned package launcher; from a plain directory it keeps the executable path and its
//! disposable-location refusal (contract 06 §2).
#![allow(
    clippy::disallowed_methods,
    reason = "tests build and inspect their folders with std::fs"
)]

mod support;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The npm platform package this host installs (`scripts/release.sh`).
const NPM_PLATFORM: &str = if cfg!(windows) {
    "dotaios-rs-win32-x64"
} else {
    "dotaios-rs-linux-x64"
};

fn aios() -> PathBuf {
    support::sample_aios()
}

/// Copies `dotaios` (and the adapter beside it) into `bin`.
fn install_binaries(bin: &Path) -> PathBuf {
    fs::create_dir_all(bin).unwrap();
    let cli = Path::new(env!("CARGO_BIN_EXE_dotaios"));
    support::copy_executable(cli, &bin.join(support::exe("dotaios")));
    support::copy_executable(
        &cli.with_file_name(support::exe("dotaios-mcp")),
        &bin.join(support::exe("dotaios-mcp")),
    );
    bin.join(support::exe("dotaios"))
}

fn mcp_install(exe: &Path, home: &Path, agent: &str) -> Output {
    mcp_install_with_path(exe, home, agent, "/usr/bin:/bin")
}

fn mcp_install_with_path(exe: &Path, home: &Path, agent: &str, path: &str) -> Output {
    Command::new(exe)
        .env("HOME", home)
        .env("USERPROFILE", home)
        .env("PATH", path)
        .args(["mcp", "install", "--dry-run", "--agent", agent, "--path"])
        .arg(aios())
        .output()
        .unwrap()
}

fn stdout(output: &Output) -> String {
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout.clone()).unwrap()
}

#[test]
fn npm_platform_package_prints_pinned_npx() {
    let temp = tempfile::tempdir().unwrap();
    let package = temp.path().join("node_modules").join(NPM_PLATFORM);
    let exe = install_binaries(&package.join("bin"));
    fs::write(
        package.join("package.json"),
        format!(r#"{{"name":"{NPM_PLATFORM}","version":"{VERSION}"}}"#),
    )
    .unwrap();
    let text = stdout(&mcp_install(&exe, temp.path(), "claude"));
    let folder = aios();
    // The folder as JSON writes it (a Windows path's backslashes doubled).
    let folder = serde_json::to_string(folder.to_str().unwrap()).unwrap();
    let folder = folder.trim_matches('"');
    // On Windows `npx` is the batch file `npx.cmd`, started through `cmd /c` (contract 06 §2).
    let (shown, command, wrapped) = if cfg!(windows) {
        ("cmd /c npx", "cmd", "\"/c\",\n        \"npx\",\n        ")
    } else {
        ("npx", "npx", "")
    };
    assert!(
        text.contains(&format!(
            "\nLauncher: {shown} -y --package dotaios-rs@{VERSION} dotaios-mcp\n"
        )),
        "{text}"
    );
    let expected = format!(
        "{{\n  \"mcpServers\": {{\n    \"dotaios\": {{\n      \"command\": \"{command}\",\n      \"args\": [\n        {wrapped}\"-y\",\n        \"--package\",\n        \"dotaios-rs@{VERSION}\",\n        \"dotaios-mcp\",\n        \"--path\",\n        \"{folder}\"\n      ]\n    }}\n  }}\n}}\n"
    );
    assert!(text.contains(&expected), "{text}");
}

#[cfg(unix)]
#[test]
fn pypi_wheel_prints_pinned_uvx() {
    let temp = tempfile::tempdir().unwrap();
    let venv = support::wheel_venv(temp.path(), "python3.11");
    let exe = install_binaries(&venv.join("bin"));
    // The `uvx` launcher is printed only where `uvx` is found (contract 06 §2.4).
    let tools = temp.path().join("tools");
    support::fake_uvx(&tools);
    let path = format!("{}:/usr/bin:/bin", tools.display());
    let text = stdout(&mcp_install_with_path(&exe, temp.path(), "codex", &path));
    let folder = aios();
    assert!(
        text.contains(&format!(
            "[mcp_servers.dotaios]\ncommand = \"uvx\"\nargs = [\"--from\",\"dotaios-rs=={VERSION}\",\"dotaios-mcp\",\"--path\",\"{}\"]\n",
            folder.display()
        )),
        "{text}"
    );
}

#[test]
fn plain_directory_keeps_the_path_launcher_and_its_refusal() {
    let temp = tempfile::tempdir().unwrap();
    // A package.json for another version is not this install: the executable path is used, and
    // a temporary directory is refused as before.
    let package = temp.path().join("node_modules").join(NPM_PLATFORM);
    let exe = install_binaries(&package.join("bin"));
    fs::write(
        package.join("package.json"),
        format!(r#"{{"name":"{NPM_PLATFORM}","version":"0.0.0-other"}}"#),
    )
    .unwrap();
    let output = mcp_install(&exe, temp.path(), "claude");
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("Refusing to use the dotaios-mcp launcher at"),
        "{stderr}"
    );
}
