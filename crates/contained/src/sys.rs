//! The one seam between the reader and the operating system. Everything platform-specific lives
//! below here: [`unix`] (Linux, macOS and other Unix systems, on `rustix`) and [`windows`] (NT
//! handles on `windows-sys`). Both offer the same functions over the same neutral types, so
//! [`crate::Root`], [`crate::Dir`], the bounded read and the ledger are one code on every
//! platform:
//!
//! - `Handle` / `HandleRef` (an owned and a borrowed descriptor or NT handle) and `borrow`;
//! - `open_root` (the one open by path), `reopen_listable`, `open_directory` (a relative
//!   path's directory, by the strategy), `open_dir` and `open_file` (one child by one name);
//! - `identity`, `file_identity`, `stat_child`, `still_matches`, `still_matches_path`;
//! - `list` (a directory's entries, admitted one at a time by the caller's bound);
//! - `is_single_component` (the platform's rule for one name), `name_pieces` (a listed name read
//!   losslessly: bytes on Unix, UTF-16 units on Windows) and `kind_of_mode`.
//!
//! **Invariant:** after `open_root`, no function here takes an absolute path; every lookup is
//! one name relative to a handle that was itself opened contained, and no link is followed.

#[cfg(unix)]
mod unix;
#[cfg(unix)]
pub(crate) use self::unix::*;

#[cfg(windows)]
mod windows;
#[cfg(windows)]
pub(crate) use self::windows::*;
