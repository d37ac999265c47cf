//! What does not take the fast path: punted SYNs and request segments (with the L7
//! match riding along as an event), the punt/drop policy, malformed and oversize frames,
//! the firmware's inject rings with checksum offload, the L7 command path on a buffer the
//! firmware assembled, flow-table command results, the fast-path switch, and the punt
//! ring's reserve under a SYN flood. After every bad frame the pipeline keeps draining: a
//! spliced frame sent behind it still comes out.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use splicenic_driver::regs;
use splicenic_fw_logic::flowmgr::tcpopts::Timestamps;
use splicenic_fw_logic::splicer::frame::{GenFrame, GenOpts};
use splicenic_layout::stats as idx;
use splicenic_layout::TX_GEN_LATENCY;
use splicenic_layout::{
    event_type, flow_half, flow_state, frame_class, http_method, parser_reason, punt_why,
    rule_word_index, tcp_kind, EvtHead, EvtPuntReady, EvtRequestMatched,
};
use splicenic_tb_datapath::testkit::*;
use splicenic_tb_datapath::{Datapath, Port};
use splicenic_tb_l7::{encode_rule, reference::Rule};
use splicenic_tb_rewriter::reference;

/// An event's type (record EvtHead).
fn kind(e: &[u32; 4]) -> u8 {
    EvtHead::unpack_at(e, 0).kind
}

fn events(dp: &mut Datapath) -> Vec<[u32; 4]> {
    let mut v = Vec::new();
    while dp.read(r(regs::evq::HEAD_INFO)) >> 31 == 1 {
        let mut w = [0u32; EvtPuntReady::WORDS];
        for (i, x) in w.iter_mut().enumerate() {
            *x = dp.read(r(regs::evq::HEAD) + 4 * i as u32);
        }
        dp.write(r(regs::evq::POP), 1);
        v.push(w);
    }
    v
}

/// STATS index of parser reason `code`.
fn reason_idx(code: u8) -> u32 {
    (idx::parser_reason::index(code.into()) + idx::parser_reason::FRAMES) as u32
}

/// Send one spliced frame C->S and check it comes out rewritten.
fn check_fast_path_alive(dp: &mut Datapath, rng: &mut ChaCha8Rng, f: &Flow) {
    let (b, l3, ihl, doff) = flow_frame(rng, f, Port::Client, b"alive", Flags::default(), false);
    dp.push(Port::Client, &b, false);
    assert!(dp.settle(200, 200_000));
    let out = dp.drain(Port::Server);
    assert_eq!(out.len(), 1, "fast path stalled");
    assert_eq!(
        out[0].data,
        reference::rewrite(&b, &f.desc(Port::Client, l3, ihl, doff))
    );
}

fn setup(width: u32) -> (Datapath, ChaCha8Rng, Flow) {
    let mut dp = Datapath::new(width).expect("model");
    configure(&mut dp);
    let f = Flow::sample(11);
    install(&mut dp, &f);
    (dp, ChaCha8Rng::seed_from_u64(width as u64), f)
}

fn syn_and_policy(width: u32) {
    let (mut dp, mut rng, f) = setup(width);
    // SYN from a new client to the VIP: punted, no flow
    let (syn, ..) = tcp_frame(
        &mut rng,
        [2, 9, 9, 9, 9, 9],
        MAC_C,
        [192, 168, 7, 7],
        VIP,
        33333,
        VIP_PORT,
        &[],
        Flags {
            syn: true,
            ..Flags::default()
        },
        false,
    );
    dp.push(Port::Client, &syn, false);
    // ARP (punted by default), UDP to the VIP (other: dropped by default)
    let mut arp = vec![0xffu8; 6];
    arp.extend([2, 9, 9, 9, 9, 9, 0x08, 0x06]);
    arp.extend([0, 1, 8, 0, 6, 4, 0, 1]);
    arp.resize(60, 0);
    dp.push(Port::Client, &arp, false);
    let mut udp = syn.clone();
    udp[23] = 17; // protocol UDP, header checksum now wrong -> fix it
    udp[24] = 0;
    udp[25] = 0;
    let sum = reference::ones_sum(&udp[14..34], 0);
    udp[24..26].copy_from_slice(&(!sum).to_be_bytes());
    dp.push(Port::Client, &udp, false);
    // malformed: IPv4 header checksum wrong
    let mut bad = syn.clone();
    bad[24] ^= 0x55;
    dp.push(Port::Server, &bad, false);
    // a MAC error
    dp.push(Port::Server, &syn, true);
    // oversize: 3000 bytes
    let (mut big, ..) = flow_frame(
        &mut rng,
        &f,
        Port::Client,
        &vec![7u8; 1400],
        Flags::default(),
        false,
    );
    big.resize(3000, 0xaa);
    dp.push(Port::Client, &big, false);
    assert!(dp.settle(300, 2_000_000));
    assert!(dp.drain(Port::Server).is_empty() && dp.drain(Port::Client).is_empty());

    let (d, bytes) = punt_pop(&mut dp).expect("SYN punted");
    assert_eq!(bytes, syn);
    assert_eq!(usize::from(head(&d).len), syn.len());
    let m0 = meta(&d);
    assert_eq!(m0.port, Port::Client.raw(), "port C");
    assert_eq!(m0.class, frame_class::VIP, "class VIP");
    assert_eq!(m0.tcp_kind, tcp_kind::SYN, "kind SYN");
    assert!(!m0.flow_hit, "no flow");
    let (d, bytes) = punt_pop(&mut dp).expect("ARP punted");
    assert_eq!(bytes, arp);
    assert_eq!(meta(&d).why, punt_why::ARP, "why ARP");
    assert!(
        punt_pop(&mut dp).is_none(),
        "UDP, malformed, MAC error and oversize are dropped"
    );

    assert_eq!(dp.read(r(regs::dp::OVERSIZE_C)), 1);
    assert_eq!(
        stat(&mut dp, reason_idx(parser_reason::OTHER_L4)),
        1,
        "reason OTHER_L4 (UDP)"
    );
    assert_eq!(
        stat(&mut dp, reason_idx(parser_reason::IP_CSUM)),
        1,
        "reason IP_CSUM"
    );
    assert_eq!(
        stat(&mut dp, reason_idx(parser_reason::MAC_ERR)),
        2,
        "reason MAC_ERR (one sent, one cut)"
    );
    assert_eq!(
        stat(&mut dp, port_idx(Port::Client, idx::port::DROPPED)),
        2,
        "dropped on port C (UDP, oversize)"
    );
    assert_eq!(
        stat(&mut dp, port_idx(Port::Server, idx::port::DROPPED)),
        2,
        "dropped on port S"
    );
    assert_eq!(
        stat(&mut dp, port_idx(Port::Client, idx::port::PUNTED)),
        2,
        "punted on port C"
    );
    let ev = events(&mut dp);
    assert_eq!(ev.len(), 2, "two PUNT_READY events");
    assert!(ev.iter().all(|e| kind(e) == event_type::PUNT_READY));
    assert_eq!(
        (
            EvtPuntReady::unpack(&ev[0]).punt_slot,
            EvtPuntReady::unpack(&ev[1]).punt_slot
        ),
        (0, 1),
        "punt slots"
    );

    // policy: drop ARP, punt malformed
    dp.write(r(regs::dp::PUNT_POLICY), 1 << punt_why::MALFORMED);
    dp.push(Port::Client, &arp, false);
    dp.push(Port::Server, &bad, false);
    assert!(dp.settle(200, 200_000));
    let (d, bytes) = punt_pop(&mut dp).expect("malformed punted");
    assert_eq!(bytes, bad);
    assert_eq!(
        meta(&d).parser_reason,
        parser_reason::IP_CSUM,
        "parser reason IP_CSUM in the record"
    );
    assert!(punt_pop(&mut dp).is_none(), "ARP dropped now");
    check_fast_path_alive(&mut dp, &mut rng, &f);

    // fast path off: the spliced flow's frames are punted
    dp.write(r(regs::dp::CTRL), 0);
    let (b, ..) = flow_frame(&mut rng, &f, Port::Server, b"x", Flags::default(), false);
    dp.push(Port::Server, &b, false);
    assert!(dp.settle(200, 200_000));
    let (d, bytes) = punt_pop(&mut dp).expect("punted with the fast path off");
    assert_eq!(bytes, b);
    let m = meta(&d);
    assert_eq!(
        (m.flow_hit, m.flow_half),
        (true, flow_half::SERVER),
        "flow hit, server half"
    );
    assert_eq!(m.flow_slot, f.slot);
    assert_eq!(m.slot_gen, f.gen(), "the hit entry's generation");
    dp.write(r(regs::dp::CTRL), 1);
    check_fast_path_alive(&mut dp, &mut rng, &f);
}

