//! `dotaios`, the command line.
//!
//! `main` captures the process environment once ([`Env`]), dispatches on the first argument and
//! is the single place where a [`CliError`] becomes a stderr line and an exit code (contract 06
//! §1.3). Read commands live in [`commands`]; the only code that writes to an AIOS folder or a
//! client configuration lives in [`writers`].
#![forbid(unsafe_code)]

mod args;
mod commands;
mod env;
mod error;
mod launcher;
mod output;
mod package_install;
mod writers;

use std::ffi::OsString;
use std::process::ExitCode;

pub(crate) use env::Env;
pub(crate) use error::CliError;

fn main() -> ExitCode {
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
        output::err_line("dotaios: internal error");
        std::process::exit(1);
    }));
}
