//! The fair-share arithmetic of contract 03 §14: phase budgets, the two-pass allocation that
//! admits a scope whole or omits it whole, and the `observed` counts of an omission.
//!
//! Pure arithmetic over [`Counts`]; the engine does the charging.

use crate::search::omission::{Counts, OmissionReason};

/// The three dimensions, for per-dimension loops.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Dimension {
    Files,
    Bytes,
    Entries,
}

pub(crate) const DIMENSIONS: [Dimension; 3] =
    [Dimension::Files, Dimension::Bytes, Dimension::Entries];

/// Per-dimension arithmetic on [`Counts`] (a type of the contained reader, so the methods live
/// in this trait).
pub(crate) trait CountsExt: Sized {
    fn get(&self, dimension: Dimension) -> u64;
    fn set(&mut self, dimension: Dimension, value: u64);
    fn map(self, f: impl FnMut(Dimension, u64) -> u64) -> Self;
    fn saturating_sub(self, other: Self) -> Self;
    fn add(self, other: Self) -> Self;
    fn min(self, other: Self) -> Self;
    fn fits_in(self, other: Self) -> bool;
}

impl CountsExt for Counts {
    fn get(&self, dimension: Dimension) -> u64 {
        match dimension {
            Dimension::Files => self.files,
            Dimension::Bytes => self.bytes,
            Dimension::Entries => self.entries,
        }
    }

    fn set(&mut self, dimension: Dimension, value: u64) {
        match dimension {
            Dimension::Files => self.files = value,
            Dimension::Bytes => self.bytes = value,
            Dimension::Entries => self.entries = value,
        }
    }

    fn map(self, mut f: impl FnMut(Dimension, u64) -> u64) -> Counts {
        let mut out = Counts::default();
        for dimension in DIMENSIONS {
            out.set(dimension, f(dimension, self.get(dimension)));
        }
        out
    }

    fn saturating_sub(self, other: Counts) -> Counts {
        self.map(|dimension, value| value.saturating_sub(other.get(dimension)))
    }

    fn add(self, other: Counts) -> Counts {
        self.map(|dimension, value| value.saturating_add(other.get(dimension)))
    }

    fn min(self, other: Counts) -> Counts {
        self.map(|dimension, value| value.min(other.get(dimension)))
    }

    fn fits_in(self, other: Counts) -> bool {
        DIMENSIONS
            .iter()
            .all(|&dimension| self.get(dimension) <= other.get(dimension))
    }
}

/// Fair phase budgets (§14.2) for `n` scopes over a capacity.
#[derive(Debug, Clone)]
pub(crate) struct PhaseBudgets {
    share: Counts,
    pool: Counts,
}

impl PhaseBudgets {
    pub(crate) fn new(capacity: Counts, scopes: usize) -> PhaseBudgets {
        let n = scopes.max(1) as u64;
        let share = capacity.map(|_, value| (value / 2) / n);
        let pool = capacity.map(|dimension, value| value - n * share.get(dimension));
        PhaseBudgets { share, pool }
    }

    /// What the next scope may charge in this phase.
    pub(crate) fn allowance(&self) -> Counts {
        self.share.add(self.pool)
    }

    /// Settles the pool after a scope charged `used` of its allowance.
    pub(crate) fn settle(&mut self, used: Counts) {
        let share = self.share;
        self.pool = self.pool.map(|dimension, pool| {
            let share = share.get(dimension);
            let used = used.get(dimension);
            if used > share {
                pool.saturating_sub(used - share)
            } else {
                pool + (share - used)
            }
        });
    }
}

/// One scope's entry in an allocation.
#[derive(Debug, Clone, Copy)]
pub(crate) struct AllocationItem {
    /// `max(0, D_s − M_s)` per dimension.
    pub(crate) need: Counts,
    /// A skippable error remembered for the scope.
    pub(crate) error: Option<OmissionReason>,
}

/// The allocation of §14.3: for each item, `Ok(())` when admitted or the omission reason.
pub(crate) fn allocate(
    items: &[AllocationItem],
    capacity: Counts,
) -> Vec<Result<(), OmissionReason>> {
    let count = items.len().max(1) as u64;
    let share = capacity.map(|_, value| (value / 2) / count);
    let mut pool = capacity;
    let reserved: Vec<Counts> = items
        .iter()
        .map(|item| {
            if item.error.is_some() {
                Counts::default()
            } else {
                item.need.min(share)
            }
        })
        .collect();
    for (item, reserved) in items.iter().zip(&reserved) {
        if item.error.is_none() {
            pool = pool.saturating_sub(*reserved);
        }
    }
    let mut admitted = vec![false; items.len()];
    for (index, item) in items.iter().enumerate() {
        if item.error.is_some() {
            continue;
        }
        let rest = item.need.saturating_sub(reserved[index]);
        if rest.fits_in(pool) {
            admitted[index] = true;
            pool = pool.saturating_sub(rest);
        }
    }
    for (index, item) in items.iter().enumerate() {
        if item.error.is_none() && !admitted[index] {
            pool = pool.add(reserved[index]);
        }
    }
    for (index, item) in items.iter().enumerate() {
        if item.error.is_some() || admitted[index] {
            continue;
        }
        if item.need.fits_in(pool) {
            admitted[index] = true;
            pool = pool.saturating_sub(item.need);
        }
    }
    items
        .iter()
        .enumerate()
        .map(|(index, item)| {
            if admitted[index] {
                return Ok(());
            }
            Err(match item.error {
                Some(reason) => reason,
                None if item.need.bytes > pool.bytes => OmissionReason::AggregateBytesExceeded,
                None if item.need.files > pool.files => OmissionReason::FileCountExceeded,
                None => OmissionReason::EntryCountExceeded,
            })
        })
        .collect()
}

