//! Records, enumerations and constants the SpliceNIC gateware and software share.
//!
//! Everything in [`generated`] comes from `registers/records.toml` through `cargo xtask
//! regen` (which also writes the Verilog views and `docs/records.md`); the registers are in
//! `registers/splicenic.svd`. This file holds the bit helpers the generated code uses.
//!
//! A record of N bits is `ceil(N / 32)` little-endian 32-bit words: bit `32k + i` is bit `i`
//! of word `k`, the order in which the CSR windows, the punt ring and the event queue present
//! records. Each record has `pack` / `unpack` (whole words) and `pack_at` / `unpack_at` (at a
//! bit offset, for nested records).
#![no_std]

pub mod generated;
pub use generated::*;

impl Port {
    /// The other port.
    pub const fn other(self) -> Port {
        match self {
            Port::Client => Port::Server,
            Port::Server => Port::Client,
        }
    }

    /// The port of a 1-bit code (0 client, 1 server).
    pub const fn from_bit(b: bool) -> Port {
        if b {
            Port::Server
        } else {
            Port::Client
        }
    }
}

impl FlowHalf {
    /// The half of a 1-bit code (0 client, 1 server).
    pub const fn from_bit(b: bool) -> FlowHalf {
        if b {
            FlowHalf::Server
        } else {
            FlowHalf::Client
        }
    }
}

/// Position of a field: `width` bits from bit `lsb`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Field {
    pub lsb: usize,
    pub width: usize,
}

impl Field {
    /// A field of `width` (1..=64, or wider for a nested record) bits at `lsb`.
    pub const fn new(lsb: usize, width: usize) -> Field {
        Field { lsb, width }
    }

    /// The bits one past the field.
    pub const fn end(self) -> usize {
        self.lsb + self.width
    }

    /// Reads the field from a word vector (at most 64 bits).
    pub fn get(self, w: &[u32]) -> u64 {
        get_bits(w, self.lsb, self.width)
    }

    /// Writes the field into a word vector (at most 64 bits; `v` is cut to the width).
    pub fn put(self, w: &mut [u32], v: u64) {
        put_bits(w, self.lsb, self.width, v)
    }

    /// Reads the field from one 32-bit word (a field that lies in bits 31:0).
    pub const fn get32(self, w: u32) -> u32 {
        if self.width >= 32 {
            w >> self.lsb
        } else {
            (w >> self.lsb) & ((1u32 << self.width) - 1)
        }
    }

    /// `v` placed in the field of a 32-bit word (a field that lies in bits 31:0).
    pub const fn place32(self, v: u32) -> u32 {
        if self.width >= 32 {
            v << self.lsb
        } else {
            (v & ((1u32 << self.width) - 1)) << self.lsb
        }
    }
}

/// Bits `lsb..lsb + width` (width at most 64) of a little-endian word vector; bits past the
/// end of `w` read as 0. Inlined, so a call with constant `lsb` and `width` (a record's field)
/// becomes a few shifts and masks.
#[inline]
pub fn get_bits(w: &[u32], lsb: usize, width: usize) -> u64 {
    let width = width.min(64);
    let word = |k: usize| w.get(k).copied().unwrap_or(0);
    let (mut k, off) = (lsb / 32, lsb % 32);
    let mut v = u64::from(word(k) >> off);
    let mut got = 32 - off;
    while got < width {
        k += 1;
        v |= u64::from(word(k)) << got;
        got += 32;
    }
    if width < 64 {
        v & ((1u64 << width) - 1)
    } else {
        v
    }
}

/// Sets bits `lsb..lsb + width` of a little-endian word vector to `v` (cut to the width;
/// bits of a field wider than 64 above bit 63 are cleared); bits past the end of `w` are
/// dropped. Inlined like [`get_bits`].
#[inline]
pub fn put_bits(w: &mut [u32], lsb: usize, width: usize, v: u64) {
    let (mut k, mut off) = (lsb / 32, lsb % 32);
    let mut done = 0;
    while done < width {
        let n = (32 - off).min(width - done);
        let mask = (u32::MAX >> (32 - n)) << off;
        let bits = if done < 64 { (v >> done) as u32 } else { 0 };
        if let Some(x) = w.get_mut(k) {
            *x = (*x & !mask) | ((bits << off) & mask);
        }
        done += n;
        k += 1;
        off = 0;
    }
}

