//! `dotaios connect opencode [--dry-run] [--path <dir>] [--launcher <path>]` (contract 06 §6):
//! option parsing, the folder and launcher checks, and the report. The merge and the write are
//! in [`crate::writers::connect`].
//!
//! What it must never do: create or change anything before every check has passed, write
//! anything on `--dry-run`, or write into the AIOS folder.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use dotaios_core::folder::location::absolutize;

use super::folder::checked_folder;
use super::folder::utf8_path;
use crate::args::{CommandSpec, Item, OptionSpec, Scanner, did_you_mean, unhandled};
use crate::launcher::{self, ProcessFacts};
use crate::output::{lines_text, out, shell_quote};
use crate::writers::connect as writer;
use crate::{CliError, Env};

/// `dotaios connect`: its options, help and completions.
pub(crate) static SPEC: CommandSpec = CommandSpec {
    name: "connect",
    label: "connect opencode",
    summary: "Connect OpenCode MCP",
    usage: "\
Usage:
  dotaios connect opencode [options]

Services:
  opencode    Connect OpenCode MCP
",
    options: &[
        OptionSpec::value("--path", "<dir>", "Use a non-default AIOS folder"),
        OptionSpec::value("--launcher", "<path>", "Use this dotaios-mcp executable"),
        OptionSpec::flag("--dry-run", "Show what would be written, without writing"),
    ],
    words: &["opencode"],
    footer: "",
};

const USAGE: &str =
    "Usage: dotaios connect opencode [--dry-run] [--path <dir>] [--launcher <path>]";

#[derive(Debug, Default)]
struct Options {
    service: Option<String>,
    dry_run: bool,
    path: Option<OsString>,
    launcher: Option<OsString>,
}

/// Runs `dotaios connect`.
pub(crate) fn run(args: &[OsString], env: &Env) -> Result<ExitCode, CliError> {
    if Scanner::wants_help(args) {
        out(&SPEC.help())?;
        return Ok(ExitCode::SUCCESS);
    }
    let options = parse(args)?;
    match options.service.as_deref() {
        None => return Err(CliError::UsageLine(USAGE)),
        Some("opencode") => {}
        Some(other) => {
            return Err(CliError::UnsupportedConnection {
                name: other.to_owned(),
                hint: did_you_mean(other, ["opencode"], ""),
            });
        }
    }
    let folder = checked_folder(options.path.as_deref(), env)?;
    let facts = ProcessFacts::capture(env);
    let launcher = launcher::resolve(options.launcher.as_deref(), &facts)?;
    launcher::refuse_disposable(&launcher, &facts, |path| {
        let mut command = String::from("dotaios connect opencode");
        if options.dry_run {
            command.push_str(" --dry-run");
        }
        if options.path.is_some() {
            command.push_str(&format!(" --path {}", shell_quote(&folder)));
        }
        format!("{command} --launcher {}", shell_quote(path))
    })?;
    let launcher_text = utf8_path(&launcher.path)?;
    let folder_text = utf8_path(&folder)?;

    let home = env.home_or_root();
    let config_dir = opencode_dir(&home, xdg_config_home().as_deref(), &env.cwd);
    let config_file = config_dir.join("opencode.json");
    let shown_dir = tilde(&config_dir, &home);
    let shown_file = tilde(&config_file, &home);

    // The OpenCode configuration directory lies outside the AIOS folder (contract 06 §4).
    #[expect(
        clippy::disallowed_methods,
        reason = "the client's own configuration directory, not the AIOS folder"
    )]
    let dir_exists = config_dir.is_dir();
    let mut report = vec![
        "DotAIOS → OpenCode".to_owned(),
        format!("AIOS path: {folder_text}"),
        format!("Launcher: {launcher_text}"),
        if dir_exists {
            format!("[ok] {shown_dir} found")
        } else {
            format!("[info] {shown_dir} not found — will create")
        },
    ];
    // The report is printed once the merge (and, for a real run, the write) succeeded: a
    // refusal leaves stdout empty (contract 06 §1.3, §6.2).
    let connect_error = |error| CliError::Connect {
        error,
        file: config_file.clone(),
    };
    let plan = writer::plan(&config_file, launcher_text, folder_text).map_err(connect_error)?;
    if options.dry_run {
        report.push(String::new());
        report.push("Would write:".to_owned());
        report.push(format!("  {shown_file}  — MCP server entry"));
        // The entry, not the whole file: the rest is the user's own text (possibly provider
        // credentials) and is kept as it is.
        report.push(String::new());
        report.push("mcp.dotaios would be:".to_owned());
        report.push(writer::entry_text(launcher_text, folder_text));
        out(&lines_text(&report))?;
        return Ok(ExitCode::SUCCESS);
    }
    writer::write(&plan).map_err(connect_error)?;
    report.push(format!("[ok] {shown_file} (MCP server entry)"));
    report.push(String::new());
    report.push("OpenCode configured.".to_owned());
    report.push(format!(
        "Read-only MCP tools available: {}",
        dotaios_mcp::TOOL_NAMES.join(", ")
    ));
    out(&lines_text(&report))?;
    Ok(ExitCode::SUCCESS)
}

