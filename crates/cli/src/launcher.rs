//! Which `dotaios-mcp` executable client configurations start (contract 06 §2): the explicit
//! `--launcher`, or the adapter installed next to the running `dotaios`, and whether that
//! default lies in a build or temporary directory that may disappear.
//!
//! Used by `mcp status`, `mcp install|config` and `connect opencode`. The launcher path is kept
//! as resolved (absolute, never canonicalised), because that is the text users see and clients
//! start; canonical paths are only consulted to recognise disposable locations.
//!
//! It also owns the install hint every message prints (`install_command`): the path install inside
//! a clone of the repository, the published crate elsewhere (contract 06 §1.7), so that the
//! printed command works where it is printed.
//!
//! What it must never do: start the launcher, write anything, or refuse an explicit
//! `--launcher` for its location. It reads only file metadata, and one bounded manifest read to
//! recognise a clone.

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

use dotaios_core::folder::location::{absolutize, expand_tilde};

use crate::sys::Os;
use crate::{CliError, Env};

/// The adapter's file name (contract 06 §2.1: `dotaios-mcp.exe` on Windows).
pub(crate) const ADAPTER_NAME: &str = if cfg!(windows) {
    "dotaios-mcp.exe"
} else {
    "dotaios-mcp"
};

/// The command that installs `dotaios` and `dotaios-mcp` side by side from the root of a clone
/// of the repository (contract 06 §1.7).
pub(crate) const INSTALL_COMMAND: &str = "cargo install --locked --path crates/cli";
/// The same from the published crate, for a working directory outside any clone.
pub(crate) const PUBLISHED_INSTALL_COMMAND: &str = "cargo install --locked dotaios";
/// A clone's `crates/cli/Cargo.toml` is far smaller; a larger file is not ours.
const MAX_MANIFEST_BYTES: u64 = 64 * 1024;
/// The CLI's file name, looked up in `PATH` (`dotaios.exe` on Windows).
pub(crate) const CLI_NAME: &str = if cfg!(windows) {
    "dotaios.exe"
} else {
    "dotaios"
};

/// The process facts launcher resolution depends on, captured once by the command so that the
/// lookup itself is a pure function of them (and testable with invented facts).
#[derive(Debug, Clone)]
pub(crate) struct ProcessFacts {
    /// `argv[0]` as the program was invoked.
    pub(crate) invocation: Option<OsString>,
    /// `PATH`.
    pub(crate) path_var: Option<OsString>,
    /// The running executable as the operating system reports it (symlinks resolved).
    pub(crate) current_exe: Option<PathBuf>,
    /// The system temporary directory (`TMPDIR`, or `/tmp`; on Windows `TMP`, `TEMP`, …).
    pub(crate) temp_dir: PathBuf,
    /// The working directory, for lexical absolutisation.
    pub(crate) cwd: PathBuf,
    /// The home directory, for `~` expansion of `--launcher`.
    pub(crate) home: PathBuf,
}

impl ProcessFacts {
    /// Reads the facts from this process. `Env` holds what every command needs; these few
    /// values matter only to launcher resolution, so they are read here, once per command.
    pub(crate) fn capture(env: &Env) -> ProcessFacts {
        ProcessFacts {
            invocation: std::env::args_os().next(),
            path_var: std::env::var_os("PATH"),
            current_exe: std::env::current_exe().ok(),
            temp_dir: std::env::temp_dir(),
            cwd: env.cwd.clone(),
            home: env.home_or_root(),
        }
    }
}

/// How the launcher was chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Source {
    /// `--launcher <path>`.
    Flag,
    /// The adapter installed next to `dotaios`.
    Default,
}

impl Source {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Source::Flag => "flag",
            Source::Default => "default",
        }
    }
}

/// A resolved launcher.
#[derive(Debug, Clone)]
pub(crate) struct Launcher {
    /// Absolute, not canonicalised.
    pub(crate) path: PathBuf,
    pub(crate) source: Source,
    /// A default launcher inside a build or temporary directory (always `false` for `--launcher`,
    /// whose location is the user's explicit choice).
    pub(crate) disposable: bool,
}

