//! `dotaios skills`, `dotaios skills <name>` and `dotaios skills resolve` run as the built
//! binary (contract 04 §5).
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
use support::{dotaios, run_on, sample_copy, texts};

const METADATA_MESSAGE: &str = "DotAIOS could not read skill routing metadata safely.\n";
const EVIDENCE_MESSAGE: &str = "DotAIOS could not read the evidence corpus safely.\n";

/// A temporary folder with `aios/aios.json` (and `home/`), no skills yet.
fn bare_folder() -> tempfile::TempDir {
    let temp = tempfile::tempdir().unwrap();
    fs::create_dir_all(temp.path().join("aios")).unwrap();
    fs::create_dir_all(temp.path().join("home")).unwrap();
    fs::write(temp.path().join("aios/aios.json"), "{}\n").unwrap();
    temp
}

fn aios(temp: &tempfile::TempDir) -> PathBuf {
    temp.path().join("aios")
}

fn write_skill(aios: &Path, dir: &str, text: &str) {
    fs::create_dir_all(aios.join("skills").join(dir)).unwrap();
    fs::write(aios.join("skills").join(dir).join("SKILL.md"), text).unwrap();
}

/// The fixture of contract 02 §17.2 / 04 §4.2.
fn fixture() -> tempfile::TempDir {
    let temp = bare_folder();
    let aios = aios(&temp);
    write_skill(
        &aios,
        "plan-today",
        "---\nname: plan-today\ndescription: Plan the day from priorities and recent work.\n\
         triggers:\n  - plan my day\n  - what should I work on\n---\n# Plan today\n\nSteps.\n",
    );
    write_skill(
        &aios,
        "closeday",
        "---\nname: closeday\ndescription: Close out today's note.\n\
         triggers: close my day, end of day\n---\n# Close the day\n",
    );
    write_skill(
        &aios,
        "_drafts",
        "---\nname: drafted\ntriggers: plan my day\n---\n",
    );
    temp
}

fn status(output: &Output) -> Option<i32> {
    output.status.code()
}

/// Every run must leave the folder byte- and mode-identical.
fn run_unchanged(temp: &tempfile::TempDir, args: &[&str]) -> Output {
    let before = fingerprint(temp.path());
    let output = run_on(temp, args);
    assert_eq!(
        before,
        fingerprint(temp.path()),
        "{args:?} changed the folder"
    );
    output
}

#[test]
fn readme_example_on_the_sample_folder() {
    // Exactly the README's command, run from the repository root on the shipped sample.
    let repository = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let home = tempfile::tempdir().unwrap();
    let output = dotaios(home.path())
        .current_dir(&repository)
        .args([
            "skills",
            "resolve",
            "plan my day",
            "--path",
            "examples/aios",
        ])
        .output()
        .unwrap();
    let (stdout, stderr) = texts(&output);
    assert_eq!(status(&output), Some(0), "{stderr}");
    let folder = support::plain(&repository.canonicalize().unwrap())
        .join("examples")
        .join("aios");
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(
        lines[0].starts_with("plan-today \u{2014} Plan the day from priorities"),
        "{stdout}"
    );
    assert_eq!(lines[1], "  dir:        plan-today");
    assert_eq!(
        lines[2],
        "  confidence: 0.57 (matched trigger \"plan my day\")"
    );
    assert_eq!(
        lines[3],
        "  triggers:   plan my day \u{b7} what should I work on \u{b7} structure today \u{b7} \
         what's my focus today"
    );
    assert_eq!(
        lines[4],
        format!(
            "  run:        {}",
            folder
                .join("skills")
                .join("plan-today")
                .join("SKILL.md")
                .display()
        )
    );
    assert_eq!(lines.len(), 5);
}

#[test]
fn sample_folder_acceptance_scores() {
    let temp = sample_copy();
    let output = run_unchanged(&temp, &["skills", "resolve", "plan my day", "--json"]);
    let (stdout, _) = texts(&output);
    assert!(stdout.contains("\"score\": 2.339,\n"), "{stdout}");
    assert!(stdout.contains("\"reason\": \"matched trigger \\\"plan my day\\\"\""));

    let output = run_unchanged(
        &temp,
        &["skills", "resolve", "plan", "this", "work", "--json"],
    );
    let (stdout, _) = texts(&output);
    assert_eq!(status(&output), Some(0));
    assert!(
        stdout.contains("\"intent\": \"plan this work\""),
        "{stdout}"
    );
    assert!(stdout.contains("\"name\": \"plan-today\""));
    assert!(stdout.contains("\"score\": 2.334,\n"), "{stdout}");
    assert!(stdout.contains("\"reason\": \"matched trigger \\\"what should I work on\\\"\""));
}

