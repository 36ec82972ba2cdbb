//! `dotaios search` run as the built binary (contract 03 §17): option order and messages,
//! Off mode, human output, omissions on stderr with exit 2, `--json`, path-free failures and
//! the zero-write guarantee.
#![allow(
    clippy::disallowed_methods,
    reason = "tests build and inspect their folders with std::fs"
)]
// Helpers and imports of the Unix-only cases (links, modes, FIFOs) are unused on Windows.
#![cfg_attr(not(unix), allow(unused_imports, dead_code))]

mod support;

use std::fs;
#[cfg(unix)]
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::Output;

use dotaios_testkit::fingerprint;
use serde_json::Value;
use support::{dotaios, texts};

const EVIDENCE_MESSAGE: &str = "DotAIOS could not read the evidence corpus safely.\n";
const OFF_NOTICE: &str = "DotAIOS is off; your AI app may still keep its own conversation history. DotAIOS did not read, search, save, or capture this turn.";

/// A temporary `aios/` with `aios.json`, and an empty `home/`.
fn folder() -> tempfile::TempDir {
    let temp = tempfile::tempdir().unwrap();
    fs::create_dir_all(temp.path().join("aios")).unwrap();
    fs::create_dir_all(temp.path().join("home")).unwrap();
    fs::write(
        temp.path().join("aios/aios.json"),
        "{\"schema_version\":\"1.2.0\",\"vault_path\":null}\n",
    )
    .unwrap();
    temp
}

fn aios(temp: &tempfile::TempDir) -> PathBuf {
    temp.path().join("aios")
}

fn write(temp: &tempfile::TempDir, path: &str, text: &str) {
    let full = aios(temp).join(path);
    fs::create_dir_all(full.parent().unwrap()).unwrap();
    fs::write(full, text).unwrap();
}

fn search(temp: &tempfile::TempDir, args: &[&str]) -> Output {
    let mut command = dotaios(&temp.path().join("home"));
    command
        .arg("search")
        .args(args)
        .arg("--path")
        .arg(aios(temp));
    command.output().unwrap()
}

fn search_without_path(temp: &tempfile::TempDir, args: &[&str]) -> Output {
    let mut command = dotaios(&temp.path().join("home"));
    command.arg("search").args(args);
    command.output().unwrap()
}

fn code(output: &Output) -> i32 {
    output.status.code().unwrap()
}

/// `dotaios search args… --path <temp>/aios`: exit code, stdout and stderr.
fn outcome(temp: &tempfile::TempDir, args: &[&str]) -> (i32, String, String) {
    let output = search(temp, args);
    let (stdout, stderr) = texts(&output);
    (code(&output), stdout, stderr)
}

fn assert_path_free(temp: &tempfile::TempDir, output: &Output) {
    let (stdout, stderr) = texts(output);
    let root = temp.path().to_str().unwrap();
    assert!(
        !stdout.contains(root) && !stderr.contains(root),
        "a temp path leaked:\n{stdout}\n{stderr}"
    );
}

// ----- options and validation order -------------------------------------------------------

#[test]
fn help_anywhere_wins() {
    let temp = folder();
    let output = search(&temp, &["--limit", "0", "-h"]);
    assert_eq!(code(&output), 0);
    assert!(
        texts(&output)
            .0
            .starts_with("Usage: dotaios search <query>")
    );
}

#[test]
fn empty_query_prints_the_usage_line() {
    assert_eq!(
        outcome(&folder(), &[]),
        (1, String::new(), "Usage: dotaios search <query> [--scope memory|vault|context|projects|decisions|skills|references|plugins|sessions|all]\n".to_owned())
    );
}