#[test]
fn syn_and_policy_64() {
    syn_and_policy(64);
}

#[test]
fn syn_and_policy_512() {
    syn_and_policy(512);
}

/// SYN flood with the firmware not reading: new connection attempts (SYN without ACK) take
/// at most 16 - 4 punt slots, the last 4 stay for everything else (ARP, handshake ACKs,
/// SYN-ACK); PUNT.DROP_FULL counts every frame dropped for lack of room.
fn punt_reserve(width: u32) {
    let (mut dp, mut rng, f) = setup(width);
    let syn = |rng: &mut ChaCha8Rng, sport: u16, flags: Flags| {
        tcp_frame(
            rng,
            [2, 9, 9, 9, 9, 9],
            MAC_C,
            [192, 168, 7, 7],
            VIP,
            sport,
            VIP_PORT,
            &[],
            flags,
            false,
        )
        .0
    };
    let syn_flags = Flags {
        syn: true,
        ..Flags::default()
    };
    let flood: Vec<Vec<u8>> = (0..20)
        .map(|i| syn(&mut rng, 40000 + i, syn_flags))
        .collect();
    for b in &flood {
        dp.push(Port::Client, b, false);
    }
    let mut arp = vec![0xffu8; 6];
    arp.extend([2, 9, 9, 9, 9, 9, 0x08, 0x06]);
    arp.extend([0, 1, 8, 0, 6, 4, 0, 1]);
    arp.resize(60, 0);
    dp.push(Port::Client, &arp, false);
    // a handshake ACK of a client without a flow yet
    let ack = syn(&mut rng, 41000, Flags::default());
    dp.push(Port::Client, &ack, false);
    // SYN+ACK (flags byte at 14 + 20 + 13; the parser does not check the TCP checksum)
    let mut syn_ack = syn(&mut rng, 41001, syn_flags);
    syn_ack[47] |= 0x10;
    dp.push(Port::Client, &syn_ack, false);
    // more SYNs: still dropped in the reserve
    for i in 0..3 {
        let b = syn(&mut rng, 42000 + i, syn_flags);
        dp.push(Port::Client, &b, false);
    }
    // two more normal frames: one takes the last slot, the other finds the ring full
    dp.push(Port::Client, &arp, false);
    dp.push(Port::Client, &ack, false);
    assert!(dp.settle(300, 2_000_000));
    assert_eq!(dp.read(r(regs::punt::PROD)), 16, "ring full");
    assert_eq!(
        dp.read(r(regs::punt::DROP_FULL)),
        (20 - 12) + 3 + 1,
        "drops: SYNs in the reserve + one frame on the full ring"
    );
    assert_eq!(
        stat(&mut dp, port_idx(Port::Client, idx::port::PUNTED)),
        16 + 8 + 3 + 1,
        "punted on port C (decision)"
    );
    let mut want: Vec<&Vec<u8>> = flood.iter().take(12).collect();
    want.extend([&arp, &ack, &syn_ack, &arp]);
    for (i, w) in want.iter().enumerate() {
        let (_, bytes) = punt_pop(&mut dp).expect("punted frame");
        assert_eq!(&bytes, *w, "slot {i}");
    }
    assert!(punt_pop(&mut dp).is_none());
    // with the ring drained, SYNs are taken again
    dp.push(Port::Client, &flood[19], false);
    assert!(dp.settle(200, 200_000));
    assert_eq!(punt_pop(&mut dp).expect("SYN punted").1, flood[19]);
    check_fast_path_alive(&mut dp, &mut rng, &f);
}

