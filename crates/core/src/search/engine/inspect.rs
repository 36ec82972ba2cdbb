//! Inspection (contract 03 §4.3–§4.5): listing every scope's directories, probing and sizing
//! its files, and recording every identity that final revalidation checks again.
//!
//! It reads nothing itself but listings and fixed small files, and never matches a query: the
//! accepted files' early read and their analysis against the query are `observe`'s.

use std::sync::Arc;

use dotaios_contained::{
    Dir, DirEntry, EntryKind, Identity, Ledger, Limits, Listing, ReadError, RelPath, Root,
};

use crate::folder::memory::MemoryMode;
use crate::search::cache::KeyRef;
use crate::search::error::{
    EvidenceError, ScopeFailure, fixed_location_error, observed_path_error, unreadable_kind,
};
use crate::search::jsonl::{Family, Generation, ProjectIdentity};
use crate::search::omission::{OmissionCause, OmissionReason, SkippedFile, Unreadable};
use crate::search::walk::{
    Eligibility, apply_order, collation_order, is_skipped, order_entries, sort_by_bytes,
};
use crate::search::{MAX_DIRECTORY_ENTRIES, MAX_FILE_BYTES, Scope};
use crate::text::utf16_cmp;

use super::observe::Accepted;
use super::vault::VaultPlace;
use super::{
    Corpus, Engine, JsonlPlan, MAX_HELD_DIRECTORIES, Meter, RootId, ScopeWork, child_path,
    parent_of, rel, shard_number,
};

