//! The spawner protocol: `dotaios-bench spawn-server`, a small helper process that spawns one
//! command per request line, times it, reaps it with `wait4` and answers one JSON line, and
//! [`Spawner`], the harness's side of it (contract 07 §3: every fresh-process sample).
//!
//! It owns the helper's line protocol and its measurement of one process; it never checks what
//! the spawned process printed (the measures do) and knows nothing of the measure order.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitCode, Stdio};
use std::time::Instant;

use serde_json::{Map, Value};
use wait4::Wait4;

use crate::timing::elapsed_ns;

/// What one spawned process did.
pub(crate) struct SpawnedRun {
    pub(crate) ns: u64,
    pub(crate) code: i64,
    pub(crate) stdout: String,
    pub(crate) stderr: String,
    pub(crate) maxrss: u64,
}

/// A small helper process (`dotaios-bench spawn-server`) that spawns each `dotaios search`
/// sample, times it and reports its `ru_maxrss`.
///
/// Linux carries a process's peak RSS across `exec`, starting from the memory of the process
/// that spawned it, so a child spawned directly by this (large) harness would report the
/// harness's own peak. A helper that stays a few MiB keeps `ru_maxrss` the child's own.
pub(crate) struct Spawner {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Spawner {
    /// Starts the helper (this binary's `spawn-server`); the error is the harness's message.
    pub(crate) fn start() -> Result<Spawner, String> {
        let exe = std::env::current_exe().map_err(|error| error.to_string())?;
        let mut child = Command::new(exe)
            .arg("spawn-server")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|error| format!("cannot start the spawner: {error}"))?;
        let stdin = child
            .stdin
            .take()
            .ok_or_else(|| "no spawner stdin".to_owned())?;
        let stdout = BufReader::new(
            child
                .stdout
                .take()
                .ok_or_else(|| "no spawner stdout".to_owned())?,
        );
        Ok(Spawner {
            child,
            stdin,
            stdout,
        })
    }

    pub(crate) fn run(&mut self, argv: &[String]) -> Result<SpawnedRun, String> {
        let request = dotaios_core::text::to_json_compact(&Value::from(argv.to_vec()));
        self.stdin
            .write_all(format!("{request}\n").as_bytes())
            .and_then(|()| self.stdin.flush())
            .map_err(|error| format!("cannot talk to the spawner: {error}"))?;
        let mut line = String::new();
        if self
            .stdout
            .read_line(&mut line)
            .map_err(|error| error.to_string())?
            == 0
        {
            return Err("the spawner stopped".to_owned());
        }
        let reply: Value = serde_json::from_str(&line)
            .map_err(|_| "the spawner's reply is not JSON".to_owned())?;
        if let Some(error) = reply["error"].as_str() {
            return Err(error.to_owned());
        }
        Ok(SpawnedRun {
            ns: reply["ns"].as_u64().unwrap_or(0),
            code: reply["code"].as_i64().unwrap_or(-1),
            stdout: reply["stdout"].as_str().unwrap_or_default().to_owned(),
            stderr: reply["stderr"].as_str().unwrap_or_default().to_owned(),
            maxrss: reply["maxrss"].as_u64().unwrap_or(0),
        })
    }

    pub(crate) fn finish(mut self) {
        drop(self.stdin);
        let _ = self.child.wait();
    }
}

/// `dotaios-bench spawn-server`: one JSON array (program and arguments) per stdin line; for
/// each, spawns the program with stdin from `/dev/null`, reads its output, reaps it with
/// `wait4` and answers one JSON line. The timer covers spawning to exit with all output read.
pub(crate) fn spawn_server() -> ExitCode {
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let Ok(line) = line else {
            break;
        };
        let argv: Vec<String> = serde_json::from_str(&line).unwrap_or_default();
        let reply = match spawn_once(&argv) {
            Ok(run) => {
                let mut object = Map::new();
                object.insert("ns".into(), Value::from(run.ns));
                object.insert("code".into(), Value::from(run.code));
                object.insert("stdout".into(), Value::from(run.stdout));
                object.insert("stderr".into(), Value::from(run.stderr));
                object.insert("maxrss".into(), Value::from(run.maxrss));
                Value::Object(object)
            }
            Err(error) => serde_json::json!({ "error": error }),
        };
        let text = dotaios_core::text::to_json_compact(&reply);
        if writeln!(stdout, "{text}")
            .and_then(|()| stdout.flush())
            .is_err()
        {
            break;
        }
    }
    ExitCode::SUCCESS
}

fn spawn_once(argv: &[String]) -> Result<SpawnedRun, String> {
    let (program, args) = argv.split_first().ok_or("empty command")?;
    let start = Instant::now();
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|error| format!("cannot start {program}: {error}"))?;
    let mut stdout = String::new();
    let mut stderr = String::new();
    if let Some(mut pipe) = child.stdout.take() {
        pipe.read_to_string(&mut stdout)
            .map_err(|error| error.to_string())?;
    }
    if let Some(mut pipe) = child.stderr.take() {
        pipe.read_to_string(&mut stderr)
            .map_err(|error| error.to_string())?;
    }
    let usage = child.wait4().map_err(|error| error.to_string())?;
    let ns = elapsed_ns(start);
    Ok(SpawnedRun {
        ns,
        code: i64::from(usage.status.code().unwrap_or(-1)),
        stdout,
        stderr,
        maxrss: usage.rusage.maxrss,
    })
}
