//! Every record declared in registers/records.toml, through the generated Rust
//! (`splicenic_layout::reference_roundtrip`: unpack, pack, leaves) and through the generated
//! Verilog under Verilator (`records_rt`: field selects, pack function, DATA_WIDTH beats), at
//! DATA_WIDTH 64 and 512: both sides must agree on every leaf and every packed bit.

use splicenic_fuzzkit::Rng;
use splicenic_layout::{
    reference_roundtrip, RecordInfo, MAX_RECORD_LEAVES, MAX_RECORD_WORDS, RECORDS,
};
use splicenic_tb_records::RoundTrip;

fn check(rt: &mut RoundTrip, width: u32, sel: usize, info: &RecordInfo, words: &[u32]) {
    let mut packed = [0u32; MAX_RECORD_WORDS];
    let mut leaves = [0u64; MAX_RECORD_LEAVES];
    assert!(reference_roundtrip(sel, words, &mut packed, &mut leaves));
    let rtl = rt.run(sel, info.bits, words);
    assert_eq!(rtl.beats, info.bits.div_ceil(width as usize));
    assert_eq!(
        &rtl.leaves[..info.leaves],
        &leaves[..info.leaves],
        "{} at DATA_WIDTH {width}: leaves of {words:08x?}",
        info.name
    );
    assert_eq!(
        rtl.packed,
        &packed[..info.words],
        "{} at DATA_WIDTH {width}: packed form of {words:08x?}",
        info.name
    );
    // Unpacking what was packed gives the same leaves (reserved bits were the only loss).
    let mut again = [0u32; MAX_RECORD_WORDS];
    let mut leaves2 = [0u64; MAX_RECORD_LEAVES];
    assert!(reference_roundtrip(sel, &packed, &mut again, &mut leaves2));
    assert_eq!(again, packed);
    assert_eq!(leaves2, leaves);
}

fn run(width: u32) {
    let mut rt = RoundTrip::new(width).expect("model at this width");
    let mut rng = Rng(0x5EED_0000 + u64::from(width));
    for (sel, info) in RECORDS.iter().enumerate() {
        let mask_last = |w: &mut [u32]| {
            let tail = info.bits % 32;
            if tail != 0 {
                w[info.words - 1] &= (1u32 << tail) - 1;
            }
        };
        // Ones everywhere, one bit at a time, and random words.
        let mut ones = vec![u32::MAX; info.words];
        mask_last(&mut ones);
        check(&mut rt, width, sel, info, &ones);
        for b in 0..info.bits {
            let mut w = vec![0u32; info.words];
            w[b / 32] = 1 << (b % 32);
            check(&mut rt, width, sel, info, &w);
        }
        for _ in 0..200 {
            let mut w: Vec<u32> = (0..info.words).map(|_| rng.next() as u32).collect();
            mask_last(&mut w);
            check(&mut rt, width, sel, info, &w);
        }
    }
}

#[test]
fn every_record_round_trips_at_data_width_64() {
    run(64);
}

#[test]
fn every_record_round_trips_at_data_width_512() {
    run(512);
}

#[test]
fn a_width_without_a_model_is_refused() {
    assert!(RoundTrip::new(128).is_none());
}
