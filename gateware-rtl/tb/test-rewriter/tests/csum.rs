//! The RFC 1624 eqn 3 unit (splice_csum_update, 4 words) on the TCP_CASES.md vectors and
//! against a full recompute, evaluated in the Verilated gateware.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use splicenic_tb_rewriter::{reference::ones_sum, CsumUnit};

#[test]
fn rfc1624_vector_gives_positive_zero() {
    let mut u = CsumUnit::new().expect("model");
    // other words sum to 0xCD7A, m = 0x5555 -> m' = 0x3285, HC = 0xDD2F: HC' = 0x0000
    // (RFC 1141's formula would give 0xFFFF)
    let hc = u.update(0xdd2f, [0x5555, 0, 0, 0], [0x3285, 0, 0, 0]);
    assert_eq!(hc, 0x0000);
    // the same change as a 32-bit field split over two words, unchanged partner word
    let hc = u.update(0xdd2f, [0x1234, 0x5555, 0, 0], [0x1234, 0x3285, 0, 0]);
    assert_eq!(hc, 0x0000);
}

#[test]
fn rfc1071_vector_from_an_all_zero_checksum() {
    let mut u = CsumUnit::new().expect("model");
    // the checksum of four zero words is 0xFFFF; changing them to 0001 f203 f4f5 f6f7
    // (sum 0xDDF2) must give the RFC 1071 checksum 0x220D
    let hc = u.update(0xffff, [0; 4], [0x0001, 0xf203, 0xf4f5, 0xf6f7]);
    assert_eq!(hc, 0x220d);
    assert_eq!(
        !ones_sum(&[0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7], 0),
        0x220d
    );
}

#[test]
fn incremental_equals_full_recompute_on_random_data() {
    let mut u = CsumUnit::new().expect("model");
    let mut rng = ChaCha8Rng::seed_from_u64(0xc5c5);
    for _ in 0..20_000 {
        let n = rng.gen_range(8..64usize);
        let mut data: Vec<u8> = (0..n).map(|_| rng.gen()).collect();
        if rng.gen_bool(0.1) {
            data.iter_mut().for_each(|b| *b = 0xff);
        }
        let hc = !ones_sum(&data, 0);
        // change up to four word-aligned words (one 32-bit field = two of them)
        let pos = 2 * rng.gen_range(0..(n / 2 - 3));
        let mut old = [0u16; 4];
        let mut new = [0u16; 4];
        for w in 0..4 {
            let o = pos + 2 * w;
            old[w] = u16::from_be_bytes([data[o], data[o + 1]]);
            new[w] = if rng.gen_bool(0.6) { rng.gen() } else { old[w] };
            data[o..o + 2].copy_from_slice(&new[w].to_be_bytes());
        }
        let full = !ones_sum(&data, 0);
        let inc = u.update(hc, old, new);
        // one's complement has two zeros; a full recompute over nonzero data never
        // yields 0xFFFF and neither does eqn 3, so the values must be identical
        assert_eq!(inc, full, "data {data:02x?} old {old:04x?} new {new:04x?}");
    }
}
