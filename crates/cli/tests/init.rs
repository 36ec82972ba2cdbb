//! `dotaios init` end to end (contract 01 §11): the built binary runs with `HOME` pointed at a
//! temporary directory and no terminal on stdin.
#![allow(
    clippy::disallowed_methods,
    reason = "tests build and inspect their folders with std::fs"
)]

use std::collections::BTreeMap;
#[cfg(unix)]
use std::os::unix::fs::{MetadataExt, symlink};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use dotaios_testkit::{FRESH_CREATED_AT, Folder, Kind, fingerprint};

/// One temporary world: a home directory and a working directory.
struct World {
    temp: tempfile::TempDir,
}

impl World {
    fn new() -> World {
        let temp = tempfile::tempdir().unwrap();
        std::fs::create_dir(temp.path().join("home")).unwrap();
        World { temp }
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.temp.path().join(rel)
    }

    fn home(&self) -> PathBuf {
        self.path("home")
    }

    fn init(&self, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_dotaios"))
            .arg("init")
            .args(args)
            .env("HOME", self.home())
            .env("USERPROFILE", self.home())
            .env_remove("DOTAIOS_PATH")
            .current_dir(self.temp.path())
            .stdin(Stdio::null())
            .output()
            .unwrap()
    }
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).unwrap()
}

fn assert_ok(output: &Output) {
    assert_eq!(output.status.code(), Some(0), "stderr: {}", stderr(output));
    assert_eq!(stderr(output), "");
}

fn assert_refused(output: &Output, message: &str) {
    assert_eq!(output.status.code(), Some(1), "stdout: {}", stdout(output));
    assert_eq!(stderr(output), format!("{message}\n"));
    assert_eq!(stdout(output), "");
}

/// Everything below `root` (not `root` itself) by name and kind: directories, files with
/// their bytes, links with their target, never followed.
fn tree(root: &Path) -> BTreeMap<String, Kind> {
    let mut tree = fingerprint(root).contents();
    tree.remove("");
    tree
}

fn text(root: &Path, rel: &str) -> String {
    std::fs::read_to_string(root.join(rel)).unwrap()
}

const DIRECTORIES: [&str; 24] = [
    "archives",
    "connections",
    "connections/apis",
    "context",
    "context/domains",
    "decisions",
    "memory",
    "memory/daily",
    "memory/sessions",
    "memory/signals",
    "plugins",
    "projects",
    "skills",
    "skills/closeday",
    "skills/plan-today",
    "skills/today",
    "skills/weekly-review",
    "vault",
    "vault/org",
    "vault/org/companies",
    "vault/org/people",
    "vault/outputs",
    "vault/raw",
    "vault/wiki",
];

const FILES: [&str; 27] = [
    ".cursorrules",
    ".env.example",
    ".gitignore",
    "AGENTS.md",
    "CLAUDE.md",
    "FIRST_SESSION.md",
    "README.md",
    "aios.json",
    "connections/registry.md",
    "context/domains/build.md",
    "context/domains/make.md",
    "context/domains/sell.md",
    "context/identity.md",
    "context/north-star.md",
    "context/priorities.md",
    "context/work.md",
    "decisions/log.md",
    "memory/errors.jsonl",
    "memory/events.jsonl",
    "schedules.yml",
    "skills/INDEX.md",
    "skills/RESOLVER.md",
    "skills/_registry.json",
    "skills/closeday/SKILL.md",
    "skills/plan-today/SKILL.md",
    "skills/today/SKILL.md",
    "skills/weekly-review/SKILL.md",
];

