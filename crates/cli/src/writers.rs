//! The only code that writes: to an AIOS folder (`init`, later `migrate`) or to a client
//! configuration (later `connect`). Kept apart from the read commands so that every write is
//! easy to find and review.
//!
//! [`atomic`] is the single primitive for putting bytes on disk (handles, no-follow, temporary
//! file, fsync, rename, exclusive creation); the writers build on it and read, when they must,
//! through `dotaios-contained`.

pub(crate) mod atomic;
pub(crate) mod connect;
pub(crate) mod init;
pub(crate) mod migrate;
pub(crate) mod templates;
