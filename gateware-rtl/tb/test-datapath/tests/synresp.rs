//! The SYN responder in the integrated data path (docs/synresp.md): a client's SYN to a
//! virtual service named in DP.SYN_CTRL.VIP_MASK is answered on the client port with a
//! cookie SYN-ACK and goes no further (no punt, no flow, STATS port SYN_ANSWERED); every
//! other SYN is punted as before. The SYN-ACKs are checked independently of the RTL: parsed
//! with etherparse (checksums recomputed), the cookie checked with the firmware's model
//! (`splicenic_fw_logic::cookie::cookie_check`) and the options decoded back from the
//! TSval (`ts_decode`).
//!
//! `flood_at_wire_rate` is the flood benchmark: 10,000 SYNs from spoofed sources paced at
//! wire rate (preamble and inter-frame gap counted), legitimate clients interleaved whose
//! handshake-completing ACKs must reach the firmware, each set up by the ACK validator (a
//! slot and a flow entry per legitimate client, none for the flood); it prints exact cycle
//! figures and,
//! with `$SPLICENIC_BENCH_DIR` set, writes them to `<dir>/synflood.json`.

use etherparse::{Ipv4Header, TcpHeader, TcpOptionElement};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::json;
use splicenic_driver::regs;
use splicenic_fw_logic::cookie::{cookie_check, CookieKeys, CookieTuple};
use splicenic_layout::frame_class;
use splicenic_layout::stats as idx;
use splicenic_tb_datapath::engine::*;
use splicenic_tb_datapath::testkit::*;
use splicenic_tb_datapath::{Datapath, Port};

/// Flood size of the benchmark.
const FLOOD: usize = 10_000;
/// One legitimate client per this many flood SYNs.
const LEGIT_EVERY: usize = 100;
/// The command that prints the flood figures (recorded in the JSON).
const COMMAND: &str = "cargo test --release -p splicenic-tb-datapath --test synresp -- --nocapture";

fn answered(dp: &mut Datapath) -> u64 {
    stat(dp, port_idx(Port::Client, idx::port::SYN_ANSWERED))
}

fn answers_and_exceptions(width: u32) {
    let mut dp = Datapath::new(width).expect("model");
    configure(&mut dp);
    let mut rng = ChaCha8Rng::seed_from_u64(0x5e5 + u64::from(width));
    assert_eq!(
        dp.read(r(regs::dp::SYN_PARAMS)) & 0xff,
        if width == 64 { 2 } else { 8 },
        "SYN_PARAMS.UNITS"
    );
    // Off after reset: a SYN is punted.
    let s = Syn::random(&mut rng);
    dp.push(Port::Client, &s.frame(false, false), false);
    assert!(dp.settle(200, 100_000));
    assert!(dp.drain(Port::Client).is_empty(), "no SYN-ACK while off");
    assert_eq!(punts(&mut dp).len(), 1, "SYN punted while off");

    // On, every offer combination: random SYNs answered in order, nothing punted.
    let mut total = 0;
    for combo in 0..8u32 {
        let offer = (combo & 1 != 0, combo & 2 != 0, combo & 4 != 0);
        let keys = enable(&mut dp, &mut rng, offer);
        let syns: Vec<Syn> = (0..150).map(|_| Syn::random(&mut rng)).collect();
        for s in &syns {
            dp.push(Port::Client, &s.frame(false, false), false);
        }
        assert!(dp.settle(400, 2_000_000), "SYNs drain");
        let out = dp.drain(Port::Client);
        assert_eq!(
            out.len(),
            syns.len(),
            "one SYN-ACK per SYN (offer {offer:?})"
        );
        for (s, f) in syns.iter().zip(&out) {
            check_synack(s, &f.data, &keys, offer);
        }
        assert!(
            punts(&mut dp).is_empty(),
            "nothing punted (offer {offer:?})"
        );
        total += syns.len() as u64;
        assert_eq!(answered(&mut dp), total, "STATS SYN_ANSWERED");
    }
    assert_eq!(
        dp.read(r(regs::flow::ENTRIES)),
        0,
        "no flow-table entry for a SYN"
    );

    // Exceptions stay with the firmware, interleaved with answered SYNs (the side FIFO and
    // the verdicts must stay paired): a tagged SYN, a SYN with FIN, a SYN to a VIP entry
    // not in the mask, a SYN on an established flow, a SYN-ACK from a client.
    let offer = (true, true, true);
    let keys = enable(&mut dp, &mut rng, offer);
    let f = Flow::sample(21);
    install(&mut dp, &f);
    dp.write(r(regs::dp::VIP_ADDR) + 8, a([10, 0, 0, 101]));
    dp.write(r(regs::dp::VIP_PORT) + 8, (1 << 31) | u32::from(VIP_PORT));
    // Rounds of 12 frames: 10 exceptions fit the punt ring (16 slots) with room to spare.
    for round in 0..5 {
        exceptions_round(&mut dp, &mut rng, &keys, offer, &f, round);
    }
    assert_eq!(dp.read(r(regs::dp::SYN_CTRL)) & 0xff, 1, "mask unchanged");
}

