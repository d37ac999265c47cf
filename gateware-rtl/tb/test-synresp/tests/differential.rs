//! Randomised differential test: every SYN-ACK frame of the RTL equals the reference model
//! (`splicenic_tb_synresp::model::syn_ack`) byte for byte, in SYN order, with no frame
//! missing and none extra, and `stat_answered` counts them. Random option lists (SYN-style
//! lists, the option decoder bench's classes: unknown kinds, malformed and random lists,
//! lengths 0..40, garbage past the length, MSS 0, WS above 14), random addresses, ports and
//! ISNs, random configurations, TS clocks and key rotations (changed while no SYN is in
//! flight), random input stalls and output back-pressure in changing profiles. Every frame
//! is also parsed by etherparse: checksums, options and flags. The seed is printed;
//! SYNRESP_TB_SEED=<n> reruns one, SYNRESP_TB_SYNS=<n> sets the number of SYNs.

use etherparse::{EtherType, LinkSlice, NetSlice, SlicedPacket, TcpOptionElement, TransportSlice};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use splicenic_fw_logic::cookie::{cookie_check, ts_decode, CookieKeys, CookieTuple};
use splicenic_layout::L7_BUFFER_BYTES;
use splicenic_tb_synresp::model::{
    client_options, decode_options, mac_bytes, syn_ack, Config, Syn, SynAck, ETH_LEN, FRAME_LENS,
    MIN_FRAME,
};
use splicenic_tb_synresp::{gen, FrameSink, Inputs, SynResponder, Variant};
use std::collections::VecDeque;

/// SYNs of a run (SYNRESP_TB_SYNS overrides).
const SYNS: u64 = 200_000;
const DEFAULT_SEED: u64 = 0x5e5a_c4ed_0000_0001;

/// An independent check of a SYN-ACK with etherparse: Ethernet II / IPv4 / TCP, both
/// checksums recomputed by etherparse, every option parses, SYN|ACK only, and the fields
/// the SYN and the configuration fix.
fn check_wire(f: &[u8], syn: &Syn, cfg: &Config) -> Result<(), String> {
    let p = SlicedPacket::from_ethernet(f).map_err(|e| format!("etherparse: {e:?}"))?;
    let Some(LinkSlice::Ethernet2(eth)) = &p.link else {
        return Err(format!("not Ethernet II: {:?}", p.link));
    };
    if p.vlan.is_some() {
        return Err("VLAN tag".into());
    }
    if eth.destination() != mac_bytes(syn.eth_src) || eth.source() != mac_bytes(cfg.mac) {
        return Err(format!(
            "MACs {:?} <- {:?}",
            eth.destination(),
            eth.source()
        ));
    }
    if eth.ether_type() != EtherType::IPV4 {
        return Err(format!("EtherType {:?}", eth.ether_type()));
    }
    let Some(NetSlice::Ipv4(ip)) = &p.net else {
        return Err(format!("not IPv4: {:?}", p.net));
    };
    let h = ip.header();
    let calc = h.to_header().calc_header_checksum();
    if calc != h.header_checksum() {
        return Err(format!(
            "IPv4 checksum {:#06x}, etherparse computes {calc:#06x}",
            h.header_checksum()
        ));
    }
    if h.ihl() != 5
        || h.ttl() != 64
        || !h.dont_fragment()
        || h.more_fragments()
        || h.identification() != 0
        || h.source() != syn.ip_dst.to_be_bytes()
        || h.destination() != syn.ip_src.to_be_bytes()
    {
        return Err(format!("IPv4 header {:?}", h.to_header()));
    }
    let end = ETH_LEN + usize::from(h.total_len());
    if f.len() != end.max(MIN_FRAME) || f[end..].iter().any(|&b| b != 0) {
        return Err(format!(
            "frame of {} bytes for IP total length {}, padding {:?}",
            f.len(),
            h.total_len(),
            &f[end.min(f.len())..]
        ));
    }
    let Some(TransportSlice::Tcp(tcp)) = &p.transport else {
        return Err(format!("not TCP: {:?}", p.transport));
    };
    let calc = tcp
        .calc_checksum_ipv4(h.source(), h.destination())
        .map_err(|e| format!("{e:?}"))?;
    if calc != tcp.checksum() {
        return Err(format!(
            "TCP checksum {:#06x}, etherparse computes {calc:#06x}",
            tcp.checksum()
        ));
    }
    let flags = [
        tcp.fin(),
        tcp.syn(),
        tcp.rst(),
        tcp.psh(),
        tcp.ack(),
        tcp.urg(),
        tcp.ece(),
        tcp.cwr(),
        tcp.ns(),
    ];
    if flags != [false, true, false, false, true, false, false, false, false] {
        return Err(format!("TCP flags {flags:?}"));
    }
    if tcp.source_port() != syn.dport
        || tcp.destination_port() != syn.sport
        || tcp.acknowledgment_number() != syn.seq.wrapping_add(1)
        || tcp.window_size() != L7_BUFFER_BYTES as u16
        || tcp.urgent_pointer() != 0
        || !tcp.payload().is_empty()
    {
        return Err(format!("TCP header {:?}", tcp.to_header()));
    }
    let c = client_options(syn);
    let mut mss = None;
    let mut ts = None;
    let mut ws = None;
    let mut sack = false;
    for o in tcp.options_iterator() {
        match o.map_err(|e| format!("TCP option: {e:?}"))? {
            TcpOptionElement::MaximumSegmentSize(m) => mss = Some(m),
            TcpOptionElement::Timestamp(v, e) => ts = Some((v, e)),
            TcpOptionElement::WindowScale(w) => ws = Some(w),
            TcpOptionElement::SelectiveAcknowledgementPermitted => sack = true,
            TcpOptionElement::Noop => {}
            e => return Err(format!("unexpected option {e:?}")),
        }
    }
    if mss != Some(cfg.mss) {
        return Err(format!("MSS option {mss:?}, cfg_mss {}", cfg.mss));
    }
    match ts {
        None => {
            if (cfg.offer_ts && c.tsval.is_some()) || ws.is_some() || sack {
                return Err(format!("no TS option, ws {ws:?} sack {sack}"));
            }
        }
        Some((v, e)) => {
            let want_ws = c.ws.filter(|_| cfg.offer_ws);
            let want_sack = c.sack_perm && cfg.offer_sack;
            let d = ts_decode(v);
            if !cfg.offer_ts
                || c.tsval != Some(e)
                || ws != want_ws
                || sack != want_sack
                || d.wscale != want_ws
                || d.sack_ok != want_sack
            {
                return Err(format!(
                    "TS ({v:#x}, {e:#x}) decodes to {d:?}; ws {ws:?} sack {sack}; client {c:?}"
                ));
            }
        }
    }
    Ok(())
}

