//! SYN cookies: the reference model of the `syn_cookie` gateware unit (docs/cookie.md).
//!
//! The card answers a SYN with a SYN-ACK whose ISN is a keyed cookie and checks it when the
//! client's ACK comes back, so a SYN keeps no state. The cookie is HalfSipHash-2-4 (32-bit
//! output) of the connection's tuple and the client's ISN under one of two 64-bit keys:
//!
//! * hash input, four little-endian 32-bit words (16 bytes): client IPv4, VIP IPv4,
//!   `client port << 16 | VIP port`, client ISN (the SYN's seq; for a check, the ACK's seq - 1);
//! * ISN = `{h[31:3], mss_class ^ h[2:1], epoch}`: bit 0 names the key slot the cookie was
//!   made with, bits 2:1 carry the MSS class masked by the hash, bits 31:3 are the hash.
//!
//! The key slots ([`CookieKeys`]): the firmware writes the idle slot, then flips `current`;
//! the other slot then checks the cookies of the previous epoch until the next rotation
//! overwrites it. `previous_valid` clear (after reset, or to revoke the old key) makes a
//! cookie naming the other slot [`CookieError::StaleEpoch`].
//!
//! The client's window scale and SACK-permitted option, which a cookie SYN-ACK cannot keep
//! either, travel in the low bits of the card's TSval ([`ts_encode`], [`ts_decode`]), as
//! Linux does.

use splicenic_layout::{
    CookieStatus, COOKIE_HASH_LSB, COOKIE_KEY_SLOTS, COOKIE_MSS_0, COOKIE_MSS_1, COOKIE_MSS_2,
    COOKIE_MSS_3, COOKIE_MSS_CLASS_BITS, COOKIE_TS_BITS,
};

/// The MSS a class stands for, class 0 first.
pub const MSS_TABLE: [u16; 4] = [
    COOKIE_MSS_0 as u16,
    COOKIE_MSS_1 as u16,
    COOKIE_MSS_2 as u16,
    COOKIE_MSS_3 as u16,
];

/// Key slots (current and previous).
pub const KEY_SLOTS: usize = COOKIE_KEY_SLOTS as usize;

const MSS_MASK: u32 = (1 << COOKIE_MSS_CLASS_BITS) - 1;
const HASH_MASK: u32 = !((1 << COOKIE_HASH_LSB) - 1);

#[inline(always)]
fn sip_round(v: &mut [u32; 4]) {
    v[0] = v[0].wrapping_add(v[1]);
    v[1] = v[1].rotate_left(5) ^ v[0];
    v[0] = v[0].rotate_left(16);
    v[2] = v[2].wrapping_add(v[3]);
    v[3] = v[3].rotate_left(8) ^ v[2];
    v[0] = v[0].wrapping_add(v[3]);
    v[3] = v[3].rotate_left(7) ^ v[0];
    v[2] = v[2].wrapping_add(v[1]);
    v[1] = v[1].rotate_left(13) ^ v[2];
    v[2] = v[2].rotate_left(16);
}

