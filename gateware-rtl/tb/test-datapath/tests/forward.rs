//! Established flows through the whole data path (parser, classifier, flow lookup, flow
//! state, dispatch, rewriter, TX arbiter) at DATA_WIDTH 64 and 512: every frame leaves the
//! other port exactly as the rewriter's reference model rewrites it with the descriptor
//! built from the flow entry, with both checksums equal to a full recompute; the flow's
//! counters, the statistics block and the FIN/RST events agree with what was sent.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use splicenic_driver::regs;
use splicenic_layout::stats::{port as port_stats, server, server_dir, service};
use splicenic_layout::{
    entry_flags, event_type, flow_state, trace_kind, EvtFinRst, TraceEntry, STATS_COUNTERS,
    STATS_SERVERS, TRACE_DEPTH_LOG2,
};
use splicenic_tb_datapath::testkit::*;
use splicenic_tb_datapath::{Datapath, Port};
use splicenic_tb_rewriter::reference;

/// Every counter of a fresh snapshot (as many as `STATS.PARAMS.COUNTERS` reports).
fn stats(dp: &mut Datapath) -> Vec<u64> {
    let n = dp.read(r(regs::stats::PARAMS)) & regs::stats::params::COUNTERS_MASK;
    assert_eq!(n, STATS_COUNTERS, "STATS.PARAMS.COUNTERS");
    dp.write(r(regs::stats::CTRL), 1);
    (0..n)
        .map(|i| {
            dp.write(r(regs::stats::RD_IDX), i);
            while dp.read(r(regs::stats::STATUS)) & 2 != 0 {}
            dp.read(r(regs::stats::RD_LO)) as u64 | (dp.read(r(regs::stats::RD_HI)) as u64) << 32
        })
        .collect()
}

