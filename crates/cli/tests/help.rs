//! The top-level dispatcher (contract 06 §1.1, §1.5).
#![allow(
    clippy::disallowed_methods,
    reason = "tests build and inspect their folders with std::fs"
)]

mod support;

use support::{dotaios, sample_copy};

/// Contract 06 §1.5: the top-level help lists exactly the commands of the binary's own
/// table (read back from `dotaios completions bash`, which is generated from the table the
/// dispatcher admits names by), in its order, and each of them is dispatched: its `--help` is
/// its own usage, not the unknown-command refusal.
#[test]
fn top_level_help_lists_exactly_the_dispatched_commands() {
    let temp = sample_copy();
    let home = temp.path().join("home");
    let table = table(&home);
    let names: Vec<&str> = table
        .commands
        .iter()
        .map(|(name, _)| name.as_str())
        .collect();
    let help = dotaios_testkit::output(dotaios(&home).arg("--help"));
    assert_eq!(help.code(), Some(0));
    let help = help.stdout_text();
    let listed: Vec<&str> = help
        .split_once("\nCommands:\n")
        .and_then(|(_, rest)| rest.split_once("\n\n"))
        .expect("a Commands section")
        .0
        .lines()
        .map(|line| line.split_whitespace().next().unwrap_or(""))
        .collect();
    assert_eq!(listed, names, "{help}");
    for name in names {
        let own = dotaios_testkit::output(dotaios(&home).args([name, "--help"]));
        assert_eq!(own.code(), Some(0), "{name}: {}", own.stderr_text());
        assert_eq!(own.stderr_text(), "", "{name}");
        let text = own.stdout_text();
        let usage = text.strip_prefix("Usage:").map(str::trim_start);
        assert!(
            usage.is_some_and(|usage| usage.starts_with(&format!("dotaios {name}"))),
            "{name}:\n{text}"
        );
    }
}

#[test]
fn unknown_command_is_one_stderr_line_nothing_on_stdout_and_exit_1() {
    let temp = sample_copy();
    let output = dotaios(&temp.path().join("home"))
        .arg("frobnicate")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "Unknown command: frobnicate. Run dotaios --help to see the commands.\n"
    );
    assert!(output.stdout.is_empty());
    let version = dotaios(&temp.path().join("home"))
        .arg("-v")
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&version.stdout),
        format!("{}\n", env!("CARGO_PKG_VERSION"))
    );
}

/// The option table as the binary publishes it: `dotaios completions bash` is generated from
/// it, so each command's options and the value-taking options are read back from there.
struct Table {
    /// Top-level command → its words and options, in table order.
    commands: Vec<(String, Vec<String>)>,
    /// Options that take a value (required or optional).
    values: Vec<String>,
}

