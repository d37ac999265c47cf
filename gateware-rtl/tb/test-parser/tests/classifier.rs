//! tcp_classifier against a software reference decision function (below), on random
//! headers and on the headers the parser produced for real frames (parser -> classifier).

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use splicenic_tb_parser::classifier::{self, Config, Decision, Input};
use splicenic_tb_parser::testkit::{bad_frame, reference as parse_reference, valid_frame};
use splicenic_tb_parser::{reason, Frame, Parser, RunConfig, Width};

/// SOFTWARE REFERENCE of the classifier decision, written from the module's documented
/// rules (tcp_classifier.v header), independent of the RTL.
fn reference(cfg: &Config, h: &Input) -> Decision {
    let ok = h.reason == reason::OK;
    let other = h.reason == reason::OTHER_L3 || h.reason == reason::OTHER_L4;
    let vip = cfg
        .vips
        .iter()
        .position(|v| *v == Some((h.ip_dst, h.tcp_dst_port)));
    let local = cfg.locals.iter().position(|a| *a == Some(h.ip_dst));
    let (class, why, index) = if ok && vip.is_some() {
        (classifier::VIP, classifier::WHY_NONE, vip.unwrap_or(0))
    } else if ok && local.is_some() {
        (classifier::SERVER, classifier::WHY_NONE, local.unwrap_or(0))
    } else {
        let why = if ok {
            classifier::WHY_NOMATCH
        } else if other && h.eth_type == 0x0806 {
            classifier::WHY_ARP
        } else if other && h.eth_type == 0x0800 && h.ip_protocol == 1 {
            classifier::WHY_ICMP
        } else if other {
            classifier::WHY_OTHER
        } else {
            classifier::WHY_MALFORMED
        };
        let class = if cfg.punt & (1 << why) != 0 {
            classifier::PUNT
        } else {
            classifier::DROP
        };
        (class, why, 0)
    };
    let (fin, syn, rst, ack) = (
        h.tcp_flags & 1 != 0,
        h.tcp_flags & 2 != 0,
        h.tcp_flags & 4 != 0,
        h.tcp_flags & 0x10 != 0,
    );
    let kind = if !ok {
        classifier::K_NONE
    } else if rst {
        classifier::K_RST
    } else if syn && !ack {
        classifier::K_SYN
    } else if syn {
        classifier::K_SYN_ACK
    } else if fin {
        classifier::K_FIN
    } else if h.payload_len > 0 {
        classifier::K_DATA
    } else if ack {
        classifier::K_ACK
    } else {
        classifier::K_OTHER
    };
    Decision {
        class,
        why,
        kind,
        index: index as u8,
    }
}

fn random_config<R: Rng>(rng: &mut R, addrs: &[[u8; 4]], ports: &[u16]) -> Config {
    let mut cfg = Config {
        punt: rng.gen(),
        ..Config::default()
    };
    for v in cfg.vips.iter_mut() {
        if rng.gen_bool(0.7) {
            *v = Some((
                *addrs.choose(rng).unwrap_or(&[0; 4]),
                *ports.choose(rng).unwrap_or(&80),
            ));
        }
    }
    for l in cfg.locals.iter_mut() {
        if rng.gen_bool(0.7) {
            *l = Some(*addrs.choose(rng).unwrap_or(&[0; 4]));
        }
    }
    cfg
}

