//! Zero-write (contract 01 §4.9): every read command leaves the whole tree identical (names, kinds,
//! modes, sizes, mtimes, bytes), on the healthy sample folder and on a hostile one holding
//! links out of the folder, a FIFO where sources are expected, invalid UTF-8 and an outdated
//! schema. A read command must also never block on the FIFO.
#![allow(
    clippy::disallowed_methods,
    reason = "tests build and inspect their folders with std::fs"
)]

mod support;

use std::fs;
#[cfg(unix)]
use std::os::unix::fs::symlink;
use std::time::Duration;

use dotaios_testkit::fingerprint;
use support::{dotaios, sample_copy};

/// What one read command must print: its exit code, a piece of stdout (`Starts`, `Has`) or
/// all of it (`Is`), and all of stderr. A command that fails at dispatch (an unknown command,
/// a usage error) fails these, so "wrote nothing" is never proved by a command that never read.
struct Expect {
    code: i32,
    stdout: Out,
    stderr: &'static str,
}

enum Out {
    Starts(&'static str),
    Has(&'static str),
    Is(&'static str),
}

const fn ok(stdout: Out) -> Expect {
    Expect {
        code: 0,
        stdout,
        stderr: "",
    }
}

const CONTEXT_FAILED: Expect = Expect {
    code: 1,
    stdout: Out::Is(""),
    stderr: "DotAIOS could not read working context safely.\n",
};

/// Each read command with what it prints on the sample folder and on the hostile one.
const READ_COMMANDS: &[(&[&str], Expect, Expect)] = &[
    (
        &["doctor"],
        ok(Out::Starts("DotAIOS doctor\n\n[ok] AIOS folder at ")),
        Expect {
            code: 1,
            stdout: Out::Has("[fail] Working context readable\n        DOTAIOS_UNSAFE_READ_PATH\n"),
            stderr: "",
        },
    ),
    (
        &["doctor", "--json"],
        ok(Out::Has("\"summary\": {\n    \"fail\": 0,")),
        Expect {
            code: 1,
            stdout: Out::Has("\"summary\": {\n    \"fail\": 1,"),
            stderr: "",
        },
    ),
    (
        &["brief", "--compact"],
        ok(Out::Starts("Memory: Shared\n\n## Active Context · ")),
        CONTEXT_FAILED,
    ),
    (
        &["brief", "--compact", "--json"],
        ok(Out::Starts(
            "{\"systemMessage\":\"Memory: Shared\",\"hookSpecificOutput\":{",
        )),
        CONTEXT_FAILED,
    ),
    (
        &[
            "brief",
            "--compact",
            "--memory",
            "project",
            "--project",
            "tidepool",
        ],
        ok(Out::Starts("Memory: This project\n\n## Active Context · ")),
        ok(Out::Has("\nMemory: This project\n\n## Active Context · ")),
    ),
    (
        &["search", "invoice"],
        ok(Out::Starts(
            "Memory: Shared\nSearching for \"invoice\" in all...\n",
        )),
        // The link, the FIFO and the Latin-1 note are skipped and named; the rest is searched
        // (contract 03 §4.4, §4.5).
        Expect {
            code: 2,
            stdout: Out::Starts("Memory: Shared\nSearching for \"invoice\" in all...\n"),
            stderr: "Skipped symbolic link context/north-star-link.md: links are never followed. Move the note into the folder (or, for a linked vault, set vault_path in aios.json to the folder it points to); `dotaios doctor` lists every link.\n\
                     Skipped unreadable file context/priorities.md: not a regular file (a pipe, socket or device). Move it out of the folder.\n\
                     Skipped unreadable file references/latin1.md: not UTF-8 text. Re-save it as UTF-8, or move it out of the folder.\n",
        },
    ),
    (
        &["search", "plan", "--scope", "memory"],
        ok(Out::Starts(
            "Memory: Shared\nSearching for \"plan\" in memory...\n\n── memory/ (",
        )),
        ok(Out::Starts(
            "Memory: Shared\nSearching for \"plan\" in memory...\n\n── memory/ (",
        )),
    ),
    (
        &["skills"],
        ok(Out::Starts("6 skills installed:\n")),
        ok(Out::Starts("6 skills installed:\n")),
    ),
    (
        &["skills", "plan-today"],
        ok(Out::Starts("---\nname: plan-today\n")),
        ok(Out::Starts("---\nname: plan-today\n")),
    ),
    (
        &["skills", "resolve", "plan my day"],
        ok(Out::Starts("plan-today — ")),
        ok(Out::Starts("plan-today — ")),
    ),
    (
        &["skills", "resolve", "plan my day", "--json"],
        ok(Out::Has(
            "\"matches\": [\n    {\n      \"name\": \"plan-today\",",
        )),
        ok(Out::Has(
            "\"matches\": [\n    {\n      \"name\": \"plan-today\",",
        )),
    ),
    (
        &["migrate"],
        ok(Out::Has(
            "\n[ok] Schema 1.2.0 is current. No migration needed.\n",
        )),
        ok(Out::Has(
            "\nSchema: 1.1.0 → 1.2.0\nPlan ID: migrate-1_1_0-to-1_2_0-",
        )),
    ),
];

/// Runs `args` against `temp/aios` with the testkit's bounded runner (a read that blocks, on
/// the FIFO say, is killed and fails the test) and checks what it printed.
fn run_expecting(temp: &tempfile::TempDir, args: &[&str], expect: &Expect) {
    let ran = dotaios_testkit::run(
        dotaios(&temp.path().join("home"))
            .args(args)
            .arg("--path")
            .arg(temp.path().join("aios")),
        b"",
        Duration::from_secs(60),
    );
    let shown = format!("`dotaios {}`", args.join(" "));
    assert!(!ran.timed_out, "{shown} did not finish: a read blocked");
    let (stdout, stderr) = (ran.stdout_text(), ran.stderr_text());
    assert_eq!(ran.code(), Some(expect.code), "{shown}: {stderr}{stdout}");
    assert_eq!(stderr, expect.stderr, "{shown}");
    let printed = match expect.stdout {
        Out::Starts(start) => stdout.starts_with(start),
        Out::Has(piece) => stdout.contains(piece),
        Out::Is(all) => stdout == all,
    };
    assert!(printed, "{shown} printed:\n{stdout}");
}

fn assert_read_commands_write_nothing(temp: &tempfile::TempDir, hostile: bool) {
    for (args, sample, on_hostile) in READ_COMMANDS {
        let before = fingerprint(temp.path());
        run_expecting(temp, args, if hostile { on_hostile } else { sample });
        assert_eq!(
            before,
            fingerprint(temp.path()),
            "`dotaios {}` changed the tree",
            args.join(" ")
        );
    }
}

#[test]
fn read_commands_never_write_to_the_sample_folder() {
    let temp = sample_copy();
    assert_read_commands_write_nothing(&temp, false);
}

#[cfg(unix)]
#[test]
fn read_commands_never_write_to_a_hostile_folder() {
    let temp = sample_copy();
    let aios = temp.path().join("aios");
    fs::create_dir(temp.path().join("outside")).unwrap();
    fs::write(temp.path().join("outside/secret.md"), "MARKER invoice plan").unwrap();
    symlink(
        temp.path().join("outside/secret.md"),
        aios.join("context/north-star-link.md"),
    )
    .unwrap();
    symlink(
        temp.path().join("outside"),
        aios.join("vault/raw/linked-dir"),
    )
    .unwrap();
    fs::remove_file(aios.join("context/priorities.md")).unwrap();
    support::mkfifo(&aios.join("context/priorities.md"));
    fs::write(aios.join("references/latin1.md"), b"caf\xe9 invoice").unwrap();
    let config = fs::read_to_string(aios.join("aios.json")).unwrap();
    fs::write(
        aios.join("aios.json"),
        config.replace("\"1.2.0\"", "\"1.1.0\""),
    )
    .unwrap();
    assert_read_commands_write_nothing(&temp, true);
}

/// Off answers with its fixed notice, exit 0 and nothing on stderr, without the folder: a
/// build that looked for the folder first would fail here instead of printing the notice.
#[test]
fn off_mode_does_not_even_need_the_folder() {
    let temp = sample_copy();
    fs::remove_dir_all(temp.path().join("aios")).unwrap();
    run_expecting(
        &temp,
        &["brief", "--compact", "--memory", "off"],
        &ok(Out::Is(
            "Memory: Off\n\nDotAIOS is off; your AI app may still keep its own conversation history. DotAIOS did not read, search, save, or capture this turn.\n",
        )),
    );
    run_expecting(
        &temp,
        &["brief", "--compact", "--memory", "off", "--json"],
        &ok(Out::Starts(
            "{\"systemMessage\":\"Memory: Off — DotAIOS is off; your AI app may still keep its own conversation history. DotAIOS did not read, search, save, or capture this turn.\",",
        )),
    );
    assert!(!temp.path().join("aios").exists());
}
