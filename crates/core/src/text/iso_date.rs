//! The one ISO-8601 timestamp formatter: JavaScript's `Date.prototype.toISOString`
//! (`YYYY-MM-DDTHH:MM:SS.sssZ` in UTC, with `±YYYYYY` years outside 0–9999), on `jiff`.
//!
//! Every timestamp the project prints or writes goes through here: `generatedAt` of the working
//! context, the `--since` cutoff of the session search, `created_at` of `init` and the
//! migration journal and receipt.
//!
//! **Invariant:** pure; it never reads the clock (callers pass the instant) and never does its
//! own calendar arithmetic: `jiff` turns an instant into a civil date. `jiff` covers the years
//! −9999 to 9999 only, while a JavaScript time value reaches ±275,760 years, so an instant is
//! first moved by whole 400-year Gregorian cycles (which repeat exactly, leap days included)
//! into `jiff`'s range and the cycles are added back to the year.

use jiff::Timestamp;
use jiff::tz::TimeZone;

/// Milliseconds in one 400-year Gregorian cycle (146,097 days).
const CYCLE_MS: i64 = 146_097 * 86_400_000;

/// The largest JavaScript time value, in milliseconds either side of the epoch.
const JS_TIME_LIMIT: f64 = 8.64e15;

/// `Date.prototype.toISOString` of the time value `ms` (milliseconds since the epoch; a
/// fraction is floored, as `new Date(ms)` does); `None` where JavaScript throws (not finite, or
/// beyond ±8.64e15).
pub fn iso_string(ms: f64) -> Option<String> {
    if !ms.is_finite() || ms.abs() > JS_TIME_LIMIT {
        return None;
    }
    // Exact: |ms| ≤ 8.64e15 < 2^53.
    let ms = ms.floor() as i64;
    let cycles = ms.div_euclid(CYCLE_MS);
    let instant = Timestamp::from_millisecond(ms.rem_euclid(CYCLE_MS)).ok()?;
    Some(format_utc(instant, cycles * 400))
}

/// `instant` as `toISOString` prints it (sub-millisecond digits are dropped, toward the past).
pub fn iso_utc(instant: Timestamp) -> String {
    format_utc(instant, 0)
}

