//! Markdown frontmatter (contract 01 §3.7): the block split of
//! `^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)` and strict YAML 1.2 core-schema parsing.
//!
//! Shared by project READMEs and `SKILL.md`. Parsing goes to an ordered mapping of plain
//! [`YamlValue`]s, so callers never see the YAML library. Strict means: a syntax error, a
//! duplicate key, an unknown alias, a value that fails its explicit core tag (`!!int abc`) or a
//! second document is an error. Core schema means: `yes`/`no`/`on` stay strings, `123` is an
//! integer, `2026-08-29` stays a string (there is no timestamp type), `~`/`null`/empty are null.
//! Bounded means: nesting deeper than [`MAX_DEPTH`] and alias copies beyond a budget linear in
//! the text are errors too, and no step recurses per nesting level of the text
//! (`docs/security.md`). The parse work is bounded too (contract 01 §5.7 item 5): a document
//! of more than [`MAX_DOCUMENT_BYTES`] or [`MAX_DOCUMENT_EVENTS`] parse events is
//! [`YamlError::Work`], and a [`YamlWork`] carries one request's allowance over all its
//! documents ([`REQUEST_BYTES`], [`REQUEST_EVENTS`]); beyond either, a document is refused the
//! same way, so it takes the invalid-frontmatter path its reader already has.
//!
//! Nothing here reads files; a `FrontmatterError` carries no content of the document. Loads
//! are memoised by their exact text for the life of the process (`memo.rs`), which changes
//! how long a repeated parse takes and nothing else.

mod load;
mod memo;

pub use load::MAX_DEPTH;
pub use memo::hits as memo_hits;

/// A frontmatter document longer than this (in bytes of YAML) is [`YamlError::Work`]: it also
/// bounds what the parser reads ahead before its first event (a whole flow collection).
pub const MAX_DOCUMENT_BYTES: usize = 64 * 1024;
/// A document whose parse pulls more events than this is [`YamlError::Work`].
pub const MAX_DOCUMENT_EVENTS: usize = 8 * 1024;
/// What one request may parse in all, in bytes of YAML.
pub const REQUEST_BYTES: usize = 8 * 1024 * 1024;
/// What one request may parse in all, in parse events.
pub const REQUEST_EVENTS: usize = 256 * 1024;

/// One request's remaining frontmatter parsing allowance (contract 01 §5.7 item 5). Every
/// document parsed with it is charged its bytes before it is parsed and the events its parse
/// pulled after, whether it parsed or not; a document that does not fit what is left is
/// [`YamlError::Work`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct YamlWork {
    bytes: usize,
    events: usize,
}

impl YamlWork {
    /// The allowance of one request: [`REQUEST_BYTES`] and [`REQUEST_EVENTS`].
    pub fn per_request() -> YamlWork {
        YamlWork {
            bytes: REQUEST_BYTES,
            events: REQUEST_EVENTS,
        }
    }

    /// Parses one document within the per-document bounds and what is left of this
    /// allowance. The outcome depends on the text and the allowance alone (a memoised load
    /// is charged exactly as a fresh one).
    fn parse(&mut self, text: &str) -> Result<YamlValue, YamlError> {
        if text.len() > MAX_DOCUMENT_BYTES || text.len() > self.bytes {
            self.bytes = 0;
            return Err(YamlError::Work);
        }
        self.bytes -= text.len();
        let memoised = memo::get_or_load(text, || load::load(text, MAX_DOCUMENT_EVENTS));
        match self.events.checked_sub(memoised.events) {
            Some(left) => {
                self.events = left;
                memoised.outcome
            }
            // A fresh parse would have run out of events before its end.
            None => {
                self.events = 0;
                Err(YamlError::Work)
            }
        }
    }
}

/// The pieces of a text that starts with a frontmatter block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Frontmatter<'a> {
    /// The YAML between the delimiter lines (capture group 1).
    pub yaml: &'a str,
    /// Everything after the match, which consumes the line break after the closing `---`.
    pub body: &'a str,
}

