//! The option table and the scanner shared by every command (contract 06 §1.2).
//!
//! Each command declares its options once, as a [`CommandSpec`]: name, value, help line. That
//! one table drives the scanner below, the `--help` text ([`CommandSpec::help`]), the shell
//! completions (`crate::commands::completions`) and the help tests, the way ripgrep's flag
//! definitions drive its parser, help and completions.
//!
//! Commands walk their arguments left to right and validate each as it is read, which is what
//! the contract's error order requires (`--limit` is checked when read, the first unknown option
//! wins). Rules: options are `--name` (or a declared one-letter alias such as `-y`); a value is
//! the next argument or the text after `=` (`--path=DIR`); a value that is missing, empty or
//! starts with `--` fails as `<flag> requires a value`; `--flag=…` on a flag without a value
//! fails as `<flag> does not take a value`; an unknown `--name` fails as `Unknown option:
//! --name`, with `. Did you mean --x?` when a known option is close; `--` ends the options.
//! Arguments are OS strings (non-UTF-8 paths never panic). See `docs/decisions.md` for why
//! this is not clap. This module never reads or writes anything but its arguments.

use std::ffi::{OsStr, OsString};

use dotaios_core::folder::location::os_tail;
pub(crate) use dotaios_core::text::did_you_mean;

/// ` Did you mean <candidate>?` for a refused value whose message already ends in a full stop
/// (contract 06 §1.2: the option suggestion, worded the same), or nothing when none is near.
pub(crate) fn value_hint<'c>(given: &str, candidates: impl IntoIterator<Item = &'c str>) -> String {
    did_you_mean(given, candidates, "")
        .trim_start_matches('.')
        .to_owned()
}

use crate::CliError;

/// What an option takes after its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Takes {
    /// A flag: `--json`.
    Nothing,
    /// A required value, shown in help as the placeholder: `--path <dir>`.
    Value(&'static str),
    /// A value that may be left out: `--recover [<plan-id>]` (taken when the next argument
    /// does not start with `--`; an empty one is refused as `<flag> requires a value`).
    OptionalValue(&'static str),
}

/// One option of one command.
#[derive(Debug)]
pub(crate) struct OptionSpec {
    /// The long name with its dashes: `--path`.
    pub(crate) name: &'static str,
    /// A one-letter alias with its dash: `-y`.
    pub(crate) short: Option<&'static str>,
    pub(crate) takes: Takes,
    /// The help line; a `\n` starts a continuation line aligned under the first.
    pub(crate) help: &'static str,
}

impl CommandSpec {
    /// The help line of the option `name` (for the tests that hold the help to the defaults of
    /// `dotaios_core::request`).
    #[cfg(test)]
    pub(crate) fn option_help(&self, name: &str) -> Option<&'static str> {
        self.options
            .iter()
            .find(|option| option.name == name)
            .map(|option| option.help)
    }
}

impl OptionSpec {
    /// A flag without a value.
    pub(crate) const fn flag(name: &'static str, help: &'static str) -> OptionSpec {
        OptionSpec {
            name,
            short: None,
            takes: Takes::Nothing,
            help,
        }
    }

    /// An option with a required value.
    pub(crate) const fn value(
        name: &'static str,
        placeholder: &'static str,
        help: &'static str,
    ) -> OptionSpec {
        OptionSpec {
            name,
            short: None,
            takes: Takes::Value(placeholder),
            help,
        }
    }

    /// Whether the option may appear more than once in one call (contract 06 §1.2). A flag
    /// repeated means the same thing twice, so it is accepted; an option that takes a value is
    /// refused the second time, because neither value can be assumed to be the one the user
    /// meant (`init --path a --path b` must not write into `b`). This is the one home of that
    /// rule for every command.
    pub(crate) const fn repeatable(&self) -> bool {
        matches!(self.takes, Takes::Nothing)
    }

    /// How the option is written in the help's left column.
    pub(crate) fn synopsis(&self) -> String {
        let long = match self.takes {
            Takes::Nothing => self.name.to_owned(),
            Takes::Value(placeholder) => format!("{} {placeholder}", self.name),
            Takes::OptionalValue(placeholder) => format!("{} [{placeholder}]", self.name),
        };
        match self.short {
            Some(short) => format!("{short}, {long}"),
            None => long,
        }
    }
}

/// `--path <dir>` as the reading commands word it (contract 06 §1.5).
pub(crate) const PATH_OPTION: OptionSpec = OptionSpec::value(
    "--path",
    "<dir>",
    "Use a non-default AIOS folder (default ~/aios)",
);