#[test]
fn fixture_json_is_the_spec_example() {
    let temp = fixture();
    let output = run_unchanged(&temp, &["skills", "resolve", "plan my day", "--json"]);
    let (stdout, stderr) = texts(&output);
    assert_eq!(status(&output), Some(0), "{stderr}");
    let expected = format!(
        r#"{{
  "intent": "plan my day",
  "matches": [
    {{
      "name": "plan-today",
      "dir": "plan-today",
      "description": "Plan the day from priorities and recent work.",
      "triggers": [
        "plan my day",
        "what should I work on"
      ],
      "score": 2.447,
      "confidence": 0.852,
      "reason": "matched trigger \"plan my day\"",
      "skillPath": {}
    }}
  ]
}}
"#,
        serde_json::to_string(
            &aios(&temp)
                .join("skills")
                .join("plan-today")
                .join("SKILL.md")
        )
        .unwrap()
    );
    assert_eq!(stdout, expected);
    assert_eq!(stderr, "");
}

#[test]
fn limit_all_and_ties() {
    let temp = fixture();
    let output = run_unchanged(
        &temp,
        &["skills", "resolve", "plan my day", "--json", "--limit", "5"],
    );
    let (stdout, _) = texts(&output);
    assert_eq!(stdout.matches("\"name\": ").count(), 2, "{stdout}");
    assert!(stdout.contains("\"score\": 0.406,"), "{stdout}");
    assert!(!stdout.contains("drafted"));

    let output = run_unchanged(&temp, &["skills", "resolve", "plan my day", "--all"]);
    let (stdout, _) = texts(&output);
    assert_eq!(status(&output), Some(0));
    let heads: Vec<&str> = stdout
        .lines()
        .filter(|line| !line.starts_with("  "))
        .collect();
    assert_eq!(
        heads,
        [
            "plan-today \u{2014} Plan the day from priorities and recent work.",
            "closeday \u{2014} Close out today's note."
        ]
    );
    // The runner-up's confidence is measured against the top match (contract 04 §3.3).
    assert!(
        stdout.contains("  confidence: 0.013 (matched trigger \"close my day\")\n"),
        "{stdout}"
    );

    // Without --all, text mode prints only the top block whatever --limit says.
    let output = run_unchanged(&temp, &["skills", "resolve", "plan my day", "--limit", "2"]);
    assert_eq!(texts(&output).0.matches(" \u{2014} ").count(), 1);

    // A tie (`plan` and `day` against `close` and `day`) routes both, each at half the
    // confidence a lone match would have (contract 04 §3.2, §3.3).
    let output = run_unchanged(
        &temp,
        &["skills", "resolve", "plan the day or close it", "--all"],
    );
    let (stdout, _) = texts(&output);
    assert_eq!(status(&output), Some(0));
    assert_eq!(
        stdout.matches("  confidence: 0.474 (").count(),
        2,
        "{stdout}"
    );
}

#[test]
fn exact_name_and_unquoted_words() {
    let temp = fixture();
    let output = run_unchanged(&temp, &["skills", "resolve", "  CLOSEDAY "]);
    let (stdout, _) = texts(&output);
    assert!(stdout.starts_with("closeday \u{2014} "), "{stdout}");
    assert!(stdout.contains("  confidence: 1 (exact name match)\n"));

    // Words that look like short options are intent words, and so is everything after `--`;
    // an unknown `--` option is refused (contract 04 §5.1).
    let refused = run_unchanged(
        &temp,
        &["skills", "resolve", "what", "-should", "I", "work", "--on"],
    );
    assert_eq!(status(&refused), Some(1));
    assert_eq!(texts(&refused).1, "Unknown option: --on\n");
    let aios = temp.path().join("aios");
    let aios = aios.to_str().unwrap();
    let output = run_unchanged(
        &temp,
        &[
            "skills", "resolve", "--path", aios, "what", "-should", "I", "work", "--", "on",
        ],
    );
    let (stdout, stderr) = texts(&output);
    assert_eq!(status(&output), Some(0), "{stderr}");
    assert!(
        stdout.contains("(matched trigger \"what should I work on\")"),
        "{stdout}"
    );
}

