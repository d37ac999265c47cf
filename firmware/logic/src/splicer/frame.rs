//! Ethernet / ARP / IPv4 / TCP frames as the flow manager reads and writes them.
//!
//! [`parse`] checks a punted frame far enough for the flow manager (the data path's parser has
//! already checked lengths and the IP header checksum); [`TcpOut`] builds the segments the
//! card sends itself. Built frames leave the TCP and IP checksums at 0: the inject ring fills
//! them in (checksum offload), so [`TcpOut::write`] returns the offsets the offload needs.

use crate::flowmgr::tcpopts::{self, Timestamps};

/// Ethernet header length (no VLAN tag: the card sends untagged frames).
pub const ETH_LEN: usize = 14;
/// IPv4 header length without options.
pub const IP_LEN: usize = 20;
/// TCP header length without options.
pub const TCP_LEN: usize = 20;
/// EtherType IPv4.
pub const ETHERTYPE_IPV4: u16 = 0x0800;
/// EtherType ARP.
pub const ETHERTYPE_ARP: u16 = 0x0806;
/// EtherType 802.1Q VLAN tag.
pub const ETHERTYPE_VLAN: u16 = 0x8100;

/// TCP flag bits.
pub mod tcp_flags {
    pub const FIN: u8 = 0x01;
    pub const SYN: u8 = 0x02;
    pub const RST: u8 = 0x04;
    pub const PSH: u8 = 0x08;
    pub const ACK: u8 = 0x10;
}

/// A TCP segment as received.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TcpSeg {
    pub src_mac: [u8; 6],
    pub dst_mac: [u8; 6],
    pub src_ip: u32,
    pub dst_ip: u32,
    pub src_port: u16,
    pub dst_port: u16,
    pub seq: u32,
    pub ack: u32,
    pub flags: u8,
    pub window: u16,
    /// Byte range of the TCP options in the frame.
    pub opts: (usize, usize),
    /// Byte range of the TCP payload in the frame.
    pub payload: (usize, usize),
}

impl TcpSeg {
    /// Payload length.
    pub const fn payload_len(&self) -> usize {
        self.payload.1 - self.payload.0
    }

    /// True when every flag of `f` is set.
    pub const fn has(&self, f: u8) -> bool {
        self.flags & f == f
    }
}

/// An ARP request or reply (Ethernet, IPv4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arp {
    /// 1 request, 2 reply.
    pub op: u16,
    pub sender_mac: [u8; 6],
    pub sender_ip: u32,
    pub target_ip: u32,
}

/// What a punted frame is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Parsed {
    Tcp(TcpSeg),
    Arp(Arp),
    /// Anything else, or a frame too short or inconsistent for its headers.
    Other,
}

fn be16(b: &[u8], at: usize) -> u16 {
    u16::from_be_bytes([b[at], b[at + 1]])
}

