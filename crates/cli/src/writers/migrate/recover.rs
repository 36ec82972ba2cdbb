//! `dotaios migrate --recover [plan-id]` (contract 01 §9.7): roll an interrupted transaction back,
//! never forward, so that the folder ends either entirely old or (when a receipt proves the
//! commit) entirely new.
//!
//! Every step is idempotent: a recovery that is itself interrupted can be run again. A live
//! file is restored only when it holds exactly the bytes (and mode) the transaction put there;
//! anything else is someone's edit and is refused. Restored bytes are first written, complete,
//! to `T/recovery/<path>` (through a private name and a hard link, so that name never holds a
//! partial file), verified, and then renamed over the live path.

use std::io;
use std::path::Path;

use dotaios_contained::{EntryKind, Ledger, Limits, RelPath};
use dotaios_core::folder::config::{CONFIG_CAP, SchemaVersion};
use dotaios_core::folder::inspection::is_plan_id;
use dotaios_core::folder::plan::{Action, sha256_hex};
use dotaios_core::text::{LoneSurrogates, serde_read};

use super::apply::remove_transaction;
use super::failpoint::reached;
use super::fsops::{self, Owner};
use super::journal::{Journal, Operation, Status};
use super::state::{
    DOTAIOS_DIR, Folder, MIGRATIONS_DIR, RECEIPTS_DIR, TRANSACTIONS_DIR, check_ownership,
    read_receipt, read_supported_version, rel,
};
use super::{MigrateError, reason};
use crate::writers::atomic::Dir;

/// What `--recover` did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum RecoverOutcome {
    /// No transaction exists.
    NothingToRecover {
        /// The folder's schema.
        version: String,
    },
    /// The plan had committed (a receipt exists); leftover transaction files were cleared.
    AlreadyCommitted(String),
    /// The transaction was rolled back (or had not touched the folder yet) and removed.
    Recovered {
        /// The plan id.
        id: String,
        /// The folder's schema now.
        version: String,
    },
}

/// The size bound of journal, backup and live-file reads during recovery.
const FILE_CAP: u64 = CONFIG_CAP;

/// Recovers the transaction `id`, or the only one when `id` is `None`.
pub(crate) fn recover(path: &Path, id: Option<&str>) -> Result<RecoverOutcome, MigrateError> {
    if let Some(id) = id
        && !is_plan_id(id)
    {
        return Err(MigrateError::InvalidPlanId(id.to_owned()));
    }
    let folder = Folder::open(path)?;
    let version = read_supported_version(&folder.root)?;
    let metadata = check_ownership(&folder.root)?;
    if metadata.active.is_empty() {
        if let Some(id) = id
            && read_receipt(&folder.root, id)?.is_some()
        {
            return Ok(RecoverOutcome::AlreadyCommitted(id.to_owned()));
        }
        return Ok(RecoverOutcome::NothingToRecover {
            version: version.to_string(),
        });
    }
    let id = match id {
        Some(id) if metadata.active.iter().any(|active| active == id) => id.to_owned(),
        Some(id) => return Err(MigrateError::TransactionNotFound(id.to_owned())),
        None if metadata.active.len() == 1 => metadata.active[0].clone(),
        None => return Err(MigrateError::AmbiguousRecovery(metadata.active)),
    };
    let dirs = OpenDirs::open(&folder, &id)?;
    let recovery = Recovery {
        folder: &folder,
        dirs: &dirs,
        id: &id,
    };
    recovery.run(&version)
}

/// The handles recovery writes through, all opened without following.
struct OpenDirs {
    transactions: Dir,
    receipts: Option<Dir>,
    transaction: Dir,
}

