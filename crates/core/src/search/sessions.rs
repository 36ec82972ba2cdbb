//! The `sessions` scope (contract 03 §11): the session index, the CLI filters, the path rule for
//! session bodies, metadata hits and body snippets. No ranking: the newest matching entries
//! win, up to the limit.
//!
//! Pure apart from body reads, which the caller performs through the closure it passes (the
//! engine charges and contains them).

use std::collections::HashMap;

use dotaios_contained::RelPath;
use serde_json::Value;

use crate::search::hit::{SessionHit, SessionSnippet};
use crate::search::jsonl::{ProjectIdentity, entries_reversed, is_attributed};
use crate::search::markdown::frontmatter;
use crate::search::relevance::lowercase;
use crate::search::unicode::units_of_bytes;
use crate::search::window::{self, SnippetForm};
use crate::text::{
    iso_string, js_trim, js_truthy, utf16_cmp, utf16_len, utf16_prefix, utf16_slice,
};

/// The CLI-only session filters (§11 step 3), applied in this order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SessionFilters {
    /// `--agent`: keep entries whose `agent` equals this exactly.
    pub agent: Option<String>,
    /// `--session-project`: keep entries whose `project` equals this exactly.
    pub session_project: Option<String>,
    /// `--since`: `<n>d|h|w|m` relative to now, or a cutoff text compared as written.
    pub since: Option<String>,
}

/// A session index entry whose `path` is not a safe body path (§11 step 5.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct UnsafeSessionPath;

/// Searches the session index (its JSONL text) and returns at most `limit` hits. Entries are
/// parsed from the last line back, one at a time, and the walk stops at `limit`, so the index's
/// entries are never all held (issue 21 F2).
///
/// `read_body` reads one body (`Ok(None)` when it is missing); each distinct path is read at
/// most once. `form` chooses the reference's snippet (§11 step 5.3) or a window (§8.2).
#[expect(
    clippy::too_many_arguments,
    reason = "the request's parts the scope reads, each its own value"
)]
pub(crate) fn search_sessions<E: From<UnsafeSessionPath>>(
    index: &str,
    raw_query: &str,
    form: SnippetForm,
    filters: &SessionFilters,
    project: Option<&ProjectIdentity>,
    now_ms: f64,
    limit: usize,
    read_body: &mut dyn FnMut(&RelPath) -> Result<Option<String>, E>,
) -> Result<Vec<SessionHit>, E> {
    let q = lowercase(raw_query);
    let cutoff = filters
        .since
        .as_deref()
        .map(|since| since_cutoff(since, now_ms));
    let mut bodies: HashMap<RelPath, Option<String>> = HashMap::new();
    let mut hits = Vec::new();
    for entry in entries_reversed(index) {
        if hits.len() >= limit {
            break;
        }
        let object = &entry.object;
        if project.is_some_and(|project| !is_attributed(object, project)) {
            continue;
        }
        if let Some(agent) = &filters.agent
            && object.get("agent").and_then(Value::as_str) != Some(agent.as_str())
        {
            continue;
        }
        if let Some(wanted) = &filters.session_project
            && object.get("project").and_then(Value::as_str) != Some(wanted.as_str())
        {
            continue;
        }
        if let Some(cutoff) = &cutoff
            && object
                .get("captured_at")
                .and_then(Value::as_str)
                .is_some_and(|captured| utf16_cmp(captured, cutoff).is_lt())
        {
            continue;
        }

        let raw_path = object.get("path").and_then(Value::as_str).unwrap_or("");
        let rel = body_path(raw_path).ok_or(UnsafeSessionPath)?;

        let metadata_hit = ["title", "agent", "project"].iter().any(|name| {
            let text = object.get(*name).and_then(Value::as_str).unwrap_or("");
            lowercase(text).contains(q.as_str())
        });
        let matches = if metadata_hit {
            Vec::new()
        } else {
            if !bodies.contains_key(&rel) {
                let body = read_body(&rel)?;
                bodies.insert(rel.clone(), body);
            }
            let Some(Some(text)) = bodies.get(&rel) else {
                continue;
            };
            let snippet = match form {
                SnippetForm::Lines => body_snippet(text, &q),
                SnippetForm::Windows => body_window(text, &q),
            };
            match snippet {
                None => continue,
                Some(snippet) if snippet.is_empty() => Vec::new(),
                Some(snippet) => vec![SessionSnippet { content: snippet }],
            }
        };
        hits.push(session_hit(object, raw_path, matches));
    }
    Ok(hits)
}

