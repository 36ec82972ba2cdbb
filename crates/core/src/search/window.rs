//! Snippet windows (contract 03 §8.2, "Windows"): the one rule that cuts a bounded piece of text
//! around a match, moves each cut to a word boundary, merges the pieces of one note that overlap
//! and renders a piece with `…` on every side where a line was cut.
//!
//! It owns offsets and rendering only: the caller says where the match is and which part of
//! the text a window may cover; this module never decides what matched and reads nothing.
//! Finding a window costs work proportional to [`WINDOW_CHARS`], whatever the length of the
//! line (a 4 MiB line costs what a short one does); rendering costs the length of the window
//! plus, at most, one scan of the rest of each cut line for the `…` markers.

use crate::text::js_trim;

/// The characters (Unicode scalar values) a window shows at most, before its `…` markers
/// (§8.2): at MCP defaults this lets `limit` results of long-paragraph notes fit the budget
/// (measured with `dotaios-bench quality`, docs/benchmark.md).
pub(crate) const WINDOW_CHARS: usize = 160;

/// The characters before the match a window shows when the line goes on after it, so the
/// reader sees what leads to the match and more of what follows.
pub(crate) const LEAD_CHARS: usize = 60;

/// The windows one note shows at most, after merging (§8.2).
pub(crate) const MAX_WINDOWS: usize = 2;

/// A byte range of the text, on character boundaries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Span {
    pub(crate) start: usize,
    pub(crate) end: usize,
}

/// The window around a match that starts at byte `at` of `text`, inside `[lo, hi)` (the part
/// of the text the caller allows, on character boundaries, `lo <= at <= hi`).
///
/// The window holds at most [`WINDOW_CHARS`] characters: [`LEAD_CHARS`] before the match and
/// the rest after it, or more before it when the allowed part ends sooner. A side that stops
/// before `lo` or `hi` is moved inwards to a word boundary (whitespace, which includes a line
/// break); when no boundary lies between the cut and the match, the start is the match itself
/// and the end stays where it is (a token longer than the window is cut inside).
pub(crate) fn around(text: &str, lo: usize, hi: usize, at: usize) -> Span {
    let after_room = WINDOW_CHARS - LEAD_CHARS;
    let (ahead, reaches_hi) = step_forward(text, at, hi, after_room);
    let lead = if reaches_hi {
        WINDOW_CHARS - ahead
    } else {
        LEAD_CHARS
    };
    let (mut start, lead_used) = step_back(text, lo, at, lead);
    if start > lo && !ends_in_space(&text[..start]) {
        // Mid-word: start at the next word, or at the match when none starts before it.
        start = match text[start..at].find(char::is_whitespace) {
            Some(space) => start + space,
            None => at,
        };
    }
    let used_before = if start == at { 0 } else { lead_used };
    let (forward, _) = step_forward(text, at, hi, WINDOW_CHARS - used_before);
    let mut end = advance(text, at, forward);
    if end < hi && !text[end..].starts_with(char::is_whitespace) {
        // Mid-word: end at the last boundary after the match start, if there is one.
        if let Some(space) = text[at..end].rfind(char::is_whitespace) {
            end = at + space;
        }
    }
    Span { start, end }
}

/// The characters a window merged from overlapping ones shows at most (one window and a half):
/// windows that share text become one while their union stays this short, so a run of matched
/// neighbouring lines cannot grow one window without bound.
pub(crate) const MERGED_CHARS: usize = WINDOW_CHARS * 3 / 2;

/// Chooses the windows one note shows (§8.2), from `spans` given best first: a window that
/// overlaps or touches a chosen one is merged into it when the union holds at most
/// [`MERGED_CHARS`] characters and is dropped otherwise (most of its text is shown already); any
/// other window is chosen while fewer than [`MAX_WINDOWS`] are. Returns the chosen spans in the
/// order of their best member, each with the index of that member in `spans`.
///
/// `spans` holds at most the five snippet candidates of §8.2, so the pairwise checks are bounded
/// by that constant; counting a union costs at most `2 × WINDOW_CHARS` characters.
pub(crate) fn choose(text: &str, spans: &[Span]) -> Vec<(Span, usize)> {
    let mut chosen: Vec<(Span, usize)> = Vec::with_capacity(MAX_WINDOWS);
    for (index, &span) in spans.iter().enumerate() {
        let overlapping = chosen
            .iter()
            .position(|(kept, _)| span.start <= kept.end && kept.start <= span.end);
        match overlapping {
            Some(at) => {
                let kept = chosen[at].0;
                let union = Span {
                    start: kept.start.min(span.start),
                    end: kept.end.max(span.end),
                };
                let fits = text[union.start..union.end]
                    .chars()
                    .take(MERGED_CHARS + 1)
                    .count()
                    <= MERGED_CHARS;
                if fits {
                    chosen[at].0 = union;
                }
            }
            None if chosen.len() < MAX_WINDOWS => chosen.push((span, index)),
            None => {}
        }
    }
    chosen
}

/// A rendered window: its first and last shown line (0-based, relative to the line that holds
/// `span.start`) and its content.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Rendered {
    pub(crate) first: usize,
    pub(crate) last: usize,
    pub(crate) content: String,
}

