//! Whether the running `dotaios` came from a package registry install — the npm platform
//! package or the PyPI wheel that `scripts/release.sh` builds — and, if so, the version-pinned
//! launcher a client configuration should start instead of the executable's own path (contract
//! 06 §2, "Changed: package installs"). `npx` and `uvx` keep their binaries in caches that are
//! replaced on upgrade, so a fragment naming that path would break; the pinned launcher does not.
//!
//! Detection reads only files next to the running executable (symlinks resolved, as the
//! operating system reports it):
//! - npm: the executable is `<pkg>/bin/<name>` where `<pkg>/package.json` names a platform
//!   package `dotaios-rs-<os>-<cpu>` at this binary's own version;
//! - PyPI: the executable is `<prefix>/bin/<name>` where
//!   `<prefix>/lib/python*/site-packages/dotaios_rs-<version>.dist-info/` exists for this
//!   binary's own version (pip, pipx and uv all install a wheel's scripts that way).
//!
//! A version that differs from the binary's own is not recognised (a stale or foreign package
//! must never be pinned). What it must never do: write anything, start a process, or guess from
//! environment variables a user may have set for other reasons.

use std::path::Path;

use crate::sys::Os;

/// The npm launcher package and the prefix of its per-platform packages.
pub(crate) const NPM_PACKAGE: &str = "dotaios-rs";
/// The PyPI distribution.
pub(crate) const PYPI_PACKAGE: &str = "dotaios-rs";
/// The distribution name as a wheel's `.dist-info` directory spells it (PEP 427: `-` → `_`).
const PYPI_DIST_INFO_STEM: &str = "dotaios_rs";

/// Where the running binary was installed from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum PackageInstall {
    /// An npm platform package (reached through `npx` or a global `npm install`).
    Npm { version: String },
    /// The PyPI wheel (pip, pipx or uv).
    PyPi { version: String },
}

impl PackageInstall {
    /// The program and the arguments before `--path <folder>` that start the adapter at exactly
    /// this version, for a client on `os`. On Windows `npx` is a batch file (`npx.cmd`), which
    /// a client that spawns without a shell cannot start, so it runs as `cmd /c npx …` there
    /// (the form Claude Code documents; `docs/decisions.md`, "Writers, launcher and client configurations on Windows").
    /// `uvx` is a native `uvx.exe` and needs no wrapper.
    pub(crate) fn launcher(&self, os: Os) -> (&'static str, Vec<String>) {
        match self {
            PackageInstall::Npm { version } => {
                let npx = [
                    "npx".to_owned(),
                    "-y".to_owned(),
                    "--package".to_owned(),
                    format!("{NPM_PACKAGE}@{version}"),
                    "dotaios-mcp".to_owned(),
                ];
                match os {
                    Os::Unix => ("npx", npx[1..].to_vec()),
                    Os::Windows => ("cmd", std::iter::once("/c".to_owned()).chain(npx).collect()),
                }
            }
            PackageInstall::PyPi { version } => (
                "uvx",
                vec![
                    "--from".to_owned(),
                    format!("{PYPI_PACKAGE}=={version}"),
                    "dotaios-mcp".to_owned(),
                ],
            ),
        }
    }

    /// The executable that must be on `PATH` for [`PackageInstall::launcher`] to work, where
    /// that is checked: `uvx` (`uvx.exe` on Windows) for the wheel, nothing for npm, whose
    /// `npx` comes with the Node.js that installed the package.
    pub(crate) fn required_program(&self, os: Os) -> Option<&'static str> {
        match (self, os) {
            (PackageInstall::Npm { .. }, _) => None,
            (PackageInstall::PyPi { .. }, Os::Unix) => Some("uvx"),
            (PackageInstall::PyPi { .. }, Os::Windows) => Some("uvx.exe"),
        }
    }
}