impl Engine<'_> {
    pub(super) fn inspect(
        &mut self,
        work: &mut ScopeWork,
        meter: &mut Meter,
        project: Option<&ProjectIdentity>,
    ) -> Result<(), ScopeFailure> {
        match work.scope {
            Scope::Sessions => {
                let index = rel("memory/sessions/index.jsonl");
                if let Some(identity) = self.inspect_fixed_file(work, &index)? {
                    work.session_index = Some((index, identity));
                }
                Ok(())
            }
            Scope::Context
            | Scope::Decisions
            | Scope::Skills
            | Scope::References
            | Scope::Plugins => {
                // Each of these scopes is one folder of the same name directly below the root.
                let (folder, eligibility) = match work.scope {
                    Scope::Context => ("context", Eligibility::Markdown),
                    Scope::Decisions => ("decisions", Eligibility::Markdown),
                    Scope::Skills => ("skills", Eligibility::Markdown),
                    Scope::References => ("references", Eligibility::Markdown),
                    _ => ("plugins", Eligibility::Plugins),
                };
                self.inspect_folder(work, meter, folder, eligibility)
            }
            Scope::Vault => match &self.vault {
                VaultPlace::Inside(dir) => {
                    let dir = dir.clone();
                    self.inspect_corpus(
                        work,
                        meter,
                        RootId::Vault,
                        dir,
                        "vault",
                        Eligibility::Markdown,
                    )
                }
                VaultPlace::External { root: None, .. } => Ok(()),
                VaultPlace::External { .. } => self.inspect_corpus(
                    work,
                    meter,
                    RootId::Vault,
                    None,
                    "vault",
                    Eligibility::Markdown,
                ),
            },
            Scope::Projects => {
                let Some(project) = project else {
                    return Ok(());
                };
                let dir = RelPath::new(&format!("projects/{}", project.slug))
                    .map_err(|_| EvidenceError::PathUnsafe)?;
                let prefix = format!("projects/{}", project.slug);
                self.inspect_corpus(
                    work,
                    meter,
                    RootId::Aios,
                    Some(dir),
                    &prefix,
                    Eligibility::Markdown,
                )
            }
            Scope::Memory => self.inspect_memory(work, meter),
        }
    }

    /// Probes the directories between the root and `dir` (exclusive). `false` when one is
    /// missing, or is a symbolic link, which is skipped and reported (§4.4): the corpus is then
    /// empty.
    pub(super) fn observe_ancestors(
        &mut self,
        work: &mut ScopeWork,
        root: RootId,
        dir: &RelPath,
    ) -> Result<bool, ScopeFailure> {
        let components: Vec<&str> = dir.components().collect();
        let mut path = String::new();
        for component in &components[..components.len() - 1] {
            if !path.is_empty() {
                path.push('/');
            }
            path.push_str(component);
            let ancestor = rel(&path);
            let Some(found) = self
                .root_for(root)?
                .probe(&ancestor)
                .map_err(fixed_location_error)?
            else {
                return Ok(false);
            };
            match found.kind {
                EntryKind::Directory => {}
                EntryKind::Symlink => {
                    self.skip_link(work, root, ancestor.as_str());
                    return Ok(false);
                }
                _ => return Err(EvidenceError::PathUnsafe.into()),
            }
            self.record_directory(root, Some(ancestor), found.identity)?;
        }
        Ok(true)
    }

    /// Records a symbolic link that was skipped, never followed (§4.4), as the path the CLI
    /// shows: relative to the AIOS folder, or `vault/…` below an external vault (§3.4).
    pub(super) fn skip_link(&self, work: &mut ScopeWork, root: RootId, path: &str) {
        work.links.push(self.shown(root, path));
    }

    /// Records an eligible file skipped as unreadable (§4.5), named like a skipped link.
    pub(super) fn skip_unreadable(
        &self,
        work: &mut ScopeWork,
        root: RootId,
        path: &str,
        why: Unreadable,
    ) {
        work.unreadable.push(SkippedFile {
            path: self.shown(root, path),
            why,
        });
    }

    /// `path` below `root` as the CLI names it (§3.4: an external vault's files are `vault/…`),
    /// through the one name rule (contract 02 §10.1), since a link's name is the folder's.
    fn shown(&self, root: RootId, path: &str) -> String {
        let path = crate::text::escape_name(path, crate::text::NameOutput::Data);
        match (root, &self.vault) {
            (RootId::Vault, VaultPlace::External { .. }) => format!("vault/{path}"),
            _ => path.into_owned(),
        }
    }

    /// A listed directory as the CLI names it (§17.4): [`Engine::shown`], ending in `/`; an
    /// external vault's own root is `vault/`.
    fn shown_dir(&self, root: RootId, dir: Option<&RelPath>) -> String {
        match dir {
            Some(dir) => format!("{}/", self.shown(root, dir.as_str())),
            None => match (root, &self.vault) {
                (RootId::Vault, VaultPlace::External { .. }) => "vault/".to_owned(),
                _ => "./".to_owned(),
            },
        }
    }

    /// Whether a fixed location whose open was refused is a symbolic link; if so it is
    /// recorded as skipped (§4.4). A refusal for any other reason stays the caller's.
    fn is_skipped_link(&self, work: &mut ScopeWork, root: RootId, path: &RelPath) -> bool {
        let linked = self
            .root(root)
            .and_then(|reader| reader.probe(path).ok().flatten())
            .is_some_and(|found| found.kind == EntryKind::Symlink);
        if linked {
            self.skip_link(work, root, path.as_str());
        }
        linked
    }

    /// The identity of the directory an authorised root was opened at.
    pub(super) fn root_identity(&self, id: RootId) -> Option<Identity> {
        match (id, &self.vault) {
            (RootId::Aios, _) | (RootId::Vault, VaultPlace::Inside(_)) => Some(self.aios_identity),
            (RootId::Vault, VaultPlace::External { identity, .. }) => *identity,
        }
    }

    pub(super) fn root_for(&self, id: RootId) -> Result<&Root, ScopeFailure> {
        self.root(id)
            .ok_or(ScopeFailure::Fatal(EvidenceError::RootUnauthorized.into()))
    }

    pub(super) fn record_directory(
        &mut self,
        root: RootId,
        dir: Option<RelPath>,
        identity: Identity,
    ) -> Result<(), ScopeFailure> {
        match self.directories.get(&(root, dir.clone())) {
            Some(seen) if *seen != identity => Err(EvidenceError::Changed.into()),
            Some(_) => Ok(()),
            None => {
                self.directories.insert((root, dir), identity);
                Ok(())
            }
        }
    }

    /// Lists a directory, charging its entries to the ledger, the demand and the phase
    /// budget (§13, §14.1). `first_open` selects the error mapping of a fixed location.
    pub(super) fn list(
        &mut self,
        work: &mut ScopeWork,
        meter: &mut Meter,
        root: RootId,
        dir: Option<&RelPath>,
        first_open: bool,
    ) -> Result<Option<Vec<DirEntry>>, ScopeFailure> {
        let reader = self.root_for(root)?;
        let lister = |sub: &mut Ledger| reader.list_dir(dir, MAX_DIRECTORY_ENTRIES, sub);
        // The listing borrows the root only while it runs; charging needs `self` mutably.
        let allowance = self.entry_allowance(work, meter);
        let mut sub = Ledger::new(Limits {
            files: 0,
            bytes: 0,
            entries: allowance,
        });
        let listed = lister(&mut sub);
        self.book_listing(work, meter, root, dir, first_open, allowance, &sub, listed)
    }

    /// [`Engine::list`] through a directory handle the walk holds (contract 03 §4.8): one
    /// `getdents` loop on the handle, no path resolution.
    pub(super) fn list_handle(
        &mut self,
        work: &mut ScopeWork,
        meter: &mut Meter,
        root: RootId,
        dir: Option<&RelPath>,
        handle: &Dir,
        first_open: bool,
    ) -> Result<Vec<DirEntry>, ScopeFailure> {
        let allowance = self.entry_allowance(work, meter);
        let mut sub = Ledger::new(Limits {
            files: 0,
            bytes: 0,
            entries: allowance,
        });
        let listed = handle.list(MAX_DIRECTORY_ENTRIES, &mut sub).map(Some);
        let entries =
            self.book_listing(work, meter, root, dir, first_open, allowance, &sub, listed)?;
        entries.ok_or_else(|| EvidenceError::Changed.into())
    }

    /// Charges a listing and maps its outcome (§13, §14.1).
    #[expect(
        clippy::too_many_arguments,
        reason = "each argument is one charge of the listing's budget (§13)"
    )]
    fn book_listing(
        &mut self,
        work: &mut ScopeWork,
        meter: &mut Meter,
        root: RootId,
        dir: Option<&RelPath>,
        first_open: bool,
        allowance: u64,
        sub: &Ledger,
        listed: Result<Option<Listing>, ReadError>,
    ) -> Result<Option<Vec<DirEntry>>, ScopeFailure> {
        self.charge_entries(work, meter, sub.used().entries);
        match listed {
            Ok(None) => Ok(None),
            Ok(Some(listing)) => {
                if allowance == 0 {
                    return Err(ScopeFailure::Skippable(OmissionReason::EntryCountExceeded));
                }
                self.record_directory(root, dir.cloned(), listing.identity)?;
                Ok(Some(listing.entries))
            }
            Err(ReadError::Budget(_)) => {
                Err(ScopeFailure::Skippable(OmissionReason::EntryCountExceeded))
            }
            Err(ReadError::DirectoryLimit) => {
                // The entry past the limit is charged before the per-directory check (§13).
                if self.entry_allowance(work, meter) == 0 {
                    return Err(ScopeFailure::Skippable(OmissionReason::EntryCountExceeded));
                }
                self.charge_entries(work, meter, 1);
                work.cause = Some(OmissionCause::Directory {
                    path: self.shown_dir(root, dir),
                });
                Err(ScopeFailure::Skippable(
                    OmissionReason::DirectoryEntriesExceeded,
                ))
            }
            Err(error) if first_open => Err(fixed_location_error(error)),
            Err(error) => Err(observed_path_error(error)),
        }
    }

    pub(super) fn entry_allowance(&self, work: &ScopeWork, meter: &Meter) -> u64 {
        self.ledger
            .remaining()
            .entries
            .min(self.available.entries.saturating_sub(work.demand.entries))
            .min(meter.left().entries)
    }

    pub(super) fn charge_entries(&mut self, work: &mut ScopeWork, meter: &mut Meter, count: u64) {
        self.ledger.used.entries += count;
        work.demand.entries += count;
        meter.used.entries += count;
    }

    /// Charges one `statx`ed file, `path` below `root`, to the scope's demand only, bounded by
    /// `available`; a file over the per-file limit is recorded as the scope's cause (§17.4).
    pub(super) fn demand_file(
        &self,
        work: &mut ScopeWork,
        root: RootId,
        path: &RelPath,
        size: u64,
    ) -> Result<(), ScopeFailure> {
        if size > MAX_FILE_BYTES {
            work.cause = Some(OmissionCause::File {
                path: self.shown(root, path.as_str()),
                bytes: size,
            });
            return Err(ScopeFailure::Skippable(OmissionReason::FileTooLarge));
        }
        if work.demand.files + 1 > self.available.files {
            return Err(ScopeFailure::Skippable(OmissionReason::FileCountExceeded));
        }
        if work.demand.bytes.saturating_add(size) > self.available.bytes {
            return Err(ScopeFailure::Skippable(
                OmissionReason::AggregateBytesExceeded,
            ));
        }
        work.demand.files += 1;
        work.demand.bytes += size;
        Ok(())
    }

    /// A fixed JSONL source or the session index: probed, type-checked, charged as demand.
    pub(super) fn inspect_fixed_file(
        &mut self,
        work: &mut ScopeWork,
        path: &RelPath,
    ) -> Result<Option<Identity>, ScopeFailure> {
        let parent = parent_of(path);
        if let Some(parent) = &parent {
            if !self.observe_ancestors(work, RootId::Aios, parent)? {
                return Ok(None);
            }
            let Some(found) = self.aios.probe(parent).map_err(fixed_location_error)? else {
                return Ok(None);
            };
            match found.kind {
                EntryKind::Directory => {}
                EntryKind::Symlink => {
                    self.skip_link(work, RootId::Aios, parent.as_str());
                    return Ok(None);
                }
                _ => return Err(EvidenceError::PathUnsafe.into()),
            }
            self.record_directory(RootId::Aios, Some(parent.clone()), found.identity)?;
        }
        self.demand_fixed_file(work, path)
    }

    /// A file at a fixed path below the root (a JSONL source, the session index, a session
    /// body): probed without following, refused unless it is a regular file, its size charged
    /// as demand. `None` when absent, or when it is a symbolic link, which is skipped and
    /// reported (§4.4).
    pub(super) fn demand_fixed_file(
        &self,
        work: &mut ScopeWork,
        path: &RelPath,
    ) -> Result<Option<Identity>, ScopeFailure> {
        let Some(found) = self.aios.probe(path).map_err(fixed_location_error)? else {
            return Ok(None);
        };
        match found.kind {
            EntryKind::File => {}
            EntryKind::Symlink => {
                self.skip_link(work, RootId::Aios, path.as_str());
                return Ok(None);
            }
            kind => match unreadable_kind(kind) {
                Some(why) => {
                    self.skip_unreadable(work, RootId::Aios, path.as_str(), why);
                    return Ok(None);
                }
                None => return Err(EvidenceError::NotRegularFile.into()),
            },
        }
        self.demand_file(work, RootId::Aios, path, found.identity.size)?;
        Ok(Some(found.identity))
    }

    pub(super) fn inspect_corpus(
        &mut self,
        work: &mut ScopeWork,
        meter: &mut Meter,
        root: RootId,
        dir: Option<RelPath>,
        prefix: &str,
        eligibility: Eligibility,
    ) -> Result<(), ScopeFailure> {
        if let Some(dir) = &dir
            && !self.observe_ancestors(work, root, dir)?
        {
            return Ok(());
        }
        let accepted = self.walk(work, meter, root, dir.clone(), eligibility)?;
        let strip = dir.as_ref().map_or(0, |dir| dir.as_str().len() + 1);
        let files = self.observe_accepted(work, root, accepted, strip, prefix)?;
        work.corpora.push(Corpus {
            root,
            prefix: Arc::from(prefix),
            files,
        });
        Ok(())
    }

    /// A corpus that is one fixed folder below the AIOS root, its path also its prefix.
    fn inspect_folder(
        &mut self,
        work: &mut ScopeWork,
        meter: &mut Meter,
        folder: &str,
        eligibility: Eligibility,
    ) -> Result<(), ScopeFailure> {
        self.inspect_corpus(
            work,
            meter,
            RootId::Aios,
            Some(rel(folder)),
            folder,
            eligibility,
        )
    }

    /// The depth-first walk of §4.1: collation order inside each directory, skip rule,
    /// symlinks, recursion, eligibility. Returns the accepted files in enumeration order.
    pub(super) fn walk(
        &mut self,
        work: &mut ScopeWork,
        meter: &mut Meter,
        root: RootId,
        dir: Option<RelPath>,
        eligibility: Eligibility,
    ) -> Result<Vec<Accepted>, ScopeFailure> {
        // The corpus directory is a fixed location, opened by its path beneath the root; every
        // directory and file below it is reached by one name from its parent's handle.
        let reader = self.root_for(root)?;
        let top = match &dir {
            Some(path) => reader.open_dir(path),
            None => reader.dir().map(Some),
        };
        let top = match top {
            Ok(Some(top)) => Arc::new(top),
            Ok(None) => return Ok(Vec::new()),
            Err(ReadError::Budget(_)) => {
                return Err(ScopeFailure::Skippable(OmissionReason::EntryCountExceeded));
            }
            // A corpus folder that is a link is skipped and reported, never followed (§4.4).
            Err(_)
                if dir
                    .as_ref()
                    .is_some_and(|d| self.is_skipped_link(work, root, d)) =>
            {
                return Ok(Vec::new());
            }
            Err(error) => return Err(fixed_location_error(error)),
        };
        let mut entries = self.list_handle(work, meter, root, dir.as_ref(), &top, true)?;
        self.hold(root, dir.clone(), &top);
        self.order_listing(root, dir.as_ref(), &mut entries);
        let mut accepted = Vec::new();
        // A stack of (directory, its handle, its ordered entries, next index) keeps the walk
        // depth-first without recursion, whatever the depth.
        let mut stack: Vec<WalkFrame> = vec![(dir, top, entries, 0)];
        while let Some((parent, handle, entries, index)) = stack.last_mut() {
            let Some(entry) = entries.get(*index) else {
                stack.pop();
                continue;
            };
            *index += 1;
            let parent: &Option<RelPath> = parent;
            let handle = Arc::clone(handle);
            let name = entry.name.as_encoded_bytes();
            if is_skipped(name) {
                continue;
            }
            let eligible = eligibility.accepts(name);
            match entry.kind {
                EntryKind::Symlink => {
                    // Never followed (§4.4): one whose name is eligible, where a note would
                    // have been read, is skipped and reported; any other is ignored.
                    if eligible {
                        let name = String::from_utf8_lossy(name);
                        let shown = match parent {
                            Some(parent) => format!("{}/{name}", parent.as_str()),
                            None => name.into_owned(),
                        };
                        self.skip_link(work, root, &shown);
                    }
                }
                EntryKind::Directory => {
                    // A name that is not UTF-8 cannot be recursed into safely (§4.6).
                    let name = entry.name_str().ok_or(EvidenceError::PathUnsafe)?;
                    let path = child_path(parent.as_ref(), name)?;
                    let child = match handle.open_dir(name) {
                        Ok(Some(child)) => Arc::new(child),
                        // Listed a moment ago and now gone.
                        Ok(None) => return Err(EvidenceError::Changed.into()),
                        Err(error) => return Err(observed_path_error(error)),
                    };
                    let mut children =
                        self.list_handle(work, meter, root, Some(&path), &child, false)?;
                    self.hold(root, Some(path.clone()), &child);
                    self.order_listing(root, Some(&path), &mut children);
                    stack.push((Some(path), child, children, 0));
                }
                kind => {
                    if !eligible {
                        continue;
                    }
                    let name = entry.name_str().ok_or(EvidenceError::PathUnsafe)?;
                    let path = child_path(parent.as_ref(), name)?;
                    if kind != EntryKind::File {
                        // Skipped before any open, so a FIFO never blocks (§4.5).
                        let why = unreadable_kind(kind).ok_or(EvidenceError::NotRegularFile)?;
                        self.skip_unreadable(work, root, path.as_str(), why);
                        continue;
                    }
                    accepted.push(Accepted {
                        path,
                        dir: handle,
                        name: name.to_owned(),
                    });
                }
            }
        }
        Ok(accepted)
    }

    /// Sorts a walked directory's listing into visiting order (§4.1). With the server's cache,
    /// the collation step is remembered per directory and reused for a listing of the same
    /// names, since it depends on nothing else.
    fn order_listing(&self, root: RootId, dir: Option<&RelPath>, entries: &mut Vec<DirEntry>) {
        let Some(((cache, generation), root_identity)) = self.cache.zip(self.root_identity(root))
        else {
            order_entries(entries);
            return;
        };
        sort_by_bytes(entries);
        let key = KeyRef {
            root_dev: root_identity.dev,
            root_ino: root_identity.ino,
            path: dir.map_or("", RelPath::as_str),
        };
        let order = match cache.order(key, entries, generation) {
            Some(order) => order,
            None => {
                let order = collation_order(entries);
                cache.insert_order(key, entries, order.clone(), generation);
                order
            }
        };
        if let Some(order) = order {
            apply_order(entries, &order);
        }
    }

    /// Keeps a walked directory's handle for the final revalidation, up to
    /// [`MAX_HELD_DIRECTORIES`].
    fn hold(&mut self, root: RootId, dir: Option<RelPath>, handle: &Arc<Dir>) {
        if self.handles.len() < MAX_HELD_DIRECTORIES {
            self.handles.insert((root, dir), Arc::clone(handle));
        }
    }

    pub(super) fn inspect_memory(
        &mut self,
        work: &mut ScopeWork,
        meter: &mut Meter,
    ) -> Result<(), ScopeFailure> {
        let memory = rel("memory");
        if self.is_link(work, &memory)? {
            return Ok(());
        }
        let Some(entries) = self.list(work, meter, RootId::Aios, Some(&memory), true)? else {
            // No memory directory: every source is missing, so the scope is empty.
            return Ok(());
        };
        let mut event_shards: Vec<(u32, String)> = Vec::new();
        let mut signal_shards: Vec<(u32, String)> = Vec::new();
        for entry in &entries {
            let Some(name) = entry.name_str() else {
                continue;
            };
            if let Some(number) = shard_number(name, "events-archive.") {
                event_shards.push((number, name.to_owned()));
            } else if let Some(number) = shard_number(name, "signals-archive.") {
                signal_shards.push((number, name.to_owned()));
            }
        }
        event_shards.sort();
        signal_shards.sort();

        let signals_dir = rel("memory/signals");
        let mut signal_files: Vec<String> = Vec::new();
        let signals = if self.is_link(work, &signals_dir)? {
            None
        } else {
            self.list(work, meter, RootId::Aios, Some(&signals_dir), true)?
        };
        if let Some(entries) = signals {
            for entry in entries {
                let name = entry.name.as_encoded_bytes();
                if is_skipped(name) || !Eligibility::Signals.accepts(name) {
                    continue;
                }
                match entry.kind {
                    EntryKind::Symlink => {
                        let name = String::from_utf8_lossy(name);
                        self.skip_link(work, RootId::Aios, &format!("memory/signals/{name}"));
                    }
                    // Subdirectories are not entered; an eligible special file is skipped.
                    EntryKind::Directory => continue,
                    EntryKind::File => {
                        let name = entry.name_str().ok_or(EvidenceError::PathUnsafe)?;
                        signal_files.push(name.to_owned());
                    }
                    kind => {
                        let name = entry.name_str().ok_or(EvidenceError::PathUnsafe)?;
                        let why = unreadable_kind(kind).ok_or(EvidenceError::NotRegularFile)?;
                        let path = format!("memory/signals/{name}");
                        self.skip_unreadable(work, RootId::Aios, &path, why);
                    }
                }
            }
        }
        signal_files.sort_by(|a, b| utf16_cmp(b, a));

        // Events: live, shards, active archive; then signals: shards, active archive, and
        // the live files of `memory/signals/`.
        let mut plans: Vec<(String, Family, Generation)> = vec![(
            "memory/events.jsonl".into(),
            Family::Events,
            Generation::Live,
        )];
        for (family, shards, archive) in [
            (Family::Events, &event_shards, "events-archive.jsonl"),
            (Family::Signals, &signal_shards, "signals-archive.jsonl"),
        ] {
            for (number, name) in shards {
                plans.push((format!("memory/{name}"), family, Generation::Shard(*number)));
            }
            plans.push((
                format!("memory/{archive}"),
                family,
                Generation::ActiveArchive,
            ));
        }
        for name in &signal_files {
            plans.push((
                format!("memory/signals/{name}"),
                Family::Signals,
                Generation::Live,
            ));
        }
        for (label, family, generation) in plans {
            let path = rel(&label);
            let identity = self.inspect_fixed_file(work, &path)?;
            work.jsonl.push(JsonlPlan {
                rel: path,
                label,
                family,
                generation,
                identity,
            });
        }

        if self.request.memory == MemoryMode::Shared {
            for folder in ["memory/daily", "memory/inbox"] {
                self.inspect_folder(work, meter, folder, Eligibility::Markdown)?;
            }
        }
        Ok(())
    }
}

impl Engine<'_> {
    /// Whether the fixed directory `path` below the AIOS root is a symbolic link, which is
    /// then skipped and reported (§4.4); its scope or source counts as empty.
    fn is_link(&self, work: &mut ScopeWork, path: &RelPath) -> Result<bool, ScopeFailure> {
        let found = self.aios.probe(path).map_err(fixed_location_error)?;
        if found.is_some_and(|found| found.kind == EntryKind::Symlink) {
            self.skip_link(work, RootId::Aios, path.as_str());
            return Ok(true);
        }
        Ok(false)
    }
}

/// One directory on the walk's stack: its path, its handle, its ordered entries and the next
/// entry to visit.
type WalkFrame = (Option<RelPath>, Arc<Dir>, Vec<DirEntry>, usize);
