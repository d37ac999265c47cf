//! Flow hash and the open-addressed flow table used by the BENCH "flow setup" routine.
//!
//! The flow hash is MurmurHash3 (x86, 32-bit) with seed [`SEED`] over the 12-byte
//! little-endian serialisation of the 4-tuple:
//! `src_ip (u32 LE) | dst_ip (u32 LE) | src_port (u16 LE) | dst_port (u16 LE)`.
//! [`flow_hash`] is the word-wise form of exactly that; [`murmur3_32`] is the general byte-wise
//! form, kept so the host side can hash the same way and so the two can be checked against
//! each other and against the published test vectors.

/// Seed of the flow hash.
pub const SEED: u32 = 0;

/// Number of slots in the flow table (a power of two).
pub const TABLE_SLOTS: usize = 1024;

const C1: u32 = 0xcc9e_2d51;
const C2: u32 = 0x1b87_3593;

/// A TCP/IP 4-tuple (addresses and ports in host order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FourTuple {
    pub src_ip: u32,
    pub dst_ip: u32,
    pub src_port: u16,
    pub dst_port: u16,
}

#[inline(always)]
fn mix_block(h: u32, k: u32) -> u32 {
    let k = k.wrapping_mul(C1).rotate_left(15).wrapping_mul(C2);
    (h ^ k)
        .rotate_left(13)
        .wrapping_mul(5)
        .wrapping_add(0xe654_6b64)
}

#[inline(always)]
fn fmix32(mut h: u32) -> u32 {
    h ^= h >> 16;
    h = h.wrapping_mul(0x85eb_ca6b);
    h ^= h >> 13;
    h = h.wrapping_mul(0xc2b2_ae35);
    h ^ (h >> 16)
}