fn forward(width: u32, seed: u64, frames: usize) {
    let mut dp = Datapath::new(width).expect("model");
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    configure(&mut dp);
    let flows = [Flow::sample(7), {
        let mut f = Flow::sample(300);
        f.flags = 0;
        f.wsd = -3;
        f.rs = 9;
        f.state = flow_state::CLOSING;
        f.client_ip = [172, 16, 5, 6];
        f
    }];
    for f in &flows {
        install(&mut dp, f);
    }

    let mut expect: [Vec<Vec<u8>>; 2] = [Vec::new(), Vec::new()];
    let mut sent = [[0u64; 2]; 2]; // [flow][dir] packets
    let mut sent_bytes = [[0u64; 2]; 2]; // [flow][dir] bytes (frame length as received)
    let mut fin_rst = Vec::new();
    let mut rx_bytes = [0u64; 2];
    for i in 0..frames {
        let fi = rng.gen_range(0..2);
        let f = &flows[fi];
        let port = if rng.gen_bool(0.5) {
            Port::Client
        } else {
            Port::Server
        };
        let plen = match rng.gen_range(0..4) {
            0 => 0,
            1 => rng.gen_range(1..16),
            2 => rng.gen_range(16..600),
            _ => rng.gen_range(600..1400),
        };
        let payload: Vec<u8> = (0..plen).map(|_| rng.gen()).collect();
        let flags = Flags {
            syn: false,
            fin: i % 37 == 5 || i % 53 == 11,
            // RSTs of spliced flows are punted (the firmware's RST-pending): driver.rs
            rst: false,
        };
        let vlan = rng.gen_bool(0.3);
        let (bytes, l3, ihl, doff) = flow_frame(&mut rng, f, port, &payload, flags, vlan);
        let d = f.desc(port, l3, ihl, doff);
        expect[port.other() as usize].push(reference::rewrite(&bytes, &d));
        sent[fi][port as usize] += 1;
        sent_bytes[fi][port as usize] += bytes.len() as u64;
        rx_bytes[port as usize] += bytes.len() as u64;
        if flags.fin || flags.rst {
            fin_rst.push((f.slot, f.gen(), port, plen as u16));
        }
        dp.push(port, &bytes, false);
    }
    assert!(dp.settle(400, 20_000_000), "data path did not drain");

    for port in [Port::Client, Port::Server] {
        let got = dp.drain(port);
        let want = &expect[port as usize];
        assert_eq!(got.len(), want.len(), "frames out of {port:?}");
        for (k, (g, w)) in got.iter().zip(want).enumerate() {
            assert_eq!(&g.data, w, "frame {k} out of {port:?} (width {width})");
            assert_eq!(
                checksums_ok(&g.data),
                (true, true),
                "checksums of frame {k}"
            );
        }
    }
    // nothing punted, nothing dropped
    assert_eq!(dp.read(r(regs::punt::PROD)), 0);

    // per-flow counters (packets per direction)
    for (fi, f) in flows.iter().enumerate() {
        let dynw = read_dyn(&mut dp, f.slot);
        assert_eq!(
            dynw.packets_cs as u64, sent[fi][0],
            "packets C->S of flow {}",
            f.slot
        );
        assert_eq!(
            dynw.packets_sc as u64, sent[fi][1],
            "packets S->C of flow {}",
            f.slot
        );
    }

    // FIN / RST events, in order per port
    let mut events: Vec<_> = fin_rst_events(&mut dp)
        .into_iter()
        .map(|e| {
            (
                e.flow_slot,
                e.flow_gen,
                Port::from_raw(e.port).expect("port"),
                e.plen,
            )
        })
        .collect();
    let mut want_ev = fin_rst.clone();
    want_ev.sort_by_key(|e| e.2 as u8);
    events.sort_by_key(|e| e.2 as u8);
    assert_eq!(events, want_ev);

    // statistics
    let s = stats(&mut dp);
    let total: u64 = sent.iter().map(|d| d[0] + d[1]).sum();
    let c_in: u64 = sent.iter().map(|d| d[0]).sum();
    let s_in: u64 = sent.iter().map(|d| d[1]).sum();
    let pc = port_stats::index(Port::Client.raw().into());
    let ps = port_stats::index(Port::Server.raw().into());
    assert_eq!(s[pc + port_stats::RX_FRAMES], c_in, "rx frames C");
    assert_eq!(s[pc + port_stats::RX_BYTES], rx_bytes[0], "rx bytes C");
    assert_eq!(s[ps + port_stats::RX_FRAMES], s_in, "rx frames S");
    assert_eq!(s[ps + port_stats::RX_BYTES], rx_bytes[1], "rx bytes S");
    assert_eq!(
        s[pc + port_stats::FORWARDED] + s[ps + port_stats::FORWARDED],
        total,
        "forwarded frames"
    );
    assert_eq!(s[pc + port_stats::TX_FRAMES], s_in, "tx frames C");
    assert_eq!(s[ps + port_stats::TX_FRAMES], c_in, "tx frames S");
    assert_eq!(s[service::index(0) + service::FRAMES], c_in, "VIP 0 frames");
    // Per real server: frames / bytes both directions (SERVER); frames and bytes
    // client->server (arrived on port C), then server->client (arrived on port S)
    // (SERVER_DIR). The two flows use real servers 3 and 9, every other real server stays at
    // zero.
    let mut want = vec![0u64; STATS_COUNTERS as usize];
    for (fi, f) in flows.iter().enumerate() {
        let r = usize::from(f.rs);
        want[server::index(r) + server::FRAMES] += sent[fi][0] + sent[fi][1];
        want[server::index(r) + server::BYTES] += sent_bytes[fi][0] + sent_bytes[fi][1];
        let d = server_dir::index(r);
        want[d + server_dir::CS_FRAMES] += sent[fi][0];
        want[d + server_dir::CS_BYTES] += sent_bytes[fi][0];
        want[d + server_dir::SC_FRAMES] += sent[fi][1];
        want[d + server_dir::SC_BYTES] += sent_bytes[fi][1];
    }
    assert_eq!(
        (flows[0].rs, flows[1].rs),
        (3, 9),
        "the flows use two different real servers"
    );
    for r in 0..STATS_SERVERS as usize {
        for (k, what) in [(server::FRAMES, "frames"), (server::BYTES, "bytes")] {
            let i = server::index(r) + k;
            assert_eq!(s[i], want[i], "real server {r} {what} (counter {i})");
        }
        for (k, what) in [
            (server_dir::CS_FRAMES, "frames client->server"),
            (server_dir::CS_BYTES, "bytes client->server"),
            (server_dir::SC_FRAMES, "frames server->client"),
            (server_dir::SC_BYTES, "bytes server->client"),
        ] {
            let i = server_dir::index(r) + k;
            assert_eq!(s[i], want[i], "real server {r} {what} (counter {i})");
        }
    }
    for (fi, f) in flows.iter().enumerate() {
        assert!(
            sent[fi][0] > 0 && sent[fi][1] > 0,
            "flow {} sent frames both ways",
            f.slot
        );
    }
}

