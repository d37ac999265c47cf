//! An independent check of the frames the card sends, for the unit tests.
//!
//! Every frame is decoded with etherparse (Ethernet II, IPv4, TCP and its options) and must
//! be well formed: EtherType IPv4 or ARP and no VLAN tag (the card sends untagged frames),
//! IPv4 version 4 without options, total length equal to the frame length (or, under the
//! 60-byte Ethernet minimum, padded with zeros to it), IP and TCP checksums equal to the ones
//! etherparse computes, TTL, fragment and flag bits sane, options that etherparse's iterator
//! reads without error, no duplicate option, SYN-only options only on SYNs, zero bytes after
//! an EOL. The firmware's own parser ([`frame::parse`]) and option decoders
//! ([`parse_syn_options`], [`find_timestamps`]) must see the same fields as etherparse.
//!
//! etherparse 0.16 (the workspace's version) does not decode ARP: ARP replies are checked at
//! the RFC 826 offsets behind etherparse's Ethernet header.

use super::find_timestamps;
use super::frame::{self, Offload, Parsed, ETH_LEN};
use crate::flowmgr::tcpopts::{parse_syn_options, Timestamps, MAX_WSCALE, MIN_MSS};
use etherparse::{
    EtherType, Ethernet2Header, IpNumber, Ipv4Header, LinkSlice, NetSlice, SlicedPacket, TcpHeader,
    TcpOptionElement, TransportSlice,
};
use std::string::String;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::vec::Vec;

/// Frames checked so far by this test process.
pub static CHECKED: AtomicUsize = AtomicUsize::new(0);

/// The Ethernet minimum frame length without the FCS.
const MIN_FRAME: usize = 60;

/// A TCP segment as etherparse decodes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WireTcp {
    pub dst_mac: [u8; 6],
    pub src_mac: [u8; 6],
    pub src_ip: u32,
    pub dst_ip: u32,
    pub ttl: u8,
    pub dont_fragment: bool,
    pub src_port: u16,
    pub dst_port: u16,
    pub seq: u32,
    pub ack: u32,
    /// FIN, SYN, RST, PSH and ACK as [`frame::tcp_flags`] bits.
    pub flags: u8,
    pub window: u16,
    pub mss: Option<u16>,
    pub wscale: Option<u8>,
    pub sack_permitted: bool,
    pub timestamps: Option<(u32, u32)>,
    /// Bytes of the options area (data offset - 20).
    pub options_len: usize,
    pub payload: Vec<u8>,
}

/// An ARP packet read at the RFC 826 offsets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WireArp {
    pub dst_mac: [u8; 6],
    pub src_mac: [u8; 6],
    pub op: u16,
    pub sender_mac: [u8; 6],
    pub sender_ip: u32,
    pub target_mac: [u8; 6],
    pub target_ip: u32,
}

/// What a checked frame is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Wire {
    Tcp(WireTcp),
    Arp(WireArp),
}

impl Wire {
    /// The TCP segment (panics on ARP).
    pub fn tcp(self) -> WireTcp {
        match self {
            Wire::Tcp(t) => t,
            Wire::Arp(a) => panic!("ARP, not TCP: {a:?}"),
        }
    }
}

macro_rules! ensure {
    ($cond:expr, $($msg:tt)*) => {
        if !$cond {
            return Err(format!($($msg)*));
        }
    };
}

/// Checks a frame the card sends (checksums filled in, as on the wire) and returns
/// etherparse's view of it. Panics, with the frame in hex, on any finding.
pub fn check(f: &[u8]) -> Wire {
    match check_frame(f) {
        Ok(w) => {
            CHECKED.fetch_add(1, Ordering::Relaxed);
            w
        }
        Err(e) => panic!("sent frame fails the independent check: {e}\n{}", hex(f)),
    }
}

/// Checks the checksum offload offsets the firmware hands the inject ring with `f`: IP
/// header at the end of the Ethernet header, TCP header right behind the IP header, the
/// segment's end at the IP total length.
pub fn check_offload(f: &[u8], off: &Offload) {
    if let Err(e) = offload_findings(f, off) {
        panic!("injected frame: {e}\n{}", hex(f));
    }
}

fn offload_findings(f: &[u8], off: &Offload) -> Result<(), String> {
    let (_, ip) = Ethernet2Header::from_slice(f).map_err(|e| format!("Ethernet: {e:?}"))?;
    let (h, _) = Ipv4Header::from_slice(ip).map_err(|e| format!("IPv4: {e:?}"))?;
    let want = (
        ETH_LEN,
        ETH_LEN + h.header_len(),
        ETH_LEN + usize::from(h.total_len),
    );
    let got = (
        usize::from(off.ip_off),
        usize::from(off.l4_off),
        usize::from(off.l4_end),
    );
    ensure!(
        got == want,
        "offload offsets {got:?}, the headers say {want:?}"
    );
    ensure!(want.2 <= f.len(), "offload end {} beyond the frame", want.2);
    Ok(())
}