/// MurmurHash3 x86 32-bit of `data` with `seed`.
pub fn murmur3_32(data: &[u8], seed: u32) -> u32 {
    let mut h = seed;
    let mut blocks = data.chunks_exact(4);
    for b in &mut blocks {
        h = mix_block(h, u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
    }
    let tail = blocks.remainder();
    if !tail.is_empty() {
        let mut k = 0u32;
        for (i, &byte) in tail.iter().enumerate() {
            k |= u32::from(byte) << (8 * i);
        }
        h ^= k.wrapping_mul(C1).rotate_left(15).wrapping_mul(C2);
    }
    // Truncation is the algorithm's definition: the length enters modulo 2^32.
    h ^= data.len() as u32;
    fmix32(h)
}

/// The flow hash of a 4-tuple (see the module documentation for the definition).
#[inline]
pub fn flow_hash(t: &FourTuple) -> u32 {
    let mut h = SEED;
    h = mix_block(h, t.src_ip);
    h = mix_block(h, t.dst_ip);
    h = mix_block(h, u32::from(t.src_port) | (u32::from(t.dst_port) << 16));
    fmix32(h ^ 12)
}

/// Home slot of a hash in the flow table.
#[inline]
pub fn home_slot(hash: u32) -> usize {
    hash as usize & (TABLE_SLOTS - 1)
}

/// A 1024-slot open-addressed table of flow hashes with linear probing.
///
/// Occupancy is a bitmap, so clearing costs 32 word writes rather than 1024.
#[derive(Clone)]
pub struct FlowTable {
    used: [u32; TABLE_SLOTS / 32],
    keys: [u32; TABLE_SLOTS],
    len: usize,
}

impl Default for FlowTable {
    fn default() -> Self {
        Self::new()
    }
}

impl FlowTable {
    /// An empty table.
    pub const fn new() -> Self {
        Self {
            used: [0; TABLE_SLOTS / 32],
            keys: [0; TABLE_SLOTS],
            len: 0,
        }
    }

    /// Number of occupied slots.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when no slot is occupied.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Marks every slot free.
    pub fn clear(&mut self) {
        self.used = [0; TABLE_SLOTS / 32];
        self.len = 0;
    }

    /// True when `slot` is occupied (false for out-of-range slots).
    pub fn is_used(&self, slot: usize) -> bool {
        slot < TABLE_SLOTS && self.used[slot / 32] & (1 << (slot % 32)) != 0
    }

    /// Hash stored in `slot`, if occupied.
    pub fn key(&self, slot: usize) -> Option<u32> {
        self.is_used(slot).then(|| self.keys[slot])
    }

    /// Stores `hash` in the first free slot from its home slot on (linear probing, wrapping)
    /// and returns that slot, or `None` when the table is full.
    pub fn insert(&mut self, hash: u32) -> Option<usize> {
        if self.len == TABLE_SLOTS {
            return None;
        }
        let mut slot = home_slot(hash);
        while self.is_used(slot) {
            slot = (slot + 1) & (TABLE_SLOTS - 1);
        }
        self.used[slot / 32] |= 1 << (slot % 32);
        self.keys[slot] = hash;
        self.len += 1;
        Some(slot)
    }
}

/// Inserts between table clears in the flow-setup routine.
pub const BENCH_CLEAR_EVERY: u32 = 512;

/// The 4-tuple of iteration `i` of the flow-setup routine.
pub fn bench_tuple(i: u32) -> FourTuple {
    FourTuple {
        src_ip: 0x0A00_0000u32.wrapping_add(i),
        dst_ip: 0xC0A8_0001,
        // The mask keeps the sum below 2^16.
        src_port: (1024 + (i & 0x7FFF)) as u16,
        dst_port: 80,
    }
}

/// BENCH routine 1 ("flow setup"): the wrapping sum of the slots chosen for `iterations`
/// flows, clearing `table` every [`BENCH_CLEAR_EVERY`] inserts (and at the start).
pub fn bench_flow_setup(table: &mut FlowTable, iterations: u32) -> u32 {
    table.clear();
    let mut checksum = 0u32;
    for i in 0..iterations {
        if i != 0 && i % BENCH_CLEAR_EVERY == 0 {
            table.clear();
        }
        // The table holds at most BENCH_CLEAR_EVERY < TABLE_SLOTS entries, so it never fills.
        let slot = table.insert(flow_hash(&bench_tuple(i))).unwrap_or(0);
        checksum = checksum.wrapping_add(slot as u32);
    }
    checksum
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn murmur3_matches_published_vectors() {
        assert_eq!(murmur3_32(b"", 0), 0);
        assert_eq!(murmur3_32(b"", 1), 0x514E_28B7);
        assert_eq!(murmur3_32(b"", 0xFFFF_FFFF), 0x81F1_6F39);
        assert_eq!(murmur3_32(&[0, 0, 0, 0], 0), 0x2362_F9DE);
        assert_eq!(murmur3_32(b"aaaa", 0x9747_B28C), 0x5A97_808A);
        assert_eq!(murmur3_32(b"abc", 0), 0xB3DD_93FA);
        assert_eq!(murmur3_32(b"Hello, world!", 0x9747_B28C), 0x2488_4CBA);
        assert_eq!(
            murmur3_32(b"The quick brown fox jumps over the lazy dog", 0x9747_B28C),
            0x2FA8_26CD
        );
    }

    fn tuple_bytes(t: &FourTuple) -> [u8; 12] {
        let mut b = [0u8; 12];
        b[0..4].copy_from_slice(&t.src_ip.to_le_bytes());
        b[4..8].copy_from_slice(&t.dst_ip.to_le_bytes());
        b[8..10].copy_from_slice(&t.src_port.to_le_bytes());
        b[10..12].copy_from_slice(&t.dst_port.to_le_bytes());
        b
    }

    #[test]
    fn flow_hash_is_murmur3_of_the_serialised_tuple() {
        for i in [0u32, 1, 2, 511, 512, 0x7FFF, 0x8000, 123_456, u32::MAX] {
            let t = bench_tuple(i);
            assert_eq!(flow_hash(&t), murmur3_32(&tuple_bytes(&t), SEED), "i = {i}");
        }
    }

    #[test]
    fn flow_hash_depends_on_every_field() {
        let base = bench_tuple(7);
        let h = flow_hash(&base);
        assert_ne!(
            h,
            flow_hash(&FourTuple {
                src_ip: base.src_ip ^ 1,
                ..base
            })
        );
        assert_ne!(
            h,
            flow_hash(&FourTuple {
                dst_ip: base.dst_ip ^ 1,
                ..base
            })
        );
        assert_ne!(
            h,
            flow_hash(&FourTuple {
                src_port: base.src_port ^ 1,
                ..base
            })
        );
        assert_ne!(
            h,
            flow_hash(&FourTuple {
                dst_port: base.dst_port ^ 1,
                ..base
            })
        );
    }

    #[test]
    fn bench_tuple_follows_the_interface_definition() {
        let t = bench_tuple(0x8001);
        assert_eq!(t.src_ip, 0x0A00_8001);
        assert_eq!(t.dst_ip, 0xC0A8_0001);
        assert_eq!(t.src_port, 1025);
        assert_eq!(t.dst_port, 80);
    }

    #[test]
    fn linear_probing_takes_the_next_free_slot_and_wraps() {
        let mut t = FlowTable::new();
        assert_eq!(t.insert(5), Some(5));
        assert_eq!(t.insert(5 + 1024), Some(6));
        assert_eq!(t.insert(6), Some(7));
        assert_eq!(t.insert(1023), Some(1023));
        assert_eq!(t.insert(1023), Some(0));
        assert_eq!(t.key(6), Some(5 + 1024));
        assert_eq!(t.key(1), None);
        assert_eq!(t.len(), 5);
        t.clear();
        assert!(t.is_empty());
        assert_eq!(t.insert(5), Some(5));
    }

    #[test]
    fn full_table_refuses_inserts() {
        let mut t = FlowTable::new();
        for _ in 0..TABLE_SLOTS {
            assert!(t.insert(0).is_some());
        }
        assert_eq!(t.insert(0), None);
        assert!(!t.is_used(TABLE_SLOTS));
    }

    #[test]
    fn bench_zero_iterations_is_zero() {
        assert_eq!(bench_flow_setup(&mut FlowTable::new(), 0), 0);
    }
}