fn exceptions_round(
    dp: &mut Datapath,
    rng: &mut ChaCha8Rng,
    keys: &CookieKeys,
    offer: (bool, bool, bool),
    f: &Flow,
    round: usize,
) {
    let mut want_punt = Vec::new();
    let mut want_ack = Vec::new();
    for i in 0..12 {
        let s = Syn::random(rng);
        let (frame, punted) = match (i + round) % 6 {
            0 => (s.frame(true, false), true),
            1 => {
                let mut b = s.frame(false, false);
                b[47] |= 0x01; // FIN
                fix_tcp_checksum(&mut b);
                (b, true)
            }
            2 => {
                let mut b = s.frame(false, false);
                b[33] = 101; // the VIP of entry 1
                fix_ip_checksum(&mut b);
                fix_tcp_checksum(&mut b);
                (b, true)
            }
            3 => {
                let fs = Syn {
                    mac: f.client_mac,
                    ip: f.client_ip,
                    port: f.client_port,
                    ..s
                };
                (fs.frame(false, false), true)
            }
            4 => (s.frame(false, true), true),
            _ => (s.frame(false, false), false),
        };
        dp.push(Port::Client, &frame, false);
        if punted {
            want_punt.push(frame);
        } else {
            want_ack.push(s);
        }
    }
    assert!(dp.settle(400, 2_000_000));
    let out = dp.drain(Port::Client);
    assert_eq!(
        out.len(),
        want_ack.len(),
        "SYN-ACKs for the plain SYNs only"
    );
    for (s, f) in want_ack.iter().zip(&out) {
        check_synack(s, &f.data, keys, offer);
    }
    let got = punts(dp);
    assert_eq!(got.len(), want_punt.len(), "the exceptions are punted");
    for ((d, b), want) in got.iter().zip(&want_punt) {
        assert_eq!(b, want, "punted frame");
        let m = meta(d);
        assert!(
            m.class == frame_class::VIP,
            "punted as VIP traffic (class {})",
            m.class
        );
    }
}

fn fix_ip_checksum(b: &mut [u8]) {
    b[24] = 0;
    b[25] = 0;
    let h = Ipv4Header::from_slice(&b[14..]).expect("ip").0;
    b[24..26].copy_from_slice(&h.calc_header_checksum().to_be_bytes());
}

#[test]
fn answers_and_exceptions_64() {
    answers_and_exceptions(64);
}

#[test]
fn answers_and_exceptions_512() {
    answers_and_exceptions(512);
}

