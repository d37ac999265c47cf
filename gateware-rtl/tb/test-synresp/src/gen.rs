//! Random SYNs and configurations for the tests.
//!
//! Option windows come from two sources: the option decoder bench's generator
//! ([`splicenic_tb_options::testkit::gen_window`]: well-formed lists, etherparse-encoded
//! lists, unknown kinds, corrupted and random lists) and [`syn_options`] here, lists as SYNs
//! carry them (MSS, SACK_PERM, TS, NOP, WS in the orders real stacks use and in random
//! orders; MSS 0 and 1..535, window scale shifts above 14, repeated options, EOL with
//! garbage after it, an unknown kind, a truncated tail).

use crate::model::{Config, Syn, OPT_BYTES};
use rand::Rng;
use splicenic_tb_options::testkit::{gen_window, kind, CLASSES};

/// A random MSS option value: 0, below the default, at and between the cookie class
/// boundaries, or any.
fn mss_value<R: Rng>(rng: &mut R) -> u16 {
    match rng.gen_range(0..10) {
        0 => 0,
        1 => rng.gen_range(1..536),
        2 => [536, 1299, 1300, 1439, 1440, 1459, 1460, 8960][rng.gen_range(0..8)],
        3 if rng.gen_bool(0.5) => rng.gen_range(1300..1440),
        3 => rng.gen_range(1440..1460),
        4 | 5 => 1460,
        _ => rng.gen(),
    }
}

/// A random window scale shift: mostly 0..=14, sometimes above.
fn ws_shift<R: Rng>(rng: &mut R) -> u8 {
    if rng.gen_bool(0.2) {
        rng.gen_range(15..=255)
    } else {
        rng.gen_range(0..=14)
    }
}

/// One SYN option (or padding) as bytes.
fn syn_option<R: Rng>(rng: &mut R) -> Vec<u8> {
    match rng.gen_range(0..12) {
        0..=1 => {
            let v = mss_value(rng);
            vec![kind::MSS, 4, (v >> 8) as u8, v as u8]
        }
        2..=3 => vec![kind::WS, 3, ws_shift(rng)],
        4..=5 => vec![kind::SACK_PERM, 2],
        6..=7 => {
            let mut o = vec![kind::TS, 10];
            o.extend((0..8).map(|_| rng.gen::<u8>()));
            o
        }
        8..=9 => vec![kind::NOP],
        10 => {
            // an unknown kind (MD5, fast open, experimental)
            let k = [19u8, 34, 253, 254, 30, 77][rng.gen_range(0..6)];
            let n = rng.gen_range(2..=10);
            let mut o = vec![k, n as u8];
            o.extend((2..n).map(|_| rng.gen::<u8>()));
            o
        }
        _ => vec![kind::EOL],
    }
}

/// A SYN's option list (see the module docs) and its length.
pub fn syn_options<R: Rng>(rng: &mut R) -> (u8, [u8; OPT_BYTES]) {
    let mut v: Vec<u8> = match rng.gen_range(0..6) {
        // Linux: MSS, SACK_PERM, TS, NOP, WS
        0 => {
            let mut v = vec![2, 4, 5, 0xb4, 4, 2, 8, 10];
            v.extend((0..8).map(|_| rng.gen::<u8>()));
            v.extend([1, 3, 3, ws_shift(rng)]);
            v
        }
        // Windows / macOS-like orders
        1 => {
            let m = mss_value(rng);
            let mut v = vec![2, 4, (m >> 8) as u8, m as u8, 1, 3, 3, ws_shift(rng), 1, 1];
            if rng.gen_bool(0.5) {
                v.extend([8, 10]);
                v.extend((0..8).map(|_| rng.gen::<u8>()));
            }
            v.extend([4, 2]);
            v
        }
        // random options
        _ => {
            let n = rng.gen_range(0..=10);
            let mut v = Vec::new();
            for _ in 0..n {
                v.extend(syn_option(rng));
            }
            v
        }
    };
    // Sometimes a truncated or overlong tail, or a length byte broken.
    match rng.gen_range(0..10) {
        0 if !v.is_empty() => {
            let cut = rng.gen_range(0..v.len());
            v.truncate(cut);
        }
        1 if v.len() > 1 => {
            let at = rng.gen_range(0..v.len() - 1);
            v[at + 1] = rng.gen_range(0..=2);
        }
        _ => {}
    }
    v.truncate(OPT_BYTES);
    let mut bytes = [0u8; OPT_BYTES];
    bytes[..v.len()].copy_from_slice(&v);
    // Garbage past the length (the module must not look at it).
    if rng.gen_bool(0.7) {
        for b in bytes.iter_mut().skip(v.len()) {
            *b = match rng.gen_range(0..3) {
                0 => [2, 3, 4, 8][rng.gen_range(0..4)],
                _ => rng.gen(),
            };
        }
    }
    (v.len() as u8, bytes)
}

/// A random option window: a SYN-style list or one of the decoder bench's classes.
pub fn options<R: Rng>(rng: &mut R) -> (u8, [u8; OPT_BYTES]) {
    if rng.gen_bool(0.6) {
        syn_options(rng)
    } else {
        let class = CLASSES[rng.gen_range(0..CLASSES.len())];
        let w = gen_window(rng, class);
        (w.len, w.bytes)
    }
}

/// A random SYN (random MAC, addresses, ports and ISN; options from [`options`]).
pub fn syn<R: Rng>(rng: &mut R) -> Syn {
    let (opt_len, opt) = options(rng);
    Syn {
        eth_src: rng.gen::<u64>() & 0xffff_ffff_ffff,
        ip_src: rng.gen(),
        ip_dst: rng.gen(),
        sport: rng.gen(),
        dport: rng.gen(),
        seq: rng.gen(),
        opt_len,
        opt,
    }
}

/// A random configuration: every offer combination, a random or typical MSS and MAC.
pub fn config<R: Rng>(rng: &mut R) -> Config {
    Config {
        mac: rng.gen::<u64>() & 0xffff_ffff_ffff,
        mss: if rng.gen_bool(0.5) {
            [1460, 1448, 536, 8960, 0, 0xffff][rng.gen_range(0..6)]
        } else {
            rng.gen()
        },
        offer_ws: rng.gen_bool(0.7),
        offer_sack: rng.gen_bool(0.7),
        offer_ts: rng.gen_bool(0.8),
    }
}

/// A random TS clock: anywhere, or near a TS_BITS boundary or the 32-bit wrap.
pub fn now<R: Rng>(rng: &mut R) -> u32 {
    match rng.gen_range(0..4) {
        0 => rng.gen_range(0..64),
        1 => u32::MAX - rng.gen_range(0..64),
        _ => rng.gen(),
    }
}
