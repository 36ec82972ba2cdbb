//! `dotaios doctor` on a healthy and on a broken folder (contract 01 §10).
#![allow(
    clippy::disallowed_methods,
    reason = "tests build and inspect their folders with std::fs"
)]

mod support;

use std::fs;
#[cfg(unix)]
use std::os::unix::fs::{PermissionsExt, symlink};

use dotaios_testkit::fingerprint;
use support::{doctor_fix, doctor_json, run_on, sample_copy, texts};

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

#[cfg(unix)]
#[test]
fn broken_folder_reports_each_problem_with_a_fix_and_changes_nothing() {
    let temp = sample_copy();
    let aios = temp.path().join("aios");
    fs::remove_file(aios.join("FIRST_SESSION.md")).unwrap();
    fs::write(aios.join(".env"), "TOKEN=x\n").unwrap();
    fs::set_permissions(aios.join(".env"), fs::Permissions::from_mode(0o644)).unwrap();
    symlink("/etc/hostname", aios.join("vault/wiki/linked.md")).unwrap();
    support::mkfifo(&aios.join("references/pipe.md"));
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
    // The default search skips the named pipe and the link and says so (contract 03 §4.4,
    // §4.5), each named with its fix; only the secret file blocks.
    assert!(
        stdout.contains("[warn] Search readable\n        vault/wiki/linked.md: a symbolic link, skipped by search\n        references/pipe.md: skipped by search, not a regular file (a pipe, socket or device). Move it out of the folder.\n"),
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

    let (report, code) = doctor_json(&temp.path().join("home"), &temp.path().join("aios"));
    assert_eq!(code, Some(1));
    assert_eq!(report["summary"]["fail"], 1);
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

fn set_schema(temp: &tempfile::TempDir, version: &str) {
    let path = temp.path().join("aios/aios.json");
    let text = fs::read_to_string(&path).unwrap();
    fs::write(&path, text.replace("\"1.2.0\"", &format!("\"{version}\""))).unwrap();
}

#[test]
fn outdated_schema_is_a_warning_naming_the_plan() {
    let temp = sample_copy();
    set_schema(&temp, "1.1.0");
    let output = run_on(&temp, &["doctor"]);
    let (stdout, _) = texts(&output);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains("[warn] Migration state\n        schema 1.1.0 \u{2192} 1.2.0, plan migrate-1_1_0-to-1_2_0-"),
        "{stdout}"
    );
    assert!(
        stdout.contains("        Fix: Run `dotaios migrate --path "),
        "{stdout}"
    );
    assert!(
        !stdout.contains("Workspace ignore rule"),
        "only checked at 1.2.0: {stdout}"
    );
    // The JSON report names the folder by the placeholder only (it printed the absolute path
    // here before).
    let (report, _) = doctor_json(&temp.path().join("home"), &temp.path().join("aios"));
    assert_eq!(
        doctor_fix(&report, "Migration state").as_deref(),
        Some("Run `dotaios migrate --path <this-aios-folder>` to preview it.")
    );
}

#[test]
fn future_schema_and_interrupted_transactions_block() {
    let temp = sample_copy();
    set_schema(&temp, "9.0.0");
    let output = run_on(&temp, &["doctor"]);
    let (stdout, _) = texts(&output);
    assert_eq!(output.status.code(), Some(1));
    assert!(stdout.contains("[fail] Migration state\n        FUTURE_SCHEMA\n        Fix: Install a DotAIOS release that supports this folder schema. This build will not write it.\n"), "{stdout}");

    let temp = sample_copy();
    let migrations = temp.path().join("aios/.dotaios/migrations");
    fs::create_dir_all(migrations.join("transactions/migrate-1_1_0-to-1_2_0-0123456789abcdef"))
        .unwrap();
    fs::write(
        migrations.join("owner.json"),
        "{\n  \"schema\": \"dotaios.migrations.v1\"\n}\n",
    )
    .unwrap();
    let output = run_on(&temp, &["doctor"]);
    let (stdout, _) = texts(&output);
    assert_eq!(output.status.code(), Some(1));
    assert!(stdout.contains("[fail] Migration state\n        Interrupted plan: migrate-1_1_0-to-1_2_0-0123456789abcdef\n        Fix: Run `dotaios migrate --recover --path "), "{stdout}");
    let (report, _) = doctor_json(&temp.path().join("home"), &temp.path().join("aios"));
    assert_eq!(
        doctor_fix(&report, "Migration state").as_deref(),
        Some("Run `dotaios migrate --recover --path <this-aios-folder>`.")
    );
}

#[test]
fn config_and_catalog_problems_are_named() {
    let temp = sample_copy();
    let path = temp.path().join("aios/aios.json");
    let text = fs::read_to_string(&path).unwrap();
    fs::write(
        &path,
        text.replace("\"vault_path\": null", "\"vault_path\": 7"),
    )
    .unwrap();
    fs::create_dir(temp.path().join("aios/projects/Bad Name")).unwrap();
    let output = run_on(&temp, &["doctor"]);
    let (stdout, _) = texts(&output);
    // Both are warnings for their own checks: the working context leaves the odd directory out
    // (contract 01 §6.1). The search, which reads vault_path, fails on the number (contract 03
    // §3.3), so doctor says so.
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stdout.contains("[fail] Search readable\n        DOTAIOS_EVIDENCE_CONFIG_INVALID\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("[warn] aios.json present\n        schema 1.2.0, ai_tools: "),
        "{stdout}"
    );
    assert!(stdout.contains("        Field vault_path: "), "{stdout}");
    assert!(
        stdout.contains(
            "[warn] Project catalog\n        3 project(s); 1 directory name(s) under projects/ are not project slugs and are left out, first \"Bad Name\"."
        ),
        "{stdout}"
    );
}

/// Names in doctor's details pass the one name rule (contract 02 §10.1): a directory name that
/// is not a slug and a linked file, their format and control characters as `\u{…}`, in the text
/// report and in `--json`.
#[cfg(unix)]
#[test]
fn an_odd_project_directory_is_named_escaped() {
    let temp = sample_copy();
    fs::create_dir(temp.path().join("aios/projects/evil\u{202E}gnp\u{7}.md")).unwrap();
    // A link check 12 lists by name.
    std::os::unix::fs::symlink("x", temp.path().join("aios/references/ln\u{2066}k.md")).unwrap();
    for args in [&["doctor"][..], &["doctor", "--json"]] {
        let output = run_on(&temp, args);
        let (stdout, _) = texts(&output);
        assert_eq!(output.status.code(), Some(0), "{stdout}");
        assert!(
            !stdout.contains('\u{202E}') && !stdout.contains('\u{7}'),
            "{stdout}"
        );
        let escaped = if args.len() == 1 {
            "first \"evil\\u{202E}gnp\\u{0007}.md\"."
        } else {
            "first \\\"evil\\\\u{202E}gnp\\\\u{0007}.md\\\"."
        };
        assert!(stdout.contains(escaped), "{stdout}");
    }
}

#[test]
fn an_invalid_skill_is_named() {
    let temp = sample_copy();
    let skill = temp.path().join("aios/skills/broken");
    fs::create_dir(&skill).unwrap();
    fs::write(skill.join("SKILL.md"), "---\nname: a\nname: b\n---\nbody\n").unwrap();
    let output = run_on(&temp, &["doctor"]);
    let (stdout, _) = texts(&output);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stdout.contains("[fail] Skills\n        skills/broken/SKILL.md: "),
        "{stdout}"
    );
    assert!(
        stdout.contains("(DOTAIOS_SKILL_METADATA_INVALID)"),
        "{stdout}"
    );
    let healthy = sample_copy();
    let (stdout, _) = texts(&run_on(&healthy, &["doctor"]));
    assert!(
        stdout.contains("[ok] Skills\n        6 skill(s)\n"),
        "{stdout}"
    );
}