/// The model's frames for random SYNs and configurations parse with etherparse, their
/// checksums verify, their cookies check and their TSvals decode to the options sent.
#[test]
fn model_frames_parse_and_verify() {
    let mut rng = StdRng::seed_from_u64(7);
    let mut lens = [0u64; 3];
    for n in 0..20_000u32 {
        let syn = gen::syn(&mut rng);
        let cfg = gen::config(&mut rng);
        let keys = CookieKeys {
            slots: [[rng.gen(), rng.gen()], [rng.gen(), rng.gen()]],
            current: (n & 1) as u8,
            previous_valid: false,
        };
        let now = gen::now(&mut rng);
        let a = syn_ack(
            &syn,
            &cfg,
            keys.slots[usize::from(keys.current)],
            keys.current,
            now,
        );
        check_wire(&a.frame, &syn, &cfg)
            .unwrap_or_else(|e| panic!("{e}: {syn:?} {cfg:?} {:02x?}", a.frame));
        let i = FRAME_LENS
            .iter()
            .position(|&l| l == a.frame.len())
            .expect("one of the three layouts");
        lens[i] += 1;
        let tuple = CookieTuple {
            client_ip: syn.ip_src,
            vip: syn.ip_dst,
            client_port: syn.sport,
            vip_port: syn.dport,
        };
        assert_eq!(cookie_check(&keys, &tuple, syn.seq, a.cookie), Ok(a.class));
        if let Some((tsval, o)) = a.ts {
            assert_eq!(ts_decode(tsval), o);
            assert!(
                now.wrapping_sub(tsval) <= 32,
                "now {now:#x} tsval {tsval:#x}"
            );
        }
    }
    println!("model frames of 60 / 70 / 74 bytes: {lens:?}");
    assert!(lens.iter().all(|&n| n > 1000), "{lens:?}");
}

/// What the run covered.
#[derive(Default, Debug)]
struct Coverage {
    frames: [u64; 3],
    mss_classes: [u64; 4],
    mss_zero: u64,
    ws_over_14: u64,
    unknown: u64,
    malformed: u64,
    ts_not_offered: u64,
    sack_sent: u64,
    idle_points: u64,
    rotations: u64,
    config_changes: u64,
    max_in_flight: usize,
    held_cycles: u64,
    /// Cycles the module was ready and no SYN was presented.
    idle_ready_cycles: u64,
    /// Cycles a SYN was presented and not taken.
    refused_cycles: u64,
}

