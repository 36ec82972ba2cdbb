//! `dotaios mcp` (spec 06 §3). The subcommand is found first; `serve` hands every other
//! argument to the adapter library, so `dotaios mcp serve` runs exactly the code of the
//! `dotaios-mcp` binary (spec 05 §1). The other subcommands (`status`, `install`, `config`)
//! are dispatched from [`run`] as they land.

use std::ffi::OsString;
use std::process::ExitCode;

use crate::args::Scanner;
use crate::output::out;
use crate::{CliError, Env};

const MCP_HELP: &str = "\
Usage:
  dotaios mcp status [options]
  dotaios mcp install --dry-run --agent <agent> [options]
  dotaios mcp config --agent <agent> [options]
  dotaios mcp serve [--path <dir>]

Options:
  --path <dir>        Use a non-default AIOS folder
  --agent <agent>     claude, codex, cursor, gemini, antigravity, kimi, or opencode
  --dry-run           Preview install guidance without changing files
  --home <dir>        Use a non-default home path for target hints
  --launcher <path>   Use this dotaios-mcp executable in client config
  --json              Print status as JSON (status only)

DotAIOS does not mutate MCP client config automatically yet. This command prints the exact local stdio config to copy into a client.
";

/// Options of `dotaios mcp` whose value is the next argument (skipped when looking for the
/// subcommand).
const VALUE_OPTIONS: [&str; 4] = ["--agent", "--home", "--path", "--launcher"];

/// Runs `dotaios mcp`.
pub(crate) fn run(args: &[OsString], env: &Env) -> Result<ExitCode, CliError> {
    let subcommand = find_subcommand(args);
    if let Some((index, "serve")) = subcommand {
        let rest: Vec<OsString> = args
            .iter()
            .enumerate()
            .filter(|&(position, _)| position != index)
            .map(|(_, arg)| arg.clone())
            .collect();
        return Ok(serve(&rest, env));
    }
    if Scanner::wants_help(args) {
        out(MCP_HELP);
        out("\n");
        return Ok(ExitCode::SUCCESS);
    }
    // `status` (also when no subcommand is given), `install`, `config`, and unknown names,
    // which are refused only after option parsing and the folder check (spec 06 §3.1).
    super::mcp_client::run(args, env)
}

/// `dotaios mcp serve`: the adapter, with the adapter's own argument rules.
fn serve(args: &[OsString], env: &Env) -> ExitCode {
    let environment = dotaios_mcp::Environment {
        home: env.home.clone().or_else(std::env::home_dir),
        cwd: env.cwd.clone(),
        dotaios_path: env.dotaios_path.clone(),
    };
    dotaios_mcp::run(args, dotaios_mcp::Invocation::CliServe, &environment)
}

/// Spec 06 §3.1 step 1: scanning left to right and skipping the value after each value
/// option, the first argument that does not start with `--` and is not `-h`. Returns its
/// position and its text (a non-UTF-8 word is no known subcommand and reads as `?`).
fn find_subcommand(args: &[OsString]) -> Option<(usize, &str)> {
    let mut position = 0;
    while let Some(arg) = args.get(position) {
        if VALUE_OPTIONS.iter().any(|option| arg == option) {
            position += 2;
            continue;
        }
        if !arg.as_encoded_bytes().starts_with(b"--") && arg != "-h" {
            return Some((position, arg.to_str().unwrap_or("?")));
        }
        position += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn find(items: &[&str]) -> Option<(usize, String)> {
        let args: Vec<OsString> = items.iter().map(OsString::from).collect();
        find_subcommand(&args).map(|(index, name)| (index, name.to_owned()))
    }

    #[test]
    fn subcommand_skips_option_values() {
        assert_eq!(find(&["serve"]), Some((0, "serve".into())));
        assert_eq!(find(&["--path", "/x", "serve"]), Some((2, "serve".into())));
        assert_eq!(find(&["--path", "serve"]), None);
        assert_eq!(
            find(&["-h", "--json", "install"]),
            Some((2, "install".into()))
        );
        assert_eq!(find(&[]), None);
    }
}
