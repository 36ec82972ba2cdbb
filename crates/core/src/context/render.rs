//! The unbounded rendering grammar of contract 02 §10 over a [`Selection`] of pre-rendered
//! candidate lines.
//!
//! Budget fitting renders dozens of selections. Each candidate is therefore rendered to its
//! lines once ([`Candidates`]), and a selection is only a set of counts; [`Candidates::measure`]
//! computes the length of the rendering without building it, by the same walk over the same
//! lines that [`Candidates::render`] joins, so the two cannot disagree.

use serde_json::Value;

use super::timeline::{Session, TimelineEntry};
use crate::text::{JsString, js_number_of, js_number_to_string, js_string_of, js_truthy};

/// One rendered line (it may itself contain `\n`, as a header section does) with what `trimEnd`
/// needs to know about it.
#[derive(Debug, Clone)]
pub(crate) struct Line {
    text: JsString,
    /// The length up to and including the last unit that is not a JS space (0 when none).
    content_end: usize,
}

impl Line {
    pub(crate) fn new(text: JsString) -> Line {
        let content_end = {
            let mut trimmed = text.clone();
            trimmed.trim_end();
            trimmed.len()
        };
        Line { text, content_end }
    }

    fn plain(text: &str) -> Line {
        Line::new(JsString::from(text))
    }

    pub(crate) fn len(&self) -> usize {
        self.text.len()
    }
}

/// The Active Project candidate, already shaped for display (contract 02 §8.2, §10).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ProjectView {
    /// The first truthy of `name`, `project`, `slug`.
    pub(crate) name: String,
    /// `[status, ...domains]` without falsy values.
    pub(crate) details: Vec<String>,
    /// The one-line description, possibly empty.
    pub(crate) description: String,
    /// The README excerpt, possibly empty.
    pub(crate) excerpt: String,
    /// Whether the excerpt was clipped at 1,200 units (README coverage, contract 02 §12).
    pub(crate) excerpt_clipped: bool,
    /// The README's provenance line, last in the block (project mode only, contract 02 §10).
    pub(crate) source: Option<String>,
}

impl ProjectView {
    fn lines(&self) -> Vec<Line> {
        let mut first = format!("- {}", self.name);
        for detail in &self.details {
            first.push_str(" \u{b7} ");
            first.push_str(detail);
        }
        let mut lines = vec![Line::new(JsString::from(first))];
        if !self.description.is_empty() {
            lines.push(Line::new(JsString::from(format!("  {}", self.description))));
        }
        if !self.excerpt.is_empty() && self.excerpt != self.description {
            let mut pieces: Vec<&str> = self.excerpt.split('\n').collect();
            let last = pieces.len() - 1;
            for piece in &mut pieces[..last] {
                *piece = piece.strip_suffix('\r').unwrap_or(piece);
            }
            for piece in pieces {
                let text = if piece.is_empty() {
                    ">".to_owned()
                } else {
                    format!("> {piece}")
                };
                lines.push(Line::new(JsString::from(text)));
            }
        }
        if let Some(source) = &self.source {
            lines.push(Line::new(JsString::from(source.as_str())));
        }
        lines
    }
}

/// Which candidates a selection holds. Lists are always prefixes: fitting accepts items in
/// order and stops at the first rejection.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Selection {
    pub(crate) identity: bool,
    pub(crate) priorities: bool,
    pub(crate) current_work: bool,
    pub(crate) decisions: bool,
    pub(crate) focus: bool,
    pub(crate) plan: usize,
    pub(crate) carry_over: usize,
    pub(crate) active_project: bool,
    pub(crate) sessions: usize,
    pub(crate) signals: usize,
    pub(crate) events: usize,
}

/// Every candidate of contract 02 §6, rendered to lines once.
#[derive(Debug, Clone)]
pub(crate) struct Candidates {
    receipt: Line,
    header: Line,
    blank: Line,
    headings: Headings,
    pub(crate) identity: Option<Line>,
    pub(crate) priorities: Option<Line>,
    pub(crate) current_work: Option<Line>,
    /// The provenance lines of the three header sections, shown beneath their text.
    sources: HeaderSources<Option<Line>>,
    /// Whether the Active Project block ends with a provenance line.
    project_source: bool,
    /// All decisions, one line each; accepted or rejected as one unit.
    pub(crate) decisions: Vec<Line>,
    pub(crate) focus: Option<Line>,
    pub(crate) plan: Vec<Line>,
    pub(crate) carry_over: Vec<Line>,
    pub(crate) active_project: Option<Vec<Line>>,
    pub(crate) sessions: Vec<Line>,
    pub(crate) signals: Vec<Line>,
    pub(crate) events: Vec<Line>,
}

