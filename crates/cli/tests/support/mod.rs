//! Helpers shared by the CLI integration tests: a fresh copy of the sample folder, the built
//! binary as a command, and (from `dotaios-testkit`) the whole-tree fingerprint for zero-write
//! assertions.
#![allow(
    clippy::disallowed_methods,
    reason = "test support builds folders with std::fs"
)]
#![allow(dead_code, unreachable_pub)]

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

/// A temp directory holding `aios/`, a copy of the sample folder, and `home/`, an empty home.
pub fn sample_copy() -> tempfile::TempDir {
    let temp = tempfile::tempdir().unwrap();
    dotaios_testkit::write_sample(&temp.path().join("aios"));
    fs::create_dir(temp.path().join("home")).unwrap();
    temp
}

/// `dotaios` with `HOME` pointed at `home` and a clean `DOTAIOS_PATH`.
pub fn dotaios(home: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_dotaios"));
    command
        .env("HOME", home)
        .env("USERPROFILE", home)
        .env_remove("DOTAIOS_PATH");
    command
}

/// Runs `dotaios args…` against `temp/aios` with `temp/home` as home.
pub fn run_on(temp: &tempfile::TempDir, args: &[&str]) -> Output {
    let mut command = dotaios(&temp.path().join("home"));
    command
        .args(args)
        .arg("--path")
        .arg(temp.path().join("aios"));
    command.output().unwrap()
}

/// stdout and stderr as text.
pub fn texts(output: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// `dotaios doctor --json --path <folder>` with `home` as home: the parsed report and the
/// exit code. Every `doctor --json` run of the tests goes through here, so each one is checked
/// to be path-free (contract 01 §10): neither the folder's absolute path (as given or resolved)
/// nor the home directory appears anywhere in the output.
pub fn doctor_json(home: &Path, folder: &Path) -> (serde_json::Value, Option<i32>) {
    let output = dotaios(home)
        .args(["doctor", "--json", "--path"])
        .arg(folder)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let mut paths = vec![
        folder.to_string_lossy().into_owned(),
        home.to_string_lossy().into_owned(),
    ];
    if let Ok(resolved) = fs::canonicalize(folder) {
        paths.push(resolved.to_string_lossy().into_owned());
    }
    for path in paths {
        assert!(
            !stdout.contains(&path),
            "doctor --json leaked {path}: {stdout}"
        );
    }
    let report = serde_json::from_str(&stdout)
        .unwrap_or_else(|_| panic!("doctor --json is not JSON: {stdout}"));
    (report, output.status.code())
}

/// The `fix` of the check named `name` in a `doctor --json` report.
pub fn doctor_fix(report: &serde_json::Value, name: &str) -> Option<String> {
    report["checks"]
        .as_array()?
        .iter()
        .find(|check| check["name"] == name)?["fix"]
        .as_str()
        .map(str::to_owned)
}

/// Makes a FIFO with mode 0644 (the `mkfifo` tool: rustix has no `mkfifoat` on macOS).
pub fn mkfifo(path: &Path) {
    let made = Command::new("mkfifo")
        .args(["-m", "644"])
        .arg(path)
        .status()
        .unwrap();
    assert!(made.success());
}

/// `<root>/venv` laid out as a `dotaios-rs` wheel install of this version under `python`
/// (e.g. `python3.12`): the wheel's `.dist-info` that the package-install detection reads.
/// The binaries still have to be placed in its `bin/`.
pub fn wheel_venv(root: &Path, python: &str) -> std::path::PathBuf {
    let venv = root.join("venv");
    let version = env!("CARGO_PKG_VERSION");
    fs::create_dir_all(venv.join(format!(
        "lib/{python}/site-packages/dotaios_rs-{version}.dist-info"
    )))
    .unwrap();
    venv
}

#[cfg(unix)]
/// An executable `uvx` in `dir` that does nothing: the `uvx` launcher is printed only where
/// `uvx` is found on `PATH` (contract 06 §2.4).
pub fn fake_uvx(dir: &Path) -> std::path::PathBuf {
    fs::create_dir_all(dir).unwrap();
    let uvx = dir.join("uvx");
    write_executable(&uvx, "#!/bin/sh\nexit 0\n");
    uvx
}

/// Copies the executable `from` to `to`, to be run.
///
/// On Unix the copy is made by a `cp` child, never through a file this test process opens for
/// writing: a process that another test thread forks at that moment inherits such a descriptor
/// until it execs, and running the copy meanwhile fails with `ETXTBSY` ("could not start the
/// adapter", once under load).
pub fn copy_executable(from: &Path, to: &Path) {
    #[cfg(unix)]
    {
        let status = Command::new("cp").arg(from).arg(to).status().unwrap();
        assert!(status.success(), "cp {} {}", from.display(), to.display());
    }
    #[cfg(not(unix))]
    {
        fs::copy(from, to).unwrap();
    }
}

/// Writes the script `text` to `path`, executable, by way of [`copy_executable`] (see there).
#[cfg(unix)]
pub fn write_executable(path: &Path, text: &str) {
    use std::os::unix::fs::PermissionsExt;
    let draft = path.with_extension("draft");
    fs::write(&draft, text).unwrap();
    copy_executable(&draft, path);
    fs::remove_file(&draft).unwrap();
    fs::set_permissions(path, fs::Permissions::from_mode(0o755)).unwrap();
}

/// The sample folder `examples/aios` of this checkout, as an absolute path (read, never written).
pub fn sample_aios() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/aios")
        .canonicalize()
        .unwrap()
}