#[test]
fn forward_64() {
    forward(64, 0x5eed_0064, 400);
}

#[test]
fn forward_512() {
    forward(512, 0x5eed_0512, 400);
}

/// The same traffic with random TX back-pressure: nothing is lost or reordered.
#[test]
fn forward_backpressure_64() {
    let mut dp = Datapath::new(64).expect("model");
    let mut rng = ChaCha8Rng::seed_from_u64(77);
    configure(&mut dp);
    let f = Flow::sample(1);
    install(&mut dp, &f);
    dp.set_tx_stall(300);
    let mut want = Vec::new();
    for _ in 0..200 {
        let plen = rng.gen_range(0..1400);
        let payload: Vec<u8> = (0..plen).map(|_| rng.gen()).collect();
        let (b, l3, ihl, doff) = flow_frame(
            &mut rng,
            &f,
            Port::Client,
            &payload,
            Flags::default(),
            false,
        );
        want.push(reference::rewrite(&b, &f.desc(Port::Client, l3, ihl, doff)));
        dp.push(Port::Client, &b, false);
    }
    assert!(dp.settle(400, 20_000_000));
    let got: Vec<Vec<u8>> = dp.drain(Port::Server).into_iter().map(|t| t.data).collect();
    assert_eq!(got, want);
}

/// A close through the whole data path: each FIN's end is stored as its sender numbered it,
/// and an ACK counts for the other side's FIN only once translated into that side's numbers
/// (a server's ACK less the client-to-server delta, a client's less the server-to-client
/// one): one short of the FIN's end does not, the end itself does (flow_state_mem, record
/// FlowDyn; docs/engine.md, "Teardown").
fn teardown(width: u32) {
    let mut dp = Datapath::new(width).expect("model");
    let mut rng = ChaCha8Rng::seed_from_u64(0x7ea2 + u64::from(width));
    configure(&mut dp);
    let f = Flow::sample(7);
    assert!(
        f.d_cs != 0 && f.d_sc != 0,
        "the sample translates both ways"
    );
    install(&mut dp, &f);
    let (c_seq, s_seq) = (0xffff_fff8u32, 0x1234_5678u32);
    let (steps, client_end, server_end) = close_steps(&f, c_seq, s_seq);
    assert_eq!(read_dyn(&mut dp, f.slot).teardown, 0);
    for (k, (port, flags, plen, seq, ack, want)) in steps.into_iter().enumerate() {
        let payload: Vec<u8> = (0..plen).map(|_| rng.gen()).collect();
        let (bytes, ..) = flow_frame_at(&mut rng, &f, port, &payload, flags, seq, ack);
        dp.push(port, &bytes, false);
        assert!(dp.settle(400, 1_000_000), "data path did not drain");
        assert_eq!(dp.drain(port.other()).len(), 1, "step {k} forwarded");
        let d = read_dyn(&mut dp, f.slot);
        assert_eq!(d.teardown, want, "teardown flags after step {k}: {d:?}");
    }
    let d = read_dyn(&mut dp, f.slot);
    assert_eq!((d.fin_end_cs, d.fin_end_sc), (client_end, server_end));
    assert_eq!(dp.read(r(regs::punt::PROD)), 0, "nothing punted");
}