/// `--memory <mode>`, shared by `brief` and `search` (one memory policy, contract 02 §13).
pub(crate) const MEMORY_OPTION: OptionSpec = OptionSpec::value(
    "--memory",
    "<mode>",
    "shared, project or off (default: shared, or project with --project)",
);

/// The `-h, --help` line every command's help ends its options with.
const HELP_OPTION: OptionSpec = OptionSpec {
    name: "--help",
    short: Some("-h"),
    takes: Takes::Nothing,
    help: "Show this help",
};

/// One command (or subcommand) and everything its help says.
#[derive(Debug)]
pub(crate) struct CommandSpec {
    /// The words after `dotaios`: `search`, `skills resolve`.
    pub(crate) name: &'static str,
    /// The top-level help's left column for this command (`brief --compact`); empty for a
    /// subcommand that the top-level help does not list.
    pub(crate) label: &'static str,
    /// One line for the top-level help and the completions.
    pub(crate) summary: &'static str,
    /// The help text before the options: usage lines and description.
    pub(crate) usage: &'static str,
    pub(crate) options: &'static [OptionSpec],
    /// Words that may follow the command (subcommands, services), for the completions.
    pub(crate) words: &'static [&'static str],
    /// The help text after the options (exit status, notes); empty or starting with `\n`.
    pub(crate) footer: &'static str,
}

impl CommandSpec {
    /// The command's `--help` text: usage, the option table, footer.
    pub(crate) fn help(&self) -> String {
        let rows: Vec<(String, &str)> = self
            .options
            .iter()
            .chain(std::iter::once(&HELP_OPTION))
            .map(|option| (option.synopsis(), option.help))
            .collect();
        let width = rows.iter().map(|(left, _)| left.chars().count()).max();
        let width = width.unwrap_or(0) + 2;
        let mut text = format!("{}\nOptions:\n", self.usage);
        for (left, help) in rows {
            let mut lines = help.split('\n');
            let first = lines.next().unwrap_or_default();
            text.push_str(&format!("  {left:<width$}{first}\n"));
            for line in lines {
                text.push_str(&format!("  {:width$}{line}\n", ""));
            }
        }
        text.push_str(self.footer);
        text
    }

    fn find(&self, name: &str) -> Option<&'static OptionSpec> {
        self.options
            .iter()
            .find(|option| option.name == name || option.short == Some(name))
    }

    /// The line for an unknown `--name`: `Unknown option: --name`, with the closest known
    /// option when one is near (contract 06 §1.2).
    pub(crate) fn unknown_option(&self, name: &str) -> CliError {
        let known = self.options.iter().map(|option| option.name);
        CliError::UnknownOption {
            name: name.to_owned(),
            hint: did_you_mean(name, known.chain(["--help"]), "--"),
        }
    }
}