/// Splits `text` exactly as the JavaScript expression `^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)`
/// (no flags) does: the block must start at the very beginning (a BOM prevents it), and the
/// first `\n---` that is followed by a line break or the end of the text closes it. `None` when
/// there is no block; the body is then the whole text.
pub fn split_frontmatter(text: &str) -> Option<Frontmatter<'_>> {
    split_at(text, true)
}

/// [`split_frontmatter`] on the first bytes of a longer file: when `at_end_of_file` is false,
/// the end of `prefix` is not the end of the text, so a `---` at the very end of the prefix does
/// not close the block (the block must be closed within the prefix).
pub fn split_frontmatter_prefix(prefix: &str, at_end_of_file: bool) -> Option<Frontmatter<'_>> {
    split_at(prefix, at_end_of_file)
}

/// The body of `text`: after the frontmatter block when there is one, else all of it.
pub fn body_of(text: &str) -> &str {
    split_frontmatter(text).map_or(text, |block| block.body)
}

fn split_at(text: &str, end_is_end: bool) -> Option<Frontmatter<'_>> {
    let start = if text.starts_with("---\n") {
        4
    } else if text.starts_with("---\r\n") {
        5
    } else {
        return None;
    };
    // The lazy capture stops at the first `\r?\n---` whose tail fits; a `\r` before that `\n`
    // belongs to the delimiter, not to the capture, when it lies inside the capture's range.
    let mut search = start;
    while let Some(found) = text[search..].find("\n---") {
        let newline = search + found;
        let after = newline + 4;
        let tail = &text[after..];
        let consumed = if tail.starts_with("\r\n") {
            Some(2)
        } else if tail.starts_with('\n') {
            Some(1)
        } else if tail.is_empty() && end_is_end {
            Some(0)
        } else {
            None
        };
        if let Some(consumed) = consumed {
            let capture_end = if newline > start && text.as_bytes()[newline - 1] == b'\r' {
                newline - 1
            } else {
                newline
            };
            return Some(Frontmatter {
                yaml: &text[start..capture_end],
                body: &text[after + consumed..],
            });
        }
        search = newline + 1;
    }
    None
}

/// A YAML value under the core schema.
#[derive(Debug, Clone, PartialEq)]
pub enum YamlValue {
    /// `null`, `~`, or an empty node.
    Null,
    /// `true`/`false` (also `True`, `TRUE`, …).
    Bool(bool),
    /// A decimal, `0o` octal or `0x` hex integer that fits in 64 bits.
    Int(i64),
    /// A float, including `.inf`, `-.inf` and `.nan` (and integers too large for `Int`).
    Float(f64),
    /// Any other scalar, and every quoted or block scalar.
    String(String),
    /// A sequence, in document order.
    Sequence(Vec<YamlValue>),
    /// A mapping, in document order, keys unique.
    Mapping(YamlMapping),
}

impl YamlValue {
    /// The string, when this is a string scalar.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            YamlValue::String(text) => Some(text),
            _ => None,
        }
    }

    /// The mapping, when this is one.
    pub fn as_mapping(&self) -> Option<&YamlMapping> {
        match self {
            YamlValue::Mapping(mapping) => Some(mapping),
            _ => None,
        }
    }
}

/// An ordered mapping with unique keys (document order).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct YamlMapping {
    entries: Vec<(YamlValue, YamlValue)>,
}

impl YamlMapping {
    /// The value of the string key `key`, if present (a present `null` is `Some(Null)`).
    pub fn get(&self, key: &str) -> Option<&YamlValue> {
        self.entries
            .iter()
            .find(|(k, _)| k.as_str() == Some(key))
            .map(|(_, v)| v)
    }