#[test]
fn option_values_are_required() {
    let temp = folder();
    for flag in [
        "--scope",
        "--limit",
        "--memory",
        "--project",
        "--agent",
        "--session-project",
        "--since",
    ] {
        let output = search_without_path(&temp, &["x", flag]);
        assert_eq!(code(&output), 1);
        assert_eq!(texts(&output).1, format!("{flag} requires a value\n"));
        let output = search_without_path(&temp, &["x", flag, "--json"]);
        assert_eq!(texts(&output).1, format!("{flag} requires a value\n"));
        let output = search_without_path(&temp, &["x", flag, ""]);
        assert_eq!(texts(&output).1, format!("{flag} requires a value\n"));
    }
}

#[test]
fn limit_is_checked_when_read() {
    let temp = folder();
    for bad in ["0", "-1", "1.5", "ten", "00"] {
        let output = search(&temp, &["x", "--limit", bad]);
        assert_eq!(code(&output), 1, "{bad}");
        assert_eq!(
            texts(&output).1,
            format!("Invalid --limit \"{bad}\". Use a positive whole number.\n")
        );
    }
    // Checked before the empty query.
    let output = search(&temp, &["--limit", "x"]);
    assert_eq!(
        texts(&output).1,
        "Invalid --limit \"x\". Use a positive whole number.\n"
    );
    let long = "9".repeat(70) + "x";
    let output = search(&temp, &["q", "--limit", &long]);
    assert_eq!(
        texts(&output).1,
        format!(
            "Invalid --limit \"{}…\". Use a positive whole number.\n",
            "9".repeat(64)
        )
    );
    assert_eq!(code(&search(&temp, &["q", "--limit", "007"])), 0);
    assert_eq!(
        code(&search(
            &temp,
            &["q", "--limit", "99999999999999999999999999"]
        )),
        0
    );
}

#[test]
fn scope_must_be_one_of_ten() {
    assert_eq!(
        outcome(&folder(), &["x", "--scope", "everything"]),
        (
            1,
            String::new(),
            "Invalid --scope \"everything\". Use one of: memory, vault, context, projects, decisions, skills, references, plugins, sessions, all.\n".to_owned()
        )
    );
    // A near miss names the closest scope (contract 06 §1.2).
    assert_eq!(
        outcome(&folder(), &["x", "--scope", "vaul"]),
        (
            1,
            String::new(),
            "Invalid --scope \"vaul\". Use one of: memory, vault, context, projects, decisions, skills, references, plugins, sessions, all. Did you mean vault?\n".to_owned()
        )
    );
}

#[test]
fn memory_policy_errors() {
    let temp = folder();
    let cases = [
        (
            vec!["x", "--memory", "private"],
            "Memory mode must be one of: shared, project, off.\n",
        ),
        (
            vec!["x", "--memory", "shraed"],
            "Memory mode must be one of: shared, project, off. Did you mean shared?\n",
        ),
        (
            vec!["x", "--memory", "shared", "--project", "p"],
            "Cannot combine shared memory with a project selector.\n",
        ),
        (
            vec!["x", "--memory", "project"],
            "A project selector is required for This project memory.\n",
        ),
    ];
    for (args, message) in cases {
        let output = search(&temp, &args);
        assert_eq!(code(&output), 1);
        assert_eq!(texts(&output), (String::new(), message.to_owned()));
    }
}

#[test]
fn off_mode_reads_nothing_not_even_the_folder() {
    let temp = tempfile::tempdir().unwrap();
    let missing = temp.path().join("missing");
    let mut command = dotaios(temp.path());
    let output = command
        .args([
            "search",
            "anything",
            "--memory",
            "off",
            "--project",
            "p",
            "--path",
        ])
        .arg(&missing)
        .output()
        .unwrap();
    assert_eq!(code(&output), 0);
    assert_eq!(
        texts(&output),
        (
            format!("Memory: Off\n{OFF_NOTICE}\nNo results found.\n"),
            String::new()
        )
    );
    assert!(!missing.exists());
}

