//! Every next step the CLI prints works where it is printed (contract 06 §1.7, §2.2, §2.4):
//! each test lays out one install situation (a cargo install under a temporary CARGO_HOME, a
//! wheel in a venv with or without `uvx`, a build outside or inside a clone), reads the
//! suggestion from the built binaries' output and, where it runs offline, runs it.
#![allow(
    clippy::disallowed_methods,
    reason = "tests build and inspect their folders with std::fs"
)]
// Helpers and imports of the Unix-only cases (links, modes, FIFOs) are unused on Windows.
#![cfg_attr(not(unix), allow(unused_imports, dead_code))]

mod support;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const VERSION: &str = env!("CARGO_PKG_VERSION");

fn aios() -> PathBuf {
    support::sample_aios()
}

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

/// Copies `dotaios` and the adapter beside it into `bin`, as an install does.
fn install_binaries(bin: &Path) {
    fs::create_dir_all(bin).unwrap();
    let cli = Path::new(env!("CARGO_BIN_EXE_dotaios"));
    support::copy_executable(cli, &bin.join(support::exe("dotaios")));
    support::copy_executable(
        &cli.with_file_name(support::exe("dotaios-mcp")),
        &bin.join(support::exe("dotaios-mcp")),
    );
}

/// A user's shell: `line` run by `/bin/sh` in `cwd` with only `path` on `PATH` and `home` as
/// HOME, so `dotaios` is whatever that `PATH` finds.
fn shell(line: &str, path: &str, home: &Path, cwd: &Path) -> Output {
    Command::new("/bin/sh")
        .args(["-c", line])
        .env_clear()
        .env("PATH", path)
        .env("HOME", home)
        .env("USERPROFILE", home)
        .current_dir(cwd)
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

/// The command in `mcp status`'s `[next] Run `…` to print client config.` line.
fn status_next(stdout: &str) -> String {
    let line = stdout
        .lines()
        .find_map(|line| line.strip_prefix("[next] Run `"))
        .unwrap_or_else(|| panic!("no [next] line:\n{stdout}"));
    line.strip_suffix("` to print client config.")
        .unwrap()
        .to_owned()
}

/// The command after `To use it where it is, run: ` in a refusal.
fn refusal_rerun(stderr: &str) -> String {
    stderr
        .lines()
        .find_map(|line| line.strip_prefix("To use it where it is, run: "))
        .unwrap_or_else(|| panic!("no rerun line:\n{stderr}"))
        .to_owned()
}

/// `install` in `bin` (a temporary directory) with the user's shell; the dry run refuses the
/// disposable launcher, and its suggestion is the `--launcher` line `mcp status` prints, which
/// then succeeds with that launcher.
fn refusal_and_status_agree_and_run(bin: &Path, path: &str, home: &Path, cwd: &Path) {
    let folder = aios();
    let folder = folder.to_str().unwrap();
    let status = shell(
        &format!("dotaios mcp status --path {folder}"),
        path,
        home,
        cwd,
    );
    let status_out = text(&status.stdout);
    assert!(
        status.status.success(),
        "{status_out}{}",
        text(&status.stderr)
    );
    let next = status_next(&status_out);

    let install = shell(
        &format!("dotaios mcp install --dry-run --agent claude --path {folder}"),
        path,
        home,
        cwd,
    );
    assert_eq!(install.status.code(), Some(1));
    let stderr = text(&install.stderr);
    assert!(
        stderr.starts_with("Refusing to use the dotaios-mcp launcher at"),
        "{stderr}"
    );
    // Installed into a temporary directory: installing again would land there too.
    assert!(!stderr.contains("cargo install"), "{stderr}");
    let rerun = refusal_rerun(&stderr);
    assert_eq!(
        rerun, next,
        "mcp install and mcp status suggest different lines"
    );

    let again = shell(&rerun, path, home, cwd);
    let again_out = text(&again.stdout);
    assert!(again.status.success(), "{rerun}: {}", text(&again.stderr));
    assert!(
        again_out.contains(&format!(
            "\nLauncher: {}\n",
            bin.join(support::exe("dotaios-mcp")).display()
        )),
        "{again_out}"
    );
}

#[test]
#[cfg_attr(
    windows,
    ignore = "runs the printed line with /bin/sh, which Windows lacks"
)]
fn a_cargo_install_under_a_temporary_cargo_home_gets_a_line_that_runs() {
    let temp = tempfile::tempdir().unwrap();
    let bin = temp.path().join("cargo/bin");
    install_binaries(&bin);
    let home = temp.path().join("home");
    fs::create_dir_all(&home).unwrap();
    let path = format!("{}:/usr/bin:/bin", bin.display());
    refusal_and_status_agree_and_run(&bin, &path, &home, temp.path());
}

