//! Running a shell command with a time limit (MISC_CHECK and `load_command`).
//!
//! The command is someone's script, so nothing it does may hold the monitor: it runs in a
//! process group of its own; its output (when captured) is read on the calling thread from
//! a non-blocking pipe, at most [`MAX_OUTPUT`] bytes kept and the rest read and dropped, so
//! a script printing gigabytes neither blocks on a full pipe nor grows memory; at its
//! deadline the whole group is killed (SIGKILL) and the shell reaped. When the shell exits
//! on its own, whatever it left running in its group is killed too (a check started every
//! delay loop would otherwise pile up processes), and the output still buffered is read
//! for at most [`OUTPUT_GRACE`]: a process that left the group (`setsid`, a shell with job
//! control) and keeps the pipe open cannot hold the check either. No thread is started, so
//! nothing is left behind blocked on a pipe.

use std::io::{self, Read};
use std::os::fd::AsRawFd;
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdout, Command, ExitStatus, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// How often a running command is polled for its exit.
const POLL: Duration = Duration::from_millis(5);

/// How long the output may still take after a command exited (its group is killed by
/// then, so only what is buffered, or a process that left the group, is left).
pub const OUTPUT_GRACE: Duration = Duration::from_millis(100);

/// At most this much of a command's standard output is kept (64 KiB); the rest is read and
/// dropped.
pub const MAX_OUTPUT: usize = 64 * 1024;

/// Most output read between two looks at the clock and the command's state (256 KiB).
const DRAIN_BYTES: usize = 256 * 1024;

