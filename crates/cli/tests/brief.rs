//! `dotaios brief --compact` end to end (contract 02 §15.1): the worked fixture of contract 02 §17
//! with its dates moved to the real "today" (the binary reads the real clock; `TZ=UTC` pins the
//! zone), Off mode, the non-compact refusal, usage errors, and one test per refusal path asserting
//! the exact message, the exit code, no machine path in the output and an unchanged tree.
#![allow(
    clippy::disallowed_methods,
    reason = "tests build and inspect their folders with std::fs"
)]
// Helpers and imports of the Unix-only cases (links, modes, FIFOs) are unused on Windows.
#![cfg_attr(not(unix), allow(unused_imports, dead_code))]

#[path = "../../core/tests/wc_support/mod.rs"]
mod wc_support;

#[cfg(unix)]
use std::os::unix::fs::symlink;
use std::path::Path;
use std::process::{Command, Output};

use wc_support::{
    OFF_NOTICE, PROJECT_220_STDOUT, PROJECT_DIGEST, SHARED_DIGEST, fingerprint, shift_dates, write,
    write_bytes, write_fixture,
};

const READ_FAILED: &str = "DotAIOS could not read working context safely.\n";

/// `dotaios` with `HOME` pointed at `home` and no `DOTAIOS_PATH`.
fn dotaios(home: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_dotaios"));
    command
        .env("HOME", home)
        .env("USERPROFILE", home)
        .env_remove("DOTAIOS_PATH");
    command
}

