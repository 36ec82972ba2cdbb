//! The whole-list definition of the timeline selection (contract 02 §7.3–§7.5, §8.2), tests
//! only: every row of every source parsed and held, admitted, deduplicated, ordered, then cut.
//! The streamed selection (`select.rs`) must give exactly its answer.

use std::cmp::Ordering;

use serde_json::Value;

use super::select::{Selection, SelectionRequest, TimelineTexts};
use super::{
    Session, TimelineEntry, admit_sessions, admit_timeline, channel_key, event_rows,
    first_in_order, is_update_channel, member, session_order, session_rows, signal_rows,
    timeline_order,
};
use crate::folder::attribution::Attribution;
use crate::text::{collate, utf16_cmp};

/// The selection computed over whole lists.
pub(crate) fn select(
    texts: TimelineTexts<'_>,
    request: &SelectionRequest<'_>,
    admit: impl Fn(&Value) -> Attribution + Copy,
) -> Selection {
    let sessions: Vec<Session> = admit_sessions(
        session_rows(texts.session_index).collect::<Vec<_>>(),
        request.time_zone,
        admit,
    )
    .collect();
    let mut signal_rows_all = Vec::new();
    for file in texts.signal_files {
        signal_rows_all.extend(signal_rows(&file.text, &file.name, &file.date));
    }
    let signals: Vec<TimelineEntry> =
        admit_timeline(signal_rows_all, request.today, request.yesterday, admit).collect();
    let event_rows_all: Vec<_> =
        event_rows(texts.event_log, request.today, request.yesterday).collect();
    let events: Vec<TimelineEntry> =
        admit_timeline(event_rows_all, request.today, request.yesterday, admit).collect();
    let signals = dedupe_update_channels(signals, &events);
    let inferred_project = if request.infer_project {
        infer_active_project(&sessions)
    } else {
        None
    };
    Selection {
        sessions: first_in_order(sessions, request.sessions, session_order),
        inferred_project,
        signals: first_in_order(signals, request.signals, timeline_order),
        events: first_in_order(events, request.events, timeline_order),
    }
}

/// Drops each signal that repeats an update-channel event (contract 02 §7.4). Events stay.
pub(super) fn dedupe_update_channels(
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
/// Infers the active project of shared mode from the admitted sessions (contract 02 §8.2): each
/// distinct string `project` with its count and greatest `captured_at` (UTF-16 order);
/// ordered by that latest value descending (collation), count descending, name ascending
/// (collation), and, as the reference's stable sort over its insertion order would, by the
/// project's first session in session order. Non-string values take no part (contract 02 §18 open
/// point 2). The sessions need not be ordered.
pub(super) fn infer_active_project(sessions: &[Session]) -> Option<String> {
    struct Stats<'a> {
        name: &'a str,
        count: usize,
        latest: &'a str,
        first: &'a Session,
    }
    let mut stats: Vec<Stats<'_>> = Vec::new();
    let mut index: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for session in sessions {
        let Some(Value::String(name)) = member(&session.row, "project") else {
            continue;
        };
        if name.is_empty() {
            continue;
        }
        let slot = *index.entry(name.as_str()).or_insert_with(|| {
            stats.push(Stats {
                name,
                count: 0,
                latest: "",
                first: session,
            });
            stats.len() - 1
        });
        let entry = &mut stats[slot];
        entry.count += 1;
        if utf16_cmp(&session.captured_at, entry.latest) == Ordering::Greater {
            entry.latest = &session.captured_at;
        }
        if session_order(session, entry.first) == Ordering::Less {
            entry.first = session;
        }
    }
    stats
        .into_iter()
        .min_by(|left, right| {
            collate(right.latest, left.latest)
                .then_with(|| right.count.cmp(&left.count))
                .then_with(|| collate(left.name, right.name))
                .then_with(|| session_order(left.first, right.first))
        })
        .map(|stats| stats.name.to_owned())
}
