//! The AIOS folder model (spec chapter 01): location, `aios.json`, migration inspection,
//! projects and selectors, attribution and memory policy.

pub mod location;