fn be32(b: &[u8], at: usize) -> u32 {
    u32::from_be_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

fn mac_at(b: &[u8], at: usize) -> [u8; 6] {
    let mut m = [0u8; 6];
    m.copy_from_slice(&b[at..at + 6]);
    m
}

/// Parses a frame (one 802.1Q tag allowed). Never panics: every length is checked.
pub fn parse(f: &[u8]) -> Parsed {
    if f.len() < ETH_LEN {
        return Parsed::Other;
    }
    let mut l3 = ETH_LEN;
    let mut ethertype = be16(f, 12);
    if ethertype == ETHERTYPE_VLAN {
        if f.len() < ETH_LEN + 4 {
            return Parsed::Other;
        }
        ethertype = be16(f, 16);
        l3 += 4;
    }
    match ethertype {
        ETHERTYPE_ARP => parse_arp(f, l3),
        ETHERTYPE_IPV4 => parse_ipv4_tcp(f, l3),
        _ => Parsed::Other,
    }
}

fn parse_arp(f: &[u8], l3: usize) -> Parsed {
    if f.len() < l3 + 28 {
        return Parsed::Other;
    }
    let a = &f[l3..];
    // Ethernet hardware, IPv4 protocol, 6- and 4-byte addresses.
    if be16(a, 0) != 1 || be16(a, 2) != ETHERTYPE_IPV4 || a[4] != 6 || a[5] != 4 {
        return Parsed::Other;
    }
    Parsed::Arp(Arp {
        op: be16(a, 6),
        sender_mac: mac_at(a, 8),
        sender_ip: be32(a, 14),
        target_ip: be32(a, 24),
    })
}

fn parse_ipv4_tcp(f: &[u8], l3: usize) -> Parsed {
    if f.len() < l3 + IP_LEN {
        return Parsed::Other;
    }
    let ip = &f[l3..];
    let ihl = usize::from(ip[0] & 0x0f) * 4;
    let total = usize::from(be16(ip, 2));
    // Version 4, protocol TCP, not a fragment (MF or offset set).
    if ip[0] >> 4 != 4 || ip[9] != 6 || be16(ip, 6) & 0x3fff != 0 {
        return Parsed::Other;
    }
    if ihl < IP_LEN || total < ihl + TCP_LEN || l3 + total > f.len() {
        return Parsed::Other;
    }
    let l4 = l3 + ihl;
    let t = &f[l4..];
    let doff = usize::from(t[12] >> 4) * 4;
    if doff < TCP_LEN || ihl + doff > total {
        return Parsed::Other;
    }
    Parsed::Tcp(TcpSeg {
        dst_mac: mac_at(f, 0),
        src_mac: mac_at(f, 6),
        src_ip: be32(ip, 12),
        dst_ip: be32(ip, 16),
        src_port: be16(t, 0),
        dst_port: be16(t, 2),
        seq: be32(t, 4),
        ack: be32(t, 8),
        flags: t[13],
        window: be16(t, 14),
        opts: (l4 + TCP_LEN, l4 + doff),
        payload: (l4 + doff, l3 + total),
    })
}

/// Checksum offload offsets of an injected frame: IP header, TCP header, end of segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Offload {
    pub ip_off: u16,
    pub l4_off: u16,
    pub l4_end: u16,
}

/// A TCP segment the card sends.
#[derive(Clone, Copy, Debug)]
pub struct TcpOut<'a> {
    pub src_mac: [u8; 6],
    pub dst_mac: [u8; 6],
    pub src_ip: u32,
    pub dst_ip: u32,
    pub src_port: u16,
    pub dst_port: u16,
    pub seq: u32,
    pub ack: u32,
    pub flags: u8,
    pub window: u16,
    /// Options, a multiple of 4 bytes, at most 40.
    pub opts: &'a [u8],
    pub payload: &'a [u8],
}

impl TcpOut<'_> {
    /// Frame length of this segment (at least the 60-byte Ethernet minimum).
    pub fn frame_len(&self) -> usize {
        (ETH_LEN + IP_LEN + TCP_LEN + self.opts.len() + self.payload.len()).max(60)
    }

    /// Writes the frame into `buf` (checksums 0, for the offload). Returns the frame length
    /// and the offload offsets, or `None` when `buf` is too small or the options are not a
    /// multiple of 4 bytes up to 40.
    pub fn write(&self, buf: &mut [u8]) -> Option<(usize, Offload)> {
        let len = self.frame_len();
        if buf.len() < len || self.opts.len() % 4 != 0 || self.opts.len() > 40 {
            return None;
        }
        let tcp_len = TCP_LEN + self.opts.len() + self.payload.len();
        let ip_total = IP_LEN + tcp_len;
        buf[..len].fill(0);
        buf[0..6].copy_from_slice(&self.dst_mac);
        buf[6..12].copy_from_slice(&self.src_mac);
        buf[12..14].copy_from_slice(&ETHERTYPE_IPV4.to_be_bytes());
        let ip = &mut buf[ETH_LEN..ETH_LEN + IP_LEN];
        ip[0] = 0x45;
        ip[2..4].copy_from_slice(&(ip_total as u16).to_be_bytes());
        ip[6] = 0x40; // don't fragment
        ip[8] = 64;
        ip[9] = 6;
        ip[12..16].copy_from_slice(&self.src_ip.to_be_bytes());
        ip[16..20].copy_from_slice(&self.dst_ip.to_be_bytes());
        let l4 = ETH_LEN + IP_LEN;
        let t = &mut buf[l4..l4 + tcp_len];
        t[0..2].copy_from_slice(&self.src_port.to_be_bytes());
        t[2..4].copy_from_slice(&self.dst_port.to_be_bytes());
        t[4..8].copy_from_slice(&self.seq.to_be_bytes());
        t[8..12].copy_from_slice(&self.ack.to_be_bytes());
        t[12] = (((TCP_LEN + self.opts.len()) / 4) as u8) << 4;
        t[13] = self.flags;
        t[14..16].copy_from_slice(&self.window.to_be_bytes());
        t[TCP_LEN..TCP_LEN + self.opts.len()].copy_from_slice(self.opts);
        t[TCP_LEN + self.opts.len()..].copy_from_slice(self.payload);
        Some((
            len,
            Offload {
                ip_off: ETH_LEN as u16,
                l4_off: l4 as u16,
                l4_end: (l4 + tcp_len) as u16,
            },
        ))
    }
}

