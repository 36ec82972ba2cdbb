//! The containment attack suite: every way a folder can try to make the reader leave it,
//! block, or read something it must refuse. Each case runs in every [`Mode`]: each strategy
//! available on this platform (`openat2` when the kernel has it, the `O_PATH` component walk,
//! the portable walk macOS runs; on Windows the NT walk), both through full relative paths from
//! the root and through the walk-relative handle API (one `Dir` per component, one name per
//! call).
//!
//! On Windows the suite runs under Wine (`scripts/test-windows.sh`), which can express bad
//! names, `..`, absolute and device names, kind swaps, identity changes and listing bounds, but
//! not links: Wine follows Unix symlinks silently, `CreateSymbolicLinkW` succeeds without
//! creating anything, and it has no junctions. The link cases are therefore `#[ignore]`d on
//! Windows ("needs real Windows") and written so that a run on a real Windows machine
//! (`cargo test -- --ignored`, with the right to create symbolic links) exercises them; FIFOs
//! and sockets do not exist on Windows filesystems and stay Unix-only.
#![allow(
    clippy::disallowed_methods,
    reason = "tests build and inspect their folders with std::fs"
)]
#![allow(clippy::print_stderr)]

use std::fs;
use std::path::Path;

use dotaios_contained::{
    BudgetDimension, Dir, EntryKind, Ledger, Limits, Listing, Probe, ReadError, RelPath, Root,
    Strategy, UnsafeKind,
};
#[cfg(unix)]
use dotaios_testkit::fingerprint;

/// A symbolic link at `link` to `target` (on Windows a file or directory link, as `target` is;
/// creating one needs Developer Mode or the symbolic-link privilege).
fn symlink(target: impl AsRef<Path>, link: impl AsRef<Path>) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(target, link)
    }
    #[cfg(windows)]
    {
        let (target, link) = (target.as_ref(), link.as_ref());
        let resolved = link
            .parent()
            .map_or(target.to_owned(), |dir| dir.join(target));
        if resolved.is_dir() {
            std::os::windows::fs::symlink_dir(target, link)
        } else {
            std::os::windows::fs::symlink_file(target, link)
        }
    }
}

/// How a test reads: by full relative path from the root, or by walking `Dir` handles.
#[derive(Debug, Clone, Copy)]
enum Mode {
    Path(Strategy),
    Walk(Strategy),
}

fn modes() -> Vec<Mode> {
    let mut modes = Vec::new();
    for strategy in Strategy::available() {
        modes.push(Mode::Path(*strategy));
        modes.push(Mode::Walk(*strategy));
    }
    modes
}

/// A root read in one mode.
struct Reader {
    root: Root,
    mode: Mode,
}

impl Reader {
    /// The `Dir` of `path`'s parent, walked one `open_dir` at a time from the root handle;
    /// `None` when an ancestor is absent.
    fn walk_to_parent<'p>(&self, path: &'p str) -> Result<Option<(Dir, &'p str)>, ReadError> {
        let mut dir = self.root.dir()?;
        let mut components: Vec<&str> = path.split('/').collect();
        let last = components.pop().unwrap();
        for name in components {
            match dir.open_dir(name)? {
                Some(child) => dir = child,
                None => return Ok(None),
            }
        }
        Ok(Some((dir, last)))
    }

    fn read_text(
        &self,
        path: &str,
        cap: u64,
        ledger: &mut Ledger,
    ) -> Result<Option<String>, ReadError> {
        let file = match self.mode {
            Mode::Path(_) => self.root.read_text(&rel(path), cap, ledger)?,
            Mode::Walk(_) => match self.walk_to_parent(path)? {
                Some((dir, name)) => dir.read_text(name, cap, ledger)?,
                None => None,
            },
        };
        Ok(file.map(|file| file.text))
    }

    fn list(
        &self,
        path: Option<&str>,
        max: u64,
        ledger: &mut Ledger,
    ) -> Result<Option<Listing>, ReadError> {
        match (self.mode, path) {
            (Mode::Path(_), path) => self.root.list_dir(path.map(rel).as_ref(), max, ledger),
            (Mode::Walk(_), None) => self.root.dir()?.list(max, ledger).map(Some),
            (Mode::Walk(_), Some(path)) => match self.walk_to_parent(path)? {
                Some((dir, name)) => match dir.open_dir(name)? {
                    Some(dir) => dir.list(max, ledger).map(Some),
                    None => Ok(None),
                },
                None => Ok(None),
            },
        }
    }

    fn probe(&self, path: &str) -> Result<Option<Probe>, ReadError> {
        match self.mode {
            Mode::Path(_) => self.root.probe(&rel(path)),
            Mode::Walk(_) => match self.walk_to_parent(path)? {
                Some((dir, name)) => dir.stat(name),
                None => Ok(None),
            },
        }
    }

    fn read_prefix(
        &self,
        path: &str,
        cap: u64,
        prefix: u64,
        ledger: &mut Ledger,
    ) -> Result<Option<dotaios_contained::FilePrefix>, ReadError> {
        match self.mode {
            Mode::Path(_) => self.root.read_prefix(&rel(path), cap, prefix, ledger),
            Mode::Walk(_) => match self.walk_to_parent(path)? {
                Some((dir, name)) => dir.read_prefix(name, cap, prefix, ledger),
                None => Ok(None),
            },
        }
    }
}