/// HalfSipHash-2-4 with a 32-bit output of `msg` under `key` (k0 = key bytes 0-3, k1 = bytes
/// 4-7, little endian).
pub fn halfsiphash24(key: &[u8; 8], msg: &[u8]) -> u32 {
    let k0 = u32::from_le_bytes([key[0], key[1], key[2], key[3]]);
    let k1 = u32::from_le_bytes([key[4], key[5], key[6], key[7]]);
    let mut blocks = msg.chunks_exact(4);
    let v = blocks.by_ref().fold(sip_init([k0, k1]), |v, b| {
        sip_compress(v, u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    });
    let tail = blocks
        .remainder()
        .iter()
        .enumerate()
        .fold(0, |t, (i, &byte)| t | u32::from(byte) << (8 * i));
    sip_finish(v, msg.len(), tail)
}

/// HalfSipHash-2-4 of whole little-endian words under the key `[k0, k1]`: the form the
/// gateware computes (the same value as [`halfsiphash24`] of the words' bytes).
pub fn halfsiphash24_words(key: [u32; 2], words: &[u32]) -> u32 {
    let v = words.iter().fold(sip_init(key), |v, &m| sip_compress(v, m));
    sip_finish(v, words.len() * 4, 0)
}

/// The initial state under the key `[k0, k1]`.
fn sip_init([k0, k1]: [u32; 2]) -> [u32; 4] {
    [k0, k1, 0x6c79_6765 ^ k0, 0x7465_6462 ^ k1]
}

/// One message word: two compression rounds (the "2" of 2-4).
fn sip_compress(mut v: [u32; 4], m: u32) -> [u32; 4] {
    v[3] ^= m;
    sip_round(&mut v);
    sip_round(&mut v);
    v[0] ^= m;
    v
}

/// The last block (message length in its top byte, the `tail` bytes below it) and the four
/// finalisation rounds (the "4").
fn sip_finish(v: [u32; 4], len: usize, tail: u32) -> u32 {
    let mut v = sip_compress(v, (len as u32) << 24 | tail);
    v[2] ^= 0xff;
    for _ in 0..4 {
        sip_round(&mut v);
    }
    v[1] ^ v[3]
}

/// The connection a cookie belongs to, as the client's SYN names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CookieTuple {
    /// Client IPv4 address (host order).
    pub client_ip: u32,
    /// Virtual-service IPv4 address.
    pub vip: u32,
    /// Client TCP port.
    pub client_port: u16,
    /// Virtual-service TCP port.
    pub vip_port: u16,
}

impl CookieTuple {
    /// The hash input with the client's ISN: four 32-bit words.
    pub fn words(&self, client_isn: u32) -> [u32; 4] {
        [
            self.client_ip,
            self.vip,
            u32::from(self.client_port) << 16 | u32::from(self.vip_port),
            client_isn,
        ]
    }
}

/// The two key slots and which one makes cookies now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CookieKeys {
    /// Key slot `i` as `[k0, k1]` (the gateware's 64-bit key write is `k1 << 32 | k0`).
    pub slots: [[u32; 2]; KEY_SLOTS],
    /// The slot cookies are made with (0 or 1); it is also ISN bit 0 of a new cookie.
    pub current: u8,
    /// The other slot still checks cookies (the previous epoch's key).
    pub previous_valid: bool,
}

impl CookieKeys {
    /// Starts a new epoch: `key` goes into the idle slot, which becomes current; the old
    /// current key checks the cookies of the epoch that ended.
    pub fn rotate(&mut self, key: [u32; 2]) {
        let idle = usize::from(self.current ^ 1);
        self.slots[idle] = key;
        self.current ^= 1;
        self.previous_valid = true;
    }
}

/// Why a cookie was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CookieError {
    /// The hash bits do not match the tuple and client ISN under the slot the cookie names.
    BadHash,
    /// The cookie names the previous slot and no previous key is valid.
    StaleEpoch,
}

impl CookieError {
    /// The gateware's status code of this refusal.
    pub fn status(self) -> CookieStatus {
        match self {
            CookieError::BadHash => CookieStatus::BadHash,
            CookieError::StaleEpoch => CookieStatus::StaleEpoch,
        }
    }
}

impl core::fmt::Display for CookieError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            CookieError::BadHash => "SYN cookie hash mismatch",
            CookieError::StaleEpoch => "SYN cookie of an expired key epoch",
        })
    }
}

/// The MSS class of a client MSS: the largest table entry not above it (class 0 below
/// the smallest entry).
pub fn mss_class(client_mss: u16) -> u8 {
    MSS_TABLE
        .iter()
        .rposition(|&m| m <= client_mss)
        .unwrap_or(0) as u8
}

/// The cookie of a SYN with an MSS class (0..=3) made with key slot `slot` (0 or 1).
pub fn cookie_make_class(
    key: [u32; 2],
    slot: u8,
    tuple: &CookieTuple,
    client_isn: u32,
    class: u8,
) -> u32 {
    let h = halfsiphash24_words(key, &tuple.words(client_isn));
    let class = u32::from(class) & MSS_MASK;
    (h & HASH_MASK) | (((h >> 1) ^ class) & MSS_MASK) << 1 | u32::from(slot & 1)
}

