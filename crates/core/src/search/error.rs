//! Search failures (contract 03 §15): typed, path-free, each with its internal code and the fixed
//! public message. The CLI prints [`SearchError`]'s `Display`; MCP maps
//! [`SearchError::is_input_error`] to `-32602` and everything else to its own fixed `-32603`
//! text.

use dotaios_contained::{BudgetDimension, ReadError, UnsafeKind};

use crate::folder::selector::SelectorError;
use crate::search::omission::OmissionReason;

/// An evidence-reader failure code (`DOTAIOS_EVIDENCE_*`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EvidenceError {
    /// A symlink where evidence is read, an unsafe session path, an escape attempt.
    PathUnsafe,
    /// An eligible special file, or a fixed source that is not a regular file.
    NotRegularFile,
    /// Content that is not strict UTF-8.
    InvalidUtf8,
    /// An observed mutation.
    Changed,
    /// A read outside the authorised roots.
    RootUnauthorized,
    /// `aios.json` is not valid JSON (or has an unusable `vault_path`).
    ConfigInvalid,
    /// A JSON document the shared reader needed was invalid.
    JsonInvalid,
    /// A frontmatter block the shared reader needed was invalid.
    FrontmatterInvalid,
    /// The platform cannot do a bounded read or listing.
    BoundedReadUnavailable,
    /// A non-dimensional budget failure.
    BudgetExceeded,
    /// Any other I/O failure.
    ReadFailed,
    /// A file over its per-file limit outside any scope, or during execution.
    FileTooLarge,
    /// A directory over its entry limit outside any scope, or during execution.
    DirectoryTooLarge,
    /// The aggregate byte ceiling, outside any scope or during execution.
    ByteBudgetExceeded,
    /// The file-count ceiling, outside any scope or during execution.
    FileCountExceeded,
    /// The entry-count ceiling, outside any scope or during execution.
    EntryCountExceeded,
}

impl EvidenceError {
    /// The internal code.
    pub fn code(self) -> &'static str {
        match self {
            EvidenceError::PathUnsafe => "DOTAIOS_EVIDENCE_PATH_UNSAFE",
            EvidenceError::NotRegularFile => "DOTAIOS_EVIDENCE_NOT_REGULAR_FILE",
            EvidenceError::InvalidUtf8 => "DOTAIOS_EVIDENCE_INVALID_UTF8",
            EvidenceError::Changed => "DOTAIOS_EVIDENCE_CHANGED",
            EvidenceError::RootUnauthorized => "DOTAIOS_EVIDENCE_ROOT_UNAUTHORIZED",
            EvidenceError::ConfigInvalid => "DOTAIOS_EVIDENCE_CONFIG_INVALID",
            EvidenceError::JsonInvalid => "DOTAIOS_EVIDENCE_JSON_INVALID",
            EvidenceError::FrontmatterInvalid => "DOTAIOS_EVIDENCE_FRONTMATTER_INVALID",
            EvidenceError::BoundedReadUnavailable => "DOTAIOS_EVIDENCE_BOUNDED_READ_UNAVAILABLE",
            EvidenceError::BudgetExceeded => "DOTAIOS_EVIDENCE_BUDGET_EXCEEDED",
            EvidenceError::ReadFailed => "DOTAIOS_EVIDENCE_READ_FAILED",
            EvidenceError::FileTooLarge => "DOTAIOS_EVIDENCE_FILE_TOO_LARGE",
            EvidenceError::DirectoryTooLarge => "DOTAIOS_EVIDENCE_DIRECTORY_TOO_LARGE",
            EvidenceError::ByteBudgetExceeded => "DOTAIOS_EVIDENCE_BYTE_BUDGET_EXCEEDED",
            EvidenceError::FileCountExceeded => "DOTAIOS_EVIDENCE_FILE_COUNT_EXCEEDED",
            EvidenceError::EntryCountExceeded => "DOTAIOS_EVIDENCE_ENTRY_COUNT_EXCEEDED",
        }
    }

    /// The fixed, path-free public message of §15.
    pub fn message(self) -> &'static str {
        match self {
            EvidenceError::BudgetExceeded => {
                "DotAIOS stopped reading: this folder is past the safe read budget for one request. Ask for a narrower part of it, or move older material out of the folder."
            }
            EvidenceError::FileTooLarge => {
                "DotAIOS stopped reading: one file is past the safe per-file size limit. Split that file, or move it out of the folder."
            }
            EvidenceError::DirectoryTooLarge => {
                "DotAIOS stopped reading: one directory holds more entries than the safe limit. Move some of its entries elsewhere."
            }
            EvidenceError::ByteBudgetExceeded => {
                "DotAIOS stopped reading: this folder is past the safe aggregate byte limit for one request."
            }
            EvidenceError::FileCountExceeded => {
                "DotAIOS stopped reading: this folder contains more files than one request can safely inspect."
            }
            EvidenceError::EntryCountExceeded => {
                "DotAIOS stopped reading: this folder contains more entries than one request can safely inspect."
            }
            _ => "DotAIOS could not read the evidence corpus safely.",
        }
    }

    /// The fatal code of a ceiling (outside a scope, or during execution).
    pub(crate) fn of_ceiling(reason: OmissionReason) -> EvidenceError {
        match reason {
            OmissionReason::FileTooLarge => EvidenceError::FileTooLarge,
            OmissionReason::DirectoryEntriesExceeded => EvidenceError::DirectoryTooLarge,
            OmissionReason::AggregateBytesExceeded => EvidenceError::ByteBudgetExceeded,
            OmissionReason::FileCountExceeded => EvidenceError::FileCountExceeded,
            OmissionReason::EntryCountExceeded => EvidenceError::EntryCountExceeded,
            OmissionReason::ScopeForbiddenByMemoryPolicy | OmissionReason::OmissionsTruncated => {
                EvidenceError::BudgetExceeded
            }
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
    #[error("project selector must be a non-empty string")]
    SelectorMissing,
    /// No project matches (`DOTAIOS_PROJECT_SELECTOR_UNKNOWN`).
    #[error("project selector is unknown")]
    SelectorUnknown,
    /// Two or more projects match (`DOTAIOS_PROJECT_SELECTOR_AMBIGUOUS`).
    #[error("project selector is ambiguous; use its stable id")]
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

/// Turns a scope failure outside any scope (or during execution) into the fatal error.
pub(crate) fn fatal(failure: ScopeFailure) -> SearchError {
    match failure {
        ScopeFailure::Fatal(error) => error,
        ScopeFailure::Skippable(reason) => SearchError::Evidence(EvidenceError::of_ceiling(reason)),
    }
}
