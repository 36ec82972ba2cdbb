//! The one small MCP client of the workspace: a child process spoken to over stdio with
//! newline-delimited JSON-RPC, as `dotaios demo`, `dotaios mcp status` and the benchmark
//! harness do. It starts the child, writes one compact JSON message per line, reads answer
//! lines on a reader thread (each bounded in bytes, each wait bounded by a deadline), checks
//! that a line is a JSON-RPC 2.0 response to the request it waits for, and ends the child.
//!
//! What it must never do: wait on the child without a deadline, buffer a line without bound,
//! hand a caller something that is not a JSON-RPC response object, show the child's stderr
//! (it goes to the null device), or leave the child running when dropped. It knows nothing of
//! what the tools answer; judging results is the caller's job.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use dotaios_core::text::{LoneSurrogates, serde_read, to_json_compact};
use serde_json::{Map, Value, json};

/// How a conversation failed. No variant carries the child's output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ClientError {
    /// Writing a message failed: the child closed its stdin (it has exited, or is exiting).
    #[error("cannot write to the server")]
    Write,
    /// The child closed its stdout (or reading it failed) before the answer.
    #[error("the server closed its output")]
    Closed,
    /// No answer before the deadline.
    #[error("the server did not answer in time")]
    Timeout,
    /// A line longer than the client's bound.
    #[error("an answer line is too long")]
    TooLong,
    /// A line that is not a JSON-RPC 2.0 response to the waiting request: not JSON, not an
    /// object, not `"jsonrpc":"2.0"`, another id, or not exactly one of `result` and `error`.
    #[error("an answer is not a JSON-RPC response to the request")]
    Invalid,
}

/// One event from the stdout reader thread.
enum Event {
    Line(Vec<u8>),
    TooLong,
    End,
}

/// An MCP server child process and its pipes.
pub struct Client {
    /// `None` once handed back by [`Client::into_child`].
    child: Option<Child>,
    /// `None` once closed.
    stdin: Option<ChildStdin>,
    lines: Receiver<Event>,
    next_id: u64,
}

