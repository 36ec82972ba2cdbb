//! `dotaios migrate` end to end (contract 01 §8–§9), always through the built binary: preview,
//! apply and recover on real folders; crash injection by killing the process after every
//! durable step (`DOTAIOS_MIGRATE_FAILPOINT`), then recovery; every refusal. After each run the
//! whole tree is compared with its testkit fingerprint (names, kinds, bytes, modes, link targets; mtimes
//! too where nothing may be written), and the
//! read-only migration inspection and `doctor` must describe the state `migrate` left.
#![allow(
    clippy::disallowed_methods,
    reason = "tests build and inspect their folders with std::fs"
)]
// The crash and interruption protocol is tested with Unix signals, modes, owners and links;
// on Windows `migrate` is type-checked only (docs/decisions.md, "Writers, launcher and client configurations on Windows").
#![cfg(unix)]

mod support;

use std::os::unix::fs::{PermissionsExt, symlink};
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use dotaios_contained::Root;
use dotaios_core::folder::inspection::{
    Inspection, MigrationStatus, OWNER_MARKER, inspect_migrations,
};
use dotaios_core::folder::plan::plan_for_root;
use dotaios_testkit::{Entry, Fingerprint, Kind, fingerprint};

const BIN: &str = env!("CARGO_BIN_EXE_dotaios");

const CONFIG_TEMPLATE: &str = "{\n  \"schema_version\": \"VERSION\",\n  \"created_at\": \"2026-08-01T00:00:00.000Z\",\n  \"ai_tools\": [\"claude-code\", \"codex\"],\n  \"vault_path\": null,\n  \"skills_first\": true\n}\n";

fn config(version: &str) -> String {
    CONFIG_TEMPLATE.replace("VERSION", version)
}

/// The whole tree's fingerprint, with mtimes: a run that must write nothing leaves it equal.
fn snapshot(root: &Path) -> Fingerprint {
    fingerprint(root)
}

/// The tree without `.dotaios/`, by content and mode (no times): what a migration must leave
/// fully old or fully new.
fn user_tree(root: &Path) -> Fingerprint {
    fingerprint(root).without(".dotaios").without_times()
}

/// A file entry of [`user_tree`].
fn file(mode: u32, bytes: Vec<u8>) -> Entry {
    Entry {
        size: bytes.len() as u64,
        kind: Kind::File(bytes),
        mode,
        mtime: None,
    }
}

/// A folder with protected shelves, other files and non-default modes.
struct Fixture {
    _home: tempfile::TempDir,
    temp: tempfile::TempDir,
}

impl Fixture {
    fn new(version: &str, gitignore: Option<&[u8]>) -> Fixture {
        let temp = tempfile::tempdir().unwrap();
        let root = temp.path();
        let write = |rel: &str, bytes: &[u8], mode: u32| {
            let path = root.join(rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, bytes).unwrap();
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
        };
        write("aios.json", config(version).as_bytes(), 0o640);
        if let Some(bytes) = gitignore {
            write(".gitignore", bytes, 0o604);
        }
        write("README.md", b"# My AIOS\n", 0o644);
        write("context/identity.md", b"# Identity\n", 0o600);
        write(
            "context/work.md",
            b"# Work\n\n## Current Work\n\n- ship\n",
            0o644,
        );
        write(
            "projects/alpha/README.md",
            b"---\nid: alpha\n---\n# Alpha\n",
            0o644,
        );
        write(
            "memory/events.jsonl",
            b"{\"ts\":\"2026-08-01T00:00:00.000Z\",\"type\":\"x\"}\n",
            0o644,
        );
        write("vault/wiki/page.md", b"wiki\n", 0o644);
        write(".dotaios/session-store/other-tool.json", b"{}\n", 0o600);
        symlink("../README.md", root.join("memory/readme-link.md")).unwrap();
        Fixture {
            _home: tempfile::tempdir().unwrap(),
            temp,
        }
    }

    fn root(&self) -> &Path {
        self.temp.path()
    }

    fn command(&self, args: &[&str]) -> Command {
        let mut command = Command::new(BIN);
        command
            .arg("migrate")
            .args(args)
            .arg("--path")
            .arg(self.root())
            .env("HOME", self._home.path())
            .env("USERPROFILE", self._home.path())
            .env_remove("DOTAIOS_MIGRATE_FAILPOINT")
            .env_remove("DOTAIOS_PATH");
        command
    }

    fn run(&self, args: &[&str]) -> Output {
        self.command(args).output().unwrap()
    }

    fn run_with_failpoint(&self, args: &[&str], failpoint: &str) -> Output {
        self.command(args)
            .env("DOTAIOS_MIGRATE_FAILPOINT", failpoint)
            .output()
            .unwrap()
    }

    /// The plan id the core computes for the folder as it is now.
    fn plan_id(&self) -> String {
        plan_for_root(&Root::open(self.root()).unwrap())
            .unwrap()
            .unwrap()
            .id
    }

    fn inspection(&self) -> Inspection {
        inspect_migrations(&Root::open(self.root()).unwrap())
    }

    fn transactions(&self) -> Vec<String> {
        let dir = self.root().join(".dotaios/migrations/transactions");
        let Ok(entries) = std::fs::read_dir(dir) else {
            return Vec::new();
        };
        let mut names: Vec<String> = entries
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    fn receipt(&self, id: &str) -> Option<serde_json::Value> {
        let path = self
            .root()
            .join(format!(".dotaios/migrations/receipts/{id}.json"));
        std::fs::read(path)
            .ok()
            .map(|bytes| serde_json::from_slice(&bytes).unwrap())
    }
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).unwrap()
}

fn assert_ok(output: &Output) {
    assert!(
        output.status.success(),
        "status {:?}\nstdout: {}\nstderr: {}",
        output.status,
        stdout(output),
        stderr(output)
    );
}

/// One line on stderr, nothing on stdout, exit 1.
fn assert_refused(output: &Output, expected: &str) {
    assert_eq!(output.status.code(), Some(1), "stdout: {}", stdout(output));
    assert_eq!(stdout(output), "");
    assert_eq!(stderr(output), format!("{expected}\n"));
}

