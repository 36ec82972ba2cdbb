//! The containment attack suite (issue 2): every way a folder can try to make the reader leave
//! it, block, or read something it must refuse. Each case runs under both resolution
//! strategies: `openat2` (when the kernel has it) and the component-wise fallback.

#![allow(clippy::print_stderr)]

use std::fs;
use std::os::unix::fs::symlink;
use std::path::Path;

use dotaios_contained::{
    BudgetDimension, EntryKind, Ledger, Limits, ReadError, RelPath, Root, Strategy, UnsafeKind,
};

const STRATEGIES: [Strategy; 2] = [Strategy::Auto, Strategy::ComponentWalk];

fn ledger() -> Ledger {
    Ledger::new(Limits {
        files: 512,
        bytes: 16 << 20,
        entries: 10_000,
    })
}

fn rel(path: &str) -> RelPath {
    RelPath::new(path).unwrap()
}

fn read(root: &Root, path: &str) -> Result<Option<String>, ReadError> {
    root.read_text(&rel(path), 1 << 20, &mut ledger())
        .map(|file| file.map(|file| file.text))
}

/// A folder `aios/` with one real file, and an `outside/` sibling holding a marker.
fn fixture() -> tempfile::TempDir {
    let temp = tempfile::tempdir().unwrap();
    let aios = temp.path().join("aios");
    fs::create_dir_all(aios.join("context")).unwrap();
    fs::write(aios.join("context/work.md"), "# Work\n").unwrap();
    fs::create_dir_all(temp.path().join("outside")).unwrap();
    fs::write(temp.path().join("outside/secret.md"), "MARKER-OUTSIDE").unwrap();
    temp
}

fn open(temp: &tempfile::TempDir, strategy: Strategy) -> Root {
    Root::open_with(&temp.path().join("aios"), strategy).unwrap()
}

#[test]
fn reads_a_real_file_and_reports_absence() {
    for strategy in STRATEGIES {
        let temp = fixture();
        let root = open(&temp, strategy);
        assert_eq!(
            read(&root, "context/work.md").unwrap().as_deref(),
            Some("# Work\n")
        );
        assert_eq!(read(&root, "context/missing.md").unwrap(), None);
        assert_eq!(read(&root, "missing/dir/file.md").unwrap(), None);
    }
}

#[test]
fn symlinked_file_is_refused() {
    for strategy in STRATEGIES {
        let temp = fixture();
        symlink(
            temp.path().join("outside/secret.md"),
            temp.path().join("aios/context/identity.md"),
        )
        .unwrap();
        let root = open(&temp, strategy);
        assert_eq!(
            read(&root, "context/identity.md"),
            Err(ReadError::Unsafe(UnsafeKind::Symlink))
        );
    }
}

#[test]
fn symlink_to_a_file_inside_the_folder_is_refused() {
    for strategy in STRATEGIES {
        let temp = fixture();
        symlink("work.md", temp.path().join("aios/context/priorities.md")).unwrap();
        let root = open(&temp, strategy);
        assert_eq!(
            read(&root, "context/priorities.md"),
            Err(ReadError::Unsafe(UnsafeKind::Symlink))
        );
    }
}

#[test]
fn symlinked_directory_is_refused_for_listing_and_reading() {
    for strategy in STRATEGIES {
        let temp = fixture();
        symlink(temp.path().join("outside"), temp.path().join("aios/memory")).unwrap();
        let root = open(&temp, strategy);
        assert_eq!(
            read(&root, "memory/secret.md"),
            Err(ReadError::Unsafe(UnsafeKind::Symlink))
        );
        assert_eq!(
            root.list_dir(Some(&rel("memory")), 100, &mut ledger()),
            Err(ReadError::Unsafe(UnsafeKind::Symlink))
        );
    }
}

#[test]
fn symlinked_ancestor_is_refused() {
    for strategy in STRATEGIES {
        let temp = fixture();
        fs::create_dir_all(temp.path().join("outside/deeper")).unwrap();
        fs::write(temp.path().join("outside/deeper/note.md"), "MARKER-OUTSIDE").unwrap();
        symlink(temp.path().join("outside"), temp.path().join("aios/vault")).unwrap();
        let root = open(&temp, strategy);
        assert_eq!(
            read(&root, "vault/deeper/note.md"),
            Err(ReadError::Unsafe(UnsafeKind::Symlink))
        );
    }
}

#[test]
fn a_file_as_ancestor_is_unsafe_not_absent() {
    for strategy in STRATEGIES {
        let temp = fixture();
        let root = open(&temp, strategy);
        assert_eq!(
            read(&root, "context/work.md/x.md"),
            Err(ReadError::Unsafe(UnsafeKind::NotDirectory))
        );
    }
}