/// The package install that holds `exe` at `own_version`, if any, laid out as on `os`: npm's
/// `<pkg>/bin/<exe>` everywhere; a wheel's `<prefix>/bin/<exe>` with
/// `<prefix>/lib/python*/site-packages` on Unix and `<prefix>\Scripts\<exe>` with
/// `<prefix>\Lib\site-packages` on Windows (where names compare case-insensitively).
pub(crate) fn detect(exe: &Path, own_version: &str, os: Os) -> Option<PackageInstall> {
    let bin_dir = exe.parent()?;
    let bin_name = bin_dir.file_name()?;
    let is_named = |expected: &str| match os {
        Os::Unix => bin_name == expected,
        Os::Windows => bin_name.eq_ignore_ascii_case(expected),
    };
    let prefix = bin_dir.parent()?;
    if is_named("bin") && npm_platform_package(prefix, own_version) {
        return Some(PackageInstall::Npm {
            version: own_version.to_owned(),
        });
    }
    let wheel = match os {
        Os::Unix => is_named("bin") && unix_dist_info(prefix, own_version),
        Os::Windows => {
            is_named("Scripts")
                && prefix
                    .join("Lib")
                    .join("site-packages")
                    .join(dist_info_name(own_version))
                    .is_dir()
        }
    };
    wheel.then(|| PackageInstall::PyPi {
        version: own_version.to_owned(),
    })
}

fn dist_info_name(version: &str) -> String {
    format!("{PYPI_DIST_INFO_STEM}-{version}.dist-info")
}

/// `<dir>/package.json` names `dotaios-rs-<platform>` at `version`.
fn npm_platform_package(dir: &Path, version: &str) -> bool {
    let Ok(text) = std::fs::read_to_string(dir.join("package.json")) else {
        return false;
    };
    let Ok(manifest) = serde_json::from_str::<serde_json::Value>(&text) else {
        return false;
    };
    let name = manifest.get("name").and_then(serde_json::Value::as_str);
    let found = manifest.get("version").and_then(serde_json::Value::as_str);
    let platform_prefix = format!("{NPM_PACKAGE}-");
    name.is_some_and(|name| name.starts_with(&platform_prefix)) && found == Some(version)
}

/// `<prefix>/lib/python*/site-packages/dotaios_rs-<version>.dist-info` is a directory.
fn unix_dist_info(prefix: &Path, version: &str) -> bool {
    let Ok(entries) = std::fs::read_dir(prefix.join("lib")) else {
        return false;
    };
    let dist_info = dist_info_name(version);
    entries.flatten().any(|entry| {
        entry.file_name().to_string_lossy().starts_with("python")
            && entry.path().join("site-packages").join(&dist_info).is_dir()
    })
}

#[cfg(test)]
mod tests {
    use std::fs;

    use super::*;

