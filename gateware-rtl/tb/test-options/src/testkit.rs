//! References and generators of the option decoder's tests.
//!
//! - [`etherparse_reference`]: the independent reference for well-formed option lists:
//!   etherparse's `TcpOptionsIterator` walks the area; offsets are where each element
//!   starts (the iterator's rest before the element). It refuses unknown kinds and wrong
//!   lengths, so it answers only for lists of EOL, NOP, MSS, WS, SACK_PERM, SACK and TS.
//! - [`walk`]: the test's own reference walker for every list, malformed ones included.
//!   It is this test's model, written from RFC 9293 section 3.1 (option format: kind, or
//!   kind + length + data; EOL ends the list, NOP pads) and the behaviour of Linux's
//!   `tcp_parse_options` (net/ipv4/tcp_input.c): EOL returns; NOP skips a byte; a kind on
//!   the last byte, a length below 2 ("silly options") or a length past the area return;
//!   a known kind of the wrong length is skipped by its length; unknown kinds are skipped
//!   by their length; a later option overrides an earlier one. Where Linux returns
//!   silently, and where it skips a known kind of a wrong length, the decoder also sets
//!   `malformed`. It is deliberately not derived from the RTL's structure (no stages).
//! - [`gen_window`]: random option lists (0 to 40 bytes) of the classes in [`Class`].

use crate::{Window, OPT_BYTES};
use etherparse::{TcpOptionElement, TcpOptionReadError, TcpOptions, TcpOptionsIterator};
use rand::Rng;
use splicenic_layout::TcpOpts;

/// Option kinds (RFC 9293, RFC 7323, RFC 2018).
pub mod kind {
    pub const EOL: u8 = 0;
    pub const NOP: u8 = 1;
    pub const MSS: u8 = 2;
    pub const WS: u8 = 3;
    pub const SACK_PERM: u8 = 4;
    pub const SACK: u8 = 5;
    pub const TS: u8 = 8;
}

/// Offset of option byte 0 in the TCP header.
pub const OPT_BASE: u8 = 20;

fn be16(b: &[u8]) -> u16 {
    u16::from_be_bytes([b[0], b[1]])
}

fn be32(b: &[u8]) -> u32 {
    u32::from_be_bytes([b[0], b[1], b[2], b[3]])
}

/// The area the decoder walks: the first `len` bytes (a length above 40 is 40).
pub fn area(w: &Window) -> &[u8] {
    &w.bytes[..usize::from(w.len).min(OPT_BYTES)]
}

/// The test's reference walker (see the module docs): the record the decoder must return
/// for the option area `opts`.
pub fn walk(opts: &[u8]) -> TcpOpts {
    let mut r = TcpOpts::default();
    let mut p = 0usize;
    while p < opts.len() {
        let k = opts[p];
        if k == kind::EOL {
            break;
        }
        if k == kind::NOP {
            p += 1;
            continue;
        }
        let left = opts.len() - p;
        if left < 2 {
            r.malformed = true; // a kind with no length byte
            break;
        }
        let size = usize::from(opts[p + 1]);
        if size < 2 || size > left {
            r.malformed = true; // silly length, or past the data offset
            break;
        }
        let off = OPT_BASE + p as u8;
        let data = &opts[p + 2..p + size];
        match (k, size) {
            (kind::MSS, 4) => {
                r.mss = true;
                r.mss_value = be16(data);
                r.mss_offset = off;
            }
            (kind::WS, 3) => {
                r.ws = true;
                r.ws_shift = data[0];
                r.ws_offset = off;
            }
            (kind::SACK_PERM, 2) => {
                r.sack_perm = true;
                r.sack_perm_offset = off;
            }
            (kind::TS, 10) => {
                r.ts = true;
                r.tsval = be32(&data[0..4]);
                r.tsecr = be32(&data[4..8]);
                r.ts_offset = off;
            }
            (kind::SACK, s) if s >= 10 && (s - 2) % 8 == 0 => {
                r.sack = true;
                r.sack_len = s as u8;
                r.sack_offset = off;
            }
            (kind::MSS | kind::WS | kind::SACK_PERM | kind::TS | kind::SACK, _) => {
                r.malformed = true; // known kind, wrong length: skipped
            }
            _ => r.unknown = true,
        }
        p += size;
    }
    r
}

/// What etherparse makes of an option area.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Etherparse {
    /// Every element read up to EOL or the end: the record they give.
    WellFormed(TcpOpts),
    /// It stopped at an unknown kind (which the decoder skips by its length).
    UnknownKind,
    /// It stopped at a wrong length or a truncated option.
    Malformed,
}