/// Key rotation as the firmware does it: cookies of the previous epoch still check, the
/// epoch before fails; new cookies name the new slot.
#[test]
fn key_rotation() {
    let mut dp = Datapath::new(64).expect("model");
    configure(&mut dp);
    let mut rng = ChaCha8Rng::seed_from_u64(77);
    let offer = (true, true, true);
    let mut keys = enable(&mut dp, &mut rng, offer);
    for round in 0..4 {
        let s = Syn::random(&mut rng);
        dp.push(Port::Client, &s.frame(false, false), false);
        assert!(dp.settle(200, 100_000));
        let out = dp.drain(Port::Client);
        assert_eq!(out.len(), 1);
        let cookie = check_synack(&s, &out[0].data, &keys, offer);
        assert_eq!(
            u8::from(cookie & 1 == 1),
            keys.current & 1,
            "epoch bit, round {round}"
        );
        // rotate: the idle slot first, then the epoch
        let k: [u32; 2] = [rng.gen(), rng.gen()];
        let idle = (keys.current & 1) ^ 1;
        dp.write(r(regs::dp::COOKIE_KEY_LO), k[0]);
        dp.write(r(regs::dp::COOKIE_KEY_HI), k[1]);
        dp.write(r(regs::dp::COOKIE_KEY_WR), u32::from(idle));
        keys.rotate(k);
        write_ctrl(&mut dp, 1, offer, &keys);
        let tuple = CookieTuple {
            client_ip: u32::from_be_bytes(s.ip),
            vip: u32::from_be_bytes(VIP),
            client_port: s.port,
            vip_port: VIP_PORT,
        };
        assert!(
            cookie_check(&keys, &tuple, s.isn, cookie).is_ok(),
            "previous epoch checks"
        );
    }
}

/// The flood benchmark (exact cycle counts of the Verilated RTL): SYNs with Linux-like
/// option mixes, and minimum-size SYNs without options (60 bytes, one every 10.5 cycles:
/// the most SYNs the wire can carry).
#[test]
fn flood_at_wire_rate() {
    let mut figs = Vec::new();
    for (name, minimal) in [("mixed", false), ("minimum", true)] {
        figs.extend(flood(64, name, minimal));
    }
    if let Some(dir) = std::env::var_os("SPLICENIC_BENCH_DIR").filter(|d| !d.is_empty()) {
        let dir = std::path::PathBuf::from(dir);
        std::fs::create_dir_all(&dir).expect("bench dir");
        let doc = json!({
            "bench": "synflood",
            "command": COMMAND,
            "figures": figs,
            "series": [],
        });
        let path = dir.join("synflood.json");
        std::fs::write(&path, serde_json::to_string_pretty(&doc).expect("json"))
            .expect("write bench json");
        println!("SYN flood figures written to {}", path.display());
    }
}

