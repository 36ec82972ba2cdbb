//! Start-up of the adapter (contract 05 §1): the command line, the usage text, locating the AIOS
//! folder, the silent panic hook, and serving stdio until EOF. `dotaios-mcp` and
//! `dotaios mcp serve` both enter here.
//!
//! **Invariant:** before serving, only `--help` and `--version` write to stdout, and stderr
//! carries only a start-up failure (its message and a newline), the one line saying that the
//! folder has no `aios.json` (so a client's log shows why every tool call will fail, though the
//! client sees the server connect), and, when stdin is a terminal, the one line saying that the
//! adapter waits for a client. After start-up nothing is written to stderr, and the folder path
//! is never printed.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::ffi::{OsStr, OsString};
use std::io::{self, BufReader, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use dotaios_core::error::NO_FOLDER_MESSAGE;
use dotaios_core::folder::location::{LocationInputs, os_tail, resolve_folder};
use dotaios_core::text::did_you_mean;

use crate::server::Server;
use crate::tools::require_folder;
use crate::transport;

/// Which entry point started the adapter; only the usage line differs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Invocation {
    /// The `dotaios-mcp` binary.
    Adapter,
    /// `dotaios mcp serve`.
    CliServe,
}

/// What the adapter reads from its process environment, captured by the binary.
#[derive(Debug, Clone)]
pub struct Environment {
    /// The home directory: `HOME`, else the platform's lookup.
    pub home: Option<PathBuf>,
    /// The working directory (relative `--path` values are made absolute against it).
    pub cwd: PathBuf,
    /// `DOTAIOS_PATH`, when set and non-empty.
    pub dotaios_path: Option<OsString>,
    /// `DOTAIOS_SEARCH_CACHE` as set (contract 03 §19.2): `None` when unset or empty. Checked
    /// by [`run`], which refuses a value other than `on` or `off`.
    pub search_cache: Option<OsString>,
}

/// The start-up line for a `DOTAIOS_SEARCH_CACHE` value other than `on` or `off`.
const SEARCH_CACHE_INVALID: &str = "DOTAIOS_SEARCH_CACHE must be on or off";

/// Whether the server keeps the search content cache of contract 03 §19.2: on unless
/// `DOTAIOS_SEARCH_CACHE` is `off`. `Err` for any other value, so a mistyped switch is seen at
/// start-up instead of silently leaving the cache on.
fn search_cache_enabled(value: Option<&OsStr>) -> Result<bool, &'static str> {
    match value.map(OsStr::as_encoded_bytes) {
        None | Some(b"on") => Ok(true),
        Some(b"off") => Ok(false),
        Some(_) => Err(SEARCH_CACHE_INVALID),
    }
}

impl Environment {
    /// Reads `HOME`, the working directory, `DOTAIOS_PATH` and `DOTAIOS_SEARCH_CACHE`.
    pub fn capture() -> Environment {
        // Contract 06 §1.4: `HOME` on Unix, `USERPROFILE` on Windows, else the platform's.
        let home = std::env::var_os(if cfg!(windows) { "USERPROFILE" } else { "HOME" })
            .filter(|home| !home.is_empty())
            .map(PathBuf::from)
            .or_else(std::env::home_dir);
        Environment {
            home,
            cwd: std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/")),
            dotaios_path: std::env::var_os("DOTAIOS_PATH").filter(|value| !value.is_empty()),
            search_cache: std::env::var_os("DOTAIOS_SEARCH_CACHE")
                .filter(|value| !value.is_empty()),
        }
    }
}