fn hex(f: &[u8]) -> String {
    let mut s = format!("frame ({} bytes):", f.len());
    for (i, b) in f.iter().enumerate() {
        if i % 16 == 0 {
            s.push_str("\n ");
        }
        s.push_str(&format!(" {b:02x}"));
    }
    s
}

fn check_frame(f: &[u8]) -> Result<Wire, String> {
    let (eth, l3) = Ethernet2Header::from_slice(f).map_err(|e| format!("Ethernet: {e:?}"))?;
    ensure!(
        f.len() >= MIN_FRAME,
        "{} bytes: shorter than the Ethernet minimum of 60",
        f.len()
    );
    ensure!(
        eth.source[0] & 1 == 0 && eth.source != [0; 6],
        "source MAC {:02x?} is not a unicast address",
        eth.source
    );
    ensure!(eth.destination != [0; 6], "destination MAC is all zeros");
    if eth.ether_type == EtherType::IPV4 {
        check_tcp(f, &eth, l3).map(Wire::Tcp)
    } else if eth.ether_type == EtherType::ARP {
        check_arp(f, &eth, l3).map(Wire::Arp)
    } else {
        Err(format!(
            "EtherType {:?}: the card sends untagged IPv4 and ARP only",
            eth.ether_type
        ))
    }
}

fn be32(b: [u8; 4]) -> u32 {
    u32::from_be_bytes(b)
}

