//! Omission records (contract 03 §14.4): the closed, path-free description of a scope that was not
//! searched, why, how much of it was observed and what the user can do.

use serde_json::{Map, Value};

/// The most omission records a result keeps before the remainder record.
pub(crate) const OMISSION_CAP: usize = 32;

/// Why a scope was omitted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OmissionReason {
    /// A file is over the 4 MiB per-file limit.
    FileTooLarge,
    /// A directory has more than 8,192 entries.
    DirectoryEntriesExceeded,
    /// The scope does not fit the aggregate byte ceiling.
    AggregateBytesExceeded,
    /// The scope does not fit the file-count ceiling.
    FileCountExceeded,
    /// The scope does not fit the entry-count ceiling.
    EntryCountExceeded,
    /// Project memory forbids the requested scope (§2.3).
    ScopeForbiddenByMemoryPolicy,
    /// More than `OMISSION_CAP` (32) records (the remainder record).
    OmissionsTruncated,
    /// Symbolic links the scope's walk met where a file or folder would have been read; they
    /// were skipped, never followed (§4.4), and the rest of the scope was searched.
    SymlinkSkipped,
    /// Eligible files the scope could not read: not a regular file, not UTF-8, or not readable
    /// by this user (§4.5); they were skipped and the rest of the scope was searched.
    UnreadableSkipped,
}

impl OmissionReason {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            OmissionReason::FileTooLarge => "file_too_large",
            OmissionReason::DirectoryEntriesExceeded => "directory_entries_exceeded",
            OmissionReason::AggregateBytesExceeded => "aggregate_bytes_exceeded",
            OmissionReason::FileCountExceeded => "file_count_exceeded",
            OmissionReason::EntryCountExceeded => "entry_count_exceeded",
            OmissionReason::ScopeForbiddenByMemoryPolicy => "scope_forbidden_by_memory_policy",
            OmissionReason::OmissionsTruncated => "omissions_truncated",
            OmissionReason::SymlinkSkipped => "symlink_skipped",
            OmissionReason::UnreadableSkipped => "unreadable_skipped",
        }
    }

    /// `partially_enumerated` for a directory over its entry limit, `partially_searched` for
    /// skipped links or unreadable files (the rest of the scope was searched), else
    /// `not_searched`.
    pub fn inspection(self) -> &'static str {
        match self {
            OmissionReason::DirectoryEntriesExceeded => "partially_enumerated",
            OmissionReason::SymlinkSkipped | OmissionReason::UnreadableSkipped => {
                "partially_searched"
            }
            _ => "not_searched",
        }
    }

    /// `recovery.code`.
    pub fn recovery_code(self) -> &'static str {
        match self {
            OmissionReason::FileTooLarge => "split_or_move_file",
            OmissionReason::DirectoryEntriesExceeded => "reduce_directory_entries",
            OmissionReason::AggregateBytesExceeded
            | OmissionReason::FileCountExceeded
            | OmissionReason::EntryCountExceeded => "narrow_or_reduce_scope",
            OmissionReason::ScopeForbiddenByMemoryPolicy => "choose_project_scope_or_shared_memory",
            OmissionReason::OmissionsTruncated => "narrow_scope",
            OmissionReason::SymlinkSkipped => "replace_links",
            OmissionReason::UnreadableSkipped => "fix_unreadable_files",
        }
    }

    /// `recovery.message`.
    pub fn recovery_message(self) -> &'static str {
        match self {
            OmissionReason::FileTooLarge => {
                "Split the oversized file, or move it outside this search scope."
            }
            OmissionReason::DirectoryEntriesExceeded => {
                "Move some directory entries elsewhere, then retry the same search."
            }
            OmissionReason::AggregateBytesExceeded => {
                "Search a narrower scope, or move older material outside this scope."
            }
            OmissionReason::FileCountExceeded => {
                "Search a narrower scope, or move some files outside this scope."
            }
            OmissionReason::EntryCountExceeded => {
                "Search a narrower scope, or archive entries outside this scope."
            }
            OmissionReason::ScopeForbiddenByMemoryPolicy => {
                "Search sessions, memory, or projects, or choose Shared memory for this scope."
            }
            OmissionReason::OmissionsTruncated => {
                "Search one logical scope at a time to inspect every omission."
            }
            OmissionReason::SymlinkSkipped => {
                "Symbolic links are never followed: move linked notes into the folder, or set vault_path in aios.json to a linked vault; run dotaios doctor to list them."
            }
            // Kept no longer than the directory record's text, so the MCP floor, derived from
            // the worst-case omission record, does not move (contract 03 §16.3).
            OmissionReason::UnreadableSkipped => {
                "Files that are not readable UTF-8 were skipped; dotaios doctor names them."
            }
        }
    }
}

