//! The streamed selection of the timeline (contract 02 §7.3–§7.5, §8.2): the shown sessions,
//! signals and events and the inferred active project, computed while the JSONL rows are parsed,
//! so no source's rows are ever all held (an 8 MiB event log holds about 170,000 tiny rows).
//!
//! What it keeps while reading: of each list, the first `count` items in its order (at most twice
//! that between compactions); per distinct session `project`, its count and latest
//! `captured_at`; and the update-channel keys of admitted signals, the only event keys the
//! dedupe of §7.4 can use. The answer is the one the whole-list definition gives, which the
//! oracle (`oracle.rs`, tests only) still computes.
//!
//! It never reads: the texts come from `sources`, already bounded by the projection ledger.

use std::cmp::Ordering;
use std::collections::{HashMap, HashSet};

use serde_json::Value;

use super::{
    Session, TimelineEntry, admit_sessions, admit_timeline, channel_key, event_rows,
    first_in_order, is_update_channel, member, session_order, session_rows, signal_rows,
    timeline_order,
};
use crate::context::sources::SignalFile;
use crate::folder::attribution::Attribution;
use crate::text::{collate, utf16_cmp};

/// The JSONL texts one projection read.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TimelineTexts<'a> {
    /// `memory/sessions/index.jsonl`.
    pub(crate) session_index: &'a str,
    /// The signal files of the date window, in listing order.
    pub(crate) signal_files: &'a [SignalFile],
    /// `memory/events.jsonl`.
    pub(crate) event_log: &'a str,
}

/// What the selection is asked for.
#[derive(Debug, Clone, Copy)]
pub(crate) struct SelectionRequest<'a> {
    /// The local date of the digest.
    pub(crate) today: &'a str,
    /// The day before.
    pub(crate) yesterday: &'a str,
    /// The zone of offset-less session times.
    pub(crate) time_zone: &'a jiff::tz::TimeZone,
    /// Sessions shown.
    pub(crate) sessions: usize,
    /// Signals shown.
    pub(crate) signals: usize,
    /// Events shown.
    pub(crate) events: usize,
    /// Whether the active project is inferred from the sessions (shared mode).
    pub(crate) infer_project: bool,
}

/// The shown rows, each list in its order, and the inferred active project.
#[derive(Debug)]
pub(crate) struct Selection {
    pub(crate) sessions: Vec<Session>,
    pub(crate) inferred_project: Option<String>,
    pub(crate) signals: Vec<TimelineEntry>,
    pub(crate) events: Vec<TimelineEntry>,
}

/// The first `count` items in `order` of a stream, kept in at most `2 × count` items: when the
/// buffer is full, the first `count` are selected and the rest dropped, so every push is
/// amortised linear. The order must be total (each ends with the stream position), so a
/// dropped item can never belong to the first `count` of the whole stream.
struct FirstInOrder<T, F> {
    items: Vec<T>,
    count: usize,
    order: F,
}

impl<T, F: Fn(&T, &T) -> Ordering> FirstInOrder<T, F> {
    fn new(count: usize, order: F) -> FirstInOrder<T, F> {
        FirstInOrder {
            items: Vec::new(),
            count,
            order,
        }
    }

    fn push(&mut self, item: T) {
        if self.count == 0 {
            return;
        }
        self.items.push(item);
        if self.items.len() == self.count.saturating_mul(2) {
            self.items
                .select_nth_unstable_by(self.count - 1, &self.order);
            self.items.truncate(self.count);
        }
    }

    fn finish(self) -> Vec<T> {
        first_in_order(self.items, self.count, self.order)
    }
}

