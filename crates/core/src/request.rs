//! Typed request values: what crosses from a surface (the CLI's options, the adapter's tool
//! arguments) into core, each checked once where it is read and then carried as a value that
//! cannot be out of range (ripgrep's "checked arguments, then derived config").
//!
//! Each type carries its bounds and defaults as constants. The adapter's input schema and its
//! validator (contract 05 §5, §6.3) read them from here, and so do the CLI's defaults (contract
//! 02 §2, 03 §1.1, 04 §5.1), whose static help lines tests hold to them; core's entry points
//! take the values and never check them again.
//!
//! - [`Budget`]: a visible or whole-answer budget in UTF-16 code units.
//! - [`Limit`]: how many sessions or results a request shows.
//! - [`Bounds`]: the integer range and default of one tool argument.
//! - [`Selector`]: a canonical project selector (contract 01 §6.4.2) that passed its check;
//!   [`ContextSelector`]: the looser working-context selector (§6.4.1), checked and trimmed.
//!
//! The requested search scope is `search::ScopeRequest`, beside the scopes it names.

use crate::folder::selector::{
    SelectorError, WorkingContextSelectorError, check_canonical_selector,
    check_working_context_selector,
};

pub use crate::folder::selector::MAX_SELECTOR_CODE_POINTS;

/// The code-point maximum of a tool's `query` and `intent` (contract 05 §6.3).
pub const MAX_TEXT_CODE_POINTS: usize = 500;

/// The smallest budget `search_aios` accepts (contract 05 §8.6): the worst-case envelope of the
/// current reader limits at its own fixed point (2498 units) stays below it; the search
/// payload's tests re-derive it.
pub const SEARCH_BUDGET_MIN: u32 = 3530;

/// The integer range and default of one tool argument (contract 05 §6.2 "bounded integer"): the
/// input schema's `minimum`, `maximum` and `default`, the validator's range and its message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bounds {
    /// The smallest accepted value.
    pub min: u32,
    /// The largest accepted value.
    pub max: u32,
    /// The value of an absent argument.
    pub default: u32,
}

impl Bounds {
    /// `value` when it is an integer within the bounds (no coercion: `3.5`, `-0.5` and `1e400`
    /// are refused; `1e1` and `256.0` are integers).
    pub fn admit(self, value: f64) -> Option<u32> {
        let admitted =
            value.fract() == 0.0 && value >= f64::from(self.min) && value <= f64::from(self.max);
        // In range and integral, so the cast is exact.
        admitted.then_some(value as u32)
    }
}

/// A budget in UTF-16 code units: a whole, finite, non-negative JavaScript number (contract 02
/// §2, 05 §8). The working context reports it as given (`budget.limit`); the two JSON payloads
/// fit within [`Budget::units`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Budget(f64);

impl Budget {
    /// The budget of every surface that is given none (contract 02 §2, 05 §6.3).
    pub const DEFAULT: Budget = Budget(6000.0);
    /// `read_working_context` and `resolve_skill` (contract 05 §6.3).
    pub const TOOL: Bounds = Bounds {
        min: 256,
        max: 32_000,
        default: 6000,
    };
    /// `search_aios` (contract 05 §6.3, §8.6): the floor is [`SEARCH_BUDGET_MIN`].
    pub const SEARCH_TOOL: Bounds = Bounds {
        min: SEARCH_BUDGET_MIN,
        max: Budget::TOOL.max,
        default: Budget::TOOL.default,
    };

    /// A tool argument that passed its [`Bounds`].
    pub const fn whole(units: u32) -> Budget {
        Budget(units as f64)
    }

    /// `Number(x)` as contract 02 §2 checks it: finite and at least 0, then floored; `None`
    /// otherwise.
    pub fn from_js_number(value: f64) -> Option<Budget> {
        (value.is_finite() && value >= 0.0).then(|| Budget(value.floor()))
    }

    /// The budget as the JavaScript number it is.
    pub const fn value(self) -> f64 {
        self.0
    }

    /// The budget in whole units, saturating beyond memory.
    pub fn units(self) -> usize {
        saturating_usize(self.0)
    }
}

/// How many sessions (working context) or results (search, skills) a request shows: a whole
/// count, saturating beyond memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limit(usize);

impl Limit {
    /// `read_working_context`'s `limit` (contract 05 §6.3); its default is also `brief`'s.
    pub const CONTEXT_TOOL: Bounds = Bounds {
        min: 1,
        max: 10,
        default: 3,
    };
    /// `search_aios`'s `limit` (contract 05 §6.3).
    pub const SEARCH_TOOL: Bounds = Bounds {
        min: 1,
        max: 20,
        default: 10,
    };
    /// `resolve_skill`'s `limit` (contract 05 §6.3); its default is also `skills resolve`'s.
    pub const SKILL_TOOL: Bounds = Bounds {
        min: 1,
        max: 10,
        default: 1,
    };
    /// Sessions `brief --compact` shows without `--limit` (contract 02 §2).
    pub const CONTEXT_DEFAULT: Limit = Limit::whole(Limit::CONTEXT_TOOL.default);
    /// Results of `dotaios search` without `--limit` (contract 03 §1.1).
    pub const SEARCH_CLI_DEFAULT: Limit = Limit(20);
    /// Matches `dotaios skills resolve` shows without `--limit` (contract 04 §5.1).
    pub const SKILL_DEFAULT: Limit = Limit::whole(Limit::SKILL_TOOL.default);

