//! [`Bar`] backend for a simulated card served over a Unix socket (`nicctl sim start`).
//!
//! Every [`Bar::read_block`] / [`Bar::write_block`] is one round trip (split only when a block
//! would exceed the protocol's frame limit), so bulk transfers such as a firmware load stay
//! cheap even though each round trip costs tens of microseconds.

use std::io;
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::bar::{check_access, Bar, BarError};
use crate::error::DriverError;
use crate::proto::{read_frame, write_frame, Reply, Request, MAX_FRAME};

/// Largest number of words moved in one message (well under [`MAX_FRAME`]).
const CHUNK_WORDS: usize = (MAX_FRAME - 64) / 4;

/// How long one reply may take before the connection is considered dead.
const REPLY_TIMEOUT: Duration = Duration::from_secs(30);

/// The default socket of the simulated card: `$XDG_RUNTIME_DIR/splicenic-sim.sock`, else
/// `/tmp/splicenic-sim-<uid>.sock`.
pub fn default_sim_socket() -> PathBuf {
    match std::env::var_os("XDG_RUNTIME_DIR") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir).join("splicenic-sim.sock"),
        _ => {
            // SAFETY: getuid has no preconditions and cannot fail.
            let uid = unsafe { libc::getuid() };
            PathBuf::from(format!("/tmp/splicenic-sim-{uid}.sock"))
        }
    }
}

/// What the simulated card reports about itself (INFO).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SimInfo {
    /// BAR0 size in bytes.
    pub bar_size: u64,
    /// Core clock cycles simulated so far.
    pub cycles: u64,
    /// Simulated core clock in Hz.
    pub clk_hz: u64,
}

/// A connection to a simulated card.
#[derive(Debug)]
pub struct SocketBar {
    stream: UnixStream,
    path: PathBuf,
    size: u64,
}

/// Frames a simulated card's server keeps per TX port for `recv_frames`.
pub const SIM_TX_BACKLOG: usize = 4096;

impl SocketBar {
    /// Connect to the simulated card listening on `path` and ask it for its BAR size.
    pub fn connect(path: impl AsRef<Path>) -> Result<SocketBar, DriverError> {
        let path = path.as_ref().to_path_buf();
        let stream = UnixStream::connect(&path).map_err(|source| DriverError::NoSimulator {
            path: path.clone(),
            source,
        })?;
        stream
            .set_read_timeout(Some(REPLY_TIMEOUT))
            .map_err(|e| io_err(&path, "setting the socket timeout", e))?;
        let mut bar = SocketBar {
            stream,
            path,
            size: 0,
        };
        let info = bar.info()?;
        bar.size = info.bar_size;
        Ok(bar)
    }

    /// Socket path of this connection.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Ask for BAR size, simulated cycles and clock rate.
    pub fn info(&mut self) -> Result<SimInfo, DriverError> {
        match self.round_trip(&Request::Info)? {
            Reply::Info {
                bar_size,
                cycles,
                clk_hz,
            } => Ok(SimInfo {
                bar_size,
                cycles,
                clk_hz,
            }),
            other => Err(unexpected("INFO", &other).into()),
        }
    }

    /// Tell the simulated card to exit.
    pub fn shutdown(mut self) -> Result<(), DriverError> {
        match self.round_trip(&Request::Shutdown)? {
            Reply::Done => Ok(()),
            other => Err(unexpected("SHUTDOWN", &other).into()),
        }
    }

    /// Puts an Ethernet frame on the wire into the card's port `port` (0 = client side,
    /// 1 = server side): the simulated card's network, for rigs and tests.
    pub fn send_frame(&mut self, port: u8, frame: &[u8]) -> Result<(), DriverError> {
        match self.round_trip(&Request::SendFrame {
            port,
            data: frame.to_vec(),
        })? {
            Reply::Done => Ok(()),
            other => Err(unexpected("SEND_FRAME", &other).into()),
        }
    }

    /// Takes up to `max` frames the card sent out of port `port`, oldest first. The server
    /// keeps the last [`SIM_TX_BACKLOG`] frames of each port; older ones are dropped.
    pub fn recv_frames(&mut self, port: u8, max: u32) -> Result<Vec<Vec<u8>>, DriverError> {
        match self.round_trip(&Request::RecvFrames { port, max })? {
            Reply::Frames(f) => Ok(f),
            other => Err(unexpected("RECV_FRAMES", &other).into()),
        }
    }

    fn round_trip(&mut self, req: &Request) -> Result<Reply, BarError> {
        write_frame(&mut self.stream, &req.encode())
            .map_err(|e| io_err(&self.path, "sending a request", e))?;
        let body = read_frame(&mut self.stream)
            .map_err(|e| io_err(&self.path, "reading a reply", e))?
            .ok_or_else(|| {
                io_err(
                    &self.path,
                    "reading a reply",
                    io::Error::new(
                        io::ErrorKind::UnexpectedEof,
                        "the simulated card closed the connection",
                    ),
                )
            })?;
        let reply = Reply::decode_for(req, &body)
            .map_err(|e| BarError::Backend(format!("malformed reply: {e}")))?;
        match reply {
            Reply::Error(msg) => Err(BarError::Backend(msg)),
            r => Ok(r),
        }
    }
}

fn io_err(path: &Path, what: &str, source: io::Error) -> BarError {
    BarError::Io {
        context: format!("simulated card at {}: {what}", path.display()),
        source,
    }
}