#[derive(Debug, Clone)]
struct Headings {
    identity: Line,
    priorities: Line,
    current_work: Line,
    decisions: Line,
    today: Line,
    carry_over: Line,
    active_project: Line,
    sessions: Line,
    signals: Line,
    events: Line,
}

impl Headings {
    fn new() -> Headings {
        Headings {
            identity: Line::plain("### Identity"),
            priorities: Line::plain("### Priorities"),
            current_work: Line::plain("### Current Work"),
            decisions: Line::plain("### Decisions"),
            today: Line::plain("### Today"),
            carry_over: Line::plain("### Carry-overs"),
            active_project: Line::plain("### Active Project"),
            sessions: Line::plain("### Recent Sessions"),
            signals: Line::plain("### Recent Signals"),
            events: Line::plain("### Recent Events"),
        }
    }
}

/// One value per header section that can carry a provenance line (contract 02 §10).
#[derive(Debug, Clone, Default)]
pub(crate) struct HeaderSources<T> {
    pub(crate) identity: T,
    pub(crate) priorities: T,
    pub(crate) current_work: T,
}

/// The raw candidate values, before rendering.
#[derive(Debug, Clone, Default)]
pub(crate) struct CandidateTexts {
    pub(crate) identity: JsString,
    pub(crate) priorities: JsString,
    pub(crate) current_work: JsString,
    /// The provenance line of each header section's source file, when it was read.
    pub(crate) sources: HeaderSources<Option<String>>,
    pub(crate) decisions: Vec<String>,
    pub(crate) focus: String,
    pub(crate) plan: Vec<String>,
    pub(crate) carry_over: Vec<String>,
    pub(crate) active_project: Option<ProjectView>,
    pub(crate) sessions: Vec<Session>,
    pub(crate) signals: Vec<TimelineEntry>,
    pub(crate) events: Vec<TimelineEntry>,
}

fn source_line(source: &Option<String>) -> Option<Line> {
    source.as_deref().map(Line::plain)
}

fn non_empty(text: &JsString) -> Option<Line> {
    (!text.is_empty()).then(|| Line::new(text.clone()))
}

fn bullet(item: &str) -> Line {
    Line::new(JsString::from(format!("- {item}")))
}

/// `- <date> · <agent>[ · <project>][ (unscoped)] · "<title>" (<turns> turns)`.
fn session_line(session: &Session) -> Line {
    let member = |name: &str| session.row.as_object().and_then(|map| map.get(name));
    // The date is a cut by UTF-16 unit and may split a surrogate pair.
    let mut line = JsString::from("- ");
    let mut date = JsString::from(session.captured_at.as_str());
    date.truncate(10);
    line.push_js(&date);
    let agent = match member("agent") {
        Some(agent) if js_truthy(agent) => js_string_of(agent),
        _ => "unknown".to_owned(),
    };
    let mut rest = format!(" \u{b7} {agent}");
    if let Some(project) = member("project").filter(|value| js_truthy(value)) {
        rest.push_str(" \u{b7} ");
        rest.push_str(&js_string_of(project));
    }
    if session.unscoped {
        rest.push_str(" (unscoped)");
    }
    let title = match member("title") {
        Some(title) if js_truthy(title) => js_string_of(title),
        _ => "(untitled)".to_owned(),
    };
    let turns = match member("turns") {
        Some(Value::Number(number)) => {
            let turns = js_number_of(number);
            if turns.is_finite() && turns.fract() == 0.0 {
                js_number_to_string(turns)
            } else {
                "0".to_owned()
            }
        }
        _ => "0".to_owned(),
    };
    rest.push_str(&format!(" \u{b7} \"{title}\" ({turns} turns)"));
    line.push_str(&rest);
    Line::new(line)
}