/// Renders `span` of `text`: each line of it trimmed, empty ones dropped, joined with ` / `
/// (as §8.2's line form joins a window's lines), with `…` before it when its first line goes
/// on before the span and after it when its last line goes on after the span. `None` when the
/// span shows nothing but whitespace.
pub(crate) fn render(text: &str, span: Span) -> Option<Rendered> {
    let mut content = String::new();
    let mut first = None;
    let mut last = 0;
    let mut pieces = 0;
    for (index, piece) in text[span.start..span.end].split('\n').enumerate() {
        pieces = index + 1;
        let trimmed = js_trim(piece);
        if trimmed.is_empty() {
            continue;
        }
        if first.is_none() {
            first = Some(index);
            if index == 0 && cut_before(text, span.start) {
                content.push('…');
            }
        } else {
            content.push_str(" / ");
        }
        content.push_str(trimmed);
        last = index;
    }
    let first = first?;
    if last == pieces - 1 && cut_after(text, span.end) {
        content.push('…');
    }
    Some(Rendered {
        first,
        last,
        content,
    })
}

/// Whether the line holding `at` has text other than whitespace before `at`.
fn cut_before(text: &str, at: usize) -> bool {
    for c in text[..at].chars().rev() {
        if c == '\n' {
            return false;
        }
        if !is_blank(c) {
            return true;
        }
    }
    false
}

/// Whether the line holding `at` has text other than whitespace from `at` on.
fn cut_after(text: &str, at: usize) -> bool {
    for c in text[at..].chars() {
        if c == '\n' {
            return false;
        }
        if !is_blank(c) {
            return true;
        }
    }
    false
}

/// What trimming removes (JS whitespace; `\r` included).
fn is_blank(c: char) -> bool {
    js_trim(c.encode_utf8(&mut [0; 4])).is_empty()
}

fn ends_in_space(text: &str) -> bool {
    text.chars().next_back().is_some_and(char::is_whitespace)
}

/// Steps back at most `count` characters from `at`, not below `lo`: the new offset and the
/// characters stepped.
fn step_back(text: &str, lo: usize, at: usize, count: usize) -> (usize, usize) {
    let mut start = at;
    let mut stepped = 0;
    for (offset, _) in text[lo..at].char_indices().rev().take(count) {
        start = lo + offset;
        stepped += 1;
    }
    (start, stepped)
}

/// Counts at most `count` characters forward from `at`, not beyond `hi`: the characters counted
/// and whether `hi` was reached within them.
fn step_forward(text: &str, at: usize, hi: usize, count: usize) -> (usize, bool) {
    let taken = text[at..hi].chars().take(count).count();
    let reached = advance(text, at, taken) >= hi;
    (taken, reached)
}

/// The offset `count` characters after `at`.
fn advance(text: &str, at: usize, count: usize) -> usize {
    text[at..]
        .char_indices()
        .nth(count)
        .map_or(text.len(), |(offset, _)| at + offset)
}