/// One argument as the scanner hands it to a command. Option names are the table's long
/// names (`-y` arrives as `--yes`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Item {
    /// A flag without a value.
    Flag(&'static str),
    /// An option and its value.
    Value(&'static str, OsString),
    /// An option whose value may be absent.
    MaybeValue(&'static str, Option<OsString>),
    /// Anything else, and everything after `--`.
    Positional(OsString),
}

/// A left-to-right cursor over one command's arguments.
#[derive(Debug)]
pub(crate) struct Scanner<'a> {
    items: &'a [OsString],
    position: usize,
    spec: &'static CommandSpec,
    options_ended: bool,
    /// Names that are not options of the command but fail with their own fixed line.
    refused: (&'static [&'static str], &'static str),
    /// The non-repeatable options read so far (a command declares a handful).
    seen: Vec<&'static str>,
}

impl<'a> Scanner<'a> {
    pub(crate) fn new(items: &'a [OsString], spec: &'static CommandSpec) -> Scanner<'a> {
        Scanner {
            items,
            position: 0,
            spec,
            options_ended: false,
            refused: (&[], ""),
            seen: Vec::new(),
        }
    }

    /// Makes the options `names` fail with `message` instead of the unknown-option line (the
    /// unsupported options a command's chapter names, e.g. search's `--follow`).
    pub(crate) fn refusing(
        mut self,
        names: &'static [&'static str],
        message: &'static str,
    ) -> Scanner<'a> {
        self.refused = (names, message);
        self
    }

    /// `-h` or `--help` anywhere before `--`: the command prints its help first.
    pub(crate) fn wants_help(items: &[OsString]) -> bool {
        items
            .iter()
            .take_while(|item| item.as_os_str() != "--")
            .any(|item| item == "-h" || item == "--help")
    }

    /// The next argument, classified and with its value; the first problem is an error.
    pub(crate) fn next_item(&mut self) -> Result<Option<Item>, CliError> {
        let Some(item) = self.items.get(self.position) else {
            return Ok(None);
        };
        self.position += 1;
        if self.options_ended {
            return Ok(Some(Item::Positional(item.clone())));
        }
        if item == "--" {
            self.options_ended = true;
            return self.next_item();
        }
        let Some((name, inline)) = option_parts(item) else {
            return Ok(Some(Item::Positional(item.clone())));
        };
        let Some(option) = self.spec.find(&name) else {
            // Only declared one-letter aliases are options: `-x` is a word (contract 03 §17.1).
            if !name.starts_with("--") {
                return Ok(Some(Item::Positional(item.clone())));
            }
            if self.refused.0.contains(&name.as_str()) {
                return Err(CliError::RefusedOption(self.refused.1));
            }
            return Err(self.spec.unknown_option(&name));
        };
        let flag = option.name;
        if !option.repeatable() {
            if self.seen.contains(&flag) {
                return Err(CliError::RepeatedOption(flag));
            }
            self.seen.push(flag);
        }
        match (option.takes, inline) {
            (Takes::Nothing, None) => Ok(Some(Item::Flag(flag))),
            (Takes::Nothing, Some(_)) => Err(CliError::TakesNoValue(flag)),
            (Takes::Value(_), Some(value)) | (Takes::OptionalValue(_), Some(value)) => {
                if value.is_empty() {
                    return Err(requires_value(flag));
                }
                Ok(Some(match option.takes {
                    Takes::Value(_) => Item::Value(flag, value),
                    _ => Item::MaybeValue(flag, Some(value)),
                }))
            }
            (Takes::Value(_), None) => match self.items.get(self.position) {
                Some(value) if !value.is_empty() && !starts_with_double_dash(value) => {
                    self.position += 1;
                    Ok(Some(Item::Value(flag, value.clone())))
                }
                _ => Err(requires_value(flag)),
            },
            (Takes::OptionalValue(_), None) => match self.items.get(self.position) {
                Some(value) if value.is_empty() => Err(requires_value(flag)),
                Some(value) if !starts_with_double_dash(value) => {
                    self.position += 1;
                    Ok(Some(Item::MaybeValue(flag, Some(value.clone()))))
                }
                _ => Ok(Some(Item::MaybeValue(flag, None))),
            },
        }
    }
}

/// The value of `flag` as UTF-8 text; a non-UTF-8 value is reported like a missing one.
pub(crate) fn text(value: OsString, flag: &str) -> Result<String, CliError> {
    value.into_string().map_err(|_| requires_value(flag))
}

/// The error for a value-taking option without a usable value.
pub(crate) fn requires_value(flag: &str) -> CliError {
    CliError::RequiresValue(flag.to_owned())
}

/// The error for a positional argument a command does not accept (contract 06 §1.2 names it
/// like an option: `Unknown option: weekly`).
pub(crate) fn unexpected(word: &OsStr) -> CliError {
    CliError::UnknownOption {
        name: word.to_string_lossy().into_owned(),
        hint: String::new(),
    }
}

/// An item of the table that the command's own match does not handle: a mismatch between
/// table and command, which the generated help tests catch (every declared option is
/// accepted). Reported as an unknown option rather than a panic.
pub(crate) fn unhandled(item: &Item) -> CliError {
    match item {
        Item::Flag(name) | Item::Value(name, _) | Item::MaybeValue(name, _) => {
            CliError::UnknownOption {
                name: (*name).to_owned(),
                hint: String::new(),
            }
        }
        Item::Positional(word) => unexpected(word),
    }
}

/// The position of the first positional argument, skipping option values as the scanner
/// would (used to find a subcommand before the options are validated, contract 06 §3.1).
pub(crate) fn first_positional(items: &[OsString], spec: &'static CommandSpec) -> Option<usize> {
    let mut position = 0;
    while let Some(item) = items.get(position) {
        if item == "--" {
            return (position + 1 < items.len()).then_some(position + 1);
        }
        match option_parts(item) {
            None => return Some(position),
            // An undeclared `-x` is a word, as in the scanner; `-h` never is.
            Some((name, None))
                if !name.starts_with("--") && name != "-h" && spec.find(&name).is_none() =>
            {
                return Some(position);
            }
            Some((name, None)) => {
                let takes_next = spec
                    .find(&name)
                    .is_some_and(|option| matches!(option.takes, Takes::Value(_)));
                position += if takes_next { 2 } else { 1 };
            }
            Some((_, Some(_))) => position += 1,
        }
    }
    None
}

