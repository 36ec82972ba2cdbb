//! The `uring` control (Linux only): does search's per-file system calls once plainly and once
//! batched through `io_uring`, on the same vault in the same process, so the two can be
//! compared (`docs/decisions.md`, "io_uring").
//!
//! Both variants do the same work per note, each by one name relative to a directory handle
//! held open for the whole pass (contract 03 §4.8): the enumeration `statx`
//! (no-follow; it must show a regular file within the cap), `openat` (`O_RDONLY | O_NOFOLLOW |
//! O_NONBLOCK | O_CLOEXEC`), a stat of the open handle that must equal it, one read of
//! `size + 1` that must return `size`, strict UTF-8, close; then the final revalidation
//! `statx` of every note, which must equal the enumeration. The walk that lists the
//! directories is the same plain code for both and is timed with them. The plain variant
//! makes one system call per operation; the `io_uring` variant submits a batch of
//! [`BATCH`] notes per stage (stats; opens; handle stats and reads; closes; revalidation
//! stats), one `io_uring_enter` per stage.
//!
//! It is a measurement, not a reader: it never writes, and nothing of it is used by search.
//! The only `unsafe` code of the crate is here, in [`Ring::run`].

use std::ffi::CString;
use std::os::fd::{AsFd, AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use io_uring::{IoUring, opcode, squeue, types};
use rustix::fs::{AtFlags, Mode, OFlags, StatxFlags};

use crate::measure::on_threads;

/// Per-file cap, as search's (contract 03 §13).
const MAX_FILE_BYTES: u64 = 1 << 20;
/// Notes per `io_uring` batch (and per unit of work handed to a thread in both variants).
const BATCH: usize = 256;

/// Which way the per-file calls are made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Variant {
    Plain,
    Uring,
}

/// Files and bytes read by one pass.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Totals {
    pub(crate) files: u64,
    pub(crate) bytes: u64,
}

/// What a stat shows that revalidation compares: the fields of contract 01 §4.3's identity.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Seen {
    dev: (u32, u32),
    ino: u64,
    mode: u32,
    nlink: u32,
    uid: u32,
    size: u64,
    mtime: (i64, u32),
    ctime: (i64, u32),
}

/// Builds a [`Seen`] from a statx result of either layout.
macro_rules! seen_of {
    ($stat:expr) => {
        Seen {
            dev: ($stat.stx_dev_major, $stat.stx_dev_minor),
            ino: $stat.stx_ino,
            mode: u32::from($stat.stx_mode),
            nlink: $stat.stx_nlink,
            uid: $stat.stx_uid,
            size: $stat.stx_size,
            mtime: ($stat.stx_mtime.tv_sec, $stat.stx_mtime.tv_nsec),
            ctime: ($stat.stx_ctime.tv_sec, $stat.stx_ctime.tv_nsec),
        }
    };
}

impl Seen {
    /// One field list for both statx layouts (rustix's for the plain calls, libc's for the
    /// ring's results): the two structs have the same member names and types.
    fn of_rustix(stat: &rustix::fs::Statx) -> Seen {
        seen_of!(stat)
    }

    fn of_libc(stat: &libc::statx) -> Seen {
        seen_of!(stat)
    }

    fn is_regular(&self) -> bool {
        self.mode & 0o170_000 == 0o100_000
    }
}

/// The vault's directories, held open, and its notes by directory and name.
struct Vault {
    dirs: Vec<OwnedFd>,
    notes: Vec<(usize, CString)>,
}

/// Lists `aios/vault` depth-first with plain calls: each directory opened by one name from
/// its parent (`O_DIRECTORY | O_NOFOLLOW`), hidden names skipped, `.md` files kept; a link or
/// a special file is an error.
fn walk(aios: &Path) -> Result<Vault, String> {
    let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    let top = rustix::fs::open(aios.join("vault"), flags, Mode::empty()).map_err(text)?;
    let mut vault = Vault {
        dirs: vec![top],
        notes: Vec::new(),
    };
    let mut next = 0;
    while next < vault.dirs.len() {
        let mut subdirectories = Vec::new();
        {
            let mut listing = rustix::fs::Dir::read_from(vault.dirs[next].as_fd()).map_err(text)?;
            while let Some(entry) = listing.read() {
                let entry = entry.map_err(text)?;
                let name = entry.file_name();
                if name.to_bytes().first() == Some(&b'.') {
                    continue;
                }
                match entry.file_type() {
                    rustix::fs::FileType::Directory => subdirectories.push(name.to_owned()),
                    rustix::fs::FileType::RegularFile => {
                        if name.to_bytes().to_ascii_lowercase().ends_with(b".md") {
                            vault.notes.push((next, name.to_owned()));
                        }
                    }
                    _ => return Err("a link or special file in the vault".to_owned()),
                }
            }
        }
        for name in subdirectories {
            let child =
                rustix::fs::openat(&vault.dirs[next], &name, flags, Mode::empty()).map_err(text)?;
            vault.dirs.push(child);
        }
        next += 1;
    }
    Ok(vault)
}