/// stdout and stderr as text.
fn texts(output: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

use dotaios_testkit::examples_aios;

/// A temp directory with `aios/`, a copy of the sample folder, and `home/`.
fn sample_copy() -> tempfile::TempDir {
    let temp = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    dotaios_testkit::write_sample(&temp.path().join("aios"));
    std::fs::create_dir(temp.path().join("home")).unwrap_or_else(|e| panic!("home: {e}"));
    temp
}

/// Today in UTC, the zone the tests give the binary.
fn utc_today() -> String {
    jiff::Timestamp::now()
        .to_zoned(jiff::tz::TimeZone::UTC)
        .date()
        .to_string()
}

/// A temp directory with `aios/` (the fixture around today) and `home/`.
struct Fixture {
    temp: tempfile::TempDir,
    today: String,
}

impl Fixture {
    fn new() -> Fixture {
        let temp = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
        let today = utc_today();
        write_fixture(&temp.path().join("aios"), &today);
        std::fs::create_dir(temp.path().join("home")).unwrap_or_else(|e| panic!("home: {e}"));
        Fixture { temp, today }
    }

    fn aios(&self) -> std::path::PathBuf {
        self.temp.path().join("aios")
    }

    /// Runs `dotaios brief args… --path <aios>` with `TZ=UTC`.
    fn brief(&self, args: &[&str]) -> Output {
        dotaios(&self.temp.path().join("home"))
            .env("TZ", "UTC")
            .arg("brief")
            .args(args)
            .arg("--path")
            .arg(self.aios())
            .output()
            .unwrap_or_else(|e| panic!("spawn: {e}"))
    }

    fn expected(&self, text: &str) -> String {
        shift_dates(text, &self.today)
    }

    /// Whether the run straddled midnight UTC (then the expected dates are stale).
    fn date_moved(&self) -> bool {
        utc_today() != self.today
    }
}

/// Asserts a path-free refusal: exactly `message` on stderr, nothing on stdout, exit 1, no
/// machine path anywhere.
fn assert_refusal(fixture: &Fixture, output: &Output, message: &str) {
    let (stdout, stderr) = texts(output);
    assert_eq!(stderr, message);
    assert_eq!(stdout, "");
    assert_eq!(output.status.code(), Some(1));
    let temp = fixture.temp.path().to_string_lossy();
    assert!(!stderr.contains(temp.as_ref()) && !stdout.contains(temp.as_ref()));
    assert!(
        !stderr.contains("/tmp") && !stderr.contains('/'),
        "{stderr}"
    );
}

#[test]
fn shared_mode_prints_the_worked_fixture() {
    let fixture = Fixture::new();
    let before = fingerprint(&fixture.aios());
    let output = fixture.brief(&["--compact"]);
    if fixture.date_moved() {
        return;
    }
    let (stdout, stderr) = texts(&output);
    assert_eq!(stderr, "");
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(stdout, format!("{}\n", fixture.expected(SHARED_DIGEST)));
    assert_eq!(fingerprint(&fixture.aios()), before);
}

#[test]
fn shared_mode_json_is_the_agent_hook_object() {
    let fixture = Fixture::new();
    let output = fixture.brief(&["daily", "--hook-json", "--compact"]);
    if fixture.date_moved() {
        return;
    }
    let (stdout, _) = texts(&output);
    assert_eq!(output.status.code(), Some(0));
    assert!(stdout.starts_with("{\"systemMessage\":\"Memory: Shared\",\"hookSpecificOutput\":{\"hookEventName\":\"BeforeAgent\",\"additionalContext\":\"Memory: Shared\\n\\n## Active Context · "));
    assert!(stdout.ends_with(
        "\"dotaiosMemory\":{\"mode\":\"shared\",\"project\":null},\"contextBudget\":{\"limit\":6000,\"used\":1502,\"remaining\":4498,\"truncated\":false}}\n"
    ));
    assert_eq!(stdout.lines().count(), 1);
}

/// Contract 02 §14.2: `--json` is the agent-hook JSON of the reference, byte for
/// byte the same as `--hook-json`, so hooks written for the reference keep working.
#[test]
fn json_is_the_agent_hook_json_and_hook_json_its_alias() {
    let fixture = Fixture::new();
    let json = fixture.brief(&["--compact", "--json"]);
    let hook = fixture.brief(&["--compact", "--hook-json"]);
    let equals = fixture.brief(&["--compact", "--json", "--project=proj-rust-001"]);
    let spaced = fixture.brief(&["--compact", "--hook-json", "--project", "proj-rust-001"]);
    if fixture.date_moved() {
        return;
    }
    assert_eq!(json.status.code(), Some(0));
    assert_eq!(json.stdout, hook.stdout);
    assert!(texts(&json).0.starts_with("{\"systemMessage\":\"Memory: Shared\",\"hookSpecificOutput\":{\"hookEventName\":\"BeforeAgent\","));
    assert_eq!(equals.status.code(), Some(0));
    assert_eq!(equals.stdout, spaced.stdout);
    let off = fixture.brief(&["--memory", "off", "--json"]);
    let off_hook = fixture.brief(&["--memory", "off", "--hook-json"]);
    assert_eq!(off.stdout, off_hook.stdout);
    assert!(
        texts(&off)
            .0
            .starts_with("{\"systemMessage\":\"Memory: Off — ")
    );
}

#[test]
fn envelope_is_the_mcp_payload() {
    let fixture = Fixture::new();
    let plain = fixture.brief(&["--compact"]);
    let output = fixture.brief(&["--compact", "--envelope"]);
    if fixture.date_moved() {
        return;
    }
    let (stdout, stderr) = texts(&output);
    assert_eq!((output.status.code(), stderr.as_str()), (Some(0), ""));
    let envelope: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let keys: Vec<&str> = envelope
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "markdown",
            "memory",
            "receipt",
            "notice",
            "complete",
            "scope",
            "generated_at",
            "budget",
            "operational"
        ]
    );
    assert_eq!(envelope["memory"], "shared");
    assert_eq!(
        format!("{}\n", envelope["markdown"].as_str().unwrap()),
        texts(&plain).0
    );
    assert_eq!(envelope["budget"]["used"], 1502);
    assert!(
        stdout.starts_with("{\n  \"markdown\": "),
        "pretty JSON: {stdout}"
    );
}

