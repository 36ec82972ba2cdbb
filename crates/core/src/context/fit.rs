//! Budget fitting (contract 02 §9), the final visible string with its marker (§11) and the README
//! coverage of project mode (§12).
//!
//! **Promise:** the visible string is never longer than the budget, and whenever a candidate
//! was left out for the budget the result says so (`truncated`, and the marker when it fits).

use super::render::{Candidates, Selection};
use crate::text::JsString;

/// The budget marker, appended when anything was left out (26 units).
const MARKER: &str = "\n\n[context budget reached]";

/// The budget report of one projection (contract 02 §9): `used` counts the digest only.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ContextBudget {
    /// The requested budget in UTF-16 units (a JavaScript number: whole, finite, ≥ 0).
    pub limit: f64,
    /// The digest's length in UTF-16 units; never more than `limit`.
    pub used: usize,
    /// `max(0, limit − used)`.
    pub remaining: f64,
    /// Whether any candidate was left out (or the bare header did not fit).
    pub truncated: bool,
}

/// The README coverage of project mode (contract 02 §12).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Coverage {
    /// The selected project's README excerpt was clipped at 1,200 units.
    pub excerpt_clipped: bool,
    /// The project block was rejected by the budget or cut by the marker.
    pub budget_omitted: bool,
    /// Sibling projects left out because their README is over its 1 MiB cap (contract 02 §12).
    pub omitted_siblings: usize,
}

impl Coverage {
    /// The coverage notice, or `None` when nothing is missing.
    pub fn notice(&self) -> Option<String> {
        let mut reasons = Vec::new();
        if self.excerpt_clipped {
            reasons.push("excerpt clipped");
        }
        if self.budget_omitted {
            reasons.push("text omitted by output budget");
        }
        if reasons.is_empty() {
            return None;
        }
        Some(format!(
            "> [DotAIOS] Selected project README context is incomplete: {}. Missing text may contain constraints. Do not infer it.",
            reasons.join("; ")
        ))
    }
}

/// The fitted digest.
#[derive(Debug, Clone)]
pub(crate) struct FittedDigest {
    pub(crate) markdown: JsString,
    pub(crate) budget: ContextBudget,
    pub(crate) coverage: Option<Coverage>,
}

/// The greedy selection of contract 02 §9.
struct Fitter<'a> {
    candidates: &'a Candidates,
    limit: f64,
    selected: Selection,
    omitted: bool,
}

impl Fitter<'_> {
    /// Accepts `candidate` when its rendering fits. A selection that shows a provenance line
    /// must also leave room for the budget marker (contract 02 §9), so that a later marker
    /// never cuts into an excerpt or its provenance.
    fn consider(&mut self, candidate: Selection) -> bool {
        let reserve = if self.candidates.carries_source(&candidate) {
            MARKER.len()
        } else {
            0
        };
        // Lengths are far below 2^53, so the conversion is exact.
        if (self.candidates.measure(&candidate) + reserve) as f64 > self.limit {
            self.omitted = true;
            false
        } else {
            self.selected = candidate;
            true
        }
    }

    /// Accepts items of one list in order until the first rejection.
    fn take_while(&mut self, count: usize, with: impl Fn(Selection, usize) -> Selection) {
        for taken in 1..=count {
            if !self.consider(with(self.selected, taken)) {
                break;
            }
        }
    }
}

/// Fits the candidates into `limit` units. `project_filtered` selects the project-mode order
/// (the Active Project right after the decisions) and the coverage report.
pub(crate) fn fit(
    candidates: &Candidates,
    limit: f64,
    project_filtered: bool,
    excerpt_clipped: bool,
) -> FittedDigest {
    let mut fitter = Fitter {
        candidates,
        limit,
        selected: Selection::default(),
        omitted: false,
    };
    let mut project_rejected = false;
    if candidates.identity.is_some() {
        fitter.consider(Selection {
            identity: true,
            ..fitter.selected
        });
    }
    if candidates.priorities.is_some() {
        fitter.consider(Selection {
            priorities: true,
            ..fitter.selected
        });
    }
    if candidates.current_work.is_some() {
        fitter.consider(Selection {
            current_work: true,
            ..fitter.selected
        });
    }
    if !candidates.decisions.is_empty() {
        fitter.consider(Selection {
            decisions: true,
            ..fitter.selected
        });
    }
    let has_project = candidates.active_project.is_some();
    if project_filtered && has_project {
        project_rejected = !fitter.consider(Selection {
            active_project: true,
            ..fitter.selected
        });
    }
    if candidates.focus.is_some() {
        fitter.consider(Selection {
            focus: true,
            ..fitter.selected
        });
    }
    fitter.take_while(candidates.plan.len(), |s, plan| Selection { plan, ..s });
    fitter.take_while(candidates.carry_over.len(), |s, carry_over| Selection {
        carry_over,
        ..s
    });
    if !project_filtered && has_project {
        fitter.consider(Selection {
            active_project: true,
            ..fitter.selected
        });
    }
    fitter.take_while(candidates.sessions.len(), |s, sessions| Selection {
        sessions,
        ..s
    });
    fitter.take_while(candidates.signals.len(), |s, signals| Selection {
        signals,
        ..s
    });
    fitter.take_while(candidates.events.len(), |s, events| Selection {
        events,
        ..s
    });

    let selected = fitter.selected;
    let rendered = candidates.render(&selected);
    let truncated = fitter.omitted || rendered.len() as f64 > limit;
    let markdown = visible(&rendered, limit, truncated);
    let used = markdown.len();
    let budget = ContextBudget {
        limit,
        used,
        remaining: (limit - used as f64).max(0.0),
        truncated,
    };
    let coverage = (project_filtered && has_project).then(|| {
        let without_timeline = Selection {
            sessions: 0,
            signals: 0,
            events: 0,
            ..selected
        };
        let block = candidates.render(&without_timeline);
        Coverage {
            excerpt_clipped,
            budget_omitted: project_rejected || !markdown.starts_with(&block),
            omitted_siblings: 0,
        }
    });
    FittedDigest {
        markdown,
        budget,
        coverage,
    }
}

