//! JavaScript `Date.parse` for the ECMAScript date-time string format and its extended years:
//! the grammar, the calendar arithmetic and TimeClip, shared by the working context's clock
//! rules (contract 02 §16) and the search ranking of JSONL `ts` values (contract 03 §9.3).
//!
//! A date-time without an offset is local time in the caller's `jiff` time zone, converted by
//! [`local_time_to_utc`], the one local-time conversion of the project: the working context,
//! the search ranking, `dotaios search` and `search_aios` all read local time through it.

use jiff::Timestamp;
use jiff::tz::TimeZone;

/// The largest magnitude of a JavaScript time value in milliseconds (ECMAScript TimeClip).
const MAX_TIME_MS: f64 = 8.64e15;

const MS_PER_DAY: f64 = 86_400_000.0;

/// JavaScript `Date.parse(text)` restricted to the ECMAScript date-time string format
/// (`YYYY`, `YYYY-MM`, `YYYY-MM-DD`, optionally `THH:mm`, `THH:mm:ss` or `THH:mm:ss.s…`, then
/// `Z` or `±HH:mm`; extended years `±YYYYYY`): milliseconds since the epoch, or `None` where
/// JavaScript gives `NaN`.
///
/// Date-only forms are UTC. A date-time without an offset is local time in `zone`
/// ([`local_time_to_utc`]). Like V8, a day beyond the month's end rolls over (`02-30` is
/// `03-02`) and any number of fraction digits is accepted, the first three counting.
pub(crate) fn js_date_parse(text: &str, zone: &TimeZone) -> Option<f64> {
    let parsed = parse_iso(text.as_bytes())?;
    let day = days_from_civil(parsed.year, parsed.month, 1) + f64::from(parsed.day - 1);
    let time_ms = f64::from(parsed.hour) * 3_600_000.0
        + f64::from(parsed.minute) * 60_000.0
        + f64::from(parsed.second) * 1000.0
        + f64::from(parsed.millisecond);
    let local = day * MS_PER_DAY + time_ms;
    let utc = match parsed.offset {
        Offset::Utc => local,
        Offset::Minutes(minutes) => local - f64::from(minutes) * 60_000.0,
        Offset::Local => local_time_to_utc(local, zone)?,
    };
    (utc.abs() <= MAX_TIME_MS).then_some(utc)
}

/// The instant (milliseconds since the epoch) of a local wall-clock reading in `zone`, the
/// reading given as milliseconds counted as if it were UTC; ECMAScript's `UTC(t)`, which
/// `Date.parse` applies to a date-time without an offset (contract 02 §16 and 03 §9.3: "local
/// time, as in JavaScript").
///
/// The rule at a daylight-saving change is ECMAScript's, `jiff`'s `compatible` disambiguation:
/// a reading in a gap (clocks jump forward) takes the offset from before the change, so it
/// moves forward by the gap (Lisbon's 2026-03-29T01:30 is 01:30Z, i.e. 02:30 summer time); a
/// reading in a fold (clocks go back) takes the earlier of its two instants (Lisbon's
/// 2026-10-25T01:30 is 00:30Z, still summer time). `None` outside the time-zone database's
/// years −9999 to 9999, where the reading counts as unparseable (`docs/decisions.md`).
pub(crate) fn local_time_to_utc(local_ms: f64, zone: &TimeZone) -> Option<f64> {
    // Whole seconds and the millisecond remainder; a parsed reading is far inside i64.
    let seconds = (local_ms / 1000.0).floor();
    let millis = local_ms - seconds * 1000.0;
    let wall = Timestamp::from_second(seconds as i64)
        .ok()?
        .to_zoned(TimeZone::UTC)
        .datetime();
    let instant = zone.to_ambiguous_timestamp(wall).compatible().ok()?;
    Some(instant.as_second() as f64 * 1000.0 + millis)
}

