//! The reference model of `syn_responder`: the SYN-ACK frame the module must send for one
//! SYN, as a pure function ([`syn_ack`]) of the SYN, the configuration, the key slot the
//! cookie is made with and the TS clock.
//!
//! - The client's options are walked by the option decoder bench's reference walker
//!   ([`splicenic_tb_options::testkit::walk`], Linux `tcp_parse_options` rules,
//!   docs/options.md) over the first `opt_len` bytes; the consumer rules on top: an MSS
//!   of 0 is ignored, a window scale shift above 14 is taken as 14.
//! - client MSS = the MSS option's value when present and nonzero, else 536 (RFC 9293's
//!   default); its class ([`mss_class`]) goes into the cookie
//!   ([`cookie_make_class`] under the key of the current slot).
//! - Options of the SYN-ACK: with a client TS option and `offer_ts`:
//!   `MSS(cfg_mss)`, `SACK_PERM` (client SACK-permitted and `offer_sack`) or `NOP NOP`,
//!   `TS(tsval, tsecr = the client's TSval)`, and `NOP WS(w)` (client window scale and
//!   `offer_ws`); tsval = [`ts_encode`] of the clock with the window scale and SACK the
//!   SYN-ACK agrees to. Without a TS option (or without `offer_ts`): `MSS(cfg_mss)` only
//!   (no TSval to carry the other options in).
//! - Ethernet II (to the client's MAC from the card's), IPv4 (no options, id 0, DF, TTL 64,
//!   header checksum), TCP (ports swapped, seq = the cookie, ack = the client's ISN + 1,
//!   SYN|ACK, window [`L7_BUFFER_BYTES`], checksum with the pseudo header, urgent 0);
//!   padded with zeros to the 60-byte Ethernet minimum (the FCS is not part of it).

use splicenic_fw_logic::cookie::{
    cookie_make_class, mss_class, ts_encode, CookieTuple, TsOptions, MAX_WSCALE,
};
use splicenic_layout::{TcpOpts, L7_BUFFER_BYTES, TCP_OPT_BYTES};
use splicenic_tb_options::testkit::walk;

/// Bytes of the SYN's option window (`s_syn_opt`).
pub const OPT_BYTES: usize = TCP_OPT_BYTES as usize;
/// The MSS a client without an MSS option (or with an MSS of 0) gets (RFC 9293 3.7.1).
pub const DEFAULT_MSS: u16 = 536;
/// The shortest Ethernet frame without its FCS; shorter frames are padded to it.
pub const MIN_FRAME: usize = 60;
/// Ethernet II header bytes.
pub const ETH_LEN: usize = 14;
/// EtherType IPv4.
pub const ETHERTYPE_IPV4: u16 = 0x0800;
/// IPv4 TTL of a SYN-ACK.
pub const TTL: u8 = 64;
/// The frame lengths the module sends: MSS only, MSS + SACK_PERM/NOPs + TS, and with WS.
pub const FRAME_LENS: [usize; 3] = [60, 70, 74];

/// One SYN as the module takes it (the `s_syn_*` fields).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Syn {
    /// The client's MAC (bits 47:40 = the first byte on the wire).
    pub eth_src: u64,
    /// Client IPv4 address (a.b.c.d = a << 24 | ...).
    pub ip_src: u32,
    /// The VIP.
    pub ip_dst: u32,
    /// Client port.
    pub sport: u16,
    /// VIP port.
    pub dport: u16,
    /// The client's ISN.
    pub seq: u32,
    /// Option bytes (0..=40).
    pub opt_len: u8,
    /// Option byte k at index k; bytes at and past `opt_len` are not looked at.
    pub opt: [u8; OPT_BYTES],
}

/// The module's configuration inputs that shape a frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Config {
    /// `cfg_mac`: the card's MAC, the SYN-ACK's source (bits 47:40 first).
    pub mac: u64,
    /// `cfg_mss`: the MSS the SYN-ACK announces.
    pub mss: u16,
    pub offer_ws: bool,
    pub offer_sack: bool,
    pub offer_ts: bool,
}

