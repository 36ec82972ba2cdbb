//! The catalog record of one project README (contract 01 §3.7, §6.2): frontmatter fields with
//! their fallbacks, the display name, the description and the `contextExcerpt`, with
//! JavaScript's trimming, line-splitting and regex meanings.
//!
//! Pure: text in, record out. It never reads the folder, and the record never keeps
//! `repo_url`/`repo` or any other frontmatter key that readers must not render.

use std::sync::LazyLock;

use regex::Regex;

use crate::folder::frontmatter::{
    FrontmatterError, YamlError, YamlMapping, YamlValue, YamlWork, parse_mapping_within,
    split_frontmatter,
};
use crate::text::{ELLIPSIS, clip_units_trim_end, is_js_space, js_trim};

/// The longest `contextExcerpt`, in UTF-16 units.
pub const EXCERPT_UNITS: usize = 1200;

/// One catalog record (contract 01 §6.2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProjectRecord {
    /// The stable id (`id`, else the legacy `project_id`), trimmed; `None` when neither is a
    /// non-empty string.
    pub id: Option<String>,
    /// The directory name.
    pub slug: String,
    /// The alias: `project`, then `slug` from frontmatter, else the directory slug.
    pub project: String,
    /// The display name.
    pub name: String,
    /// `status`, default `unknown`.
    pub status: String,
    /// `domain` values, not restricted to build/make/sell.
    pub domains: Vec<String>,
    /// `description`, else the first plain body line, else empty.
    pub description: String,
    /// The body without a leading H1, trimmed, at most 1,200 units.
    pub context_excerpt: String,
    /// Whether `context_excerpt` was cut.
    pub context_excerpt_clipped: bool,
    /// The full README text (never rendered as such).
    pub readme: String,
}

/// Why a README's frontmatter makes it unusable as a catalog record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ReadmeProblem {
    /// The frontmatter YAML is invalid (syntax, duplicate key, …).
    #[error("invalid YAML frontmatter")]
    InvalidYaml(YamlError),
    /// The frontmatter is not a mapping.
    #[error("frontmatter is not a mapping")]
    NotMapping,
    /// `id` and `project_id` are both set and differ.
    #[error("id and project_id differ")]
    ConflictingIds,
}

/// Builds the catalog record of `projects/<slug>/README.md` from its text (contract 01 §3.7, §6.2),
/// as the only README of its request.
pub fn parse_project_readme(slug: &str, text: &str) -> Result<ProjectRecord, ReadmeProblem> {
    parse_project_readme_within(slug, text, &mut YamlWork::per_request())
}

/// [`parse_project_readme`] with the frontmatter charged to `work`, the allowance of a
/// catalog's request (contract 01 §5.7 item 5).
pub fn parse_project_readme_within(
    slug: &str,
    text: &str,
    work: &mut YamlWork,
) -> Result<ProjectRecord, ReadmeProblem> {
    let (metadata, body) = match split_frontmatter(text) {
        None => (YamlMapping::default(), text),
        Some(block) => match parse_mapping_within(block.yaml, work) {
            Ok(mapping) => (mapping, block.body),
            Err(FrontmatterError::InvalidYaml(error)) => {
                return Err(ReadmeProblem::InvalidYaml(error));
            }
            Err(FrontmatterError::NotMapping) => return Err(ReadmeProblem::NotMapping),
        },
    };
    let id = optional_string(&metadata, "id");
    let legacy_id = optional_string(&metadata, "project_id");
    if let (Some(id), Some(legacy)) = (id, legacy_id)
        && id != legacy
    {
        return Err(ReadmeProblem::ConflictingIds);
    }
    let project = optional_string(&metadata, "project")
        .or_else(|| optional_string(&metadata, "slug"))
        .unwrap_or(slug)
        .to_owned();
    let name = optional_string(&metadata, "name")
        .map(str::to_owned)
        .or_else(|| first_heading(body).filter(|heading| !heading.is_empty()))
        .unwrap_or_else(|| project.clone());
    let (context_excerpt, context_excerpt_clipped) = context_excerpt(body);
    Ok(ProjectRecord {
        id: id.or(legacy_id).map(str::to_owned),
        slug: slug.to_owned(),
        project,
        name,
        status: optional_string(&metadata, "status")
            .unwrap_or("unknown")
            .to_owned(),
        domains: domains(metadata.get("domain")),
        description: optional_string(&metadata, "description")
            .map(str::to_owned)
            .unwrap_or_else(|| first_description(body).to_owned()),
        context_excerpt,
        context_excerpt_clipped,
        readme: text.to_owned(),
    })
}

/// A non-empty JS-trimmed string value; anything else (a number such as `id: 123`, `null`, a
/// list) counts as absent.
fn optional_string<'a>(metadata: &'a YamlMapping, key: &str) -> Option<&'a str> {
    metadata
        .get(key)
        .and_then(YamlValue::as_str)
        .map(js_trim)
        .filter(|text| !text.is_empty())
}

