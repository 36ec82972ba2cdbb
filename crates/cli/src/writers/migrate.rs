//! `dotaios migrate`: the only writer of `aios.json` and `.gitignore` (contract 01 §9).
//!
//! Three operations, each returning plain data that `commands::migrate` renders:
//! - [`preview`] reads the folder and computes the plan (`dotaios_core::folder::plan`); it
//!   never writes.
//! - [`apply()`] recomputes the plan, requires the id the user confirmed, and executes it through
//!   a write-ahead journal under `.dotaios/migrations/transactions/<plan-id>/` ([`mod@apply`]
//!   module), committing `aios.json` last and leaving a receipt.
//! - [`recover()`] rolls an interrupted transaction back, never forward ([`mod@recover`]
//!   module).
//!
//! How it writes: every write is relative to one directory handle of the root
//! ([`crate::writers::atomic::Dir`], extended by [`fsops`] with in-place exclusive creation,
//! renames and links between handles, and removal), with `O_NOFOLLOW`, never through a
//! re-resolved path. Every read goes through `dotaios-contained` on a `Root` that is checked
//! to be the same directory as the write handle. Each durable step ends with an `fsync` of the
//! file and of the directory that gained or lost an entry, and then passes a test-only
//! [`failpoint`].
//!
//! What it must never do: touch anything outside `aios.json`, `.gitignore` and `.dotaios/`
//! (the protected shelves are only walked, read-only, for the receipt's inventory); follow a
//! link below the root; replace a file whose bytes or mode changed since the plan was made;
//! write anything before every precondition has passed; put a machine path in a message.

pub(crate) mod apply;
pub(crate) mod failpoint;
pub(crate) mod fsops;
pub(crate) mod inventory;
pub(crate) mod journal;
pub(crate) mod recover;
pub(crate) mod state;

use dotaios_core::folder::config::{SUPPORTED_SCHEMA_VERSION, SchemaVersion};
use dotaios_core::folder::inspection::InspectionCode;
use dotaios_core::folder::plan::{IgnoreProblem, Plan, PlanError, plan_for_root};

use self::state::{Folder, check_ownership, read_supported_version};

pub(crate) use self::apply::{ApplyOutcome, apply};
pub(crate) use self::recover::{RecoverOutcome, recover};

/// `.dotaios/migrations/receipts/<plan-id>.json`, for messages.
pub(crate) fn receipt_rel_path(plan_id: &str) -> String {
    format!(".dotaios/migrations/receipts/{plan_id}.json")
}

/// What the preview found.
#[derive(Debug)]
pub(crate) enum PreviewOutcome {
    /// Interrupted transactions block every plan (exit 1).
    Blocked(Vec<String>),
    /// The folder is at the supported schema.
    Current,
    /// The plan the user can apply.
    Plan(Plan),
}

/// Computes the preview of contract 01 §9.4. Reads only.
pub(crate) fn preview(folder: &std::path::Path) -> Result<PreviewOutcome, MigrateError> {
    let folder = Folder::open(folder)?;
    read_supported_version(&folder.root)?;
    let metadata = check_ownership(&folder.root)?;
    if !metadata.active.is_empty() {
        return Ok(PreviewOutcome::Blocked(metadata.active));
    }
    match plan_for_root(&folder.root) {
        Ok(None) => Ok(PreviewOutcome::Current),
        Ok(Some(plan)) => Ok(PreviewOutcome::Plan(plan)),
        Err(error) => Err(MigrateError::Plan(error)),
    }
}