fn session_hit(
    object: &serde_json::Map<String, Value>,
    raw_path: &str,
    matches: Vec<SessionSnippet>,
) -> SessionHit {
    let title = match object.get("title") {
        Some(title) if js_truthy(title) => title.clone(),
        _ => Value::from("(untitled)"),
    };
    SessionHit {
        source: format!("sessions/{raw_path}"),
        file: raw_path.to_owned(),
        title,
        agent: object.get("agent").cloned(),
        date: object
            .get("captured_at")
            .and_then(Value::as_str)
            .map(|captured| utf16_prefix(captured, 10).to_owned()),
        session_id: object.get("session_id").cloned(),
        project: object.get("project").cloned(),
        matches,
    }
}

/// The contained path of a session body, when `raw` is a non-empty relative path that stays
/// inside the root and strictly inside `memory/sessions` after lexical normalisation.
pub(crate) fn body_path(raw: &str) -> Option<RelPath> {
    if raw.is_empty() || raw.starts_with('/') {
        return None;
    }
    let mut parts: Vec<&str> = Vec::new();
    for component in raw.split('/') {
        match component {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            other => parts.push(other),
        }
    }
    if parts.len() < 3 || parts[0] != "memory" || parts[1] != "sessions" {
        return None;
    }
    RelPath::new(&parts.join("/")).ok()
}

/// The body snippet (§11 step 5.3), or `None` when the body does not contain `q`.
fn body_snippet(text: &str, q: &str) -> Option<String> {
    let body = match frontmatter(text) {
        Some((_, close)) => &text[close + 4..],
        None => text,
    };
    let lower = lowercase(body);
    let found = lower.find(q)?;
    // Offsets are found in the lowercase text and applied to the original, as the reference
    // does; lowercasing that changes lengths can shift the window slightly.
    let k = units_of_bytes(&lower, found);
    let length = utf16_len(body);
    let start = k.saturating_sub(60);
    let end = (k + utf16_len(q) + 60).min(length);
    let mut snippet = String::new();
    if start > 0 {
        snippet.push_str("...");
    }
    snippet.push_str(js_trim(utf16_slice(body, start, end)));
    if end < length {
        snippet.push_str("...");
    }
    Some(snippet)
}

/// The body snippet in the windowed form (§8.2 "Windows", §11): the window around the first
/// occurrence of `q` in the body without its frontmatter, or `None` when there is none. The
/// offset found in the lowercase body is carried to the original by character count.
fn body_window(text: &str, q: &str) -> Option<String> {
    let body = match frontmatter(text) {
        Some((_, close)) => &text[close + 4..],
        None => text,
    };
    let lower = lowercase(body);
    let found = lower.find(q)?;
    let chars = lower[..found].chars().count();
    let at = body
        .char_indices()
        .nth(chars)
        .map_or(body.len(), |(at, _)| at);
    let span = window::around(body, 0, body.len(), at);
    Some(window::render(body, span).map_or_else(String::new, |shown| shown.content))
}

