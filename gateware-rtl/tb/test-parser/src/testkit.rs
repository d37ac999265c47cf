//! Code the parser tests and the benchmark share: frame generators (valid frames built with
//! etherparse, mutated and truncated frames, other protocols) and the SOFTWARE REFERENCE
//! MODEL of the parser verdict.
//!
//! Reference model (`reference`): etherparse's header slicing (Ethernet2HeaderSlice,
//! SingleVlanHeaderSlice, Ipv4HeaderSlice, TcpHeaderSlice) supplies the fields and the
//! version / IHL / data-offset / header-length errors; explicit checks on top implement the
//! rest of the documented verdict (frame vs total length, checksum through etherparse's
//! `calc_header_checksum`, options, fragments, protocol), in the priority order documented
//! in `eth_tcp_parser.v`. It shares no code with the RTL.

use crate::{reason, Frame, Header, Output};
use etherparse::err::{ipv4, tcp};
use etherparse::{
    EtherType, Ethernet2Header, Ethernet2HeaderSlice, IpNumber, Ipv4Dscp, Ipv4Ecn, Ipv4Header,
    Ipv4HeaderSlice, PacketBuilder, SingleVlanHeader, SingleVlanHeaderSlice, TcpHeader,
    TcpHeaderSlice, TcpOptionElement, VlanId, VlanPcp,
};
use rand::Rng;

/// What the reference model expects for one frame.
#[derive(Debug, Clone)]
pub struct Expected {
    /// Verdict ([`reason`] code).
    pub reason: u8,
    /// Fields, filled as far as the frame parsed.
    pub hdr: Header,
    /// 0: nothing, 1: Ethernet fields, 2: + IPv4 fields, 3: + TCP fields and offsets.
    pub level: u8,
}