/// Why no launcher could be resolved.
#[derive(Debug, thiserror::Error)]
pub(crate) enum LauncherError {
    /// The explicit `--launcher` is missing, not a regular file, or not executable.
    #[error("Launcher not found or not executable: {}", .0.display())]
    NotExecutable(PathBuf),
    /// No directory next to `dotaios` holds an executable adapter; `install` is the install
    /// command that works in the working directory ([`install_command`]).
    #[error(
        "Could not find the dotaios-mcp adapter next to dotaios. Install both binaries together ({install} installs both), or pass --launcher <path>."
    )]
    NotFound { install: String },
}

/// Resolves the launcher (§2.1): the explicit flag if given, else the adapter next to
/// `dotaios`. A default launcher's location is checked but not refused here; callers that
/// write client configuration call [`refuse_disposable`].
pub(crate) fn resolve(
    explicit: Option<&OsStr>,
    facts: &ProcessFacts,
) -> Result<Launcher, LauncherError> {
    if let Some(raw) = explicit {
        let path = absolutize(&expand_tilde(raw, &facts.home), &facts.cwd);
        if !is_executable_file(&path) {
            return Err(LauncherError::NotExecutable(path));
        }
        return Ok(Launcher {
            path,
            source: Source::Flag,
            disposable: false,
        });
    }
    let path = default_candidates(facts)
        .into_iter()
        .map(|dir| dir.join(ADAPTER_NAME))
        .find(|path| is_executable_file(path))
        .ok_or_else(|| LauncherError::NotFound {
            install: install_command(&facts.cwd),
        })?;
    let disposable = is_disposable(&path, &temp_roots(&facts.temp_dir));
    Ok(Launcher {
        path,
        source: Source::Default,
        disposable,
    })
}

/// The §2.2 refusal, for commands that put the launcher into a client configuration. `rerun`
/// is the caller's own command line with `--launcher <that path>` added: the first suggestion,
/// because it works where it is printed (contract 06 §2.2). A launcher in a cargo build
/// directory was built, not installed, so the install command comes second; one in a
/// temporary directory was installed there, and installing again would land in the same place.
pub(crate) fn refuse_disposable(
    launcher: &Launcher,
    facts: &ProcessFacts,
    rerun: impl FnOnce(&Path) -> String,
) -> Result<(), CliError> {
    if launcher.source == Source::Default && launcher.disposable {
        let install = is_build_output(&launcher.path).then(|| install_command(&facts.cwd));
        return Err(CliError::DisposableLauncher {
            path: launcher.path.clone(),
            rerun: rerun(&launcher.path),
            install,
        });
    }
    Ok(())
}

/// The install command that works in `cwd` (contract 06 §1.7): [`INSTALL_COMMAND`] at the root
/// of a clone, the same with the clone's absolute `crates/cli` below it, and
/// [`PUBLISHED_INSTALL_COMMAND`] outside any clone.
pub(crate) fn install_command(cwd: &Path) -> String {
    match cwd.ancestors().find(|dir| is_clone(dir)) {
        Some(root) if root == cwd => INSTALL_COMMAND.to_owned(),
        Some(root) => format!(
            "cargo install --locked --path {}",
            crate::output::shell_quote(&crate::output::below(root, ["crates", "cli"]))
        ),
        None => PUBLISHED_INSTALL_COMMAND.to_owned(),
    }
}

/// `dir` is a clone of this repository: a `Cargo.lock`, and a `crates/cli/Cargo.toml` that
/// declares the `dotaios` package.
fn is_clone(dir: &Path) -> bool {
    use std::io::Read;
    if !dir.join("Cargo.lock").is_file() {
        return false;
    }
    let Ok(file) = std::fs::File::open(dir.join("crates/cli/Cargo.toml")) else {
        return false;
    };
    let mut text = String::new();
    if file
        .take(MAX_MANIFEST_BYTES)
        .read_to_string(&mut text)
        .is_err()
    {
        return false;
    }
    text.lines()
        .skip_while(|line| line.trim() != "[package]")
        .take_while(|line| !line.trim().starts_with("[[") && !line.trim().starts_with("[lib"))
        .any(|line| line.trim() == "name = \"dotaios\"")
}

/// The first `PATH` directory (made absolute) holding an executable `name`.
pub(crate) fn find_in_path(name: &str, facts: &ProcessFacts) -> Option<PathBuf> {
    let path_var = facts.path_var.as_deref()?;
    std::env::split_paths(path_var)
        // An empty entry means "the current directory" to a shell; a launcher path must not
        // depend on where the command happened to run.
        .filter(|dir| !dir.as_os_str().is_empty())
        .map(|dir| absolutize(&dir, &facts.cwd))
        .find(|dir| is_executable_file(&dir.join(name)))
}

