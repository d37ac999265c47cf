//! Directed cases: real SYNs (Linux, Windows), data segments, EOL followed by garbage,
//! silly lengths, options running past the data offset, wrong lengths, duplicates, the
//! longest walks. Each expectation is written out by hand; the RTL, the test's walker and
//! (for well-formed lists) etherparse must all give it.

use splicenic_layout::TcpOpts;
use splicenic_tb_options::testkit::{area, etherparse_reference, walk, Etherparse};
use splicenic_tb_options::{run, OptDecoder, Stalls, Window, OPT_BYTES};

fn window(len: usize, opts: &[u8]) -> Window {
    let mut bytes = [0u8; OPT_BYTES];
    bytes[..opts.len()].copy_from_slice(opts);
    Window {
        len: len as u8,
        bytes,
    }
}

/// The RTL's result for each window, stall-free.
fn decode(ws: &[Window]) -> Vec<TcpOpts> {
    let mut m = OptDecoder::new().expect("model");
    let mut rng = rand::thread_rng();
    let (out, _) = run(&mut m, ws, Stalls::NONE, &mut rng).expect("run");
    out.into_iter().map(|d| d.opts).collect()
}

/// Checks `cases` (name, window, expected, well-formed for etherparse).
fn check(cases: &[(&str, Window, TcpOpts, bool)]) {
    let ws: Vec<Window> = cases.iter().map(|c| c.1).collect();
    let got = decode(&ws);
    for ((name, w, want, well), got) in cases.iter().zip(got) {
        assert_eq!(walk(area(w)), *want, "walker: {name}");
        match etherparse_reference(area(w)) {
            Etherparse::WellFormed(e) => {
                assert!(*well, "{name}: etherparse reads it");
                assert_eq!(e, *want, "etherparse: {name}");
            }
            _ => assert!(!*well, "{name}: etherparse refuses it"),
        }
        assert_eq!(got, *want, "RTL: {name}");
    }
}

const TSV: [u8; 4] = [0x12, 0x34, 0x56, 0x78];
const TSE: [u8; 4] = [0x9a, 0xbc, 0xde, 0xf0];

fn ts_at(off: u8) -> TcpOpts {
    TcpOpts {
        ts: true,
        tsval: 0x1234_5678,
        tsecr: 0x9abc_def0,
        ts_offset: off,
        ..TcpOpts::default()
    }
}

#[test]
fn real_segments() {
    // Linux SYN: MSS 1460, SACK_PERM, TS, NOP, WS 7 (20 bytes, data offset 10)
    let mut linux = vec![2, 4, 0x05, 0xb4, 4, 2, 8, 10];
    linux.extend(TSV);
    linux.extend(TSE);
    linux.extend([1, 3, 3, 7]);
    let linux_want = TcpOpts {
        mss: true,
        mss_value: 1460,
        mss_offset: 20,
        sack_perm: true,
        sack_perm_offset: 24,
        ws: true,
        ws_shift: 7,
        ws_offset: 37,
        ..ts_at(26)
    };
    // Windows SYN: MSS 1460, NOP, WS 8, NOP, NOP, SACK_PERM (12 bytes)
    let windows = [2, 4, 0x05, 0xb4, 1, 3, 3, 8, 1, 1, 4, 2];
    let windows_want = TcpOpts {
        mss: true,
        mss_value: 1460,
        mss_offset: 20,
        ws: true,
        ws_shift: 8,
        ws_offset: 25,
        sack_perm: true,
        sack_perm_offset: 30,
        ..TcpOpts::default()
    };
    // Linux data segment: NOP, NOP, TS
    let mut data = vec![1, 1, 8, 10];
    data.extend(TSV);
    data.extend(TSE);
    // Linux ACK with SACK: NOP, NOP, TS, NOP, NOP, SACK of 2 blocks
    let mut sack = data.clone();
    sack.extend([1, 1, 5, 18]);
    sack.extend([0xaa; 16]);
    let sack_want = TcpOpts {
        sack: true,
        sack_len: 18,
        sack_offset: 34,
        ..ts_at(22)
    };
    check(&[
        ("Linux SYN", window(20, &linux), linux_want, true),
        ("Windows SYN", window(12, &windows), windows_want, true),
        ("Linux data segment", window(12, &data), ts_at(22), true),
        ("Linux SACK", window(32, &sack), sack_want, true),
        ("no options", window(0, &[]), TcpOpts::default(), true),
    ]);
}