fn unexpected(what: &str, reply: &Reply) -> BarError {
    BarError::Backend(format!("unexpected reply to {what}: {reply:?}"))
}

impl Bar for SocketBar {
    fn size(&self) -> u64 {
        self.size
    }

    fn read32(&mut self, offset: u64) -> Result<u32, BarError> {
        let mut w = [0u32];
        self.read_block(offset, &mut w)?;
        Ok(w[0])
    }

    fn write32(&mut self, offset: u64, value: u32) -> Result<(), BarError> {
        self.write_block(offset, &[value])
    }

    fn read_block(&mut self, offset: u64, out: &mut [u32]) -> Result<(), BarError> {
        check_access(offset, 4 * out.len() as u64, self.size)?;
        for (i, chunk) in out.chunks_mut(CHUNK_WORDS).enumerate() {
            let off = offset + (i * CHUNK_WORDS * 4) as u64;
            let req = Request::Read {
                offset: off,
                count: chunk.len() as u32,
            };
            match self.round_trip(&req)? {
                Reply::Words(ws) if ws.len() == chunk.len() => chunk.copy_from_slice(&ws),
                other => return Err(unexpected("READ", &other)),
            }
        }
        Ok(())
    }

    fn write_block(&mut self, offset: u64, data: &[u32]) -> Result<(), BarError> {
        check_access(offset, 4 * data.len() as u64, self.size)?;
        for (i, chunk) in data.chunks(CHUNK_WORDS).enumerate() {
            let off = offset + (i * CHUNK_WORDS * 4) as u64;
            let req = Request::Write {
                offset: off,
                data: chunk.to_vec(),
            };
            match self.round_trip(&req)? {
                Reply::Done => {}
                other => return Err(unexpected("WRITE", &other)),
            }
        }
        Ok(())
    }

    fn describe(&self) -> String {
        format!("simulated card at {}", self.path.display())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn connecting_to_nothing_says_how_to_start_a_card() {
        let dir = std::env::temp_dir().join(format!("snic-nosock-{}", std::process::id()));
        let err = SocketBar::connect(dir.join("absent.sock")).unwrap_err();
        let msg = err.to_string();
        assert!(msg.contains("no simulated card is listening on"), "{msg}");
        assert!(msg.contains("nicctl sim start"), "{msg}");
    }

    #[test]
    fn default_socket_is_per_user() {
        let p = default_sim_socket();
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        assert!(name.starts_with("splicenic-sim"), "{name}");
        assert!(name.ends_with(".sock"), "{name}");
    }

    /// A round trip against a minimal in-test server speaking the real protocol.
    #[test]
    fn block_access_and_info_round_trip() {
        use std::os::unix::net::UnixListener;
        let path = std::env::temp_dir().join(format!("snic-sock-test-{}.sock", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let listener = UnixListener::bind(&path).unwrap();
        let server = std::thread::spawn(move || {
            let (mut s, _) = listener.accept().unwrap();
            let mut mem = vec![0u32; 64];
            // Frames "sent" by the test come back on the same port (a loopback wire).
            let mut frames: Vec<(u8, Vec<u8>)> = Vec::new();
            while let Some(body) = read_frame(&mut s).unwrap() {
                let reply = match Request::decode(&body).unwrap() {
                    Request::Info => Reply::Info {
                        bar_size: 256,
                        cycles: 5,
                        clk_hz: 100,
                    },
                    Request::Read { offset, count } => {
                        let o = offset as usize / 4;
                        Reply::Words(mem[o..o + count as usize].to_vec())
                    }
                    Request::Write { offset, data } => {
                        let o = offset as usize / 4;
                        mem[o..o + data.len()].copy_from_slice(&data);
                        Reply::Done
                    }
                    Request::SendFrame { port, data } => {
                        frames.push((port, data));
                        Reply::Done
                    }
                    Request::RecvFrames { port, max } => Reply::Frames(
                        frames
                            .iter()
                            .filter(|(p, _)| *p == port)
                            .take(max as usize)
                            .map(|(_, f)| f.clone())
                            .collect(),
                    ),
                    Request::Shutdown => {
                        write_frame(&mut s, &Reply::Done.encode()).unwrap();
                        break;
                    }
                };
                write_frame(&mut s, &reply.encode()).unwrap();
            }
        });
        let mut bar = SocketBar::connect(&path).unwrap();
        assert_eq!(bar.size(), 256);
        bar.write_block(8, &[1, 2, 3]).unwrap();
        let mut out = [0u32; 4];
        bar.read_block(4, &mut out).unwrap();
        assert_eq!(out, [0, 1, 2, 3]);
        bar.send_frame(1, &[0xaa; 60]).unwrap();
        assert_eq!(bar.recv_frames(0, 8).unwrap(), Vec::<Vec<u8>>::new());
        assert_eq!(bar.recv_frames(1, 8).unwrap(), vec![vec![0xaa; 60]]);
        assert_eq!(bar.read32(12).unwrap(), 2);
        assert!(matches!(bar.read32(256), Err(BarError::OutOfRange { .. })));
        assert_eq!(bar.info().unwrap().cycles, 5);
        bar.shutdown().unwrap();
        server.join().unwrap();
        let _ = std::fs::remove_file(&path);
    }
}