/// The model's answer to one SYN, with the values the tests look at separately.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SynAck {
    /// The whole frame, padded to [`MIN_FRAME`].
    pub frame: Vec<u8>,
    /// The cookie (the SYN-ACK's seq).
    pub cookie: u32,
    /// The MSS class in the cookie.
    pub class: u8,
    /// The TSval sent (with the TS option) and what it carries.
    pub ts: Option<(u32, TsOptions)>,
}

/// What the SYN-ACK takes from the client's options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientOptions {
    /// MSS for the cookie class (the option's value, or [`DEFAULT_MSS`]).
    pub mss: u16,
    /// Window scale shift, clamped to 14.
    pub ws: Option<u8>,
    pub sack_perm: bool,
    /// The client's TSval.
    pub tsval: Option<u32>,
}

/// The decoder's record of the SYN's option area (`opt_len` bytes, at most 40).
pub fn decode_options(syn: &Syn) -> TcpOpts {
    walk(&syn.opt[..usize::from(syn.opt_len).min(OPT_BYTES)])
}

/// The client options with the consumer rules applied (MSS 0 ignored, WS above 14 = 14).
pub fn client_options(syn: &Syn) -> ClientOptions {
    let r = decode_options(syn);
    ClientOptions {
        mss: if r.mss && r.mss_value != 0 {
            r.mss_value
        } else {
            DEFAULT_MSS
        },
        ws: r.ws.then_some(r.ws_shift.min(MAX_WSCALE)),
        sack_perm: r.sack_perm,
        tsval: r.ts.then_some(r.tsval),
    }
}

/// The bytes of a 48-bit MAC, first on the wire first.
pub fn mac_bytes(mac: u64) -> [u8; 6] {
    core::array::from_fn(|i| (mac >> (40 - 8 * i)) as u8)
}

/// The one's complement sum of `data` as big-endian 16-bit words (an odd last byte padded
/// with zero), folded to 16 bits, added to `init`.
fn ones_sum(init: u32, data: &[u8]) -> u32 {
    let mut s = data.chunks(2).fold(init, |s, c| {
        s + (u32::from(c[0]) << 8 | u32::from(c.get(1).copied().unwrap_or(0)))
    });
    while s > 0xffff {
        s = (s & 0xffff) + (s >> 16);
    }
    s
}

/// The Internet checksum of `data` with the running sum `init`.
fn checksum(init: u32, data: &[u8]) -> u16 {
    !(ones_sum(init, data) as u16)
}

/// The SYN-ACK's options for a client that sent `c`, under `cfg` at TS clock `now`, and the
/// TSval sent with what it carries.
pub fn syn_ack_options(
    c: &ClientOptions,
    cfg: &Config,
    now: u32,
) -> (Vec<u8>, Option<(u32, TsOptions)>) {
    let mut o = vec![2, 4];
    o.extend(cfg.mss.to_be_bytes());
    let Some(tsecr) = c.tsval.filter(|_| cfg.offer_ts) else {
        return (o, None);
    };
    let sack_ok = c.sack_perm && cfg.offer_sack;
    let ws = c.ws.filter(|_| cfg.offer_ws);
    let opts = TsOptions {
        wscale: ws,
        sack_ok,
    };
    let tsval = ts_encode(now, opts);
    o.extend(if sack_ok { [4, 2] } else { [1, 1] });
    o.extend([8, 10]);
    o.extend(tsval.to_be_bytes());
    o.extend(tsecr.to_be_bytes());
    if let Some(w) = ws {
        o.extend([1, 3, 3, w]);
    }
    (o, Some((tsval, opts)))
}