#[test]
fn fresh_init_creates_exactly_the_spec_folder() {
    let world = World::new();
    let target = world.path("aios");
    let output = world.init(&["--yes", "--path", "aios"]);
    assert_ok(&output);

    let tree = tree(&target);
    let dirs: Vec<&str> = tree
        .iter()
        .filter(|(_, kind)| **kind == Kind::Dir)
        .map(|(name, _)| name.as_str())
        .collect();
    let files: Vec<&str> = tree
        .iter()
        .filter(|(_, kind)| **kind != Kind::Dir)
        .map(|(name, _)| name.as_str())
        .collect();
    assert_eq!(dirs, DIRECTORIES);
    assert_eq!(files, FILES);

    // aios.json: 2-space pretty JSON, keys in the contract's order, created_at in ISO ms, one
    // newline.
    let config = text(&target, "aios.json");
    let value: serde_json::Value = serde_json::from_str(&config).unwrap();
    let created_at = value["created_at"].as_str().unwrap();
    let bytes = created_at.as_bytes();
    assert_eq!(bytes.len(), 24, "{created_at}");
    assert!(created_at.ends_with('Z') && bytes[10] == b'T' && bytes[19] == b'.');
    assert_eq!(
        config,
        format!(
            "{{\n  \"schema_version\": \"1.2.0\",\n  \"created_at\": \"{created_at}\",\n  \"ai_tools\": [\n    \"claude-code\",\n    \"codex\",\n    \"cursor\"\n  ],\n  \"vault_path\": null\n}}\n"
        )
    );

    assert_eq!(text(&target, "decisions/log.md"), "# Decision Log\n\n");
    assert_eq!(
        text(&target, "connections/registry.md"),
        "# Connections\n\n| Service | Status | Notes |\n|---|---|---|\n"
    );
    assert_eq!(
        text(&target, "skills/_registry.json"),
        "{\n  \"skills\": [\"plan-today\", \"today\", \"closeday\", \"weekly-review\"]\n}\n"
    );
    assert_eq!(text(&target, "memory/events.jsonl"), "");
    assert_eq!(text(&target, "memory/errors.jsonl"), "");
    assert!(!target.join("memory/sessions/index.jsonl").exists());

    let gitignore = text(&target, ".gitignore");
    let rules: Vec<&str> = gitignore
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .collect();
    assert_eq!(
        rules,
        [
            ".env",
            ".env.*",
            "!.env.example",
            "credentials.*",
            "token.*",
            "*.pem",
            "*.key",
            "memory/events.jsonl",
            "memory/signals/",
            "memory/errors.jsonl",
            ".DS_Store",
            "node_modules/",
            "/workspaces/",
        ]
    );
    assert!(gitignore.ends_with("/workspaces/\n"));

    assert!(text(&target, "skills/plan-today/SKILL.md").starts_with(
        "---\nname: plan-today\ntriggers: plan my day, what should I work on, structure today, what's my focus today\ndescription: Plan the day from priorities, active work, and recent signals. Use it when the user asks for structure, what to focus on today, or what is next.\nwhen_to_use: plan my day · what should I work on · structure today · what's my focus today\n---\n"
    ));
    assert!(text(&target, "context/work.md").contains(
        "## Current Work\n\n<!-- Add the active work threads agents should keep in mind. -->\n"
    ));
    assert!(text(&target, "context/identity.md").starts_with(&format!(
        "---\nsource: dotaios init\ncreated_at: {created_at}\nkind: context\n---\n# Identity\n"
    )));
    assert!(text(&target, "schedules.yml").contains(
        "schedules:\n  - name: daily-brief\n    cadence: daily\n    command: \"dotaios brief --compact\"\n    enabled: false\n"
    ));
    let env_example = text(&target, ".env.example");
    assert!(env_example.lines().all(|line| line.starts_with('#')));

    let shown = target.display().to_string();
    let vault = target.join("vault").display().to_string();
    let out = stdout(&output);
    assert!(
        out.starts_with(&format!(
            "DotAIOS initialized\nAIOS path: {shown}\nVault path: {vault}\nFiles: 27 created, 0 updated, 0 kept\n"
        )),
        "{out}"
    );
    for step in [
        "dotaios doctor",
        "dotaios brief --compact",
        "dotaios mcp install --dry-run --agent",
    ] {
        assert!(out.contains(step), "{out}");
    }
}

/// The frozen fresh folder that other crates' tests build without this binary
/// (`dotaios_testkit::Folder::fresh`) is exactly what `init` writes today, but for the
/// creation stamp: when `init` changes, this fails until `crates/testkit/fixtures/fresh/` is
/// refreshed.
#[test]
fn the_testkit_fresh_folder_is_what_init_writes() {
    let world = World::new();
    let target = world.path("aios");
    assert_ok(&world.init(&["--yes", "--path", "aios"]));
    let config: serde_json::Value = serde_json::from_str(&text(&target, "aios.json")).unwrap();
    let stamp = config["created_at"].as_str().unwrap().to_owned();
    let written: BTreeMap<String, Kind> = tree(&target)
        .into_iter()
        .map(|(name, kind)| match kind {
            Kind::File(bytes) => {
                let text = String::from_utf8(bytes).unwrap();
                (
                    name,
                    Kind::File(text.replace(&stamp, FRESH_CREATED_AT).into_bytes()),
                )
            }
            other => (name, other),
        })
        .collect();
    assert_eq!(written, tree(Folder::fresh().path()));
}

