//! The reads of one projection (contract 02 §4, 01 §5.1): which files each mode opens, with which
//! cap, through one shared ledger, between two authority snapshots of `aios.json`.
//!
//! Every read goes through [`dotaios_contained::Root`]; nothing here opens a path itself.
//! Any failure ends the whole projection (fail closed, never partial); absent files and
//! directories read as empty.

use dotaios_contained::{EntryKind, Identity, Ledger, Limits, ReadError, RelPath, Root};

use crate::text::utf16_cmp;

const MIB: u64 = 1024 * 1024;

/// The projection ledger (contract 01 §5.1).
pub(crate) const LEDGER_LIMITS: Limits = Limits {
    files: 512,
    bytes: 16 * MIB,
    entries: 10_000,
};

// The per-source caps of contract 01 §5.1; `doctor` predicts refusals from these same values.
pub(crate) const MARKDOWN_CAP: u64 = MIB;
pub(crate) const DECISIONS_CAP: u64 = 4 * MIB;
pub(crate) const TIMELINE_CAP: u64 = 8 * MIB;
const SIGNAL_CAP: u64 = MIB;
pub(crate) const SIGNAL_DIRECTORY_ENTRIES: u64 = 8_192;
const SIGNAL_FILES: usize = 64;

/// Why a projection read failed: the internal codes of contract 01 §4.11. All of them surface as
/// the one public message `DotAIOS could not read working context safely.`
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ReadFailure {
    /// A link, special file, escape or non-directory ancestor.
    UnsafeReadPath,
    /// A source exceeds its per-file cap.
    SourceTooLarge,
    /// A source changed while read, or `aios.json` changed or vanished.
    SourceChanged,
    /// A source is not strict UTF-8.
    InvalidUtf8,
    /// The request ledger is exhausted.
    ReadBudgetExceeded,
    /// More than 8,192 entries in `memory/signals/`.
    SignalDirectoryLimit,
    /// More than 64 signal files in the date window.
    SignalFileLimit,
    /// More than 256 entries in `projects/`.
    ProjectDirectoryLimit,
    /// The project catalog is invalid (slug, link, README, ids).
    ProjectCatalog,
    /// The operating system refused a read (permissions, I/O).
    Unreadable,
}

impl ReadFailure {
    /// The internal code, e.g. `DOTAIOS_CONTEXT_SOURCE_TOO_LARGE`.
    pub fn code(self) -> &'static str {
        match self {
            ReadFailure::UnsafeReadPath => "DOTAIOS_UNSAFE_READ_PATH",
            ReadFailure::SourceTooLarge => "DOTAIOS_CONTEXT_SOURCE_TOO_LARGE",
            ReadFailure::SourceChanged => "DOTAIOS_CONTEXT_SOURCE_CHANGED",
            ReadFailure::InvalidUtf8 => "DOTAIOS_INVALID_UTF8",
            ReadFailure::ReadBudgetExceeded => "DOTAIOS_PROJECTION_READ_BUDGET_EXCEEDED",
            ReadFailure::SignalDirectoryLimit => "DOTAIOS_SIGNAL_DIRECTORY_LIMIT_EXCEEDED",
            ReadFailure::SignalFileLimit => "DOTAIOS_SIGNAL_FILE_LIMIT_EXCEEDED",
            ReadFailure::ProjectDirectoryLimit => "DOTAIOS_PROJECT_DIRECTORY_LIMIT_EXCEEDED",
            ReadFailure::ProjectCatalog => "DOTAIOS_PROJECT_CATALOG_INVALID",
            ReadFailure::Unreadable => "DOTAIOS_CONTEXT_SOURCE_UNREADABLE",
        }
    }

    /// Maps a contained-reader error of a file read or of a listing whose own bound is
    /// `directory_limit`.
    pub(crate) fn from_read(error: ReadError, directory_limit: ReadFailure) -> ReadFailure {
        match error {
            ReadError::Unsafe(_) | ReadError::NotRegular(_) => ReadFailure::UnsafeReadPath,
            ReadError::TooLarge => ReadFailure::SourceTooLarge,
            ReadError::Changed => ReadFailure::SourceChanged,
            ReadError::InvalidUtf8 => ReadFailure::InvalidUtf8,
            ReadError::Budget(_) => ReadFailure::ReadBudgetExceeded,
            ReadError::DirectoryLimit => directory_limit,
            ReadError::Io(_) => ReadFailure::Unreadable,
        }
    }
}

