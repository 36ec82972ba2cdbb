//! The only code that writes: to an AIOS folder (`init`, later `migrate`) or to a client
//! configuration (later `connect`). Kept apart from the read commands so that every write is
//! easy to find and review.
//!
//! [`atomic`] is the single primitive for putting bytes on disk (handles, no-follow, temporary
//! file, fsync, rename, exclusive creation); the writers build on it and read, when they must,
//! through `dotaios-contained`. [`iso_utc_millis`] is the timestamp every writer records.

pub(crate) mod atomic;
pub(crate) mod connect;
pub(crate) mod init;
pub(crate) mod migrate;
pub(crate) mod templates;

use std::time::{SystemTime, UNIX_EPOCH};

/// `time` as the writers record it (`created_at` of `aios.json`, the migration journal and
/// receipt): `YYYY-MM-DDTHH:MM:SS.sssZ` in UTC through the one formatter,
/// [`dotaios_core::text::iso_string`]. A clock before 1970 prints as the epoch, one past
/// JavaScript's last date (+275760-09-13) as that date.
pub(crate) fn iso_utc_millis(time: SystemTime) -> String {
    let millis = time
        .duration_since(UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_millis());
    // At most 8.64e15, so exact as a double and inside the formatter's range.
    let millis = millis.min(8_640_000_000_000_000) as f64;
    dotaios_core::text::iso_string(millis).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn timestamps_are_iso_utc_with_milliseconds() {
        assert_eq!(iso_utc_millis(UNIX_EPOCH), "1970-01-01T00:00:00.000Z");
        let when = UNIX_EPOCH + Duration::from_millis(1_795_165_331_482);
        assert_eq!(iso_utc_millis(when), "2026-11-20T09:02:11.482Z");
        let leap = UNIX_EPOCH + Duration::from_secs(951_782_400);
        assert_eq!(iso_utc_millis(leap), "2000-02-29T00:00:00.000Z");
        let before = UNIX_EPOCH - Duration::from_secs(1);
        assert_eq!(iso_utc_millis(before), "1970-01-01T00:00:00.000Z");
        let sub_millisecond = UNIX_EPOCH + Duration::from_nanos(1_999_999);
        assert_eq!(iso_utc_millis(sub_millisecond), "1970-01-01T00:00:00.001Z");
    }
}
