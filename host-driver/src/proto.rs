//! Wire protocol between a host program and a long-running simulated card
//! (`nicctl sim start`). See docs/interfaces.md, "Simulated card socket protocol".
//!
//! Frames are `u32 little-endian length` + body. Register traffic is batched: one READ or
//! WRITE carries any number of consecutive 32-bit registers.
//!
//! Either side may be a program someone else wrote, so everything read from the peer is
//! checked before it is trusted: a length prefix against [`MAX_FRAME`] before any of the
//! body is read (and the body's buffer grows only as its bytes arrive, so a peer that
//! announces 1 MiB and sends 10 bytes costs 10 bytes), every count against the bytes that
//! carry it, a RECV_FRAMES reply against the `max` asked for, an error text against
//! [`MAX_ERROR_TEXT`]. A malformed or oversized message is a [`ProtoError`] naming what is
//! wrong; nothing here panics or recurses on what the peer sends.

use std::io::{self, Read, Write};

/// Largest frame body either side accepts (1 MiB); [`write_frame`] refuses to send a larger
/// one.
pub const MAX_FRAME: usize = 1 << 20;

/// Most registers one READ may ask for: its reply (status byte and the words) fits in
/// [`MAX_FRAME`].
pub const MAX_READ_WORDS: u32 = ((MAX_FRAME - 1) / 4) as u32;

/// Longest error text a reply may carry, in bytes (4 KiB). The server's messages are one
/// line; a longer text is refused rather than carried into the host's messages.
pub const MAX_ERROR_TEXT: usize = 4096;

/// What a frame body's buffer starts with; it grows as the bytes arrive.
const BODY_START_CAPACITY: usize = 8 * 1024;

const OP_READ: u8 = 1;
const OP_WRITE: u8 = 2;
const OP_INFO: u8 = 3;
const OP_SHUTDOWN: u8 = 4;
const OP_SEND_FRAME: u8 = 5;
const OP_RECV_FRAMES: u8 = 6;
const ST_OK: u8 = 0;
const ST_ERR: u8 = 1;

/// A request from a client.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Request {
    /// Read `count` consecutive registers from BAR offset `offset`.
    Read { offset: u64, count: u32 },
    /// Write consecutive registers from BAR offset `offset`.
    Write { offset: u64, data: Vec<u32> },
    /// Ask for BAR size, simulated cycles so far and the clock rate.
    Info,
    /// Stop the server after replying.
    Shutdown,
    /// Put an Ethernet frame on the wire into port `port` (0 client side, 1 server side).
    SendFrame { port: u8, data: Vec<u8> },
    /// Take up to `max` frames the card sent out of port `port`, oldest first.
    RecvFrames { port: u8, max: u32 },
}

/// A reply from the server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reply {
    /// Data of a READ.
    Words(Vec<u32>),
    /// A WRITE or SHUTDOWN was carried out.
    Done,
    /// Answer to INFO.
    Info {
        bar_size: u64,
        cycles: u64,
        clk_hz: u64,
    },
    /// Frames the card sent (answer to RECV_FRAMES), oldest first.
    Frames(Vec<Vec<u8>>),
    /// The request failed; the text says why.
    Error(String),
}

