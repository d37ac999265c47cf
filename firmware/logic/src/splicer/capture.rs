//! Packet capture of punted frames into a DMEM ring the host reads through the BAR's DMEM
//! window (docs/flowmgr.md, "Packet capture").
//!
//! Records are appended at the write position and may wrap around the ring's end (the host
//! reads positions modulo the size). Each record is three header words and the frame bytes
//! padded to whole words:
//!
//! | word | bits | what |
//! |------|------|------|
//! | 0 | 15:0 | bytes stored (at most the snap length) |
//! | 0 | 30:16 | frame length as received |
//! | 0 | 31 | port: 0 client (C), 1 server (S) |
//! | 1, 2 | | the soft core's cycle counter when the frame was taken, lo, hi |
//! | 3.. | | the frame, little-endian byte order within a word, zero padded |
//!
//! Positions are byte counts since boot (wrapping `u32`). A record is written whole, then
//! the write position moves past it; before that, the oldest records that the new one will
//! overwrite are dropped from the ring (the *tail* moves past them, counted as
//! overwritten). Records between the tail and the write position are intact whenever the
//! firmware answers the mailbox (it never does so half-way through a record), which is what
//! the host's reader relies on.

use super::Port;

/// Size of the capture ring in bytes (a power of two).
pub const CAPTURE_BYTES: usize = 32 * 1024;
/// Words of the capture ring.
pub const CAPTURE_WORDS: usize = CAPTURE_BYTES / 4;
/// The capture ring's memory (the firmware places it in `.uninit`).
pub type CaptureBuf = [u32; CAPTURE_WORDS];
/// Header bytes of a record.
pub const RECORD_HEADER: usize = 12;
/// Largest frame stored (the flow manager's frame buffer).
pub const MAX_CAPTURE_FRAME: usize = super::MAX_FRAME;
/// Largest record.
pub const MAX_RECORD: usize = RECORD_HEADER + MAX_CAPTURE_FRAME;

const _: () = assert!(CAPTURE_BYTES.is_power_of_two() && CAPTURE_BYTES >= 2 * MAX_RECORD);

/// Bytes a record with `stored` frame bytes takes in the ring.
pub const fn record_len(stored: usize) -> usize {
    RECORD_HEADER + stored.div_ceil(4) * 4
}

/// Header word 0 of a record.
pub const fn header_word(stored: usize, frame_len: usize, port: Port) -> u32 {
    let port_bit = match port {
        Port::Client => 0,
        Port::Server => 1u32 << 31,
    };
    (stored as u32 & 0xffff) | (frame_len as u32 & 0x7fff) << 16 | port_bit
}

/// What CAPTURE_INFO reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CaptureInfo {
    /// Punted frames are being captured.
    pub enabled: bool,
    /// Core address of the ring (in DMEM).
    pub addr: u32,
    /// Ring size in bytes.
    pub size: u32,
    /// Write position: bytes written since boot (wrapping).
    pub wpos: u32,
    /// Position of the oldest record still whole in the ring.
    pub tail: u32,
    /// Records written since boot (wrapping).
    pub captured: u32,
    /// Records dropped from the ring to make room (wrapping): the number of the record at
    /// `tail`.
    pub overwritten: u32,
    /// Bytes stored per frame at most (0 = whole frames).
    pub snaplen: u32,
    /// Soft-core cycles spent copying frames into the ring.
    pub cycles: u64,
}

/// The capture ring and its state.
pub struct CaptureRing<'a> {
    ring: &'a mut CaptureBuf,
    addr: u32,
    enabled: bool,
    snaplen: u32,
    wpos: u32,
    tail: u32,
    captured: u32,
    overwritten: u32,
    cycles: u64,
}

impl<'a> CaptureRing<'a> {
    /// A disabled, empty capture over `ring`, which the host sees at core address `addr`.
    pub fn new(ring: &'a mut CaptureBuf, addr: u32) -> Self {
        Self {
            ring,
            addr,
            enabled: false,
            snaplen: 0,
            wpos: 0,
            tail: 0,
            captured: 0,
            overwritten: 0,
            cycles: 0,
        }
    }