fn ledger() -> Ledger {
    Ledger::new(Limits {
        files: 512,
        bytes: 16 << 20,
        entries: 10_000,
    })
}

/// A FIFO (the `mkfifo` tool: rustix has no `mkfifoat` on macOS).
#[cfg(unix)]
fn mkfifo(path: &Path) {
    let made = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .unwrap();
    assert!(made.success());
}

fn rel(path: &str) -> RelPath {
    RelPath::new(path).unwrap()
}

fn read(reader: &Reader, path: &str) -> Result<Option<String>, ReadError> {
    reader.read_text(path, 1 << 20, &mut ledger())
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

fn open(temp: &tempfile::TempDir, mode: Mode) -> Reader {
    let strategy = match mode {
        Mode::Path(strategy) | Mode::Walk(strategy) => strategy,
    };
    Reader {
        root: Root::open_with(&temp.path().join("aios"), strategy).unwrap(),
        mode,
    }
}

#[test]
fn reads_a_real_file_and_reports_absence() {
    for mode in modes() {
        let temp = fixture();
        let root = open(&temp, mode);
        assert_eq!(
            read(&root, "context/work.md").unwrap().as_deref(),
            Some("# Work\n")
        );
        assert_eq!(read(&root, "context/missing.md").unwrap(), None);
        assert_eq!(read(&root, "missing/dir/file.md").unwrap(), None);
    }
}

#[test]
#[cfg_attr(windows, ignore = "needs real Windows: Wine cannot create links")]
fn symlinked_file_is_refused() {
    for mode in modes() {
        let temp = fixture();
        symlink(
            temp.path().join("outside/secret.md"),
            temp.path().join("aios/context/identity.md"),
        )
        .unwrap();
        let root = open(&temp, mode);
        assert_eq!(
            read(&root, "context/identity.md"),
            Err(ReadError::Unsafe(UnsafeKind::Symlink))
        );
    }
}

#[test]
#[cfg_attr(windows, ignore = "needs real Windows: Wine cannot create links")]
fn symlink_to_a_file_inside_the_folder_is_refused() {
    for mode in modes() {
        let temp = fixture();
        symlink("work.md", temp.path().join("aios/context/priorities.md")).unwrap();
        let root = open(&temp, mode);
        assert_eq!(
            read(&root, "context/priorities.md"),
            Err(ReadError::Unsafe(UnsafeKind::Symlink))
        );
    }
}

#[test]
#[cfg_attr(windows, ignore = "needs real Windows: Wine cannot create links")]
fn symlinked_directory_is_refused_for_listing_and_reading() {
    for mode in modes() {
        let temp = fixture();
        symlink(temp.path().join("outside"), temp.path().join("aios/memory")).unwrap();
        let root = open(&temp, mode);
        assert_eq!(
            read(&root, "memory/secret.md"),
            Err(ReadError::Unsafe(UnsafeKind::Symlink))
        );
        assert_eq!(
            root.list(Some("memory"), 100, &mut ledger()),
            Err(ReadError::Unsafe(UnsafeKind::Symlink))
        );
    }
}

#[test]
#[cfg_attr(windows, ignore = "needs real Windows: Wine cannot create links")]
fn symlinked_ancestor_is_refused() {
    for mode in modes() {
        let temp = fixture();
        fs::create_dir_all(temp.path().join("outside/deeper")).unwrap();
        fs::write(temp.path().join("outside/deeper/note.md"), "MARKER-OUTSIDE").unwrap();
        symlink(temp.path().join("outside"), temp.path().join("aios/vault")).unwrap();
        let root = open(&temp, mode);
        assert_eq!(
            read(&root, "vault/deeper/note.md"),
            Err(ReadError::Unsafe(UnsafeKind::Symlink))
        );
    }
}

#[test]
fn a_file_as_ancestor_is_unsafe_not_absent() {
    for mode in modes() {
        let temp = fixture();
        let root = open(&temp, mode);
        assert_eq!(
            read(&root, "context/work.md/x.md"),
            Err(ReadError::Unsafe(UnsafeKind::NotDirectory))
        );
    }
}

#[cfg(unix)]
#[test]
fn fifo_is_refused_without_blocking() {
    for mode in modes() {
        let temp = fixture();
        let fifo = temp.path().join("aios/context/identity.md");
        mkfifo(&fifo);
        let root = open(&temp, mode);
        assert_eq!(
            read(&root, "context/identity.md"),
            Err(ReadError::NotRegular(EntryKind::Fifo))
        );
        let probe = root.probe("context/identity.md").unwrap().unwrap();
        assert_eq!(probe.kind, EntryKind::Fifo);
    }
}

#[cfg(unix)]
#[test]
fn unix_socket_is_refused() {
    for mode in modes() {
        let temp = fixture();
        let path = temp.path().join("aios/context/sock.md");
        let _listener = std::os::unix::net::UnixListener::bind(&path).unwrap();
        let root = open(&temp, mode);
        assert_eq!(
            read(&root, "context/sock.md"),
            Err(ReadError::NotRegular(EntryKind::Socket))
        );
    }
}

#[test]
fn invalid_utf8_is_refused_and_bom_is_kept() {
    for mode in modes() {
        let temp = fixture();
        fs::write(
            temp.path().join("aios/context/bad.md"),
            b"ok \xc0\x80 overlong",
        )
        .unwrap();
        fs::write(temp.path().join("aios/context/sur.md"), b"\xed\xa0\x80").unwrap();
        fs::write(temp.path().join("aios/context/bom.md"), "\u{feff}# T\0nul").unwrap();
        let root = open(&temp, mode);
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
    for mode in modes() {
        let temp = fixture();
        fs::write(temp.path().join("aios/context/at.md"), vec![b'a'; 4096]).unwrap();
        fs::write(temp.path().join("aios/context/over.md"), vec![b'a'; 4097]).unwrap();
        let root = open(&temp, mode);
        let mut ledger = ledger();
        assert!(
            root.read_text("context/at.md", 4096, &mut ledger)
                .unwrap()
                .is_some()
        );
        assert_eq!(
            root.read_text("context/over.md", 4096, &mut ledger),
            Err(ReadError::TooLarge)
        );
        // A refused file is not charged.
        assert_eq!(ledger.used().files, 1);
    }
}

#[test]
fn ledger_limits_fail_closed() {
    for mode in modes() {
        ledger_limits_fail_closed_in(mode);
    }
}

fn ledger_limits_fail_closed_in(mode: Mode) {
    let temp = fixture();
    for index in 0..3 {
        fs::write(
            temp.path().join(format!("aios/context/f{index}.md")),
            "0123456789",
        )
        .unwrap();
    }
    let root = open(&temp, mode);
    let mut files = Ledger::new(Limits {
        files: 2,
        bytes: 1 << 20,
        entries: 100,
    });
    root.read_text("context/f0.md", 100, &mut files).unwrap();
    root.read_text("context/f1.md", 100, &mut files).unwrap();
    assert_eq!(
        root.read_text("context/f2.md", 100, &mut files),
        Err(ReadError::Budget(BudgetDimension::Files))
    );

    let mut bytes = Ledger::new(Limits {
        files: 10,
        bytes: 20,
        entries: 100,
    });
    root.read_text("context/f0.md", 100, &mut bytes).unwrap();
    root.read_text("context/f1.md", 100, &mut bytes).unwrap();
    assert_eq!(
        root.read_text("context/f2.md", 100, &mut bytes),
        Err(ReadError::Budget(BudgetDimension::Bytes))
    );

    let mut entries = Ledger::new(Limits {
        files: 10,
        bytes: 100,
        entries: 3,
    });
    assert_eq!(
        root.list(Some("context"), 100, &mut entries),
        Err(ReadError::Budget(BudgetDimension::Entries))
    );
}

#[test]
fn a_directory_over_its_entry_limit_is_refused() {
    for mode in modes() {
        let temp = fixture();
        let signals = temp.path().join("aios/memory/signals");
        fs::create_dir_all(&signals).unwrap();
        for index in 0..9 {
            fs::write(signals.join(format!(".hidden-{index}")), "").unwrap();
        }
        let root = open(&temp, mode);
        let listing = root
            .list(Some("memory/signals"), 9, &mut ledger())
            .unwrap()
            .unwrap();
        assert_eq!(listing.entries.len(), 9);
        fs::create_dir(signals.join("sub")).unwrap();
        assert_eq!(
            root.list(Some("memory/signals"), 9, &mut ledger()),
            Err(ReadError::DirectoryLimit)
        );
    }
}

#[test]
fn listing_reports_kinds_without_following() {
    for mode in modes() {
        listing_reports_kinds_without_following_in(mode);
    }
}

fn listing_reports_kinds_without_following_in(mode: Mode) {
    let temp = fixture();
    let aios = temp.path().join("aios");
    fs::write(aios.join("aios.json"), "{}").unwrap();
    let root = open(&temp, mode);
    let listing = root.list(None, 100, &mut ledger()).unwrap().unwrap();
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
        ]
    );
    assert_eq!(root.list(Some("absent"), 10, &mut ledger()).unwrap(), None);
    assert_eq!(
        root.list(Some("aios.json"), 10, &mut ledger()),
        Err(ReadError::Unsafe(UnsafeKind::NotDirectory))
    );
}

