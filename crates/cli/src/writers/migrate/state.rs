//! What `migrate` checks before it may write (contract 01 §9.4–§9.7 preconditions): the folder's
//! two handles, the schema of `aios.json`, the ownership of `.dotaios/` (§9.6), the active
//! transactions and an existing receipt. Everything here only reads, through
//! `dotaios-contained`.

use std::path::Path;

use dotaios_contained::{EntryKind, Ledger, Limits, ReadError, RelPath, Root, UnsafeKind};
use dotaios_core::folder::config::{SchemaSupport, SchemaVersion, schema_support};
use dotaios_core::folder::inspection::read_config;
use dotaios_core::folder::inspection::{
    InspectionCode, MAX_TRANSACTIONS, OWNER_CAP, OWNER_MARKER, is_plan_id,
};
use dotaios_core::text::{LoneSurrogates, serde_read, utf16_cmp};
use serde_json::Value;

use super::MigrateError;
use crate::writers::atomic::Dir;

/// `.dotaios`.
pub(crate) const DOTAIOS_DIR: &str = ".dotaios";
/// `.dotaios/migrations`.
pub(crate) const MIGRATIONS_DIR: &str = ".dotaios/migrations";
/// `.dotaios/migrations/owner.json`.
pub(crate) const OWNER_PATH: &str = ".dotaios/migrations/owner.json";
/// `.dotaios/migrations/transactions`.
pub(crate) const TRANSACTIONS_DIR: &str = ".dotaios/migrations/transactions";
/// `.dotaios/migrations/receipts`.
pub(crate) const RECEIPTS_DIR: &str = ".dotaios/migrations/receipts";

/// The `schema` of a receipt.
pub(crate) const RECEIPT_SCHEMA: &str = "dotaios.migration-receipt.v1";

/// The size bound of a receipt read. Receipts carry the preserved-paths inventory, so they
/// are allowed to be large; anything beyond this was not written by `migrate`.
const RECEIPT_CAP: u64 = 256 << 20;

/// The folder, opened twice: a contained reader and a write handle, checked to be the same
/// directory so that a root swapped between the two opens is noticed.
#[derive(Debug)]
pub(crate) struct Folder {
    /// Every read goes through this.
    pub(crate) root: Root,
    /// Every write is relative to this.
    pub(crate) dir: Dir,
}

impl Folder {
    /// Opens `path` (the one place a path is used; a symlinked root is followed once).
    pub(crate) fn open(path: &Path) -> Result<Folder, MigrateError> {
        let root =
            Root::open(path).map_err(|_| MigrateError::Config(InspectionCode::MissingFile))?;
        let dir = Dir::open(path).map_err(|_| MigrateError::StateChanged)?;
        let seen = root.restat().map_err(|_| MigrateError::StateChanged)?;
        if !crate::sys::same_directory(dir.handle(), &seen)
            .map_err(|_| MigrateError::StateChanged)?
        {
            return Err(MigrateError::StateChanged);
        }
        Ok(Folder { root, dir })
    }
}

pub(crate) fn rel(path: &str) -> RelPath {
    RelPath::new(path).expect("migrate paths are relative and normal")
}

/// Reads `aios.json` (contract 01 §8.1 step 1 codes) and checks that this build supports its
/// schema (step 2). Returns the version.
pub(crate) fn read_supported_version(root: &Root) -> Result<SchemaVersion, MigrateError> {
    let config = read_config(root).map_err(MigrateError::Config)?;
    let version = SchemaVersion::of_config(&config.object)
        .ok_or(MigrateError::Config(InspectionCode::InvalidSchema))?;
    match schema_support(&version) {
        SchemaSupport::Current | SchemaSupport::Outdated => Ok(version),
        SchemaSupport::Future => Err(MigrateError::FutureSchema(version)),
        SchemaSupport::Unsupported => Err(MigrateError::UnsupportedSchema(version)),
    }
}

/// The result of the ownership check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Metadata {
    /// The active transaction ids, in UTF-16 order.
    pub(crate) active: Vec<String>,
}

