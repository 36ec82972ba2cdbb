//! The grouped form of `dotaios search`, for a person at a terminal (contract 06 §1.9): one
//! heading per scope (scopes in the order of their best result) and one per file (files in
//! the order of their best result), the overlapping or touching snippets of a file merged into
//! one block that shows each line once, one line of the file a line of output, each block
//! opened by a `path:line:` an editor follows, every line cut to the width with `…`, and
//! matches coloured (or marked `>>…<<` without colour).
//!
//! It only lays out what the core search returned: it never reads a file, never reorders
//! results within a scope or a file, and never cuts a `path:line:` prefix. Text from the folder
//! is shown through the name rule (`escape_name`, contract 02 §10.1), so no control or format
//! character of a note reaches the terminal.

use std::collections::HashMap;

use dotaios_core::search::{Area, Scope, SearchHit, SearchOutcome, Snippet};
use dotaios_core::text::{NameOutput, escape_name, js_string_of};

use super::{Highlighter, MemoryItem, final_line, memory_item, session_head};
use crate::terminal::{Painter, Style, columns};

/// How one grouped output looks: coloured or not, and the width its lines are cut to.
#[derive(Debug, Clone, Copy)]
pub(super) struct Form {
    pub(super) painter: Painter,
    pub(super) width: usize,
}

/// The indentation of a block's lines after its first.
const CONTINUATION: &str = "    ";

/// The fewest columns of text kept after a prefix that is never cut (`path:line: `, a file's
/// path): a very long path makes its line wider than the width rather than lose its text.
const MIN_TEXT_COLUMNS: usize = 10;

/// The grouped form: the same first and last lines as the classic form (contract 03 §17.4),
/// the results between them grouped.
pub(super) fn render(query: &str, scope_name: &str, outcome: &SearchOutcome, form: Form) -> String {
    let writer = Writer {
        form,
        highlighter: Highlighter::new(query),
    };
    let mut text = format!("Searching for \"{query}\" in {scope_name}...\n\n");
    if outcome.scope.projects_omitted {
        text.push_str("Project corpus omitted because no --project selector was supplied.\n\n");
    }
    // At most ten scopes, so the lookup is a short scan.
    let mut scopes: Vec<(Scope, Vec<&SearchHit>)> = Vec::new();
    let mut total = 0;
    for (scope, hit) in outcome.ranked() {
        total += 1;
        match scopes.iter_mut().find(|(seen, _)| *seen == scope) {
            Some((_, hits)) => hits.push(hit),
            None => scopes.push((scope, vec![hit])),
        }
    }
    for (scope, hits) in &scopes {
        let noun = if hits.len() == 1 { "match" } else { "matches" };
        let heading = format!("── {}/ ({} {noun}) ──", scope.as_str(), hits.len());
        text.push_str(&form.painter.style(Style::Heading, &heading));
        text.push('\n');
        let mut files: Vec<(String, Vec<&SearchHit>)> = Vec::new();
        let mut seen: HashMap<String, usize> = HashMap::new();
        for &hit in hits {
            let path = file_of(hit);
            match seen.get(&path) {
                Some(&at) => files[at].1.push(hit),
                None => {
                    seen.insert(path.clone(), files.len());
                    files.push((path, vec![hit]));
                }
            }
        }
        for (path, hits) in &files {
            writer.file(&mut text, path, hits);
        }
        text.push('\n');
    }
    text.push_str(&final_line(outcome, total));
    text.push('\n');
    text
}

/// The file a result shows, relative to the AIOS folder: a note's source, a memory stream's
/// label, a session body's index path.
fn file_of(hit: &SearchHit) -> String {
    let path = match hit {
        SearchHit::Markdown(hit) => &hit.source,
        SearchHit::Memory(hit) => &hit.source,
        SearchHit::Session(hit) => &hit.file,
    };
    escape_name(path, NameOutput::Data).into_owned()
}

struct Writer {
    form: Form,
    highlighter: Highlighter,
}