/// `--name` or `--name=value` (a `--` followed by a letter), or a lone `-x`: the name and the
/// inline value. `None` for a positional (`-1`, `e-mail`, `--`, `---`).
fn option_parts(item: &OsStr) -> Option<(String, Option<OsString>)> {
    let bytes = item.as_encoded_bytes();
    if let Some(rest) = bytes.strip_prefix(b"--") {
        if !rest.first().is_some_and(u8::is_ascii_alphabetic) {
            return None;
        }
        return Some(match rest.iter().position(|&byte| byte == b'=') {
            Some(equals) => {
                let split = 2 + equals;
                let name = String::from_utf8_lossy(&bytes[..split]).into_owned();
                // The value after `=` is kept exactly when the name is ASCII (`os_tail`
                // cuts after ASCII); no option has another name, so any other is refused
                // as unknown and its value only needs to exist.
                let value = if bytes[..=split].is_ascii() {
                    os_tail(item, split + 1)
                } else {
                    OsString::from(String::from_utf8_lossy(&bytes[split + 1..]).into_owned())
                };
                (name, Some(value))
            }
            None => (item.to_string_lossy().into_owned(), None),
        });
    }
    let is_short = bytes.len() == 2 && bytes[0] == b'-' && bytes[1].is_ascii_alphabetic();
    is_short.then(|| (item.to_string_lossy().into_owned(), None))
}

fn starts_with_double_dash(value: &OsStr) -> bool {
    value.as_encoded_bytes().starts_with(b"--")
}

/// Test arguments as the scanner receives them.
#[cfg(test)]
pub(crate) fn os_args(items: &[&str]) -> Vec<OsString> {
    items.iter().map(OsString::from).collect()
}

#[cfg(test)]
mod tests {
    use super::os_args as os;
    use super::*;

    static SPEC: CommandSpec = CommandSpec {
        name: "test",
        label: "",
        summary: "",
        usage: "Usage: test\n",
        options: &[
            OptionSpec::value("--path", "<dir>", "Folder"),
            OptionSpec::flag("--json", "JSON"),
            OptionSpec::value("--limit", "<n>", "Limit"),
            OptionSpec {
                name: "--recover",
                short: None,
                takes: Takes::OptionalValue("<id>"),
                help: "Recover\nsecond line",
            },
            OptionSpec {
                name: "--yes",
                short: Some("-y"),
                takes: Takes::Nothing,
                help: "Yes",
            },
        ],
        words: &[],
        footer: "",
    };

    fn scan(items: &[&str]) -> Result<Vec<Item>, String> {
        let items = os(items);
        let mut scanner = Scanner::new(&items, &SPEC);
        let mut out = Vec::new();
        while let Some(item) = scanner.next_item().map_err(|e| e.to_string())? {
            out.push(item);
        }
        Ok(out)
    }

    #[test]
    fn values_follow_their_flag_or_an_equals_sign() {
        assert_eq!(
            scan(&["--path", "-x", "--json", "--limit=3", "-y"]),
            Ok(vec![
                Item::Value("--path", "-x".into()),
                Item::Flag("--json"),
                Item::Value("--limit", "3".into()),
                Item::Flag("--yes"),
            ])
        );
        assert_eq!(
            scan(&["--path=a=b"]),
            Ok(vec![Item::Value("--path", "a=b".into())])
        );
    }

    #[test]
    fn missing_empty_or_dashed_values_are_refused() {
        for items in [
            &["--path"][..],
            &["--path", ""],
            &["--path", "--json"],
            &["--path="],
        ] {
            assert_eq!(scan(items), Err("--path requires a value".into()));
        }
        assert_eq!(
            scan(&["--json=1"]),
            Err("--json does not take a value".into())
        );
    }

    #[test]
    fn optional_values() {
        assert_eq!(
            scan(&["--recover", "--json"]),
            Ok(vec![
                Item::MaybeValue("--recover", None),
                Item::Flag("--json")
            ])
        );
        assert_eq!(
            scan(&["--recover", "id"]),
            Ok(vec![Item::MaybeValue("--recover", Some("id".into()))])
        );
        assert_eq!(
            scan(&["--recover=id"]),
            Ok(vec![Item::MaybeValue("--recover", Some("id".into()))])
        );
        // A value given but empty is refused like a required one, in both spellings.
        for items in [
            &["--recover", ""][..],
            &["--recover="],
            &["--recover", "", "--json"],
        ] {
            assert_eq!(scan(items), Err("--recover requires a value".into()));
        }
    }

