//! Software reference models (not hardware): the Toeplitz hash of a flow key, a flow
//! table with the same bucket and way choice as `flow_table`, and a `flow_state_mem` entry
//! (its bit layout is the declared one: records FlowKey, FlowStatic, FlowDyn of
//! `splicenic-layout`). Written from the module header comments, independently of the RTL,
//! for the tests to compare against.

use splicenic_layout::{teardown, FlowDyn, FlowHalfEntry, FlowKey, FlowStatic, FLOW_HASH_KEY};
use std::collections::HashMap;

/// One half of a flow as the lookup key: the IPv4 4-tuple of a packet on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Key {
    pub src_ip: u32,
    pub dst_ip: u32,
    pub src_port: u16,
    pub dst_port: u16,
}

impl Key {
    pub fn new(src_ip: u32, dst_ip: u32, src_port: u16, dst_port: u16) -> Self {
        Key {
            src_ip,
            dst_ip,
            src_port,
            dst_port,
        }
    }

    /// The key as hashed: src ip, dst ip, src port, dst port, big-endian (12 bytes).
    pub fn bytes(&self) -> [u8; 12] {
        let mut b = [0u8; 12];
        b[0..4].copy_from_slice(&self.src_ip.to_be_bytes());
        b[4..8].copy_from_slice(&self.dst_ip.to_be_bytes());
        b[8..10].copy_from_slice(&self.src_port.to_be_bytes());
        b[10..12].copy_from_slice(&self.dst_port.to_be_bytes());
        b
    }

    /// The key port value (record FlowKey) as 32-bit words, least significant first.
    pub fn words(&self) -> [u32; FlowKey::WORDS] {
        FlowKey {
            dport: self.dst_port,
            sport: self.src_port,
            dst: self.dst_ip,
            src: self.src_ip,
        }
        .pack()
    }

    /// The reverse direction of the same connection.
    pub fn reversed(&self) -> Key {
        Key::new(self.dst_ip, self.src_ip, self.dst_port, self.src_port)
    }
}

/// Toeplitz hash of `input` with `flow_table`'s default key ([`FLOW_HASH_KEY`], the
/// widely published RSS verification key): for every set input bit i (most significant
/// bit of the first byte is bit 0) XOR the 32 key bits starting at key bit i.
pub fn toeplitz(input: &[u8]) -> u32 {
    let mut key = FLOW_HASH_KEY.iter().copied().chain(std::iter::repeat(0u8));
    let mut window = u32::from_be_bytes([
        key.next().unwrap_or(0),
        key.next().unwrap_or(0),
        key.next().unwrap_or(0),
        key.next().unwrap_or(0),
    ]);
    let mut result = 0u32;
    for &byte in input {
        let next = key.next().unwrap_or(0);
        for bit in 0..8 {
            if byte & (0x80 >> bit) != 0 {
                result ^= window;
            }
            window = (window << 1) | u32::from((next >> (7 - bit)) & 1);
        }
    }
    result
}

/// The flow table's hash of a key.
pub fn flow_hash(key: &Key) -> u32 {
    toeplitz(&key.bytes())
}

/// Bucket of a key in a table of `buckets` (power of two) buckets.
pub fn bucket_of(key: &Key, buckets: u32) -> u32 {
    flow_hash(key) & buckets.wrapping_sub(1)
}

/// Reference command status (same meaning as the RTL's).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RefStatus {
    Ok,
    Exists,
    BucketFull,
    NotFound,
}

/// Reference flow table: a HashMap for the contents plus the per-bucket way occupancy, with
/// the RTL's documented way choice (lowest free way).
#[derive(Debug, Clone)]
pub struct RefTable {
    pub buckets: u32,
    pub ways: usize,
    map: HashMap<Key, (u16, bool)>,
    slots: Vec<Vec<Option<Key>>>,
    pub stat_inserts: u32,
    pub stat_deletes: u32,
    pub stat_exists: u32,
    pub stat_bucket_full: u32,
    pub stat_not_found: u32,
}