/// Every way `migrate` can refuse or fail. The `Display` text is the one line the user sees:
/// folder-relative paths only, never a machine path.
#[derive(Debug, thiserror::Error)]
pub(crate) enum MigrateError {
    /// `--apply` / `--recover` id, or a `transactions/` entry, that is not a plan id.
    #[error("Invalid migration plan id: {0}")]
    InvalidPlanId(String),
    /// `aios.json` could not be read or is not an object with a valid schema version.
    #[error("{}", config_message(*.0))]
    Config(InspectionCode),
    /// The folder's schema is newer than this build.
    #[error(
        "This folder uses schema {0}, which is newer than this build supports ({SUPPORTED_SCHEMA_VERSION}). Install a DotAIOS release that supports this folder schema; nothing was changed."
    )]
    FutureSchema(SchemaVersion),
    /// The folder's schema is older and no registered migration starts from it.
    #[error(
        "Schema {0} has no registered migration to {SUPPORTED_SCHEMA_VERSION}; this build will not write it. Nothing was changed."
    )]
    UnsupportedSchema(SchemaVersion),
    /// The plan could not be computed from the folder's bytes.
    #[error("{}", plan_message(.0))]
    Plan(PlanError),
    /// Owned metadata is a link, a file, or otherwise not a real directory / regular file.
    #[error("{0} is not a real directory or regular file owned by DotAIOS; refusing to use it.")]
    UnsafeMetadata(&'static str),
    /// `.dotaios/migrations` has entries but no ownership marker.
    #[error(".dotaios/migrations has no DotAIOS ownership marker. Refusing to use it.")]
    UnownedMetadata,
    /// `.dotaios/migrations/owner.json` is not the exact marker.
    #[error(
        ".dotaios/migrations/owner.json is not a recognized DotAIOS ownership marker. Refusing to use it."
    )]
    UnrecognizedOwner,
    /// More than 16 entries in `transactions/`.
    #[error(
        "More than 16 entries exist in .dotaios/migrations/transactions; refusing to continue. Inspect that directory by hand."
    )]
    TooManyTransactions,
    /// An interrupted transaction must be recovered first.
    #[error(
        "Interrupted migration state exists for {}. Run dotaios migrate --recover before applying another plan.",
        .0.join(", ")
    )]
    RecoveryRequired(Vec<String>),
    /// `--apply` on a current folder without a receipt for that id.
    #[error("Schema 1.2.0 is already current and there is no receipt for plan {0}.")]
    NoMigrationNeeded(String),
    /// The recomputed plan has another id.
    #[error(
        "Plan {0} no longer matches the folder. Preview again; no migration files were changed."
    )]
    PlanChanged(String),
    /// `receipts/<id>.json` exists but is not a valid receipt for this id.
    #[error(
        "Receipt {0} exists but is not a valid DotAIOS migration receipt; refusing to continue."
    )]
    InvalidReceipt(String),
    /// A receipt says the plan committed, but `aios.json` is older than its target.
    #[error(
        "Receipt {id} exists, but aios.json reports older schema {version}. Run recovery before trying again."
    )]
    ReceiptStateMismatch {
        /// The plan id.
        id: String,
        /// The folder's schema.
        version: String,
    },
    /// A live file changed after the plan was made (apply).
    #[error(
        "{0} changed after preview. Refusing to overwrite it; recover the transaction and preview again."
    )]
    ConcurrentEdit(String),
    /// A live file changed after the interrupted migration (recovery).
    #[error("{0} changed after the interrupted migration. Recovery will not overwrite it.")]
    RecoveryConcurrentEdit(String),
    /// A signal arrived before the transaction directory existed.
    #[error("Migration was cancelled before any transaction files were written.")]
    ApplyAborted,
    /// A signal arrived after the transaction directory existed.
    #[error(
        "Migration {0} was interrupted after its journal was prepared. Run recovery before applying again."
    )]
    ApplyInterrupted(String),
    /// `--recover <id>` names no active transaction.
    #[error("No interrupted transaction found for {0}.")]
    TransactionNotFound(String),
    /// `--recover` without an id, and several transactions exist.
    #[error(
        "More than one interrupted migration exists. Pass --recover <plan-id>: {}",
        .0.join(", ")
    )]
    AmbiguousRecovery(Vec<String>),
    /// The journal is missing or invalid and the transaction holds other files.
    #[error(
        "Interrupted transaction has no readable journal; refusing to remove its files automatically."
    )]
    NoReadableJournal,
    /// The journal is readable but not a valid journal for this transaction.
    #[error(
        "Interrupted transaction {0} has an invalid journal; refusing to change anything automatically."
    )]
    InvalidJournal(String),
    /// A backup's bytes do not hash to the journal's `before_sha256`.
    #[error("The backup of {0} does not match the journal; refusing to restore it.")]
    InvalidBackup(String),
    /// `recovery/<path>` exists and is not exactly the file recovery would write.
    #[error("Unexpected recovery residue for {0}; refusing to use it.")]
    UnsafeRecoveryResidue(String),
    /// A directory the operation must write is not writable (read-only folder or filesystem).
    #[error("{0} is not writable; nothing was changed.")]
    ReadOnly(&'static str),
    /// The folder changed under the command in a way it cannot reason about (the root was
    /// replaced between two opens, `aios.json` vanished).
    #[error("The AIOS folder changed while migrate was running; nothing was changed. Try again.")]
    StateChanged,
    /// An operating-system failure before any transaction file existed.
    #[error("Could not prepare {what} ({reason}); nothing was changed.")]
    PrepareFailed {
        /// Folder-relative name of what failed.
        what: String,
        /// The operating system's short reason.
        reason: String,
    },
    /// An operating-system failure inside a transaction.
    #[error(
        "Migration {id} stopped: could not write {what} ({reason}). Run dotaios migrate --recover to roll it back."
    )]
    TransactionFailed {
        /// The plan id.
        id: String,
        /// Folder-relative name of what failed.
        what: String,
        /// The operating system's short reason.
        reason: String,
    },
    /// An operating-system failure during recovery; recovery can be run again.
    #[error("Recovery of {id} stopped: could not write {what} ({reason}). Run it again.")]
    RecoveryFailed {
        /// The plan id.
        id: String,
        /// Folder-relative name of what failed.
        what: String,
        /// The operating system's short reason.
        reason: String,
    },
}

