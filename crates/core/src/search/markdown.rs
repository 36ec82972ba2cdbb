//! Per-file processing of a Markdown corpus (contract 03 §8): frontmatter, title, description,
//! snippets and the candidate fields that ranking needs.
//!
//! A file is lowercased once; every line, the title and the path are matched against slices
//! or copies of that lowercase text. A file that does not match as a whole cannot yield a
//! snippet (every snippet source is a substring of the whole text, and a line start is always
//! preceded by `\n`), so such a file costs one lowercase pass and one search per term.
//!
//! Pure: the caller reads the file and passes its text.

use crate::search::hit::{Area, MarkdownHit, Snippet};
use crate::search::matcher::{ByteSet, Match, MatchKind, Query, lowercase, lowercase_into};
use crate::text::{is_js_space, js_trim};

/// What one file contributes: its token hits for IDF and, when it yields a snippet, a
/// candidate.
#[derive(Debug)]
pub(crate) struct FileAnalysis {
    /// For each query term (by index), whether the term is one of the file's tokens; empty
    /// when none is.
    pub(crate) token_hits: Vec<bool>,
    pub(crate) candidate: Option<Candidate>,
}

/// A file with at least one snippet, before ranking.
#[derive(Debug)]
pub(crate) struct Candidate {
    pub(crate) hit: MarkdownHit,
    pub(crate) kind: MatchKind,
    pub(crate) structural_boost: f64,
    /// Indices of the query terms that are substrings of the whole lowercase text.
    pub(crate) matched_terms: Vec<usize>,
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
    if query.phrase.is_empty() {
        // An empty phrase matches nothing and no term can be a token (§5).
        return FileAnalysis {
            token_hits: vec![false; query.terms.len()],
            candidate: None,
        };
    }
    lowercase_into(text, lower);
    analyze_lowered(text, lower, None, relative, prefix, mtime_ms, query)
}