impl Writer {
    /// One file: its heading, then each of its results.
    fn file(&self, text: &mut String, path: &str, hits: &[&SearchHit]) {
        let painter = self.form.painter;
        let styled_path = painter.style(Style::Path, path);
        let title = match hits.first() {
            Some(SearchHit::Markdown(hit)) if hit.title != hit.file => Some(hit.title.as_str()),
            _ => None,
        };
        match title {
            Some(title) => {
                let lead = columns(path) + 3;
                text.push_str(&format!("{styled_path} — {}\n", self.cut(title, lead)));
            }
            None => text.push_str(&format!("{styled_path}\n")),
        }
        for hit in hits {
            match hit {
                SearchHit::Markdown(hit) => {
                    for block in blocks(&hit.matches) {
                        let number = block.line.to_string();
                        let lead = columns(path) + number.len() + 3;
                        let mut pieces = block.pieces.iter();
                        let first = pieces.next().map_or("", String::as_str);
                        text.push_str(&format!(
                            "{styled_path}:{}: {}\n",
                            painter.style(Style::Line, &number),
                            self.cut(first, lead)
                        ));
                        // The block's further lines, indented: §8.2 keeps no line number
                        // for each (empty lines are left out), so only the block's first
                        // line is named.
                        for piece in pieces {
                            text.push_str(&format!(
                                "{CONTINUATION}{}\n",
                                self.cut(piece, CONTINUATION.len())
                            ));
                        }
                    }
                }
                // A memory line is cut whole, its lead (type, tags, field name) included:
                // those are the folder's text too.
                SearchHit::Memory(hit) => match memory_item(hit) {
                    None => {}
                    Some(MemoryItem::Notes { title, lines, .. }) => {
                        text.push_str(&format!("  {}\n", self.cut(&title, 2)));
                        for (label, content) in lines {
                            let line = format!("{label}: {content}");
                            text.push_str(&format!("    {}\n", self.cut(&line, 4)));
                        }
                    }
                    Some(MemoryItem::Entry {
                        head,
                        summary,
                        matched,
                        ..
                    }) => {
                        let line = format!("{head}{summary}");
                        text.push_str(&format!("  {}\n", self.cut(&line, 2)));
                        if let Some((field, snippet)) = matched {
                            let line = format!("match: {field} = {snippet}");
                            text.push_str(&format!("    {}\n", self.cut(&line, 4)));
                        }
                    }
                },
                SearchHit::Session(hit) => {
                    text.push_str(&format!("  {}\n", self.cut(&session_head(hit), 2)));
                    text.push_str(&format!("  {}\n", self.cut(&js_string_of(&hit.title), 2)));
                    for snippet in hit.matches.iter().filter(|s| !s.content.is_empty()) {
                        text.push_str(&format!("  {}\n", self.cut(&snippet.content, 2)));
                    }
                }
            }
        }
    }

    /// `text` from the folder, escaped, its matches marked, cut to what is left of the width
    /// after `lead` columns (at least [`MIN_TEXT_COLUMNS`]). A tab shows as one space: the
    /// columns it takes depend on the terminal, and the cut must count them.
    fn cut(&self, text: &str, lead: usize) -> String {
        let room = self.form.width.saturating_sub(lead).max(MIN_TEXT_COLUMNS);
        let spaced = text.replace('\t', " ");
        let shown = escape_name(&spaced, NameOutput::Data);
        // Every character takes at least one column, so nothing past `room` characters can
        // show: the marking works on that prefix only (linear in the width, not the snippet).
        let (clipped, more) = match shown.char_indices().nth(room) {
            Some((at, _)) => (&shown[..at], true),
            None => (shown.as_ref(), false),
        };
        let marks = self.highlighter.ranges(clipped);
        self.form.painter.marked(clipped, &marks, room, more)
    }
}

/// One block of a file's merged snippets: its first and last line and the texts of its
/// non-empty lines, each once.
#[derive(Debug, PartialEq, Eq)]
struct Block {
    line: usize,
    end: usize,
    pieces: Vec<String>,
}

