//! Migration inspection on real folders (contract 01 §8): every status and every code, one
//! test each, built in temporary directories and read through the contained reader.
//!
//! Two codes cannot be provoked deterministically from a test and are covered where their
//! decision is made: `CONFIG_CHANGED` (the file must change between the reader's two `fstat`s)
//! by the reader-error mapping test in `folder::config`, and `INSPECTION_FAILED` (an
//! operating-system error such as `EACCES`, which root never gets) by the same mapping tests in
//! `folder::config` and `folder::inspection`. The confirming pass of step 4 (a change between
//! the two passes) is a race; its comparison is a separate function tested directly in
//! `folder::inspection` (`confirm_step_requires_identical_bytes_and_ids`).
#![allow(
    clippy::disallowed_methods,
    reason = "tests build and inspect their folders with std::fs"
)]
// Helpers and imports of the Unix-only cases (links, modes, FIFOs) are unused on Windows.
#![cfg_attr(not(unix), allow(unused_imports, dead_code))]

use std::fs;
#[cfg(unix)]
use std::os::unix::fs::symlink;
use std::path::Path;
use std::process::Command;

use dotaios_contained::Root;
use dotaios_core::folder::inspection::{
    Inspection, InspectionCode, MigrationStatus, OWNER_MARKER, inspect_migrations,
};
use dotaios_testkit::fingerprint;

const PLAN_A: &str = "migrate-1_1_0-to-1_2_0-0123456789abcdef";
const PLAN_B: &str = "migrate-1_0_0-to-1_2_0-fedcba9876543210";

fn config(version: &str) -> String {
    format!(
        "{{\n  \"schema_version\": \"{version}\",\n  \"created_at\": \"2026-08-01T00:00:00.000Z\",\n  \"ai_tools\": [],\n  \"vault_path\": null\n}}\n"
    )
}

/// A folder with `aios.json` at `version`.
fn folder(version: &str) -> tempfile::TempDir {
    let temp = tempfile::tempdir().unwrap();
    fs::write(temp.path().join("aios.json"), config(version)).unwrap();
    temp
}

/// Adds `.dotaios/migrations/owner.json` with the exact marker bytes.
fn owned(temp: &tempfile::TempDir) -> std::path::PathBuf {
    let migrations = temp.path().join(".dotaios/migrations");
    fs::create_dir_all(&migrations).unwrap();
    fs::write(migrations.join("owner.json"), OWNER_MARKER).unwrap();
    migrations
}

#[cfg(unix)]
fn mkfifo(path: &Path) {
    let status = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(status.success());
}

fn inspect(temp: &tempfile::TempDir) -> Inspection {
    inspect_migrations(&Root::open(temp.path()).unwrap())
}

fn failed(temp: &tempfile::TempDir) -> InspectionCode {
    match inspect(temp) {
        Inspection::Failed(code) => code,
        other => panic!("expected a failure, got {other:?}"),
    }
}

fn status(temp: &tempfile::TempDir) -> MigrationStatus {
    match inspect(temp) {
        Inspection::Inspected(state) => state.status,
        other => panic!("expected a status, got {other:?}"),
    }
}

#[test]
fn status_current() {
    let temp = folder("1.2.0");
    let Inspection::Inspected(state) = inspect(&temp) else {
        panic!()
    };
    assert_eq!(state.status, MigrationStatus::Current);
    assert_eq!(state.folder_schema_version.as_str(), "1.2.0");
    assert!(state.transaction_ids.is_empty());
    assert_eq!(
        dotaios_core::text::to_json_compact(&inspect(&temp).operational_json()),
        r#"{"status":"current","folder_schema_version":"1.2.0","supported_schema_version":"1.2.0","severity":"none","action":null}"#
    );
}

#[test]
fn status_current_with_owned_empty_transactions() {
    let temp = folder("1.2.0");
    fs::create_dir(owned(&temp).join("transactions")).unwrap();
    fs::create_dir(temp.path().join(".dotaios/migrations/receipts")).unwrap();
    assert_eq!(status(&temp), MigrationStatus::Current);
}