/// The cookie ISN of a SYN from `tuple` with ISN `client_isn` and MSS option `client_mss`,
/// made with the current key.
pub fn cookie_make(
    keys: &CookieKeys,
    tuple: &CookieTuple,
    client_isn: u32,
    client_mss: u16,
) -> u32 {
    let slot = keys.current & 1;
    cookie_make_class(
        keys.slots[usize::from(slot)],
        slot,
        tuple,
        client_isn,
        mss_class(client_mss),
    )
}

/// Checks the cookie an ACK acknowledges: `cookie` = the ACK's ack - 1, `client_isn` = its
/// seq - 1. Gives the MSS class the cookie carries (its MSS: [`MSS_TABLE`]).
pub fn cookie_check(
    keys: &CookieKeys,
    tuple: &CookieTuple,
    client_isn: u32,
    cookie: u32,
) -> Result<u8, CookieError> {
    let slot = (cookie & 1) as u8;
    if slot != keys.current & 1 && !keys.previous_valid {
        return Err(CookieError::StaleEpoch);
    }
    let h = halfsiphash24_words(keys.slots[usize::from(slot)], &tuple.words(client_isn));
    if (h ^ cookie) & HASH_MASK != 0 {
        return Err(CookieError::BadHash);
    }
    Ok((((cookie ^ h) >> 1) & MSS_MASK) as u8)
}

/// The client's TCP options a cookie SYN-ACK keeps in its TSval.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TsOptions {
    /// Window scale shift the client offered (0..=14), `None` without the option.
    pub wscale: Option<u8>,
    /// The client offered SACK.
    pub sack_ok: bool,
}

/// Mask of the TSval bits that carry [`TsOptions`].
pub const TS_MASK: u32 = (1 << COOKIE_TS_BITS) - 1;
const TS_WSCALE_MASK: u32 = 0xf;
const TS_SACK: u32 = 1 << 4;
/// The largest window scale shift (RFC 7323): [`crate::flowmgr::tcpopts::MAX_WSCALE`], whose
/// value comes from `registers/records.toml`.
pub const MAX_WSCALE: u8 = crate::flowmgr::tcpopts::MAX_WSCALE;
// A shift is encoded below TS_WSCALE_MASK, which means "no window scale".
const _: () = assert!((MAX_WSCALE as u32) < TS_WSCALE_MASK);

/// The TSval of a cookie SYN-ACK at clock `now`: `now` with its low bits replaced by the
/// options, moved one step of `1 << COOKIE_TS_BITS` back when that would put it ahead of
/// `now` (the TSval never runs ahead of the clock). A window scale above
/// [`MAX_WSCALE`] is sent as [`MAX_WSCALE`].
pub fn ts_encode(now: u32, opts: TsOptions) -> u32 {
    let mut bits = match opts.wscale {
        Some(w) => u32::from(w.min(MAX_WSCALE)),
        None => TS_WSCALE_MASK,
    };
    if opts.sack_ok {
        bits |= TS_SACK;
    }
    let ts = (now & !TS_MASK) | bits;
    if ts > now {
        ts.wrapping_sub(1 << COOKIE_TS_BITS)
    } else {
        ts
    }
}