/// A change made while no SYN is in flight.
enum Action {
    Write(u8, [u32; 2]),
    Flip,
    Revoke,
    Config(Config),
    Now(u32),
}

#[test]
fn rtl_equals_the_reference_model() {
    let seed = splicenic_fuzzkit::env_u64("SYNRESP_TB_SEED").unwrap_or(DEFAULT_SEED);
    let syns = splicenic_fuzzkit::env_u64("SYNRESP_TB_SYNS").unwrap_or(SYNS);
    for v in Variant::ALL {
        println!(
            "syn_responder differential test ({v:?}): seed {seed:#x} (SYNRESP_TB_SEED), {syns} \
             SYNs (SYNRESP_TB_SYNS)"
        );
        run(v, seed, syns);
    }
}

fn run(variant: Variant, seed: u64, syns: u64) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut hw = SynResponder::new(variant).expect("model");
    let mut sink = FrameSink::new(variant);
    let t0 = std::time::Instant::now();

    let mut slots = [[0u32; 2]; 2];
    let mut cur: u8 = 0;
    let mut prev_valid = false;
    let mut cfg = gen::config(&mut rng);
    let mut now = gen::now(&mut rng);
    // Bring-up: both slots written before the first SYN.
    let mut actions: VecDeque<Action> = VecDeque::from([
        Action::Write(0, [rng.gen(), rng.gen()]),
        Action::Write(1, [rng.gen(), rng.gen()]),
    ]);
    let mut want_idle = true;

    let mut expect: VecDeque<(SynAck, Syn, Config, u64)> = VecDeque::new();
    let mut pending: Option<Syn> = None;
    let mut presented = false;
    let mut cov = Coverage::default();
    let (mut issued, mut done) = (0u64, 0u64);
    let mut cycle: u64 = 0;
    let limit = syns * 400 + 10_000;
    let (mut valid_gap, mut ready_gap) = (0u32, 0u32);

    while done < syns {
        assert!(
            cycle < limit,
            "stalled: {done} of {syns} frames after {cycle} cycles (seed {seed:#x})"
        );
        if cycle % 400 == 0 {
            valid_gap = [0, 0, 30, 92][rng.gen_range(0..4)];
            ready_gap = [0, 0, 35, 80][rng.gen_range(0..4)];
        }
        let mut i = Inputs::idle(&cfg);
        i.tready = u32::from(rng.gen_range(0..100) >= ready_gap);
        i.now = now;
        i.cur_epoch = u32::from(cur);
        i.prev_valid = u32::from(prev_valid);
        let mut write = None;
        if want_idle && pending.is_none() && expect.is_empty() {
            // Nothing in flight: one change a cycle.
            match actions.pop_front() {
                Some(Action::Write(s, k)) => {
                    i.set_key_write(s, k);
                    write = Some((s, k));
                }
                Some(Action::Flip) => {
                    cur ^= 1;
                    prev_valid = true;
                    cov.rotations += 1;
                }
                Some(Action::Revoke) => prev_valid = false,
                Some(Action::Config(c)) => {
                    cfg = c;
                    cov.config_changes += 1;
                }
                Some(Action::Now(n)) => now = n,
                None => want_idle = false,
            }
            // The inputs of this cycle with the change applied (a key write lands at its
            // edge).
            i.set_config(&cfg);
            i.now = now;
            i.cur_epoch = u32::from(cur);
            i.prev_valid = u32::from(prev_valid);
        }
        if !want_idle && pending.is_none() && issued < syns {
            if rng.gen_range(0..48) == 0 {
                // Drain, then change things.
                want_idle = true;
                cov.idle_points += 1;
                actions.push_back(Action::Now(gen::now(&mut rng)));
                if rng.gen_bool(0.3) {
                    actions.push_back(Action::Config(gen::config(&mut rng)));
                }
                if rng.gen_bool(0.3) {
                    actions.push_back(Action::Write(cur ^ 1, [rng.gen(), rng.gen()]));
                    actions.push_back(Action::Flip);
                }
                if rng.gen_bool(0.1) {
                    actions.push_back(Action::Revoke);
                }
                if rng.gen_bool(0.05) {
                    actions.push_back(Action::Write(cur, [rng.gen(), rng.gen()]));
                }
            } else {
                pending = Some(gen::syn(&mut rng));
                issued += 1;
                presented = false;
            }
        }
        if let Some(s) = &pending {
            if !presented && rng.gen_range(0..100) >= valid_gap {
                presented = true;
            }
            if presented {
                i.set_syn(s);
            }
        }

        let o = hw.step(&i).expect("step");

        assert_eq!(
            u64::from(o.answered),
            done,
            "cycle {cycle}: stat_answered (seed {seed:#x})"
        );
        if let Some(f) = sink.take(cycle, i.tready == 1, &o) {
            let (want, syn, fcfg, _) = expect
                .pop_front()
                .unwrap_or_else(|| panic!("cycle {cycle}: a frame without a SYN: {f:02x?}"));
            if f.bytes != want.frame {
                let d = f
                    .bytes
                    .iter()
                    .zip(&want.frame)
                    .position(|(a, b)| a != b)
                    .unwrap_or(f.bytes.len().min(want.frame.len()));
                panic!(
                    "cycle {cycle}, seed {seed:#x}: frame {done} differs from the model at \
                     byte {d}\n rtl   {:02x?}\n model {:02x?}\n {syn:?}\n {fcfg:?}\n \
                     now {now:#x} keys {slots:x?} current {cur}\n options {:?}",
                    f.bytes,
                    want.frame,
                    decode_options(&syn)
                );
            }
            check_wire(&f.bytes, &syn, &fcfg)
                .unwrap_or_else(|e| panic!("cycle {cycle}: frame {done}: {e}: {syn:?}"));
            let k = FRAME_LENS
                .iter()
                .position(|&l| l == f.bytes.len())
                .expect("a layout");
            cov.frames[k] += 1;
            done += 1;
        }
        if o.syn_ready == 1 && i.syn_valid == 0 {
            cov.idle_ready_cycles += 1;
        }
        if o.syn_ready == 0 && i.syn_valid == 1 {
            cov.refused_cycles += 1;
        }
        if i.syn_valid == 1 && o.syn_ready == 1 {
            let s = pending.take().expect("presented SYN");
            let want = syn_ack(&s, &cfg, slots[usize::from(cur)], cur, now);
            let r = decode_options(&s);
            let c = client_options(&s);
            cov.mss_classes[usize::from(want.class)] += 1;
            cov.mss_zero += u64::from(r.mss && r.mss_value == 0);
            cov.ws_over_14 += u64::from(r.ws && r.ws_shift > 14);
            cov.unknown += u64::from(r.unknown);
            cov.malformed += u64::from(r.malformed);
            cov.ts_not_offered += u64::from(c.tsval.is_some() && !cfg.offer_ts);
            cov.sack_sent += u64::from(want.ts.is_some_and(|(_, o)| o.sack_ok));
            expect.push_back((want, s, cfg, cycle));
            cov.max_in_flight = cov.max_in_flight.max(expect.len());
        }
        if let Some((s, k)) = write {
            slots[usize::from(s)] = k;
        }
        cycle += 1;
    }
    // Nothing more comes out.
    for _ in 0..300 {
        let o = hw
            .step(&Inputs {
                tready: u32::from(rng.gen_bool(0.5)),
                ..Inputs::idle(&cfg)
            })
            .expect("step");
        assert_eq!(o.tvalid, 0, "cycle {cycle}: a frame after the last SYN's");
        assert_eq!(u64::from(o.answered), syns);
        cycle += 1;
    }
    assert!(expect.is_empty() && pending.is_none() && !sink.mid_frame());
    cov.held_cycles = sink.held_cycles;
    let secs = t0.elapsed().as_secs_f64();
    println!(
        "{done} frames equal to the model in {cycle} cycles ({:.1} cycles per SYN, {secs:.1} \
         s); {cov:?}",
        cycle as f64 / done as f64
    );
    // The mix the run must have covered (scaled to the run's size).
    let part = |d: u64| syns / d;
    assert!(cov.frames.iter().all(|&n| n > part(20)), "{cov:?}");
    assert!(cov.mss_classes.iter().all(|&n| n > part(100)), "{cov:?}");
    assert!(
        cov.mss_zero > part(200) && cov.ws_over_14 > part(200),
        "{cov:?}"
    );
    assert!(
        cov.unknown > part(50) && cov.malformed > part(50),
        "{cov:?}"
    );
    assert!(
        cov.ts_not_offered > part(100) && cov.sack_sent > part(20),
        "{cov:?}"
    );
    assert!(
        cov.rotations > part(1000) && cov.config_changes > part(1000),
        "{cov:?}"
    );
    assert!(
        cov.held_cycles > part(2) && cov.idle_ready_cycles > part(2),
        "{cov:?}"
    );
    assert!(cov.refused_cycles > 0 && cov.max_in_flight > 8, "{cov:?}");
}