#[test]
fn status_current_with_empty_unowned_migrations_directory() {
    let temp = folder("1.2.0");
    fs::create_dir_all(temp.path().join(".dotaios/migrations")).unwrap();
    assert_eq!(status(&temp), MigrationStatus::Current);
    // `.dotaios/` alone (other tools' session store) is no migration metadata either.
    let temp = folder("1.2.0");
    fs::create_dir_all(temp.path().join(".dotaios/session-store")).unwrap();
    assert_eq!(status(&temp), MigrationStatus::Current);
}

#[test]
fn status_schema_outdated() {
    for version in ["1.1.0", "1.0.0"] {
        let temp = folder(version);
        let Inspection::Inspected(state) = inspect(&temp) else {
            panic!()
        };
        assert_eq!(state.status, MigrationStatus::SchemaOutdated);
        assert_eq!(state.folder_schema_version.as_str(), version);
    }
    let temp = folder("1.1.0");
    assert_eq!(
        dotaios_core::text::to_json_compact(&inspect(&temp).operational_json()),
        r#"{"status":"schema_outdated","folder_schema_version":"1.1.0","supported_schema_version":"1.2.0","severity":"notice","action":{"command":"dotaios migrate","path_scope":"configured_aios"}}"#
    );
}

#[test]
fn status_transaction_present_takes_precedence() {
    let temp = folder("1.1.0");
    let migrations = owned(&temp);
    fs::create_dir_all(migrations.join("transactions").join(PLAN_A)).unwrap();
    fs::create_dir_all(migrations.join("transactions").join(PLAN_B).join("backups")).unwrap();
    let before = fingerprint(temp.path());
    let Inspection::Inspected(state) = inspect(&temp) else {
        panic!()
    };
    assert_eq!(state.status, MigrationStatus::TransactionPresent);
    assert_eq!(state.folder_schema_version.as_str(), "1.1.0");
    assert_eq!(
        state.transaction_ids,
        [PLAN_B, PLAN_A],
        "sorted in UTF-16 order"
    );
    let operational = dotaios_core::text::to_json_compact(&inspect(&temp).operational_json());
    assert_eq!(
        operational,
        r#"{"status":"transaction_present","folder_schema_version":"1.1.0","supported_schema_version":"1.2.0","severity":"warning","action":{"command":"dotaios doctor","path_scope":"configured_aios"}}"#
    );
    assert!(!operational.contains("migrate-"));
    assert_eq!(fingerprint(temp.path()), before, "inspection never writes");
}

#[test]
fn status_inspection_failed() {
    let temp = folder("invalid");
    let inspection = inspect(&temp);
    assert_eq!(
        inspection,
        Inspection::Failed(InspectionCode::InvalidSchema)
    );
    assert_eq!(inspection.status_str(), "inspection_failed");
    assert_eq!(
        dotaios_core::text::to_json_compact(&inspection.operational_json()),
        r#"{"status":"inspection_failed","code":"INVALID_SCHEMA","severity":"warning","action":{"command":"dotaios doctor","path_scope":"configured_aios"}}"#
    );
}

#[test]
fn sixteen_transactions_are_allowed() {
    let temp = folder("1.2.0");
    let transactions = owned(&temp).join("transactions");
    for index in 0..16 {
        fs::create_dir_all(transactions.join(format!("migrate-1_1_0-to-1_2_0-{index:016x}")))
            .unwrap();
    }
    let Inspection::Inspected(state) = inspect(&temp) else {
        panic!()
    };
    assert_eq!(state.transaction_ids.len(), 16);
}

#[cfg(unix)]
#[test]
fn a_symlinked_root_is_followed() {
    let temp = folder("1.2.0");
    let outer = tempfile::tempdir().unwrap();
    let link = outer.path().join("aios");
    symlink(temp.path(), &link).unwrap();
    let root = Root::open(&link).unwrap();
    assert!(matches!(
        inspect_migrations(&root),
        Inspection::Inspected(_)
    ));
}