/// Parses `args` (everything after the program name, or after `mcp` without the word
/// `serve`), then serves stdin/stdout until EOF. Exit status: 0 at EOF or after `--help`; 1 for
/// a start-up error or when stdout is lost.
pub fn run(args: &[OsString], invocation: Invocation, env: &Environment) -> ExitCode {
    if args.iter().any(|arg| arg == "--help" || arg == "-h") {
        return print_and_exit(&usage(invocation));
    }
    let path_flag = match parse_args(args) {
        Ok(Parsed::Serve(path_flag)) => path_flag,
        Ok(Parsed::Version) => {
            return print_and_exit(concat!(env!("CARGO_PKG_VERSION"), "\n"));
        }
        Err(message) => {
            let _ = writeln!(io::stderr().lock(), "{message}");
            return ExitCode::from(1);
        }
    };
    let cached = match search_cache_enabled(env.search_cache.as_deref()) {
        Ok(cached) => cached,
        Err(message) => {
            let _ = writeln!(io::stderr().lock(), "{}: {message}", program(invocation));
            return ExitCode::from(1);
        }
    };
    let home = env.home.clone().unwrap_or_else(|| PathBuf::from("/"));
    let folder = resolve_folder(LocationInputs {
        path_flag: path_flag.as_deref(),
        env_path: env.dotaios_path.as_deref(),
        home: &home,
        cwd: &env.cwd,
    });
    install_silent_panic_hook();
    // Contract 05 §1.4: a warning only; the folder may be created while the adapter runs, and
    // every tool call checks it again (§6.7).
    if require_folder(&folder).is_err() {
        let _ = writeln!(
            io::stderr().lock(),
            "{}: {NO_FOLDER_MESSAGE}",
            program(invocation)
        );
    }
    if io::stdin().is_terminal() {
        // Someone started the adapter by hand: say what it is waiting for, on stderr so
        // that stdout stays the protocol stream.
        let _ = writeln!(
            io::stderr().lock(),
            "{} is waiting for an MCP client on stdin (an MCP client starts it; press Ctrl-D to stop).",
            program(invocation)
        );
    }
    let server = if cached {
        Server::new(folder)
    } else {
        Server::without_cache(folder)
    };
    let stdin = io::stdin().lock();
    let stdout = io::stdout().lock();
    match transport::serve(&server, BufReader::with_capacity(1 << 16, stdin), stdout) {
        Ok(()) => ExitCode::SUCCESS,
        Err(_) => ExitCode::from(1),
    }
}

fn program(invocation: Invocation) -> &'static str {
    match invocation {
        Invocation::Adapter => "dotaios-mcp",
        Invocation::CliServe => "dotaios mcp serve",
    }
}

/// The usage text: contract 05 §1.2's lines, then what the adapter is, where it finds the folder
/// and what to run instead. It ends with an empty line.
pub fn usage(invocation: Invocation) -> String {
    format!(
        "Usage:\n  {} [options]\n\nOptions:\n  --path <dir>   Use a non-default AIOS folder\n  -V, --version  Show the version\n  -h, --help     Show this help\n\nThis starts the optional read-only DotAIOS stdio adapter: an MCP server that speaks\nJSON-RPC on stdin and stdout. An MCP client (Claude Code, Codex, Cursor, ...) starts it;\nthere is no need to run it by hand.\n\nAIOS folder: --path if given, else $DOTAIOS_PATH, else ~/aios.\n\nSearch cache: search_aios keeps unchanged file texts in memory between calls and\nre-checks each file's size, times and inode first. A change that leaves all of them\nequal (a write through a shared mmap) is not seen; DOTAIOS_SEARCH_CACHE=off, read at\nstart-up, makes every call read every file.\n\nCheck that it answers:   dotaios mcp status\nPrint a client's config: dotaios mcp install --dry-run --agent <agent>\n\n",
        program(invocation)
    )
}

/// What the command line asks for.
#[derive(Debug, PartialEq, Eq)]
enum Parsed {
    /// Serve, with this `--path` (the last one wins).
    Serve(Option<OsString>),
    /// `-V` or `--version`.
    Version,
}

