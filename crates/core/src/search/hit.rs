//! The result values of a search (contract 03 §12) and their JSON shapes.
//!
//! Results are plain values; [`SearchHit::to_value`] builds the exact JSON object of §12.2–§12.4
//! (member order included, JavaScript's own-property order for user data) for the MCP payload
//! and `--json`. No rank or internal score ever appears here (§9.4).

use serde_json::{Map, Value};

use crate::text::apply_js_key_order;

/// The kind of a match: the relevance analyzer's kind of a piece of text (contract 03 §6.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MatchKind {
    /// The query's terms occur in order on consecutive tokens (one between allowed), or its one
    /// term matched exactly.
    Phrase,
    /// Every term matched (two or more terms).
    Terms,
    /// Some but not all terms matched (two or more terms).
    Partial,
    /// No term matched exactly, only by stem or prefix.
    Inflected,
}

impl MatchKind {
    /// The wire name: `phrase`, `terms`, `partial` or `inflected`.
    pub fn as_str(self) -> &'static str {
        match self {
            MatchKind::Phrase => "phrase",
            MatchKind::Terms => "terms",
            MatchKind::Partial => "partial",
            MatchKind::Inflected => "inflected",
        }
    }

    /// The snippet sort weight of §8.2 (open point: `inflected` weighs 0).
    pub(crate) fn snippet_weight(self) -> u8 {
        match self {
            MatchKind::Phrase => 3,
            MatchKind::Terms => 2,
            MatchKind::Partial => 1,
            MatchKind::Inflected => 0,
        }
    }
}

/// Where a Markdown snippet was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Area {
    /// The frontmatter `description`.
    Description,
    /// A line starting with `#`.
    Heading,
    /// Any other line.
    Body,
}

impl Area {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Area::Description => "description",
            Area::Heading => "heading",
            Area::Body => "body",
        }
    }
}

/// One snippet of a Markdown result (§8.2).
#[derive(Debug, Clone, PartialEq)]
pub struct Snippet {
    /// First line of the window, 1-based (in the windowed form, the first line shown).
    pub line: usize,
    /// Last line of the window, 1-based (in the windowed form, the last line shown).
    pub line_end: usize,
    /// The window's trimmed, non-empty lines joined with ` / ` (in the windowed form, cut to
    /// a bounded piece with `…` where a line was cut, §8.2).
    pub content: String,
    /// The match kind of the matched line (or of the whole text for fallback snippets).
    pub kind: MatchKind,
    /// Where the match was.
    pub area: Area,
}

/// A Markdown result (§12.2): context, vault, projects, decisions, skills, references, plugins
/// and the memory notes.
#[derive(Debug, Clone, PartialEq)]
pub struct MarkdownHit {
    /// `<prefix>/<relative>`.
    pub source: String,
    /// The path relative to the corpus directory.
    pub file: String,
    /// The first `# ` heading of the body, or the relative path.
    pub title: String,
    /// At most five snippets (two in the windowed form, §8.2).
    pub matches: Vec<Snippet>,
}

/// A memory JSONL result (§12.3): the matched entry with its match information.
#[derive(Debug, Clone, PartialEq)]
pub struct MemoryHit {
    /// The source label (`memory/events.jsonl`, `memory/signals/<name>.jsonl`, …).
    pub source: String,
    /// The flattened field that matched, or `entry` for the whole-entry fallback.
    pub field: String,
    /// The field's text (or the entry text), truncated to 160 units.
    pub value: String,
    /// The match kind.
    pub kind: MatchKind,
    /// The match score of §6 (part of the wire shape, unlike the rank).
    pub score: u32,
    /// The parsed entry, in JavaScript's own-property order.
    pub entry: Map<String, Value>,
}

impl MemoryHit {
    /// `matchedField`: the field, or `None` when the field is `summary`.
    pub fn matched_field(&self) -> Option<&str> {
        (self.field != "summary").then_some(self.field.as_str())
    }

    /// `matchedSnippet`: the value, or `None` when the field is `summary`.
    pub fn matched_snippet(&self) -> Option<&str> {
        (self.field != "summary").then_some(self.value.as_str())
    }
}