/// The model: the SYN-ACK frame `syn_responder` sends for `syn` with configuration `cfg`,
/// the cookie made with `key` (the key of slot `slot`, which is `cfg_cur_epoch`) and the TS
/// clock `now`.
pub fn syn_ack(syn: &Syn, cfg: &Config, key: [u32; 2], slot: u8, now: u32) -> SynAck {
    let c = client_options(syn);
    let class = mss_class(c.mss);
    let tuple = CookieTuple {
        client_ip: syn.ip_src,
        vip: syn.ip_dst,
        client_port: syn.sport,
        vip_port: syn.dport,
    };
    let cookie = cookie_make_class(key, slot, &tuple, syn.seq, class);
    let (opts, ts) = syn_ack_options(&c, cfg, now);
    let tcp_len = 20 + opts.len();
    let ip_len = 20 + tcp_len;

    let mut f = Vec::with_capacity(ETH_LEN + ip_len);
    f.extend(mac_bytes(syn.eth_src));
    f.extend(mac_bytes(cfg.mac));
    f.extend(ETHERTYPE_IPV4.to_be_bytes());

    let mut ip = [0u8; 20];
    ip[0] = 0x45;
    ip[2..4].copy_from_slice(&(ip_len as u16).to_be_bytes());
    ip[6] = 0x40; // DF
    ip[8] = TTL;
    ip[9] = 6; // TCP
    ip[12..16].copy_from_slice(&syn.ip_dst.to_be_bytes());
    ip[16..20].copy_from_slice(&syn.ip_src.to_be_bytes());
    let ipc = checksum(0, &ip);
    ip[10..12].copy_from_slice(&ipc.to_be_bytes());
    f.extend(ip);

    let mut tcp = Vec::with_capacity(tcp_len);
    tcp.extend(syn.dport.to_be_bytes());
    tcp.extend(syn.sport.to_be_bytes());
    tcp.extend(cookie.to_be_bytes());
    tcp.extend(syn.seq.wrapping_add(1).to_be_bytes());
    tcp.push(((tcp_len / 4) as u8) << 4);
    tcp.push(0x12); // SYN | ACK
    tcp.extend((L7_BUFFER_BYTES as u16).to_be_bytes());
    tcp.extend([0, 0, 0, 0]); // checksum, urgent pointer
    tcp.extend(&opts);
    let mut pseudo = [0u8; 12];
    pseudo[0..4].copy_from_slice(&syn.ip_dst.to_be_bytes());
    pseudo[4..8].copy_from_slice(&syn.ip_src.to_be_bytes());
    pseudo[9] = 6;
    pseudo[10..12].copy_from_slice(&(tcp_len as u16).to_be_bytes());
    let tc = checksum(ones_sum(0, &pseudo), &tcp);
    tcp[16..18].copy_from_slice(&tc.to_be_bytes());
    f.extend(tcp);
    if f.len() < MIN_FRAME {
        f.resize(MIN_FRAME, 0);
    }
    SynAck {
        frame: f,
        cookie,
        class,
        ts,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use splicenic_layout::COOKIE_MSS_0;

    fn syn(opts: &[u8]) -> Syn {
        let mut opt = [0xa5u8; OPT_BYTES];
        opt[..opts.len()].copy_from_slice(opts);
        Syn {
            eth_src: 0x0211_2233_4455,
            ip_src: 0xc0a8_0102,
            ip_dst: 0x0a00_0001,
            sport: 40000,
            dport: 80,
            seq: 0x1234_5678,
            opt_len: opts.len() as u8,
            opt,
        }
    }

    const CFG: Config = Config {
        mac: 0x02aa_bbcc_ddee,
        mss: 1460,
        offer_ws: true,
        offer_sack: true,
        offer_ts: true,
    };

    #[test]
    fn defaults_and_consumer_rules() {
        assert_eq!(u32::from(DEFAULT_MSS), COOKIE_MSS_0);
        let c = client_options(&syn(&[]));
        assert_eq!(
            (c.mss, c.ws, c.sack_perm, c.tsval),
            (536, None, false, None)
        );
        // MSS 0 ignored, WS 20 taken as 14, garbage past opt_len ignored.
        let c = client_options(&syn(&[2, 4, 0, 0, 1, 3, 3, 20]));
        assert_eq!((c.mss, c.ws), (536, Some(14)));
        let mut s = syn(&[2, 4, 5, 0xb4]);
        s.opt[4..8].copy_from_slice(&[3, 3, 7, 4]);
        assert_eq!(client_options(&s).ws, None);
        assert_eq!(client_options(&s).mss, 1460);
    }

    #[test]
    fn mss_only_frame_layout() {
        let a = syn_ack(&syn(&[2, 4, 5, 0xb4]), &CFG, [1, 2], 1, 77);
        let f = &a.frame;
        assert_eq!(f.len(), 60);
        assert_eq!(&f[0..6], &[0x02, 0x11, 0x22, 0x33, 0x44, 0x55]);
        assert_eq!(&f[6..12], &[0x02, 0xaa, 0xbb, 0xcc, 0xdd, 0xee]);
        assert_eq!(&f[12..14], &[0x08, 0x00]);
        assert_eq!(&f[14..24], &[0x45, 0, 0, 44, 0, 0, 0x40, 0, 64, 6]);
        assert_eq!(&f[26..30], &[10, 0, 0, 1]);
        assert_eq!(&f[30..34], &[192, 168, 1, 2]);
        assert_eq!(&f[34..38], &[0, 80, 0x9c, 0x40]);
        assert_eq!(&f[38..42], &a.cookie.to_be_bytes());
        assert_eq!(&f[42..46], &[0x12, 0x34, 0x56, 0x79]);
        assert_eq!(&f[46..48], &[0x60, 0x12]);
        assert_eq!(&f[48..50], &[0x04, 0x00]);
        assert_eq!(&f[52..58], &[0, 0, 2, 4, 0x05, 0xb4]);
        assert_eq!(&f[58..60], &[0, 0]);
        assert_eq!(a.cookie & 1, 1);
        assert_eq!(a.class, 3);
        assert_eq!(a.ts, None);
        // The checksums sum to 0xffff over their ranges.
        assert_eq!(ones_sum(0, &f[14..34]), 0xffff);
        let mut pseudo = f[26..34].to_vec();
        pseudo.extend([0, 6, 0, 24]);
        assert_eq!(ones_sum(ones_sum(0, &pseudo), &f[34..58]), 0xffff);
    }

    #[test]
    fn ts_layouts() {
        let ts = [8, 10, 0xde, 0xad, 0xbe, 0xef, 0, 0, 0, 0];
        let mut full = vec![2, 4, 5, 0xb4, 4, 2];
        full.extend(ts);
        full.extend([1, 3, 3, 9]);
        let a = syn_ack(&syn(&full), &CFG, [1, 2], 0, 0x1000);
        assert_eq!(a.frame.len(), 74);
        let (tsval, o) = a.ts.expect("ts");
        assert_eq!(
            o,
            TsOptions {
                wscale: Some(9),
                sack_ok: true
            }
        );
        let opt = &a.frame[54..74];
        assert_eq!(&opt[0..8], &[2, 4, 5, 0xb4, 4, 2, 8, 10]);
        assert_eq!(&opt[8..12], &tsval.to_be_bytes());
        assert_eq!(&opt[12..16], &[0xde, 0xad, 0xbe, 0xef]);
        assert_eq!(&opt[16..20], &[1, 3, 3, 9]);
        assert_eq!(a.frame[46], 0xa0);
        // Not offered: NOPs instead of SACK_PERM, no WS.
        let cfg = Config {
            offer_ws: false,
            offer_sack: false,
            ..CFG
        };
        let b = syn_ack(&syn(&full), &cfg, [1, 2], 0, 0x1000);
        assert_eq!(b.frame.len(), 70);
        assert_eq!(&b.frame[54..62], &[2, 4, 5, 0xb4, 1, 1, 8, 10]);
        assert_eq!(b.frame[46], 0x90);
        // TS not offered: MSS only.
        let cfg = Config {
            offer_ts: false,
            ..CFG
        };
        assert_eq!(syn_ack(&syn(&full), &cfg, [1, 2], 0, 0).frame.len(), 60);
    }
}