/// Why an eligible file was skipped as unreadable (contract 03 §4.5). Which read failures
/// become a skip is decided in one place, `search::error` (`unreadable_kind`,
/// `unreadable_read`); everything else stays fatal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Unreadable {
    /// A FIFO, socket or device with an eligible name: never opened.
    NotRegularFile,
    /// Content that is not strict UTF-8 (a UTF-16 note, a binary file) (§4.7).
    NotUtf8,
    /// The open was refused with permission denied.
    PermissionDenied,
    /// An eligible file whose name is not UTF-8 (§4.6): never opened, since its name can be
    /// neither shown nor matched as the reference's text.
    NameNotUtf8,
    /// A folder whose name is not UTF-8 (§4.6): never entered, so nothing below it is visited;
    /// it counts as one skipped entry.
    FolderNameNotUtf8,
}

impl Unreadable {
    /// What is wrong and what to do, after the file's path on the CLI's stderr (§17.4).
    pub fn fix(self) -> &'static str {
        match self {
            Unreadable::NotRegularFile => {
                "not a regular file (a pipe, socket or device). Move it out of the folder."
            }
            Unreadable::NotUtf8 => {
                "not UTF-8 text. Re-save it as UTF-8, or move it out of the folder."
            }
            Unreadable::PermissionDenied => {
                "no read permission. Make it readable (chmod u+r), or move it out of the folder."
            }
            Unreadable::NameNotUtf8 => {
                "its name is not UTF-8. Rename it to valid UTF-8, or move it out of the folder."
            }
            Unreadable::FolderNameNotUtf8 => {
                "its name is not UTF-8, so nothing in it was searched. Rename it to valid UTF-8, or move it out of the folder."
            }
        }
    }

    /// What was skipped, as the CLI's stderr line says it (§17.4): `file`, or `folder` for a
    /// folder whose name is not UTF-8.
    pub fn noun(self) -> &'static str {
        match self {
            Unreadable::FolderNameNotUtf8 => "folder",
            Unreadable::NotRegularFile
            | Unreadable::NotUtf8
            | Unreadable::PermissionDenied
            | Unreadable::NameNotUtf8 => "file",
        }
    }
}

/// One file a search skipped as unreadable, or one folder whose name is not UTF-8: its path as
/// the CLI names it (relative to the AIOS folder, an external vault's as `vault/…`, through the
/// one name rule; a folder's ending in `/`) and why. Never in the MCP payload (contract 05 §9).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkippedFile {
    /// The file's path.
    pub path: String,
    /// Why it was skipped.
    pub why: Unreadable,
}

/// Counts in the three ledger dimensions: files, bytes and entries (directory entries plus
/// non-blank JSONL lines). The contained reader's own amount type, which its ledger limits are
/// too, so a count and a ledger bound never need converting.
pub use dotaios_contained::Counts;

/// The file or folder that made a scope go over a per-file or per-directory ceiling, as the CLI
/// names it (contract 03 §17.4): relative to the AIOS folder (an external vault's as `vault/…`),
/// through the one name rule (contract 02 §10.1). The record's JSON (§14.4) never carries it, so
/// the MCP answer stays path-free (contract 05 §9).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OmissionCause {
    /// A file over [`crate::search::MAX_FILE_BYTES`]: its path and its size in bytes.
    File {
        /// The file's path.
        path: String,
        /// Its size when it was stat'ed.
        bytes: u64,
    },
    /// A directory over [`crate::search::MAX_DIRECTORY_ENTRIES`]: its path, ending in `/`.
    Directory {
        /// The directory's path.
        path: String,
    },
}

impl OmissionCause {
    /// The one reason this cause explains.
    pub fn reason(&self) -> OmissionReason {
        match self {
            OmissionCause::File { .. } => OmissionReason::FileTooLarge,
            OmissionCause::Directory { .. } => OmissionReason::DirectoryEntriesExceeded,
        }
    }
}

/// One omission record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Omission {
    /// The omitted scope's name, or `all` for the remainder record.
    pub scope: &'static str,
    /// Why.
    pub reason: OmissionReason,
    /// What was observed of the scope, each dimension capped at capacity + 1.
    pub observed: Counts,
    /// For `file_too_large` and `directory_entries_exceeded`, the file or folder over the
    /// limit, when the walk saw it; for the CLI only, never in [`Omission::to_value`].
    pub cause: Option<OmissionCause>,
}

impl Omission {
    /// The record of `files` entries a searched scope skipped (`symlink_skipped`,
    /// `unreadable_skipped`, §14.4): nothing skipped is charged, so `bytes` and `entries` are 0.
    pub(crate) fn skipped(scope: &'static str, reason: OmissionReason, files: usize) -> Omission {
        Omission {
            scope,
            reason,
            observed: Counts {
                files: files as u64,
                bytes: 0,
                entries: 0,
            },
            cause: None,
        }
    }