/// The software reference verdict and fields of a frame.
pub fn reference(f: &Frame) -> Expected {
    let b = &f.bytes[..];
    let mut e = Expected {
        reason: reason::OK,
        hdr: Header {
            frame_len: b.len().min(65535) as u16,
            ..Header::default()
        },
        level: 0,
    };
    let done = |mut e: Expected, r: u8| {
        e.reason = r;
        e.hdr.reason = r;
        e.hdr.ok = r == reason::OK;
        e.hdr.other = r == reason::OTHER_L3 || r == reason::OTHER_L4;
        e.hdr.malformed = r >= reason::MAC_ERR;
        e
    };
    if f.mac_err {
        return done(e, reason::MAC_ERR);
    }
    let Ok(eth) = Ethernet2HeaderSlice::from_slice(b) else {
        return done(e, reason::TRUNC_ETH);
    };
    let mut ty = eth.ether_type().0;
    let mut l3 = 14usize;
    let (mut vlan, mut tci) = (false, 0u16);
    if ty == 0x8100 {
        let Ok(v) = SingleVlanHeaderSlice::from_slice(&b[14..]) else {
            return done(e, reason::TRUNC_ETH);
        };
        vlan = true;
        tci = (u16::from(v.priority_code_point().value()) << 13)
            | (u16::from(v.drop_eligible_indicator()) << 12)
            | v.vlan_identifier().value();
        ty = v.ether_type().0;
        l3 = 18;
    }
    e.hdr.eth_dst = eth.destination();
    e.hdr.eth_src = eth.source();
    e.hdr.vlan = vlan;
    e.hdr.vlan_tci = tci;
    e.hdr.eth_type = ty;
    e.hdr.l3_offset = l3 as u8;
    e.level = 1;
    if ty != 0x0800 {
        return done(e, reason::OTHER_L3);
    }
    let ip = &b[l3..];
    if ip.len() < 20 {
        return done(e, reason::TRUNC_IP);
    }
    let ips = match Ipv4HeaderSlice::from_slice(ip) {
        Ok(s) => s,
        Err(ipv4::HeaderSliceError::Content(ipv4::HeaderError::UnexpectedVersion { .. })) => {
            return done(e, reason::IP_VERSION)
        }
        Err(ipv4::HeaderSliceError::Content(
            ipv4::HeaderError::HeaderLengthSmallerThanHeader { .. },
        )) => return done(e, reason::IP_IHL),
        Err(ipv4::HeaderSliceError::Len(_)) => return done(e, reason::TRUNC_IP),
    };
    let ihl4 = usize::from(ips.ihl()) * 4;
    let tot = usize::from(ips.total_len());
    if tot < ihl4 || ip.len() < tot {
        return done(e, reason::IP_LEN);
    }
    let h = &mut e.hdr;
    h.ip_version = ips.version();
    h.ip_ihl = ips.ihl();
    h.ip_tos = (ips.dcp().value() << 2) | ips.ecn().value();
    h.ip_length = ips.total_len();
    h.ip_id = ips.identification();
    h.ip_flags = ((ips.slice()[6] >> 7) << 2)
        | (u8::from(ips.dont_fragment()) << 1)
        | u8::from(ips.more_fragments());
    h.ip_frag_offset = ips.fragments_offset().value();
    h.ip_ttl = ips.ttl();
    h.ip_protocol = ips.protocol().0;
    h.ip_checksum = ips.header_checksum();
    h.ip_src = ips.source();
    h.ip_dst = ips.destination();
    h.l4_offset = (l3 + ihl4) as u8;
    e.level = 2;
    if ips.to_header().calc_header_checksum() != ips.header_checksum() {
        return done(e, reason::IP_CSUM);
    }
    if ips.ihl() > 5 {
        return done(e, reason::IP_OPTIONS);
    }
    if ips.more_fragments() || ips.fragments_offset().value() != 0 {
        return done(e, reason::IP_FRAG);
    }
    if ips.protocol() != IpNumber::TCP {
        return done(e, reason::OTHER_L4);
    }
    let payload = &ip[ihl4..tot];
    if payload.len() < 20 {
        return done(e, reason::TCP_TRUNC);
    }
    let t = match TcpHeaderSlice::from_slice(payload) {
        Ok(t) => t,
        Err(tcp::HeaderSliceError::Content(_)) | Err(tcp::HeaderSliceError::Len(_)) => {
            return done(e, reason::TCP_DOFF)
        }
    };
    let h = &mut e.hdr;
    h.tcp_src_port = t.source_port();
    h.tcp_dst_port = t.destination_port();
    h.tcp_seq = t.sequence_number();
    h.tcp_ack = t.acknowledgment_number();
    h.tcp_data_offset = t.data_offset();
    h.tcp_flags = [
        t.ns(),
        t.cwr(),
        t.ece(),
        t.urg(),
        t.ack(),
        t.psh(),
        t.rst(),
        t.syn(),
        t.fin(),
    ]
    .iter()
    .fold(0u16, |acc, &bit| (acc << 1) | u16::from(bit));
    h.tcp_window = t.window_size();
    h.tcp_checksum = t.checksum();
    h.tcp_urgent = t.urgent_pointer();
    h.tcp_options = t.options().to_vec();
    let doff4 = usize::from(t.data_offset()) * 4;
    h.payload_offset = (l3 + ihl4 + doff4) as u8;
    h.payload_len = (tot - ihl4 - doff4) as u16;
    e.level = 3;
    done(e, reason::OK)
}

/// Compares the RTL's output for `input` with the reference; returns a description of the
/// first difference.
pub fn check(input: &Frame, out: &Output) -> Result<(), String> {
    let exp = reference(input);
    let got = &out.header;
    let ctx = || format!("frame {:02x?}", input.bytes);
    if got.reason != exp.reason {
        return Err(format!(
            "reason: rtl {} reference {} ({})",
            got.reason,
            exp.reason,
            ctx()
        ));
    }
    if (got.ok, got.other, got.malformed) != (exp.hdr.ok, exp.hdr.other, exp.hdr.malformed) {
        return Err(format!("class flags differ ({})", ctx()));
    }
    if out.frame != input.bytes {
        return Err(format!("output frame differs ({})", ctx()));
    }
    if out.frame_tuser != (exp.reason != reason::OK) {
        return Err(format!(
            "m_axis_tuser {} for reason {}",
            out.frame_tuser, exp.reason
        ));
    }
    if got.frame_len != exp.hdr.frame_len {
        return Err(format!(
            "frame_len {} != {}",
            got.frame_len, exp.hdr.frame_len
        ));
    }
    let e = &exp.hdr;
    if exp.level >= 1 {
        let a = (
            got.eth_dst,
            got.eth_src,
            got.vlan,
            got.vlan_tci,
            got.eth_type,
            got.l3_offset,
        );
        let b = (
            e.eth_dst,
            e.eth_src,
            e.vlan,
            e.vlan_tci,
            e.eth_type,
            e.l3_offset,
        );
        if a != b {
            return Err(format!("ethernet fields rtl {a:x?} ref {b:x?} ({})", ctx()));
        }
    }
    if exp.level >= 2 {
        let a = (
            got.ip_version,
            got.ip_ihl,
            got.ip_tos,
            got.ip_length,
            got.ip_id,
            got.ip_flags,
            got.ip_frag_offset,
            got.ip_ttl,
            got.ip_protocol,
            got.ip_checksum,
            (got.ip_src, got.ip_dst, got.l4_offset),
        );
        let b = (
            e.ip_version,
            e.ip_ihl,
            e.ip_tos,
            e.ip_length,
            e.ip_id,
            e.ip_flags,
            e.ip_frag_offset,
            e.ip_ttl,
            e.ip_protocol,
            e.ip_checksum,
            (e.ip_src, e.ip_dst, e.l4_offset),
        );
        if a != b {
            return Err(format!("ipv4 fields rtl {a:x?} ref {b:x?} ({})", ctx()));
        }
    }
    if exp.level >= 3 && got != e {
        return Err(format!("tcp fields rtl {got:x?}\n ref {e:x?}\n({})", ctx()));
    }
    Ok(())
}