/// One flood run; its figures for the JSON.
fn flood(width: u32, name: &str, minimal: bool) -> Vec<serde_json::Value> {
    let mut dp = Datapath::new(width).expect("model");
    configure(&mut dp);
    let mut rng = ChaCha8Rng::seed_from_u64(0xf100d);
    let offer = (true, true, true);
    let keys = enable(&mut dp, &mut rng, offer);
    // The ACK validator on, with a slot for every legitimate client and some to spare.
    dp.write(r(regs::dp::ACK_CTRL), 1);
    let free = FLOOD / LEGIT_EVERY + 28;
    for slot in 0..free {
        free_push(&mut dp, slot as u16, 1);
    }
    dp.set_wire_pace(true);
    // the flood with one legitimate client's SYN every LEGIT_EVERY frames
    let mut sent = Vec::new();
    let mut frames = Vec::new();
    let mut wire_bytes = 0usize;
    for i in 0..FLOOD + FLOOD / LEGIT_EVERY {
        let mut s = Syn::random(&mut rng);
        if minimal {
            s = Syn {
                mss: None,
                ws: None,
                sack: false,
                ts: None,
                ..s
            };
        }
        let b = s.frame(false, false);
        wire_bytes += b.len().max(60) + 4 + 8 + 12;
        frames.push(b);
        sent.push((s, i % (LEGIT_EVERY + 1) == LEGIT_EVERY));
    }
    // Frames go in as the wire delivers them: the RX queue is kept a few frames deep (the
    // pacing decides when each starts), so a client's ACK follows its SYN-ACK at once
    // instead of waiting behind the whole flood.
    let mut next = 0;
    dp.reset_stats();
    let start = dp.cycles();
    // the legitimate clients answer their SYN-ACK as soon as it is out: the ACK goes in
    // behind the flood frames still queued, like any client's
    let mut acks = 0;
    let mut synacks = Vec::new();
    let mut punted = Vec::new();
    while next < frames.len() || dp.rx_pending(Port::Client) > 0 || synacks.len() < sent.len() {
        while next < frames.len() && dp.rx_pending(Port::Client) < 16 {
            dp.push(Port::Client, &frames[next], false);
            next += 1;
        }
        dp.tick(64);
        // the firmware's part: take what is punted
        punted.extend(punts(&mut dp));
        while let Some(f) = dp.pop(Port::Client) {
            let (s, legit) = sent[synacks.len()];
            let cookie = check_synack(&s, &f.data, &keys, offer);
            if legit {
                let mut tcp = TcpHeader::new(s.port, VIP_PORT, s.isn.wrapping_add(1), 502);
                tcp.acknowledgment_number = cookie.wrapping_add(1);
                tcp.ack = true;
                if let Some(t) = s.ts {
                    let p = etherparse::SlicedPacket::from_ethernet(&f.data).expect("parse");
                    let Some(etherparse::TransportSlice::Tcp(th)) = p.transport else {
                        panic!("tcp")
                    };
                    let tsval = th
                        .options_iterator()
                        .find_map(|o| match o {
                            Ok(TcpOptionElement::Timestamp(v, _)) => Some(v),
                            _ => None,
                        })
                        .expect("TS");
                    tcp.set_options(&[
                        TcpOptionElement::Noop,
                        TcpOptionElement::Noop,
                        TcpOptionElement::Timestamp(t.wrapping_add(1), tsval),
                    ])
                    .expect("ts");
                }
                let b = segment(s.mac, s.ip, tcp, &[], false);
                wire_bytes += b.len().max(60) + 4 + 8 + 12;
                dp.push(Port::Client, &b, false);
                acks += 1;
            }
            synacks.push(f.first_cycle);
        }
        assert!(dp.cycles() - start < 50_000_000, "flood does not finish");
    }
    assert!(dp.settle(400, 1_000_000));
    let rx = dp.port_stats(Port::Client);
    let end = dp.cycles();
    let syns = sent.len();
    let legit = sent.iter().filter(|s| s.1).count();
    assert_eq!(synacks.len(), syns, "every SYN answered");
    assert_eq!(answered(&mut dp), syns as u64, "STATS SYN_ANSWERED");
    punted.extend(punts(&mut dp));
    assert_eq!(
        punted.len(),
        legit,
        "only the legitimate clients' ACKs reach the firmware"
    );
    let mut slots = std::collections::HashSet::new();
    for (d, _) in &punted {
        let m = meta(d);
        assert!(
            m.tcp_flags & 0x10 != 0 && m.tcp_flags & 0x02 == 0,
            "a punted frame is an ACK"
        );
        // each one set up by the ACK validator, in a slot of its own
        assert_eq!(m.engine, splicenic_layout::engine_verdict::NEW, "verdict");
        assert!(
            m.flow_hit && slots.insert(m.flow_slot),
            "slot {}",
            m.flow_slot
        );
    }
    assert_eq!(acks, legit);
    assert_eq!(
        dp.read(r(regs::flow::ENTRIES)),
        legit as u32,
        "a flow-table entry per legitimate client, none for the flood"
    );
    assert_eq!(
        free_level(&mut dp) as usize,
        free - legit,
        "a slot per legitimate client, none for the flood"
    );
    assert_eq!(dp.read(r(regs::punt::DROP_FULL)), 0, "no punt lost");
    assert_eq!(
        stat(&mut dp, port_idx(Port::Client, idx::port::DROPPED)),
        0,
        "nothing dropped"
    );
    // wire time of what was offered vs the cycles the port took to accept it
    let kb = (width / 8) as usize;
    let wire_cycles = wire_bytes.div_ceil(kb) as u64;
    let rx_cycles = rx.rx_last_cycle - rx.rx_first_cycle + 1;
    let latency = synacks[0] - start;
    println!(
        "SYN flood, {name} SYNs (DATA_WIDTH {width}, wire rate {} Gb/s at 156.25 MHz): {syns} SYNs \
         ({legit} legitimate), {} SYN-ACKs, {} punted (the legitimate ACKs, each set up by the \
         ACK validator: {legit} slots taken, {legit} flow entries, none for the flood); \
         RX {rx_cycles} cycles for {wire_cycles} cycles of wire time ({:.3}), \
         first SYN-ACK after {latency} cycles, {} cycles in all",
        width as f64 * 156.25e6 / 1e9,
        synacks.len(),
        punted.len(),
        rx_cycles as f64 / wire_cycles as f64,
        end - start
    );
    assert!(
        rx_cycles <= wire_cycles + 200,
        "the client port kept up with the wire: {rx_cycles} cycles for {wire_cycles}"
    );
    let fig = |key: &str, label: &str, value: f64, unit: &str| {
        json!({"key": format!("synflood.{name}.{key}"), "label": format!("{name} SYNs: {label}"),
               "value": value, "unit": unit, "kind": "exact",
               "how": "Verilated data path (DATA_WIDTH 64), client port paced at wire rate"})
    };
    vec![
        fig(
            "syns",
            "SYNs offered (spoofed flood and legitimate clients)",
            syns as f64,
            "frames",
        ),
        fig(
            "legit",
            "legitimate clients among them",
            legit as f64,
            "clients",
        ),
        fig(
            "synacks",
            "cookie SYN-ACKs sent",
            synacks.len() as f64,
            "frames",
        ),
        fig(
            "punted",
            "frames punted to the firmware (the legitimate ACKs)",
            punted.len() as f64,
            "frames",
        ),
        fig(
            "flow_entries",
            "flow-table entries made for the flood",
            0.0,
            "entries",
        ),
        fig(
            "rx_ratio",
            "RX cycles / wire-time cycles of the offered frames",
            rx_cycles as f64 / wire_cycles as f64,
            "ratio",
        ),
        fig(
            "latency",
            "first SYN-ACK out after the first SYN in",
            latency as f64,
            "cycles",
        ),
    ]
}