#[test]
fn random_headers_match_reference() {
    let mut rng = ChaCha8Rng::seed_from_u64(0xc1a5_0001);
    let mut kinds = [0u32; 8];
    let mut whys = [0u32; 8];
    for round in 0..10 {
        let addrs: Vec<[u8; 4]> = (0..6).map(|_| rng.gen()).collect();
        let ports = [80u16, 443, 8080, rng.gen()];
        let cfg = random_config(&mut rng, &addrs, &ports);
        let inputs: Vec<Input> = (0..1000)
            .map(|_| Input {
                reason: if rng.gen_bool(0.6) {
                    0
                } else {
                    rng.gen_range(0..14)
                },
                eth_type: *[0x0800u16, 0x0806, 0x86dd, rng.gen()]
                    .choose(&mut rng)
                    .unwrap_or(&0),
                ip_protocol: *[6u8, 1, 17, rng.gen()].choose(&mut rng).unwrap_or(&6),
                ip_dst: if rng.gen_bool(0.8) {
                    *addrs.choose(&mut rng).unwrap_or(&[0; 4])
                } else {
                    rng.gen()
                },
                tcp_dst_port: if rng.gen_bool(0.8) {
                    *ports.choose(&mut rng).unwrap_or(&80)
                } else {
                    rng.gen()
                },
                tcp_flags: rng.gen_range(0..0x200),
                payload_len: if rng.gen() { 0 } else { rng.gen() },
            })
            .collect();
        let (pct_v, pct_r) = if round % 2 == 0 { (100, 100) } else { (70, 60) };
        let (outs, cycles) = classifier::run(&cfg, &inputs, pct_v, pct_r, round).expect("run");
        if pct_v == 100 && pct_r == 100 {
            // one header per cycle, one cycle of latency
            assert!(cycles <= inputs.len() as u64 + 2, "{cycles} cycles");
        }
        for (i, (h, o)) in inputs.iter().zip(&outs).enumerate() {
            let e = reference(&cfg, h);
            assert_eq!(*o, e, "round {round} input #{i} {h:?} cfg {cfg:?}");
            kinds[usize::from(o.kind)] += 1;
            whys[usize::from(o.why)] += 1;
        }
    }
    assert!(
        kinds.iter().all(|&k| k > 0),
        "every TCP kind seen: {kinds:?}"
    );
    assert!(whys[..6].iter().all(|&w| w > 0), "every why seen: {whys:?}");
}

/// Frames -> parser (RTL) -> classifier (RTL), against parse reference -> classifier reference.
#[test]
fn parser_headers_classify_like_reference() {
    for w in [Width::W64, Width::W512] {
        let mut rng = ChaCha8Rng::seed_from_u64(0xc1a5_0002);
        let frames: Vec<Frame> = (0..1500)
            .map(|_| {
                if rng.gen_bool(0.3) {
                    bad_frame(&mut rng)
                } else {
                    Frame::new(valid_frame(&mut rng))
                }
            })
            .collect();
        // services on the destinations of some valid frames, server-side addresses on others
        let exp: Vec<_> = frames.iter().map(parse_reference).collect();
        let oks: Vec<Input> = exp
            .iter()
            .filter(|e| e.reason == reason::OK)
            .map(|e| Input::from(&e.hdr))
            .collect();
        let mut cfg = Config {
            punt: 0b0010_1010,
            ..Config::default()
        };
        for (v, h) in cfg.vips.iter_mut().zip(oks.iter().step_by(7)) {
            *v = Some((h.ip_dst, h.tcp_dst_port));
        }
        for (l, h) in cfg.locals.iter_mut().zip(oks.iter().skip(3).step_by(11)) {
            *l = Some(h.ip_dst);
        }
        let mut p = Parser::new(w).expect("model");
        let (outs, _) = p
            .run(&frames, &RunConfig::line_rate(10_000_000))
            .expect("parser run");
        let inputs: Vec<Input> = outs.iter().map(|o| Input::from(&o.header)).collect();
        let (dec, _) = classifier::run(&cfg, &inputs, 100, 100, 1).expect("classifier run");
        let mut classes = [0u32; 4];
        for (i, (d, e)) in dec.iter().zip(&exp).enumerate() {
            let want = reference(&cfg, &Input::from(&e.hdr));
            // the reference header holds only the fields that parsed, which are all that
            // the rules read for that verdict
            assert_eq!(*d, want, "{w:?} frame #{i}");
            classes[usize::from(d.class)] += 1;
        }
        println!("{w:?}: classes VIP/SERVER/PUNT/DROP = {classes:?}");
        assert!(classes.iter().all(|&c| c > 0));
    }
}
