//! Command dispatch (spec 06 §1.1) and the read-only commands. Each command module exposes
//! `run(args, env) -> Result<ExitCode, CliError>` and parses its own options with
//! [`crate::args::Scanner`].

use std::ffi::OsString;
use std::process::ExitCode;

mod brief;
mod connect;
mod demo;
mod doctor;
mod init;
mod mcp;
mod mcp_client;
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
