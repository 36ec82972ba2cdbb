//! The measurement protocol of contract 07 §3 as data: how many cold, warm-up and measured
//! samples a cell takes (full or `--quick`), and the measures' names in round order.
//!
//! Both the rounds (`measure`) and the report (`report`) read it, so neither imports the
//! other for it. It holds no behaviour beyond naming a measure's slot.

/// Samples per phase.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Protocol {
    pub(crate) cold: usize,
    pub(crate) warmup: usize,
    pub(crate) measured: usize,
}

pub(crate) const FULL: Protocol = Protocol {
    cold: 3,
    warmup: 3,
    measured: 20,
};
pub(crate) const QUICK: Protocol = Protocol {
    cold: 1,
    warmup: 1,
    measured: 5,
};

/// The measure names in round order.
pub(crate) const ORDER: [&str; 9] = [
    "raw-read",
    "raw-stat",
    "safe-corpus",
    "safe-walk",
    "safe-enumerate",
    "core",
    "cli",
    "mcp",
    "ripgrep",
];

/// The slot of a measure in [`ORDER`].
pub(crate) fn slot(name: &str) -> usize {
    ORDER.iter().position(|known| *known == name).unwrap_or(0)
}
