//! Per-file processing of a Markdown corpus (contract 03 §8): frontmatter, title, description,
//! snippets and the candidate fields that ranking needs.
//!
//! A file is lowercased once; every line, the title and the path are matched against slices
//! or copies of that lowercase text. A file that does not match as a whole cannot yield a
//! snippet (every snippet source is a substring of the whole text, and a line start is always
//! preceded by `\n`), so such a file costs one lowercase pass and one search per term. In a file
//! that does match, only the stretches of a line around a needle are tokenised
//! ([`crate::search::relevance::LineNeedles`], contract 03 §19 rule 6).
//!
//! Pure: the caller reads the file and passes its text.

use crate::search::hit::MatchKind;
use crate::search::hit::{Area, MarkdownHit, Snippet};
use crate::search::matcher::{ByteSet, Query};
use crate::search::relevance::{
    AnalysedQuery, Features, Field, fold_accents, kind_of, lowercase, lowercase_into,
};
use crate::search::window::{self, SnippetForm, Span};
use crate::text::{NameOutput, escape_name, is_js_space, js_trim};

/// What one file contributes: its length for the request statistics and, when it yields a
/// snippet, a candidate.
#[derive(Debug)]
pub(crate) struct FileAnalysis {
    /// The file's size in bytes (every file counts towards the statistics, §9.2).
    pub(crate) length: u64,
    /// Boxed: most files of a search are not candidates, and an analysis is held for every
    /// file until execution, so an inline candidate would cost its size ten thousand times.
    pub(crate) candidate: Option<Box<Candidate>>,
}

/// A file with at least one snippet, before ranking.
#[derive(Debug)]
pub(crate) struct Candidate {
    pub(crate) hit: MarkdownHit,
    /// What the relevance score is computed from (§9.1).
    pub(crate) features: Features,
    pub(crate) mtime_ms: f64,
}

/// Analyses one accepted file.
///
/// `relative` is the path from the corpus directory, `prefix` the `source` prefix of §2.4
/// (`vault`, `memory/daily`, …) and `lower` a reusable buffer.
pub(crate) fn analyze(
    text: &str,
    relative: &str,
    prefix: &str,
    mtime_ms: f64,
    query: &Query,
    lower: &mut String,
) -> FileAnalysis {
    lowercase_into(text, lower);
    analyze_lowered(text, lower, None, relative, prefix, mtime_ms, query)
}

/// [`analyze`] for a file whose lowercase text (`lowercase_into` of `text`) is already at
/// hand, as the server's content cache keeps it, with the [`ByteSet`] of that lowercase text
/// when the cache has it. The profile only ever rules a file out early: an ASCII file whose
/// bytes cannot hold any term's gate has no match.
pub(crate) fn analyze_lowered(
    text: &str,
    lower: &str,
    profile: Option<&ByteSet>,
    relative: &str,
    prefix: &str,
    mtime_ms: f64,
    query: &Query,
) -> FileAnalysis {
    analyze_as(
        text,
        lower,
        profile,
        relative,
        prefix,
        mtime_ms,
        query,
        HitForm::Full,
    )
}

/// How much of a candidate's hit [`analyze_as`] builds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum HitForm {
    /// The whole hit: source, file, title and snippets.
    Full,
    /// Only what ranking reads (the hit's `file`, the tie-break of contract 03 §9.4, and the
    /// features): title and snippets are left empty, for the engine to build for the few
    /// candidates it shows by analysing the same text again in the full form. The features
    /// and whether the file is a candidate do not depend on the form.
    Ranking,
}