#[cfg(unix)]
#[test]
fn a_wheel_without_uvx_uses_the_venv_adapter_like_status() {
    let temp = tempfile::tempdir().unwrap();
    let venv = support::wheel_venv(temp.path(), "python3.12");
    let bin = venv.join("bin");
    install_binaries(&bin);
    let home = temp.path().join("home");
    fs::create_dir_all(&home).unwrap();
    // Only the venv on PATH: no `uvx` anywhere.
    let path = bin.display().to_string();
    refusal_and_status_agree_and_run(&bin, &path, &home, temp.path());

    // With `uvx` found, the pinned package launcher.
    let tools = temp.path().join("tools");
    support::fake_uvx(&tools);
    let path = format!("{}:{}", bin.display(), tools.display());
    let folder = aios();
    let install = shell(
        &format!(
            "dotaios mcp install --dry-run --agent claude --path {}",
            folder.display()
        ),
        &path,
        &home,
        temp.path(),
    );
    let stdout = text(&install.stdout);
    assert!(install.status.success(), "{}", text(&install.stderr));
    assert!(
        stdout.contains(&format!(
            "\nLauncher: uvx --from dotaios-rs=={VERSION} dotaios-mcp\n"
        )),
        "{stdout}"
    );
}

fn demo_last_line(exe: &Path, home: &Path, cwd: &Path, path: &str) -> String {
    let output = Command::new(exe)
        .arg("demo")
        .env_clear()
        .env("PATH", path)
        .env("HOME", home)
        .env("USERPROFILE", home)
        .current_dir(cwd)
        .output()
        .unwrap();
    let stdout = text(&output.stdout);
    assert!(output.status.success(), "{}", text(&output.stderr));
    stdout.lines().last().unwrap().to_owned()
}

#[test]
#[cfg_attr(
    windows,
    ignore = "runs the printed line with /bin/sh, which Windows lacks"
)]
fn demo_names_the_install_that_works_in_its_working_directory() {
    let temp = tempfile::tempdir().unwrap();
    let home = temp.path().join("home");
    fs::create_dir_all(&home).unwrap();
    let built = Path::new(env!("CARGO_BIN_EXE_dotaios"));

    // Built, run outside any clone: the published crate, never a path that is not there.
    let outside = demo_last_line(built, &home, temp.path(), "/usr/bin:/bin");
    assert_eq!(
        outside,
        "Next: install dotaios and dotaios-mcp: cargo install --locked dotaios"
    );

    // Built, run at the root of the clone: the path install, whose path is this package.
    let root = repo_root();
    let inside = demo_last_line(built, &home, &root, "/usr/bin:/bin");
    let path = inside
        .strip_prefix("Next: install dotaios and dotaios-mcp: cargo install --locked --path ")
        .unwrap_or_else(|| panic!("{inside}"));
    let manifest = fs::read_to_string(root.join(path).join("Cargo.toml")).unwrap();
    assert!(manifest.contains("\nname = \"dotaios\"\n"), "{path}");

    // Installed (under a temporary CARGO_HOME): no install step at all, and the next one runs.
    let bin = temp.path().join("cargo/bin");
    install_binaries(&bin);
    let path = format!("{}:/usr/bin:/bin", bin.display());
    let installed = demo_last_line(
        &bin.join(support::exe("dotaios")),
        &home,
        temp.path(),
        &path,
    );
    assert_eq!(installed, "Next: create your AIOS folder: dotaios init");
}

