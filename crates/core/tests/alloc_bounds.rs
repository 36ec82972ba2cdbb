//! Allocation bounds of the per-file stages that hostile content targets (issue 21 F1, F2,
//! issue 35; contract 03 §8.2, §10.2, §10.6), counted by a global allocator and never timed: over inputs the
//! test allocates first, the peak of live bytes the collection adds must not grow with the
//! input. Each stage runs at 1 MiB and at 4 MiB; the larger run may add at most a small slack.
//!
//! One test function, so no other test allocates while the counter runs.

use dotaios_core::search::bounds::{memory_kept, memory_kept_in, snippet_count};
use peak_alloc::PeakAlloc;

#[global_allocator]
static COUNTER: PeakAlloc = PeakAlloc;

const MIB: usize = 1 << 20;

/// The peak of live bytes `run` adds above what was live when it started.
fn added_peak(run: impl FnOnce()) -> usize {
    let before = COUNTER.current_usage();
    COUNTER.reset_peak_usage();
    run();
    COUNTER.peak_usage().saturating_sub(before)
}

fn snippets_peak(size: usize) -> usize {
    let text = "x\n".repeat(size / 2);
    let mut lower = String::with_capacity(text.len());
    added_peak(|| assert_eq!(snippet_count(&text, "x", &mut lower), 5))
}

fn memory_peak(size: usize) -> usize {
    let line = "{\"summary\":\"x\"}\n";
    // Three sources, as issue 21 F2; distinct texts so suppression has nothing to merge.
    let texts: Vec<String> = (0..3).map(|_| line.repeat(size / line.len())).collect();
    added_peak(|| assert_eq!(memory_kept(texts, "x", 10), 10))
}

/// One event and `size` bytes of signals sharing its `record_id` (issue 35): the
/// event ranks first, so every signal is dropped by the cross-family dedupe, and which family
/// the record shows is only known at the end of the walk.
fn shared_record_peak(size: usize) -> usize {
    let event = "{\"summary\":\"x\",\"record_id\":\"r\"}\n".to_owned();
    let signal = "{\"summary\":\"x y z\",\"record_id\":\"r\"}\n";
    let signals = vec![signal.repeat(size / signal.len())];
    added_peak(|| assert_eq!(memory_kept_in(event, signals, "x", 10), 1))
}

/// One line of `size` bytes holding an array of `size / 2` numbers beside a matching line
/// (issue 35): the long line is over the item ceiling and skipped before it is built.
fn long_line_peak(size: usize) -> usize {
    let long = format!("{{\"summary\":\"x\",\"a\":[{}0]}}\n", "0,".repeat(size / 2));
    let text = format!("{long}{{\"summary\":\"x\"}}\n");
    added_peak(|| assert_eq!(memory_kept(vec![text], "x", 10), 1))
}

#[test]
fn snippet_and_memory_collection_allocate_for_their_output_only() {
    // Warm up lazily built tables (stemmers, stop words) so they count in neither run.
    snippets_peak(MIB);
    memory_peak(MIB);

    let small = snippets_peak(MIB);
    let large = snippets_peak(4 * MIB);
    assert!(
        large <= small + 16 * 1024 && large < 256 * 1024,
        "snippets of a one-character file: {small} bytes at 1 MiB, {large} at 4 MiB"
    );

    let small = memory_peak(MIB);
    let large = memory_peak(4 * MIB);
    assert!(
        large <= small + 16 * 1024 && large < 256 * 1024,
        "memory entries of tiny-entry sources: {small} bytes at 1 MiB, {large} at 4 MiB"
    );

    shared_record_peak(MIB);
    let small = shared_record_peak(MIB);
    let large = shared_record_peak(4 * MIB);
    assert!(
        large <= small + 16 * 1024 && large < 256 * 1024,
        "memory entries sharing one record_id: {small} bytes at 1 MiB, {large} at 4 MiB"
    );

    let small = long_line_peak(MIB);
    let large = long_line_peak(4 * MIB);
    assert!(
        large <= small + 16 * 1024 && large < 256 * 1024,
        "a line of one long array: {small} bytes at 1 MiB, {large} at 4 MiB"
    );
}