fn table(home: &std::path::Path) -> Table {
    let output = dotaios(home)
        .args(["completions", "bash"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let script = String::from_utf8(output.stdout).unwrap();
    let values = script
        .lines()
        .find_map(|line| line.trim().strip_suffix(") return 0 ;;"))
        .expect("the value-option case")
        .split('|')
        .map(str::to_owned)
        .collect();
    let commands = script
        .lines()
        .filter_map(|line| {
            let (name, rest) = line.trim().split_once(") words=\"")?;
            let words = rest.strip_suffix("\" ;;")?;
            Some((
                name.to_owned(),
                words.split(' ').map(str::to_owned).collect(),
            ))
        })
        .collect();
    Table { commands, values }
}

/// What to put before an option so that the command reaches its option parsing with a
/// folder that does not exist (nothing is read or written, and nothing is served).
fn prefix(command: &str) -> Option<Vec<&'static str>> {
    Some(match command {
        "init" => vec!["init"],
        "brief" => vec!["brief", "--compact"],
        "search" => vec!["search", "q"],
        "skills" => vec!["skills", "resolve", "x"],
        "doctor" => vec!["doctor"],
        "migrate" => vec!["migrate"],
        "mcp" => vec!["mcp", "status"],
        "connect" => vec!["connect", "opencode", "--dry-run"],
        _ => return None,
    })
}

fn is_scanner_error(stderr: &str) -> bool {
    stderr.contains("Unknown option")
        || stderr.contains("requires a value")
        || stderr.contains("does not take a value")
}

/// Generated from the table: every command appears in the top-level help, every option in
/// its command's help, and every option is accepted as `--name value` and `--name=value`
/// (a flag refuses `=value` with the one fixed line).
#[test]
fn every_command_and_option_is_in_its_help_and_accepted_in_both_forms() {
    let temp = tempfile::tempdir().unwrap();
    let home = temp.path().join("home");
    std::fs::create_dir(&home).unwrap();
    let missing = temp.path().join("missing");
    let table = table(&home);
    assert!(table.commands.len() >= 11, "{:?}", table.commands);
    let top = String::from_utf8(dotaios(&home).arg("help").output().unwrap().stdout).unwrap();
    for (command, words) in &table.commands {
        assert!(
            top.lines()
                .any(|line| line.starts_with("  ")
                    && line.trim_start().starts_with(command.as_str())),
            "{command} missing from the top-level help"
        );
        let mut help = String::new();
        // A subcommand with its own table (`skills resolve`) has its own help.
        let mut helps = vec![vec![command.as_str(), "--help"]];
        if command == "skills" {
            helps.push(vec!["skills", "resolve", "--help"]);
        }
        if command == "mcp" {
            helps.push(vec!["mcp", "status", "--help"]);
            helps.push(vec!["mcp", "install", "--help"]);
        }
        for args in helps {
            let output = dotaios(&home).args(&args).output().unwrap();
            assert_eq!(output.status.code(), Some(0), "{args:?}");
            help.push_str(&String::from_utf8(output.stdout).unwrap());
        }
        let via_help = dotaios(&home).args(["help", command]).output().unwrap();
        assert_eq!(via_help.status.code(), Some(0), "help {command}");
        assert!(help.starts_with(std::str::from_utf8(&via_help.stdout).unwrap()));
        let options = words.iter().filter(|word| word.starts_with('-'));
        for option in options {
            assert!(
                help.contains(option.as_str()),
                "{command} help lacks {option}"
            );
            let Some(prefix) = prefix(command) else {
                continue;
            };
            if option == "--help" || option == "-y" {
                continue;
            }
            let takes_value = table.values.contains(option);
            let run = |tail: &[String]| {
                let output = dotaios(&home)
                    .current_dir(temp.path())
                    .args(&prefix)
                    .arg("--path")
                    .arg(&missing)
                    .args(tail)
                    .output()
                    .unwrap();
                String::from_utf8(output.stderr).unwrap()
            };
            if takes_value {
                let value = if option == "--path" {
                    missing.display().to_string()
                } else {
                    "1".to_owned()
                };
                for tail in [
                    vec![option.clone(), value.clone()],
                    vec![format!("{option}={value}")],
                ] {
                    let stderr = run(&tail);
                    assert!(!is_scanner_error(&stderr), "{command} {tail:?}: {stderr}");
                }
            } else {
                let stderr = run(std::slice::from_ref(option));
                assert!(!is_scanner_error(&stderr), "{command} {option}: {stderr}");
                let stderr = run(&[format!("{option}=1")]);
                assert_eq!(
                    stderr,
                    format!("{option} does not take a value\n"),
                    "{command}"
                );
            }
        }
    }
    assert!(!missing.join("aios.json").exists() || missing.join("aios.json").is_file());
}

#[test]
fn help_command_and_version_spellings() {
    let temp = sample_copy();
    let home = temp.path().join("home");
    for args in [&["-V"][..], &["--version"], &["-v"]] {
        let output = dotaios(&home).args(args).output().unwrap();
        assert_eq!(output.status.code(), Some(0));
        assert_eq!(
            String::from_utf8_lossy(&output.stdout),
            format!("{}\n", env!("CARGO_PKG_VERSION"))
        );
    }
    let top = dotaios(&home).arg("--help").output().unwrap();
    let help = dotaios(&home).arg("help").output().unwrap();
    assert_eq!(help.status.code(), Some(0));
    assert_eq!(help.stdout, top.stdout);
    let unknown = dotaios(&home).args(["help", "serach"]).output().unwrap();
    assert_eq!(unknown.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&unknown.stderr),
        "Unknown command: serach. Did you mean search?\n"
    );
}

#[test]
fn unknown_command_suggests_the_closest() {
    let temp = sample_copy();
    let output = dotaios(&temp.path().join("home"))
        .arg("serach")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "Unknown command: serach. Did you mean search?\n"
    );
    assert!(output.stdout.is_empty());
}

/// Contract 06 §1.1: a mistyped global flag gets the closest one, on stderr alone.
#[test]
fn unknown_global_flag_suggests_the_closest() {
    let temp = sample_copy();
    for (given, line) in [
        (
            "--verison",
            "Unknown option: --verison. Did you mean --version?",
        ),
        ("--hlep", "Unknown option: --hlep. Did you mean --help?"),
        (
            "-x",
            "Unknown option: -x. Run dotaios --help to see the commands.",
        ),
    ] {
        let output = dotaios(&temp.path().join("home"))
            .arg(given)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(1), "{given}");
        assert_eq!(String::from_utf8_lossy(&output.stderr), format!("{line}\n"));
        assert!(output.stdout.is_empty(), "{given}");
    }
}

