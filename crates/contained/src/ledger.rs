//! The request ledger: aggregate bounds shared by every read of one request.

/// An amount in the ledger's three dimensions: a ceiling ([`Limits`]), what a ledger has
/// reserved ([`Ledger::used`]), or what a scope observed (search's allocation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Counts {
    /// Files opened for reading.
    pub files: u64,
    /// Bytes reserved (the file size at open, whatever part is actually read).
    pub bytes: u64,
    /// Directory entries enumerated, plus whatever else the caller charges (JSONL lines).
    pub entries: u64,
}

/// Aggregate limits of one request: [`Counts`] read as ceilings. A reservation is admitted when
/// `used + n ≤ limit`.
pub type Limits = Counts;

/// Which ledger dimension refused a reservation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BudgetDimension {
    /// Too many files.
    Files,
    /// Too many bytes.
    Bytes,
    /// Too many entries.
    Entries,
}

/// Usage against [`Limits`]. One ledger per request; it never shrinks.
#[derive(Debug, Clone)]
pub struct Ledger {
    limits: Limits,
    files: u64,
    bytes: u64,
    entries: u64,
}

impl Ledger {
    /// An empty ledger with these limits.
    pub fn new(limits: Limits) -> Ledger {
        Ledger {
            limits,
            files: 0,
            bytes: 0,
            entries: 0,
        }
    }

    /// The limits this ledger enforces.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// What has been reserved so far.
    pub fn used(&self) -> Counts {
        Counts {
            files: self.files,
            bytes: self.bytes,
            entries: self.entries,
        }
    }

    /// Reserves one file of `size` bytes, or refuses without changing anything.
    pub fn reserve_file(&mut self, size: u64) -> Result<(), BudgetDimension> {
        if !fits(self.files, 1, self.limits.files) {
            return Err(BudgetDimension::Files);
        }
        if !fits(self.bytes, size, self.limits.bytes) {
            return Err(BudgetDimension::Bytes);
        }
        self.files += 1;
        self.bytes += size;
        Ok(())
    }

    /// Reserves `count` entries, or refuses without changing anything.
    pub fn reserve_entries(&mut self, count: u64) -> Result<(), BudgetDimension> {
        if !fits(self.entries, count, self.limits.entries) {
            return Err(BudgetDimension::Entries);
        }
        self.entries += count;
        Ok(())
    }

    /// Whether `count` more entries would still fit (nothing is reserved).
    pub fn can_reserve_entries(&self, count: u64) -> bool {
        fits(self.entries, count, self.limits.entries)
    }

    /// Whether one more file of `size` bytes would still fit (nothing is reserved).
    pub fn can_reserve_file(&self, size: u64) -> bool {
        fits(self.files, 1, self.limits.files) && fits(self.bytes, size, self.limits.bytes)
    }
}

fn fits(used: u64, more: u64, limit: u64) -> bool {
    used.checked_add(more).is_some_and(|total| total <= limit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exactly_at_the_limit_is_admitted() {
        let mut ledger = Ledger::new(Limits {
            files: 2,
            bytes: 10,
            entries: 3,
        });
        ledger.reserve_file(4).unwrap();
        ledger.reserve_file(6).unwrap();
        assert_eq!(ledger.reserve_file(0), Err(BudgetDimension::Files));
        ledger.reserve_entries(3).unwrap();
        assert_eq!(ledger.reserve_entries(1), Err(BudgetDimension::Entries));
        assert_eq!(ledger.used().bytes, 10);
    }

    #[test]
    fn a_refusal_changes_nothing() {
        let mut ledger = Ledger::new(Limits {
            files: 5,
            bytes: 10,
            entries: 0,
        });
        assert_eq!(ledger.reserve_file(11), Err(BudgetDimension::Bytes));
        assert_eq!(ledger.used().files, 0);
        assert_eq!(ledger.reserve_file(u64::MAX), Err(BudgetDimension::Bytes));
    }
}