#[test]
fn resolve_may_follow_the_path_option() {
    let temp = fixture();
    let output = dotaios(&temp.path().join("home"))
        .arg("skills")
        .arg("--path")
        .arg(aios(&temp))
        .args(["resolve", "plan", "my", "day", "--json"])
        .output()
        .unwrap();
    let (stdout, stderr) = texts(&output);
    assert_eq!(status(&output), Some(0), "{stderr}");
    assert!(stdout.contains("\"score\": 2.447,"), "{stdout}");
}

#[test]
fn full_prints_the_skill_file_after_the_block() {
    let temp = fixture();
    let output = run_unchanged(&temp, &["skills", "resolve", "plan my day", "--full"]);
    let (stdout, _) = texts(&output);
    let skill = fs::read_to_string(aios(&temp).join("skills/plan-today/SKILL.md")).unwrap();
    let run_line = format!(
        "  run:        {}\n",
        aios(&temp)
            .join("skills")
            .join("plan-today")
            .join("SKILL.md")
            .display()
    );
    assert!(
        stdout.ends_with(&format!("{run_line}\n{skill}\n")),
        "{stdout}"
    );
}

/// A missing intent is a usage error (exit 1); an intent that matches nothing is "ran, no
/// answer" (exit 2; contract 06 §1.3, 04 §5.3).
#[test]
fn no_intent_exits_1_and_no_match_exits_2() {
    let temp = fixture();
    for args in [
        &["skills", "resolve"][..],
        &["skills", "resolve", " \t "],
        &["skills", "resolve", "--json"],
    ] {
        let output = run_unchanged(&temp, args);
        let (stdout, stderr) = texts(&output);
        assert_eq!(status(&output), Some(1));
        assert_eq!(stdout, "");
        let path = aios(&temp).display().to_string();
        assert_eq!(
            stderr,
            format!(
                "Pass an intent to resolve, e.g. dotaios skills resolve \"plan my day\" --path {path}.\n\
                 Or print a boot block: dotaios skills resolve --boot-context --path {path}.\n"
            )
        );
    }

    let output = run_unchanged(&temp, &["skills", "resolve", "zzzzz qzzzz"]);
    let (stdout, stderr) = texts(&output);
    assert_eq!(status(&output), Some(2));
    assert_eq!(stdout, "");
    assert_eq!(
        stderr,
        format!(
            "No skill matched: zzzzz qzzzz\nRun \"dotaios skills --path {}\" to list installed skills.\n",
            aios(&temp).display()
        )
    );

    let output = run_unchanged(&temp, &["skills", "resolve", "closedya"]);
    assert_eq!(status(&output), Some(2));
    assert_eq!(
        texts(&output).1,
        format!(
            "No skill matched: closedya. Did you mean closeday?\nRun \"dotaios skills --path {}\" to list installed skills.\n",
            aios(&temp).display()
        )
    );

    let output = run_unchanged(&temp, &["skills", "resolve", "zzzzz qzzzz", "--json"]);
    let (stdout, stderr) = texts(&output);
    assert_eq!(status(&output), Some(2));
    assert_eq!(
        stdout,
        "{\n  \"intent\": \"zzzzz qzzzz\",\n  \"matches\": []\n}\n"
    );
    assert_eq!(stderr, "");
}

#[test]
fn a_500_code_point_intent_resolves() {
    let temp = fixture();
    let intent = format!("plan my day {}", "\u{e9}".repeat(488));
    assert_eq!(intent.chars().count(), 500);
    let output = run_unchanged(&temp, &["skills", "resolve", &intent, "--json"]);
    let (stdout, stderr) = texts(&output);
    assert_eq!(status(&output), Some(0), "{stderr}");
    assert!(stdout.contains("\"name\": \"plan-today\""));
}

#[test]
fn limit_errors() {
    let temp = fixture();
    for value in ["0", "-1", "1.5", "two"] {
        let output = run_unchanged(&temp, &["skills", "resolve", "plan", "--limit", value]);
        let (stdout, stderr) = texts(&output);
        assert_eq!(status(&output), Some(1));
        assert_eq!(stdout, "");
        assert_eq!(
            stderr,
            format!("Invalid --limit \"{value}\". Use a positive whole number.\n")
        );
    }
    let output = run_unchanged(&temp, &["skills", "resolve", "plan", "--limit"]);
    assert_eq!(texts(&output).1, "--limit requires a value\n");
    assert_eq!(status(&output), Some(1));
}

