//! [`Bar`] backend for a simulated card served over a Unix socket (`nicctl sim start`).
//!
//! Every [`Bar::read_block`] / [`Bar::write_block`] is one round trip (split only when a block
//! would exceed the protocol's frame limit), so bulk transfers such as a firmware load stay
//! cheap even though each round trip costs tens of microseconds.
//!
//! The card at the other end is a program, so what it sends is checked ([`crate::proto`]):
//! a round trip (sending the request and reading the whole reply) must finish within the
//! reply timeout ([`REPLY_TIMEOUT`], a deadline for the whole reply, not per read, so a
//! peer trickling bytes cannot stretch it), and a reply that is malformed, oversized or
//! does not fit its request is an error naming the problem (`BarError::Io` of kind
//! `InvalidData` carrying the [`ProtoError`]). After such an error, or a timeout, the
//! stream may be in the middle of a frame, so the connection refuses further requests
//! instead of reading a stale reply as the answer to a new one; connect again.

use std::io::{self, Read, Write};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::bar::{check_access, Bar, BarError};
use crate::error::DriverError;
use crate::proto::{recv_frame, write_frame, FrameError, ProtoError, Reply, Request, MAX_FRAME};

/// Largest number of words moved in one message (well under [`MAX_FRAME`]).
const CHUNK_WORDS: usize = (MAX_FRAME - 64) / 4;

/// How long one round trip (the request sent and the whole reply read) may take before the
/// connection is considered dead (30 s).
pub const REPLY_TIMEOUT: Duration = Duration::from_secs(30);

/// Largest BAR an INFO reply may announce (4 GiB, what a 32-bit BAR can be). The size must
/// also be a non-zero multiple of 4.
pub const MAX_SIM_BAR_SIZE: u64 = 1 << 32;

/// Frames asked for in one RECV_FRAMES: 256 frames of the card's largest (2,048 bytes, with
/// their length prefixes) make a 525 KB reply, well under [`MAX_FRAME`].
const RECV_BATCH: u32 = 256;

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
    reply_timeout: Duration,
    /// Why the connection can no longer be used (an earlier round trip failed part-way).
    broken: Option<String>,
}

/// Frames a simulated card's server keeps per TX port for `recv_frames`.
pub const SIM_TX_BACKLOG: usize = 4096;

/// The stream with a deadline for a whole round trip: each read or write gets the time
/// left as its timeout.
struct Deadline<'a> {
    stream: &'a UnixStream,
    end: Instant,
    timeout: Duration,
}

impl Deadline<'_> {
    fn left(&self) -> io::Result<Duration> {
        let left = self.end.saturating_duration_since(Instant::now());
        if left.is_zero() {
            Err(self.timed_out())
        } else {
            Ok(left)
        }
    }

    fn timed_out(&self) -> io::Error {
        io::Error::new(
            io::ErrorKind::TimedOut,
            format!(
                "no complete reply within {:?} (the reply timeout)",
                self.timeout
            ),
        )
    }

    fn check<T>(&self, r: io::Result<T>) -> io::Result<T> {
        match r {
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                ) =>
            {
                Err(self.timed_out())
            }
            r => r,
        }
    }
}

impl Read for Deadline<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.stream.set_read_timeout(Some(self.left()?))?;
        let r = (&mut &*self.stream).read(buf);
        self.check(r)
    }
}

