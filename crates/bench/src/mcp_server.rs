//! The harness's `dotaios-mcp` server: spawning it over stdio with the MCP handshake done, one
//! timed `search_aios` call whose payload a caller reads, and its lifetime peak RSS once it is
//! reaped. Shared by `run`'s `mcp` measure, `extra`'s hostile rows, `quality`'s and
//! `collection`'s `search_aios` answers and `scale`.
//!
//! It owns the start and the end of a server and the unwrapping of a search's payload; it never
//! checks what an answer holds (each caller does).

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use dotaios_mcp::client::Client;
use serde_json::Value;
#[cfg(not(target_os = "linux"))]
use wait4::Wait4;

/// Spawns `binary --path <folder>` and completes the MCP handshake at `version` within
/// `answer_deadline`; the client, ready for calls.
pub(crate) fn initialized_server(
    binary: &Path,
    folder: &Path,
    version: &str,
    max_line_bytes: u64,
    answer_deadline: Duration,
) -> Result<Client, String> {
    let mut command = Command::new(binary);
    command.arg("--path").arg(folder);
    let mut client = Client::spawn(&mut command, max_line_bytes)
        .map_err(|error| format!("cannot start {}: {error}", binary.display()))?;
    client
        .initialize(
            version,
            "dotaios-bench",
            "1",
            Instant::now() + answer_deadline,
        )
        .map_err(|error| format!("dotaios-mcp: {error}"))?;
    Ok(client)
}

/// One `search_aios` call with `arguments`, answered within `deadline` of its start: the
/// nanoseconds it took and its payload (the tool result's JSON text, parsed). A protocol error,
/// an `isError` result or a payload that is not JSON is the `Err`.
pub(crate) fn timed_search(
    client: &mut Client,
    arguments: Value,
    deadline: Duration,
) -> Result<(u64, Value), String> {
    let start = Instant::now();
    let response = client
        .call_tool("search_aios", arguments.clone(), start + deadline)
        .map_err(|error| format!("dotaios-mcp: {error}"))?;
    let ns = crate::timing::elapsed_ns(start);
    let result = &response["result"];
    if result["isError"] != Value::Bool(false) {
        return Err(format!("search_aios {arguments} failed: {response}"));
    }
    let text = result["content"][0]["text"].as_str().unwrap_or_default();
    let payload = serde_json::from_str(text)
        .map_err(|_| format!("search_aios {arguments}: the payload is not JSON"))?;
    Ok((ns, payload))
}

/// A server's lifetime peak RSS in bytes, and the server reaped: on Linux its `VmHWM`, read
/// before stdin is closed; elsewhere (no `/proc`) the `ru_maxrss` of `wait4` once stdin is
/// closed. Either is the server's own peak, not the harness's.
#[cfg(target_os = "linux")]
pub(crate) fn server_peak(client: Client) -> Result<u64, String> {
    let id = client.id().unwrap_or_default();
    let status = std::fs::read_to_string(format!("/proc/{id}/status")).unwrap_or_default();
    let peak = crate::report::proc_kib_field(&status, "VmHWM:")
        .ok_or_else(|| "cannot read the server's VmHWM".to_owned());
    let _ = client.into_child().wait();
    peak
}

/// See the Linux form.
#[cfg(not(target_os = "linux"))]
pub(crate) fn server_peak(client: Client) -> Result<u64, String> {
    let usage = client
        .into_child()
        .wait4()
        .map_err(|error| format!("cannot reap the server: {error}"))?;
    Ok(usage.rusage.maxrss)
}