/// The visible string of contract 02 §11.
fn visible(rendered: &JsString, limit: f64, truncated: bool) -> JsString {
    let marker_len = MARKER.len() as f64;
    if truncated {
        if limit <= marker_len {
            return truncate_visible(&JsString::from(MARKER.trim_start_matches('\n')), limit);
        }
        let mut kept = rendered.clone();
        kept.truncate(units_of(limit - marker_len));
        kept.trim_end();
        kept.push_str(MARKER);
        return kept;
    }
    if rendered.len() as f64 <= limit {
        return rendered.clone();
    }
    truncate_visible(rendered, limit)
}

/// `truncateVisible(s, L)`: `""` for `L ≤ 0`, `…` for `L = 1`, else the first `L − 1` units,
/// `trimEnd`, `…`.
fn truncate_visible(text: &JsString, limit: f64) -> JsString {
    if limit <= 0.0 {
        return JsString::new();
    }
    if limit == 1.0 {
        return JsString::from("\u{2026}");
    }
    let mut kept = text.clone();
    kept.truncate(units_of(limit - 1.0));
    kept.trim_end();
    kept.push_str("\u{2026}");
    kept
}

/// A whole, non-negative unit count as `usize`, saturating for budgets beyond memory.
fn units_of(count: f64) -> usize {
    if count >= usize::MAX as f64 {
        usize::MAX
    } else {
        count as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::render::{CandidateTexts, ProjectView};

    fn marker_only(limit: f64) -> String {
        visible(&JsString::from("anything"), limit, true).to_string_lossy()
    }

    #[test]
    fn tiny_budgets_cut_the_marker_itself() {
        assert_eq!(marker_only(0.0), "");
        assert_eq!(marker_only(1.0), "…");
        assert_eq!(marker_only(2.0), "[…");
        assert_eq!(marker_only(24.0), "[context budget reached…");
        assert_eq!(marker_only(25.0), "[context budget reached]…");
        assert_eq!(marker_only(26.0), "[context budget reached]…");
        assert_eq!(marker_only(27.0), "a\n\n[context budget reached]");
        assert_eq!(marker_only(28.0), "an\n\n[context budget reached]");
    }

    #[test]
    fn marker_cut_trims_and_may_split_pairs() {
        let text = JsString::from("ab 😀cd");
        let cut = visible(&text, 26.0 + 4.0, true);
        assert_eq!(cut.len(), 4 + 26);
        assert!(!cut.is_well_formed());
        let cut = visible(&text, 26.0 + 3.0, true);
        assert_eq!(cut.to_string_lossy(), "ab\n\n[context budget reached]");
        let huge = visible(&text, 1e300, true);
        assert_eq!(
            huge.to_string_lossy(),
            "ab 😀cd\n\n[context budget reached]"
        );
    }

    #[test]
    fn untruncated_text_is_returned_whole() {
        let text = JsString::from("abc");
        assert_eq!(visible(&text, 3.0, false).to_string_lossy(), "abc");
        assert_eq!(visible(&text, 2.0, false).to_string_lossy(), "a…");
    }

    fn project_texts() -> CandidateTexts {
        CandidateTexts {
            active_project: Some(ProjectView {
                name: "P".into(),
                details: vec!["active".into()],
                description: "d".into(),
                excerpt: "e".repeat(40),
                excerpt_clipped: true,
                source: None,
            }),
            plan: vec!["one".into(), "two".into()],
            ..CandidateTexts::default()
        }
    }

    #[test]
    fn fitting_never_exceeds_the_budget() {
        let texts = project_texts();
        let candidates = Candidates::new("Memory: This project", "2026-08-29", &texts);
        for limit in 0..200 {
            let fitted = fit(&candidates, f64::from(limit), true, true);
            assert!(fitted.markdown.len() <= limit as usize, "{limit}");
            assert_eq!(fitted.budget.used, fitted.markdown.len());
            let coverage = fitted.coverage.unwrap_or(Coverage {
                excerpt_clipped: false,
                budget_omitted: false,
                omitted_siblings: 0,
            });
            assert!(coverage.excerpt_clipped);
            let full = candidates.measure(&Selection {
                active_project: true,
                plan: 2,
                ..Selection::default()
            });
            assert_eq!(fitted.budget.truncated, (limit as usize) < full, "{limit}");
        }
    }

    #[test]
    fn coverage_notice_reasons() {
        let both = Coverage {
            excerpt_clipped: true,
            budget_omitted: true,
            omitted_siblings: 1,
        };
        assert_eq!(
            both.notice().as_deref(),
            Some(
                "> [DotAIOS] Selected project README context is incomplete: excerpt clipped; text omitted by output budget. Missing text may contain constraints. Do not infer it."
            )
        );
        assert_eq!(
            Coverage {
                excerpt_clipped: false,
                budget_omitted: false,
                omitted_siblings: 0,
            }
            .notice(),
            None
        );
    }

    #[test]
    fn shared_mode_has_no_coverage() {
        let candidates = Candidates::new("Memory: Shared", "2026-08-29", &project_texts());
        let fitted = fit(&candidates, 6000.0, false, true);
        assert!(fitted.coverage.is_none());
        assert!(!fitted.budget.truncated);
        assert_eq!(fitted.budget.remaining, 6000.0 - fitted.budget.used as f64);
    }
}
