//! The timeline of spec 02 §7: JSONL rows of the session index, the event log and the signal
//! files, parsed leniently, normalised, ordered, filtered by date window and attribution, and
//! deduplicated across the update channels.
//!
//! Corrupt lines are dropped silently here and nowhere recorded: readers never quarantine
//! (spec 01 §4.9). Every ordering key is computed once per row, never inside a comparator,
//! because collation and the canonical `stableKey` are the expensive parts.

use std::cmp::Ordering;

use serde_json::{Map, Value};

use super::date::date_parse_ms;
use crate::folder::attribution::Attribution;
use crate::text::{
    collate, js_string_of, js_trim, js_truthy, push_json_string, replace_lone_surrogate_escapes,
    utf16_cmp,
};

/// Parses one JSONL line as `JSON.parse` would, returning only objects and arrays (JavaScript:
/// truthy values of `typeof "object"`). Lone-surrogate escapes become U+FFFD (spec 02 §16).
pub(crate) fn parse_line(line: &str) -> Option<Value> {
    parse_any(line).filter(|value| value.is_object() || value.is_array())
}

fn parse_any(line: &str) -> Option<Value> {
    serde_json::from_str(&replace_lone_surrogate_escapes(line)).ok()
}

/// `text.split(/\r?\n/)`, keeping the 1-based physical line number.
fn crlf_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.split('\n').enumerate().map(|(index, line)| {
        // A trailing `\r` before a `\n` belongs to the separator; on the last piece (no `\n`
        // follows) it is JSON whitespace, so stripping it there changes nothing either.
        (index + 1, line.strip_suffix('\r').unwrap_or(line))
    })
}

/// The parsed rows of `memory/sessions/index.jsonl` (spec 02 §7.1): objects and arrays, as is.
pub(crate) fn read_sessions(text: &str) -> Vec<Value> {
    crlf_lines(text)
        .filter(|(_, line)| !js_trim(line).is_empty())
        .filter_map(|(_, line)| parse_line(line))
        .collect()
}

/// The normalised rows of `memory/events.jsonl` (spec 02 §7.1–§7.2); no fallback date.
pub(crate) fn read_events(text: &str) -> Vec<Value> {
    const SOURCE: &str = "memory/events.jsonl";
    crlf_lines(text)
        .filter(|(_, line)| !js_trim(line).is_empty())
        .filter_map(|(number, line)| Some((number, parse_line(line)?)))
        .map(|(number, value)| normalise(&value, None, SOURCE, number))
        .collect()
}

/// The normalised rows of one signal file named `name` whose date is `file_date` (spec 02
/// §7.1 step 4–5): split on `\n` only; `sourceLine` counts parsed values; a parsed value that
/// is not an object or array becomes an empty object.
pub(crate) fn read_signal_file(text: &str, name: &str, file_date: &str) -> Vec<Value> {
    let source = format!("memory/signals/{name}");
    text.split('\n')
        .filter(|line| !js_trim(line).is_empty())
        .filter_map(parse_any)
        .enumerate()
        .map(|(index, value)| {
            let value = if value.is_object() || value.is_array() {
                value
            } else {
                Value::Object(Map::new())
            };
            normalise(&value, Some(file_date), &source, index + 1)
        })
        .collect()
}

/// Spec 02 §7.2: the row's own members (an array's indices as names), then `date`,
/// `timestamp`, `sourcePath` and `sourceLine`. `ts` itself is left as it was.
fn normalise(
    value: &Value,
    fallback_date: Option<&str>,
    source_path: &str,
    source_line: usize,
) -> Value {
    let mut entry = match value {
        Value::Object(map) => map.clone(),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .map(|(index, item)| (index.to_string(), item.clone()))
            .collect(),
        _ => Map::new(),
    };
    let ts = match entry.get("ts") {
        Some(Value::String(ts)) => ts.clone(),
        _ => String::new(),
    };
    let prefix = utf16_prefix_units(&ts, 10);
    let date = if prefix.is_empty() {
        fallback_date.map_or(Value::Null, |date| Value::String(date.to_owned()))
    } else {
        Value::String(prefix)
    };
    let timestamp = if ts.is_empty() {
        format!("{}T00:00:00", fallback_date.unwrap_or(""))
    } else {
        ts
    };
    entry.insert("date".to_owned(), date);
    entry.insert("timestamp".to_owned(), Value::String(timestamp));
    entry.insert(
        "sourcePath".to_owned(),
        Value::String(source_path.to_owned()),
    );
    entry.insert("sourceLine".to_owned(), Value::from(source_line));
    Value::Object(entry)
}