impl Client {
    /// Starts `command` with piped stdin and stdout and stderr to the null device. Answer
    /// lines longer than `max_line_bytes` end the conversation ([`ClientError::TooLong`]).
    pub fn spawn(command: &mut Command, max_line_bytes: u64) -> std::io::Result<Client> {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(std::io::ErrorKind::BrokenPipe.into());
        };
        Ok(Client {
            child: Some(child),
            stdin: Some(stdin),
            lines: read_lines(stdout, max_line_bytes),
            next_id: 1,
        })
    }

    /// The child's process id.
    pub fn id(&self) -> Option<u32> {
        self.child.as_ref().map(Child::id)
    }

    /// Writes one message as one line of compact JSON.
    pub fn send(&mut self, message: &Value) -> Result<(), ClientError> {
        let stdin = self.stdin.as_mut().ok_or(ClientError::Write)?;
        let mut line = to_json_compact(message);
        line.push('\n');
        stdin
            .write_all(line.as_bytes())
            .and_then(|()| stdin.flush())
            .map_err(|_| ClientError::Write)
    }

    /// Sends a notification (no id, no answer).
    pub fn notify(&mut self, method: &str, params: Option<Value>) -> Result<(), ClientError> {
        let mut message = Map::new();
        message.insert("jsonrpc".into(), json!("2.0"));
        message.insert("method".into(), json!(method));
        if let Some(params) = params {
            message.insert("params".into(), params);
        }
        self.send(&Value::Object(message))
    }

    /// Sends a request with the next id and waits until `deadline` for its response, which is
    /// returned whole (`result` or `error` is the caller's to judge). Blank lines and the
    /// server's own notifications and requests on the way are skipped. A child that cannot be
    /// written to is still read until its output ends.
    pub fn request(
        &mut self,
        method: &str,
        params: Option<Value>,
        deadline: Instant,
    ) -> Result<Value, ClientError> {
        let id = self.next_id;
        self.next_id += 1;
        let mut message = Map::new();
        message.insert("jsonrpc".into(), json!("2.0"));
        message.insert("id".into(), json!(id));
        message.insert("method".into(), json!(method));
        if let Some(params) = params {
            message.insert("params".into(), params);
        }
        // A failed write means the child is gone or going; what it wrote before still decides
        // (a line that is not a response is `Invalid`, nothing at all is `Closed`).
        let _ = self.send(&Value::Object(message));
        loop {
            let line = self.receive_line(deadline)?;
            match classify(&line, id) {
                Answer::Ignore => {}
                Answer::Invalid => return Err(ClientError::Invalid),
                Answer::Response(response) => return Ok(response),
            }
        }
    }

    /// The MCP handshake: `initialize` with `protocol_version` and the client's name and
    /// version, then `notifications/initialized`. Returns the `initialize` response.
    pub fn initialize(
        &mut self,
        protocol_version: &str,
        client_name: &str,
        client_version: &str,
        deadline: Instant,
    ) -> Result<Value, ClientError> {
        let params = json!({
            "protocolVersion": protocol_version,
            "capabilities": {},
            "clientInfo": {"name": client_name, "version": client_version},
        });
        let response = self.request("initialize", Some(params), deadline)?;
        self.notify("notifications/initialized", None)?;
        Ok(response)
    }

    /// `tools/call` of `name` with `arguments`; the whole response.
    pub fn call_tool(
        &mut self,
        name: &str,
        arguments: Value,
        deadline: Instant,
    ) -> Result<Value, ClientError> {
        let params = json!({"name": name, "arguments": arguments});
        self.request("tools/call", Some(params), deadline)
    }

    /// The next line from the child's stdout, without its parsing.
    fn receive_line(&mut self, deadline: Instant) -> Result<Vec<u8>, ClientError> {
        let remaining = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(remaining) {
            Ok(Event::Line(line)) => Ok(line),
            Ok(Event::TooLong) => Err(ClientError::TooLong),
            Ok(Event::End) | Err(RecvTimeoutError::Disconnected) => Err(ClientError::Closed),
            Err(RecvTimeoutError::Timeout) => Err(ClientError::Timeout),
        }
    }

    /// Closes stdin, which ends a well-behaved server, and waits up to `grace` for it to exit;
    /// past that the child is killed and `None` returned.
    pub fn close(mut self, grace: Duration) -> Option<ExitStatus> {
        drop(self.stdin.take());
        let mut child = self.child.take()?;
        let until = Instant::now() + grace;
        loop {
            match child.try_wait() {
                Ok(Some(status)) => return Some(status),
                Err(_) => break,
                Ok(None) if Instant::now() >= until => break,
                Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            }
        }
        let _ = child.kill();
        let _ = child.wait();
        None
    }

    /// Closes stdin and hands the child back, for a caller that reaps it itself (the
    /// benchmark reads its peak memory first). The caller must then wait for it.
    pub fn into_child(mut self) -> Child {
        drop(self.stdin.take());
        self.child
            .take()
            .expect("the child is present until handed back")
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        // Only reached with the child still present on an early return: never leave it behind.
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

fn read_lines(stdout: impl Read + Send + 'static, max_line_bytes: u64) -> Receiver<Event> {
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || {
        let mut reader = BufReader::new(stdout);
        loop {
            let mut line = Vec::new();
            let event = match (&mut reader)
                .take(max_line_bytes)
                .read_until(b'\n', &mut line)
            {
                Ok(0) | Err(_) => Event::End,
                Ok(_) if !line.ends_with(b"\n") && line.len() as u64 >= max_line_bytes => {
                    Event::TooLong
                }
                Ok(_) => Event::Line(line),
            };
            let last = !matches!(event, Event::Line(_));
            if sender.send(event).is_err() || last {
                return;
            }
        }
    });
    receiver
}

/// What one line is to a request waiting for the response with `id`.
#[derive(Debug)]
enum Answer {
    /// A blank line, or a notification or request from the server (MCP allows both).
    Ignore,
    /// Not a JSON-RPC 2.0 response to `id`.
    Invalid,
    /// The response.
    Response(Value),
}

