//! The harness's `dotaios-mcp` server: spawning it over stdio with the MCP handshake done, and
//! its lifetime peak RSS once it is reaped. Shared by `run`'s `mcp` measure, `extra`'s hostile
//! rows and `quality`'s `search_aios` answers.
//!
//! It owns the start and the end of a server; it never sends a tool call or checks an answer
//! (each caller does, through `dotaios_mcp::client`).

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use dotaios_mcp::client::Client;
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
