//! SOFTWARE REFERENCE MODEL of the splice rewrite, written independently of the gateware
//! from the rules in `splice_rewriter.v`'s header: it edits the frame's bytes field by field
//! and then RECOMPUTES the IPv4 header checksum and the TCP checksum in full (RFC 1071 sum
//! over the header, pseudo-header and payload), where the gateware updates them
//! incrementally. Tests compare the gateware's output with this model byte for byte.

use crate::{Desc, F_ACK, F_IP, F_MAC, F_PORT, F_SACK, F_SEQ, F_TS, F_WSCALE};

/// What the option walk found.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct OptionScan {
    /// Offsets (in the TCP header) of each SACK block edge to translate.
    pub sack_edges: Vec<usize>,
    /// Offsets of TSval fields.
    pub tsval: Vec<usize>,
    /// Offsets of TSecr fields.
    pub tsecr: Vec<usize>,
    /// The list ended on a malformed option.
    pub malformed: bool,
}

/// Walk the TCP options `opts` (the bytes after the fixed 20-byte header, up to the data
/// offset); offsets in the result are relative to the TCP header start.
pub fn scan_options(opts: &[u8]) -> OptionScan {
    let mut r = OptionScan::default();
    let mut i = 0usize;
    while i < opts.len() {
        match opts[i] {
            0 => break,
            1 => i += 1,
            kind => {
                let len = opts.get(i + 1).copied().unwrap_or(0) as usize;
                if len < 2 || i + len > opts.len() {
                    r.malformed = true;
                    break;
                }
                if kind == 5 && matches!(len, 10 | 18 | 26 | 34) {
                    for e in 0..(len - 2) / 4 {
                        r.sack_edges.push(20 + i + 2 + 4 * e);
                    }
                }
                if kind == 8 && len == 10 {
                    r.tsval.push(20 + i + 2);
                    r.tsecr.push(20 + i + 6);
                }
                i += len;
            }
        }
    }
    r
}

fn get32(b: &[u8], o: usize) -> u32 {
    u32::from_be_bytes([b[o], b[o + 1], b[o + 2], b[o + 3]])
}

fn add32(b: &mut [u8], o: usize, d: u32) {
    let v = get32(b, o).wrapping_add(d);
    b[o..o + 4].copy_from_slice(&v.to_be_bytes());
}

/// RFC 1071 one's-complement sum of `data` (odd length padded with a zero byte), folded.
pub fn ones_sum(data: &[u8], mut acc: u32) -> u16 {
    for c in data.chunks(2) {
        let w = if c.len() == 2 {
            u16::from_be_bytes([c[0], c[1]])
        } else {
            u16::from_be_bytes([c[0], 0])
        };
        acc += u32::from(w);
        acc = (acc & 0xffff) + (acc >> 16);
    }
    while acc > 0xffff {
        acc = (acc & 0xffff) + (acc >> 16);
    }
    acc as u16
}

/// Whether the gateware should rewrite this frame (else it passes it unchanged).
pub fn usable(frame: &[u8], d: &Desc) -> bool {
    let end = usize::from(d.l3_offset) + 4 * usize::from(d.ihl) + 4 * usize::from(d.doff);
    (d.l3_offset == 14 || d.l3_offset == 18) && d.ihl >= 5 && d.doff >= 5 && end <= frame.len()
}

/// The rewritten frame. `frame` must carry consistent IPv4/TCP headers at the offsets the
/// descriptor gives (the checksums are recomputed from the IPv4 total length).
pub fn rewrite(frame: &[u8], d: &Desc) -> Vec<u8> {
    let mut f = frame.to_vec();
    if !usable(frame, d) {
        return f;
    }
    let l3 = usize::from(d.l3_offset);
    let ihl = 4 * usize::from(d.ihl);
    let l4 = l3 + ihl;
    let thl = 4 * usize::from(d.doff);
    if d.flags & F_MAC != 0 {
        f[0..6].copy_from_slice(&d.eth_dst);
        f[6..12].copy_from_slice(&d.eth_src);
    }
    if d.flags & F_IP != 0 {
        f[l3 + 12..l3 + 16].copy_from_slice(&d.ip_src.to_be_bytes());
        f[l3 + 16..l3 + 20].copy_from_slice(&d.ip_dst.to_be_bytes());
    }
    let t = &mut f[l4..l4 + thl];
    let ack_flag = t[13] & 0x10 != 0;
    let syn_flag = t[13] & 0x02 != 0;
    if d.flags & F_PORT != 0 {
        t[0..2].copy_from_slice(&d.sport.to_be_bytes());
        t[2..4].copy_from_slice(&d.dport.to_be_bytes());
    }
    if d.flags & F_SEQ != 0 {
        add32(t, 4, d.seq_delta);
    }
    if d.flags & F_ACK != 0 && ack_flag {
        add32(t, 8, d.ack_delta);
    }
    if d.flags & F_WSCALE != 0 && !syn_flag {
        let w = u32::from(u16::from_be_bytes([t[14], t[15]]));
        let s = d.wscale_shift;
        let nw = if s >= 0 {
            (w << s.min(16)).min(0xffff)
        } else {
            w >> (-i32::from(s)).min(16)
        };
        t[14..16].copy_from_slice(&(nw as u16).to_be_bytes());
    }
    let scan = scan_options(&t[20..]);
    if d.flags & F_SACK != 0 {
        for &o in &scan.sack_edges {
            add32(t, o, d.ack_delta);
        }
    }
    if d.flags & F_TS != 0 {
        for &o in &scan.tsval {
            add32(t, o, d.tsval_delta);
        }
        if ack_flag {
            for &o in &scan.tsecr {
                add32(t, o, d.tsecr_delta);
            }
        }
    }
    // full recompute of both checksums
    f[l3 + 10..l3 + 12].copy_from_slice(&[0, 0]);
    let ipc = !ones_sum(&f[l3..l3 + ihl], 0);
    f[l3 + 10..l3 + 12].copy_from_slice(&ipc.to_be_bytes());
    let total = usize::from(u16::from_be_bytes([f[l3 + 2], f[l3 + 3]]));
    let seg_end = (l3 + total).min(f.len());
    let seg_len = seg_end.saturating_sub(l4);
    f[l4 + 16..l4 + 18].copy_from_slice(&[0, 0]);
    let mut pseudo = [0u8; 12];
    pseudo[0..8].copy_from_slice(&f[l3 + 12..l3 + 20]);
    pseudo[9] = 6;
    pseudo[10..12].copy_from_slice(&(seg_len as u16).to_be_bytes());
    let ps = u32::from(ones_sum(&pseudo, 0));
    let tc = !ones_sum(&f[l4..seg_end], ps);
    f[l4 + 16..l4 + 18].copy_from_slice(&tc.to_be_bytes());
    f
}