#[test]
#[cfg_attr(windows, ignore = "needs real Windows: Wine cannot create links")]
fn listing_reports_links_without_following() {
    for mode in modes() {
        let temp = fixture();
        let aios = temp.path().join("aios");
        symlink(temp.path().join("outside"), aios.join("linked")).unwrap();
        symlink("context/work.md", aios.join("linked.md")).unwrap();
        let root = open(&temp, mode);
        let listing = root.list(None, 100, &mut ledger()).unwrap().unwrap();
        let mut kinds: Vec<(String, EntryKind)> = listing
            .entries
            .iter()
            .map(|entry| (entry.name_str().unwrap().to_owned(), entry.kind))
            .collect();
        kinds.sort_by(|a, b| a.0.cmp(&b.0));
        assert_eq!(
            kinds,
            vec![
                ("context".into(), EntryKind::Directory),
                ("linked".into(), EntryKind::Symlink),
                ("linked.md".into(), EntryKind::Symlink),
            ]
        );
        assert_eq!(
            root.list(Some("linked"), 10, &mut ledger()),
            Err(ReadError::Unsafe(UnsafeKind::Symlink))
        );
    }
}

#[test]
fn prefix_reads_charge_the_whole_file() {
    for mode in modes() {
        let temp = fixture();
        let body = "x".repeat(2 << 20);
        fs::write(
            temp.path().join("aios/context/big.md"),
            format!("---\nname: a\n---\n{body}"),
        )
        .unwrap();
        let root = open(&temp, mode);
        let mut ledger = ledger();
        let prefix = root
            .read_prefix("context/big.md", 8 << 20, 64 << 10, &mut ledger)
            .unwrap()
            .unwrap();
        assert_eq!(prefix.bytes.len(), 64 << 10);
        assert!(!prefix.complete);
        assert!(ledger.used().bytes > 2 << 20);
        let whole = root
            .read_prefix("context/work.md", 100, 64 << 10, &mut ledger)
            .unwrap()
            .unwrap();
        assert!(whole.complete);
        assert_eq!(whole.bytes, b"# Work\n");
    }
}

