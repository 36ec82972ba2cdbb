//! The clock rules of contract 02 §3 and JavaScript's `Date.parse` for the ECMAScript date-time
//! string format (contract 02 §16).
//!
//! The time zone is always an argument: this crate never reads `TZ` or the system zone itself,
//! so tests inject both the clock and the zone.

use jiff::Timestamp;
use jiff::civil::Date;
use jiff::tz::TimeZone;

use crate::text::js_date_parse;

/// The local calendar dates of one request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LocalDates {
    /// `today` as `YYYY-MM-DD` in the zone.
    pub(crate) today: String,
    /// The previous calendar date (calendar arithmetic, so DST cannot skip or repeat a day).
    pub(crate) yesterday: String,
}

/// `today` and `yesterday` of `now` in `zone` (contract 02 §3).
pub(crate) fn local_dates(now: Timestamp, zone: &TimeZone) -> LocalDates {
    let date = now.to_zoned(zone.clone()).date();
    let yesterday = date.yesterday().unwrap_or(date);
    LocalDates {
        today: iso_date(date),
        yesterday: iso_date(yesterday),
    }
}

fn iso_date(date: Date) -> String {
    let year = date.year();
    if (0..=9999).contains(&year) {
        format!("{year:04}-{:02}-{:02}", date.month(), date.day())
    } else {
        // JavaScript's padStart(4) leaves longer and negative years as they print.
        format!("{year}-{:02}-{:02}", date.month(), date.day())
    }
}

/// JavaScript `Date.parse(text)` restricted to the ECMAScript date-time string format and its
/// extended years (contract 02 §16, open point 3): milliseconds since the epoch, or `None` where
/// JavaScript gives `NaN`.
///
/// Date-only forms are UTC; date-time forms without an offset are local time in `zone`, read
/// by the one local-time conversion (`text::local_time_to_utc`: a time in a DST gap moves
/// forward, an ambiguous one takes the earlier instant, as ECMAScript requires). The grammar
/// and arithmetic are [`js_date_parse`]'s.
pub(crate) fn date_parse_ms(text: &str, zone: &TimeZone) -> Option<f64> {
    js_date_parse(text, zone)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::iso_utc;

    fn utc(text: &str) -> Option<f64> {
        date_parse_ms(text, &TimeZone::UTC)
    }

    fn zone(name: &str) -> TimeZone {
        TimeZone::get(name).unwrap_or(TimeZone::UTC)
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
    fn offsetless_date_times_are_local() {
        let berlin = zone("Europe/Berlin");
        assert_eq!(
            date_parse_ms("2026-08-29T11:00:00", &berlin),
            utc("2026-08-29T09:00:00Z")
        );
        // Date-only stays UTC whatever the zone.
        assert_eq!(date_parse_ms("2026-08-29", &berlin), utc("2026-08-29"));
        // 02:30 on the spring-forward day does not exist; it reads as 03:30 CEST.
        assert_eq!(
            date_parse_ms("2026-03-29T02:30:00", &berlin),
            utc("2026-03-29T01:30:00Z")
        );
        // 02:30 on the fall-back day happens twice; the earlier (CEST) wins.
        assert_eq!(
            date_parse_ms("2026-10-25T02:30:00.250", &berlin),
            utc("2026-10-25T00:30:00.250Z")
        );
    }

    #[test]
    fn local_calendar_dates() {
        let now = Timestamp::from_second(1_787_997_600).unwrap_or(Timestamp::UNIX_EPOCH);
        assert_eq!(iso_utc(now), "2026-08-29T10:00:00.000Z");
        let dates = local_dates(now, &TimeZone::UTC);
        assert_eq!(dates.today, "2026-08-29");
        assert_eq!(dates.yesterday, "2026-08-28");
        // 10:00Z is already the next day in Kiritimati (UTC+14).
        let dates = local_dates(now, &zone("Pacific/Kiritimati"));
        assert_eq!(dates.today, "2026-08-30");
        // Across a month boundary and a DST change.
        let march = Timestamp::from_second(1_774_746_000).unwrap_or(Timestamp::UNIX_EPOCH);
        let dates = local_dates(march, &zone("Europe/Berlin"));
        assert_eq!(
            (dates.today.as_str(), dates.yesterday.as_str()),
            ("2026-03-29", "2026-03-28")
        );
        let first = Timestamp::from_second(1_788_220_800).unwrap_or(Timestamp::UNIX_EPOCH);
        assert_eq!(local_dates(first, &TimeZone::UTC).yesterday, "2026-08-31");
    }
}
