//! Read-only migration inspection (contract 01 §8): the folder's schema compatibility, the state of
//! `.dotaios/migrations/`, and the `operational.migration` object of §8.2.
//!
//! It never builds a plan and never writes. Every read goes through the contained reader with
//! the bounds of §5.2. An inspection failure is a value ([`Inspection::Failed`]), never an error
//! of the surrounding request: the working context and `doctor` only change what they report.

use dotaios_contained::{EntryKind, Ledger, Limits, ReadError, RelPath, Root, UnsafeKind};

use crate::folder::config::{
    AiosConfig, CONFIG_CAP, CONFIG_PATH, SUPPORTED_SCHEMA_VERSION, SchemaSupport, SchemaVersion,
    parse_config_object, schema_support,
};
use crate::text::utf16_cmp;

/// `.dotaios/migrations/owner.json`: exactly these 40 bytes (contract 01 §8.3).
pub const OWNER_MARKER: &[u8] = b"{\n  \"schema\": \"dotaios.migrations.v1\"\n}\n";

/// The size bound of `owner.json`.
pub const OWNER_CAP: u64 = 4096;

/// The entry bound of `.dotaios/migrations/transactions/`.
pub const MAX_TRANSACTIONS: u64 = 16;

const MIGRATIONS_DIR: &str = ".dotaios/migrations";
const OWNER_PATH: &str = ".dotaios/migrations/owner.json";
const TRANSACTIONS_DIR: &str = ".dotaios/migrations/transactions";

/// Every failure code of contract 01 §8.1, plus the `INSPECTION_FAILED` fallback.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum InspectionCode {
    /// `aios.json` is larger than 1 MiB.
    ConfigTooLarge,
    /// `aios.json` changed while it was read.
    ConfigChanged,
    /// `aios.json` is a link or a special file.
    UnsafeFile,
    /// `aios.json` is absent.
    MissingFile,
    /// `aios.json` is not strict UTF-8.
    InvalidConfigEncoding,
    /// `aios.json` is not JSON, or not a JSON object.
    InvalidConfig,
    /// `schema_version` is not a string in `x.y.z` form.
    InvalidSchema,
    /// The folder schema is newer than this build.
    FutureSchema,
    /// The folder schema is older and no registered migration starts from it.
    UnsupportedSchema,
    /// `.dotaios/migrations` or its owned files are not contained real files/directories.
    UnsafeMetadata,
    /// `.dotaios/migrations` has entries but no ownership marker, or a wrong marker.
    UnownedMetadata,
    /// Migration state changed during inspection, or is inconsistent (no `transactions/`, a
    /// transaction that is not a directory).
    StateChanged,
    /// More than 16 entries in `transactions/`.
    TooManyTransactions,
    /// A `transactions/` entry name is not a plan id.
    InvalidPlanId,
    /// Any other failure (an operating-system error).
    InspectionFailed,
}

impl InspectionCode {
    /// The upper-snake internal code, e.g. `CONFIG_TOO_LARGE`.
    pub fn as_str(self) -> &'static str {
        match self {
            InspectionCode::ConfigTooLarge => "CONFIG_TOO_LARGE",
            InspectionCode::ConfigChanged => "CONFIG_CHANGED",
            InspectionCode::UnsafeFile => "UNSAFE_FILE",
            InspectionCode::MissingFile => "MISSING_FILE",
            InspectionCode::InvalidConfigEncoding => "INVALID_CONFIG_ENCODING",
            InspectionCode::InvalidConfig => "INVALID_CONFIG",
            InspectionCode::InvalidSchema => "INVALID_SCHEMA",
            InspectionCode::FutureSchema => "FUTURE_SCHEMA",
            InspectionCode::UnsupportedSchema => "UNSUPPORTED_SCHEMA",
            InspectionCode::UnsafeMetadata => "UNSAFE_METADATA",
            InspectionCode::UnownedMetadata => "UNOWNED_METADATA",
            InspectionCode::StateChanged => "STATE_CHANGED",
            InspectionCode::TooManyTransactions => "TOO_MANY_TRANSACTIONS",
            InspectionCode::InvalidPlanId => "INVALID_PLAN_ID",
            InspectionCode::InspectionFailed => "INSPECTION_FAILED",
        }
    }
}