fn check_tcp(f: &[u8], eth: &Ethernet2Header, l3: &[u8]) -> Result<WireTcp, String> {
    // etherparse's own view of the whole frame: Ethernet II, IPv4, TCP, nothing else.
    let sliced = SlicedPacket::from_ethernet(f).map_err(|e| format!("etherparse: {e:?}"))?;
    ensure!(sliced.vlan.is_none(), "VLAN tag: {:?}", sliced.vlan);
    ensure!(
        matches!(sliced.link, Some(LinkSlice::Ethernet2(_))),
        "not Ethernet II: {:?}",
        sliced.link
    );
    let Some(NetSlice::Ipv4(ip_slice)) = &sliced.net else {
        return Err(format!("not IPv4: {:?}", sliced.net));
    };
    let Some(TransportSlice::Tcp(tcp_slice)) = &sliced.transport else {
        return Err(format!("not TCP: {:?}", sliced.transport));
    };
    // IPv4 header.
    ensure!(l3[0] >> 4 == 4, "IP version {}", l3[0] >> 4);
    ensure!(
        l3[0] & 0x0f == 5,
        "IHL {}: the card sends no IP options",
        l3[0] & 0x0f
    );
    let (ip, _) = Ipv4Header::from_slice(l3).map_err(|e| format!("IPv4: {e:?}"))?;
    let end = ETH_LEN + usize::from(ip.total_len);
    if f.len() > MIN_FRAME {
        ensure!(
            end == f.len(),
            "IP total length {} + 14 != frame length {}",
            ip.total_len,
            f.len()
        );
    } else {
        ensure!(
            end <= MIN_FRAME,
            "IP total length {} + 14 beyond the 60-byte frame",
            ip.total_len
        );
        ensure!(
            f[end..].iter().all(|&b| b == 0),
            "padding after byte {end} is not zero"
        );
    }
    let want = ip.calc_header_checksum();
    ensure!(
        ip.header_checksum == want,
        "IPv4 header checksum {:#06x}, etherparse computes {want:#06x}",
        ip.header_checksum
    );
    ensure!(
        ip.protocol == IpNumber::TCP,
        "IP protocol {:?}",
        ip.protocol
    );
    ensure!(
        !ip.more_fragments && ip.fragment_offset.value() == 0,
        "a fragment (MF {}, offset {})",
        ip.more_fragments,
        ip.fragment_offset.value()
    );
    ensure!(ip.time_to_live > 0, "TTL 0");
    ensure!(
        ip.dscp.value() == 0 && ip.ecn.value() == 0,
        "DSCP {} ECN {}: the card marks nothing and negotiates no ECN",
        ip.dscp.value(),
        ip.ecn.value()
    );
    for (what, a) in [("source", ip.source), ("destination", ip.destination)] {
        ensure!(
            a != [0; 4] && a[0] < 224,
            "{what} address {a:?} is not a unicast address"
        );
    }
    // TCP header.
    let seg = &f[ETH_LEN + ip.header_len()..end];
    ensure!(
        ip_slice.payload().payload == seg,
        "etherparse's IP payload differs from the total-length range"
    );
    let (tcp, payload) = TcpHeader::from_slice(seg).map_err(|e| format!("TCP: {e:?}"))?;
    ensure!(
        tcp_slice.payload() == payload,
        "etherparse's TCP payload differs between its decoders"
    );
    ensure!(
        usize::from(seg[12] >> 4) * 4 == tcp.header_len() && tcp.header_len() <= seg.len(),
        "data offset {} for a {}-byte segment",
        seg[12] >> 4,
        seg.len()
    );
    ensure!(
        seg[12] & 0x0f == 0,
        "reserved bits or NS set: {:#04x}",
        seg[12]
    );
    let want = tcp
        .calc_checksum_ipv4(&ip, payload)
        .map_err(|e| format!("TCP checksum: {e:?}"))?;
    ensure!(
        tcp.checksum == want,
        "TCP checksum {:#06x}, etherparse computes {want:#06x}",
        tcp.checksum
    );
    ensure!(
        !tcp.urg && tcp.urgent_pointer == 0 && !tcp.ece && !tcp.cwr,
        "URG/ECE/CWR or an urgent pointer set"
    );
    ensure!(
        [tcp.syn, tcp.fin, tcp.rst].iter().filter(|&&b| b).count() <= 1,
        "flag combination {:#04x}",
        seg[13]
    );
    ensure!(
        tcp.syn || tcp.rst || tcp.ack,
        "neither SYN, RST nor ACK: {:#04x}",
        seg[13]
    );
    ensure!(
        tcp.ack || tcp.acknowledgment_number == 0,
        "ACK clear with acknowledgment number {}",
        tcp.acknowledgment_number
    );
    ensure!(
        !(tcp.syn || tcp.rst) || payload.is_empty(),
        "{} bytes of data on a SYN or RST",
        payload.len()
    );
    // Options.
    let opts = tcp.options.as_slice();
    let mut mss = None;
    let mut wscale = None;
    let mut sack_permitted = false;
    let mut timestamps = None;
    let mut it = tcp.options_iterator();
    loop {
        let left = it.rest().len();
        let Some(e) = it.next() else {
            // At an EOL (or the end): what follows is padding.
            let at = opts.len() - left;
            ensure!(
                opts[at..].iter().all(|&b| b == 0),
                "non-zero bytes after the EOL at option byte {at}: {opts:02x?}"
            );
            break;
        };
        let e = e.map_err(|e| format!("options {opts:02x?}: {e:?}"))?;
        let dup = match e {
            TcpOptionElement::Noop => false,
            TcpOptionElement::MaximumSegmentSize(m) => mss.replace(m).is_some(),
            TcpOptionElement::WindowScale(w) => wscale.replace(w).is_some(),
            TcpOptionElement::SelectiveAcknowledgementPermitted => {
                core::mem::replace(&mut sack_permitted, true)
            }
            TcpOptionElement::Timestamp(v, r) => timestamps.replace((v, r)).is_some(),
            TcpOptionElement::SelectiveAcknowledgement(..) => {
                return Err(format!("SACK blocks {opts:02x?}: the card sends none"));
            }
        };
        ensure!(!dup, "duplicate option {e:?} in {opts:02x?}");
    }
    ensure!(
        tcp.syn || (mss.is_none() && wscale.is_none() && !sack_permitted),
        "MSS, window scale or SACK-permitted on a non-SYN segment: {opts:02x?}"
    );
    ensure!(
        wscale.is_none_or(|w| w <= MAX_WSCALE),
        "window shift {wscale:?} above 14"
    );
    ensure!(mss.is_none_or(|m| m >= MIN_MSS), "MSS {mss:?}");
    ensure!(
        timestamps.is_none_or(|(_, r)| tcp.ack || r == 0),
        "TSecr {timestamps:?} without ACK"
    );
    use frame::tcp_flags as tf;
    let flags = [
        (tcp.fin, tf::FIN),
        (tcp.syn, tf::SYN),
        (tcp.rst, tf::RST),
        (tcp.psh, tf::PSH),
        (tcp.ack, tf::ACK),
    ]
    .iter()
    .filter(|b| b.0)
    .fold(0, |a, b| a | b.1);
    let w = WireTcp {
        dst_mac: eth.destination,
        src_mac: eth.source,
        src_ip: be32(ip.source),
        dst_ip: be32(ip.destination),
        ttl: ip.time_to_live,
        dont_fragment: ip.dont_fragment,
        src_port: tcp.source_port,
        dst_port: tcp.destination_port,
        seq: tcp.sequence_number,
        ack: tcp.acknowledgment_number,
        flags,
        window: tcp.window_size,
        mss,
        wscale,
        sack_permitted,
        timestamps,
        options_len: opts.len(),
        payload: payload.to_vec(),
    };
    // The firmware's own decoders must agree.
    let Parsed::Tcp(s) = frame::parse(f) else {
        return Err(format!(
            "the firmware's parser does not see TCP: {:?}",
            frame::parse(f)
        ));
    };
    let fw = (
        s.dst_mac, s.src_mac, s.src_ip, s.dst_ip, s.src_port, s.dst_port, s.seq, s.ack, s.flags,
        s.window,
    );
    let ep = (
        w.dst_mac, w.src_mac, w.src_ip, w.dst_ip, w.src_port, w.dst_port, w.seq, w.ack, seg[13],
        w.window,
    );
    ensure!(
        fw == ep,
        "the firmware's parser reads {fw:?}, etherparse {ep:?}"
    );
    ensure!(
        &f[s.opts.0..s.opts.1] == opts && &f[s.payload.0..s.payload.1] == payload,
        "the firmware's parser places options {:?} and payload {:?} elsewhere",
        s.opts,
        s.payload
    );
    let ts = timestamps.map(|(tsval, tsecr)| Timestamps { tsval, tsecr });
    if tcp.syn {
        let o = parse_syn_options(opts).map_err(|e| format!("firmware option decoder: {e:?}"))?;
        let fw = (o.mss, o.wscale, o.sack_permitted, o.timestamps, o.ignored);
        let ep = (mss, wscale, sack_permitted, ts, 0);
        ensure!(
            fw == ep,
            "the firmware decodes SYN options {fw:?}, etherparse {ep:?}"
        );
    }
    ensure!(
        find_timestamps(opts) == ts,
        "the firmware finds timestamps {:?}, etherparse {ts:?}",
        find_timestamps(opts)
    );
    Ok(w)
}

