//! The bounded command runner: starts a command in its own process group with the given
//! stdin, collects its exit status, stdout and stderr, and kills the whole group when the time
//! limit passes, so a hung child fails its test instead of hanging the suite. It never leaves
//! a child it started running. On Windows the standard library offers no process group (a job
//! object needs `unsafe` calls), so there the limit kills the child itself (`TerminateProcess`);
//! the product's commands under test start no grandchildren that outlive them.

use std::io::{Read, Write};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The limit [`output`] uses: far above any test run here, far below a hung CI job.
pub const DEFAULT_LIMIT: Duration = Duration::from_secs(120);

/// What one bounded run did.
#[derive(Debug)]
pub struct Ran {
    /// How the child ended (after a kill, the kill's status).
    pub status: ExitStatus,
    /// Everything written on stdout.
    pub stdout: Vec<u8>,
    /// Everything written on stderr.
    pub stderr: Vec<u8>,
    /// True when the limit passed and the child was killed.
    pub timed_out: bool,
}

impl Ran {
    /// The exit code (`None` after a signal).
    pub fn code(&self) -> Option<i32> {
        self.status.code()
    }

    /// stdout as text (lossy).
    pub fn stdout_text(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }

    /// stderr as text (lossy).
    pub fn stderr_text(&self) -> String {
        String::from_utf8_lossy(&self.stderr).into_owned()
    }
}

/// Runs `command` with empty stdin under [`DEFAULT_LIMIT`]; panics (after killing it) if the
/// child outlives the limit.
pub fn output(command: &mut Command) -> Ran {
    let ran = run(command, b"", DEFAULT_LIMIT);
    assert!(
        !ran.timed_out,
        "{command:?} was killed after {DEFAULT_LIMIT:?}; stderr: {}",
        ran.stderr_text()
    );
    ran
}

/// Runs `command` with `input` on stdin (then closed) and waits at most `limit`; past it the
/// child's process group is killed and `timed_out` is set. The command's stdin, stdout and
/// stderr settings are replaced by pipes.
pub fn run(command: &mut Command, input: &[u8], limit: Duration) -> Ran {
    command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        command.process_group(0);
    }
    let mut child = command
        .spawn()
        .unwrap_or_else(|e| panic!("{command:?} does not start: {e}"));
    let mut stdin = child.stdin.take().expect("piped stdin");
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        // A child that exits without reading its input closes the pipe: not an error here.
        let _ = stdin.write_all(&input);
    });
    let stdout = drain(child.stdout.take().expect("piped stdout"));
    let stderr = drain(child.stderr.take().expect("piped stderr"));
    let deadline = Instant::now() + limit;
    let (status, timed_out) = wait_until(&mut child, deadline);
    let _ = writer.join();
    Ran {
        status,
        stdout: stdout.join().expect("stdout reader"),
        stderr: stderr.join().expect("stderr reader"),
        timed_out,
    }
}

fn drain(mut pipe: impl Read + Send + 'static) -> JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = pipe.read_to_end(&mut bytes);
        bytes
    })
}

fn wait_until(child: &mut Child, deadline: Instant) -> (ExitStatus, bool) {
    loop {
        if let Some(status) = child.try_wait().expect("wait for the child") {
            return (status, false);
        }
        if Instant::now() >= deadline {
            // The group is the child's own (`process_group(0)`), so this reaches its children
            // too, which would otherwise keep the output pipes open.
            #[cfg(unix)]
            {
                let group = rustix::process::Pid::from_child(child);
                let _ = rustix::process::kill_process_group(group, rustix::process::Signal::KILL);
            }
            let _ = child.kill();
            return (child.wait().expect("wait for the killed child"), true);
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

// The tests drive `sh` and `cat`.
#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn returns_status_stdout_and_stderr() {
        let ran = output(Command::new("sh").args(["-c", "cat; echo err >&2; exit 3"]));
        assert_eq!(ran.code(), Some(3));
        assert_eq!(ran.stdout, b"");
        assert_eq!(ran.stderr_text(), "err\n");
        let ran = run(&mut Command::new("cat"), b"in", DEFAULT_LIMIT);
        assert_eq!((ran.code(), ran.stdout_text()), (Some(0), "in".into()));
    }

    #[test]
    fn kills_the_child_and_its_children_at_the_limit() {
        let started = Instant::now();
        let ran = run(
            Command::new("sh").args(["-c", "sleep 30 & echo started; wait"]),
            b"",
            Duration::from_millis(300),
        );
        assert!(ran.timed_out);
        assert_eq!(ran.code(), None, "killed by a signal");
        assert_eq!(ran.stdout_text(), "started\n");
        assert!(started.elapsed() < Duration::from_secs(10));
    }
}