#[test]
fn an_unreadable_working_context_is_diagnosed_with_its_code_and_source() {
    let temp = sample_copy();
    let identity = temp.path().join("aios/context/identity.md");
    fs::write(&identity, "x".repeat((1 << 20) + 1)).unwrap();
    let output = run_on(&temp, &["doctor"]);
    let (stdout, _) = texts(&output);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stdout.contains(
            "[fail] Working context readable\n        DOTAIOS_CONTEXT_SOURCE_TOO_LARGE\n"
        ),
        "{stdout}"
    );
    assert!(
        stdout
            .contains("        context/identity.md: 1048577 bytes, over the 1048576-byte limit\n"),
        "{stdout}"
    );
}

/// Check 13 (`docs/decisions.md`): a folder straight from `init` is not "Everything looks good" while the three
/// context files are still templates; filling one in removes it from the warning.
#[test]
fn fresh_init_warns_that_the_context_is_still_the_template() {
    let temp = sample_copy();
    fs::remove_dir_all(temp.path().join("aios")).unwrap();
    let init = run_on(&temp, &["init", "--yes"]);
    assert_eq!(init.status.code(), Some(0), "{:?}", texts(&init));
    let output = run_on(&temp, &["doctor"]);
    let (stdout, _) = texts(&output);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains("[warn] Context filled in\n        Still the init template: context/identity.md, context/priorities.md, context/work.md\n"),
        "{stdout}"
    );
    assert!(!stdout.contains("Everything looks good."), "{stdout}");
    let work = temp.path().join("aios/context/work.md");
    let text = fs::read_to_string(&work).unwrap();
    fs::write(
        &work,
        text.replace(
            "<!-- Add the active work threads agents should keep in mind. -->",
            "Shipping the 1.0 release.",
        ),
    )
    .unwrap();
    let (stdout, _) = texts(&run_on(&temp, &["doctor"]));
    assert!(
        stdout.contains("Still the init template: context/identity.md, context/priorities.md\n"),
        "{stdout}"
    );
}