#[test]
#[cfg_attr(windows, ignore = "needs real Windows: Wine cannot create links")]
fn a_symlinked_root_is_followed_once() {
    let temp = fixture();
    symlink(temp.path().join("aios"), temp.path().join("link-to-aios")).unwrap();
    for mode in modes() {
        let (Mode::Path(strategy) | Mode::Walk(strategy)) = mode;
        let root = Reader {
            root: Root::open_with(&temp.path().join("link-to-aios"), strategy).unwrap(),
            mode,
        };
        assert_eq!(
            read(&root, "context/work.md").unwrap().as_deref(),
            Some("# Work\n")
        );
    }
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
    for strategy in Strategy::available() {
        let temp = fixture();
        let root = Root::open_with(&temp.path().join("aios"), *strategy).unwrap();
        let file = root
            .read_text(&rel("context/work.md"), 100, &mut ledger())
            .unwrap()
            .unwrap();
        let context = root.open_dir(&rel("context")).unwrap().unwrap();
        // The walk-relative stat and the read's fstat agree on every field.
        assert_eq!(
            context.stat("work.md").unwrap().unwrap().identity,
            file.identity
        );
        assert!(
            root.still_matches(&rel("context/work.md"), &file.identity)
                .unwrap()
        );
        assert!(context.still_matches("work.md", &file.identity).unwrap());
        std::thread::sleep(std::time::Duration::from_millis(20));
        fs::write(temp.path().join("aios/context/work.md"), "# Work, edited\n").unwrap();
        assert!(
            !root
                .still_matches(&rel("context/work.md"), &file.identity)
                .unwrap()
        );
        assert!(!context.still_matches("work.md", &file.identity).unwrap());
        assert!(!context.still_matches("absent.md", &file.identity).unwrap());
    }
}

/// One thread swaps `aios/notes` between a real directory and a symlink to an outside
/// directory holding the marker, as fast as it can; the reader must never return the marker.
#[test]
#[cfg_attr(windows, ignore = "needs real Windows: Wine cannot create links")]
fn concurrent_swap_attacker_never_leaks_the_marker() {
    for mode in modes() {
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
        let root = open(&temp, mode);
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
            if let Ok(Some(listing)) = root.list(Some("notes"), 100, &mut ledger()) {
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
            "{mode:?}: {swaps} swaps, {inside} inside reads, {refused} refused, {control_leaks} control leaks"
        );
        let _ = refused;
    }
}

fn temp_link_path(aios: &Path) -> std::path::PathBuf {
    aios.parent().unwrap().join("swap-link")
}

#[test]
fn reads_never_write() {
    for mode in modes() {
        reads_never_write_in(mode);
    }
}