/// A malformed message: what the peer sent, and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProtoError {
    /// A body without its opcode (request) or status byte (reply).
    #[error("empty message (no opcode or status byte)")]
    Empty,
    /// A request with an opcode the protocol does not have.
    #[error("unknown opcode {0}")]
    UnknownOp(u8),
    /// A reply whose status byte is neither 0 (ok) nor 1 (error).
    #[error("unknown status byte {0} in a reply (0 = ok, 1 = error)")]
    UnknownStatus(u8),
    /// A part of a message is shorter than it must be.
    #[error("message truncated: {what} needs {want} bytes, {got} are left")]
    Truncated {
        /// The part, e.g. "READ offset".
        what: &'static str,
        /// Bytes it needs.
        want: u64,
        /// Bytes there are.
        got: u64,
    },
    /// Bytes after the end of a message.
    #[error("{what}: {extra} bytes after the end of the message")]
    Trailing {
        /// The message, e.g. "INFO reply".
        what: &'static str,
        /// How many.
        extra: usize,
    },
    /// A frame's length prefix is over [`MAX_FRAME`]; nothing of its body was read.
    #[error("frame of {0} bytes exceeds the {MAX_FRAME}-byte limit (MAX_FRAME)")]
    TooLarge(usize),
    /// A READ asks for more words than a reply can carry.
    #[error("READ of {0} words exceeds the {MAX_READ_WORDS}-word limit (MAX_READ_WORDS: the reply must fit in MAX_FRAME)")]
    ReadTooLarge(u32),
    /// An error reply's text is over [`MAX_ERROR_TEXT`].
    #[error("error reply of {0} bytes exceeds the {MAX_ERROR_TEXT}-byte limit (MAX_ERROR_TEXT)")]
    ErrorTooLong(usize),
    /// The stream ended inside a frame.
    #[error("the stream ended inside a frame: {got} of the {want} bytes of its {part} arrived")]
    Eof {
        /// "length prefix" or "body".
        part: &'static str,
        /// Bytes that arrived.
        got: u64,
        /// Bytes announced.
        want: u64,
    },
    /// A RECV_FRAMES reply with more frames than were asked for.
    #[error("RECV_FRAMES reply with more than the {max} frames asked for")]
    TooManyFrames {
        /// The request's `max`.
        max: u32,
    },
    /// A value the peer sent is out of its range.
    #[error("{what} {value} is out of range: expected {expected}")]
    BadValue {
        /// What it is, e.g. "INFO bar size".
        what: &'static str,
        /// The value sent.
        value: u64,
        /// What it must be.
        expected: &'static str,
    },
    /// The reply does not fit the request it answers.
    #[error("reply does not match the request: {0}")]
    Mismatch(&'static str),
}

