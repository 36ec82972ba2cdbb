//! The prose rows of `dotaios-bench extra` (contract 07 §4.1 target p): ordinary text, not a
//! hostile shape, at the per-file cap: 8 vault notes of just under 4 MiB each of seeded lines
//! drawn from a small vocabulary, so every note matches and every word comes back often, as in
//! a real notebook. Each row is timed on one running `dotaios-mcp` like the hostile rows (every
//! call counted, the first and cold one included, then a `ping`) and judged on its worst call
//! and peak RSS.
//!
//! The shapes (issue 35):
//! - English prose with inflections, `run connect nation` (stems and prefixes on every line);
//! - Japanese and Chinese prose, `東京オフィス会議` (an ideograph run: seven neighbouring pairs);
//! - prose with emoji, `🎉🚀✨ launch` (pictographs as tokens, a run of three as pairs);
//! - terms that hit every token: words that all start with one 32-letter stem, and its first 30
//!   prefixes as the query (the 30 fill 494 of the 500 code points a tool argument may have;
//!   all but the 3-letter one, which is neither a short term nor long enough to be a prefix
//!   match, hit every token, contract 03 §6.1);
//! - F1 again (8 × 4 MiB of `x` lines) with the 30 overlapping terms `x xx … x×30`.
//!
//! Each folder is written below the system temporary directory and removed.

use std::path::Path;

use serde_json::json;

use super::hostile::{Expect, Folder, adapter_row, repeated};
use super::{Row, WorstLimit};

/// Contract 07 §4.1 target p.
const LIMIT: WorstLimit = WorstLimit {
    ms: 500.0,
    rss_bytes: 128 * 1024 * 1024,
};
const NOTE_BYTES: usize = 4 * 1024 * 1024 - 4096;
const NOTES: usize = 8;

const ENGLISH: &[&str] = &[
    "the", "a", "of", "and", "to", "in", "we", "our", "team", "will", "with", "for", "on", "that",
    "this", "it", "was", "as", "is", "at", "by", "from", "project", "plan", "week", "notes",
    "meeting", "update", "review", "data", "report", "customer", "service", "design", "work",
    "time", "people", "system",
];
const INFLECTED: &[&str] = &[
    "run",
    "runs",
    "running",
    "runner",
    "ran",
    "connect",
    "connects",
    "connected",
    "connecting",
    "connection",
    "connections",
    "nation",
    "nations",
    "national",
    "nationally",
];
const CJK: &[&str] = &[
    "会議",
    "資料",
    "東京",
    "大阪",
    "予定",
    "確認",
    "報告",
    "来週",
    "今日",
    "担当",
    "顧客",
    "設計",
    "開発",
    "品質",
    "微信",
    "广告",
    "的",
    "に",
    "は",
    "を",
    "で",
    "と",
    "オフィス",
    "プロジェクト",
];
const EMOJI: &[&str] = &[
    "🎉", "🚀", "✨", "😀", "🔥", "✅", "📅", "👍", "party", "launch", "done", "ship", "today",
];
/// 32 letters, none of whose prefixes is a stop word (contract 03 §5.1).
const STEM: &str = "proportionalrepresentationreform";
const STEM_SUFFIXES: &[&str] = &["", "s", "ed", "ing", "er", "ist", "ists", "ation"];

/// A seeded xorshift: the notes are the same on every run.
struct Seeded(u64);

impl Seeded {
    fn below(&mut self, bound: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % bound as u64) as usize
    }
}