/// [`analyze_lowered`] in the chosen [`HitForm`].
#[allow(
    clippy::too_many_arguments,
    reason = "analyze_lowered's arguments and the form"
)]
pub(crate) fn analyze_as(
    text: &str,
    lower: &str,
    profile: Option<&ByteSet>,
    relative: &str,
    prefix: &str,
    mtime_ms: f64,
    query: &Query,
    form: HitForm,
) -> FileAnalysis {
    let length = text.len() as u64;
    if profile.is_some_and(|profile| query.ruled_out_by(profile)) {
        return FileAnalysis {
            length,
            candidate: None,
        };
    }
    let model = &query.analysed;
    let folded = fold_accents(lower);
    if model.term_count() == 0 || !model.may_match(&folded) {
        // No token of this file can match a term (each matching token holds its gate).
        return FileAnalysis {
            length,
            candidate: None,
        };
    }
    let mut collector = model.collector();
    collector.add_length(text.len());
    let path = fold_path(relative);
    collector.piece(&path, Field::Path);

    let terms = model.term_count();
    let front_lines = frontmatter(text).map(|(_, close)| text[..close].matches('\n').count() + 1);
    let mut best = Best::default();
    if let Some(description) = description(text) {
        let facts = model.facts(&fold_accents(&lowercase(&description)));
        if let Some(kind) = kind_of(&facts, terms) {
            best.offer(Pick {
                kind,
                area: Area::Description,
                index: 0,
            });
        }
    }
    let mut title_seen = false;
    let mut description_seen = false;
    let mut description_line = None;
    let mut line_count = 0;
    // Only the stretches of a line around a needle are tokenised; the rest are counted.
    let mut needles = model.line_needles(&folded);
    for (index, (line, folded_line)) in lines(text).zip(lines(&folded)).enumerate() {
        line_count = index + 1;
        let trimmed = js_trim(line);
        let field = match front_lines {
            Some(close) if index >= 1 && index < close => {
                if !description_seen && description_value(line).is_some() {
                    description_seen = true;
                    description_line = Some(index);
                    Field::Description
                } else if line.starts_with("title:") {
                    Field::Title
                } else if line.starts_with("tags:") {
                    Field::Heading
                } else {
                    Field::Body
                }
            }
            _ if !title_seen
                && line.starts_with("# ")
                && front_lines.is_none_or(|close| index > close) =>
            {
                title_seen = true;
                Field::Title
            }
            _ if trimmed.starts_with('#') => Field::Heading,
            _ => Field::Body,
        };
        let facts = collector.line(&mut needles, folded_line, field);
        if let Some(kind) = kind_of(&facts, terms) {
            best.offer(Pick {
                kind,
                area: if trimmed.starts_with('#') {
                    Area::Heading
                } else {
                    Area::Body
                },
                index,
            });
        }
    }
    let features = collector.finish();
    if best.picks.is_empty() {
        return FileAnalysis {
            length,
            candidate: None,
        };
    }
    if form == HitForm::Ranking {
        return FileAnalysis {
            length,
            candidate: Some(Box::new(Candidate {
                hit: MarkdownHit {
                    source: String::new(),
                    file: escape_name(relative, NameOutput::Data).into_owned(),
                    title: String::new(),
                    matches: Vec::new(),
                },
                features,
                mtime_ms,
            })),
        };
    }
    let matches = match query.snippets {
        SnippetForm::Lines => best.snippets(text, line_count),
        SnippetForm::Windows => best.windows(text, &folded, line_count, model, description_line),
    };
    // The path is the folder's names: it reaches the payload through the one name rule
    // (contract 02 §10.1, 03 §12.2), which leaves every ordinary name as it is; matching above
    // saw the name as it is on disk.
    let shown = escape_name(relative, NameOutput::Data);
    let title = title(text).unwrap_or_else(|| shown.clone().into_owned());
    FileAnalysis {
        length,
        candidate: Some(Box::new(Candidate {
            hit: MarkdownHit {
                source: format!("{prefix}/{shown}"),
                file: shown.into_owned(),
                title,
                matches,
            },
            features,
            mtime_ms,
        })),
    }
}

/// The lines of `text`, exactly as `text.split('\n')` gives them, found by a byte search: a note
/// of millions of one-character lines spent a third of its time in the general pattern search.
fn lines(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = Some(text);
    std::iter::from_fn(move || {
        let current = rest?;
        match memchr::memchr(b'\n', current.as_bytes()) {
            Some(at) => {
                rest = Some(&current[at + 1..]);
                Some(&current[..at])
            }
            None => {
                rest = None;
                Some(current)
            }
        }
    })
}

/// The path as a field (§9.1): folded, without the `.md` ending, which every note shares.
fn fold_path(relative: &str) -> String {
    let lower = lowercase(relative);
    let stem = lower.strip_suffix(".md").unwrap_or(&lower);
    fold_accents(stem).into_owned()
}

/// One snippet candidate of §8.2 before its window is built: the matched line (0-based; the
/// description candidate has index 0 and area `description`).
#[derive(Debug, Clone, Copy)]
struct Pick {
    kind: MatchKind,
    area: Area,
    index: usize,
}

impl Pick {
    /// The sort key of §8.2: kind weight, then area weight (both descending), then line.
    fn better_than(&self, other: &Pick) -> bool {
        (
            self.kind.snippet_weight(),
            area_weight(self.area),
            std::cmp::Reverse(self.index),
        ) > (
            other.kind.snippet_weight(),
            area_weight(other.area),
            std::cmp::Reverse(other.index),
        )
    }