impl OpenDirs {
    fn open(folder: &Folder, id: &str) -> Result<OpenDirs, MigrateError> {
        let unsafe_dir = |what: &'static str| {
            move |error: io::Error| {
                if fsops::is_unsafe_kind(&error) {
                    MigrateError::UnsafeMetadata(what)
                } else {
                    MigrateError::RecoveryFailed {
                        id: id.to_owned(),
                        what: what.to_owned(),
                        reason: reason(&error),
                    }
                }
            }
        };
        let writable = |dir: &Dir, what: &'static str| match fsops::is_writable(dir) {
            Ok(true) => Ok(()),
            Ok(false) => Err(MigrateError::ReadOnly(what)),
            Err(error) => Err(unsafe_dir(what)(error)),
        };
        writable(&folder.dir, "The AIOS folder")?;
        let dotaios = fsops::open_dir(&folder.dir, DOTAIOS_DIR)
            .map_err(unsafe_dir(DOTAIOS_DIR))?
            .ok_or(MigrateError::StateChanged)?;
        let migrations = fsops::open_dir(&dotaios, "migrations")
            .map_err(unsafe_dir(MIGRATIONS_DIR))?
            .ok_or(MigrateError::StateChanged)?;
        let transactions = fsops::open_dir(&migrations, "transactions")
            .map_err(unsafe_dir(TRANSACTIONS_DIR))?
            .ok_or(MigrateError::StateChanged)?;
        writable(&transactions, TRANSACTIONS_DIR)?;
        let receipts =
            fsops::open_dir(&migrations, "receipts").map_err(unsafe_dir(RECEIPTS_DIR))?;
        if let Some(receipts) = &receipts {
            writable(receipts, RECEIPTS_DIR)?;
        }
        let transaction = fsops::open_dir(&transactions, id)
            .map_err(unsafe_dir(TRANSACTIONS_DIR))?
            .ok_or_else(|| MigrateError::TransactionNotFound(id.to_owned()))?;
        writable(&transaction, TRANSACTIONS_DIR)?;
        Ok(OpenDirs {
            transactions,
            receipts,
            transaction,
        })
    }
}

/// What reading the journal found.
enum JournalRead {
    /// Absent, not a regular file, not UTF-8 or not JSON (§9.7 step 4).
    Unreadable,
    /// JSON, but not a valid journal for this transaction (§9.7 step 5).
    Invalid,
    Valid(Journal),
}

struct Recovery<'a> {
    folder: &'a Folder,
    dirs: &'a OpenDirs,
    id: &'a str,
}