impl RefTable {
    pub fn new(buckets: u32, ways: usize) -> Self {
        RefTable {
            buckets,
            ways,
            map: HashMap::new(),
            slots: vec![vec![None; ways]; buckets as usize],
            stat_inserts: 0,
            stat_deletes: 0,
            stat_exists: 0,
            stat_bucket_full: 0,
            stat_not_found: 0,
        }
    }

    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    pub fn get(&self, key: &Key) -> Option<(u16, bool)> {
        self.map.get(key).copied()
    }

    /// Insert: status and the way written (or the stored entry for EXISTS).
    pub fn insert(&mut self, key: Key, value: u16, dir: bool) -> (RefStatus, Option<usize>) {
        let b = bucket_of(&key, self.buckets) as usize;
        if self.map.contains_key(&key) {
            self.stat_exists += 1;
            let way = self.slots[b].iter().position(|s| *s == Some(key));
            return (RefStatus::Exists, way);
        }
        match self.slots[b].iter().position(Option::is_none) {
            Some(w) => {
                self.slots[b][w] = Some(key);
                self.map.insert(key, (value, dir));
                self.stat_inserts += 1;
                (RefStatus::Ok, Some(w))
            }
            None => {
                self.stat_bucket_full += 1;
                (RefStatus::BucketFull, None)
            }
        }
    }

    pub fn delete(&mut self, key: &Key) -> (RefStatus, Option<usize>) {
        let b = bucket_of(key, self.buckets) as usize;
        if self.map.remove(key).is_some() {
            let way = self.slots[b].iter().position(|s| *s == Some(*key));
            if let Some(w) = way {
                self.slots[b][w] = None;
            }
            self.stat_deletes += 1;
            (RefStatus::Ok, way)
        } else {
            self.stat_not_found += 1;
            (RefStatus::NotFound, None)
        }
    }

    pub fn clear(&mut self) {
        self.map.clear();
        for b in &mut self.slots {
            b.iter_mut().for_each(|s| *s = None);
        }
    }
}

/// One half of a spliced flow in a flow_state_mem entry (record FlowHalfEntry).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Half {
    /// 48-bit MAC address in the low bits.
    pub peer_mac: u64,
    pub peer_ip: u32,
    pub peer_port: u16,
    pub local_ip: u32,
    pub local_port: u16,
}

/// One flow_state_mem entry: static part (record FlowStatic, real-server index 0) and
/// dynamic part (record FlowDyn), docs/records.md.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FlowEntry {
    pub state: u8,
    /// `EntryFlags` masks (SACK, TIMESTAMPS, WINDOW_RESCALE steer the data path).
    pub flags: u8,
    pub ws_shift_diff: i8,
    pub ts_offset: u32,
    pub seq_delta_c2s: u32,
    pub seq_delta_s2c: u32,
    /// Firmware-owned word (`FlowStatic.fw_word`): stored, never read by the data path.
    pub fw_word: u32,
    /// The slot's generation (`FlowStatic.gen`): stored, carried into punts and events.
    pub gen: u8,
    pub client: Half,
    pub server: Half,
    pub last_seen: u32,
    pub pkts_c2s: u32,
    pub pkts_s2c: u32,
    /// 48-bit counters.
    pub bytes_c2s: u64,
    pub bytes_s2c: u64,
    /// FIN ends and teardown flags (`Teardown` masks).
    pub fin_end_c2s: u32,
    pub fin_end_s2c: u32,
    pub teardown: u8,
}

/// The byte counters wrap modulo their width.
const BYTES_MASK: u64 = (1 << FlowDyn::BYTES_CS.width) - 1;

impl Half {
    fn record(&self) -> FlowHalfEntry {
        FlowHalfEntry {
            peer_mac: self.peer_mac,
            peer_ip: self.peer_ip,
            peer_port: self.peer_port,
            local_ip: self.local_ip,
            local_port: self.local_port,
        }
    }