    /// The dedupe key `line:lineEnd:content` of §8.2: two line windows are equal exactly when
    /// their line ranges are (the content is a function of the range), and the description
    /// candidate never equals a line window (a file with frontmatter has at least 3 lines).
    fn same_window(&self, other: &Pick, lines: usize) -> bool {
        let description = |pick: &Pick| pick.area == Area::Description;
        if description(self) || description(other) {
            return description(self) && description(other);
        }
        window_range(self.index, lines) == window_range(other.index, lines)
    }
}

/// The snippet candidates worth keeping, as they are found: at most the 5 best, deduplicated
/// (§8.2), so a file's snippet work keeps O(1) candidates whatever its number of lines.
#[derive(Debug, Default)]
struct Best {
    /// Sorted best first.
    picks: Vec<Pick>,
}

impl Best {
    fn offer(&mut self, pick: Pick) {
        if self.picks.len() == 6 && !pick.better_than(&self.picks[5]) {
            return;
        }
        let at = self
            .picks
            .iter()
            .position(|kept| pick.better_than(kept))
            .unwrap_or(self.picks.len());
        self.picks.insert(at, pick);
        // One spare beyond 5 covers the only duplicate a line window can have (§8.2).
        self.picks.truncate(6);
    }

    /// The kept picks, best first: deduplicated, at most 5 (§8.2).
    fn kept(self, lines: usize) -> Vec<Pick> {
        let mut kept: Vec<Pick> = Vec::new();
        for pick in self.picks {
            if kept.len() == 5 {
                break;
            }
            if !kept.iter().any(|seen| seen.same_window(&pick, lines)) {
                kept.push(pick);
            }
        }
        kept
    }

    /// The snippets: windows built from borrowed lines, deduplicated, at most 5.
    fn snippets(self, text: &str, lines: usize) -> Vec<Snippet> {
        let kept = self.kept(lines);
        let mut wanted: Vec<usize> = Vec::new();
        for pick in &kept {
            if pick.area != Area::Description {
                let (start, end) = window_range(pick.index, lines);
                wanted.extend(start..=end);
            }
        }
        wanted.sort_unstable();
        wanted.dedup();
        let mut found: Vec<(usize, &str)> = Vec::with_capacity(wanted.len());
        if let Some(&last) = wanted.last() {
            for (index, line) in text.split('\n').enumerate().take(last + 1) {
                if wanted.binary_search(&index).is_ok() {
                    found.push((index, line));
                }
            }
        }
        let line_at = |index: usize| -> &str {
            found
                .binary_search_by_key(&index, |(at, _)| *at)
                .map_or("", |at| found[at].1)
        };
        kept.into_iter()
            .map(|pick| {
                if pick.area == Area::Description {
                    let description = description(text).unwrap_or_default();
                    return Snippet {
                        line: 1,
                        line_end: 1,
                        content: format!("description: {description}"),
                        kind: pick.kind,
                        area: Area::Description,
                    };
                }
                window(line_at, pick.index, lines, pick.kind)
            })
            .collect()
    }
}

impl Best {
    /// The snippets in the windowed form of §8.2: the kept picks' windows around their first
    /// matching token, inside each pick's three-line window (the description's own frontmatter
    /// line for the description pick), chosen and merged by [`window::choose`]. One pass over
    /// the lines up to the last kept one, then work bounded by the window size per pick.
    fn windows(
        self,
        text: &str,
        folded: &str,
        lines: usize,
        model: &AnalysedQuery,
        description_line: Option<usize>,
    ) -> Vec<Snippet> {
        let kept = self.kept(lines);
        let matched_line = |pick: &Pick| match pick.area {
            Area::Description => description_line.unwrap_or(0),
            _ => pick.index,
        };
        let range_of = |pick: &Pick| match pick.area {
            Area::Description => (matched_line(pick), matched_line(pick)),
            _ => window_range(pick.index, lines),
        };
        let mut wanted: Vec<usize> = Vec::new();
        for pick in &kept {
            let (start, end) = range_of(pick);
            wanted.extend(start..=end);
        }
        wanted.sort_unstable();
        wanted.dedup();
        // (line index, byte start and end of the line in `text`, the folded line)
        let mut found: Vec<(usize, usize, usize, &str)> = Vec::with_capacity(wanted.len());
        if let Some(&last) = wanted.last() {
            for (index, (line, folded_line)) in self::lines(text)
                .zip(self::lines(folded))
                .enumerate()
                .take(last + 1)
            {
                if wanted.binary_search(&index).is_ok() {
                    let start = line.as_ptr() as usize - text.as_ptr() as usize;
                    found.push((index, start, start + line.len(), folded_line));
                }
            }
        }
        let line_at = |index: usize| {
            found
                .binary_search_by_key(&index, |entry| entry.0)
                .ok()
                .map(|at| found[at])
        };
        let mut spans: Vec<Span> = Vec::with_capacity(kept.len());
        let mut leads: Vec<Pick> = Vec::with_capacity(kept.len());
        for pick in &kept {
            let (first, last) = range_of(pick);
            let (Some(first), Some(last), Some(matched)) =
                (line_at(first), line_at(last), line_at(matched_line(pick)))
            else {
                continue;
            };
            let (_, start, end, folded_line) = matched;
            // The match is found in the folded line and carried over by character count: a
            // character whose lowercase or folded form has another length moves the centre by
            // that difference at most, and the window still lies inside the allowed lines.
            let centre = model.first_match(folded_line).map_or(start, |offset| {
                let chars = folded_line[..offset].chars().count();
                start
                    + text[start..end]
                        .char_indices()
                        .nth(chars)
                        .map_or(end - start, |(at, _)| at)
            });
            spans.push(window::around(text, first.1, last.2, centre));
            leads.push(*pick);
        }
        window::choose(text, &spans)
            .into_iter()
            .filter_map(|(span, lead)| {
                let pick = leads[lead];
                let shown = window::render(text, span)?;
                let first_line = found
                    .iter()
                    .rev()
                    .find(|entry| entry.1 <= span.start)
                    .map_or(0, |entry| entry.0);
                Some(Snippet {
                    line: first_line + shown.first + 1,
                    line_end: first_line + shown.last + 1,
                    content: shown.content,
                    kind: pick.kind,
                    area: pick.area,
                })
            })
            .collect()
    }
}