/// A short, path-free reason for an operating-system error.
pub(crate) fn reason(error: &std::io::Error) -> String {
    let text = error.kind().to_string();
    if text.is_empty() {
        "I/O error".to_owned()
    } else {
        text
    }
}

fn config_message(code: InspectionCode) -> String {
    let why = match code {
        InspectionCode::MissingFile => "it is missing",
        InspectionCode::ConfigTooLarge => "it is larger than 1 MiB",
        InspectionCode::ConfigChanged => "it changed while it was read; try again",
        InspectionCode::UnsafeFile => "it is a link or a special file, not a regular file",
        InspectionCode::InvalidConfigEncoding => "it is not valid UTF-8",
        InspectionCode::InvalidConfig => "it is not a valid JSON object",
        InspectionCode::InvalidSchema => "its schema_version is not a version string such as 1.2.0",
        InspectionCode::FutureSchema => "its schema is newer than this build supports",
        InspectionCode::UnsupportedSchema => "no registered migration starts from its schema",
        _ => "it could not be read",
    };
    format!("Cannot migrate aios.json: {why}.")
}

fn plan_message(error: &PlanError) -> String {
    match error {
        PlanError::Config(code) => config_message(*code),
        PlanError::IgnoreFile(problem) => {
            let why = match problem {
                IgnoreProblem::Link => "it is a symbolic link",
                IgnoreProblem::NotRegular => "it is not a regular file",
                IgnoreProblem::TooLarge => "it is larger than 1 MiB",
                IgnoreProblem::InvalidUtf8 => "it is not valid UTF-8",
                IgnoreProblem::Changed => "it changed while it was read; try again",
                IgnoreProblem::Unreadable => "it could not be read",
            };
            format!("Cannot migrate .gitignore: {why}. Nothing was changed.")
        }
        PlanError::SchemaMismatch { expected, found } => format!(
            "Expected schema {expected}, found {}.",
            found.as_deref().unwrap_or("none")
        ),
        PlanError::UnsafeConfigLayout => "aios.json does not contain exactly one plain-text schema_version field; refusing to rewrite its formatting.".to_owned(),
        PlanError::InvalidRegistry => {
            "The migration registry names a file migrate may not write; refusing to continue."
                .to_owned()
        }
        PlanError::ProtectedShelf => {
            "The migration registry names a protected shelf; refusing to continue.".to_owned()
        }
    }
}

#[cfg(test)]
impl MigrateError {
    /// The internal upper-snake code (tests only; users see the message).
    pub(crate) fn code(&self) -> &'static str {
        match self {
            MigrateError::InvalidPlanId(_) => "INVALID_PLAN_ID",
            MigrateError::Config(code) => code.as_str(),
            MigrateError::FutureSchema(_) => "FUTURE_SCHEMA",
            MigrateError::UnsupportedSchema(_) => "UNSUPPORTED_SCHEMA",
            MigrateError::Plan(error) => error.code(),
            MigrateError::UnsafeMetadata(_) => "UNSAFE_METADATA",
            MigrateError::UnownedMetadata | MigrateError::UnrecognizedOwner => "UNOWNED_METADATA",
            MigrateError::TooManyTransactions => "TOO_MANY_TRANSACTIONS",
            MigrateError::RecoveryRequired(_) => "RECOVERY_REQUIRED",
            MigrateError::NoMigrationNeeded(_) => "NO_MIGRATION_NEEDED",
            MigrateError::PlanChanged(_) => "PLAN_CHANGED",
            MigrateError::InvalidReceipt(_) => "INVALID_RECEIPT",
            MigrateError::ReceiptStateMismatch { .. } => "RECEIPT_STATE_MISMATCH",
            MigrateError::ConcurrentEdit(_) | MigrateError::RecoveryConcurrentEdit(_) => {
                "CONCURRENT_EDIT"
            }
            MigrateError::ApplyAborted => "APPLY_ABORTED",
            MigrateError::ApplyInterrupted(_) => "APPLY_INTERRUPTED",
            MigrateError::TransactionNotFound(_) => "TRANSACTION_NOT_FOUND",
            MigrateError::AmbiguousRecovery(_) => "AMBIGUOUS_RECOVERY",
            MigrateError::NoReadableJournal | MigrateError::InvalidJournal(_) => "INVALID_JOURNAL",
            MigrateError::InvalidBackup(_) => "INVALID_BACKUP",
            MigrateError::UnsafeRecoveryResidue(_) => "UNSAFE_RECOVERY_RESIDUE",
            MigrateError::ReadOnly(_) => "READ_ONLY_FOLDER",
            MigrateError::StateChanged => "STATE_CHANGED",
            MigrateError::PrepareFailed { .. } => "APPLY_FAILED",
            MigrateError::TransactionFailed { .. } => "APPLY_FAILED",
            MigrateError::RecoveryFailed { .. } => "RECOVERY_FAILED",
        }
    }
}