// ---- aios.json codes ---------------------------------------------------------------------

#[test]
fn code_config_too_large() {
    let temp = tempfile::tempdir().unwrap();
    let json = config("1.2.0");
    // Exactly 1 MiB is accepted…
    let padded = format!("{json}{}", " ".repeat((1 << 20) - json.len()));
    fs::write(temp.path().join("aios.json"), &padded).unwrap();
    assert_eq!(status(&temp), MigrationStatus::Current);
    // …one byte more is not.
    fs::write(temp.path().join("aios.json"), format!("{padded} ")).unwrap();
    assert_eq!(failed(&temp), InspectionCode::ConfigTooLarge);
}

#[cfg(unix)]
#[test]
fn code_unsafe_file_symlink() {
    let temp = tempfile::tempdir().unwrap();
    fs::write(temp.path().join("real.json"), config("1.2.0")).unwrap();
    symlink("real.json", temp.path().join("aios.json")).unwrap();
    assert_eq!(failed(&temp), InspectionCode::UnsafeFile);
}

#[cfg(unix)]
#[test]
fn code_unsafe_file_fifo() {
    let temp = tempfile::tempdir().unwrap();
    mkfifo(&temp.path().join("aios.json"));
    // The FIFO is never opened for reading, so this cannot block.
    assert_eq!(failed(&temp), InspectionCode::UnsafeFile);
}

#[test]
fn code_unsafe_file_directory() {
    let temp = tempfile::tempdir().unwrap();
    fs::create_dir(temp.path().join("aios.json")).unwrap();
    assert_eq!(failed(&temp), InspectionCode::UnsafeFile);
}

#[test]
fn code_missing_file() {
    let temp = tempfile::tempdir().unwrap();
    assert_eq!(failed(&temp), InspectionCode::MissingFile);
}

#[test]
fn code_invalid_config_encoding() {
    let temp = tempfile::tempdir().unwrap();
    fs::write(
        temp.path().join("aios.json"),
        b"{\"schema_version\":\"1.2.0\",\"x\":\"\xff\"}",
    )
    .unwrap();
    assert_eq!(failed(&temp), InspectionCode::InvalidConfigEncoding);
}

#[test]
fn code_invalid_config_not_json() {
    let temp = tempfile::tempdir().unwrap();
    fs::write(
        temp.path().join("aios.json"),
        "{\"schema_version\": \"1.2.0\",}",
    )
    .unwrap();
    assert_eq!(failed(&temp), InspectionCode::InvalidConfig);
}

#[test]
fn code_invalid_config_not_an_object() {
    for text in ["[\"1.2.0\"]", "\"1.2.0\"", "null", "12"] {
        let temp = tempfile::tempdir().unwrap();
        fs::write(temp.path().join("aios.json"), text).unwrap();
        assert_eq!(failed(&temp), InspectionCode::InvalidConfig, "{text}");
    }
}

#[test]
fn code_invalid_schema() {
    for text in [
        r#"{"schema_version":"invalid"}"#,
        r#"{"schema_version":"1.2"}"#,
        r#"{"schema_version":"01.2.0"}"#,
        r#"{"schema_version":120}"#,
        r#"{"schema_version":null}"#,
        r#"{}"#,
    ] {
        let temp = tempfile::tempdir().unwrap();
        fs::write(temp.path().join("aios.json"), text).unwrap();
        assert_eq!(failed(&temp), InspectionCode::InvalidSchema, "{text}");
    }
}

#[test]
fn code_future_schema() {
    for version in ["1.2.1", "1.3.0", "2.0.0", "10.0.0"] {
        assert_eq!(
            failed(&folder(version)),
            InspectionCode::FutureSchema,
            "{version}"
        );
    }
}

#[test]
fn code_unsupported_schema() {
    for version in ["0.9.0", "1.1.1", "0.0.0"] {
        assert_eq!(
            failed(&folder(version)),
            InspectionCode::UnsupportedSchema,
            "{version}"
        );
    }
}

// ---- .dotaios/migrations codes -----------------------------------------------------------