/// The options of a frame the card's frame generator builds (`tcp_tx_gen`, `DP.TXGEN_*`;
/// docs/server-open.md): its two forms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GenOpts {
    /// `NOP NOP TS(tsval, tsecr)` with timestamps, no options without.
    Ack { ts: Option<Timestamps> },
    /// `MSS`, then `SACK_PERM` / `NOP NOP` / `NOP NOP SACK_PERM`, `TS`, `NOP WS`: the layout
    /// of [`tcpopts::build`].
    Syn {
        mss: u16,
        sack: bool,
        ts: Option<Timestamps>,
        wscale: Option<u8>,
    },
}

/// A header-only segment in a form the card's frame generator builds with its checksums:
/// what the firmware stages in `DP.TXGEN_*` instead of writing the frame into an inject ring.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GenFrame {
    pub src_mac: [u8; 6],
    pub dst_mac: [u8; 6],
    pub src_ip: u32,
    pub dst_ip: u32,
    pub src_port: u16,
    pub dst_port: u16,
    pub seq: u32,
    pub ack: u32,
    pub flags: u8,
    pub window: u16,
    pub opts: GenOpts,
}

/// The timestamps option as the ACK form lays it out.
const ACK_TS_PREFIX: [u8; 4] = [
    tcpopts::kind::NOP,
    tcpopts::kind::NOP,
    tcpopts::kind::TIMESTAMP,
    10,
];

impl GenFrame {
    /// `seg` in one of the generator's forms: no payload, and options that are exactly the
    /// ACK form's or the SYN form's bytes (anything else, e.g. SACK blocks or a window shift
    /// above 14, is `None`: the inject ring sends it).
    pub fn from_out(seg: &TcpOut) -> Option<GenFrame> {
        if !seg.payload.is_empty() {
            return None;
        }
        let o = seg.opts;
        let opts = if o.is_empty() {
            GenOpts::Ack { ts: None }
        } else if o.len() == 12 && o[..4] == ACK_TS_PREFIX {
            GenOpts::Ack {
                ts: Some(Timestamps {
                    tsval: u32::from_be_bytes([o[4], o[5], o[6], o[7]]),
                    tsecr: u32::from_be_bytes([o[8], o[9], o[10], o[11]]),
                }),
            }
        } else if o.len() >= 4 && o[0] == tcpopts::kind::MSS && o[1] == 4 {
            let p = tcpopts::parse_syn_options(o).ok()?;
            let syn = GenOpts::Syn {
                mss: p.mss?,
                sack: p.sack_permitted,
                ts: p.timestamps,
                wscale: p.wscale,
            };
            // exactly the generator's layout, or not the generator's frame
            let mut b = [0u8; tcpopts::MAX_OPTIONS_LEN];
            if Self::opt_bytes(&syn, &mut b) != o {
                return None;
            }
            syn
        } else {
            return None;
        };
        Some(GenFrame {
            src_mac: seg.src_mac,
            dst_mac: seg.dst_mac,
            src_ip: seg.src_ip,
            dst_ip: seg.dst_ip,
            src_port: seg.src_port,
            dst_port: seg.dst_port,
            seq: seg.seq,
            ack: seg.ack,
            flags: seg.flags,
            window: seg.window,
            opts,
        })
    }

