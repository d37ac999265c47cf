//! Linux TAP devices, to bridge the simulated card's Ethernet ports to real network stacks
//! (docs/interfaces.md, "Simulated card on TAP devices").
//!
//! [`Tap::open`] attaches to the TAP device of that name, creating it when it does not
//! exist (a device created here disappears when the [`Tap`] is dropped; one made with
//! `ip tuntap add dev NAME mode tap` stays). The file descriptor is non-blocking and carries
//! whole Ethernet frames without a packet-information header (`IFF_TAP | IFF_NO_PI`).
//!
//! Bringing the link up, addressing it or moving it to another network namespace is the
//! caller's job (`ip link set NAME up`); the descriptor stays valid across such moves.

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Write};
use std::os::fd::AsRawFd;
use std::os::unix::fs::OpenOptionsExt;

/// The TUN/TAP clone device.
pub const TUN_PATH: &str = "/dev/net/tun";
/// Longest interface name Linux accepts (`IFNAMSIZ` - 1).
pub const MAX_NAME_LEN: usize = libc::IFNAMSIZ - 1;
/// Largest frame read from a TAP device in one go (no Linux MTU gets near it).
const READ_BUF: usize = 65_536;

/// Why a TAP device cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum TapError {
    /// Not a usable interface name.
    #[error("TAP device name {name:?} is invalid: {why}")]
    BadName { name: String, why: &'static str },
    /// The kernel has no TUN/TAP driver (or the container no `/dev/net/tun`).
    #[error(
        "cannot open TAP device {name}: {TUN_PATH} is missing (load the `tun` module, or give the container the device): {source}"
    )]
    NoTunDevice {
        name: String,
        #[source]
        source: io::Error,
    },
    /// The caller may not create or attach to this device.
    #[error(
        "cannot open TAP device {name}: not permitted (run as root or with CAP_NET_ADMIN, or create the device for this user first: `ip tuntap add dev {name} mode tap user $USER`): {source}"
    )]
    NotPermitted {
        name: String,
        #[source]
        source: io::Error,
    },
    /// Another process holds the device, or it exists as something other than a TAP.
    #[error(
        "cannot open TAP device {name}: it is in use by another process or is not a TAP device: {source}"
    )]
    Busy {
        name: String,
        #[source]
        source: io::Error,
    },
    /// Any other failure.
    #[error("TAP device {name}: {op}: {source}")]
    Io {
        name: String,
        op: &'static str,
        #[source]
        source: io::Error,
    },
}

/// An open TAP device (non-blocking, whole Ethernet frames).
#[derive(Debug)]
pub struct Tap {
    file: File,
    name: String,
    buf: Vec<u8>,
}

fn check_name(name: &str) -> Result<(), TapError> {
    let bad = |why| {
        Err(TapError::BadName {
            name: name.to_owned(),
            why,
        })
    };
    if name.is_empty() {
        return bad("empty");
    }
    if name.len() > MAX_NAME_LEN {
        return bad("longer than 15 bytes");
    }
    if name == "." || name == ".." {
        return bad("not allowed as an interface name");
    }
    if name
        .bytes()
        .any(|b| b == 0 || b == b'/' || b == b':' || b.is_ascii_whitespace())
    {
        return bad("contains NUL, '/', ':' or white space");
    }
    Ok(())
}

impl Tap {
    /// Attach to the TAP device `name`, creating it if it does not exist.
    pub fn open(name: &str) -> Result<Tap, TapError> {
        check_name(name)?;
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .custom_flags(libc::O_NONBLOCK | libc::O_CLOEXEC)
            .open(TUN_PATH)
            .map_err(|source| match source.raw_os_error() {
                Some(libc::ENOENT | libc::ENODEV | libc::ENXIO) => TapError::NoTunDevice {
                    name: name.to_owned(),
                    source,
                },
                Some(libc::EPERM | libc::EACCES) => TapError::NotPermitted {
                    name: name.to_owned(),
                    source,
                },
                _ => TapError::Io {
                    name: name.to_owned(),
                    op: "opening /dev/net/tun",
                    source,
                },
            })?;

        // SAFETY: ifreq is a plain C struct (a byte array and a union of integers and
        // addresses) for which all-zero bytes are a valid value.
        let mut ifr: libc::ifreq = unsafe { std::mem::zeroed() };
        for (dst, &src) in ifr.ifr_name.iter_mut().zip(name.as_bytes()) {
            *dst = src as libc::c_char;
        }
        // The name is at most 15 bytes, so ifr_name stays NUL-terminated.
        ifr.ifr_ifru.ifru_flags = (libc::IFF_TAP | libc::IFF_NO_PI) as libc::c_short;
        // SAFETY: the descriptor is open for the call; TUNSETIFF reads and writes one
        // `struct ifreq`, and `ifr` is a valid, exclusively borrowed ifreq.
        let rc = unsafe { libc::ioctl(file.as_raw_fd(), libc::TUNSETIFF, &mut ifr) };
        if rc < 0 {
            let source = io::Error::last_os_error();
            let name = name.to_owned();
            return Err(match source.raw_os_error() {
                Some(libc::EPERM | libc::EACCES) => TapError::NotPermitted { name, source },
                Some(libc::EBUSY | libc::EINVAL) => TapError::Busy { name, source },
                _ => TapError::Io {
                    name,
                    op: "TUNSETIFF",
                    source,
                },
            });
        }
        Ok(Tap {
            file,
            name: name.to_owned(),
            buf: vec![0; READ_BUF],
        })
    }

    /// The device's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The next frame Linux sent out of the device, or `None` when none is waiting.
    pub fn recv(&mut self) -> Result<Option<&[u8]>, TapError> {
        loop {
            match self.file.read(&mut self.buf) {
                Ok(n) => return Ok(Some(&self.buf[..n])),
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return Ok(None),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(source) => {
                    return Err(TapError::Io {
                        name: self.name.clone(),
                        op: "reading a frame",
                        source,
                    })
                }
            }
        }
    }

    /// Hand one Ethernet frame (no FCS) to Linux as if received on the device.
    pub fn send(&mut self, frame: &[u8]) -> Result<(), TapError> {
        loop {
            match self.file.write(frame) {
                Ok(n) if n == frame.len() => return Ok(()),
                Ok(n) => {
                    return Err(TapError::Io {
                        name: self.name.clone(),
                        op: "writing a frame",
                        source: io::Error::new(
                            io::ErrorKind::WriteZero,
                            format!("short write: {n} of {} bytes", frame.len()),
                        ),
                    })
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(source) => {
                    return Err(TapError::Io {
                        name: self.name.clone(),
                        op: "writing a frame",
                        source,
                    })
                }
            }
        }
    }
}

impl AsRawFd for Tap {
    fn as_raw_fd(&self) -> std::os::fd::RawFd {
        self.file.as_raw_fd()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_checked_before_any_system_call() {
        for bad in ["", "0123456789abcdef", "a/b", "a b", ".", "x:1"] {
            match Tap::open(bad) {
                Err(TapError::BadName { name, .. }) => assert_eq!(name, bad),
                other => panic!("{bad:?}: {other:?}"),
            }
        }
        let e = Tap::open("0123456789abcdef").unwrap_err().to_string();
        assert!(e.contains("0123456789abcdef") && e.contains("15"), "{e}");
    }
}