#[test]
fn teardown_64() {
    teardown(64);
}

#[test]
fn teardown_512() {
    teardown(512);
}

/// The FIN_RST events of `dp`'s queue, popped in order.
fn fin_rst_events(dp: &mut Datapath) -> Vec<EvtFinRst> {
    let mut events = Vec::new();
    while dp.read(r(regs::evq::HEAD_INFO)) >> 31 == 1 {
        let mut w = [0u32; EvtFinRst::WORDS];
        for (i, x) in w.iter_mut().enumerate() {
            *x = dp.read(r(regs::evq::HEAD) + 4 * i as u32);
        }
        dp.write(r(regs::evq::POP), 1);
        let e = EvtFinRst::unpack(&w);
        assert_eq!(e.kind, event_type::FIN_RST, "event type FIN_RST");
        events.push(e);
    }
    events
}

/// The FIN_RST events of `dp`'s queue, popped: (slot, port).
fn fin_events(dp: &mut Datapath) -> Vec<(u16, Port)> {
    fin_rst_events(dp)
        .into_iter()
        .map(|e| (e.flow_slot, Port::from_raw(e.port).expect("port")))
        .collect()
}

/// `DP.FIN_COUNT` of real server `rs`.
fn fin_count(dp: &mut Datapath, rs: u32) -> u32 {
    dp.write(r(regs::dp::FIN_COUNT_IDX), rs);
    dp.read(r(regs::dp::FIN_COUNT))
}