/// The snippets of one file merged (contract 06 §1.9). The frontmatter `description` snippet
/// (which §8.2 places at line 1) is left out when a window already shows its text. Sorted by
/// first line (the wider window first), a snippet whose lines overlap or touch the current block joins it: its pieces (the
/// window's non-empty lines, which contract 03 §8.2 joins with ` / `) that the block already
/// ends with, within the lines the two share, are not repeated, and a snippet whose pieces the
/// block already holds in a row adds none. Core keeps at most five snippets a file (§8.2), so
/// the work is a constant times their text.
fn blocks(snippets: &[Snippet]) -> Vec<Block> {
    let shown_elsewhere = |description: &Snippet| {
        snippets.iter().any(|other| {
            other.area != Area::Description
                && other
                    .content
                    .split(" / ")
                    .any(|piece| piece == description.content)
        })
    };
    let mut sorted: Vec<&Snippet> = snippets
        .iter()
        .filter(|s| s.area != Area::Description || !shown_elsewhere(s))
        .collect();
    sorted.sort_by_key(|s| (s.line, std::cmp::Reverse(s.line_end)));
    let mut blocks: Vec<Block> = Vec::new();
    for snippet in sorted {
        let pieces: Vec<String> = snippet.content.split(" / ").map(str::to_owned).collect();
        let end = snippet.line_end.max(snippet.line);
        match blocks.last_mut() {
            Some(block) if snippet.line <= block.end.saturating_add(1) => {
                if !holds_run(&block.pieces, &pieces) {
                    let shared_lines = (block.end + 1).saturating_sub(snippet.line);
                    let most = shared_lines.min(pieces.len()).min(block.pieces.len());
                    let overlap = (0..=most)
                        .rev()
                        .find(|&n| block.pieces[block.pieces.len() - n..] == pieces[..n])
                        .unwrap_or(0);
                    block.pieces.extend(pieces.into_iter().skip(overlap));
                }
                block.end = block.end.max(end);
            }
            _ => blocks.push(Block {
                line: snippet.line,
                end,
                pieces,
            }),
        }
    }
    blocks
}

/// Whether `run` occurs in `pieces` as consecutive items.
fn holds_run(pieces: &[String], run: &[String]) -> bool {
    run.is_empty() || pieces.windows(run.len()).any(|window| window == run)
}

#[cfg(test)]
mod tests {
    use dotaios_core::folder::memory::MemoryMode;
    use dotaios_core::search::{Group, MarkdownHit, MatchKind, ScopeMeta, ScopeRequest};

    use super::*;

    fn note(source: &str, title: &str, snippets: Vec<Snippet>) -> SearchHit {
        let (_, file) = source.split_once('/').unwrap();
        SearchHit::Markdown(MarkdownHit {
            source: source.to_owned(),
            file: file.to_owned(),
            title: title.to_owned(),
            matches: snippets,
        })
    }

    /// Results ranked context, skills, context, skills: one heading per scope, in the order of
    /// its best result, each file once, its snippets one block (contract 06 §1.9).
    #[test]
    fn scopes_and_files_get_one_heading_each() {
        let outcome = SearchOutcome {
            groups: vec![
                Group {
                    scope: Scope::Context,
                    results: vec![
                        note("context/a.md", "A", vec![snippet(1, 3, "# A / tide one")]),
                        note("context/b.md", "b.md", vec![snippet(4, 4, "tide")]),
                    ],
                },
                Group {
                    scope: Scope::Skills,
                    results: vec![
                        note(
                            "skills/s/SKILL.md",
                            "S",
                            vec![snippet(3, 5, "y / tide / z"), snippet(2, 4, "x / y / tide")],
                        ),
                        note("skills/t/SKILL.md", "T", vec![snippet(9, 9, "tide")]),
                    ],
                },
            ],
            order: vec![(0, 0), (1, 0), (0, 1), (1, 1)],
            explanations: Vec::new(),
            scope: ScopeMeta {
                requested: ScopeRequest::All,
                project: None,
                project_id: None,
                projects_omitted: false,
            },
            omissions: Vec::new(),
            skipped_links: Vec::new(),
            skipped_files: Vec::new(),
            memory: MemoryMode::Shared,
        };
        let form = Form {
            painter: Painter { colour: false },
            width: 100,
        };
        assert_eq!(
            render("tide", "all", &outcome, form),
            "Searching for \"tide\" in all...\n\n\
             ── context/ (2 matches) ──\n\
             context/a.md — A\n\
             context/a.md:1: # A\n\
             \x20   >>tide<< one\n\
             context/b.md\n\
             context/b.md:4: >>tide<<\n\
             \n\
             ── skills/ (2 matches) ──\n\
             skills/s/SKILL.md — S\n\
             skills/s/SKILL.md:2: x\n\
             \x20   y\n\
             \x20   >>tide<<\n\
             \x20   z\n\
             skills/t/SKILL.md — T\n\
             skills/t/SKILL.md:9: >>tide<<\n\
             \n\
             4 result(s) found.\n"
        );
    }