    fn npm_package(root: &Path, name: &str, version: &str) -> std::path::PathBuf {
        let dir = root.join("node_modules").join(name);
        fs::create_dir_all(dir.join("bin")).unwrap();
        fs::write(
            dir.join("package.json"),
            format!(r#"{{"name":"{name}","version":"{version}","os":["linux"]}}"#),
        )
        .unwrap();
        dir.join("bin/dotaios")
    }

    #[test]
    fn npm_platform_package_at_own_version() {
        let temp = tempfile::tempdir().unwrap();
        let exe = npm_package(temp.path(), "dotaios-rs-linux-x64", "1.2.3");
        assert_eq!(
            detect(&exe, "1.2.3", Os::Unix),
            Some(PackageInstall::Npm {
                version: "1.2.3".to_owned()
            })
        );
        // Another version, another package, or a file outside `bin/` is not this install.
        assert_eq!(detect(&exe, "1.2.4", Os::Unix), None);
        let foreign = npm_package(temp.path(), "dotaios", "1.2.3");
        assert_eq!(detect(&foreign, "1.2.3", Os::Unix), None);
        let beside = exe.parent().unwrap().parent().unwrap().join("dotaios");
        assert_eq!(detect(&beside, "1.2.3", Os::Unix), None);
    }

    #[test]
    fn broken_package_json_is_not_an_install() {
        let temp = tempfile::tempdir().unwrap();
        let exe = npm_package(temp.path(), "dotaios-rs-darwin-arm64", "1.0.0");
        let manifest = exe.parent().unwrap().parent().unwrap().join("package.json");
        fs::write(&manifest, "{not json").unwrap();
        assert_eq!(detect(&exe, "1.0.0", Os::Unix), None);
    }

    #[test]
    fn pypi_wheel_in_a_venv() {
        let temp = tempfile::tempdir().unwrap();
        let venv = temp.path().join("venvs/dotaios-rs");
        fs::create_dir_all(venv.join("lib/python3.12/site-packages/dotaios_rs-0.4.0.dist-info"))
            .unwrap();
        fs::create_dir_all(venv.join("bin")).unwrap();
        let exe = venv.join("bin/dotaios");
        assert_eq!(
            detect(&exe, "0.4.0", Os::Unix),
            Some(PackageInstall::PyPi {
                version: "0.4.0".to_owned()
            })
        );
        assert_eq!(detect(&exe, "0.4.1", Os::Unix), None);
        // A plain prefix such as ~/.cargo/bin has neither marker.
        let cargo_bin = temp.path().join(".cargo/bin/dotaios");
        fs::create_dir_all(cargo_bin.parent().unwrap()).unwrap();
        assert_eq!(detect(&cargo_bin, "0.4.0", Os::Unix), None);
    }

    #[test]
    fn launchers_are_version_pinned() {
        let npm = PackageInstall::Npm {
            version: "0.1.0".to_owned(),
        };
        assert_eq!(
            npm.launcher(Os::Unix),
            (
                "npx",
                vec![
                    "-y".to_owned(),
                    "--package".to_owned(),
                    "dotaios-rs@0.1.0".to_owned(),
                    "dotaios-mcp".to_owned()
                ]
            )
        );
        let pypi = PackageInstall::PyPi {
            version: "0.1.0".to_owned(),
        };
        assert_eq!(
            pypi.launcher(Os::Unix),
            (
                "uvx",
                vec![
                    "--from".to_owned(),
                    "dotaios-rs==0.1.0".to_owned(),
                    "dotaios-mcp".to_owned()
                ]
            )
        );
    }

    #[test]
    fn windows_launchers_wrap_npx_in_cmd_and_start_uvx_directly() {
        let npm = PackageInstall::Npm {
            version: "0.1.0".to_owned(),
        };
        assert_eq!(
            npm.launcher(Os::Windows),
            (
                "cmd",
                [
                    "/c",
                    "npx",
                    "-y",
                    "--package",
                    "dotaios-rs@0.1.0",
                    "dotaios-mcp"
                ]
                .map(str::to_owned)
                .to_vec()
            )
        );
        assert_eq!(npm.required_program(Os::Windows), None);
        let pypi = PackageInstall::PyPi {
            version: "0.1.0".to_owned(),
        };
        assert_eq!(pypi.launcher(Os::Windows), pypi.launcher(Os::Unix));
        assert_eq!(pypi.required_program(Os::Windows), Some("uvx.exe"));
        assert_eq!(pypi.required_program(Os::Unix), Some("uvx"));
    }

    #[test]
    fn windows_package_layouts() {
        let temp = tempfile::tempdir().unwrap();
        let exe = npm_package(temp.path(), "dotaios-rs-win32-x64", "1.2.3");
        assert_eq!(
            detect(&exe.with_extension("exe"), "1.2.3", Os::Windows),
            Some(PackageInstall::Npm {
                version: "1.2.3".to_owned()
            })
        );
        let venv = temp.path().join("venv");
        fs::create_dir_all(venv.join("Lib/site-packages/dotaios_rs-0.4.0.dist-info")).unwrap();
        fs::create_dir_all(venv.join("Scripts")).unwrap();
        let exe = venv.join("Scripts/dotaios.exe");
        assert_eq!(
            detect(&exe, "0.4.0", Os::Windows),
            Some(PackageInstall::PyPi {
                version: "0.4.0".to_owned()
            })
        );
        assert_eq!(detect(&exe, "0.4.0", Os::Unix), None);
        assert_eq!(detect(&exe, "0.4.1", Os::Windows), None);
    }
}