/// One pass: the walk, then every note stat'ed, read and revalidated, on `workers` threads
/// taking [`BATCH`] notes at a time.
pub(crate) fn pass(aios: &Path, variant: Variant, workers: usize) -> Result<Totals, String> {
    let vault = walk(aios)?;
    let next = AtomicUsize::new(0);
    let results = on_threads(workers, || {
        let mut ring = match variant {
            Variant::Plain => None,
            Variant::Uring => Some(Ring::new()?),
        };
        let mut totals = Totals::default();
        loop {
            let start = next.fetch_add(BATCH, Ordering::Relaxed);
            let Some(batch) = vault
                .notes
                .get(start..(start + BATCH).min(vault.notes.len()))
            else {
                break;
            };
            if batch.is_empty() {
                break;
            }
            let read = match &mut ring {
                None => plain_batch(&vault.dirs, batch)?,
                Some(ring) => ring.batch(&vault.dirs, batch)?,
            };
            totals.files += read.files;
            totals.bytes += read.bytes;
        }
        Ok(totals)
    });
    let mut totals = Totals::default();
    for result in results {
        let read = result?;
        totals.files += read.files;
        totals.bytes += read.bytes;
    }
    Ok(totals)
}

/// The plain variant: one system call per operation.
fn plain_batch(dirs: &[OwnedFd], batch: &[(usize, CString)]) -> Result<Totals, String> {
    let mut totals = Totals::default();
    let mut seen = Vec::with_capacity(batch.len());
    let mut buffer = Vec::new();
    for (dir, name) in batch {
        let dir = &dirs[*dir];
        let stat = rustix::fs::statx(
            dir,
            name,
            AtFlags::SYMLINK_NOFOLLOW,
            StatxFlags::BASIC_STATS,
        )
        .map_err(text)?;
        let found = Seen::of_rustix(&stat);
        check_found(&found)?;
        let fd = rustix::fs::openat(dir, name, read_flags(), Mode::empty()).map_err(text)?;
        let opened = rustix::fs::statx(&fd, c"", AtFlags::EMPTY_PATH, StatxFlags::BASIC_STATS)
            .map_err(text)?;
        if Seen::of_rustix(&opened) != found {
            return Err("a note changed between its stat and its open".to_owned());
        }
        buffer.resize(found.size as usize + 1, 0);
        let read = rustix::io::read(&fd, &mut buffer).map_err(text)?;
        drop(fd);
        totals.add(check_read(&buffer, read, &found)?);
        seen.push(found);
    }
    for ((dir, name), found) in batch.iter().zip(&seen) {
        let stat = rustix::fs::statx(
            &dirs[*dir],
            name,
            AtFlags::SYMLINK_NOFOLLOW,
            StatxFlags::BASIC_STATS,
        )
        .map_err(text)?;
        if Seen::of_rustix(&stat) != *found {
            return Err("a note changed before its revalidation".to_owned());
        }
    }
    Ok(totals)
}

impl Totals {
    fn add(&mut self, bytes: u64) {
        self.files += 1;
        self.bytes += bytes;
    }
}

fn read_flags() -> OFlags {
    OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC
}

fn check_found(found: &Seen) -> Result<(), String> {
    if !found.is_regular() {
        return Err("a listed note is not a regular file".to_owned());
    }
    if found.size > MAX_FILE_BYTES {
        return Err("a note over the per-file cap".to_owned());
    }
    Ok(())
}

/// One read of `size + 1` must return `size`; the bytes must be UTF-8. Returns the size.
fn check_read(buffer: &[u8], read: usize, found: &Seen) -> Result<u64, String> {
    if read as u64 != found.size {
        return Err("a note's read did not return its size".to_owned());
    }
    std::str::from_utf8(&buffer[..read]).map_err(|_| "a note that is not UTF-8".to_owned())?;
    Ok(read as u64)
}

/// One thread's ring.
struct Ring {
    ring: IoUring,
}

/// One batch's buffers; they live until every operation that points into them completed.
struct Slots {
    found: Vec<libc::statx>,
    opened: Vec<libc::statx>,
    fds: Vec<RawFd>,
    buffers: Vec<Vec<u8>>,
    results: Vec<i32>,
}