/// The tree as the test can see it: every path with its kind, bytes, read-only flag and
/// modification time (`dotaios_testkit::fingerprint` on Unix, which also covers modes).
#[cfg(windows)]
fn fingerprint(root: &Path) -> Vec<(String, bool, Vec<u8>, bool, std::time::SystemTime)> {
    let mut seen = Vec::new();
    let mut pending = vec![root.to_owned()];
    while let Some(dir) = pending.pop() {
        for entry in fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let meta = fs::symlink_metadata(&path).unwrap();
            let bytes = if meta.is_file() {
                fs::read(&path).unwrap()
            } else {
                pending.push(path.clone());
                Vec::new()
            };
            let name = path
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            let modified = meta.modified().unwrap();
            seen.push((
                name,
                meta.is_dir(),
                bytes,
                meta.permissions().readonly(),
                modified,
            ));
        }
    }
    seen.sort();
    seen
}

fn reads_never_write_in(mode: Mode) {
    let temp = fixture();
    let before = fingerprint(&temp.path().join("aios"));
    let root = open(&temp, mode);
    for _ in 0..3 {
        let _ = read(&root, "context/work.md");
        let _ = root.list(None, 100, &mut ledger());
        let _ = root.probe("context");
        let _ = root.read_prefix("context/work.md", 100, 3, &mut ledger());
    }
    assert_eq!(before, fingerprint(&temp.path().join("aios")));
}

#[test]
#[cfg_attr(windows, ignore = "needs real Windows: Wine cannot create links")]
fn revalidation_sees_a_directory_swapped_for_a_link() {
    for mode in modes() {
        let temp = fixture();
        let root = open(&temp, mode);
        let top = root.root.dir().unwrap();
        let directory = root.probe("context").unwrap().unwrap();
        // A walk's handle on the directory, held across the swap.
        let held = top.open_dir("context").unwrap().unwrap();
        assert_eq!(held.identity(), directory.identity);
        assert!(
            root.root
                .still_matches(&rel("context"), &directory.identity)
                .unwrap()
        );
        assert!(top.still_matches("context", &directory.identity).unwrap());
        // The same directory, moved out and linked back: same inode, but now a link below
        // the root.
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
                .root
                .still_matches(&rel("context"), &directory.identity)
                .unwrap()
        );
        // The held handle followed the rename (descriptors do); what it read is only ever
        // published after the revalidation by name, which sees the link.
        assert!(!top.still_matches("context", &directory.identity).unwrap());
        assert_ne!(
            held.restat().unwrap(),
            directory.identity,
            "its ctime moved"
        );
        assert_eq!(
            root.read_text("context/work.md", 100, &mut ledger()),
            Err(ReadError::Unsafe(UnsafeKind::Symlink))
        );
        assert!(
            !root
                .root
                .still_matches(&rel("absent.md"), &directory.identity)
                .unwrap()
        );
    }
}

// ----- The walk-relative handle API on its own -------------------------------------------

fn context_dir(temp: &tempfile::TempDir, strategy: Strategy) -> Dir {
    let root = Root::open_with(&temp.path().join("aios"), strategy).unwrap();
    root.open_dir(&rel("context")).unwrap().unwrap()
}

#[test]
fn a_name_must_be_one_normal_component() {
    for strategy in Strategy::available() {
        let temp = fixture();
        let root = Root::open_with(&temp.path().join("aios"), *strategy).unwrap();
        let top = root.dir().unwrap();
        let escape = Err(ReadError::Unsafe(UnsafeKind::Escape));
        for bad in [
            "",
            ".",
            "..",
            "context/work.md",
            "../outside",
            "/etc",
            "a\0b",
        ] {
            assert_eq!(top.stat(bad).map(|_| ()), escape, "{bad:?}");
            assert_eq!(top.open_dir(bad).map(|_| ()), escape, "{bad:?}");
            assert_eq!(
                top.read_text(bad, 100, &mut ledger()).map(|_| ()),
                escape,
                "{bad:?}"
            );
            assert_eq!(
                top.read_prefix(bad, 100, 1, &mut ledger()).map(|_| ()),
                escape
            );
            let identity = top.identity();
            assert_eq!(top.still_matches(bad, &identity).map(|_| ()), escape);
        }
    }
}