#[test]
fn punt_reserve_64() {
    punt_reserve(64);
}

#[test]
fn punt_reserve_512() {
    punt_reserve(512);
}

fn load_rules(dp: &mut Datapath, rules: &[Rule], default_pool: u32) {
    dp.write(r(regs::l7::WORD), rule_word_index::CLEAR_BANK.into());
    dp.write(r(regs::l7::DATA), 0);
    dp.write(r(regs::l7::WORD), rule_word_index::DEFAULT_POOL.into());
    dp.write(r(regs::l7::DATA), default_pool);
    for (i, rule) in rules.iter().enumerate() {
        dp.write(r(regs::l7::RULE), i as u32);
        for (word, data) in encode_rule(rule) {
            dp.write(r(regs::l7::WORD), word);
            dp.write(r(regs::l7::DATA), data);
            while dp.read(r(regs::l7::STATUS)) & 4 != 0 {}
        }
    }
    dp.write(r(regs::l7::SWITCH), 1);
    dp.tick(4);
}

fn l7_paths(width: u32) {
    let (mut dp, mut rng, mut f) = setup(width);
    load_rules(
        &mut dp,
        &[
            Rule::new(10, "*.example.com", "/img/*", 7, 42),
            Rule::new(20, "", "/api/*", 8, 43),
        ],
        99,
    );
    // the flow waits for its request
    f.slot = 12;
    f.state = flow_state::REQUEST;
    f.client_port = 41000;
    f.local_port = 51000;
    install(&mut dp, &f);
    let req = b"GET /img/logo.png HTTP/1.1\r\nHost: www.Example.com:80\r\nAccept: */*\r\n\r\n";
    let (b, ..) = flow_frame(&mut rng, &f, Port::Client, req, Flags::default(), true);
    dp.push(Port::Client, &b, false);
    assert!(dp.settle(300, 500_000));
    let (d, bytes) = punt_pop(&mut dp).expect("request punted");
    assert_eq!(bytes, b);
    assert!(meta(&d).to_l7, "sent to the matcher");
    let ev = events(&mut dp);
    let m = EvtRequestMatched::unpack(
        ev.iter()
            .find(|e| kind(e) == event_type::REQUEST_MATCHED)
            .expect("REQUEST_MATCHED"),
    );
    assert_eq!(m.tag, 12, "tag = flow slot");
    assert_eq!(m.flow_gen, f.gen(), "the flow entry's generation");
    assert!(!m.from_buffer, "from the data path");
    assert!(m.matched, "matched");
    assert_eq!(m.method, http_method::GET, "GET");
    assert_eq!((m.pool, m.rule_id), (7, 42), "pool 7, rule 42");
    assert_eq!(dp.read(r(regs::l7::REQUESTS)), 1);

    // a flow in HANDSHAKE (the ACK validator's entry, or the firmware's at the SYN): the
    // request segment right behind the handshake ACK goes to the matcher too; its ACK (no
    // payload) does not, nor do the segments of a flow past REQUEST
    let mut flow_in = |slot: u16, state: u8| {
        let g = Flow {
            slot,
            state,
            client_port: 41000 + slot - 12,
            local_port: 51000 + slot - 12,
            ..f
        };
        install(&mut dp, &g);
        g
    };
    let hs = flow_in(13, flow_state::HANDSHAKE);
    let cn = flow_in(14, flow_state::CONNECTING);
    let api = b"GET /api/x HTTP/1.1\r\nHost: a\r\n\r\n";
    for (fl, payload, fed) in [
        (&hs, &b""[..], false),
        (&hs, &api[..], true),
        (&cn, &api[..], false),
    ] {
        let (b, ..) = flow_frame(&mut rng, fl, Port::Client, payload, Flags::default(), true);
        dp.push(Port::Client, &b, false);
        assert!(dp.settle(300, 500_000));
        let (d, bytes) = punt_pop(&mut dp).expect("punted");
        assert_eq!(bytes, b);
        assert_eq!(
            meta(&d).to_l7,
            fed,
            "state {} payload {}",
            fl.state,
            payload.len()
        );
    }
    let ev: Vec<_> = events(&mut dp)
        .into_iter()
        .filter(|e| kind(e) == event_type::REQUEST_MATCHED)
        .collect();
    assert_eq!(ev.len(), 1, "one result: the HANDSHAKE flow's request");
    let m = EvtRequestMatched::unpack(&ev[0]);
    assert_eq!((m.tag, m.flow_gen), (13, hs.gen()), "tagged with its slot");
    assert_eq!((m.pool, m.rule_id), (8, 43), "pool 8, rule 43");
    assert_eq!(dp.read(r(regs::l7::REQUESTS)), 2);

    // the command path: a request the firmware assembled from two segments
    let full = b"POST /api/v1/items HTTP/1.1\r\nHost: shop.test\r\nContent-Length: 0\r\n\r\n";
    dp.write(r(regs::l7::BUF_PTR), 0);
    for chunk in full.chunks(4) {
        let mut w = [0u8; 4];
        w[..chunk.len()].copy_from_slice(chunk);
        dp.write(r(regs::l7::BUF_DATA), u32::from_le_bytes(w));
    }
    dp.write(r(regs::l7::CMD_GEN), 0xa7);
    dp.write(r(regs::l7::CMD), (0x1234 << 16) | full.len() as u32);
    dp.tick(400);
    let ev = events(&mut dp);
    assert_eq!(ev.len(), 1);
    let m = EvtRequestMatched::unpack(&ev[0]);
    assert_eq!(m.kind, event_type::REQUEST_MATCHED);
    assert!(m.from_buffer, "from the command path");
    assert_eq!(m.tag, 0x1234);
    assert_eq!(m.flow_gen, 0xa7, "the command's generation (L7.CMD_GEN)");
    assert_eq!(m.method, http_method::POST, "POST");
    assert_eq!((m.pool, m.rule_id), (8, 43), "pool 8, rule 43");
    // no match -> default pool
    let other = b"GET /x HTTP/1.1\r\nHost: a.b\r\n\r\n";
    dp.write(r(regs::l7::BUF_PTR), 0);
    for chunk in other.chunks(4) {
        let mut w = [0u8; 4];
        w[..chunk.len()].copy_from_slice(chunk);
        dp.write(r(regs::l7::BUF_DATA), u32::from_le_bytes(w));
    }
    dp.write(r(regs::l7::CMD), (5 << 16) | other.len() as u32);
    dp.tick(400);
    let ev = events(&mut dp);
    assert_eq!(ev.len(), 1);
    let m = EvtRequestMatched::unpack(&ev[0]);
    assert!(!m.matched, "not matched");
    assert_eq!(m.pool, 99, "default pool");
    assert_eq!(
        m.flow_gen, 0,
        "a command without CMD_GEN carries 0 (the last one cleared it)"
    );
    assert_eq!(dp.read(r(regs::l7::COMMANDS)), 2);
    check_fast_path_alive(&mut dp, &mut rng, &Flow::sample(11));
}