impl Ring {
    fn new() -> Result<Ring, String> {
        // Two operations per note in the stage of handle stats and reads.
        let ring = IoUring::new((2 * BATCH) as u32).map_err(|error| error.to_string())?;
        Ok(Ring { ring })
    }

    /// The `io_uring` variant of [`plain_batch`]: the same operations, one stage at a time,
    /// each stage submitted at once and waited for whole.
    fn batch(&mut self, dirs: &[OwnedFd], batch: &[(usize, CString)]) -> Result<Totals, String> {
        let empty = c"";
        let nofollow = AtFlags::SYMLINK_NOFOLLOW.bits() as i32;
        let mask = StatxFlags::BASIC_STATS.bits();
        // SAFETY (of the zeroed values): `libc::statx` is plain integers, for which all-zero
        // bytes are a valid value.
        #[expect(unsafe_code, reason = "the invariant is the SAFETY comment above")]
        let zero: libc::statx = unsafe { std::mem::zeroed() };
        let mut slots = Slots {
            found: vec![zero; batch.len()],
            opened: vec![zero; batch.len()],
            fds: vec![-1; batch.len()],
            buffers: vec![Vec::new(); batch.len()],
            results: vec![0; 2 * batch.len()],
        };
        let outcome = self.stages(dirs, batch, &mut slots, empty, nofollow, mask);
        // Whatever happened, no descriptor a stage opened outlives the batch.
        for fd in slots.fds.iter().filter(|fd| **fd >= 0) {
            // SAFETY: `fd` was returned by a completed `openat` of this batch and was not
            // closed: the close stage sets it back to -1 once its close completed.
            #[expect(unsafe_code, reason = "the invariant is the SAFETY comment above")]
            drop(unsafe { OwnedFd::from_raw_fd(*fd) });
        }
        outcome
    }

    fn stages(
        &mut self,
        dirs: &[OwnedFd],
        batch: &[(usize, CString)],
        slots: &mut Slots,
        empty: &std::ffi::CStr,
        nofollow: i32,
        mask: u32,
    ) -> Result<Totals, String> {
        let count = batch.len();
        // Stage 1: the enumeration stats.
        self.stat_names(dirs, batch, slots, nofollow, mask)?;
        let mut found = Vec::with_capacity(count);
        for (result, stat) in slots.results[..count].iter().zip(&slots.found) {
            errno(*result)?;
            let seen = Seen::of_libc(stat);
            check_found(&seen)?;
            found.push(seen);
        }
        // Stage 2: the opens by name.
        let flags = read_flags().bits() as i32;
        let entries: Vec<squeue::Entry> = batch
            .iter()
            .map(|(dir, name)| {
                opcode::OpenAt::new(types::Fd(dirs[*dir].as_raw_fd()), name.as_ptr())
                    .flags(flags)
                    .build()
            })
            .collect();
        self.run(&entries, &mut slots.results[..count])?;
        let mut failed = None;
        for (index, result) in slots.results[..count].iter().enumerate() {
            match errno(*result) {
                Ok(fd) => slots.fds[index] = fd,
                Err(error) => failed = Some(error),
            }
        }
        if let Some(error) = failed {
            return Err(error);
        }
        // Stage 3: the stat of each open handle and its read of size + 1.
        for (buffer, seen) in slots.buffers.iter_mut().zip(&found) {
            buffer.resize(seen.size as usize + 1, 0);
        }
        let mut entries = Vec::with_capacity(2 * count);
        for index in 0..count {
            entries.push(
                opcode::Statx::new(
                    types::Fd(slots.fds[index]),
                    empty.as_ptr(),
                    std::ptr::from_mut(&mut slots.opened[index]).cast::<types::statx>(),
                )
                .flags(AtFlags::EMPTY_PATH.bits() as i32)
                .mask(mask)
                .build(),
            );
            let buffer = &mut slots.buffers[index];
            entries.push(
                opcode::Read::new(
                    types::Fd(slots.fds[index]),
                    buffer.as_mut_ptr(),
                    buffer.len() as u32,
                )
                .build(),
            );
        }
        self.run(&entries, &mut slots.results[..2 * count])?;
        let mut totals = Totals::default();
        for (index, seen) in found.iter().enumerate() {
            errno(slots.results[2 * index])?;
            if Seen::of_libc(&slots.opened[index]) != *seen {
                return Err("a note changed between its stat and its open".to_owned());
            }
            let read = errno(slots.results[2 * index + 1])? as usize;
            totals.add(check_read(&slots.buffers[index], read, seen)?);
        }
        // Stage 4: the closes.
        let entries: Vec<squeue::Entry> = slots
            .fds
            .iter()
            .map(|fd| opcode::Close::new(types::Fd(*fd)).build())
            .collect();
        self.run(&entries, &mut slots.results[..count])?;
        for (fd, result) in slots.fds.iter_mut().zip(&slots.results[..count]) {
            // A close that failed still released the descriptor (close(2)).
            *fd = -1;
            errno(*result)?;
        }
        // Stage 5: the final revalidation stats, into the buffers of stage 1.
        self.stat_names(dirs, batch, slots, nofollow, mask)?;
        for ((result, stat), seen) in slots.results[..count].iter().zip(&slots.found).zip(&found) {
            errno(*result)?;
            if Seen::of_libc(stat) != *seen {
                return Err("a note changed before its revalidation".to_owned());
            }
        }
        Ok(totals)
    }

