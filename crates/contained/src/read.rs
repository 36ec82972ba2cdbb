//! The bounded read of an already opened, already identified regular file (contract 01 §4.3
//! steps 2–5, 03 §4.8 rule 3): the size cap, the ledger reservation, one
//! read of `size + 1` bytes that must return `size`, and the identity check after the read.
//!
//! **Invariant:** nothing is read before the cap and the ledger admitted the file, and no more
//! than `size + 1` bytes (or the requested prefix) are ever requested from the kernel.

use std::io::Read;

use crate::error::ReadError;
use crate::identity::Identity;
use crate::ledger::Ledger;
use crate::sys::{self, Handle};

/// What proves that a file did not change while it was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum AfterRead {
    /// `fstat` the handle after the read; every identity field must be unchanged (contract 01
    /// §4.3 step 5). The default.
    #[default]
    Fstat,
    /// No `fstat` after the read: the caller compares the returned identity once more before
    /// it publishes anything (contract 03 §4.8 rule 4). The one-read end-of-file
    /// check still runs.
    CallerRevalidates,
}

/// How much of the file is wanted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Extent {
    /// The whole file, with the end-of-file check.
    Whole(AfterRead),
    /// At most this many bytes; the whole size is still charged, and the `fstat` after the
    /// read always runs (the end of the file was not seen).
    Prefix(u64),
}

/// Reads `file`, whose `fstat` is `before`, as `extent` says.
pub(crate) fn read_bounded(
    file: Handle,
    before: &Identity,
    cap: u64,
    ledger: &mut Ledger,
    extent: Extent,
) -> Result<Vec<u8>, ReadError> {
    if before.size > cap {
        return Err(ReadError::TooLarge);
    }
    ledger
        .reserve_file(before.size)
        .map_err(ReadError::Budget)?;
    let size = usize::try_from(before.size).map_err(|_| ReadError::TooLarge)?;
    let mut file = std::fs::File::from(file);
    let (bytes, check_after) = match extent {
        Extent::Whole(after) => (read_to_size(&mut file, size)?, after == AfterRead::Fstat),
        Extent::Prefix(limit) => {
            let wanted = size.min(usize::try_from(limit).unwrap_or(usize::MAX));
            (read_exactly(&mut file, wanted)?, true)
        }
    };
    if check_after && sys::file_identity(&file)? != *before {
        return Err(ReadError::Changed);
    }
    Ok(bytes)
}

/// Reads into a buffer of `size + 1` bytes until end of file. A regular file's read returns
/// fewer bytes than asked only at its end, so one read that returns exactly `size` is the
/// end-of-file check (contract 03 §4.8 rule 3); a file that grew fills the extra byte,
/// a file that shrank ends early, and both are changes.
fn read_to_size(file: &mut std::fs::File, size: usize) -> Result<Vec<u8>, ReadError> {
    let mut bytes = vec![0u8; size.checked_add(1).ok_or(ReadError::TooLarge)?];
    let mut filled = 0;
    loop {
        match file.read(&mut bytes[filled..]) {
            Ok(0) => break,
            Ok(read) => {
                filled += read;
                if filled > size {
                    return Err(ReadError::Changed);
                }
                if filled == size {
                    break;
                }
            }
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => {}
            Err(error) => return Err(ReadError::Io(error.kind())),
        }
    }
    if filled != size {
        return Err(ReadError::Changed);
    }
    bytes.truncate(size);
    Ok(bytes)
}

