//! The only module that writes to the terminal. A closed stdout (`dotaios … | head`) is a clean
//! exit, never a panic.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::io::Write;
use std::path::Path;

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

/// `lines` as output text: each one followed by a newline.
pub(crate) fn lines_text(lines: &[String]) -> String {
    let mut text = lines.join("\n");
    text.push('\n');
    text
}

/// Writes `line` and a newline to stderr, ignoring failures (there is nowhere left to report).
pub(crate) fn err_line(line: &str) {
    let mut stderr = std::io::stderr().lock();
    let _ = writeln!(stderr, "{line}");
}

/// Quotes `path` for a copy-pasteable command line (contract 01 §9.4): as is when it matches
/// `^[A-Za-z0-9_./:-]+$` (on Windows `\` too, a plain character to PowerShell and `cmd`),
/// otherwise in single quotes with `'` written `'\''`.
pub(crate) fn shell_quote(path: &Path) -> String {
    let bytes = path.as_os_str().as_encoded_bytes();
    let plain_punctuation: &[u8] = if cfg!(windows) { b"_./:-\\" } else { b"_./:-" };
    let plain = !bytes.is_empty()
        && bytes
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || plain_punctuation.contains(b));
    let text = path.to_string_lossy();
    if plain {
        text.into_owned()
    } else {
        format!("'{}'", text.replace('\'', "'\\''"))
    }
}
