//! The request clock of contract 03 §9 and how JSONL `ts` values are read as instants against
//! it (the parser itself is `text::js_date_parse`); the ranking that uses them (IDF, the recency
//! prior) is `relevance.rs`.
//!
//! Pure arithmetic. The clock and the local time zone are inputs ([`Clock`]); nothing here
//! reads them.

use jiff::tz::TimeZone;

use crate::text::js_date_parse;

/// The request's notion of time, read once by the caller (contract 03 §9.3).
#[derive(Clone, Copy)]
pub struct Clock<'a> {
    /// Milliseconds since the Unix epoch, read once per request.
    pub now_ms: f64,
    /// The local time zone: a `ts` without an offset is local time in it, as in JavaScript
    /// (contract 03 §9.3). The binaries pass the process zone (`TimeZone::system()`).
    pub time_zone: &'a TimeZone,
}

impl std::fmt::Debug for Clock<'_> {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("Clock")
            .field("now_ms", &self.now_ms)
            .field("time_zone", &self.time_zone.iana_name())
            .finish()
    }
}

/// Parses a JSONL `ts` with JavaScript `Date.parse` rules ([`js_date_parse`]): the ECMAScript
/// date-time string format, date-only forms UTC, date-times without an offset local time in
/// `clock.time_zone` by the one local-time conversion the working context uses too
/// (`text::local_time_to_utc`, its rule at a daylight-saving change stated there). Anything
/// else (the open point of §9.3) is `None`: no decay.
pub(crate) fn parse_ts(text: &str, clock: &Clock<'_>) -> Option<f64> {
    js_date_parse(text, clock.time_zone)
}

#[cfg(test)]
mod tests {
    use super::*;

    const DAY_MS: f64 = 86_400_000.0;

    static UTC: jiff::tz::TimeZone = jiff::tz::TimeZone::UTC;

    fn utc_clock() -> Clock<'static> {
        Clock {
            now_ms: 0.0,
            time_zone: &UTC,
        }
    }

    fn parse(text: &str) -> Option<f64> {
        parse_ts(text, &utc_clock())
    }

    #[test]
    fn iso_forms() {
        assert_eq!(parse("1970"), Some(0.0));
        assert_eq!(parse("1970-01-02"), Some(DAY_MS));
        assert_eq!(parse("2026-08-13T00:00:00.000Z"), Some(1_786_579_200_000.0));
        assert_eq!(parse("2026-08-13T00:00Z"), Some(1_786_579_200_000.0));
        assert_eq!(
            parse("2026-08-13T02:00:00+02:00"),
            Some(1_786_579_200_000.0)
        );
        assert_eq!(
            parse("2026-08-13T00:00:00.1234Z"),
            Some(1_786_579_200_123.0)
        );
        assert_eq!(parse("+002026-08-13"), Some(1_786_579_200_000.0));
        assert_eq!(parse("-000001"), Some(-62_198_755_200_000.0));
        assert_eq!(parse("2000-02-29"), Some(951_782_400_000.0));
        assert_eq!(
            parse("2026-08-13T24:00:00Z"),
            Some(1_786_579_200_000.0 + DAY_MS)
        );
    }

    #[test]
    fn local_time_uses_the_zone() {
        let zone = TimeZone::fixed(jiff::tz::offset(1));
        let clock = Clock {
            now_ms: 0.0,
            time_zone: &zone,
        };
        assert_eq!(parse_ts("1970-01-01T01:00", &clock), Some(0.0));
        // Date-only forms stay UTC.
        assert_eq!(parse_ts("1970-01-01", &clock), Some(0.0));
    }

    #[test]
    fn rejects_other_formats() {
        for bad in [
            "",
            "2026-8-13",
            "13/08/2026",
            "Aug 13 2026",
            "2026-13-01",
            "2026-00-10",
            "2026-01-32",
            "2026-08-13T25:00Z",
            "2026-08-13T10Z",
            "2026-08-13T24:00:01Z",
            "2026-08-13 10:00",
            "-000000",
            "2026-08-13T10:00:00.Z",
            "2026-08-13Z",
            "2026-08-13T10:00+0200",
        ] {
            assert_eq!(parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn days_past_the_month_roll_over() {
        assert_eq!(parse("2026-02-31"), parse("2026-03-03"));
    }
}