    /// A tool argument that passed its [`Bounds`].
    pub const fn whole(count: u32) -> Limit {
        Limit(count as usize)
    }

    /// A count read from the CLI's digits (saturating there already).
    pub const fn count(count: usize) -> Limit {
        Limit(count)
    }

    /// A positive count written as ASCII digits (`^\d+$`, leading zeros allowed), saturating
    /// beyond memory as a JavaScript number that large would: the `--limit` of `dotaios
    /// search` and `dotaios skills resolve` (contract 03 §17.1, 04 §5.1). `None` for anything
    /// else, zero included.
    pub fn from_digits(text: &str) -> Option<Limit> {
        if text.is_empty() || !text.bytes().all(|byte| byte.is_ascii_digit()) {
            return None;
        }
        let count = text.parse::<usize>().unwrap_or(usize::MAX);
        (count > 0).then_some(Limit(count))
    }

    /// `Number(x)` as contract 02 §2 checks it: finite and at least 0, then floored and
    /// saturated; `None` otherwise.
    pub fn from_js_number(value: f64) -> Option<Limit> {
        (value.is_finite() && value >= 0.0).then(|| Limit(saturating_usize(value.floor())))
    }

    /// The count.
    pub const fn get(self) -> usize {
        self.0
    }
}

/// A canonical project selector (contract 01 §6.4.2) that passed
/// [`check_canonical_selector`], used exactly as given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Selector<'a>(&'a str);

impl<'a> Selector<'a> {
    /// Checks `value` (never trimmed) against the canonical grammar.
    pub fn canonical(value: &'a str) -> Result<Selector<'a>, SelectorError> {
        check_canonical_selector(value)?;
        Ok(Selector(value))
    }

    /// The selector text.
    pub const fn as_str(self) -> &'a str {
        self.0
    }
}

/// A working-context project selector (contract 01 §6.4.1) that passed
/// [`check_working_context_selector`], JS-trimmed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ContextSelector<'a>(&'a str);

impl<'a> ContextSelector<'a> {
    /// Checks `raw` in the contract's order and keeps it trimmed.
    pub fn check(raw: &'a str) -> Result<ContextSelector<'a>, WorkingContextSelectorError> {
        check_working_context_selector(raw).map(ContextSelector)
    }

    /// The trimmed selector text.
    pub const fn as_str(self) -> &'a str {
        self.0
    }
}

/// A whole, non-negative number as `usize`, saturating beyond memory.
fn saturating_usize(value: f64) -> usize {
    if value >= usize::MAX as f64 {
        usize::MAX
    } else {
        value as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_admit_integers_in_range_only() {
        let bounds = Budget::TOOL;
        assert_eq!(bounds.admit(256.0), Some(256));
        assert_eq!(bounds.admit(32_000.0), Some(32_000));
        assert_eq!(bounds.admit(1e3), Some(1000));
        for refused in [255.0, 32_001.0, 300.5, -0.5, f64::INFINITY, f64::NAN] {
            assert_eq!(bounds.admit(refused), None, "{refused}");
        }
        assert_eq!(Budget::SEARCH_TOOL.admit(3529.0), None);
        assert_eq!(Budget::SEARCH_TOOL.admit(3530.0), Some(3530));
    }

    #[test]
    fn js_numbers_are_floored_and_saturated() {
        assert_eq!(Budget::from_js_number(12.9).map(Budget::value), Some(12.0));
        assert_eq!(
            Budget::from_js_number(1e300).map(Budget::value),
            Some(1e300)
        );
        assert_eq!(
            Budget::from_js_number(1e300).map(Budget::units),
            Some(usize::MAX)
        );
        assert_eq!(Budget::from_js_number(f64::INFINITY), None);
        assert_eq!(Budget::from_js_number(-1.0), None);
        assert_eq!(Limit::from_js_number(0.0), Some(Limit::count(0)));
        assert_eq!(Limit::from_js_number(1e300), Some(Limit::count(usize::MAX)));
        assert_eq!(Limit::from_js_number(f64::NAN), None);
    }

    #[test]
    fn cli_limits_are_positive_digits() {
        assert_eq!(Limit::from_digits("3"), Some(Limit::count(3)));
        assert_eq!(Limit::from_digits("007"), Some(Limit::count(7)));
        assert_eq!(
            Limit::from_digits("99999999999999999999999"),
            Some(Limit::count(usize::MAX))
        );
        for refused in ["", "0", "000", "-1", "+1", "1.5", " 1", "١"] {
            assert_eq!(Limit::from_digits(refused), None, "{refused:?}");
        }
    }

    /// Every surface without a `budget` gets the same one, and the tools' defaults are it.
    #[test]
    fn defaults_agree() {
        assert_eq!(Budget::whole(Budget::TOOL.default), Budget::DEFAULT);
        assert_eq!(Budget::whole(Budget::SEARCH_TOOL.default), Budget::DEFAULT);
        assert_eq!(Limit::CONTEXT_DEFAULT.get(), 3);
        assert_eq!(Limit::SKILL_DEFAULT.get(), 1);
    }

    #[test]
    fn selectors_are_checked_untrimmed() {
        assert_eq!(
            Selector::canonical("acme-campaign").map(Selector::as_str),
            Ok("acme-campaign")
        );
        assert_eq!(Selector::canonical(" acme "), Err(SelectorError::Unsafe));
        assert_eq!(Selector::canonical(""), Err(SelectorError::Empty));
    }
}
