//! `dotaios`, the command line. Everything is in the library (`src/lib.rs`); this binary only
//! enters it.
#![forbid(unsafe_code)]

fn main() -> std::process::ExitCode {
    dotaios_cli::main()
}
