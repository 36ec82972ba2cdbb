//! Project selectors (contract 01 §6.4): the working-context filter of §6.4.1 and the canonical
//! selector of §6.4.2, plus the project-directory slug grammar of §6.1.
//!
//! Pure string checks. Each error's `Display` is the contract's exact message; nothing here echoes
//! the selector except where the contract's message does.

use std::sync::LazyLock;

use regex::Regex;

use crate::text::{code_point_len, js_trim};

/// Input maximum of every project selector, in code points (contract 01 §5.6).
pub const MAX_SELECTOR_CODE_POINTS: usize = 200;

/// Internal code of every canonical-selector failure.
pub const SELECTOR_INVALID_CODE: &str = "DOTAIOS_PROJECT_SELECTOR_INVALID";

/// Why a working-context project filter (contract 01 §6.4.1) was refused. The messages are the
/// internal `TypeError` texts the CLI prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum WorkingContextSelectorError {
    /// The caller's value is not a string (the CLI never produces this; a JSON caller may).
    #[error("Working-context project filter must be a string")]
    NotString,
    /// More than [`MAX_SELECTOR_CODE_POINTS`] code points before trimming.
    #[error("Working-context project filter must be at most {MAX_SELECTOR_CODE_POINTS} characters")]
    TooLong,
    /// A `Cc` character (U+0000–U+001F, U+007F–U+009F) anywhere.
    #[error("Working-context project filter must be a project slug or stable id")]
    ControlCharacter,
    /// Nothing left after JS trimming.
    #[error("Working-context project filter must not be blank")]
    Blank,
}

/// Checks a working-context project filter (contract 01 §6.4.1) in the contract's order and returns
/// it JS-trimmed. Opaque ids such as `café:client/01` pass; this check is deliberately looser than
/// [`check_canonical_selector`].
pub fn check_working_context_selector(raw: &str) -> Result<&str, WorkingContextSelectorError> {
    if code_point_len(raw) > MAX_SELECTOR_CODE_POINTS {
        return Err(WorkingContextSelectorError::TooLong);
    }
    if raw.chars().any(is_cc) {
        return Err(WorkingContextSelectorError::ControlCharacter);
    }
    let trimmed = js_trim(raw);
    if trimmed.is_empty() {
        return Err(WorkingContextSelectorError::Blank);
    }
    Ok(trimmed)
}

/// Why a canonical project selector (contract 01 §6.4.2) was refused. Every variant has the code
/// [`SELECTOR_INVALID_CODE`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum SelectorError {
    /// Not a string (for JSON callers), or the empty string.
    #[error("project selector must be a non-empty string")]
    Empty,
    /// More than [`MAX_SELECTOR_CODE_POINTS`] code points.
    #[error("project selector must contain at most {MAX_SELECTOR_CODE_POINTS} code points")]
    TooLong,
    /// Padded, a control character, `/` or `\`, `.`/`..`, absolute, or outside the grammar.
    #[error("project selector must be a safe project slug or stable id")]
    Unsafe,
}

impl SelectorError {
    /// The internal error code, `DOTAIOS_PROJECT_SELECTOR_INVALID`.
    pub fn code(&self) -> &'static str {
        SELECTOR_INVALID_CODE
    }
}

/// Checks a canonical project selector (contract 01 §6.4.2), used exactly as given (never
/// trimmed) by search, `resolve_skill` and the portable identity of §6.3.
pub fn check_canonical_selector(value: &str) -> Result<(), SelectorError> {
    if value.is_empty() {
        return Err(SelectorError::Empty);
    }
    if code_point_len(value) > MAX_SELECTOR_CODE_POINTS {
        return Err(SelectorError::TooLong);
    }
    // A Rust string cannot hold a lone surrogate, so that clause of the contract is vacuous here;
    // the JSON layer replaces such escapes before a selector reaches this check. The explicit
    // clauses below are implied by the grammar, and are kept so the rule reads as the contract
    // does.
    let unsafe_selector = js_trim(value) != value
        || value.chars().any(|c| is_cc(c) || c == '/' || c == '\\')
        || value == "."
        || value == ".."
        || !CANONICAL_GRAMMAR.is_match(value);
    if unsafe_selector {
        return Err(SelectorError::Unsafe);
    }
    Ok(())
}

/// Whether `name` is a canonical project slug, `^[a-z0-9]+(?:-[a-z0-9]+)*$` (contract 01 §6.1).
pub fn is_project_slug(name: &str) -> bool {
    !name.is_empty()
        && name.split('-').all(|part| {
            !part.is_empty() && part.bytes().all(|b| matches!(b, b'a'..=b'z' | b'0'..=b'9'))
        })
}