/// Reads exactly `wanted` bytes (a prefix); ending early is a change.
fn read_exactly(file: &mut std::fs::File, wanted: usize) -> Result<Vec<u8>, ReadError> {
    let mut bytes = vec![0u8; wanted];
    let mut filled = 0;
    while filled < wanted {
        match file.read(&mut bytes[filled..]) {
            Ok(0) => return Err(ReadError::Changed),
            Ok(read) => filled += read,
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => {}
            Err(error) => return Err(ReadError::Io(error.kind())),
        }
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ledger::Limits;

    fn open_with(bytes: &[u8]) -> (tempfile::TempDir, Handle) {
        let temp = tempfile::tempdir().unwrap();
        let path = temp.path().join("f");
        std::fs::write(&path, bytes).unwrap();
        let fd = Handle::from(std::fs::File::open(&path).unwrap());
        (temp, fd)
    }

    fn fstat(handle: &Handle) -> Result<Identity, ReadError> {
        sys::identity(sys::borrow(handle))
    }

    fn ledger() -> Ledger {
        Ledger::new(Limits {
            files: 8,
            bytes: 1 << 20,
            entries: 0,
        })
    }

    fn claimed(fd: &Handle, size: u64) -> Identity {
        Identity {
            size,
            ..fstat(fd).unwrap()
        }
    }

    #[test]
    fn a_file_longer_or_shorter_than_its_stat_is_a_change() {
        for after in [AfterRead::Fstat, AfterRead::CallerRevalidates] {
            let (_temp, fd) = open_with(b"0123456789");
            let exact = fstat(&fd).unwrap();
            assert_eq!(
                read_bounded(fd, &exact, 100, &mut ledger(), Extent::Whole(after)).unwrap(),
                b"0123456789"
            );
            // Grew after the stat: the size + 1 read fills the extra byte.
            let (_temp, fd) = open_with(b"0123456789");
            let short = claimed(&fd, 5);
            assert_eq!(
                read_bounded(fd, &short, 100, &mut ledger(), Extent::Whole(after)),
                Err(ReadError::Changed)
            );
            // Shrank after the stat: end of file comes early.
            let (_temp, fd) = open_with(b"0123456789");
            let long = claimed(&fd, 15);
            assert_eq!(
                read_bounded(fd, &long, 100, &mut ledger(), Extent::Whole(after)),
                Err(ReadError::Changed)
            );
        }
        // An empty file: one read that returns nothing.
        let (_temp, fd) = open_with(b"");
        let empty = fstat(&fd).unwrap();
        let whole = Extent::Whole(AfterRead::Fstat);
        assert!(
            read_bounded(fd, &empty, 0, &mut ledger(), whole)
                .unwrap()
                .is_empty()
        );
    }

    #[test]
    fn the_fstat_after_the_read_runs_unless_the_caller_revalidates() {
        // An identity that differs only in its times: only the after-read fstat notices.
        let stale = |fd: &Handle| Identity {
            mtime_nsec: fstat(fd).unwrap().mtime_nsec ^ 1,
            ..fstat(fd).unwrap()
        };
        let (_temp, fd) = open_with(b"abc");
        let identity = stale(&fd);
        let whole = Extent::Whole(AfterRead::Fstat);
        assert_eq!(
            read_bounded(fd, &identity, 10, &mut ledger(), whole),
            Err(ReadError::Changed)
        );
        let (_temp, fd) = open_with(b"abc");
        let identity = stale(&fd);
        let deferred = Extent::Whole(AfterRead::CallerRevalidates);
        assert_eq!(
            read_bounded(fd, &identity, 10, &mut ledger(), deferred).unwrap(),
            b"abc"
        );
        let (_temp, fd) = open_with(b"abc");
        let identity = stale(&fd);
        assert_eq!(
            read_bounded(fd, &identity, 10, &mut ledger(), Extent::Prefix(2)),
            Err(ReadError::Changed)
        );
    }

    #[test]
    fn the_cap_and_the_ledger_come_before_any_read() {
        let (_temp, fd) = open_with(b"0123456789");
        let identity = fstat(&fd).unwrap();
        let mut charged = ledger();
        let whole = Extent::Whole(AfterRead::Fstat);
        assert_eq!(
            read_bounded(fd, &identity, 9, &mut charged, whole),
            Err(ReadError::TooLarge)
        );
        assert_eq!(charged.used().files, 0);
        let (_temp, fd) = open_with(b"0123456789");
        let mut full = Ledger::new(Limits {
            files: 1,
            bytes: 9,
            entries: 0,
        });
        assert_eq!(
            read_bounded(fd, &identity, 10, &mut full, whole),
            Err(ReadError::Budget(crate::ledger::BudgetDimension::Bytes))
        );
    }
}