/// One's complement checksum of an IPv4 header (test generator helper; the reference uses
/// etherparse's own).
fn ip_csum(hdr: &[u8]) -> u16 {
    let mut sum = 0u32;
    for (i, c) in hdr.chunks(2).enumerate() {
        if i == 5 {
            continue;
        }
        let w = (u32::from(c[0]) << 8) | u32::from(*c.get(1).unwrap_or(&0));
        sum += w;
    }
    while sum > 0xffff {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    !(sum as u16)
}

/// Rewrites the IPv4 header checksum of a frame in place (header fully inside the frame).
fn fix_ip_csum(b: &mut [u8]) {
    let l3 = l3_of(b);
    let ihl4 = usize::from(b[l3] & 0xf) * 4;
    let end = (l3 + ihl4.max(20)).min(b.len());
    let c = ip_csum(&b[l3..end]);
    b[l3 + 10..l3 + 12].copy_from_slice(&c.to_be_bytes());
}

/// Offset of the IPv4 header: 18 after an 802.1Q tag, else 14.
fn l3_of(b: &[u8]) -> usize {
    if b[12] == 0x81 && b[13] == 0x00 {
        18
    } else {
        14
    }
}

fn random_options<R: Rng>(rng: &mut R, tcp: &mut TcpHeader) {
    if rng.gen_bool(0.3) {
        // raw option bytes of any kind
        let n = rng.gen_range(0..=10) * 4;
        let raw: Vec<u8> = (0..n).map(|_| rng.gen()).collect();
        let _ = tcp.set_options_raw(&raw);
        return;
    }
    let mut elems = Vec::new();
    for _ in 0..rng.gen_range(0..=6) {
        let el = match rng.gen_range(0..6) {
            0 => TcpOptionElement::Noop,
            1 => TcpOptionElement::MaximumSegmentSize(rng.gen()),
            2 => TcpOptionElement::WindowScale(rng.gen_range(0..15)),
            3 => TcpOptionElement::SelectiveAcknowledgementPermitted,
            4 => {
                let mut more = [None; 3];
                for m in more.iter_mut().take(rng.gen_range(0..3)) {
                    *m = Some((rng.gen(), rng.gen()));
                }
                TcpOptionElement::SelectiveAcknowledgement((rng.gen(), rng.gen()), more)
            }
            _ => TcpOptionElement::Timestamp(rng.gen(), rng.gen()),
        };
        elems.push(el);
        if tcp.set_options(&elems).is_err() {
            elems.pop();
            break;
        }
    }
    let _ = tcp.set_options(&elems);
}

/// A random valid Ethernet (optionally 802.1Q) / IPv4 / TCP frame.
pub fn valid_frame<R: Rng>(rng: &mut R) -> Vec<u8> {
    let payload_len = if rng.gen_bool(0.3) {
        rng.gen_range(0..=16)
    } else {
        rng.gen_range(0..=1460)
    };
    let vlan = rng.gen_bool(0.5);
    let mut f = valid_frame_with(rng, vlan, true, payload_len);
    // sometimes trailing bytes past the IP total length (padding, to be ignored)
    if rng.gen_bool(0.05) {
        for _ in 0..rng.gen_range(1..8) {
            f.push(rng.gen());
        }
    }
    f
}

/// A valid frame; `vlan` adds one tag, `options` random TCP options.
pub fn valid_frame_with<R: Rng>(
    rng: &mut R,
    vlan: bool,
    options: bool,
    payload_len: usize,
) -> Vec<u8> {
    let payload: Vec<u8> = (0..payload_len).map(|_| rng.gen()).collect();
    let mut tcp = TcpHeader::new(rng.gen(), rng.gen(), rng.gen(), rng.gen());
    tcp.acknowledgment_number = rng.gen();
    let flags: u16 = rng.gen();
    tcp.ns = flags & 0x100 != 0;
    tcp.cwr = flags & 0x80 != 0;
    tcp.ece = flags & 0x40 != 0;
    tcp.urg = flags & 0x20 != 0;
    tcp.ack = flags & 0x10 != 0;
    tcp.psh = flags & 0x8 != 0;
    tcp.rst = flags & 0x4 != 0;
    tcp.syn = flags & 0x2 != 0;
    tcp.fin = flags & 0x1 != 0;
    tcp.urgent_pointer = rng.gen();
    if options {
        random_options(rng, &mut tcp);
    }
    let mut ip = Ipv4Header::new(
        (tcp.header_len() + payload.len()) as u16,
        rng.gen(),
        IpNumber::TCP,
        rng.gen(),
        rng.gen(),
    )
    .unwrap_or_default();
    ip.identification = rng.gen();
    ip.dont_fragment = rng.gen();
    ip.dscp = Ipv4Dscp::try_new(rng.gen_range(0..64)).unwrap_or_default();
    ip.ecn = Ipv4Ecn::try_new(rng.gen_range(0..4)).unwrap_or_default();
    ip.header_checksum = ip.calc_header_checksum();
    tcp.checksum = tcp.calc_checksum_ipv4(&ip, &payload).unwrap_or(0);
    let mut out = Vec::with_capacity(1600);
    let eth = Ethernet2Header {
        source: rng.gen(),
        destination: rng.gen(),
        ether_type: if vlan {
            EtherType::VLAN_TAGGED_FRAME
        } else {
            EtherType::IPV4
        },
    };
    out.extend_from_slice(&eth.to_bytes());
    if vlan {
        let v = SingleVlanHeader {
            pcp: VlanPcp::try_new(rng.gen_range(0..8)).unwrap_or_default(),
            drop_eligible_indicator: rng.gen(),
            vlan_id: VlanId::try_new(rng.gen_range(0..4096)).unwrap_or_default(),
            ether_type: EtherType::IPV4,
        };
        out.extend_from_slice(&v.to_bytes());
    }
    out.extend_from_slice(&ip.to_bytes());
    out.extend_from_slice(&tcp.to_bytes());
    out.extend_from_slice(&payload);
    // Ethernet padding to the 60-byte minimum
    if out.len() < 60 {
        out.resize(60, 0);
    }
    out
}

/// A frame of another protocol: ARP, ICMP, UDP, IPv6/TCP, double tag, unknown ethertype.
fn other_frame<R: Rng>(rng: &mut R) -> Vec<u8> {
    let mut out = Vec::new();
    let (src, dst): ([u8; 6], [u8; 6]) = (rng.gen(), rng.gen());
    let payload: Vec<u8> = (0..rng.gen_range(0..64)).map(|_| rng.gen()).collect();
    match rng.gen_range(0..6) {
        0 => {
            let eth = Ethernet2Header {
                source: src,
                destination: dst,
                ether_type: EtherType::ARP,
            };
            out.extend_from_slice(&eth.to_bytes());
            out.extend_from_slice(&[0, 1, 8, 0, 6, 4, 0, 1]);
            for _ in 0..20 {
                out.push(rng.gen());
            }
        }
        1 => {
            let _ = PacketBuilder::ethernet2(src, dst)
                .ipv4(rng.gen(), rng.gen(), 64)
                .icmpv4_echo_request(rng.gen(), rng.gen())
                .write(&mut out, &payload);
        }
        2 => {
            let _ = PacketBuilder::ethernet2(src, dst)
                .ipv4(rng.gen(), rng.gen(), 64)
                .udp(rng.gen(), rng.gen())
                .write(&mut out, &payload);
        }
        3 => {
            let _ = PacketBuilder::ethernet2(src, dst)
                .ipv6(rng.gen(), rng.gen(), 64)
                .tcp(rng.gen(), rng.gen(), rng.gen(), rng.gen())
                .write(&mut out, &payload);
        }
        4 => {
            // double tag: the parser handles one tag only, the inner tag is "other"
            let mut f = valid_frame(rng);
            let tag = [0x81, 0x00, rng.gen(), rng.gen()];
            f.splice(12..12, tag);
            out = f;
        }
        _ => {
            let eth = Ethernet2Header {
                source: src,
                destination: dst,
                ether_type: EtherType(rng.gen()),
            };
            out.extend_from_slice(&eth.to_bytes());
            out.extend_from_slice(&payload);
        }
    }
    if out.len() < 60 {
        out.resize(60, 0);
    }
    out
}

/// A malformed, truncated or other-protocol frame derived from a random valid one.
pub fn bad_frame<R: Rng>(rng: &mut R) -> Frame {
    let mut b = valid_frame(rng);
    let l3 = l3_of(&b);
    let mut mac_err = false;
    match rng.gen_range(0..13) {
        0 => {
            // flip random header bytes
            let hdr_end = b.len().min(l3 + 80);
            for _ in 0..rng.gen_range(1..=3) {
                let i = rng.gen_range(0..hdr_end);
                b[i] ^= rng.gen_range(1..=255u8);
            }
        }
        1 => {
            // cut at a random point, mostly inside the headers
            let cut = if rng.gen_bool(0.7) {
                rng.gen_range(1..b.len().min(l3 + 80))
            } else {
                rng.gen_range(1..b.len())
            };
            b.truncate(cut);
        }
        2 => {
            b[l3] = 0x40 | rng.gen_range(0..5);
            if rng.gen_bool(0.8) {
                fix_ip_csum(&mut b);
            }
        }
        3 => {
            // IP options: NOP/EOL words, IHL and total length adjusted, checksum valid
            let words = rng.gen_range(1..=10);
            let opts: Vec<u8> = (0..words * 4)
                .map(|_| if rng.gen() { 1 } else { 0 })
                .collect();
            b.splice(l3 + 20..l3 + 20, opts);
            b[l3] = 0x40 | (5 + words as u8);
            let tot = u16::from_be_bytes([b[l3 + 2], b[l3 + 3]]) + (words * 4) as u16;
            b[l3 + 2..l3 + 4].copy_from_slice(&tot.to_be_bytes());
            fix_ip_csum(&mut b);
        }
        4 => {
            let l4 = l3 + 20;
            b[l4 + 12] = (b[l4 + 12] & 0x0f) | (rng.gen_range(0..16u8) << 4);
        }
        5 => {
            let tot = u16::from_be_bytes([b[l3 + 2], b[l3 + 3]]);
            let new = match rng.gen_range(0..4) {
                0 => rng.gen(),
                1 => tot.saturating_add(rng.gen_range(1..100)),
                2 => tot.saturating_sub(rng.gen_range(1..=tot)),
                _ => rng.gen_range(0..20),
            };
            b[l3 + 2..l3 + 4].copy_from_slice(&new.to_be_bytes());
            if rng.gen_bool(0.8) {
                fix_ip_csum(&mut b);
            }
        }
        6 => {
            b[l3 + 10] ^= rng.gen_range(1..=255u8);
        }
        7 => {
            // fragment: MF and/or a fragment offset
            let mf = rng.gen_bool(0.5);
            let off: u16 = if mf && rng.gen() {
                0
            } else {
                rng.gen_range(1..0x2000)
            };
            let ff = (u16::from(mf) << 13) | off | (u16::from(b[l3 + 6] & 0x40) << 8);
            b[l3 + 6..l3 + 8].copy_from_slice(&ff.to_be_bytes());
            fix_ip_csum(&mut b);
        }
        8 | 9 => b = other_frame(rng),
        10 => mac_err = true,
        11 => {
            let n = rng.gen_range(1..200);
            b = (0..n).map(|_| rng.gen()).collect();
            if rng.gen() && n > 14 {
                b[12] = 0x08;
                b[13] = 0x00;
            }
        }
        _ => {
            b[l3] = (rng.gen_range(0..16u8) << 4) | (b[l3] & 0xf);
            fix_ip_csum(&mut b);
        }
    }
    Frame { bytes: b, mac_err }
}
