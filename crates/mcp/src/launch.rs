//! Start-up of the adapter (spec 05 §1): the command line, the usage text, locating the AIOS
//! folder, the silent panic hook, and serving stdio until EOF. `dotaios-mcp` and
//! `dotaios mcp serve` both enter here.
//!
//! **Invariant:** before serving, only `--help` writes to stdout and only a start-up failure
//! writes to stderr (its message and a newline). After start-up nothing is written to stderr,
//! and the folder path is never printed.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::ffi::OsString;
use std::io::{self, BufReader, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use dotaios_core::folder::location::{LocationInputs, resolve_folder};

use crate::server::Server;
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
}

impl Environment {
    /// Reads `HOME`, the working directory and `DOTAIOS_PATH`.
    pub fn capture() -> Environment {
        let home = std::env::var_os("HOME")
            .filter(|home| !home.is_empty())
            .map(PathBuf::from)
            .or_else(std::env::home_dir);
        Environment {
            home,
            cwd: std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/")),
            dotaios_path: std::env::var_os("DOTAIOS_PATH").filter(|value| !value.is_empty()),
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
    let path_flag = match parse_path(args) {
        Ok(path_flag) => path_flag,
        Err(message) => {
            let _ = writeln!(io::stderr().lock(), "{message}");
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
    let server = Server::new(folder);
    let stdin = io::stdin().lock();
    let stdout = io::stdout().lock();
    match transport::serve(&server, BufReader::with_capacity(1 << 16, stdin), stdout) {
        Ok(()) => ExitCode::SUCCESS,
        Err(_) => ExitCode::from(1),
    }
}

/// The usage text of §1.2 (it ends with an empty line).
pub fn usage(invocation: Invocation) -> String {
    let program = match invocation {
        Invocation::Adapter => "dotaios-mcp",
        Invocation::CliServe => "dotaios mcp serve",
    };
    format!(
        "Usage:\n  {program} [options]\n\nOptions:\n  --path <dir>  Use a non-default AIOS folder\n\nThis starts the optional read-only DotAIOS stdio adapter.\n\n"
    )
}

/// §1.1 step 2: `--path <value>` (the last one wins); anything else is an unknown option.
fn parse_path(args: &[OsString]) -> Result<Option<OsString>, String> {
    let mut path = None;
    let mut position = 0;
    while let Some(arg) = args.get(position) {
        position += 1;
        if arg != "--path" {
            return Err(format!("Unknown option: {}", arg.to_string_lossy()));
        }
        match args.get(position) {
            Some(value) if !value.is_empty() && !value.as_encoded_bytes().starts_with(b"--") => {
                path = Some(value.clone());
                position += 1;
            }
            _ => return Err("--path requires a value".to_owned()),
        }
    }
    Ok(path)
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

    #[test]
    fn path_parsing() {
        assert_eq!(parse_path(&os(&[])), Ok(None));
        assert_eq!(parse_path(&os(&["--path", "-x"])), Ok(Some("-x".into())));
        assert_eq!(
            parse_path(&os(&["--path", "a", "--path", "b"])),
            Ok(Some("b".into()))
        );
        for args in [&["--path"][..], &["--path", ""], &["--path", "--x"]] {
            assert_eq!(parse_path(&os(args)), Err("--path requires a value".into()));
        }
        assert_eq!(
            parse_path(&os(&["--bogus"])),
            Err("Unknown option: --bogus".into())
        );
        assert_eq!(
            parse_path(&os(&["--path=/x"])),
            Err("Unknown option: --path=/x".into())
        );
        assert_eq!(
            parse_path(&os(&["--version"])),
            Err("Unknown option: --version".into())
        );
        assert_eq!(
            parse_path(&os(&["serve"])),
            Err("Unknown option: serve".into())
        );
    }

    #[test]
    fn usage_texts() {
        assert!(
            usage(Invocation::Adapter).starts_with("Usage:\n  dotaios-mcp [options]\n\nOptions:\n")
        );
        assert!(usage(Invocation::CliServe).contains("\n  dotaios mcp serve [options]\n"));
        assert!(usage(Invocation::Adapter).ends_with("adapter.\n\n"));
    }
}
