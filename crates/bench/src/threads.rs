//! The reader threads every timed pass shares (`raw-read`, `safe-walk`, the `uring` floors):
//! run one closure on a fixed number of scoped threads and collect what each returned.
//!
//! It owns only the threads; it never times, reads or checks anything itself, and it imports
//! nothing from the passes that use it.

/// Runs `work` on `workers` threads (each takes its items from a shared index) and collects
/// what each returned; a thread that panicked is an error.
pub(crate) fn on_threads<T: Send>(
    workers: usize,
    work: impl Fn() -> Result<T, String> + Sync,
) -> Vec<Result<T, String>> {
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers.max(1)).map(|_| scope.spawn(&work)).collect();
        handles
            .into_iter()
            .map(|handle| {
                handle
                    .join()
                    .unwrap_or_else(|_| Err("a reader thread panicked".to_owned()))
            })
            .collect()
    })
}