fn classify(line: &[u8], id: u64) -> Answer {
    if line.iter().all(u8::is_ascii_whitespace) {
        return Answer::Ignore;
    }
    let Ok(text) = std::str::from_utf8(line) else {
        return Answer::Invalid;
    };
    let Ok(Value::Object(message)) = serde_read::<Value>(text, LoneSurrogates::Refuse) else {
        return Answer::Invalid;
    };
    if message.get("jsonrpc") != Some(&json!("2.0")) {
        return Answer::Invalid;
    }
    if message.contains_key("method") {
        return Answer::Ignore;
    }
    let one_outcome = message.contains_key("result") != message.contains_key("error");
    if message.get("id").and_then(Value::as_u64) == Some(id) && one_outcome {
        Answer::Response(Value::Object(message))
    } else {
        Answer::Invalid
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_classified() {
        assert!(matches!(classify(b"  \r\n", 2), Answer::Ignore));
        assert!(matches!(classify(b"hello\n", 2), Answer::Invalid));
        assert!(matches!(classify(b"[1]\n", 2), Answer::Invalid));
        assert!(matches!(classify(b"\xff\n", 2), Answer::Invalid));
        assert!(matches!(
            classify(br#"{"jsonrpc":"2.0","method":"notifications/message"}"#, 2),
            Answer::Ignore
        ));
        assert!(matches!(
            classify(br#"{"jsonrpc":"2.0","id":7,"result":{}}"#, 2),
            Answer::Invalid
        ));
        assert!(matches!(
            classify(br#"{"jsonrpc":"1.0","id":2,"result":{}}"#, 2),
            Answer::Invalid
        ));
        assert!(matches!(
            classify(br#"{"jsonrpc":"2.0","id":2,"result":{},"error":{}}"#, 2),
            Answer::Invalid
        ));
        assert!(matches!(
            classify(br#"{"jsonrpc":"2.0","id":2}"#, 2),
            Answer::Invalid
        ));
        assert!(matches!(
            classify(br#"{"jsonrpc":"2.0","id":2,"result":{}}"#, 2),
            Answer::Response(_)
        ));
        let deep = format!(
            r#"{{"jsonrpc":"2.0","id":2,"result":{}1{}}}"#,
            "[".repeat(100_000),
            "]".repeat(100_000)
        );
        assert!(matches!(classify(deep.as_bytes(), 2), Answer::Invalid));
    }

    fn shell(script: &str) -> Command {
        let mut command = Command::new("/bin/sh");
        command.args(["-c", script]);
        command
    }

    fn soon() -> Instant {
        Instant::now() + Duration::from_secs(10)
    }

    /// A scripted server: answers `initialize` (after a notification of its own and a blank
    /// line), reads the client's notification, then answers one tool call.
    #[test]
    #[cfg_attr(windows, ignore = "a scripted /bin/sh server; Windows has no /bin/sh")]
    fn a_conversation_with_a_scripted_server() {
        let script = r#"read -r line
printf '%s\n' '{"jsonrpc":"2.0","method":"notifications/message","params":{}}' '' '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25"}}'
read -r line
case "$line" in *'"notifications/initialized"'*) ;; *) exit 3 ;; esac
read -r line
case "$line" in *'"id":2,"method":"tools/call"'*) ;; *) exit 4 ;; esac
printf '%s\n' '{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"hi"}]}}'
read -r line
exit 0"#;
        let mut client = Client::spawn(&mut shell(script), 1 << 20).unwrap();
        let initialize = client
            .initialize("2025-11-25", "test", "1", soon())
            .unwrap();
        assert_eq!(initialize["result"]["protocolVersion"], "2025-11-25");
        let called = client
            .call_tool("search_aios", json!({"query": "x"}), soon())
            .unwrap();
        assert_eq!(called["result"]["content"][0]["text"], "hi");
        let status = client.close(Duration::from_secs(10)).expect("it exits");
        assert!(status.success(), "{status:?}");
    }

    #[test]
    #[cfg_attr(windows, ignore = "a scripted /bin/sh server; Windows has no /bin/sh")]
    fn failures_have_their_errors() {
        let request = |script: &str, max: u64, wait: Duration| {
            let mut client = Client::spawn(&mut shell(script), max).unwrap();
            client.request("ping", None, Instant::now() + wait)
        };
        let long = Duration::from_secs(10);
        assert_eq!(request("exit 0", 1024, long), Err(ClientError::Closed));
        // What a child wrote before it exited is read even when writing to it failed.
        for _ in 0..20 {
            assert_eq!(
                request("echo 'not json'", 1024, long),
                Err(ClientError::Invalid)
            );
        }
        assert_eq!(
            request("read -r line; echo 'not json'", 1024, long),
            Err(ClientError::Invalid)
        );
        assert_eq!(
            request(
                r#"read -r line; printf '%s\n' '{"jsonrpc":"2.0","id":1,"result":"0123456789"}'"#,
                16,
                long
            ),
            Err(ClientError::TooLong)
        );
        let started = Instant::now();
        assert_eq!(
            request("exec sleep 30", 1024, Duration::from_millis(300)),
            Err(ClientError::Timeout)
        );
        assert!(started.elapsed() < Duration::from_secs(5));
    }

    /// A child that ignores its closed stdin is killed after the grace period.
    #[test]
    #[cfg_attr(windows, ignore = "a scripted /bin/sh server; Windows has no /bin/sh")]
    fn close_kills_a_child_that_does_not_exit() {
        let client = Client::spawn(&mut shell("trap '' TERM; exec sleep 30"), 1024).unwrap();
        let started = Instant::now();
        assert_eq!(client.close(Duration::from_millis(200)), None);
        assert!(started.elapsed() < Duration::from_secs(5));
    }
}
