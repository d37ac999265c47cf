//! Wire protocol between a host program and a long-running simulated card
//! (`nicctl sim start`). See docs/interfaces.md, "Simulated card socket protocol".
//!
//! Frames are `u32 little-endian length` + body. Register traffic is batched: one READ or
//! WRITE carries any number of consecutive 32-bit registers.

use std::io::{self, Read, Write};

/// Largest frame body either side accepts.
pub const MAX_FRAME: usize = 1 << 20;

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

/// A malformed message.
#[derive(Debug, thiserror::Error)]
pub enum ProtoError {
    #[error("empty message")]
    Empty,
    #[error("unknown opcode {0}")]
    UnknownOp(u8),
    #[error("message truncated: {0}")]
    Truncated(&'static str),
    #[error("frame of {0} bytes exceeds the {MAX_FRAME}-byte limit")]
    TooLarge(usize),
    #[error("reply does not match the request: {0}")]
    Mismatch(&'static str),
}

fn take<const N: usize>(b: &mut &[u8], what: &'static str) -> Result<[u8; N], ProtoError> {
    if b.len() < N {
        return Err(ProtoError::Truncated(what));
    }
    let (head, rest) = b.split_at(N);
    *b = rest;
    let mut out = [0u8; N];
    out.copy_from_slice(head);
    Ok(out)
}

fn words(b: &[u8], count: usize, what: &'static str) -> Result<Vec<u32>, ProtoError> {
    if b.len() != count * 4 {
        return Err(ProtoError::Truncated(what));
    }
    Ok(b.chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect())
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
                v.extend_from_slice(&(data.len() as u32).to_le_bytes());
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
                if !rest.is_empty() {
                    return Err(ProtoError::Truncated("READ has trailing bytes"));
                }
                if count as usize * 4 + 1 > MAX_FRAME {
                    return Err(ProtoError::TooLarge(count as usize * 4 + 1));
                }
                Ok(Request::Read { offset, count })
            }
            OP_WRITE => {
                let offset = u64::from_le_bytes(take::<8>(&mut rest, "WRITE offset")?);
                let count = u32::from_le_bytes(take::<4>(&mut rest, "WRITE count")?);
                let data = words(rest, count as usize, "WRITE data")?;
                Ok(Request::Write { offset, data })
            }
            OP_INFO => Ok(Request::Info),
            OP_SHUTDOWN => Ok(Request::Shutdown),
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
                if !rest.is_empty() {
                    return Err(ProtoError::Truncated("RECV_FRAMES has trailing bytes"));
                }
                Ok(Request::RecvFrames { port, max })
            }
            other => Err(ProtoError::UnknownOp(other)),
        }
    }
}

impl Reply {
    /// Encode into a frame body.
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
                    v.extend_from_slice(&(f.len() as u32).to_le_bytes());
                    v.extend_from_slice(f);
                }
            }
            Reply::Error(msg) => {
                v.push(ST_ERR);
                v.extend_from_slice(msg.as_bytes());
            }
        }
        v
    }

    /// Decode the reply to `req`.
    pub fn decode_for(req: &Request, body: &[u8]) -> Result<Reply, ProtoError> {
        let (&st, mut rest) = body.split_first().ok_or(ProtoError::Empty)?;
        if st == ST_ERR {
            return Ok(Reply::Error(String::from_utf8_lossy(rest).into_owned()));
        }
        if st != ST_OK {
            return Err(ProtoError::Mismatch("unknown status byte"));
        }
        match req {
            Request::Read { count, .. } => {
                Ok(Reply::Words(words(rest, *count as usize, "READ reply")?))
            }
            Request::RecvFrames { .. } => {
                let mut frames = Vec::new();
                while !rest.is_empty() {
                    let len = u32::from_le_bytes(take::<4>(&mut rest, "RECV_FRAMES length")?);
                    let len = len as usize;
                    if rest.len() < len {
                        return Err(ProtoError::Truncated("RECV_FRAMES frame"));
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
                Ok(Reply::Info {
                    bar_size,
                    cycles,
                    clk_hz,
                })
            }
        }
    }
}

/// Write one frame (length prefix + body).
pub fn write_frame<W: Write>(w: &mut W, body: &[u8]) -> io::Result<()> {
    let len = u32::try_from(body.len()).map_err(|_| io::Error::other("frame too large"))?;
    w.write_all(&len.to_le_bytes())?;
    w.write_all(body)?;
    w.flush()
}

/// Read one frame. `Ok(None)` on a clean end of stream before a frame starts; an end of
/// stream inside a frame is `UnexpectedEof`; a frame over [`MAX_FRAME`] is `InvalidData`.
pub fn read_frame<R: Read>(r: &mut R) -> io::Result<Option<Vec<u8>>> {
    let mut len = [0u8; 4];
    let mut got = 0;
    while got < 4 {
        match r.read(&mut len[got..]) {
            Ok(0) if got == 0 => return Ok(None),
            Ok(0) => return Err(io::ErrorKind::UnexpectedEof.into()),
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    let len = u32::from_le_bytes(len) as usize;
    if len > MAX_FRAME {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            ProtoError::TooLarge(len),
        ));
    }
    let mut body = vec![0u8; len];
    r.read_exact(&mut body)?;
    Ok(Some(body))
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
            Err(ProtoError::Truncated(_))
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
            clk_hz: 156_250_000,
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
            Err(ProtoError::Truncated(_))
        ));
        let mut w = Request::Write {
            offset: 0,
            data: vec![1, 2],
        }
        .encode();
        w.pop();
        assert!(matches!(Request::decode(&w), Err(ProtoError::Truncated(_))));
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
}