fn window_range(index: usize, lines: usize) -> (usize, usize) {
    (
        index.saturating_sub(1),
        (index + 1).min(lines.saturating_sub(1)),
    )
}

/// The frontmatter block (between offset 4 and the closing marker) and the offset of the
/// closing `\n---`, when the text has frontmatter (§8.1).
pub(crate) fn frontmatter(text: &str) -> Option<(&str, usize)> {
    if !text.starts_with("---\n") {
        return None;
    }
    let close = text[4..].find("\n---")? + 4;
    Some((&text[4..close], close))
}

/// The title of §8.1: the first body line starting with `# `, without the `#`, the spaces
/// after it and surrounding JS whitespace. `None` when absent or empty.
pub(crate) fn title(text: &str) -> Option<String> {
    let body = match frontmatter(text) {
        Some((_, close)) => &text[close + 4..],
        None => text,
    };
    let line = first_line_starting_with(body, "# ")?;
    let rest = line[1..].trim_start_matches(is_js_space);
    let title = js_trim(rest);
    (!title.is_empty()).then(|| title.to_owned())
}

/// The first line of `text` (as `text.split('\n')` gives them) that starts with `start`, found
/// by a substring search rather than line by line: a note of millions of short lines and no
/// title would otherwise be split into every line just to find none.
fn first_line_starting_with<'t>(text: &'t str, start: &str) -> Option<&'t str> {
    let at = if text.starts_with(start) {
        0
    } else {
        let mut newline = start.to_owned();
        newline.insert(0, '\n');
        memchr::memmem::find(text.as_bytes(), newline.as_bytes())? + 1
    };
    let line = &text[at..];
    Some(match memchr::memchr(b'\n', line.as_bytes()) {
        Some(end) => &line[..end],
        None => line,
    })
}

/// The description of §8.1, only from frontmatter.
pub(crate) fn description(text: &str) -> Option<String> {
    let (block, _) = frontmatter(text)?;
    // Only the first line of the block that has the `description:` shape counts, even when
    // its value trims to nothing.
    let value = block.split('\n').find_map(description_value)?;
    let value = js_trim(value);
    let value = strip_matching_quotes(value);
    (!value.is_empty()).then(|| value.to_owned())
}

/// The raw captured value when `line` is, in full, `description\s*:\s*(.+)` with the
/// regular-expression meaning of `\s` (JS whitespace) and `.` (anything but a line
/// terminator).
fn description_value(line: &str) -> Option<&str> {
    let rest = line.strip_prefix("description")?;
    let rest = rest.trim_start_matches(is_js_space);
    let rest = rest.strip_prefix(':')?;
    // `.+` cannot cross a terminator, so the value lies after the last one; everything before
    // it must be whitespace that `\s*` consumed.
    let tail_start = rest
        .char_indices()
        .rev()
        .find(|(_, c)| is_line_terminator(*c))
        .map_or(0, |(index, c)| index + c.len_utf8());
    let (lead, tail) = rest.split_at(tail_start);
    if tail.is_empty() || !lead.chars().all(is_js_space) {
        return None;
    }
    Some(tail)
}