#[test]
fn l7_paths_64() {
    l7_paths(64);
}

#[test]
fn l7_paths_512() {
    l7_paths(512);
}

fn inject(width: u32) {
    let (mut dp, mut rng, f) = setup(width);
    for port in [Port::Client, Port::Server] {
        let plen = rng.gen_range(0..300);
        let payload: Vec<u8> = (0..plen).map(|_| rng.gen()).collect();
        let (good, ..) = flow_frame(
            &mut rng,
            &f,
            port.other(),
            &payload,
            Flags::default(),
            false,
        );
        let ip_total = u16::from_be_bytes([good[16], good[17]]) as u32;
        let ihl = (good[14] & 15) as u32;
        let mut blank = good.clone();
        blank[24] = 0;
        blank[25] = 0;
        let l4 = 14 + 4 * ihl as usize;
        blank[l4 + 16] = 0xde;
        blank[l4 + 17] = 0xad;
        dp.write(r(regs::inject::SEL), port as u32);
        assert_eq!(dp.read(r(regs::inject::STATUS)) & 1, 1);
        dp.write(r(regs::inject::WR_PTR), 0);
        for chunk in blank.chunks(4) {
            let mut w = [0u8; 4];
            w[..chunk.len()].copy_from_slice(chunk);
            dp.write(r(regs::inject::WR_DATA), u32::from_le_bytes(w));
        }
        dp.write(r(regs::inject::COMMIT_LEN), blank.len() as u32 | 3 << 16);
        dp.write(r(regs::inject::COMMIT_OFF), 14 | (14 + 4 * ihl) << 16);
        dp.write(r(regs::inject::COMMIT), 14 + ip_total);
        assert!(dp.settle(200, 200_000));
        let out = dp.drain(port);
        assert_eq!(out.len(), 1, "injected frame on {port:?}");
        assert_eq!(out[0].data, good, "checksums filled in");
        assert_eq!(dp.read(r(regs::inject::FRAMES)), 1);
    }
    check_fast_path_alive(&mut dp, &mut rng, &f);
}

#[test]
fn inject_64() {
    inject(64);
}

#[test]
fn inject_512() {
    inject(512);
}

/// Stages `g` in DP.TXGEN_* (what the firmware's `tx_gen` writes).
fn txgen_stage(dp: &mut Datapath, g: &GenFrame) {
    use regs::dp::{txgen_ctl as ctl, txgen_opts as o, txgen_ports as p};
    let mac = |m: [u8; 6]| m.iter().fold(0u64, |a, &b| a << 8 | u64::from(b));
    let (dm, sm) = (mac(g.dst_mac), mac(g.src_mac));
    dp.write(r(regs::dp::TXGEN_DST_MAC_LO), dm as u32);
    dp.write(r(regs::dp::TXGEN_DST_MAC_HI), (dm >> 32) as u32);
    dp.write(r(regs::dp::TXGEN_SRC_MAC_LO), sm as u32);
    dp.write(r(regs::dp::TXGEN_SRC_MAC_HI), (sm >> 32) as u32);
    dp.write(r(regs::dp::TXGEN_SRC_IP), g.src_ip);
    dp.write(r(regs::dp::TXGEN_DST_IP), g.dst_ip);
    dp.write(
        r(regs::dp::TXGEN_PORTS),
        u32::from(g.src_port) << p::SPORT_SHIFT | u32::from(g.dst_port) << p::DPORT_SHIFT,
    );
    dp.write(r(regs::dp::TXGEN_SEQ), g.seq);
    dp.write(r(regs::dp::TXGEN_ACK), g.ack);
    dp.write(
        r(regs::dp::TXGEN_CTL),
        u32::from(g.flags) << ctl::FLAGS_SHIFT | u32::from(g.window) << ctl::WINDOW_SHIFT,
    );
    let (syn, mss, sack, ts, ws) = match g.opts {
        GenOpts::Ack { ts } => (false, 0, false, ts, None),
        GenOpts::Syn {
            mss,
            sack,
            ts,
            wscale,
        } => (true, mss, sack, ts, wscale),
    };
    dp.write(
        r(regs::dp::TXGEN_OPTS),
        u32::from(mss) << o::MSS_SHIFT
            | u32::from(syn) << o::SYN_FORM_SHIFT
            | u32::from(sack) << o::SACK_SHIFT
            | u32::from(ts.is_some()) << o::TS_SHIFT
            | u32::from(ws.is_some()) << o::WSCALE_SHIFT
            | u32::from(ws.unwrap_or(0)) << o::SCALE_SHIFT,
    );
    let t = ts.unwrap_or_default();
    dp.write(r(regs::dp::TXGEN_TSVAL), t.tsval);
    dp.write(r(regs::dp::TXGEN_TSECR), t.tsecr);
}