/// The first `units` UTF-16 units of `text` as JavaScript's `slice` takes them. When the cut
/// falls inside a surrogate pair the lone half cannot live in a `String`; it becomes U+FFFD,
/// which can never equal a calendar date, so such a row still leaves the date window exactly as
/// in the reference.
fn utf16_prefix_units(text: &str, units: usize) -> String {
    let prefix: Vec<u16> = text.encode_utf16().take(units).collect();
    String::from_utf16_lossy(&prefix)
}

/// `stableKey(v)` (spec 02 §7.3): a canonical text used only to break ties.
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

/// A session row with its ordering keys and attribution decision.
#[derive(Debug, Clone)]
pub(crate) struct Session {
    /// The row as parsed.
    pub(crate) row: Value,
    /// `String(captured_at || "")`.
    pub(crate) captured_at: String,
    /// Shown with ` (unscoped)`.
    pub(crate) unscoped: bool,
}

/// Orders session rows (spec 02 §7.3: `Date.parse(captured_at)` descending, then
/// `captured_at` descending in collation order, then `stableKey` ascending in collation order)
/// and keeps those attribution admits.
pub(crate) fn order_sessions(
    rows: Vec<Value>,
    time_zone: &jiff::tz::TimeZone,
    admit: impl Fn(&Value) -> Attribution,
) -> Vec<Session> {
    struct Keyed {
        score: f64,
        captured_at: String,
        key: String,
        row: Value,
    }
    let mut keyed: Vec<Keyed> = rows
        .into_iter()
        .map(|row| {
            let captured_at = string_or_empty(member(&row, "captured_at"));
            let score = date_parse_ms(&captured_at, time_zone).unwrap_or(0.0);
            Keyed {
                score,
                key: stable_key(&row),
                captured_at,
                row,
            }
        })
        .collect();
    keyed.sort_by(|left, right| {
        right
            .score
            .partial_cmp(&left.score)
            .unwrap_or(Ordering::Equal)
            .then_with(|| collate(&right.captured_at, &left.captured_at))
            .then_with(|| collate(&left.key, &right.key))
    });
    keyed
        .into_iter()
        .filter_map(|keyed| {
            let unscoped = match admit(&keyed.row) {
                Attribution::Exclude => return None,
                Attribution::Keep => false,
                Attribution::KeepUnscoped => true,
            };
            Some(Session {
                row: keyed.row,
                captured_at: keyed.captured_at,
                unscoped,
            })
        })
        .collect()
}

/// A signal or event that survived ordering and filters.
#[derive(Debug, Clone)]
pub(crate) struct TimelineEntry {
    /// The normalised row.
    pub(crate) entry: Value,
    /// Its `date` (today or yesterday).
    pub(crate) date: String,
    /// The timeline summary: `String(summary || note || type || "")`, JS-trimmed, non-empty.
    pub(crate) summary: String,
    /// Shown with ` (unscoped)`.
    pub(crate) unscoped: bool,
}

/// The timeline summary of spec 02 §7.3 step 3.
fn timeline_summary(entry: &Value) -> String {
    let chosen = ["summary", "note", "type"]
        .into_iter()
        .filter_map(|name| entry.get(name))
        .find(|value| js_truthy(value));
    js_trim(&string_or_empty(chosen)).to_owned()
}

