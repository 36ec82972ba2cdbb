//! `dotaios completions bash|zsh|fish`: shell completion scripts generated from the option
//! table ([`super::COMMANDS`]), so a new option is completed as soon as it is declared. The
//! scripts complete command names, each command's options and words (`skills resolve`,
//! `mcp status`, …) and fall back to file names after an option that takes a value.
//!
//! What it must never do: read or write anything; the script goes to stdout only.

use std::collections::BTreeSet;
use std::ffi::OsString;
use std::process::ExitCode;

use super::COMMANDS;
use crate::CliError;
use crate::args::{CommandSpec, Item, Scanner, Takes, did_you_mean, unhandled};
use crate::output::out;

/// `dotaios completions`: its help and completions.
pub(crate) static SPEC: CommandSpec = CommandSpec {
    name: "completions",
    label: "completions",
    summary: "Print a shell completion script (bash, zsh or fish)",
    usage: "\
Usage:
  dotaios completions bash|zsh|fish

Print a completion script for the shell on stdout. For example:
  bash:  dotaios completions bash > ~/.local/share/bash-completion/completions/dotaios
  zsh:   dotaios completions zsh > \"${fpath[1]}/_dotaios\"
  fish:  dotaios completions fish > ~/.config/fish/completions/dotaios.fish
",
    options: &[],
    words: &SHELLS,
    footer: "",
};

const SHELLS: [&str; 3] = ["bash", "zsh", "fish"];
const USAGE: &str = "Usage: dotaios completions bash|zsh|fish";

/// Runs `dotaios completions`.
pub(crate) fn run(args: &[OsString]) -> Result<ExitCode, CliError> {
    if Scanner::wants_help(args) {
        out(&SPEC.help())?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut shell: Option<OsString> = None;
    let mut scanner = Scanner::new(args, &SPEC);
    while let Some(item) = scanner.next_item()? {
        match item {
            Item::Positional(word) if shell.is_none() => shell = Some(word),
            other => return Err(unhandled(&other)),
        }
    }
    let Some(shell) = shell else {
        return Err(CliError::UsageLine(USAGE));
    };
    let script = match shell.to_str() {
        Some("bash") => bash(),
        Some("zsh") => zsh(),
        Some("fish") => fish(),
        _ => {
            let name = shell.to_string_lossy();
            let hint = did_you_mean(&name, SHELLS, "");
            let hint = if hint.is_empty() {
                ". Use bash, zsh or fish.".to_owned()
            } else {
                hint
            };
            return Err(CliError::UnknownShell {
                name: name.into_owned(),
                hint,
            });
        }
    };
    out(&script)?;
    Ok(ExitCode::SUCCESS)
}

/// One top-level command as the completions see it: its options and words, merged over its
/// subcommand tables (`skills` and `skills resolve`).
struct Entry {
    name: &'static str,
    summary: &'static str,
    /// Option spellings (`--path`, `-y`) with their first help line and whether a value follows.
    options: Vec<(&'static str, &'static str, bool)>,
    words: Vec<&'static str>,
}

impl Entry {
    /// What may follow the command: its words, then its option spellings.
    fn completions(&self) -> Vec<&'static str> {
        let options = self.options.iter().map(|(name, _, _)| *name);
        self.words.iter().copied().chain(options).collect()
    }
}

fn entries() -> Vec<Entry> {
    let mut entries: Vec<Entry> = Vec::new();
    for spec in COMMANDS {
        let top = spec.name.split(' ').next().unwrap_or(spec.name);
        let index = match entries.iter().position(|entry| entry.name == top) {
            Some(index) => index,
            None => {
                entries.push(Entry {
                    name: top,
                    summary: spec.summary,
                    options: Vec::new(),
                    words: Vec::new(),
                });
                entries.len() - 1
            }
        };
        let entry = &mut entries[index];
        for option in spec.options {
            let help = option.help.split('\n').next().unwrap_or_default();
            let takes_value = !matches!(option.takes, Takes::Nothing);
            for spelling in std::iter::once(option.name).chain(option.short) {
                if !entry.options.iter().any(|(known, _, _)| *known == spelling) {
                    entry.options.push((spelling, help, takes_value));
                }
            }
        }
        for word in spec.words {
            if !entry.words.contains(word) {
                entry.words.push(word);
            }
        }
    }
    let names: Vec<&'static str> = entries.iter().map(|entry| entry.name).collect();
    if let Some(help) = entries.iter_mut().find(|entry| entry.name == "help") {
        help.words = names.into_iter().filter(|name| *name != "help").collect();
    }
    for entry in &mut entries {
        entry.options.push(("--help", "Show this help", false));
    }
    entries
}