#[test]
fn default_folder_is_aios_in_home() {
    let world = World::new();
    let output = world.init(&["-y"]);
    assert_ok(&output);
    let target = world.home().join("aios");
    assert!(target.join("aios.json").is_file());
    let out = stdout(&output);
    assert!(out.contains(&format!("AIOS path: {}\n", target.display())));
    assert!(!out.contains("--path"), "{out}");
}

#[test]
fn rerun_with_force_keeps_every_file() {
    let world = World::new();
    let target = world.path("aios");
    assert_ok(&world.init(&["--yes", "--path", "aios"]));
    let before = tree(&target);

    // Without --force an initialised folder is just a non-empty target.
    let refused = world.init(&["--yes", "--path", "aios"]);
    assert_refused(
        &refused,
        &format!(
            "Target already exists and is not empty: {}\nRe-run with --force to add missing files, or --overwrite to replace generated files.",
            target.display()
        ),
    );

    let output = world.init(&["--yes", "--force", "--path", "aios"]);
    assert_ok(&output);
    assert!(stdout(&output).contains("Files: 0 created, 0 updated, 27 kept\n"));
    assert_eq!(tree(&target), before);
}

#[test]
fn force_adds_only_missing_files() {
    let world = World::new();
    let target = world.path("aios");
    assert_ok(&world.init(&["--yes", "--path", "aios"]));
    std::fs::write(target.join("context/identity.md"), "# Identity\n\nMine.\n").unwrap();
    std::fs::remove_file(target.join("README.md")).unwrap();
    std::fs::remove_dir_all(target.join("vault")).unwrap();
    let output = world.init(&["--yes", "--force", "--path", "aios"]);
    assert_ok(&output);
    assert!(stdout(&output).contains("Files: 1 created, 0 updated, 26 kept\n"));
    assert_eq!(
        text(&target, "context/identity.md"),
        "# Identity\n\nMine.\n"
    );
    assert!(target.join("README.md").is_file());
    assert!(target.join("vault/org/people").is_dir());
}

#[test]
fn non_empty_folder_that_is_not_aios_is_refused() {
    let world = World::new();
    let target = world.path("notes");
    std::fs::create_dir(&target).unwrap();
    std::fs::write(target.join("todo.txt"), "milk\n").unwrap();
    assert_init_refused(
        &world,
        &["--yes", "--path", "notes"],
        &target,
        &format!(
            "Target already exists and is not empty: {}\nRe-run with --force to add missing files, or --overwrite to replace generated files.",
            target.display()
        ),
    );
}

#[test]
fn a_hidden_file_makes_a_folder_non_empty() {
    let world = World::new();
    let target = world.path("aios");
    std::fs::create_dir(&target).unwrap();
    std::fs::write(target.join(".DS_Store"), "").unwrap();
    let output = world.init(&["--yes", "--path", "aios"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).starts_with("Target already exists and is not empty: "));
}

#[test]
fn empty_existing_folder_is_initialised() {
    let world = World::new();
    std::fs::create_dir(world.path("aios")).unwrap();
    assert_ok(&world.init(&["--yes", "--path", "aios"]));
    assert!(world.path("aios/aios.json").is_file());
}

#[cfg(unix)]
#[test]
fn vault_path_inside_the_target_is_refused() {
    let world = World::new();
    let message = |raw: &str| {
        format!(
            "Invalid --vault-path: {raw}\nAn external vault must be outside the AIOS target. Omit --vault-path to use the target's built-in vault."
        )
    };
    for raw in ["aios/vault", "aios", "./aios/../aios/notes"] {
        let output = world.init(&["--yes", "--path", "aios", "--vault-path", raw]);
        assert_refused(&output, &message(raw));
    }
    // Through a link: `alias` points at the (existing) target.
    std::fs::create_dir(world.path("aios")).unwrap();
    symlink(world.path("aios"), world.path("alias")).unwrap();
    let output = world.init(&["--yes", "--path", "aios", "--vault-path", "alias/vault"]);
    assert_refused(&output, &message("alias/vault"));
    assert_eq!(tree(&world.path("aios")), BTreeMap::new());
    assert!(!world.path("aios/vault").exists());
}