/// Selects the shown timeline of contract 02 §7.3–§7.5 and, when asked, infers the active
/// project of §8.2, reading each JSONL text once (the signals twice when an update-channel
/// event repeats one of them).
pub(crate) fn select(
    texts: TimelineTexts<'_>,
    request: &SelectionRequest<'_>,
    admit: impl Fn(&Value) -> Attribution + Copy,
) -> Selection {
    let (sessions, inferred_project) = select_sessions(texts.session_index, request, admit);
    let signal_stream = || {
        let rows = texts
            .signal_files
            .iter()
            .flat_map(|file| signal_rows(&file.text, &file.name, &file.date));
        admit_timeline(rows, request.today, request.yesterday, admit)
    };

    // First look at the signals: the shown ones if no event repeats any, and the keys an
    // update-channel event would have to repeat (contract 02 §7.4).
    let mut signal_keys = HashSet::new();
    let mut signals = FirstInOrder::new(request.signals, timeline_order);
    for signal in signal_stream() {
        if is_update_channel(&signal) {
            signal_keys.insert(channel_key(&signal));
        }
        signals.push(signal);
    }

    let mut repeated: HashSet<String> = HashSet::new();
    let mut events = FirstInOrder::new(request.events, timeline_order);
    let event_stream = admit_timeline(
        event_rows(texts.event_log, request.today, request.yesterday),
        request.today,
        request.yesterday,
        admit,
    );
    for event in event_stream {
        if !signal_keys.is_empty() && is_update_channel(&event) {
            let key = channel_key(&event);
            if signal_keys.remove(&key) {
                repeated.insert(key);
            }
        }
        events.push(event);
    }

    let signals = if repeated.is_empty() {
        signals.finish()
    } else {
        // Some signals repeat an event: select again without them.
        drop(signals);
        let mut kept = FirstInOrder::new(request.signals, timeline_order);
        for signal in signal_stream() {
            if !(is_update_channel(&signal) && repeated.contains(&channel_key(&signal))) {
                kept.push(signal);
            }
        }
        kept.finish()
    };
    Selection {
        sessions,
        inferred_project,
        signals,
        events: events.finish(),
    }
}

/// Per distinct session `project`: its count and its greatest `captured_at` (UTF-16 order).
struct ProjectStats {
    count: usize,
    latest: String,
}

/// The shown sessions and, in shared mode, the inferred project of contract 02 §8.2: the
/// distinct string `project` values ordered by latest `captured_at` descending (collation),
/// count descending, name ascending (collation), then by each project's first session in
/// session order, as the reference's stable sort over its insertion order would. Non-string and
/// empty values take no part (contract 02 §18 open point 2). The last key is only needed among
/// projects tied on the other three; those are found in a second pass, as the project of the
/// first session in session order among theirs.
fn select_sessions(
    text: &str,
    request: &SelectionRequest<'_>,
    admit: impl Fn(&Value) -> Attribution + Copy,
) -> (Vec<Session>, Option<String>) {
    let mut shown = FirstInOrder::new(request.sessions, session_order);
    let mut stats: HashMap<String, ProjectStats> = HashMap::new();
    for session in admit_sessions(session_rows(text), request.time_zone, admit) {
        if let (true, Some(Value::String(name))) =
            (request.infer_project, member(&session.row, "project"))
            && !name.is_empty()
        {
            let entry = stats.entry(name.clone()).or_insert(ProjectStats {
                count: 0,
                latest: String::new(),
            });
            entry.count += 1;
            if utf16_cmp(&session.captured_at, &entry.latest) == Ordering::Greater {
                entry.latest.clone_from(&session.captured_at);
            }
        }
        shown.push(session);
    }
    let shown = shown.finish();

    let rank = |(left_name, left): (&String, &ProjectStats),
                (right_name, right): (&String, &ProjectStats)| {
        collate(&right.latest, &left.latest)
            .then_with(|| right.count.cmp(&left.count))
            .then_with(|| collate(left_name, right_name))
    };
    // Two linear passes: thousands of distinct projects cost as many collations, not a sort.
    let Some(best) = stats.iter().min_by(|left, right| rank(*left, *right)) else {
        return (shown, None);
    };
    let tied: HashSet<&str> = stats
        .iter()
        .filter(|entry| rank(best, *entry) == Ordering::Equal)
        .map(|(name, _)| name.as_str())
        .collect();
    if tied.len() == 1 {
        return (shown, Some(best.0.clone()));
    }
    let mut first: Option<Session> = None;
    for session in admit_sessions(session_rows(text), request.time_zone, admit) {
        let in_tie = matches!(
            member(&session.row, "project"),
            Some(Value::String(name)) if tied.contains(name.as_str())
        );
        if in_tie
            && first
                .as_ref()
                .is_none_or(|first| session_order(&session, first) == Ordering::Less)
        {
            first = Some(session);
        }
    }
    let inferred = first.and_then(|session| match member(&session.row, "project") {
        Some(Value::String(name)) => Some(name.clone()),
        _ => None,
    });
    (shown, inferred)
}