/// The directories that may hold the adapter, in the order of §2.1 step 2: the invocation
/// directory when `argv[0]` names a path, otherwise the first `PATH` directory holding an
/// executable `dotaios`; then the running executable's own directory.
fn default_candidates(facts: &ProcessFacts) -> Vec<PathBuf> {
    let mut candidates = Vec::new();
    let invoked_with_path = facts
        .invocation
        .as_deref()
        .filter(|invocation| has_separator(invocation));
    match invoked_with_path {
        Some(invocation) => {
            if let Some(dir) = absolutize(Path::new(invocation), &facts.cwd).parent() {
                candidates.push(dir.to_path_buf());
            }
        }
        None => candidates.extend(find_in_path(CLI_NAME, facts)),
    }
    if let Some(dir) = facts.current_exe.as_deref().and_then(Path::parent) {
        candidates.push(dir.to_path_buf());
    }
    candidates
}

fn has_separator(invocation: &OsStr) -> bool {
    invocation
        .as_encoded_bytes()
        .iter()
        .any(|byte| std::path::is_separator(char::from(*byte)))
}

/// An existing regular file (symlinks followed) that this platform executes: on Unix one
/// with an execute bit set, on Windows one named `.exe` or `.com` (what a client can start
/// without a shell, contract 06 §2.3).
pub(crate) fn is_executable_file(path: &Path) -> bool {
    let Ok(meta) = std::fs::metadata(path) else {
        return false;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        meta.is_file() && meta.permissions().mode() & 0o111 != 0
    }
    #[cfg(windows)]
    {
        meta.is_file()
            && path.extension().is_some_and(|extension| {
                extension.eq_ignore_ascii_case("exe") || extension.eq_ignore_ascii_case("com")
            })
    }
}

/// The temporary roots of §2.2, each as given and canonicalised (so a temporary directory
/// reached through a symlinked `/tmp`, or on Windows through its `\\?\` or 8.3 form, is
/// recognised). The filesystem root itself is never a temporary root, even if `TMPDIR=/`:
/// that would make every location disposable.
pub(crate) fn temp_roots(temp_dir: &Path) -> Vec<PathBuf> {
    let mut roots = Vec::new();
    let unix_roots = [
        Path::new("/tmp"),
        Path::new("/var/tmp"),
        Path::new("/dev/shm"),
    ];
    let unix_roots: &[&Path] = match Os::HOST {
        Os::Unix => &unix_roots,
        Os::Windows => &[],
    };
    let given = std::iter::once(temp_dir).chain(unix_roots.iter().copied());
    for root in given {
        if !root.is_absolute() || root.parent().is_none() {
            continue;
        }
        roots.push(root.to_path_buf());
        if let Ok(canonical) = std::fs::canonicalize(root)
            && canonical.parent().is_some()
        {
            roots.push(canonical);
        }
    }
    roots
}

/// Whether `path` (as given, or with every symlink resolved) lies in a cargo build directory
/// or below one of `temp_roots` (§2.2).
pub(crate) fn is_disposable(path: &Path, temp_roots: &[PathBuf]) -> bool {
    let mut forms = vec![path.to_path_buf()];
    if let Ok(canonical) = std::fs::canonicalize(path) {
        forms.push(canonical);
    }
    forms.iter().any(|form| {
        in_cargo_target(form)
            || temp_roots
                .iter()
                .any(|root| is_within(form, root, Os::HOST))
    })
}

/// Whether `path` (as given, or with every symlink resolved) lies in a cargo build directory:
/// built there, not installed.
pub(crate) fn is_build_output(path: &Path) -> bool {
    in_cargo_target(path)
        || std::fs::canonicalize(path).is_ok_and(|canonical| in_cargo_target(&canonical))
}

/// A `CACHEDIR.TAG` in some ancestor (cargo tags every target directory with one, wherever
/// `CARGO_TARGET_DIR` puts it), or a `target` component followed later by `debug` or `release`.
fn in_cargo_target(path: &Path) -> bool {
    let tagged = path
        .ancestors()
        .skip(1)
        .any(|dir| dir.join("CACHEDIR.TAG").symlink_metadata().is_ok());
    tagged || has_target_profile(&path.to_string_lossy(), Os::HOST)
}