    /// The no-follow `statx` of every note of the batch by name relative to its directory,
    /// into `slots.found`, results into `slots.results`.
    fn stat_names(
        &mut self,
        dirs: &[OwnedFd],
        batch: &[(usize, CString)],
        slots: &mut Slots,
        nofollow: i32,
        mask: u32,
    ) -> Result<(), String> {
        let entries: Vec<squeue::Entry> = batch
            .iter()
            .zip(slots.found.iter_mut())
            .map(|((dir, name), buffer)| {
                opcode::Statx::new(
                    types::Fd(dirs[*dir].as_raw_fd()),
                    name.as_ptr(),
                    std::ptr::from_mut(buffer).cast::<types::statx>(),
                )
                .flags(nofollow)
                .mask(mask)
                .build()
            })
            .collect();
        self.run(&entries, &mut slots.results[..batch.len()])
    }

    /// Submits `entries` (tagged with their index) and waits for all of their completions,
    /// whose results land in `results` by index.
    fn run(&mut self, entries: &[squeue::Entry], results: &mut [i32]) -> Result<(), String> {
        let tagged: Vec<squeue::Entry> = entries
            .iter()
            .enumerate()
            .map(|(index, entry)| entry.clone().user_data(index as u64))
            .collect();
        // SAFETY: every entry points only into memory that outlives its completion: the
        // names (`CString`s of the `Vault`, borrowed for the whole pass), the empty path (a
        // static), and the stat buffers, read buffers and descriptors of the batch's `Slots`,
        // which the caller neither moves, resizes nor drops until this call returned — and
        // this call returns only after every submitted entry completed, or aborts the process
        // when it cannot wait for them (so the kernel never writes into freed memory). The
        // ring holds at least as many entries as one stage submits (2 × BATCH), so the push
        // cannot overflow it.
        #[expect(unsafe_code, reason = "the invariant is the SAFETY comment above")]
        let pushed = unsafe { self.ring.submission().push_multiple(&tagged) };
        pushed.map_err(|_| "the submission queue is full".to_owned())?;
        let mut done = 0;
        while done < tagged.len() {
            if let Err(error) = self.ring.submit_and_wait(tagged.len() - done) {
                if error.kind() == std::io::ErrorKind::Interrupted {
                    continue;
                }
                // Operations may still be in flight and point into the caller's buffers.
                eprintln!("io_uring_enter failed with operations in flight: {error}");
                std::process::abort();
            }
            for completion in self.ring.completion() {
                results[completion.user_data() as usize] = completion.result();
                done += 1;
            }
        }
        Ok(())
    }
}

/// A completion's result: non-negative, or a negated errno.
fn errno(result: i32) -> Result<i32, String> {
    if result < 0 {
        Err(std::io::Error::from_raw_os_error(-result).to_string())
    } else {
        Ok(result)
    }
}

fn text(error: impl std::fmt::Display) -> String {
    error.to_string()
}