/// Bytes packed into little-endian words (byte `4k` in bits 7:0 of word `k`), the last word
/// zero padded: how rule patterns, request buffers and frames cross the CSR windows.
pub fn words_le(bytes: &[u8]) -> impl Iterator<Item = u32> + '_ {
    // Byte by byte (a variable-length copy into a word would be a memcpy call per word on
    // the soft core).
    bytes
        .chunks(4)
        .map(|c| c.iter().rev().fold(0, |w, &b| w << 8 | u32::from(b)))
}

/// [`words_le`] of `bytes`, each word given to `put`: when `bytes` starts on a 32-bit
/// boundary, its whole words are read as words (one load each on the soft core instead of
/// four loads and shifts); the tail, and every word of unaligned bytes, as [`words_le`].
pub fn for_each_word_le(bytes: &[u8], mut put: impl FnMut(u32)) {
    // SAFETY: every bit pattern is a valid `u32`; `align_to` only splits the slice at word
    // boundaries (its middle part is aligned by its contract).
    let (pre, words, post) = unsafe { bytes.align_to::<u32>() };
    if !pre.is_empty() {
        words_le(bytes).for_each(put);
        return;
    }
    for &w in words {
        put(u32::from_le(w));
    }
    words_le(post).for_each(put);
}

/// The inverse of [`for_each_word_le`]: fills `buf` from successive words of `get` (byte `4k`
/// from bits 7:0 of word `k`; the unused bytes of the last word dropped), whole words stored
/// as words when `buf` starts on a 32-bit boundary.
pub fn fill_from_words_le(buf: &mut [u8], mut get: impl FnMut() -> u32) {
    fn bytes_of(chunk: &mut [u8], w: u32) {
        for (k, b) in chunk.iter_mut().enumerate() {
            *b = (w >> (8 * k)) as u8;
        }
    }
    if buf.as_ptr().align_offset(4) != 0 {
        for chunk in buf.chunks_mut(4) {
            bytes_of(chunk, get());
        }
        return;
    }
    // SAFETY: every bit pattern is a valid `u32` and a valid `[u8; 4]`; `align_to_mut` only
    // splits the slice (`buf` is aligned, so its first part is empty).
    let (pre, words, post) = unsafe { buf.align_to_mut::<u32>() };
    debug_assert!(pre.is_empty());
    for w in words.iter_mut() {
        *w = get().to_le();
    }
    for chunk in post.chunks_mut(4) {
        bytes_of(chunk, get());
    }
}

/// A 48-bit MAC address as the card holds it (first byte on the wire in bits 47:40).
pub const fn mac_to_u64(mac: [u8; 6]) -> u64 {
    (mac[0] as u64) << 40
        | (mac[1] as u64) << 32
        | (mac[2] as u64) << 24
        | (mac[3] as u64) << 16
        | (mac[4] as u64) << 8
        | mac[5] as u64
}

