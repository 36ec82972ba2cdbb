//! `search_aios` in shared and project mode (contract 05 §7.4, §8.2, §8.3, §8.6): the search and
//! its payload (flattened, sanitised, fitted) are `dotaios-core`'s, the search the same function
//! as `dotaios search`; this module builds the request (clock, zone, workers), calls, and maps
//! errors at [`RpcError::from_core`].

use std::path::Path;

use dotaios_core::search::{
    Clock, SearchCache, SearchRequest, SessionFilters, SnippetForm, search, search_cached,
};
use jiff::Timestamp;
use jiff::tz::TimeZone;

use crate::error::RpcError;
use crate::tools::args::SearchArgs;

/// Runs the search (through the server's content cache when it has one), its Markdown
/// snippets in `snippets` form, and returns the fitted payload text.
pub(crate) fn run(
    folder: &Path,
    args: &SearchArgs,
    snippets: SnippetForm,
    time_zone: &TimeZone,
    cache: Option<&SearchCache>,
) -> Result<String, RpcError> {
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
            time_zone,
        },
        workers: std::thread::available_parallelism().map_or(1, |count| count.get().min(4)),
        snippets,
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