/// Days from 1970-01-01 to the first-of-month date `year-month-day` in the proleptic Gregorian
/// calendar (ECMAScript `MakeDay`, exact for every year JavaScript accepts).
fn days_from_civil(year: i32, month: u32, day: u32) -> f64 {
    let (year, month) = (i64::from(year), i64::from(month));
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let shifted_month = (month + 9) % 12;
    let day_of_year = (153 * shifted_month + 2) / 5 + i64::from(day) - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    (era * 146_097 + day_of_era - 719_468) as f64
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Offset {
    Utc,
    Minutes(i32),
    Local,
}

#[derive(Debug, Clone, Copy)]
struct Parsed {
    year: i32,
    month: u32,
    day: u32,
    hour: u32,
    minute: u32,
    second: u32,
    millisecond: u32,
    offset: Offset,
}

/// A cursor over ASCII bytes.
struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn eat(&mut self, byte: u8) -> bool {
        if self.peek() == Some(byte) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    /// Exactly `count` ASCII digits.
    fn digits(&mut self, count: usize) -> Option<u32> {
        let slice = self.bytes.get(self.at..self.at + count)?;
        if !slice.iter().all(u8::is_ascii_digit) {
            return None;
        }
        self.at += count;
        Some(slice.iter().fold(0, |n, d| n * 10 + u32::from(d - b'0')))
    }

    fn done(&self) -> bool {
        self.at == self.bytes.len()
    }
}

fn parse_iso(bytes: &[u8]) -> Option<Parsed> {
    let mut cursor = Cursor { bytes, at: 0 };
    let year = match cursor.peek()? {
        sign @ (b'+' | b'-') => {
            cursor.at += 1;
            let magnitude = i32::try_from(cursor.digits(6)?).ok()?;
            if sign == b'-' {
                if magnitude == 0 {
                    // `-000000` is explicitly invalid.
                    return None;
                }
                -magnitude
            } else {
                magnitude
            }
        }
        _ => i32::try_from(cursor.digits(4)?).ok()?,
    };
    let mut parsed = Parsed {
        year,
        month: 1,
        day: 1,
        hour: 0,
        minute: 0,
        second: 0,
        millisecond: 0,
        offset: Offset::Utc,
    };
    if cursor.eat(b'-') {
        parsed.month = cursor.digits(2)?;
        if cursor.eat(b'-') {
            parsed.day = cursor.digits(2)?;
        }
    }
    if !(1..=12).contains(&parsed.month) || !(1..=31).contains(&parsed.day) {
        return None;
    }
    if cursor.done() {
        return Some(parsed);
    }
    if !cursor.eat(b'T') {
        return None;
    }
    parsed.hour = cursor.digits(2)?;
    if !cursor.eat(b':') {
        return None;
    }
    parsed.minute = cursor.digits(2)?;
    if cursor.eat(b':') {
        parsed.second = cursor.digits(2)?;
        if cursor.eat(b'.') {
            let start = cursor.at;
            while cursor.peek().is_some_and(|b| b.is_ascii_digit()) {
                cursor.at += 1;
            }
            let fraction = &bytes[start..cursor.at];
            if fraction.is_empty() {
                return None;
            }
            parsed.millisecond = (0..3).fold(0, |n, index| {
                n * 10 + fraction.get(index).map_or(0, |d| u32::from(d - b'0'))
            });
        }
    }
    parsed.offset = if cursor.eat(b'Z') {
        Offset::Utc
    } else if let Some(sign @ (b'+' | b'-')) = cursor.peek() {
        cursor.at += 1;
        let hours = cursor.digits(2)?;
        if !cursor.eat(b':') {
            return None;
        }
        let minutes = cursor.digits(2)?;
        if hours > 23 || minutes > 59 {
            return None;
        }
        let total = i32::try_from(hours * 60 + minutes).ok()?;
        Offset::Minutes(if sign == b'-' { -total } else { total })
    } else {
        Offset::Local
    };
    if !cursor.done() {
        return None;
    }
    let end_of_day =
        parsed.hour == 24 && parsed.minute == 0 && parsed.second == 0 && parsed.millisecond == 0;
    if (parsed.hour > 23 && !end_of_day) || parsed.minute > 59 || parsed.second > 59 {
        return None;
    }
    Some(parsed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn zone(name: &str) -> TimeZone {
        TimeZone::get(name).unwrap_or_else(|_| panic!("the time-zone database has {name}"))
    }

    fn lisbon() -> TimeZone {
        zone("Europe/Lisbon")
    }

    fn utc(text: &str) -> Option<f64> {
        js_date_parse(text, &TimeZone::UTC)
    }

    #[test]
    fn iso_forms() {
        assert_eq!(utc("1970-01-01T00:00:00.000Z"), Some(0.0));
        assert_eq!(utc("2026-08-29T09:00:00.000Z"), Some(1_787_994_000_000.0));
        assert_eq!(
            utc("2026-08-29T11:00:00.000+02:00"),
            utc("2026-08-29T09:00:00.000Z")
        );
        assert_eq!(utc("2026-08-29T09:00Z"), utc("2026-08-29T09:00:00Z"));
        assert_eq!(utc("2026"), utc("2026-01-01T00:00Z"));
        assert_eq!(utc("2026-08"), utc("2026-08-01T00:00Z"));
        assert_eq!(utc("2026-08-29T09:00:00.1Z"), Some(1_787_994_000_100.0));
        assert_eq!(
            utc("2026-08-29T09:00:00.123456Z"),
            Some(1_787_994_000_123.0)
        );
        assert_eq!(utc("2026-08-29T24:00:00Z"), utc("2026-08-30T00:00:00Z"));
        assert_eq!(
            utc("2026-02-30"),
            utc("2026-03-02"),
            "V8 rolls the day over"
        );
        assert_eq!(utc("+002026-08-29"), utc("2026-08-29"));
        assert_eq!(utc("-000001-01-01T00:00:00Z"), Some(-62_198_755_200_000.0));
        assert_eq!(utc("+275760-09-13T00:00:00Z"), Some(8.64e15));
        assert_eq!(utc("+275760-09-13T00:00:00.001Z"), None);
    }

    #[test]
    fn rejected_forms() {
        for text in [
            "",
            "yesterday",
            "2026-8-29",
            "2026-08-29 09:00",
            "2026-08-29T9:00",
            "2026-08-29T09",
            "2026-08-29T09:00:00.Z",
            "2026-08-29T09:00:00+0200",
            "2026-08-29T24:00:01Z",
            "2026-08-29T09:60Z",
            "2026-13-01",
            "2026-00-01",
            "2026-08-32",
            "-000000-01-01",
            "2026-08-29t09:00z",
            "2026-08-29T09:00:00Zjunk",
            " 2026-08-29",
            "20260829",
        ] {
            assert_eq!(utc(text), None, "{text}");
        }
    }

    #[test]
    fn offsetless_date_times_are_local_and_dates_are_utc() {
        // Date-only stays UTC whatever the zone.
        assert_eq!(
            js_date_parse("2026-08-29", &zone("Europe/Berlin")),
            utc("2026-08-29")
        );
        // (zone, local reading, the instant ECMAScript gives it)
        for (name, local, instant) in [
            (
                "Europe/Berlin",
                "2026-08-29T11:00:00",
                "2026-08-29T09:00:00Z",
            ),
            // 2026-03-29: Berlin jumps from 02:00 CET to 03:00 CEST and Lisbon from 01:00 WET
            // to 02:00 WEST; a reading in the gap is read with the offset from before the
            // change, so it moves forward.
            (
                "Europe/Berlin",
                "2026-03-29T02:30:00",
                "2026-03-29T01:30:00Z",
            ),
            ("Europe/Lisbon", "2026-03-29T01:30", "2026-03-29T01:30Z"),
            (
                "Europe/Lisbon",
                "2026-03-29T01:30:00.250",
                "2026-03-29T01:30:00.250Z",
            ),
            // Either side of Lisbon's gap: WET before, WEST after.
            ("Europe/Lisbon", "2026-03-29T00:59", "2026-03-29T00:59Z"),
            ("Europe/Lisbon", "2026-03-29T02:00", "2026-03-29T01:00Z"),
            // 2026-10-25: the clocks go back (Berlin 03:00 CEST to 02:00 CET, Lisbon 02:00
            // WEST to 01:00 WET); a reading in the fold happens twice and the earlier instant
            // (summer time) wins.
            (
                "Europe/Berlin",
                "2026-10-25T02:30:00.250",
                "2026-10-25T00:30:00.250Z",
            ),
            ("Europe/Lisbon", "2026-10-25T01:30", "2026-10-25T00:30Z"),
            ("Europe/Lisbon", "2026-10-25T00:59", "2026-10-24T23:59Z"),
            ("Europe/Lisbon", "2026-10-25T02:00", "2026-10-25T02:00Z"),
        ] {
            assert_eq!(
                js_date_parse(local, &zone(name)),
                utc(instant),
                "{local} in {name}"
            );
        }
    }

    #[test]
    fn local_time_outside_the_database_range_is_unparseable() {
        assert_eq!(js_date_parse("+010000-01-01T00:00", &lisbon()), None);
        assert_eq!(
            js_date_parse("+010000-01-01T00:00Z", &lisbon()),
            Some(253_402_300_800_000.0)
        );
        assert_eq!(
            js_date_parse("+010000-01-01", &lisbon()),
            utc("+010000-01-01")
        );
    }
}