/// `dotaios-bench control uring <AIOS-DIR> [<rounds>]`: `rounds` rounds (default 20) of four
/// passes in a fixed interleaved order (plain 1 thread, `io_uring` 1 thread, plain 2 threads,
/// `io_uring` 2 threads) after one discarded warm-up round; each pass is checked for the same
/// files and bytes. Prints p50 and p95 of each and the `io_uring ÷ plain` ratios.
pub(crate) fn compare(aios: &Path, rounds: usize) -> Result<(), String> {
    let variants = [
        ("plain, 1 thread", Variant::Plain, 1),
        ("io_uring, 1 thread", Variant::Uring, 1),
        ("plain, 2 threads", Variant::Plain, 2),
        ("io_uring, 2 threads", Variant::Uring, 2),
    ];
    let mut samples: Vec<Vec<f64>> = vec![Vec::new(); variants.len()];
    let mut cpu_ticks = vec![0_u64; variants.len()];
    let mut expected: Option<Totals> = None;
    for round in 0..=rounds {
        for (slot, (label, variant, workers)) in variants.iter().enumerate() {
            let cpu_before = cpu_time_ticks()?;
            let start = Instant::now();
            let totals = pass(aios, *variant, *workers)?;
            let ms = start.elapsed().as_secs_f64() * 1e3;
            if round > 0 {
                cpu_ticks[slot] += cpu_time_ticks()? - cpu_before;
            }
            match expected {
                None => expected = Some(totals),
                Some(expected) if expected != totals => {
                    return Err(format!("{label}: {totals:?}, expected {expected:?}"));
                }
                Some(_) => {}
            }
            if round > 0 {
                samples[slot].push(ms);
            }
        }
    }
    let totals = expected.unwrap_or_default();
    println!(
        "{} files, {} bytes, {rounds} rounds after 1 warm-up",
        totals.files, totals.bytes
    );
    println!("| variant | p50 ms | p95 ms | CPU ms per pass (user + system, all threads) |");
    println!("|---|---|---|---|");
    let mut quantiles = Vec::new();
    for (((label, _, _), samples), ticks) in variants.iter().zip(&mut samples).zip(&cpu_ticks) {
        samples.sort_by(f64::total_cmp);
        let (p50, p95) = (quantile(samples, 0.50), quantile(samples, 0.95));
        let cpu = *ticks as f64 * 1e3 / CLOCK_TICKS_PER_SECOND / rounds.max(1) as f64;
        println!("| {label} | {p50:.2} | {p95:.2} | {cpu:.1} |");
        quantiles.push((p50, p95));
    }
    for (plain, uring, threads) in [(0, 1, 1), (2, 3, 2)] {
        println!(
            "io_uring ÷ plain, {threads} thread(s): p50 {:.2}, p95 {:.2}",
            quantiles[uring].0 / quantiles[plain].0,
            quantiles[uring].1 / quantiles[plain].1
        );
    }
    Ok(())
}

/// `USER_HZ`, the unit of `/proc/self/stat`'s times (100 on every Linux architecture the
/// project builds for).
const CLOCK_TICKS_PER_SECOND: f64 = 100.0;

/// The process's user plus system time so far, in clock ticks, counting every thread it ran
/// (the kernel's `io_uring` workers included): fields 14 and 15 of `/proc/self/stat`.
fn cpu_time_ticks() -> Result<u64, String> {
    let stat = std::fs::read_to_string("/proc/self/stat").map_err(text)?;
    // The command name (field 2) is parenthesised and may hold spaces: count after it.
    let rest = stat
        .rsplit_once(')')
        .map(|(_, rest)| rest)
        .ok_or("an unreadable /proc/self/stat")?;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let field = |n: usize| -> Result<u64, String> {
        fields
            .get(n - 3)
            .and_then(|value| value.parse().ok())
            .ok_or_else(|| "an unreadable /proc/self/stat".to_owned())
    };
    Ok(field(14)? + field(15)?)
}

/// Nearest-rank quantile of sorted samples.
fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let rank = (q * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_variants_read_every_note_and_refuse_a_link() {
        let (temp, vault) = crate::walk::tests::small_vault();
        std::fs::write(vault.join("a/b/empty.md"), "").unwrap();
        let walked = walk(temp.path()).unwrap();
        let mut names: Vec<Vec<u8>> = walked
            .notes
            .iter()
            .map(|(_, name)| name.as_bytes().to_vec())
            .collect();
        names.sort();
        assert_eq!(
            names,
            [
                b"empty.md".to_vec(),
                b"one.md".to_vec(),
                b"three.md".to_vec(),
                b"two.MD".to_vec()
            ]
        );
        for variant in [Variant::Plain, Variant::Uring] {
            for workers in [1, 2] {
                let totals = pass(temp.path(), variant, workers).unwrap();
                assert_eq!((totals.files, totals.bytes), (4, 6), "{variant:?}");
            }
        }
        std::fs::write(vault.join("a/bad.md"), [0xff, 0xfe]).unwrap();
        for variant in [Variant::Plain, Variant::Uring] {
            assert!(pass(temp.path(), variant, 1).is_err(), "{variant:?}");
        }
        std::fs::remove_file(vault.join("a/bad.md")).unwrap();
        std::os::unix::fs::symlink("one.md", vault.join("a/linked.md")).unwrap();
        for variant in [Variant::Plain, Variant::Uring] {
            assert!(pass(temp.path(), variant, 1).is_err(), "{variant:?}");
        }
    }
}