    fn from_record(h: &FlowHalfEntry) -> Half {
        Half {
            peer_mac: h.peer_mac,
            peer_ip: h.peer_ip,
            peer_port: h.peer_port,
            local_ip: h.local_ip,
            local_port: h.local_port,
        }
    }
}

impl FlowEntry {
    /// Static part as words, least significant first.
    pub fn static_words(&self) -> [u32; FlowStatic::WORDS] {
        FlowStatic {
            state: self.state,
            flags: self.flags,
            wscale_diff: self.ws_shift_diff as u8,
            real_server: 0,
            ts_offset: self.ts_offset,
            seq_delta_cs: self.seq_delta_c2s,
            seq_delta_sc: self.seq_delta_s2c,
            client: self.client.record(),
            server: self.server.record(),
            fw_word: self.fw_word,
            gen: self.gen,
        }
        .pack()
    }

    /// Dynamic part as words, least significant first.
    pub fn dyn_words(&self) -> [u32; FlowDyn::WORDS] {
        FlowDyn {
            last_seen: self.last_seen,
            packets_cs: self.pkts_c2s,
            packets_sc: self.pkts_s2c,
            bytes_cs: self.bytes_c2s & BYTES_MASK,
            bytes_sc: self.bytes_s2c & BYTES_MASK,
            fin_end_cs: self.fin_end_c2s,
            fin_end_sc: self.fin_end_s2c,
            teardown: self.teardown,
        }
        .pack()
    }

    pub fn from_words(st: &[u32; FlowStatic::WORDS], dy: &[u32; FlowDyn::WORDS]) -> FlowEntry {
        let s = FlowStatic::unpack(st);
        let d = FlowDyn::unpack(dy);
        FlowEntry {
            state: s.state,
            flags: s.flags,
            ws_shift_diff: s.wscale_diff as i8,
            ts_offset: s.ts_offset,
            seq_delta_c2s: s.seq_delta_cs,
            seq_delta_s2c: s.seq_delta_sc,
            fw_word: s.fw_word,
            gen: s.gen,
            client: Half::from_record(&s.client),
            server: Half::from_record(&s.server),
            last_seen: d.last_seen,
            pkts_c2s: d.packets_cs,
            pkts_s2c: d.packets_sc,
            bytes_c2s: d.bytes_cs,
            bytes_s2c: d.bytes_sc,
            fin_end_c2s: d.fin_end_cs,
            fin_end_s2c: d.fin_end_sc,
            teardown: d.teardown,
        }
    }

    /// The same entry with the dynamic part (counters, last-seen) zeroed.
    pub fn static_only(&self) -> FlowEntry {
        FlowEntry {
            last_seen: 0,
            pkts_c2s: 0,
            pkts_s2c: 0,
            bytes_c2s: 0,
            bytes_s2c: 0,
            fin_end_c2s: 0,
            fin_end_s2c: 0,
            teardown: 0,
            ..*self
        }
    }

