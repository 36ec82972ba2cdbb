//! The one rule for a read request that observed a change (contract 03 §4.8 rule 6, contract 02
//! §4 step 5): it runs again from the start, at most [`CHANGED_RUNS`] runs in all, and only the
//! last run's failure is reported.
//!
//! It owns the count and the loop, nothing else: each caller decides which of its failures is
//! an observed change, and each run is the caller's whole request (its own ledger, snapshots and
//! revalidation), so a published answer is still one that saw no change. It must never read,
//! write or sleep itself, and never run again after any other failure.

/// How many times one request runs in all when each run observed a change (contract 03 §4.8,
/// contract 02 §4): a folder an agent appends to several times a second changes under some
/// single runs, rarely under three in a row.
pub const CHANGED_RUNS: usize = 3;

/// Runs `run` again from the start, up to [`CHANGED_RUNS`] runs in all, while its failure is one
/// that `observed_change` accepts; any other outcome is returned at once.
pub(crate) fn run_again_if_changed<T, E>(
    observed_change: impl Fn(&E) -> bool,
    mut run: impl FnMut() -> Result<T, E>,
) -> Result<T, E> {
    let mut runs = 1;
    loop {
        match run() {
            Err(error) if runs < CHANGED_RUNS && observed_change(&error) => runs += 1,
            result => return result,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use super::{CHANGED_RUNS, run_again_if_changed};

    /// Runs with failures `outcome(run)` through the loop; returns the result and the runs.
    fn count(
        outcome: impl Fn(usize) -> Result<usize, &'static str>,
    ) -> (Result<usize, &'static str>, usize) {
        let runs = Cell::new(0);
        let result = run_again_if_changed(
            |error: &&str| *error == "changed",
            || {
                runs.set(runs.get() + 1);
                outcome(runs.get())
            },
        );
        (result, runs.get())
    }

    #[test]
    fn only_an_observed_change_runs_again_and_at_most_three_runs() {
        assert_eq!(count(Ok), (Ok(1), 1));
        assert_eq!(count(|_| Err("unsafe")), (Err("unsafe"), 1));
        let second = |run| if run == 1 { Err("changed") } else { Ok(run) };
        assert_eq!(count(second), (Ok(2), 2));
        let then_other = |run| {
            if run == 1 {
                Err("changed")
            } else {
                Err("too large")
            }
        };
        assert_eq!(count(then_other), (Err("too large"), 2));
        assert_eq!(count(|_| Err("changed")), (Err("changed"), CHANGED_RUNS));
    }
}

/// Tests only: a change to the folder made after a request's reads and before its final
/// check (search's final revalidation, the working context's second authority snapshot), on the
/// thread that runs the request.
#[cfg(test)]
pub(crate) mod before_revalidation {
    use std::cell::RefCell;

    thread_local! {
        static HOOK: RefCell<Option<Box<dyn FnOnce()>>> = RefCell::new(None);
    }

    /// Runs `change` once, just before the next final check on this thread.
    pub(crate) fn set(change: impl FnOnce() + 'static) {
        HOOK.with(|hook| *hook.borrow_mut() = Some(Box::new(change)));
    }

    /// Called by the request just before its final check.
    pub(crate) fn run() {
        if let Some(change) = HOOK.with(|hook| hook.borrow_mut().take()) {
            change();
        }
    }
}