/// `name` as the platform names an executable file (`dotaios-mcp.exe` on Windows).
pub fn exe(name: &str) -> String {
    format!("{name}{}", std::env::consts::EXE_SUFFIX)
}

/// `path` without Windows' verbatim `\\?\` prefix, which `canonicalize` adds there and a path
/// the user typed does not have (the identity elsewhere).
pub fn plain(path: &Path) -> std::path::PathBuf {
    let text = path.to_string_lossy();
    match text.strip_prefix(r"\\?\") {
        Some(rest) if cfg!(windows) && !rest.starts_with("UNC\\") => rest.into(),
        _ => path.to_path_buf(),
    }
}

/// A path cargo gave at build time (`CARGO_BIN_EXE_*`, `CARGO_MANIFEST_DIR`) as the program under
/// test sees it: under Wine, cargo's Unix paths read as `Z:\\…`; elsewhere the path itself.
pub fn native(path: &Path) -> std::path::PathBuf {
    if cfg!(windows) {
        std::path::absolute(path).unwrap()
    } else {
        path.to_path_buf()
    }
}

/// The `/`-separated `relative` below `base`, one component at a time, as the CLI joins the paths
/// it shows (one kind of separator on Windows).
pub fn below(base: &Path, relative: &str) -> std::path::PathBuf {
    relative
        .split('/')
        .fold(base.to_path_buf(), |path, component| path.join(component))
}

/// One `dotaios-mcp --path <aios>` run with `home` as home, `TZ=zone` and a clean
/// `DOTAIOS_PATH`.
pub struct Adapter<'a> {
    pub aios: &'a Path,
    pub home: &'a Path,
    pub zone: &'a str,
}

impl Adapter<'_> {
    /// One `tools/call` per `(tool, arguments)` (ids from 1) on one stdin: the response lines,
    /// parsed, in order.
    pub fn responses(&self, calls: &[(&str, serde_json::Value)]) -> Vec<serde_json::Value> {
        use std::io::Write;
        use std::process::Stdio;
        let mut input = String::new();
        for (id, (tool, arguments)) in calls.iter().enumerate() {
            let request = serde_json::json!({"jsonrpc": "2.0", "id": id + 1,
                "method": "tools/call", "params": {"name": tool, "arguments": arguments}});
            input.push_str(&format!("{request}\n"));
        }
        let mut child = Command::new(env!("CARGO_BIN_EXE_dotaios-mcp"))
            .arg("--path")
            .arg(self.aios)
            .env("HOME", self.home)
            .env("USERPROFILE", self.home)
            .env("TZ", self.zone)
            .env_remove("DOTAIOS_PATH")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
        let output = child.wait_with_output().unwrap();
        String::from_utf8(output.stdout)
            .unwrap()
            .lines()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect()
    }

    /// [`Adapter::responses`], each a tool result whose payload (the parsed result text) is
    /// returned; a JSON-RPC error fails the test.
    pub fn payloads(&self, calls: &[(&str, serde_json::Value)]) -> Vec<serde_json::Value> {
        self.responses(calls)
            .into_iter()
            .map(|response| {
                let text = response["result"]["content"][0]["text"]
                    .as_str()
                    .unwrap_or_else(|| panic!("not a tool result: {response}"));
                serde_json::from_str(text).unwrap()
            })
            .collect()
    }
}