    /// The option bytes the generator lays out for `opts` (a prefix of `buf`).
    pub fn opt_bytes<'b>(opts: &GenOpts, buf: &'b mut [u8; tcpopts::MAX_OPTIONS_LEN]) -> &'b [u8] {
        match *opts {
            GenOpts::Ack { ts: None } => &buf[..0],
            GenOpts::Ack { ts: Some(t) } => {
                buf[..4].copy_from_slice(&ACK_TS_PREFIX);
                buf[4..8].copy_from_slice(&t.tsval.to_be_bytes());
                buf[8..12].copy_from_slice(&t.tsecr.to_be_bytes());
                &buf[..12]
            }
            GenOpts::Syn {
                mss,
                sack,
                ts,
                wscale,
            } => {
                let b = tcpopts::build(mss, sack, ts, wscale);
                buf[..b.len()].copy_from_slice(b.as_slice());
                &buf[..b.len()]
            }
        }
    }

    /// The segment as [`TcpOut`] with its option bytes in `buf`: the frame the generator
    /// sends is [`TcpOut::write`]'s with the checksums [`fill_checksums`] computes.
    pub fn to_out<'b>(&self, buf: &'b mut [u8; tcpopts::MAX_OPTIONS_LEN]) -> TcpOut<'b> {
        TcpOut {
            src_mac: self.src_mac,
            dst_mac: self.dst_mac,
            src_ip: self.src_ip,
            dst_ip: self.dst_ip,
            src_port: self.src_port,
            dst_port: self.dst_port,
            seq: self.seq,
            ack: self.ack,
            flags: self.flags,
            window: self.window,
            opts: Self::opt_bytes(&self.opts, buf),
            payload: &[],
        }
    }
}

/// Writes the ARP reply to `req` saying `ip` is at `mac`; returns the frame length (60).
pub fn arp_reply(buf: &mut [u8], req: &Arp, mac: [u8; 6], ip: u32) -> Option<usize> {
    if buf.len() < 60 {
        return None;
    }
    buf[..60].fill(0);
    buf[0..6].copy_from_slice(&req.sender_mac);
    buf[6..12].copy_from_slice(&mac);
    buf[12..14].copy_from_slice(&ETHERTYPE_ARP.to_be_bytes());
    let a = &mut buf[ETH_LEN..ETH_LEN + 28];
    a[0..2].copy_from_slice(&1u16.to_be_bytes());
    a[2..4].copy_from_slice(&ETHERTYPE_IPV4.to_be_bytes());
    a[4] = 6;
    a[5] = 4;
    a[6..8].copy_from_slice(&2u16.to_be_bytes());
    a[8..14].copy_from_slice(&mac);
    a[14..18].copy_from_slice(&ip.to_be_bytes());
    a[18..24].copy_from_slice(&req.sender_mac);
    a[24..28].copy_from_slice(&req.sender_ip.to_be_bytes());
    Some(60)
}

/// The internet checksum of `data` folded into `sum` (RFC 1071); used by the tests and by
/// frames built without offload.
pub fn csum_add(mut sum: u32, data: &[u8]) -> u32 {
    let mut chunks = data.chunks_exact(2);
    for c in &mut chunks {
        sum += u32::from(u16::from_be_bytes([c[0], c[1]]));
    }
    if let [b] = chunks.remainder() {
        sum += u32::from(*b) << 8;
    }
    sum
}

