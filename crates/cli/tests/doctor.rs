//! `dotaios doctor` on a healthy and on a broken folder (issue 2).

mod support;

use std::fs;
use std::os::unix::fs::{PermissionsExt, symlink};

use support::{fingerprint, run_on, sample_copy, texts};

#[test]
fn healthy_sample_folder_is_all_ok() {
    let temp = sample_copy();
    let before = fingerprint(temp.path());
    let output = run_on(&temp, &["doctor"]);
    let (stdout, stderr) = texts(&output);
    assert_eq!(output.status.code(), Some(0), "{stdout}{stderr}");
    assert!(
        stdout.starts_with("DotAIOS doctor\n\n[ok] AIOS folder at "),
        "{stdout}"
    );
    assert!(
        !stdout.contains("[fail]") && !stdout.contains("[warn]"),
        "{stdout}"
    );
    assert!(stdout.ends_with("\nEverything looks good.\n"), "{stdout}");
    assert_eq!(before, fingerprint(temp.path()));
}

#[test]
fn missing_folder_fails_check_one_and_skips_the_rest() {
    let temp = sample_copy();
    fs::remove_dir_all(temp.path().join("aios")).unwrap();
    let output = run_on(&temp, &["doctor"]);
    let (stdout, _) = texts(&output);
    assert_eq!(output.status.code(), Some(1));
    assert!(stdout.contains("[fail] AIOS folder at "), "{stdout}");
    assert!(!stdout.contains("Starter files"), "{stdout}");
    assert!(
        !temp.path().join("aios").exists(),
        "doctor must not create the folder"
    );
}

#[test]
fn broken_folder_reports_each_problem_with_a_fix_and_changes_nothing() {
    let temp = sample_copy();
    let aios = temp.path().join("aios");
    fs::remove_file(aios.join("FIRST_SESSION.md")).unwrap();
    fs::write(aios.join(".env"), "TOKEN=x\n").unwrap();
    fs::set_permissions(aios.join(".env"), fs::Permissions::from_mode(0o644)).unwrap();
    symlink("/etc/hostname", aios.join("vault/wiki/linked.md")).unwrap();
    rustix::fs::mkfifoat(
        rustix::fs::CWD,
        &aios.join("references/pipe.md"),
        rustix::fs::Mode::from_raw_mode(0o644),
    )
    .unwrap();
    fs::write(
        aios.join("memory/events.jsonl.bad.jsonl"),
        "{bad\n\n{worse\n",
    )
    .unwrap();
    let before = fingerprint(temp.path());

    let output = run_on(&temp, &["doctor"]);
    let (stdout, stderr) = texts(&output);
    assert_eq!(output.status.code(), Some(1), "{stdout}{stderr}");
    assert!(stdout.contains("[warn] Starter files present\n        Missing: FIRST_SESSION.md\n        Fix: Run `dotaios init --force --path "), "{stdout}");
    assert!(stdout.contains("[fail] Local secret file is private and outside memory\n        .env is readable by others (mode 644).\n        Fix: chmod 600 "), "{stdout}");
    assert!(
        stdout.contains("[warn] Memory health\n        2 quarantined line(s)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("        vault/wiki/linked.md: a symbolic link\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("        references/pipe.md: a named pipe\n"),
        "{stdout}"
    );
    assert!(
        stdout.ends_with(
            "Found 1 blocking issue(s). Fix those first, then run dotaios doctor again.\n"
        ),
        "{stdout}"
    );
    assert_eq!(
        before,
        fingerprint(temp.path()),
        "doctor wrote to the folder"
    );

    let output = run_on(&temp, &["doctor", "--json"]);
    let (stdout, _) = texts(&output);
    assert_eq!(output.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["summary"]["fail"], 1);
    assert!(
        !stdout.contains(temp.path().to_str().unwrap()),
        "a machine path leaked: {stdout}"
    );
    assert_eq!(before, fingerprint(temp.path()));
}

#[test]
fn unknown_options_are_refused() {
    let temp = sample_copy();
    let output = run_on(&temp, &["doctor", "--bogus"]);
    let (stdout, stderr) = texts(&output);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(stderr, "Unknown option: --bogus\n");
    assert!(stdout.is_empty());
    let output = run_on(&temp, &["doctor", "--help"]);
    assert_eq!(output.status.code(), Some(0));
    assert!(texts(&output).0.starts_with("Usage: dotaios doctor"));
}
