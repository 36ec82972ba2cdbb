//! The text helpers of contract 02 §5–§6 that turn Markdown sources into header candidates and
//! list items: sections, frontmatter stripping, header compaction, list compaction, decision
//! headings, case-insensitive dedupe and carry-overs, and the unanswered sections `init` leaves
//! (a heading over nothing but `<!-- … -->` placeholders), which the candidates leave out and
//! `doctor` lists.
//!
//! Every helper is pure and reproduces the reference's JavaScript string semantics: JS trim
//! (never `str::trim`), splits on `\n` or `\r?\n` exactly where the contract says, and cuts by
//! UTF-16 unit where the contract says (only [`compact_header`], which therefore returns a
//! [`JsString`]).

use std::borrow::Cow;
use std::collections::HashSet;

use crate::text::{JsString, is_js_space, js_trim, utf16_len};

/// The longest header candidate in UTF-16 units (contract 02 §5 `compactHeader`).
const MAX_HEADER_UNITS: usize = 800;

/// `text.split(/\r?\n/)`: split on `\n`, then drop the one `\r` that stood before each break
/// (the last piece had no break after it, so its `\r` stays).
fn lines_crlf(text: &str) -> Vec<&str> {
    let mut pieces: Vec<&str> = text.split('\n').collect();
    let last = pieces.len() - 1;
    for piece in &mut pieces[..last] {
        if let Some(stripped) = piece.strip_suffix('\r') {
            *piece = stripped;
        }
    }
    pieces
}

/// The text below the first line whose trimmed value is `marker`, up to the first raw line for
/// which `stops` holds, JS-trimmed. `""` when no line matches.
fn read_block<'a>(text: &'a str, marker: &str, stops: impl Fn(&str) -> bool) -> &'a str {
    let mut offset = 0;
    let mut start = None;
    for line in text.split('\n') {
        let line_start = offset;
        offset += line.len() + 1;
        match start {
            None => {
                if js_trim(line) == marker {
                    start = Some(offset.min(text.len()));
                }
            }
            Some(body_start) => {
                if stops(line) {
                    // The joined lines end before the `\n` that precedes the stop line.
                    let end = line_start.saturating_sub(1).max(body_start);
                    return js_trim(&text[body_start..end]);
                }
            }
        }
    }
    match start {
        Some(body_start) => js_trim(&text[body_start..]),
        None => "",
    }
}

/// `readSection(text, H)`: the body of the first `## H` section (contract 02 §5).
pub(crate) fn read_section<'a>(text: &'a str, heading: &str) -> &'a str {
    read_block(text, &format!("## {heading}"), |line| {
        line.starts_with("## ")
    })
}

/// `readSubsection(text, H)`: the body of the first `### H` subsection, which ends at the next
/// raw line starting with `## ` or `### ` (contract 02 §5).
pub(crate) fn read_subsection<'a>(text: &'a str, heading: &str) -> &'a str {
    read_block(text, &format!("### {heading}"), |line| {
        line.starts_with("## ") || line.starts_with("### ")
    })
}

/// `stripFrontmatter(text)`: drops a leading `---` block, normalising the rest to LF (contract 02
/// §5). A text starting with a BOM, or whose block never closes, is returned unchanged.
pub(crate) fn strip_frontmatter(text: &str) -> Cow<'_, str> {
    if !text.starts_with("---\n") && !text.starts_with("---\r\n") {
        return Cow::Borrowed(text);
    }
    let lines = lines_crlf(text);
    let Some(closing) = lines
        .iter()
        .enumerate()
        .skip(1)
        .find_map(|(index, line)| (js_trim(line) == "---").then_some(index))
    else {
        return Cow::Borrowed(text);
    };
    let joined = lines[closing + 1..].join("\n");
    Cow::Owned(joined.trim_start_matches('\n').to_owned())
}

/// `compactHeader(s)`: JS-trimmed; more than 800 units → the first 799 units, `trimEnd`, `…`.
/// The cut is by UTF-16 unit and may leave a lone high surrogate (contract 02 §5, §16).
pub(crate) fn compact_header(text: &str) -> JsString {
    let visible = js_trim(text);
    if utf16_len(visible) <= MAX_HEADER_UNITS {
        return JsString::from(visible);
    }
    let mut cut = JsString::from(visible);
    cut.truncate(MAX_HEADER_UNITS - 1);
    cut.trim_end();
    cut.push_str("\u{2026}");
    cut
}

/// `firstLine(s)`: the first line (split on `\r?\n`) that is non-empty after JS trim.
pub(crate) fn first_line(text: &str) -> &str {
    lines_crlf(text)
        .into_iter()
        .map(js_trim)
        .find(|line| !line.is_empty())
        .unwrap_or("")
}