/// General category `Cc`: U+0000–U+001F and U+007F–U+009F; the one definition the selector
/// checks and the adapter's string arguments (contract 05 §6.2) use.
pub fn is_cc(c: char) -> bool {
    matches!(c, '\u{0}'..='\u{1F}' | '\u{7F}'..='\u{9F}')
}

/// `^[\p{L}\p{N}](?:[\p{L}\p{N}:._-]*[\p{L}\p{N}])?$` with JavaScript `u`-flag semantics: `\p{L}`
/// and `\p{N}` are the Unicode general categories, which the `regex` crate implements.
static CANONICAL_GRAMMAR: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\A[\p{L}\p{N}](?:[\p{L}\p{N}:._\-]*[\p{L}\p{N}])?\z").expect("valid pattern")
});

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn working_context_selector_order_and_messages() {
        let long = "a".repeat(201);
        assert_eq!(
            check_working_context_selector(&long)
                .unwrap_err()
                .to_string(),
            "Working-context project filter must be at most 200 characters"
        );
        // Length is checked before control characters and before trimming.
        let long_with_control = format!("{}\u{7}", " ".repeat(200));
        assert_eq!(
            check_working_context_selector(&long_with_control),
            Err(WorkingContextSelectorError::TooLong)
        );
        assert_eq!(
            check_working_context_selector("a\u{85}b")
                .unwrap_err()
                .to_string(),
            "Working-context project filter must be a project slug or stable id"
        );
        assert_eq!(
            check_working_context_selector("\ta"),
            Err(WorkingContextSelectorError::ControlCharacter),
            "a tab is Cc, so it fails before trimming"
        );
        assert_eq!(
            check_working_context_selector(" \u{3000}\u{feff} ")
                .unwrap_err()
                .to_string(),
            "Working-context project filter must not be blank"
        );
        assert_eq!(
            WorkingContextSelectorError::NotString.to_string(),
            "Working-context project filter must be a string"
        );
    }

    #[test]
    fn working_context_selector_trims_and_allows_opaque_ids() {
        assert_eq!(
            check_working_context_selector("  rust-port "),
            Ok("rust-port")
        );
        assert_eq!(
            check_working_context_selector("café:client/01"),
            Ok("café:client/01")
        );
        // 200 code points of a 2-unit character are still 200 code points.
        let emoji = "😀".repeat(200);
        assert_eq!(check_working_context_selector(&emoji), Ok(emoji.as_str()));
        assert_eq!(
            check_working_context_selector(&"😀".repeat(201)),
            Err(WorkingContextSelectorError::TooLong)
        );
    }

    #[test]
    fn canonical_selector_valid_examples() {
        for ok in [
            "a",
            "7",
            "rust-port",
            "proj-rust-001",
            "client:acme",
            "café",
            "ü:1",
            "项目",
            "a.b_c-d:e",
            "Ünïcödé9",
            "٣", // Arabic-Indic digit three: \p{N}
        ] {
            assert_eq!(check_canonical_selector(ok), Ok(()), "{ok:?}");
        }
        assert_eq!(check_canonical_selector(&"é".repeat(200)), Ok(()));
    }

    #[test]
    fn canonical_selector_invalid_examples() {
        assert_eq!(
            check_canonical_selector("").unwrap_err().to_string(),
            "project selector must be a non-empty string"
        );
        assert_eq!(
            check_canonical_selector(&"a".repeat(201))
                .unwrap_err()
                .to_string(),
            "project selector must contain at most 200 code points"
        );
        for bad in [
            " a",
            "a ",
            "a\u{a0}",
            "a\u{0}b",
            "a\u{9f}b",
            "a/b",
            "a\\b",
            "/abs",
            ".",
            "..",
            "-a",
            "a-",
            ":a",
            "a:",
            "a.",
            "_a",
            "a b",
            "café:client/01",
            "a\u{301}", // ends in a combining mark (Mn), not L/N
            "😀",
            "a😀b",
        ] {
            assert_eq!(
                check_canonical_selector(bad),
                Err(SelectorError::Unsafe),
                "{bad:?}"
            );
        }
        assert_eq!(
            SelectorError::Unsafe.code(),
            "DOTAIOS_PROJECT_SELECTOR_INVALID"
        );
        // Too long wins over unsafe content.
        assert_eq!(
            check_canonical_selector(&"/".repeat(201)),
            Err(SelectorError::TooLong)
        );
    }

    #[test]
    fn slug_grammar() {
        for ok in ["a", "rust-port", "proj-rust-001", "0", "a-b-c"] {
            assert!(is_project_slug(ok), "{ok:?}");
        }
        for bad in [
            "",
            "-a",
            "a-",
            "a--b",
            "A",
            "My Project",
            ".git",
            "_archive",
            "é",
            "a_b",
        ] {
            assert!(!is_project_slug(bad), "{bad:?}");
        }
    }
}