fn check_arp(f: &[u8], eth: &Ethernet2Header, a: &[u8]) -> Result<WireArp, String> {
    ensure!(
        f.len() == MIN_FRAME,
        "an ARP frame is {} bytes, not one 60-byte minimum frame",
        f.len()
    );
    let be16 = |at: usize| u16::from_be_bytes([a[at], a[at + 1]]);
    let mac = |at: usize| -> [u8; 6] { a[at..at + 6].try_into().unwrap() };
    let ip = |at: usize| u32::from_be_bytes(a[at..at + 4].try_into().unwrap());
    // RFC 826: hardware type Ethernet, protocol IPv4, address lengths 6 and 4.
    ensure!(be16(0) == 1, "ARP hardware type {}", be16(0));
    ensure!(be16(2) == 0x0800, "ARP protocol type {:#06x}", be16(2));
    ensure!(
        a[4] == 6 && a[5] == 4,
        "ARP address lengths {} {}",
        a[4],
        a[5]
    );
    let w = WireArp {
        dst_mac: eth.destination,
        src_mac: eth.source,
        op: be16(6),
        sender_mac: mac(8),
        sender_ip: ip(14),
        target_mac: mac(18),
        target_ip: ip(24),
    };
    ensure!(
        w.op == 2,
        "ARP operation {}: the card sends replies only",
        w.op
    );
    ensure!(
        w.sender_mac == w.src_mac,
        "ARP sender {:02x?} is not the frame's source {:02x?}",
        w.sender_mac,
        w.src_mac
    );
    ensure!(
        w.target_mac == w.dst_mac,
        "ARP reply's target {:02x?} is not the frame's destination {:02x?}",
        w.target_mac,
        w.dst_mac
    );
    ensure!(
        a[28..].iter().all(|&b| b == 0),
        "padding after the ARP packet is not zero"
    );
    let Parsed::Arp(fw) = frame::parse(f) else {
        return Err(format!(
            "the firmware's parser does not see ARP: {:?}",
            frame::parse(f)
        ));
    };
    let fw = (fw.op, fw.sender_mac, fw.sender_ip, fw.target_ip);
    let ep = (w.op, w.sender_mac, w.sender_ip, w.target_ip);
    ensure!(
        fw == ep,
        "the firmware's parser reads {fw:?}, the RFC 826 offsets {ep:?}"
    );
    Ok(w)
}
