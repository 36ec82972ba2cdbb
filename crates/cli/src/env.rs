//! The process environment the CLI depends on, captured once at start-up so that the rest of
//! the program (and `dotaios-core`, which never reads the environment) receives it explicitly.

use std::ffi::OsString;
use std::path::PathBuf;

/// Everything the CLI reads from its environment.
#[derive(Debug, Clone)]
pub(crate) struct Env {
    /// `$HOME`, when set and non-empty.
    pub(crate) home: Option<PathBuf>,
    /// The working directory; relative `--path` values are made absolute against it.
    pub(crate) cwd: PathBuf,
    /// `DOTAIOS_PATH`, read only by the adapter surfaces (`mcp serve`), never by other commands.
    pub(crate) dotaios_path: Option<OsString>,
}

impl Env {
    pub(crate) fn capture() -> Env {
        let home = std::env::var_os("HOME")
            .filter(|value| !value.is_empty())
            .map(PathBuf::from);
        let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
        let dotaios_path = std::env::var_os("DOTAIOS_PATH").filter(|value| !value.is_empty());
        Env {
            home,
            cwd,
            dotaios_path,
        }
    }

    /// The home directory, or `/` when `HOME` is unset (the folder check then fails with the
    /// usual "No AIOS folder found" line rather than a special error).
    pub(crate) fn home_or_root(&self) -> PathBuf {
        self.home.clone().unwrap_or_else(|| PathBuf::from("/"))
    }
}
