//! Cycle behaviour of the server connection blocks: tcp_tx_gen's first beat comes
//! `TX_GEN_LATENCY` cycles after its request's accept when the port is idle and ready, and
//! back-to-back requests give one frame per max(TX_GEN_LATENCY, beats + 1) cycles;
//! synack_absorb answers `SYNACK_ABSORB_LATENCY` cycles after the accept and takes one
//! SYN-ACK per cycle. The measured figures are printed (docs/server-open.md).

use splicenic_layout::{SYNACK_ABSORB_LATENCY, TX_GEN_LATENCY};
use splicenic_tb_open::{AbsorbInput, Absorber, TxGen, TxRequest, Width};

/// A request of each option length: SYN forms of 4, 8, 12, 16 and 20 option bytes and the
/// ACK forms of 0 and 12.
fn requests() -> Vec<(TxRequest, usize)> {
    let base = TxRequest {
        dst_mac: [2, 0, 0, 0, 0, 1],
        src_mac: [2, 0, 0, 0, 0, 2],
        src_ip: 0x0a00_0001,
        dst_ip: 0x0a00_0002,
        sport: 0x4001,
        dport: 80,
        seq: 1000,
        ack: 0,
        flags: 0x02,
        window: 0xffff,
        syn_opts: true,
        mss: 1460,
        ..TxRequest::default()
    };
    let syn = |sack: bool, ts: bool, ws: Option<u8>| TxRequest {
        sack,
        ts,
        ws,
        ..base
    };
    let ack = |ts: bool| TxRequest {
        syn_opts: false,
        flags: 0x10,
        ts,
        ..base
    };
    vec![
        (syn(false, false, None), 60),
        (syn(true, false, None), 62),
        (syn(true, false, Some(7)), 66),
        (syn(true, true, None), 70),
        (syn(true, true, Some(7)), 74),
        (ack(false), 60),
        (ack(true), 66),
    ]
}

#[test]
fn generator_latency_and_rate() {
    for width in [Width::W64, Width::W512] {
        for (r, len) in requests() {
            let beats = len.div_ceil(width.bytes()) as u64;
            let mut g = TxGen::new(width).expect("model");
            // one request on an idle generator: the latency
            let s = g.run(&[r], |_| 2, || true).expect("frame");
            assert_eq!(s[0].bytes.len(), len);
            assert_eq!(
                s[0].first_valid - s[0].accepted,
                u64::from(TX_GEN_LATENCY),
                "{width:?} {len}-byte frame: latency"
            );
            assert_eq!(
                s[0].last - s[0].first_valid + 1,
                beats,
                "one beat per cycle"
            );
            // back to back: one frame per max(latency, beats + 1) cycles
            let n = 16;
            let s = g.run(&vec![r; n], |_| 0, || true).expect("frames");
            let interval = (s[n - 1].last - s[1].last) / (n as u64 - 2);
            let want = (beats + 1).max(u64::from(TX_GEN_LATENCY));
            assert_eq!(interval, want, "{width:?} {len}-byte frames back to back");
            for w in s.windows(2) {
                assert_eq!(w[1].last - w[0].last, want, "{width:?} {len}: steady");
            }
            eprintln!(
                "tcp_tx_gen {width:?}: {len}-byte frame, {beats} beats, latency {} cycles, \
                 one frame per {interval} cycles back to back",
                TX_GEN_LATENCY
            );
        }
    }
}

#[test]
fn absorber_latency_and_rate() {
    let x = AbsorbInput {
        client_isn: 7,
        card_isn: 9,
        flags: 0x12,
        ack: 8,
        client_mss: 1460,
        mss_to_client: 1460,
        ..AbsorbInput::default()
    };
    let mut a = Absorber::new().expect("model");
    let r = a.run(&[x], || true, || true).expect("result");
    assert_eq!(
        r[0].taken - r[0].accepted,
        u64::from(SYNACK_ABSORB_LATENCY),
        "latency"
    );
    let n = 1000;
    let r = a.run(&vec![x; n], || true, || true).expect("results");
    for w in r.windows(2) {
        assert_eq!(w[1].accepted - w[0].accepted, 1, "one SYN-ACK per cycle");
        assert_eq!(w[1].taken - w[0].taken, 1, "one result per cycle");
    }
    // a result port that is never ready for a while holds everything, loses nothing
    let mut k = 0u64;
    let r = a
        .run(
            &vec![x; 64],
            || true,
            || {
                k += 1;
                k % 7 == 0
            },
        )
        .expect("results under back-pressure");
    assert_eq!(r.len(), 64);
    eprintln!(
        "synack_absorb: latency {} cycles, one SYN-ACK per cycle ({n} in {} cycles)",
        SYNACK_ABSORB_LATENCY, n
    );
}
