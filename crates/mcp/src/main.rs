//! `dotaios-mcp`: the adapter binary that MCP client configurations launch.
#![forbid(unsafe_code)]

use std::ffi::OsString;
use std::process::ExitCode;

use dotaios_mcp::{Environment, Invocation, run};

fn main() -> ExitCode {
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    run(&args, Invocation::Adapter, &Environment::capture())
}