/// Why [`recv_frame`] could not read a frame.
#[derive(Debug, thiserror::Error)]
pub enum FrameError {
    /// The transport failed (including a read timeout).
    #[error(transparent)]
    Io(#[from] io::Error),
    /// The peer sent something that is not a frame of this protocol.
    #[error(transparent)]
    Proto(#[from] ProtoError),
}

fn take<const N: usize>(b: &mut &[u8], what: &'static str) -> Result<[u8; N], ProtoError> {
    if b.len() < N {
        return Err(ProtoError::Truncated {
            what,
            want: N as u64,
            got: b.len() as u64,
        });
    }
    let (head, rest) = b.split_at(N);
    *b = rest;
    let mut out = [0u8; N];
    out.copy_from_slice(head);
    Ok(out)
}

/// Exactly `count` little-endian words; checked against the bytes before anything is
/// allocated.
fn words(b: &[u8], count: u32, what: &'static str) -> Result<Vec<u32>, ProtoError> {
    let want = u64::from(count) * 4;
    let got = b.len() as u64;
    if got < want {
        return Err(ProtoError::Truncated { what, want, got });
    }
    if got > want {
        return Err(ProtoError::Trailing {
            what,
            extra: b.len() - want as usize,
        });
    }
    Ok(b.chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect())
}

fn no_trailing(rest: &[u8], what: &'static str) -> Result<(), ProtoError> {
    if rest.is_empty() {
        Ok(())
    } else {
        Err(ProtoError::Trailing {
            what,
            extra: rest.len(),
        })
    }
}

/// An error text as shown to the host: lossy UTF-8, control characters escaped (so that
/// a peer cannot put terminal escapes or line breaks into the host's messages).
fn error_text(raw: &[u8]) -> String {
    let lossy = String::from_utf8_lossy(raw);
    if !lossy.chars().any(char::is_control) {
        return lossy.into_owned();
    }
    let mut s = String::with_capacity(lossy.len());
    for c in lossy.chars() {
        if c.is_control() {
            s.extend(c.escape_default());
        } else {
            s.push(c);
        }
    }
    s
}

impl Request {
    /// Encode into a frame body.
    pub fn encode(&self) -> Vec<u8> {
        let mut v = Vec::new();
        match self {
            Request::Read { offset, count } => {
                v.push(OP_READ);
                v.extend_from_slice(&offset.to_le_bytes());
                v.extend_from_slice(&count.to_le_bytes());
            }
            Request::Write { offset, data } => {
                v.push(OP_WRITE);
                v.extend_from_slice(&offset.to_le_bytes());
                // More words than a u32 counts cannot be sent; the count says so and the
                // peer refuses the frame (it is far over MAX_FRAME anyway).
                let count = u32::try_from(data.len()).unwrap_or(u32::MAX);
                v.extend_from_slice(&count.to_le_bytes());
                for w in data {
                    v.extend_from_slice(&w.to_le_bytes());
                }
            }
            Request::Info => v.push(OP_INFO),
            Request::Shutdown => v.push(OP_SHUTDOWN),
            Request::SendFrame { port, data } => {
                v.push(OP_SEND_FRAME);
                v.push(*port);
                v.extend_from_slice(data);
            }
            Request::RecvFrames { port, max } => {
                v.push(OP_RECV_FRAMES);
                v.push(*port);
                v.extend_from_slice(&max.to_le_bytes());
            }
        }
        v
    }

    /// Decode a frame body.
    pub fn decode(body: &[u8]) -> Result<Request, ProtoError> {
        let (&op, mut rest) = body.split_first().ok_or(ProtoError::Empty)?;
        match op {
            OP_READ => {
                let offset = u64::from_le_bytes(take::<8>(&mut rest, "READ offset")?);
                let count = u32::from_le_bytes(take::<4>(&mut rest, "READ count")?);
                no_trailing(rest, "READ request")?;
                if count > MAX_READ_WORDS {
                    return Err(ProtoError::ReadTooLarge(count));
                }
                Ok(Request::Read { offset, count })
            }
            OP_WRITE => {
                let offset = u64::from_le_bytes(take::<8>(&mut rest, "WRITE offset")?);
                let count = u32::from_le_bytes(take::<4>(&mut rest, "WRITE count")?);
                let data = words(rest, count, "WRITE data")?;
                Ok(Request::Write { offset, data })
            }
            OP_INFO => {
                no_trailing(rest, "INFO request")?;
                Ok(Request::Info)
            }
            OP_SHUTDOWN => {
                no_trailing(rest, "SHUTDOWN request")?;
                Ok(Request::Shutdown)
            }
            OP_SEND_FRAME => {
                let [port] = take::<1>(&mut rest, "SEND_FRAME port")?;
                Ok(Request::SendFrame {
                    port,
                    data: rest.to_vec(),
                })
            }
            OP_RECV_FRAMES => {
                let [port] = take::<1>(&mut rest, "RECV_FRAMES port")?;
                let max = u32::from_le_bytes(take::<4>(&mut rest, "RECV_FRAMES max")?);
                no_trailing(rest, "RECV_FRAMES request")?;
                Ok(Request::RecvFrames { port, max })
            }
            other => Err(ProtoError::UnknownOp(other)),
        }
    }

    /// The request's name in the protocol (READ, WRITE, ...), for messages.
    pub fn name(&self) -> &'static str {
        match self {
            Request::Read { .. } => "READ",
            Request::Write { .. } => "WRITE",
            Request::Info => "INFO",
            Request::Shutdown => "SHUTDOWN",
            Request::SendFrame { .. } => "SEND_FRAME",
            Request::RecvFrames { .. } => "RECV_FRAMES",
        }
    }
}

impl Reply {
    /// Encode into a frame body. An error text over [`MAX_ERROR_TEXT`] is cut there (at a
    /// character boundary), so a reply this side sends is one the other side accepts.
    pub fn encode(&self) -> Vec<u8> {
        let mut v = Vec::new();
        match self {
            Reply::Words(ws) => {
                v.push(ST_OK);
                for w in ws {
                    v.extend_from_slice(&w.to_le_bytes());
                }
            }
            Reply::Done => v.push(ST_OK),
            Reply::Info {
                bar_size,
                cycles,
                clk_hz,
            } => {
                v.push(ST_OK);
                v.extend_from_slice(&bar_size.to_le_bytes());
                v.extend_from_slice(&cycles.to_le_bytes());
                v.extend_from_slice(&clk_hz.to_le_bytes());
            }
            Reply::Frames(frames) => {
                v.push(ST_OK);
                for f in frames {
                    let len = u32::try_from(f.len()).unwrap_or(u32::MAX);
                    v.extend_from_slice(&len.to_le_bytes());
                    v.extend_from_slice(f);
                }
            }
            Reply::Error(msg) => {
                v.push(ST_ERR);
                let mut end = msg.len().min(MAX_ERROR_TEXT);
                while !msg.is_char_boundary(end) {
                    end -= 1;
                }
                v.extend_from_slice(&msg.as_bytes()[..end]);
            }
        }
        v
    }