/// A random header-only frame in one of the generator's forms (all-ones fields now and
/// then, for the checksums' carries).
fn random_gen_frame(rng: &mut ChaCha8Rng) -> GenFrame {
    let ones = rng.gen_ratio(1, 8);
    let v32 = |rng: &mut ChaCha8Rng| if ones { u32::MAX } else { rng.gen() };
    let ts = rng.gen_bool(0.6).then(|| Timestamps {
        tsval: v32(rng),
        tsecr: v32(rng),
    });
    let opts = if rng.gen_bool(0.5) {
        GenOpts::Ack { ts }
    } else {
        GenOpts::Syn {
            mss: rng.gen(),
            sack: rng.gen(),
            ts,
            wscale: rng.gen_bool(0.6).then(|| rng.gen_range(0..=14)),
        }
    };
    GenFrame {
        src_mac: rng.gen(),
        dst_mac: rng.gen(),
        src_ip: v32(rng),
        dst_ip: v32(rng),
        src_port: rng.gen(),
        dst_port: rng.gen(),
        seq: v32(rng),
        ack: v32(rng),
        flags: rng.gen(),
        window: rng.gen(),
        opts,
    }
}

/// The frame the firmware would have injected for `g`: `TcpOut::write` with the checksums
/// the inject offload fills in.
fn firmware_frame(g: &GenFrame) -> Vec<u8> {
    firmware_replay(g, &[])
}

/// The frame generator in the data path (DP.TXGEN_*): random header-only frames of both
/// option forms staged and sent out of either port, between spliced frames forwarded on
/// both ports and under TX back-pressure: every generated frame equal to the firmware's, in
/// GO order per port, every spliced frame out too; a GO while BUSY refused and counted, the
/// staged frame still sent once; the counters; the latency on an idle port.
fn frame_generator(width: u32) {
    let (mut dp, mut rng, f) = setup(width);
    let st = dp.read(r(regs::dp::TXGEN_STATUS));
    assert_eq!(
        st >> regs::dp::txgen_status::PRESENT_SHIFT & 1,
        1,
        "present"
    );
    assert_eq!(st >> regs::dp::txgen_status::BUSY_SHIFT & 1, 0, "idle");
    let busy = |dp: &mut Datapath| {
        dp.read(r(regs::dp::TXGEN_STATUS)) >> regs::dp::txgen_status::BUSY_SHIFT & 1 == 1
    };

    // Latency on an idle port: from the GO write's cycle to the frame's first beat.
    let g = random_gen_frame(&mut rng);
    txgen_stage(&mut dp, &g);
    let go_at = dp.cycles();
    dp.write(r(regs::dp::TXGEN_GO), 1 << regs::dp::txgen_go::PORT_SHIFT);
    assert!(dp.settle(50, 10_000));
    let out = dp.drain(Port::Server);
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].data, firmware_frame(&g));
    let latency = out[0].first_cycle - go_at;
    println!("DATA_WIDTH {width}: GO write to first beat {latency} cycles (TX_GEN_LATENCY {TX_GEN_LATENCY})");
    // the write's strobe sets the request register, then the generator's latency
    assert_eq!(latency, u64::from(TX_GEN_LATENCY) + 1);
    let mut sent = [0u32, 1];

    let mut expect: [Vec<Vec<u8>>; 2] = [Vec::new(), Vec::new()];
    let mut forwarded = [0usize; 2];
    let mut refused = 0u32;
    for batch in 0..40 {
        dp.set_tx_stall([0, 300, 900][batch % 3]);
        for _ in 0..10 {
            // spliced traffic on both ports, longer than any generated frame
            for port in [Port::Client, Port::Server] {
                if rng.gen_bool(0.5) {
                    let plen = rng.gen_range(100..400);
                    let payload: Vec<u8> = (0..plen).map(|_| rng.gen()).collect();
                    let (b, ..) = flow_frame(&mut rng, &f, port, &payload, Flags::default(), false);
                    dp.push(port, &b, false);
                    forwarded[port.other() as usize] += 1;
                }
            }
            let mut waited = 0;
            while busy(&mut dp) {
                dp.tick(rng.gen_range(1..20));
                waited += 1;
                assert!(waited < 10_000, "generator stuck");
            }
            let g = random_gen_frame(&mut rng);
            let port = rng.gen_range(0..2usize);
            txgen_stage(&mut dp, &g);
            dp.write(
                r(regs::dp::TXGEN_GO),
                (port as u32) << regs::dp::txgen_go::PORT_SHIFT,
            );
            expect[port].push(firmware_frame(&g));
            sent[port] += 1;
            if rng.gen_bool(0.5) {
                dp.tick(rng.gen_range(0..30));
            }
        }
        if batch % 5 == 4 {
            // Both ports stopped: GOs until the generator is full (a frame in the serializer,
            // one in the request register, the staged one waiting), then one more GO while
            // BUSY, which changes nothing but the count.
            dp.set_tx_stall(1000);
            let mut n = 0;
            while !busy(&mut dp) {
                let g = random_gen_frame(&mut rng);
                let port = rng.gen_range(0..2usize);
                txgen_stage(&mut dp, &g);
                dp.write(
                    r(regs::dp::TXGEN_GO),
                    (port as u32) << regs::dp::txgen_go::PORT_SHIFT,
                );
                expect[port].push(firmware_frame(&g));
                sent[port] += 1;
                dp.tick(20);
                n += 1;
                assert!(n <= 4, "the generator took more than it can hold");
            }
            dp.write(r(regs::dp::TXGEN_GO), rng.gen_range(0..2));
            refused += 1;
        }
    }
    dp.set_tx_stall(0);
    assert!(dp.settle(200, 2_000_000));
    for (i, port) in [Port::Client, Port::Server].into_iter().enumerate() {
        let out = dp.drain(port);
        let (gen, fwd): (Vec<_>, Vec<_>) = out.into_iter().partition(|t| t.data.len() <= 74);
        assert_eq!(fwd.len(), forwarded[i], "{port:?}: spliced frames");
        assert_eq!(gen.len(), expect[i].len(), "{port:?}: generated frames");
        for (n, (got, want)) in gen.iter().zip(&expect[i]).enumerate() {
            assert_eq!(&got.data, want, "{port:?}: generated frame {n}");
        }
    }
    assert_eq!(dp.read(r(regs::dp::TXGEN_SENT_C)), sent[0]);
    assert_eq!(dp.read(r(regs::dp::TXGEN_SENT_S)), sent[1]);
    assert_eq!(dp.read(r(regs::dp::TXGEN_REFUSED)), refused);
    println!(
        "DATA_WIDTH {width}: {} + {} generated frames, {} + {} spliced, {refused} GOs refused while busy",
        sent[0], sent[1], forwarded[0], forwarded[1]
    );
    check_fast_path_alive(&mut dp, &mut rng, &f);
}