/// The receipt line comes with the results: nothing reaches stdout before an error is known
/// (contract 03 §17.2, 06 §1.3).
#[test]
fn no_folder_and_no_receipt() {
    let temp = tempfile::tempdir().unwrap();
    let missing = temp.path().join("nowhere");
    let output = dotaios(temp.path())
        .args(["search", "x", "--path"])
        .arg(&missing)
        .output()
        .unwrap();
    assert_eq!(code(&output), 1);
    assert_eq!(
        texts(&output),
        (
            String::new(),
            format!(
                "No AIOS folder found at {}. Run dotaios init first, or pass --path.\n",
                missing.display()
            )
        )
    );
}

#[test]
fn projects_scope_needs_a_selector_before_the_folder_check() {
    let temp = tempfile::tempdir().unwrap();
    let output = dotaios(temp.path())
        .args(["search", "x", "--scope", "projects", "--path"])
        .arg(temp.path().join("none"))
        .output()
        .unwrap();
    assert_eq!(code(&output), 1);
    assert_eq!(
        texts(&output),
        (
            String::new(),
            "project selector must be a non-empty string\n".to_owned()
        )
    );
    let output = dotaios(temp.path())
        .args(["search", "x", "--project", " padded"])
        .output()
        .unwrap();
    assert_eq!(
        texts(&output).1,
        "project selector must be a safe project slug or stable id\n"
    );
}

#[test]
fn unknown_dashes_are_query_words_and_follow_is_refused() {
    let temp = folder();
    write(&temp, "context/a.md", "# A\nrun -x fast\n");
    let output = search(&temp, &["-x", "fast"]);
    assert_eq!(code(&output), 0);
    let stdout = texts(&output).0;
    assert!(
        stdout.contains("Searching for \"-x fast\" in all..."),
        "{stdout}"
    );
    assert!(stdout.contains("L1-3: # A / run >>-x fast<<"), "{stdout}");
    assert_eq!(
        outcome(&temp, &["x", "--follow"]),
        (
            1,
            String::new(),
            "--follow and --budget are not supported.\n".to_owned()
        )
    );
}

// ----- output ------------------------------------------------------------------------------

#[test]
fn human_output_for_markdown_groups() {
    let temp = folder();
    write(
        &temp,
        "context/work.md",
        "# Current work\n\n## Current Work\nShip the harbour app.\n",
    );
    write(
        &temp,
        "vault/wiki/harbour.md",
        "---\ndescription: Harbour notes\n---\n# Harbour\nharbour tides\n",
    );
    let output = search(&temp, &["Harbour"]);
    assert_eq!(code(&output), 0);
    // One relevance order (contract 03 §9.4, §17.4): the note titled Harbour comes before the
    // passing mention under a heading, whatever their scopes' declared order.
    assert_eq!(
        texts(&output),
        (
            "Memory: Shared\n\
             Searching for \"Harbour\" in all...\n\
             \n\
             Project corpus omitted because no --project selector was supplied.\n\
             \n\
             ── vault/ (1 match) ──\n\
             \x20 Harbour (wiki/harbour.md)\n\
             \x20   L1: description: >>Harbour<< notes\n\
             \x20   L3-5: --- / # >>Harbour<< / >>harbour<< tides\n\
             \x20   L1-3: --- / description: >>Harbour<< notes / ---\n\
             \x20   L4-6: # >>Harbour<< / >>harbour<< tides\n\
             \n\
             ── context/ (1 match) ──\n\
             \x20 Current work (work.md)\n\
             \x20   L3-5: ## Current Work / Ship the >>harbour<< app.\n\
             \n\
             2 result(s) found.\n"
                .to_owned(),
            String::new()
        )
    );
}

#[test]
fn zero_hits_are_complete() {
    assert_eq!(
        outcome(&folder(), &["nothing", "--scope", "vault"]),
        (
            0,
            "Memory: Shared\nSearching for \"nothing\" in vault...\n\nNo results found.\n"
                .to_owned(),
            String::new()
        )
    );
}