/// The selection the unit tests below drive: keyed pairs ordered by [`tests::by_key`].
#[cfg(test)]
type KeyedFirst = FirstInOrder<(u8, usize), fn(&(u8, usize), &(u8, usize)) -> Ordering>;

#[cfg(test)]
impl KeyedFirst {
    fn held(&self) -> usize {
        self.items.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::timeline::{oracle, stable_key};

    /// Everything of a selection the digest can show or order by.
    fn fingerprint(selection: &Selection) -> Vec<String> {
        let mut out = vec![format!("inferred {:?}", selection.inferred_project)];
        for session in &selection.sessions {
            out.push(format!(
                "session {} {} {} {} {}",
                stable_key(&session.row),
                session.captured_at,
                session.unscoped,
                session.score,
                session.position
            ));
        }
        for (name, entries) in [("signal", &selection.signals), ("event", &selection.events)] {
            for entry in entries {
                out.push(format!(
                    "{name} {} {} {} {} {} {} {}:{}",
                    entry.date,
                    entry.summary,
                    entry.unscoped,
                    entry.timestamp,
                    entry.stable_key(),
                    entry.position,
                    entry.row.source_path,
                    entry.row.source_line
                ));
            }
        }
        out
    }

    /// Attributions to compare under: keep all; exclude one project and mark rows without one.
    fn admit_all(_: &Value) -> Attribution {
        Attribution::Keep
    }

    fn admit_some(row: &Value) -> Attribution {
        match row.get("project").or_else(|| row.get("project_id")) {
            None => Attribution::KeepUnscoped,
            Some(Value::String(name)) if name == "tidepool" || name == "b" => Attribution::Exclude,
            Some(_) => Attribution::Keep,
        }
    }

    fn compare(texts: TimelineTexts<'_>, today: &str, yesterday: &str, label: &str) {
        let zone = jiff::tz::TimeZone::fixed(jiff::tz::offset(2));
        for admit in [admit_all as fn(&Value) -> Attribution, admit_some] {
            for (sessions, shown) in [(0, 8), (1, 1), (3, 8), (2, 3), (usize::MAX, 2)] {
                for infer_project in [true, false] {
                    let request = SelectionRequest {
                        today,
                        yesterday,
                        time_zone: &zone,
                        sessions,
                        signals: shown,
                        events: shown,
                        infer_project,
                    };
                    assert_eq!(
                        fingerprint(&select(texts, &request, admit)),
                        fingerprint(&oracle::select(texts, &request, admit)),
                        "{label} {today} {sessions} {shown} {infer_project}"
                    );
                }
            }
        }
    }

    #[test]
    fn streamed_selection_equals_the_whole_list_selection_on_the_sample_folder() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/aios");
        let read = |path: &str| std::fs::read_to_string(root.join(path)).unwrap_or_default();
        let mut names: Vec<String> = std::fs::read_dir(root.join("memory/signals"))
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|entry| entry.file_name().into_string().ok())
            .collect();
        names.sort();
        assert!(names.len() >= 4, "the sample folder has signal files");
        let sessions = read("memory/sessions/index.jsonl");
        let events = read("memory/events.jsonl");
        assert!(!sessions.is_empty() && !events.is_empty());
        for day in 19..=28 {
            let today = format!("2026-11-{day}");
            let yesterday = format!("2026-11-{}", day - 1);
            let files: Vec<SignalFile> = names
                .iter()
                .filter_map(|name| {
                    let date = crate::context::sources::signal_file_date(name)?;
                    (yesterday.as_str() <= date && date <= today.as_str()).then(|| SignalFile {
                        name: name.clone(),
                        date: date.to_owned(),
                        text: read(&format!("memory/signals/{name}")),
                    })
                })
                .collect();
            let texts = TimelineTexts {
                session_index: &sessions,
                signal_files: &files,
                event_log: &events,
            };
            compare(texts, &today, &yesterday, "sample");
        }
    }

    /// A seeded generator of JSONL lines that collide on every ordering key: few dates and
    /// times, repeated summaries, update-channel copies, projects whose names collate equal.
    struct Lines(u64);

    impl Lines {
        fn next(&mut self, below: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % below as u64) as usize
        }

        fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
            items[self.next(items.len())]
        }

        fn line(&mut self) -> String {
            let date = self.pick(&["2026-08-27", "2026-08-28", "2026-08-29", ""]);
            let time = self.pick(&["T07:00:00.000Z", "T09:30:00.000Z", ""]);
            let ts = match self.next(5) {
                0 => String::new(),
                1 => ",\"ts\":7".to_owned(),
                _ => format!(",\"ts\":\"{date}{time}\""),
            };
            let kind = self.pick(&["update", "note", "", "update"]);
            let source = self.pick(&["dotaios update", "elsewhere", "dotaios update"]);
            let summary = self.pick(&["Decided", "Other", "  ", "x", "Decided"]);
            let project = self.pick(&[
                "",
                ",\"project\":\"a\"",
                ",\"project\":\"b\"",
                ",\"project\":\"é\"",
                ",\"project\":\"e\\u0301\"",
                ",\"project\":7",
                ",\"project\":\"\"",
            ]);
            let captured = self.pick(&["2026-08-29T09:00:00.000Z", "2026-08-28", "yesterday", ""]);
            match self.next(12) {
                0 => "not-json".to_owned(),
                1 => String::new(),
                2 => "5".to_owned(),
                3 => format!("[\"{summary}\",1]"),
                _ => format!(
                    "{{\"type\":\"{kind}\",\"source\":\"{source}\",\"summary\":\"{summary}\",\"captured_at\":\"{captured}\"{ts}{project}}}"
                ),
            }
        }

        fn text(&mut self, lines: usize) -> String {
            let mut out = String::new();
            for _ in 0..lines {
                out.push_str(&self.line());
                out.push_str(if self.next(4) == 0 { "\r\n" } else { "\n" });
            }
            out
        }
    }

    #[test]
    fn streamed_selection_equals_the_whole_list_selection_on_generated_sources() {
        for seed in 1..=150_u64 {
            let mut lines = Lines(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
            let size = 1 + lines.next(60);
            let sessions = lines.text(size);
            let events = lines.text(size);
            let files = vec![
                SignalFile {
                    name: "2026-08-28.jsonl".to_owned(),
                    date: "2026-08-28".to_owned(),
                    text: lines.text(size / 2),
                },
                SignalFile {
                    name: "laptop-2026-08-29.jsonl".to_owned(),
                    date: "2026-08-29".to_owned(),
                    text: lines.text(size),
                },
            ];
            let texts = TimelineTexts {
                session_index: &sessions,
                signal_files: &files,
                event_log: &events,
            };
            compare(texts, "2026-08-29", "2026-08-28", &format!("seed {seed}"));
        }
    }

    pub(super) fn by_key(a: &(u8, usize), b: &(u8, usize)) -> Ordering {
        a.0.cmp(&b.0).then(a.1.cmp(&b.1))
    }

    #[test]
    fn streamed_selection_holds_at_most_twice_the_count() {
        let mut first: KeyedFirst = FirstInOrder::new(8, by_key);
        let mut most = 0;
        for position in 0..100_000_usize {
            first.push(((position % 251) as u8, position));
            most = most.max(first.held());
        }
        assert!(most < 16, "held {most}");
        let kept = first.finish();
        assert_eq!(
            kept,
            (0..8).map(|index| (0, index * 251)).collect::<Vec<_>>()
        );
    }

    proptest::proptest! {
        /// Streamed, the first `count` equal the first `count` of a stable full sort.
        #[test]
        fn streamed_selection_equals_a_stable_sort_prefix(
            keys in proptest::collection::vec(0_u8..6, 0..80),
            count in 0_usize..20,
        ) {
            let items: Vec<(u8, usize)> = keys.iter().copied().zip(0..).collect();
            let mut sorted = items.clone();
            sorted.sort_by_key(|(key, _)| *key);
            sorted.truncate(count);
            let mut first: KeyedFirst =
                FirstInOrder::new(count, by_key);
            for item in items {
                first.push(item);
            }
            proptest::prop_assert_eq!(first.finish(), sorted);
        }
    }
}
