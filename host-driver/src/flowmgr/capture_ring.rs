//! Control plane: the packet capture ring (CAPTURE_*).

use super::*;

/// CAPTURE_INFO.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CaptureInfo {
    /// Punted frames are being copied into the ring.
    pub enabled: bool,
    /// Core address of the ring (in DMEM).
    pub addr: u32,
    /// Ring size in bytes.
    pub size: u32,
    /// Write position: bytes written since the firmware started (wrapping).
    pub write_pos: u32,
    /// Position of the oldest record still whole in the ring.
    pub tail: u32,
    /// Frames captured since the firmware started (wrapping).
    pub captured: u32,
    /// Frames overwritten in the ring (wrapping): the number of the record at `tail`.
    pub overwritten: u32,
    /// Bytes stored per frame at most (0 = whole frames).
    pub snaplen: u32,
    /// Soft-core cycles spent copying frames (the capture's cost).
    pub copy_cycles: u64,
}

impl CaptureInfo {
    /// Decodes the 10 CAPTURE_INFO words.
    pub fn from_words(w: &[u32]) -> Option<Self> {
        let w = w.get(..CAPTURE_INFO_WORDS)?;
        Some(Self {
            enabled: w[0] & 1 != 0,
            addr: w[1],
            size: w[2],
            write_pos: w[3],
            tail: w[4],
            captured: w[5],
            overwritten: w[6],
            snaplen: w[7],
            copy_cycles: u64::from(w[9]) << 32 | u64::from(w[8]),
        })
    }

    /// Mean soft-core cycles per captured frame (`None` before the first one).
    pub fn cycles_per_frame(&self) -> Option<f64> {
        (self.captured != 0).then(|| self.copy_cycles as f64 / f64::from(self.captured))
    }
}

/// A punted frame the firmware captured.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CapturedFrame {
    /// The port it arrived on.
    pub port: Port,
    /// The soft core's cycle counter when the firmware took the frame from the punt ring.
    pub timestamp_cycles: u64,
    /// Length of the frame as received.
    pub wire_len: usize,
    /// The frame as received (Ethernet header first), cut at the snap length.
    pub data: Vec<u8>,
}

/// Read position of a capture reader ([`FlowManager::capture_reader`], [`FlowManager::capture_read`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CaptureCursor {
    /// Next byte position to read.
    pub pos: u32,
    /// Number of the next record (counts captured records, wrapping).
    pub record: u32,
    /// Frames the reader lost because the firmware overwrote them before they were read.
    pub lost: u64,
}

/// `a` is before `b` in wrapping position order.
pub(super) fn before(a: u32, b: u32) -> bool {
    (b.wrapping_sub(a) as i32) > 0
}

/// Parses the records in `bytes` (ring contents from position `from`; the first record
/// starts at `start`, `start - from` bytes in) up to position `end`. Returns the frames and
/// the position after the last whole record, or `None` if a header does not fit (the ring
/// changed under the reader).
pub(super) fn parse_records(
    bytes: &[u8],
    from: u32,
    start: u32,
    end: u32,
) -> Option<(Vec<CapturedFrame>, u32)> {
    let mut frames = Vec::new();
    let mut pos = start;
    let word = |at: usize| -> Option<u32> {
        Some(u32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
    };
    while pos != end {
        let at = pos.wrapping_sub(from) as usize;
        let h = word(at)?;
        let stored = (h & 0xFFFF) as usize;
        let len = capture::record_len(stored);
        if len > end.wrapping_sub(pos) as usize {
            return None;
        }
        let stamp = u64::from(word(at + 8)?) << 32 | u64::from(word(at + 4)?);
        let data_at = at + capture::RECORD_HEADER;
        frames.push(CapturedFrame {
            port: if h >> 31 != 0 {
                Port::Server
            } else {
                Port::Client
            },
            timestamp_cycles: stamp,
            wire_len: (h >> 16 & 0x7FFF) as usize,
            data: bytes.get(data_at..data_at + stored)?.to_vec(),
        });
        pos = pos.wrapping_add(len as u32);
    }
    Some((frames, pos))
}
