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
    // Threads take items a chunk at a time: small chunks keep every thread busy when a few
    // items are most of the work (8 notes of 4 MiB each, contract 07 §4.1 target p), and a
    // ceiling of 32 keeps the shared counter cold when there are thousands of small files.
    const MAX_CHUNK: usize = 32;
    let workers = workers.clamp(1, 32).min(items.len().max(1));
    let chunk = items.len().div_ceil(workers * 4).clamp(1, MAX_CHUNK);
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
                        let start = next.fetch_add(chunk, AtomicOrdering::Relaxed);
                        if start >= items.len() {
                            break;
                        }
                        let end = (start + chunk).min(items.len());
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
    fn a_few_items_are_shared_between_threads() {
        // Eight large items (the prose rows' notes) must not all land on one thread.
        let items: Vec<usize> = (0..8).collect();
        let threads = parallel_map(&items, 2, |_, _| {
            std::thread::sleep(std::time::Duration::from_millis(20));
            std::thread::current().id()
        });
        let first = threads[0];
        assert!(threads.iter().any(|id| *id != first), "{threads:?}");
    }

    #[test]
    fn parallel_map_keeps_order() {
        let items: Vec<usize> = (0..1000).collect();
        for workers in [1, 2, 7] {
            let out = parallel_map(&items, workers, |item, _| item * 2);
            assert_eq!(out, items.iter().map(|item| item * 2).collect::<Vec<_>>());
        }
    }
}
