//! Running a shell command with a time limit (MISC_CHECK and `load_command`).

use std::io::Read;
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

/// How often a running command is polled for its exit.
const POLL: Duration = Duration::from_millis(5);

/// How long the output may still take after a command exited at its deadline.
const OUTPUT_GRACE: Duration = Duration::from_millis(100);

/// At most this much of a command's standard output is kept.
pub const MAX_OUTPUT: usize = 64 * 1024;

/// Why a command did not run to completion.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// `/bin/sh` could not be started.
    #[error("cannot start /bin/sh: {0}")]
    Spawn(#[source] std::io::Error),
    /// Waiting for the process failed.
    #[error("cannot wait for the command: {0}")]
    Wait(#[source] std::io::Error),
    /// The command did not finish in time; its process group was killed.
    #[error("timed out after {0:?}")]
    Timeout(Duration),
}

/// A finished command.
#[derive(Debug)]
pub struct Finished {
    /// How it ended.
    pub status: ExitStatus,
    /// Its standard output (empty unless captured; at most [`MAX_OUTPUT`] bytes).
    pub stdout: Vec<u8>,
    /// How long it ran.
    pub elapsed: Duration,
}

/// Runs `/bin/sh -c script sh ARGS...` in a process group of its own, with standard
/// input and error on /dev/null and standard output captured when `capture` is set.
///
/// When the command has not exited after `timeout` its whole process group is killed
/// (SIGKILL) and [`RunError::Timeout`] is returned.
pub fn run_shell(
    script: &str,
    args: &[String],
    timeout: Duration,
    capture: bool,
) -> Result<Finished, RunError> {
    let start = Instant::now();
    let mut child = Command::new("/bin/sh")
        .arg("-c")
        .arg(script)
        .arg("sh")
        .args(args)
        .stdin(Stdio::null())
        .stdout(if capture {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()
        .map_err(RunError::Spawn)?;
    let deadline = start + timeout;

    // The output is read on a helper thread so that a chatty command cannot block on a
    // full pipe; the result arrives through a channel so that a grandchild keeping the
    // pipe open cannot hold us past the deadline either.
    let output = child.stdout.take().map(|mut out| {
        let (tx, rx) = mpsc::channel();
        let spawned = thread::Builder::new()
            .name("monitor-output".into())
            .spawn(move || {
                let mut kept = Vec::new();
                let mut buf = [0u8; 4096];
                loop {
                    match out.read(&mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(n) => {
                            let room = MAX_OUTPUT.saturating_sub(kept.len());
                            kept.extend_from_slice(&buf[..n.min(room)]);
                        }
                    }
                }
                let _ = tx.send(kept);
            });
        (rx, spawned.is_ok())
    });

    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) => {}
            Err(e) => {
                kill_group(&mut child);
                return Err(RunError::Wait(e));
            }
        }
        let now = Instant::now();
        if now >= deadline {
            kill_group(&mut child);
            return Err(RunError::Timeout(timeout));
        }
        thread::sleep(POLL.min(deadline - now));
    };

    let stdout = match output {
        Some((rx, true)) => {
            // The reader needs a moment to see the end of the output even when the
            // command exited right at the deadline.
            let left = deadline
                .saturating_duration_since(Instant::now())
                .max(OUTPUT_GRACE);
            match rx.recv_timeout(left) {
                Ok(kept) => kept,
                Err(_) => {
                    // Something the command left behind still holds its output open.
                    kill_group(&mut child);
                    return Err(RunError::Timeout(timeout));
                }
            }
        }
        _ => Vec::new(),
    };
    Ok(Finished {
        status,
        stdout,
        elapsed: start.elapsed(),
    })
}

/// Kills the child's process group and reaps the child.
fn kill_group(child: &mut Child) {
    if let Ok(pgid) = libc::pid_t::try_from(child.id()) {
        // SAFETY: kill(2) takes plain integers and touches no memory of ours. The group
        // id is the child's pid (it was started with process_group(0)). Either the child
        // has not been reaped yet, or (output still open after its exit) a member of its
        // group holds the pipe, so the id is in use and names no unrelated group.
        unsafe {
            libc::kill(-pgid, libc::SIGKILL);
        }
    }
    let _ = child.kill();
    let _ = child.wait();
}