#[test]
fn memory_and_session_items() {
    let temp = folder();
    write(
        &temp,
        "memory/events.jsonl",
        "{\"ts\":\"2026-08-12T10:00:00Z\",\"type\":\"decision\",\"project\":\"ferry\",\"domain\":\"build\",\"summary\":\"Chose the ferry API\",\"detail\":\"ferry quote\"}\n{\"ts\":\"2026-08-11T10:00:00Z\",\"type\":\"note\",\"body\":\"the ferry timetable\"}\n",
    );
    write(
        &temp,
        "memory/sessions/index.jsonl",
        "{\"session_id\":\"abc123\",\"agent\":\"codex\",\"captured_at\":\"2026-08-10T09:00:00Z\",\"project\":\"ferry\",\"title\":\"Planning\",\"path\":\"memory/sessions/2026-08-10/a.md\"}\n",
    );
    write(
        &temp,
        "memory/sessions/2026-08-10/a.md",
        "---\nagent: codex\n---\nWe talked about the ferry.\n",
    );
    let output = search(&temp, &["ferry", "--scope", "memory"]);
    assert_eq!(code(&output), 0);
    let stdout = texts(&output).0;
    assert!(stdout.contains(
        "── memory/ (2 matches) ──\n  [2026-08-12] decision (ferry / build) — Chose the >>ferry<< API\n    source: memory/events.jsonl\n  [2026-08-11] note — note\n    match: body = the >>ferry<< timetable\n    source: memory/events.jsonl\n"
    ), "{stdout}");
    // A metadata hit (the project tag) has no snippet; a body hit shows one.
    let output = search(&temp, &["ferry", "--scope", "sessions"]);
    let stdout = texts(&output).0;
    assert!(
        stdout.contains(
            "── sessions/ (1 match) ──\n  [2026-08-10] codex  [ferry]  abc123\n    Planning\n\n"
        ),
        "{stdout}"
    );
    let output = search(&temp, &["Talked", "--scope", "sessions"]);
    let stdout = texts(&output).0;
    assert!(stdout.contains("── sessions/ (1 match) ──\n  [2026-08-10] codex  [ferry]  abc123\n    Planning\n    We >>talked<< about the ferry.\n"), "{stdout}");
}

#[test]
fn omissions_go_to_stderr_and_exit_2() {
    let temp = folder();
    write(&temp, "context/a.md", "needle\n");
    fs::create_dir_all(aios(&temp).join("memory")).unwrap();
    fs::File::create(aios(&temp).join("memory/events.jsonl"))
        .unwrap()
        .set_len(4 * 1024 * 1024 + 1)
        .unwrap();
    let output = search(&temp, &["needle"]);
    assert_eq!(code(&output), 2);
    let (stdout, stderr) = texts(&output);
    assert!(
        stdout.ends_with("1 result(s) found. Search incomplete; omitted scope(s): memory.\n"),
        "{stdout}"
    );
    assert_eq!(
        stderr,
        "Search incomplete for memory: memory/events.jsonl is 4194305 bytes, over the 4194304-byte per-file limit. Split the oversized file, or move it outside this search scope. (reason: file_too_large)\n"
    );
    let output = search(&temp, &["absent"]);
    assert_eq!(code(&output), 2);
    assert!(texts(&output).0.ends_with(
        "No results found in inspected sources. Search incomplete; omitted scope(s): memory.\n"
    ));
    assert_path_free(&temp, &output);
}