/// A component `target` followed later by `debug` or `release`; on Windows components are
/// split at `\` and `/` and compared case-insensitively. Pure, so that both platforms' rules
/// are tested everywhere.
fn has_target_profile(path: &str, os: Os) -> bool {
    let same = |component: &str, name: &str| match os {
        Os::Unix => component == name,
        Os::Windows => component.eq_ignore_ascii_case(name),
    };
    let separators: &[char] = match os {
        Os::Unix => &['/'],
        Os::Windows => &['\\', '/'],
    };
    let mut seen_target = false;
    for component in path.split(separators) {
        if seen_target && (same(component, "debug") || same(component, "release")) {
            return true;
        }
        if same(component, "target") {
            seen_target = true;
        }
    }
    false
}

/// Whether `path` is `root` or lies below it. Unix: component-wise, exactly. Windows: on the
/// comparable form of [`windows_key`], so that case, `/` versus `\` and the `\\?\` prefix
/// that canonical paths carry do not matter. Pure on the path text.
pub(crate) fn is_within(path: &Path, root: &Path, os: Os) -> bool {
    match os {
        Os::Unix => path.starts_with(root),
        Os::Windows => {
            let path = windows_key(&path.to_string_lossy());
            let root = windows_key(&root.to_string_lossy());
            !root.is_empty()
                && path
                    .strip_prefix(root.as_str())
                    .is_some_and(|rest| rest.is_empty() || rest.starts_with('\\'))
        }
    }
}