/// The independent reference: etherparse's option iterator over `opts`.
pub fn etherparse_reference(opts: &[u8]) -> Etherparse {
    let mut r = TcpOpts::default();
    let mut it = TcpOptionsIterator::from_slice(opts);
    loop {
        let off = OPT_BASE + (opts.len() - it.rest().len()) as u8;
        match it.next() {
            None => return Etherparse::WellFormed(r),
            Some(Err(TcpOptionReadError::UnknownId(_))) => return Etherparse::UnknownKind,
            Some(Err(_)) => return Etherparse::Malformed,
            Some(Ok(e)) => match e {
                TcpOptionElement::Noop => {}
                TcpOptionElement::MaximumSegmentSize(v) => {
                    r.mss = true;
                    r.mss_value = v;
                    r.mss_offset = off;
                }
                TcpOptionElement::WindowScale(s) => {
                    r.ws = true;
                    r.ws_shift = s;
                    r.ws_offset = off;
                }
                TcpOptionElement::SelectiveAcknowledgementPermitted => {
                    r.sack_perm = true;
                    r.sack_perm_offset = off;
                }
                TcpOptionElement::SelectiveAcknowledgement(_, more) => {
                    r.sack = true;
                    r.sack_len = 10 + 8 * more.iter().flatten().count() as u8;
                    r.sack_offset = off;
                }
                TcpOptionElement::Timestamp(v, e) => {
                    r.ts = true;
                    r.tsval = v;
                    r.tsecr = e;
                    r.ts_offset = off;
                }
            },
        }
    }
}

/// Classes of generated option lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Class {
    /// Known kinds of the right lengths in random order, NOP padding, maybe EOL + garbage.
    Known,
    /// A random element list encoded by etherparse (`TcpOptions::try_from_elements`).
    EtherparseEncoded,
    /// Known and unknown kinds (skipped by length).
    WithUnknown,
    /// A well-formed list with one corruption (length 0/1, too long, wrong for its kind,
    /// kind on the last byte, area cut short).
    Corrupted,
    /// Random bytes.
    Random,
}

pub const CLASSES: [Class; 5] = [
    Class::Known,
    Class::EtherparseEncoded,
    Class::WithUnknown,
    Class::Corrupted,
    Class::Random,
];

fn random_known<R: Rng>(rng: &mut R, room: usize) -> Vec<u8> {
    loop {
        let o: Vec<u8> = match rng.gen_range(0..7) {
            0 => vec![kind::NOP],
            1 => {
                let v: u16 = rng.gen();
                vec![kind::MSS, 4, (v >> 8) as u8, v as u8]
            }
            2 => vec![kind::WS, 3, rng.gen_range(0..20)],
            3 => vec![kind::SACK_PERM, 2],
            4 => {
                let mut o = vec![kind::TS, 10];
                o.extend((0..8).map(|_| rng.gen::<u8>()));
                o
            }
            5 => {
                let blocks = rng.gen_range(1..=4);
                let mut o = vec![kind::SACK, 2 + 8 * blocks as u8];
                o.extend((0..8 * blocks).map(|_| rng.gen::<u8>()));
                o
            }
            _ => vec![kind::NOP, kind::NOP],
        };
        if o.len() <= room {
            return o;
        }
        if room == 0 {
            return Vec::new();
        }
        if rng.gen_bool(0.3) {
            return vec![kind::NOP; room.min(1)];
        }
    }
}

fn random_unknown<R: Rng>(rng: &mut R, room: usize) -> Vec<u8> {
    let k = loop {
        let k: u8 = rng.gen();
        if ![0, 1, 2, 3, 4, 5, 8].contains(&k) {
            break k;
        }
    };
    let size = rng.gen_range(2..=room.clamp(2, 12));
    let mut o = vec![k, size as u8];
    o.extend((2..size).map(|_| rng.gen::<u8>()));
    o
}

fn element<R: Rng>(rng: &mut R) -> TcpOptionElement {
    match rng.gen_range(0..6) {
        0 => TcpOptionElement::Noop,
        1 => TcpOptionElement::MaximumSegmentSize(rng.gen()),
        2 => TcpOptionElement::WindowScale(rng.gen_range(0..15)),
        3 => TcpOptionElement::SelectiveAcknowledgementPermitted,
        4 => TcpOptionElement::Timestamp(rng.gen(), rng.gen()),
        _ => {
            let n = rng.gen_range(0..=3);
            let mut more = [None; 3];
            for m in more.iter_mut().take(n) {
                *m = Some((rng.gen(), rng.gen()));
            }
            TcpOptionElement::SelectiveAcknowledgement((rng.gen(), rng.gen()), more)
        }
    }
}

/// A random option area length: mostly a whole number of words (as a data offset gives),
/// sometimes any length.
fn area_len<R: Rng>(rng: &mut R) -> usize {
    if rng.gen_bool(0.8) {
        4 * rng.gen_range(0..=10)
    } else {
        rng.gen_range(0..=OPT_BYTES)
    }
}