#[test]
fn project_mode_prints_the_worked_fixture() {
    let fixture = Fixture::new();
    for selector in ["proj-rust-001", "rust-port"] {
        let output = fixture.brief(&["--compact", "--project", selector]);
        if fixture.date_moved() {
            return;
        }
        assert_eq!(output.status.code(), Some(0));
        assert_eq!(
            texts(&output).0,
            format!("{}\n", fixture.expected(PROJECT_DIGEST))
        );
    }
    let json = fixture.brief(&["--compact", "--hook-json", "--project", " proj-rust-001"]);
    let (stdout, _) = texts(&json);
    assert!(
        stdout.contains("\"dotaiosMemory\":{\"mode\":\"project\",\"project\":\" proj-rust-001\"}"),
        "{stdout}"
    );
    assert!(stdout.ends_with("\"contextCoverage\":{\"version\":1,\"selectedProjectReadme\":{\"excerptClipped\":false,\"budgetOmitted\":false},\"notice\":null}}\n"));
}

#[test]
fn project_mode_with_a_small_budget_prints_the_coverage_notice() {
    let fixture = Fixture::new();
    let output = fixture.brief(&["--compact", "--project", "proj-rust-001", "--budget", "220"]);
    if fixture.date_moved() {
        return;
    }
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(texts(&output).0, fixture.expected(PROJECT_220_STDOUT));
    let json = fixture.brief(&[
        "--compact",
        "--project",
        "proj-rust-001",
        "--budget",
        "220",
        "--hook-json",
    ]);
    let (stdout, _) = texts(&json);
    assert!(stdout.contains(
        "\"contextBudget\":{\"limit\":220,\"used\":219,\"remaining\":1,\"truncated\":true}"
    ));
    assert!(stdout.contains("\"budgetOmitted\":true},\"notice\":\"> [DotAIOS] Selected project README context is incomplete: text omitted by output budget."));
}

#[test]
fn limit_and_budget_options() {
    let fixture = Fixture::new();
    let one = texts(&fixture.brief(&["--compact", "--limit", "1"])).0;
    assert!(
        one.contains("\"Plan the port\"") && !one.contains("General chat"),
        "{one}"
    );
    let none = texts(&fixture.brief(&["--compact", "--limit", "0"])).0;
    assert!(!none.contains("### Recent Sessions"), "{none}");
    let zero = fixture.brief(&["--compact", "--budget", "0"]);
    assert_eq!(texts(&zero).0, "\n");
    let huge = fixture.brief(&[
        "--compact",
        "--budget",
        "100000000000000000000000",
        "--hook-json",
    ]);
    assert!(
        texts(&huge)
            .0
            .contains("\"contextBudget\":{\"limit\":1e+23,")
    );
    let infinite = "9".repeat(400);
    let refused = fixture.brief(&["--compact", "--budget", &infinite]);
    assert_refusal(
        &fixture,
        &refused,
        "Working-context visible character budget must be non-negative\n",
    );
}

#[test]
fn off_mode_touches_nothing() {
    let temp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let missing = temp.path().join("does-not-exist");
    for args in [
        &["--memory", "off", "--compact"][..],
        &["--memory", "off"],
        &["--first-message", "private chat please", "--compact"],
    ] {
        let output = dotaios(temp.path())
            .arg("brief")
            .args(args)
            .arg("--path")
            .arg(&missing)
            .output()
            .unwrap_or_else(|e| panic!("{e}"));
        let (stdout, stderr) = texts(&output);
        assert_eq!(stdout, format!("Memory: Off\n\n{OFF_NOTICE}\n"), "{args:?}");
        assert_eq!(stderr, "");
        assert_eq!(output.status.code(), Some(0));
        assert!(!missing.exists());
    }
    let json = dotaios(temp.path())
        .args(["brief", "--memory", "off", "--hook-json", "--path"])
        .arg(&missing)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        texts(&json).0,
        format!(
            "{{\"systemMessage\":\"Memory: Off \u{2014} {OFF_NOTICE}\",\"hookSpecificOutput\":{{\"hookEventName\":\"BeforeAgent\",\"additionalContext\":\"Memory: Off\\n\\n{OFF_NOTICE}\"}},\"dotaiosMemory\":{{\"mode\":\"off\",\"project\":null}},\"contextBudget\":{{\"limit\":143,\"used\":143,\"remaining\":0,\"truncated\":false}}}}\n"
        )
    );
    assert!(!missing.exists());
}