#[test]
fn frame_generator_64() {
    frame_generator(64);
}

#[test]
fn frame_generator_512() {
    frame_generator(512);
}

type HeadStatus = (u32, bool, u32, u32, bool);

/// HEAD_STATUS: LEN, APPENDING, IN_USE, IN_USE_MAX, REPLAYING.
fn head_status(dp: &mut Datapath) -> HeadStatus {
    use regs::dp::head_status as hs;
    let v = dp.read(r(regs::dp::HEAD_STATUS));
    (
        v >> hs::LEN_SHIFT & 0x7ff,
        v >> hs::APPENDING_SHIFT & 1 == 1,
        v >> hs::IN_USE_SHIFT & 0xff,
        v >> hs::IN_USE_MAX_SHIFT & 0xff,
        v >> hs::REPLAYING_SHIFT & 1 == 1,
    )
}

/// The request-head buffers in the data path (DP.HEAD_*): every buffer taken through
/// HEAD_ALLOC, then none; random heads of 0 to 1,024 bytes appended through HEAD_APPEND and
/// HEAD_DATA in random segments (some resent in part, as a client retransmits), the stored
/// length in HEAD_STATUS; each replayed behind a random handshake ACK staged in DP.TXGEN_*
/// out of the server port, between spliced frames and under back-pressure: every frame
/// equal to the firmware's replay, a head longer than the limit refused (HEAD_LONG, no
/// frame); the buffer back in the free list after its replay, or through HEAD_FREE; GOs
/// while the replay holds the staged registers refused; the occupancy marks; bad operations
/// counted in HEAD_BAD.
fn head_buffers(width: u32) {
    let (mut dp, mut rng, f) = setup(width);
    let st = dp.read(r(regs::dp::HEAD_STATUS));
    assert_eq!(st >> regs::dp::head_status::PRESENT_SHIFT & 1, 1, "present");
    dp.tick(100);
    let bufs = splicenic_layout::HEAD_BUFFERS;
    // every buffer once, then none
    let mut ids: Vec<u32> = (0..bufs)
        .map(|i| {
            let id = head_alloc(&mut dp).unwrap_or_else(|| panic!("buffer {i} of {bufs}"));
            dp.tick(4);
            id
        })
        .collect();
    assert_eq!(head_alloc(&mut dp), None, "all {bufs} taken");
    let mut sorted = ids.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted.len(), bufs as usize, "distinct buffers");
    let (_, _, in_use, in_use_max, _) = head_status(&mut dp);
    assert_eq!((in_use, in_use_max), (bufs, bufs));
    // all back through HEAD_FREE; a second free of one refused and counted
    for &id in &ids {
        dp.write(r(regs::dp::HEAD_FREE), id);
        dp.tick(2);
    }
    dp.write(r(regs::dp::HEAD_FREE), ids[0]);
    dp.tick(4);
    let mut bad = 1u32;
    assert_eq!(dp.read(r(regs::dp::HEAD_BAD)), bad);
    ids.clear();
    dp.tick(10);
    let (_, _, in_use, _, _) = head_status(&mut dp);
    assert_eq!(in_use, 1, "the buffer held ready");
    dp.write(r(regs::dp::HEAD_STATUS), 0);
    dp.tick(4);
    assert_eq!(head_status(&mut dp).3, 1, "IN_USE_MAX restarted");

    let busy = |dp: &mut Datapath| {
        dp.read(r(regs::dp::TXGEN_STATUS)) >> regs::dp::txgen_status::BUSY_SHIFT & 1 == 1
    };
    let cap = splicenic_layout::HEAD_BUFFER_BYTES as usize;
    let (mut expect, mut forwarded, mut long, mut refused) = (Vec::new(), [0usize; 2], 0u32, 0u32);
    let heads = 200;
    for n in 0..heads {
        dp.set_tx_stall([0, 300, 900][n % 3]);
        let id = head_alloc(&mut dp).expect("a free buffer");
        let len = match rng.gen_range(0..6) {
            0 => 0,
            1 => cap,
            2 => rng.gen_range(40..80),
            _ => rng.gen_range(1..=cap),
        };
        let head: Vec<u8> = if rng.gen_ratio(1, 8) {
            vec![0xff; len]
        } else {
            (0..len).map(|_| rng.gen()).collect()
        };
        // segments in order, now and then one resent from an earlier position
        let mut at = 0;
        while at < len {
            let end = (at + rng.gen_range(1..=600)).min(len);
            let from = if at > 0 && rng.gen_ratio(1, 4) {
                rng.gen_range(0..at)
            } else {
                at
            };
            head_append(&mut dp, id, from, &head[from..end]);
            at = end;
            if rng.gen_bool(0.3) {
                // spliced traffic on both ports meanwhile
                for port in [Port::Client, Port::Server] {
                    let plen = rng.gen_range(100..400);
                    let payload: Vec<u8> = (0..plen).map(|_| rng.gen()).collect();
                    let (b, ..) = flow_frame(&mut rng, &f, port, &payload, Flags::default(), false);
                    dp.push(port, &b, false);
                    forwarded[port.other() as usize] += 1;
                }
            }
        }
        let mut waited = 0;
        loop {
            let (stored, appending, ..) = head_status(&mut dp);
            if !appending {
                if len > 0 {
                    assert_eq!(stored as usize, len, "head {n}: stored length");
                }
                break;
            }
            dp.tick(5);
            waited += 1;
            assert!(waited < 1_000, "head {n}: append stuck");
        }
        while busy(&mut dp) {
            dp.tick(rng.gen_range(1..20));
        }
        let mut g = random_gen_frame(&mut rng);
        let ts = match g.opts {
            GenOpts::Ack { ts } | GenOpts::Syn { ts, .. } => ts,
        };
        g.opts = GenOpts::Ack { ts };
        g.flags = 0x10 | if rng.gen_ratio(1, 8) { 0x01 } else { 0 };
        if g.dst_mac == f.server_mac {
            g.dst_mac[0] ^= 0x80;
        }
        let limit = if rng.gen_ratio(1, 6) && len > 0 {
            rng.gen_range(0..len)
        } else {
            rng.gen_range(len.max(1)..=1460)
        };
        txgen_stage(&mut dp, &g);
        dp.write(
            r(regs::dp::HEAD_REPLAY),
            (limit as u32) << regs::dp::head_replay::MAX_LEN_SHIFT
                | id << regs::dp::head_replay::ID_SHIFT,
        );
        if limit >= len {
            expect.push(firmware_replay(&g, &head));
        } else {
            long += 1;
        }
        if n % 4 == 3 && len >= 300 && limit >= len {
            // The server port stopped: this replay taken and waiting to go out (a frame
            // longer than the arbiters hold), a second
            // one (a bare ACK from an empty buffer) staged behind it holds the staged
            // registers, so a GO and a replay are refused until the first has gone.
            dp.set_tx_stall(1000);
            dp.tick(60);
            assert!(
                !busy(&mut dp),
                "head {n}: the replay took the staged registers"
            );
            let empty = head_alloc(&mut dp).expect("a free buffer");
            let mut g2 = random_gen_frame(&mut rng);
            g2.opts = GenOpts::Ack { ts: None };
            g2.flags = 0x10;
            g2.dst_mac = g.dst_mac;
            txgen_stage(&mut dp, &g2);
            dp.write(
                r(regs::dp::HEAD_REPLAY),
                1460 << regs::dp::head_replay::MAX_LEN_SHIFT
                    | empty << regs::dp::head_replay::ID_SHIFT,
            );
            expect.push(firmware_replay(&g2, &[]));
            dp.tick(20);
            assert!(busy(&mut dp), "head {n}: the second replay waits");
            dp.write(r(regs::dp::TXGEN_GO), 0);
            dp.write(
                r(regs::dp::HEAD_REPLAY),
                id << regs::dp::head_replay::ID_SHIFT,
            );
            refused += 2;
            dp.set_tx_stall(0);
        }
        let mut waited = 0;
        while head_status(&mut dp).4 {
            dp.tick(20);
            waited += 1;
            assert!(waited < 10_000, "head {n}: replay stuck");
        }
    }
    dp.set_tx_stall(0);
    assert!(dp.settle(200, 2_000_000));
    let out = dp.drain(Port::Server);
    let (replays, fwd): (Vec<_>, Vec<_>) =
        out.into_iter().partition(|t| t.data[..6] != f.server_mac);
    assert_eq!(fwd.len(), forwarded[1], "spliced frames to the server port");
    assert_eq!(replays.len(), expect.len(), "replays");
    for (n, (got, want)) in replays.iter().zip(&expect).enumerate() {
        assert_eq!(&got.data, want, "replay {n}");
    }
    assert_eq!(dp.drain(Port::Client).len(), forwarded[0]);
    assert_eq!(dp.read(r(regs::dp::HEAD_SENT)), expect.len() as u32);
    assert_eq!(dp.read(r(regs::dp::HEAD_LONG)), long);
    assert_eq!(dp.read(r(regs::dp::TXGEN_REFUSED)), refused);
    // every replayed buffer came back: all of them can be taken again
    let (_, _, in_use, in_use_max, _) = head_status(&mut dp);
    assert_eq!(in_use, 1, "only the buffer held ready");
    assert!(in_use_max >= 2);
    // a word with no segment open, a segment for a buffer not in use, an unfinished one
    dp.write(r(regs::dp::HEAD_DATA), 0);
    bad += 1;
    let free_one = head_alloc(&mut dp).expect("free");
    dp.write(r(regs::dp::HEAD_FREE), free_one);
    dp.tick(4);
    head_append(&mut dp, free_one, 0, b"GET / HTTP/1.1\r\n");
    bad += 1;
    let id = head_alloc(&mut dp).expect("free");
    dp.write(
        r(regs::dp::HEAD_APPEND),
        16 << regs::dp::head_append::LEN_SHIFT | id << regs::dp::head_append::ID_SHIFT,
    );
    dp.write(r(regs::dp::HEAD_DATA), 0x2054_4547);
    // refused: the open segment takes the next words
    head_append(&mut dp, id, 0, b"GET /");
    bad += 1;
    dp.tick(20);
    assert!(head_status(&mut dp).1, "the segment still open");
    dp.write(r(regs::dp::HEAD_DATA), 0x0a0d_0a0d);
    dp.tick(50);
    assert_eq!(dp.read(r(regs::dp::HEAD_BAD)), bad, "bad operations");
    assert_eq!(
        head_status(&mut dp),
        (16, false, 2, head_status(&mut dp).3, false)
    );
    println!(
        "DATA_WIDTH {width}: {} heads replayed, {long} too long, {} + {} spliced frames, {refused} GOs refused",
        expect.len(),
        forwarded[0],
        forwarded[1]
    );
    check_fast_path_alive(&mut dp, &mut rng, &f);
}