#[cfg(unix)]
#[test]
fn code_unsafe_metadata_linked_dotaios() {
    let temp = folder("1.2.0");
    let elsewhere = tempfile::tempdir().unwrap();
    fs::create_dir_all(elsewhere.path().join("migrations")).unwrap();
    symlink(elsewhere.path(), temp.path().join(".dotaios")).unwrap();
    assert_eq!(failed(&temp), InspectionCode::UnsafeMetadata);
}

#[test]
fn code_unsafe_metadata_migrations_not_a_directory() {
    let temp = folder("1.2.0");
    fs::create_dir(temp.path().join(".dotaios")).unwrap();
    fs::write(temp.path().join(".dotaios/migrations"), "").unwrap();
    assert_eq!(failed(&temp), InspectionCode::UnsafeMetadata);
    // A `.dotaios` that is itself a file is a non-directory ancestor.
    let temp = folder("1.2.0");
    fs::write(temp.path().join(".dotaios"), "").unwrap();
    assert_eq!(failed(&temp), InspectionCode::UnsafeMetadata);
}

#[cfg(unix)]
#[test]
fn code_unsafe_metadata_linked_migrations() {
    let temp = folder("1.2.0");
    fs::create_dir_all(temp.path().join(".dotaios/real")).unwrap();
    symlink("real", temp.path().join(".dotaios/migrations")).unwrap();
    assert_eq!(failed(&temp), InspectionCode::UnsafeMetadata);
}

#[cfg(unix)]
#[test]
fn code_unsafe_metadata_owner_variants() {
    // Larger than 4,096 bytes.
    let temp = folder("1.2.0");
    let migrations = owned(&temp);
    fs::write(migrations.join("owner.json"), vec![b' '; 4097]).unwrap();
    assert_eq!(failed(&temp), InspectionCode::UnsafeMetadata);
    // A link, even to the exact marker.
    let temp = folder("1.2.0");
    let migrations = owned(&temp);
    fs::rename(migrations.join("owner.json"), migrations.join("marker")).unwrap();
    symlink("marker", migrations.join("owner.json")).unwrap();
    assert_eq!(failed(&temp), InspectionCode::UnsafeMetadata);
    // A special file.
    let temp = folder("1.2.0");
    let migrations = owned(&temp);
    fs::remove_file(migrations.join("owner.json")).unwrap();
    mkfifo(&migrations.join("owner.json"));
    assert_eq!(failed(&temp), InspectionCode::UnsafeMetadata);
    // Invalid UTF-8.
    let temp = folder("1.2.0");
    let migrations = owned(&temp);
    fs::write(migrations.join("owner.json"), b"{\xff}").unwrap();
    assert_eq!(failed(&temp), InspectionCode::UnsafeMetadata);
    // A directory.
    let temp = folder("1.2.0");
    let migrations = owned(&temp);
    fs::remove_file(migrations.join("owner.json")).unwrap();
    fs::create_dir(migrations.join("owner.json")).unwrap();
    assert_eq!(failed(&temp), InspectionCode::UnsafeMetadata);
}

#[test]
fn code_unsafe_metadata_two_entries_without_owner() {
    let temp = folder("1.2.0");
    let migrations = temp.path().join(".dotaios/migrations");
    fs::create_dir_all(migrations.join("transactions")).unwrap();
    fs::create_dir_all(migrations.join("receipts")).unwrap();
    assert_eq!(failed(&temp), InspectionCode::UnsafeMetadata);
}

#[cfg(unix)]
#[test]
fn code_unsafe_metadata_transactions_not_a_real_directory() {
    let temp = folder("1.2.0");
    let migrations = owned(&temp);
    fs::write(migrations.join("transactions"), "").unwrap();
    assert_eq!(failed(&temp), InspectionCode::UnsafeMetadata);
    let temp = folder("1.2.0");
    let migrations = owned(&temp);
    fs::create_dir(migrations.join("elsewhere")).unwrap();
    symlink("elsewhere", migrations.join("transactions")).unwrap();
    assert_eq!(failed(&temp), InspectionCode::UnsafeMetadata);
}

