//! The reference model of the request-head buffer (pure logic, no RTL): what `head_buf`
//! stores, answers and replays, written from its specification (docs/head-buf.md).

use std::collections::VecDeque;

/// What one appended segment did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SegResult {
    pub buf: usize,
    /// Stored length after the segment.
    pub len: usize,
    /// Bytes it added.
    pub added: usize,
    /// It started past the stored length: nothing stored.
    pub hole: bool,
    /// Some of its bytes lay past the end of the buffer.
    pub cut: bool,
    /// The buffer was not in use.
    pub bad: bool,
}

/// The buffers, their free list (first in, first out) and their contents.
#[derive(Debug, Clone)]
pub struct HeadModel {
    cap: usize,
    data: Vec<Vec<u8>>,
    used: Vec<bool>,
    free: VecDeque<usize>,
}

/// The ones'-complement sum of `bytes` as big-endian 16-bit words (an odd last byte is the
/// high byte of a word), folded to 16 bits: 0 only for no or all-zero bytes.
pub fn ones_sum(bytes: &[u8]) -> u16 {
    let mut s: u64 = 0;
    for (i, &b) in bytes.iter().enumerate() {
        s += if i % 2 == 0 {
            u64::from(b) << 8
        } else {
            u64::from(b)
        };
    }
    while s > 0xffff {
        s = (s & 0xffff) + (s >> 16);
    }
    s as u16
}

impl HeadModel {
    /// `n` empty buffers of `cap` bytes, all free (in order 0..n).
    pub fn new(n: usize, cap: usize) -> Self {
        HeadModel {
            cap,
            data: vec![Vec::new(); n],
            used: vec![false; n],
            free: (0..n).collect(),
        }
    }

    /// Takes a buffer (empty), or none when all are in use.
    pub fn alloc(&mut self) -> Option<usize> {
        let id = self.free.pop_front()?;
        self.used[id] = true;
        self.data[id].clear();
        Some(id)
    }

    /// Gives a buffer back; false (refused) when it is not in use.
    pub fn free(&mut self, id: usize) -> bool {
        if !self.used[id] {
            return false;
        }
        self.used[id] = false;
        self.free.push_back(id);
        true
    }

    /// Buffers in use.
    pub fn in_use(&self) -> usize {
        self.used.iter().filter(|&&u| u).count()
    }

    /// Appends the segment `payload` at position `off` of buffer `id`'s head.
    pub fn append(&mut self, id: usize, off: usize, payload: &[u8]) -> SegResult {
        let mut r = SegResult {
            buf: id,
            ..SegResult::default()
        };
        if !self.used[id] {
            r.bad = true;
            return r;
        }
        let stored = self.data[id].len();
        r.len = stored;
        let end = off + payload.len();
        if off > stored {
            r.hole = true;
            return r;
        }
        r.cut = end > self.cap;
        let hi = end.min(self.cap);
        if hi > stored {
            self.data[id].extend_from_slice(&payload[stored - off..hi - off]);
            r.added = hi - stored;
            r.len = hi;
        }
        r
    }

    /// Buffer `id`'s stored head.
    pub fn head(&self, id: usize) -> &[u8] {
        &self.data[id]
    }
}
