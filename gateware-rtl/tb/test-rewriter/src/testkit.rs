//! Helpers the rewriter tests share: random Ethernet(/802.1Q)/IPv4/TCP frames built with
//! etherparse, random rewrite descriptors, and the checks every rewritten frame must pass.

use crate::{reference, Desc, FrameInfo, Rewriter};
use etherparse::{
    EtherType, Ethernet2Header, IpNumber, Ipv4Header, Ipv4Options, SingleVlanHeader, TcpHeader,
    VlanId, VlanPcp,
};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// A frame and the parser's view of it.
pub struct TestFrame {
    /// The frame, Ethernet header to the end of the padding.
    pub bytes: Vec<u8>,
    /// Offset of the IPv4 header (14, or 18 with a VLAN tag).
    pub l3_offset: u8,
    /// IPv4 header length in 32-bit words.
    pub ihl: u8,
    /// TCP data offset in 32-bit words.
    pub doff: u8,
}

/// A u32 that is often close to the 2^32 wrap.
fn near_wrap(rng: &mut ChaCha8Rng) -> u32 {
    match rng.gen_range(0..4) {
        0 => u32::MAX - rng.gen_range(0..4096),
        1 => rng.gen_range(0..4096),
        _ => rng.gen(),
    }
}

/// Random TCP option bytes (<= 40, multiple of 4): NOP runs, SACK with 1-4 blocks, TS, MSS,
/// window scale, SACK-permitted, EOL padding; sometimes a malformed option.
fn gen_options(rng: &mut ChaCha8Rng) -> Vec<u8> {
    let mut o: Vec<u8> = Vec::new();
    for _ in 0..rng.gen_range(0..7) {
        let mut item: Vec<u8> = Vec::new();
        match rng.gen_range(0..9) {
            0 => item.push(1),
            1 => item.extend(std::iter::repeat_n(1, rng.gen_range(1..4))),
            2 | 3 => {
                item.extend([8, 10]);
                item.extend(near_wrap(rng).to_be_bytes());
                item.extend(near_wrap(rng).to_be_bytes());
            }
            4 | 5 => {
                let n = rng.gen_range(1..=4usize);
                item.extend([5, (2 + 8 * n) as u8]);
                for _ in 0..n {
                    let left = near_wrap(rng);
                    item.extend(left.to_be_bytes());
                    item.extend(left.wrapping_add(rng.gen_range(1..3000)).to_be_bytes());
                }
            }
            6 => item.extend([2, 4, 0x05, 0xb4]),
            7 => item.extend([3, 3, rng.gen_range(0..15)]),
            _ => item.extend([4, 2]),
        }
        if o.len() + item.len() <= 40 {
            o.extend(item);
        }
    }
    if rng.gen_range(0..25) == 0 && o.len() + 2 <= 40 {
        // malformed: a length below 2, or an option running past the data offset
        if rng.gen_bool(0.5) {
            o.extend([rng.gen_range(2..=254u8), rng.gen_range(0..2)]);
        } else {
            let room = 40 - o.len();
            o.extend([5, (room + 4).min(255) as u8]);
        }
    }
    if o.len() % 4 != 0 {
        if rng.gen_bool(0.5) {
            o.push(0);
        }
        while o.len() % 4 != 0 {
            o.push(if rng.gen_bool(0.5) { 0 } else { 1 });
        }
    }
    o
}

/// A random valid frame: optional VLAN tag, IPv4 with or without options, TCP with random
/// options and flags, payload of `payload_len` bytes, padded to 60 bytes like Ethernet.
pub fn gen_frame(rng: &mut ChaCha8Rng, payload_len: usize) -> TestFrame {
    gen_frame_with(rng, |_| payload_len)
}

/// Like [`gen_frame`], with the payload length chosen from the header length (Ethernet to
/// the end of the TCP header).
pub fn gen_frame_with(rng: &mut ChaCha8Rng, payload_len: impl FnOnce(usize) -> usize) -> TestFrame {
    let vlan = rng.gen_bool(0.5);
    let mut bytes = Vec::new();
    Ethernet2Header {
        source: rng.gen(),
        destination: rng.gen(),
        ether_type: if vlan {
            EtherType::VLAN_TAGGED_FRAME
        } else {
            EtherType::IPV4
        },
    }
    .write(&mut bytes)
    .expect("ethernet");
    if vlan {
        SingleVlanHeader {
            pcp: VlanPcp::try_new(rng.gen_range(0..8)).expect("pcp"),
            drop_eligible_indicator: false,
            vlan_id: VlanId::try_new(rng.gen_range(0..4095)).expect("vid"),
            ether_type: EtherType::IPV4,
        }
        .write(&mut bytes)
        .expect("vlan");
    }
    let l3_offset = bytes.len() as u8;
    let opts = gen_options(rng);
    let mut tcp = TcpHeader::new(rng.gen(), rng.gen(), near_wrap(rng), rng.gen());
    tcp.acknowledgment_number = near_wrap(rng);
    tcp.ack = rng.gen_range(0..8) != 0;
    tcp.syn = rng.gen_range(0..10) == 0;
    tcp.fin = rng.gen_range(0..10) == 0;
    tcp.psh = rng.gen_bool(0.5);
    tcp.rst = rng.gen_range(0..20) == 0;
    tcp.set_options_raw(&opts).expect("tcp options");
    let mut ip = Ipv4Header::new(0, rng.gen(), IpNumber::TCP, rng.gen(), rng.gen()).expect("ip");
    ip.identification = rng.gen();
    if rng.gen_range(0..6) == 0 {
        let n = 4 * rng.gen_range(1..=10usize);
        let mut io = vec![1u8; n];
        io[n - 1] = 0;
        ip.options = Ipv4Options::try_from(&io[..]).expect("ip options");
    }
    let hdr = bytes.len() + ip.header_len() + tcp.header_len();
    let payload: Vec<u8> = (0..payload_len(hdr)).map(|_| rng.gen()).collect();
    ip.set_payload_len(tcp.header_len() + payload.len())
        .expect("ip len");
    tcp.checksum = tcp.calc_checksum_ipv4(&ip, &payload).expect("csum");
    let ihl = ip.ihl();
    ip.write(&mut bytes).expect("ip write");
    let doff = tcp.data_offset();
    tcp.write(&mut bytes).expect("tcp write");
    bytes.extend(&payload);
    while bytes.len() < 60 {
        bytes.push(0);
    }
    TestFrame {
        bytes,
        l3_offset,
        ihl,
        doff,
    }
}