impl std::fmt::Display for InspectionCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Reads `aios.json` through the contained reader (at most 1 MiB) and parses it as a JSON
/// object, mapping every failure to its migration-inspection code (contract 01 §8.1 step 1):
/// `CONFIG_TOO_LARGE`, `CONFIG_CHANGED`, `UNSAFE_FILE` (a link or special file),
/// `MISSING_FILE`, `INVALID_CONFIG_ENCODING`, `INVALID_CONFIG` (not JSON, or not an object).
/// Other operating-system failures are `INSPECTION_FAILED`.
pub fn read_config(root: &Root) -> Result<AiosConfig, InspectionCode> {
    // Inspection and doctor have no request ledger of their own; this one only admits the file.
    let mut ledger = Ledger::new(Limits {
        files: 1,
        bytes: CONFIG_CAP,
        entries: 0,
    });
    let path = RelPath::new(CONFIG_PATH).map_err(|_| InspectionCode::InspectionFailed)?;
    let bytes = match root.read_bytes(&path, CONFIG_CAP, &mut ledger) {
        Ok(Some(file)) => file.bytes,
        Ok(None) => return Err(InspectionCode::MissingFile),
        Err(error) => return Err(config_read_code(error)),
    };
    let text = String::from_utf8(bytes).map_err(|_| InspectionCode::InvalidConfigEncoding)?;
    let object = parse_config_object(&text).ok_or(InspectionCode::InvalidConfig)?;
    Ok(AiosConfig { text, object })
}

fn config_read_code(error: ReadError) -> InspectionCode {
    match error {
        ReadError::TooLarge => InspectionCode::ConfigTooLarge,
        ReadError::Changed => InspectionCode::ConfigChanged,
        ReadError::Unsafe(UnsafeKind::Symlink | UnsafeKind::Escape | UnsafeKind::NotDirectory)
        | ReadError::NotRegular(_) => InspectionCode::UnsafeFile,
        ReadError::InvalidUtf8 => InspectionCode::InvalidConfigEncoding,
        ReadError::Budget(_) | ReadError::DirectoryLimit | ReadError::Io(_) => {
            InspectionCode::InspectionFailed
        }
    }
}

/// The compatibility status of a successfully inspected folder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MigrationStatus {
    /// At the supported schema, no transaction.
    Current,
    /// Older than the supported schema, with a registered migration, no transaction.
    SchemaOutdated,
    /// At least one transaction directory exists (takes precedence over the schema).
    TransactionPresent,
}

impl MigrationStatus {
    /// The wire spelling: `current`, `schema_outdated` or `transaction_present`.
    pub fn as_str(self) -> &'static str {
        match self {
            MigrationStatus::Current => "current",
            MigrationStatus::SchemaOutdated => "schema_outdated",
            MigrationStatus::TransactionPresent => "transaction_present",
        }
    }
}

/// A successful inspection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MigrationState {
    /// The status.
    pub status: MigrationStatus,
    /// The folder's `schema_version`.
    pub folder_schema_version: SchemaVersion,
    /// The interrupted plan ids, in UTF-16 order. `doctor` and `migrate` name them; the
    /// working context never shows them.
    pub transaction_ids: Vec<String>,
}

/// The result of [`inspect_migrations`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Inspection {
    /// The folder was inspected.
    Inspected(MigrationState),
    /// Inspection failed with this code (`{status: "inspection_failed", code}`).
    Failed(InspectionCode),
}

/// Inspects the folder's migration state (contract 01 §8.1): reads `aios.json`, checks support,
/// lists transactions, then repeats the reads and requires the same `aios.json` bytes and the
/// same transaction ids.
pub fn inspect_migrations(root: &Root) -> Inspection {
    match inspect(root) {
        Ok(state) => Inspection::Inspected(state),
        Err(code) => Inspection::Failed(code),
    }
}

fn inspect(root: &Root) -> Result<MigrationState, InspectionCode> {
    let (config_text, version) = read_version(root)?;
    let support = schema_support(&version);
    match support {
        SchemaSupport::Future => return Err(InspectionCode::FutureSchema),
        SchemaSupport::Unsupported => return Err(InspectionCode::UnsupportedSchema),
        SchemaSupport::Current | SchemaSupport::Outdated => {}
    }
    let first = Observation {
        config_text,
        transaction_ids: list_transactions(root)?,
    };
    let second = Observation {
        config_text: read_version(root)?.0,
        transaction_ids: list_transactions(root)?,
    };
    confirm(&first, &second)?;
    let status = if !first.transaction_ids.is_empty() {
        MigrationStatus::TransactionPresent
    } else if support == SchemaSupport::Current {
        MigrationStatus::Current
    } else {
        MigrationStatus::SchemaOutdated
    };
    Ok(MigrationState {
        status,
        folder_schema_version: version,
        transaction_ids: first.transaction_ids,
    })
}