#[test]
fn missing_folder_is_reported_before_anything_else() {
    let temp = tempfile::tempdir().unwrap();
    let missing = temp.path().join("nowhere");
    for args in [
        &["skills"][..],
        &["skills", "resolve"],
        &["skills", "resolve", "x", "--limit", "2"],
    ] {
        let output = dotaios(temp.path())
            .args(args)
            .arg("--path")
            .arg(&missing)
            .output()
            .unwrap();
        let (_, stderr) = texts(&output);
        assert_eq!(status(&output), Some(1));
        assert_eq!(
            stderr,
            format!(
                "No AIOS folder found at {}. Run dotaios init first, or pass --path.\n",
                missing.display()
            )
        );
    }
    assert!(!missing.exists());

    // `--path=<dir>` means `--path <dir>` (contract 06 §1.2): never a silent
    // fall-back to the default folder.
    let output = dotaios(temp.path())
        .args(["skills", "resolve", "x"])
        .arg(format!("--path={}", missing.display()))
        .output()
        .unwrap();
    assert_eq!(
        texts(&output).1,
        format!(
            "No AIOS folder found at {}. Run dotaios init first, or pass --path.\n",
            missing.display()
        )
    );
}

#[cfg(unix)]
#[test]
fn linked_skill_directory_is_skipped_and_never_named() {
    let temp = fixture();
    let outside = tempfile::tempdir().unwrap();
    write_skill(
        outside.path(),
        "linkedsecret",
        "---\nname: linkedsecret\ndescription: Never route here.\ntriggers: plan my day\n---\n",
    );
    symlink(
        outside.path().join("skills/linkedsecret"),
        aios(&temp).join("skills/linkedsecret"),
    )
    .unwrap();
    // (Where the user types the name, the name is echoed back; nothing else names it.)
    let runs: [&[&str]; 5] = [
        &["skills"],
        &["skills", "resolve", "plan my day", "--all"],
        &["skills", "resolve", "plan my day", "--json", "--limit", "9"],
        &["skills", "resolve", "--boot-context"],
        &["skills", "linkedsecret"],
    ];
    for args in runs {
        let output = run_unchanged(&temp, args);
        let (stdout, stderr) = texts(&output);
        assert!(!stdout.contains("linkedsecret"), "{args:?}: {stdout}");
        assert!(!stdout.contains("Never route"), "{args:?}: {stdout}");
        assert!(
            !stderr.contains("linkedsecret") || args == ["skills", "linkedsecret"],
            "{args:?}: {stderr}"
        );
    }
    // The real siblings still route.
    let output = run_unchanged(&temp, &["skills", "resolve", "plan my day"]);
    assert_eq!(status(&output), Some(0));
    assert!(texts(&output).0.starts_with("plan-today \u{2014} "));
    let output = run_unchanged(&temp, &["skills", "resolve", "linkedsecret", "--json"]);
    assert_eq!(status(&output), Some(2));
    assert!(texts(&output).0.contains("\"matches\": []"));
    let output = run_unchanged(&temp, &["skills", "linkedsecret"]);
    assert_eq!(status(&output), Some(1));
    let output = run_unchanged(&temp, &["skills"]);
    assert!(texts(&output).0.starts_with("2 skills installed:\n"));
}

#[test]
fn a_two_megabyte_body_resolves_by_trigger() {
    let temp = fixture();
    let mut bytes =
        b"---\nname: bulky\ndescription: A long manual.\ntriggers: find the needle\n---\n".to_vec();
    // Not UTF-8 and not YAML: reading the body for routing would fail the request.
    bytes.extend(std::iter::repeat_n(0xff_u8, 2 * 1024 * 1024));
    fs::create_dir_all(aios(&temp).join("skills/bulky")).unwrap();
    fs::write(aios(&temp).join("skills/bulky/SKILL.md"), &bytes).unwrap();
    let output = run_unchanged(&temp, &["skills", "resolve", "find the needle"]);
    let (stdout, stderr) = texts(&output);
    assert_eq!(status(&output), Some(0), "{stderr}");
    assert!(
        stdout.starts_with("bulky \u{2014} A long manual.\n"),
        "{stdout}"
    );
    assert!(stdout.contains("(matched trigger \"find the needle\")"));
    // Printing it in full needs strict UTF-8, and says which relative file failed.
    let output = run_unchanged(&temp, &["skills", "resolve", "find the needle", "--full"]);
    assert_eq!(status(&output), Some(1));
    assert_eq!(
        texts(&output).1,
        "Could not read skill file: skills/bulky/SKILL.md\n"
    );
}