/// Every option, of any command, that is followed by a value (files are completed there).
fn value_options(entries: &[Entry]) -> Vec<&'static str> {
    let set: BTreeSet<&'static str> = entries
        .iter()
        .flat_map(|entry| entry.options.iter())
        .filter(|(_, _, takes_value)| *takes_value)
        .map(|(name, _, _)| *name)
        .collect();
    set.into_iter().collect()
}

fn bash() -> String {
    let entries = entries();
    let names: Vec<&str> = entries.iter().map(|entry| entry.name).collect();
    let mut text = String::from(
        "# bash completion for dotaios (generated by `dotaios completions bash`)\n_dotaios() {\n    local cur=\"${COMP_WORDS[COMP_CWORD]}\"\n    local prev=\"${COMP_WORDS[COMP_CWORD-1]}\"\n    local words=\"\"\n",
    );
    text.push_str(&format!(
        "    case \"$prev\" in\n        {}) return 0 ;;\n    esac\n",
        value_options(&entries).join("|")
    ));
    text.push_str(&format!(
        "    if [ \"$COMP_CWORD\" -eq 1 ]; then\n        words=\"{} -h --help -v -V --version\"\n    else\n        case \"${{COMP_WORDS[1]}}\" in\n",
        names.join(" ")
    ));
    for entry in &entries {
        let words = entry.completions();
        text.push_str(&format!(
            "            {}) words=\"{}\" ;;\n",
            entry.name,
            words.join(" ")
        ));
    }
    text.push_str(
        "        esac\n    fi\n    COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n}\ncomplete -o default -F _dotaios dotaios\n",
    );
    text
}

fn zsh() -> String {
    let entries = entries();
    let mut text = String::from(
        "#compdef dotaios\n# zsh completion for dotaios (generated by `dotaios completions zsh`)\n_dotaios() {\n  local -a commands opts\n  commands=(\n",
    );
    for entry in &entries {
        let described = format!("{}:{}", entry.name, entry.summary.replace(':', "\\:"));
        text.push_str(&format!("    {}\n", zsh_quote(&described)));
    }
    text.push_str(
        "  )\n  if (( CURRENT == 2 )); then\n    _describe 'command' commands\n    return\n  fi\n",
    );
    text.push_str(&format!(
        "  case $words[CURRENT-1] in\n    ({}) _files; return ;;\n  esac\n  case $words[2] in\n",
        value_options(&entries).join("|")
    ));
    for entry in &entries {
        let words = entry.completions();
        text.push_str(&format!(
            "    ({}) opts=({}) ;;\n",
            entry.name,
            words.join(" ")
        ));
    }
    text.push_str("  esac\n  compadd -- $opts\n}\n_dotaios \"$@\"\n");
    text
}

fn fish() -> String {
    let entries = entries();
    let mut text = String::from(
        "# fish completion for dotaios (generated by `dotaios completions fish`)\ncomplete -c dotaios -f\n",
    );
    for entry in &entries {
        text.push_str(&format!(
            "complete -c dotaios -n __fish_use_subcommand -a {} -d {}\n",
            entry.name,
            fish_quote(entry.summary)
        ));
    }
    for entry in &entries {
        let condition = fish_quote(&format!("__fish_seen_subcommand_from {}", entry.name));
        for word in &entry.words {
            text.push_str(&format!("complete -c dotaios -n {condition} -a {word}\n"));
        }
        for (name, help, takes_value) in &entry.options {
            let spelling = match name.strip_prefix("--") {
                Some(long) => format!("-l {long}"),
                None => format!("-s {}", name.trim_start_matches('-')),
            };
            let value = if *takes_value { " -r -F" } else { "" };
            text.push_str(&format!(
                "complete -c dotaios -n {condition} {spelling}{value} -d {}\n",
                fish_quote(help)
            ));
        }
    }
    text
}

/// A zsh single-quoted word.
fn zsh_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', "'\\''"))
}

/// A fish single-quoted word (fish escapes `\` and `'` inside single quotes).
fn fish_quote(text: &str) -> String {
    format!("'{}'", text.replace('\\', "\\\\").replace('\'', "\\'"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_command_and_option_is_completed() {
        let (bash, zsh, fish) = (bash(), zsh(), fish());
        for spec in COMMANDS {
            let top = spec.name.split(' ').next().unwrap_or_default();
            for script in [&bash, &zsh, &fish] {
                assert!(script.contains(top), "{top}");
            }
            for option in spec.options {
                let long = option.name.trim_start_matches('-');
                assert!(bash.contains(option.name) && zsh.contains(option.name));
                assert!(fish.contains(&format!("-l {long}")), "{long}");
            }
        }
        assert!(bash.contains("|--vault-path) return 0"));
        assert!(fish.contains("-a resolve"));
    }

    #[test]
    fn quoting() {
        assert_eq!(zsh_quote("a client's view"), "'a client'\\''s view'");
        assert_eq!(fish_quote("a client's \\ view"), "'a client\\'s \\\\ view'");
    }
}