/// A partly answered `init` (contract 02 §6 and `docs/decisions.md`, "init placeholders"): the
/// sections still holding only `init`'s `<!-- … -->` placeholders never reach the agent, and
/// doctor names them instead of `[ok] Context filled in`.
#[test]
fn unanswered_init_sections_stay_out_of_the_context_and_doctor_names_them() {
    let temp = sample_copy();
    fs::remove_dir_all(temp.path().join("aios")).unwrap();
    let init = run_on(&temp, &["init", "--yes"]);
    assert_eq!(init.status.code(), Some(0), "{:?}", texts(&init));
    let answer = |file: &str, from: &str, to: &str| {
        let path = temp.path().join("aios/context").join(file);
        let text = fs::read_to_string(&path).unwrap();
        assert!(text.contains(from), "{text}");
        fs::write(&path, text.replace(from, to)).unwrap();
    };
    answer("identity.md", "<!-- Your Name -->", "Ada Lovelace");
    answer(
        "priorities.md",
        "<!-- Add the current bets and near-term priorities. -->",
        "- Ship the 1.0 release.",
    );
    answer(
        "work.md",
        "<!-- Add the active work threads agents should keep in mind. -->",
        "Writing the release notes.",
    );

    let brief = run_on(&temp, &["brief", "--compact"]);
    let (context, stderr) = texts(&brief);
    assert_eq!(brief.status.code(), Some(0), "{stderr}");
    assert!(!context.contains("<!--"), "{context}");
    assert!(context.contains("\n- Name: Ada Lovelace\n"), "{context}");
    assert!(!context.contains("- Role:"), "{context}");
    assert!(!context.contains("## Background"), "{context}");
    assert!(!context.contains("## Next Actions"), "{context}");
    assert!(context.contains("- Ship the 1.0 release."), "{context}");
    assert!(context.contains("Writing the release notes."), "{context}");

    let output = run_on(&temp, &["doctor"]);
    let (stdout, _) = texts(&output);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    assert!(!stdout.contains("[ok] Context filled in"), "{stdout}");
    assert!(
        stdout.contains("[warn] Context filled in\n        Sections left empty, not shown to agents: context/identity.md (Background, Skills, Preferences); context/priorities.md (Next Actions, Anti-Priorities); context/work.md (Active Projects, Working Notes)\n"),
        "{stdout}"
    );
}