#[test]
fn invalid_metadata_fails_with_the_fixed_message() {
    let bad = [
        "---\nname: 123\n---\n",
        "---\ntriggers: [plan, 3]\n---\n",
        "---\nname: a\nname: b\n---\n",
        "---\n- a list\n---\n",
        "---\nname: [unclosed\n---\n",
    ];
    for text in bad {
        let temp = fixture();
        write_skill(&aios(&temp), "broken", text);
        for args in [
            &["skills", "resolve", "plan my day"][..],
            &["skills"],
            &["skills", "resolve", "--boot-context"],
        ] {
            let output = run_unchanged(&temp, args);
            let (stdout, stderr) = texts(&output);
            assert_eq!(status(&output), Some(1), "{text:?}");
            assert_eq!(stdout, "");
            assert_eq!(stderr, METADATA_MESSAGE, "{text:?}");
        }
    }
}

#[cfg(unix)]
#[test]
fn unreadable_skill_files_fail_with_path_free_messages() {
    let temp = fixture();
    write_skill(&aios(&temp), "open-ended", "---\nname: open-ended\n");
    let output = run_unchanged(&temp, &["skills", "resolve", "plan my day"]);
    assert_eq!(status(&output), Some(1));
    assert_eq!(texts(&output), (String::new(), EVIDENCE_MESSAGE.to_owned()));

    let temp = fixture();
    fs::create_dir_all(aios(&temp).join("skills/linked-file")).unwrap();
    symlink(
        aios(&temp).join("skills/closeday/SKILL.md"),
        aios(&temp).join("skills/linked-file/SKILL.md"),
    )
    .unwrap();
    let output = run_unchanged(&temp, &["skills", "resolve", "plan my day"]);
    assert_eq!(status(&output), Some(1));
    let (_, stderr) = texts(&output);
    assert_eq!(stderr, EVIDENCE_MESSAGE);

    let temp = fixture();
    let big = aios(&temp).join("skills/huge");
    fs::create_dir_all(&big).unwrap();
    fs::File::create(big.join("SKILL.md"))
        .unwrap()
        .set_len(8 * 1024 * 1024 + 1)
        .unwrap();
    let output = run_unchanged(&temp, &["skills"]);
    assert_eq!(status(&output), Some(1));
    assert_eq!(
        texts(&output).1,
        "DotAIOS stopped reading: one file is past the safe per-file size limit. Split that \
         file, or move it out of the folder.\n"
    );
}

#[test]
fn list_and_show() {
    let temp = fixture();
    write_skill(&aios(&temp), "bare", "# No frontmatter\n");
    let output = run_unchanged(&temp, &["skills"]);
    let (stdout, _) = texts(&output);
    assert_eq!(status(&output), Some(0));
    let path = aios(&temp).display().to_string();
    assert_eq!(
        stdout,
        format!(
            "3 skills installed:\n\n  bare\n  closeday \u{2014} Close out today's note.\n  \
             plan-today \u{2014} Plan the day from priorities and recent work.\n\nShow one with \
             dotaios skills <name> --path {path}, or match a request with dotaios skills resolve \
             \"<intent>\" --path {path}.\n"
        )
    );

    let skill = fs::read_to_string(aios(&temp).join("skills/closeday/SKILL.md")).unwrap();
    for name in ["closeday", "CloseDay"] {
        let output = run_unchanged(&temp, &["skills", name]);
        assert_eq!(status(&output), Some(0));
        assert_eq!(texts(&output).0, format!("{skill}\n"));
    }

    let output = run_unchanged(&temp, &["skills", "nothing-here"]);
    assert_eq!(status(&output), Some(1));
    assert_eq!(
        texts(&output),
        (
            String::new(),
            format!(
                "No skill found: nothing-here\nRun \"dotaios skills --path {}\" to list installed skills.\n",
                aios(&temp).display()
            )
        )
    );

    // A near miss names the closest installed skill (contract 06 §1.2).
    let output = run_unchanged(&temp, &["skills", "CloseDya"]);
    assert_eq!(status(&output), Some(1));
    assert_eq!(
        texts(&output).1,
        format!(
            "No skill found: CloseDya. Did you mean closeday?\nRun \"dotaios skills --path {}\" to list installed skills.\n",
            aios(&temp).display()
        )
    );

    let output = run_unchanged(&temp, &["skills", "--bogus"]);
    assert_eq!(status(&output), Some(1));
    assert_eq!(texts(&output).1, "Unknown option: --bogus\n");

    let empty = bare_folder();
    let output = run_unchanged(&empty, &["skills"]);
    assert_eq!(status(&output), Some(0));
    assert!(texts(&output).0.starts_with("No skills installed.\n"));
}