/// Folds a checksum sum and complements it.
pub fn csum_fold(mut sum: u32) -> u16 {
    while sum >> 16 != 0 {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    !(sum as u16)
}

/// Fills in the IP and TCP checksums of a frame built by [`TcpOut::write`] (what the inject
/// offload does in hardware).
pub fn fill_checksums(buf: &mut [u8], off: &Offload) {
    let (ip, l4, end) = (
        usize::from(off.ip_off),
        usize::from(off.l4_off),
        usize::from(off.l4_end),
    );
    buf[ip + 10..ip + 12].fill(0);
    let c = csum_fold(csum_add(0, &buf[ip..l4]));
    buf[ip + 10..ip + 12].copy_from_slice(&c.to_be_bytes());
    buf[l4 + 16..l4 + 18].fill(0);
    let mut pseudo = [0u8; 12];
    pseudo[0..8].copy_from_slice(&buf[ip + 12..ip + 20]);
    pseudo[9] = 6;
    pseudo[10..12].copy_from_slice(&((end - l4) as u16).to_be_bytes());
    let c = csum_fold(csum_add(csum_add(0, &pseudo), &buf[l4..end]));
    buf[l4 + 16..l4 + 18].copy_from_slice(&c.to_be_bytes());
}

#[cfg(test)]
mod tests {
    use super::super::wirecheck;
    use super::*;
    use etherparse::{
        Ipv4Header, PacketBuilder, TcpHeader, TcpOptionElement as Opt, TcpOptions, VlanId,
    };
    use splicenic_fuzzkit::Rng;
    use std::vec::Vec;

    /// Random TCP options as etherparse lays them out (padded to 4 bytes; at most 40): the
    /// SYN-only ones only when `syn`, TSecr 0 without `ack` (RFC 7323).
    fn random_options(rng: &mut Rng, syn: bool, ack: bool) -> Vec<Opt> {
        let mut o = Vec::new();
        let mut len = 0;
        for _ in 0..rng.below(6) {
            let e = match rng.below(5) {
                0 => Opt::Noop,
                1 if syn => Opt::MaximumSegmentSize(536 + rng.below(0xffff - 536) as u16),
                2 if syn => Opt::WindowScale(rng.below(15) as u8),
                3 if syn => Opt::SelectiveAcknowledgementPermitted,
                _ => Opt::Timestamp(rng.next() as u32, u32::from(ack) * rng.next() as u32),
            };
            let l = match e {
                Opt::Noop => 1,
                Opt::MaximumSegmentSize(_) => 4,
                Opt::WindowScale(_) => 3,
                Opt::SelectiveAcknowledgementPermitted => 2,
                _ => 10,
            };
            let dup = o
                .iter()
                .any(|x| core::mem::discriminant(x) == core::mem::discriminant(&e));
            if len + l > 40 || (dup && e != Opt::Noop) {
                continue;
            }
            len += l;
            o.push(e);
        }
        o
    }

    fn random_payload(rng: &mut Rng) -> Vec<u8> {
        // Odd and even lengths, short (padded frames) and long.
        let n = match rng.below(3) {
            0 => rng.below(8),
            1 => rng.below(64),
            _ => rng.below(1460),
        };
        (0..n).map(|_| rng.next() as u8).collect()
    }

    #[test]
    fn checksums_equal_etherparse_for_random_segments() {
        // The firmware's checksum code (what the fake inject ring applies) against
        // etherparse's, for random addresses, ports, numbers, flags, options and payloads.
        let mut rng = Rng(0x5eed_f00d_cafe_0001);
        let mut buf = [0u8; 1600];
        for case in 0..4000 {
            let syn = rng.chance(3);
            let flags = if syn {
                rng.pick(&[tcp_flags::SYN, tcp_flags::SYN | tcp_flags::ACK])
            } else {
                rng.pick(&[
                    tcp_flags::ACK,
                    tcp_flags::ACK | tcp_flags::PSH,
                    tcp_flags::ACK | tcp_flags::FIN,
                    tcp_flags::RST,
                    tcp_flags::RST | tcp_flags::ACK,
                ])
            };
            let opts = random_options(&mut rng, syn, flags & tcp_flags::ACK != 0);
            let raw = TcpOptions::try_from_elements(&opts).unwrap();
            let payload = if flags & (tcp_flags::SYN | tcp_flags::RST) != 0 {
                Vec::new()
            } else {
                random_payload(&mut rng)
            };
            let unicast = |r: &mut Rng| (r.next() as u32 % 0xdf00_0000) + 0x0100_0000;
            let out = TcpOut {
                src_mac: [2, 0xca, 0, 0, 0, rng.next() as u8],
                dst_mac: [0, 0x16, 0x3e, rng.next() as u8, 0, 1],
                src_ip: unicast(&mut rng),
                dst_ip: unicast(&mut rng),
                src_port: rng.next() as u16,
                dst_port: rng.next() as u16,
                seq: rng.next() as u32,
                ack: if flags & tcp_flags::ACK != 0 {
                    rng.next() as u32
                } else {
                    0
                },
                flags,
                window: rng.next() as u16,
                opts: raw.as_slice(),
                payload: &payload,
            };
            let (len, off) = out.write(&mut buf).unwrap();
            fill_checksums(&mut buf, &off);
            let f = &buf[..len];
            // etherparse's checksums, computed here from its own decode of the headers.
            let (ip, rest) = Ipv4Header::from_slice(&f[ETH_LEN..]).unwrap();
            let l4 = &rest[..usize::from(ip.total_len) - ip.header_len()];
            let (tcp, data) = TcpHeader::from_slice(l4).unwrap();
            assert_eq!(ip.header_checksum, ip.calc_header_checksum(), "case {case}");
            assert_eq!(
                tcp.checksum,
                tcp.calc_checksum_ipv4(&ip, data).unwrap(),
                "case {case}"
            );
            assert_eq!(data, &payload[..], "case {case}");
            // And the whole frame through the independent check, field by field.
            let w = wirecheck::check(f).tcp();
            assert_eq!(
                (w.src_ip, w.dst_ip, w.src_port, w.dst_port, w.seq, w.ack, w.flags, w.window),
                (
                    out.src_ip,
                    out.dst_ip,
                    out.src_port,
                    out.dst_port,
                    out.seq,
                    out.ack,
                    flags,
                    out.window
                ),
                "case {case}"
            );
            // The RFC 1071 sum itself: a filled-in header sums to 0.
            assert_eq!(csum_fold(csum_add(0, &f[ETH_LEN..ETH_LEN + IP_LEN])), 0);
        }
    }

    #[test]
    fn parser_reads_random_etherparse_frames_as_etherparse_built_them() {
        // The other direction: frames built by etherparse (with and without an 802.1Q tag,
        // random options and payloads) read by the firmware's parser.
        let mut rng = Rng(0x5eed_f00d_cafe_0002);
        for case in 0..2000 {
            let syn = rng.chance(3);
            let opts = random_options(&mut rng, syn, true);
            let payload = random_payload(&mut rng);
            let src_mac = [2, 0, 0, 0, 1, rng.next() as u8];
            let dst_mac = [2, 0, 0, 0, 2, rng.next() as u8];
            let (src_ip, dst_ip) = (
                (rng.next() as u32).to_be_bytes(),
                (rng.next() as u32).to_be_bytes(),
            );
            let (sport, dport, seq, win) = (
                rng.next() as u16,
                rng.next() as u16,
                rng.next() as u32,
                rng.next() as u16,
            );
            let ack = rng.next() as u32;
            let vlan = rng.chance(2);
            let eth = PacketBuilder::ethernet2(src_mac, dst_mac);
            let ip_step = if vlan {
                eth.single_vlan(VlanId::try_new(rng.below(4095) as u16 + 1).unwrap())
                    .ipv4(src_ip, dst_ip, 64)
            } else {
                eth.ipv4(src_ip, dst_ip, 64)
            };
            let mut b = ip_step.tcp(sport, dport, seq, win).ack(ack);
            if syn {
                b = b.syn();
            }
            let b = b.options(&opts).unwrap();
            let mut f = Vec::new();
            b.write(&mut f, &payload).unwrap();
            // Padded to the Ethernet minimum, as a frame from the wire.
            if f.len() < 60 {
                f.resize(60, 0);
            }
            let Parsed::Tcp(s) = parse(&f) else {
                panic!("case {case}: not TCP: {:?}", parse(&f))
            };
            let raw = TcpOptions::try_from_elements(&opts).unwrap();
            assert_eq!(
                (
                    s.src_mac, s.dst_mac, s.src_ip, s.dst_ip, s.src_port, s.dst_port, s.seq, s.ack,
                    s.window
                ),
                (
                    src_mac,
                    dst_mac,
                    u32::from_be_bytes(src_ip),
                    u32::from_be_bytes(dst_ip),
                    sport,
                    dport,
                    seq,
                    ack,
                    win
                ),
                "case {case}"
            );
            assert_eq!(s.has(tcp_flags::SYN), syn, "case {case}");
            assert!(s.has(tcp_flags::ACK), "case {case}");
            assert_eq!(&f[s.opts.0..s.opts.1], raw.as_slice(), "case {case}");
            assert_eq!(&f[s.payload.0..s.payload.1], &payload[..], "case {case}");
            if syn {
                let o = crate::flowmgr::tcpopts::parse_syn_options(raw.as_slice()).unwrap();
                for e in &opts {
                    match *e {
                        Opt::MaximumSegmentSize(m) => assert_eq!(o.mss, Some(m)),
                        Opt::WindowScale(w) => assert_eq!(o.wscale, Some(w)),
                        Opt::SelectiveAcknowledgementPermitted => assert!(o.sack_permitted),
                        Opt::Timestamp(v, r) => {
                            assert_eq!(o.timestamps.map(|t| (t.tsval, t.tsecr)), Some((v, r)))
                        }
                        _ => {}
                    }
                }
            }
        }
    }

    #[test]
    fn built_segment_parses_back_with_valid_checksums() {
        let opts = [2, 4, 0x05, 0xb4];
        let out = TcpOut {
            src_mac: [2, 0, 0, 0, 0, 1],
            dst_mac: [2, 0, 0, 0, 0, 2],
            src_ip: 0x0a00_0001,
            dst_ip: 0xc0a8_0101,
            src_port: 80,
            dst_port: 40000,
            seq: 0xffff_fff0,
            ack: 7,
            flags: tcp_flags::SYN | tcp_flags::ACK,
            window: 1024,
            opts: &opts,
            payload: b"hello",
        };
        let mut buf = [0u8; 128];
        let (len, off) = out.write(&mut buf).unwrap();
        assert_eq!(len, 63);
        fill_checksums(&mut buf, &off);
        // A correct checksum sums to 0xffff over the header.
        assert_eq!(csum_fold(csum_add(0, &buf[14..34])), 0);
        let Parsed::Tcp(s) = parse(&buf[..len]) else {
            panic!("not TCP")
        };
        assert_eq!(
            (s.src_port, s.dst_port, s.seq, s.ack),
            (80, 40000, 0xffff_fff0, 7)
        );
        assert_eq!(&buf[s.opts.0..s.opts.1], &opts);
        assert_eq!(&buf[s.payload.0..s.payload.1], b"hello");
        assert!(s.has(tcp_flags::SYN | tcp_flags::ACK));
    }

    #[test]
    fn short_and_inconsistent_frames_are_other() {
        assert_eq!(parse(&[]), Parsed::Other);
        let mut f = [0u8; 60];
        f[12] = 0x08;
        f[14] = 0x45;
        f[16] = 0x05; // total length 1280 > frame
        f[23] = 6;
        assert_eq!(parse(&f), Parsed::Other);
        f[12] = 0x08;
        f[13] = 0x06;
        assert_eq!(parse(&f[..30]), Parsed::Other);
    }

    #[test]
    fn arp_reply_answers_the_request() {
        let req = Arp {
            op: 1,
            sender_mac: [2, 0, 0, 0, 0, 9],
            sender_ip: 0x0a00_0009,
            target_ip: 0x0a00_0001,
        };
        let mut buf = [0u8; 64];
        let n = arp_reply(&mut buf, &req, [2, 0, 0, 0, 0, 1], 0x0a00_0001).unwrap();
        let Parsed::Arp(a) = parse(&buf[..n]) else {
            panic!("not ARP")
        };
        assert_eq!(a.op, 2);
        assert_eq!(a.sender_ip, 0x0a00_0001);
        assert_eq!(a.target_ip, 0x0a00_0009);
        assert_eq!(&buf[0..6], &req.sender_mac);
    }

    /// A random segment as the firmware builds them: random fields, one of the generator's
    /// option forms or (`other`) options it does not build, and sometimes a payload.
    fn random_gen_case(rng: &mut Rng, b: &mut [u8; 40]) -> (usize, bool) {
        let ts = rng.chance(2).then(|| Timestamps {
            tsval: rng.next() as u32,
            tsecr: rng.next() as u32,
        });
        let form = match rng.below(4) {
            0 => GenOpts::Ack { ts },
            1 | 2 => GenOpts::Syn {
                mss: rng.next() as u16,
                sack: rng.chance(2),
                ts,
                wscale: rng.chance(2).then(|| rng.below(15) as u8),
            },
            _ => {
                // options the generator does not lay out: SACK blocks, a window shift above
                // 14, timestamps without the NOPs in front, a lone SACK_PERM
                let o: &[u8] = match rng.below(4) {
                    0 => &[1, 1, 5, 10, 0, 0, 0, 1, 0, 0, 0, 2],
                    1 => &[2, 4, 5, 180, 1, 3, 3, 15],
                    2 => &[8, 10, 0, 0, 0, 1, 0, 0, 0, 2, 1, 1],
                    _ => &[1, 1, 4, 2],
                };
                b[..o.len()].copy_from_slice(o);
                return (o.len(), false);
            }
        };
        let n = GenFrame::opt_bytes(&form, b).len();
        (n, true)
    }

    #[test]
    fn generator_frames_are_the_segments_they_came_from() {
        let mut rng = Rng(0x5eed_f00d_cafe_0003);
        let (mut generated, mut refused) = (0, 0);
        for _ in 0..20_000 {
            let mut ob = [0u8; 40];
            let (olen, gen_form) = random_gen_case(&mut rng, &mut ob);
            let pay = [0x5au8; 7];
            let with_payload = rng.chance(5);
            let mut mac = || {
                let v = rng.next().to_be_bytes();
                [v[0], v[1], v[2], v[3], v[4], v[5]]
            };
            let (src_mac, dst_mac) = (mac(), mac());
            let out = TcpOut {
                src_mac,
                dst_mac,
                src_ip: rng.next() as u32,
                dst_ip: rng.next() as u32,
                src_port: rng.next() as u16,
                dst_port: rng.next() as u16,
                seq: rng.next() as u32,
                ack: rng.next() as u32,
                flags: rng.next() as u8,
                window: rng.next() as u16,
                opts: &ob[..olen],
                payload: if with_payload { &pay } else { &[] },
            };
            match GenFrame::from_out(&out) {
                Some(g) => {
                    assert!(gen_form && !with_payload, "{out:?}");
                    generated += 1;
                    let mut b2 = [0u8; 40];
                    let back = g.to_out(&mut b2);
                    let (mut f1, mut f2) = ([0u8; 128], [0u8; 128]);
                    let (n1, o1) = out.write(&mut f1).unwrap();
                    let (n2, o2) = back.write(&mut f2).unwrap();
                    assert_eq!((n1, o1), (n2, o2));
                    fill_checksums(&mut f1[..n1], &o1);
                    fill_checksums(&mut f2[..n2], &o2);
                    assert_eq!(f1[..n1], f2[..n2]);
                }
                None => {
                    assert!(!gen_form || with_payload, "{out:?}");
                    refused += 1;
                }
            }
        }
        assert!(
            generated > 10_000 && refused > 4_000,
            "{generated} {refused}"
        );
    }
}