#[test]
fn ends_and_garbage() {
    let mss = TcpOpts {
        mss: true,
        mss_value: 0x0218,
        mss_offset: 20,
        ..TcpOpts::default()
    };
    check(&[
        // EOL, then bytes that would be a WS and a silly option: ignored, not malformed
        (
            "EOL then garbage",
            window(12, &[2, 4, 2, 0x18, 0, 3, 3, 9, 7, 0, 0xff, 0xff]),
            mss,
            true,
        ),
        // an MSS whose bytes lie past the area: the area is 4 bytes, nothing after counts
        (
            "garbage past the area",
            window(4, &[2, 4, 2, 0x18, 3, 3, 9, 0x11, 1, 0]),
            mss,
            true,
        ),
        // a length above 40 is taken as 40: 40 NOPs then nothing
        (
            "len 63 as 40",
            window(63, &[1; OPT_BYTES]),
            TcpOpts::default(),
            true,
        ),
        (
            "40 NOPs",
            window(40, &[1; OPT_BYTES]),
            TcpOpts::default(),
            true,
        ),
    ]);
}

#[test]
fn malformed_lists() {
    let bad = TcpOpts {
        malformed: true,
        ..TcpOpts::default()
    };
    let ws9 = TcpOpts {
        ws: true,
        ws_shift: 9,
        ws_offset: 25,
        malformed: true,
        ..TcpOpts::default()
    };
    let mss_then_bad = TcpOpts {
        mss: true,
        mss_value: 1460,
        mss_offset: 20,
        malformed: true,
        ..TcpOpts::default()
    };
    let mut ts_past = vec![2, 4, 0x05, 0xb4, 8, 10];
    ts_past.extend([0x55; 6]);
    check(&[
        (
            "length 0",
            window(8, &[2, 0, 0x05, 0xb4, 1, 1, 1, 1]),
            bad,
            false,
        ),
        (
            "length 1 of an unknown kind",
            window(4, &[30, 1, 0, 0]),
            bad,
            false,
        ),
        // the TS at byte 4 needs 10 bytes, the area has 8 left: the MSS before it counts
        (
            "TS past the data offset",
            window(12, &ts_past),
            mss_then_bad,
            false,
        ),
        (
            "kind on the last byte",
            window(4, &[1, 1, 1, 2]),
            bad,
            false,
        ),
        (
            "unknown kind past the end",
            window(8, &[1, 1, 1, 1, 30, 9, 0, 0]),
            bad,
            false,
        ),
        // an MSS of length 5 is skipped (malformed) and the WS after it still counts
        (
            "MSS of length 5",
            window(8, &[2, 5, 0, 0, 0, 3, 3, 9]),
            ws9,
            false,
        ),
        (
            "SACK of length 12",
            window(12, &[5, 12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
            bad,
            false,
        ),
    ]);
}

#[test]
fn unknown_kinds_duplicates_and_long_walks() {
    // MD5 signature (19, 18 bytes), then TS: MD5 is skipped, TS counts
    let mut md5 = vec![19, 18];
    md5.extend([0x77; 16]);
    md5.extend([1, 1, 8, 10]);
    md5.extend(TSV);
    md5.extend(TSE);
    let md5_want = TcpOpts {
        unknown: true,
        ..ts_at(40)
    };
    // two MSS and two WS: the last of each counts
    let dup = [2, 4, 0, 100, 3, 3, 1, 2, 4, 0, 200, 3, 3, 14, 1, 1];
    let dup_want = TcpOpts {
        mss: true,
        mss_value: 200,
        mss_offset: 27,
        ws: true,
        ws_shift: 14,
        ws_offset: 31,
        ..TcpOpts::default()
    };
    // 36 NOPs then a WS at the very end (byte 36..38) and EOL
    let mut late = vec![1u8; 36];
    late.extend([3, 3, 5, 0]);
    let late_want = TcpOpts {
        ws: true,
        ws_shift: 5,
        ws_offset: 56,
        ..TcpOpts::default()
    };
    // SACK of 4 blocks (34 bytes) at byte 6, after NOP NOP MSS: fills the 40 bytes
    let mut full = vec![1, 1, 2, 4, 0x23, 0x28, 5, 34];
    full.extend([0x31; 32]);
    let full_want = TcpOpts {
        mss: true,
        mss_value: 0x2328,
        mss_offset: 22,
        sack: true,
        sack_len: 34,
        sack_offset: 26,
        ..TcpOpts::default()
    };
    // SACK_PERM at the last two bytes
    let mut perm_last = vec![1u8; 38];
    perm_last.extend([4, 2]);
    let perm_want = TcpOpts {
        sack_perm: true,
        sack_perm_offset: 58,
        ..TcpOpts::default()
    };
    check(&[
        ("MD5 then TS", window(32, &md5), md5_want, false),
        ("duplicates", window(16, &dup), dup_want, true),
        ("WS after 36 NOPs", window(40, &late), late_want, true),
        ("SACK of 4 blocks", window(40, &full), full_want, true),
        ("SACK_PERM at 38", window(40, &perm_last), perm_want, true),
    ]);
}
