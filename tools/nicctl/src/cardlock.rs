//! One card, several `nicctl` processes: an advisory lock serialises their use of the card.
//!
//! The mailbox and the data path's indirect registers are single-user protocols: two
//! processes interleaving their register accesses would corrupt each other's commands. Every
//! command that opens the card holds an exclusive `flock(2)` on a lock file for as long as it
//! uses the card; long-running commands (`monitor`, `exporter`, `stats --watch`, `capture`)
//! take it for each polling round only, so other commands get their turn in between.
//!
//! Lock files: `<socket>.lock` beside a simulated card's socket; for a PCI card
//! `/run/splicenic-<address>.lock` (`$XDG_RUNTIME_DIR` when not root).

use std::fs::{File, OpenOptions};
use std::os::fd::AsRawFd;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};

use crate::CardSpec;

/// How long a command waits for another `nicctl` to release the card.
pub const LOCK_WAIT: Duration = Duration::from_secs(120);

/// The lock file of `spec`.
pub fn lock_path(spec: &CardSpec) -> PathBuf {
    match spec {
        CardSpec::Sim(sock) => {
            let mut p = sock.clone().into_os_string();
            p.push(".lock");
            PathBuf::from(p)
        }
        CardSpec::Pci(addr) => {
            let dir = match std::env::var_os("XDG_RUNTIME_DIR") {
                // SAFETY: geteuid has no preconditions and cannot fail.
                Some(d) if !d.is_empty() && unsafe { libc::geteuid() } != 0 => PathBuf::from(d),
                _ => PathBuf::from("/run"),
            };
            dir.join(format!("splicenic-{}.lock", addr.replace(':', "_")))
        }
    }
}

/// An exclusive hold on a card; released on drop (closing the file drops the flock).
#[derive(Debug)]
pub struct CardLock {
    _file: File,
}

impl CardLock {
    /// Takes the lock of `spec`, waiting up to `wait` for another process to release it.
    pub fn acquire(spec: &CardSpec, wait: Duration) -> Result<CardLock> {
        let path = lock_path(spec);
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .with_context(|| format!("cannot open the card's lock file {}", path.display()))?;
        let start = Instant::now();
        let mut told = false;
        loop {
            // SAFETY: flock on a file descriptor this function owns; LOCK_NB never blocks.
            let r = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
            if r == 0 {
                return Ok(CardLock { _file: file });
            }
            let err = std::io::Error::last_os_error();
            if err.raw_os_error() != Some(libc::EWOULDBLOCK) {
                return Err(err).with_context(|| format!("cannot lock {}", path.display()));
            }
            if start.elapsed() >= wait {
                bail!(
                    "another nicctl has been using the card for {} s (lock {}); try again when it is done",
                    wait.as_secs(),
                    path.display()
                );
            }
            if !told && start.elapsed() >= Duration::from_secs(1) {
                eprintln!(
                    "nicctl: waiting for another nicctl to release the card ({})",
                    path.display()
                );
                told = true;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn second_holder_waits_then_times_out() {
        let dir = std::env::temp_dir().join(format!("nicctl-lock-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let spec = CardSpec::Sim(dir.join("card.sock"));
        let first = CardLock::acquire(&spec, Duration::ZERO).unwrap();
        // flock locks belong to the open file description: a second open in the same
        // process contends like another process would.
        let e = CardLock::acquire(&spec, Duration::from_millis(100)).unwrap_err();
        assert!(e.to_string().contains("another nicctl"), "{e}");
        drop(first);
        CardLock::acquire(&spec, Duration::ZERO).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn lock_paths() {
        assert_eq!(
            lock_path(&CardSpec::Sim("/tmp/x.sock".into())),
            PathBuf::from("/tmp/x.sock.lock")
        );
        let p = lock_path(&CardSpec::Pci("0000:03:00.0".into()));
        assert!(
            p.ends_with("splicenic-0000_03_00.0.lock"),
            "{}",
            p.display()
        );
    }
}