#[test]
fn boot_context_table() {
    let temp = fixture();
    write_skill(
        &aios(&temp),
        "pipes",
        "---\nname: Pipes\ndescription: \"a | b\\n  c\"\n---\n",
    );
    let output = run_unchanged(
        &temp,
        &["skills", "resolve", "--boot-context", "ignored", "--json"],
    );
    let (stdout, _) = texts(&output);
    assert_eq!(status(&output), Some(0));
    let run = |dir: &str| {
        aios(&temp)
            .join("skills")
            .join(dir)
            .join("SKILL.md")
            .display()
            .to_string()
    };
    let (closeday, pipes, plan) = (run("closeday"), run("pipes"), run("plan-today"));
    assert!(stdout.starts_with("## Skills first\n\n"), "{stdout}");
    let table = &stdout[stdout.find("| Skill |").unwrap()..];
    assert_eq!(
        table,
        format!(
            "| Skill | Triggers | Run |\n| --- | --- | --- |\n\
             | closeday | close my day \u{b7} end of day | `{closeday}` |\n\
             | Pipes | a \\| b c | `{pipes}` |\n\
             | plan-today | plan my day \u{b7} what should I work on | \
             `{plan}` |\n\n"
        )
    );

    let empty = bare_folder();
    let output = run_unchanged(&empty, &["skills", "resolve", "--boot-context"]);
    let (stdout, _) = texts(&output);
    assert_eq!(status(&output), Some(0));
    assert!(stdout.starts_with("## Skills first\n\n"));
    assert!(!stdout.contains('|'), "{stdout}");
    assert!(stdout.ends_with("\n\n"));
}

#[test]
fn help_and_the_absent_resolve_command() {
    let temp = tempfile::tempdir().unwrap();
    for args in [
        &["skills", "resolve", "--help"][..],
        &["skills", "resolve", "x", "-h", "--limit", "0"],
    ] {
        let output = dotaios(temp.path()).args(args).output().unwrap();
        let (stdout, stderr) = texts(&output);
        assert_eq!(status(&output), Some(0));
        assert!(
            stdout.starts_with("Usage:\n  dotaios skills resolve \"<intent>\""),
            "{stdout}"
        );
        assert_eq!(stderr, "");
    }
    let output = dotaios(temp.path())
        .args(["skills", "--help"])
        .output()
        .unwrap();
    let help = texts(&output).0;
    assert!(
        help.starts_with("Usage:\n  dotaios skills [--json] [--path <dir>]"),
        "{help}"
    );
    assert!(
        help.contains("\n  --json "),
        "skills --help lists --json: {help}"
    );

    // The reference's separate `dotaios resolve` is deliberately not shipped (contract 04 §5.6).
    let output = dotaios(temp.path())
        .args(["resolve", "plan my day"])
        .output()
        .unwrap();
    assert_eq!(status(&output), Some(1));
    assert_eq!(
        texts(&output).1,
        "Unknown command: resolve. Run dotaios --help to see the commands.\n"
    );
}