    #[test]
    fn unknown_options_name_the_closest_known_one() {
        assert_eq!(
            scan(&["--limt", "3"]),
            Err("Unknown option: --limt. Did you mean --limit?".into())
        );
        assert_eq!(
            scan(&["--jsno"]),
            Err("Unknown option: --jsno. Did you mean --json?".into())
        );
        assert_eq!(
            scan(&["--agent=codex"]),
            Err("Unknown option: --agent".into())
        );
        assert_eq!(scan(&["--zzzzzz"]), Err("Unknown option: --zzzzzz".into()));
        let long = format!("--{}", "l".repeat(10_000));
        assert_eq!(scan(&[&long]), Err(format!("Unknown option: {long}")));
    }

    #[test]
    fn an_option_with_a_value_is_refused_the_second_time() {
        for items in [
            &["--path", "a", "--path", "b"][..],
            &["--path=a", "--json", "--path", "b"],
            &["--path", "a", "--path=a"],
        ] {
            assert_eq!(scan(items), Err("--path may only be provided once".into()));
        }
        assert_eq!(
            scan(&["--recover", "--recover", "id"]),
            Err("--recover may only be provided once".into())
        );
        // A flag repeated means the same thing; `-y` is `--yes`.
        assert_eq!(
            scan(&["--json", "--json", "-y", "--yes"]),
            Ok(vec![
                Item::Flag("--json"),
                Item::Flag("--json"),
                Item::Flag("--yes"),
                Item::Flag("--yes"),
            ])
        );
        // After `--` a repeated name is a word.
        assert_eq!(
            scan(&["--limit", "1", "--", "--limit"]),
            Ok(vec![
                Item::Value("--limit", "1".into()),
                Item::Positional("--limit".into()),
            ])
        );
    }

    #[test]
    fn double_dash_ends_the_options() {
        assert_eq!(
            scan(&["a", "--", "--limt", "-y", "--"]),
            Ok(vec![
                Item::Positional("a".into()),
                Item::Positional("--limt".into()),
                Item::Positional("-y".into()),
                Item::Positional("--".into()),
            ])
        );
        assert_eq!(
            scan(&["-1", "e-mail", "---", "--9", "-x"]),
            Ok(["-1", "e-mail", "---", "--9", "-x"]
                .map(|word| Item::Positional(word.into()))
                .to_vec())
        );
    }

    #[test]
    fn help_anywhere_before_double_dash_wins() {
        assert!(Scanner::wants_help(&os(&["x", "--bogus", "-h"])));
        assert!(!Scanner::wants_help(&os(&["--helpful"])));
        assert!(!Scanner::wants_help(&os(&["--", "--help"])));
    }

    #[test]
    fn first_positional_skips_values() {
        assert_eq!(
            first_positional(&os(&["--path", "x", "serve"]), &SPEC),
            Some(2)
        );
        assert_eq!(
            first_positional(&os(&["--path=x", "serve"]), &SPEC),
            Some(1)
        );
        assert_eq!(first_positional(&os(&["--path", "serve"]), &SPEC), None);
        assert_eq!(first_positional(&os(&["--", "--x"]), &SPEC), Some(1));
        assert_eq!(first_positional(&os(&["-h", "-y", "-x"]), &SPEC), Some(2));
    }

    #[test]
    fn help_is_generated_from_the_table() {
        let help = SPEC.help();
        assert!(help.starts_with("Usage: test\n\nOptions:\n  --path <dir>"));
        assert!(help.contains("\n  --recover [<id>]  Recover\n                    second line\n"));
        assert!(help.contains("\n  -y, --yes         Yes\n"));
        assert!(help.ends_with("  -h, --help        Show this help\n"));
    }

    #[cfg(unix)]
    #[test]
    fn non_utf8_arguments_do_not_panic() {
        use std::os::unix::ffi::OsStringExt;
        let items = vec![
            OsString::from_vec(vec![0xfe]),
            OsString::from_vec(b"--path=\xff".to_vec()),
            OsString::from_vec(vec![b'-', b'-', b'x', 0xff]),
        ];
        let mut scanner = Scanner::new(&items, &SPEC);
        assert!(matches!(scanner.next_item(), Ok(Some(Item::Positional(_)))));
        assert_eq!(
            scanner.next_item().ok().flatten(),
            Some(Item::Value("--path", OsString::from_vec(vec![0xff])))
        );
        assert!(scanner.next_item().is_err());
    }
}