fn domains(value: Option<&YamlValue>) -> Vec<String> {
    match value {
        Some(YamlValue::Sequence(items)) => items
            .iter()
            .filter_map(YamlValue::as_str)
            .map(js_trim)
            .filter(|item| !item.is_empty())
            .map(str::to_owned)
            .collect(),
        Some(YamlValue::String(text)) => text
            .split(',')
            .map(js_trim)
            .filter(|item| !item.is_empty())
            .map(str::to_owned)
            .collect(),
        _ => Vec::new(),
    }
}

/// The JS whitespace set as a regex class body (contract 01 §0: `\s`).
const JS_SPACE_CLASS: &str = r"\t\n\x0B\x0C\r \x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}";

/// `^#\s+(.+)$` on one line, with JS meanings: `.` is anything but a line terminator and `$`
/// is the end of the line string. The `regex` crate's leftmost-first matching reports the same
/// capture as JavaScript's backtracking engine.
static HEADING_LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"\A#[{JS_SPACE_CLASS}]+([^\n\r\x{{2028}}\x{{2029}}]+)\z"
    ))
    .expect("valid pattern")
});

/// `^#\s+.+(?:\r?\n|$)` at the very start of a body, without flags: `\s+` may span line breaks.
static LEADING_H1: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"\A#[{JS_SPACE_CLASS}]+[^\n\r\x{{2028}}\x{{2029}}]+(?:\r?\n|\z)"
    ))
    .expect("valid pattern")
});

/// Splits like JavaScript's `split(/\r?\n/)`.
fn split_crlf_lines(text: &str) -> impl Iterator<Item = &str> {
    let mut pieces = text.split('\n').peekable();
    std::iter::from_fn(move || {
        let piece = pieces.next()?;
        let has_break_after = pieces.peek().is_some();
        Some(match piece.strip_suffix('\r') {
            Some(stripped) if has_break_after => stripped,
            _ => piece,
        })
    })
}

/// The trimmed capture of the first body line matching `^#\s+(.+)$`; the first matching line
/// decides even when its trimmed capture is empty.
fn first_heading(body: &str) -> Option<String> {
    split_crlf_lines(body).find_map(|line| {
        HEADING_LINE
            .captures(line)
            .map(|captures| js_trim(&captures[1]).to_owned())
    })
}

/// The first body line that, JS-trimmed, is non-empty and does not start with `#`, `<!--` or
/// a bullet (`-`/`*` followed by whitespace).
fn first_description(body: &str) -> &str {
    split_crlf_lines(body)
        .map(js_trim)
        .find(|line| {
            let mut chars = line.chars();
            let bullet =
                matches!(chars.next(), Some('-' | '*')) && chars.next().is_some_and(is_js_space);
            !line.is_empty() && !line.starts_with('#') && !line.starts_with("<!--") && !bullet
        })
        .unwrap_or("")
}