/// A random option window of class `class`; bytes past its length are zero (as the
/// parser gives them) or garbage.
pub fn gen_window<R: Rng>(rng: &mut R, class: Class) -> Window {
    let mut bytes = [0u8; OPT_BYTES];
    let mut len;
    match class {
        Class::EtherparseEncoded => {
            // elements until one does not fit (etherparse pads with EOL to a word)
            let mut els: Vec<TcpOptionElement> = Vec::new();
            let target = rng.gen_range(0..=8);
            for _ in 0..target {
                els.push(element(rng));
                if TcpOptions::try_from_elements(&els).is_err() {
                    els.pop();
                    break;
                }
            }
            let enc = TcpOptions::try_from_elements(&els).unwrap_or_default();
            let s = enc.as_slice();
            bytes[..s.len()].copy_from_slice(s);
            len = s.len();
            if rng.gen_bool(0.3) && len < OPT_BYTES {
                len = rng.gen_range(len..=OPT_BYTES) & !3;
                len = len.max(s.len());
            }
        }
        Class::Known | Class::WithUnknown | Class::Corrupted => {
            len = area_len(rng);
            let mut v: Vec<u8> = Vec::new();
            while v.len() < len {
                let room = len - v.len();
                if rng.gen_range(0..12) == 0 {
                    // EOL, then padding or garbage
                    v.push(kind::EOL);
                    while v.len() < len {
                        v.push(if rng.gen_bool(0.5) { 0 } else { rng.gen() });
                    }
                    break;
                }
                let o = if class == Class::WithUnknown && rng.gen_range(0..3) == 0 && room >= 2 {
                    random_unknown(rng, room)
                } else {
                    random_known(rng, room)
                };
                if o.is_empty() {
                    break;
                }
                v.extend(o);
            }
            while v.len() < len {
                v.push(if rng.gen_bool(0.5) {
                    kind::NOP
                } else {
                    kind::EOL
                });
            }
            v.truncate(len);
            if class == Class::Corrupted && len > 0 {
                corrupt(rng, &mut v);
                len = v.len();
            }
            bytes[..len].copy_from_slice(&v);
        }
        Class::Random => {
            len = area_len(rng);
            for b in bytes.iter_mut().take(len) {
                *b = match rng.gen_range(0..4) {
                    0 => rng.gen_range(0..12),
                    _ => rng.gen(),
                };
            }
        }
    }
    if rng.gen_bool(0.5) {
        for b in bytes.iter_mut().skip(len) {
            *b = rng.gen();
        }
    }
    Window {
        len: len as u8,
        bytes,
    }
}

/// One corruption of a list (see [`Class::Corrupted`]).
fn corrupt<R: Rng>(rng: &mut R, v: &mut Vec<u8>) {
    // option starts as the walk sees them
    let mut starts = Vec::new();
    let mut p = 0;
    while p < v.len() && v[p] != kind::EOL {
        starts.push(p);
        if v[p] == kind::NOP || p + 1 >= v.len() || v[p + 1] < 2 {
            p += 1;
        } else {
            p += usize::from(v[p + 1]);
        }
    }
    let at = if starts.is_empty() {
        0
    } else {
        starts[rng.gen_range(0..starts.len())]
    };
    match rng.gen_range(0..6) {
        // length 0 or 1
        0 if at + 1 < v.len() => {
            if v[at] <= kind::NOP {
                v[at] = rng.gen_range(2..=9);
            }
            v[at + 1] = rng.gen_range(0..2);
        }
        // a length past the end
        1 if at + 1 < v.len() => {
            if v[at] <= kind::NOP {
                v[at] = [kind::MSS, kind::TS, kind::SACK, 30][rng.gen_range(0..4)];
            }
            v[at + 1] = rng.gen_range((v.len() - at + 1).min(255) as u8..=255);
        }
        // a known kind with a wrong length that still fits
        2 if at + 2 < v.len() => {
            v[at] =
                [kind::MSS, kind::WS, kind::SACK_PERM, kind::TS, kind::SACK][rng.gen_range(0..5)];
            v[at + 1] = rng.gen_range(2..=(v.len() - at) as u8);
        }
        // a kind on the last byte
        3 => {
            let n = v.len();
            v[n - 1] = rng.gen_range(2..=255);
            for b in v.iter_mut().take(n - 1) {
                if *b == kind::EOL {
                    *b = kind::NOP;
                }
            }
        }
        // the area cut inside an option
        4 => {
            let cut = rng.gen_range(0..v.len());
            v.truncate(cut.max(1));
        }
        // one random byte
        _ => {
            let i = rng.gen_range(0..v.len());
            v[i] = rng.gen();
        }
    }
}