impl Write for Deadline<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.stream.set_write_timeout(Some(self.left()?))?;
        let r = (&mut &*self.stream).write(buf);
        self.check(r)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl SocketBar {
    /// Connect to the simulated card listening on `path` and ask it for its BAR size.
    pub fn connect(path: impl AsRef<Path>) -> Result<SocketBar, DriverError> {
        Self::connect_with(path, REPLY_TIMEOUT)
    }

    /// [`SocketBar::connect`] with another reply timeout (a deadline for each whole round
    /// trip, the INFO of connecting included). A zero timeout is taken as 1 ms.
    pub fn connect_with(
        path: impl AsRef<Path>,
        reply_timeout: Duration,
    ) -> Result<SocketBar, DriverError> {
        let path = path.as_ref().to_path_buf();
        let stream = UnixStream::connect(&path).map_err(|source| DriverError::NoSimulator {
            path: path.clone(),
            source,
        })?;
        let mut bar = SocketBar {
            stream,
            path,
            size: 0,
            reply_timeout: reply_timeout.max(Duration::from_millis(1)),
            broken: None,
        };
        let info = bar.info()?;
        if info.bar_size == 0 || info.bar_size % 4 != 0 || info.bar_size > MAX_SIM_BAR_SIZE {
            return Err(ProtoError::BadValue {
                what: "INFO bar size",
                value: info.bar_size,
                expected: "a non-zero multiple of 4 of at most 4 GiB (MAX_SIM_BAR_SIZE)",
            }
            .into());
        }
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
    /// Asked for in batches of 256 so that each reply fits in a frame.
    pub fn recv_frames(&mut self, port: u8, max: u32) -> Result<Vec<Vec<u8>>, DriverError> {
        let mut out = Vec::new();
        let mut left = max;
        while left > 0 {
            let n = left.min(RECV_BATCH);
            let got = match self.round_trip(&Request::RecvFrames { port, max: n })? {
                Reply::Frames(f) => f,
                other => return Err(unexpected("RECV_FRAMES", &other).into()),
            };
            let short = got.len() < n as usize;
            // Cannot wrap: the reply was checked to hold at most `n` frames.
            left -= got.len() as u32;
            out.extend(got);
            if short {
                break;
            }
        }
        Ok(out)
    }

    fn round_trip(&mut self, req: &Request) -> Result<Reply, BarError> {
        if let Some(why) = &self.broken {
            return Err(io_err(
                &self.path,
                req.name(),
                io::Error::new(
                    io::ErrorKind::NotConnected,
                    format!(
                        "the connection is unusable after an earlier error ({why}); connect again"
                    ),
                ),
            ));
        }
        let result = self.exchange(req);
        if let Err((what, e)) = &result {
            self.broken = Some(format!("{what} {}: {e}", req.name()));
        }
        let reply =
            result.map_err(|(what, e)| io_err(&self.path, &format!("{what} {}", req.name()), e))?;
        match reply {
            Reply::Error(msg) => Err(BarError::Backend(msg)),
            r => Ok(r),
        }
    }

    /// One request and its reply within the reply timeout; what failed and how.
    fn exchange(&mut self, req: &Request) -> Result<Reply, (&'static str, io::Error)> {
        let mut io = Deadline {
            stream: &self.stream,
            end: Instant::now() + self.reply_timeout,
            timeout: self.reply_timeout,
        };
        write_frame(&mut io, &req.encode()).map_err(|e| ("sending", e))?;
        let what = "reading the reply to";
        let body = match recv_frame(&mut io) {
            Ok(Some(body)) => body,
            Ok(None) => {
                return Err((
                    what,
                    io::Error::new(
                        io::ErrorKind::UnexpectedEof,
                        "the simulated card closed the connection",
                    ),
                ))
            }
            Err(FrameError::Io(e)) => return Err((what, e)),
            Err(FrameError::Proto(p)) => return Err((what, malformed(p))),
        };
        Reply::decode_for(req, &body).map_err(|p| (what, malformed(p)))
    }
}

/// A malformed reply as an `io::Error` carrying the [`ProtoError`].
fn malformed(p: ProtoError) -> io::Error {
    let kind = match p {
        ProtoError::Eof { .. } => io::ErrorKind::UnexpectedEof,
        _ => io::ErrorKind::InvalidData,
    };
    io::Error::new(kind, p)
}

fn io_err(path: &Path, what: &str, source: io::Error) -> BarError {
    BarError::Io {
        context: format!("simulated card at {}: {what}", path.display()),
        source,
    }
}

/// A reply of the wrong kind (decoding checks the kind, so this is not reached); named
/// without its contents, which may be large.
fn unexpected(what: &str, reply: &Reply) -> BarError {
    let kind = match reply {
        Reply::Words(w) => format!("{} words", w.len()),
        Reply::Done => "done".into(),
        Reply::Info { .. } => "info".into(),
        Reply::Frames(f) => format!("{} frames", f.len()),
        Reply::Error(_) => "an error".into(),
    };
    BarError::Backend(format!("unexpected reply to {what}: {kind}"))
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
    use crate::proto::read_frame;

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
    /// A card server that answers INFO with `bar_size`, then does `then` with the stream.
    fn hostile_card(
        name: &str,
        bar_size: u64,
        then: impl FnOnce(&mut UnixStream) + Send + 'static,
    ) -> (PathBuf, std::thread::JoinHandle<()>) {
        use std::os::unix::net::UnixListener;
        let path =
            std::env::temp_dir().join(format!("snic-hostile-{name}-{}.sock", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let listener = UnixListener::bind(&path).unwrap();
        let server = std::thread::spawn(move || {
            let (mut s, _) = listener.accept().unwrap();
            let body = read_frame(&mut s).unwrap().unwrap();
            assert_eq!(Request::decode(&body).unwrap(), Request::Info);
            let info = Reply::Info {
                bar_size,
                cycles: 1,
                clk_hz: 100,
            };
            if write_frame(&mut s, &info.encode()).is_ok() {
                then(&mut s);
            }
        });
        (path, server)
    }

    /// Reads one request and answers it with `raw` bytes (length prefix included).
    fn answer_raw(s: &mut UnixStream, raw: &[u8]) {
        let _ = read_frame(s);
        let _ = s.write_all(raw);
    }

    fn framed(body: &[u8]) -> Vec<u8> {
        let mut v = (body.len() as u32).to_le_bytes().to_vec();
        v.extend_from_slice(body);
        v
    }

    /// One hostile reply to a READ of two words: the error, and the error of the request
    /// after it (the connection is refused from then on, except after an error reply).
    fn read_against(name: &str, raw: Vec<u8>, timeout: Duration) -> (String, Duration, String) {
        let close = name == "cut";
        let (path, server) = hostile_card(name, 256, move |s| {
            answer_raw(s, &raw);
            if close {
                return;
            }
            // Keep the connection open until the client closes it, so that only the reply
            // itself is judged (the client sends nothing more: it refuses the second
            // request itself).
            let _ = s.read_to_end(&mut Vec::new());
        });
        let mut bar = SocketBar::connect_with(&path, timeout).unwrap();
        let mut out = [0u32; 2];
        let start = Instant::now();
        let first = bar.read_block(0, &mut out).unwrap_err().to_string();
        let took = start.elapsed();
        let second = bar.read_block(0, &mut out).unwrap_err().to_string();
        drop(bar);
        server.join().unwrap();
        let _ = std::fs::remove_file(&path);
        (first, took, second)
    }

    #[test]
    fn hostile_replies_are_errors_naming_the_problem() {
        let t = Duration::from_secs(5);
        let cases: Vec<(&str, Vec<u8>, &str)> = vec![
            (
                "oversize",
                (2u32 << 20).to_le_bytes().to_vec(),
                "frame of 2097152 bytes exceeds the 1048576-byte limit (MAX_FRAME)",
            ),
            (
                "cut",
                {
                    let mut v = 5000u32.to_le_bytes().to_vec();
                    v.extend_from_slice(&[0, 1, 2]);
                    v
                },
                "the stream ended inside a frame: 3 of the 5000 bytes of its body arrived",
            ),
            (
                "short",
                framed(&[0, 1, 2, 3, 4]),
                "message truncated: READ reply needs 8 bytes, 4 are left",
            ),
            (
                "long",
                framed(&[0; 13]),
                "READ reply: 4 bytes after the end of the message",
            ),
            ("status", framed(&[7, 0]), "unknown status byte 7"),
            ("empty", framed(&[]), "empty message"),
            (
                "errtext",
                framed(&[vec![1u8], vec![b'x'; 5000]].concat()),
                "error reply of 5000 bytes exceeds the 4096-byte limit (MAX_ERROR_TEXT)",
            ),
        ];
        for (name, raw, want) in cases {
            let (first, _, second) = read_against(name, raw, t);
            assert!(
                first.contains(want) && first.contains("reading the reply to READ"),
                "{name}: {first}"
            );
            assert!(
                second.contains("unusable after an earlier error"),
                "{name}: {second}"
            );
        }
    }

    #[test]
    fn a_trickling_or_silent_card_times_out_within_the_deadline() {
        let timeout = Duration::from_millis(300);
        // A valid 2-word reply, one byte every 50 ms: each read is quick, the whole is not.
        let mut reply = framed(&Reply::Words(vec![1, 2]).encode());
        reply.extend(framed(&Reply::Done.encode()));
        let (path, server) = hostile_card("trickle", 256, move |s| {
            let _ = read_frame(s);
            for b in reply {
                if s.write_all(&[b]).is_err() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        });
        let mut bar = SocketBar::connect_with(&path, timeout).unwrap();
        let start = Instant::now();
        let e = bar.read_block(0, &mut [0u32; 2]).unwrap_err().to_string();
        let took = start.elapsed();
        assert!(e.contains("no complete reply within 300ms"), "{e}");
        assert!(took < Duration::from_millis(600), "{took:?}");
        drop(bar);
        server.join().unwrap();

        let (first, took, _) = read_against("silent", Vec::new(), timeout);
        assert!(first.contains("no complete reply within 300ms"), "{first}");
        assert!(took < Duration::from_millis(600), "{took:?}");
        let _ = std::fs::remove_file(&path);
    }

    #[test]
    fn error_replies_are_escaped_and_keep_the_connection() {
        let (path, server) = hostile_card("escaped", 256, |s| {
            let _ = read_frame(s);
            let _ = write_frame(s, &[&[1u8][..], b"bad\x1b[2J\nline"].concat());
            let _ = read_frame(s);
            let _ = write_frame(s, &Reply::Words(vec![5]).encode());
        });
        let mut bar = SocketBar::connect_with(&path, Duration::from_secs(5)).unwrap();
        let e = bar.read32(0).unwrap_err().to_string();
        assert!(e.contains("bad\\u{1b}[2J\\nline"), "{e}");
        assert_eq!(bar.read32(0).unwrap(), 5);
        drop(bar);
        server.join().unwrap();
        let _ = std::fs::remove_file(&path);
    }

    #[test]
    fn absurd_bar_sizes_and_frame_counts_are_refused() {
        for size in [0, 6, (1 << 32) + 4] {
            let (path, server) = hostile_card("barsize", size, |_| {});
            let e = SocketBar::connect_with(&path, Duration::from_secs(5))
                .unwrap_err()
                .to_string();
            assert!(
                e.contains(&format!("INFO bar size {size} is out of range")),
                "{e}"
            );
            server.join().unwrap();
            let _ = std::fs::remove_file(&path);
        }
        // RECV_FRAMES: asked in batches of at most 256; a reply over the batch is refused.
        let (path, server) = hostile_card("frames", 256, |s| {
            let body = read_frame(s).unwrap().unwrap();
            assert_eq!(
                Request::decode(&body).unwrap(),
                Request::RecvFrames { port: 0, max: 256 }
            );
            let frames = Reply::Frames(vec![vec![1; 60]; 257]);
            let _ = write_frame(s, &frames.encode());
        });
        let mut bar = SocketBar::connect_with(&path, Duration::from_secs(5)).unwrap();
        let e = bar.recv_frames(0, 1000).unwrap_err().to_string();
        assert!(
            e.contains("RECV_FRAMES reply with more than the 256 frames asked for"),
            "{e}"
        );
        drop(bar);
        server.join().unwrap();
        let _ = std::fs::remove_file(&path);
    }
}