/// The body without a leading H1, JS-trimmed; more than 1,200 units → the first 1,199 units
/// (without a trailing lone high surrogate), `trimEnd`, `…`.
fn context_excerpt(body: &str) -> (String, bool) {
    let without_heading = match LEADING_H1.find(body) {
        Some(found) => &body[found.end()..],
        None => body,
    };
    let excerpt = js_trim(without_heading);
    match clip_units_trim_end(excerpt, EXCERPT_UNITS, ELLIPSIS) {
        Some(clipped) => (clipped, true),
        None => (excerpt.to_owned(), false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(text: &str) -> ProjectRecord {
        parse_project_readme("rust-port", text).unwrap()
    }

    #[test]
    fn record_defaults_without_frontmatter() {
        let r = record("# Rust Port\n\nPort the reader to Rust.\n\n- a bullet\n");
        assert_eq!(r.id, None);
        assert_eq!(r.slug, "rust-port");
        assert_eq!(r.project, "rust-port");
        assert_eq!(r.name, "Rust Port");
        assert_eq!(r.status, "unknown");
        assert!(r.domains.is_empty());
        assert_eq!(r.description, "Port the reader to Rust.");
        assert_eq!(r.context_excerpt, "Port the reader to Rust.\n\n- a bullet");
        assert!(!r.context_excerpt_clipped);
        let empty = record("");
        assert_eq!(
            (
                empty.name.as_str(),
                empty.description.as_str(),
                empty.context_excerpt.as_str()
            ),
            ("rust-port", "", "")
        );
    }

    #[test]
    fn record_fields_from_frontmatter() {
        let r = record(
            "---\nid: ' proj-rust-001 '\nproject: rp\nname: The Port\nstatus: active\n\
             domain: [build, ' make ', 3, '']\ndescription: Bounded reads.\nrepo_url: git@example:x\n\
             local_path: /home/ada/src\n---\n# Heading\nBody line.\n",
        );
        assert_eq!(r.id.as_deref(), Some("proj-rust-001"));
        assert_eq!(r.project, "rp");
        assert_eq!(r.name, "The Port");
        assert_eq!(r.status, "active");
        assert_eq!(r.domains, ["build", "make"]);
        assert_eq!(r.description, "Bounded reads.");
        assert_eq!(r.context_excerpt, "Body line.");
        assert!(
            r.readme.contains("local_path"),
            "the full text is kept, but no field carries it"
        );
    }

    #[test]
    fn record_fallbacks() {
        // `id: 123` is an integer, so it counts as absent; project_id then supplies the id.
        let r = record(
            "---\nid: 123\nproject_id: p-1\nslug: alias\nstatus: ''\ndomain: 'build, ,sell '\n---\nx",
        );
        assert_eq!(r.id.as_deref(), Some("p-1"));
        assert_eq!(r.project, "alias");
        assert_eq!(r.status, "unknown");
        assert_eq!(r.domains, ["build", "sell"]);
        // Equal after trimming is not a conflict.
        assert!(parse_project_readme("s", "---\nid: a\nproject_id: ' a'\n---\n").is_ok());
        // `yes` and dates stay strings.
        let r = record("---\nname: yes\nstatus: 2026-08-29\n---\n");
        assert_eq!((r.name.as_str(), r.status.as_str()), ("yes", "2026-08-29"));
    }

    #[test]
    fn record_errors() {
        assert_eq!(
            parse_project_readme("s", "---\nid: a\nproject_id: b\n---\n"),
            Err(ReadmeProblem::ConflictingIds)
        );
        assert!(matches!(
            parse_project_readme("s", "---\nid: [unterminated\n---\n"),
            Err(ReadmeProblem::InvalidYaml(YamlError::Syntax { .. }))
        ));
        assert!(matches!(
            parse_project_readme("s", "---\nid: a\nid: b\n---\n"),
            Err(ReadmeProblem::InvalidYaml(YamlError::DuplicateKey { .. }))
        ));
        assert_eq!(
            parse_project_readme("s", "---\n- a\n---\n"),
            Err(ReadmeProblem::NotMapping)
        );
        assert_eq!(
            parse_project_readme("s", "---\n\n---\n"),
            Err(ReadmeProblem::NotMapping)
        );
        // A BOM hides the block, so its YAML is never parsed.
        assert!(parse_project_readme("s", "\u{feff}---\nid: [\n---\n").is_ok());
    }

    #[test]
    fn name_from_the_first_heading_line() {
        assert_eq!(record("intro\n#  Title  \r\nmore").name, "Title");
        assert_eq!(record("#NoSpace\n# Real").name, "Real");
        // The first matching line decides, even when its capture trims to nothing.
        assert_eq!(record("# \u{a0}\n# Later").name, "rust-port");
        // A lone CR or U+2028 inside the line defeats `$`.
        assert_eq!(record("# a\rb\n# Second").name, "Second");
        assert_eq!(record("## Sub\n# Top").name, "Top");
    }

    #[test]
    fn description_skips_headings_comments_and_bullets() {
        let r = record("# T\n<!-- note -->\n- item\n* star\n  -x\n");
        assert_eq!(r.description, "-x");
        assert_eq!(record("-\u{3000}wide bullet\nplain").description, "plain");
        assert_eq!(record("#tag\n\n  text  ").description, "text");
    }

    #[test]
    fn excerpt_heading_removal_follows_js() {
        assert_eq!(record("# T\nbody").context_excerpt, "body");
        assert_eq!(record("# T\r\nbody").context_excerpt, "body");
        assert_eq!(record("# T").context_excerpt, "");
        // `\s+` may span line breaks: "#\nfoo" is a heading.
        assert_eq!(record("#\nfoo\nbar").context_excerpt, "bar");
        // A blank line between frontmatter and H1 keeps the H1.
        assert_eq!(
            record("---\nid: a\n---\n\n# T\nbody").context_excerpt,
            "# T\nbody"
        );
        // A lone CR after the heading text is not a line end.
        assert_eq!(record("# T\rbody").context_excerpt, "# T\rbody");
        assert_eq!(record("#T\nbody").context_excerpt, "#T\nbody");
    }

    #[test]
    fn excerpt_clipping() {
        let exact = "a".repeat(1200);
        let r = record(&exact);
        assert_eq!(
            (r.context_excerpt.len(), r.context_excerpt_clipped),
            (1200, false)
        );
        let r = record(&"a".repeat(1201));
        assert_eq!(r.context_excerpt, format!("{}…", "a".repeat(1199)));
        assert!(r.context_excerpt_clipped);
        // A cut between the halves of a pair drops the high half; trailing space is trimmed.
        let pair = format!("{}😀{}", "b".repeat(1198), "c".repeat(10));
        assert_eq!(
            record(&pair).context_excerpt,
            format!("{}…", "b".repeat(1198))
        );
        let spaced = format!("{}   {}", "d".repeat(1197), "e".repeat(20));
        assert_eq!(
            record(&spaced).context_excerpt,
            format!("{}…", "d".repeat(1197))
        );
    }

    #[test]
    fn crlf_line_split() {
        let lines: Vec<_> = split_crlf_lines("a\r\nb\r\r\nc\rd\n\r").collect();
        assert_eq!(lines, ["a", "b\r", "c\rd", "\r"]);
    }
}
