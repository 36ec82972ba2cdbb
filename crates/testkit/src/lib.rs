//! Test support for the workspace, used only as a dev-dependency (`publish = false`).
//!
//! It owns what every crate's tests need and must agree on: [`fingerprint`], the one
//! definition of "the folder is unchanged"; [`Folder`], AIOS folders built in temporary
//! directories without running any `dotaios` binary; [`run`], a command runner bounded by
//! a timeout; [`hostile_names`], the odd names a folder may hold; and [`SplitMix64`], the seeded generator of test cases. It never reads or writes outside the paths its callers give it and the temporary
//! directories it creates, and it never depends on a crate of this workspace, so any crate may
//! use it without a cycle.
#![allow(
    clippy::disallowed_methods,
    reason = "testkit builds and fingerprints test folders; it is never the read side"
)]

mod folder;
mod names;
mod random;
mod run;
mod tree;

pub use folder::{FRESH_CREATED_AT, Folder, copy_tree, examples_aios, write_fresh, write_sample};
#[cfg(unix)]
pub use names::non_utf8_entry;
pub use names::{MARKUP_CHARS, MARKUP_OPENERS, assert_no_raw_name, hostile_names, invisible_chars};
pub use random::SplitMix64;
pub use run::{DEFAULT_LIMIT, Ran, output, run};
pub use tree::{Entry, Fingerprint, Kind, fingerprint};