#[test]
fn fifo_is_refused_without_blocking() {
    for strategy in STRATEGIES {
        let temp = fixture();
        let fifo = temp.path().join("aios/context/identity.md");
        rustix::fs::mkfifoat(
            rustix::fs::CWD,
            &fifo,
            rustix::fs::Mode::from_raw_mode(0o644),
        )
        .unwrap();
        let root = open(&temp, strategy);
        assert_eq!(
            read(&root, "context/identity.md"),
            Err(ReadError::NotRegular(EntryKind::Fifo))
        );
        let probe = root.probe(&rel("context/identity.md")).unwrap().unwrap();
        assert_eq!(probe.kind, EntryKind::Fifo);
    }
}

#[test]
fn unix_socket_is_refused() {
    for strategy in STRATEGIES {
        let temp = fixture();
        let path = temp.path().join("aios/context/sock.md");
        let _listener = std::os::unix::net::UnixListener::bind(&path).unwrap();
        let root = open(&temp, strategy);
        assert_eq!(
            read(&root, "context/sock.md"),
            Err(ReadError::NotRegular(EntryKind::Socket))
        );
    }
}

#[test]
fn invalid_utf8_is_refused_and_bom_is_kept() {
    for strategy in STRATEGIES {
        let temp = fixture();
        fs::write(
            temp.path().join("aios/context/bad.md"),
            b"ok \xc0\x80 overlong",
        )
        .unwrap();
        fs::write(temp.path().join("aios/context/sur.md"), b"\xed\xa0\x80").unwrap();
        fs::write(temp.path().join("aios/context/bom.md"), "\u{feff}# T\0nul").unwrap();
        let root = open(&temp, strategy);
        assert_eq!(read(&root, "context/bad.md"), Err(ReadError::InvalidUtf8));
        assert_eq!(read(&root, "context/sur.md"), Err(ReadError::InvalidUtf8));
        assert_eq!(
            read(&root, "context/bom.md").unwrap().as_deref(),
            Some("\u{feff}# T\0nul")
        );
    }
}

#[test]
fn one_byte_over_the_cap_is_too_large_and_at_the_cap_is_fine() {
    for strategy in STRATEGIES {
        let temp = fixture();
        fs::write(temp.path().join("aios/context/at.md"), vec![b'a'; 4096]).unwrap();
        fs::write(temp.path().join("aios/context/over.md"), vec![b'a'; 4097]).unwrap();
        let root = open(&temp, strategy);
        let mut ledger = ledger();
        assert!(
            root.read_text(&rel("context/at.md"), 4096, &mut ledger)
                .unwrap()
                .is_some()
        );
        assert_eq!(
            root.read_text(&rel("context/over.md"), 4096, &mut ledger),
            Err(ReadError::TooLarge)
        );
        // A refused file is not charged.
        assert_eq!(ledger.used().files, 1);
    }
}

#[test]
fn ledger_limits_fail_closed() {
    let temp = fixture();
    for index in 0..3 {
        fs::write(
            temp.path().join(format!("aios/context/f{index}.md")),
            "0123456789",
        )
        .unwrap();
    }
    let root = open(&temp, Strategy::Auto);
    let mut files = Ledger::new(Limits {
        files: 2,
        bytes: 1 << 20,
        entries: 100,
    });
    root.read_text(&rel("context/f0.md"), 100, &mut files)
        .unwrap();
    root.read_text(&rel("context/f1.md"), 100, &mut files)
        .unwrap();
    assert_eq!(
        root.read_text(&rel("context/f2.md"), 100, &mut files),
        Err(ReadError::Budget(BudgetDimension::Files))
    );

    let mut bytes = Ledger::new(Limits {
        files: 10,
        bytes: 20,
        entries: 100,
    });
    root.read_text(&rel("context/f0.md"), 100, &mut bytes)
        .unwrap();
    root.read_text(&rel("context/f1.md"), 100, &mut bytes)
        .unwrap();
    assert_eq!(
        root.read_text(&rel("context/f2.md"), 100, &mut bytes),
        Err(ReadError::Budget(BudgetDimension::Bytes))
    );

    let mut entries = Ledger::new(Limits {
        files: 10,
        bytes: 100,
        entries: 3,
    });
    assert_eq!(
        root.list_dir(Some(&rel("context")), 100, &mut entries),
        Err(ReadError::Budget(BudgetDimension::Entries))
    );
}