/// Contract 03 §17.1: a mistyped option is refused, not searched for; after
/// `--` it is a query word.
#[test]
fn search_refuses_a_mistyped_option_and_takes_words_after_double_dash() {
    let temp = sample_copy();
    let before = dotaios_testkit::fingerprint(&temp.path().join("aios"));
    let typo = support::run_on(&temp, &["search", "tidepool", "--limt", "3"]);
    assert_eq!(typo.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&typo.stderr),
        "Unknown option: --limt. Did you mean --limit?\n"
    );
    assert!(typo.stdout.is_empty());
    let words = dotaios(&temp.path().join("home"))
        .args(["search", "--json", "--path"])
        .arg(temp.path().join("aios"))
        .args(["--", "--limt"])
        .output()
        .unwrap();
    let (stdout, stderr) = support::texts(&words);
    assert!(matches!(words.status.code(), Some(0 | 2)), "{stderr}");
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(json["query"], "--limt");
    let equals = support::run_on(
        &temp,
        &["search", "tidepool", "--limit=1", "--scope=vault", "--json"],
    );
    let (stdout, stderr) = support::texts(&equals);
    assert!(matches!(equals.status.code(), Some(0 | 2)), "{stderr}");
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(json["query"], "tidepool");
    assert_eq!(
        dotaios_testkit::fingerprint(&temp.path().join("aios")),
        before
    );
}

/// The completion scripts: bash parses (`bash -n`), zsh and fish name every command.
#[test]
fn completion_scripts() {
    let temp = tempfile::tempdir().unwrap();
    let home = temp.path();
    let script = |shell: &str| {
        let output = dotaios(home).args(["completions", shell]).output().unwrap();
        assert_eq!(output.status.code(), Some(0), "{shell}");
        String::from_utf8(output.stdout).unwrap()
    };
    let bash = script("bash");
    // The syntax check needs bash, which a Windows machine does not have.
    if cfg!(unix) {
        let file = temp.path().join("dotaios.bash");
        std::fs::write(&file, &bash).unwrap();
        let check = std::process::Command::new("bash")
            .arg("-n")
            .arg(&file)
            .output()
            .unwrap();
        assert!(
            check.status.success(),
            "{}",
            String::from_utf8_lossy(&check.stderr)
        );
    }
    let commands: Vec<String> = table(home)
        .commands
        .into_iter()
        .map(|(name, _)| name)
        .collect();
    let (zsh, fish) = (script("zsh"), script("fish"));
    assert!(zsh.starts_with("#compdef dotaios\n"));
    for command in &commands {
        assert!(zsh.contains(&format!("'{command}:")), "zsh lacks {command}");
        assert!(
            zsh.contains(&format!("({command}) opts=(")),
            "zsh lacks {command}"
        );
        assert!(
            fish.contains(&format!("-a {command} -d ")),
            "fish lacks {command}"
        );
    }
    let wrong = dotaios(home).args(["completions", "bsh"]).output().unwrap();
    assert_eq!(wrong.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&wrong.stderr),
        "Unknown shell: bsh. Did you mean bash?\n"
    );
    let none = dotaios(home).arg("completions").output().unwrap();
    assert_eq!(
        String::from_utf8_lossy(&none.stderr),
        "Usage: dotaios completions bash|zsh|fish\n"
    );
}

/// `search --help` documents `--color` with `NO_COLOR`, the two output forms and how each is
/// chosen (contract 06 §1.9).
#[test]
fn search_help_documents_colour_and_the_output_forms() {
    let temp = tempfile::tempdir().unwrap();
    let output = dotaios(temp.path())
        .args(["search", "--help"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let help = String::from_utf8(output.stdout).unwrap();
    for needle in [
        "--color <when>",
        "auto, always or never",
        "NO_COLOR",
        "--heading",
        "--no-heading",
        "path:line:",
        "COLUMNS",
        "classic form",
        "grouped",
    ] {
        assert!(
            help.contains(needle),
            "search --help lacks {needle:?}:\n{help}"
        );
    }
}

/// `search --help` says what `--limit` counts as the engine does (contract 03 §9.4): one list
/// ranked over all scopes, `--limit` its length, never "per scope" (issue 39).
#[test]
fn search_help_says_the_ranking_and_the_limit_span_every_scope() {
    let temp = tempfile::tempdir().unwrap();
    let output = dotaios(temp.path())
        .args(["search", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8(output.stdout).unwrap();
    // Lines are wrapped: compare the words.
    let words = help.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        words.contains(
            "Results are one list ranked over all scopes together, --limit bounding its length"
        ),
        "{help}"
    );
    assert!(
        words.contains("--limit <n> Most results, over all scopes"),
        "{help}"
    );
    assert!(!words.contains("ranked per scope"), "{help}");
}
