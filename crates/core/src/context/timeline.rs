//! The timeline of contract 02 §7: JSONL rows of the session index, the event log and the signal
//! files, parsed leniently, normalised, ordered, filtered by date window and attribution, and
//! deduplicated across the update channels.
//!
//! Corrupt lines are dropped silently here and nowhere recorded: readers never quarantine
//! (contract 01 §4.9). Every ordering key is computed once per row, never inside a comparator,
//! because collation and the canonical `stableKey` are the expensive parts.

#[cfg(test)]
mod oracle;
mod select;

pub(crate) use self::select::{Selection, SelectionRequest, TimelineTexts, select};

use std::cell::OnceCell;
use std::cmp::Ordering;
use std::rc::Rc;

use serde_json::{Map, Value};

use crate::folder::attribution::Attribution;
use crate::text::{
    LoneSurrogates, collate, js_date_parse, js_string_of, js_trim, js_truthy, push_json_string,
    serde_read, serde_read_with, utf16_cmp,
};

/// Parses one JSONL line as `JSON.parse` would, returning only objects and arrays (JavaScript:
/// truthy values of `typeof "object"`). Lone-surrogate escapes become U+FFFD (contract 02 §16).
pub(crate) fn parse_line(line: &str) -> Option<Value> {
    parse_any(line).filter(|value| value.is_object() || value.is_array())
}

fn parse_any(line: &str) -> Option<Value> {
    // Deeper than the nesting limit is a line Rust does not hold (contract 03 §10.2): skipped.
    serde_read(line, LoneSurrogates::Replace).ok()
}

/// What a cheap first look at one JSONL line found: whether it is an object, and its `ts`
/// member when that is a string (the last one wins, as in `JSON.parse`).
struct TsProbe {
    is_object: bool,
    ts: Option<String>,
}

/// Looks at a line without building its value: the whole text is still checked against the
/// JSON grammar, but only a top-level `ts` is kept. `None` when the line is not JSON.
fn probe_ts(line: &str) -> Option<TsProbe> {
    use serde::de::{Deserializer as _, IgnoredAny, MapAccess, SeqAccess, Visitor};

    struct IsTs(bool);
    impl<'de> serde::de::Deserialize<'de> for IsTs {
        fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<IsTs, D::Error> {
            struct Name;
            impl Visitor<'_> for Name {
                type Value = IsTs;
                fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                    f.write_str("a member name")
                }
                fn visit_str<E>(self, name: &str) -> Result<IsTs, E> {
                    Ok(IsTs(name == "ts"))
                }
            }
            deserializer.deserialize_str(Name)
        }
    }

    struct Top;
    impl<'de> Visitor<'de> for Top {
        type Value = TsProbe;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a JSON value")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<TsProbe, A::Error> {
            let mut ts = None;
            while let Some(IsTs(is_ts)) = map.next_key::<IsTs>()? {
                if is_ts {
                    ts = match map.next_value::<Value>()? {
                        Value::String(text) => Some(text),
                        _ => None,
                    };
                } else {
                    map.next_value::<IgnoredAny>()?;
                }
            }
            Ok(TsProbe {
                is_object: true,
                ts,
            })
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<TsProbe, A::Error> {
            while seq.next_element::<IgnoredAny>()?.is_some() {}
            Ok(TsProbe {
                is_object: false,
                ts: None,
            })
        }
        fn visit_bool<E>(self, _: bool) -> Result<TsProbe, E> {
            Ok(TsProbe {
                is_object: false,
                ts: None,
            })
        }
        fn visit_i64<E>(self, _: i64) -> Result<TsProbe, E> {
            Ok(TsProbe {
                is_object: false,
                ts: None,
            })
        }
        fn visit_u64<E>(self, _: u64) -> Result<TsProbe, E> {
            Ok(TsProbe {
                is_object: false,
                ts: None,
            })
        }
        fn visit_f64<E>(self, _: f64) -> Result<TsProbe, E> {
            Ok(TsProbe {
                is_object: false,
                ts: None,
            })
        }
        fn visit_str<E>(self, _: &str) -> Result<TsProbe, E> {
            Ok(TsProbe {
                is_object: false,
                ts: None,
            })
        }
        fn visit_unit<E>(self) -> Result<TsProbe, E> {
            Ok(TsProbe {
                is_object: false,
                ts: None,
            })
        }
    }

    serde_read_with(line, LoneSurrogates::Replace, |deserializer| {
        deserializer.deserialize_any(Top)
    })
    .ok()
}