/// The card's side of a spliced flow's close (docs/engine.md, "Teardown"): with
/// `DP.FIN_CTRL.EVENTS` 0 no FIN raises an event, and `DP.FIN_COUNT` counts, per real server,
/// the flows whose first FIN (either side's, once per flow: not the second side's, not a
/// retransmission) went through while the entry had ACTIVE; with EVENTS 1 the events come
/// back and the counts go on.
fn fin_counts(width: u32) {
    let mut dp = Datapath::new(width).expect("model");
    let mut rng = ChaCha8Rng::seed_from_u64(0xf1c0 + u64::from(width));
    configure(&mut dp);
    let ctrl = dp.read(r(regs::dp::FIN_CTRL));
    assert_eq!(
        ctrl,
        regs::dp::fin_ctrl::EVENTS_MASK << regs::dp::fin_ctrl::EVENTS_SHIFT
            | regs::dp::fin_ctrl::PRESENT_MASK << regs::dp::fin_ctrl::PRESENT_SHIFT,
        "FIN_CTRL after reset: events on, counts present"
    );
    let flow = |slot: u16, rs: u8, active: bool, cport: u16| {
        let mut f = Flow::sample(slot);
        f.rs = rs;
        if active {
            f.flags |= entry_flags::ACTIVE;
        }
        f.client_port = cport;
        f
    };
    // a and b on server 3, c on server 5 without ACTIVE (a flow the RST path took off its
    // count), d on server 3 closed with the events back on
    let (a, b, c, d) = (
        flow(11, 3, true, 41_011),
        flow(12, 3, true, 41_012),
        flow(13, 5, false, 41_013),
        flow(14, 3, true, 41_014),
    );
    for f in [&a, &b, &c, &d] {
        install(&mut dp, f);
    }
    let count0 = [fin_count(&mut dp, 3), fin_count(&mut dp, 5)];
    let trace0 = dp.read(r(regs::dp::TRACE_COUNT));
    dp.write(r(regs::dp::FIN_CTRL), 0);
    assert_eq!(
        dp.read(r(regs::dp::FIN_CTRL)),
        regs::dp::fin_ctrl::PRESENT_MASK << regs::dp::fin_ctrl::PRESENT_SHIFT
    );
    let mut send = |dp: &mut Datapath, f: &Flow, step: &CloseStep| {
        let (port, flags, plen, seq, ack, _) = *step;
        let payload: Vec<u8> = (0..plen).map(|_| rng.gen()).collect();
        let (bytes, ..) = flow_frame_at(&mut rng, f, port, &payload, flags, seq, ack);
        dp.push(port, &bytes, false);
        assert!(dp.settle(400, 1_000_000), "data path did not drain");
        assert_eq!(dp.drain(port.other()).len(), 1, "forwarded");
    };
    // a: the client's FIN first (counted), its retransmission and the server's FIN (not)
    let (steps, ..) = close_steps(&a, 0x1000, 0x2000);
    send(&mut dp, &a, &steps[0]);
    assert_eq!(
        fin_count(&mut dp, 3),
        count0[0].wrapping_add(1),
        "a's first FIN"
    );
    send(&mut dp, &a, &steps[0]);
    for s in &steps[1..] {
        send(&mut dp, &a, s);
    }
    assert_eq!(
        fin_count(&mut dp, 3),
        count0[0].wrapping_add(1),
        "a's later FINs"
    );
    // b: the server's FIN first (counted once)
    let (steps, ..) = close_steps(&b, 0xffff_fff0, 0x7fff_ffff);
    send(&mut dp, &b, &steps[2]);
    send(&mut dp, &b, &steps[0]);
    assert_eq!(
        fin_count(&mut dp, 3),
        count0[0].wrapping_add(2),
        "b's first FIN"
    );
    // c: not ACTIVE, not counted
    let (steps, ..) = close_steps(&c, 5, 6);
    for s in &steps {
        send(&mut dp, &c, s);
    }
    assert_eq!(fin_count(&mut dp, 5), count0[1], "c was not active");
    assert_eq!(fin_events(&mut dp), vec![], "no FIN events with EVENTS 0");
    // the teardown view went on as ever
    assert_eq!(read_dyn(&mut dp, a.slot).teardown & 3, 3, "a's FIN flags");
    // d with the events on: both FINs raise one, the count goes on
    dp.write(
        r(regs::dp::FIN_CTRL),
        regs::dp::fin_ctrl::EVENTS_MASK << regs::dp::fin_ctrl::EVENTS_SHIFT,
    );
    let (steps, ..) = close_steps(&d, 77, 88);
    for s in &steps {
        send(&mut dp, &d, s);
    }
    assert_eq!(
        fin_events(&mut dp),
        vec![(d.slot, Port::Client), (d.slot, Port::Server)],
        "d's FINs as events"
    );
    assert_eq!(
        fin_count(&mut dp, 3),
        count0[0].wrapping_add(3),
        "d's first FIN"
    );
    // past the table: 0
    for rs in [64, 200, 255] {
        assert_eq!(fin_count(&mut dp, rs), 0, "FIN_COUNT of server {rs}");
    }
    assert_eq!(fin_count(&mut dp, 5), count0[1]);
    // the trace ring recorded every FIN, events or not: a's 3, b's 2, c's 2, d's 2
    let trace1 = dp.read(r(regs::dp::TRACE_COUNT));
    let fins = (trace0..trace1)
        .filter(|&n| {
            dp.write(r(regs::dp::TRACE_RD_IDX), n % (1 << TRACE_DEPTH_LOG2));
            let w: Vec<u32> = (0..4)
                .map(|i| dp.read(r(regs::dp::TRACE_RD_DATA + 4 * i)))
                .collect();
            TraceEntry::unpack_at(&w, 0).kind == trace_kind::FIN
        })
        .count();
    assert_eq!(fins, 9, "FIN entries in the trace ring");
}

#[test]
fn fin_counts_64() {
    fin_counts(64);
}

#[test]
fn fin_counts_512() {
    fin_counts(512);
}