#[test]
fn code_unowned_metadata_one_entry() {
    for entry_is_dir in [true, false] {
        let temp = folder("1.2.0");
        let migrations = temp.path().join(".dotaios/migrations");
        fs::create_dir_all(&migrations).unwrap();
        if entry_is_dir {
            fs::create_dir(migrations.join("transactions")).unwrap();
        } else {
            fs::write(migrations.join("stray.json"), "{}").unwrap();
        }
        assert_eq!(failed(&temp), InspectionCode::UnownedMetadata);
    }
}

#[test]
fn code_unowned_metadata_wrong_marker() {
    for bytes in [
        &b"{\n  \"schema\": \"dotaios.migrations.v1\"\n}"[..],
        b"{\"schema\":\"dotaios.migrations.v1\"}\n",
        b"{\r\n  \"schema\": \"dotaios.migrations.v1\"\r\n}\r\n",
        b"{\n  \"schema\": \"dotaios.migrations.v2\"\n}\n",
        b"",
    ] {
        let temp = folder("1.2.0");
        let migrations = owned(&temp);
        fs::write(migrations.join("owner.json"), bytes).unwrap();
        fs::create_dir(migrations.join("transactions")).unwrap();
        assert_eq!(failed(&temp), InspectionCode::UnownedMetadata);
    }
}

#[test]
fn code_state_changed_without_transactions_directory() {
    let temp = folder("1.2.0");
    owned(&temp);
    assert_eq!(failed(&temp), InspectionCode::StateChanged);
}

#[cfg(unix)]
#[test]
fn code_state_changed_non_directory_entry() {
    // A file with a valid plan-id name.
    let temp = folder("1.2.0");
    let transactions = owned(&temp).join("transactions");
    fs::create_dir(&transactions).unwrap();
    fs::write(transactions.join(PLAN_A), "").unwrap();
    assert_eq!(failed(&temp), InspectionCode::StateChanged);
    // A link with a valid plan-id name, even to a directory.
    let temp = folder("1.2.0");
    let transactions = owned(&temp).join("transactions");
    fs::create_dir_all(transactions.join(PLAN_B)).unwrap();
    symlink(PLAN_B, transactions.join(PLAN_A)).unwrap();
    assert_eq!(failed(&temp), InspectionCode::StateChanged);
}

#[test]
fn code_too_many_transactions() {
    let temp = folder("1.2.0");
    let transactions = owned(&temp).join("transactions");
    for index in 0..17 {
        fs::create_dir_all(transactions.join(format!("migrate-1_1_0-to-1_2_0-{index:016x}")))
            .unwrap();
    }
    assert_eq!(failed(&temp), InspectionCode::TooManyTransactions);
}

#[test]
fn code_invalid_plan_id() {
    let temp = folder("1.2.0");
    let transactions = owned(&temp).join("transactions");
    fs::create_dir_all(transactions.join(PLAN_A)).unwrap();
    fs::create_dir_all(transactions.join("not-a-plan")).unwrap();
    assert_eq!(failed(&temp), InspectionCode::InvalidPlanId);
    // The name is checked before the kind (the opposite of migrate's ownership check).
    let temp = folder("1.2.0");
    let transactions = owned(&temp).join("transactions");
    fs::create_dir(&transactions).unwrap();
    fs::write(
        transactions.join("migrate-1_1_0-to-1_2_0-0123456789ABCDEF"),
        "",
    )
    .unwrap();
    assert_eq!(failed(&temp), InspectionCode::InvalidPlanId);
}

#[test]
fn schema_failures_come_before_metadata_failures() {
    let temp = folder("9.0.0");
    fs::write(temp.path().join(".dotaios"), "").unwrap();
    assert_eq!(failed(&temp), InspectionCode::FutureSchema);
    let temp = folder("nope");
    fs::write(temp.path().join(".dotaios"), "").unwrap();
    assert_eq!(failed(&temp), InspectionCode::InvalidSchema);
}
