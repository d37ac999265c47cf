//! pkt_inject_buf at DATA_WIDTH 64 and 512: frames built with etherparse, checksum fields
//! zeroed, offload requested -> the output equals etherparse's frame with its full
//! checksum computation; committed frames leave back-to-back at one beat per cycle.

use etherparse::{IpNumber, Ipv4Header, Ipv4Options, TcpHeader};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use splicenic_tb_queues::{inj_run, InjFrame, Width, INJ_SLOTS};

/// A random Ethernet (optional 802.1Q) / IPv4 (random options) / TCP (random options)
/// frame; checksums computed by etherparse (the reference). `prefix` extra bytes in front
/// move every header to an odd offset when odd. Returns (expected frame, input frame
/// for the module, commit parameters).
fn frame(rng: &mut ChaCha8Rng, prefix: usize) -> (Vec<u8>, InjFrame) {
    let payload_len = match rng.gen_range(0..4) {
        0 => 0,
        1 => rng.gen_range(1..=40),
        _ => rng.gen_range(1..=1400),
    };
    let payload: Vec<u8> = (0..payload_len).map(|_| rng.gen()).collect();
    let mut tcp = TcpHeader::new(rng.gen(), rng.gen(), rng.gen(), rng.gen());
    tcp.acknowledgment_number = rng.gen();
    tcp.ack = true;
    tcp.psh = rng.gen();
    let topt = 4 * rng.gen_range(0..=10usize);
    let topts: Vec<u8> = (0..topt).map(|_| 1u8).collect();
    tcp.set_options_raw(&topts).expect("tcp options");
    let mut ip = Ipv4Header::new(0, rng.gen(), IpNumber::TCP, rng.gen(), rng.gen()).expect("ip");
    ip.identification = rng.gen();
    let iopt = 4 * rng.gen_range(0..=10usize);
    let iopts: Vec<u8> = (0..iopt).map(|_| 1u8).collect();
    ip.options = Ipv4Options::try_from(&iopts[..]).expect("ip options");
    ip.set_payload_len(tcp.header_len() + payload.len())
        .expect("ip length");
    ip.header_checksum = ip.calc_header_checksum();
    tcp.checksum = tcp.calc_checksum_ipv4(&ip, &payload).expect("tcp checksum");

    let mut f: Vec<u8> = (0..prefix).map(|_| rng.gen()).collect();
    let mut eth = vec![0u8; 12];
    rng.fill(&mut eth[..]);
    f.extend_from_slice(&eth);
    if rng.gen_bool(0.3) {
        f.extend_from_slice(&[0x81, 0x00, rng.gen::<u8>() & 0x0f, rng.gen()]);
    }
    f.extend_from_slice(&[0x08, 0x00]);
    let ip_off = f.len();
    f.extend_from_slice(&ip.to_bytes());
    let l4_off = f.len();
    f.extend_from_slice(&tcp.to_bytes());
    f.extend_from_slice(&payload);
    let l4_end = f.len();
    while f.len() < 60 + prefix {
        f.push(0); // Ethernet padding past the IP datagram
    }
    let csum_ip = rng.gen_bool(0.8);
    let csum_tcp = rng.gen_bool(0.8);
    let mut input = f.clone();
    if csum_ip {
        input[ip_off + 10] = 0;
        input[ip_off + 11] = 0;
    }
    if csum_tcp {
        input[l4_off + 16] = 0;
        input[l4_off + 17] = 0;
    }
    let to16 = |v: usize| u16::try_from(v).expect("offset");
    (
        f,
        InjFrame {
            data: input,
            csum_ip,
            csum_tcp,
            ip_off: to16(ip_off),
            l4_off: to16(l4_off),
            l4_end: to16(l4_end),
        },
    )
}

fn check(width: Width, seed: u64, n: usize, ready_pct: u32, hold: bool) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (expected, input): (Vec<_>, Vec<_>) = (0..n)
        .map(|_| {
            let prefix = if rng.gen_bool(0.25) { 1 } else { 0 };
            frame(&mut rng, prefix)
        })
        .unzip();
    let r = inj_run(width, &input, ready_pct, hold, seed as u32).expect("run");
    assert_eq!(r.frames.len(), n, "frames out");
    assert_eq!(r.run.frames, n as u64);
    assert_eq!(r.run.bad_commit, 0);
    for (i, (g, e)) in r.frames.iter().zip(&expected).enumerate() {
        assert_eq!(g.len(), e.len(), "frame {i} length");
        assert!(g == e, "frame {i}: output differs from etherparse's frame");
    }
    let beats: u64 = expected
        .iter()
        .map(|f| f.len().div_ceil(width.bytes()) as u64)
        .sum();
    assert_eq!(r.run.beats, beats);
    if ready_pct >= 100 && hold {
        // Checksummed frames leave back-to-back: one beat every cycle across each batch.
        assert_eq!(
            r.run.busy_cycles, r.run.beats,
            "output not at one beat per cycle"
        );
    }
    if ready_pct >= 100 {
        println!(
            "{width:?} hold={hold}: {} beats in {} output cycles ({:.3} beats/cycle), commit-to-first-beat {} cycles",
            r.run.beats,
            r.run.busy_cycles,
            r.run.beats as f64 / r.run.busy_cycles as f64,
            r.run.first_latency
        );
    }
}

#[test]
fn inject_64_checksums_and_line_rate() {
    check(Width::W64, 31, 120, 100, true);
    check(Width::W64, 31, 120, 100, false);
    check(Width::W64, 32, 60, 60, false);
}

#[test]
fn inject_512_checksums_and_line_rate() {
    check(Width::W512, 33, 120, 100, true);
    check(Width::W512, 33, 120, 100, false);
    check(Width::W512, 34, 60, 60, false);
}

#[test]
fn inject_bad_commits_are_refused() {
    let mut rng = ChaCha8Rng::seed_from_u64(35);
    let (good, mut a) = frame(&mut rng, 0);
    let (_, mut b) = frame(&mut rng, 0);
    b.l4_end = u16::try_from(b.data.len() + 1).unwrap_or(u16::MAX); // past the frame
    b.csum_tcp = true;
    a.csum_ip = true;
    a.csum_tcp = true;
    // Bad commits last: the firmware model writes the batch into consecutive slots.
    let r = inj_run(Width::W64, &[a, b, InjFrame::default()], 100, false, 1).expect("run");
    assert_eq!(r.run.bad_commit, 2);
    assert_eq!(r.frames, vec![good]);
    let _ = INJ_SLOTS;
}