/// Removes a leading `- [ ]` / `- [x]` / `- [X]` checkbox and the JS spaces after it.
fn strip_checkbox(line: &str) -> &str {
    let bytes = line.as_bytes();
    let is_box = bytes.len() >= 5
        && bytes.starts_with(b"- [")
        && matches!(bytes[3], b' ' | b'x' | b'X')
        && bytes[4] == b']';
    if is_box {
        line[5..].trim_start_matches(is_js_space)
    } else {
        line
    }
}

/// Removes a leading `-` or `*` and the JS spaces after it (`^[-*]\s*`).
fn strip_bullet(line: &str) -> &str {
    match line.strip_prefix(['-', '*']) {
        Some(rest) => rest.trim_start_matches(is_js_space),
        None => line,
    }
}

/// `compactLines(s)`: list items of a section, stripped of checkboxes and bullets, without
/// empty lines and HTML comment lines (contract 02 §5).
pub(crate) fn compact_lines(text: &str) -> Vec<&str> {
    lines_crlf(text)
        .into_iter()
        .map(js_trim)
        .filter(|line| !line.is_empty() && !line.starts_with("<!--"))
        .map(|line| js_trim(strip_bullet(strip_checkbox(line))))
        .filter(|line| !line.is_empty())
        .collect()
}

/// Whether `c` ends a line for JavaScript's multiline `^` (`\n`, `\r`, U+2028, U+2029).
fn is_js_line_break(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\u{2028}' | '\u{2029}')
}

/// `recentDecisions(log)`: the heading text of the last three `## ` blocks, newest first.
///
/// The log is split at every `^## +` in JavaScript multiline semantics, where `^` also matches
/// after a lone `\r`, U+2028 and U+2029 (contract 02 §5).
pub(crate) fn recent_decisions(log: &str) -> Vec<&str> {
    const KEEP: usize = 3;
    let mut pieces = Vec::new();
    let mut piece_start = 0;
    let mut at_line_start = true;
    let mut index = 0;
    let bytes = log.as_bytes();
    while index < log.len() {
        if at_line_start && bytes[index..].starts_with(b"## ") {
            pieces.push(&log[piece_start..index]);
            let mut end = index + 2;
            while bytes.get(end) == Some(&b' ') {
                end += 1;
            }
            piece_start = end;
            index = end;
            // The spaces consumed by the separator cannot end a line.
            at_line_start = false;
            continue;
        }
        let c = log[index..].chars().next().unwrap_or('\0');
        at_line_start = is_js_line_break(c);
        index += c.len_utf8();
    }
    pieces.push(&log[piece_start..]);
    // The first piece is the preamble.
    let blocks = &pieces[1..];
    blocks[blocks.len().saturating_sub(KEEP)..]
        .iter()
        .rev()
        .map(|block| js_trim(block.split('\n').next().unwrap_or("")))
        .filter(|heading| !heading.is_empty())
        .collect()
}

/// `dedupe(list)`: keeps the first of each item compared by JavaScript `toLowerCase()`.
pub(crate) fn dedupe<'a>(items: impl IntoIterator<Item = &'a str>) -> Vec<&'a str> {
    let mut seen = HashSet::new();
    items
        .into_iter()
        .filter(|item| seen.insert(item.to_lowercase()))
        .collect()
}

/// The carry-over candidates (contract 02 §6): today's `## Plan` lines that mention
/// `Carried over from`, then yesterday's `## Close` → `### Carry-over` items, deduplicated,
/// at most five.
pub(crate) fn carry_over<'a>(today_note: &'a str, yesterday_note: &'a str) -> Vec<&'a str> {
    const KEEP: usize = 5;
    let plan = read_section(today_note, "Plan");
    let carried = lines_crlf(plan)
        .into_iter()
        .filter(|line| line.contains("Carried over from"))
        .map(|line| strip_bullet(js_trim(line)))
        .filter(|line| !line.is_empty());
    let close = read_section(yesterday_note, "Close");
    let yesterday = compact_lines(read_subsection(close, "Carry-over"));
    let mut items = dedupe(carried.chain(yesterday));
    items.truncate(KEEP);
    items
}

/// The `currentWork` candidate: the `## Current Work` section of `context/work.md`, or the whole
/// file without frontmatter when that section is empty, each without its unanswered parts
/// (contract 02 §6).
pub(crate) fn current_work(work: &str) -> JsString {
    let section = drop_unanswered(read_section(work, "Current Work"));
    if section.is_empty() {
        compact_header(&drop_unanswered(&strip_frontmatter(work)))
    } else {
        compact_header(&section)
    }
}

