//! Helpers for tests that spawn the built `dotaios-mcp`: fresh folders (made by the built
//! `dotaios init`), JSON-lines transcripts matched by position, tree snapshots, path checks.
#![allow(dead_code, unreachable_pub)]

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::{Value, json};

/// The adapter under test: the `dotaios-mcp` binary of the `dotaios` package, built into the
/// same target directory (`cargo test --workspace` builds every binary before running tests;
/// `scripts/test.sh` builds them first).
pub fn adapter() -> PathBuf {
    built("dotaios-mcp")
}

/// The `dotaios` CLI of the same build.
pub fn cli() -> PathBuf {
    built("dotaios")
}

/// `<target>/<profile>/<name>`: this test runs from `<target>/<profile>/deps/`.
fn built(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("the test binary knows its path");
    let profile_dir = exe
        .parent()
        .and_then(Path::parent)
        .expect("test binaries live in <target>/<profile>/deps");
    let path = profile_dir.join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    assert!(
        path.exists(),
        "{} is missing: build the workspace binaries first (cargo build --workspace --bins)",
        path.display()
    );
    path
}

/// A temporary directory holding an AIOS folder at `<tmp>/aios`.
pub struct Fixture {
    pub tmp: tempfile::TempDir,
    pub aios: PathBuf,
}

impl Fixture {
    /// `dotaios init --path <tmp>/aios --yes`.
    pub fn init() -> Fixture {
        Fixture::init_in(&std::env::temp_dir())
    }

    /// A temporary directory whose `aios` does not exist.
    pub fn missing() -> Fixture {
        Fixture::missing_in(&std::env::temp_dir())
    }

    /// Like [`Fixture::missing`], below `parent`.
    pub fn missing_in(parent: &Path) -> Fixture {
        let tmp = tempfile::tempdir_in(parent).expect("temp dir");
        let aios = tmp.path().join("aios");
        Fixture { tmp, aios }
    }

    /// Like [`Fixture::init`], below `parent` (for fixtures held in statics, which are never
    /// dropped: below the target directory they do not litter the system's temp directory).
    pub fn init_in(parent: &Path) -> Fixture {
        let fixture = Fixture::missing_in(parent);
        let status = Command::new(cli())
            .args(["init", "--yes", "--path"])
            .arg(&fixture.aios)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .expect("dotaios init runs");
        assert!(status.success(), "dotaios init failed");
        fixture
    }

