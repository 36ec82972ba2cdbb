//! The server's search content cache (contract 03 §19.2) seen from the wire: a server with the
//! cache answers every `search_aios` call byte for byte like a server without it, across
//! repeated calls, other queries and scopes, and edits, additions and deletions between calls.
#![allow(
    clippy::disallowed_methods,
    reason = "tests build and inspect their folders with std::fs"
)]

mod support;

use std::time::Duration;

use dotaios_mcp::Server;
use serde_json::json;
use support::{Fixture, call};

fn fixture() -> Fixture {
    let fixture = Fixture::init_in(std::path::Path::new(env!("CARGO_TARGET_TMPDIR")));
    fixture.write("context/work.md", "# Work\n\nLighthouse launch notes.\n");
    for n in 0..40 {
        fixture.write(
            &format!("vault/notes/n{n:02}.md"),
            format!(
                "# Note {n}\n\nlighthouse keeper {} review\n",
                "detail ".repeat(n)
            ),
        );
    }
    fixture.write(
        "references/harbour.md",
        "---\ndescription: Harbour lighthouse\n---\nbody\n",
    );
    // The cache stores nothing changed within 2 seconds of a request.
    std::thread::sleep(Duration::from_millis(2100));
    fixture
}

/// Each line gets the same answer from both servers; returns how many cached texts the cached
/// server reused for them.
fn same_answers(cached: &Server, uncached: &Server, lines: &[String]) -> u64 {
    let before = cached.cache_hits().expect("the cached server has a cache");
    for line in lines {
        let with = cached.handle_line(line.as_bytes()).unwrap();
        let without = uncached.handle_line(line.as_bytes()).unwrap();
        assert_eq!(with, without, "request {line}");
        assert!(with.contains(r#""isError":false"#), "{with}");
    }
    assert_eq!(uncached.cache_hits(), None);
    cached.cache_hits().unwrap() - before
}

#[test]
fn cached_and_uncached_servers_answer_identically() {
    let fixture = fixture();
    let cached = Server::new(fixture.aios.clone());
    let uncached = Server::without_cache(fixture.aios.clone());
    let lines = [
        call(1, "search_aios", json!({"query": "lighthouse keeper"})),
        call(2, "search_aios", json!({"query": "lighthouse keeper"})),
        call(
            3,
            "search_aios",
            json!({"query": "detail", "scope": "vault", "limit": 5}),
        ),
        call(
            4,
            "search_aios",
            json!({"query": "lighthouse", "budget": 3600}),
        ),
        call(
            5,
            "search_aios",
            json!({"query": "harbour", "scope": "references"}),
        ),
        call(6, "search_aios", json!({"query": "lighthouse keeper"})),
    ];
    // The comparison means something only if the cached server answered from its cache: the
    // first call fills it, and the later calls that search the vault reuse its 40 notes (a
    // call that searches other scopes only evicts them again).
    let reused = same_answers(&cached, &uncached, &lines[..1]);
    assert_eq!(reused, 0, "the first call has nothing to reuse");
    let reused = same_answers(&cached, &uncached, &lines[1..]);
    assert!(reused >= 3 * 40, "only {reused} cached texts were reused");

    // A same-size rewrite (ctime changes), a new file and a deletion between calls.
    let path = fixture.aios.join("vault/notes/n03.md");
    let old = std::fs::read_to_string(&path).unwrap();
    let new = old.replace("lighthouse", "lightship!");
    assert_eq!(new.len(), old.len());
    std::fs::write(&path, new).unwrap();
    fixture.write("vault/notes/zz.md", "# Late\n\nlightship keeper\n");
    std::fs::remove_file(fixture.aios.join("vault/notes/n07.md")).unwrap();
    let lines = vec![
        call(7, "search_aios", json!({"query": "lightship"})),
        call(
            8,
            "search_aios",
            json!({"query": "lighthouse keeper", "limit": 20}),
        ),
    ];
    let reused = same_answers(&cached, &uncached, &lines);
    // The rewritten and the new file are read again; the 38 unchanged notes are reused by
    // both calls.
    assert!(reused >= 2 * 38, "only {reused} cached texts were reused");
    let answer = cached.handle_line(lines[0].as_bytes()).unwrap();
    assert!(answer.contains("vault/notes/n03.md"), "{answer}");
    assert!(answer.contains("vault/notes/zz.md"), "{answer}");
}

/// A Python process holding a shared writable mapping of one note (docs/security.md, F4). Its
/// first store faults the page and sets mtime and ctime; a second store into the page while it
/// is still dirty changes the bytes without changing any field `statx` reports, so no identity
/// check can see it.
struct MappedWriter {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    stdout: std::io::BufReader<std::process::ChildStdout>,
}

const MAPPED_WRITER: &str = r#"
import mmap, os, sys
path, first, second = sys.argv[1], sys.argv[2].encode(), sys.argv[3].encode()
def identity():
    s = os.stat(path)
    return (s.st_dev, s.st_ino, s.st_size, s.st_mtime_ns, s.st_ctime_ns)
with open(path, "r+b") as handle:
    mapped = mmap.mmap(handle.fileno(), 0)
    at = mapped.find(first)
    mapped[at:at + len(second)] = first[::-1]
    print("stored", flush=True)
    sys.stdin.readline()
    before = identity()
    mapped[at:at + len(second)] = second
    print("same" if identity() == before else "changed", flush=True)
    sys.stdin.readline()
"#;

impl MappedWriter {
    /// Maps `path` and makes the first store: `first` becomes `first` reversed.
    fn start(path: &std::path::Path, first: &str, second: &str) -> MappedWriter {
        use std::process::{Command, Stdio};
        let mut child = Command::new("python3")
            .args(["-c", MAPPED_WRITER])
            .arg(path)
            .args([first, second])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("python3 runs (the F4 test writes through Python's mmap)");
        let stdin = child.stdin.take().unwrap();
        let stdout = std::io::BufReader::new(child.stdout.take().unwrap());
        let mut writer = MappedWriter {
            child,
            stdin,
            stdout,
        };
        assert_eq!(writer.line(), "stored");
        writer
    }

    fn line(&mut self) -> String {
        use std::io::BufRead;
        let mut line = String::new();
        self.stdout.read_line(&mut line).unwrap();
        line.trim().to_owned()
    }

    /// Makes the second store through the still-dirty page; whether the identity stayed the
    /// same (a writeback between the two stores makes the kernel stamp the file again).
    fn store_unseen(&mut self) -> bool {
        use std::io::Write;
        self.stdin.write_all(b"\n").unwrap();
        self.stdin.flush().unwrap();
        self.line() == "same"
    }
}

impl Drop for MappedWriter {
    fn drop(&mut self) {
        use std::io::Write;
        let _ = self.stdin.write_all(b"\n");
        let _ = self.child.wait();
    }
}

/// One adapter process on `folder`, its environment's `DOTAIOS_SEARCH_CACHE` as given.
fn adapter_client(folder: &std::path::Path, switch: Option<&str>) -> dotaios_mcp::client::Client {
    let mut command = std::process::Command::new(support::adapter());
    command.arg("--path").arg(folder);
    command.env_remove("DOTAIOS_SEARCH_CACHE");
    if let Some(switch) = switch {
        command.env("DOTAIOS_SEARCH_CACHE", switch);
    }
    let mut client = dotaios_mcp::client::Client::spawn(&mut command, 1 << 24).unwrap();
    client
        .initialize("2025-03-26", "test", "1", deadline())
        .unwrap();
    client
}

fn deadline() -> std::time::Instant {
    std::time::Instant::now() + Duration::from_secs(60)
}

/// Whether a vault search for `word` finds the mapped note.
fn finds(client: &mut dotaios_mcp::client::Client, word: &str) -> bool {
    let response = client
        .call_tool(
            "search_aios",
            json!({"query": word, "scope": "vault"}),
            deadline(),
        )
        .unwrap();
    let text = support::payload_text(&response);
    text.contains("vault/notes/mapped.md")
}

/// Contract 03 §19.2's switch: a change made through a shared mapping leaves device, inode, size,
/// mtime and ctime as they were, so the cached server keeps serving the text it read (the
/// limitation `docs/security.md` states), while `DOTAIOS_SEARCH_CACHE=off` reads the file again.
#[test]
#[cfg_attr(
    windows,
    ignore = "writes through a shared mapping with the host's python3, which Wine cannot start"
)]
fn with_the_cache_off_a_change_no_identity_shows_is_served_fresh() {
    for _ in 0..3 {
        let fixture = Fixture::init_in(std::path::Path::new(env!("CARGO_TARGET_TMPDIR")));
        fixture.write(
            "vault/notes/mapped.md",
            "# Mapped\n\nlantern keeper abcdefgh\n",
        );
        let path = fixture.aios.join("vault/notes/mapped.md");
        let mut writer = MappedWriter::start(&path, "abcdefgh", "zyxwvuts");
        // Past the racy window, so the cached server stores the text of the first store.
        std::thread::sleep(Duration::from_millis(2100));
        let mut cached = adapter_client(&fixture.aios, None);
        let mut fresh = adapter_client(&fixture.aios, Some("off"));
        assert!(finds(&mut cached, "hgfedcba"));
        assert!(finds(&mut fresh, "hgfedcba"));
        if !writer.store_unseen() {
            // The kernel wrote the page back between the stores; the change was visible, so
            // this attempt shows nothing: try again.
            continue;
        }
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "# Mapped\n\nlantern keeper zyxwvuts\n"
        );
        assert!(
            finds(&mut fresh, "zyxwvuts"),
            "the uncached server reads the new text"
        );
        assert!(!finds(&mut fresh, "hgfedcba"));
        assert!(
            finds(&mut cached, "hgfedcba") && !finds(&mut cached, "zyxwvuts"),
            "the cached server still serves the old text: the stated limitation"
        );
        let _ = cached.close(Duration::from_secs(5));
        let _ = fresh.close(Duration::from_secs(5));
        return;
    }
    panic!("the kernel stamped the file between the stores three times");
}

/// A value other than `on` or `off` is refused at start-up with one line.
#[test]
fn an_unknown_cache_switch_is_refused_at_start_up() {
    let fixture = Fixture::init();
    let ran = support::run_raw(
        std::process::Command::new(support::adapter())
            .arg("--path")
            .arg(&fixture.aios)
            .env("DOTAIOS_SEARCH_CACHE", "false"),
        b"",
    );
    assert_eq!(ran.status.code(), Some(1));
    assert_eq!(
        ran.stderr,
        "dotaios-mcp: DOTAIOS_SEARCH_CACHE must be on or off\n"
    );
    assert_eq!(ran.stdout, "");
}