/// On Windows a name is also refused when the Windows name rules refuse it: separators and
/// relative walks inside one name, drives, NT and Win32 device namespaces, wildcards, device
/// names, alternate data streams, names the Win32 layer would rewrite and over-long names.
/// None of them reaches the kernel, and none of them is a `RelPath` either.
#[cfg(windows)]
#[test]
fn windows_names_that_could_mean_something_else_are_refused() {
    let temp = fixture();
    fs::write(temp.path().join("aios/context/a.txt"), "a").unwrap();
    let root = Root::open(&temp.path().join("aios")).unwrap();
    let top = root.dir().unwrap();
    let context = root.open_dir(&rel("context")).unwrap().unwrap();
    let escape = Err(ReadError::Unsafe(UnsafeKind::Escape));
    let long = "a".repeat(256);
    for bad in [
        "context\\work.md",
        "context\\..\\..\\outside",
        "sub\\..\\x",
        "C:",
        "C:\\Windows",
        "\\\\?\\C:\\",
        "\\??\\C:\\",
        "\\\\.\\NUL",
        "a.*",
        "*",
        "CON",
        "nul.md",
        "Aux.txt",
        "COM1",
        "lpt9.log",
        "work.md:stream",
        "work.md::$DATA",
        "work.md.",
        "work.md ",
        "WORK~1.MD",
        "CONTEX~1",
        long.as_str(),
    ] {
        for dir in [&top, &context] {
            assert_eq!(dir.stat(bad).map(|_| ()), escape, "{bad:?}");
            assert_eq!(dir.open_dir(bad).map(|_| ()), escape, "{bad:?}");
            assert_eq!(
                dir.read_text(bad, 100, &mut ledger()).map(|_| ()),
                escape,
                "{bad:?}"
            );
        }
        assert!(RelPath::new(&format!("context/{bad}")).is_err(), "{bad:?}");
    }
    // The ordinary names around them still work.
    assert_eq!(
        context
            .read_text("work.md", 100, &mut ledger())
            .unwrap()
            .unwrap()
            .text,
        "# Work\n"
    );
    assert_eq!(context.stat("console.md").unwrap(), None);
}

/// Names that mean something else on Windows are ordinary names on Unix: absent here, not
/// refused (`docs/decisions.md`, "The contained reader on Windows").
#[cfg(unix)]
#[test]
fn windows_reserved_names_are_ordinary_on_unix() {
    let temp = fixture();
    fs::write(temp.path().join("aios/context/CON.md"), "con").unwrap();
    let root = Root::open(&temp.path().join("aios")).unwrap();
    let context = root.open_dir(&rel("context")).unwrap().unwrap();
    for absent in ["a\\b", "C:", "a.*", "work.md:stream", "work.md.", "nul"] {
        assert_eq!(context.stat(absent).unwrap(), None, "{absent:?}");
    }
    assert_eq!(
        root.read_text(&rel("context/CON.md"), 100, &mut ledger())
            .unwrap()
            .unwrap()
            .text,
        "con"
    );
}

#[test]
#[cfg_attr(windows, ignore = "needs real Windows: Wine cannot create links")]
fn children_are_classified_without_following() {
    for strategy in Strategy::available() {
        let temp = fixture();
        let context = temp.path().join("aios/context");
        symlink(temp.path().join("outside"), context.join("linked-dir")).unwrap();
        symlink("work.md", context.join("linked.md")).unwrap();
        let dir = context_dir(&temp, *strategy);
        assert_eq!(dir.stat("absent.md").unwrap(), None);
        assert_eq!(dir.open_dir("absent").unwrap().map(|_| ()), None);
        assert_eq!(
            dir.read_text("absent.md", 100, &mut ledger()).unwrap(),
            None
        );
        assert_eq!(
            dir.stat("linked.md").unwrap().unwrap().kind,
            EntryKind::Symlink
        );
        assert_eq!(
            dir.read_text("linked.md", 100, &mut ledger()),
            Err(ReadError::Unsafe(UnsafeKind::Symlink))
        );
        assert_eq!(
            dir.open_dir("linked-dir").map(|_| ()),
            Err(ReadError::Unsafe(UnsafeKind::Symlink))
        );
        assert_eq!(
            dir.open_dir("work.md").map(|_| ()),
            Err(ReadError::Unsafe(UnsafeKind::NotDirectory))
        );
        assert_eq!(
            dir.read_text("work.md", 100, &mut ledger())
                .unwrap()
                .unwrap()
                .text,
            "# Work\n"
        );
    }
}

#[test]
fn children_are_classified_by_one_name() {
    for strategy in Strategy::available() {
        let temp = fixture();
        fs::create_dir(temp.path().join("aios/context/sub")).unwrap();
        let dir = context_dir(&temp, *strategy);
        assert_eq!(dir.stat("absent.md").unwrap(), None);
        assert_eq!(dir.open_dir("absent").unwrap().map(|_| ()), None);
        assert_eq!(
            dir.read_text("absent.md", 100, &mut ledger()).unwrap(),
            None
        );
        assert_eq!(dir.stat("work.md").unwrap().unwrap().kind, EntryKind::File);
        assert_eq!(dir.stat("sub").unwrap().unwrap().kind, EntryKind::Directory);
        assert_eq!(
            dir.open_dir("work.md").map(|_| ()),
            Err(ReadError::Unsafe(UnsafeKind::NotDirectory))
        );
        assert_eq!(
            dir.read_text("sub", 100, &mut ledger()),
            Err(ReadError::NotRegular(EntryKind::Directory))
        );
        assert_eq!(
            dir.read_text("work.md", 100, &mut ledger())
                .unwrap()
                .unwrap()
                .text,
            "# Work\n"
        );
    }
}