fn status_of(inspection: &Inspection) -> MigrationStatus {
    match inspection {
        Inspection::Inspected(state) => state.status,
        Inspection::Failed(code) => panic!("inspection failed with {code}"),
    }
}

/// `doctor --json`'s `Migration state` check: its status and details.
fn doctor_migration(fixture: &Fixture) -> (String, Vec<String>) {
    let (report, _) = support::doctor_json(fixture._home.path(), fixture.root());
    let check = report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|check| check["name"] == "Migration state")
        .expect("a Migration state check")
        .clone();
    let details = check["details"]
        .as_array()
        .map(|details| {
            details
                .iter()
                .map(|d| d.as_str().unwrap().to_owned())
                .collect()
        })
        .or_else(|| check["detail"].as_str().map(|d| vec![d.to_owned()]))
        .unwrap_or_default();
    (check["status"].as_str().unwrap().to_owned(), details)
}

/// The working context's migration notice (`brief --compact`, contract 02 §13), as printed.
fn brief_text(fixture: &Fixture) -> String {
    let output = Command::new(BIN)
        .args(["brief", "--compact", "--path"])
        .arg(fixture.root())
        .env("HOME", fixture._home.path())
        .env("USERPROFILE", fixture._home.path())
        .output()
        .unwrap();
    assert_ok(&output);
    format!("{}{}", stdout(&output), stderr(&output))
}

const OUTDATED_NOTICE: &str = "> A migration preview is required before any compatibility change.\n> Preview this same folder with: dotaios migrate --path <this-aios-folder>";
const TRANSACTION_NOTICE: &str =
    "> [DotAIOS] Migration transaction metadata is present; liveness is not verified.";