    fn snippet(line: usize, line_end: usize, content: &str) -> Snippet {
        Snippet {
            line,
            line_end,
            content: content.to_owned(),
            kind: MatchKind::Phrase,
            area: Area::Body,
        }
    }

    fn description() -> Snippet {
        Snippet {
            area: Area::Description,
            ..snippet(1, 1, "description: plan my day")
        }
    }

    fn merged(snippets: &[Snippet]) -> Vec<(usize, String)> {
        blocks(snippets)
            .into_iter()
            .map(|block| (block.line, block.pieces.join(" / ")))
            .collect()
    }

    /// The windows of issue 39 (`L1`, `L2-4`, `L3-5`, `L4-6`, `L6-8` over one SKILL.md) become
    /// one block that shows each line once.
    #[test]
    fn overlapping_windows_become_one_block_with_each_line_once() {
        let lines = [
            "---",
            "name: plan",
            "description: plan my day",
            "---",
            "# Plan",
            "plan it",
            "",
            "done",
        ];
        let window = |start: usize, end: usize| {
            let text: Vec<&str> = lines[start - 1..end]
                .iter()
                .copied()
                .filter(|line| !line.is_empty())
                .collect();
            snippet(start, end, &text.join(" / "))
        };
        let snippets = [
            window(4, 6),
            description(),
            window(2, 4),
            window(6, 8),
            window(3, 5),
        ];
        assert_eq!(
            merged(&snippets),
            [(
                2,
                "name: plan / description: plan my day / --- / # Plan / plan it / done".to_owned()
            )]
        );
        let one_window = [window(1, 3), description()];
        assert_eq!(
            merged(&one_window),
            [(1, "--- / name: plan / description: plan my day".to_owned())]
        );
    }

    /// Text from the folder reaches the terminal through the name rule: an escape sequence or
    /// a bidirectional override of a note prints as `\u{…}`; a tab as one space.
    #[test]
    fn control_characters_of_a_note_never_reach_the_terminal() {
        let writer = Writer {
            form: Form {
                painter: Painter { colour: false },
                width: 100,
            },
            highlighter: Highlighter::new("tide"),
        };
        assert_eq!(
            writer.cut("\x1b[2Jtide\tx\u{202e}y", 0),
            "\\u{001B}[2J>>tide<< x\\u{202E}y"
        );
    }

    /// A description no window shows stays, as its own line-1 block.
    #[test]
    fn a_description_no_window_shows_stays() {
        assert_eq!(
            merged(&[snippet(5, 7, "a / b"), description()]),
            [
                (1, "description: plan my day".to_owned()),
                (5, "a / b".to_owned())
            ]
        );
    }

    #[test]
    fn distant_windows_stay_apart_and_touching_ones_do_not_share_text() {
        assert_eq!(
            merged(&[snippet(10, 12, "x / y"), snippet(1, 3, "a / b / c")]),
            [(1, "a / b / c".to_owned()), (10, "x / y".to_owned())]
        );
        // Lines 1-3 and 4-6 touch: they share no line, so an equal text is a different line.
        assert_eq!(
            merged(&[snippet(1, 3, "a / b / ---"), snippet(4, 6, "--- / d")]),
            [(1, "a / b / --- / --- / d".to_owned())]
        );
    }
}