    /// Decode the reply to `req`. What is checked: the status byte; that the reply has the
    /// shape `req` expects (exactly `count` words for a READ, nothing for a WRITE, three
    /// `u64` for INFO, at most `max` frames each within the body for
    /// RECV_FRAMES); an error text of at most [`MAX_ERROR_TEXT`] bytes (decoded lossily,
    /// control characters escaped).
    pub fn decode_for(req: &Request, body: &[u8]) -> Result<Reply, ProtoError> {
        let (&st, mut rest) = body.split_first().ok_or(ProtoError::Empty)?;
        if st == ST_ERR {
            if rest.len() > MAX_ERROR_TEXT {
                return Err(ProtoError::ErrorTooLong(rest.len()));
            }
            return Ok(Reply::Error(error_text(rest)));
        }
        if st != ST_OK {
            return Err(ProtoError::UnknownStatus(st));
        }
        match req {
            Request::Read { count, .. } => Ok(Reply::Words(words(rest, *count, "READ reply")?)),
            Request::RecvFrames { max, .. } => {
                let mut frames = Vec::new();
                while !rest.is_empty() {
                    if frames.len() as u64 >= u64::from(*max) {
                        return Err(ProtoError::TooManyFrames { max: *max });
                    }
                    let len = u32::from_le_bytes(take::<4>(&mut rest, "RECV_FRAMES length")?);
                    let len = len as usize;
                    if rest.len() < len {
                        return Err(ProtoError::Truncated {
                            what: "RECV_FRAMES frame",
                            want: len as u64,
                            got: rest.len() as u64,
                        });
                    }
                    let (f, r) = rest.split_at(len);
                    frames.push(f.to_vec());
                    rest = r;
                }
                Ok(Reply::Frames(frames))
            }
            Request::Write { .. } | Request::Shutdown | Request::SendFrame { .. } => {
                if rest.is_empty() {
                    Ok(Reply::Done)
                } else {
                    Err(ProtoError::Mismatch("unexpected payload"))
                }
            }
            Request::Info => {
                let bar_size = u64::from_le_bytes(take::<8>(&mut rest, "INFO bar size")?);
                let cycles = u64::from_le_bytes(take::<8>(&mut rest, "INFO cycles")?);
                let clk_hz = u64::from_le_bytes(take::<8>(&mut rest, "INFO clock")?);
                no_trailing(rest, "INFO reply")?;
                Ok(Reply::Info {
                    bar_size,
                    cycles,
                    clk_hz,
                })
            }
        }
    }
}

/// Write one frame (length prefix + body). A body over [`MAX_FRAME`] is refused
/// (`InvalidInput`, with [`ProtoError::TooLarge`]) without writing anything: the peer
/// would refuse it.
pub fn write_frame<W: Write>(w: &mut W, body: &[u8]) -> io::Result<()> {
    if body.len() > MAX_FRAME {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            ProtoError::TooLarge(body.len()),
        ));
    }
    // Cannot fail: MAX_FRAME fits in a u32.
    let len = u32::try_from(body.len()).map_err(|_| io::Error::other("frame too large"))?;
    w.write_all(&len.to_le_bytes())?;
    w.write_all(body)?;
    w.flush()
}