/// `doctor`, the working context, the inspection and `migrate`'s preview agree on the
/// folder's state.
fn assert_views_agree(fixture: &Fixture) {
    let inspection = fixture.inspection();
    let (doctor_status, details) = doctor_migration(fixture);
    let preview = fixture.run(&[]);
    let brief = brief_text(fixture);
    assert!(!brief.contains("could not be verified"), "{brief}");
    let outdated = brief.contains(OUTDATED_NOTICE);
    let transaction = brief.contains(TRANSACTION_NOTICE);
    match status_of(&inspection) {
        MigrationStatus::Current => {
            assert!(!outdated && !transaction, "{brief}");
            assert_eq!(doctor_status, "ok");
            assert!(stdout(&preview).contains("[ok] Schema 1.2.0 is current."));
            assert!(fixture.transactions().is_empty());
        }
        MigrationStatus::SchemaOutdated => {
            let Inspection::Inspected(state) = &inspection else {
                unreachable!()
            };
            assert!(outdated && !transaction, "{brief}");
            assert!(brief.contains(&format!(
                "> [DotAIOS] This folder uses schema {}; this build supports 1.2.0.",
                state.folder_schema_version
            )));
            let id = fixture.plan_id();
            assert_eq!(doctor_status, "warn");
            assert!(details.iter().any(|d| d.contains(&id)), "{details:?}");
            assert!(stdout(&preview).contains(&format!("Plan ID: {id}")));
        }
        MigrationStatus::TransactionPresent => {
            assert!(transaction && !outdated, "{brief}");
            assert!(
                !brief.contains("migrate-"),
                "the working context never names a plan id"
            );
            let ids = fixture.transactions();
            assert_eq!(doctor_status, "fail");
            assert!(details.iter().any(|d| d.contains(&ids[0])), "{details:?}");
            assert_eq!(preview.status.code(), Some(1));
            assert!(stdout(&preview).contains(&format!(
                "[blocked] Interrupted migration: {}",
                ids.join(", ")
            )));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Preview, apply, no-op.

/// A `.gitignore` case: name, bytes before (`None`: absent), bytes after (`None`: unchanged).
type GitignoreCase = (&'static str, Option<&'static [u8]>, Option<&'static [u8]>);

const GITIGNORE_CASES: [GitignoreCase; 7] = [
    ("absent", None, Some(b"/workspaces/\n")),
    (
        "lf",
        Some(b"node_modules/\n.env\n"),
        Some(b"node_modules/\n.env\n/workspaces/\n"),
    ),
    (
        "lf-no-newline",
        Some(b"node_modules/\n.env"),
        Some(b"node_modules/\n.env\n/workspaces/\n"),
    ),
    (
        "crlf",
        Some(b"node_modules/\r\n.env\r\n"),
        Some(b"node_modules/\r\n.env\r\n/workspaces/\r\n"),
    ),
    (
        "crlf-no-newline",
        Some(b"node_modules/\r\n.env"),
        Some(b"node_modules/\r\n.env\r\n/workspaces/\r\n"),
    ),
    (
        "present-lf",
        Some(b".env\n/workspaces/\n# managed checkouts\n"),
        None,
    ),
    ("present-crlf", Some(b"/workspaces/\r\n\r\n"), None),
];

#[test]
fn preview_prints_the_plan_and_writes_nothing() {
    let fixture = Fixture::new("1.1.0", Some(b"node_modules/\n"));
    let before = snapshot(fixture.root());
    let output = fixture.run(&[]);
    assert_ok(&output);
    let id = fixture.plan_id();
    let folder = fixture.root().to_string_lossy().into_owned();
    let quoted = if folder
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b"_./:-".contains(&b))
    {
        folder.clone()
    } else {
        format!("'{}'", folder.replace('\'', "'\\''"))
    };
    assert_eq!(
        stdout(&output),
        format!(
            "DotAIOS migration preview for {folder}\n\
             Schema: 1.1.0 \u{2192} 1.2.0\n\
             Plan ID: {id}\n\
             Changes:\n  \
             [replace] .gitignore \u{2014} Keep managed project workspaces outside the private AIOS mirror.\n  \
             [replace] aios.json \u{2014} Keep managed project workspaces outside the private AIOS mirror.\n\
             Protected: context/, projects/, memory/, vault/ (not written)\n\
             No files changed.\n\
             Apply exactly this plan with: dotaios migrate --apply {id} --path {quoted}\n"
        )
    );
    assert_eq!(stderr(&output), "");
    assert_eq!(snapshot(fixture.root()), before);
}

#[test]
fn preview_of_one_zero_zero_lists_both_steps_and_a_create() {
    let fixture = Fixture::new("1.0.0", None);
    let output = fixture.run(&[]);
    assert_ok(&output);
    let text = stdout(&output);
    assert!(text.contains("Schema: 1.0.0 \u{2192} 1.2.0\n"), "{text}");
    assert!(text.contains("  [create] .gitignore \u{2014} Keep managed project workspaces outside the private AIOS mirror.\n"));
    assert!(text.contains("  [replace] aios.json \u{2014} Record support for preview-first, receipted folder migrations. Keep managed project workspaces outside the private AIOS mirror.\n"));
    assert!(text.contains(&format!("Plan ID: {}\n", fixture.plan_id())));
}

#[test]
fn default_folder_has_no_path_suffix() {
    let home = tempfile::tempdir().unwrap();
    let folder = home.path().join("aios");
    std::fs::create_dir(&folder).unwrap();
    std::fs::write(folder.join("aios.json"), config("1.1.0")).unwrap();
    let output = Command::new(BIN)
        .arg("migrate")
        .env("HOME", home.path())
        .env("USERPROFILE", home.path())
        .output()
        .unwrap();
    assert_ok(&output);
    let id = plan_for_root(&Root::open(&folder).unwrap())
        .unwrap()
        .unwrap()
        .id;
    assert!(stdout(&output).ends_with(&format!(
        "Apply exactly this plan with: dotaios migrate --apply {id}\n"
    )));
}

#[test]
fn apply_migrates_every_gitignore_variant_from_both_versions() {
    for version in ["1.0.0", "1.1.0"] {
        for (name, before, after) in GITIGNORE_CASES {
            let fixture = Fixture::new(version, before);
            let old = user_tree(fixture.root());
            assert_eq!(
                status_of(&fixture.inspection()),
                MigrationStatus::SchemaOutdated
            );
            assert_views_agree(&fixture);
            let id = fixture.plan_id();
            let output = fixture.run(&["--apply", &id]);
            assert_ok(&output);
            assert_eq!(
                stdout(&output),
                format!(
                    "[ok] Migrated schema {version} \u{2192} 1.2.0.\nReceipt: .dotaios/migrations/receipts/{id}.json\n"
                ),
                "{version} {name}"
            );
            let new = user_tree(fixture.root());
            // Exactly aios.json and .gitignore differ, with their modes kept.
            let mut expected = old.clone();
            expected.0.insert(
                "aios.json".into(),
                file(0o640, config("1.2.0").into_bytes()),
            );
            if let Some(after) = after {
                let mode = if before.is_some() { 0o604 } else { 0o644 };
                expected
                    .0
                    .insert(".gitignore".into(), file(mode, after.to_vec()));
            }
            assert_eq!(new, expected, "{version} {name}");
            // The other tool's files in .dotaios are untouched.
            assert_eq!(
                std::fs::read(
                    fixture
                        .root()
                        .join(".dotaios/session-store/other-tool.json")
                )
                .unwrap(),
                b"{}\n"
            );
            assert!(fixture.transactions().is_empty());
            let receipt = fixture.receipt(&id).expect("receipt");
            assert_eq!(receipt["schema"], "dotaios.migration-receipt.v1");
            assert_eq!(receipt["plan_id"], id.as_str());
            assert_eq!(receipt["from_schema_version"], version);
            assert_eq!(receipt["to_schema_version"], "1.2.0");
            let operations = receipt["operations"].as_array().unwrap();
            assert_eq!(operations.len(), if after.is_some() { 2 } else { 1 });
            assert_eq!(operations.last().unwrap()["path"], "aios.json");
            let preserved: Vec<&str> = receipt["preserved_paths"]
                .as_array()
                .unwrap()
                .iter()
                .map(|entry| entry["path"].as_str().unwrap())
                .collect();
            assert!(preserved.contains(&"context/work.md"));
            assert!(preserved.contains(&"memory/readme-link.md"));
            assert!(preserved.contains(&"vault/wiki/page.md"));
            assert!(!preserved.contains(&"README.md"));
            assert_eq!(status_of(&fixture.inspection()), MigrationStatus::Current);
            assert_views_agree(&fixture);

            // Idempotent: the same plan again is "already applied" and writes nothing.
            let settled = snapshot(fixture.root());
            let again = fixture.run(&["--apply", &id]);
            assert_ok(&again);
            assert_eq!(
                stdout(&again),
                format!("[ok] Plan {id} was already applied.\n")
            );
            assert_eq!(snapshot(fixture.root()), settled);
        }
    }
}

#[test]
fn current_folder_is_a_no_op() {
    let fixture = Fixture::new("1.2.0", Some(b"/workspaces/\n"));
    let before = snapshot(fixture.root());
    let preview = fixture.run(&[]);
    assert_ok(&preview);
    assert!(stdout(&preview).ends_with("[ok] Schema 1.2.0 is current. No migration needed.\n"));
    let id = "migrate-1_1_0-to-1_2_0-0123456789abcdef";
    assert_refused(
        &fixture.run(&["--apply", id]),
        &format!("Schema 1.2.0 is already current and there is no receipt for plan {id}."),
    );
    let recover = fixture.run(&["--recover"]);
    assert_ok(&recover);
    assert_eq!(
        stdout(&recover),
        "[ok] No interrupted migration found. Schema 1.2.0 is unchanged.\n"
    );
    assert_eq!(snapshot(fixture.root()), before);
    assert_views_agree(&fixture);
}

// ---------------------------------------------------------------------------------------------
// Crash injection.

/// Every durable step of an apply, in order, for a plan that replaces `.gitignore` (`backup`
/// present) or creates it.
fn apply_failpoints(gitignore_exists: bool, fresh_metadata: bool) -> Vec<String> {
    let mut points = Vec::new();
    if fresh_metadata {
        points.push("metadata-staged".to_owned());
    }
    points.extend(["metadata-ready", "transaction-created", "journal-preparing"].map(String::from));
    if gitignore_exists {
        points.push("backup:.gitignore".into());
    }
    points.push("staged:.gitignore".into());
    points.push("backup:aios.json".into());
    points.push("staged:aios.json".into());
    for status in ["prepared", "applying"] {
        points.push(format!("journal-next:{status}"));
        points.push(format!("journal:{status}"));
    }
    points.push("renamed:.gitignore".into());
    points.push("journal-next:committing".into());
    points.push("journal:committing".into());
    points.push("renamed:aios.json".into());
    points.extend(
        [
            "receipt-pending",
            "receipt-linked",
            "receipt-complete",
            "cleanup:contents-removed",
            "cleanup:journal-removed",
            "cleanup:removed",
        ]
        .map(String::from),
    );
    points
}

/// Whether a crash at `point` leaves a committed migration (a linked receipt).
fn committed_at(point: &str) -> bool {
    ["receipt-linked", "receipt-complete"].contains(&point) || point.starts_with("cleanup:")
}

fn assert_killed(output: &Output, point: &str) {
    assert_eq!(
        output.status.signal(),
        Some(9),
        "failpoint {point} was not reached: {:?}\nstdout: {}\nstderr: {}",
        output.status,
        stdout(output),
        stderr(output)
    );
}

fn crash_then_recover(version: &str, gitignore: Option<&[u8]>, pre_owned: bool) -> Vec<String> {
    let mut exercised = Vec::new();
    let points = apply_failpoints(gitignore.is_some(), !pre_owned);
    for point in &points {
        let fixture = Fixture::new(version, gitignore);
        if pre_owned {
            let migrations = fixture.root().join(".dotaios/migrations");
            std::fs::create_dir_all(migrations.join("transactions")).unwrap();
            std::fs::create_dir_all(migrations.join("receipts")).unwrap();
            std::fs::write(migrations.join("owner.json"), OWNER_MARKER).unwrap();
        }
        let old = user_tree(fixture.root());
        let id = fixture.plan_id();
        let crashed = fixture.run_with_failpoint(&["--apply", &id], point);
        assert_killed(&crashed, point);
        exercised.push(point.clone());

        // Whatever the crash left, inspection reads a consistent state and the views agree.
        let status = status_of(&fixture.inspection());
        let expected = match point.as_str() {
            "metadata-staged" | "metadata-ready" => MigrationStatus::SchemaOutdated,
            "cleanup:removed" => MigrationStatus::Current,
            _ => MigrationStatus::TransactionPresent,
        };
        assert_eq!(status, expected, "after {point}");
        assert_views_agree(&fixture);
        // Until the commit point the live files are untouched, except .gitignore once renamed.
        if !committed_at(point)
            && !["renamed:aios.json", "receipt-pending"].contains(&point.as_str())
        {
            let tree = user_tree(fixture.root());
            assert_eq!(tree.get("aios.json"), old.get("aios.json"), "after {point}");
        }

        let recovered = fixture.run(&["--recover"]);
        assert_ok(&recovered);
        let tree = user_tree(fixture.root());
        assert!(fixture.transactions().is_empty(), "after {point}");
        assert!(
            !fixture
                .root()
                .join(format!(".dotaios/migrations/receipts/{id}.json.pending"))
                .exists()
        );
        if committed_at(point) {
            assert_ne!(tree, old, "after {point}");
            assert_eq!(
                tree.get("aios.json")
                    .map(|n| n.kind == Kind::File(config("1.2.0").into_bytes())),
                Some(true)
            );
            assert!(fixture.receipt(&id).is_some());
            assert_eq!(status_of(&fixture.inspection()), MigrationStatus::Current);
        } else {
            assert_eq!(tree, old, "after {point}: not fully old");
            assert!(fixture.receipt(&id).is_none());
            assert_eq!(
                status_of(&fixture.inspection()),
                MigrationStatus::SchemaOutdated
            );
            assert_eq!(
                fixture.plan_id(),
                id,
                "after {point}: the plan is the same again"
            );
        }
        assert_views_agree(&fixture);

        // And the migration can be completed afterwards, leaving no private staging behind.
        let finish = fixture.run(&["--apply", &id]);
        assert_ok(&finish);
        assert_eq!(status_of(&fixture.inspection()), MigrationStatus::Current);
        assert!(fixture.transactions().is_empty());
        let dotaios: Vec<String> = std::fs::read_dir(fixture.root().join(".dotaios"))
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        let mut dotaios = dotaios;
        dotaios.sort();
        assert_eq!(dotaios, ["migrations", "session-store"], "after {point}");
    }
    exercised
}

#[test]
fn crash_after_every_durable_step_then_recover_from_one_one_zero_crlf() {
    let exercised = crash_then_recover("1.1.0", Some(b"a\r\nb"), false);
    assert_eq!(exercised.len(), 22);
}

#[test]
fn crash_after_every_durable_step_then_recover_from_one_zero_zero_without_gitignore() {
    let exercised = crash_then_recover("1.0.0", None, true);
    assert_eq!(exercised.len(), 20);
}

/// A recovery killed at each of its own durable steps can be run again to the same end.
#[test]
fn crash_during_recovery_then_recover_again() {
    let cases: [(&str, &[&str], bool); 3] = [
        (
            "renamed:aios.json",
            &[
                "recover:residue:aios.json",
                "recover:restored:aios.json",
                "recover:residue:.gitignore",
                "recover:restored:.gitignore",
                "recover:pending-cleared",
                "recover-cleanup:contents-removed",
                "recover-cleanup:journal-removed",
                "recover-cleanup:removed",
            ],
            false,
        ),
        (
            "receipt-pending",
            &["recover:restored:aios.json", "recover:pending-cleared"],
            false,
        ),
        (
            "receipt-complete",
            &[
                "recover:pending-cleared",
                "recover-cleanup:contents-removed",
                "recover-cleanup:journal-removed",
            ],
            true,
        ),
    ];
    for (apply_point, recover_points, committed) in cases {
        for recover_point in recover_points {
            let fixture = Fixture::new("1.1.0", Some(b"node_modules/\n"));
            let old = user_tree(fixture.root());
            let id = fixture.plan_id();
            assert_killed(
                &fixture.run_with_failpoint(&["--apply", &id], apply_point),
                apply_point,
            );
            let crashed = fixture.run_with_failpoint(&["--recover", &id], recover_point);
            assert_killed(&crashed, recover_point);
            let status = status_of(&fixture.inspection());
            assert!(
                matches!(
                    status,
                    MigrationStatus::TransactionPresent
                        | MigrationStatus::SchemaOutdated
                        | MigrationStatus::Current
                ),
                "{apply_point} / {recover_point}"
            );
            assert_views_agree(&fixture);
            assert_ok(&fixture.run(&["--recover"]));
            assert!(fixture.transactions().is_empty());
            let tree = user_tree(fixture.root());
            if committed {
                assert_ne!(tree, old);
                assert_eq!(status_of(&fixture.inspection()), MigrationStatus::Current);
            } else {
                assert_eq!(tree, old, "{apply_point} / {recover_point}");
                assert_eq!(
                    status_of(&fixture.inspection()),
                    MigrationStatus::SchemaOutdated
                );
            }
        }
    }
}

#[test]
fn committed_transaction_left_behind_is_cleared_as_already_committed() {
    let fixture = Fixture::new("1.1.0", None);
    let id = fixture.plan_id();
    assert_killed(
        &fixture.run_with_failpoint(&["--apply", &id], "receipt-complete"),
        "receipt-complete",
    );
    let recovered = fixture.run(&["--recover", &id]);
    assert_ok(&recovered);
    assert_eq!(
        stdout(&recovered),
        format!("[ok] Plan {id} was already committed; stale transaction files were cleared.\n")
    );
}

#[test]
fn rolled_back_recovery_reports_the_old_schema() {
    let fixture = Fixture::new("1.1.0", None);
    let id = fixture.plan_id();
    assert_killed(
        &fixture.run_with_failpoint(&["--apply", &id], "renamed:aios.json"),
        "renamed:aios.json",
    );
    let recovered = fixture.run(&["--recover"]);
    assert_ok(&recovered);
    assert_eq!(
        stdout(&recovered),
        format!("[ok] Recovered {id}; schema is 1.1.0.\n")
    );
}

// ---------------------------------------------------------------------------------------------
// Signals and concurrent edits.

#[test]
fn a_signal_before_the_transaction_aborts_with_nothing_written() {
    let fixture = Fixture::new("1.1.0", Some(b"x\n"));
    let old = user_tree(fixture.root());
    let id = fixture.plan_id();
    let output = fixture.run_with_failpoint(&["--apply", &id], "signal@metadata-ready");
    assert_refused(
        &output,
        "Migration was cancelled before any transaction files were written.",
    );
    assert_eq!(user_tree(fixture.root()), old);
    assert!(fixture.transactions().is_empty());
    assert_eq!(
        status_of(&fixture.inspection()),
        MigrationStatus::SchemaOutdated
    );
}

#[test]
fn a_signal_inside_the_transaction_stops_between_steps_and_recovers() {
    for point in [
        "transaction-created",
        "journal:prepared",
        "renamed:.gitignore",
    ] {
        let fixture = Fixture::new("1.1.0", Some(b"x\n"));
        let old = user_tree(fixture.root());
        let id = fixture.plan_id();
        let output = fixture.run_with_failpoint(&["--apply", &id], &format!("signal@{point}"));
        assert_refused(
            &output,
            &format!(
                "Migration {id} was interrupted after its journal was prepared. Run recovery before applying again."
            ),
        );
        assert_eq!(
            status_of(&fixture.inspection()),
            MigrationStatus::TransactionPresent
        );
        assert_refused(
            &fixture.run(&["--apply", &id]),
            &format!(
                "Interrupted migration state exists for {id}. Run dotaios migrate --recover before applying another plan."
            ),
        );
        assert_ok(&fixture.run(&["--recover", &id]));
        assert_eq!(user_tree(fixture.root()), old, "{point}");
    }
}

/// Stops the apply at `point`, lets `edit` change the folder, and resumes it.
fn apply_with_edit_at(fixture: &Fixture, id: &str, point: &str, edit: impl FnOnce()) -> Output {
    let child = fixture
        .command(&["--apply", id])
        .env("DOTAIOS_MIGRATE_FAILPOINT", format!("stop@{point}"))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Wait until the failpoint stops the child (`WUNTRACED`), polling with `WNOHANG` so a
    // child that never stops fails the test instead of hanging it (portable: no `/proc`).
    let pid = rustix::process::Pid::from_raw(child.id() as i32).unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        let options = rustix::process::WaitOptions::UNTRACED | rustix::process::WaitOptions::NOHANG;
        match rustix::process::waitpid(Some(pid), options).unwrap() {
            Some((_, status)) if status.stopped() => break,
            Some((_, status)) => panic!("the apply ended before {point}: {status:?}"),
            None => {}
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the apply never reached {point}"
        );
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    edit();
    rustix::process::kill_process(
        rustix::process::Pid::from_raw(child.id() as i32).unwrap(),
        rustix::process::Signal::CONT,
    )
    .unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn a_concurrent_edit_before_the_renames_is_refused_and_kept() {
    let fixture = Fixture::new("1.1.0", Some(b"x\n"));
    let id = fixture.plan_id();
    let ignore = fixture.root().join(".gitignore");
    let output = apply_with_edit_at(&fixture, &id, "journal:prepared", || {
        std::fs::write(&ignore, b"edited by hand\n").unwrap();
    });
    assert_refused(
        &output,
        ".gitignore changed after preview. Refusing to overwrite it; recover the transaction and preview again.",
    );
    assert_eq!(std::fs::read(&ignore).unwrap(), b"edited by hand\n");
    assert_ok(&fixture.run(&["--recover"]));
    assert_eq!(std::fs::read(&ignore).unwrap(), b"edited by hand\n");
    assert_eq!(
        std::fs::read_to_string(fixture.root().join("aios.json")).unwrap(),
        config("1.1.0")
    );
    // A chmod counts as an edit too.
    let id = fixture.plan_id();
    let config_path = fixture.root().join("aios.json");
    let output = apply_with_edit_at(&fixture, &id, "journal:applying", || {
        std::fs::set_permissions(&config_path, std::fs::Permissions::from_mode(0o600)).unwrap();
    });
    assert_refused(
        &output,
        "aios.json changed after preview. Refusing to overwrite it; recover the transaction and preview again.",
    );
    // .gitignore was already committed; recovery puts it back, aios.json keeps the new mode.
    assert_ok(&fixture.run(&["--recover"]));
    assert_eq!(std::fs::read(&ignore).unwrap(), b"edited by hand\n");
    assert_eq!(
        std::fs::metadata(&config_path)
            .unwrap()
            .permissions()
            .mode()
            & 0o777,
        0o600
    );
}

#[test]
fn recovery_refuses_to_overwrite_an_edit_made_after_the_crash() {
    let fixture = Fixture::new("1.1.0", Some(b"x\n"));
    let id = fixture.plan_id();
    assert_killed(
        &fixture.run_with_failpoint(&["--apply", &id], "renamed:.gitignore"),
        "renamed:.gitignore",
    );
    let ignore = fixture.root().join(".gitignore");
    std::fs::write(&ignore, b"mine now\n").unwrap();
    let before = snapshot(fixture.root());
    assert_refused(
        &fixture.run(&["--recover"]),
        ".gitignore changed after the interrupted migration. Recovery will not overwrite it.",
    );
    assert_eq!(snapshot(fixture.root()), before);
}

// ---------------------------------------------------------------------------------------------
// Refusals: one line, exit 1, nothing changed.

fn assert_refusal_changes_nothing(fixture: &Fixture, args: &[&str], expected: &str) {
    let before = snapshot(fixture.root());
    assert_refused(&fixture.run(args), expected);
    assert_eq!(snapshot(fixture.root()), before, "{args:?}");
}

#[test]
fn schema_refusals() {
    let cases = [
        (
            "0.9.0",
            "Schema 0.9.0 has no registered migration to 1.2.0; this build will not write it. Nothing was changed.",
        ),
        (
            "1.3.0",
            "This folder uses schema 1.3.0, which is newer than this build supports (1.2.0). Install a DotAIOS release that supports this folder schema; nothing was changed.",
        ),
        (
            "2.0.0",
            "This folder uses schema 2.0.0, which is newer than this build supports (1.2.0). Install a DotAIOS release that supports this folder schema; nothing was changed.",
        ),
        (
            "1.1",
            "Cannot migrate aios.json: its schema_version is not a version string such as 1.2.0.",
        ),
        (
            "01.1.0",
            "Cannot migrate aios.json: its schema_version is not a version string such as 1.2.0.",
        ),
    ];
    let id = "migrate-1_1_0-to-1_2_0-0123456789abcdef";
    for (version, message) in cases {
        let fixture = Fixture::new(version, None);
        for args in [&[][..], &["--apply", id][..], &["--recover"][..]] {
            assert_refusal_changes_nothing(&fixture, args, message);
        }
    }
    for (text, message) in [
        (
            "{\"schema_version\": 110}\n",
            "Cannot migrate aios.json: its schema_version is not a version string such as 1.2.0.",
        ),
        (
            "{}\n",
            "Cannot migrate aios.json: its schema_version is not a version string such as 1.2.0.",
        ),
        (
            "[]\n",
            "Cannot migrate aios.json: it is not a valid JSON object.",
        ),
        (
            "{\"schema_version\": \"1.1.0\"",
            "Cannot migrate aios.json: it is not a valid JSON object.",
        ),
    ] {
        let fixture = Fixture::new("1.1.0", None);
        std::fs::write(fixture.root().join("aios.json"), text).unwrap();
        assert_refusal_changes_nothing(&fixture, &[], message);
        assert_refusal_changes_nothing(&fixture, &["--apply", id], message);
    }
}

#[test]
fn unsafe_config_layout_is_refused() {
    let fixture = Fixture::new("1.1.0", None);
    std::fs::write(
        fixture.root().join("aios.json"),
        "{\"schema_version\": \"1.1.0\", \"nested\": {\"schema_version\": \"1.1.0\"}}\n",
    )
    .unwrap();
    assert_refusal_changes_nothing(
        &fixture,
        &[],
        "aios.json does not contain exactly one plain-text schema_version field; refusing to rewrite its formatting.",
    );
}

#[test]
fn linked_files_are_refused() {
    let outside = tempfile::tempdir().unwrap();
    let real_config = outside.path().join("aios.json");
    std::fs::write(&real_config, config("1.1.0")).unwrap();
    let real_ignore = outside.path().join("gitignore");
    std::fs::write(&real_ignore, b"x\n").unwrap();

    let fixture = Fixture::new("1.1.0", None);
    std::fs::remove_file(fixture.root().join("aios.json")).unwrap();
    symlink(&real_config, fixture.root().join("aios.json")).unwrap();
    let message = "Cannot migrate aios.json: it is a link or a special file, not a regular file.";
    assert_refusal_changes_nothing(&fixture, &[], message);
    assert_refusal_changes_nothing(
        &fixture,
        &["--apply", "migrate-1_1_0-to-1_2_0-0123456789abcdef"],
        message,
    );

    let fixture = Fixture::new("1.1.0", None);
    symlink(&real_ignore, fixture.root().join(".gitignore")).unwrap();
    let message = "Cannot migrate .gitignore: it is a symbolic link. Nothing was changed.";
    assert_refusal_changes_nothing(&fixture, &[], message);
    assert_refusal_changes_nothing(
        &fixture,
        &["--apply", "migrate-1_1_0-to-1_2_0-0123456789abcdef"],
        message,
    );
    assert_eq!(std::fs::read(&real_ignore).unwrap(), b"x\n");
    assert_eq!(
        std::fs::read_to_string(&real_config).unwrap(),
        config("1.1.0")
    );

    let fixture = Fixture::new("1.1.0", Some(b"\xff\xfe\n"));
    assert_refusal_changes_nothing(
        &fixture,
        &[],
        "Cannot migrate .gitignore: it is not valid UTF-8. Nothing was changed.",
    );
}

#[test]
fn metadata_refusals() {
    let id_for = |fixture: &Fixture| fixture.plan_id();
    // Unowned: entries without a marker.
    let fixture = Fixture::new("1.1.0", None);
    std::fs::create_dir_all(fixture.root().join(".dotaios/migrations/stuff")).unwrap();
    let unowned = ".dotaios/migrations has no DotAIOS ownership marker. Refusing to use it.";
    let id = id_for(&fixture);
    for args in [&[][..], &["--apply", &id][..], &["--recover"][..]] {
        assert_refusal_changes_nothing(&fixture, args, unowned);
    }
    // A marker with other bytes.
    let fixture = Fixture::new("1.1.0", None);
    std::fs::create_dir_all(fixture.root().join(".dotaios/migrations/transactions")).unwrap();
    std::fs::write(
        fixture.root().join(".dotaios/migrations/owner.json"),
        b"{\"schema\":\"dotaios.migrations.v1\"}\n",
    )
    .unwrap();
    assert_refusal_changes_nothing(
        &fixture,
        &["--apply", &id_for(&fixture)],
        ".dotaios/migrations/owner.json is not a recognized DotAIOS ownership marker. Refusing to use it.",
    );
    // A linked .dotaios and a .dotaios/migrations that is a file.
    let outside = tempfile::tempdir().unwrap();
    let fixture = Fixture::new("1.1.0", None);
    std::fs::remove_dir_all(fixture.root().join(".dotaios")).unwrap();
    symlink(outside.path(), fixture.root().join(".dotaios")).unwrap();
    assert_refusal_changes_nothing(
        &fixture,
        &["--apply", &id_for(&fixture)],
        ".dotaios is not a real directory or regular file owned by DotAIOS; refusing to use it.",
    );
    assert_eq!(std::fs::read_dir(outside.path()).unwrap().count(), 0);
    let fixture = Fixture::new("1.1.0", None);
    std::fs::write(fixture.root().join(".dotaios/migrations"), b"").unwrap();
    assert_refusal_changes_nothing(
        &fixture,
        &[],
        ".dotaios/migrations is not a real directory or regular file owned by DotAIOS; refusing to use it.",
    );
}

fn owned(fixture: &Fixture) -> PathBuf {
    let migrations = fixture.root().join(".dotaios/migrations");
    std::fs::create_dir_all(migrations.join("transactions")).unwrap();
    std::fs::create_dir_all(migrations.join("receipts")).unwrap();
    std::fs::write(migrations.join("owner.json"), OWNER_MARKER).unwrap();
    migrations.join("transactions")
}

#[test]
fn transaction_refusals() {
    // Too many transactions.
    let fixture = Fixture::new("1.1.0", None);
    let transactions = owned(&fixture);
    for n in 0..17 {
        std::fs::create_dir(transactions.join(format!("migrate-1_1_0-to-1_2_0-{n:016x}"))).unwrap();
    }
    let too_many = "More than 16 entries exist in .dotaios/migrations/transactions; refusing to continue. Inspect that directory by hand.";
    let id = fixture.plan_id();
    for args in [&[][..], &["--apply", &id][..], &["--recover"][..]] {
        assert_refusal_changes_nothing(&fixture, args, too_many);
    }

    // Two interrupted transactions: preview blocked, apply refused, recovery needs an id.
    let fixture = Fixture::new("1.1.0", None);
    let transactions = owned(&fixture);
    let a = "migrate-1_1_0-to-1_2_0-000000000000000a";
    let b = "migrate-1_1_0-to-1_2_0-000000000000000b";
    std::fs::create_dir(transactions.join(a)).unwrap();
    std::fs::create_dir(transactions.join(b)).unwrap();
    let before = snapshot(fixture.root());
    let preview = fixture.run(&[]);
    assert_eq!(preview.status.code(), Some(1));
    assert!(stdout(&preview).ends_with(&format!(
        "[blocked] Interrupted migration: {a}, {b}\nRun `dotaios migrate --recover --path {}` before previewing or applying another plan.\n",
        fixture.root().display()
    )));
    let id = fixture.plan_id();
    assert_refusal_changes_nothing(
        &fixture,
        &["--apply", &id],
        &format!(
            "Interrupted migration state exists for {a}, {b}. Run dotaios migrate --recover before applying another plan."
        ),
    );
    assert_refusal_changes_nothing(
        &fixture,
        &["--recover"],
        &format!("More than one interrupted migration exists. Pass --recover <plan-id>: {a}, {b}"),
    );
    let unknown = "migrate-1_1_0-to-1_2_0-00000000000000ff";
    assert_refusal_changes_nothing(
        &fixture,
        &["--recover", unknown],
        &format!("No interrupted transaction found for {unknown}."),
    );
    assert_eq!(snapshot(fixture.root()), before);
    // Empty transaction directories (a crash right after mkdir) are removed one by one.
    assert_ok(&fixture.run(&["--recover", a]));
    assert_ok(&fixture.run(&["--recover"]));
    assert!(fixture.transactions().is_empty());

    // An entry that is not a plan id, or not a directory.
    let fixture = Fixture::new("1.1.0", None);
    let transactions = owned(&fixture);
    std::fs::create_dir(transactions.join("not-a-plan")).unwrap();
    assert_refusal_changes_nothing(&fixture, &[], "Invalid migration plan id: not-a-plan");
    let fixture = Fixture::new("1.1.0", None);
    let transactions = owned(&fixture);
    std::fs::write(
        transactions.join("migrate-1_1_0-to-1_2_0-0123456789abcdef"),
        b"",
    )
    .unwrap();
    assert_refusal_changes_nothing(
        &fixture,
        &[],
        ".dotaios/migrations/transactions is not a real directory or regular file owned by DotAIOS; refusing to use it.",
    );

    // A transaction holding files but no readable journal is never removed automatically.
    let fixture = Fixture::new("1.1.0", None);
    let transactions = owned(&fixture);
    let t = transactions.join(a);
    std::fs::create_dir_all(t.join("backups")).unwrap();
    std::fs::write(t.join("backups/aios.json"), config("1.1.0")).unwrap();
    std::fs::write(t.join("journal.json"), b"{\"schema\":").unwrap();
    assert_refusal_changes_nothing(
        &fixture,
        &["--recover"],
        "Interrupted transaction has no readable journal; refusing to remove its files automatically.",
    );
}

#[test]
fn plan_id_refusals() {
    let fixture = Fixture::new("1.1.0", None);
    assert_refusal_changes_nothing(
        &fixture,
        &["--apply", "nope"],
        "Invalid migration plan id: nope",
    );
    assert_refusal_changes_nothing(
        &fixture,
        &["--recover", "nope"],
        "Invalid migration plan id: nope",
    );
    let stale = "migrate-1_1_0-to-1_2_0-0123456789abcdef";
    assert_refusal_changes_nothing(
        &fixture,
        &["--apply", stale],
        &format!(
            "Plan {stale} no longer matches the folder. Preview again; no migration files were changed."
        ),
    );
    // A previewed plan goes stale when .gitignore changes.
    let id = fixture.plan_id();
    std::fs::write(fixture.root().join(".gitignore"), b"new\n").unwrap();
    assert_refusal_changes_nothing(
        &fixture,
        &["--apply", &id],
        &format!(
            "Plan {id} no longer matches the folder. Preview again; no migration files were changed."
        ),
    );
}

#[test]
fn receipt_refusals() {
    let fixture = Fixture::new("1.1.0", None);
    let id = fixture.plan_id();
    assert_ok(&fixture.run(&["--apply", &id]));
    // Someone put the old aios.json back by hand: the receipt contradicts the folder.
    std::fs::write(fixture.root().join("aios.json"), config("1.1.0")).unwrap();
    assert_refusal_changes_nothing(
        &fixture,
        &["--apply", &id],
        &format!(
            "Receipt {id} exists, but aios.json reports older schema 1.1.0. Run recovery before trying again."
        ),
    );
    // A receipt that is not one.
    std::fs::write(
        fixture
            .root()
            .join(format!(".dotaios/migrations/receipts/{id}.json")),
        b"{\"schema\":\"other\"}\n",
    )
    .unwrap();
    assert_refusal_changes_nothing(
        &fixture,
        &["--apply", &id],
        &format!(
            "Receipt {id} exists but is not a valid DotAIOS migration receipt; refusing to continue."
        ),
    );
}

#[test]
fn read_only_folder_is_refused_with_nothing_changed() {
    let fixture = Fixture::new("1.1.0", Some(b"x\n"));
    let id = fixture.plan_id();
    let is_root = rustix::process::geteuid().is_root();
    // The kernel lets root write anywhere; run the binary as an unprivileged user instead.
    let make_readable = |path: &Path, mode: u32| {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
    };
    if is_root {
        for path in snapshot(fixture.root()).paths() {
            let full = fixture.root().join(path);
            let meta = std::fs::symlink_metadata(&full).unwrap();
            if meta.is_dir() {
                make_readable(&full, 0o755);
            } else if meta.is_file() {
                make_readable(&full, 0o644);
            }
        }
    }
    make_readable(fixture.root(), 0o555);
    let before = snapshot(fixture.root());
    let mut command = fixture.command(&["--apply", &id]);
    if is_root {
        use std::os::unix::process::CommandExt;
        command.uid(65534).gid(65534);
    }
    let output = command.output().unwrap();
    let after = snapshot(fixture.root());
    make_readable(fixture.root(), 0o755);
    assert_refused(
        &output,
        "The AIOS folder is not writable; nothing was changed.",
    );
    assert_eq!(after, before);
}

#[test]
fn usage_refusals() {
    let fixture = Fixture::new("1.1.0", None);
    assert_refusal_changes_nothing(&fixture, &["--apply"], "--apply requires a value");
    for empty in [&["--recover", ""][..], &["--recover="]] {
        assert_refusal_changes_nothing(&fixture, empty, "--recover requires a value");
    }
    assert_refusal_changes_nothing(
        &fixture,
        &["--apply", "x", "--recover"],
        "Choose either --apply or --recover, not both.",
    );
    assert_refusal_changes_nothing(&fixture, &["--bogus"], "Unknown option: --bogus");
    let help = fixture.run(&["--apply", "x", "-h"]);
    assert_ok(&help);
    assert!(stdout(&help).starts_with("Usage:\n  dotaios migrate"));
    let missing = tempfile::tempdir().unwrap();
    // An option value is refused before the folder is looked at.
    let output = Command::new(BIN)
        .args(["migrate", "--recover", "", "--path"])
        .arg(missing.path())
        .output()
        .unwrap();
    assert_refused(&output, "--recover requires a value");
    let output = Command::new(BIN)
        .args(["migrate", "--path"])
        .arg(missing.path())
        .output()
        .unwrap();
    assert_refused(
        &output,
        &format!(
            "No AIOS folder found at {}. Run dotaios init first, or pass --path.",
            missing.path().display()
        ),
    );
}

#[test]
fn recovery_refusals() {
    let crashed = |point: &str| {
        let fixture = Fixture::new("1.1.0", Some(b"x\n"));
        let id = fixture.plan_id();
        assert_killed(&fixture.run_with_failpoint(&["--apply", &id], point), point);
        let t = fixture
            .root()
            .join(format!(".dotaios/migrations/transactions/{id}"));
        (fixture, id, t)
    };

    // A journal that parses but is not this transaction's.
    let (fixture, id, t) = crashed("journal:prepared");
    let journal = std::fs::read_to_string(t.join("journal.json")).unwrap();
    std::fs::write(
        t.join("journal.json"),
        journal.replace(&id, "migrate-1_1_0-to-1_2_0-0000000000000000"),
    )
    .unwrap();
    assert_refusal_changes_nothing(
        &fixture,
        &["--recover"],
        &format!(
            "Interrupted transaction {id} has an invalid journal; refusing to change anything automatically."
        ),
    );

    // A backup that does not hash to the journal's before_sha256.
    let (fixture, _, t) = crashed("renamed:aios.json");
    std::fs::write(t.join("backups/aios.json"), b"{}\n").unwrap();
    assert_refusal_changes_nothing(
        &fixture,
        &["--recover"],
        "The backup of aios.json does not match the journal; refusing to restore it.",
    );

    // Recovery residue that recovery did not write.
    let (fixture, _, t) = crashed("renamed:aios.json");
    std::fs::create_dir(t.join("recovery")).unwrap();
    std::fs::write(t.join("recovery/aios.json"), b"planted\n").unwrap();
    assert_refusal_changes_nothing(
        &fixture,
        &["--recover"],
        "Unexpected recovery residue for aios.json; refusing to use it.",
    );

    // A receipt that says committed while aios.json is older.
    let (fixture, id, _) = crashed("receipt-complete");
    std::fs::write(fixture.root().join("aios.json"), config("1.1.0")).unwrap();
    assert_refusal_changes_nothing(
        &fixture,
        &["--recover"],
        &format!(
            "Receipt {id} exists, but aios.json reports older schema 1.1.0. Run recovery before trying again."
        ),
    );
}
