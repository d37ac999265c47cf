//! head_buf's cycle behaviour against its declaration in registers/records.toml: a
//! segment's beats are taken one per cycle, the next segment's first beat exactly
//! `HEAD_SEG_GAP` cycles after the previous segment's last beat when that segment started
//! off a multiple of 8 (its carry word is written after the last beat), one less when it
//! started on one; a segment's result comes a fixed number of cycles after its last beat.
//! Prints the cycles a 60-byte and a 300-byte head take to store, the figure
//! docs/head-buf.md records.

use splicenic_layout::HEAD_SEG_GAP;
use splicenic_tb_head::HeadBuf;

#[test]
fn beats_one_per_cycle_and_the_declared_gap_between_segments() {
    let mut hw = HeadBuf::new().unwrap();
    let a = hw.alloc().unwrap().unwrap();
    let b = hw.alloc().unwrap().unwrap();
    let p = |n: usize, s: u8| {
        (0..n)
            .map(|i| (i as u8).wrapping_mul(s))
            .collect::<Vec<u8>>()
    };
    // a: 13 bytes at 0, then 51 at 13 (off 13 = 5 mod 8), then 40 at 64 (0 mod 8); b: 300 at 0
    let segs = vec![
        (a, 0, p(13, 3)),
        (a, 13, p(51, 5)),
        (a, 64, p(40, 7)),
        (b, 0, p(300, 11)),
    ];
    let got = hw.append(&segs, |_| false).unwrap();
    let mut latency = Vec::new();
    for (k, ((r, t), (_, off, payload))) in got.iter().zip(&segs).enumerate() {
        assert!(!r.hole && !r.bad && r.added == payload.len(), "{r:?}");
        let beats = payload.len().div_ceil(8) as u64;
        assert_eq!(
            t.last - t.first,
            beats - 1,
            "segment {k}: one beat per cycle"
        );
        latency.push(t.result - t.last);
        if k > 0 {
            // a carry word is written after the last beat when the segment started off a
            // multiple of 8
            let carry = segs[k - 1].1 % 8 != 0;
            let want = u64::from(HEAD_SEG_GAP) - u64::from(!carry);
            assert_eq!(
                t.first - got[k - 1].1.last,
                want,
                "gap before segment {k} (off {off})"
            );
        }
    }
    // the result's latency is the same for every segment of the same kind
    println!("head_buf result latency after the last beat: {latency:?}");
    assert!(latency
        .iter()
        .all(|&l| l == latency[0] || l == latency[0] + 1));
    for (len, name) in [(60usize, "60-byte"), (300, "300-byte")] {
        let c = hw.alloc().unwrap().unwrap();
        let got = hw.append(&[(c, 0, p(len, 13))], |_| false).unwrap();
        let t = got[0].1;
        let busy = t.last - t.first + 1 + u64::from(HEAD_SEG_GAP) - 1;
        println!(
            "{name} head in one segment: {} beats, busy {busy} cycles",
            len.div_ceil(8)
        );
    }
}