/// `text.split(/\r?\n/)`, keeping the 1-based physical line number.
fn crlf_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.split('\n').enumerate().map(|(index, line)| {
        // A trailing `\r` before a `\n` belongs to the separator; on the last piece (no `\n`
        // follows) it is JSON whitespace, so stripping it there changes nothing either.
        (index + 1, line.strip_suffix('\r').unwrap_or(line))
    })
}

/// The parsed rows of `memory/sessions/index.jsonl` (contract 02 §7.1): objects and arrays, as is,
/// one at a time.
pub(crate) fn session_rows(text: &str) -> impl Iterator<Item = Value> + '_ {
    crlf_lines(text)
        .filter(|(_, line)| !js_trim(line).is_empty())
        .filter_map(|(_, line)| parse_line(line))
}

/// One signal or event as read (contract 02 §7.1–§7.2). Normalisation is kept virtual: the row's
/// own members stay in `value`, and the members §7.2 sets (`date`, `timestamp`, `sourcePath`,
/// `sourceLine`) are derived from `ts`, the fallback date and the source. Only the tie-breaking
/// `stableKey` ever needs the merged object ([`push_normalised_key`]), so tens of thousands of
/// rows outside the date window are never rebuilt.
#[derive(Debug, Clone)]
pub(crate) struct TimelineRow {
    /// The parsed object or array.
    value: Value,
    /// The file's date (signals) or `None` (events).
    fallback_date: Option<Rc<str>>,
    /// `memory/events.jsonl` or `memory/signals/<name>`.
    source_path: Rc<str>,
    /// The physical line (events) or the ordinal of the parsed value (signals).
    source_line: usize,
}

impl TimelineRow {
    /// `ts` when it is a string, else `""`.
    fn ts(&self) -> &str {
        match self.value.get("ts") {
            Some(Value::String(ts)) => ts,
            _ => "",
        }
    }

    /// The normalised `date`: the first 10 units of `ts`, or the fallback date (`None` is
    /// JavaScript's `null`).
    fn date(&self) -> Option<String> {
        let prefix = utf16_prefix_units(self.ts(), 10);
        if prefix.is_empty() {
            self.fallback_date.as_deref().map(str::to_owned)
        } else {
            Some(prefix)
        }
    }

    /// The normalised `timestamp`: `ts`, or `<fallback date or "">T00:00:00`.
    fn timestamp(&self) -> String {
        match self.ts() {
            "" => format!("{}T00:00:00", self.fallback_date.as_deref().unwrap_or("")),
            ts => ts.to_owned(),
        }
    }
}

/// The rows of `memory/events.jsonl` dated `today` or `yesterday` (contract 02 §7.1): split on
/// `\r?\n`, blank lines skipped, objects and arrays kept, `sourceLine` the physical line; no
/// fallback date.
///
/// An event has no fallback date, so a row whose `ts` does not start with a date of the window
/// can never be shown; such rows are recognised by [`probe_ts`] and never built. The log is
/// append-only and can hold years of rows; the window holds two days.
pub(crate) fn event_rows<'a>(
    text: &'a str,
    today: &'a str,
    yesterday: &'a str,
) -> impl Iterator<Item = TimelineRow> + 'a {
    let source: Rc<str> = Rc::from("memory/events.jsonl");
    let in_window = move |line: &str| match probe_ts(line) {
        // An array has no `ts`, so its date is `null`; scalars are not rows at all.
        Some(TsProbe {
            is_object: false,
            ts: _,
        }) => false,
        Some(TsProbe {
            is_object: true,
            ts,
        }) => {
            let date = utf16_prefix_units(ts.as_deref().unwrap_or(""), 10);
            date == today || date == yesterday
        }
        // Not JSON: the full parse below refuses it as well.
        None => false,
    };
    crlf_lines(text)
        .filter(|(_, line)| !js_trim(line).is_empty())
        .filter(move |(_, line)| in_window(line))
        .filter_map(|(number, line)| Some((number, parse_line(line)?)))
        .map(move |(number, value)| TimelineRow {
            value,
            fallback_date: None,
            source_path: Rc::clone(&source),
            source_line: number,
        })
}