#[test]
fn an_expected_identity_must_match_the_opened_file() {
    for strategy in Strategy::available() {
        let temp = fixture();
        let dir = context_dir(&temp, *strategy);
        let found = dir.stat("work.md").unwrap().unwrap();
        let options = dotaios_contained::ReadOptions::new(100)
            .expecting(found.identity)
            .caller_revalidates();
        let mut charged = ledger();
        let file = dir
            .read_text_with("work.md", &options, &mut charged)
            .unwrap()
            .unwrap();
        assert_eq!(file.text, "# Work\n");
        assert_eq!(file.identity, found.identity);
        assert_eq!(charged.used().files, 1);
        assert_eq!(charged.used().bytes, 7);

        // Rewritten in place after the enumeration stat, same inode and same size: only the
        // open's fstat (its times) tells.
        std::thread::sleep(std::time::Duration::from_millis(20));
        fs::write(temp.path().join("aios/context/work.md"), "# Wxrk\n").unwrap();
        assert_eq!(
            dir.read_text_with("work.md", &options, &mut ledger()),
            Err(ReadError::Changed)
        );
        // Removed after the enumeration stat: changed, not absent.
        fs::remove_file(temp.path().join("aios/context/work.md")).unwrap();
        assert_eq!(
            dir.read_text_with("work.md", &options, &mut ledger()),
            Err(ReadError::Changed)
        );
        // An identity that is not a regular file is refused before anything is opened.
        let directory = dir.identity();
        assert_eq!(
            dir.read_text_with(
                "work.md",
                &dotaios_contained::ReadOptions::new(100).expecting(directory),
                &mut ledger()
            ),
            Err(ReadError::NotRegular(EntryKind::Directory))
        );
        // An expected size over the cap is refused before anything is opened or charged.
        let mut over = ledger();
        assert_eq!(
            dir.read_text_with(
                "absent.md",
                &dotaios_contained::ReadOptions::new(3).expecting(found.identity),
                &mut over
            ),
            Err(ReadError::TooLarge)
        );
        assert_eq!(over.used().files, 0);
    }
}

/// A FIFO renamed over a file between the enumeration stat and the open: the open must not
/// block (`O_NONBLOCK`), and the identity check must refuse it.
#[cfg(unix)]
#[test]
fn a_fifo_swapped_in_after_the_stat_never_blocks() {
    for strategy in Strategy::available() {
        let temp = fixture();
        let dir = context_dir(&temp, *strategy);
        let found = dir.stat("work.md").unwrap().unwrap();
        let fifo = temp.path().join("aios/fifo-tmp");
        mkfifo(&fifo);
        fs::rename(&fifo, temp.path().join("aios/context/work.md")).unwrap();
        let options = dotaios_contained::ReadOptions::new(100).expecting(found.identity);
        assert_eq!(
            dir.read_text_with("work.md", &options, &mut ledger()),
            Err(ReadError::Changed)
        );
        assert_eq!(
            dir.read_text("work.md", 100, &mut ledger()),
            Err(ReadError::NotRegular(EntryKind::Fifo))
        );
    }
}

/// A directory put where a file was stat'ed: the read refuses it (a change when the identity
/// was supplied, not a regular file otherwise), and the walk refuses a file where a directory
/// was.
#[test]
fn a_kind_swapped_after_the_stat_is_refused() {
    for strategy in Strategy::available() {
        let temp = fixture();
        let dir = context_dir(&temp, *strategy);
        let found = dir.stat("work.md").unwrap().unwrap();
        let work = temp.path().join("aios/context/work.md");
        fs::remove_file(&work).unwrap();
        fs::create_dir(&work).unwrap();
        let options = dotaios_contained::ReadOptions::new(100).expecting(found.identity);
        assert_eq!(
            dir.read_text_with("work.md", &options, &mut ledger()),
            Err(ReadError::Changed)
        );
        assert_eq!(
            dir.read_text("work.md", 100, &mut ledger()),
            Err(ReadError::NotRegular(EntryKind::Directory))
        );
        assert!(!dir.still_matches("work.md", &found.identity).unwrap());
        // And back: a file where the walk expects a directory.
        let sub = dir.open_dir("work.md").unwrap().unwrap();
        drop(sub);
        fs::remove_dir(&work).unwrap();
        fs::write(&work, "# Work\n").unwrap();
        assert_eq!(
            dir.open_dir("work.md").map(|_| ()),
            Err(ReadError::Unsafe(UnsafeKind::NotDirectory))
        );
        let root = Root::open_with(&temp.path().join("aios"), *strategy).unwrap();
        assert_eq!(
            root.read_text(&rel("context/work.md/x.md"), 100, &mut ledger()),
            Err(ReadError::Unsafe(UnsafeKind::NotDirectory))
        );
    }
}