#[test]
fn vault_path_refusal_comes_before_the_non_empty_check() {
    let world = World::new();
    std::fs::create_dir(world.path("aios")).unwrap();
    std::fs::write(world.path("aios/x.md"), "x").unwrap();
    let output = world.init(&["--yes", "--path", "aios", "--vault-path", "aios/v"]);
    assert!(stderr(&output).starts_with("Invalid --vault-path: aios/v\n"));
}

#[test]
fn unusable_vault_path_leaves_nothing_behind() {
    let world = World::new();
    std::fs::write(world.path("plain-file"), "x").unwrap();
    let output = world.init(&[
        "--yes",
        "--path",
        "aios",
        "--vault-path",
        "plain-file/vault",
    ]);
    assert_eq!(output.status.code(), Some(1));
    let message = stderr(&output);
    assert!(
        message.starts_with("Invalid --vault-path: plain-file/vault\n"),
        "{message}"
    );
    assert_eq!(message.lines().count(), 2, "{message}");
    assert!(!world.path("aios").exists());
}

#[test]
fn external_vault_is_stored_absolute_and_gets_the_subfolders() {
    let world = World::new();
    let output = world.init(&["--yes", "--path", "aios", "--vault-path", "~/notes/vault"]);
    assert_ok(&output);
    let vault = world.home().join("notes").join("vault");
    for dir in ["wiki", "raw", "org/companies", "org/people", "outputs"] {
        assert!(vault.join(dir).is_dir(), "{dir}");
    }
    assert!(!world.path("aios/vault").exists());
    let config: serde_json::Value =
        serde_json::from_str(&text(&world.path("aios"), "aios.json")).unwrap();
    assert_eq!(config["vault_path"], vault.display().to_string());
    assert!(stdout(&output).contains(&format!("Vault path: {}\n", vault.display())));
}

#[test]
fn without_yes_and_without_a_terminal_nothing_is_written() {
    let world = World::new();
    let output = world.init(&["--path", "aios"]);
    assert_refused(
        &output,
        "interactive terminal required (or pass --yes for non-interactive)",
    );
    assert!(!world.path("aios").exists());
}

#[test]
fn overwrite_replaces_generated_files_but_never_config_or_ignore_rules() {
    let world = World::new();
    let target = world.path("aios");
    assert_ok(&world.init(&["--yes", "--path", "aios"]));
    let pristine = tree(&target);
    let edited_config = "{\"schema_version\":\"1.2.0\",\"created_at\":\"2026-11-20T09:02:11.482Z\",\"ai_tools\":[],\"vault_path\":null}\n";
    std::fs::write(target.join("aios.json"), edited_config).unwrap();
    std::fs::write(target.join(".gitignore"), ".env\n/workspaces/\n").unwrap();
    std::fs::write(target.join("CLAUDE.md"), "edited\n").unwrap();
    std::fs::write(target.join("skills/today/SKILL.md"), "edited\n").unwrap();
    std::fs::write(target.join("context/identity.md"), "# Me\n").unwrap();
    std::fs::write(target.join("memory/events.jsonl"), "{\"ts\":\"x\"}\n").unwrap();

    let output = world.init(&["--yes", "--overwrite", "--path", "aios"]);
    assert_ok(&output);
    assert!(stdout(&output).contains("Files: 0 created, 2 updated, 25 kept\n"));
    assert_eq!(text(&target, "aios.json"), edited_config);
    assert_eq!(text(&target, ".gitignore"), ".env\n/workspaces/\n");
    assert_eq!(text(&target, "context/identity.md"), "# Me\n");
    assert_eq!(text(&target, "memory/events.jsonl"), "{\"ts\":\"x\"}\n");
    let after = tree(&target);
    for generated in ["CLAUDE.md", "skills/today/SKILL.md"] {
        assert_eq!(after[generated], pristine[generated], "{generated}");
    }
}

#[cfg(unix)]
#[test]
fn overwrite_of_an_unchanged_folder_changes_nothing() {
    let world = World::new();
    let target = world.path("aios");
    assert_ok(&world.init(&["--yes", "--path", "aios"]));
    let before = tree(&target);
    let inode = |rel: &str| std::fs::metadata(target.join(rel)).unwrap().ino();
    let generated_inode = inode("CLAUDE.md");
    let output = world.init(&["--yes", "--overwrite", "--path", "aios"]);
    assert_ok(&output);
    assert!(stdout(&output).contains("Files: 0 created, 0 updated, 27 kept\n"));
    assert_eq!(tree(&target), before);
    assert_eq!(
        inode("CLAUDE.md"),
        generated_inode,
        "an identical file was rewritten"
    );
}