/// `text` with every HTML comment (`<!--` … `-->`) removed; an unclosed one hides the rest, as
/// it does in rendered Markdown. Linear: one scan for each marker.
pub(crate) fn without_comments(text: &str) -> Cow<'_, str> {
    if !text.contains("<!--") {
        return Cow::Borrowed(text);
    }
    let mut visible = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("<!--") {
        visible.push_str(&rest[..start]);
        rest = match rest[start + 4..].find("-->") {
            Some(end) => &rest[start + 4 + end + 3..],
            None => "",
        };
    }
    visible.push_str(rest);
    Cow::Owned(visible)
}

/// The level of a Markdown heading line (`# ` … `###### `), else `None`. Skill routing reads a
/// `SKILL.md`'s headings with it too (contract 04 §1.3).
pub(crate) fn heading_level(line: &str) -> Option<usize> {
    let level = line.bytes().take_while(|byte| *byte == b'#').count();
    ((1..=6).contains(&level) && line[level..].starts_with([' ', '\t'])).then_some(level)
}

/// `text` is an `init` placeholder: it holds an HTML comment, and without its comments nothing
/// but blank lines and bare list labels (`- Name:`) remain.
fn is_placeholder(text: &str) -> bool {
    text.contains("<!--")
        && without_comments(text).lines().map(str::trim).all(|line| {
            line.is_empty()
                || ((line.starts_with("- ") || line.starts_with("* ")) && line.ends_with(':'))
        })
}

/// The unanswered sections of `lines` as line ranges `(heading, end)`: a heading of level 2 or
/// deeper whose body, up to the next heading, is a placeholder ([`is_placeholder`]), and which
/// has no deeper subsection (contract 02 §6). One pass over the lines.
fn unanswered_ranges(lines: &[&str]) -> Vec<(usize, usize)> {
    let headings: Vec<(usize, usize)> = lines
        .iter()
        .enumerate()
        .filter_map(|(index, line)| heading_level(line).map(|level| (index, level)))
        .collect();
    let mut ranges = Vec::new();
    for (position, &(start, level)) in headings.iter().enumerate() {
        let next = headings.get(position + 1).copied();
        let end = next.map_or(lines.len(), |(index, _)| index);
        if level < 2 || next.is_some_and(|(_, next_level)| next_level > level) {
            continue;
        }
        if is_placeholder(&lines[start + 1..end].join("\n")) {
            ranges.push((start, end));
        }
    }
    ranges
}

/// `dropUnanswered(s)` (contract 02 §6): `text` without its unanswered sections
/// (heading included) and without the lines that are a placeholder on their own (`- Role:
/// <!-- Your Role -->`), so an `init` placeholder never reaches the agent; `""` when only
/// headings and blank lines remain.
pub(crate) fn drop_unanswered(text: &str) -> Cow<'_, str> {
    if !text.contains("<!--") {
        return Cow::Borrowed(text);
    }
    let lines: Vec<&str> = text.split('\n').collect();
    let mut ranges = unanswered_ranges(&lines).into_iter().peekable();
    let mut kept = Vec::with_capacity(lines.len());
    for (index, line) in lines.iter().enumerate() {
        while ranges.next_if(|&(_, end)| end <= index).is_some() {}
        if ranges.peek().is_some_and(|&(start, _)| start <= index) {
            continue;
        }
        let closed = line
            .find("<!--")
            .is_some_and(|start| line[start..].contains("-->"));
        if closed && is_placeholder(line) {
            continue;
        }
        kept.push(*line);
    }
    if kept
        .iter()
        .all(|line| line.trim().is_empty() || heading_level(line).is_some())
    {
        return Cow::Borrowed("");
    }
    Cow::Owned(kept.join("\n"))
}

/// The headings (without their `#` marks) of the unanswered sections of `text`, in order: what
/// `doctor` reports as still empty.
pub(crate) fn unanswered_sections(text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.split('\n').collect();
    unanswered_ranges(&lines)
        .into_iter()
        .map(|(start, _)| {
            let line = lines[start].trim_end_matches('\r');
            line.trim_start_matches('#').trim().to_owned()
        })
        .collect()
}

