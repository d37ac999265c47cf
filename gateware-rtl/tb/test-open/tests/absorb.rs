//! synack_absorb against the firmware's SYN-ACK handling (`splicer::absorb::absorb_synack`,
//! which `on_server_seg` acts on): random connections in setup (client handshakes negotiated
//! from random client SYNs under random policies, random ISNs across 2^32, TSvals, windows,
//! real servers, a client FIN or not) and random answers from the server (SYN-ACKs with
//! random options: MSS absent, 0, below the minimum or any; window scale absent or any shift
//! as sent; SACK-permitted and timestamps present or not; RSTs with and without ACK; other
//! flags; acks right, one off or random), one per cycle or with gaps, under random
//! back-pressure. Every verdict, entry word, ack, window, MSS and replay chunk must be the
//! firmware's. The decoder's other record fields are random: the absorber must not read them.
//!
//! `OPEN_TB_SEED`, `OPEN_TB_SYNACKS` (default 1,000,000).

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use splicenic_fw_logic::flowmgr::tcpopts::{Handshake, OptionsPolicy, SynOptions, Timestamps};
use splicenic_fw_logic::splicer::absorb::{absorb_synack, SynAckContext, SynAckSegment};
use splicenic_layout::{SynAckVerdict, TcpOpts, MAX_WSCALE};
use splicenic_tb_open::{AbsorbInput, Absorber};

const DEFAULT_SEED: u64 = 0xab50_4b00;
const DEFAULT_SYNACKS: u64 = 1_000_000;

/// A random connection in setup and a random answer of its server: the model's view and
/// the module's inputs.
fn random_case(rng: &mut StdRng) -> (SynAckContext, SynAckSegment, AbsorbInput) {
    let policy = OptionsPolicy {
        mss: rng.gen_range(48..=9000),
        wscale: rng.gen_bool(0.8),
        server_wscale: rng.gen_range(0..=14),
        sack: rng.gen_bool(0.8),
        timestamps: rng.gen_bool(0.8),
    };
    let mss_opt = |rng: &mut StdRng| match rng.gen_range(0..10) {
        0 => None,
        1 => Some(0),
        2 => Some(rng.gen_range(1..48)),
        3 => Some(rng.gen()),
        _ => Some(rng.gen_range(500..=1460)),
    };
    let syn = SynOptions {
        mss: mss_opt(rng),
        wscale: rng.gen_bool(0.8).then(|| rng.gen_range(0..=14)),
        sack_permitted: rng.gen_bool(0.8),
        timestamps: rng.gen_bool(0.8).then(|| Timestamps {
            tsval: rng.gen(),
            tsecr: 0,
        }),
        ignored: 0,
    };
    let hs: Handshake = Handshake::from_client_syn(&policy, &syn).expect("valid policy");
    let near_wrap = |rng: &mut StdRng| -> u32 {
        if rng.gen_ratio(1, 8) {
            0u32.wrapping_sub(rng.gen_range(0..4))
        } else {
            rng.gen()
        }
    };
    let ctx = SynAckContext {
        client_isn: near_wrap(rng),
        card_isn: near_wrap(rng),
        card_tsval: rng.gen(),
        client_win: rng.gen(),
        hs,
        real_server: rng.gen(),
        client_fin: rng.gen_bool(0.1),
    };
    let flags = match rng.gen_range(0..20) {
        0..=12 => 0x12 | if rng.gen_bool(0.1) { 0x08 } else { 0 },
        13 | 14 => 0x14,
        15 => 0x04,
        _ => rng.gen(),
    };
    let ack = match rng.gen_range(0..10) {
        0 => ctx.client_isn,
        1 => ctx.client_isn.wrapping_add(2),
        2 => rng.gen(),
        _ => ctx.client_isn.wrapping_add(1),
    };
    // the server's options as sent: the window shift raw (a shift above 14 is taken as 14)
    let ws_raw: Option<u8> = rng.gen_bool(0.8).then(|| {
        if rng.gen_ratio(1, 10) {
            rng.gen()
        } else {
            rng.gen_range(0..=14)
        }
    });
    let sopts = SynOptions {
        mss: mss_opt(rng),
        wscale: ws_raw.map(|w| w.min(MAX_WSCALE as u8)),
        sack_permitted: rng.gen_bool(0.85),
        timestamps: rng.gen_bool(0.85).then(|| Timestamps {
            tsval: rng.gen(),
            tsecr: rng.gen(),
        }),
        ignored: 0,
    };
    let seg = SynAckSegment {
        flags,
        seq: near_wrap(rng),
        ack,
        opts: sopts,
    };
    // the decoder's record: the fields the absorber reads from the options, the rest random
    let mut rec = TcpOpts {
        tsval: rng.gen(),
        tsecr: rng.gen(),
        mss_value: rng.gen(),
        ws_shift: rng.gen(),
        sack_len: rng.gen_range(0..64),
        mss_offset: rng.gen_range(0..64),
        ws_offset: rng.gen_range(0..64),
        sack_perm_offset: rng.gen_range(0..64),
        ts_offset: rng.gen_range(0..64),
        sack_offset: rng.gen_range(0..64),
        mss: false,
        ws: false,
        sack_perm: false,
        ts: false,
        sack: rng.gen(),
        unknown: rng.gen(),
        malformed: rng.gen(),
    };
    if let Some(m) = sopts.mss {
        rec.mss = true;
        rec.mss_value = m;
    }
    if let Some(w) = ws_raw {
        rec.ws = true;
        rec.ws_shift = w;
    }
    rec.sack_perm = sopts.sack_permitted;
    if let Some(t) = sopts.timestamps {
        rec.ts = true;
        rec.tsval = t.tsval;
        rec.tsecr = t.tsecr;
    }
    let input = AbsorbInput {
        client_isn: ctx.client_isn,
        card_isn: ctx.card_isn,
        card_tsval: ctx.card_tsval,
        client_win: ctx.client_win,
        client_mss: hs.client_mss,
        mss_to_client: hs.mss_to_client,
        sack: hs.sack,
        ts: hs.timestamps,
        client_ws: hs.client_wscale,
        server_ws: hs.server_wscale.unwrap_or(0),
        real_server: ctx.real_server,
        client_fin: ctx.client_fin,
        flags,
        seq: seg.seq,
        ack,
        opts: rec,
    };
    (ctx, seg, input)
}

