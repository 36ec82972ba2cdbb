//! Search failures (contract 03 §15): typed, path-free, each with its internal code and the fixed
//! public message ([`PublicError`]). The CLI prints [`SearchError`]'s `Display`; MCP maps
//! [`SearchError::is_input_error`] to `-32602` and everything else to its own fixed `-32603`
//! text. The evidence reader's codes and messages are [`crate::error::EvidenceError`]'s.

use std::borrow::Cow;

use dotaios_contained::{BudgetDimension, DirEntry, EntryKind, ReadError, UnsafeKind};

pub use crate::error::EvidenceError;
use crate::error::PublicError;
use crate::folder::selector::SelectorError;
use crate::search::omission::{OmissionReason, Unreadable};

impl EvidenceError {
    /// The fatal code of a ceiling (outside a scope, or during execution).
    pub(crate) fn of_ceiling(reason: OmissionReason) -> EvidenceError {
        match reason {
            OmissionReason::FileTooLarge => EvidenceError::FileTooLarge,
            OmissionReason::DirectoryEntriesExceeded => EvidenceError::DirectoryTooLarge,
            OmissionReason::AggregateBytesExceeded => EvidenceError::ByteBudgetExceeded,
            OmissionReason::FileCountExceeded => EvidenceError::FileCountExceeded,
            OmissionReason::EntryCountExceeded => EvidenceError::EntryCountExceeded,
            OmissionReason::ScopeForbiddenByMemoryPolicy
            | OmissionReason::OmissionsTruncated
            | OmissionReason::SymlinkSkipped
            | OmissionReason::UnreadableSkipped => EvidenceError::BudgetExceeded,
        }
    }
}

/// Why a search failed. `Display` is the line the CLI prints.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SearchError {
    /// The project selector failed the canonical grammar (`DOTAIOS_PROJECT_SELECTOR_INVALID`).
    #[error("{0}")]
    Selector(SelectorError),
    /// `scope = projects` in Shared mode: no selector (`DOTAIOS_PROJECT_SELECTOR_INVALID`).
    #[error("{}", SelectorError::Empty)]
    SelectorMissing,
    /// No project matches (`DOTAIOS_PROJECT_SELECTOR_UNKNOWN`): the identity resolver's text.
    #[error("{}", crate::folder::projects::IdentityError::Unknown)]
    SelectorUnknown,
    /// Two or more projects match (`DOTAIOS_PROJECT_SELECTOR_AMBIGUOUS`).
    #[error("{}", crate::error::PROJECT_AMBIGUOUS_MESSAGE)]
    SelectorAmbiguous,
    /// The directly named project has an invalid identity (`DOTAIOS_PROJECT_CATALOG_INVALID`);
    /// the message is the resolver's.
    #[error("{0}")]
    Catalog(String),
    /// An evidence-reader failure.
    #[error("{}", .0.message())]
    Evidence(EvidenceError),
}

impl SearchError {
    /// The internal code.
    pub fn code(&self) -> &'static str {
        match self {
            SearchError::Selector(_) | SearchError::SelectorMissing => {
                "DOTAIOS_PROJECT_SELECTOR_INVALID"
            }
            SearchError::SelectorUnknown => "DOTAIOS_PROJECT_SELECTOR_UNKNOWN",
            SearchError::SelectorAmbiguous => "DOTAIOS_PROJECT_SELECTOR_AMBIGUOUS",
            SearchError::Catalog(_) => "DOTAIOS_PROJECT_CATALOG_INVALID",
            SearchError::Evidence(error) => error.code(),
        }
    }

    /// Input errors (MCP `-32602` with the message); every other failure is internal.
    pub fn is_input_error(&self) -> bool {
        matches!(
            self,
            SearchError::Selector(_)
                | SearchError::SelectorMissing
                | SearchError::SelectorUnknown
                | SearchError::SelectorAmbiguous
        )
    }
}

impl PublicError for SearchError {
    fn code(&self) -> &'static str {
        SearchError::code(self)
    }

    fn message(&self) -> Cow<'static, str> {
        match self {
            SearchError::Evidence(error) => Cow::Borrowed(EvidenceError::message(*error)),
            other => Cow::Owned(other.to_string()),
        }
    }

    fn is_input_error(&self) -> bool {
        SearchError::is_input_error(self)
    }
}

impl From<EvidenceError> for SearchError {
    fn from(error: EvidenceError) -> SearchError {
        SearchError::Evidence(error)
    }
}

/// A failure inside one scope: a ceiling that omits the scope, or a fatal error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ScopeFailure {
    Skippable(OmissionReason),
    Fatal(SearchError),
}

impl From<EvidenceError> for ScopeFailure {
    fn from(error: EvidenceError) -> ScopeFailure {
        ScopeFailure::Fatal(SearchError::Evidence(error))
    }
}

