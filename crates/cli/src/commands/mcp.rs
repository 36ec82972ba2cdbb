//! `dotaios mcp` (contract 06 §3). The subcommand is found first; `serve` hands every other
//! argument to the adapter library, so `dotaios mcp serve` runs exactly the code of the
//! `dotaios-mcp` binary (contract 05 §1). The other subcommands (`status`, `install`, `config`)
//! are dispatched from [`run`] as they land.

use std::ffi::OsString;
use std::process::ExitCode;

use crate::args::{CommandSpec, OptionSpec, Scanner, first_positional};
use crate::output::out;
use crate::{CliError, Env};

/// `dotaios mcp`: its options (shared by `status`, `install` and `config`), help and
/// completions. `serve` takes the adapter's own options (contract 05 §1.1).
pub(crate) static SPEC: CommandSpec = CommandSpec {
    name: "mcp",
    label: "mcp <cmd>",
    summary: "Print local MCP server status and client config",
    usage: "\
Usage:
  dotaios mcp status [options]
  dotaios mcp install --dry-run --agent <agent> [options]
  dotaios mcp config --agent <agent> [options]
  dotaios mcp serve [--path <dir>]
",
    options: &[
        OptionSpec::value("--path", "<dir>", "Use a non-default AIOS folder"),
        OptionSpec::value(
            "--agent",
            "<agent>",
            "claude, codex, cursor, gemini, antigravity, kimi, or opencode",
        ),
        OptionSpec::flag(
            "--dry-run",
            "Preview install guidance without changing files",
        ),
        OptionSpec::value(
            "--home",
            "<dir>",
            "Use a non-default home path for target hints",
        ),
        OptionSpec::value(
            "--launcher",
            "<path>",
            "Use this dotaios-mcp executable in client config",
        ),
        OptionSpec::flag("--json", "Print status as JSON (status only)"),
    ],
    words: &["status", "install", "config", "serve", "help"],
    footer: "\nDotAIOS does not mutate MCP client config automatically yet. This command prints the exact local stdio config to copy into a client.\n",
};

/// Runs `dotaios mcp`.
pub(crate) fn run(args: &[OsString], env: &Env) -> Result<ExitCode, CliError> {
    let subcommand = first_positional(args, &SPEC);
    if let Some(index) = subcommand.filter(|&index| args[index] == "serve") {
        let rest: Vec<OsString> = args
            .iter()
            .enumerate()
            .filter(|&(position, _)| position != index)
            .map(|(_, arg)| arg.clone())
            .collect();
        return Ok(serve(&rest, env));
    }
    // `dotaios mcp help` is `dotaios mcp --help`, as `dotaios help mcp` is (contract 06 §3.1).
    let help_word = subcommand.is_some_and(|index| args[index] == "help");
    if help_word || Scanner::wants_help(args) {
        out(&SPEC.help())?;
        out("\n")?;
        return Ok(ExitCode::SUCCESS);
    }
    // `status` (also when no subcommand is given), `install`, `config`, and unknown names,
    // which are refused only after option parsing and the folder check (contract 06 §3.1).
    super::mcp_client::run(args, env)
}

/// `dotaios mcp serve`: the adapter, with the adapter's own argument rules.
fn serve(args: &[OsString], env: &Env) -> ExitCode {
    let environment = dotaios_mcp::Environment {
        home: env.home.clone(),
        cwd: env.cwd.clone(),
        dotaios_path: env.dotaios_path.clone(),
        search_cache: env.search_cache.clone(),
    };
    dotaios_mcp::run(args, dotaios_mcp::Invocation::CliServe, &environment)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn find(items: &[&str]) -> Option<usize> {
        let args: Vec<OsString> = items.iter().map(OsString::from).collect();
        first_positional(&args, &SPEC)
    }

    /// Contract 06 §3.1 step 1, with the table's value options.
    #[test]
    fn subcommand_skips_option_values() {
        assert_eq!(find(&["serve"]), Some(0));
        assert_eq!(find(&["--path", "/x", "serve"]), Some(2));
        assert_eq!(find(&["--path=/x", "serve"]), Some(1));
        assert_eq!(find(&["--path", "serve"]), None);
        assert_eq!(find(&["--agent", "status"]), None);
        assert_eq!(find(&["-h", "--json", "install"]), Some(2));
        assert_eq!(find(&["-x"]), Some(0));
        assert_eq!(find(&[]), None);
    }
}