/// Step 1: `aios.json` and its schema version.
fn read_version(root: &Root) -> Result<(String, SchemaVersion), InspectionCode> {
    let config = read_config(root)?;
    let version = SchemaVersion::of_config(&config.object).ok_or(InspectionCode::InvalidSchema)?;
    Ok((config.text, version))
}

/// What the confirming pass compares: steps 1 and 3.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Observation {
    config_text: String,
    transaction_ids: Vec<String>,
}

/// Step 4: the confirming pass must see the same `aios.json` bytes and the same ids. A
/// separate function so the comparison is tested directly: provoking a change between the two
/// passes from a test would need a race.
fn confirm(first: &Observation, second: &Observation) -> Result<(), InspectionCode> {
    if first.config_text != second.config_text || first.transaction_ids != second.transaction_ids {
        return Err(InspectionCode::StateChanged);
    }
    Ok(())
}

fn rel(path: &str) -> RelPath {
    RelPath::new(path).expect("constant relative path")
}

/// Step 3: the interrupted transaction ids, sorted in UTF-16 order.
fn list_transactions(root: &Root) -> Result<Vec<String>, InspectionCode> {
    // Bounds come from §5.2; the ledger only has to admit them.
    let mut ledger = Ledger::new(Limits {
        files: 1,
        bytes: OWNER_CAP,
        entries: MAX_TRANSACTIONS + 1,
    });
    let migrations = rel(MIGRATIONS_DIR);
    match root.probe(&migrations) {
        Ok(None) => return Ok(Vec::new()),
        Ok(Some(probe)) if probe.kind == EntryKind::Directory => {}
        Ok(Some(_)) => return Err(InspectionCode::UnsafeMetadata),
        Err(error) => return Err(metadata_code(error)),
    }

    let owner = match root.read_text(&rel(OWNER_PATH), OWNER_CAP, &mut ledger) {
        Ok(owner) => owner,
        Err(error) => return Err(metadata_code(error)),
    };
    let Some(owner) = owner else {
        // Without a marker the directory must be empty. Only emptiness is tested, with a
        // one-entry bound: a second entry trips the bound, which surfaces as UNSAFE_METADATA.
        return match root.list_dir(Some(&migrations), 1, &mut ledger) {
            Ok(Some(listing)) if listing.entries.is_empty() => Ok(Vec::new()),
            Ok(Some(_)) => Err(InspectionCode::UnownedMetadata),
            Ok(None) => Err(InspectionCode::StateChanged),
            Err(error) => Err(metadata_code(error)),
        };
    };
    if owner.text.as_bytes() != OWNER_MARKER {
        return Err(InspectionCode::UnownedMetadata);
    }

    let listing = match root.list_dir(Some(&rel(TRANSACTIONS_DIR)), MAX_TRANSACTIONS, &mut ledger) {
        Ok(Some(listing)) => listing,
        Ok(None) => return Err(InspectionCode::StateChanged),
        Err(ReadError::DirectoryLimit) => return Err(InspectionCode::TooManyTransactions),
        Err(error) => return Err(metadata_code(error)),
    };
    let mut entries: Vec<(String, EntryKind)> = Vec::with_capacity(listing.entries.len());
    for entry in listing.entries {
        let name = entry
            .name
            .into_string()
            .map_err(|_| InspectionCode::InvalidPlanId)?;
        entries.push((name, entry.kind));
    }
    // Sorted first so that a folder with several faults always reports the same one.
    entries.sort_by(|a, b| utf16_cmp(&a.0, &b.0));
    for (name, kind) in &entries {
        if !is_plan_id(name) {
            return Err(InspectionCode::InvalidPlanId);
        }
        if *kind != EntryKind::Directory {
            return Err(InspectionCode::StateChanged);
        }
    }
    Ok(entries.into_iter().map(|(name, _)| name).collect())
}