#[test]
fn a_directory_over_its_entry_limit_is_refused() {
    for strategy in STRATEGIES {
        let temp = fixture();
        let signals = temp.path().join("aios/memory/signals");
        fs::create_dir_all(&signals).unwrap();
        for index in 0..9 {
            fs::write(signals.join(format!(".hidden-{index}")), "").unwrap();
        }
        let root = open(&temp, strategy);
        let listing = root
            .list_dir(Some(&rel("memory/signals")), 9, &mut ledger())
            .unwrap()
            .unwrap();
        assert_eq!(listing.entries.len(), 9);
        fs::create_dir(signals.join("sub")).unwrap();
        assert_eq!(
            root.list_dir(Some(&rel("memory/signals")), 9, &mut ledger()),
            Err(ReadError::DirectoryLimit)
        );
    }
}

#[test]
fn listing_reports_kinds_without_following() {
    let temp = fixture();
    let aios = temp.path().join("aios");
    symlink(temp.path().join("outside"), aios.join("linked")).unwrap();
    fs::write(aios.join("aios.json"), "{}").unwrap();
    let root = open(&temp, Strategy::Auto);
    let listing = root.list_dir(None, 100, &mut ledger()).unwrap().unwrap();
    let mut kinds: Vec<(String, EntryKind)> = listing
        .entries
        .iter()
        .map(|entry| (entry.name_str().unwrap().to_owned(), entry.kind))
        .collect();
    kinds.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(
        kinds,
        vec![
            ("aios.json".into(), EntryKind::File),
            ("context".into(), EntryKind::Directory),
            ("linked".into(), EntryKind::Symlink),
        ]
    );
    assert_eq!(
        root.list_dir(Some(&rel("absent")), 10, &mut ledger())
            .unwrap(),
        None
    );
    assert_eq!(
        root.list_dir(Some(&rel("aios.json")), 10, &mut ledger()),
        Err(ReadError::Unsafe(UnsafeKind::NotDirectory))
    );
}

#[test]
fn prefix_reads_charge_the_whole_file() {
    let temp = fixture();
    let body = "x".repeat(2 << 20);
    fs::write(
        temp.path().join("aios/context/big.md"),
        format!("---\nname: a\n---\n{body}"),
    )
    .unwrap();
    let root = open(&temp, Strategy::Auto);
    let mut ledger = ledger();
    let prefix = root
        .read_prefix(&rel("context/big.md"), 8 << 20, 64 << 10, &mut ledger)
        .unwrap()
        .unwrap();
    assert_eq!(prefix.bytes.len(), 64 << 10);
    assert!(!prefix.complete);
    assert!(ledger.used().bytes > 2 << 20);
}

#[test]
fn a_symlinked_root_is_followed_once() {
    let temp = fixture();
    symlink(temp.path().join("aios"), temp.path().join("link-to-aios")).unwrap();
    let root = Root::open(&temp.path().join("link-to-aios")).unwrap();
    assert_eq!(
        read(&root, "context/work.md").unwrap().as_deref(),
        Some("# Work\n")
    );
}

#[test]
fn root_errors_are_typed() {
    let temp = fixture();
    assert_eq!(
        Root::open(&temp.path().join("nope")).unwrap_err(),
        dotaios_contained::RootError::NotFound
    );
    assert_eq!(
        Root::open(&temp.path().join("aios/context/work.md")).unwrap_err(),
        dotaios_contained::RootError::NotDirectory
    );
}

#[test]
fn still_matches_sees_a_rewrite() {
    let temp = fixture();
    let root = open(&temp, Strategy::Auto);
    let file = root
        .read_text(&rel("context/work.md"), 100, &mut ledger())
        .unwrap()
        .unwrap();
    assert!(
        root.still_matches(&rel("context/work.md"), &file.identity)
            .unwrap()
    );
    std::thread::sleep(std::time::Duration::from_millis(20));
    fs::write(temp.path().join("aios/context/work.md"), "# Work, edited\n").unwrap();
    assert!(
        !root
            .still_matches(&rel("context/work.md"), &file.identity)
            .unwrap()
    );
}

