//! The one error vocabulary of `dotaios-core`: [`PublicError`], which every error a surface
//! can show implements (an internal code, a fixed public message, and whether it is the
//! caller's input that is wrong), [`PayloadError`], the budget refusal of both bounded tool
//! payloads, and [`EvidenceError`], the evidence reader's codes and
//! messages (contract 03 §15) that search, the skill catalog and the skill resolver all answer
//! with.
//!
//! **Invariant:** no public message is built from an OS error, a path or file content; a
//! message may echo only a bounded, caller-supplied value the contract names. The surfaces
//! choose *whether* to show a message (the adapter shows input errors and replaces every
//! internal one with its fixed `-32603` text), never *what* it says.

use std::borrow::Cow;

use crate::budget::FitError;

/// The code of a payload budget below the smallest envelope (contract 05 §8.3, 04 §6.5).
pub const BUDGET_TOO_SMALL_CODE: &str = "DOTAIOS_BUDGET_TOO_SMALL";
/// The code of a `budget.used` that did not reach a fixed point (contract 05 §8.1).
pub const BUDGET_UNSTABLE_CODE: &str = "DOTAIOS_BUDGET_UNSTABLE";

/// The public text of every internal failure (contract 05 §6.10, the adapter's `-32603`).
pub const INTERNAL_FAILURE_MESSAGE: &str = "DotAIOS request failed safely.";

/// The adapter's answer when the folder holds no `aios.json` (contract 05 §6.7), also its one
/// start-up line on stderr then (§1.4). Path-free, unlike the CLI's line (contract 06 §1.3), and
/// it names what creates the folder, since an agent reads it.
pub const NO_FOLDER_MESSAGE: &str = "No AIOS folder found at the configured path. Create it with `dotaios init` (give it the adapter's --path, if any), or point --path at an existing AIOS folder.";

/// The tools' text for a project selector that matches more than one project (contract 05
/// §6.8; `search_aios`, `read_working_context` and `resolve_skill` alike).
pub const PROJECT_AMBIGUOUS_MESSAGE: &str = "project selector is ambiguous; use its stable id";
/// The tools' text for a project selector that matches no project (contract 05 §6.8;
/// `read_working_context` and `resolve_skill`).
pub const PROJECT_UNREGISTERED_MESSAGE: &str =
    "project is not registered; choose a registered slug or stable id";

/// An error a surface may show: its internal code, its public message and its class.
pub trait PublicError {
    /// The internal `DOTAIOS_*` code (logs and tests; never shown alone).
    fn code(&self) -> &'static str;
    /// The fixed, path-free public message.
    fn message(&self) -> Cow<'static, str>;
    /// Whether the request itself is wrong (MCP `-32602`); everything else is internal.
    fn is_input_error(&self) -> bool;
}

/// Why no tool payload fits its budget (contract 05 §8.1, §8.3; 04 §6.5), for the search and
/// the skill payload alike.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum PayloadError {
    /// Even with no items and the echo reduced to its marker the text is longer than the
    /// budget. `envelope` names the payload: `search` or `skill`.
    #[error("budget {budget} is too small for the {envelope} response envelope")]
    BudgetTooSmall {
        /// The requested budget.
        budget: usize,
        /// `search` or `skill`.
        envelope: &'static str,
    },
    /// `budget.used` did not settle within eight serialisations (an internal failure).
    #[error("budget metadata did not reach a fixed point")]
    Unstable,
}

impl PayloadError {
    /// The refusal of [`crate::budget::fit`] for the `envelope` payload at `budget`.
    pub(crate) fn of_fit(error: FitError, budget: usize, envelope: &'static str) -> PayloadError {
        match error {
            FitError::TooSmall => PayloadError::BudgetTooSmall { budget, envelope },
            FitError::Unstable(_) => PayloadError::Unstable,
        }
    }
}

impl PublicError for PayloadError {
    fn code(&self) -> &'static str {
        match self {
            PayloadError::BudgetTooSmall { .. } => BUDGET_TOO_SMALL_CODE,
            PayloadError::Unstable => BUDGET_UNSTABLE_CODE,
        }
    }

    fn message(&self) -> Cow<'static, str> {
        match self {
            PayloadError::BudgetTooSmall { .. } => Cow::Owned(self.to_string()),
            PayloadError::Unstable => Cow::Borrowed(INTERNAL_FAILURE_MESSAGE),
        }
    }

    fn is_input_error(&self) -> bool {
        matches!(self, PayloadError::BudgetTooSmall { .. })
    }
}

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
}

impl PublicError for EvidenceError {
    fn code(&self) -> &'static str {
        EvidenceError::code(*self)
    }

    fn message(&self) -> Cow<'static, str> {
        Cow::Borrowed(EvidenceError::message(*self))
    }

    fn is_input_error(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::{ContextError, ReadFailure};
    use crate::search::SearchError;
    use crate::skills::CatalogError;

    /// Every kind answers with a code and a message, and only the caller's own mistakes are
    /// input errors (the adapter shows those; it replaces every other message).
    #[test]
    fn every_error_has_a_code_a_message_and_a_class() {
        let cases: Vec<(Box<dyn PublicError>, &str, &str, bool)> = vec![
            (
                Box::new(EvidenceError::FileTooLarge),
                "DOTAIOS_EVIDENCE_FILE_TOO_LARGE",
                "DotAIOS stopped reading: one file is past the safe per-file size limit. Split that file, or move it out of the folder.",
                false,
            ),
            (
                Box::new(CatalogError::FileTooLarge),
                "DOTAIOS_EVIDENCE_FILE_TOO_LARGE",
                "DotAIOS stopped reading: one file is past the safe per-file size limit. Split that file, or move it out of the folder.",
                false,
            ),
            (
                Box::new(CatalogError::MetadataInvalid),
                "DOTAIOS_SKILL_METADATA_INVALID",
                "DotAIOS could not read skill routing metadata safely.",
                false,
            ),
            (
                Box::new(SearchError::SelectorAmbiguous),
                "DOTAIOS_PROJECT_SELECTOR_AMBIGUOUS",
                PROJECT_AMBIGUOUS_MESSAGE,
                true,
            ),
            (
                Box::new(SearchError::Evidence(EvidenceError::Changed)),
                "DOTAIOS_EVIDENCE_CHANGED",
                "DotAIOS could not read the evidence corpus safely.",
                false,
            ),
            (
                Box::new(PayloadError::BudgetTooSmall {
                    budget: 256,
                    envelope: "skill",
                }),
                BUDGET_TOO_SMALL_CODE,
                "budget 256 is too small for the skill response envelope",
                true,
            ),
            (
                Box::new(PayloadError::Unstable),
                BUDGET_UNSTABLE_CODE,
                INTERNAL_FAILURE_MESSAGE,
                false,
            ),
            (
                Box::new(ContextError::Project(
                    crate::folder::projects::ScopeError::Unknown,
                )),
                "DOTAIOS_PROJECT_SELECTOR_UNKNOWN",
                "Project selector is unknown.",
                true,
            ),
            (
                Box::new(ContextError::ReadFailed(ReadFailure::InvalidUtf8)),
                "DOTAIOS_WORKING_CONTEXT_READ_FAILED",
                "DotAIOS could not read working context safely.",
                false,
            ),
        ];
        for (error, code, message, input) in cases {
            assert_eq!(
                (
                    error.code(),
                    error.message().as_ref(),
                    error.is_input_error()
                ),
                (code, message, input)
            );
        }
    }
}
