//! `dotaios migrate --apply <plan-id>` (contract 01 §9.5): recompute the plan, check every
//! precondition, then execute it through the write-ahead journal.
//!
//! The protocol, in durable steps (each ends with the `fsync`s named in the contract and then a
//! test-only failpoint; the names are listed in `docs/decisions.md`):
//! 1. owned metadata (`.dotaios/migrations/` with its marker, `transactions/`, `receipts/`);
//!    a missing `migrations/` is built under a private name and renamed into place, so that a
//!    crash never leaves a marker without `transactions/`;
//! 2. the transaction directory `T`, created exclusively (the only lock);
//! 3. `T/backups/`, `T/staged/` and the journal (`preparing`);
//! 4. one backup and one staged file per change;
//! 5. journal `prepared`; 6. live files verified unchanged;
//! 7. journal `applying`, non-config files renamed into place;
//! 8. journal `committing`, `aios.json` renamed into place: the commit point;
//! 9. the receipt (pending, linked, pending removed); 10. `T` removed.
//!
//! SIGINT and SIGTERM only raise a flag, checked between steps up to the commit point; after
//! it the few remaining steps run to the end, because stopping there would only make
//! recovery roll a committed migration back.

use std::io;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::SystemTime;

use dotaios_contained::{Ledger, Limits};
use dotaios_core::folder::config::CONFIG_CAP;
use dotaios_core::folder::inspection::{OWNER_MARKER, is_plan_id};
use dotaios_core::folder::plan::{Action, Change, IGNORE_CAP, Plan, plan_for_root};

use super::failpoint::reached;
use super::fsops::{self, Owner};
use super::inventory::{PreservedPath, inventory};
use super::journal::{Journal, Status, receipt_bytes};
use super::state::{
    DOTAIOS_DIR, Folder, MIGRATIONS_DIR, OWNER_PATH, RECEIPTS_DIR, TRANSACTIONS_DIR,
    check_ownership, read_receipt, read_supported_version, rel,
};
use super::{MigrateError, reason};
use crate::writers::atomic::{Dir, WriteError};
use crate::writers::iso_utc_millis;

/// What `--apply` did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ApplyOutcome {
    /// A receipt for this plan exists and the folder is at (or past) its target.
    AlreadyApplied(String),
    /// The plan was committed and its receipt written.
    Applied {
        /// The schema before.
        from: String,
        /// The schema after.
        to: String,
        /// The plan id.
        plan_id: String,
    },
}

/// Applies exactly the plan `plan_id` to the folder at `path`.
pub(crate) fn apply(path: &Path, plan_id: &str) -> Result<ApplyOutcome, MigrateError> {
    if !is_plan_id(plan_id) {
        return Err(MigrateError::InvalidPlanId(plan_id.to_owned()));
    }
    let signals = Signals::register().map_err(|error| MigrateError::PrepareFailed {
        what: "signal handling".to_owned(),
        reason: reason(&error),
    })?;
    let folder = Folder::open(path)?;
    let version = read_supported_version(&folder.root)?;
    let metadata = check_ownership(&folder.root)?;
    if let Some(receipt) = read_receipt(&folder.root, plan_id)? {
        if version < receipt.to {
            return Err(MigrateError::ReceiptStateMismatch {
                id: plan_id.to_owned(),
                version: version.to_string(),
            });
        }
        return Ok(ApplyOutcome::AlreadyApplied(plan_id.to_owned()));
    }
    if !metadata.active.is_empty() {
        return Err(MigrateError::RecoveryRequired(metadata.active));
    }
    let plan = match plan_for_root(&folder.root) {
        Ok(None) => return Err(MigrateError::NoMigrationNeeded(plan_id.to_owned())),
        Ok(Some(plan)) if plan.id == plan_id => plan,
        Ok(Some(_)) => return Err(MigrateError::PlanChanged(plan_id.to_owned())),
        Err(error) => return Err(MigrateError::Plan(error)),
    };
    let preserved = inventory(&folder.dir).map_err(|error| MigrateError::PrepareFailed {
        what: "the protected shelves inventory".to_owned(),
        reason: reason(&error),
    })?;
    check_writable(&folder.dir)?;
    signals.before_transaction()?;

    let metadata = ensure_metadata(&folder)?;
    reached("metadata-ready");
    signals.before_transaction()?;

    let transaction_dir = match fsops::make_dir_exclusive(&metadata.transactions, plan_id) {
        Ok(dir) => dir,
        Err(error) if error.kind() == io::ErrorKind::AlreadyExists => {
            return Err(MigrateError::RecoveryRequired(vec![plan_id.to_owned()]));
        }
        Err(error) => {
            return Err(MigrateError::PrepareFailed {
                what: format!("{TRANSACTIONS_DIR}/{plan_id}"),
                reason: reason(&error),
            });
        }
    };
    reached("transaction-created");
    let mut transaction = Transaction {
        folder: &folder,
        metadata: &metadata,
        dir: transaction_dir,
        plan: &plan,
        signals: &signals,
        journal: Journal::for_plan(&plan, iso_utc_millis(SystemTime::now())),
    };
    transaction.interruption()?;
    transaction.run(&preserved)?;
    Ok(ApplyOutcome::Applied {
        from: plan.from_schema_version.clone(),
        to: plan.to_schema_version.to_owned(),
        plan_id: plan.id.clone(),
    })
}

