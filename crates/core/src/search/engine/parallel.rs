//! The one parallel helper of the engine: applies a function to items on a few threads and
//! returns the results in item order, so failures and results never depend on scheduling.
//!
//! Knows nothing of search; never reorders.

use std::sync::atomic::{AtomicUsize, Ordering as AtomicOrdering};

/// Applies `work` to every item on up to `workers` threads and returns the results in item
/// order. Each thread gets its own scratch buffer.
pub(super) fn parallel_map<T: Sync, R: Send>(
    items: &[T],
    workers: usize,
    work: impl Fn(&T, &mut String) -> R + Sync,
) -> Vec<R> {
    const CHUNK: usize = 32;
    let workers = workers.clamp(1, 32).min(items.len().div_ceil(CHUNK).max(1));
    if workers <= 1 {
        let mut buffer = String::new();
        return items.iter().map(|item| work(item, &mut buffer)).collect();
    }
    let next = AtomicUsize::new(0);
    let mut pieces: Vec<(usize, Vec<R>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                scope.spawn(|| {
                    let mut buffer = String::new();
                    let mut done: Vec<(usize, Vec<R>)> = Vec::new();
                    loop {
                        let start = next.fetch_add(CHUNK, AtomicOrdering::Relaxed);
                        if start >= items.len() {
                            break;
                        }
                        let end = (start + CHUNK).min(items.len());
                        let results = items[start..end]
                            .iter()
                            .map(|item| work(item, &mut buffer))
                            .collect();
                        done.push((start, results));
                    }
                    done
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|handle| {
                handle
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect()
    });
    pieces.sort_by_key(|(start, _)| *start);
    pieces
        .into_iter()
        .flat_map(|(_, results)| results)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parallel_map_keeps_order() {
        let items: Vec<usize> = (0..1000).collect();
        for workers in [1, 2, 7] {
            let out = parallel_map(&items, workers, |item, _| item * 2);
            assert_eq!(out, items.iter().map(|item| item * 2).collect::<Vec<_>>());
        }
    }
}