/// Whether `text` ends with a JS space (used by tests of the trimming helpers).
#[cfg(test)]
fn ends_with_space(text: &str) -> bool {
    crate::text::js_trim_end(text).len() != text.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_stop_at_raw_level_two_headings() {
        let text = "# T\n## Focus\n\nline one\n### sub\n  ## indented\nmore\n## Next\nafter";
        assert_eq!(
            read_section(text, "Focus"),
            "line one\n### sub\n  ## indented\nmore"
        );
        assert_eq!(read_section(text, "Next"), "after");
        assert_eq!(read_section(text, "Missing"), "");
        assert_eq!(read_section("  ## Focus  \nx", "Focus"), "x");
        assert_eq!(read_section("## Focus", "Focus"), "");
        assert_eq!(read_section("## Focus\n", "Focus"), "");
        assert_eq!(read_section("## Focus\n## B\nx", "Focus"), "");
    }

    #[test]
    fn sections_keep_inner_carriage_returns() {
        let text = "## Plan\r\n- a\r\n- b\r\n## Close\r\n";
        assert_eq!(read_section(text, "Plan"), "- a\r\n- b");
        assert_eq!(compact_lines(read_section(text, "Plan")), vec!["a", "b"]);
    }

    #[test]
    fn subsections_stop_at_level_two_or_three() {
        let close =
            "### Done\n\n- x\n\n### Carry-over\n\n- a\n#### deeper\n- b\n### Reflection\n\nok";
        assert_eq!(
            read_subsection(close, "Carry-over"),
            "- a\n#### deeper\n- b"
        );
        assert_eq!(
            read_subsection("### Carry-over\n- a\n## Close\n- b", "Carry-over"),
            "- a"
        );
    }

    #[test]
    fn frontmatter() {
        assert_eq!(strip_frontmatter("---\na: 1\n---\n# T\n"), "# T\n");
        assert_eq!(
            strip_frontmatter("---\r\na: 1\r\n---\r\n\r\n# T\r\nx"),
            "# T\nx"
        );
        assert_eq!(strip_frontmatter("---\na: 1\n"), "---\na: 1\n");
        assert_eq!(
            strip_frontmatter("\u{feff}---\na\n---\nx"),
            "\u{feff}---\na\n---\nx"
        );
        assert_eq!(strip_frontmatter("--- \nx"), "--- \nx");
        assert_eq!(strip_frontmatter("---\n  ---  \n\n\nbody"), "body");
        assert_eq!(strip_frontmatter("# no\n---\n"), "# no\n---\n");
        // A lone `\r` is not a line break for the `\r?\n` split.
        assert_eq!(strip_frontmatter("---\na\r---\nb"), "---\na\r---\nb");
    }

    #[test]
    fn compact_header_cuts_by_unit() {
        assert_eq!(compact_header("  \n").len(), 0);
        assert_eq!(compact_header(" a ").to_string_lossy(), "a");
        let exact = "x".repeat(800);
        assert_eq!(compact_header(&exact).len(), 800);
        let long = format!("{} {}", "x".repeat(798), "y".repeat(10));
        let cut = compact_header(&long);
        assert_eq!(cut.to_string_lossy(), format!("{}…", "x".repeat(798)));
        let long = format!("{} {}", "x".repeat(797), "y".repeat(10));
        assert_eq!(
            compact_header(&long).to_string_lossy(),
            format!("{} y…", "x".repeat(797))
        );
        let pair = format!("{}😀{}", "x".repeat(798), "z".repeat(5));
        let cut = compact_header(&pair);
        assert_eq!(cut.len(), 800);
        assert!(!cut.is_well_formed());
    }

    #[test]
    fn first_lines() {
        assert_eq!(first_line("\n  \r\n  Finish \r\nnext"), "Finish");
        assert_eq!(first_line(""), "");
        assert_eq!(first_line(" \u{3000} "), "");
    }

    #[test]
    fn compact_lines_strip_markers() {
        let plan = "- [ ] Write fixture\n- [x] Read sources\n- [X]   Upper\n* star\n-dash\n<!-- c -->\n\n  -  \n- [y] keep box\n1. number";
        assert_eq!(
            compact_lines(plan),
            vec![
                "Write fixture",
                "Read sources",
                "Upper",
                "star",
                "dash",
                "[y] keep box",
                "1. number"
            ]
        );
        // The checkbox is removed first, then one bullet.
        assert_eq!(compact_lines("- [ ] - nested"), vec!["nested"]);
        assert_eq!(compact_lines("- [ ]"), Vec::<&str>::new());
    }

    #[test]
    fn decisions_newest_first() {
        let log = "# Decision Log\n\n## 2026-08-20 Use Markdown files\n\nBody.\n\n## 2026-08-25 Adopt Rust\n\nBody.\n\n## 2026-08-27 Keep JSONL\n\nBody.\n\n## 2026-08-28 Bound every read\n\nBody.\n";
        assert_eq!(
            recent_decisions(log),
            vec![
                "2026-08-28 Bound every read",
                "2026-08-27 Keep JSONL",
                "2026-08-25 Adopt Rust"
            ]
        );
        assert!(recent_decisions("").is_empty());
        assert!(recent_decisions("# Log\n### not\n").is_empty());
        assert_eq!(recent_decisions("## a\n##   b\n##c"), vec!["b", "a"]);
        // JavaScript's multiline `^` also matches after a lone `\r` and U+2028.
        assert_eq!(recent_decisions("x\r## a\u{2028}## b"), vec!["b", "a"]);
        // An empty heading is dropped after the slice of three.
        assert_eq!(
            recent_decisions("## \n## a\n## b\n## c"),
            vec!["c", "b", "a"]
        );
        assert_eq!(recent_decisions("## a\n## b\n##  \n"), vec!["b", "a"]);
        // `###` does not start a block; neither does `##` without a space.
        assert_eq!(recent_decisions("## a\n### b\n##c"), vec!["a"]);
    }

    #[test]
    fn dedupe_is_case_insensitive() {
        assert_eq!(
            dedupe(["Review", "review", "REVIEW", "Other", "ΣΑΣ", "σας"]),
            vec!["Review", "Other", "ΣΑΣ"]
        );
    }

    #[test]
    fn carry_over_union() {
        let today = "## Plan\n\n- [ ] Write fixture\n- Carried over from 2026-08-28: Review budget rules\n\n## Close\n";
        let yesterday = "## Close\n\n### Done\n\n- Drafted outline\n\n### Carry-over\n\n- Review budget rules\n- Email Bob\n- review BUDGET rules\n\n### Reflection\n";
        assert_eq!(
            carry_over(today, yesterday),
            vec![
                "Carried over from 2026-08-28: Review budget rules",
                "Review budget rules",
                "Email Bob"
            ]
        );
        let many = "## Close\n### Carry-over\n- a\n- b\n- c\n- d\n- e\n- f\n";
        assert_eq!(carry_over("", many), vec!["a", "b", "c", "d", "e"]);
        // Plan lines keep their checkbox: only the bullet is stripped.
        assert_eq!(
            carry_over("## Plan\n- [ ] Carried over from x: y\n", ""),
            vec!["[ ] Carried over from x: y"]
        );
    }

    #[test]
    fn unanswered_sections_are_left_out() {
        let text = "# Identity\n\n## Basics\n\n- Name: Ada\n- Role: <!-- Your Role -->\n\n## Background\n\n<!-- Two lines. -->\n\n## Skills\n\n<!-- Crafts,\nand tools. -->\n## Notes\n\nmine <!-- aside -->\n## Parent\n<!-- x -->\n### Child\n\nfilled\n### Empty child\n<!-- y -->\n## Labels\n- Name: <!-- Your Name -->";
        assert_eq!(
            drop_unanswered(text),
            "# Identity\n\n## Basics\n\n- Name: Ada\n\n## Notes\n\nmine <!-- aside -->\n## Parent\n### Child\n\nfilled"
        );
        assert_eq!(
            unanswered_sections(text),
            ["Background", "Skills", "Empty child", "Labels"]
        );
        // Nothing but headings left: nothing at all.
        assert_eq!(drop_unanswered("# Identity\n\n## Basics\n<!-- a -->\n"), "");
        // A heading over nothing at all is not a placeholder; text without comments is kept.
        assert_eq!(drop_unanswered("## A\n\n## B\nx"), "## A\n\n## B\nx");
        assert_eq!(without_comments("a<!-- b -->c<!-- d"), "ac");
        assert_eq!(
            current_work(
                "---\na: 1\n---\n# Work\n## Current Work\n\n<!-- what -->\n\n## Notes\n\nreal"
            )
            .to_string_lossy(),
            "# Work\n## Notes\n\nreal"
        );
        assert_eq!(
            current_work("---\na: 1\n---\n# Work\n## Current Work\n\n<!-- what -->\n").len(),
            0
        );
    }

    #[test]
    fn current_work_falls_back_to_the_file() {
        let work = "---\nkind: context\n---\n# Work\n\n## Current Work\n\nPorting the AIOS reader to Rust.\n\n## Active Projects\n\nSee projects/.\n";
        assert_eq!(
            current_work(work).to_string_lossy(),
            "Porting the AIOS reader to Rust."
        );
        let no_section = "---\nkind: context\n---\n# Work\n\nStuff\n";
        assert_eq!(
            current_work(no_section).to_string_lossy(),
            "# Work\n\nStuff"
        );
        assert!(current_work("").is_empty());
        assert!(!ends_with_space(&current_work(" x ").to_string_lossy()));
    }
}