/// Orders one stream (`timestamp` descending, then `stableKey` ascending, both in collation
/// order), then keeps entries dated `today` or `yesterday`, admitted by attribution, with a
/// non-empty summary (spec 02 §7.3).
pub(crate) fn order_timeline(
    entries: Vec<Value>,
    today: &str,
    yesterday: &str,
    admit: impl Fn(&Value) -> Attribution,
) -> Vec<TimelineEntry> {
    let mut keyed: Vec<(String, String, Value)> = entries
        .into_iter()
        .map(|entry| {
            let timestamp = string_or_empty(entry.get("timestamp"));
            let key = stable_key(&entry);
            (timestamp, key, entry)
        })
        .collect();
    keyed
        .sort_by(|left, right| collate(&right.0, &left.0).then_with(|| collate(&left.1, &right.1)));
    keyed
        .into_iter()
        .filter_map(|(_, _, entry)| {
            let date = match entry.get("date") {
                Some(Value::String(date)) if date == today || date == yesterday => date.clone(),
                _ => return None,
            };
            let unscoped = match admit(&entry) {
                Attribution::Exclude => return None,
                Attribution::Keep => false,
                Attribution::KeepUnscoped => true,
            };
            let summary = timeline_summary(&entry);
            if summary.is_empty() {
                return None;
            }
            Some(TimelineEntry {
                entry,
                date,
                summary,
                unscoped,
            })
        })
        .collect()
}

/// `timelineKey(e)` of the update-channel dedupe (spec 02 §7.4): `[type, source, project || "",
/// project_id || "", summary].join("\n")`, where `join` writes `null` and missing as empty.
fn channel_key(entry: &TimelineEntry) -> String {
    let joined = |value: Option<&Value>| match value {
        None | Some(Value::Null) => String::new(),
        Some(value) => js_string_of(value),
    };
    [
        joined(entry.entry.get("type")),
        joined(entry.entry.get("source")),
        string_or_empty(entry.entry.get("project")),
        string_or_empty(entry.entry.get("project_id")),
        entry.summary.clone(),
    ]
    .join("\n")
}

/// Whether the entry is an update written through the `dotaios update` channel.
fn is_update_channel(entry: &TimelineEntry) -> bool {
    entry.entry.get("type").and_then(Value::as_str) == Some("update")
        && entry.entry.get("source").and_then(Value::as_str) == Some("dotaios update")
}

/// Drops each signal that repeats an update-channel event (spec 02 §7.4). Events stay.
pub(crate) fn dedupe_update_channels(
    signals: Vec<TimelineEntry>,
    events: &[TimelineEntry],
) -> Vec<TimelineEntry> {
    let keys: std::collections::HashSet<String> = events
        .iter()
        .filter(|event| is_update_channel(event))
        .map(channel_key)
        .collect();
    if keys.is_empty() {
        return signals;
    }
    signals
        .into_iter()
        .filter(|signal| !(is_update_channel(signal) && keys.contains(&channel_key(signal))))
        .collect()
}