/// Read one frame. `Ok(None)` on a clean end of stream before a frame starts. A length
/// prefix over [`MAX_FRAME`] is [`ProtoError::TooLarge`] (nothing more is read: the
/// stream is not usable after it); an end of stream inside a frame is [`ProtoError::Eof`]
/// saying how far it got. The body's buffer grows as its bytes arrive.
pub fn recv_frame<R: Read>(r: &mut R) -> Result<Option<Vec<u8>>, FrameError> {
    let mut len = [0u8; 4];
    let mut got = 0;
    while got < 4 {
        match r.read(&mut len[got..]) {
            Ok(0) if got == 0 => return Ok(None),
            Ok(0) => {
                return Err(ProtoError::Eof {
                    part: "length prefix",
                    got: got as u64,
                    want: 4,
                }
                .into())
            }
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e.into()),
        }
    }
    let len = u32::from_le_bytes(len) as usize;
    if len > MAX_FRAME {
        return Err(ProtoError::TooLarge(len).into());
    }
    let mut body = Vec::with_capacity(len.min(BODY_START_CAPACITY));
    let read = r.take(len as u64).read_to_end(&mut body)?;
    if read < len {
        return Err(ProtoError::Eof {
            part: "body",
            got: read as u64,
            want: len as u64,
        }
        .into());
    }
    Ok(Some(body))
}