impl Recovery<'_> {
    fn transaction_rel(&self) -> String {
        format!("{TRANSACTIONS_DIR}/{}", self.id)
    }

    fn failed(&self, what: impl Into<String>) -> impl FnOnce(io::Error) -> MigrateError + '_ {
        let what = what.into();
        move |error| MigrateError::RecoveryFailed {
            id: self.id.to_owned(),
            what,
            reason: reason(&error),
        }
    }

    fn run(&self, version: &SchemaVersion) -> Result<RecoverOutcome, MigrateError> {
        let journal = match self.read_journal() {
            JournalRead::Unreadable => {
                // Step 4: without a journal nothing may be restored; the transaction can only
                // be removed when it holds nothing but (partial) journal files.
                if !self.holds_only_journal_files()? {
                    return Err(MigrateError::NoReadableJournal);
                }
                let committed = read_receipt(&self.folder.root, self.id).ok().flatten();
                self.clear()?;
                if committed.is_some() {
                    return Ok(RecoverOutcome::AlreadyCommitted(self.id.to_owned()));
                }
                return self.recovered();
            }
            JournalRead::Invalid => return Err(MigrateError::InvalidJournal(self.id.to_owned())),
            JournalRead::Valid(journal) => journal,
        };
        // Step 6.
        if let Some(receipt) = read_receipt(&self.folder.root, self.id)? {
            if *version < receipt.to {
                return Err(MigrateError::ReceiptStateMismatch {
                    id: self.id.to_owned(),
                    version: version.to_string(),
                });
            }
            self.clear()?;
            return Ok(RecoverOutcome::AlreadyCommitted(self.id.to_owned()));
        }
        // Steps 7 and 8.
        match journal.status {
            Status::Preparing | Status::Prepared => {}
            Status::Applying | Status::Committing => {
                for operation in journal.operations.iter().rev() {
                    self.restore(operation)?;
                }
            }
        }
        self.clear()?;
        self.recovered()
    }

    fn recovered(&self) -> Result<RecoverOutcome, MigrateError> {
        // Step 9: the schema as it is now.
        let version = read_supported_version(&self.folder.root)?;
        Ok(RecoverOutcome::Recovered {
            id: self.id.to_owned(),
            version: version.to_string(),
        })
    }

    fn read_journal(&self) -> JournalRead {
        let path = rel(&format!("{}/journal.json", self.transaction_rel()));
        let mut ledger = ledger();
        match self.folder.root.read_text(&path, FILE_CAP, &mut ledger) {
            Ok(Some(file)) => {
                if serde_read::<serde_json::Value>(&file.text, LoneSurrogates::Refuse).is_err() {
                    return JournalRead::Unreadable;
                }
                match Journal::parse(&file.text, self.id) {
                    Some(journal) => JournalRead::Valid(journal),
                    None => JournalRead::Invalid,
                }
            }
            _ => JournalRead::Unreadable,
        }
    }

    /// Whether the transaction directory holds no file other than `journal.json` and
    /// `journal.json.next` at its top (empty directories anywhere are fine).
    fn holds_only_journal_files(&self) -> Result<bool, MigrateError> {
        let mut ledger = Ledger::new(Limits {
            files: 0,
            bytes: 0,
            entries: 10_000,
        });
        let top = rel(&self.transaction_rel());
        let mut pending: Vec<(RelPath, bool)> = vec![(top, true)];
        while let Some((dir, is_top)) = pending.pop() {
            let listing = match self.folder.root.list_dir(Some(&dir), 10_000, &mut ledger) {
                Ok(Some(listing)) => listing,
                Ok(None) => continue,
                Err(_) => return Ok(false),
            };
            for entry in listing.entries {
                let Some(name) = entry.name_str() else {
                    return Ok(false);
                };
                match entry.kind {
                    EntryKind::Directory => match dir.join(name) {
                        Ok(child) => pending.push((child, false)),
                        Err(_) => return Ok(false),
                    },
                    EntryKind::File
                        if is_top && (name == "journal.json" || name == "journal.json.next") => {}
                    _ => return Ok(false),
                }
            }
        }
        Ok(true)
    }

    /// Removes the pending receipt and the transaction directory.
    fn clear(&self) -> Result<(), MigrateError> {
        if let Some(receipts) = &self.dirs.receipts {
            let pending = format!("{}.json.pending", self.id);
            let removed = fsops::remove_file(receipts, &pending)
                .map_err(self.failed(format!("{RECEIPTS_DIR}/{pending}")))?;
            if removed {
                fsops::sync(receipts).map_err(self.failed(RECEIPTS_DIR))?;
            }
        }
        reached("recover:pending-cleared");
        remove_transaction(&self.dirs.transactions, self.id, "recover-cleanup")
            .map_err(self.failed(self.transaction_rel()))
    }

    /// Step 8 for one operation.
    fn restore(&self, operation: &Operation) -> Result<(), MigrateError> {
        let path = operation.path.as_str();
        let edited = || MigrateError::RecoveryConcurrentEdit(path.to_owned());
        let mut ledger = ledger();
        let live = match self
            .folder
            .root
            .read_bytes(&rel(path), FILE_CAP, &mut ledger)
        {
            Ok(live) => live,
            Err(_) => return Err(edited()),
        };
        let Some(live) = live else {
            // A create that never happened; a replaced file that vanished is someone's edit.
            return match operation.action {
                Action::Create => Ok(()),
                Action::Replace => Err(edited()),
            };
        };
        let live_hash = sha256_hex(&live.bytes);
        if Some(&live_hash) == operation.before_sha256.as_ref() {
            // This operation never committed; leave the file, mode included.
            return Ok(());
        }
        if live_hash != operation.after_sha256 {
            return Err(edited());
        }
        let live_mode = live.identity.permissions();
        if operation.after_mode.is_some_and(|mode| mode != live_mode) {
            return Err(edited());
        }
        match operation.action {
            Action::Create => {
                fsops::remove_file(&self.folder.dir, path)
                    .and_then(|_| fsops::sync(&self.folder.dir))
                    .map_err(self.failed(path))?;
            }
            Action::Replace => {
                let mode = operation.before_mode.unwrap_or(live_mode);
                let owner = Owner {
                    uid: live.identity.uid,
                    gid: fsops::stat(&self.folder.dir, path)
                        .ok()
                        .flatten()
                        .map_or(crate::sys::effective_ids().1, |stat| stat.gid),
                };
                let backup = self.read_backup(operation)?;
                self.write_residue(path, &backup, mode, owner)?;
                let recovery_dir = fsops::open_dir(&self.dirs.transaction, "recovery")
                    .ok()
                    .flatten()
                    .ok_or_else(|| MigrateError::UnsafeRecoveryResidue(path.to_owned()))?;
                fsops::rename(&recovery_dir, path, &self.folder.dir, path)
                    .and_then(|()| fsops::sync(&self.folder.dir))
                    .map_err(self.failed(path))?;
            }
        }
        reached(&format!("recover:restored:{path}"));
        Ok(())
    }

    /// The backup of a replaced file, which must hash to the journal's `before_sha256`.
    fn read_backup(&self, operation: &Operation) -> Result<Vec<u8>, MigrateError> {
        let invalid = || MigrateError::InvalidBackup(operation.path.clone());
        let backup_path = operation.backup_path().ok_or_else(invalid)?;
        let path = rel(&format!("{}/{backup_path}", self.transaction_rel()));
        let mut ledger = ledger();
        match self.folder.root.read_bytes(&path, FILE_CAP, &mut ledger) {
            Ok(Some(backup)) if Some(sha256_hex(&backup.bytes)) == operation.before_sha256 => {
                Ok(backup.bytes)
            }
            _ => Err(invalid()),
        }
    }

    /// Puts exactly `bytes` with `mode` at `T/recovery/<path>` and verifies it there. An
    /// existing file there (from an interrupted recovery) is accepted only when it is a
    /// regular single-link file with exactly these bytes.
    fn write_residue(
        &self,
        path: &str,
        bytes: &[u8],
        mode: u32,
        owner: Owner,
    ) -> Result<(), MigrateError> {
        let residue = || MigrateError::UnsafeRecoveryResidue(path.to_owned());
        let what = format!("{}/recovery/{path}", self.transaction_rel());
        let recovery_dir = match self.dirs.transaction.ensure_dir("recovery".as_ref()) {
            Ok((dir, _)) => dir,
            Err(_) => return Err(residue()),
        };
        let residue_rel = rel(&what);
        let mut ledger = ledger();
        match self
            .folder
            .root
            .read_bytes(&residue_rel, FILE_CAP, &mut ledger)
        {
            Ok(None) => {
                // Written complete under a private name, then linked to its final name: the
                // final name never holds a partial file.
                let partial = format!(".{path}.partial");
                fsops::remove_file(&recovery_dir, &partial)
                    .and_then(|_| {
                        fsops::create_exclusive(&recovery_dir, &partial, bytes, mode, Some(owner))
                    })
                    .and_then(|()| fsops::link(&recovery_dir, &partial, &recovery_dir, path))
                    .and_then(|()| fsops::remove_file(&recovery_dir, &partial))
                    .and_then(|_| fsops::sync(&recovery_dir))
                    .map_err(self.failed(what.clone()))?;
            }
            Ok(Some(existing))
                if existing.identity.nlink == 1 && existing.bytes.as_slice() == bytes =>
            {
                set_mode(&recovery_dir, path, mode).map_err(self.failed(what.clone()))?;
            }
            _ => return Err(residue()),
        }
        reached(&format!("recover:residue:{path}"));
        // Re-verify identity, bytes and mode just before the rename.
        let mut ledger = self::ledger();
        match self
            .folder
            .root
            .read_bytes(&residue_rel, FILE_CAP, &mut ledger)
        {
            Ok(Some(written))
                if written.identity.nlink == 1
                    && written.identity.kind() == EntryKind::File
                    && written.identity.permissions() == mode
                    && written.bytes.as_slice() == bytes =>
            {
                Ok(())
            }
            _ => Err(residue()),
        }
    }
}

/// Sets exactly `mode` on an existing regular file (opened without following) and flushes it
/// (the mode has no effect on Windows, `crate::sys`).
fn set_mode(dir: &Dir, name: &str, mode: u32) -> io::Result<()> {
    let Some((file, meta)) = crate::sys::open_file_at(dir.handle(), name.as_ref())? else {
        return Err(io::ErrorKind::NotFound.into());
    };
    if meta.kind != crate::sys::FileKind::File {
        return Err(io::Error::other("not a regular file"));
    }
    crate::sys::set_mode(&file, mode & 0o777)?;
    file.sync_all()
}

fn ledger() -> Ledger {
    Ledger::new(Limits {
        files: 1,
        bytes: FILE_CAP,
        entries: 0,
    })
}
