//! `dotaios-mcp`: the adapter binary that MCP client configurations launch. It lives in the
//! `dotaios` package so that one `cargo install` puts it next to `dotaios` (contract 06 §2.1
//! looks for it there); all of its code is the `dotaios-mcp` library.
#![forbid(unsafe_code)]

use std::ffi::OsString;
use std::process::ExitCode;

use dotaios_mcp::{Environment, Invocation, run};

fn main() -> ExitCode {
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    run(&args, Invocation::Adapter, &Environment::capture())
}