    /// What a person reads about this omission after its scope's name (contract 03 §17.4): the
    /// file or folder over a per-file or per-directory limit and that limit, when the walk saw
    /// it, then the recovery message and the reason. `dotaios search`'s stderr and `dotaios
    /// doctor`'s search check both print it, so the two never word one omission differently.
    pub fn explanation(&self) -> String {
        let cause = match &self.cause {
            Some(OmissionCause::File { path, bytes }) => format!(
                "{path} is {bytes} bytes, over the {}-byte per-file limit. ",
                crate::search::MAX_FILE_BYTES
            ),
            Some(OmissionCause::Directory { path }) => format!(
                "{path} has more than {} entries. ",
                crate::search::MAX_DIRECTORY_ENTRIES
            ),
            None => String::new(),
        };
        format!(
            "{cause}{} (reason: {})",
            self.reason.recovery_message(),
            self.reason.as_str()
        )
    }

    /// The record as the JSON object of §14.4, members in their fixed order.
    pub fn to_value(&self) -> Value {
        let mut observed = Map::new();
        observed.insert("files".into(), Value::from(self.observed.files));
        observed.insert("bytes".into(), Value::from(self.observed.bytes));
        observed.insert("entries".into(), Value::from(self.observed.entries));
        let mut recovery = Map::new();
        recovery.insert("code".into(), Value::from(self.reason.recovery_code()));
        recovery.insert(
            "message".into(),
            Value::from(self.reason.recovery_message()),
        );
        let mut object = Map::new();
        object.insert("scope".into(), Value::from(self.scope));
        object.insert("reason".into(), Value::from(self.reason.as_str()));
        object.insert("observed".into(), Value::Object(observed));
        object.insert("inspection".into(), Value::from(self.reason.inspection()));
        object.insert("recovery".into(), Value::Object(recovery));
        Value::Object(object)
    }
}

/// Keeps at most [`OMISSION_CAP`] records and appends the remainder record when more were
/// collected.
pub(crate) fn cap_omissions(mut omissions: Vec<Omission>) -> Vec<Omission> {
    if omissions.len() <= OMISSION_CAP {
        return omissions;
    }
    let beyond = (omissions.len() - OMISSION_CAP) as u64;
    omissions.truncate(OMISSION_CAP);
    omissions.push(Omission {
        scope: "all",
        reason: OmissionReason::OmissionsTruncated,
        observed: Counts {
            files: 0,
            bytes: 0,
            entries: beyond,
        },
        cause: None,
    });
    omissions
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::to_json_compact;

    #[test]
    fn record_shape() {
        let omission = Omission {
            scope: "vault",
            reason: OmissionReason::DirectoryEntriesExceeded,
            observed: Counts {
                files: 0,
                bytes: 0,
                entries: 8193,
            },
            cause: Some(OmissionCause::Directory {
                path: "vault/inbox/".into(),
            }),
        };
        assert_eq!(
            to_json_compact(&omission.to_value()),
            r#"{"scope":"vault","reason":"directory_entries_exceeded","observed":{"files":0,"bytes":0,"entries":8193},"inspection":"partially_enumerated","recovery":{"code":"reduce_directory_entries","message":"Move some directory entries elsewhere, then retry the same search."}}"#
        );
    }

    /// The MCP floor (contract 03 §16.3) is derived from the directory record at the worst
    /// counts; an `unreadable_skipped` record at the same counts (its real `bytes` and
    /// `entries` are 0) must not be longer, or the floor and `tools/list` would move.
    #[test]
    fn unreadable_record_is_no_longer_than_the_floor_record() {
        let worst = |reason| Omission {
            scope: "references",
            reason,
            observed: Counts {
                files: crate::search::REQUEST_LIMITS.files + 1,
                bytes: crate::search::REQUEST_LIMITS.bytes + 1,
                entries: crate::search::REQUEST_LIMITS.entries + 1,
            },
            cause: None,
        };
        let length = |reason| crate::text::utf16_len(&to_json_compact(&worst(reason).to_value()));
        assert!(
            length(OmissionReason::UnreadableSkipped)
                <= length(OmissionReason::DirectoryEntriesExceeded)
        );
    }

    #[test]
    fn cap_appends_one_remainder() {
        let one = Omission {
            scope: "vault",
            reason: OmissionReason::FileTooLarge,
            observed: Counts::default(),
            cause: None,
        };
        assert_eq!(cap_omissions(vec![one.clone(); 32]).len(), 32);
        let capped = cap_omissions(vec![one; 40]);
        assert_eq!(capped.len(), 33);
        assert_eq!(
            to_json_compact(&capped[32].to_value()),
            r#"{"scope":"all","reason":"omissions_truncated","observed":{"files":0,"bytes":0,"entries":8},"inspection":"not_searched","recovery":{"code":"narrow_scope","message":"Search one logical scope at a time to inspect every omission."}}"#
        );
    }
}