/// §1.1 step 2, with the option syntax of contract 06 §1.2: `--path <value>`
/// or `--path=<value>` (the last one wins), `-V`/`--version`; anything else is an unknown
/// option.
fn parse_args(args: &[OsString]) -> Result<Parsed, String> {
    let mut path = None;
    let mut position = 0;
    while let Some(arg) = args.get(position) {
        position += 1;
        if arg == "--version" || arg == "-V" {
            return Ok(Parsed::Version);
        }
        if let Some(value) = arg.as_encoded_bytes().strip_prefix(b"--path=") {
            if value.is_empty() {
                return Err("--path requires a value".to_owned());
            }
            path = Some(os_tail(arg, "--path=".len()));
            continue;
        }
        if arg != "--path" {
            let shown = arg.to_string_lossy();
            let (name, hint) = if shown.starts_with("--") {
                let name = shown.split_once('=').map_or(&*shown, |(name, _)| name);
                (
                    name,
                    did_you_mean(name, ["--path", "--version", "--help"], "--"),
                )
            } else {
                (&*shown, String::new())
            };
            return Err(format!("Unknown option: {name}{hint}"));
        }
        match args.get(position) {
            Some(value) if !value.is_empty() && !value.as_encoded_bytes().starts_with(b"--") => {
                path = Some(value.clone());
                position += 1;
            }
            _ => return Err("--path requires a value".to_owned()),
        }
    }
    Ok(Parsed::Serve(path))
}

fn print_and_exit(text: &str) -> ExitCode {
    let mut stdout = io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => ExitCode::SUCCESS,
        Err(_) => ExitCode::from(1),
    }
}

/// A panic inside a request is answered with the fixed `-32603` message by the server; the
/// default hook would print the panic (possibly with a path) on stderr, so it is replaced.
fn install_silent_panic_hook() {
    std::panic::set_hook(Box::new(|_| {}));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(items: &[&str]) -> Vec<OsString> {
        items.iter().map(OsString::from).collect()
    }

    fn serve(path: Option<&str>) -> Result<Parsed, String> {
        Ok(Parsed::Serve(path.map(OsString::from)))
    }

    #[test]
    fn the_search_cache_switch() {
        assert_eq!(search_cache_enabled(None), Ok(true));
        assert_eq!(search_cache_enabled(Some(OsStr::new("on"))), Ok(true));
        assert_eq!(search_cache_enabled(Some(OsStr::new("off"))), Ok(false));
        for bad in ["OFF", "0", "false", " off"] {
            assert_eq!(
                search_cache_enabled(Some(OsStr::new(bad))),
                Err(SEARCH_CACHE_INVALID)
            );
        }
        assert!(usage(Invocation::Adapter).contains("DOTAIOS_SEARCH_CACHE=off"));
    }

    #[test]
    fn argument_parsing() {
        assert_eq!(parse_args(&os(&[])), serve(None));
        assert_eq!(parse_args(&os(&["--path", "-x"])), serve(Some("-x")));
        assert_eq!(parse_args(&os(&["--path=/x"])), serve(Some("/x")));
        assert_eq!(
            parse_args(&os(&["--path", "a", "--path", "b"])),
            serve(Some("b"))
        );
        for args in [
            &["--path"][..],
            &["--path", ""],
            &["--path", "--x"],
            &["--path="],
        ] {
            assert_eq!(parse_args(&os(args)), Err("--path requires a value".into()));
        }
        assert_eq!(
            parse_args(&os(&["--bogus"])),
            Err("Unknown option: --bogus".into())
        );
        assert_eq!(
            parse_args(&os(&["--paht=/x"])),
            Err("Unknown option: --paht. Did you mean --path?".into())
        );
        assert_eq!(parse_args(&os(&["--version"])), Ok(Parsed::Version));
        assert_eq!(parse_args(&os(&["-V"])), Ok(Parsed::Version));
        assert_eq!(
            parse_args(&os(&["serve"])),
            Err("Unknown option: serve".into())
        );
    }

    #[test]
    fn usage_texts() {
        assert!(
            usage(Invocation::Adapter).starts_with("Usage:\n  dotaios-mcp [options]\n\nOptions:\n")
        );
        assert!(usage(Invocation::CliServe).contains("\n  dotaios mcp serve [options]\n"));
        let adapter = usage(Invocation::Adapter);
        assert!(adapter.ends_with("\n\n") && !adapter.ends_with("\n\n\n"));
        for needle in [
            "This starts the optional read-only DotAIOS stdio adapter",
            "An MCP client",
            "--path if given, else $DOTAIOS_PATH, else ~/aios",
            "dotaios mcp status",
            "dotaios mcp install",
            "--version",
        ] {
            assert!(adapter.contains(needle), "{needle}");
        }
    }
}