/// The open handles of owned metadata.
pub(crate) struct MetadataDirs {
    pub(crate) transactions: Dir,
    pub(crate) receipts: Dir,
}

/// Precondition: every directory the transaction writes in must be writable by the effective
/// user. Checked before the first write, so that a read-only folder changes nothing.
fn check_writable(root: &Dir) -> Result<(), MigrateError> {
    let writable = |dir: &Dir, what: &'static str| match fsops::is_writable(dir) {
        Ok(true) => Ok(()),
        Ok(false) => Err(MigrateError::ReadOnly(what)),
        Err(error) => Err(MigrateError::PrepareFailed {
            what: what.to_owned(),
            reason: reason(&error),
        }),
    };
    writable(root, "The AIOS folder")?;
    let Ok(Some(dotaios)) = fsops::open_dir(root, DOTAIOS_DIR) else {
        return Ok(());
    };
    writable(&dotaios, DOTAIOS_DIR)?;
    let Ok(Some(migrations)) = fsops::open_dir(&dotaios, "migrations") else {
        return Ok(());
    };
    writable(&migrations, MIGRATIONS_DIR)?;
    for (name, what) in [
        ("transactions", TRANSACTIONS_DIR),
        ("receipts", RECEIPTS_DIR),
    ] {
        if let Ok(Some(dir)) = fsops::open_dir(&migrations, name) {
            writable(&dir, what)?;
        }
    }
    Ok(())
}

/// Transaction step 1: makes sure `.dotaios/migrations/` is owned (marker, `transactions/`,
/// `receipts/`) and opens it.
fn ensure_metadata(folder: &Folder) -> Result<MetadataDirs, MigrateError> {
    let prepare = |what: &str| {
        let what = what.to_owned();
        move |error: io::Error| MigrateError::PrepareFailed {
            what,
            reason: reason(&error),
        }
    };
    let dotaios = match folder.dir.ensure_dir(DOTAIOS_DIR.as_ref()) {
        Ok((dir, _)) => dir,
        Err(WriteError::Symlink | WriteError::NotDirectory) => {
            return Err(MigrateError::UnsafeMetadata(DOTAIOS_DIR));
        }
        Err(error) => return Err(prepare(DOTAIOS_DIR)(fsops::write_error_to_io(error))),
    };
    let existing = match fsops::open_dir(&dotaios, "migrations") {
        Ok(existing) => existing,
        Err(error) if fsops::is_unsafe_kind(&error) => {
            return Err(MigrateError::UnsafeMetadata(MIGRATIONS_DIR));
        }
        Err(error) => return Err(prepare(MIGRATIONS_DIR)(error)),
    };
    let install = match existing {
        None => true,
        Some(migrations) => match fsops::stat(&migrations, "owner.json") {
            Ok(None) => {
                if !fsops::entries(&migrations)
                    .map_err(prepare(MIGRATIONS_DIR))?
                    .is_empty()
                {
                    return Err(MigrateError::UnownedMetadata);
                }
                true
            }
            Ok(Some(stat)) if fsops::is_regular(&stat) => {
                let mut ledger = Ledger::new(Limits {
                    files: 1,
                    bytes: 4096,
                    entries: 0,
                });
                match folder.root.read_bytes(&rel(OWNER_PATH), 4096, &mut ledger) {
                    Ok(Some(owner)) if owner.bytes == OWNER_MARKER => false,
                    Ok(Some(_)) => return Err(MigrateError::UnrecognizedOwner),
                    _ => return Err(MigrateError::UnsafeMetadata(OWNER_PATH)),
                }
            }
            Ok(Some(_)) => return Err(MigrateError::UnsafeMetadata(OWNER_PATH)),
            Err(error) => return Err(prepare(OWNER_PATH)(error)),
        },
    };
    if install {
        install_owned_metadata(&dotaios)?;
    }
    let migrations = match fsops::open_dir(&dotaios, "migrations") {
        Ok(Some(dir)) => dir,
        Ok(None) => return Err(MigrateError::StateChanged),
        Err(error) if fsops::is_unsafe_kind(&error) => {
            return Err(MigrateError::UnsafeMetadata(MIGRATIONS_DIR));
        }
        Err(error) => return Err(prepare(MIGRATIONS_DIR)(error)),
    };
    let open = |name: &str, what: &'static str| match migrations.ensure_dir(name.as_ref()) {
        Ok((dir, _)) => Ok(dir),
        Err(WriteError::Symlink | WriteError::NotDirectory) => {
            Err(MigrateError::UnsafeMetadata(what))
        }
        Err(error) => Err(prepare(what)(fsops::write_error_to_io(error))),
    };
    let transactions = open("transactions", TRANSACTIONS_DIR)?;
    let receipts = open("receipts", RECEIPTS_DIR)?;
    Ok(MetadataDirs {
        transactions,
        receipts,
    })
}