/// The MAC address of a 48-bit value (bits 47:40 first).
pub const fn mac_from_u64(v: u64) -> [u8; 6] {
    [
        (v >> 40) as u8,
        (v >> 32) as u8,
        (v >> 24) as u8,
        (v >> 16) as u8,
        (v >> 8) as u8,
        v as u8,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// get_bits and put_bits against a bit-at-a-time model, every lsb and width over a
    /// 4-word vector (bits past the end included), pseudo-random values.
    #[test]
    fn bit_access_equals_a_bit_at_a_time_model() {
        let bit = |w: &[u32], i: usize| w.get(i / 32).map_or(0, |x| u64::from(x >> (i % 32) & 1));
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for lsb in 0..130 {
            for width in 0..=64 {
                let mut w = [next() as u32, next() as u32, next() as u32, next() as u32];
                let want = (0..width).fold(0u64, |v, i| v | bit(&w, lsb + i) << i);
                assert_eq!(
                    get_bits(&w, lsb, width),
                    want,
                    "get lsb {lsb} width {width}"
                );
                let before = w;
                let v = next();
                put_bits(&mut w, lsb, width, v);
                for i in 0..128 {
                    let expect = if i >= lsb && i < lsb + width {
                        v >> (i - lsb) & 1
                    } else {
                        bit(&before, i)
                    };
                    assert_eq!(bit(&w, i), expect, "put lsb {lsb} width {width} bit {i}");
                }
            }
        }
    }

    #[test]
    fn bits_across_words() {
        let mut w = [0u32; 3];
        put_bits(&mut w, 20, 48, 0xABCD_EF01_2345);
        assert_eq!(get_bits(&w, 20, 48), 0xABCD_EF01_2345);
        assert_eq!(w[0], 0x3450_0000);
        put_bits(&mut w, 20, 48, 0);
        assert_eq!(w, [0; 3]);
        // Past the end: dropped on write, zero on read.
        put_bits(&mut w, 90, 8, 0xFF);
        assert_eq!(w[2], 0xFC00_0000);
        assert_eq!(get_bits(&w, 90, 8), 0x3F);
    }

    #[test]
    fn bytes_and_macs() {
        let v: [u32; 2] = {
            let mut it = words_le(b"GET /");
            [it.next().unwrap_or(0), it.next().unwrap_or(0)]
        };
        assert_eq!(v, [u32::from_le_bytes(*b"GET "), u32::from(b'/')]);
        // Every length: whole words, then the zero-padded tail; nothing for no bytes.
        let bytes: [u8; 13] = core::array::from_fn(|i| i as u8 + 1);
        for n in 0..=bytes.len() {
            assert_eq!(words_le(&bytes[..n]).count(), n.div_ceil(4), "{n} bytes");
            for (k, w) in words_le(&bytes[..n]).enumerate() {
                let want = (0..4).fold(0u32, |acc, b| {
                    let i = 4 * k + b;
                    acc | u32::from(if i < n { bytes[i] } else { 0 }) << (8 * b)
                });
                assert_eq!(w, want, "{n} bytes, word {k}");
            }
        }
        // The word-at-a-time forms give the same words at every alignment and length.
        #[repr(C, align(4))]
        struct Buf([u8; 24]);
        let src = Buf(core::array::from_fn(|i| (i as u8).wrapping_mul(37) ^ 0x5a));
        for start in 0..4 {
            for n in 0..=src.0.len() - start {
                let bytes = &src.0[start..start + n];
                let mut got = [0u32; 6];
                let mut k = 0;
                for_each_word_le(bytes, |w| {
                    got[k] = w;
                    k += 1;
                });
                assert_eq!(k, n.div_ceil(4), "start {start}, {n} bytes");
                assert!(
                    words_le(bytes).eq(got[..k].iter().copied()),
                    "start {start}, {n} bytes"
                );
                let mut dst = Buf([0xee; 24]);
                let mut it = got[..k].iter().copied();
                fill_from_words_le(&mut dst.0[start..start + n], || it.next().unwrap());
                assert_eq!(it.next(), None, "every word taken");
                assert_eq!(&dst.0[start..start + n], bytes, "start {start}, {n} bytes");
                assert!(dst.0[..start]
                    .iter()
                    .chain(&dst.0[start + n..])
                    .all(|&b| b == 0xee));
            }
        }
        let mac = [0x02, 0x11, 0x22, 0x33, 0x44, 0x55];
        assert_eq!(mac_to_u64(mac), 0x0211_2233_4455);
        assert_eq!(mac_from_u64(mac_to_u64(mac)), mac);
    }

    #[test]
    fn records_round_trip_in_software() {
        let m = PuntMeta {
            port: port::SERVER,
            flow_state: FlowState::Spliced.raw(),
            flow_slot: 0x1234,
            time: 0xDEAD_BEEF,
            ..PuntMeta::default()
        };
        let w = m.pack();
        assert_eq!(w[0], 1 | 4 << 24);
        assert_eq!(w[1], 0x1234);
        assert_eq!(w[3], 0xDEAD_BEEF);
        assert_eq!(PuntMeta::unpack(&w), m);
        let mut f = FlowStatic {
            state: flow_state::SPLICED,
            ..FlowStatic::default()
        };
        f.server.local_port = 0xBEEF;
        f.client.peer_mac = 0x0211_2233_4455;
        let w = f.pack();
        assert_eq!(
            get_bits(
                &w,
                FlowStatic::SERVER.lsb + FlowHalfEntry::LOCAL_PORT.lsb,
                16
            ),
            0xBEEF
        );
        assert_eq!(FlowStatic::unpack(&w), f);
        assert_eq!(FlowState::from_raw(5), Some(FlowState::Closing));
        assert_eq!(FlowState::from_raw(9), None);
        assert_eq!(
            mailbox_cmd::name(mailbox_cmd::HEAD_STATS),
            Some("HEAD_STATS")
        );
        assert_eq!(
            stats::server_dir::index(3) + stats::server_dir::SC_BYTES,
            256 + 12 + 3
        );
    }
}