/// The ownership check of contract 01 §9.6, plus the listing of active transactions (at most
/// [`MAX_TRANSACTIONS`], as in §5.2).
pub(crate) fn check_ownership(root: &Root) -> Result<Metadata, MigrateError> {
    let none = Metadata { active: Vec::new() };
    if !real_directory(root, DOTAIOS_DIR)? {
        return Ok(none);
    }
    if !real_directory(root, MIGRATIONS_DIR)? {
        return Ok(none);
    }
    let mut ledger = Ledger::new(Limits {
        files: 1,
        bytes: OWNER_CAP,
        entries: MAX_TRANSACTIONS + 1,
    });
    let owner = match root.read_bytes(&rel(OWNER_PATH), OWNER_CAP, &mut ledger) {
        Ok(owner) => owner,
        Err(ReadError::Changed) => return Err(MigrateError::StateChanged),
        Err(_) => return Err(MigrateError::UnsafeMetadata(OWNER_PATH)),
    };
    let Some(owner) = owner else {
        // Without a marker the directory must be empty; one entry is enough to refuse.
        return match root.list_dir(Some(&rel(MIGRATIONS_DIR)), 1, &mut ledger) {
            Ok(Some(listing)) if listing.entries.is_empty() => Ok(none),
            Ok(None) => Ok(none),
            Ok(Some(_)) | Err(ReadError::DirectoryLimit) => Err(MigrateError::UnownedMetadata),
            Err(ReadError::Changed) => Err(MigrateError::StateChanged),
            Err(_) => Err(MigrateError::UnsafeMetadata(MIGRATIONS_DIR)),
        };
    };
    if owner.bytes != OWNER_MARKER {
        return Err(MigrateError::UnrecognizedOwner);
    }
    real_directory(root, RECEIPTS_DIR)?;
    if !real_directory(root, TRANSACTIONS_DIR)? {
        return Ok(none);
    }
    let listing = match root.list_dir(Some(&rel(TRANSACTIONS_DIR)), MAX_TRANSACTIONS, &mut ledger) {
        Ok(Some(listing)) => listing,
        Ok(None) => return Ok(none),
        Err(ReadError::DirectoryLimit | ReadError::Budget(_)) => {
            return Err(MigrateError::TooManyTransactions);
        }
        Err(ReadError::Changed) => return Err(MigrateError::StateChanged),
        Err(_) => return Err(MigrateError::UnsafeMetadata(TRANSACTIONS_DIR)),
    };
    let mut entries: Vec<(String, EntryKind)> = listing
        .entries
        .into_iter()
        .map(|entry| (entry.name.to_string_lossy().into_owned(), entry.kind))
        .collect();
    entries.sort_by(|a, b| utf16_cmp(&a.0, &b.0));
    // §9.6 order: first "not a real directory", then "not a plan id".
    for (name, kind) in &entries {
        if *kind != EntryKind::Directory {
            return Err(MigrateError::UnsafeMetadata(TRANSACTIONS_DIR));
        }
        if !is_plan_id(name) {
            return Err(MigrateError::InvalidPlanId(name.clone()));
        }
    }
    Ok(Metadata {
        active: entries.into_iter().map(|(name, _)| name).collect(),
    })
}

/// `true` for a real directory, `false` when absent; anything else is unsafe metadata.
fn real_directory(root: &Root, path: &'static str) -> Result<bool, MigrateError> {
    match root.probe(&rel(path)) {
        Ok(None) => Ok(false),
        Ok(Some(probe)) if probe.kind == EntryKind::Directory => Ok(true),
        Ok(Some(_)) | Err(ReadError::Unsafe(_) | ReadError::NotRegular(_)) => {
            Err(MigrateError::UnsafeMetadata(path))
        }
        Err(ReadError::Changed) => Err(MigrateError::StateChanged),
        Err(_) => Err(MigrateError::UnsafeMetadata(path)),
    }
}

/// What a valid receipt says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReceiptSummary {
    /// `to_schema_version`.
    pub to: SchemaVersion,
}

/// Reads `receipts/<plan-id>.json` when it exists and checks it (contract 01 §9.5 precondition
/// 4): a regular file with valid JSON whose `schema` is the receipt schema, `plan_id` equals
/// the id, both versions are valid, `release_version` is a string and `operations` an array.
pub(crate) fn read_receipt(
    root: &Root,
    plan_id: &str,
) -> Result<Option<ReceiptSummary>, MigrateError> {
    let path = rel(&format!("{RECEIPTS_DIR}/{plan_id}.json"));
    let invalid = || MigrateError::InvalidReceipt(plan_id.to_owned());
    let mut ledger = Ledger::new(Limits {
        files: 1,
        bytes: RECEIPT_CAP,
        entries: 0,
    });
    let file = match root.read_text(&path, RECEIPT_CAP, &mut ledger) {
        Ok(None) => return Ok(None),
        Ok(Some(file)) => file,
        Err(ReadError::Unsafe(UnsafeKind::NotDirectory)) => return Ok(None),
        Err(_) => return Err(invalid()),
    };
    check_receipt(&file.text, plan_id)
        .map(Some)
        .ok_or_else(invalid)
}