impl From<ReadError> for ReadFailure {
    fn from(error: ReadError) -> ReadFailure {
        // A file read never reports a directory limit; should one appear, it is still a
        // failed read.
        ReadFailure::from_read(error, ReadFailure::UnsafeReadPath)
    }
}

/// A new projection ledger.
pub(crate) fn projection_ledger() -> Ledger {
    Ledger::new(LEDGER_LIMITS)
}

/// Every path built here is made of fixed names, dates and listed file names; one that is not
/// a plain relative path is refused like any unsafe path.
fn rel(path: &str) -> Result<RelPath, ReadFailure> {
    RelPath::new(path).map_err(|_| ReadFailure::UnsafeReadPath)
}

/// The identity of the root and of `aios.json`, compared before and after the reads
/// (contract 01 §4.6).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct AuthoritySnapshot {
    root: Identity,
    config: Identity,
}

/// Takes the authority snapshot; a missing or non-regular `aios.json` counts as changed.
pub(crate) fn authority_snapshot(root: &Root) -> Result<AuthoritySnapshot, ReadFailure> {
    let root_identity = root.restat()?;
    let probe = root.probe(&rel("aios.json")?)?;
    match probe {
        Some(probe) if probe.kind == EntryKind::File => Ok(AuthoritySnapshot {
            root: root_identity,
            config: probe.identity,
        }),
        Some(_) => Err(ReadFailure::UnsafeReadPath),
        None => Err(ReadFailure::SourceChanged),
    }
}

/// Reads a text source, `""` when absent.
pub(crate) fn read_text(
    root: &Root,
    path: &str,
    cap: u64,
    ledger: &mut Ledger,
) -> Result<String, ReadFailure> {
    Ok(root
        .read_text(&rel(path)?, cap, ledger)?
        .map(|file| file.text)
        .unwrap_or_default())
}

/// The Markdown sources of shared mode.
#[derive(Debug, Clone, Default)]
pub(crate) struct SharedSources {
    pub(crate) identity: String,
    pub(crate) priorities: String,
    pub(crate) work: String,
    pub(crate) decisions: String,
    pub(crate) today_note: String,
    pub(crate) yesterday_note: String,
}

/// Reads the shared-mode Markdown sources (contract 02 §4).
pub(crate) fn read_shared(
    root: &Root,
    today: &str,
    yesterday: &str,
    ledger: &mut Ledger,
) -> Result<SharedSources, ReadFailure> {
    Ok(SharedSources {
        identity: read_text(root, "context/identity.md", MARKDOWN_CAP, ledger)?,
        priorities: read_text(root, "context/priorities.md", MARKDOWN_CAP, ledger)?,
        work: read_text(root, "context/work.md", MARKDOWN_CAP, ledger)?,
        decisions: read_text(root, "decisions/log.md", DECISIONS_CAP, ledger)?,
        today_note: read_text(
            root,
            &format!("memory/daily/{today}.md"),
            MARKDOWN_CAP,
            ledger,
        )?,
        yesterday_note: read_text(
            root,
            &format!("memory/daily/{yesterday}.md"),
            MARKDOWN_CAP,
            ledger,
        )?,
    })
}

/// The session index text.
pub(crate) fn read_session_index(root: &Root, ledger: &mut Ledger) -> Result<String, ReadFailure> {
    read_text(root, "memory/sessions/index.jsonl", TIMELINE_CAP, ledger)
}

/// The event log text.
pub(crate) fn read_event_log(root: &Root, ledger: &mut Ledger) -> Result<String, ReadFailure> {
    read_text(root, "memory/events.jsonl", TIMELINE_CAP, ledger)
}

/// One signal file of the date window.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SignalFile {
    /// The entry name, e.g. `laptop-2026-08-28.jsonl`.
    pub(crate) name: String,
    /// The date taken from the name.
    pub(crate) date: String,
    /// The file text.
    pub(crate) text: String,
}