/// The options a cookie ACK's TSecr (the card's TSval echoed) carries: every 4-bit window
/// scale code is 0..=14 or 15 (none).
pub fn ts_decode(tsecr: u32) -> TsOptions {
    let w = (tsecr & TS_WSCALE_MASK) as u8;
    TsOptions {
        wscale: (w != 15).then_some(w),
        sack_ok: tsecr & TS_SACK != 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// veorq/SipHash vectors.h, `vectors_hsip32`: (message length, output bytes) with key
    /// 00 01 .. 07 and message 00 01 .. len-1.
    const VECTORS: &[(usize, [u8; 4])] = &[
        (0, [0xa9, 0x35, 0x9f, 0x5b]),
        (1, [0x27, 0x47, 0x5a, 0xb8]),
        (2, [0xfa, 0x62, 0xa6, 0x03]),
        (3, [0x8a, 0xfe, 0xe7, 0x04]),
        (4, [0x2a, 0x6e, 0x46, 0x89]),
        (5, [0xc5, 0xfa, 0xb6, 0x69]),
        (7, [0x8b, 0xcf, 0x63, 0xc5]),
        (8, [0xd0, 0xb8, 0x84, 0x8f]),
        (11, [0x08, 0x08, 0x30, 0x50]),
        (12, [0x57, 0xf0, 0x87, 0x2f]),
        (15, [0x74, 0xfe, 0x2b, 0x97]),
        (16, [0xd9, 0xb5, 0xac, 0x84]),
        (17, [0xc4, 0x74, 0x64, 0x5b]),
        (23, [0xe6, 0xad, 0xb8, 0xbd]),
        (31, [0x5d, 0x58, 0x9f, 0x1a]),
        (32, [0xfe, 0xe7, 0x21, 0x12]),
        (33, [0x33, 0x75, 0x32, 0x59]),
        (47, [0x08, 0x92, 0x20, 0x2e]),
        (48, [0x69, 0xe1, 0x2c, 0xe3]),
        (63, [0x59, 0xea, 0x4a, 0x74]),
    ];

    fn key() -> [u8; 8] {
        core::array::from_fn(|i| i as u8)
    }

    #[test]
    fn reference_vectors() {
        let msg: [u8; 64] = core::array::from_fn(|i| i as u8);
        for &(len, out) in VECTORS {
            assert_eq!(
                halfsiphash24(&key(), &msg[..len]),
                u32::from_le_bytes(out),
                "length {len}"
            );
        }
        assert!(VECTORS.len() >= 16);
    }

    #[test]
    fn word_form_equals_byte_form() {
        let k = key();
        let kw = [
            u32::from_le_bytes([k[0], k[1], k[2], k[3]]),
            u32::from_le_bytes([k[4], k[5], k[6], k[7]]),
        ];
        let msg: [u8; 16] = core::array::from_fn(|i| i as u8);
        let words: [u32; 4] = core::array::from_fn(|i| {
            u32::from_le_bytes([msg[4 * i], msg[4 * i + 1], msg[4 * i + 2], msg[4 * i + 3]])
        });
        for n in 0..=4 {
            assert_eq!(
                halfsiphash24_words(kw, &words[..n]),
                halfsiphash24(&k, &msg[..4 * n])
            );
        }
        // Length 16 of vectors.h.
        assert_eq!(
            halfsiphash24_words(kw, &words),
            u32::from_le_bytes([0xd9, 0xb5, 0xac, 0x84])
        );
    }

    #[test]
    fn mss_classes() {
        assert_eq!(mss_class(0), 0);
        assert_eq!(mss_class(535), 0);
        assert_eq!(mss_class(536), 0);
        assert_eq!(mss_class(1299), 0);
        assert_eq!(mss_class(1300), 1);
        assert_eq!(mss_class(1439), 1);
        assert_eq!(mss_class(1440), 2);
        assert_eq!(mss_class(1459), 2);
        assert_eq!(mss_class(1460), 3);
        assert_eq!(mss_class(9000), 3);
        for (c, &m) in MSS_TABLE.iter().enumerate() {
            assert_eq!(usize::from(mss_class(m)), c);
        }
    }

    fn setup() -> (CookieKeys, CookieTuple) {
        let mut keys = CookieKeys::default();
        keys.rotate([0x0123_4567, 0x89ab_cdef]);
        keys.previous_valid = false;
        let t = CookieTuple {
            client_ip: 0xc0a8_0001,
            vip: 0x0a00_0001,
            client_port: 40000,
            vip_port: 80,
        };
        (keys, t)
    }

    #[test]
    fn make_then_check_round_trips_every_class() {
        let (keys, t) = setup();
        for (c, &mss) in MSS_TABLE.iter().enumerate() {
            let isn = cookie_make(&keys, &t, 0xdead_beef, mss);
            assert_eq!(isn & 1, u32::from(keys.current));
            assert_eq!(cookie_check(&keys, &t, 0xdead_beef, isn), Ok(c as u8));
        }
    }

    #[test]
    fn check_refuses_tampering() {
        let (keys, t) = setup();
        let isn = cookie_make(&keys, &t, 7, 1460);
        for bit in COOKIE_HASH_LSB..32 {
            assert_eq!(
                cookie_check(&keys, &t, 7, isn ^ (1 << bit)),
                Err(CookieError::BadHash),
                "bit {bit}"
            );
        }
        let other = CookieTuple {
            client_port: 40001,
            ..t
        };
        assert_eq!(
            cookie_check(&keys, &other, 7, isn),
            Err(CookieError::BadHash)
        );
        assert_eq!(cookie_check(&keys, &t, 8, isn), Err(CookieError::BadHash));
        // The other slot with no previous key.
        assert_eq!(
            cookie_check(&keys, &t, 7, isn ^ 1),
            Err(CookieError::StaleEpoch)
        );
        // The MSS bits are masked, not authenticated: flipping them changes the class.
        assert_eq!(cookie_check(&keys, &t, 7, isn ^ 0b110), Ok(0));
    }

    #[test]
    fn rotation_keeps_one_previous_epoch() {
        let (mut keys, t) = setup();
        let old = cookie_make(&keys, &t, 1, 1300);
        keys.rotate([0x1111_2222, 0x3333_4444]);
        let new = cookie_make(&keys, &t, 1, 1300);
        assert_ne!(old & 1, new & 1);
        assert_eq!(cookie_check(&keys, &t, 1, old), Ok(1));
        assert_eq!(cookie_check(&keys, &t, 1, new), Ok(1));
        keys.rotate([0x5555_6666, 0x7777_8888]);
        assert_eq!(cookie_check(&keys, &t, 1, old), Err(CookieError::BadHash));
        assert_eq!(cookie_check(&keys, &t, 1, new), Ok(1));
        keys.previous_valid = false;
        assert_eq!(
            cookie_check(&keys, &t, 1, new),
            Err(CookieError::StaleEpoch)
        );
        assert_eq!(CookieError::StaleEpoch.status(), CookieStatus::StaleEpoch);
    }

    #[test]
    fn ts_options_round_trip_and_never_run_ahead() {
        let cases = [
            TsOptions {
                wscale: None,
                sack_ok: false,
            },
            TsOptions {
                wscale: None,
                sack_ok: true,
            },
            TsOptions {
                wscale: Some(0),
                sack_ok: false,
            },
            TsOptions {
                wscale: Some(7),
                sack_ok: true,
            },
            TsOptions {
                wscale: Some(14),
                sack_ok: true,
            },
        ];
        for now in [0u32, 1, 31, 32, 0x1234_5678, 0xffff_ffe0, u32::MAX] {
            for o in cases {
                let ts = ts_encode(now, o);
                assert_eq!(ts_decode(ts), o, "now {now:#x}");
                // At most one step behind the clock (modulo 2^32), never ahead.
                let behind = now.wrapping_sub(ts);
                assert!(behind <= 1 << COOKIE_TS_BITS, "now {now:#x} ts {ts:#x}");
            }
        }
        assert_eq!(
            ts_encode(
                0x100,
                TsOptions {
                    wscale: Some(3),
                    sack_ok: true
                }
            ),
            0xf3
        );
        assert_eq!(
            ts_encode(
                0x1ff,
                TsOptions {
                    wscale: Some(3),
                    sack_ok: true
                }
            ),
            0x1f3
        );
        assert_eq!(
            ts_decode(ts_encode(
                5,
                TsOptions {
                    wscale: Some(20),
                    sack_ok: false
                }
            )),
            TsOptions {
                wscale: Some(14),
                sack_ok: false
            }
        );
        assert_eq!(
            ts_decode(0x3f),
            TsOptions {
                wscale: None,
                sack_ok: true
            }
        );
        assert_eq!(
            ts_decode(0x2e),
            TsOptions {
                wscale: Some(14),
                sack_ok: false
            }
        );
    }
}