/// Lines of 6 to 14 words joined by `separator`, each ended by `end`, one word in five from
/// `often` when it is not empty, to just under [`NOTE_BYTES`].
fn prose(words: &[&str], often: &[&str], separator: &str, end: &str, seed: u64) -> Vec<u8> {
    let mut random = Seeded(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let mut out = String::with_capacity(NOTE_BYTES);
    let mut line = String::new();
    while out.len() + 512 < NOTE_BYTES {
        line.clear();
        let count = 6 + random.below(9);
        for index in 0..count {
            if index > 0 {
                line.push_str(separator);
            }
            let word = if !often.is_empty() && random.below(5) == 0 {
                often[random.below(often.len())]
            } else {
                words[random.below(words.len())]
            };
            line.push_str(word);
        }
        out.push_str(&line);
        out.push_str(end);
        out.push('\n');
    }
    out.into_bytes()
}

/// A folder of [`NOTES`] notes, note `i` made by `note(i)`.
fn notes(name: &str, note: impl Fn(u64) -> Vec<u8>) -> Result<Folder, String> {
    let folder = Folder::new(name)?;
    for index in 0..NOTES {
        folder.write(&format!("vault/note-{index}.md"), &note(index as u64))?;
    }
    Ok(folder)
}

/// The prose rows; `calls` is the number of calls per row.
pub(super) fn rows(dotaios_mcp: &Path, calls: usize) -> Result<Vec<Row>, String> {
    let stemmed: Vec<String> = STEM_SUFFIXES
        .iter()
        .map(|suffix| format!("{STEM}{suffix}"))
        .collect();
    let stemmed: Vec<&str> = stemmed.iter().map(String::as_str).collect();
    let prefixes: Vec<&str> = (1..=30).map(|len| &STEM[..len]).collect();
    let overlapping: Vec<String> = (1..=30).map(|len| "x".repeat(len)).collect();
    let mut rows = Vec::new();
    // One folder at a time, removed before the next is written.
    let mut measure = |name: &'static str, folder: Folder, query: String| {
        let mut row = adapter_row(
            name,
            dotaios_mcp,
            &folder,
            ("search_aios", json!({"query": query, "scope": "vault"})),
            &Expect::Found,
            calls,
        )?;
        row.worst_limit = Some(LIMIT);
        rows.push(row);
        Ok::<(), String>(())
    };
    measure(
        "prose: search_aios run connect nation, 8 × 4 MiB English notes",
        notes("prose-english", |seed| {
            prose(ENGLISH, INFLECTED, " ", ".", seed)
        })?,
        "run connect nation".to_owned(),
    )?;
    measure(
        "prose: search_aios 東京オフィス会議, 8 × 4 MiB Japanese and Chinese notes",
        notes("prose-cjk", |seed| prose(CJK, &[], "", "。", seed))?,
        "東京オフィス会議".to_owned(),
    )?;
    measure(
        "prose: search_aios 🎉🚀✨ launch, 8 × 4 MiB notes with emoji",
        notes("prose-emoji", |seed| prose(EMOJI, &[], " ", ".", seed))?,
        "🎉🚀✨ launch".to_owned(),
    )?;
    measure(
        "prose: search_aios p pr … (30 prefixes) hitting every token, 8 × 4 MiB notes",
        notes("prose-every-token", |seed| {
            prose(&stemmed, &[], " ", ".", seed)
        })?,
        prefixes.join(" "),
    )?;
    measure(
        "prose: search_aios x xx … (30 terms), vault of 8 × 4 MiB `x` lines",
        notes("prose-f1", |_| repeated("x\n", 4 * 1024 * 1024))?,
        overlapping.join(" "),
    )?;
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notes_fit_the_cap_and_are_seeded() {
        let note = prose(ENGLISH, INFLECTED, " ", ".", 3);
        assert!(note.len() < NOTE_BYTES && note.len() + 1024 > NOTE_BYTES);
        assert_eq!(note, prose(ENGLISH, INFLECTED, " ", ".", 3));
        assert_ne!(note, prose(ENGLISH, INFLECTED, " ", ".", 4));
        let text = String::from_utf8(prose(CJK, &[], "", "。", 1)).unwrap();
        assert!(text.contains("東京") && text.contains("会議"));
        assert_eq!(STEM.len(), 32);
    }
}