/// The file or folder over a per-file or per-directory limit is named with the limit on stderr
/// (contract 03 §17.4), relative to the folder, and only there: `--json` stays path-free.
#[test]
fn ceiling_lines_name_the_file_or_folder_and_the_limit() {
    let temp = folder();
    write(&temp, "vault/a.md", "needle\n");
    fs::File::create(aios(&temp).join("vault/big.md"))
        .unwrap()
        .set_len(7 * 1024 * 1024)
        .unwrap();
    let output = search(&temp, &["needle", "--scope", "vault"]);
    assert_eq!(code(&output), 2);
    assert_eq!(
        texts(&output).1,
        "Search incomplete for vault: vault/big.md is 7340032 bytes, over the 4194304-byte per-file limit. Split the oversized file, or move it outside this search scope. (reason: file_too_large)\n"
    );
    let json = search(&temp, &["needle", "--scope", "vault", "--json"]);
    assert!(!texts(&json).0.contains("big.md"), "{}", texts(&json).0);

    let temp = folder();
    write(&temp, "vault/a.md", "needle\n");
    let inbox = aios(&temp).join("vault/inbox");
    fs::create_dir_all(&inbox).unwrap();
    for index in 0..8193 {
        fs::File::create(inbox.join(format!("n{index}.txt"))).unwrap();
    }
    let output = search(&temp, &["needle", "--scope", "vault"]);
    assert_eq!(code(&output), 2);
    assert_eq!(
        texts(&output).1,
        "Search incomplete for vault: vault/inbox/ has more than 8192 entries. Move some directory entries elsewhere, then retry the same search. (reason: directory_entries_exceeded)\n"
    );
    assert_path_free(&temp, &output);
}

#[test]
fn project_mode_forbidden_scope_exits_2() {
    let temp = folder();
    write(
        &temp,
        "projects/ferry/README.md",
        "---\nid: acme:ferry\n---\n# Ferry\n",
    );
    let output = search(&temp, &["x", "--project", "acme:ferry", "--scope", "vault"]);
    assert_eq!(code(&output), 2);
    let (stdout, stderr) = texts(&output);
    assert_eq!(
        stdout,
        "Memory: This project\nSearching for \"x\" in vault...\n\nNo results found in inspected sources. Search incomplete; omitted scope(s): vault.\n"
    );
    assert_eq!(
        stderr,
        "Search incomplete for vault: Search sessions, memory, or projects, or choose Shared memory for this scope. (reason: scope_forbidden_by_memory_policy)\n"
    );
    assert_eq!(
        outcome(&temp, &["x", "--project", "nobody"]),
        (1, String::new(), "project selector is unknown\n".to_owned())
    );
}

#[test]
fn json_output() {
    let temp = folder();
    write(&temp, "context/a.md", "# A\nneedle\n");
    let output = search(&temp, &["needle", "--json", "--scope", "context"]);
    assert_eq!(code(&output), 0);
    let value: Value = serde_json::from_str(&texts(&output).0).unwrap();
    assert_eq!(value["memory"], "shared");
    assert_eq!(value["receipt"], "Memory: Shared");
    assert_eq!(value["complete"], true);
    assert_eq!(value["scope"]["requested"], "context");
    assert_eq!(value["groups"][0]["scope"], "context");
    assert_eq!(value["groups"][0]["results"][0]["source"], "context/a.md");
    // The text ends with `\n`, so its last (empty) line closes the window.
    assert_eq!(value["groups"][0]["results"][0]["matches"][0]["lineEnd"], 3);
    let off = search(&temp, &["needle", "--json", "--memory", "off"]);
    let value: Value = serde_json::from_str(&texts(&off).0).unwrap();
    assert_eq!(
        (value["memory"].as_str(), value["complete"].as_bool()),
        (Some("off"), Some(true))
    );
}

#[test]
fn unicode_queries() {
    let temp = folder();
    write(&temp, "context/ja.md", "# 会議\n東京で会議\n");
    write(&temp, "context/fr.md", "# Café\nUn café crème\n");
    write(&temp, "context/emoji.md", "# Party\nlaunch 🎉 today\n");
    for (query, file) in [
        ("会議", "(ja.md)"),
        ("CAFÉ", "(fr.md)"),
        ("crème", "(fr.md)"),
        ("🎉", "(emoji.md)"),
    ] {
        let output = search(&temp, &[query, "--scope", "context"]);
        assert_eq!(code(&output), 0);
        let stdout = texts(&output).0;
        assert!(
            stdout.contains(file) && stdout.contains("1 result(s) found."),
            "{query}: {stdout}"
        );
    }
}

