//! The harness's one reading of a timer: the nanoseconds since an [`Instant`].
//!
//! It owns only that conversion; it never decides what a sample covers.

use std::time::Instant;

/// The nanoseconds since `start`, saturating at `u64::MAX`.
pub(crate) fn elapsed_ns(start: Instant) -> u64 {
    u64::try_from(start.elapsed().as_nanos()).unwrap_or(u64::MAX)
}