/// The rows of one signal file named `name` whose date is `file_date` (contract 02 §7.1 steps
/// 4–5): split on `\n` only; `sourceLine` counts parsed values; a parsed value that is not an
/// object or array becomes an empty object.
pub(crate) fn signal_rows<'a>(
    text: &'a str,
    name: &str,
    file_date: &str,
) -> impl Iterator<Item = TimelineRow> + 'a {
    let source: Rc<str> = Rc::from(format!("memory/signals/{name}"));
    let fallback: Rc<str> = Rc::from(file_date);
    text.split('\n')
        .filter(|line| !js_trim(line).is_empty())
        .filter_map(parse_any)
        .enumerate()
        .map(move |(index, value)| TimelineRow {
            value: if value.is_object() || value.is_array() {
                value
            } else {
                Value::Object(Map::new())
            },
            fallback_date: Some(Rc::clone(&fallback)),
            source_path: Rc::clone(&source),
            source_line: index + 1,
        })
}

/// Writes `stableKey` of the normalised entry of contract 02 §7.2 (the row's own members, an
/// array's indices as names, with `date`, `timestamp`, `sourcePath` and `sourceLine` set over
/// them) without building that entry.
fn push_normalised_key(out: &mut String, row: &TimelineRow) {
    const SET: [&str; 4] = ["date", "timestamp", "sourcePath", "sourceLine"];
    enum Member<'a> {
        Own(&'a Value),
        Set(&'static str),
    }
    let mut members: Vec<(std::borrow::Cow<'_, str>, Member<'_>)> = match &row.value {
        Value::Object(map) => map
            .iter()
            .filter(|(name, _)| !SET.contains(&name.as_str()))
            .map(|(name, value)| {
                (
                    std::borrow::Cow::Borrowed(name.as_str()),
                    Member::Own(value),
                )
            })
            .collect(),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .map(|(index, value)| {
                (
                    std::borrow::Cow::Owned(index.to_string()),
                    Member::Own(value),
                )
            })
            .collect(),
        _ => Vec::new(),
    };
    members.extend(SET.map(|name| (std::borrow::Cow::Borrowed(name), Member::Set(name))));
    members.sort_by(|a, b| utf16_cmp(&a.0, &b.0));
    out.push('{');
    for (index, (name, member)) in members.iter().enumerate() {
        if index > 0 {
            out.push(',');
        }
        push_json_string(out, name);
        out.push(':');
        match member {
            Member::Own(value) => push_stable_key(out, value),
            Member::Set("date") => match row.date() {
                Some(date) => push_json_string(out, &date),
                None => out.push_str("null"),
            },
            Member::Set("timestamp") => push_json_string(out, &row.timestamp()),
            Member::Set("sourcePath") => push_json_string(out, &row.source_path),
            Member::Set(_) => out.push_str(&row.source_line.to_string()),
        }
    }
    out.push('}');
}

/// The first `units` UTF-16 units of `text` as JavaScript's `slice` takes them. When the cut
/// falls inside a surrogate pair the lone half cannot live in a `String`; it becomes U+FFFD,
/// which can never equal a calendar date, so such a row still leaves the date window exactly as
/// in the reference.
fn utf16_prefix_units(text: &str, units: usize) -> String {
    let prefix: Vec<u16> = text.encode_utf16().take(units).collect();
    String::from_utf16_lossy(&prefix)
}

/// `stableKey(v)` (contract 02 §7.3): a canonical text used only to break ties.
pub(crate) fn stable_key(value: &Value) -> String {
    let mut out = String::new();
    push_stable_key(&mut out, value);
    out
}

fn push_stable_key(out: &mut String, value: &Value) {
    match value {
        Value::Array(items) => {
            out.push('[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                push_stable_key(out, item);
            }
            out.push(']');
        }
        Value::Object(map) => push_object_key(out, map),
        Value::String(text) => push_json_string(out, text),
        // `JSON.stringify` of a number is its JavaScript text, the same as `String()`.
        Value::Null | Value::Bool(_) | Value::Number(_) => out.push_str(&js_string_of(value)),
    }
}

fn push_object_key(out: &mut String, map: &Map<String, Value>) {
    let mut names: Vec<&String> = map.keys().collect();
    names.sort_by(|a, b| utf16_cmp(a, b));
    out.push('{');
    for (index, name) in names.into_iter().enumerate() {
        if index > 0 {
            out.push(',');
        }
        push_json_string(out, name);
        out.push(':');
        push_stable_key(out, &map[name.as_str()]);
    }
    out.push('}');
}

/// `String(value || "")` for an optional member.
pub(crate) fn string_or_empty(value: Option<&Value>) -> String {
    match value {
        Some(value) if js_truthy(value) => js_string_of(value),
        _ => String::new(),
    }
}

/// The row as a member lookup: an array row has no named members.
fn member<'a>(row: &'a Value, name: &str) -> Option<&'a Value> {
    row.as_object().and_then(|map| map.get(name))
}