// ----- failures: fail closed, path-free, unchanged ----------------------------------------

fn assert_fails_closed(temp: &tempfile::TempDir, args: &[&str]) {
    let before = fingerprint(temp.path());
    let output = search(temp, args);
    assert_eq!(code(&output), 1, "{args:?}: {:?}", texts(&output));
    assert_eq!(texts(&output).1, EVIDENCE_MESSAGE);
    assert_path_free(temp, &output);
    assert_eq!(fingerprint(temp.path()), before);
}

/// Contract 03 §4.4: a link where a note would be read is skipped and named on stderr with
/// the fix, relative to the folder; the rest is searched, and the exit code says incomplete.
#[cfg(unix)]
#[test]
fn linked_notes_are_skipped_and_named() {
    for scope in [
        "context",
        "vault",
        "decisions",
        "skills",
        "references",
        "plugins",
        "memory/daily",
        "memory/inbox",
    ] {
        let temp = folder();
        fs::write(temp.path().join("outside.md"), "needle outside").unwrap();
        fs::create_dir_all(temp.path().join("dir")).unwrap();
        write(&temp, &format!("{scope}/real.md"), "needle real");
        symlink(
            temp.path().join("outside.md"),
            aios(&temp).join(scope).join("linked.md"),
        )
        .unwrap();
        symlink(
            temp.path().join("dir"),
            aios(&temp).join(scope).join("dir.md"),
        )
        .unwrap();
        let before = fingerprint(temp.path());
        let output = search(&temp, &["needle"]);
        let (stdout, stderr) = texts(&output);
        assert_eq!(code(&output), 2, "{scope}: {stdout}{stderr}");
        assert!(stdout.contains("  real.md (real.md)\n"), "{stdout}");
        assert!(!stdout.contains("needle outside"), "{stdout}");
        assert!(
            stdout.ends_with("1 result(s) found. Search incomplete; skipped 2 symbolic link(s).\n"),
            "{stdout}"
        );
        let fix = "links are never followed. Move the note into the folder (or, for a linked vault, set vault_path in aios.json to the folder it points to); `dotaios doctor` lists every link.";
        assert_eq!(
            stderr,
            format!(
                "Skipped symbolic link {scope}/dir.md: {fix}\nSkipped symbolic link {scope}/linked.md: {fix}\n"
            )
        );
        assert_path_free(&temp, &output);
        assert_eq!(fingerprint(temp.path()), before);
    }
}

/// `~/aios/vault -> ~/Obsidian` searches the linked vault (contract 03 §3.4).
#[cfg(unix)]
#[test]
fn a_linked_vault_folder_is_searched() {
    let temp = folder();
    fs::create_dir_all(temp.path().join("Obsidian/notes")).unwrap();
    fs::write(temp.path().join("Obsidian/notes/n.md"), "# N\nneedle\n").unwrap();
    symlink(temp.path().join("Obsidian"), aios(&temp).join("vault")).unwrap();
    let output = search(&temp, &["needle"]);
    let (stdout, stderr) = texts(&output);
    assert_eq!(code(&output), 0, "{stdout}{stderr}");
    assert!(stdout.contains("N (notes/n.md)"), "{stdout}");
    assert_eq!(stderr, "");
    assert_path_free(&temp, &output);
}

#[cfg(unix)]
#[test]
fn special_and_invalid_evidence_fails_closed() {
    let temp = folder();
    fs::create_dir_all(aios(&temp).join("context")).unwrap();
    let status = std::process::Command::new("mkfifo")
        .arg(aios(&temp).join("context/pipe.md"))
        .status()
        .unwrap();
    assert!(status.success());
    assert_fails_closed(&temp, &["needle"]);
    let temp = folder();
    fs::create_dir_all(aios(&temp).join("vault")).unwrap();
    fs::write(aios(&temp).join("vault/bad.md"), b"\xff\xfe needle").unwrap();
    assert_fails_closed(&temp, &["needle"]);
}