    /// Apply one data-path update (reference of the RTL's read-modify-write): counters,
    /// last-seen and the teardown flags (docs/engine.md, "Teardown").
    pub fn apply(&mut self, u: &crate::Update) {
        let (dir, bytes, time) = (u.dir, u.bytes, u.time);
        let (fin_mine, fin_other, acked_other) = if dir {
            (teardown::FIN_SC, teardown::FIN_CS, teardown::ACKED_CS)
        } else {
            (teardown::FIN_CS, teardown::FIN_SC, teardown::ACKED_SC)
        };
        let other_end = if dir {
            self.fin_end_c2s
        } else {
            self.fin_end_s2c
        };
        // RFC 793 modular comparison: the ack is at or beyond the FIN's end
        let acked = u.ack
            && self.teardown & fin_other != 0
            && (u.ack_x.wrapping_sub(other_end) as i32) >= 0;
        if u.fin && self.teardown & fin_mine == 0 {
            if dir {
                self.fin_end_s2c = u.fin_end;
            } else {
                self.fin_end_c2s = u.fin_end;
            }
            self.teardown |= fin_mine;
        }
        if acked {
            self.teardown |= acked_other;
        }
        self.last_seen = time;
        if dir {
            self.pkts_s2c = self.pkts_s2c.wrapping_add(1);
            self.bytes_s2c = (self.bytes_s2c + u64::from(bytes)) & BYTES_MASK;
        } else {
            self.pkts_c2s = self.pkts_c2s.wrapping_add(1);
            self.bytes_c2s = (self.bytes_c2s + u64::from(bytes)) & BYTES_MASK;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(a: u8, b: u8, c: u8, d: u8) -> u32 {
        u32::from_be_bytes([a, b, c, d])
    }

    /// The published RSS verification vectors (IPv4 with TCP ports): source, destination,
    /// expected hash.
    #[test]
    fn toeplitz_matches_published_rss_vectors() {
        let cases = [
            (
                ip(66, 9, 149, 187),
                2794,
                ip(161, 142, 100, 80),
                1766,
                0x51cc_c178u32,
            ),
            (
                ip(199, 92, 111, 2),
                14230,
                ip(65, 69, 140, 83),
                4739,
                0xc626_b0ea,
            ),
            (
                ip(24, 19, 198, 95),
                12898,
                ip(12, 22, 207, 184),
                38024,
                0x5c2b_394a,
            ),
            (
                ip(38, 27, 205, 30),
                48228,
                ip(209, 142, 163, 6),
                2217,
                0xafc7_327f,
            ),
            (
                ip(153, 39, 163, 191),
                44251,
                ip(202, 188, 127, 2),
                1303,
                0x10e8_28a2,
            ),
        ];
        for (sip, sp, dip, dp, want) in cases {
            assert_eq!(flow_hash(&Key::new(sip, dip, sp, dp)), want);
        }
        // Addresses only (8 bytes).
        let b = Key::new(ip(66, 9, 149, 187), ip(161, 142, 100, 80), 0, 0).bytes();
        assert_eq!(toeplitz(&b[..8]), 0x323e_8fc2);
    }

    #[test]
    fn entry_layout_round_trips() {
        let e = FlowEntry {
            state: 0xa5,
            flags: 0x05,
            ws_shift_diff: -3,
            ts_offset: 0x1234_5678,
            seq_delta_c2s: 0xdead_beef,
            seq_delta_s2c: 0x0bad_f00d,
            fw_word: 0x5eed_0fad,
            gen: 0xc3,
            client: Half {
                peer_mac: 0x0200_0000_0001,
                peer_ip: 0x0a00_0001,
                peer_port: 40000,
                local_ip: 0xc0a8_0001,
                local_port: 80,
            },
            server: Half {
                peer_mac: 0x0200_0000_0002,
                peer_ip: 0x0a00_0102,
                peer_port: 8080,
                local_ip: 0x0a00_0101,
                local_port: 50000,
            },
            last_seen: 77,
            pkts_c2s: 5,
            pkts_s2c: 6,
            bytes_c2s: 0xffff_ffff_fff0,
            bytes_s2c: 9,
            fin_end_c2s: 0x0102_0304,
            fin_end_s2c: 0xfffe_fdfc,
            teardown: 0x0b,
        };
        let back = FlowEntry::from_words(&e.static_words(), &e.dyn_words());
        assert_eq!(back, e);
        // Field positions of the declared layout.
        let w = e.static_words();
        assert_eq!(FlowStatic::STATE.get(&w), 0xa5);
        assert_eq!(FlowStatic::FLAGS.get(&w), 0x05);
        assert_eq!(FlowStatic::WSCALE_DIFF.get(&w), 0xfd);
        assert_eq!(FlowStatic::REAL_SERVER.get(&w), 0);
        assert_eq!(FlowStatic::TS_OFFSET.get(&w), 0x1234_5678);
        assert_eq!(FlowStatic::SEQ_DELTA_CS.get(&w), 0xdead_beef);
        assert_eq!(FlowStatic::SEQ_DELTA_SC.get(&w), 0x0bad_f00d);
    }
}
