//! The only module that writes to the terminal, and the rules for what it shows. Every write is
//! checked: a failed write becomes [`crate::CliError::Output`], which `error::report` turns
//! into the exit of contract 06 §1.3 (a closed stdout, `dotaios … | head`, ends quietly with
//! status 0; any other failure, a full disk behind `> /dev/full`, is one line on stderr and
//! status 1).
//!
//! What it must never do: panic or exit on a failed write (the caller's clean-up, the demo's
//! temporary folder, must still run), or put a path into the failure's message.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::CliError;

/// Writes `text` to stdout exactly as given (no newline added) and flushes it.
pub(crate) fn out(text: &str) -> Result<(), CliError> {
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
        .map_err(CliError::Output)
}

/// `lines` as output text: each one followed by a newline.
pub(crate) fn lines_text(lines: &[String]) -> String {
    let mut text = lines.join("\n");
    text.push('\n');
    text
}

/// Writes `line` and a newline to stderr.
pub(crate) fn err_line(line: &str) -> Result<(), CliError> {
    write_err_line(line).map_err(CliError::Output)
}

/// [`err_line`] for the error boundary and the panic hook, which have nowhere left to report a
/// failure: the exit status they return already says that the command failed.
pub(crate) fn last_err_line(line: &str) {
    let _ = write_err_line(line);
}

fn write_err_line(line: &str) -> std::io::Result<()> {
    let mut stderr = std::io::stderr().lock();
    writeln!(stderr, "{line}").and_then(|()| stderr.flush())
}

/// The operating system's description of a failed write, without the `(os error N)` that
/// `std::io::Error` appends: `No space left on device`. A write to stdout or stderr names no
/// path, so the text is safe to show (contract 06 §1.3).
pub(crate) fn write_failure(error: &std::io::Error) -> String {
    let text = if error.raw_os_error().is_some() {
        error.to_string()
    } else {
        error.kind().to_string()
    };
    match text.rfind(" (os error ") {
        Some(cut) if text.ends_with(')') => text[..cut].to_owned(),
        _ => text,
    }
}

/// `components` below `base`, joined one at a time, so that a path shown to the user has one
/// kind of separator: `\\` throughout on Windows, where no name can hold a `\\` or `/` of its own.
/// Folder-relative paths (contract 01 §4, `/`-separated) come here as `rel.split('/')`.
pub(crate) fn below<'a>(base: &Path, components: impl IntoIterator<Item = &'a str>) -> PathBuf {
    components
        .into_iter()
        .fold(base.to_path_buf(), |path, component| path.join(component))
}

/// Quotes `path` for a copy-pasteable command line (contract 01 §9.4): as is when it matches
/// `^[A-Za-z0-9_./:-]+$` (on Windows `\\` too), otherwise in single quotes.
pub(crate) fn shell_quote(path: &Path) -> String {
    quote_word(&path.to_string_lossy(), "_./:-")
}

/// `words` as one shell command line for a client's own command (contract 06 §5.4): a word of
/// only `[A-Za-z0-9@%+=:,./_-]` (on Windows `\\` too) as it is, any other in single quotes.
pub(crate) fn shell_words(words: &[&str]) -> String {
    words
        .iter()
        .map(|word| quote_word(word, "@%+=:,./_-"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `word` as it is when it is non-empty and every character is ASCII alphanumeric, in
/// `punctuation`, or (on Windows, a plain character to PowerShell and `cmd`) `\\`; otherwise in
/// single quotes with `'` written `'\\''`, so the printed line runs as shown in a POSIX shell. A
/// non-UTF-8 path arrives with U+FFFD in it and is quoted.
fn quote_word(word: &str, punctuation: &str) -> String {
    let plain = !word.is_empty()
        && word.chars().all(|c| {
            c.is_ascii_alphanumeric() || punctuation.contains(c) || (cfg!(windows) && c == '\\')
        });
    if plain {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_word_is_quoted_unless_every_character_is_plain() {
        assert_eq!(
            shell_words(&["a@b%c+d=e,f", "x y", "it's", ""]),
            "a@b%c+d=e,f 'x y' 'it'\\''s' ''"
        );
        // `@` is plain in a client's command line, not in a path (contract 01 §9.4).
        assert_eq!(shell_quote(Path::new("/a@b")), "'/a@b'");
        let windows = r"C:\Users\ada\aios";
        let expected = if cfg!(windows) {
            windows.to_owned()
        } else {
            format!("'{windows}'")
        };
        assert_eq!(shell_quote(Path::new(windows)), expected);
        assert_eq!(shell_words(&[windows]), expected);
    }

    #[test]
    fn below_joins_one_component_at_a_time() {
        let joined = below(Path::new("base"), "skills/plan-today/SKILL.md".split('/'));
        assert_eq!(
            joined,
            Path::new("base")
                .join("skills")
                .join("plan-today")
                .join("SKILL.md")
        );
    }
}
