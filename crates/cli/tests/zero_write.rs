//! Zero-write (contract 01 §4.9): every read command leaves the whole tree identical (names, kinds,
//! modes, sizes, mtimes, bytes), on the healthy sample folder and on a hostile one holding
//! links out of the folder, a FIFO where sources are expected, invalid UTF-8 and an outdated
//! schema. A read command must also never block on the FIFO.

mod support;

use std::fs;
use std::os::unix::fs::symlink;
use std::process::Stdio;
use std::time::{Duration, Instant};

use dotaios_testkit::fingerprint;
use support::{dotaios, sample_copy};

const READ_COMMANDS: &[&[&str]] = &[
    &["doctor"],
    &["doctor", "--json"],
    &["brief", "--compact"],
    &["brief", "--compact", "--json"],
    &[
        "brief",
        "--compact",
        "--memory",
        "project",
        "--project",
        "tidepool",
    ],
    &["search", "invoice"],
    &["search", "plan", "--scope", "memory"],
    &["skills"],
    &["skills", "plan-today"],
    &["skills", "resolve", "plan my day"],
    &["skills", "resolve", "plan my day", "--json"],
    &["migrate"],
];

/// Runs `args` against `temp/aios`; fails the test if the command does not finish in time.
fn run_bounded(temp: &tempfile::TempDir, args: &[&str]) {
    let mut child = dotaios(&temp.path().join("home"))
        .args(args)
        .arg("--path")
        .arg(temp.path().join("aios"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if child.try_wait().unwrap().is_some() {
            return;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!(
                "`dotaios {}` did not finish: a read blocked",
                args.join(" ")
            );
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn assert_read_commands_write_nothing(temp: &tempfile::TempDir) {
    for args in READ_COMMANDS {
        let before = fingerprint(temp.path());
        run_bounded(temp, args);
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
    assert_read_commands_write_nothing(&temp);
}

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
    assert_read_commands_write_nothing(&temp);
}

#[test]
fn off_mode_does_not_even_need_the_folder() {
    let temp = sample_copy();
    fs::remove_dir_all(temp.path().join("aios")).unwrap();
    run_bounded(&temp, &["brief", "--compact", "--memory", "off"]);
    assert!(!temp.path().join("aios").exists());
}