// ----- ACK validator (docs/engine.md) ---------------------------------------------------

use splicenic_layout::{engine_verdict as ev, flow_state, FlowStatic};

fn ack_validator(width: u32) {
    let mut dp = Datapath::new(width).expect("model");
    configure(&mut dp);
    let mut rng = ChaCha8Rng::seed_from_u64(0xac4 + u64::from(width));
    let offer = (true, true, true);
    let keys = enable(&mut dp, &mut rng, offer);
    let depth = dp.read(r(regs::dp::FREE_STATUS)) >> 16;
    assert_eq!(depth, 512, "FREE_STATUS.DEPTH");

    // Off (ACK_CTRL reset value): a handshake ACK is punted unchecked.
    let s = Syn::random(&mut rng);
    dp.push(Port::Client, &s.frame(false, false), false);
    assert!(dp.settle(200, 100_000));
    let cookie = check_synack(&s, &dp.drain(Port::Client)[0].data, &keys, offer);
    dp.push(Port::Client, &hs_ack(&s, cookie, 0, &[]), false);
    assert!(dp.settle(200, 100_000));
    let p = punts(&mut dp);
    assert_eq!(p.len(), 1);
    assert_eq!(meta(&p[0].0).engine, ev::NONE, "validation off");
    assert!(!meta(&p[0].0).flow_hit);

    dp.write(r(regs::dp::ACK_CTRL), 1);
    assert_eq!(dp.read(r(regs::dp::ACK_CTRL)), 1);
    let mut model = EngineModel::new(keys);
    model.validate = true;
    let mut gen: u8 = 1;
    let mut next_slot: u16 = 40;
    let mut push = |dp: &mut Datapath, model: &mut EngineModel, n: usize| {
        for _ in 0..n {
            free_push(dp, next_slot, gen);
            model.push(next_slot, gen);
            next_slot += 3;
            gen = gen.wrapping_add(1).max(1);
        }
    };
    push(&mut dp, &mut model, 20);
    assert_eq!(free_level(&mut dp), 20);

    // Rounds of 4 clients: SYN -> cookie; then, interleaved, each client's ACK with the
    // request right behind it, a forged ACK (a wrong cookie) and a retransmitted ACK.
    // The free list runs dry on the way (NO_SLOT) and is refilled.
    let mut counts = [0u64; 8];
    let mut entries = 0u32;
    for round in 0..12 {
        let clients: Vec<Syn> = (0..4).map(|_| Syn::random(&mut rng)).collect();
        for c in &clients {
            dp.push(Port::Client, &c.frame(false, false), false);
        }
        assert!(dp.settle(300, 500_000));
        let out = dp.drain(Port::Client);
        assert_eq!(out.len(), clients.len());
        let cookies: Vec<u32> = clients
            .iter()
            .zip(&out)
            .map(|(c, f)| check_synack(c, &f.data, &keys, offer))
            .collect();
        let mut sent = Vec::new();
        for (c, &ck) in clients.iter().zip(&cookies) {
            let req = b"GET / HTTP/1.1\r\nHost: a\r\n\r\n";
            let forged = ck ^ (1 << rng.gen_range(3..32));
            for (ack, off, pay) in [
                (ck, 0, &[][..]),
                (ck, 0, &req[..]),
                (forged, 0, &[][..]),
                (ck, req.len() as u32, &[][..]),
            ] {
                let f = hs_ack(c, ack, off, pay);
                dp.push(Port::Client, &f, false);
                sent.push((*c, f));
            }
        }
        assert!(dp.settle(400, 2_000_000), "round {round} drains");
        let got = punts(&mut dp);
        assert_eq!(
            got.len(),
            sent.len(),
            "every candidate punted (round {round})"
        );
        for ((d, b), (c, f)) in got.iter().zip(&sent) {
            assert_eq!(b, f, "punted frame");
            let m = meta(d);
            let Out::Punt(want) = model.frame(f) else {
                panic!("the model answers a handshake ACK")
            };
            check_punt(&want, d).unwrap_or_else(|e| panic!("round {round}: {e}"));
            counts[usize::from(m.engine)] += 1;
            if want.verdict == ev::NEW && !want.found_or_hit {
                let (slot, _) = want.slot.expect("NEW names its slot");
                assert_eq!(m.flow_state, flow_state::HANDSHAKE);
                entries += 1;
                // The entry the validator wrote: HANDSHAKE with the client half.
                let (st, _) = read_state(&mut dp, slot);
                let e = FlowStatic::unpack_at(&st, 0);
                assert_eq!(e.state, flow_state::HANDSHAKE);
                assert_eq!(e.client.peer_ip, u32::from_be_bytes(c.ip));
                assert_eq!(e.client.peer_port, c.port);
                assert_eq!(e.client.local_ip, a(VIP));
                assert_eq!(e.client.local_port, VIP_PORT);
            }
        }
        assert_eq!(dp.read(r(regs::flow::ENTRIES)), entries, "one key per NEW");
        if round % 4 == 3 {
            push(&mut dp, &mut model, 6);
        }
    }
    // Counters match the verdicts; nothing lost; every slot pushed is either handed out
    // (NEW) or still in the list.
    for (reg, v) in [
        (regs::dp::ACK_NEW, ev::NEW),
        (regs::dp::ACK_FOUND, ev::FOUND),
        (regs::dp::ACK_BAD_COOKIE, ev::BAD_COOKIE),
        (regs::dp::ACK_NO_SLOT, ev::NO_SLOT),
    ] {
        assert_eq!(
            u64::from(dp.read(r(reg))),
            counts[usize::from(v)],
            "counter of verdict {v}"
        );
    }
    assert!(counts[usize::from(ev::NO_SLOT)] > 0, "the list ran dry");
    // A forged ACK of a client not yet inserted is refused; one behind an inserted key
    // finds that flow (FOUND), as any segment of it.
    assert!(
        counts[usize::from(ev::BAD_COOKIE)] > 0,
        "forged ACKs refused"
    );
    assert!(
        counts[usize::from(ev::FOUND)] > 0,
        "segments behind an insert found"
    );
    assert_eq!(dp.read(r(regs::dp::ACK_LOST)), 0);
    assert_eq!(free_level(&mut dp) as usize, model.free.len());

    // A cookie of a key slot no longer valid: STALE. The current slot flips to 1 without
    // a previous epoch; a cookie made under slot 0 names slot 0.
    let s = Syn::random(&mut rng);
    dp.push(Port::Client, &s.frame(false, false), false);
    assert!(dp.settle(200, 100_000));
    let cookie = check_synack(&s, &dp.drain(Port::Client)[0].data, &keys, offer);
    let mut k2 = keys;
    k2.current = 1;
    k2.previous_valid = false;
    write_ctrl(&mut dp, 1, offer, &k2);
    dp.push(Port::Client, &hs_ack(&s, cookie, 0, &[]), false);
    assert!(dp.settle(200, 100_000));
    let p = punts(&mut dp);
    assert_eq!(meta(&p[0].0).engine, ev::STALE);
    assert_eq!(dp.read(r(regs::dp::ACK_STALE)), 1);

    // Flush: the list empties; a push to it works again after.
    dp.write(r(regs::dp::FREE_CTRL), 1);
    assert!(dp.settle(20, 1000));
    assert_eq!(free_level(&mut dp), 0, "flushed");
    free_push(&mut dp, 7, 1);
    assert_eq!(free_level(&mut dp), 1);
    // A full list refuses pushes and counts them.
    for i in 0..(depth + 3) {
        free_push(&mut dp, i as u16, 1);
    }
    assert_eq!(
        free_level(&mut dp),
        depth + 2,
        "the list's RAM and its two output stages"
    );
    assert_eq!(dp.read(r(regs::dp::FREE_REFUSED)), 2);
}