/// One snippet of a session body hit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionSnippet {
    /// The snippet text, with `...` markers where it was cut.
    pub content: String,
}

/// A session result (§12.4). Optional members mirror the index entry: `None` means the key was
/// absent (and is omitted from JSON); a present `null` stays `Some(Value::Null)`.
#[derive(Debug, Clone, PartialEq)]
pub struct SessionHit {
    /// `sessions/` + the entry's `path`.
    pub source: String,
    /// The entry's `path`.
    pub file: String,
    /// The entry's `title` when truthy, else `(untitled)`.
    pub title: Value,
    /// The entry's `agent`.
    pub agent: Option<Value>,
    /// The first 10 units of `captured_at`, when it is a string.
    pub date: Option<String>,
    /// The entry's `session_id`.
    pub session_id: Option<Value>,
    /// The entry's `project`.
    pub project: Option<Value>,
    /// Empty for a metadata hit or an empty body snippet; otherwise one snippet.
    pub matches: Vec<SessionSnippet>,
}

/// One search result.
// A request keeps one hit per candidate until the order is known (a Markdown candidate's in its
// ranking form, with no title or snippets), so the inline size of the largest variant (a few
// hundred bytes) is charged per candidate by `tests/candidate_bounds.rs`; boxing would add an
// allocation per candidate and indirection for every caller.
#[expect(
    clippy::large_enum_variant,
    reason = "inline size is bounded per candidate by tests/candidate_bounds.rs; boxing adds an allocation each"
)]
#[derive(Debug, Clone, PartialEq)]
pub enum SearchHit {
    /// A Markdown file.
    Markdown(MarkdownHit),
    /// A memory JSONL entry.
    Memory(MemoryHit),
    /// A session.
    Session(SessionHit),
}

impl SearchHit {
    /// The `source` of the result.
    pub fn source(&self) -> &str {
        match self {
            SearchHit::Markdown(hit) => &hit.source,
            SearchHit::Memory(hit) => match hit.entry.get("source") {
                // An entry key named `source` replaces the computed value (§12.3).
                Some(Value::String(source)) => source,
                _ => &hit.source,
            },
            SearchHit::Session(hit) => &hit.source,
        }
    }

    /// The result as the JSON object of §12.2–§12.4.
    pub fn to_value(&self) -> Value {
        match self {
            SearchHit::Markdown(hit) => markdown_value(hit),
            SearchHit::Memory(hit) => memory_value(hit),
            SearchHit::Session(hit) => session_value(hit),
        }
    }
}

fn markdown_value(hit: &MarkdownHit) -> Value {
    let mut object = Map::new();
    object.insert("source".into(), Value::from(hit.source.as_str()));
    object.insert("file".into(), Value::from(hit.file.as_str()));
    object.insert("title".into(), Value::from(hit.title.as_str()));
    let matches = hit
        .matches
        .iter()
        .map(|snippet| {
            let mut item = Map::new();
            item.insert("line".into(), Value::from(snippet.line));
            item.insert("lineEnd".into(), Value::from(snippet.line_end));
            item.insert("content".into(), Value::from(snippet.content.as_str()));
            item.insert("match".into(), Value::from(snippet.kind.as_str()));
            item.insert("area".into(), Value::from(snippet.area.as_str()));
            Value::Object(item)
        })
        .collect();
    object.insert("matches".into(), Value::Array(matches));
    Value::Object(object)
}