/// Doctor's reader-limits walk and the search walk skip the same names, by one predicate
/// (contract 03 §4.2, "ci" = ASCII case-insensitive). A link named `to\u{212A}en.md` (the
/// Kelvin sign, which Unicode lowercases to `k`) is not skipped: search skips it as an eligible
/// link and names it (contract 03 §4.4), and doctor lists it. A link named `Token.md` is
/// skipped by both without a word.
#[cfg(unix)]
#[test]
fn doctor_and_search_skip_the_same_names() {
    let temp = sample_copy();
    let aios = temp.path().join("aios");
    let search = |temp: &tempfile::TempDir| {
        let output = run_on(temp, &["search", "anything", "--scope", "vault"]);
        (output.status.code(), texts(&output).1)
    };
    symlink("/etc/hostname", aios.join("vault/Token.md")).unwrap();
    let (code, stderr) = search(&temp);
    assert_eq!(code, Some(0), "{stderr}");
    let (stdout, _) = texts(&run_on(&temp, &["doctor"]));
    assert!(!stdout.contains("Token.md"), "{stdout}");

    fs::remove_file(aios.join("vault/Token.md")).unwrap();
    symlink("/etc/hostname", aios.join("vault/to\u{212A}en.md")).unwrap();
    let (code, stderr) = search(&temp);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr
            .starts_with("Skipped symbolic link vault/to\u{212A}en.md: links are never followed."),
        "{stderr}"
    );
    let (stdout, _) = texts(&run_on(&temp, &["doctor"]));
    assert!(
        stdout.contains("        vault/to\u{212A}en.md: a symbolic link\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "[warn] Search readable\n        vault/to\u{212A}en.md: a symbolic link, skipped by search\n"
        ),
        "{stdout}"
    );
}

/// Contract 03 §3.4, §4.4: a linked note is listed by the search check with the fix, and a
/// vault folder that is a link to a directory is searched as that vault, not reported.
#[cfg(unix)]
#[test]
fn doctor_lists_the_links_search_skips() {
    let temp = sample_copy();
    let aios = temp.path().join("aios");
    fs::write(temp.path().join("outside.md"), "x").unwrap();
    symlink(
        temp.path().join("outside.md"),
        aios.join("context/linked.md"),
    )
    .unwrap();
    fs::rename(aios.join("vault"), temp.path().join("Obsidian")).unwrap();
    symlink(temp.path().join("Obsidian"), aios.join("vault")).unwrap();
    let before = fingerprint(temp.path());
    let output = run_on(&temp, &["doctor"]);
    let (stdout, stderr) = texts(&output);
    assert_eq!(output.status.code(), Some(0), "{stdout}{stderr}");
    assert!(
        stdout.contains("[warn] Search readable\n        context/linked.md: a symbolic link, skipped by search\n        Fix: Search never follows links: move each linked note into the folder, or, for a linked vault, set vault_path in aios.json to the folder it points to.\n"),
        "{stdout}"
    );
    assert!(
        !stdout.contains("        vault: a symbolic link"),
        "{stdout}"
    );
    assert_eq!(before, fingerprint(temp.path()));
}

/// Issue 39 item 10: a directory that is not an AIOS folder gets one finding and one fix.
#[test]
fn a_directory_without_aios_json_gets_one_finding() {
    let temp = tempfile::tempdir().unwrap();
    fs::create_dir_all(temp.path().join("aios")).unwrap();
    fs::write(temp.path().join("aios/notes.md"), "x").unwrap();
    let before = fingerprint(temp.path());
    let output = run_on(&temp, &["doctor"]);
    let (stdout, stderr) = texts(&output);
    assert_eq!(output.status.code(), Some(1), "{stdout}{stderr}");
    assert!(
        stdout.starts_with("DotAIOS doctor\n\n[fail] AIOS folder at "),
        "{stdout}"
    );
    assert!(
        stdout.contains("\n        This directory has no aios.json, so it is not an AIOS folder.\n        Fix: Pass --path with your AIOS folder, or run `dotaios init --force --path "),
        "{stdout}"
    );
    assert!(
        stdout.ends_with(" to make this one (it only adds missing files).\n\nFound 1 blocking issue(s). Fix those first, then run dotaios doctor again.\n"),
        "{stdout}"
    );
    // One finding: no other check ran.
    assert_eq!(
        stdout.lines().filter(|l| l.starts_with('[')).count(),
        1,
        "{stdout}"
    );
    assert_eq!(before, fingerprint(temp.path()));
}