/// Builds `migrations/` (marker, `transactions/`, `receipts/`) under a private name inside
/// `.dotaios/` and renames it into place in one step, replacing at most an empty directory.
fn install_owned_metadata(dotaios: &Dir) -> Result<(), MigrateError> {
    let fail = |error: io::Error| MigrateError::PrepareFailed {
        what: MIGRATIONS_DIR.to_owned(),
        reason: reason(&error),
    };
    remove_stale_staging(dotaios);
    let staging = format!(".migrations.{}.tmp", std::process::id());
    // Only a crashed run of a process with this very pid could have left this name.
    fsops::remove_tree(dotaios, &staging).map_err(fail)?;
    let built = fsops::make_dir_exclusive(dotaios, &staging).and_then(|dir| {
        fsops::create_exclusive(&dir, "owner.json", OWNER_MARKER, 0o600, None)?;
        fsops::make_dir_exclusive(&dir, "transactions")?;
        fsops::make_dir_exclusive(&dir, "receipts")?;
        fsops::sync(&dir)
    });
    if let Err(error) = built {
        let _ = fsops::remove_tree(dotaios, &staging);
        return Err(fail(error));
    }
    reached("metadata-staged");
    if let Err(error) = fsops::rename(dotaios, &staging, dotaios, "migrations") {
        let _ = fsops::remove_tree(dotaios, &staging);
        // Something appeared at `migrations` since it was checked.
        if matches!(
            error.kind(),
            io::ErrorKind::DirectoryNotEmpty | io::ErrorKind::AlreadyExists
        ) {
            return Err(MigrateError::UnownedMetadata);
        }
        return Err(fail(error));
    }
    fsops::sync(dotaios).map_err(fail)
}

/// Removes `.migrations.<pid>.tmp` directories left in `.dotaios/` by applies that crashed
/// while building owned metadata, when no process with that pid is alive (a live one may be a
/// concurrent apply at work). Best effort: a leftover is harmless, only untidy.
fn remove_stale_staging(dotaios: &Dir) {
    let Ok(entries) = fsops::entries(dotaios) else {
        return;
    };
    for (name, is_dir) in entries {
        let Some(pid) = name
            .to_str()
            .and_then(|name| name.strip_prefix(".migrations."))
            .and_then(|rest| rest.strip_suffix(".tmp"))
            .and_then(|digits| digits.parse::<u32>().ok())
        else {
            continue;
        };
        if is_dir && crate::sys::process_is_gone(pid) {
            let _ = fsops::remove_tree(dotaios, &name.to_string_lossy());
        }
    }
}

/// The signal flag (SIGINT, SIGTERM) for the duration of an apply.
struct Signals {
    raised: Arc<AtomicBool>,
}

impl Signals {
    fn register() -> io::Result<Signals> {
        let raised = Arc::new(AtomicBool::new(false));
        for signal in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
            signal_hook::flag::register(signal, Arc::clone(&raised))?;
        }
        Ok(Signals { raised })
    }

    fn raised(&self) -> bool {
        self.raised.load(Ordering::SeqCst)
    }

    fn before_transaction(&self) -> Result<(), MigrateError> {
        if self.raised() {
            return Err(MigrateError::ApplyAborted);
        }
        Ok(())
    }
}