#[test]
fn an_interrupted_migration_stops_init() {
    let world = World::new();
    let target = world.path("aios");
    assert_ok(&world.init(&["--yes", "--path", "aios"]));
    std::fs::create_dir_all(
        target.join(".dotaios/migrations/transactions/migrate-1_1_0-to-1_2_0-0123456789abcdef"),
    )
    .unwrap();
    std::fs::write(
        target.join(".dotaios/migrations/owner.json"),
        "{\n  \"schema\": \"dotaios.migrations.v1\"\n}\n",
    )
    .unwrap();
    assert_init_refused(
        &world,
        &["--yes", "--force", "--path", "aios"],
        &target,
        &format!(
            "An interrupted migration must be recovered before init can inspect this folder. Run `dotaios migrate --recover --path {}`.",
            target.display()
        ),
    );
}

#[cfg(unix)]
#[test]
fn a_planted_file_symlink_is_refused_and_its_target_untouched() {
    let world = World::new();
    let target = world.path("aios");
    let outside = world.path("outside.md");
    std::fs::write(&outside, "outside\n").unwrap();
    std::fs::create_dir_all(target.join("context")).unwrap();
    symlink(&outside, target.join("context/identity.md")).unwrap();
    let before = tree(&target);
    for flags in [&["--force"][..], &["--overwrite"][..]] {
        let mut args = vec!["--yes", "--path", "aios"];
        args.extend_from_slice(flags);
        let output = world.init(&args);
        assert_refused(
            &output,
            &format!(
                "Refusing to initialize: {} is a symbolic link.\nNothing was written. Move it aside, then run dotaios init again.",
                target.join("context/identity.md").display()
            ),
        );
        assert_eq!(tree(&target), before);
        assert_eq!(std::fs::read_to_string(&outside).unwrap(), "outside\n");
    }
}

#[cfg(unix)]
#[test]
fn a_planted_directory_symlink_is_refused_and_never_entered() {
    let world = World::new();
    let target = world.path("aios");
    let outside = world.path("elsewhere");
    std::fs::create_dir(&outside).unwrap();
    std::fs::create_dir(&target).unwrap();
    symlink(&outside, target.join("skills")).unwrap();
    let output = world.init(&["--yes", "--force", "--path", "aios"]);
    assert_refused(
        &output,
        &format!(
            "Refusing to initialize: {} is a symbolic link.\nNothing was written. Move it aside, then run dotaios init again.",
            target.join("skills").display()
        ),
    );
    assert_eq!(tree(&outside), BTreeMap::new());
    assert_eq!(tree(&target).len(), 1);
}

/// `init args…` is refused with `message` (exit 1, nothing on stdout) and `target` is left
/// exactly as it was, mtimes included.
fn assert_init_refused(world: &World, args: &[&str], target: &Path, message: &str) {
    let before = fingerprint(target);
    assert_refused(&world.init(args), message);
    assert_eq!(fingerprint(target), before);
}