/// How a Markdown result's snippets are shown (§8.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SnippetForm {
    /// The reference's form: each matched line with its neighbours, whole (the CLI, and
    /// `search_aios` in the reference era, whose recorded answers fix the text).
    #[default]
    Lines,
    /// Bounded windows around the matches, cut at word boundaries with `…`, overlapping ones
    /// merged, at most [`MAX_WINDOWS`] a note (`search_aios` in the structured eras).
    Windows,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Words of uneven lengths, so a cut by count alone lands inside one.
    fn words(count: usize) -> String {
        (0..count)
            .map(|index| format!("w{}", "x".repeat((index * index + 3) % 7)))
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn shown(text: &str, at: usize) -> String {
        let span = around(text, 0, text.len(), at);
        render(text, span).unwrap().content
    }

    #[test]
    fn a_long_line_is_cut_at_word_boundaries_with_marks() {
        let text = format!("{} needle {}", words(200), words(200));
        let at = text.find("needle").unwrap();
        let content = shown(&text, at);
        assert!(
            content.starts_with('…') && content.ends_with('…'),
            "{content}"
        );
        let inner = content.trim_matches('…');
        // Whole words only: every piece is a word of the line.
        for word in inner.split(' ') {
            assert!(
                word == "needle" || word.starts_with('w'),
                "{word:?} in {content}"
            );
            assert!(text.contains(&format!(" {word} ")), "{word:?} is not whole");
        }
        assert!(inner.chars().count() <= WINDOW_CHARS, "{}", inner.len());
        // The lead before the match is kept, and more follows it.
        let before = inner.find("needle").unwrap();
        assert!(before > 0 && before <= LEAD_CHARS, "{before}");
        assert!(inner.len() - before > LEAD_CHARS);
    }

    #[test]
    fn a_window_that_reaches_an_end_has_no_mark_there() {
        let text = format!("needle {}", words(200));
        let content = shown(&text, 0);
        assert!(
            content.starts_with("needle ") && content.ends_with('…'),
            "{content}"
        );
        let text = format!("{} needle", words(200));
        let content = shown(&text, text.find("needle").unwrap());
        assert!(
            content.starts_with('…') && content.ends_with("needle"),
            "{content}"
        );
        // Near the end, the unused room goes before the match.
        assert!(content.chars().count() > WINDOW_CHARS - 10, "{content}");
        // A short line is shown whole.
        assert_eq!(shown("  a needle here  ", 4), "a needle here");
    }

    #[test]
    fn lines_inside_a_window_are_joined_and_whole_lines_have_no_marks() {
        let text = "# Title\n\nfirst needle line\nsecond line\n";
        let span = around(text, 0, text.len() - 1, text.find("needle").unwrap());
        let rendered = render(text, span).unwrap();
        assert_eq!(
            rendered.content,
            "# Title / first needle line / second line"
        );
        assert_eq!((rendered.first, rendered.last), (0, 3));
    }

    #[test]
    fn a_token_longer_than_the_window_is_cut_inside() {
        let text = format!("{}needle{}", "x".repeat(1000), "y".repeat(1000));
        let at = 1000;
        let span = around(&text, 0, text.len(), at);
        let content = render(&text, span).unwrap().content;
        assert!(
            content.starts_with("…needle") && content.ends_with('…'),
            "{content}"
        );
        assert_eq!(content.chars().count(), WINDOW_CHARS + 2);
    }

    #[test]
    fn overlapping_windows_merge_and_at_most_two_are_shown() {
        let text = format!(
            "{} alpha {} beta {} gamma {}",
            words(100),
            words(10),
            words(200),
            words(200)
        );
        let span = |word: &str| around(&text, 0, text.len(), text.find(word).unwrap());
        let (alpha, beta, gamma) = (span(" alpha "), span(" beta "), span(" gamma "));
        assert!(alpha.end > beta.start, "alpha and beta overlap");
        let chosen = choose(&text, &[beta, alpha, gamma]);
        assert_eq!(chosen.len(), 2, "{chosen:?}");
        // The merged window leads with its best member (beta, given first) and covers both.
        assert_eq!(chosen[0].1, 0);
        assert_eq!(chosen[0].0.start, alpha.start.min(beta.start));
        assert_eq!(chosen[0].0.end, alpha.end.max(beta.end));
        assert_eq!(chosen[1], (gamma, 2));
        // Three disjoint windows: the first two are shown.
        let text = format!(
            "{} a {} b {} c {}",
            words(200),
            words(200),
            words(200),
            words(200)
        );
        let span = |word: &str| around(&text, 0, text.len(), text.find(word).unwrap());
        let spans = [span(" a "), span(" b "), span(" c ")];
        let chosen = choose(&text, &spans);
        assert_eq!(chosen, vec![(spans[0], 0), (spans[1], 1)]);
    }

    #[test]
    fn a_union_too_long_is_not_merged() {
        let text = words(400);
        let at = text[..text.len() / 4].rfind(' ').unwrap() + 1;
        let first = around(&text, 0, text.len(), at);
        let second = Span {
            start: first.start + 10,
            end: first.end + 400,
        };
        assert_eq!(choose(&text, &[first, second]), vec![(first, 0)]);
    }

    #[test]
    fn multi_byte_text_is_cut_on_character_boundaries() {
        let unit = "東京 é 😀 ß ";
        let text = format!("{}needle {}", unit.repeat(300), unit.repeat(300));
        let at = text.find("needle").unwrap();
        for lead in [0, 1, 2, 3, 5, 7] {
            // Any start the caller passes on a boundary works, near or far from the match.
            let at = text[..at]
                .char_indices()
                .rev()
                .nth(lead)
                .map_or(at, |(offset, _)| offset);
            let span = around(&text, 0, text.len(), at);
            assert!(text.is_char_boundary(span.start) && text.is_char_boundary(span.end));
            let content = render(&text, span).unwrap().content;
            assert!(content.chars().count() <= WINDOW_CHARS + 2, "{content}");
        }
        let content = shown(&text, at);
        assert!(
            content.contains("needle") && content.starts_with('…'),
            "{content}"
        );
        // Spaces cut: no half of a word of the unit is shown.
        for word in content.trim_matches('…').split(' ') {
            assert!(
                ["東京", "é", "😀", "ß", "needle"].contains(&word),
                "{word:?}"
            );
        }
    }

    #[test]
    fn a_four_mebibyte_line_costs_a_window() {
        // One line of 4 MiB: finding the window steps over at most a window's characters, so
        // the same match in a line a thousand times shorter gives the same window.
        let long = format!("{} needle {}", "ab ".repeat(700_000), "cd ".repeat(700_000));
        let short = format!("{} needle {}", "ab ".repeat(700), "cd ".repeat(700));
        let (long_at, short_at) = (long.find("needle").unwrap(), short.find("needle").unwrap());
        let long_span = around(&long, 0, long.len(), long_at);
        let short_span = around(&short, 0, short.len(), short_at);
        assert_eq!(long_at - long_span.start, short_at - short_span.start);
        assert_eq!(long_span.end - long_at, short_span.end - short_at);
        assert_eq!(
            render(&long, long_span).unwrap().content,
            render(&short, short_span).unwrap().content
        );
    }
}
