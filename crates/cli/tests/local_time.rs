//! Offset-less `ts` values are local time (contract 03 §9.3, "as in JavaScript"), read by the
//! one local-time conversion of `dotaios-core` in both binaries: `dotaios search` and
//! `search_aios` of `dotaios-mcp` rank the same memory entries in the same order in a zone
//! whose clocks change, with entries on both sides of each change.
//!
//! The ranking reads a `ts` only through its recency prior, in whole days of age from the real
//! clock. Each local entry therefore has a twin with an explicit offset naming the instant
//! ECMAScript gives the local reading, the same words and the same number of tokens: read
//! right, the two tie and the later `ts` text comes first (§9.4); read an hour off, they tie
//! or not depending on the time of day. The synthetic zone jumps by 24 hours, so any reading
//! that is off is off by a whole day and moves its entry a day away from its twin whatever
//! the clock says.
#![allow(
    clippy::disallowed_methods,
    reason = "tests build and inspect their folders with std::fs"
)]

mod support;

use std::fs;
use std::path::Path;

use serde_json::{Value, json};
use support::{Adapter, dotaios, texts};

/// One memory entry: `ts`, its summary and a padding field that evens out the token count.
fn entry(ts: &str, pad: &str) -> String {
    format!(
        "{}\n",
        json!({"ts": ts, "type": "note", "summary": "lantern drill", "pad": pad})
    )
}

/// A temporary `aios/` whose `memory/events.jsonl` holds `entries`, and an empty `home/`.
fn folder(entries: &[String]) -> tempfile::TempDir {
    let temp = tempfile::tempdir().unwrap();
    let aios = temp.path().join("aios");
    fs::create_dir_all(aios.join("memory")).unwrap();
    fs::create_dir_all(temp.path().join("home")).unwrap();
    fs::write(
        aios.join("aios.json"),
        "{\"schema_version\":\"1.2.0\",\"vault_path\":null}\n",
    )
    .unwrap();
    fs::write(aios.join("memory/events.jsonl"), entries.concat()).unwrap();
    temp
}

/// The memory results' `ts` values in order from `dotaios search --json` with `TZ=zone`.
fn cli_order(temp: &Path, zone: &str) -> Vec<String> {
    let output = dotaios(&temp.join("home"))
        .env("TZ", zone)
        .args(["search", "lantern", "--scope", "memory", "--json", "--path"])
        .arg(temp.join("aios"))
        .output()
        .unwrap();
    let (stdout, stderr) = texts(&output);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let value: Value = serde_json::from_str(&stdout).unwrap();
    value["groups"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|group| group["results"].as_array().unwrap())
        .map(|result| result["ts"].as_str().unwrap().to_owned())
        .collect()
}

/// The same from one `search_aios` call to `dotaios-mcp` with `TZ=zone`.
fn adapter_order(temp: &Path, zone: &str) -> Vec<String> {
    let arguments = json!({"query": "lantern", "scope": "memory"});
    let adapter = Adapter {
        aios: &temp.join("aios"),
        home: &temp.join("home"),
        zone,
    };
    let payload = adapter.payloads(&[("search_aios", arguments)]).remove(0);
    payload["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|result| result["ts"].as_str().unwrap().to_owned())
        .collect()
}

/// Both binaries over `entries` in `zone`: the order each gives, which must be `expected`.
fn assert_order(zone: &str, entries: &[String], expected: &[&str]) {
    let temp = folder(entries);
    let cli = cli_order(temp.path(), zone);
    let adapter = adapter_order(temp.path(), zone);
    assert_eq!(
        cli, adapter,
        "dotaios search and search_aios disagree in {zone}"
    );
    assert_eq!(cli, expected, "the order in {zone}");
}

/// Europe/Lisbon in 2026: 01:30 on 03-29 falls in the spring gap (01:00 WET → 02:00 WEST) and
/// is 01:30Z; 01:30 on 10-25 falls in the autumn fold (02:00 WEST → 01:00 WET) and is the
/// earlier 00:30Z. Each twin names the same instant with an offset.
#[test]
fn lisbon_readings_at_both_changes_order_alike_in_both_binaries() {
    let entries = [
        entry("2026-03-29T01:30", "a b"),
        entry("2026-03-29T00:30-01:00", ""),
        entry("2026-10-25T01:30", "a b"),
        entry("2026-10-25T02:30+02:00", ""),
    ];
    assert_order(
        "Europe/Lisbon",
        &entries,
        &[
            "2026-10-25T02:30+02:00",
            "2026-10-25T01:30",
            "2026-03-29T01:30",
            "2026-03-29T00:30-01:00",
        ],
    );
}

/// A zone at UTC−12 that springs forward 24 hours to UTC+12 at the start of day 60 (03-01)
/// and falls back at the start of day 300 (10-27), so 03-01 never happens and 10-26 happens
/// twice. A reading of 03-01T13:00 is 03-02T01:00Z (the offset from before the gap); one of
/// 10-26T13:00 is 10-26T01:00Z (the earlier instant). The year is last year, so every entry
/// is in the past and its recency still tells days apart.
#[test]
fn readings_in_a_day_long_gap_and_fold_order_alike_in_both_binaries() {
    let year = jiff::Timestamp::now()
        .to_zoned(jiff::tz::TimeZone::UTC)
        .year()
        - 1;
    let at = |rest: &str| format!("{year}-{rest}");
    let entries = [
        entry(&at("03-01T13:00"), "a b"),
        entry(&at("03-01T12:00-13:00"), ""),
        entry(&at("10-26T13:00"), "a b"),
        entry(&at("10-26T14:00+13:00"), ""),
    ];
    let expected = [
        at("10-26T14:00+13:00"),
        at("10-26T13:00"),
        at("03-01T13:00"),
        at("03-01T12:00-13:00"),
    ];
    let expected: Vec<&str> = expected.iter().map(String::as_str).collect();
    assert_order("AAA12BBB-12,J60/0,J300/0", &entries, &expected);
}