/// A home with `~/aios` (an AIOS folder) and, when `claude` is set, Claude Code's user
/// configuration holding the `dotaios` server.
fn home_with(root: &Path, folder: bool, claude: bool) -> PathBuf {
    let home = root.join("home");
    fs::create_dir_all(&home).unwrap();
    if folder {
        fs::create_dir_all(home.join("aios")).unwrap();
        fs::write(home.join("aios/aios.json"), "{}\n").unwrap();
    }
    if claude {
        fs::write(
            home.join(".claude.json"),
            r#"{"numStartups":3,"mcpServers":{"dotaios":{"command":"/x/dotaios-mcp","args":["--path","/x/aios"]}}}"#,
        )
        .unwrap();
    }
    home
}

/// `cargo run -- demo` (the build runs) while `PATH` finds an installed pair: the install is
/// done, so the next step is the one after it (issue 39 item 9).
#[test]
#[cfg_attr(windows, ignore = "PATH lists are joined with `:` here")]
fn a_build_run_while_an_installed_pair_is_on_path_skips_the_install_step() {
    let temp = tempfile::tempdir().unwrap();
    let home = home_with(temp.path(), false, false);
    let bin = temp.path().join("cargo/bin");
    install_binaries(&bin);
    let built = Path::new(env!("CARGO_BIN_EXE_dotaios"));
    let path = format!("{}:/usr/bin:/bin", bin.display());
    assert_eq!(
        demo_last_line(built, &home, temp.path(), &path),
        "Next: create your AIOS folder: dotaios init"
    );
    // Only `dotaios` on PATH, without its adapter: not an installed pair.
    fs::remove_file(bin.join(support::exe("dotaios-mcp"))).unwrap();
    assert_eq!(
        demo_last_line(built, &home, temp.path(), &path),
        "Next: install dotaios and dotaios-mcp: cargo install --locked dotaios"
    );
}

/// An installed pair that `PATH` does not find: the printed `dotaios …` commands would not run,
/// so the next step is to put its directory on `PATH`.
#[test]
#[cfg_attr(windows, ignore = "PATH lists are joined with `:` here")]
fn an_installed_pair_off_path_is_named_with_its_directory() {
    let temp = tempfile::tempdir().unwrap();
    let home = home_with(temp.path(), true, false);
    let bin = temp.path().join("cargo/bin");
    install_binaries(&bin);
    assert_eq!(
        demo_last_line(
            &bin.join(support::exe("dotaios")),
            &home,
            temp.path(),
            "/usr/bin:/bin"
        ),
        format!(
            "Next: add {} to PATH: dotaios and dotaios-mcp are installed there",
            bin.display()
        )
    );
}

/// Installed, with a folder: connect a client until a client's configuration holds the server,
/// then use it from that client. Nothing of the home is written.
#[test]
#[cfg_attr(windows, ignore = "PATH lists are joined with `:` here")]
fn demo_knows_whether_a_client_is_configured() {
    let temp = tempfile::tempdir().unwrap();
    let bin = temp.path().join("cargo/bin");
    install_binaries(&bin);
    let exe = bin.join(support::exe("dotaios"));
    let path = format!("{}:/usr/bin:/bin", bin.display());
    let home = home_with(temp.path(), true, false);
    assert_eq!(
        demo_last_line(&exe, &home, temp.path(), &path),
        "Next: connect a client: dotaios mcp install --dry-run --agent claude"
    );
    let home = home_with(temp.path(), true, true);
    let before = dotaios_testkit::fingerprint(&home);
    assert_eq!(
        demo_last_line(&exe, &home, temp.path(), &path),
        "Next: use dotaios from a new claude session; check it: dotaios mcp status"
    );
    assert_eq!(before, dotaios_testkit::fingerprint(&home));
}