/// A Windows path in a form two spellings of one location share: `/` written `\`, the
/// verbatim and NT prefixes dropped (`\\?\C:\x` and `\??\C:\x` → `C:\x`,
/// `\\?\UNC\srv\share` → `\\srv\share`), no trailing separator (`C:\` → `C:`), and
/// every character that has a one-character upper case upper-cased (NTFS compares names
/// through its upcase table; a character whose upper case is longer, such as `ß`, is kept).
fn windows_key(path: &str) -> String {
    let path = path.replace('/', "\\");
    let path = if let Some(rest) = path
        .strip_prefix(r"\\?\UNC\")
        .or_else(|| path.strip_prefix(r"\??\UNC\"))
    {
        format!(r"\\{rest}")
    } else if let Some(rest) = path
        .strip_prefix(r"\\?\")
        .or_else(|| path.strip_prefix(r"\??\"))
    {
        rest.to_owned()
    } else {
        path
    };
    let trimmed = path.trim_end_matches('\\');
    trimmed
        .chars()
        .map(|c| {
            let mut upper = c.to_uppercase();
            match (upper.next(), upper.next()) {
                (Some(single), None) => single,
                _ => c,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::fs;
    #[cfg(unix)]
    use std::os::unix::fs::{PermissionsExt, symlink};

    use super::*;

    #[cfg(unix)]
    fn executable(path: &Path) {
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, "#!/bin/sh\n").unwrap();
        fs::set_permissions(path, fs::Permissions::from_mode(0o755)).unwrap();
    }

    #[test]
    fn windows_paths_compare_without_case_prefix_or_separator_style() {
        let within =
            |path: &str, root: &str| is_within(Path::new(path), Path::new(root), Os::Windows);
        let temp = r"C:\Users\Ada\AppData\Local\Temp";
        assert!(within(
            r"\\?\C:\users\ada\appdata\local\TEMP\x\dotaios-mcp.exe",
            temp
        ));
        assert!(within(
            r"c:/Users/ada/AppData/Local/Temp/dotaios-mcp.exe",
            temp
        ));
        assert!(within(
            r"C:\Users\Ada\AppData\Local\Temp",
            r"\\?\C:\Users\Ada\AppData\Local\Temp\"
        ));
        assert!(within(r"\\?\UNC\srv\share\tmp\a.exe", r"\\SRV\Share\tmp"));
        assert!(within(r"C:\Ünï\a.exe", r"c:\ünÏ"));
        // A sibling whose name only starts with the root's is not below it.
        assert!(!within(r"C:\Users\Ada\AppData\Local\Temporary\a.exe", temp));
        assert!(!within(r"D:\Users\Ada\AppData\Local\Temp\a.exe", temp));
        // Unix paths keep their case.
        assert!(!is_within(Path::new("/TMP/a"), Path::new("/tmp"), Os::Unix));
        assert!(is_within(Path::new("/tmp/a"), Path::new("/tmp"), Os::Unix));
    }

    #[test]
    fn cargo_profiles_are_found_by_each_platforms_rules() {
        assert!(has_target_profile(
            r"C:\src\Target\Release\dotaios-mcp.exe",
            Os::Windows
        ));
        assert!(has_target_profile(
            r"C:/src/target/debug/dotaios-mcp.exe",
            Os::Windows
        ));
        assert!(!has_target_profile(
            r"C:\src\target\dotaios-mcp.exe",
            Os::Windows
        ));
        assert!(!has_target_profile(
            "/src/Target/Release/dotaios-mcp",
            Os::Unix
        ));
        assert!(has_target_profile(
            "/src/target/release/dotaios-mcp",
            Os::Unix
        ));
    }

    #[cfg(unix)]
    fn facts(root: &Path) -> ProcessFacts {
        ProcessFacts {
            invocation: None,
            path_var: None,
            current_exe: None,
            temp_dir: root.join("no-such-temp"),
            cwd: root.to_path_buf(),
            home: root.join("home"),
        }
    }

    // Unix file names, modes and links; the Windows rules are tested as pure functions.
    #[cfg(unix)]
    #[test]
    fn explicit_launcher_must_be_an_executable_file() {
        let temp = tempfile::tempdir().unwrap();
        let facts = facts(temp.path());
        let script = temp.path().join("bin/adapter");
        executable(&script);
        let plain = temp.path().join("plain");
        fs::write(&plain, "").unwrap();
        let found = resolve(Some(OsStr::new("bin/adapter")), &facts).unwrap();
        assert_eq!(found.path, script);
        assert_eq!(found.source, Source::Flag);
        assert!(
            !found.disposable,
            "an explicit launcher is never disposable"
        );
        for bad in ["plain", "bin", "missing"] {
            let error = resolve(Some(OsStr::new(bad)), &facts).unwrap_err();
            assert_eq!(
                error.to_string(),
                format!(
                    "Launcher not found or not executable: {}",
                    temp.path().join(bad).display()
                )
            );
        }
    }

    // Unix file names, modes and links; the Windows rules are tested as pure functions.
    #[cfg(unix)]
    #[test]
    fn explicit_launcher_expands_tilde() {
        let temp = tempfile::tempdir().unwrap();
        let facts = facts(temp.path());
        executable(&temp.path().join("home/bin/dotaios-mcp"));
        let found = resolve(Some(OsStr::new("~/bin/dotaios-mcp")), &facts).unwrap();
        assert_eq!(found.path, temp.path().join("home/bin/dotaios-mcp"));
    }

    // Unix file names, modes and links; the Windows rules are tested as pure functions.
    #[cfg(unix)]
    #[test]
    fn invocation_directory_comes_first_and_is_not_canonicalised() {
        let temp = tempfile::tempdir().unwrap();
        executable(&temp.path().join("real/dotaios-mcp"));
        executable(&temp.path().join("real/dotaios"));
        executable(&temp.path().join("exe/dotaios-mcp"));
        symlink(temp.path().join("real"), temp.path().join("link")).unwrap();
        let mut facts = facts(temp.path());
        facts.invocation = Some(OsString::from("link/./dotaios"));
        facts.current_exe = Some(temp.path().join("exe/dotaios"));
        let found = resolve(None, &facts).unwrap();
        assert_eq!(found.path, temp.path().join("link/dotaios-mcp"));
        assert_eq!(found.source, Source::Default);
    }

    // Unix file names, modes and links; the Windows rules are tested as pure functions.
    #[cfg(unix)]
    #[test]
    fn path_lookup_then_current_exe() {
        let temp = tempfile::tempdir().unwrap();
        executable(&temp.path().join("first/dotaios"));
        executable(&temp.path().join("second/dotaios"));
        executable(&temp.path().join("second/dotaios-mcp"));
        executable(&temp.path().join("exe/dotaios-mcp"));
        let mut facts = facts(temp.path());
        facts.invocation = Some(OsString::from("dotaios"));
        facts.current_exe = Some(temp.path().join("exe/dotaios"));
        facts.path_var = Some(
            std::env::join_paths([temp.path().join("first"), temp.path().join("second")]).unwrap(),
        );
        // The first PATH directory with `dotaios` has no adapter: the OS-reported directory wins.
        assert_eq!(
            resolve(None, &facts).unwrap().path,
            temp.path().join("exe/dotaios-mcp")
        );
        executable(&temp.path().join("first/dotaios-mcp"));
        assert_eq!(
            resolve(None, &facts).unwrap().path,
            temp.path().join("first/dotaios-mcp")
        );
        facts.current_exe = None;
        fs::remove_file(temp.path().join("first/dotaios-mcp")).unwrap();
        assert!(matches!(
            resolve(None, &facts),
            Err(LauncherError::NotFound { .. })
        ));
    }

    // Unix file names, modes and links; the Windows rules are tested as pure functions.
    #[cfg(unix)]
    #[test]
    fn cargo_target_directories_are_disposable() {
        let temp = tempfile::tempdir().unwrap();
        let no_roots: Vec<PathBuf> = Vec::new();
        assert!(is_disposable(
            Path::new("/opt/x/target/debug/dotaios-mcp"),
            &no_roots
        ));
        assert!(is_disposable(
            Path::new("/opt/target/x86_64-unknown-linux-gnu/release/dotaios-mcp"),
            &no_roots
        ));
        assert!(!is_disposable(
            Path::new("/opt/debug/target/dotaios-mcp"),
            &no_roots
        ));
        let tagged = temp.path().join("build-out");
        executable(&tagged.join("deep/dotaios-mcp"));
        fs::write(
            tagged.join("CACHEDIR.TAG"),
            "Signature: 8a477f597d28d172789f06886806bc55\n",
        )
        .unwrap();
        assert!(is_disposable(&tagged.join("deep/dotaios-mcp"), &no_roots));
        let plain = temp.path().join("plain/dotaios-mcp");
        executable(&plain);
        assert!(!is_disposable(&plain, &no_roots));
    }

    // Unix file names, modes and links; the Windows rules are tested as pure functions.
    #[cfg(unix)]
    #[test]
    fn temporary_directories_are_recognised_through_symlinks() {
        let temp = tempfile::tempdir().unwrap();
        let scratch = temp.path().join("scratch");
        executable(&scratch.join("dotaios-mcp"));
        let alias = temp.path().join("alias");
        symlink(&scratch, &alias).unwrap();
        let roots = vec![fs::canonicalize(&scratch).unwrap()];
        // Reached through the alias, the canonical form still lies below the root.
        assert!(is_disposable(&alias.join("dotaios-mcp"), &roots));
        let elsewhere = temp.path().join("elsewhere/dotaios-mcp");
        executable(&elsewhere);
        assert!(!is_disposable(&elsewhere, &roots));
    }

    #[test]
    fn the_install_command_follows_the_working_directory() {
        let temp = tempfile::tempdir().unwrap();
        let root = temp.path().join("clone");
        fs::create_dir_all(root.join("crates/cli/src")).unwrap();
        fs::write(root.join("Cargo.lock"), "").unwrap();
        fs::write(
            root.join("crates/cli/Cargo.toml"),
            "[package]\nname = \"dotaios\"\n\n[lib]\nname = \"dotaios_cli\"\n",
        )
        .unwrap();
        assert_eq!(install_command(&root), INSTALL_COMMAND);
        assert_eq!(
            install_command(&root.join("crates/cli/src")),
            format!(
                "cargo install --locked --path {}",
                root.join("crates").join("cli").display()
            )
        );
        assert_eq!(install_command(temp.path()), PUBLISHED_INSTALL_COMMAND);
        // Another workspace's `crates/cli` is not this repository.
        fs::write(
            root.join("crates/cli/Cargo.toml"),
            "[package]\nname = \"other\"\n\n[lib]\nname = \"dotaios\"\n",
        )
        .unwrap();
        assert_eq!(install_command(&root), PUBLISHED_INSTALL_COMMAND);
    }

    // Unix file names, modes and links; the Windows rules are tested as pure functions.
    #[cfg(unix)]
    #[test]
    fn filesystem_root_is_never_a_temporary_root() {
        let roots = temp_roots(Path::new("/"));
        assert!(
            roots.iter().all(|root| root.parent().is_some()),
            "{roots:?}"
        );
        assert!(roots.contains(&PathBuf::from("/tmp")));
    }
}
