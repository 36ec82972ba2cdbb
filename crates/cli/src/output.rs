//! The only module that writes to the terminal. A closed stdout (`dotaios … | head`) is a clean
//! exit, never a panic.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::io::Write;

/// Writes `text` to stdout exactly as given (no newline added).
pub(crate) fn out(text: &str) {
    let mut stdout = std::io::stdout().lock();
    if stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
        .is_err()
    {
        // Broken pipe or closed stdout: the reader went away; nothing useful remains to do.
        std::process::exit(0);
    }
}

/// Writes `line` and a newline to stdout.
pub(crate) fn out_line(line: &str) {
    let mut text = String::with_capacity(line.len() + 1);
    text.push_str(line);
    text.push('\n');
    out(&text);
}

/// Writes `line` and a newline to stderr, ignoring failures (there is nowhere left to report).
pub(crate) fn err_line(line: &str) {
    let mut stderr = std::io::stderr().lock();
    let _ = writeln!(stderr, "{line}");
}