/// Maps a reader failure on owned metadata: an observed change is `STATE_CHANGED`, an
/// operating-system error `INSPECTION_FAILED`, every containment problem `UNSAFE_METADATA`
/// (a link, a special or oversized file, a non-directory, invalid UTF-8, a listing bound).
fn metadata_code(error: ReadError) -> InspectionCode {
    match error {
        ReadError::Changed => InspectionCode::StateChanged,
        ReadError::Io(_) => InspectionCode::InspectionFailed,
        ReadError::Unsafe(_)
        | ReadError::NotRegular(_)
        | ReadError::TooLarge
        | ReadError::InvalidUtf8
        | ReadError::DirectoryLimit
        | ReadError::Budget(_) => InspectionCode::UnsafeMetadata,
    }
}

/// Whether `name` matches the plan-id pattern `^migrate-[0-9_]+-to-[0-9_]+-[a-f0-9]{16}$`
/// (contract 01 §8.4).
pub fn is_plan_id(name: &str) -> bool {
    let Some(rest) = name.strip_prefix("migrate-") else {
        return false;
    };
    let Some((versions, hash)) = rest.rsplit_once('-') else {
        return false;
    };
    let version_part =
        |part: &str| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit() || b == b'_');
    // `[0-9_]+` cannot contain `-`, so the one `-to-` separates the two versions.
    let Some((from, to)) = versions.split_once("-to-") else {
        return false;
    };
    version_part(from)
        && version_part(to)
        && hash.len() == 16
        && hash.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// `severity` of the operational object.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Severity {
    /// `current`.
    None,
    /// `schema_outdated`.
    Notice,
    /// `transaction_present` and `inspection_failed`.
    Warning,
}

impl Severity {
    /// The wire spelling: `none`, `notice` or `warning`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::None => "none",
            Severity::Notice => "notice",
            Severity::Warning => "warning",
        }
    }
}

/// `action` of the operational object: the command to suggest, always scoped to the configured
/// folder (`path_scope: "configured_aios"`), never naming a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MigrationAction {
    /// `dotaios migrate` or `dotaios doctor`.
    pub command: &'static str,
    /// Always `configured_aios`.
    pub path_scope: &'static str,
}

