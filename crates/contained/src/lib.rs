//! Contained reads.