/// Why a command did not run to completion.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// `/bin/sh` could not be started.
    #[error("cannot start /bin/sh: {0}")]
    Spawn(#[source] std::io::Error),
    /// Waiting for the process or reading its output failed.
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

/// The output kept of a command: the first [`MAX_OUTPUT`] bytes.
#[derive(Debug, Default)]
struct Kept {
    bytes: Vec<u8>,
    /// The pipe reached its end.
    closed: bool,
}

impl Kept {
    fn keep(&mut self, chunk: &[u8]) {
        let room = MAX_OUTPUT.saturating_sub(self.bytes.len());
        self.bytes
            .extend_from_slice(&chunk[..chunk.len().min(room)]);
    }

    /// Reads what the pipe has now, until it would block or ends, or [`DRAIN_BYTES`] were
    /// read: a writer as fast as the reader would otherwise keep it here past the deadline.
    fn drain(&mut self, out: &mut ChildStdout) -> io::Result<()> {
        let mut buf = [0u8; 16 * 1024];
        for _ in 0..DRAIN_BYTES / buf.len() {
            match out.read(&mut buf) {
                Ok(0) => {
                    self.closed = true;
                    return Ok(());
                }
                Ok(n) => self.keep(&buf[..n]),
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return Ok(()),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }
}

/// Makes the pipe non-blocking.
fn set_nonblocking(out: &ChildStdout) -> io::Result<()> {
    let fd = out.as_raw_fd();
    // SAFETY: fcntl(2) on a descriptor we own (the pipe's read end, open for as long as
    // `out` lives); F_GETFL/F_SETFL take and return plain integers.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    if flags < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: as above.
    if unsafe { libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// Waits up to `d` for the pipe to have something to read (or to end).
fn wait_readable(out: &ChildStdout, d: Duration) -> io::Result<()> {
    let mut pfd = libc::pollfd {
        fd: out.as_raw_fd(),
        events: libc::POLLIN,
        revents: 0,
    };
    let ms = libc::c_int::try_from(d.as_millis().max(1)).unwrap_or(libc::c_int::MAX);
    // SAFETY: poll(2) reads and writes only `pfd`, which lives for the call; the count is 1.
    let r = unsafe { libc::poll(&mut pfd, 1, ms) };
    if r < 0 {
        let e = io::Error::last_os_error();
        if e.kind() != io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
    Ok(())
}

/// Whether the child has exited, without reaping it (so that its pid, which is its process
/// group's id, stays taken until [`kill_group`] has used it).
fn exited(child: &Child) -> io::Result<bool> {
    let pid: libc::id_t = child.id();
    // SAFETY: siginfo_t is a plain C struct for which all zero bytes are a valid value.
    let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
    // SAFETY: waitid(2) writes only into `info`, which lives for the call. WNOWAIT leaves
    // the child waitable, so `Child::wait` still reaps it (and std has not reaped it: it
    // only does in `wait`/`try_wait`, which are called after this returns true).
    let r = unsafe {
        libc::waitid(
            libc::P_PID,
            pid,
            &mut info,
            libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
        )
    };
    if r < 0 {
        let e = io::Error::last_os_error();
        return if e.kind() == io::ErrorKind::Interrupted {
            Ok(false)
        } else {
            Err(e)
        };
    }
    // SAFETY: `info` was filled by waitid (or left zeroed when no child changed state);
    // si_pid is the field waitid sets for a child that exited.
    Ok(unsafe { info.si_pid() } != 0)
}

/// Runs `/bin/sh -c script sh ARGS...` in a process group of its own, with standard
/// input and error on /dev/null and standard output captured when `capture` is set (else
/// on /dev/null too).
///
/// When the command has not exited after `timeout` its whole process group is killed
/// (SIGKILL), the shell reaped, and [`RunError::Timeout`] is returned. When it exits, the
/// rest of its group is killed and the output still buffered read for at most
/// [`OUTPUT_GRACE`] (see the module's text).
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
    // No deadline past what an Instant can hold (a timeout of centuries).
    let deadline = start.checked_add(timeout);
    let fail = |child: &mut Child, e: RunError| {
        kill_group(child);
        Err(e)
    };

    let mut out = child.stdout.take();
    if let Some(o) = &out {
        if let Err(e) = set_nonblocking(o) {
            return fail(&mut child, RunError::Wait(e));
        }
    }
    let mut kept = Kept::default();
    loop {
        match exited(&child) {
            Ok(true) => break,
            Ok(false) => {}
            Err(e) => return fail(&mut child, RunError::Wait(e)),
        }
        let now = Instant::now();
        let left = match deadline {
            Some(d) if now >= d => return fail(&mut child, RunError::Timeout(timeout)),
            Some(d) => POLL.min(d - now),
            None => POLL,
        };
        match out.as_mut().filter(|_| !kept.closed) {
            Some(o) => {
                let r = wait_readable(o, left).and_then(|()| kept.drain(o));
                if let Err(e) = r {
                    return fail(&mut child, RunError::Wait(e));
                }
            }
            None => thread::sleep(left),
        }
    }

    // The shell has exited (and is not reaped yet): end what it left in its group, then
    // reap it.
    kill_group(&mut child);
    let status = child.wait().map_err(RunError::Wait)?;
    if let Some(o) = out.as_mut() {
        let until = Instant::now() + OUTPUT_GRACE;
        while !kept.closed {
            let now = Instant::now();
            if now >= until {
                // Held open by a process outside the group: keep what came.
                break;
            }
            wait_readable(o, until - now)
                .and_then(|()| kept.drain(o))
                .map_err(RunError::Wait)?;
        }
    }
    Ok(Finished {
        status,
        stdout: kept.bytes,
        elapsed: start.elapsed(),
    })
}

/// Kills the child's process group (SIGKILL) and reaps the child.
fn kill_group(child: &mut Child) {
    if let Ok(pgid) = libc::pid_t::try_from(child.id()) {
        // SAFETY: kill(2) takes plain integers and touches no memory of ours. The group
        // id is the child's pid (it was started with process_group(0)), and the child has
        // not been reaped yet (running, or a zombie found by `exited`), so the id is still
        // taken and names no other group.
        unsafe {
            libc::kill(-pgid, libc::SIGKILL);
        }
    }
    let _ = child.kill();
    let _ = child.wait();
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pid a script wrote to `file`, once it is there.
    fn pid_in(file: &std::path::Path) -> u32 {
        let until = Instant::now() + Duration::from_secs(2);
        loop {
            if let Ok(p) = std::fs::read_to_string(file) {
                if let Ok(p) = p.trim().parse() {
                    return p;
                }
            }
            assert!(Instant::now() < until, "no pid in {}", file.display());
            thread::sleep(Duration::from_millis(5));
        }
    }

    /// Alive and not a zombie.
    fn alive(pid: u32) -> bool {
        std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .map(|s| {
                !s.rsplit_once(')')
                    .is_some_and(|(_, r)| r.trim_start().starts_with('Z'))
            })
            .unwrap_or(false)
    }

    fn gone_soon(pid: u32) -> bool {
        let until = Instant::now() + Duration::from_secs(2);
        while alive(pid) {
            if Instant::now() >= until {
                return false;
            }
            thread::sleep(Duration::from_millis(10));
        }
        true
    }

    #[test]
    fn what_a_script_leaves_in_its_group_is_killed_when_it_exits() {
        let file = std::env::temp_dir().join(format!("nicctl-left-{}", std::process::id()));
        let script = format!("sleep 30 & echo $! > {}; exit 0", file.display());
        for capture in [false, true] {
            let _ = std::fs::remove_file(&file);
            let done = run_shell(&script, &[], Duration::from_secs(5), capture).unwrap();
            assert!(done.status.success());
            let pid = pid_in(&file);
            assert!(
                gone_soon(pid),
                "sleep {pid} outlived its check (capture {capture})"
            );
        }
        let _ = std::fs::remove_file(&file);
    }

    #[test]
    fn output_held_open_outside_the_group_does_not_hold_the_run() {
        // The escaped process keeps the pipe open for 3 s; the run returns after the grace
        // with what the shell printed.
        let start = Instant::now();
        let done = run_shell(
            "setsid sh -c 'sleep 3' & echo 0.5",
            &[],
            Duration::from_secs(10),
            true,
        )
        .unwrap();
        assert_eq!(done.stdout, b"0.5\n");
        assert!(
            start.elapsed() < Duration::from_secs(1),
            "{:?}",
            start.elapsed()
        );
    }

    #[test]
    fn a_flood_is_kept_to_the_limit_and_a_hang_killed_at_the_deadline() {
        let done = run_shell(
            "head -c 10000000 /dev/zero; echo",
            &[],
            Duration::from_secs(20),
            true,
        )
        .unwrap();
        assert_eq!(done.stdout.len(), MAX_OUTPUT);
        // A writer as fast as the reader does not keep it reading past the deadline.
        for flood in ["yes", "yes 0.75 | head -c 1000000000", "cat /dev/zero"] {
            let start = Instant::now();
            let e = run_shell(flood, &[], Duration::from_millis(200), true).unwrap_err();
            assert!(matches!(e, RunError::Timeout(_)), "{e}");
            let took = start.elapsed();
            assert!(took < Duration::from_millis(500), "{flood}: {took:?}");
        }
        // A timeout no Instant can hold is no deadline, not a panic.
        assert!(run_shell("exit 0", &[], Duration::MAX, false).is_ok());
    }
}

#[cfg(test)]
mod fuzz;