#[test]
fn brief_without_compact_writes_nothing_and_says_so() {
    let fixture = Fixture::new();
    let before = fingerprint(&fixture.aios());
    let output = fixture.brief(&[]);
    let (stdout, stderr) = texts(&output);
    assert_eq!(
        stderr,
        "dotaios brief prints the working context only; pass --compact.\n"
    );
    assert_eq!(stdout, "");
    // A usage error, like every missing argument (contract 06 §1.3).
    assert_eq!(output.status.code(), Some(1));
    let scoped = fixture.brief(&["--project", "rust-port"]);
    assert_refusal(
        &fixture,
        &scoped,
        "--memory and --project are supported with --compact only.\n",
    );
    let first = fixture.brief(&["--first-message", "hello"]);
    assert_refusal(
        &fixture,
        &first,
        "--first-message and --cwd are supported with --compact only.\n",
    );
    assert_eq!(fingerprint(&fixture.aios()), before);
}

#[test]
fn help_wins_over_everything() {
    let fixture = Fixture::new();
    let output = fixture.brief(&["--bogus", "-h"]);
    assert_eq!(output.status.code(), Some(0));
    assert!(
        texts(&output)
            .0
            .starts_with("Usage: dotaios brief --compact")
    );
}

#[test]
fn usage_errors_in_order() {
    let fixture = Fixture::new();
    let cases: &[(&[&str], &str)] = &[
        (&["--compact", "--cwd", "/x"], "Unknown option: --cwd\n"),
        (
            &["--compact", "--pth=x"],
            "Unknown option: --pth. Did you mean --path?\n",
        ),
        (&["--compact", "--json=1"], "--json does not take a value\n"),
        (&["--compact", "--budget="], "--budget requires a value\n"),
        (&["weekly"], "Unknown option: weekly\n"),
        (
            &["--compact", "--budget", "-1"],
            "--budget must be a non-negative whole number.\n",
        ),
        (
            &["--compact", "--budget", "1.5", "--bogus"],
            "--budget must be a non-negative whole number.\n",
        ),
        (
            &["--compact", "--limit", "x"],
            "--limit must be a non-negative whole number.\n",
        ),
        (&["--compact", "--project"], "--project requires a value\n"),
        (
            &["--compact", "--project", "--hook-json"],
            "--project requires a value\n",
        ),
        (
            &["--compact", "--memory", ""],
            "--memory requires a value\n",
        ),
        (
            &["--compact", "--memory", "everything"],
            "Memory mode must be one of: shared, project, off.\n",
        ),
        (
            &["--compact", "--memory", "of"],
            "Memory mode must be one of: shared, project, off. Did you mean off?\n",
        ),
        (
            &["--compact", "--memory", "shared", "--project", "rust-port"],
            "Cannot combine shared memory with a project selector.\n",
        ),
        (
            &["--compact", "--memory", "project"],
            "A project selector is required for This project memory.\n",
        ),
        (
            &["--compact", "--project", "   "],
            "Working-context project filter must not be blank\n",
        ),
        (
            &["--compact", "--project", "rust-port-x"],
            "Project selector is unknown.\n",
        ),
    ];
    let before = fingerprint(&fixture.aios());
    for (args, message) in cases {
        let output = fixture.brief(args);
        let (stdout, stderr) = texts(&output);
        assert_eq!(stderr, *message, "{args:?}");
        assert_eq!(stdout, "", "{args:?}");
        assert_eq!(output.status.code(), Some(1), "{args:?}");
    }
    assert_eq!(fingerprint(&fixture.aios()), before);
}

#[test]
fn first_message_phrases_choose_the_mode() {
    let fixture = Fixture::new();
    let project = fixture.brief(&[
        "--compact",
        "--project",
        "rust-port",
        "--first-message",
        "only this project, please",
    ]);
    assert!(texts(&project).0.starts_with("Memory: This project\n"));
    let shared = fixture.brief(&[
        "--compact",
        "--memory",
        "shared",
        "--project",
        "rust-port",
        "--first-message",
        "Use my memory",
    ]);
    assert!(
        texts(&shared).0.starts_with("Memory: Shared\n"),
        "{:?}",
        texts(&shared)
    );
}