/// A session row that attribution admitted, with its ordering keys.
#[derive(Debug, Clone)]
pub(crate) struct Session {
    /// The row as parsed.
    pub(crate) row: Value,
    /// `String(captured_at || "")`.
    pub(crate) captured_at: String,
    /// Shown with ` (unscoped)`.
    pub(crate) unscoped: bool,
    /// `Date.parse(captured_at)`, or 0.
    score: f64,
    /// `stableKey(row)`, computed when a tie first needs it.
    key: OnceCell<String>,
    /// The row's position in the index, which a stable sort keeps for ties.
    position: usize,
}

impl Session {
    fn stable_key(&self) -> &str {
        self.key.get_or_init(|| stable_key(&self.row))
    }
}

/// The session order of contract 02 §7.3 (`Date.parse(captured_at)` descending, then `captured_at`
/// descending and `stableKey` ascending in collation order), completed by the index position as
/// a stable sort completes it.
fn session_order(left: &Session, right: &Session) -> Ordering {
    right
        .score
        .partial_cmp(&left.score)
        .unwrap_or(Ordering::Equal)
        .then_with(|| collate(&right.captured_at, &left.captured_at))
        .then_with(|| collate(left.stable_key(), right.stable_key()))
        .then_with(|| left.position.cmp(&right.position))
}

/// The session rows attribution keeps (contract 02 §7.3), in index order, one at a time.
/// Filtering before ordering selects the same rows in the same order as ordering first: the
/// filter does not look at the order.
pub(crate) fn admit_sessions<'a>(
    rows: impl IntoIterator<Item = Value> + 'a,
    time_zone: &'a jiff::tz::TimeZone,
    admit: impl Fn(&Value) -> Attribution + 'a,
) -> impl Iterator<Item = Session> + 'a {
    rows.into_iter()
        .enumerate()
        .filter_map(move |(position, row)| {
            let unscoped = match admit(&row) {
                Attribution::Exclude => return None,
                Attribution::Keep => false,
                Attribution::KeepUnscoped => true,
            };
            let captured_at = string_or_empty(member(&row, "captured_at"));
            Some(Session {
                score: js_date_parse(&captured_at, time_zone).unwrap_or(0.0),
                key: OnceCell::new(),
                row,
                captured_at,
                unscoped,
                position,
            })
        })
}

#[cfg(test)]
impl Session {
    /// A session for renderer tests.
    pub(crate) fn for_test(row: Value, unscoped: bool) -> Session {
        Session {
            captured_at: string_or_empty(member(&row, "captured_at")),
            row,
            unscoped,
            score: 0.0,
            key: OnceCell::new(),
            position: 0,
        }
    }
}

/// The first `count` items of `items` sorted by `order`, which must be a total order (every
/// order here ends with the item's original position, as a stable sort would). Only the shown
/// items are sorted: the event log can hold tens of thousands of rows in the date window.
fn first_in_order<T>(
    mut items: Vec<T>,
    count: usize,
    order: impl Fn(&T, &T) -> Ordering,
) -> Vec<T> {
    if count == 0 {
        return Vec::new();
    }
    if count < items.len() {
        items.select_nth_unstable_by(count - 1, &order);
        items.truncate(count);
    }
    items.sort_by(&order);
    items
}