/// [`analyze`] for a file whose lowercase text (`lowercase_into` of `text`) is already at
/// hand, as the server's content cache keeps it, with the [`ByteSet`] of that lowercase text
/// when the cache has it (the file's query-independent profile: the answer is the same, only
/// needles it rules out are not searched for).
pub(crate) fn analyze_lowered(
    text: &str,
    lower: &str,
    profile: Option<&ByteSet>,
    relative: &str,
    prefix: &str,
    mtime_ms: f64,
    query: &Query,
) -> FileAnalysis {
    if query.phrase.is_empty() {
        return FileAnalysis {
            token_hits: vec![false; query.terms.len()],
            candidate: None,
        };
    }
    let (whole, present) = query.match_and_presence_in(lower, profile);
    let Some(whole) = whole else {
        // No term occurs literally (a literal term would have matched), so no token either:
        // `present` is empty here, and so is `token_hits` (nothing to allocate).
        return FileAnalysis {
            token_hits: present,
            candidate: None,
        };
    };
    let token_hits = query.token_hits(lower);
    let matches = snippets(text, lower, query, whole);
    let candidate = if matches.is_empty() {
        None
    } else {
        let matched_terms = (0..present.len()).filter(|&index| present[index]).collect();
        let title = title(text).unwrap_or_else(|| relative.to_owned());
        let mut structural_boost = match matches[0].area {
            Area::Description => 3.0,
            Area::Heading => 2.0,
            Area::Body => 0.0,
        };
        if query.match_text(&title).is_some() {
            structural_boost += 2.5;
        }
        if query.match_text(relative).is_some() {
            structural_boost += 1.0;
        }
        Some(Candidate {
            hit: MarkdownHit {
                source: format!("{prefix}/{relative}"),
                file: relative.to_owned(),
                title,
                matches,
            },
            kind: whole.kind,
            structural_boost,
            matched_terms,
            mtime_ms,
        })
    };
    FileAnalysis {
        token_hits,
        candidate,
    }
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
    let line = body.split('\n').find(|line| line.starts_with("# "))?;
    let rest = line[1..].trim_start_matches(is_js_space);
    let title = js_trim(rest);
    (!title.is_empty()).then(|| title.to_owned())
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

/// The snippets of §8.2, sorted, deduplicated and cut to 5.
fn snippets(text: &str, lower: &str, query: &Query, whole: Match) -> Vec<Snippet> {
    let lines: Vec<&str> = text.split('\n').collect();
    let lower_lines: Vec<&str> = lower.split('\n').collect();
    let mut found: Vec<Snippet> = Vec::new();

    if let Some(description) = description(text)
        && let Some(matched) = query.match_text(&description)
    {
        found.push(Snippet {
            line: 1,
            line_end: 1,
            content: format!("description: {description}"),
            kind: matched.kind,
            area: Area::Description,
        });
    }

    // Lowercasing maps line breaks one to one (no case mapping produces or removes `\n`, and
    // Final_Sigma never looks across one), so the lowercase lines align with the originals.
    if lines.len() == lower_lines.len() {
        for (index, lower_line) in lower_lines.iter().enumerate() {
            if let Some(matched) = query.match_lower(lower_line) {
                found.push(window(&lines, index, matched.kind));
            }
        }
    } else {
        for (index, line) in lines.iter().enumerate() {
            if let Some(matched) = query.match_lower(&lowercase(line)) {
                found.push(window(&lines, index, matched.kind));
            }
        }
    }

    if found.is_empty() {
        let first = if lines.len() == lower_lines.len() {
            query.first_lines(lower_lines.iter().copied())
        } else {
            let lowered: Vec<String> = lines.iter().map(|line| lowercase(line)).collect();
            query.first_lines(lowered.iter().map(String::as_str))
        };
        let mut indices: Vec<usize> = Vec::new();
        for index in first.into_iter().flatten() {
            if !indices.contains(&index) {
                indices.push(index);
            }
        }
        indices.sort_unstable();
        indices.truncate(5);
        for index in indices {
            found.push(window(&lines, index, whole.kind));
        }
    }

    found.sort_by(|a, b| {
        b.kind
            .snippet_weight()
            .cmp(&a.kind.snippet_weight())
            .then(area_weight(b.area).cmp(&area_weight(a.area)))
            .then(a.line.cmp(&b.line))
    });
    let mut kept: Vec<Snippet> = Vec::new();
    for snippet in found {
        if kept.len() == 5 {
            break;
        }
        let duplicate = kept.iter().any(|seen| {
            seen.line == snippet.line
                && seen.line_end == snippet.line_end
                && seen.content == snippet.content
        });
        if !duplicate {
            kept.push(snippet);
        }
    }
    kept
}

fn window(lines: &[&str], index: usize, kind: MatchKind) -> Snippet {
    let start = index.saturating_sub(1);
    let end = (index + 1).min(lines.len() - 1);
    let mut content = String::new();
    for line in &lines[start..=end] {
        let trimmed = js_trim(line);
        if trimmed.is_empty() {
            continue;
        }
        if !content.is_empty() {
            content.push_str(" / ");
        }
        content.push_str(trimmed);
    }
    let matched_line = js_trim(lines[index]);
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

    fn run(query: &str, text: &str) -> FileAnalysis {
        let query = Query::new(query);
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
        let candidate = analysis.candidate.unwrap();
        // description +3; title is the path (no match).
        assert_eq!(candidate.structural_boost, 3.0);
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
    fn structural_boost_counts_title_and_path() {
        let text = "# Needle title\nbody needle";
        let query = Query::new("needle");
        let mut buffer = String::new();
        let analysis = analyze(text, "needle.md", "context", 5.0, &query, &mut buffer);
        let candidate = analysis.candidate.unwrap();
        assert_eq!(candidate.structural_boost, 2.0 + 2.5 + 1.0);
        assert_eq!(candidate.hit.source, "context/needle.md");
        assert_eq!(candidate.hit.title, "Needle title");
        assert_eq!(candidate.mtime_ms, 5.0);
    }

    #[test]
    fn no_match_means_no_candidate_and_no_tokens() {
        let analysis = run("absent", "# T\nbody");
        assert!(analysis.candidate.is_none());
        assert!(!analysis.token_hits.contains(&true));
    }

    #[test]
    fn terms_spread_over_lines_make_a_terms_file() {
        let analysis = run("alpha beta", "alpha\nx\nx\nbeta");
        let candidate = analysis.candidate.unwrap();
        assert_eq!(candidate.kind, MatchKind::Terms);
        assert_eq!(candidate.matched_terms, [0, 1]);
        assert_eq!(analysis.token_hits, [true, true]);
    }

    #[test]
    fn inflected_file() {
        let analysis = run("meetings", "# Notes\nWe meet on Monday");
        let candidate = analysis.candidate.unwrap();
        assert_eq!(candidate.kind, MatchKind::Inflected);
        assert!(candidate.matched_terms.is_empty());
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
}