#[test]
fn ambiguous_selector_names_the_selector() {
    let fixture = Fixture::new();
    write(
        &fixture.aios(),
        "projects/alt/README.md",
        "---\nproject: rust-port\n---\n# Alt\n",
    );
    let output = fixture.brief(&["--compact", "--project", "rust-port"]);
    assert_refusal(
        &fixture,
        &output,
        "Project reference \"rust-port\" is ambiguous. Use its stable id.\n",
    );
}

#[test]
fn a_missing_folder_is_named() {
    let fixture = Fixture::new();
    std::fs::remove_file(fixture.aios().join("aios.json")).unwrap_or_else(|e| panic!("{e}"));
    let output = fixture.brief(&["--compact"]);
    let (stdout, stderr) = texts(&output);
    assert_eq!(
        stderr,
        format!(
            "No AIOS folder found at {}. Run dotaios init first, or pass --path.\n",
            fixture.aios().display()
        )
    );
    assert_eq!(stdout, "");
    assert_eq!(output.status.code(), Some(1));
}

#[cfg(unix)]
/// Runs `brief --compact` (plain and `--json`) on the fixture after `setup` and asserts the
/// one path-free message, exit 1, and an unchanged tree (contract 02 §17.5).
fn assert_read_refusal(setup: impl Fn(&Path)) {
    let fixture = Fixture::new();
    setup(&fixture.aios());
    let before = fingerprint(&fixture.aios());
    for args in [
        &["--compact"][..],
        &["--compact", "--json"],
        &["--compact", "--hook-json"],
        &["--compact", "--envelope"],
    ] {
        let output = fixture.brief(args);
        assert_refusal(&fixture, &output, READ_FAILED);
    }
    assert_eq!(fingerprint(&fixture.aios()), before, "the folder changed");
}

/// One test per safety and limit variant of contract 02 §17.5.
macro_rules! refusal {
    ($($name:ident => $setup:expr;)*) => {
        $(
            // Links, FIFOs and the fingerprint's mode bits: Unix only.
            #[cfg(unix)]
            #[test]
            fn $name() {
                assert_read_refusal($setup);
            }
        )*
    };
}

refusal! {
    refuses_identity_one_byte_over_1_mib => |r: &Path| write_bytes(r, "context/identity.md", &vec![b'a'; (1 << 20) + 1]);
    refuses_priorities_with_invalid_utf8 => |r: &Path| write_bytes(r, "context/priorities.md", b"# P\n\xff\n");
    refuses_identity_linked_inside => |r: &Path| {
        std::fs::remove_file(r.join("context/identity.md")).ok();
        symlink("priorities.md", r.join("context/identity.md")).ok();
    };
    refuses_identity_linked_outside => |r: &Path| {
        std::fs::remove_file(r.join("context/identity.md")).ok();
        symlink("/etc/hostname", r.join("context/identity.md")).ok();
    };
    refuses_events_as_a_fifo => |r: &Path| {
        std::fs::remove_file(r.join("memory/events.jsonl")).ok();
        std::process::Command::new("mkfifo")
            .args(["-m", "644"])
            .arg(r.join("memory/events.jsonl").as_path())
            .status()
            .ok();
    };
    refuses_events_as_a_directory => |r: &Path| {
        std::fs::remove_file(r.join("memory/events.jsonl")).ok();
        std::fs::create_dir(r.join("memory/events.jsonl")).ok();
    };
    refuses_a_signal_file_that_is_a_directory => |r: &Path| {
        std::fs::create_dir(r.join(format!("memory/signals/x-{}.jsonl", utc_today()))).ok();
    };
    refuses_a_decision_log_one_byte_over_4_mib => |r: &Path| write_bytes(r, "decisions/log.md", &vec![b'a'; (4 << 20) + 1]);
    refuses_when_17_signal_files_exhaust_the_ledger => |r: &Path| {
        let today = utc_today();
        for n in 0..17 {
            write_bytes(r, &format!("memory/signals/big{n}-{today}.jsonl"), &vec![b' '; 1_000_000]);
        }
    };
    refuses_65_signal_files => |r: &Path| {
        let today = utc_today();
        for n in 0..65 {
            write(r, &format!("memory/signals/m{n}-{today}.jsonl"), "");
        }
    };
    refuses_8193_signal_entries => |r: &Path| {
        for n in 0..8_193 - 3 {
            write(r, &format!("memory/signals/n{n}.txt"), "");
        }
    };
    refuses_257_project_entries => |r: &Path| {
        for n in 0..257 - 3 {
            write(r, &format!("projects/f{n}.txt"), "");
        }
    };
    refuses_a_linked_project_entry => |r: &Path| {
        symlink("rust-port", r.join("projects/x")).ok();
    };
    refuses_conflicting_ids => |r: &Path| write(r, "projects/c/README.md", "---\nid: a\nproject_id: b\n---\n");
    refuses_a_duplicate_id => |r: &Path| write(r, "projects/d/README.md", "---\nid: proj-web-002\n---\n");
    refuses_invalid_yaml => |r: &Path| write(r, "projects/y/README.md", "---\nid: [unterminated\n---\n");
}