impl Inspection {
    /// The wire status: the state's status, or `inspection_failed`.
    pub fn status_str(&self) -> &'static str {
        match self {
            Inspection::Inspected(state) => state.status.as_str(),
            Inspection::Failed(_) => "inspection_failed",
        }
    }

    /// The severity of contract 01 §8.2.
    pub fn severity(&self) -> Severity {
        match self {
            Inspection::Inspected(state) => match state.status {
                MigrationStatus::Current => Severity::None,
                MigrationStatus::SchemaOutdated => Severity::Notice,
                MigrationStatus::TransactionPresent => Severity::Warning,
            },
            Inspection::Failed(_) => Severity::Warning,
        }
    }

    /// The action of contract 01 §8.2 (`None` only for `current`).
    pub fn action(&self) -> Option<MigrationAction> {
        let command = match self.severity() {
            Severity::None => return None,
            Severity::Notice => "dotaios migrate",
            Severity::Warning => "dotaios doctor",
        };
        Some(MigrationAction {
            command,
            path_scope: "configured_aios",
        })
    }

    /// `operational.migration` (contract 01 §8.2) with its exact key order: the result's own keys
    /// (`status`, then `folder_schema_version` and `supported_schema_version`, or `code`), then
    /// `severity` and `action`. It never contains a plan id or a path.
    pub fn operational_json(&self) -> serde_json::Value {
        let mut object = serde_json::Map::new();
        object.insert("status".into(), self.status_str().into());
        match self {
            Inspection::Inspected(state) => {
                object.insert(
                    "folder_schema_version".into(),
                    state.folder_schema_version.as_str().into(),
                );
                object.insert(
                    "supported_schema_version".into(),
                    SUPPORTED_SCHEMA_VERSION.into(),
                );
            }
            Inspection::Failed(code) => {
                object.insert("code".into(), code.as_str().into());
            }
        }
        object.insert("severity".into(), self.severity().as_str().into());
        let action = match self.action() {
            None => serde_json::Value::Null,
            Some(action) => serde_json::json!({
                "command": action.command,
                "path_scope": action.path_scope,
            }),
        };
        object.insert("action".into(), action);
        serde_json::Value::Object(object)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reader_failures_map_to_inspection_codes() {
        use dotaios_contained::{BudgetDimension, EntryKind};
        let cases = [
            (ReadError::TooLarge, InspectionCode::ConfigTooLarge),
            // The file changed between the reader's two observations: not provokable from a
            // filesystem test without a race, so the mapping is pinned here.
            (ReadError::Changed, InspectionCode::ConfigChanged),
            (
                ReadError::Unsafe(UnsafeKind::Symlink),
                InspectionCode::UnsafeFile,
            ),
            (
                ReadError::Unsafe(UnsafeKind::Escape),
                InspectionCode::UnsafeFile,
            ),
            (
                ReadError::NotRegular(EntryKind::Fifo),
                InspectionCode::UnsafeFile,
            ),
            (
                ReadError::NotRegular(EntryKind::Directory),
                InspectionCode::UnsafeFile,
            ),
            (
                ReadError::InvalidUtf8,
                InspectionCode::InvalidConfigEncoding,
            ),
            // An operating-system error (EACCES never reaches root in tests).
            (
                ReadError::Io(std::io::ErrorKind::PermissionDenied),
                InspectionCode::InspectionFailed,
            ),
            (
                ReadError::Budget(BudgetDimension::Bytes),
                InspectionCode::InspectionFailed,
            ),
        ];
        for (error, code) in cases {
            assert_eq!(config_read_code(error), code, "{error:?}");
        }
    }

    fn observation(text: &str, ids: &[&str]) -> Observation {
        Observation {
            config_text: text.to_owned(),
            transaction_ids: ids.iter().map(|s| (*s).to_owned()).collect(),
        }
    }

    #[test]
    fn confirm_step_requires_identical_bytes_and_ids() {
        let id = "migrate-1_1_0-to-1_2_0-0123456789abcdef";
        let base = observation("{\"schema_version\":\"1.2.0\"}", &[id]);
        assert_eq!(confirm(&base, &base.clone()), Ok(()));
        // Same parsed version, different bytes (a rewrite between the passes).
        let rewritten = observation("{\"schema_version\": \"1.2.0\"}", &[id]);
        assert_eq!(
            confirm(&base, &rewritten),
            Err(InspectionCode::StateChanged)
        );
        let cleared = observation("{\"schema_version\":\"1.2.0\"}", &[]);
        assert_eq!(confirm(&base, &cleared), Err(InspectionCode::StateChanged));
    }

    #[test]
    fn metadata_reader_failures_map_to_codes() {
        use dotaios_contained::{EntryKind, UnsafeKind};
        let cases = [
            (ReadError::Changed, InspectionCode::StateChanged),
            (
                ReadError::Io(std::io::ErrorKind::PermissionDenied),
                InspectionCode::InspectionFailed,
            ),
            (
                ReadError::Unsafe(UnsafeKind::Symlink),
                InspectionCode::UnsafeMetadata,
            ),
            (
                ReadError::Unsafe(UnsafeKind::NotDirectory),
                InspectionCode::UnsafeMetadata,
            ),
            (
                ReadError::NotRegular(EntryKind::Socket),
                InspectionCode::UnsafeMetadata,
            ),
            (ReadError::TooLarge, InspectionCode::UnsafeMetadata),
            (ReadError::InvalidUtf8, InspectionCode::UnsafeMetadata),
            (ReadError::DirectoryLimit, InspectionCode::UnsafeMetadata),
        ];
        for (error, code) in cases {
            assert_eq!(metadata_code(error), code, "{error:?}");
        }
    }

    #[test]
    fn plan_ids() {
        for ok in [
            "migrate-1_1_0-to-1_2_0-0123456789abcdef",
            "migrate-1_0_0-to-1_2_0-ffffffffffffffff",
            "migrate-_-to-9-0000000000000000",
        ] {
            assert!(is_plan_id(ok), "{ok}");
        }
        for bad in [
            "",
            "migrate-1_1_0-to-1_2_0-0123456789ABCDEF",
            "migrate-1_1_0-to-1_2_0-0123456789abcde",
            "migrate-1_1_0-to-1_2_0-0123456789abcdef0",
            "migrate-1.1.0-to-1_2_0-0123456789abcdef",
            "migrate--to-1_2_0-0123456789abcdef",
            "migrate-1_1_0-to--0123456789abcdef",
            "migrate-1_1_0-1_2_0-0123456789abcdef",
            "Migrate-1_1_0-to-1_2_0-0123456789abcdef",
            "migrate-1_1_0-to-1_2_0-to-1-0123456789abcdef",
            " migrate-1_1_0-to-1_2_0-0123456789abcdef",
        ] {
            assert!(!is_plan_id(bad), "{bad}");
        }
    }

    #[test]
    fn every_code_spelling() {
        use InspectionCode::*;
        let all = [
            (ConfigTooLarge, "CONFIG_TOO_LARGE"),
            (ConfigChanged, "CONFIG_CHANGED"),
            (UnsafeFile, "UNSAFE_FILE"),
            (MissingFile, "MISSING_FILE"),
            (InvalidConfigEncoding, "INVALID_CONFIG_ENCODING"),
            (InvalidConfig, "INVALID_CONFIG"),
            (InvalidSchema, "INVALID_SCHEMA"),
            (FutureSchema, "FUTURE_SCHEMA"),
            (UnsupportedSchema, "UNSUPPORTED_SCHEMA"),
            (UnsafeMetadata, "UNSAFE_METADATA"),
            (UnownedMetadata, "UNOWNED_METADATA"),
            (StateChanged, "STATE_CHANGED"),
            (TooManyTransactions, "TOO_MANY_TRANSACTIONS"),
            (InvalidPlanId, "INVALID_PLAN_ID"),
            (InspectionFailed, "INSPECTION_FAILED"),
        ];
        for (code, text) in all {
            assert_eq!(code.as_str(), text);
            assert_eq!(code.to_string(), text);
            // Every code satisfies the §8.1 step 6 pattern, so none is ever replaced.
            assert!(text.len() >= 2 && text.len() <= 64);
            assert!(text.starts_with(|c: char| c.is_ascii_uppercase()));
            assert!(
                text.bytes()
                    .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
            );
        }
    }

    #[test]
    fn operational_objects() {
        let state = |status| {
            Inspection::Inspected(MigrationState {
                status,
                folder_schema_version: SchemaVersion::parse(
                    if status == MigrationStatus::SchemaOutdated {
                        "1.1.0"
                    } else {
                        "1.2.0"
                    },
                )
                .unwrap(),
                transaction_ids: vec!["migrate-1_1_0-to-1_2_0-0123456789abcdef".into()],
            })
        };
        let compact =
            |inspection: &Inspection| crate::text::to_json_compact(&inspection.operational_json());
        assert_eq!(
            compact(&state(MigrationStatus::Current)),
            r#"{"status":"current","folder_schema_version":"1.2.0","supported_schema_version":"1.2.0","severity":"none","action":null}"#
        );
        assert_eq!(
            compact(&state(MigrationStatus::SchemaOutdated)),
            r#"{"status":"schema_outdated","folder_schema_version":"1.1.0","supported_schema_version":"1.2.0","severity":"notice","action":{"command":"dotaios migrate","path_scope":"configured_aios"}}"#
        );
        let present = compact(&state(MigrationStatus::TransactionPresent));
        assert_eq!(
            present,
            r#"{"status":"transaction_present","folder_schema_version":"1.2.0","supported_schema_version":"1.2.0","severity":"warning","action":{"command":"dotaios doctor","path_scope":"configured_aios"}}"#
        );
        assert!(
            !present.contains("migrate-1_1_0"),
            "the plan id never leaves core in this object"
        );
        assert_eq!(
            compact(&Inspection::Failed(InspectionCode::InvalidSchema)),
            r#"{"status":"inspection_failed","code":"INVALID_SCHEMA","severity":"warning","action":{"command":"dotaios doctor","path_scope":"configured_aios"}}"#
        );
    }

    #[test]
    fn owner_marker_is_the_40_spec_bytes() {
        let expected: [u8; 40] = [
            0x7B, 0x0A, 0x20, 0x20, 0x22, 0x73, 0x63, 0x68, 0x65, 0x6D, 0x61, 0x22, 0x3A, 0x20,
            0x22, 0x64, 0x6F, 0x74, 0x61, 0x69, 0x6F, 0x73, 0x2E, 0x6D, 0x69, 0x67, 0x72, 0x61,
            0x74, 0x69, 0x6F, 0x6E, 0x73, 0x2E, 0x76, 0x31, 0x22, 0x0A, 0x7D, 0x0A,
        ];
        assert_eq!(OWNER_MARKER, expected);
    }
}
