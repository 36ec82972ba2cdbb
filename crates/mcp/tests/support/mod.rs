//! Helpers for tests that spawn the adapter: fresh folders (the frozen `dotaios init` folder
//! of `dotaios-testkit`), JSON-lines transcripts matched by position, tree fingerprints, path
//! checks.
#![allow(
    clippy::disallowed_methods,
    reason = "test support builds folders with std::fs"
)]
#![allow(dead_code, unreachable_pub)]

use std::path::{Path, PathBuf};
use std::process::Command;

use dotaios_testkit::Fingerprint;
use serde_json::{Value, json};

/// The adapter under test: this crate's `dotaios-mcp-test-adapter`, the same one call to
/// `dotaios_mcp::run` as the shipped `dotaios-mcp` (whose own tests are in the `dotaios`
/// package, `crates/cli/tests/adapter_cli.rs`).
pub fn adapter() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_dotaios-mcp-test-adapter"))
}

/// A temporary directory holding an AIOS folder at `<tmp>/aios`.
pub struct Fixture {
    pub tmp: tempfile::TempDir,
    pub aios: PathBuf,
}

impl Fixture {
    /// What `dotaios init --path <tmp>/aios --yes` writes.
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
        dotaios_testkit::write_fresh(&fixture.aios);
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

    /// The folder's fingerprint: every name, mode, size, mtime and byte (links as links).
    pub fn snapshot(&self) -> Fingerprint {
        dotaios_testkit::fingerprint(&self.aios)
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
        // The one start-up line for a folder without aios.json (contract 05 §1.4), else nothing.
        let expected = if fixture.aios.join("aios.json").exists() {
            String::new()
        } else {
            missing_folder_line()
        };
        assert_eq!(
            self.stderr, expected,
            "stderr carries only the start-up line"
        );
        assert_no_path(&self.stdout, fixture);
    }
}

/// The adapter's one start-up line on stderr when its folder has no `aios.json` (contract 05
/// §1.4).
pub fn missing_folder_line() -> String {
    format!("dotaios-mcp: {}\n", dotaios_core::error::NO_FOLDER_MESSAGE)
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

/// Spawns `command` with `input` on stdin, bounded by the testkit's time limit.
pub fn run_raw(command: &mut Command, input: &[u8]) -> Transcript {
    let ran = dotaios_testkit::run(command, input, dotaios_testkit::DEFAULT_LIMIT);
    assert!(
        !ran.timed_out,
        "the adapter did not finish: {}",
        ran.stderr_text()
    );
    let stdout = String::from_utf8(ran.stdout).expect("stdout is UTF-8");
    let responses = stdout
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|_| panic!("not JSON: {line}")))
        .collect();
    Transcript {
        status: ran.status,
        stdout,
        stderr: String::from_utf8_lossy(&ran.stderr).into_owned(),
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
    // Reference-era results carry no structured content; structured-era ones carry `_meta`.
    if result.get("_meta").is_none() {
        assert!(result.get("structuredContent").is_none());
    }
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