/// One transaction in progress.
struct Transaction<'a> {
    folder: &'a Folder,
    metadata: &'a MetadataDirs,
    dir: Dir,
    plan: &'a Plan,
    signals: &'a Signals,
    journal: Journal,
}

impl Transaction<'_> {
    fn id(&self) -> &str {
        &self.plan.id
    }

    fn interruption(&self) -> Result<(), MigrateError> {
        if self.signals.raised() {
            return Err(MigrateError::ApplyInterrupted(self.id().to_owned()));
        }
        Ok(())
    }

    fn failed(&self, what: impl Into<String>) -> impl FnOnce(io::Error) -> MigrateError + '_ {
        let what = what.into();
        move |error| MigrateError::TransactionFailed {
            id: self.id().to_owned(),
            what,
            reason: reason(&error),
        }
    }

    fn rel(&self, name: &str) -> String {
        format!("{TRANSACTIONS_DIR}/{}/{name}", self.id())
    }

    fn run(&mut self, preserved: &[PreservedPath]) -> Result<(), MigrateError> {
        // Step 3.
        let backups = fsops::make_dir_exclusive(&self.dir, "backups")
            .map_err(self.failed(self.rel("backups")))?;
        let staged = fsops::make_dir_exclusive(&self.dir, "staged")
            .map_err(self.failed(self.rel("staged")))?;
        let bytes = self.journal.to_bytes();
        fsops::create_exclusive(&self.dir, "journal.json", &bytes, 0o600, None)
            .and_then(|()| fsops::sync(&self.dir))
            .map_err(self.failed(self.rel("journal.json")))?;
        reached("journal-preparing");
        self.interruption()?;

        // Step 4.
        for change in &self.plan.changes {
            if let Some(before) = &change.before {
                fsops::create_exclusive(&backups, change.path, before, 0o600, None)
                    .and_then(|()| fsops::sync(&backups))
                    .map_err(self.failed(self.rel(&format!("backups/{}", change.path))))?;
                reached(&format!("backup:{}", change.path));
                self.interruption()?;
            }
            let owner = self.owner_for(change);
            fsops::create_exclusive(
                &staged,
                change.path,
                &change.after,
                change.after_mode,
                owner,
            )
            .and_then(|()| fsops::sync(&staged))
            .map_err(self.failed(self.rel(&format!("staged/{}", change.path))))?;
            reached(&format!("staged:{}", change.path));
            self.interruption()?;
        }

        // Steps 5 and 6.
        self.advance(Status::Prepared)?;
        self.interruption()?;
        for change in &self.plan.changes {
            self.verify(change)?;
        }

        // Step 7.
        let (config, others): (Vec<&Change>, Vec<&Change>) = self
            .plan
            .changes
            .iter()
            .partition(|change| change.path == dotaios_core::folder::config::CONFIG_PATH);
        if !others.is_empty() {
            self.advance(Status::Applying)?;
            self.interruption()?;
            for change in others {
                self.verify(change)?;
                self.commit_file(&staged, change)?;
                self.interruption()?;
            }
        }

        // Step 8: the commit point.
        self.advance(Status::Committing)?;
        self.interruption()?;
        for change in config {
            self.verify(change)?;
            self.commit_file(&staged, change)?;
        }

        // Step 9.
        let receipt = receipt_bytes(self.plan, preserved, &iso_utc_millis(SystemTime::now()));
        self.write_receipt(&receipt)?;

        // Step 10: best effort; a leftover directory is reported by inspection and cleared by
        // `--recover` as "already committed".
        let _ = remove_transaction(&self.metadata.transactions, self.id(), "cleanup");
        Ok(())
    }

    /// The owner a staged file should get: the live file's (or, for a created file, the
    /// folder's) when it differs from the process's, so that a privileged run does not hand
    /// the user's files to itself. Best effort.
    fn owner_for(&self, change: &Change) -> Option<Owner> {
        let stat = match change.action {
            Action::Replace => fsops::stat(&self.folder.dir, change.path).ok().flatten(),
            Action::Create => crate::sys::stat_dir(self.folder.dir.handle()).ok(),
        }?;
        let owner = Owner {
            uid: stat.uid,
            gid: stat.gid,
        };
        let own = crate::sys::effective_ids();
        ((owner.uid, owner.gid) != own).then_some(owner)
    }

    /// The journal update procedure: write `journal.json.next`, `fsync`, rename over
    /// `journal.json`, `fsync` the transaction directory.
    fn advance(&mut self, status: Status) -> Result<(), MigrateError> {
        self.journal.status = status;
        let bytes = self.journal.to_bytes();
        let what = self.rel("journal.json");
        let result = fsops::remove_file(&self.dir, "journal.json.next")
            .and_then(|_| {
                fsops::create_exclusive(&self.dir, "journal.json.next", &bytes, 0o600, None)
            })
            .and_then(|()| {
                reached(&format!("journal-next:{}", status.as_str()));
                fsops::rename(&self.dir, "journal.json.next", &self.dir, "journal.json")
            })
            .and_then(|()| fsops::sync(&self.dir));
        result.map_err(self.failed(what))?;
        reached(&format!("journal:{}", status.as_str()));
        Ok(())
    }

    /// Step 6 check: the live file is what the plan was made from.
    fn verify(&self, change: &Change) -> Result<(), MigrateError> {
        let edited = || MigrateError::ConcurrentEdit(change.path.to_owned());
        let path = rel(change.path);
        match change.action {
            Action::Create => match self.folder.root.probe(&path) {
                Ok(None) => Ok(()),
                _ => Err(edited()),
            },
            Action::Replace => {
                let cap = CONFIG_CAP.max(IGNORE_CAP);
                let mut ledger = Ledger::new(Limits {
                    files: 1,
                    bytes: cap,
                    entries: 0,
                });
                match self.folder.root.read_bytes(&path, cap, &mut ledger) {
                    Ok(Some(live))
                        if Some(&live.bytes) == change.before.as_ref()
                            && Some(live.identity.permissions()) == change.before_mode =>
                    {
                        Ok(())
                    }
                    _ => Err(edited()),
                }
            }
        }
    }

    /// Renames the staged file over the live path and makes the rename durable.
    fn commit_file(&self, staged: &Dir, change: &Change) -> Result<(), MigrateError> {
        fsops::rename(staged, change.path, &self.folder.dir, change.path)
            .and_then(|()| fsops::sync(&self.folder.dir))
            .map_err(self.failed(change.path))?;
        reached(&format!("renamed:{}", change.path));
        Ok(())
    }

    /// Step 9: `<id>.json.pending` created and `fsync`ed, hard-linked to `<id>.json`, the
    /// pending name removed, `receipts/` `fsync`ed.
    fn write_receipt(&self, bytes: &[u8]) -> Result<(), MigrateError> {
        let receipts = &self.metadata.receipts;
        let pending = format!("{}.json.pending", self.id());
        let done = format!("{}.json", self.id());
        fsops::remove_file(receipts, &pending)
            .and_then(|_| fsops::create_exclusive(receipts, &pending, bytes, 0o600, None))
            .and_then(|()| fsops::sync(receipts))
            .map_err(self.failed(format!("{RECEIPTS_DIR}/{pending}")))?;
        reached("receipt-pending");
        fsops::link(receipts, &pending, receipts, &done)
            .and_then(|()| fsops::sync(receipts))
            .map_err(self.failed(format!("{RECEIPTS_DIR}/{done}")))?;
        reached("receipt-linked");
        fsops::remove_file(receipts, &pending)
            .and_then(|_| fsops::sync(receipts))
            .map_err(self.failed(format!("{RECEIPTS_DIR}/{pending}")))?;
        reached("receipt-complete");
        Ok(())
    }
}

/// Removes `transactions/<id>` so that a crash at any point leaves something recovery
/// understands: everything but the journal first, then the journal, then the empty
/// directory, each step made durable. `prefix` names the failpoints (`cleanup`,
/// `recover-cleanup`).
pub(crate) fn remove_transaction(transactions: &Dir, id: &str, prefix: &str) -> io::Result<()> {
    let Some(dir) = fsops::open_dir(transactions, id)? else {
        return Ok(());
    };
    fsops::empty_dir(&dir, &["journal.json"])?;
    fsops::sync(&dir)?;
    reached(&format!("{prefix}:contents-removed"));
    fsops::remove_file(&dir, "journal.json")?;
    fsops::sync(&dir)?;
    reached(&format!("{prefix}:journal-removed"));
    drop(dir);
    fsops::remove_empty_dir(transactions, id)?;
    fsops::sync(transactions)?;
    reached(&format!("{prefix}:removed"));
    Ok(())
}