/// [`recv_frame`] with its errors as `io::Error`: a malformed frame is `InvalidData`, an
/// end of stream inside a frame `UnexpectedEof`, each carrying its [`ProtoError`].
pub fn read_frame<R: Read>(r: &mut R) -> io::Result<Option<Vec<u8>>> {
    recv_frame(r).map_err(|e| match e {
        FrameError::Io(e) => e,
        FrameError::Proto(p @ ProtoError::Eof { .. }) => {
            io::Error::new(io::ErrorKind::UnexpectedEof, p)
        }
        FrameError::Proto(p) => io::Error::new(io::ErrorKind::InvalidData, p),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_round_trip() {
        for req in [
            Request::Read {
                offset: 0x40,
                count: 3,
            },
            Request::Write {
                offset: 0x1000,
                data: vec![1, 2, 0xffff_ffff],
            },
            Request::Info,
            Request::Shutdown,
            Request::SendFrame {
                port: 1,
                data: vec![1, 2, 3],
            },
            Request::RecvFrames { port: 0, max: 8 },
        ] {
            assert_eq!(Request::decode(&req.encode()).unwrap(), req);
        }
        assert!(matches!(
            Request::decode(&[OP_RECV_FRAMES, 0, 1]),
            Err(ProtoError::Truncated { .. })
        ));
    }

    #[test]
    fn replies_round_trip() {
        let read = Request::Read {
            offset: 0,
            count: 2,
        };
        let r = Reply::Words(vec![7, 8]);
        assert_eq!(Reply::decode_for(&read, &r.encode()).unwrap(), r);
        let i = Reply::Info {
            bar_size: 1 << 20,
            cycles: 99,
            clk_hz: splicenic_layout::CLK_HZ.into(),
        };
        assert_eq!(Reply::decode_for(&Request::Info, &i.encode()).unwrap(), i);
        let recv = Request::RecvFrames { port: 0, max: 4 };
        let f = Reply::Frames(vec![vec![1, 2, 3], vec![], vec![9; 60]]);
        assert_eq!(Reply::decode_for(&recv, &f.encode()).unwrap(), f);
        let mut cut = f.encode();
        cut.pop();
        assert!(Reply::decode_for(&recv, &cut).is_err());
        let e = Reply::Error("boom".into());
        assert_eq!(Reply::decode_for(&read, &e.encode()).unwrap(), e);
    }

    #[test]
    fn malformed_requests_are_errors() {
        assert!(matches!(Request::decode(&[]), Err(ProtoError::Empty)));
        assert!(matches!(
            Request::decode(&[9]),
            Err(ProtoError::UnknownOp(9))
        ));
        assert!(matches!(
            Request::decode(&[OP_READ, 1, 2]),
            Err(ProtoError::Truncated { .. })
        ));
        let mut w = Request::Write {
            offset: 0,
            data: vec![1, 2],
        }
        .encode();
        w.pop();
        assert!(matches!(
            Request::decode(&w),
            Err(ProtoError::Truncated { .. })
        ));
    }

    #[test]
    fn frames_detect_truncation_and_size() {
        let mut buf = Vec::new();
        write_frame(&mut buf, b"hello").unwrap();
        assert_eq!(read_frame(&mut &buf[..]).unwrap().unwrap(), b"hello");
        assert!(read_frame(&mut &[][..]).unwrap().is_none());
        let cut = &buf[..buf.len() - 1];
        assert_eq!(
            read_frame(&mut &cut[..]).unwrap_err().kind(),
            io::ErrorKind::UnexpectedEof
        );
        let huge = ((MAX_FRAME + 1) as u32).to_le_bytes();
        assert_eq!(
            read_frame(&mut &huge[..]).unwrap_err().kind(),
            io::ErrorKind::InvalidData
        );
    }
    #[test]
    fn every_malformed_part_is_named() {
        let e = |r: Result<Request, ProtoError>| r.unwrap_err().to_string();
        assert_eq!(
            e(Request::decode(&[OP_READ, 1, 2])),
            "message truncated: READ offset needs 8 bytes, 2 are left"
        );
        assert_eq!(
            e(Request::decode(&[OP_INFO, 0])),
            "INFO request: 1 bytes after the end of the message"
        );
        let mut big = vec![OP_READ];
        big.extend_from_slice(&0u64.to_le_bytes());
        big.extend_from_slice(&(MAX_READ_WORDS + 1).to_le_bytes());
        assert!(e(Request::decode(&big)).contains("MAX_READ_WORDS"));
        // A WRITE announcing 2^32-1 words in 13 bytes: refused before anything is
        // allocated for them.
        let mut w = vec![OP_WRITE];
        w.extend_from_slice(&0u64.to_le_bytes());
        w.extend_from_slice(&u32::MAX.to_le_bytes());
        assert_eq!(
            e(Request::decode(&w)),
            "message truncated: WRITE data needs 17179869180 bytes, 0 are left"
        );

        let recv = Request::RecvFrames { port: 0, max: 2 };
        let three = Reply::Frames(vec![vec![1], vec![2], vec![3]]).encode();
        assert_eq!(
            Reply::decode_for(&recv, &three),
            Err(ProtoError::TooManyFrames { max: 2 })
        );
        let info = Reply::Info {
            bar_size: 1,
            cycles: 2,
            clk_hz: 3,
        };
        let mut long = info.encode();
        long.push(0);
        assert!(matches!(
            Reply::decode_for(&Request::Info, &long),
            Err(ProtoError::Trailing { extra: 1, .. })
        ));
        assert_eq!(
            Reply::decode_for(&Request::Info, &[9]),
            Err(ProtoError::UnknownStatus(9))
        );
    }

    #[test]
    fn error_texts_are_bounded_and_escaped() {
        let read = Request::Read {
            offset: 0,
            count: 1,
        };
        let mut body = vec![ST_ERR];
        body.extend_from_slice(&[b'x'; MAX_ERROR_TEXT + 1]);
        assert_eq!(
            Reply::decode_for(&read, &body),
            Err(ProtoError::ErrorTooLong(MAX_ERROR_TEXT + 1))
        );
        let e = Reply::decode_for(&read, b"\x01a\x1b[31mb\nc\xff").unwrap();
        assert_eq!(e, Reply::Error("a\\u{1b}[31mb\\nc\u{fffd}".into()));
        // What this side sends, the other side takes: a long text is cut to the limit.
        let long = Reply::Error("\u{e9}".repeat(MAX_ERROR_TEXT));
        let sent = long.encode();
        assert!(sent.len() <= MAX_ERROR_TEXT + 1);
        assert!(Reply::decode_for(&read, &sent).is_ok());
    }

    #[test]
    fn frames_say_how_far_they_got_and_are_not_sent_oversized() {
        let mut buf = 10u32.to_le_bytes().to_vec();
        buf.extend_from_slice(b"abc");
        let e = recv_frame(&mut &buf[..]).unwrap_err().to_string();
        assert_eq!(
            e,
            "the stream ended inside a frame: 3 of the 10 bytes of its body arrived"
        );
        let e = recv_frame(&mut &[1u8, 0][..]).unwrap_err().to_string();
        assert_eq!(
            e,
            "the stream ended inside a frame: 2 of the 4 bytes of its length prefix arrived"
        );
        let mut out = Vec::new();
        let e = write_frame(&mut out, &vec![0; MAX_FRAME + 1]).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
        assert!(out.is_empty());
        write_frame(&mut out, &vec![0; MAX_FRAME]).unwrap();
        assert_eq!(recv_frame(&mut &out[..]).unwrap().unwrap().len(), MAX_FRAME);
    }
}
