//! Command dispatch (spec 06 §1.1) and the read-only commands. Each command module exposes
//! `run(args, env) -> Result<ExitCode, CliError>` and parses its own options with
//! [`crate::args::Scanner`].

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use dotaios_core::folder::location::{LocationInputs, resolve_folder};

mod brief;
mod connect;
mod demo;
mod doctor;
mod init;
mod mcp;
mod mcp_client;
mod mcp_evidence;
mod mcp_install;
mod mcp_status;
mod migrate;
mod search;
mod skills;

use crate::output::{err_line, out};
use crate::{CliError, Env};

const TOP_LEVEL_HELP: &str = "\
DotAIOS — local AIOS folder tools (read side)

Usage:
  dotaios <command> [options]

Commands:
  init              Create a new AIOS folder
  brief --compact   Print the bounded working context
  search <query>    Search the AIOS folder
  skills resolve    Match a request to an installed workflow
  doctor            Report folder health without changing anything
  migrate           Preview or apply folder schema migrations
  mcp <cmd>         Print local MCP server status and client config
  connect opencode  Connect OpenCode MCP
  demo              Serve a sample folder through the MCP adapter and show a client's view

Common command options:
  --path <dir>      Use a non-default AIOS folder (default ~/aios)

  -h, --help        Show this help
  -v, --version     Show the version
";

/// Runs the command named by the first argument.
pub(crate) fn dispatch(argv: &[OsString], env: &Env) -> Result<ExitCode, CliError> {
    let Some(command) = argv.first() else {
        out(TOP_LEVEL_HELP);
        return Ok(ExitCode::SUCCESS);
    };
    let rest = &argv[1..];
    match command.to_str() {
        Some("-h" | "--help") => {
            out(TOP_LEVEL_HELP);
            Ok(ExitCode::SUCCESS)
        }
        Some("-v" | "--version") => {
            out(concat!(env!("CARGO_PKG_VERSION"), "\n"));
            Ok(ExitCode::SUCCESS)
        }
        Some("init") => init::run(rest, env),
        Some("brief") => brief::run(rest, env),
        Some("search") => search::run(rest, env),
        Some("skills") => skills::run(rest, env),
        Some("doctor") => doctor::run(rest, env),
        Some("migrate") => migrate::run(rest, env),
        Some("mcp") => mcp::run(rest, env),
        Some("demo") => demo::run(rest, env),
        Some("connect") => connect::run(rest, env),
        _ => {
            err_line(&format!("Unknown command: {}", command.to_string_lossy()));
            out(TOP_LEVEL_HELP);
            Ok(ExitCode::from(1))
        }
    }
}

/// The AIOS folder a command works on (spec 01 §1): `--path`, else `~/aios`, made absolute
/// against the working directory. `DOTAIOS_PATH` is never consulted here; only the adapter
/// reads it.
pub(crate) fn configured_folder(path_flag: Option<&OsStr>, env: &Env) -> PathBuf {
    resolve_folder(LocationInputs {
        path_flag,
        env_path: None,
        home: &env.home_or_root(),
        cwd: &env.cwd,
    })
}

/// [`configured_folder`] after the folder check of spec 01 §1.3.
pub(crate) fn checked_folder(path_flag: Option<&OsStr>, env: &Env) -> Result<PathBuf, CliError> {
    let folder = configured_folder(path_flag, env);
    require_aios_json(&folder)?;
    Ok(folder)
}

/// The folder check of spec 01 §1.3: `aios.json` must exist directly inside `folder`. Existence
/// only: the file is neither opened nor parsed, and a symlink counts when its target exists (the
/// reference's `existsSync`); any error while looking counts as absent.
pub(crate) fn require_aios_json(folder: &Path) -> Result<(), CliError> {
    if folder.join("aios.json").try_exists().unwrap_or(false) {
        Ok(())
    } else {
        Err(CliError::NoFolder(folder.to_path_buf()))
    }
}