fn memory_value(hit: &MemoryHit) -> Value {
    let mut object = Map::new();
    object.insert("source".into(), Value::from(hit.source.as_str()));
    let mut matched = Map::new();
    matched.insert("field".into(), Value::from(hit.field.as_str()));
    matched.insert("value".into(), Value::from(hit.value.as_str()));
    matched.insert("kind".into(), Value::from(hit.kind.as_str()));
    matched.insert("score".into(), Value::from(hit.score));
    object.insert("match".into(), Value::Object(matched));
    object.insert(
        "matchedField".into(),
        hit.matched_field().map_or(Value::Null, Value::from),
    );
    object.insert(
        "matchedSnippet".into(),
        hit.matched_snippet().map_or(Value::Null, Value::from),
    );
    for (name, value) in &hit.entry {
        // An entry member with one of the four names above replaces the value in place,
        // as spreading the entry over them does in JavaScript.
        object.insert(name.clone(), value.clone());
    }
    let mut value = Value::Object(object);
    // Array-index names (taken from the entry) go first, as JavaScript lists them.
    apply_js_key_order(&mut value);
    value
}

fn session_value(hit: &SessionHit) -> Value {
    let mut object = Map::new();
    object.insert("source".into(), Value::from(hit.source.as_str()));
    object.insert("file".into(), Value::from(hit.file.as_str()));
    object.insert("title".into(), hit.title.clone());
    if let Some(agent) = &hit.agent {
        object.insert("agent".into(), agent.clone());
    }
    if let Some(date) = &hit.date {
        object.insert("date".into(), Value::from(date.as_str()));
    }
    if let Some(session_id) = &hit.session_id {
        object.insert("session_id".into(), session_id.clone());
    }
    if let Some(project) = &hit.project {
        object.insert("project".into(), project.clone());
    }
    let matches = hit
        .matches
        .iter()
        .map(|snippet| {
            let mut item = Map::new();
            item.insert("line".into(), Value::from(0));
            item.insert("content".into(), Value::from(snippet.content.as_str()));
            item.insert("match".into(), Value::from("phrase"));
            item.insert("area".into(), Value::from("body"));
            Value::Object(item)
        })
        .collect();
    object.insert("matches".into(), Value::Array(matches));
    Value::Object(object)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::to_json_compact;

    #[test]
    fn markdown_shape() {
        let hit = SearchHit::Markdown(MarkdownHit {
            source: "vault/a.md".into(),
            file: "a.md".into(),
            title: "A".into(),
            matches: vec![Snippet {
                line: 2,
                line_end: 4,
                content: "x".into(),
                kind: MatchKind::Phrase,
                area: Area::Body,
            }],
        });
        assert_eq!(
            to_json_compact(&hit.to_value()),
            r#"{"source":"vault/a.md","file":"a.md","title":"A","matches":[{"line":2,"lineEnd":4,"content":"x","match":"phrase","area":"body"}]}"#
        );
    }

    #[test]
    fn memory_shape_follows_the_js_object_model() {
        let entry: Value =
            serde_json::from_str(r#"{"ts":"2026","b":1,"10":"ten","match":"mine","2":"two"}"#)
                .unwrap();
        let mut entry = entry;
        apply_js_key_order(&mut entry);
        let Value::Object(entry) = entry else {
            unreachable!()
        };
        let hit = SearchHit::Memory(MemoryHit {
            source: "memory/events.jsonl".into(),
            field: "summary".into(),
            value: "v".into(),
            kind: MatchKind::Phrase,
            score: 10,
            entry,
        });
        assert_eq!(
            to_json_compact(&hit.to_value()),
            r#"{"2":"two","10":"ten","source":"memory/events.jsonl","match":"mine","matchedField":null,"matchedSnippet":null,"ts":"2026","b":1}"#
        );
    }

    #[test]
    fn session_shape_omits_absent_keys() {
        let hit = SearchHit::Session(SessionHit {
            source: "sessions/memory/sessions/a.md".into(),
            file: "memory/sessions/a.md".into(),
            title: Value::from("(untitled)"),
            agent: Some(Value::Null),
            date: None,
            session_id: Some(Value::from("s1")),
            project: None,
            matches: vec![SessionSnippet {
                content: "...x...".into(),
            }],
        });
        assert_eq!(
            to_json_compact(&hit.to_value()),
            r#"{"source":"sessions/memory/sessions/a.md","file":"memory/sessions/a.md","title":"(untitled)","agent":null,"session_id":"s1","matches":[{"line":0,"content":"...x...","match":"phrase","area":"body"}]}"#
        );
    }
}