/// `init --yes --force` on a folder holding only an `aios.json` (made by `make`) exits 1 with
/// `code` on stderr and leaves the folder exactly as it was.
fn assert_init_stops(make: impl Fn(&World, &Path), code: &str) {
    let world = World::new();
    let target = world.path("aios");
    std::fs::create_dir(&target).unwrap();
    make(&world, &target.join("aios.json"));
    let before = fingerprint(&target);
    let output = world.init(&["--yes", "--force", "--path", "aios"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains(code), "{}", stderr(&output));
    assert_eq!(fingerprint(&target), before);
}

#[cfg(unix)]
#[test]
fn a_symlinked_aios_json_stops_init() {
    assert_init_stops(
        |world, config| {
            std::fs::write(world.path("real.json"), "{\"schema_version\":\"1.2.0\"}").unwrap();
            symlink(world.path("real.json"), config).unwrap();
        },
        "(UNSAFE_FILE)",
    );
}

#[test]
fn an_outdated_folder_must_be_migrated_first() {
    let world = World::new();
    let target = world.path("aios");
    std::fs::create_dir(&target).unwrap();
    std::fs::write(target.join("aios.json"), "{\"schema_version\":\"1.1.0\"}\n").unwrap();
    let before = fingerprint(&target);
    for flags in [&[][..], &["--force"][..], &["--overwrite"][..]] {
        let mut args = vec!["--yes", "--path", "aios"];
        args.extend_from_slice(flags);
        let output = world.init(&args);
        assert_refused(
            &output,
            &format!(
                "Existing AIOS schema 1.1.0 needs a versioned migration.\nRun `dotaios migrate --path {}` to preview it. --force and --overwrite are not migration ownership proof.",
                target.display()
            ),
        );
    }
    assert_eq!(fingerprint(&target), before);
}

#[test]
fn a_future_schema_stops_init() {
    assert_init_stops(
        |_, config| std::fs::write(config, "{\"schema_version\":\"2.0.0\"}\n").unwrap(),
        "FUTURE_SCHEMA",
    );
}

#[test]
fn a_file_at_the_target_is_refused() {
    let world = World::new();
    std::fs::write(world.path("aios"), "x").unwrap();
    let output = world.init(&["--yes", "--force", "--path", "aios"]);
    assert_refused(
        &output,
        &format!(
            "Target exists and is not a directory: {}",
            world.path("aios").display()
        ),
    );
}

#[test]
fn help_wins_and_unknown_options_fail() {
    let world = World::new();
    let help = world.init(&["--bogus", "-h"]);
    assert_ok(&help);
    assert!(stdout(&help).contains("dotaios init [--path <dir>]"));
    assert_refused(
        &world.init(&["--yes", "--bogus"]),
        "Unknown option: --bogus",
    );
    assert_refused(&world.init(&["--path"]), "--path requires a value");
    assert!(!world.home().join("aios").exists());
}

#[cfg(unix)]
#[test]
fn a_symlinked_target_is_followed() {
    let world = World::new();
    std::fs::create_dir(world.path("real")).unwrap();
    symlink(world.path("real"), world.path("aios")).unwrap();
    assert_ok(&world.init(&["--yes", "--path", "aios"]));
    assert!(world.path("real/aios.json").is_file());
}

/// The bundled skills carry the MCP acceptance scores on a fresh folder (contract 01 §11.4,
/// 04 §4.1): their descriptions and triggers are part of the contract, not just wording.
#[test]
fn bundled_skills_meet_the_resolve_acceptance_scores() {
    let world = World::new();
    assert_ok(&world.init(&["--yes", "--path", "aios"]));
    let resolve = |intent: &str| -> serde_json::Value {
        let output = Command::new(env!("CARGO_BIN_EXE_dotaios"))
            .args(["skills", "resolve", intent, "--json", "--all", "--path"])
            .arg(world.path("aios"))
            .env("HOME", world.home())
            .env("USERPROFILE", world.home())
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_ok(&output);
        serde_json::from_slice(&output.stdout).unwrap()
    };
    let ranked = |intent: &str| -> Vec<(String, String, String)> {
        resolve(intent)["matches"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| {
                (
                    m["name"].as_str().unwrap().to_owned(),
                    m["score"].to_string(),
                    m["reason"].as_str().unwrap().to_owned(),
                )
            })
            .collect()
    };
    let row = |name: &str, score: &str, reason: &str| {
        (name.to_owned(), score.to_owned(), reason.to_owned())
    };
    assert_eq!(
        ranked("plan my day"),
        [
            row("plan-today", "2.154", "matched trigger \"plan my day\""),
            row("today", "1.58", "matched trigger \"today's plan\""),
            row("closeday", "0.562", "matched trigger \"close the day\""),
        ]
    );
    assert_eq!(
        ranked("plan this work"),
        [
            row(
                "plan-today",
                "2.288",
                "matched trigger \"what should I work on\""
            ),
            row("today", "0.797", "matched trigger \"today's plan\""),
        ]
    );
    assert_eq!(
        ranked("review my week"),
        [row(
            "weekly-review",
            "3",
            "matched trigger \"review my week\""
        )]
    );
}

#[test]
fn a_repeated_path_is_refused_and_nothing_is_written() {
    let world = World::new();
    std::fs::create_dir(world.path("x")).unwrap();
    let second = world.path("x/second");
    std::fs::create_dir(&second).unwrap();
    std::fs::write(second.join("mine.txt"), "keep\n").unwrap();
    let before = tree(&world.path("x"));
    for args in [
        &[
            "--yes", "--force", "--path", "x/first", "--path", "x/second",
        ][..],
        &["--yes", "--force", "--path=x/first", "--path=x/second"],
        &["--yes", "--path", "x/first", "--force", "--path", "x/first"],
    ] {
        assert_refused(&world.init(args), "--path may only be provided once");
        assert_eq!(tree(&world.path("x")), before);
    }
    assert!(!world.home().join("aios").exists());
}