/// A random descriptor for `f`: mostly all rewrites on, deltas often crossing 2^32.
pub fn gen_desc(rng: &mut ChaCha8Rng, f: &TestFrame) -> Desc {
    let mut d = Desc {
        flags: if rng.gen_bool(0.7) { 0xff } else { rng.gen() },
        l3_offset: f.l3_offset,
        ihl: f.ihl,
        doff: f.doff,
        eth_dst: rng.gen(),
        eth_src: rng.gen(),
        ip_src: rng.gen(),
        ip_dst: rng.gen(),
        sport: rng.gen(),
        dport: rng.gen(),
        seq_delta: near_wrap(rng),
        ack_delta: near_wrap(rng),
        tsval_delta: near_wrap(rng),
        tsecr_delta: near_wrap(rng),
        wscale_shift: rng.gen_range(-16..=15),
    };
    // now and then offsets the gateware must refuse (frame passes unchanged)
    match rng.gen_range(0..60) {
        0 => d.l3_offset = 16,
        1 => d.doff = 15,
        2 => d.ihl = 4,
        _ => {}
    }
    d
}

/// Check one output frame: equal to the reference model, checksums equal to etherparse's
/// full recompute, payload untouched.
fn check_frame(input: &[u8], d: &Desc, out: &[u8]) -> Result<(), String> {
    let want = reference::rewrite(input, d);
    if out != want.as_slice() {
        let diff: Vec<usize> = (0..out.len().max(want.len()))
            .filter(|&i| out.get(i) != want.get(i))
            .collect();
        return Err(format!(
            "output differs from the reference at bytes {diff:?} (len {} vs {}), desc {d:?}",
            out.len(),
            want.len()
        ));
    }
    if !reference::usable(input, d) {
        return Ok(());
    }
    let l3 = usize::from(d.l3_offset);
    let (ip, rest) = Ipv4Header::from_slice(&out[l3..]).map_err(|e| format!("ip parse: {e}"))?;
    if ip.header_checksum != ip.calc_header_checksum() {
        return Err(format!(
            "IP checksum {:#06x}, full recompute {:#06x}",
            ip.header_checksum,
            ip.calc_header_checksum()
        ));
    }
    let seg = &rest[..usize::from(ip.payload_len().map_err(|e| format!("{e}"))?)];
    let (tcp, payload) = TcpHeader::from_slice(seg).map_err(|e| format!("tcp parse: {e}"))?;
    let full = tcp
        .calc_checksum_ipv4(&ip, payload)
        .map_err(|e| format!("{e}"))?;
    if tcp.checksum != full {
        return Err(format!(
            "TCP checksum {:#06x}, full recompute {full:#06x}",
            tcp.checksum
        ));
    }
    let hdr_end = l3 + 4 * usize::from(d.ihl) + 4 * usize::from(d.doff);
    if out[hdr_end..] != input[hdr_end..] {
        return Err("payload changed".into());
    }
    Ok(())
}

/// Push all frames, run, and check every output frame; returns the rewriter's frame infos.
pub fn run_and_check(
    rw: &mut Rewriter,
    frames: &[(Vec<u8>, Desc)],
    max_cycles: u64,
) -> Vec<FrameInfo> {
    for (f, d) in frames {
        rw.push(f, d).expect("push");
    }
    rw.run(max_cycles)
        .unwrap_or_else(|e| panic!("{:?}: {e}", rw.width()));
    let mut infos = Vec::new();
    for (i, (f, d)) in frames.iter().enumerate() {
        let (out, info) = rw
            .pop()
            .unwrap_or_else(|| panic!("{:?}: frame {i} missing", rw.width()));
        if let Err(e) = check_frame(f, d, &out) {
            panic!("{:?}: frame {i}: {e}", rw.width());
        }
        infos.push(info);
    }
    assert!(rw.pop().is_none(), "extra output frame");
    infos
}