    /// Frames are being captured.
    pub fn enabled(&self) -> bool {
        self.enabled
    }

    /// Turns the capture on or off; `snaplen` bytes at most per frame (0 = whole frames).
    /// Positions and counters carry on (a reader keeps its place across off and on).
    pub fn set(&mut self, enabled: bool, snaplen: u32) {
        self.enabled = enabled;
        self.snaplen = snaplen;
    }

    /// The state CAPTURE_INFO reports.
    pub fn info(&self) -> CaptureInfo {
        CaptureInfo {
            enabled: self.enabled,
            addr: self.addr,
            size: CAPTURE_BYTES as u32,
            wpos: self.wpos,
            tail: self.tail,
            captured: self.captured,
            overwritten: self.overwritten,
            snaplen: self.snaplen,
            cycles: self.cycles,
        }
    }

    /// Adds `cycles` to the copy-cost counter.
    pub fn account(&mut self, cycles: u64) {
        self.cycles = self.cycles.wrapping_add(cycles);
    }

    fn word_at(&self, pos: u32) -> u32 {
        self.ring[(pos as usize / 4) & (CAPTURE_WORDS - 1)]
    }

    fn put(&mut self, pos: u32, w: u32) {
        self.ring[(pos as usize / 4) & (CAPTURE_WORDS - 1)] = w;
    }

    /// Appends frame `frame` (as received; `frame_len` is its length on the wire) from
    /// `port`, taken at cycle `stamp`. Bounded: drops at most one old record per 12 bytes
    /// of the new one, copies at most [`MAX_RECORD`] bytes.
    pub fn push(&mut self, port: Port, frame: &[u8], frame_len: usize, stamp: u64) {
        let mut stored = frame.len().min(MAX_CAPTURE_FRAME);
        if self.snaplen != 0 {
            stored = stored.min(self.snaplen as usize);
        }
        let len = record_len(stored) as u32;
        // Make room: drop whole records from the tail.
        while self.wpos.wrapping_add(len).wrapping_sub(self.tail) > CAPTURE_BYTES as u32 {
            let h = self.word_at(self.tail);
            self.tail = self
                .tail
                .wrapping_add(record_len((h & 0xffff) as usize) as u32);
            self.overwritten = self.overwritten.wrapping_add(1);
        }
        let at = self.wpos;
        self.put(at, header_word(stored, frame_len, port));
        self.put(at.wrapping_add(4), stamp as u32);
        self.put(at.wrapping_add(8), (stamp >> 32) as u32);
        // Word by word with a masked index: no division, no copy call per word (this loop is
        // the capture's cost per frame).
        let mut i = (at as usize / 4 + RECORD_HEADER / 4) & (CAPTURE_WORDS - 1);
        let words = frame[..stored].chunks_exact(4);
        let rest = words.remainder();
        for c in words {
            self.ring[i] = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
            i = (i + 1) & (CAPTURE_WORDS - 1);
        }
        if !rest.is_empty() {
            let mut b = [0u8; 4];
            for (d, s) in b.iter_mut().zip(rest) {
                *d = *s;
            }
            self.ring[i] = u32::from_le_bytes(b);
        }
        self.wpos = at.wrapping_add(len);
        self.captured = self.captured.wrapping_add(1);
    }