#[test]
fn escaping_session_paths_fail_closed() {
    for path in [
        "../outside-session.md",
        "/etc/hostname",
        "memory/sessions/../../x.md",
    ] {
        let temp = folder();
        fs::write(temp.path().join("outside-session.md"), "needle").unwrap();
        write(
            &temp,
            "memory/sessions/index.jsonl",
            &format!(
                "{{\"title\":\"t\",\"path\":{}}}\n",
                serde_json::to_string(path).unwrap()
            ),
        );
        assert_fails_closed(&temp, &["needle", "--scope", "sessions"]);
    }
}

#[cfg(unix)]
#[test]
fn config_problems_fail_closed() {
    let temp = folder();
    fs::write(temp.path().join("copy.json"), "{}").unwrap();
    fs::remove_file(aios(&temp).join("aios.json")).unwrap();
    symlink(temp.path().join("copy.json"), aios(&temp).join("aios.json")).unwrap();
    assert_fails_closed(&temp, &["missing", "--scope", "memory"]);
    let temp = folder();
    fs::write(aios(&temp).join("aios.json"), b"\xff").unwrap();
    assert_fails_closed(&temp, &["missing"]);
    let temp = folder();
    fs::write(
        aios(&temp).join("aios.json"),
        format!("{{\"pad\":\"{}\"}}", "x".repeat(1024 * 1024)),
    )
    .unwrap();
    let output = search(&temp, &["missing"]);
    assert_eq!(
        texts(&output).1,
        "DotAIOS stopped reading: one file is past the safe per-file size limit. Split that file, or move it out of the folder.\n"
    );
}

#[cfg(unix)]
#[test]
fn search_writes_nothing() {
    let temp = folder();
    write(
        &temp,
        "memory/events.jsonl",
        "corrupt line\n{\"summary\":\"CORRUPT_SEARCH_FIXTURE_SELECTED\"}\n",
    );
    write(
        &temp,
        "memory/sessions/index.jsonl",
        "{oops\n{\"title\":\"CORRUPT_SESSION_INDEX_SELECTED\",\"path\":\"memory/sessions/a.md\"}\n",
    );
    fs::create_dir_all(aios(&temp).join("references")).unwrap();
    fs::File::create(aios(&temp).join("references/huge.md"))
        .unwrap()
        .set_len(4 * 1024 * 1024 + 1)
        .unwrap();
    fs::create_dir_all(aios(&temp).join("vault")).unwrap();
    symlink(Path::new("/etc"), aios(&temp).join("vault/etc-link")).unwrap();
    let before = fingerprint(temp.path());
    let output = search(
        &temp,
        &["CORRUPT_SEARCH_FIXTURE_SELECTED", "--scope", "memory"],
    );
    assert_eq!(code(&output), 0);
    assert!(texts(&output).0.contains("1 result(s) found."));
    let output = search(
        &temp,
        &["CORRUPT_SESSION_INDEX_SELECTED", "--scope", "sessions"],
    );
    assert!(texts(&output).0.contains("1 result(s) found."));
    let output = search(&temp, &["anything"]);
    assert_eq!(code(&output), 2);
    assert_eq!(fingerprint(temp.path()), before);
    let names: Vec<String> = fs::read_dir(aios(&temp).join("memory"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|name| !name.contains(".bad")), "{names:?}");
}

#[test]
fn the_sample_folder_searches_completely() {
    let temp = support::sample_copy();
    let output = search(&temp, &["tidepool"]);
    assert_eq!(code(&output), 0, "{:?}", texts(&output));
    assert_path_free(&temp, &output);
    assert!(texts(&output).0.contains(" result(s) found."));
}
