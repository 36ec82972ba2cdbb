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

/// Contract 03 §4.5: an eligible FIFO, a note that is not UTF-8 (Notepad's UTF-16) and a note
/// without read permission are skipped and named on stderr with their fix; the rest is
/// searched, the exit code says incomplete, and `--json` carries the path-free record. Root
/// reads anything, so as root the command runs as uid 65534 (`nobody`).
#[cfg(unix)]
#[test]
fn unreadable_files_are_skipped_and_named() {
    use std::os::unix::fs::PermissionsExt;
    use std::os::unix::process::CommandExt;
    let temp = folder();
    write(&temp, "context/good.md", "# Good\nneedle good\n");
    support::mkfifo(&aios(&temp).join("context/p.md"));
    let utf16: Vec<u8> = "\u{FEFF}# Notes\nneedle\n"
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    write(&temp, "vault/locked.md", "needle locked\n");
    fs::write(aios(&temp).join("vault/u16.md"), utf16).unwrap();
    for dir in [temp.path(), &aios(&temp), &temp.path().join("home")] {
        fs::set_permissions(dir, fs::Permissions::from_mode(0o755)).unwrap();
    }
    let locked = aios(&temp).join("vault/locked.md");
    fs::set_permissions(&locked, fs::Permissions::from_mode(0o000)).unwrap();
    let is_root = fs::File::open(&locked).is_ok();
    let before = fingerprint(temp.path());
    let run = |args: &[&str]| {
        let mut command = dotaios(&temp.path().join("home"));
        command
            .arg("search")
            .args(args)
            .arg("--path")
            .arg(aios(&temp));
        if is_root {
            command.uid(65534).gid(65534);
        }
        command.output().unwrap()
    };
    let output = run(&["needle"]);
    let (stdout, stderr) = texts(&output);
    assert_eq!(code(&output), 2, "{stdout}{stderr}");
    assert!(stdout.contains("  Good (good.md)\n"), "{stdout}");
    assert!(
        stdout.ends_with("1 result(s) found. Search incomplete; skipped 3 unreadable file(s).\n"),
        "{stdout}"
    );
    assert_eq!(
        stderr,
        "Skipped unreadable file context/p.md: not a regular file (a pipe, socket or device). Move it out of the folder.\n\
         Skipped unreadable file vault/locked.md: no read permission. Make it readable (chmod u+r), or move it out of the folder.\n\
         Skipped unreadable file vault/u16.md: not UTF-8 text. Re-save it as UTF-8, or move it out of the folder.\n"
    );
    let output = run(&["needle", "--json"]);
    assert_eq!(code(&output), 2);
    let value: Value = serde_json::from_str(&texts(&output).0).unwrap();
    assert_eq!(value["complete"], false);
    let records: Vec<(&str, &str, u64)> = value["omissions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| {
            (
                o["scope"].as_str().unwrap(),
                o["reason"].as_str().unwrap(),
                o["observed"]["files"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        records,
        [
            ("context", "unreadable_skipped", 1),
            ("vault", "unreadable_skipped", 2)
        ]
    );
    assert!(!texts(&output).0.contains("u16.md"));
    assert_path_free(&temp, &output);
    assert_eq!(
        fingerprint(temp.path()),
        before,
        "search wrote to the folder"
    );
    fs::set_permissions(&locked, fs::Permissions::from_mode(0o644)).unwrap();
}

/// Contract 03 §4.6: a note and a folder whose names are not UTF-8 (an archive unzipped from
/// an old Latin-1 machine) are skipped and named on stderr, the stray byte shown as `\xE9`,
/// with the fix; the rest is searched, exit 2, and `--json` carries the path-free record.
#[cfg(unix)]
#[test]
fn names_that_are_not_utf8_are_skipped_and_named() {
    use dotaios_testkit::non_utf8_entry;
    let temp = folder();
    write(&temp, "vault/kept.md", "# Kept\nplanning kept\n");
    let vault = aios(&temp).join("vault");
    let Some(_) = non_utf8_entry(&vault, b"caf\xe9.md", Some(b"# hi\nplanning\n")) else {
        return;
    };
    let old = non_utf8_entry(&vault, b"old\xe9", None).unwrap();
    fs::write(old.join("inside.md"), "planning inside\n").unwrap();
    non_utf8_entry(&vault, b"notes\xe9.txt", Some(b"planning")).unwrap();
    let before = fingerprint(temp.path());
    let output = search(&temp, &["planning"]);
    let (stdout, stderr) = texts(&output);
    assert_eq!(code(&output), 2, "{stdout}{stderr}");
    assert!(stdout.contains("  Kept (kept.md)\n"), "{stdout}");
    assert!(!stdout.contains("inside"), "{stdout}");
    assert!(
        stdout.ends_with("1 result(s) found. Search incomplete; skipped 2 unreadable file(s).\n"),
        "{stdout}"
    );
    assert_eq!(
        stderr,
        "Skipped unreadable file vault/caf\\xE9.md: its name is not UTF-8. Rename it to valid UTF-8, or move it out of the folder.\n\
         Skipped unreadable folder vault/old\\xE9/: its name is not UTF-8, so nothing in it was searched. Rename it to valid UTF-8, or move it out of the folder.\n"
    );
    let output = search(&temp, &["planning", "--json"]);
    assert_eq!(code(&output), 2);
    let value: Value = serde_json::from_str(&texts(&output).0).unwrap();
    assert_eq!(value["complete"], false);
    assert_eq!(
        value["omissions"],
        serde_json::json!([{
            "scope": "vault",
            "reason": "unreadable_skipped",
            "observed": {"files": 2, "bytes": 0, "entries": 0},
            "inspection": "partially_searched",
            "recovery": {
                "code": "fix_unreadable_files",
                "message": "Files that are not readable UTF-8 were skipped; dotaios doctor names them."
            }
        }])
    );
    assert_path_free(&temp, &output);
    assert_eq!(
        fingerprint(temp.path()),
        before,
        "search wrote to the folder"
    );
}

/// A non-UTF-8 `aios.json` still fails closed: it decides which roots are authorised (§3.2).
#[test]
fn an_unreadable_aios_json_fails_closed() {
    let temp = folder();
    fs::write(aios(&temp).join("aios.json"), b"{\"a\":\"\xed\xa0\x80\"}").unwrap();
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

// ----- the grouped form for people (contract 06 §1.9) ----------------------------------------

/// `search args… --path <temp>/aios` with `vars` set (a `None` value removes the variable) and
/// the terminal variables the tests control removed first.
fn search_with(temp: &tempfile::TempDir, args: &[&str], vars: &[(&str, Option<&str>)]) -> Output {
    let mut command = dotaios(&temp.path().join("home"));
    command
        .env_remove("NO_COLOR")
        .env_remove("COLUMNS")
        .env("TERM", "xterm");
    for (name, value) in vars {
        match value {
            Some(value) => command.env(name, value),
            None => command.env_remove(name),
        };
    }
    command
        .arg("search")
        .args(args)
        .arg("--path")
        .arg(aios(temp));
    command.output().unwrap()
}

/// The notes of `human_output_for_markdown_groups`.
fn harbour() -> tempfile::TempDir {
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
    temp
}

/// The text without its ANSI colour sequences.
fn without_colour(text: &str) -> String {
    let mut plain = String::new();
    let mut rest = text;
    while let Some(at) = rest.find('\x1b') {
        plain.push_str(&rest[..at]);
        let after = &rest[at..];
        rest = after.find('m').map_or("", |end| &after[end + 1..]);
    }
    plain.push_str(rest);
    plain
}

/// Piped, the output stays the classic form of contract 03 §17.4 byte for byte, whatever
/// `NO_COLOR`, `COLUMNS` and `--color auto|never` say; `--no-heading` keeps it with
/// `--color always`.
#[test]
fn piped_output_is_the_classic_form() {
    let temp = harbour();
    let classic = texts(&search_with(&temp, &["Harbour"], &[])).0;
    assert!(
        classic.contains("  Harbour (wiki/harbour.md)\n    L1: description: >>Harbour<< notes\n"),
        "{classic}"
    );
    for (args, vars) in [
        (
            vec!["Harbour", "--color", "auto"],
            vec![("NO_COLOR", Some("1"))],
        ),
        (
            vec!["Harbour", "--color=never"],
            vec![("COLUMNS", Some("40"))],
        ),
        (vec!["Harbour", "--color", "always", "--no-heading"], vec![]),
        (vec!["Harbour", "--heading", "--no-heading"], vec![]),
    ] {
        let output = search_with(&temp, &args, &vars);
        assert_eq!(code(&output), 0);
        assert_eq!(texts(&output), (classic.clone(), String::new()), "{args:?}");
    }
}

/// `--color always`: the grouped form in colour: one heading per scope and per file, the
/// overlapping snippets of a file one block that shows each line once, each block opened by
/// `path:line:` (relative to the folder), matches bold red.
#[test]
fn color_always_groups_merges_and_colours() {
    let temp = harbour();
    let output = search_with(&temp, &["Harbour", "--color", "always"], &[]);
    assert_eq!(code(&output), 0);
    let (stdout, stderr) = texts(&output);
    assert_eq!(stderr, "");
    let red = |text: &str| format!("\x1b[1;31m{text}\x1b[0m");
    let path = |text: &str| format!("\x1b[35m{text}\x1b[0m");
    let line = |text: &str| format!("\x1b[32m{text}\x1b[0m");
    assert_eq!(
        stdout,
        format!(
            "Memory: Shared (all of this AIOS folder; --memory project or off narrows it)\n\
             Searching for \"Harbour\" in all...\n\
             \n\
             Project corpus omitted because no --project selector was supplied.\n\
             \n\
             \x1b[1m── vault/ (1 match) ──\x1b[0m\n\
             {vault} — {harbour}\n\
             {vault}:{one}: ---\n\
             \x20   description: {harbour} notes\n\
             \x20   ---\n\
             \x20   # {harbour}\n\
             \x20   {lower} tides\n\
             \n\
             \x1b[1m── context/ (1 match) ──\x1b[0m\n\
             {context} — Current work\n\
             {context}:{three}: ## Current Work\n\
             \x20   Ship the {lower} app.\n\
             \n\
             2 result(s) found.\n",
            vault = path("vault/wiki/harbour.md"),
            context = path("context/work.md"),
            harbour = red("Harbour"),
            lower = red("harbour"),
            one = line("1"),
            three = line("3"),
        )
    );
    // The flag wins over NO_COLOR, as in ripgrep.
    let output = search_with(
        &temp,
        &["Harbour", "--color", "always"],
        &[("NO_COLOR", Some("1"))],
    );
    assert_eq!(texts(&output).0, stdout);
    // Without colour the grouped form marks matches as the classic form does.
    let output = search_with(&temp, &["Harbour", "--heading"], &[]);
    assert_eq!(
        texts(&output).0,
        without_colour(&stdout)
            .replace("Harbour\n", ">>Harbour<<\n")
            .replace("description: Harbour", "description: >>Harbour<<")
            .replace("harbour ", ">>harbour<< ")
    );
}

/// `COLUMNS=40`: every line of the grouped results fits 40 columns, cut with `…`; the
/// `path:line:` prefix is never cut.
#[test]
fn the_grouped_form_is_cut_to_the_width() {
    let temp = folder();
    write(
        &temp,
        "context/long.md",
        &format!(
            "# Long\n\n{} needle {}\n",
            "word ".repeat(30),
            "tail ".repeat(30)
        ),
    );
    let output = search_with(
        &temp,
        &["needle", "--color", "always"],
        &[("COLUMNS", Some("40"))],
    );
    let stdout = without_colour(&texts(&output).0);
    let results: Vec<&str> = stdout
        .lines()
        .skip_while(|line| !line.starts_with("──"))
        .take_while(|line| !line.is_empty())
        .collect();
    assert!(results.len() >= 3, "{stdout}");
    for line in &results {
        assert!(
            line.chars().count() <= 40,
            "{line:?} is wider than 40 columns:\n{stdout}"
        );
    }
    assert!(
        results
            .iter()
            .any(|line| line.starts_with("context/long.md:2: ") && line.ends_with('…')),
        "{stdout}"
    );
    // Without COLUMNS (and no terminal to ask) the width is 100.
    let output = search_with(&temp, &["needle", "--color", "always"], &[]);
    let stdout = without_colour(&texts(&output).0);
    let widest = stdout.lines().map(|line| line.chars().count()).max();
    assert_eq!(widest, Some(100), "{stdout}");
}

#[test]
fn color_values_are_checked() {
    let temp = harbour();
    let output = search_with(&temp, &["Harbour", "--color", "alwyas"], &[]);
    assert_eq!(code(&output), 1);
    assert_eq!(
        texts(&output),
        (
            String::new(),
            "Invalid --color \"alwyas\". Use one of: auto, always, never. Did you mean always?\n"
                .to_owned()
        )
    );
}

/// On a terminal, `--color auto` (the default) gives the grouped form in colour; `NO_COLOR`
/// (set and not empty) or `TERM=dumb` keep the grouped form without colour (contract 06 §1.9).
#[cfg(unix)]
#[test]
fn a_terminal_gets_colour_unless_no_color() {
    use std::io::Read;
    use std::process::Stdio;

    use rustix::pty::{OpenptFlags, grantpt, openpt, ptsname, unlockpt};

    let temp = harbour();
    let at_a_terminal = |vars: &[(&str, &str)]| -> String {
        let master = openpt(OpenptFlags::RDWR | OpenptFlags::NOCTTY).unwrap();
        rustix::io::fcntl_setfd(&master, rustix::io::FdFlags::CLOEXEC).unwrap();
        grantpt(&master).unwrap();
        unlockpt(&master).unwrap();
        let name = ptsname(&master, Vec::new()).unwrap();
        let terminal = fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(name.to_str().unwrap())
            .unwrap();
        let mut command = dotaios(&temp.path().join("home"));
        command
            .env_remove("NO_COLOR")
            .env_remove("COLUMNS")
            .env("TERM", "xterm")
            .envs(vars.iter().copied())
            .args(["search", "Harbour", "--path"])
            .arg(aios(&temp))
            .stdin(Stdio::null())
            .stdout(Stdio::from(terminal))
            .stderr(Stdio::null());
        let mut child = command.spawn().unwrap();
        // The parent's copy of the terminal's end goes with the command, so that reading
        // ends when the child exits.
        drop(command);
        let mut master = fs::File::from(master);
        let mut bytes = Vec::new();
        let mut buffer = [0u8; 4096];
        loop {
            match master.read(&mut buffer) {
                Ok(0) | Err(_) => break,
                Ok(read) => bytes.extend_from_slice(&buffer[..read]),
            }
        }
        assert_eq!(child.wait().unwrap().code(), Some(0));
        String::from_utf8(bytes).unwrap().replace("\r\n", "\n")
    };
    let coloured = at_a_terminal(&[]);
    assert!(
        coloured.contains("\x1b[35mvault/wiki/harbour.md\x1b[0m:\x1b[32m1\x1b[0m: ---\n"),
        "{coloured}"
    );
    let plain = without_colour(&coloured);
    for vars in [&[("NO_COLOR", "1")][..], &[("TERM", "dumb")][..]] {
        let output = at_a_terminal(vars);
        assert!(!output.contains('\x1b'), "{vars:?}: {output}");
        assert!(
            output.contains("vault/wiki/harbour.md:1: ---\n"),
            "{vars:?}: {output}"
        );
        assert_eq!(
            output.replace(">>", "").replace("<<", ""),
            plain,
            "{vars:?}"
        );
    }
    // An empty NO_COLOR is unset (no-color.org).
    assert_eq!(at_a_terminal(&[("NO_COLOR", "")]), coloured);
}

/// In the grouped form a memory stream with two matching entries is one file heading, its
/// entries below without a `source:` line; a session is named by its body's path.
#[test]
fn the_grouped_form_names_a_memory_stream_once() {
    let temp = folder();
    write(
        &temp,
        "memory/events.jsonl",
        "{\"ts\":\"2026-08-12T10:00:00Z\",\"type\":\"decision\",\"project\":\"ferry\",\"domain\":\"build\",\"summary\":\"Chose the ferry API\"}\n{\"ts\":\"2026-08-11T10:00:00Z\",\"type\":\"note\",\"body\":\"the ferry timetable\"}\n",
    );
    write(
        &temp,
        "memory/sessions/index.jsonl",
        "{\"session_id\":\"abc123\",\"agent\":\"codex\",\"captured_at\":\"2026-08-10T09:00:00Z\",\"title\":\"Planning\",\"path\":\"memory/sessions/2026-08-10/a.md\"}\n",
    );
    write(
        &temp,
        "memory/sessions/2026-08-10/a.md",
        "---\nagent: codex\n---\nWe talked about the ferry.\n",
    );
    let output = search_with(&temp, &["ferry", "--scope", "memory", "--heading"], &[]);
    assert_eq!(code(&output), 0);
    assert_eq!(
        texts(&output).0,
        "Memory: Shared (all of this AIOS folder; --memory project or off narrows it)\n\
         Searching for \"ferry\" in memory...\n\
         \n\
         ── memory/ (2 matches) ──\n\
         memory/events.jsonl\n\
         \x20 [2026-08-12] decision (>>ferry<< / build) — Chose the >>ferry<< API\n\
         \x20 [2026-08-11] note — note\n\
         \x20   match: body = the >>ferry<< timetable\n\
         \n\
         2 result(s) found.\n"
    );
    let output = search_with(&temp, &["talked", "--scope", "sessions", "--heading"], &[]);
    assert!(
        texts(&output).0.contains(
            "── sessions/ (1 match) ──\nmemory/sessions/2026-08-10/a.md\n  [2026-08-10] codex  abc123\n  Planning\n  We >>talked<< about the ferry.\n\n"
        ),
        "{}",
        texts(&output).0
    );
}

/// `--explain` (contract 03 §9.5): the text form adds a block per result after the results,
/// its total the score; `--json` adds an `explain` array whose totals equal the scores, in the
/// merged order, and nothing else changes.
#[test]
fn explain_shows_each_score_part_by_part() {
    let temp = folder();
    write(
        &temp,
        "context/plan.md",
        "# Deploy plan\nThe deploy rollback plan.\n",
    );
    write(&temp, "context/other.md", "# Other\nA deploy happened.\n");
    let (status, plain, _) = outcome(&temp, &["deploy", "plan", "--no-heading"]);
    let (explained_status, explained, _) =
        outcome(&temp, &["deploy", "plan", "--no-heading", "--explain"]);
    assert_eq!((status, explained_status), (0, 0));
    let (results, block) = explained.split_at(plain.len());
    assert_eq!(results, plain, "the results are unchanged");
    assert!(
        block.starts_with("\nWhy each result ranked where it did:\n\n#1 plan.md (context) score ")
    );
    assert!(block.contains("  term \"deploy\": title tf 1.0000 × w 3.0000 ÷ norm "));
    assert!(block.contains("  + phrase bonus 0.6000 × Σidf "));
    assert!(block.contains("  + title cover bonus 0.5000 × Σidf "));
    assert!(block.contains("\n#2 other.md (context) score "));

    let json = |args: &[&str]| -> Value {
        let (status, stdout, _) = outcome(&temp, args);
        assert_eq!(status, 0);
        serde_json::from_str(&stdout).unwrap()
    };
    let mut with = json(&["deploy", "plan", "--json", "--explain"]);
    let without = json(&["deploy", "plan", "--json"]);
    let explain = with.as_object_mut().unwrap().remove("explain").unwrap();
    assert_eq!(with, without, "--explain only adds its member");
    let items = explain.as_array().unwrap();
    assert_eq!(items.len(), 2);
    for (rank, item) in items.iter().enumerate() {
        assert_eq!(item["rank"], rank + 1);
        assert_eq!(item["total"], item["score"]);
        assert!(item["score"].as_f64().unwrap() > 0.0);
    }
    assert_eq!(items[0]["result"], "plan.md");
    assert_eq!(items[0]["terms"][0]["term"], "deploy");
    assert_eq!(items[0]["terms"][0]["fields"][0]["field"], "title");
}
