//! `search_aios` in shared and project mode (contract 05 §7.4, §8.2, §8.3, §8.6): the search and
//! its payload (flattened, sanitised, fitted) are `dotaios-core`'s, the search the same function
//! as `dotaios search`; this module builds the request (clock, zone, workers), calls, and maps
//! errors at [`RpcError::from_core`].

use std::path::Path;

use dotaios_core::search::{
    Clock, SearchCache, SearchRequest, SessionFilters, search, search_cached,
};
use jiff::Timestamp;
use jiff::tz::TimeZone;

use crate::error::RpcError;
use crate::tools::args::SearchArgs;

/// Runs the search (through the server's content cache when it has one) and returns the
/// fitted payload text.
pub(crate) fn run(
    folder: &Path,
    args: &SearchArgs,
    time_zone: &TimeZone,
    cache: Option<&SearchCache>,
) -> Result<String, RpcError> {
    let local_offset_ms = |local_ms: f64| local_offset(time_zone, local_ms);
    let filters = SessionFilters::default();
    let request = SearchRequest {
        query: args.query,
        scope: args.scope,
        limit: args.limit,
        memory: args.mode,
        project: args.project,
        session_filters: &filters,
        clock: Clock {
            now_ms: Timestamp::now().as_millisecond() as f64,
            local_offset_ms: &local_offset_ms,
        },
        workers: std::thread::available_parallelism().map_or(1, |count| count.get().min(4)),
    };
    // The clock above is the real time, as the cache's racy window requires.
    let outcome = match cache {
        Some(cache) => search_cached(folder, &request, cache),
        None => search(folder, &request),
    }
    .map_err(|error| RpcError::from_core(&error))?;
    outcome
        .mcp_payload(args.query, args.budget)
        .map_err(|error| RpcError::from_core(&error))
}

/// The offset from UTC (ms, positive east) of `time_zone` at a local wall-clock time given as
/// milliseconds since the epoch as if it were UTC; JavaScript reads offset-less date-times so.
fn local_offset(time_zone: &TimeZone, local_ms: f64) -> f64 {
    let Ok(instant) = Timestamp::from_millisecond(local_ms as i64) else {
        return 0.0;
    };
    let wall = instant.to_zoned(TimeZone::UTC).datetime();
    time_zone
        .to_ambiguous_zoned(wall)
        .compatible()
        .map_or(0.0, |zoned| f64::from(zoned.offset().seconds()) * 1000.0)
}