/// A file replaced by another through a rename (what editors and sync clients do) is another
/// object: revalidation says so, and a read that expected the old identity is a change.
#[test]
fn a_file_replaced_by_rename_is_another_object() {
    for strategy in Strategy::available() {
        let temp = fixture();
        let root = Root::open_with(&temp.path().join("aios"), *strategy).unwrap();
        let dir = root.open_dir(&rel("context")).unwrap().unwrap();
        let found = dir.stat("work.md").unwrap().unwrap();
        let fresh = temp.path().join("aios/context/work.md.new");
        fs::write(&fresh, "# Work\n").unwrap();
        fs::rename(&fresh, temp.path().join("aios/context/work.md")).unwrap();
        let now = dir.stat("work.md").unwrap().unwrap();
        assert!(!now.identity.same_object(&found.identity));
        assert!(!dir.still_matches("work.md", &found.identity).unwrap());
        assert!(
            !root
                .still_matches(&rel("context/work.md"), &found.identity)
                .unwrap()
        );
        let options = dotaios_contained::ReadOptions::new(100).expecting(found.identity);
        assert_eq!(
            dir.read_text_with("work.md", &options, &mut ledger()),
            Err(ReadError::Changed)
        );
        assert_eq!(
            dir.read_text("work.md", 100, &mut ledger())
                .unwrap()
                .unwrap()
                .identity,
            now.identity
        );
    }
}

/// A directory moved away while a walk holds its handle, and another put in its place: the
/// held handle does not stop the move (on Windows every handle shares delete), and
/// revalidation by name sees another object.
#[test]
fn revalidation_sees_a_directory_replaced_by_another() {
    for strategy in Strategy::available() {
        let temp = fixture();
        let root = Root::open_with(&temp.path().join("aios"), *strategy).unwrap();
        let top = root.dir().unwrap();
        let held = top.open_dir("context").unwrap().unwrap();
        let before = held.identity();
        assert!(top.still_matches("context", &before).unwrap());
        fs::rename(
            temp.path().join("aios/context"),
            temp.path().join("outside/context"),
        )
        .unwrap();
        fs::create_dir(temp.path().join("aios/context")).unwrap();
        fs::write(temp.path().join("aios/context/work.md"), "# Other\n").unwrap();
        assert!(!top.still_matches("context", &before).unwrap());
        assert!(!root.still_matches(&rel("context"), &before).unwrap());
        let now = root.probe(&rel("context")).unwrap().unwrap();
        assert!(!now.identity.same_object(&before));
        assert_eq!(
            root.read_text(&rel("context/work.md"), 100, &mut ledger())
                .unwrap()
                .unwrap()
                .text,
            "# Other\n"
        );
        // The files of the held handle can still be removed by others.
        fs::remove_file(temp.path().join("outside/context/work.md")).unwrap();
        assert_eq!(held.read_text("work.md", 100, &mut ledger()).unwrap(), None);
    }
}

/// Windows: a root given as a verbatim (`\\?\`) path, as `canonicalize` returns it, opens
/// the same folder.
#[cfg(windows)]
#[test]
fn a_verbatim_root_path_opens_the_folder() {
    let temp = fixture();
    let verbatim = fs::canonicalize(temp.path().join("aios")).unwrap();
    assert!(verbatim.to_string_lossy().starts_with("\\\\?\\"));
    let root = Root::open(&verbatim).unwrap();
    assert_eq!(
        root.read_text(&rel("context/work.md"), 100, &mut ledger())
            .unwrap()
            .unwrap()
            .text,
        "# Work\n"
    );
}

#[test]
fn a_listing_fails_when_the_directory_changed_since_it_was_opened() {
    for strategy in Strategy::available() {
        let temp = fixture();
        let dir = context_dir(&temp, *strategy);
        assert_eq!(dir.list(100, &mut ledger()).unwrap().entries.len(), 1);
        // Listing twice from one handle sees the same entries (no shared position).
        assert_eq!(dir.list(100, &mut ledger()).unwrap().entries.len(), 1);
        fs::write(temp.path().join("aios/context/new.md"), "x").unwrap();
        assert_eq!(dir.list(100, &mut ledger()), Err(ReadError::Changed));
        // A fresh handle lists the new state.
        let fresh = context_dir(&temp, *strategy);
        assert_eq!(fresh.list(100, &mut ledger()).unwrap().entries.len(), 2);
    }
}

#[test]
fn one_handle_serves_reads_from_many_threads() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Dir>();
    for strategy in Strategy::available() {
        let temp = fixture();
        for index in 0..32 {
            fs::write(
                temp.path().join(format!("aios/context/n{index}.md")),
                format!("note {index}"),
            )
            .unwrap();
        }
        let dir = context_dir(&temp, *strategy);
        std::thread::scope(|scope| {
            for worker in 0..4 {
                let dir = &dir;
                scope.spawn(move || {
                    for index in (worker..32).step_by(4) {
                        let file = dir
                            .read_text(format!("n{index}.md"), 100, &mut ledger())
                            .unwrap()
                            .unwrap();
                        assert_eq!(file.text, format!("note {index}"));
                    }
                });
            }
        });
    }
}