/// Contract 04 §3.3: the CLI text block, the CLI `--json` and `resolve_skill` carry one and the
/// same confidence for every match of the same intent over the sample folder (calibrated,
/// rounded to three decimals), however the match was made.
#[test]
fn every_surface_carries_the_same_confidence() {
    let aios = support::sample_aios();
    let home = tempfile::tempdir().unwrap();
    let adapter = support::Adapter {
        aios: &aios,
        home: home.path(),
        zone: "UTC",
    };
    let intents = ["plan my day", "close the day", "closeday", "review my week"];
    let calls: Vec<(&str, serde_json::Value)> = intents
        .iter()
        .map(|intent| {
            (
                "resolve_skill",
                serde_json::json!({"intent": intent, "limit": 10}),
            )
        })
        .collect();
    let answers = adapter.payloads(&calls);
    for (intent, answer) in intents.iter().zip(&answers) {
        let cli = |extra: &[&str]| {
            let output = dotaios(home.path())
                .args(["skills", "resolve", intent, "--all"])
                .args(extra)
                .arg("--path")
                .arg(&aios)
                .output()
                .unwrap();
            assert_eq!(status(&output), Some(0), "{intent}: {:?}", texts(&output));
            texts(&output).0
        };
        let of = |matches: &serde_json::Value| -> Vec<(String, String)> {
            matches
                .as_array()
                .unwrap()
                .iter()
                .map(|entry| {
                    (
                        entry["name"].as_str().unwrap().to_owned(),
                        entry["confidence"].to_string(),
                    )
                })
                .collect()
        };
        let mcp = of(&answer["matches"]);
        let json: serde_json::Value = serde_json::from_str(&cli(&["--json"])).unwrap();
        assert_eq!(of(&json["matches"]), mcp, "{intent}");
        let text = cli(&[]);
        let printed: Vec<(String, String)> = text
            .lines()
            .filter(|line| !line.starts_with("  "))
            .map(|head| head.split(" \u{2014} ").next().unwrap().to_owned())
            .zip(text.lines().filter_map(|line| {
                line.strip_prefix("  confidence: ")
                    .and_then(|rest| rest.split(' ').next())
                    .map(str::to_owned)
            }))
            .collect();
        assert_eq!(printed, mcp, "{intent}");
    }
    assert_eq!(answers[0]["matches"][0]["confidence"], 0.57);
    // The runner-up is measured against the top match.
    assert_eq!(answers[1]["matches"].as_array().unwrap().len(), 3);
    assert_eq!(answers[2]["matches"][0]["confidence"], 1);
}

/// `skills --json` prints one JSON document (contract 04 §5.5, 06 §1.3): the catalog in order,
/// each skill with its members and path; `skills <name> --json` one skill with its SKILL.md.
#[test]
fn list_and_show_as_json() {
    let temp = fixture();
    let output = run_unchanged(&temp, &["skills", "--json"]);
    assert_eq!(status(&output), Some(0));
    let (stdout, stderr) = texts(&output);
    assert_eq!(stderr, "");
    let list: serde_json::Value = serde_json::from_str(&stdout).unwrap_or_else(|error| {
        panic!("skills --json is not one JSON document ({error}): {stdout}")
    });
    let skills = list["skills"].as_array().unwrap();
    let names: Vec<&str> = skills
        .iter()
        .map(|skill| skill["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["closeday", "plan-today"]);
    let closeday = &skills[0];
    assert_eq!(closeday["dir"], "closeday");
    assert_eq!(closeday["description"], "Close out today's note.");
    assert!(closeday["triggers"].is_array());
    let path = support::below(&aios(&temp), "skills/closeday/SKILL.md");
    assert_eq!(closeday["skillPath"], path.display().to_string());

    let output = run_unchanged(&temp, &["skills", "CloseDay", "--json"]);
    assert_eq!(status(&output), Some(0));
    let stdout = texts(&output).0;
    let one: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let skill = fs::read_to_string(aios(&temp).join("skills/closeday/SKILL.md")).unwrap();
    assert_eq!(one["name"], "closeday");
    assert_eq!(one["text"], skill);

    let empty = tempfile::tempdir().unwrap();
    fs::create_dir_all(empty.path().join("aios")).unwrap();
    fs::write(empty.path().join("aios/aios.json"), "{}").unwrap();
    let output = dotaios(empty.path())
        .args(["skills", "--json", "--path"])
        .arg(empty.path().join("aios"))
        .output()
        .unwrap();
    assert_eq!(status(&output), Some(0));
    let value: serde_json::Value = serde_json::from_str(&texts(&output).0).unwrap();
    assert_eq!(value, serde_json::json!({"skills": []}));
}