/// A scope the default search leaves out for a ceiling answers nothing, so doctor warns and
/// names the file, in the words `dotaios search` uses (contract 01 §10 check 7a, 03 §17.4).
#[test]
fn doctor_names_a_scope_search_omits_for_a_ceiling() {
    let temp = sample_copy();
    let aios = temp.path().join("aios");
    fs::File::create(aios.join("vault/big.md"))
        .unwrap()
        .set_len(5 * 1024 * 1024)
        .unwrap();
    let before = fingerprint(temp.path());
    let output = run_on(&temp, &["doctor"]);
    let (stdout, stderr) = texts(&output);
    assert_eq!(output.status.code(), Some(0), "{stdout}{stderr}");
    assert!(
        stdout.contains("[warn] Search readable\n        vault: not searched, vault/big.md is 5242880 bytes, over the 4194304-byte per-file limit. Split the oversized file, or move it outside this search scope. (reason: file_too_large)\n        Fix: "),
        "{stdout}"
    );
    assert_eq!(before, fingerprint(temp.path()));
}

/// When the default search fails on a file's bytes or permissions, check 7a sends the user to
/// check 12, which then reads what the readers read and names the file (contract 01 §10): a
/// UTF-16 note, a note and a folder without read permission. Root reads anything, so the
/// binary runs as `nobody` then.
#[cfg(unix)]
#[test]
fn doctor_names_the_file_search_cannot_read() {
    use std::os::unix::process::CommandExt;
    let temp = sample_copy();
    let aios = temp.path().join("aios");
    let utf16: Vec<u8> = "\u{FEFF}# Notes\n\nneedle\n"
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    fs::write(aios.join("vault/u16.md"), utf16).unwrap();
    fs::write(aios.join("vault/locked.md"), "# Locked\n").unwrap();
    fs::create_dir(aios.join("vault/shut")).unwrap();
    let is_root = rustix::process::geteuid().is_root();
    let mut paths = vec![temp.path().to_path_buf()];
    for entry in walk(&aios) {
        paths.push(entry);
    }
    for path in &paths {
        let mode = if path.is_dir() { 0o755 } else { 0o644 };
        fs::set_permissions(path, fs::Permissions::from_mode(mode)).unwrap();
    }
    let before = fingerprint(temp.path());
    fs::set_permissions(
        aios.join("vault/locked.md"),
        fs::Permissions::from_mode(0o000),
    )
    .unwrap();
    fs::set_permissions(aios.join("vault/shut"), fs::Permissions::from_mode(0o000)).unwrap();
    let mut command = support::dotaios(&temp.path().join("home"));
    command.args(["doctor", "--path"]).arg(&aios);
    if is_root {
        command.uid(65534).gid(65534);
    }
    let output = command.output().unwrap();
    fs::set_permissions(aios.join("vault/shut"), fs::Permissions::from_mode(0o755)).unwrap();
    fs::set_permissions(
        aios.join("vault/locked.md"),
        fs::Permissions::from_mode(0o644),
    )
    .unwrap();
    let (stdout, stderr) = texts(&output);
    assert_eq!(output.status.code(), Some(1), "{stdout}{stderr}");
    assert!(stdout.contains("[fail] Search readable\n"), "{stdout}");
    assert!(
        stdout.contains("        vault/locked.md: cannot be read (permission denied)\n        vault/shut/: cannot be listed (permission denied)\n        vault/u16.md: not UTF-8 text (saved as UTF-16 or Latin-1?)\n"),
        "{stdout}"
    );
    assert_eq!(
        before,
        fingerprint(temp.path()),
        "doctor wrote to the folder"
    );
}