fn parse(args: &[OsString]) -> Result<Options, CliError> {
    let mut options = Options::default();
    let mut scanner = Scanner::new(args, &SPEC);
    while let Some(item) = scanner.next_item()? {
        match item {
            Item::Flag("--dry-run") => options.dry_run = true,
            Item::Value("--path", value) => options.path = Some(value),
            Item::Value("--launcher", value) => options.launcher = Some(value),
            Item::Positional(word) => {
                let text = word.to_string_lossy();
                if options.service.is_some() {
                    return Err(CliError::UnexpectedArgument(text.into_owned()));
                }
                options.service = Some(text.to_lowercase());
            }
            other => return Err(unhandled(&other)),
        }
    }
    Ok(options)
}

/// `XDG_CONFIG_HOME` when set to an absolute path (the XDG base-directory rules ignore a
/// relative value). OpenCode itself reads its global configuration from there.
pub(crate) fn xdg_config_home() -> Option<PathBuf> {
    std::env::var_os("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .filter(|path| path.is_absolute())
}

/// `$XDG_CONFIG_HOME/opencode`, else `<home>/.config/opencode`.
fn opencode_dir(home: &Path, xdg_config_home: Option<&Path>, cwd: &Path) -> PathBuf {
    let base = xdg_config_home.map_or_else(|| home.join(".config"), Path::to_path_buf);
    absolutize(&base.join("opencode"), cwd)
}

/// A location as shown to the user: `~/…` below the home directory, else the full path.
fn tilde(path: &Path, home: &Path) -> String {
    match path.strip_prefix(home) {
        // Components joined by `/` on every platform: the contract's literal `~/…` text.
        Ok(rest) if home.parent().is_some() => {
            let parts: Vec<String> = rest
                .components()
                .map(|part| part.as_os_str().to_string_lossy().into_owned())
                .collect();
            format!("~/{}", parts.join("/"))
        }
        _ => path.display().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::os_args as os;

    #[test]
    fn parsing() {
        let options = parse(&os(&["--dry-run", "OpenCode", "--path", "-x"])).unwrap();
        assert_eq!(options.service.as_deref(), Some("opencode"));
        assert!(options.dry_run);
        assert_eq!(options.path, Some(OsString::from("-x")));
        for (args, message) in [
            (&["opencode", "--status"][..], "Unknown option: --status"),
            (
                &["opencode", "--gws-bin", "x"][..],
                "Unknown option: --gws-bin",
            ),
            (&["opencode", "--json"][..], "Unknown option: --json"),
            (&["opencode", "extra"][..], "Unexpected argument: extra"),
            (&["opencode", "--path"][..], "--path requires a value"),
            (
                &["--launcher", "--dry-run"][..],
                "--launcher requires a value",
            ),
        ] {
            assert_eq!(parse(&os(args)).unwrap_err().to_string(), message);
        }
    }

    #[test]
    fn config_location_and_display() {
        let home = Path::new("/home/ada");
        let cwd = Path::new("/w");
        assert_eq!(
            opencode_dir(home, None, cwd),
            PathBuf::from("/home/ada/.config/opencode")
        );
        assert_eq!(
            opencode_dir(home, Some(Path::new("/xdg")), cwd),
            PathBuf::from("/xdg/opencode")
        );
        assert_eq!(
            tilde(&opencode_dir(home, None, cwd), home),
            "~/.config/opencode"
        );
        assert_eq!(tilde(Path::new("/xdg/opencode"), home), "/xdg/opencode");
        assert_eq!(tilde(Path::new("/x/y"), Path::new("/")), "/x/y");
    }
}