#[test]
fn corrupt_signal_lines_are_skipped_without_quarantine() {
    let fixture = Fixture::new();
    let today = fixture.today.clone();
    write(
        &fixture.aios(),
        &format!("memory/signals/{today}.jsonl"),
        &format!("not json\n{{\"ts\":\"{today}T08:30:00.000Z\",\"summary\":\"Valid line\"}}\n"),
    );
    let before = fingerprint(&fixture.aios());
    let output = fixture.brief(&["--compact"]);
    assert_eq!(output.status.code(), Some(0));
    assert!(texts(&output).0.contains("] Valid line\n"));
    assert_eq!(fingerprint(&fixture.aios()), before);
    assert!(
        !before
            .paths()
            .iter()
            .any(|name| name.ends_with(".bad.jsonl"))
    );
}

#[test]
fn migration_notices_precede_the_digest() {
    let fixture = Fixture::new();
    write(
        &fixture.aios(),
        "aios.json",
        "{\"schema_version\":\"invalid\"}",
    );
    let output = fixture.brief(&["--compact"]);
    let (stdout, _) = texts(&output);
    assert_eq!(output.status.code(), Some(0));
    assert!(stdout.starts_with(
        "> [DotAIOS] Folder migration state could not be verified (INVALID_SCHEMA).\n> Do not assume the folder is current or start a compatibility write.\n> Diagnose this same folder with: dotaios doctor --path <this-aios-folder>\n\nMemory: Shared\n"
    ));
}

#[test]
fn the_sample_folder_renders() {
    let temp = sample_copy();
    let aios = temp.path().join("aios");
    let before = fingerprint(&aios);
    let output = dotaios(&temp.path().join("home"))
        .env("TZ", "UTC")
        .args(["brief", "--compact", "--path"])
        .arg(&aios)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let (stdout, stderr) = texts(&output);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(
        stdout.starts_with("Memory: Shared\n\n## Active Context · "),
        "{stdout}"
    );
    for section in [
        "### Identity",
        "### Priorities",
        "### Current Work",
        "### Decisions",
        "### Active Project",
        "### Recent Sessions",
    ] {
        assert!(stdout.contains(section), "{section} missing:\n{stdout}");
    }
    assert!(stdout.encode_utf16().count() <= 6001);
    assert_eq!(fingerprint(&aios), before);
    assert!(examples_aios().join("aios.json").exists());
}

