//! The option scanner shared by every command (spec 06 §1.2).
//!
//! Commands walk their arguments left to right and validate each as it is read, which is what
//! the spec's error order requires (`--limit` is checked when read, the first unknown option
//! wins). Rules: options are `--name`, values are the next argument, a value that is missing,
//! empty or starts with `--` fails as `<flag> requires a value`, there is no `--name=value`
//! form, and arguments are OS strings (non-UTF-8 paths never panic). See
//! `docs/decisions.md` for why this is not clap.

use std::ffi::{OsStr, OsString};

use crate::CliError;

/// One argument as the scanner sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Arg {
    /// A flag such as `--path`, `-y` or `--agent=codex` (the last is never a known flag).
    Flag(String),
    /// Anything that does not look like a flag.
    Positional(OsString),
}

/// A left-to-right cursor over one command's arguments.
#[derive(Debug)]
pub(crate) struct Scanner<'a> {
    items: &'a [OsString],
    position: usize,
}

impl<'a> Scanner<'a> {
    pub(crate) fn new(items: &'a [OsString]) -> Scanner<'a> {
        Scanner { items, position: 0 }
    }

    /// `-h` or `--help` anywhere among the arguments: the command prints its help first.
    pub(crate) fn wants_help(items: &[OsString]) -> bool {
        items.iter().any(|item| item == "-h" || item == "--help")
    }

    /// The next argument, classified.
    pub(crate) fn next_arg(&mut self) -> Option<Arg> {
        let item = self.items.get(self.position)?;
        self.position += 1;
        Some(classify(item))
    }

    /// The value of `flag`, taken from the next argument.
    pub(crate) fn value(&mut self, flag: &str) -> Result<OsString, CliError> {
        match self.items.get(self.position) {
            Some(value) if is_usable_value(value) => {
                self.position += 1;
                Ok(value.clone())
            }
            _ => Err(CliError::Usage(format!("{flag} requires a value"))),
        }
    }

    /// The value of `flag` as UTF-8 text; a non-UTF-8 value is reported like a missing one.
    pub(crate) fn text_value(&mut self, flag: &str) -> Result<String, CliError> {
        self.value(flag)?
            .into_string()
            .map_err(|_| CliError::Usage(format!("{flag} requires a value")))
    }

    /// The next argument when it exists and does not start with `--` (optional values such as
    /// `migrate --recover [plan-id]`).
    pub(crate) fn optional_value(&mut self) -> Option<OsString> {
        let value = self.items.get(self.position)?;
        if starts_with_double_dash(value) {
            return None;
        }
        self.position += 1;
        Some(value.clone())
    }
}

/// The error for an argument a command does not accept.
pub(crate) fn unknown_option(flag: &str) -> CliError {
    CliError::Usage(format!("Unknown option: {flag}"))
}

fn classify(item: &OsStr) -> Arg {
    let bytes = item.as_encoded_bytes();
    let is_flag = bytes.starts_with(b"--") || (bytes.len() == 2 && bytes[0] == b'-');
    if is_flag {
        Arg::Flag(item.to_string_lossy().into_owned())
    } else {
        Arg::Positional(item.to_os_string())
    }
}

fn is_usable_value(value: &OsStr) -> bool {
    !value.is_empty() && !starts_with_double_dash(value)
}

fn starts_with_double_dash(value: &OsStr) -> bool {
    value.as_encoded_bytes().starts_with(b"--")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(items: &[&str]) -> Vec<OsString> {
        items.iter().map(OsString::from).collect()
    }

    #[test]
    fn values_follow_their_flag() {
        let items = os(&["--path", "-x", "--json"]);
        let mut scanner = Scanner::new(&items);
        assert_eq!(scanner.next_arg(), Some(Arg::Flag("--path".into())));
        assert_eq!(scanner.value("--path").unwrap(), OsString::from("-x"));
        assert_eq!(scanner.next_arg(), Some(Arg::Flag("--json".into())));
        assert_eq!(scanner.next_arg(), None);
    }

    #[test]
    fn missing_empty_or_dashed_values_are_refused() {
        for items in [vec![], vec![""], vec!["--json"]] {
            let items = os(&items);
            let mut scanner = Scanner::new(&items);
            let error = scanner.value("--path").unwrap_err();
            assert_eq!(error.to_string(), "--path requires a value");
        }
    }

    #[test]
    fn equals_form_is_a_flag_nobody_knows() {
        let items = os(&["--agent=codex"]);
        let mut scanner = Scanner::new(&items);
        assert_eq!(scanner.next_arg(), Some(Arg::Flag("--agent=codex".into())));
        assert_eq!(
            unknown_option("--agent=codex").to_string(),
            "Unknown option: --agent=codex"
        );
    }

    #[test]
    fn help_anywhere_wins() {
        assert!(Scanner::wants_help(&os(&["x", "--bogus", "-h"])));
        assert!(!Scanner::wants_help(&os(&["--helpful"])));
    }

    #[cfg(unix)]
    #[test]
    fn non_utf8_arguments_do_not_panic() {
        use std::os::unix::ffi::OsStringExt;
        let items = vec![
            OsString::from_vec(vec![b'-', b'-', 0xff]),
            OsString::from_vec(vec![0xfe]),
        ];
        let mut scanner = Scanner::new(&items);
        assert!(matches!(scanner.next_arg(), Some(Arg::Flag(_))));
        assert!(matches!(scanner.next_arg(), Some(Arg::Positional(_))));
    }
}