/// The `observed` counts of §14.4 for a scope whose demand was `demand`, against the reported
/// capacity `reported`.
pub(crate) fn observed(demand: Counts, reported: Counts, reason: OmissionReason) -> Counts {
    let mut observed =
        demand.map(|dimension, value| value.min(reported.get(dimension).saturating_add(1)));
    match reason {
        OmissionReason::FileCountExceeded => observed.files = reported.files.saturating_add(1),
        OmissionReason::AggregateBytesExceeded => {
            observed.bytes = reported.bytes.saturating_add(1);
        }
        OmissionReason::EntryCountExceeded => {
            observed.entries = reported.entries.saturating_add(1);
        }
        _ => {}
    }
    observed
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn counts(files: u64, bytes: u64, entries: u64) -> Counts {
        Counts {
            files,
            bytes,
            entries,
        }
    }

    fn item(files: u64, bytes: u64, entries: u64) -> AllocationItem {
        AllocationItem {
            need: counts(files, bytes, entries),
            error: None,
        }
    }

    #[test]
    fn phase_budgets_share_half_and_pool_the_rest() {
        let mut budgets = PhaseBudgets::new(counts(100, 1000, 10), 4);
        // share = floor(50/4) = 12; pool = 100 − 48 = 52.
        assert_eq!(budgets.allowance(), counts(64, 125 + 500, 1 + 6));
        budgets.settle(counts(2, 0, 0));
        assert_eq!(budgets.allowance().files, 12 + 52 + 10);
        budgets.settle(counts(40, 0, 0));
        assert_eq!(budgets.allowance().files, 12 + 62 - 28);
    }

    #[test]
    fn everything_fits() {
        let result = allocate(&[item(1, 10, 0), item(2, 20, 0)], counts(10, 100, 10));
        assert_eq!(result, [Ok(()), Ok(())]);
    }

    #[test]
    fn a_large_scope_cannot_starve_small_ones() {
        // Capacity 100 files; share = floor(50/3) = 16.
        let items = [item(90, 0, 0), item(10, 0, 0), item(10, 0, 0)];
        let result = allocate(&items, counts(100, 1000, 1000));
        assert_eq!(
            result,
            [Err(OmissionReason::FileCountExceeded), Ok(()), Ok(())]
        );
        // Alone, the large scope is admitted in pass 2.
        let result = allocate(&[item(90, 0, 0)], counts(100, 1000, 1000));
        assert_eq!(result, [Ok(())]);
    }

    #[test]
    fn pass_two_admits_what_pass_one_left() {
        // share = floor(5/2) = 2; reserved 2 and 1, pool 7. The first needs 8 − 2 = 6 more
        // (pool 1 left), the second nothing more.
        let result = allocate(&[item(8, 0, 0), item(1, 0, 0)], counts(10, 0, 0));
        assert_eq!(result, [Ok(()), Ok(())]);
    }

    #[test]
    fn reasons_follow_bytes_then_files_then_entries() {
        let capacity = counts(1, 1, 1);
        assert_eq!(
            allocate(&[item(0, 5, 0)], capacity),
            [Err(OmissionReason::AggregateBytesExceeded)]
        );
        assert_eq!(
            allocate(&[item(5, 0, 0)], capacity),
            [Err(OmissionReason::FileCountExceeded)]
        );
        assert_eq!(
            allocate(&[item(0, 0, 5)], capacity),
            [Err(OmissionReason::EntryCountExceeded)]
        );
        let errored = AllocationItem {
            need: counts(0, 0, 0),
            error: Some(OmissionReason::FileTooLarge),
        };
        assert_eq!(
            allocate(&[errored], capacity),
            [Err(OmissionReason::FileTooLarge)]
        );
    }

    #[test]
    fn observed_is_capped_and_overridden() {
        let reported = counts(10, 100, 1000);
        assert_eq!(
            observed(
                counts(50, 50, 5),
                reported,
                OmissionReason::FileCountExceeded
            ),
            counts(11, 50, 5)
        );
        assert_eq!(
            observed(
                counts(3, 500, 5),
                reported,
                OmissionReason::AggregateBytesExceeded
            ),
            counts(3, 101, 5)
        );
        assert_eq!(
            observed(counts(0, 0, 1), reported, OmissionReason::FileTooLarge),
            counts(0, 0, 1)
        );
    }

    proptest! {
        #[test]
        fn admitted_needs_never_exceed_capacity(
            needs in proptest::collection::vec((0u64..60, 0u64..600, 0u64..60), 1..9),
            capacity in (0u64..120, 0u64..1200, 0u64..120),
        ) {
            let items: Vec<AllocationItem> = needs.iter().map(|&(f, b, e)| item(f, b, e)).collect();
            let capacity = counts(capacity.0, capacity.1, capacity.2);
            let result = allocate(&items, capacity);
            let mut total = Counts::default();
            for (item, outcome) in items.iter().zip(&result) {
                if outcome.is_ok() {
                    total = total.add(item.need);
                }
            }
            prop_assert!(total.fits_in(capacity));
            // Any single item that fits alone and is first is admitted.
            if items[0].need.fits_in(capacity.map(|_, v| v / 2 / items.len() as u64)) {
                prop_assert!(result[0].is_ok());
            }
        }

        #[test]
        fn phase_allowances_never_exceed_capacity(
            capacity in 0u64..10_000,
            uses in proptest::collection::vec(0u64..10_000, 1..9),
        ) {
            let n = uses.len();
            let mut budgets = PhaseBudgets::new(counts(capacity, 0, 0), n);
            let mut total = 0;
            for used in uses {
                let used = used.min(budgets.allowance().files);
                total += used;
                prop_assert!(total <= capacity);
                budgets.settle(counts(used, 0, 0));
            }
        }
    }
}