/// The head copy (DP.HEAD_COPY): request segments punted from a flow in REQUEST, parts of
/// their payloads (from any byte, so every rotation) copied by the card from the punt ring
/// into a head buffer in one or two segments, while the bus reads other registers; the
/// stored length, then the replay equal to the firmware's with those bytes; the punted
/// frame still whole for the bus afterwards; a copy with no segment open refused.
fn head_copies(width: u32) {
    let (mut dp, mut rng, mut f) = setup(width);
    f.slot = 12;
    f.state = flow_state::REQUEST;
    f.client_port = 41000;
    f.local_port = 51000;
    install(&mut dp, &f);
    dp.tick(100);
    let copy = |dp: &mut Datapath, id: u32, off: usize, len: usize, slot: u32, from: usize| {
        use regs::dp::{head_append as ha, head_copy as hc};
        dp.write(
            r(regs::dp::HEAD_APPEND),
            (len as u32) << ha::LEN_SHIFT | (off as u32) << ha::OFF_SHIFT | id << ha::ID_SHIFT,
        );
        dp.write(
            r(regs::dp::HEAD_COPY),
            slot << hc::SLOT_SHIFT | (from as u32) << hc::FROM_SHIFT,
        );
    };
    let mut expect = Vec::new();
    for n in 0..60 {
        let id = head_alloc(&mut dp).expect("a free buffer");
        let len = rng.gen_range(8..=1000);
        let payload: Vec<u8> = (0..len).map(|_| rng.gen()).collect();
        let ts = rng.gen();
        let (b, ..) = flow_frame(&mut rng, &f, Port::Client, &payload, Flags::default(), ts);
        dp.push(Port::Client, &b, false);
        assert!(dp.settle(300, 500_000));
        let slot = dp.read(r(regs::punt::CONS)) % 16;
        let at = b.len() - len;
        let skip = rng.gen_range(0..8);
        let end = rng.gen_range(skip + 1..=len);
        let mid = rng.gen_range(skip..=end);
        for (lo, hi) in [(skip, mid), (mid, end)] {
            if hi > lo {
                copy(&mut dp, id, lo - skip, hi - lo, slot, at + lo);
                // the bus goes on meanwhile
                for _ in 0..rng.gen_range(0..4) {
                    dp.read(r(regs::dp::TXGEN_STATUS));
                }
                let mut waited = 0;
                while head_status(&mut dp).1 {
                    dp.tick(3);
                    waited += 1;
                    assert!(waited < 2_000, "copy {n}: stuck");
                }
            }
        }
        assert_eq!(
            head_status(&mut dp).0 as usize,
            end - skip,
            "copy {n}: stored"
        );
        let (_, bytes) = punt_pop(&mut dp).expect("the request punted");
        assert_eq!(bytes, b, "copy {n}: the punted frame");
        let mut g = random_gen_frame(&mut rng);
        let ts = match g.opts {
            GenOpts::Ack { ts } | GenOpts::Syn { ts, .. } => ts,
        };
        g.opts = GenOpts::Ack { ts };
        g.flags = 0x10;
        txgen_stage(&mut dp, &g);
        dp.write(
            r(regs::dp::HEAD_REPLAY),
            1460 << regs::dp::head_replay::MAX_LEN_SHIFT | id << regs::dp::head_replay::ID_SHIFT,
        );
        expect.push(firmware_replay(&g, &payload[skip..end]));
        let mut waited = 0;
        while head_status(&mut dp).4 {
            dp.tick(20);
            waited += 1;
            assert!(waited < 10_000, "copy {n}: replay stuck");
        }
    }
    assert!(dp.settle(200, 2_000_000));
    let out = dp.drain(Port::Server);
    assert_eq!(out.len(), expect.len());
    for (n, (got, want)) in out.iter().zip(&expect).enumerate() {
        assert_eq!(&got.data, want, "replay {n}");
    }
    let bad = dp.read(r(regs::dp::HEAD_BAD));
    dp.write(r(regs::dp::HEAD_COPY), 0);
    dp.tick(4);
    assert_eq!(
        dp.read(r(regs::dp::HEAD_BAD)),
        bad + 1,
        "a copy with no segment open"
    );
    assert_eq!(head_status(&mut dp).2, 1, "every buffer back");
    println!(
        "DATA_WIDTH {width}: {} heads copied from the punt ring and replayed",
        expect.len()
    );
}