/// A signal or event that passed the filters of contract 02 §7.3.
#[derive(Debug, Clone)]
pub(crate) struct TimelineEntry {
    /// The row as read.
    row: TimelineRow,
    /// Its `date` (today or yesterday).
    pub(crate) date: String,
    /// The timeline summary: `String(summary || note || type || "")`, JS-trimmed, non-empty.
    pub(crate) summary: String,
    /// Shown with ` (unscoped)`.
    pub(crate) unscoped: bool,
    /// `String(timestamp || "")`.
    timestamp: String,
    /// `stableKey(entry)`, computed when a tie first needs it.
    key: OnceCell<String>,
    /// The row's position in its stream, which a stable sort keeps for ties.
    position: usize,
}

impl TimelineEntry {
    fn stable_key(&self) -> &str {
        self.key.get_or_init(|| {
            let mut out = String::new();
            push_normalised_key(&mut out, &self.row);
            out
        })
    }
}

/// The timeline order of contract 02 §7.3: `timestamp` descending, then `stableKey` ascending,
/// both in collation order, then the stream position.
fn timeline_order(left: &TimelineEntry, right: &TimelineEntry) -> Ordering {
    collate(&right.timestamp, &left.timestamp)
        .then_with(|| collate(left.stable_key(), right.stable_key()))
        .then_with(|| left.position.cmp(&right.position))
}

#[cfg(test)]
impl TimelineEntry {
    /// An entry for renderer tests.
    pub(crate) fn for_test(date: &str, summary: &str, unscoped: bool) -> TimelineEntry {
        TimelineEntry {
            row: TimelineRow {
                value: Value::Object(Map::new()),
                fallback_date: None,
                source_path: Rc::from(""),
                source_line: 0,
            },
            date: date.to_owned(),
            summary: summary.to_owned(),
            unscoped,
            timestamp: String::new(),
            key: OnceCell::new(),
            position: 0,
        }
    }
}

/// The timeline summary of contract 02 §7.3 step 3.
fn timeline_summary(entry: &Value) -> String {
    let chosen = ["summary", "note", "type"]
        .into_iter()
        .filter_map(|name| entry.get(name))
        .find(|value| js_truthy(value));
    js_trim(&string_or_empty(chosen)).to_owned()
}

/// Keeps the entries of one stream dated `today` or `yesterday`, admitted by attribution, with
/// a non-empty summary (contract 02 §7.3 steps 1–4), in stream order, one at a time; the
/// selection orders them. Filtering first keeps the same entries in the same order as ordering
/// first.
pub(crate) fn admit_timeline<'a>(
    rows: impl IntoIterator<Item = TimelineRow> + 'a,
    today: &'a str,
    yesterday: &'a str,
    admit: impl Fn(&Value) -> Attribution + 'a,
) -> impl Iterator<Item = TimelineEntry> + 'a {
    rows.into_iter()
        .enumerate()
        .filter_map(move |(position, row)| {
            let date = row
                .date()
                .filter(|date| date == today || date == yesterday)?;
            // The members set by normalisation are never `project`, `project_id`, `summary`,
            // `note` or `type`, so the row's own value answers attribution and the summary.
            let unscoped = match admit(&row.value) {
                Attribution::Exclude => return None,
                Attribution::Keep => false,
                Attribution::KeepUnscoped => true,
            };
            let summary = timeline_summary(&row.value);
            if summary.is_empty() {
                return None;
            }
            Some(TimelineEntry {
                timestamp: row.timestamp(),
                key: OnceCell::new(),
                row,
                date,
                summary,
                unscoped,
                position,
            })
        })
}

/// `timelineKey(e)` of the update-channel dedupe (contract 02 §7.4): `[type, source, project || "",
/// project_id || "", summary].join("\n")`, where `join` writes `null` and missing as empty.
fn channel_key(entry: &TimelineEntry) -> String {
    let joined = |value: Option<&Value>| match value {
        None | Some(Value::Null) => String::new(),
        Some(value) => js_string_of(value),
    };
    [
        joined(entry.row.value.get("type")),
        joined(entry.row.value.get("source")),
        string_or_empty(entry.row.value.get("project")),
        string_or_empty(entry.row.value.get("project_id")),
        entry.summary.clone(),
    ]
    .join("\n")
}