/// The checks of [`read_receipt`] on the receipt's text: `None` when it is not a valid receipt
/// of `plan_id`.
pub fn check_receipt(text: &str, plan_id: &str) -> Option<ReceiptSummary> {
    let Ok(Value::Object(receipt)) = serde_read::<Value>(text, LoneSurrogates::Refuse) else {
        return None;
    };
    let text = |key: &str| receipt.get(key).and_then(Value::as_str);
    let version = |key: &str| text(key).and_then(SchemaVersion::parse);
    let valid = text("schema") == Some(RECEIPT_SCHEMA)
        && text("plan_id") == Some(plan_id)
        && version("from_schema_version").is_some()
        && text("release_version").is_some()
        && receipt.get("operations").is_some_and(Value::is_array);
    version("to_schema_version")
        .filter(|_| valid)
        .map(|to| ReceiptSummary { to })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder() -> tempfile::TempDir {
        let temp = tempfile::tempdir().unwrap();
        std::fs::write(
            temp.path().join("aios.json"),
            "{\"schema_version\":\"1.1.0\"}\n",
        )
        .unwrap();
        temp
    }

    fn check(temp: &tempfile::TempDir) -> Result<Metadata, MigrateError> {
        check_ownership(&Root::open(temp.path()).unwrap())
    }

    #[test]
    fn absent_or_empty_metadata_is_fine() {
        let temp = folder();
        assert_eq!(check(&temp).unwrap().active, Vec::<String>::new());
        std::fs::create_dir_all(temp.path().join(MIGRATIONS_DIR)).unwrap();
        assert_eq!(check(&temp).unwrap().active, Vec::<String>::new());
    }

    #[test]
    fn unowned_and_unrecognised_markers_refuse() {
        let temp = folder();
        std::fs::create_dir_all(temp.path().join(MIGRATIONS_DIR).join("x")).unwrap();
        assert_eq!(check(&temp).unwrap_err().code(), "UNOWNED_METADATA");
        std::fs::create_dir_all(temp.path().join(MIGRATIONS_DIR).join("y")).unwrap();
        assert_eq!(check(&temp).unwrap_err().code(), "UNOWNED_METADATA");
        std::fs::write(temp.path().join(OWNER_PATH), b"{}\n").unwrap();
        assert!(matches!(check(&temp), Err(MigrateError::UnrecognizedOwner)));
    }

    #[test]
    fn transaction_entries_are_checked_in_spec_order() {
        let temp = folder();
        std::fs::create_dir_all(temp.path().join(TRANSACTIONS_DIR)).unwrap();
        std::fs::write(temp.path().join(OWNER_PATH), OWNER_MARKER).unwrap();
        let id = "migrate-1_1_0-to-1_2_0-0123456789abcdef";
        std::fs::create_dir(temp.path().join(TRANSACTIONS_DIR).join(id)).unwrap();
        assert_eq!(check(&temp).unwrap().active, [id]);
        std::fs::create_dir(temp.path().join(TRANSACTIONS_DIR).join("nope")).unwrap();
        assert!(matches!(check(&temp), Err(MigrateError::InvalidPlanId(name)) if name == "nope"));
        std::fs::write(temp.path().join(TRANSACTIONS_DIR).join("a-file"), b"").unwrap();
        assert_eq!(check(&temp).unwrap_err().code(), "UNSAFE_METADATA");
    }

    #[test]
    fn seventeen_transactions_are_too_many() {
        let temp = folder();
        std::fs::create_dir_all(temp.path().join(TRANSACTIONS_DIR)).unwrap();
        std::fs::write(temp.path().join(OWNER_PATH), OWNER_MARKER).unwrap();
        for n in 0..17 {
            let id = format!("migrate-1_1_0-to-1_2_0-{n:016x}");
            std::fs::create_dir(temp.path().join(TRANSACTIONS_DIR).join(id)).unwrap();
        }
        assert!(matches!(
            check(&temp),
            Err(MigrateError::TooManyTransactions)
        ));
    }

    #[cfg(unix)]
    #[test]
    fn linked_metadata_is_unsafe() {
        let temp = folder();
        let outside = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(outside.path(), temp.path().join(DOTAIOS_DIR)).unwrap();
        assert!(matches!(
            check(&temp),
            Err(MigrateError::UnsafeMetadata(DOTAIOS_DIR))
        ));
    }
}