/// Infers the active project of shared mode from the filtered, ordered sessions (spec 02 §8.2):
/// each distinct string `project` with its count and greatest `captured_at` (UTF-16 order);
/// ordered by that latest value descending (collation), count descending, name ascending
/// (collation). Non-string values take no part (spec 02 §18 open point 2).
pub(crate) fn infer_active_project(sessions: &[Session]) -> Option<String> {
    struct Stats {
        name: String,
        count: usize,
        latest: String,
    }
    let mut stats: Vec<Stats> = Vec::new();
    let mut index: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for session in sessions {
        let Some(Value::String(name)) = member(&session.row, "project") else {
            continue;
        };
        if name.is_empty() {
            continue;
        }
        let slot = *index.entry(name.clone()).or_insert_with(|| {
            stats.push(Stats {
                name: name.clone(),
                count: 0,
                latest: String::new(),
            });
            stats.len() - 1
        });
        let entry = &mut stats[slot];
        entry.count += 1;
        if utf16_cmp(&session.captured_at, &entry.latest) == Ordering::Greater {
            entry.latest.clone_from(&session.captured_at);
        }
    }
    stats.sort_by(|left, right| {
        collate(&right.latest, &left.latest)
            .then_with(|| right.count.cmp(&left.count))
            .then_with(|| collate(&left.name, &right.name))
    });
    stats.into_iter().next().map(|stats| stats.name)
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

    #[test]
    fn events_keep_physical_line_numbers() {
        let text = "{\"ts\":\"2026-08-29T07:00:00.000Z\",\"summary\":\"a\"}\r\n\r\nnot-json\n[\"x\"]\n5\n{\"ts\":7}";
        let events = read_events(text);
        assert_eq!(events.len(), 3);
        assert_eq!(events[0]["sourceLine"], json!(1));
        assert_eq!(events[0]["date"], json!("2026-08-29"));
        assert_eq!(events[0]["sourcePath"], json!("memory/events.jsonl"));
        assert_eq!(events[1]["sourceLine"], json!(4));
        assert_eq!(events[1]["0"], json!("x"));
        assert_eq!(events[1]["date"], json!(null));
        assert_eq!(events[1]["timestamp"], json!("T00:00:00"));
        assert_eq!(
            events[2]["ts"],
            json!(7),
            "a non-string ts is kept but ignored"
        );
        assert_eq!(events[2]["date"], json!(null));
    }

    #[test]
    fn signals_count_parsed_values_and_fall_back_to_the_file_date() {
        let text = "{\"summary\":\"No timestamp\"}\r\nbad\n\n7\n{\"ts\":\"2026-08-29T01:00:00Z\",\"date\":\"x\"}";
        let signals = read_signal_file(text, "laptop-2026-08-28.jsonl", "2026-08-28");
        assert_eq!(signals.len(), 3);
        assert_eq!(signals[0]["date"], json!("2026-08-28"));
        assert_eq!(signals[0]["timestamp"], json!("2026-08-28T00:00:00"));
        assert_eq!(
            signals[0]["sourcePath"],
            json!("memory/signals/laptop-2026-08-28.jsonl")
        );
        assert_eq!(signals[1]["sourceLine"], json!(2));
        assert!(
            signals[1].get("summary").is_none(),
            "a scalar becomes an empty object"
        );
        assert_eq!(signals[2]["sourceLine"], json!(3));
        assert_eq!(signals[2]["date"], json!("2026-08-29"));
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
        let ordered = order_sessions(rows, &utc(), keep_all);
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
        let entries = vec![
            json!({"ts": "2026-08-29T07:00:00.000Z", "type": "update"}),
            json!({"ts": "2026-08-29T09:30:00.000Z", "summary": "late"}),
            json!({"ts": "2026-08-26T09:00:00.000Z", "summary": "old"}),
            json!({"ts": "2026-08-28T18:00:00.000Z", "summary": "  ", "note": "n"}),
            json!({"ts": "2026-08-28T18:00:00.000Z", "summary": 0, "note": false, "type": ""}),
            json!({"ts": "2026-08-28T19:00:00.000Z", "summary": {"x": 1}}),
            json!({"ts": "2026-08-28T20:00:00.000Z", "summary": "other", "project": "x"}),
        ]
        .into_iter()
        .map(|v| normalise(&v, None, "memory/events.jsonl", 1))
        .collect();
        let admit = |row: &Value| {
            if row.get("project").is_some() {
                Attribution::Exclude
            } else {
                Attribution::Keep
            }
        };
        let kept = order_timeline(entries, "2026-08-29", "2026-08-28", admit);
        let summaries: Vec<&str> = kept.iter().map(|e| e.summary.as_str()).collect();
        // "  " is truthy, so the summary is the blank string and the row is dropped.
        assert_eq!(summaries, vec!["late", "update", "[object Object]"]);
    }

    #[test]
    fn update_channel_dedupe_drops_only_signal_copies() {
        let make = |v: Value| TimelineEntry {
            summary: timeline_summary(&v),
            entry: v,
            date: "2026-08-29".into(),
            unscoped: false,
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
        let kept = dedupe_update_channels(signals, &events);
        assert_eq!(kept.len(), 3);
        assert_eq!(kept[0].summary, "Other");
    }

    #[test]
    fn inference_prefers_latest_then_count_then_name() {
        let session = |project: Value, at: &str| Session {
            row: json!({"project": project, "captured_at": at}),
            captured_at: at.to_owned(),
            unscoped: false,
        };
        let sessions = vec![
            session(json!("b"), "2026-08-28"),
            session(json!("a"), "2026-08-28"),
            session(json!("a"), "2026-08-01"),
            session(json!(7), "2026-08-30"),
            session(json!(""), "2026-08-30"),
        ];
        assert_eq!(infer_active_project(&sessions).as_deref(), Some("a"));
        let tied = vec![session(json!("b"), "x"), session(json!("a"), "x")];
        assert_eq!(infer_active_project(&tied).as_deref(), Some("a"));
        assert_eq!(infer_active_project(&[]), None);
    }
}