/// Whether the entry is an update written through the `dotaios update` channel.
fn is_update_channel(entry: &TimelineEntry) -> bool {
    entry.row.value.get("type").and_then(Value::as_str) == Some("update")
        && entry.row.value.get("source").and_then(Value::as_str) == Some("dotaios update")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn keep_all(_: &Value) -> Attribution {
        Attribution::Keep
    }

    fn utc() -> jiff::tz::TimeZone {
        jiff::tz::TimeZone::UTC
    }

    #[test]
    fn parse_accepts_objects_and_arrays_only() {
        assert_eq!(parse_line("{\"a\":1}\r"), Some(json!({"a": 1})));
        assert_eq!(parse_line(" [1] "), Some(json!([1])));
        assert_eq!(parse_line("1"), None);
        assert_eq!(parse_line("null"), None);
        assert_eq!(parse_line("\"x\""), None);
        assert_eq!(parse_line("not-json"), None);
        assert_eq!(parse_line("{\"a\":1,}"), None);
        assert_eq!(
            parse_line("{\"s\":\"\\ud800\"}"),
            Some(json!({"s": "\u{fffd}"}))
        );
        // Duplicate names: the last value wins at the first position.
        let dup = parse_line("{\"a\":1,\"b\":2,\"a\":3}").unwrap_or_default();
        assert_eq!(
            serde_json::to_string(&dup).unwrap_or_default(),
            "{\"a\":3,\"b\":2}"
        );
    }

    fn event(value: Value) -> TimelineRow {
        TimelineRow {
            value,
            fallback_date: None,
            source_path: Rc::from("memory/events.jsonl"),
            source_line: 1,
        }
    }

    /// The normalised entry of contract 02 §7.2, built explicitly.
    fn normalised(row: &TimelineRow) -> Value {
        let mut entry = match &row.value {
            Value::Object(map) => map.clone(),
            Value::Array(items) => items
                .iter()
                .enumerate()
                .map(|(index, item)| (index.to_string(), item.clone()))
                .collect(),
            _ => Map::new(),
        };
        entry.insert("date".into(), row.date().map_or(Value::Null, Value::String));
        entry.insert("timestamp".into(), Value::String(row.timestamp()));
        entry.insert(
            "sourcePath".into(),
            Value::String(row.source_path.to_string()),
        );
        entry.insert("sourceLine".into(), Value::from(row.source_line));
        Value::Object(entry)
    }

    #[test]
    fn events_keep_physical_line_numbers_and_only_the_window() {
        let text = [
            "{\"ts\":\"2026-08-29T07:00:00.000Z\",\"summary\":\"a\"}\r",
            "\r",
            "not-json",
            "[\"x\"]",
            "5",
            "{\"ts\":7}",
            "{\"ts\":\"2026-08-26T07:00:00.000Z\"}",
            "{\"ts\":\"2026-08-28T23:00:00.000Z\",\"ts\":\"2026-08-20\"}",
            "{\"t\\u0073\":\"2026-08-28T23:00:00.000Z\"}",
        ]
        .join("\n");
        let events: Vec<TimelineRow> = event_rows(&text, "2026-08-29", "2026-08-28").collect();
        let lines: Vec<usize> = events.iter().map(|row| row.source_line).collect();
        assert_eq!(lines, vec![1, 9]);
        assert_eq!(events[0].date().as_deref(), Some("2026-08-29"));
        assert_eq!(&*events[0].source_path, "memory/events.jsonl");
        assert_eq!(events[1].timestamp(), "2026-08-28T23:00:00.000Z");
    }

    #[test]
    fn probes_agree_with_json_parse() {
        let probe = |line: &str| probe_ts(line).map(|p| (p.is_object, p.ts));
        assert_eq!(
            probe("{\"ts\":\"a\",\"ts\":\"b\"}"),
            Some((true, Some("b".into())))
        );
        assert_eq!(probe("{\"ts\":\"a\",\"ts\":1}"), Some((true, None)));
        assert_eq!(probe("{\"x\":{\"ts\":\"inner\"}}"), Some((true, None)));
        assert_eq!(probe("[{\"ts\":\"a\"}]"), Some((false, None)));
        assert_eq!(probe(" 5 "), Some((false, None)));
        assert_eq!(
            probe("{\"ts\":\"\\ud800x\"}"),
            Some((true, Some("\u{fffd}x".into())))
        );
        for bad in [
            "{",
            "{\"a\":1,}",
            "{\"a\":\"\u{1}\"}",
            "{} x",
            "{\"a\":tru}",
            "not-json",
        ] {
            assert!(probe(bad).is_none(), "{bad}");
            assert!(parse_any(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn signals_count_parsed_values_and_fall_back_to_the_file_date() {
        let text = "{\"summary\":\"No timestamp\"}\r\nbad\n\n7\n{\"ts\":\"2026-08-29T01:00:00Z\",\"date\":\"x\"}";
        let signals: Vec<TimelineRow> =
            signal_rows(text, "laptop-2026-08-28.jsonl", "2026-08-28").collect();
        assert_eq!(signals.len(), 3);
        assert_eq!(signals[0].date().as_deref(), Some("2026-08-28"));
        assert_eq!(signals[0].timestamp(), "2026-08-28T00:00:00");
        assert_eq!(
            &*signals[0].source_path,
            "memory/signals/laptop-2026-08-28.jsonl"
        );
        assert_eq!(signals[1].source_line, 2);
        assert_eq!(
            signals[1].value,
            json!({}),
            "a scalar becomes an empty object"
        );
        assert_eq!(signals[2].source_line, 3);
        assert_eq!(signals[2].date().as_deref(), Some("2026-08-29"));
        assert_eq!(
            normalised(&signals[2])["date"],
            json!("2026-08-29"),
            "the row's own date is overwritten"
        );
    }

    #[test]
    fn virtual_normalisation_keys_like_the_built_entry() {
        let rows = [
            event(
                json!({"ts": "2026-08-29T07:00:00Z", "date": "x", "b": [1, {"z": 2}], "sourceLine": 9}),
            ),
            event(json!(["a", 2, null])),
            event(json!({})),
            TimelineRow {
                value: json!({"ts": 5, "timestamp": "mine", "é": "e", "\u{FF5E}": 1, "😀": 2}),
                fallback_date: Some(Rc::from("2026-08-28")),
                source_path: Rc::from("memory/signals/2026-08-28.jsonl"),
                source_line: 3,
            },
        ];
        for row in &rows {
            let mut virtual_key = String::new();
            push_normalised_key(&mut virtual_key, row);
            assert_eq!(virtual_key, stable_key(&normalised(row)));
        }
    }

    #[test]
    fn stable_key_is_canonical() {
        let value = json!({"b": [1, 2.5, null, true], "a": "x\"y", "é": {"z": 1e21, "y": -0.0}});
        assert_eq!(
            stable_key(&value),
            "{\"a\":\"x\\\"y\",\"b\":[1,2.5,null,true],\"é\":{\"y\":0,\"z\":1e+21}}"
        );
        // UTF-16 order of names: a supplementary character sorts before U+FF5E.
        let value = json!({"\u{FF5E}": 1, "😀": 2});
        assert_eq!(stable_key(&value), "{\"😀\":2,\"\u{FF5E}\":1}");
    }

    #[test]
    fn sessions_order_by_time_then_text_then_key() {
        let rows = vec![
            json!({"id": "bad-date", "captured_at": "yesterday"}),
            json!({"id": "b", "captured_at": "2026-08-29T09:00:00.000Z"}),
            json!({"id": "a", "captured_at": "2026-08-29T09:00:00.000Z"}),
            json!({"id": "offset", "captured_at": "2026-08-29T11:00:00.000+02:00"}),
            json!({"id": "none"}),
            json!(["array row"]),
        ];
        let ordered = first_in_order(
            admit_sessions(rows, &utc(), keep_all).collect(),
            usize::MAX,
            session_order,
        );
        let ids: Vec<String> = ordered
            .iter()
            .map(|s| string_or_empty(member(&s.row, "id")))
            .collect();
        // 11:00+02:00 is 09:00Z: same score as a and b, and "2026-08-29T11…" sorts first
        // (descending text). Unparseable dates score 0; among those, "yesterday" > "".
        assert_eq!(ids, vec!["offset", "a", "b", "bad-date", "", "none"]);
    }

    #[test]
    fn timeline_filters_window_attribution_and_summary() {
        let entries: Vec<TimelineRow> = vec![
            json!({"ts": "2026-08-29T07:00:00.000Z", "type": "update"}),
            json!({"ts": "2026-08-29T09:30:00.000Z", "summary": "late"}),
            json!({"ts": "2026-08-26T09:00:00.000Z", "summary": "old"}),
            json!({"ts": "2026-08-28T18:00:00.000Z", "summary": "  ", "note": "n"}),
            json!({"ts": "2026-08-28T18:00:00.000Z", "summary": 0, "note": false, "type": ""}),
            json!({"ts": "2026-08-28T19:00:00.000Z", "summary": {"x": 1}}),
            json!({"ts": "2026-08-28T20:00:00.000Z", "summary": "other", "project": "x"}),
        ]
        .into_iter()
        .map(event)
        .collect();
        let admit = |row: &Value| {
            if row.get("project").is_some() {
                Attribution::Exclude
            } else {
                Attribution::Keep
            }
        };
        let kept = first_in_order(
            admit_timeline(entries, "2026-08-29", "2026-08-28", admit).collect(),
            usize::MAX,
            timeline_order,
        );
        let summaries: Vec<&str> = kept.iter().map(|e| e.summary.as_str()).collect();
        // "  " is truthy, so the summary is the blank string and the row is dropped.
        assert_eq!(summaries, vec!["late", "update", "[object Object]"]);
    }

    #[test]
    fn update_channel_dedupe_drops_only_signal_copies() {
        let make = |v: Value| TimelineEntry {
            summary: timeline_summary(&v),
            row: event(v),
            ..TimelineEntry::for_test("2026-08-29", "", false)
        };
        let update = json!({"type": "update", "source": "dotaios update", "summary": "Decided"});
        let events = vec![make(update.clone())];
        let signals = vec![
            make(update),
            make(json!({"type": "update", "source": "dotaios update", "summary": "Other"})),
            make(json!({"type": "update", "source": "elsewhere", "summary": "Decided"})),
            make(
                json!({"type": "update", "source": "dotaios update", "summary": "Decided", "project": "p"}),
            ),
        ];
        let kept = oracle::dedupe_update_channels(signals, &events);
        assert_eq!(kept.len(), 3);
        assert_eq!(kept[0].summary, "Other");
    }

    #[test]
    fn inference_prefers_latest_then_count_then_name() {
        let session = |project: Value, at: &str| {
            Session::for_test(json!({"project": project, "captured_at": at}), false)
        };
        let sessions = vec![
            session(json!("b"), "2026-08-28"),
            session(json!("a"), "2026-08-28"),
            session(json!("a"), "2026-08-01"),
            session(json!(7), "2026-08-30"),
            session(json!(""), "2026-08-30"),
        ];
        assert_eq!(
            oracle::infer_active_project(&sessions).as_deref(),
            Some("a")
        );
        let tied = vec![session(json!("b"), "x"), session(json!("a"), "x")];
        assert_eq!(oracle::infer_active_project(&tied).as_deref(), Some("a"));
        assert_eq!(oracle::infer_active_project(&[]), None);
    }

    proptest::proptest! {
        /// Selecting the first `count` equals taking the first `count` of a stable full sort.
        #[test]
        fn selection_equals_a_stable_sort_prefix(
            keys in proptest::collection::vec(0_u8..6, 0..40),
            count in 0_usize..45,
        ) {
            let items: Vec<(u8, usize)> = keys.iter().copied().zip(0..).collect();
            let mut sorted = items.clone();
            sorted.sort_by_key(|(key, _)| *key);
            sorted.truncate(count);
            let order = |a: &(u8, usize), b: &(u8, usize)| a.0.cmp(&b.0).then(a.1.cmp(&b.1));
            proptest::prop_assert_eq!(first_in_order(items, count, order), sorted);
        }
    }
}
