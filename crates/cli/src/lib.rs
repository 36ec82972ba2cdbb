//! `dotaios`, the command line, as a library: the `dotaios` binary (`src/main.rs`) is one call
//! to [`main`]; the library exists so that the parsers of untrusted input can be fuzzed
//! ([`parsers`], `fuzz/`, `docs/fuzzing.md`).
//!
//! [`main`] captures the process environment once (`env::Env`), dispatches on the first
//! argument and is the single place where a `CliError` becomes a stderr line and an exit code
//! (contract 06 §1.3). Read commands live in `commands`; the only code that writes to an AIOS
//! folder or a client configuration lives in `writers`.
//!
//! What it must never do: offer anything public beyond [`main`] and [`parsers`] (the binaries
//! are the product; this is no stable library API), or print outside `output`.
#![cfg_attr(
    test,
    allow(
        clippy::disallowed_methods,
        reason = "unit tests build their folders with std::fs"
    )
)]
#![forbid(unsafe_code)]

mod args;
mod commands;
mod env;
mod error;
#[allow(
    clippy::disallowed_methods,
    reason = "inspects the installed executables beside the running one, never the AIOS folder"
)]
mod launcher;
mod output;
#[allow(
    clippy::disallowed_methods,
    reason = "reads the package manager's files beside the executable, never the AIOS folder"
)]
mod package_install;
mod sys;
mod terminal;
#[allow(
    clippy::disallowed_methods,
    reason = "the writers (init, migrate, connect) are the only code that writes, each write atomic (contract 01 §9)"
)]
mod writers;

use std::ffi::OsString;
use std::process::ExitCode;

pub(crate) use env::Env;
pub(crate) use error::CliError;

/// The parsers of bytes `dotaios` reads from files it does not control, public only for the
/// fuzz targets: OpenCode's `opencode.json` as `connect opencode` merges it (contract 06 §6.3),
/// and the migration journal and receipt that recovery and `migrate` read back (contract 01
/// §9.5, §9.7). Each is the code the commands run, not a copy.
pub mod parsers {
    pub use crate::writers::connect::{ConnectError, entry_text, merged_config};
    pub use crate::writers::migrate::journal::{Journal, Operation, Status};
    pub use crate::writers::migrate::state::{ReceiptSummary, check_receipt};
}

/// `dotaios` with the process's arguments and environment: the whole `main` of the binary.
pub fn main() -> ExitCode {
    install_panic_hook();
    let argv: Vec<OsString> = std::env::args_os().skip(1).collect();
    let env = Env::capture();
    match commands::dispatch(&argv, &env) {
        Ok(code) => code,
        Err(error) => error::report(&error),
    }
}

/// A panic must never print a backtrace or a path: one generic line, exit 1 (contract 06 §1.3).
fn install_panic_hook() {
    std::panic::set_hook(Box::new(|_| {
        output::last_err_line("dotaios: internal error");
        std::process::exit(1);
    }));
}