/// The date of a signal file name: `(?:^|-)(\d{4}-\d{2}-\d{2})\.jsonl$`.
pub(crate) fn signal_file_date(name: &str) -> Option<&str> {
    let stem = name.strip_suffix(".jsonl")?;
    let date = stem.get(stem.len().checked_sub(10)?..)?;
    let bytes = date.as_bytes();
    let shape = bytes.iter().enumerate().all(|(index, byte)| match index {
        4 | 7 => *byte == b'-',
        _ => byte.is_ascii_digit(),
    });
    let boundary = stem.len() == 10 || stem.as_bytes()[stem.len() - 11] == b'-';
    (shape && boundary).then_some(date)
}

/// Lists `memory/signals/` and reads the files dated `yesterday` to `today` (contract 02 §7.1).
pub(crate) fn read_signals(
    root: &Root,
    today: &str,
    yesterday: &str,
    ledger: &mut Ledger,
) -> Result<Vec<SignalFile>, ReadFailure> {
    let listing = root
        .list_dir(
            Some(&rel("memory/signals")?),
            SIGNAL_DIRECTORY_ENTRIES,
            ledger,
        )
        .map_err(|error| ReadFailure::from_read(error, ReadFailure::SignalDirectoryLimit))?;
    let Some(listing) = listing else {
        return Ok(Vec::new());
    };
    // A name that is not UTF-8 cannot be a date-named `.jsonl` file the reference would read
    // back; it is ignored like any other non-matching name.
    let mut names: Vec<&str> = listing
        .entries
        .iter()
        .filter_map(|entry| entry.name_str())
        .filter(|name| name.ends_with(".jsonl"))
        .collect();
    names.sort_by(|a, b| utf16_cmp(a, b));
    let kept: Vec<(&str, &str)> = names
        .into_iter()
        .filter_map(|name| Some((name, signal_file_date(name)?)))
        .filter(|(_, date)| yesterday <= *date && *date <= today)
        .collect();
    if kept.len() > SIGNAL_FILES {
        return Err(ReadFailure::SignalFileLimit);
    }
    let mut files = Vec::with_capacity(kept.len());
    for (name, date) in kept {
        let path = rel(&format!("memory/signals/{name}"))?;
        // The listing showed the name; a file gone by now is a change, not an absence.
        let file = root
            .read_text(&path, SIGNAL_CAP, ledger)?
            .ok_or(ReadFailure::SourceChanged)?;
        files.push(SignalFile {
            name: name.to_owned(),
            date: date.to_owned(),
            text: file.text,
        });
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signal_file_dates() {
        assert_eq!(signal_file_date("2026-08-29.jsonl"), Some("2026-08-29"));
        assert_eq!(
            signal_file_date("laptop-2026-08-28.jsonl"),
            Some("2026-08-28")
        );
        assert_eq!(signal_file_date("a-b-2026-08-28.jsonl"), Some("2026-08-28"));
        assert_eq!(signal_file_date("x2026-08-28.jsonl"), None);
        assert_eq!(signal_file_date("2026-08-28.json"), None);
        assert_eq!(signal_file_date("2026-8-28.jsonl"), None);
        assert_eq!(signal_file_date("26-08-28.jsonl"), None);
        assert_eq!(signal_file_date(".jsonl"), None);
        assert_eq!(signal_file_date("é2026-08-28.jsonl"), None);
        assert_eq!(signal_file_date("é-2026-08-28.jsonl"), Some("2026-08-28"));
        assert_eq!(signal_file_date("2026-08-28.JSONL"), None);
        assert_eq!(signal_file_date("2026-08-2٣.jsonl"), None);
    }

    #[test]
    fn codes() {
        assert_eq!(
            ReadFailure::from(ReadError::TooLarge).code(),
            "DOTAIOS_CONTEXT_SOURCE_TOO_LARGE"
        );
        assert_eq!(
            ReadFailure::from_read(ReadError::DirectoryLimit, ReadFailure::SignalDirectoryLimit),
            ReadFailure::SignalDirectoryLimit
        );
        assert_eq!(
            ReadFailure::from(ReadError::NotRegular(EntryKind::Fifo)),
            ReadFailure::UnsafeReadPath
        );
    }
}
