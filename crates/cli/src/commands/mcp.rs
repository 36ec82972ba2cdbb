//! `dotaios mcp` (contract 06 §3). The subcommand is found first; `serve` hands every other
//! argument to the adapter library, so `dotaios mcp serve` runs exactly the code of the
//! `dotaios-mcp` binary (contract 05 §1). `status` and `install`/`config` share their options
//! (`options`, a leaf) and are dispatched from [`run`] to `status` and `install`, which reads
//! the recorded host evidence (`evidence`). Imports run one way: this file → subcommands →
//! `options`.

use std::ffi::OsString;
use std::process::ExitCode;

use crate::args::{CommandSpec, OptionSpec, Scanner, first_positional};
use crate::output::out;
use crate::{CliError, Env};
use options::Subcommand;

mod evidence;
mod install;
pub(super) mod options;
#[allow(
    clippy::disallowed_methods,
    reason = "compares the running executable with the one PATH finds, never the AIOS folder"
)]
pub(super) mod setup;
mod status;

/// `--path <dir>`, for every `mcp` subcommand.
const PATH: OptionSpec = OptionSpec::value("--path", "<dir>", "Use a non-default AIOS folder");
/// `--agent <agent>`: the client `install` prints for, and the one `status`'s next step names.
const AGENT: OptionSpec = OptionSpec::value(
    "--agent",
    "<agent>",
    "claude, codex, cursor, gemini, antigravity, kimi, or opencode",
);
/// `--dry-run`: `install` only previews (contract 06 §5).
const DRY_RUN: OptionSpec = OptionSpec::flag(
    "--dry-run",
    "Preview install guidance without changing files",
);
/// `--home <dir>`: where the target hints point.
const HOME: OptionSpec = OptionSpec::value(
    "--home",
    "<dir>",
    "Use a non-default home path for target hints",
);
/// `--launcher <path>`: the adapter the client configuration starts (contract 06 §2).
const LAUNCHER: OptionSpec = OptionSpec::value(
    "--launcher",
    "<path>",
    "Use this dotaios-mcp executable in client config",
);
/// `--json`: `status` only (contract 06 §3.1 step 7).
const JSON: OptionSpec = OptionSpec::flag("--json", "Print status as JSON (status only)");

/// `dotaios mcp`: its options (shared by `status`, `install` and `config`, which the scanner
/// accepts anywhere: contract 06 §3.1 step 4), help and completions. `serve` takes the
/// adapter's own options (contract 05 §1.1).
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
    options: &[PATH, AGENT, DRY_RUN, HOME, LAUNCHER, JSON],
    words: &["status", "install", "config", "serve", "help"],
    footer: "\nDotAIOS does not mutate MCP client config automatically yet. This command prints the exact local stdio config to copy into a client.\n",
};

/// `dotaios mcp status --help` (contract 06 §3.2, §4): the options a status report uses.
pub(crate) static STATUS_SPEC: CommandSpec = CommandSpec {
    name: "mcp status",
    label: "",
    summary: SPEC.summary,
    usage: "\
Usage:
  dotaios mcp status [options]

Start the dotaios-mcp adapter that client configuration would launch, speak MCP to it, and
report the folder, the launcher, the protocol version and the three tools, then which
clients' configuration files (below --home, else your home) already hold the dotaios server.
Nothing is written. The last line names the next step: using a configured client, else
printing the config for claude.
",
    options: &[PATH, AGENT, HOME, LAUNCHER, JSON],
    words: &[],
    footer: "\nExit status: 0 when the adapter answered, 1 when the check failed or on errors.\n",
};

/// `dotaios mcp install --help` and `dotaios mcp config --help` (contract 06 §3.2, §5).
pub(crate) static INSTALL_SPEC: CommandSpec = CommandSpec {
    name: "mcp install",
    label: "",
    summary: SPEC.summary,
    usage: "\
Usage:
  dotaios mcp install --dry-run --agent <agent> [options]
  dotaios mcp config --agent <agent> [options]

Print the local stdio configuration fragment for one client, the file it belongs in, and
how far a real run of that client got with such a fragment. config is the same command.
Nothing is written.
",
    options: &[PATH, AGENT, DRY_RUN, HOME, LAUNCHER],
    words: &[],
    footer: SPEC.footer,
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
        // `status`, `install` and `config` each have their own help; anything else (no
        // subcommand, `help`, an unknown word) gets the `mcp` help (contract 06 §3.1 step 3).
        let spec = match subcommand.and_then(|index| args[index].to_str()) {
            Some("status") => &STATUS_SPEC,
            Some("install" | "config") => &INSTALL_SPEC,
            _ => &SPEC,
        };
        out(&spec.help())?;
        out("\n")?;
        return Ok(ExitCode::SUCCESS);
    }
    // `status` (also when no subcommand is given), `install`, `config`, and unknown names,
    // which are refused only after option parsing and the folder check (contract 06 §3.1).
    let (subcommand, options) = options::parse(args, env)?;
    match subcommand {
        Subcommand::Status => status::run(&options, env),
        Subcommand::Install => install::run(&options, env),
    }
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