/// Contract 03 §4.6, 01 §10 checks 7a, 8 and 12: names that are not UTF-8 are named escaped
/// (`\xE9`) with the fix: the note and the folder search skips, the project directory the
/// catalog leaves out; a name no reader reads stays unnamed. Doctor writes nothing.
#[cfg(unix)]
#[test]
fn doctor_names_names_that_are_not_utf8() {
    use dotaios_testkit::non_utf8_entry;
    let temp = sample_copy();
    let aios = temp.path().join("aios");
    let Some(_) = non_utf8_entry(&aios.join("vault"), b"caf\xe9.md", Some(b"# hi\n")) else {
        return;
    };
    let old = non_utf8_entry(&aios.join("vault"), b"old\xe9", None).unwrap();
    fs::write(old.join("inside.md"), "x").unwrap();
    non_utf8_entry(&aios.join("projects"), b"caf\xe9", None).unwrap();
    non_utf8_entry(&aios.join("vault"), b"bad\xff.txt", Some(b"x")).unwrap();
    let before = fingerprint(temp.path());
    let output = run_on(&temp, &["doctor"]);
    let (stdout, stderr) = texts(&output);
    assert_eq!(output.status.code(), Some(0), "{stdout}{stderr}");
    assert!(
        stdout.contains("[warn] Search readable\n        vault/caf\\xE9.md: skipped by search, its name is not UTF-8. Rename it to valid UTF-8, or move it out of the folder.\n        vault/old\\xE9/: skipped by search, its name is not UTF-8, so nothing in it was searched. Rename it to valid UTF-8, or move it out of the folder.\n        Fix: Search skips a file it cannot read and searches the rest: re-save, rename, make readable or move each file named above, as its line says.\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("[warn] Reader limits and links\n        projects/caf\\xE9/: name is not UTF-8, so readers skip this folder and everything in it; rename it to valid UTF-8\n        vault/caf\\xE9.md: name is not UTF-8, so readers skip it; rename it to valid UTF-8\n        vault/old\\xE9/: name is not UTF-8, so readers skip this folder and everything in it; rename it to valid UTF-8\n        Fix: "),
        "{stdout}"
    );
    assert!(
        stdout.contains("are not project slugs and are left out, first \"caf\\xE9\"."),
        "{stdout}"
    );
    assert!(
        !stdout.contains("bad") && !stdout.contains('\u{FFFD}'),
        "{stdout}"
    );
    let (report, code) = support::doctor_json(&temp.path().join("home"), &aios);
    assert_eq!(code, Some(0));
    assert!(
        report
            .to_string()
            .contains("vault/old\\\\xE9/: skipped by search"),
        "{report}"
    );
    assert_eq!(
        before,
        fingerprint(temp.path()),
        "doctor wrote to the folder"
    );
}

/// Every directory and file below `dir`, links not followed.
#[cfg(unix)]
fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut found = Vec::new();
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let meta = fs::symlink_metadata(&path).unwrap();
        if meta.is_dir() {
            found.extend(walk(&path));
        }
        if !meta.file_type().is_symlink() {
            found.push(path);
        }
    }
    found
}

/// A `SKILL.md` saved as UTF-16 breaks the catalog; the fix says what is wrong with the file,
/// not its frontmatter (contract 01 §10 check 9).
#[test]
fn doctor_says_a_skill_file_is_not_utf8() {
    let temp = sample_copy();
    let aios = temp.path().join("aios");
    fs::create_dir(aios.join("skills/wide")).unwrap();
    let utf16: Vec<u8> = "\u{FEFF}---\nname: wide\ndescription: x\n---\n# Wide\n"
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    fs::write(aios.join("skills/wide/SKILL.md"), utf16).unwrap();
    let before = fingerprint(temp.path());
    let output = run_on(&temp, &["doctor"]);
    let (stdout, stderr) = texts(&output);
    assert_eq!(output.status.code(), Some(1), "{stdout}{stderr}");
    assert!(
        stdout.contains("(DOTAIOS_EVIDENCE_INVALID_UTF8)\n        Fix: Re-save skills/wide/SKILL.md as UTF-8 (it is not UTF-8 text), or move that skill out of skills/.\n"),
        "{stdout}"
    );
    assert_eq!(before, fingerprint(temp.path()));
}