/// The `--since` cutoff: `^(\d+)([dhwm])$` relative to now as ISO-8601 UTC, else the text
/// itself.
fn since_cutoff(since: &str, now_ms: f64) -> String {
    let bytes = since.as_bytes();
    let relative = bytes.len() >= 2
        && bytes[..bytes.len() - 1].iter().all(u8::is_ascii_digit)
        && matches!(bytes[bytes.len() - 1], b'd' | b'h' | b'w' | b'm');
    if !relative {
        return since.to_owned();
    }
    let unit = match bytes[bytes.len() - 1] {
        b'd' => 86_400_000.0,
        b'h' => 3_600_000.0,
        b'w' => 604_800_000.0,
        _ => 2_592_000_000.0,
    };
    let count: f64 = since[..since.len() - 1].parse().unwrap_or(f64::INFINITY);
    // A cutoff before the representable range keeps every entry (JavaScript would throw).
    iso_string(now_ms - count * unit).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq)]
    enum TestError {
        Unsafe,
    }

    impl From<UnsafeSessionPath> for TestError {
        fn from(_: UnsafeSessionPath) -> TestError {
            TestError::Unsafe
        }
    }

    fn run(
        index: &str,
        query: &str,
        filters: &SessionFilters,
        bodies: &[(&str, &str)],
        limit: usize,
    ) -> (Result<Vec<SessionHit>, TestError>, Vec<String>) {
        let mut reads = Vec::new();
        let mut read = |rel: &RelPath| -> Result<Option<String>, TestError> {
            reads.push(rel.as_str().to_owned());
            Ok(bodies
                .iter()
                .find(|(path, _)| *path == rel.as_str())
                .map(|(_, text)| (*text).to_owned()))
        };
        let result = search_sessions(
            index,
            query,
            SnippetForm::Lines,
            filters,
            None,
            1_786_579_200_000.0,
            limit,
            &mut read,
        );
        (result, reads)
    }

    #[test]
    fn body_paths() {
        assert_eq!(
            body_path("memory/sessions/2026-08-13/a.md")
                .unwrap()
                .as_str(),
            "memory/sessions/2026-08-13/a.md"
        );
        assert_eq!(
            body_path("memory/sessions/x/../a.md").unwrap().as_str(),
            "memory/sessions/a.md"
        );
        assert_eq!(
            body_path("./memory//sessions/a.md").unwrap().as_str(),
            "memory/sessions/a.md"
        );
        for bad in [
            "",
            "/etc/passwd",
            "../x",
            "memory/sessions",
            "memory/sessions/..",
            "memory/other/a.md",
            "memory/sessions/../../a.md",
            "context/a.md",
            "..",
            "a/../../memory/sessions/a.md",
        ] {
            assert!(body_path(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn newest_first_metadata_before_body_and_limit() {
        let index = concat!(
            r#"{"session_id":"a","agent":"codex","title":"Old budget","path":"memory/sessions/d/a.md","captured_at":"2026-08-01T10:00:00Z"}"#,
            "\n",
            r#"{"session_id":"b","agent":"claude","title":"Call notes","path":"memory/sessions/d/b.md","captured_at":"2026-08-10T10:00:00Z"}"#,
            "\n",
            r#"{"session_id":"c","agent":"claude","title":null,"path":"memory/sessions/d/c.md"}"#,
            "\n",
        );
        let bodies = [
            (
                "memory/sessions/d/b.md",
                "---\ntitle: x\n---\nWe discussed the BUDGET today.",
            ),
            ("memory/sessions/d/c.md", "no match here"),
        ];
        let (hits, reads) = run(index, "Budget", &SessionFilters::default(), &bodies, 10);
        let hits = hits.unwrap();
        assert_eq!(reads, ["memory/sessions/d/c.md", "memory/sessions/d/b.md"]);
        assert_eq!(hits.len(), 2);
        assert_eq!(hits[0].source, "sessions/memory/sessions/d/b.md");
        assert_eq!(hits[0].matches[0].content, "We discussed the BUDGET today.");
        assert_eq!(hits[0].date.as_deref(), Some("2026-08-10"));
        assert!(hits[1].matches.is_empty());
        let (hits, _) = run(index, "budget", &SessionFilters::default(), &bodies, 1);
        assert_eq!(hits.unwrap().len(), 1);
    }

    #[test]
    fn filters() {
        let index = concat!(
            r#"{"agent":"codex","project":"p","title":"x hit","path":"memory/sessions/a.md","captured_at":"2026-08-01T00:00:00.000Z"}"#,
            "\n",
            r#"{"agent":"claude","project":"p","title":"y hit","path":"memory/sessions/b.md","captured_at":"2026-08-12T00:00:00.000Z"}"#,
            "\n",
            r#"{"agent":"claude","title":"z hit","path":"memory/sessions/c.md"}"#,
            "\n",
        );
        let titles = |filters: SessionFilters| -> Vec<String> {
            run(index, "hit", &filters, &[], 10)
                .0
                .unwrap()
                .iter()
                .map(|hit| hit.title.as_str().unwrap().to_owned())
                .collect()
        };
        assert_eq!(
            titles(SessionFilters {
                agent: Some("claude".into()),
                ..Default::default()
            }),
            ["z hit", "y hit"]
        );
        assert_eq!(
            titles(SessionFilters {
                session_project: Some("p".into()),
                ..Default::default()
            }),
            ["y hit", "x hit"]
        );
        assert_eq!(
            titles(SessionFilters {
                since: Some("7d".into()),
                ..Default::default()
            }),
            ["z hit", "y hit"]
        );
        assert_eq!(
            titles(SessionFilters {
                since: Some("2026-08-05".into()),
                ..Default::default()
            }),
            ["z hit", "y hit"]
        );
        assert_eq!(
            titles(SessionFilters {
                since: Some("99999999999999999999d".into()),
                ..Default::default()
            })
            .len(),
            3
        );
    }

    #[test]
    fn unsafe_paths_fail_only_when_visited() {
        let index = concat!(
            r#"{"agent":"x","title":"t","path":"/etc/passwd"}"#,
            "\n",
            r#"{"agent":"y","title":"t","path":"memory/sessions/a.md"}"#,
            "\n",
        );
        let filters = SessionFilters {
            agent: Some("y".into()),
            ..Default::default()
        };
        assert!(run(index, "t", &filters, &[], 10).0.is_ok());
        assert_eq!(
            run(index, "t", &SessionFilters::default(), &[], 10)
                .0
                .unwrap_err(),
            TestError::Unsafe
        );
        // With limit 1 the walk stops before reaching the unsafe (older) entry.
        assert!(
            run(index, "t", &SessionFilters::default(), &[], 1)
                .0
                .is_ok()
        );
    }

    #[test]
    fn snippet_window_and_markers() {
        let long = format!("{}needle{}", "a".repeat(100), "b".repeat(100));
        let snippet = body_snippet(&long, "needle").unwrap();
        assert_eq!(
            snippet,
            format!("...{}needle{}...", "a".repeat(60), "b".repeat(60))
        );
        assert_eq!(body_snippet("  needle  ", "needle").unwrap(), "needle");
        assert_eq!(body_snippet("x", "needle"), None);
    }

    #[test]
    fn windowed_body_snippet() {
        let words = |count: usize| vec!["word"; count].join(" ");
        let text = format!(
            "---\ntitle: x\n---\n{} The Needle here {}\n",
            words(100),
            words(100)
        );
        let snippet = body_window(&text, "needle").unwrap();
        assert!(
            snippet.starts_with("…word ") && snippet.ends_with(" word…"),
            "{snippet}"
        );
        assert!(snippet.contains("The Needle here"), "{snippet}");
        assert!(
            snippet.chars().count() <= window::WINDOW_CHARS + 2,
            "{snippet}"
        );
        assert!(!snippet.contains("title"));
        assert_eq!(
            body_window("  needle\n\nnext  ", "needle").unwrap(),
            "needle / next"
        );
        assert_eq!(body_window("x", "needle"), None);
    }

    #[test]
    fn a_body_is_read_once() {
        let index = concat!(
            r#"{"title":"a","path":"memory/sessions/same.md"}"#,
            "\n",
            r#"{"title":"b","path":"memory/sessions/same.md"}"#,
            "\n",
        );
        let (hits, reads) = run(
            index,
            "needle",
            &SessionFilters::default(),
            &[("memory/sessions/same.md", "needle")],
            10,
        );
        assert_eq!(hits.unwrap().len(), 2);
        assert_eq!(reads.len(), 1);
        // Missing bodies are skipped.
        let (hits, _) = run(index, "needle", &SessionFilters::default(), &[], 10);
        assert!(hits.unwrap().is_empty());
    }
}