/// `- [<date>][ (unscoped)] <summary>`.
fn timeline_line(entry: &TimelineEntry) -> Line {
    let scope = if entry.unscoped { " (unscoped)" } else { "" };
    Line::new(JsString::from(format!(
        "- [{}]{scope} {}",
        entry.date, entry.summary
    )))
}

impl Candidates {
    /// Renders every candidate once. `receipt` is the memory-policy receipt, `today` the local
    /// date of the header.
    pub(crate) fn new(receipt: &str, today: &str, texts: &CandidateTexts) -> Candidates {
        Candidates {
            receipt: Line::plain(receipt),
            header: Line::plain(&format!("## Active Context \u{b7} {today}")),
            blank: Line::plain(""),
            headings: Headings::new(),
            identity: non_empty(&texts.identity),
            priorities: non_empty(&texts.priorities),
            current_work: non_empty(&texts.current_work),
            sources: HeaderSources {
                identity: source_line(&texts.sources.identity),
                priorities: source_line(&texts.sources.priorities),
                current_work: source_line(&texts.sources.current_work),
            },
            project_source: texts
                .active_project
                .as_ref()
                .is_some_and(|project| project.source.is_some()),
            decisions: texts.decisions.iter().map(|d| bullet(d)).collect(),
            focus: (!texts.focus.is_empty())
                .then(|| Line::new(JsString::from(format!("**Focus:** {}", texts.focus)))),
            plan: texts.plan.iter().map(|item| bullet(item)).collect(),
            carry_over: texts.carry_over.iter().map(|item| bullet(item)).collect(),
            active_project: texts.active_project.as_ref().map(ProjectView::lines),
            sessions: texts.sessions.iter().map(session_line).collect(),
            signals: texts.signals.iter().map(timeline_line).collect(),
            events: texts.events.iter().map(timeline_line).collect(),
        }
    }

    /// Visits the lines of the rendering of `selection` in order (before joining with `\n`
    /// and the final `trimEnd`).
    fn walk<'a>(&'a self, selection: &Selection, mut visit: impl FnMut(&'a Line)) {
        let blank = &self.blank;
        visit(&self.receipt);
        visit(blank);
        visit(&self.header);
        visit(blank);
        let mut section = |heading: &'a Line, lines: &mut dyn Iterator<Item = &'a Line>| {
            let mut lines = lines.peekable();
            if lines.peek().is_none() {
                return;
            }
            visit(heading);
            lines.for_each(&mut visit);
            visit(blank);
        };
        let h = &self.headings;
        let one = |line: &'a Option<Line>, on: bool| line.iter().filter(move |_| on);
        // A header section is its text, then its provenance line; never the line alone.
        let header = |text: &'a Option<Line>, source: &'a Option<Line>, on: bool| {
            let on = on && text.is_some();
            one(text, on).chain(one(source, on))
        };
        let sources = &self.sources;
        section(
            &h.identity,
            &mut header(&self.identity, &sources.identity, selection.identity),
        );
        section(
            &h.priorities,
            &mut header(&self.priorities, &sources.priorities, selection.priorities),
        );
        section(
            &h.current_work,
            &mut header(
                &self.current_work,
                &sources.current_work,
                selection.current_work,
            ),
        );
        let decisions = if selection.decisions {
            &self.decisions[..]
        } else {
            &[]
        };
        section(&h.decisions, &mut decisions.iter());
        section(
            &h.today,
            &mut one(&self.focus, selection.focus).chain(&self.plan[..selection.plan]),
        );
        section(
            &h.carry_over,
            &mut self.carry_over[..selection.carry_over].iter(),
        );
        let project: &[Line] = match (&self.active_project, selection.active_project) {
            (Some(lines), true) => lines,
            _ => &[],
        };
        section(&h.active_project, &mut project.iter());
        section(&h.sessions, &mut self.sessions[..selection.sessions].iter());
        section(&h.signals, &mut self.signals[..selection.signals].iter());
        section(&h.events, &mut self.events[..selection.events].iter());
    }