    /// Whether the string key `key` is present, whatever its value.
    pub fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// The entries in document order.
    pub fn iter(&self) -> impl Iterator<Item = (&YamlValue, &YamlValue)> {
        self.entries.iter().map(|(k, v)| (k, v))
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there are no entries.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// Why a YAML document was refused. Positions are 1-based lines and columns of the YAML text;
/// no document content is kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum YamlError {
    /// The text is not well-formed YAML.
    #[error("invalid YAML at line {line}, column {column}")]
    Syntax {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
    },
    /// A mapping repeats a key (also keys that differ by a tag alone); the position is the
    /// repeated key's.
    #[error("duplicate key at line {line}, column {column}")]
    DuplicateKey {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
    },
    /// An alias names no anchor, or a scalar does not fit its explicit core tag.
    #[error("unresolvable YAML node")]
    BadValue,
    /// The text holds more than one document.
    #[error("more than one YAML document")]
    MultipleDocuments,
    /// Collections nest deeper than [`MAX_DEPTH`].
    #[error("YAML nested too deeply")]
    TooDeep,
    /// Anchors and aliases would copy more than the document's budget (an alias bomb).
    #[error("too much YAML alias expansion")]
    AliasBudget,
    /// The document, or the request's documents together, need more parsing work than allowed
    /// ([`MAX_DOCUMENT_BYTES`], [`MAX_DOCUMENT_EVENTS`], [`YamlWork`]).
    #[error("too much YAML parsing work")]
    Work,
}

/// Why frontmatter YAML is not a usable mapping.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum FrontmatterError {
    /// The YAML itself was refused.
    #[error(transparent)]
    InvalidYaml(#[from] YamlError),
    /// The document is valid but not a mapping (a scalar, a sequence, or empty).
    #[error("frontmatter is not a mapping")]
    NotMapping,
}

/// Parses one YAML 1.2 document strictly under the core schema, as the only document of its
/// request ([`YamlWork::per_request`]). An empty document (or one holding only comments) is
/// [`YamlValue::Null`].
pub fn parse_yaml(text: &str) -> Result<YamlValue, YamlError> {
    YamlWork::per_request().parse(text)
}

/// Parses frontmatter YAML that must be a mapping (contract 01 §3.7), as the only document of
/// its request.
pub fn parse_mapping(text: &str) -> Result<YamlMapping, FrontmatterError> {
    parse_mapping_within(text, &mut YamlWork::per_request())
}

/// [`parse_mapping`] charged to `work`, the allowance of a request that parses many documents
/// (a catalog).
pub fn parse_mapping_within(
    text: &str,
    work: &mut YamlWork,
) -> Result<YamlMapping, FrontmatterError> {
    match work.parse(text)? {
        YamlValue::Mapping(mapping) => Ok(mapping),
        _ => Err(FrontmatterError::NotMapping),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The loader without the work bounds, for the tests of its other bounds.
    fn unbounded(text: &str) -> Result<YamlValue, YamlError> {
        load::load(text, usize::MAX).outcome
    }

    fn unbounded_mapping(text: &str) -> Result<YamlMapping, FrontmatterError> {
        match unbounded(text)? {
            YamlValue::Mapping(mapping) => Ok(mapping),
            _ => Err(FrontmatterError::NotMapping),
        }
    }

    /// Flow sequences nested `depth` deep, repeated to about `bytes` bytes under one key: the
    /// costliest shape per byte for the parser (every bracket an event).
    fn nested_flow(depth: usize, bytes: usize) -> String {
        let unit = format!("{}{}, ", "[".repeat(depth), "]".repeat(depth));
        let mut text = String::from("name: x\nnest: [");
        while text.len() + unit.len() + 3 < bytes {
            text.push_str(&unit);
        }
        text.push_str("x]\n");
        text
    }

    #[test]
    fn parse_work_is_bounded_per_document() {
        let big = format!("a: '{}'\n", "y".repeat(MAX_DOCUMENT_BYTES));
        assert_eq!(parse_yaml(&big), Err(YamlError::Work));
        assert!(unbounded(&big).is_ok());
        let just = format!("a: '{}'\n", "y".repeat(MAX_DOCUMENT_BYTES - 6));
        assert_eq!(just.len(), MAX_DOCUMENT_BYTES);
        assert!(parse_yaml(&just).is_ok());
        // Within the byte cap and the depth limit, but far more events than allowed.
        let flow = nested_flow(MAX_DEPTH - 2, MAX_DOCUMENT_BYTES);
        assert!(flow.len() <= MAX_DOCUMENT_BYTES);
        assert!(unbounded(&flow).is_ok());
        assert_eq!(
            parse_mapping(&flow),
            Err(FrontmatterError::InvalidYaml(YamlError::Work))
        );
        // The same shape with fewer events than the cap parses.
        let small = nested_flow(8, 4 * 1024);
        assert!(load::load(&small, usize::MAX).events <= MAX_DOCUMENT_EVENTS);
        assert!(parse_mapping(&small).is_ok());
    }

    #[test]
    fn a_request_allowance_is_shared_by_its_documents() {
        let doc = nested_flow(8, 6 * 1024);
        let events = load::load(&doc, usize::MAX).events;
        assert!(events < MAX_DOCUMENT_EVENTS);
        let fits = REQUEST_EVENTS / events;
        let mut work = YamlWork::per_request();
        for _ in 0..fits {
            assert!(parse_mapping_within(&doc, &mut work).is_ok());
        }
        assert_eq!(
            parse_mapping_within(&doc, &mut work),
            Err(FrontmatterError::InvalidYaml(YamlError::Work))
        );
        // Once spent, even a tiny document is refused.
        assert_eq!(
            parse_mapping_within("a: 1", &mut work),
            Err(FrontmatterError::InvalidYaml(YamlError::Work))
        );
        // Bytes are shared the same way.
        let long = format!("a: '{}'\n", "y".repeat(60 * 1024));
        let mut work = YamlWork::per_request();
        let fits = REQUEST_BYTES / long.len();
        for _ in 0..fits {
            assert!(parse_mapping_within(&long, &mut work).is_ok());
        }
        assert_eq!(
            parse_mapping_within(&long, &mut work),
            Err(FrontmatterError::InvalidYaml(YamlError::Work))
        );
    }

    #[test]
    fn a_memoised_load_answers_and_charges_as_a_fresh_one() {
        // A text no other test parses, so its first parse here is fresh.
        let text = format!("name: memo-{}\nlist: [a, [b, c]]\n", std::process::id());
        let mut first = YamlWork::per_request();
        let fresh = parse_mapping_within(&text, &mut first);
        let hits = memo_hits();
        let mut second = YamlWork::per_request();
        let memoised = parse_mapping_within(&text, &mut second);
        assert!(memo_hits() > hits, "the second parse is a memo hit");
        assert_eq!(fresh, memoised);
        assert_eq!(first, second, "charged the same work");
        assert_eq!(fresh, unbounded_mapping(&text));
        // One changed byte is another text.
        let changed = text.replace("[b, c]", "[b, d]");
        assert_ne!(parse_mapping(&changed), fresh);
        // Near the end of an allowance the memoised cost still decides.
        let events = load::load(&text, usize::MAX).events;
        let mut tight = YamlWork {
            bytes: REQUEST_BYTES,
            events: events - 1,
        };
        assert_eq!(
            parse_mapping_within(&text, &mut tight),
            Err(FrontmatterError::InvalidYaml(YamlError::Work))
        );
    }

    fn split(text: &str) -> Option<(&str, &str)> {
        split_frontmatter(text).map(|f| (f.yaml, f.body))
    }

    #[test]
    fn split_matches_the_reference_expression() {
        assert_eq!(split("---\nid: a\n---\n# T\n"), Some(("id: a", "# T\n")));
        assert_eq!(
            split("---\r\nid: a\r\n---\r\nbody"),
            Some(("id: a", "body"))
        );
        assert_eq!(split("---\nid: a\n---"), Some(("id: a", "")));
        assert_eq!(split("---\n\n---\nbody"), Some(("", "body")));
        // Mixed line ends: the opening may be CRLF while the closing is LF.
        assert_eq!(split("---\r\na: 1\n---\nb"), Some(("a: 1", "b")));
        // Only the first `\n---` with a proper tail closes; `---x` does not.
        assert_eq!(
            split("---\na: 1\n---x\nb: 2\n---\nbody"),
            Some(("a: 1\n---x\nb: 2", "body"))
        );
        // A lone `\r` after the closing dashes is not a line break.
        assert_eq!(split("---\na: 1\n---\rrest"), None);
        // The body keeps everything after the consumed line break.
        assert_eq!(split("---\na: 1\n---\n\n# T"), Some(("a: 1", "\n# T")));
        // An empty capture cannot borrow the opening line's break.
        assert_eq!(split("---\n---\n"), None);
        assert_eq!(split("---\r\n---\r\n"), None);
        // The capture keeps a `\r` that is not directly before the closing `\n`.
        assert_eq!(split("---\na: 1\r\r\n---\n"), Some(("a: 1\r", "")));
    }

    #[test]
    fn split_needs_the_block_at_the_very_start() {
        assert_eq!(
            split("\u{feff}---\na: 1\n---\n"),
            None,
            "a BOM prevents frontmatter"
        );
        assert_eq!(split(" ---\na: 1\n---\n"), None);
        assert_eq!(split("----\na: 1\n---\n"), None);
        assert_eq!(split("---\na: 1\n"), None, "never closed");
        assert_eq!(split("# Title"), None);
        assert_eq!(body_of("# Title"), "# Title");
        assert_eq!(body_of("---\na: 1\n---\nx"), "x");
    }

    #[test]
    fn prefix_split_needs_a_real_line_break_unless_at_end() {
        assert_eq!(split_frontmatter_prefix("---\na: 1\n---", false), None);
        assert_eq!(
            split_frontmatter_prefix("---\na: 1\n---", true).map(|f| f.yaml),
            Some("a: 1")
        );
        assert_eq!(
            split_frontmatter_prefix("---\na: 1\n---\nbo", false).map(|f| f.body),
            Some("bo")
        );
    }

    #[test]
    fn core_schema_scalars() {
        let value = parse_yaml(
            "yes: yes\nno: no\non: off\nid: 123\nneg: -7\nplus: +7\nhex: 0x1F\noct: 0o17\n\
             date: 2026-08-29\ntime: 2026-08-29T10:00:00Z\nt: true\nT: True\nf: FALSE\n\
             n1: null\nn2: ~\nn3:\nfl: 1.5\nexp: 1e3\ninf: .inf\nnan: .nan\nword: inf\n\
             under: 1_000\nquoted: '123'\ndq: \"true\"\ntagged: !!str 42\n",
        )
        .unwrap();
        let m = value.as_mapping().unwrap();
        let s = |text: &str| YamlValue::String(text.to_owned());
        assert_eq!(m.get("yes"), Some(&s("yes")));
        assert_eq!(m.get("no"), Some(&s("no")));
        assert_eq!(m.get("on"), Some(&s("off")));
        assert_eq!(m.get("id"), Some(&YamlValue::Int(123)));
        assert_eq!(m.get("neg"), Some(&YamlValue::Int(-7)));
        assert_eq!(m.get("plus"), Some(&YamlValue::Int(7)));
        assert_eq!(m.get("hex"), Some(&YamlValue::Int(31)));
        assert_eq!(m.get("oct"), Some(&YamlValue::Int(15)));
        assert_eq!(m.get("date"), Some(&s("2026-08-29")));
        assert_eq!(m.get("time"), Some(&s("2026-08-29T10:00:00Z")));
        assert_eq!(m.get("t"), Some(&YamlValue::Bool(true)));
        assert_eq!(m.get("T"), Some(&YamlValue::Bool(true)));
        assert_eq!(m.get("f"), Some(&YamlValue::Bool(false)));
        assert_eq!(m.get("n1"), Some(&YamlValue::Null));
        assert_eq!(m.get("n2"), Some(&YamlValue::Null));
        assert_eq!(m.get("n3"), Some(&YamlValue::Null));
        assert_eq!(m.get("fl"), Some(&YamlValue::Float(1.5)));
        assert_eq!(m.get("exp"), Some(&YamlValue::Float(1000.0)));
        assert_eq!(m.get("inf"), Some(&YamlValue::Float(f64::INFINITY)));
        assert!(matches!(m.get("nan"), Some(YamlValue::Float(x)) if x.is_nan()));
        assert_eq!(m.get("word"), Some(&s("inf")));
        assert_eq!(m.get("under"), Some(&s("1_000")));
        assert_eq!(m.get("quoted"), Some(&s("123")));
        assert_eq!(m.get("dq"), Some(&s("true")));
        assert_eq!(m.get("tagged"), Some(&s("42")));
        assert_eq!(m.get("missing"), None);
        assert!(m.contains_key("n3"));
    }

    #[test]
    fn order_nesting_and_collections() {
        let m = parse_mapping("z: 1\na: [x, 2, {k: v}]\nm:\n  - one\n  - two\n").unwrap();
        let keys: Vec<_> = m.iter().map(|(k, _)| k.as_str().unwrap()).collect();
        assert_eq!(keys, ["z", "a", "m"]);
        assert_eq!(m.len(), 3);
        let YamlValue::Sequence(items) = m.get("a").unwrap() else {
            panic!("a sequence");
        };
        assert_eq!(items[0], YamlValue::String("x".into()));
        assert_eq!(items[1], YamlValue::Int(2));
        assert_eq!(
            items[2].as_mapping().unwrap().get("k").unwrap().as_str(),
            Some("v")
        );
        let anchored = parse_mapping("a: &x [1]\nb: *x\n").unwrap();
        assert_eq!(anchored.get("a"), anchored.get("b"));
        // Block scalars are strings.
        let block = parse_mapping("d: |\n  line one\n  line two\n").unwrap();
        assert_eq!(
            block.get("d").unwrap().as_str(),
            Some("line one\nline two\n")
        );
    }

    #[test]
    fn duplicate_keys_are_errors() {
        assert!(matches!(
            parse_yaml("id: a\nid: b\n"),
            Err(YamlError::DuplicateKey { line: 2, .. })
        ));
        assert!(matches!(
            parse_yaml("id: a\n\"id\": b\n"),
            Err(YamlError::DuplicateKey { .. })
        ));
        assert!(matches!(
            parse_yaml("m:\n  k: 1\n  k: 2\n"),
            Err(YamlError::DuplicateKey { .. })
        ));
        assert!(matches!(
            parse_yaml("{a: 1, a: 2}"),
            Err(YamlError::DuplicateKey { .. })
        ));
        // Equal text in different mappings is fine.
        assert!(parse_yaml("a: {k: 1}\nb: {k: 2}\n").is_ok());
    }

    #[test]
    fn strictness() {
        assert!(matches!(
            parse_yaml("id: [unterminated"),
            Err(YamlError::Syntax { .. })
        ));
        assert!(matches!(
            parse_yaml("a: b: c"),
            Err(YamlError::Syntax { .. })
        ));
        assert!(matches!(
            parse_yaml("a: 'open"),
            Err(YamlError::Syntax { .. })
        ));
        assert!(parse_yaml("a: *nowhere").is_err());
        assert!(parse_yaml("a: !!int abc").is_err());
        assert_eq!(
            parse_yaml("a: 1\n---\nb: 2\n"),
            Err(YamlError::MultipleDocuments)
        );
        assert_eq!(parse_yaml(""), Ok(YamlValue::Null));
        assert_eq!(parse_yaml("# only a comment\n"), Ok(YamlValue::Null));
        assert_eq!(parse_mapping(""), Err(FrontmatterError::NotMapping));
        assert_eq!(
            parse_mapping("- a\n- b\n"),
            Err(FrontmatterError::NotMapping)
        );
        assert_eq!(
            parse_mapping("just text"),
            Err(FrontmatterError::NotMapping)
        );
        assert!(matches!(
            parse_mapping("id: [unterminated"),
            Err(FrontmatterError::InvalidYaml(YamlError::Syntax { .. }))
        ));
        assert_eq!(
            parse_mapping("!thing {a: 1}").unwrap().get("a"),
            Some(&YamlValue::Int(1))
        );
    }

    /// `depth` nested block sequences (`- - - x`) under a key.
    fn nested_blocks(depth: usize) -> String {
        format!("nest:\n{}x\n", "- ".repeat(depth))
    }

    #[test]
    fn nesting_is_bounded_without_recursion() {
        // At the limit: the key's mapping plus MAX_DEPTH - 1 sequences.
        let at_limit = parse_mapping(&nested_blocks(MAX_DEPTH - 1)).unwrap();
        let mut value = at_limit.get("nest").unwrap();
        for _ in 1..MAX_DEPTH - 1 {
            let YamlValue::Sequence(items) = value else {
                panic!("a sequence");
            };
            value = &items[0];
        }
        assert_eq!(
            value,
            &YamlValue::Sequence(vec![YamlValue::String("x".into())])
        );
        assert_eq!(
            parse_mapping(&nested_blocks(MAX_DEPTH)),
            Err(FrontmatterError::InvalidYaml(YamlError::TooDeep))
        );
        // Flow collections count the same way, mappings too.
        let flow = |depth: usize| format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        assert!(parse_yaml(&flow(MAX_DEPTH)).is_ok());
        assert_eq!(parse_yaml(&flow(MAX_DEPTH + 1)), Err(YamlError::TooDeep));
        let maps = |depth: usize| format!("{}1{}", "{a: ".repeat(depth), "}".repeat(depth));
        assert!(parse_yaml(&maps(MAX_DEPTH)).is_ok());
        assert_eq!(parse_yaml(&maps(MAX_DEPTH + 1)), Err(YamlError::TooDeep));
    }

    /// Contract 01 §5.7: ~17,000 levels once overflowed the main thread's stack. Far deeper
    /// input, on a thread with a 256 KiB stack, is now an ordinary error.
    #[test]
    fn deep_nesting_on_a_small_stack_is_an_error_not_a_crash() {
        let handle = std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn(|| {
                let blocks = unbounded_mapping(&nested_blocks(100_000));
                let flow = unbounded(&format!("{}{}", "[{a: ".repeat(100), "}]".repeat(100)));
                let unclosed = unbounded(&"[{a: ".repeat(100_000));
                (blocks, flow, unclosed)
            })
            .unwrap();
        let (blocks, flow, unclosed) = handle.join().expect("no stack overflow");
        assert_eq!(
            blocks,
            Err(FrontmatterError::InvalidYaml(YamlError::TooDeep))
        );
        assert_eq!(flow, Err(YamlError::TooDeep));
        // Past 256 flow levels the scanner, which reads ahead of the events, refuses the text
        // first (a syntax error); either way it is an error, not a crash.
        assert!(
            matches!(unclosed, Err(YamlError::TooDeep | YamlError::Syntax { .. })),
            "{unclosed:?}"
        );
    }

    /// Tens of thousands of distinct keys: linear with the hash check (a few milliseconds);
    /// the pairwise check this replaced needed about 10^9 comparisons here.
    #[test]
    fn many_distinct_keys_parse_and_a_late_duplicate_is_found() {
        const KEYS: usize = 50_000;
        let mut text: String = (0..KEYS).map(|i| format!("k{i}: {i}\n")).collect();
        let mapping = unbounded_mapping(&text).unwrap();
        assert_eq!(mapping.len(), KEYS);
        assert_eq!(mapping.get("k49999"), Some(&YamlValue::Int(49_999)));
        text.push_str("k17: again\n");
        assert_eq!(
            unbounded_mapping(&text),
            Err(FrontmatterError::InvalidYaml(YamlError::DuplicateKey {
                line: KEYS + 1,
                column: 1
            }))
        );
    }

    #[test]
    fn keys_equal_once_converted_are_duplicates() {
        for text in [
            "a:\n! a:\n",
            "a: 1\n!foo a: 2\n",
            "{a: 1, ! a: 2}",
            "1: a\n0x1: b\n",
            ".nan: a\n.NaN: b\n",
            "0.0: a\n-0.0: b\n",
            "? [a, {b: 1}]\n: x\n? !t [a, {b: 1}]\n: y\n",
        ] {
            assert!(
                matches!(parse_yaml(text), Err(YamlError::DuplicateKey { .. })),
                "{text:?}: {:?}",
                parse_yaml(text)
            );
        }
        for text in [
            "1: a\n1.0: b\n",
            "'1': a\n1: b\n",
            "? [a]\n: x\n? [b]\n: y\n",
        ] {
            assert!(parse_yaml(text).is_ok(), "{text:?}");
        }
    }

    #[test]
    fn alias_expansion_is_budgeted() {
        // Nine levels of nine-fold aliasing would be 9^9 nodes.
        let mut bomb = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x]\n");
        for level in 1..9 {
            let previous = format!("*a{}", level - 1);
            let items = [previous.as_str(); 9].join(", ");
            bomb.push_str(&format!("a{level}: &a{level} [{items}]\n"));
        }
        assert_eq!(parse_yaml(&bomb), Err(YamlError::AliasBudget));
        // A long string aliased many times is budgeted by its bytes, not as one node.
        let long = format!(
            "s: &s {}\nt: [{}]\n",
            "y".repeat(60_000),
            vec!["*s"; 2_000].join(", ")
        );
        assert_eq!(unbounded(&long), Err(YamlError::AliasBudget));
        // Ordinary aliasing is fine.
        let ordinary = parse_mapping("base: &b {k: v}\nx: *b\ny: *b\n").unwrap();
        assert_eq!(ordinary.get("x"), ordinary.get("base"));
    }

    /// The loader this replaced (saphyr's recursive loader and a recursive conversion), kept
    /// here only to show the iterative loader gives the same answers on ordinary documents.
    fn reference(text: &str) -> Result<YamlValue, ()> {
        use saphyr::{LoadableYamlNode, Scalar, Yaml};
        fn convert(node: &Yaml<'_>) -> Result<YamlValue, ()> {
            Ok(match node {
                Yaml::Value(Scalar::Null) => YamlValue::Null,
                Yaml::Value(Scalar::Boolean(value)) => YamlValue::Bool(*value),
                Yaml::Value(Scalar::Integer(value)) => YamlValue::Int(*value),
                Yaml::Value(Scalar::FloatingPoint(value)) => YamlValue::Float(value.into_inner()),
                Yaml::Value(Scalar::String(text)) => YamlValue::String(text.to_string()),
                Yaml::Sequence(items) => {
                    YamlValue::Sequence(items.iter().map(convert).collect::<Result<_, _>>()?)
                }
                Yaml::Mapping(mapping) => {
                    let entries: Vec<(YamlValue, YamlValue)> = mapping
                        .iter()
                        .map(|(key, value)| Ok((convert(key)?, convert(value)?)))
                        .collect::<Result<_, ()>>()?;
                    let repeated = entries.iter().enumerate().any(|(index, (key, _))| {
                        entries[..index].iter().any(|(earlier, _)| earlier == key)
                    });
                    if repeated {
                        return Err(());
                    }
                    YamlValue::Mapping(YamlMapping { entries })
                }
                Yaml::Tagged(_, inner) => convert(inner)?,
                _ => return Err(()),
            })
        }
        match Yaml::load_from_str(text).map_err(|_| ())?.as_slice() {
            [] => Ok(YamlValue::Null),
            [document] => convert(document),
            _ => Err(()),
        }
    }

    #[test]
    fn same_answers_as_the_recursive_loader() {
        let seeds = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fuzz/seeds");
        let mut texts: Vec<String> = Vec::new();
        for target in ["frontmatter", "project_readme"] {
            for entry in std::fs::read_dir(format!("{seeds}/{target}")).unwrap() {
                let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
                if let Some(block) = split_frontmatter(&text) {
                    texts.push(block.yaml.to_owned());
                }
                texts.push(text);
            }
        }
        texts.extend(
            [
                "a: &x [1, {b: *x}]\nc: *x\n",
                "!!map {a: !!seq [1, !!str 2], !!str b: !!null ~}",
                "? - a\n  - b\n: c\n",
                "a: |\n  x\n  y\nb: >-\n  z\n   w\n",
                "- ! x\n- !local 12\n- !!float 1\n- !!bool true\n- 0o17\n- +.inf\n",
                "a: \"\\u00e9\\t\"\nb: 'it''s'\n",
                "---\na: 1\n...\n",
                "a: b\n  c: d\n",
                "",
                "# c\n",
                "a:\n  - x\n  -\n  - {y: }\n",
            ]
            .map(str::to_owned),
        );
        for text in &texts {
            let new = unbounded(text);
            match reference(text) {
                // Compared as text: `.nan` is not equal to itself.
                Ok(value) => assert_eq!(
                    format!("{new:?}"),
                    format!("{:?}", Ok::<_, YamlError>(value)),
                    "{text:?}"
                ),
                Err(()) => assert!(new.is_err(), "{text:?}: {new:?}"),
            }
        }
    }
}
