//! The clock rules of contract 02 §3: the local calendar dates of one request. `Date.parse`
//! (contract 02 §16) is `text::js_date_parse`, which the timeline calls directly.
//!
//! The time zone is always an argument: this crate never reads `TZ` or the system zone itself,
//! so tests inject both the clock and the zone.

use jiff::Timestamp;
use jiff::civil::Date;
use jiff::tz::TimeZone;

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::iso_utc;

    fn zone(name: &str) -> TimeZone {
        TimeZone::get(name).unwrap_or(TimeZone::UTC)
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