#[test]
fn absorber_is_the_firmware() {
    let seed = splicenic_fuzzkit::env_u64("OPEN_TB_SEED").unwrap_or(DEFAULT_SEED);
    let target = splicenic_fuzzkit::env_u64("OPEN_TB_SYNACKS").unwrap_or(DEFAULT_SYNACKS);
    eprintln!("synack_absorb against the firmware: seed {seed:#x}, {target} SYN-ACKs");
    let mut rng = StdRng::seed_from_u64(seed);
    let mut t_rng = StdRng::seed_from_u64(seed ^ 0x5a);
    let mut a = Absorber::new().expect("model");
    let mut done = 0u64;
    let mut verdicts = [0u64; 5];
    let mut closing = 0u64;
    let mut rescaled = 0u64;
    let mut clamped = 0u64;
    while done < target {
        let n = (target - done).min(8192) as usize;
        let cases: Vec<_> = (0..n).map(|_| random_case(&mut rng)).collect();
        let ins: Vec<AbsorbInput> = cases.iter().map(|c| c.2).collect();
        let phase = t_rng.gen_range(0..3);
        let mut p_rng = StdRng::seed_from_u64(t_rng.gen());
        let mut r_rng = StdRng::seed_from_u64(t_rng.gen());
        let got = a
            .run(
                &ins,
                || phase != 1 || p_rng.gen_bool(0.5),
                || phase != 2 || r_rng.gen_bool(0.5),
            )
            .expect("results");
        for (k, ((ctx, seg, _), g)) in cases.iter().zip(&got).enumerate() {
            let want = absorb_synack(ctx, seg);
            let what = || format!("SYN-ACK {} ({ctx:?}, {seg:?})", done + k as u64);
            assert_eq!(g.out.verdict, want.verdict as u8, "verdict of {}", what());
            assert_eq!(g.out.entry, want.words, "entry words of {}", what());
            assert_eq!(g.out.ack, want.ack, "ack of {}", what());
            assert_eq!(g.out.window, want.window, "window of {}", what());
            assert_eq!(
                g.out.mss,
                want.neg.map_or(0, |n| n.mss),
                "MSS of {}",
                what()
            );
            assert_eq!(g.out.chunk, want.chunk, "chunk of {}", what());
            verdicts[usize::from(g.out.verdict)] += 1;
            if want.verdict == SynAckVerdict::Splice {
                closing += u64::from(ctx.client_fin);
                rescaled += u64::from(want.neg.is_some_and(|n| n.window_rescale));
                clamped += u64::from(want.window == 0xffff);
            }
        }
        done += n as u64;
    }
    eprintln!(
        "{done} SYN-ACKs equal the firmware's: verdicts {:?} (IGNORE, SPLICE, REFUSED, \
         DECLINED_TS, DECLINED_SACK); spliced: {closing} CLOSING, {rescaled} with a shift \
         difference, {clamped} windows clamped at 0xFFFF",
        verdicts
    );
    for (v, &c) in verdicts.iter().enumerate() {
        assert!(c > 0, "verdict {v} never occurred");
    }
    assert!(closing > 0 && rescaled > 0 && clamped > 0);
}