fn is_line_terminator(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\u{2028}' | '\u{2029}')
}

fn strip_matching_quotes(value: &str) -> &str {
    for quote in ['"', '\''] {
        if value.len() >= 2 && value.starts_with(quote) && value.ends_with(quote) {
            return &value[1..value.len() - 1];
        }
    }
    value
}

fn window<'a>(
    line_at: impl Fn(usize) -> &'a str,
    index: usize,
    lines: usize,
    kind: MatchKind,
) -> Snippet {
    let (start, end) = window_range(index, lines);
    let mut content = String::new();
    for at in start..=end {
        let trimmed = js_trim(line_at(at));
        if trimmed.is_empty() {
            continue;
        }
        if !content.is_empty() {
            content.push_str(" / ");
        }
        content.push_str(trimmed);
    }
    let matched_line = js_trim(line_at(index));
    if content.is_empty() {
        content.push_str(matched_line);
    }
    Snippet {
        line: start + 1,
        line_end: end + 1,
        content,
        kind,
        area: if matched_line.starts_with('#') {
            Area::Heading
        } else {
            Area::Body
        },
    }
}

fn area_weight(area: Area) -> u8 {
    match area {
        Area::Description => 3,
        Area::Heading => 2,
        Area::Body => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_title_line_is_the_one_split_finds() {
        let cases = [
            "",
            "# a",
            "x\n# a\n# b",
            "x# a\n#b\n# c",
            "#\n# \n",
            "a\n\n# ",
            "a # b\nc",
            "\n# é\r\n",
            "## a\n# b",
            "x\n#",
            "# ",
        ];
        for text in cases {
            let by_split = text.split('\n').find(|line| line.starts_with("# "));
            assert_eq!(first_line_starting_with(text, "# "), by_split, "{text:?}");
            assert_eq!(
                first_line_starting_with(text, "#"),
                text.split('\n').find(|line| line.starts_with('#')),
                "{text:?}"
            );
        }
    }

    fn run(query: &str, text: &str) -> FileAnalysis {
        let query = Query::new(query);
        let mut buffer = String::new();
        analyze(text, "dir/note.md", "vault", 0.0, &query, &mut buffer)
    }

    fn run_windows(query: &str, text: &str) -> FileAnalysis {
        let query = Query::new(query).with_snippets(SnippetForm::Windows);
        let mut buffer = String::new();
        analyze(text, "dir/note.md", "vault", 0.0, &query, &mut buffer)
    }

    fn snippet_tuples(
        analysis: &FileAnalysis,
    ) -> Vec<(usize, usize, String, &'static str, &'static str)> {
        analysis
            .candidate
            .as_ref()
            .unwrap()
            .hit
            .matches
            .iter()
            .map(|s| {
                (
                    s.line,
                    s.line_end,
                    s.content.clone(),
                    s.kind.as_str(),
                    s.area.as_str(),
                )
            })
            .collect()
    }

    #[test]
    fn frontmatter_needs_the_exact_opening_and_a_later_close() {
        assert_eq!(
            frontmatter("---\na: 1\n---\nbody").map(|f| f.0),
            Some("a: 1")
        );
        assert_eq!(frontmatter("---\r\na: 1\r\n---\r\n"), None);
        assert_eq!(frontmatter("\u{feff}---\na\n---\n"), None);
        // The closing marker is any line starting with `---`.
        assert_eq!(frontmatter("---\na\n----x\n").map(|f| f.0), Some("a"));
        // An immediately closed block is not found at offset 3.
        assert_eq!(frontmatter("---\n---\nx"), None);
    }

    #[test]
    fn titles() {
        assert_eq!(title("# Hello \n").as_deref(), Some("Hello"));
        assert_eq!(title("x\n#  \t Spaced\n").as_deref(), Some("Spaced"));
        assert_eq!(title("## Two\n#NoSpace\n"), None);
        assert_eq!(title("# \n"), None);
        assert_eq!(
            title("---\ntitle: x\n---\n# Real\n").as_deref(),
            Some("Real")
        );
        assert_eq!(title("# Windows\r\n").as_deref(), Some("Windows"));
        assert_eq!(title("\u{feff}# Bom\n"), None);
    }

    #[test]
    fn descriptions() {
        let text = "---\ndescription: \"Quoted\"\n---\n";
        assert_eq!(description(text).as_deref(), Some("Quoted"));
        assert_eq!(
            description("---\ndescription :  'x' \n---\n").as_deref(),
            Some("x")
        );
        assert_eq!(description("---\ndescription: a\r\n---\n"), None);
        assert_eq!(
            description("---\ndescription:\ndescription: later\n---\n").as_deref(),
            Some("later")
        );
        // A value that trims to nothing ends the search.
        assert_eq!(
            description("---\ndescription:   \ndescription: later\n---\n"),
            None
        );
        assert_eq!(description("---\nDescription: x\n---\n"), None);
        assert_eq!(description("description: outside\n"), None);
        assert_eq!(
            description("---\ndescription: \"\n---\n").as_deref(),
            Some("\"")
        );
    }

    #[test]
    fn windows_join_trimmed_neighbours() {
        let analysis = run("needle", "# T\n\n  a needle here  \nnext\n");
        assert_eq!(
            snippet_tuples(&analysis),
            [(2, 4, "a needle here / next".into(), "phrase", "body")]
        );
    }

    #[test]
    fn snippet_order_kind_then_area_then_line() {
        let text = "alpha\n# alpha beta\nbeta alpha\n\n\n\nalpha beta";
        let analysis = run("alpha beta", text);
        let got: Vec<(usize, &str, &str)> = snippet_tuples(&analysis)
            .iter()
            .map(|(line, _, _, kind, area)| (*line, *kind, *area))
            .collect();
        assert_eq!(
            got,
            [
                (1, "phrase", "heading"),
                (6, "phrase", "body"),
                (2, "terms", "body"),
                (1, "partial", "body")
            ]
        );
    }

    #[test]
    fn description_candidate_comes_first() {
        let text = "---\ndescription: needle notes\n---\nneedle";
        let analysis = run("needle", text);
        let snippets = snippet_tuples(&analysis);
        assert_eq!(
            snippets[0],
            (
                1,
                1,
                "description: needle notes".into(),
                "phrase",
                "description"
            )
        );
    }

    /// Issue F1 of contract 03 §19.6: a 4 MiB file of one-character lines, every one a match,
    /// keeps at most six snippet candidates while it is scanned (the retained count, not the
    /// clock), and yields the first five windows.
    #[test]
    fn snippet_candidates_stay_bounded_on_a_huge_file() {
        let text = "x\n".repeat(2 * 1024 * 1024);
        let query = Query::new("x");
        let mut best = Best::default();
        let mut peak = 0;
        for (index, line) in text.split('\n').enumerate() {
            if query.analysed.facts(line).terms != 0 {
                best.offer(Pick {
                    kind: MatchKind::Phrase,
                    area: Area::Body,
                    index,
                });
                peak = peak.max(best.picks.len());
            }
        }
        assert_eq!(peak, 6);
        let analysis = run("x", &text);
        let snippets = snippet_tuples(&analysis);
        assert_eq!(
            snippets.iter().map(|s| (s.0, s.1)).collect::<Vec<_>>(),
            [(1, 2), (1, 3), (2, 4), (3, 5), (4, 6)]
        );
    }

    fn paragraph(seed: usize, words: usize) -> String {
        (0..words)
            .map(|index| format!("w{}", (seed * 7919 + index * 31) % 997))
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn windowed_snippets_cut_a_long_paragraph_around_the_match() {
        let text = format!(
            "# Note\n\n{}\n\n{} mitochondria {}\n\n{}\n",
            paragraph(1, 150),
            paragraph(2, 80),
            paragraph(3, 80),
            paragraph(4, 150)
        );
        let windows = snippet_tuples(&run_windows("mitochondria", &text));
        assert_eq!(windows.len(), 1, "{windows:?}");
        let (line, line_end, content, kind, area) = &windows[0];
        assert_eq!((*line, *line_end, *kind, *area), (5, 5, "phrase", "body"));
        assert!(
            content.starts_with('…') && content.ends_with('…'),
            "{content}"
        );
        assert!(content.contains(" mitochondria "), "{content}");
        assert!(content.chars().count() <= window::WINDOW_CHARS + 2);
        // The line form shows the paragraph whole, with its neighbours.
        let lines = snippet_tuples(&run("mitochondria", &text));
        assert_eq!((lines[0].0, lines[0].1), (4, 6));
        assert!(lines[0].2.len() > 600);
    }

    #[test]
    fn windowed_snippets_of_neighbouring_lines_merge() {
        // Three matched short lines: the line form gives three overlapping windows, the windowed
        // form one window over the lines they share.
        let text = "# List\n\n- alpha one\n- alpha two\n- alpha three\n\nrest\n";
        let lines = snippet_tuples(&run("alpha", text));
        assert_eq!(lines.len(), 3, "{lines:?}");
        let windows = snippet_tuples(&run_windows("alpha", text));
        assert_eq!(
            windows,
            [(
                3,
                5,
                "- alpha one / - alpha two / - alpha three".to_owned(),
                "phrase",
                "body"
            )]
        );
    }

    #[test]
    fn windowed_description_is_its_frontmatter_line() {
        let text = format!(
            "---\ndescription: \"{} alpha {}\"\nupdated: x\n---\n# T\n\nbody alpha\n",
            paragraph(1, 60),
            paragraph(2, 60)
        );
        let windows = snippet_tuples(&run_windows("alpha", &text));
        assert_eq!(windows.len(), 2, "{windows:?}");
        let (line, line_end, content, _, area) = &windows[0];
        assert_eq!((*line, *line_end, *area), (2, 2, "description"));
        assert!(
            content.starts_with('…') && content.contains(" alpha "),
            "{content}"
        );
        assert_eq!((windows[1].0, windows[1].2.as_str()), (7, "body alpha"));
    }

    #[test]
    fn windowed_snippets_of_a_four_mebibyte_line_stay_linear() {
        // One 4 MiB line, the match near its end: the windowed form adds one scan of the
        // matched line and a window's work to the line form's pass, never a pass per window
        // or per token. Work that grows faster than the line fails the deadline (the analysis
        // runs on its own thread, so a quadratic one fails instead of hanging the test).
        let text: std::sync::Arc<str> =
            format!("# Big\n{} needle tail\n", "ab cd ".repeat(700_000)).into();
        let start = std::time::Instant::now();
        let lines = snippet_tuples(&run("needle", &text));
        let lines_time = start.elapsed();
        assert_eq!(lines.len(), 1);
        let deadline = lines_time * 4 + std::time::Duration::from_millis(500);
        let (sender, receiver) = std::sync::mpsc::channel();
        let shared = std::sync::Arc::clone(&text);
        std::thread::spawn(move || {
            let _ = sender.send(snippet_tuples(&run_windows("needle", &shared)));
        });
        let windows = receiver
            .recv_timeout(deadline)
            .unwrap_or_else(|_| panic!("windows took longer than {deadline:?}"));
        assert_eq!(windows.len(), 1);
        assert!(windows[0].2.starts_with('…') && windows[0].2.ends_with("needle tail"));
        assert!(windows[0].2.chars().count() <= window::WINDOW_CHARS + 1);
    }

    #[test]
    fn dedupe_and_cap_at_five() {
        let text = "needle\n".repeat(12);
        let analysis = run("needle", &text);
        let snippets = snippet_tuples(&analysis);
        assert_eq!(snippets.len(), 5);
        assert_eq!(snippets[0].0, 1);
        assert_eq!(snippets[0].1, 2);
    }

    #[test]
    fn candidate_fields() {
        let text = "# Needle title\nbody needle";
        let query = Query::new("needle");
        let mut buffer = String::new();
        let analysis = analyze(text, "needle.md", "context", 5.0, &query, &mut buffer);
        let candidate = analysis.candidate.unwrap();
        assert_eq!(candidate.hit.source, "context/needle.md");
        assert_eq!(candidate.hit.title, "Needle title");
        assert_eq!(candidate.mtime_ms, 5.0);
    }

    #[test]
    fn no_match_means_no_candidate_and_no_tokens() {
        let analysis = run("absent", "# T\nbody");
        assert!(analysis.candidate.is_none());
        assert_eq!(analysis.length, 8);
    }

    #[test]
    fn terms_spread_over_lines_make_a_terms_file() {
        let analysis = run("alpha beta", "alpha\nx\nx\nbeta");
        let candidate = analysis.candidate.unwrap();
        assert!(candidate.features.holds(0) && candidate.features.holds(1));
        assert_eq!(
            snippet_tuples_from(&candidate),
            [(1, 2, "partial", "body"), (3, 4, "partial", "body")]
        );
    }

    #[test]
    fn inflected_file() {
        let analysis = run("meetings", "# Notes\nWe meet on Monday");
        let candidate = analysis.candidate.unwrap();
        assert_eq!(
            snippet_tuples_from(&candidate),
            [(1, 2, "inflected", "body")]
        );
    }

    fn snippet_tuples_from(
        candidate: &Candidate,
    ) -> Vec<(usize, usize, &'static str, &'static str)> {
        candidate
            .hit
            .matches
            .iter()
            .map(|s| (s.line, s.line_end, s.kind.as_str(), s.area.as_str()))
            .collect()
    }

    #[test]
    fn cjk_accents_and_emoji() {
        for (query, text) in [
            ("会議", "# 議事録\n今日の会議"),
            ("Café", "un CAFÉ noir"),
            ("🎉", "party 🎉"),
        ] {
            assert!(run(query, text).candidate.is_some(), "{query}");
        }
    }

    #[test]
    fn crlf_lines_are_trimmed_in_content() {
        let analysis = run("needle", "a\r\nneedle\r\nb\r\n");
        assert_eq!(snippet_tuples(&analysis)[0].2, "a / needle / b");
    }

    /// §8.2 written out the plain way: every matching line's window built in full, all of them
    /// kept, sorted, deduplicated and cut to 5. The bounded collector must agree with it.
    fn oracle_snippets(text: &str, query: &Query) -> Vec<Snippet> {
        let model = &query.analysed;
        let terms = model.term_count();
        let kind = |line: &str| kind_of(&model.facts(&fold_accents(&lowercase(line))), terms);
        let lines: Vec<&str> = text.split('\n').collect();
        let mut all = Vec::new();
        if let Some(description) = description(text)
            && let Some(kind) = kind(&description)
        {
            all.push(Snippet {
                line: 1,
                line_end: 1,
                content: format!("description: {description}"),
                kind,
                area: Area::Description,
            });
        }
        for (index, line) in lines.iter().enumerate() {
            let Some(kind) = kind(line) else {
                continue;
            };
            let start = index.saturating_sub(1);
            let end = (index + 1).min(lines.len() - 1);
            let joined: Vec<&str> = lines[start..=end]
                .iter()
                .map(|line| js_trim(line))
                .filter(|line| !line.is_empty())
                .collect();
            let matched = js_trim(line);
            all.push(Snippet {
                line: start + 1,
                line_end: end + 1,
                content: if joined.is_empty() {
                    matched.to_owned()
                } else {
                    joined.join(" / ")
                },
                kind,
                area: if matched.starts_with('#') {
                    Area::Heading
                } else {
                    Area::Body
                },
            });
        }
        all.sort_by_key(|snippet| {
            (
                std::cmp::Reverse(snippet.kind.snippet_weight()),
                std::cmp::Reverse(area_weight(snippet.area)),
                snippet.line,
            )
        });
        let mut kept: Vec<Snippet> = Vec::new();
        for snippet in all {
            let key = |s: &Snippet| (s.line, s.line_end, s.content.clone());
            if kept.len() < 5 && !kept.iter().any(|seen| key(seen) == key(&snippet)) {
                kept.push(snippet);
            }
        }
        kept
    }

    fn agrees_with_the_oracle(text: &str, query: &str) {
        let analysis = run(query, text);
        let expected = oracle_snippets(text, &Query::new(query));
        let got = analysis
            .candidate
            .map(|candidate| candidate.hit.matches)
            .unwrap_or_default();
        assert_eq!(got, expected, "{query:?} over {text:?}");
    }

    /// Every Markdown file of the sample folder and the frontmatter fuzz seeds, under a few
    /// queries.
    #[test]
    fn snippets_of_the_sample_folder_and_the_seeds_match_the_oracle() {
        let base = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let mut texts = Vec::new();
        let mut stack = vec![
            base.join("examples/aios"),
            base.join("fuzz/seeds/frontmatter"),
        ];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|ext| ext == "md")
                    && let Ok(text) = std::fs::read_to_string(&path)
                {
                    texts.push(text);
                }
            }
        }
        assert!(texts.len() > 10);
        for text in &texts {
            for query in [
                "the",
                "project",
                "memory skill",
                "launch",
                "a",
                "tidepool",
                "x",
            ] {
                agrees_with_the_oracle(text, query);
            }
        }
    }

    mod properties {
        use super::*;
        use proptest::prelude::*;

        fn text() -> impl Strategy<Value = String> {
            prop::collection::vec(
                prop::sample::select(vec![
                    "alpha",
                    "beta",
                    "alpha beta",
                    "# alpha",
                    "## beta gamma",
                    "",
                    "  ",
                    "---",
                    "description: alpha",
                    "title: beta",
                    "gamma",
                    "alphas",
                    "\r",
                    "x alpha x",
                ]),
                0..40,
            )
            .prop_map(|lines| lines.join("\n"))
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(256))]

            /// The byte-search line split is `str::split('\n')`.
            #[test]
            fn lines_are_the_standard_split(text in "(\\PC|\n|\r|x|é|東){0,40}") {
                let expected: Vec<&str> = text.split('\n').collect();
                prop_assert_eq!(lines(&text).collect::<Vec<_>>(), expected);
            }

            #[test]
            fn bounded_snippets_match_the_oracle(
                text in text(),
                query in prop::sample::select(vec!["alpha", "beta", "alpha beta", "gamma", "x"]),
            ) {
                agrees_with_the_oracle(&text, query);
            }
        }
    }
}