    /// Whether `selection` shows a section that carries a provenance line (contract 02 §9: its
    /// admission reserves the budget marker).
    pub(crate) fn carries_source(&self, selection: &Selection) -> bool {
        let shown = |text: &Option<Line>, source: &Option<Line>, on: bool| {
            on && text.is_some() && source.is_some()
        };
        shown(&self.identity, &self.sources.identity, selection.identity)
            || shown(
                &self.priorities,
                &self.sources.priorities,
                selection.priorities,
            )
            || shown(
                &self.current_work,
                &self.sources.current_work,
                selection.current_work,
            )
            || (selection.active_project && self.project_source)
    }

    /// The length in UTF-16 units of [`Candidates::render`]`(selection)`, without building it.
    pub(crate) fn measure(&self, selection: &Selection) -> usize {
        let mut total = 0;
        let mut trimmed = 0;
        let mut first = true;
        self.walk(selection, |line| {
            if !first {
                // The joining `\n` is a JS space, so it only counts once something follows.
                total += 1;
            }
            first = false;
            if line.content_end > 0 {
                trimmed = total + line.content_end;
            }
            total += line.len();
        });
        trimmed
    }

    /// The unbounded rendering of `selection` (contract 02 §10): lines joined with `\n`, then
    /// `trimEnd`.
    pub(crate) fn render(&self, selection: &Selection) -> JsString {
        let mut units = Vec::new();
        let mut first = true;
        self.walk(selection, |line| {
            if !first {
                units.push(u16::from(b'\n'));
            }
            first = false;
            units.extend_from_slice(line.text.units());
        });
        let mut rendered = JsString::from_units(units);
        rendered.trim_end();
        rendered
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn session(row: Value, unscoped: bool) -> Session {
        Session::for_test(row, unscoped)
    }

    #[test]
    fn session_lines() {
        let line = |row: Value, unscoped: bool| {
            session_line(&session(row, unscoped)).text.to_string_lossy()
        };
        assert_eq!(
            line(
                json!({"captured_at": "2026-08-29T09:00:00.000Z", "agent": "claude-code", "project": "rust-port", "turns": 12, "title": "Plan the port"}),
                false
            ),
            "- 2026-08-29 \u{b7} claude-code \u{b7} rust-port \u{b7} \"Plan the port\" (12 turns)"
        );
        assert_eq!(
            line(json!({"turns": 12.0, "title": "say \"hi\""}), true),
            "-  \u{b7} unknown (unscoped) \u{b7} \"say \"hi\"\" (12 turns)"
        );
        assert_eq!(
            line(
                json!({"agent": 0, "project": 7, "turns": 1.5, "title": ["a", "b"]}),
                false
            ),
            "-  \u{b7} unknown \u{b7} 7 \u{b7} \"a,b\" (0 turns)"
        );
        assert_eq!(
            line(json!({"turns": "3", "title": ""}), false),
            "-  \u{b7} unknown \u{b7} \"(untitled)\" (0 turns)"
        );
        assert_eq!(
            line(json!({"turns": 1e21}), false),
            "-  \u{b7} unknown \u{b7} \"(untitled)\" (1e+21 turns)"
        );
        assert_eq!(
            line(json!(["x"]), false),
            "-  \u{b7} unknown \u{b7} \"(untitled)\" (0 turns)"
        );
        assert_eq!(
            line(json!({"captured_at": 20260829}), false),
            "- 20260829 \u{b7} unknown \u{b7} \"(untitled)\" (0 turns)"
        );
        // The date cut can split a surrogate pair.
        let cut = session_line(&session(json!({"captured_at": "2026-08-2😀"}), false));
        assert!(!cut.text.is_well_formed());
    }

    #[test]
    fn timeline_lines_mark_unscoped_rows() {
        // Unreachable under the current memory policy (contract 02 §18 open point 6), kept and
        // tested in the renderer alone.
        let entry = |unscoped: bool| TimelineEntry::for_test("2026-08-29", "Shipped", unscoped);
        assert_eq!(
            timeline_line(&entry(false)).text.to_string_lossy(),
            "- [2026-08-29] Shipped"
        );
        assert_eq!(
            timeline_line(&entry(true)).text.to_string_lossy(),
            "- [2026-08-29] (unscoped) Shipped"
        );
    }

    #[test]
    fn project_lines() {
        let view = ProjectView {
            name: "Rust Port".into(),
            details: vec!["active".into(), "build".into()],
            description: "Re-implement.".into(),
            excerpt: "Re-implement.\r\n\r\n- Keep.".into(),
            excerpt_clipped: false,
            source: Some("> Source: projects/rust-port/README.md (excerpt; sha256:00)".into()),
        };
        let lines: Vec<String> = view
            .lines()
            .iter()
            .map(|l| l.text.to_string_lossy())
            .collect();
        assert_eq!(
            lines,
            vec![
                "- Rust Port \u{b7} active \u{b7} build",
                "  Re-implement.",
                "> Re-implement.",
                ">",
                "> - Keep.",
                "> Source: projects/rust-port/README.md (excerpt; sha256:00)"
            ]
        );
        let same = ProjectView {
            excerpt: "Re-implement.".into(),
            source: None,
            ..view.clone()
        };
        assert_eq!(same.lines().len(), 2);
        let bare = ProjectView {
            details: vec![],
            description: String::new(),
            excerpt: String::new(),
            source: None,
            ..view
        };
        assert_eq!(bare.lines()[0].text.to_string_lossy(), "- Rust Port");
    }

    #[test]
    fn measure_agrees_with_render_including_trailing_spaces() {
        let texts = CandidateTexts {
            identity: JsString::from("# Identity\n\n- Ada"),
            plan: vec!["one".into()],
            active_project: Some(ProjectView {
                name: "spaced  ".into(),
                details: vec![],
                description: String::new(),
                excerpt: String::new(),
                excerpt_clipped: false,
                source: None,
            }),
            ..CandidateTexts::default()
        };
        let candidates = Candidates::new("Memory: Shared", "2026-08-29", &texts);
        let all = Selection {
            identity: true,
            plan: 1,
            active_project: true,
            ..Selection::default()
        };
        for selection in [
            Selection::default(),
            all,
            Selection {
                active_project: true,
                ..Selection::default()
            },
        ] {
            let rendered = candidates.render(&selection);
            assert_eq!(candidates.measure(&selection), rendered.len());
        }
        assert_eq!(
            candidates.render(&Selection::default()).to_string_lossy(),
            "Memory: Shared\n\n## Active Context \u{b7} 2026-08-29"
        );
        assert_eq!(
            candidates.render(&all).to_string_lossy(),
            "Memory: Shared\n\n## Active Context \u{b7} 2026-08-29\n\n### Identity\n# Identity\n\n- Ada\n\n### Today\n- one\n\n### Active Project\n- spaced"
        );
        assert!(!candidates.carries_source(&all));
    }

    #[test]
    fn provenance_lines_follow_their_section_only_when_it_shows() {
        let texts = CandidateTexts {
            identity: JsString::from("# Identity"),
            // A file that was read but whose section text is empty shows neither.
            sources: HeaderSources {
                identity: Some("> Source: context/identity.md (excerpt; sha256:aa)".into()),
                priorities: Some("> Source: context/priorities.md (excerpt; sha256:bb)".into()),
                current_work: None,
            },
            active_project: Some(ProjectView {
                name: "P".into(),
                details: vec![],
                description: String::new(),
                excerpt: String::new(),
                excerpt_clipped: false,
                source: Some("> Source: projects/p/README.md (excerpt; sha256:cc)".into()),
            }),
            ..CandidateTexts::default()
        };
        let candidates = Candidates::new("Memory: This project", "2026-08-29", &texts);
        let identity = Selection {
            identity: true,
            priorities: true,
            ..Selection::default()
        };
        let project = Selection {
            active_project: true,
            ..Selection::default()
        };
        for (selection, expected, carries) in [
            (
                identity,
                "### Identity\n# Identity\n> Source: context/identity.md (excerpt; sha256:aa)",
                true,
            ),
            (
                project,
                "### Active Project\n- P\n> Source: projects/p/README.md (excerpt; sha256:cc)",
                true,
            ),
            (
                Selection::default(),
                "## Active Context \u{b7} 2026-08-29",
                false,
            ),
        ] {
            let rendered = candidates.render(&selection);
            assert!(
                rendered.to_string_lossy().ends_with(expected),
                "{rendered:?}"
            );
            assert_eq!(candidates.measure(&selection), rendered.len());
            assert_eq!(candidates.carries_source(&selection), carries);
        }
        assert!(
            !candidates
                .render(&identity)
                .to_string_lossy()
                .contains("priorities")
        );
    }
}