#[test]
fn ack_validator_64() {
    ack_validator(64);
}

#[test]
fn ack_validator_512() {
    ack_validator(512);
}

/// A flush (DP.FREE_CTRL.FLUSH) while a candidate's insert is in flight, then a push right
/// behind it, at every cycle offset from the ACK's arrival to its verdict: the slot handed
/// out by NEW was popped before the flush, the slot pushed after it stays in the list, and a
/// candidate whose slot the flush took back leaves no key (NO_SLOT). The slots' owners stay
/// exclusive by construction, whatever the firmware's timing.
fn flush_during_insert(width: u32) {
    // outcomes: NEW of slot 11 (popped before the flush), NEW of slot 22 (pushed after it),
    // NO_SLOT (the flush took the slot of an insert in flight)
    let mut seen = [0u32; 3];
    for offset in 0..160u64 {
        let mut dp = Datapath::new(width).expect("model");
        configure(&mut dp);
        let mut rng = ChaCha8Rng::seed_from_u64(0xf1 + offset);
        let offer = (true, true, true);
        let keys = enable(&mut dp, &mut rng, offer);
        dp.write(r(regs::dp::ACK_CTRL), 1);
        free_push(&mut dp, 11, 1);
        let s = Syn::random(&mut rng);
        dp.push(Port::Client, &s.frame(false, false), false);
        assert!(dp.settle(200, 100_000));
        let cookie = check_synack(&s, &dp.drain(Port::Client)[0].data, &keys, offer);
        dp.push(Port::Client, &hs_ack(&s, cookie, 0, &[]), false);
        dp.tick(offset);
        dp.write(r(regs::dp::FREE_CTRL), 1);
        free_push(&mut dp, 22, 2);
        assert!(dp.settle(300, 100_000));
        let p = punts(&mut dp);
        assert_eq!(p.len(), 1, "offset {offset}: one punt");
        let m = meta(&p[0].0);
        let entries = dp.read(r(regs::flow::ENTRIES));
        let level = free_level(&mut dp);
        // What the next candidate must get: the slot still in the list, if any.
        let next = match (m.engine, m.flow_slot) {
            // decided before the flush took slot 11 back (11 popped first) or after the push
            // (22 is the list's head by then)
            (ev::NEW, slot @ (11 | 22)) => {
                let gen = if slot == 11 { 1 } else { 2 };
                assert_eq!(m.slot_gen, gen, "offset {offset}: NEW's generation");
                assert_eq!(entries, 1, "offset {offset}: NEW's key");
                let (st, _) = read_state(&mut dp, slot);
                assert_eq!(FlowStatic::unpack_at(&st, 0).state, flow_state::HANDSHAKE);
                seen[if slot == 11 { 0 } else { 1 }] += 1;
                (slot == 11).then_some(22)
            }
            // the flush took the candidate's slot back while its insert was in flight
            (ev::NO_SLOT, _) => {
                assert!(!m.flow_hit, "offset {offset}: NO_SLOT names no slot");
                assert_eq!(entries, 0, "offset {offset}: no key without a slot");
                let (st, _) = read_state(&mut dp, 11);
                assert_eq!(
                    FlowStatic::unpack_at(&st, 0).state,
                    flow_state::FREE,
                    "offset {offset}: the flushed slot's entry untouched"
                );
                seen[2] += 1;
                Some(22)
            }
            (v, slot) => panic!("offset {offset}: verdict {v} slot {slot}"),
        };
        assert_eq!(
            level,
            u32::from(next.is_some()),
            "offset {offset}: the slot pushed after the flush is in the list until handed out"
        );
        let s2 = Syn::random(&mut rng);
        dp.push(Port::Client, &s2.frame(false, false), false);
        assert!(dp.settle(200, 100_000));
        let c2 = check_synack(&s2, &dp.drain(Port::Client)[0].data, &keys, offer);
        dp.push(Port::Client, &hs_ack(&s2, c2, 0, &[]), false);
        assert!(dp.settle(300, 100_000));
        let m2 = meta(&punts(&mut dp)[0].0);
        match next {
            Some(slot) => assert_eq!(
                (m2.engine, m2.flow_slot, m2.slot_gen),
                (ev::NEW, slot, 2),
                "offset {offset}: the next NEW"
            ),
            None => assert_eq!(m2.engine, ev::NO_SLOT, "offset {offset}: the list is empty"),
        }
    }
    assert!(
        seen[..3].iter().all(|&n| n > 0),
        "every outcome over the sweep (NEW 11, NEW 22, NO_SLOT): {seen:?}"
    );
}

#[test]
fn flush_during_insert_64() {
    flush_during_insert(64);
}

#[test]
fn flush_during_insert_512() {
    flush_during_insert(512);
}
