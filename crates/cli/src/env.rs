//! The process environment the CLI depends on, captured once at start-up so that the rest of
//! the program (and `dotaios-core`, which never reads the environment) receives it explicitly.

use std::ffi::OsString;
use std::path::PathBuf;

/// Everything the CLI reads from its environment.
#[derive(Debug, Clone)]
pub(crate) struct Env {
    /// `$HOME` when set and non-empty, else the platform's lookup of the user's home.
    pub(crate) home: Option<PathBuf>,
    /// The working directory; relative `--path` values are made absolute against it.
    pub(crate) cwd: PathBuf,
    /// `DOTAIOS_PATH`, read only by the adapter surfaces (`mcp serve`), never by other commands.
    pub(crate) dotaios_path: Option<OsString>,
    /// `DOTAIOS_SEARCH_CACHE`, read only by `mcp serve` (contract 03 §19.2).
    pub(crate) search_cache: Option<OsString>,
    /// `KIMI_CODE_HOME` when set and non-empty: Kimi Code's own home, which holds its
    /// `mcp.json`; read only by `mcp install --agent kimi` for its target hint (contract 06 §5.2).
    pub(crate) kimi_code_home: Option<OsString>,
    /// `NO_COLOR` set to anything but the empty string (no-color.org): `--color auto` stays
    /// plain (contract 06 §1.9).
    pub(crate) no_color: bool,
    /// `TERM` is `dumb`: a terminal that cannot show colour; `--color auto` stays plain.
    pub(crate) dumb_terminal: bool,
    /// `COLUMNS`, the width a person's output is cut to before the terminal's own size is asked
    /// (contract 06 §1.9).
    pub(crate) columns: Option<OsString>,
}

impl Env {
    /// The one environment capture of both binaries: the adapter's (`dotaios_mcp::Environment`),
    /// so `HOME`, else the platform's lookup (contract 01 §1.2: the platform home), means the
    /// same home to `dotaios` and to `dotaios-mcp`.
    pub(crate) fn capture() -> Env {
        let dotaios_mcp::Environment {
            home,
            cwd,
            dotaios_path,
            search_cache,
        } = dotaios_mcp::Environment::capture();
        Env {
            home,
            cwd,
            dotaios_path,
            search_cache,
            kimi_code_home: std::env::var_os("KIMI_CODE_HOME").filter(|value| !value.is_empty()),
            no_color: std::env::var_os("NO_COLOR").is_some_and(|value| !value.is_empty()),
            dumb_terminal: std::env::var_os("TERM").is_some_and(|value| value == "dumb"),
            columns: std::env::var_os("COLUMNS"),
        }
    }

    /// The home directory, or `/` when neither `HOME` nor the platform names one (the folder
    /// check then fails with the usual "No AIOS folder found" line rather than a special error).
    pub(crate) fn home_or_root(&self) -> PathBuf {
        self.home.clone().unwrap_or_else(|| PathBuf::from("/"))
    }
}