    /// Writes `text` at `relative` below the folder, creating parents.
    pub fn write(&self, relative: &str, text: impl AsRef<[u8]>) {
        let path = self.aios.join(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    /// Runs the adapter on this folder with `lines` as stdin.
    pub fn run(&self, lines: &[String]) -> Transcript {
        run_adapter(&["--path".as_ref(), self.aios.as_os_str()], lines)
    }

    /// Runs `requests` (built by [`call`], [`request`]) and returns one parsed response each.
    pub fn responses(&self, lines: &[String]) -> Vec<Value> {
        let transcript = self.run(lines);
        transcript.assert_clean(self);
        assert_eq!(
            transcript.responses.len(),
            lines.len(),
            "one response per request"
        );
        transcript.responses
    }

    /// Runs one request and returns its response.
    pub fn response(&self, line: String) -> Value {
        self.responses(&[line]).remove(0)
    }

    /// Every file below the folder with its bytes (symlinks recorded by target).
    pub fn snapshot(&self) -> BTreeMap<PathBuf, Vec<u8>> {
        let mut files = BTreeMap::new();
        if self.aios.exists() {
            walk(&self.aios, &self.aios, &mut files);
        }
        files
    }
}

fn walk(root: &Path, directory: &Path, files: &mut BTreeMap<PathBuf, Vec<u8>>) {
    for entry in std::fs::read_dir(directory).unwrap() {
        let entry = entry.unwrap();
        let path = entry.path();
        let kind = entry.file_type().unwrap();
        let relative = path.strip_prefix(root).unwrap().to_path_buf();
        if kind.is_symlink() {
            let target = std::fs::read_link(&path).unwrap();
            files.insert(relative, target.into_os_string().into_encoded_bytes());
        } else if kind.is_dir() {
            files.insert(relative, b"<dir>".to_vec());
            walk(root, &path, files);
        } else {
            files.insert(relative, std::fs::read(&path).unwrap());
        }
    }
}

/// What one adapter process did.
pub struct Transcript {
    pub status: std::process::ExitStatus,
    pub stdout: String,
    pub stderr: String,
    pub responses: Vec<Value>,
}

impl Transcript {
    /// Exit 0, empty stderr, and no temporary path anywhere on stdout.
    pub fn assert_clean(&self, fixture: &Fixture) {
        assert!(self.status.success(), "exit status {:?}", self.status);
        assert_eq!(self.stderr, "", "stderr must stay empty");
        assert_no_path(&self.stdout, fixture);
    }
}

/// The text contains neither the temporary root nor the AIOS path.
pub fn assert_no_path(text: &str, fixture: &Fixture) {
    let root = fixture.tmp.path().to_string_lossy();
    assert!(
        !text.contains(root.as_ref()),
        "a temporary path leaked: {text}"
    );
    let aios = fixture.aios.to_string_lossy();
    assert!(
        !text.contains(aios.as_ref()),
        "the AIOS path leaked: {text}"
    );
}

/// Spawns the adapter with `args`, writes `lines` (each followed by `\n`), closes stdin, and
/// collects everything.
pub fn run_adapter(args: &[&std::ffi::OsStr], lines: &[String]) -> Transcript {
    let mut input = String::new();
    for line in lines {
        input.push_str(line);
        input.push('\n');
    }
    run_raw(Command::new(adapter()).args(args), input.as_bytes())
}

/// Spawns `command` with `input` on stdin.
pub fn run_raw(command: &mut Command, input: &[u8]) -> Transcript {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("adapter starts");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let output = child.wait_with_output().expect("adapter finishes");
    writer.join().unwrap();
    let stdout = String::from_utf8(output.stdout).expect("stdout is UTF-8");
    let responses = stdout
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|_| panic!("not JSON: {line}")))
        .collect();
    Transcript {
        status: output.status,
        stdout,
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        responses,
    }
}

/// A JSON-RPC request line with a numeric id.
pub fn request(id: u64, method: &str, params: Value) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string()
}

/// A `tools/call` request line.
pub fn call(id: u64, tool: &str, arguments: Value) -> String {
    request(
        id,
        "tools/call",
        json!({"name": tool, "arguments": arguments}),
    )
}

/// The payload text of a successful `tools/call` response (asserting the wrapper shape).
pub fn payload_text(response: &Value) -> String {
    let result = response
        .get("result")
        .unwrap_or_else(|| panic!("expected a result: {response}"));
    assert_eq!(result["isError"], json!(false), "{response}");
    assert!(result.get("structuredContent").is_none());
    let content = result["content"].as_array().expect("content array");
    assert_eq!(content.len(), 1);
    assert_eq!(content[0]["type"], "text");
    content[0]["text"].as_str().unwrap().to_owned()
}

/// The payload of a successful `tools/call`, parsed.
pub fn payload(response: &Value) -> Value {
    serde_json::from_str(&payload_text(response)).expect("payload is JSON")
}

/// `(code, message)` of an error response (asserting there is no result).
pub fn error_of(response: &Value) -> (i64, String) {
    assert!(
        response.get("result").is_none(),
        "expected an error: {response}"
    );
    let error = &response["error"];
    (
        error["code"].as_i64().unwrap(),
        error["message"].as_str().unwrap().to_owned(),
    )
}

/// UTF-16 length, as a JavaScript client measures it.
pub fn len16(text: &str) -> usize {
    text.encode_utf16().count()
}