/// One thread swaps `aios/notes` between a real directory and a symlink to an outside
/// directory holding the marker, as fast as it can; the reader must never return the marker.
#[test]
fn concurrent_swap_attacker_never_leaks_the_marker() {
    for strategy in STRATEGIES {
        let temp = fixture();
        let aios = temp.path().join("aios");
        let outside = temp.path().join("outside");
        fs::write(outside.join("note.md"), "MARKER-OUTSIDE").unwrap();
        let real = temp.path().join("real-notes");
        fs::create_dir(&real).unwrap();
        fs::write(real.join("note.md"), "inside").unwrap();
        fs::rename(&real, aios.join("notes")).unwrap();

        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let attacker = {
            let stop = stop.clone();
            let aios = aios.clone();
            let parked = temp.path().join("parked");
            std::thread::spawn(move || {
                let notes = aios.join("notes");
                let link = temp_link_path(&aios);
                let _ = fs::remove_file(&link);
                symlink(&outside, &link).unwrap();
                let mut swaps = 0u64;
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    // Real directory out, link in; then back.
                    if fs::rename(&notes, &parked).is_ok() {
                        let _ = fs::rename(&link, &notes);
                        let _ = fs::rename(&notes, &link);
                        let _ = fs::rename(&parked, &notes);
                        swaps += 1;
                    }
                }
                swaps
            })
        };
        let root = open(&temp, strategy);
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(2);
        let (mut inside, mut refused, mut control_leaks) = (0u64, 0u64, 0u64);
        let followed_path = aios.join("notes/note.md");
        while std::time::Instant::now() < deadline {
            // Control: a path-following read during the same attack does see the marker,
            // which proves the attack is real.
            if fs::read_to_string(&followed_path).is_ok_and(|text| text == "MARKER-OUTSIDE") {
                control_leaks += 1;
            }
            match read(&root, "notes/note.md") {
                Ok(Some(text)) => {
                    assert_ne!(text, "MARKER-OUTSIDE", "the reader followed a swapped link");
                    inside += 1;
                }
                Ok(None) | Err(_) => refused += 1,
            }
            if let Ok(Some(listing)) = root.list_dir(Some(&rel("notes")), 100, &mut ledger()) {
                assert!(
                    listing
                        .entries
                        .iter()
                        .all(|entry| entry.kind != EntryKind::Symlink || entry.name != "note.md")
                );
            }
        }
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        let swaps = attacker.join().unwrap();
        assert!(swaps > 0, "the attacker never swapped");
        assert!(inside > 0, "the reader never saw the real directory");
        assert!(
            control_leaks > 0,
            "the attack never exposed the marker to a following read"
        );
        eprintln!(
            "{strategy:?}: {swaps} swaps, {inside} inside reads, {refused} refused, {control_leaks} control leaks"
        );
        let _ = refused;
    }
}

fn temp_link_path(aios: &Path) -> std::path::PathBuf {
    aios.parent().unwrap().join("swap-link")
}

#[test]
fn reads_never_write() {
    let temp = fixture();
    let before = tree_snapshot(&temp.path().join("aios"));
    let root = open(&temp, Strategy::Auto);
    for _ in 0..3 {
        let _ = read(&root, "context/work.md");
        let _ = root.list_dir(None, 100, &mut ledger());
        let _ = root.probe(&rel("context"));
        let _ = root.read_prefix(&rel("context/work.md"), 100, 3, &mut ledger());
    }
    assert_eq!(before, tree_snapshot(&temp.path().join("aios")));
}

fn tree_snapshot(dir: &Path) -> Vec<(String, u32, Vec<u8>, i128)> {
    use std::os::unix::fs::MetadataExt;
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(path) = stack.pop() {
        let meta = fs::symlink_metadata(&path).unwrap();
        let mtime = i128::from(meta.mtime()) * 1_000_000_000 + i128::from(meta.mtime_nsec());
        let bytes = if meta.is_file() {
            fs::read(&path).unwrap()
        } else {
            Vec::new()
        };
        out.push((path.display().to_string(), meta.mode(), bytes, mtime));
        if meta.is_dir() {
            for entry in fs::read_dir(&path).unwrap() {
                stack.push(entry.unwrap().path());
            }
        }
    }
    out.sort();
    out
}

#[test]
fn revalidation_sees_a_directory_swapped_for_a_link() {
    let temp = fixture();
    let root = open(&temp, Strategy::Auto);
    let directory = root.probe(&rel("context")).unwrap().unwrap();
    assert!(
        root.still_matches(&rel("context"), &directory.identity)
            .unwrap()
    );
    // The same directory, moved out and linked back: same inode, but now a link below the root.
    fs::rename(
        temp.path().join("aios/context"),
        temp.path().join("outside/context"),
    )
    .unwrap();
    symlink(
        temp.path().join("outside/context"),
        temp.path().join("aios/context"),
    )
    .unwrap();
    assert!(
        !root
            .still_matches(&rel("context"), &directory.identity)
            .unwrap()
    );
    assert_eq!(
        root.read_text(&rel("context/work.md"), 100, &mut ledger()),
        Err(ReadError::Unsafe(UnsafeKind::Symlink))
    );
    assert!(
        !root
            .still_matches(&rel("absent.md"), &directory.identity)
            .unwrap()
    );
}
