//! The adapter as this crate's integration tests spawn it: the same one call as the shipped
//! `dotaios-mcp` binary of the `dotaios` package (`crates/cli/src/bin/dotaios-mcp.rs`), built
//! here so that `cargo test -p dotaios-mcp` needs no other package's binary. Only the
//! `test-adapter` feature builds it, which this crate's own dev-dependency turns on.
#![forbid(unsafe_code)]

use std::ffi::OsString;
use std::process::ExitCode;

use dotaios_mcp::{Environment, Invocation, run};

fn main() -> ExitCode {
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    run(&args, Invocation::Adapter, &Environment::capture())
}