#[test]
fn head_copies_64() {
    head_copies(64);
}

#[test]
fn head_copies_512() {
    head_copies(512);
}

#[test]
fn head_buffers_64() {
    head_buffers(64);
}

#[test]
fn head_buffers_512() {
    head_buffers(512);
}

#[test]
fn flow_table_commands() {
    let (mut dp, _rng, f) = setup(64);
    let ck = (a(f.client_ip), a(VIP), f.client_port, VIP_PORT);
    assert_eq!(
        flow_cmd(&mut dp, regs::flow::cmd::OP_LOOKUP, ck, 0),
        (FLOW_OK, f.slot as u32),
        "lookup"
    );
    assert_eq!(
        flow_cmd(&mut dp, regs::flow::cmd::OP_INSERT, ck, 5).0,
        FLOW_EXISTS,
        "insert twice"
    );
    assert_eq!(dp.read(r(regs::flow::ENTRIES)), 2);
    assert_eq!(
        flow_cmd(&mut dp, regs::flow::cmd::OP_DELETE, ck, 0).0,
        FLOW_OK,
        "delete"
    );
    assert_eq!(
        flow_cmd(&mut dp, regs::flow::cmd::OP_DELETE, ck, 0).0,
        FLOW_NOT_FOUND,
        "delete missing"
    );
    assert_eq!(
        flow_cmd(&mut dp, regs::flow::cmd::OP_LOOKUP, ck, 0).0,
        FLOW_NOT_FOUND,
        "lookup missing"
    );
    assert_eq!(dp.read(r(regs::flow::ENTRIES)), 1);
    // fill one bucket: keys found by the reference hash are not needed; insert until a
    // bucket reports full (1024 buckets x 4 ways, so well before 4096 entries)
    let mut full = None;
    for i in 0..5000u32 {
        let k = (0x0a00_0000 | i, a(VIP), (i % 60000) as u16, 80);
        let (st, _) = flow_cmd(&mut dp, regs::flow::cmd::OP_INSERT, k, i & 0xfff);
        if st == FLOW_BUCKET_FULL {
            full = Some(i);
            break;
        }
        assert_eq!(st, FLOW_OK);
    }
    assert!(full.is_some(), "bucket overflow reported");
    assert!(dp.read(r(regs::flow::BUCKET_FULL)) >= 1);
    // CLEAR empties the table
    assert_eq!(
        flow_cmd(&mut dp, regs::flow::cmd::OP_CLEAR, (0, 0, 0, 0), 0).0,
        FLOW_OK
    );
    assert_eq!(dp.read(r(regs::flow::ENTRIES)), 0);
}