impl From<SearchError> for ScopeFailure {
    fn from(error: SearchError) -> ScopeFailure {
        ScopeFailure::Fatal(error)
    }
}

/// The ceiling a ledger dimension stands for.
pub(crate) fn ceiling_of(dimension: BudgetDimension) -> OmissionReason {
    match dimension {
        BudgetDimension::Files => OmissionReason::FileCountExceeded,
        BudgetDimension::Bytes => OmissionReason::AggregateBytesExceeded,
        BudgetDimension::Entries => OmissionReason::EntryCountExceeded,
    }
}

/// Maps a read error at a location opened for the first time in this request (a fixed
/// location, §4.8): links and non-directories on the way are unsafe.
pub(crate) fn fixed_location_error(error: ReadError) -> ScopeFailure {
    match error {
        ReadError::Unsafe(_) => EvidenceError::PathUnsafe.into(),
        ReadError::NotRegular(_) => EvidenceError::NotRegularFile.into(),
        ReadError::TooLarge => ScopeFailure::Skippable(OmissionReason::FileTooLarge),
        ReadError::Changed => EvidenceError::Changed.into(),
        ReadError::InvalidUtf8 => EvidenceError::InvalidUtf8.into(),
        ReadError::Budget(dimension) => ScopeFailure::Skippable(ceiling_of(dimension)),
        ReadError::DirectoryLimit => {
            ScopeFailure::Skippable(OmissionReason::DirectoryEntriesExceeded)
        }
        ReadError::Io(_) => EvidenceError::ReadFailed.into(),
    }
}

/// Maps a read error for a path that enumeration already saw as a real directory or regular
/// file (§4.8): a link, a disappearance or a non-directory now means the folder changed.
pub(crate) fn observed_path_error(error: ReadError) -> ScopeFailure {
    match error {
        ReadError::Unsafe(UnsafeKind::Escape) => EvidenceError::PathUnsafe.into(),
        ReadError::Unsafe(_) | ReadError::NotRegular(_) | ReadError::TooLarge => {
            EvidenceError::Changed.into()
        }
        other => fixed_location_error(other),
    }
}

/// The one skip rule for a file's kind (contract 03 §4.5): an eligible FIFO, socket or device,
/// (or an object the kernel does not classify) seen by the listing or a no-follow probe before
/// any open, is skipped, never opened. A
/// directory where a file is expected stays the caller's failure (`None`).
pub(crate) fn unreadable_kind(kind: EntryKind) -> Option<Unreadable> {
    match kind {
        EntryKind::Fifo
        | EntryKind::Socket
        | EntryKind::CharDevice
        | EntryKind::BlockDevice
        | EntryKind::Unknown => Some(Unreadable::NotRegularFile),
        EntryKind::File | EntryKind::Directory | EntryKind::Symlink => None,
    }
}

/// The one skip rule for a failed read of a file its walk or probe saw as a regular file
/// (contract 03 §4.5, §4.7): content that is not strict UTF-8, or an open refused with
/// permission denied, skips the file. Everything else keeps its mapping
/// ([`observed_path_error`]): a change of identity, an escape, a link swapped in, a special
/// file swapped in and any other I/O failure are still fatal, so containment never turns into
/// a skip.
pub(crate) fn unreadable_read(error: &ReadError) -> Option<Unreadable> {
    match error {
        ReadError::InvalidUtf8 => Some(Unreadable::NotUtf8),
        ReadError::Io(std::io::ErrorKind::PermissionDenied) => Some(Unreadable::PermissionDenied),
        _ => None,
    }
}

/// The one skip rule for a listed name that is not UTF-8 (contract 03 §4.6, Unix bytes or
/// Windows UTF-16 with an unpaired surrogate alike), for an entry the walk would enter (a
/// folder) or accept (an eligible file of any kind), after the skip rule and the eligibility
/// predicate judged its raw bytes: the entry is skipped and reported, a folder with everything
/// below it, since such a name can be neither shown as text nor matched as the reference's
/// paths. `None` for a UTF-8 name. A symbolic link is the caller's (§4.4), whatever its name.
pub(crate) fn unreadable_name(entry: &DirEntry) -> Option<Unreadable> {
    if entry.name_str().is_some() {
        return None;
    }
    Some(match entry.kind {
        EntryKind::Directory => Unreadable::FolderNameNotUtf8,
        _ => Unreadable::NameNotUtf8,
    })
}

pub(crate) fn fatal(failure: ScopeFailure) -> SearchError {
    match failure {
        ScopeFailure::Fatal(error) => error,
        ScopeFailure::Skippable(reason) => SearchError::Evidence(EvidenceError::of_ceiling(reason)),
    }
}