    /// The ring's words (for tests and host-side models).
    pub fn words(&self) -> &CaptureBuf {
        self.ring
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::boxed::Box;
    use std::vec::Vec;

    /// A reader as the host runs it: records from `pos` up to the write position, after
    /// checking against the tail.
    fn read_from(ring: &CaptureRing, mut pos: u32) -> Vec<(u32, Port, Vec<u8>)> {
        let info = ring.info();
        assert!(
            pos.wrapping_sub(info.tail) as i32 >= 0,
            "reader behind the tail"
        );
        let mut out = Vec::new();
        while pos != info.wpos {
            let h = ring.word_at(pos);
            let stored = (h & 0xffff) as usize;
            let port = if h >> 31 == 1 {
                Port::Server
            } else {
                Port::Client
            };
            let mut bytes = Vec::new();
            for i in 0..stored.div_ceil(4) {
                let w = ring.word_at(pos.wrapping_add(12 + 4 * i as u32));
                bytes.extend_from_slice(&w.to_le_bytes());
            }
            bytes.truncate(stored);
            out.push((ring.word_at(pos.wrapping_add(4)), port, bytes));
            pos = pos.wrapping_add(record_len(stored) as u32);
        }
        out
    }

    fn frame(n: usize, seed: u8) -> Vec<u8> {
        (0..n).map(|i| (i as u8).wrapping_mul(7) ^ seed).collect()
    }

    #[test]
    fn records_round_trip_across_the_ring_end() {
        let mut buf = Box::new([0u32; CAPTURE_WORDS]);
        let mut ring = CaptureRing::new(&mut buf, splicenic_layout::DMEM_BASE + 0x8000);
        ring.set(true, 0);
        let mut sent = Vec::new();
        for i in 0..200u32 {
            let f = frame(60 + (i as usize * 37) % 1500, i as u8);
            let port = if i % 3 == 0 {
                Port::Server
            } else {
                Port::Client
            };
            ring.push(port, &f, f.len(), u64::from(i) << 32 | u64::from(i));
            sent.push((i, port, f));
        }
        let info = ring.info();
        assert_eq!(info.captured, 200);
        assert!(info.overwritten > 0, "the ring wrapped");
        assert!(info.wpos.wrapping_sub(info.tail) <= CAPTURE_BYTES as u32);
        let got = read_from(&ring, info.tail);
        assert_eq!(got.len() as u32, info.captured - info.overwritten);
        let expect = &sent[info.overwritten as usize..];
        for (g, e) in got.iter().zip(expect) {
            assert_eq!(g.0, e.0, "timestamp lo");
            assert_eq!(g.1, e.1);
            assert_eq!(g.2, e.2);
        }
    }

    #[test]
    fn snap_length_cuts_frames_and_keeps_the_wire_length() {
        let mut buf = Box::new([0u32; CAPTURE_WORDS]);
        let mut ring = CaptureRing::new(&mut buf, 0);
        ring.set(true, 10);
        let f = frame(100, 1);
        ring.push(Port::Client, &f, 100, 5);
        let h = ring.words()[0];
        assert_eq!(h & 0xffff, 10);
        assert_eq!(h >> 16 & 0x7fff, 100);
        assert_eq!(h >> 31, 0);
        assert_eq!(ring.info().wpos, record_len(10) as u32);
        assert_eq!(read_from(&ring, 0)[0].2, f[..10].to_vec());
    }

    #[test]
    fn positions_wrap_at_2_32() {
        let mut buf = Box::new([0u32; CAPTURE_WORDS]);
        let mut ring = CaptureRing::new(&mut buf, 0);
        ring.wpos = u32::MAX - 4095;
        ring.tail = ring.wpos;
        ring.set(true, 0);
        for i in 0..100 {
            let f = frame(1000, i);
            ring.push(Port::Server, &f, f.len(), 0);
        }
        let info = ring.info();
        assert!(info.wpos < 1 << 20, "wrapped");
        let got = read_from(&ring, info.tail);
        assert_eq!(got.len() as u32, info.captured - info.overwritten);
        assert_eq!(got.last().unwrap().2, frame(1000, 99));
    }

    #[test]
    fn largest_frames_fill_the_ring_without_overlap() {
        let mut buf = Box::new([0u32; CAPTURE_WORDS]);
        let mut ring = CaptureRing::new(&mut buf, 0);
        ring.set(true, 0);
        for i in 0..40 {
            let f = frame(MAX_CAPTURE_FRAME + 100, i);
            ring.push(Port::Client, &f, f.len(), 0);
            let info = ring.info();
            assert!(info.wpos.wrapping_sub(info.tail) <= CAPTURE_BYTES as u32);
        }
        let got = read_from(&ring, ring.info().tail);
        assert_eq!(got.len(), CAPTURE_BYTES / MAX_RECORD);
        assert!(got.iter().all(|g| g.2.len() == MAX_CAPTURE_FRAME));
    }
}
