//! The configuration read and the vault's authorisation (contract 03 §3.2–§3.4): `aios.json`
//! read through the contained reader and charged to the request ledger, its `vault_path` taken
//! by the one `aios.json` reader (`folder::config::configured_vault_path`), and the vault
//! placed beneath the AIOS root or opened as a second authorised root.
//!
//! A vault folder beneath the root that is a symbolic link to a directory becomes the external
//! vault it points to (contract 03 §3.4).
//!
//! It owns where the vault is read; it never parses `aios.json` itself, never reads below the
//! vault, and never authorises a root other than the AIOS root and the vault.

use std::path::{Path, PathBuf};

use dotaios_contained::{EntryKind, Identity, Ledger, RelPath, Root};

use crate::folder::config::{CONFIG_PATH, configured_vault_path};
use crate::folder::location::absolutize;
use crate::search::MAX_CONFIG_BYTES;
use crate::search::error::{EvidenceError, SearchError, fatal, fixed_location_error};

use super::{Engine, RootId, open_root, rel};

/// Where the vault is read (§3.4).
#[derive(Debug)]
pub(super) enum VaultPlace {
    /// Beneath the AIOS root, at this directory (`None` = the root itself).
    Inside(Option<RelPath>),
    /// A second authorised root; `None` when the directory does not exist.
    External {
        root: Option<Root>,
        path: PathBuf,
        identity: Option<Identity>,
    },
}

impl Engine<'_> {
    /// §3.2–§3.4: reads `aios.json` (charged, fatal on every failure) and authorises the vault.
    pub(super) fn read_config(&mut self) -> Result<(), SearchError> {
        let path = rel(CONFIG_PATH);
        let mut sub = Ledger::new(self.ledger.remaining());
        let read = self.aios.read_text(&path, MAX_CONFIG_BYTES, &mut sub);
        self.book(sub.used());
        let file = match read {
            Ok(Some(file)) => file,
            // It existed when the caller checked: it has since gone.
            Ok(None) => return Err(EvidenceError::Changed.into()),
            Err(error) => return Err(fatal(fixed_location_error(error))),
        };
        self.files.push((RootId::Aios, path, file.identity));
        let vault_path =
            configured_vault_path(&file.text).map_err(|_| EvidenceError::ConfigInvalid)?;
        if let Some(vault_path) = vault_path {
            self.vault = self.authorise_vault(&vault_path)?;
        }
        self.follow_vault_link();
        Ok(())
    }

    /// A vault folder beneath the AIOS root that is itself a symbolic link to a directory
    /// (`~/aios/vault -> ~/Obsidian`) is served as the external vault it points to, exactly as
    /// if `vault_path` named it (§3.4): the link is resolved once, by the same open as
    /// the AIOS root, and everything below it is read beneath that second root. A link that
    /// does not lead to a directory stays where it is, and the walk skips and reports it.
    fn follow_vault_link(&mut self) {
        let VaultPlace::Inside(Some(dir)) = &self.vault else {
            return;
        };
        let linked = matches!(
            self.aios.probe(dir),
            Ok(Some(found)) if found.kind == EntryKind::Symlink
        );
        if !linked {
            return;
        }
        let path = dir
            .components()
            .fold(self.aios_path.clone(), |path, part| path.join(part));
        if let Ok(root) = open_root(&path)
            && let Ok(identity) = root.restat()
        {
            self.vault = VaultPlace::External {
                root: Some(root),
                path,
                identity: Some(identity),
            };
        }
    }

    /// §3.4: the vault inside the AIOS root (read beneath it) or a second authorised root.
    fn authorise_vault(&self, vault_path: &str) -> Result<VaultPlace, SearchError> {
        // No `~` expansion; relative values resolve against the AIOS root (01 §3.9 open point).
        let resolved = absolutize(Path::new(vault_path), &self.aios_path);
        let root = absolutize(&self.aios_path, Path::new("/"));
        if let Ok(inside) = resolved.strip_prefix(&root) {
            if inside.as_os_str().is_empty() {
                return Ok(VaultPlace::Inside(None));
            }
            let text = inside.to_str().ok_or(EvidenceError::PathUnsafe)?;
            let path = RelPath::new(text).map_err(|_| EvidenceError::PathUnsafe)?;
            return Ok(VaultPlace::Inside(Some(path)));
        }
        match open_root(&resolved) {
            Ok(root) => {
                let identity = root.restat().map_err(|_| EvidenceError::ReadFailed)?;
                Ok(VaultPlace::External {
                    root: Some(root),
                    path: resolved,
                    identity: Some(identity),
                })
            }
            Err(dotaios_contained::RootError::NotFound) => Ok(VaultPlace::External {
                root: None,
                path: resolved,
                identity: None,
            }),
            Err(dotaios_contained::RootError::NotDirectory) => {
                Err(EvidenceError::PathUnsafe.into())
            }
            Err(dotaios_contained::RootError::Io(_)) => Err(EvidenceError::ReadFailed.into()),
        }
    }
}