/// Issue 35: a project directory with any odd name (every `Cc`/`Cf` character, Markdown and
/// HTML metacharacters, line breaks) leaves the working context as it was without it, in both
/// modes and every output form (contract 01 §6.1, 02 §10.1). The names go in batches, as
/// `projects/` holds at most 256 entries.
#[cfg(unix)]
#[test]
fn odd_project_directory_names_never_stop_the_working_context() {
    let names = dotaios_testkit::hostile_names();
    for batch in names.chunks(200) {
        let fixture = Fixture::new();
        let plain_json = fixture.brief(&["--compact", "--json"]);
        for name in batch {
            let dir = fixture.aios().join("projects").join(name);
            std::fs::create_dir(&dir).unwrap_or_else(|e| panic!("{name:?}: {e}"));
            // Were this README read, its invalid YAML would fail the catalog.
            write(
                &dir,
                "README.md",
                "---\nid: [\nstatus: active\n---\n# ODD-README\n",
            );
        }
        // And a name that is not UTF-8.
        let not_utf8: &std::ffi::OsStr = std::os::unix::ffi::OsStrExt::from_bytes(b"bad\xff");
        std::fs::create_dir(fixture.aios().join("projects").join(not_utf8)).unwrap();
        let before = fingerprint(&fixture.aios());
        let shared = fixture.brief(&["--compact"]);
        let project = fixture.brief(&["--compact", "--project", "proj-rust-001"]);
        let json = fixture.brief(&["--compact", "--json"]);
        let envelope = fixture.brief(&["--compact", "--envelope", "--project", "rust-port"]);
        if fixture.date_moved() {
            return;
        }
        for output in [&shared, &project, &json, &envelope] {
            let (stdout, stderr) = texts(output);
            assert_eq!((output.status.code(), stderr.as_str()), (Some(0), ""));
            dotaios_testkit::assert_no_raw_name(&stdout, batch, "ODD-README");
        }
        assert_eq!(
            texts(&shared).0,
            format!("{}\n", fixture.expected(SHARED_DIGEST))
        );
        assert_eq!(
            texts(&project).0,
            format!("{}\n", fixture.expected(PROJECT_DIGEST))
        );
        assert_eq!(json.stdout, plain_json.stdout);
        assert!(
            texts(&envelope)
                .0
                .contains("Re-implement the DotAIOS read side in Rust.")
        );
        assert_eq!(fingerprint(&fixture.aios()), before);
    }
}

/// At a terminal the digest is the people form (contract 06 §1.9): the receipt says once what
/// the memory mode covers, and the identity file's own `# Identity` does not repeat its
/// `### Identity` section heading (issue 39 item 12). Piped, every other test sees the digest of
/// contract 02 §14.1 unchanged.
#[cfg(unix)]
#[test]
fn at_a_terminal_the_brief_explains_the_receipt_and_drops_repeated_titles() {
    use rustix::pty::{OpenptFlags, grantpt, openpt, ptsname, unlockpt};
    let master = openpt(OpenptFlags::RDWR | OpenptFlags::NOCTTY).unwrap();
    rustix::io::fcntl_setfd(&master, rustix::io::FdFlags::CLOEXEC).unwrap();
    grantpt(&master).unwrap();
    unlockpt(&master).unwrap();
    let name = ptsname(&master, Vec::new()).unwrap();
    let terminal = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(name.to_str().unwrap())
        .unwrap();
    let home = tempfile::tempdir().unwrap();
    let mut child = dotaios(home.path())
        .env("TZ", "UTC")
        .args(["brief", "--compact", "--path"])
        .arg(examples_aios())
        .stdout(std::process::Stdio::from(terminal))
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Read while the child writes: the terminal's buffer is smaller than the digest.
    let reader = std::thread::spawn(move || {
        let mut master = std::fs::File::from(master);
        let mut bytes = Vec::new();
        let mut chunk = [0u8; 4096];
        // The read fails with EIO once the child has closed its end.
        while let Ok(read @ 1..) = std::io::Read::read(&mut master, &mut chunk) {
            bytes.extend_from_slice(&chunk[..read]);
        }
        bytes
    });
    assert!(child.wait().unwrap().success());
    let shown = String::from_utf8(reader.join().unwrap())
        .unwrap()
        .replace("\r\n", "\n");
    assert!(
        shown.starts_with(
            "Memory: Shared (all of this AIOS folder; --memory project or off narrows it)\n\n## Active Context · "
        ),
        "{shown}"
    );
    assert!(shown.contains("\n### Identity\n## Basics\n"), "{shown}");
    assert!(!shown.contains("# Identity\n# Identity"), "{shown}");
}