/// Formats `instant` in UTC with `extra_years` added to its year.
fn format_utc(instant: Timestamp, extra_years: i64) -> String {
    let utc = instant.to_zoned(TimeZone::UTC);
    let year = i64::from(utc.year()) + extra_years;
    let year = if (0..=9999).contains(&year) {
        format!("{year:04}")
    } else if year < 0 {
        format!("-{:06}", -year)
    } else {
        format!("+{year:06}")
    };
    format!(
        "{year}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z",
        utc.month(),
        utc.day(),
        utc.hour(),
        utc.minute(),
        utc.second(),
        utc.millisecond()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The hand-rolled days-to-civil this module replaced (Howard Hinnant's algorithm), kept as
    /// the oracle the `jiff` path is compared with: `(year, month, day, milliseconds in day)`.
    fn oracle(ms: i64) -> (i64, i64, i64, i64) {
        let days = ms.div_euclid(86_400_000);
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z - era * 146_097;
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = doy - (153 * mp + 2) / 5 + 1;
        let month = if mp < 10 { mp + 3 } else { mp - 9 };
        let year = yoe + era * 400 + i64::from(month <= 2);
        (year, month, day, ms.rem_euclid(86_400_000))
    }

    /// Reads `iso_string`'s output back into the oracle's shape, checking the year's spelling.
    fn fields(text: &str) -> (i64, i64, i64, i64) {
        // Everything after the year has a fixed width: `-MM-DDTHH:MM:SS.sssZ`.
        let (year, rest) = text.split_at(text.len() - 20);
        let number = |range: std::ops::Range<usize>| rest[range].parse::<i64>().unwrap();
        let year_value: i64 = year.parse().unwrap();
        let spelled = if (0..=9999).contains(&year_value) {
            year.len() == 4
        } else {
            year.len() == 7 && year.starts_with(if year_value < 0 { '-' } else { '+' })
        };
        assert!(spelled, "{text}");
        let in_day =
            ((number(7..9) * 60 + number(10..12)) * 60 + number(13..15)) * 1000 + number(16..19);
        assert_eq!(
            (&rest[..1], &rest[3..4], &rest[6..7], &rest[19..]),
            ("-", "-", "T", "Z")
        );
        (year_value, number(1..3), number(4..6), in_day)
    }

    /// Milliseconds of `year-month-day` 00:00 UTC, by counting days with a plain leap rule.
    fn midnight(year: i64, month: i64, day: i64) -> i64 {
        let leap = |y: i64| (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
        let year_days = |y: i64| if leap(y) { 366 } else { 365 };
        let mut days: i64 = 0;
        if year >= 1970 {
            days += (1970..year).map(year_days).sum::<i64>();
        } else {
            days -= (year..1970).map(year_days).sum::<i64>();
        }
        let lengths = [
            31,
            if leap(year) { 29 } else { 28 },
            31,
            30,
            31,
            30,
            31,
            31,
            30,
            31,
            30,
        ];
        days += lengths[..(month - 1) as usize].iter().sum::<i64>() + day - 1;
        days * 86_400_000
    }

    #[test]
    fn known_values() {
        let cases = [
            (0.0, "1970-01-01T00:00:00.000Z"),
            (-1.0, "1969-12-31T23:59:59.999Z"),
            (-0.5, "1969-12-31T23:59:59.999Z"),
            (1.9, "1970-01-01T00:00:00.001Z"),
            (951_782_400_000.0, "2000-02-29T00:00:00.000Z"),
            (1_786_579_200_123.0, "2026-08-13T00:00:00.123Z"),
            (1_795_165_331_482.0, "2026-11-20T09:02:11.482Z"),
            (253_402_300_799_999.0, "9999-12-31T23:59:59.999Z"),
            (253_402_300_800_000.0, "+010000-01-01T00:00:00.000Z"),
            (-62_167_219_200_000.0, "0000-01-01T00:00:00.000Z"),
            (-62_167_219_200_001.0, "-000001-12-31T23:59:59.999Z"),
            (-62_198_755_200_000.0, "-000001-01-01T00:00:00.000Z"),
            (8.64e15, "+275760-09-13T00:00:00.000Z"),
            (-8.64e15, "-271821-04-20T00:00:00.000Z"),
        ];
        for (ms, text) in cases {
            assert_eq!(iso_string(ms).as_deref(), Some(text), "{ms}");
        }
        for ms in [8.64e15 + 1.0, -8.64e15 - 1.0, f64::NAN, f64::INFINITY] {
            assert_eq!(iso_string(ms), None, "{ms}");
        }
        let instant = Timestamp::new(1_787_994_000, 123_999_999).unwrap();
        assert_eq!(iso_utc(instant), "2026-08-29T09:00:00.123Z");
        let before_epoch = Timestamp::new(-1, -1).unwrap();
        assert_eq!(iso_utc(before_epoch), "1969-12-31T23:59:58.999Z");
    }

    #[test]
    fn edge_dates_match_the_old_algorithm() {
        let mut instants: Vec<i64> = Vec::new();
        // Leap days and the days around them, century rules included, and every year boundary
        // from 1899 to 2101 plus far and extended years.
        for year in [
            -271_820, -10_001, -10_000, -9_999, -401, -400, -100, -4, -1, 0, 1, 4, 100, 400, 1600,
            1700, 1800, 1900, 1969, 1970, 1972, 2000, 2024, 2100, 2400, 9_996, 9_999, 10_000,
            10_400, 275_759,
        ] {
            for (month, day) in [(1, 1), (2, 28), (3, 1), (12, 31)] {
                instants.push(midnight(year, month, day));
            }
            let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
            if leap {
                instants.push(midnight(year, 2, 29));
            }
        }
        for year in 1899..=2101 {
            instants.push(midnight(year, 1, 1));
        }
        let mut values: Vec<f64> = Vec::new();
        for base in instants {
            for offset in [-86_400_000, -1, 0, 1, 43_200_000, 86_399_999] {
                values.push((base + offset) as f64);
            }
        }
        // A sweep of the whole range in uneven steps.
        let mut ms = -8.64e15;
        while ms <= 8.64e15 {
            values.push(ms);
            ms += 12_345_678_901_234.5;
        }
        for ms in values {
            let text = iso_string(ms).unwrap();
            assert_eq!(fields(&text), oracle(ms.floor() as i64), "{ms}");
        }
        // The oracle and the helper agree on what a leap day is.
        assert_eq!(
            iso_string(midnight(2000, 2, 29) as f64).unwrap(),
            "2000-02-29T00:00:00.000Z"
        );
        assert_eq!(
            iso_string(midnight(1900, 3, 1) as f64 - 1.0).unwrap(),
            "1900-02-28T23:59:59.999Z"
        );
    }
}
