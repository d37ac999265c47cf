//! TCP options policy for splicing (MSS, window scale, SACK-permitted, timestamps).
//!
//! The card negotiates the client half alone (its SYN-ACK goes out before the request, so
//! before the server is known), then opens the server half offering exactly the features the
//! client half has, and checks the server's SYN-ACK against them. A feature is translated by
//! the data path only when both halves have it; a server that declines SACK or timestamps the
//! client half already uses is an error ([`SpliceOptionsError::Declined`]) because a
//! one-sided feature cannot be translated: the firmware then fails that server connection.
//!
//! * MSS: the card announces its own MSS ([`OptionsPolicy::mss`], the largest segment the
//!   server side carries) to the client, and `min(own, client's)` to the server.
//! * Window scale (RFC 7323), offered to the client only if the client offered it: the card
//!   announces the client's own shift `c` back to the client, and the fixed
//!   [`OptionsPolicy::server_wscale`] `j` to the server (only if the client half scales).
//!   The data path shifts C→S windows left by `diff` and S→C windows right by `diff`; with
//!   `diff = c - j` the client's window reaches the server exactly (saturating at 0xFFFF) and
//!   the server's reaches the client exactly when the server's own shift `s` equals `j`.
//!   Otherwise the server's window is understated (`s > j`: safe, less upload throughput) or
//!   overstated (`s < j`) by `2^|s - j|`, reported in [`Negotiated::window_fit`]. A server
//!   that declines scaling leaves the server half unscaled: `diff = c`, exact up to the
//!   saturation. Set `server_wscale` to the backends' shift (Linux: 7) for exact windows.
//! * SACK-permitted and timestamps: offered to the client if it offered them and the policy
//!   allows; offered to the server iff the client half has them.
//! * Other options in the SYN (MD5, AO, MPTCP, Fast Open, unknown) are never echoed, so they
//!   are not negotiated on either half; [`SynOptions::ignored`] records which were seen.
//!
//! Parsing is strict where a wrong guess would corrupt the flow: a truncated option, a length
//! below 2 or past the end, a wrong length for a known kind, or a repeated known option is a
//! [`OptionsError`]. A window shift above 14 is taken as 14 (RFC 7323 §2.3).

/// Option kinds.
pub mod kind {
    /// End of option list.
    pub const EOL: u8 = 0;
    /// No operation (padding).
    pub const NOP: u8 = 1;
    /// Maximum segment size (length 4).
    pub const MSS: u8 = 2;
    /// Window scale (length 3).
    pub const WSCALE: u8 = 3;
    /// SACK permitted (length 2).
    pub const SACK_PERM: u8 = 4;
    /// SACK blocks (length 2 + 8n).
    pub const SACK: u8 = 5;
    /// Timestamps (length 10).
    pub const TIMESTAMP: u8 = 8;
    /// TCP MD5 signature.
    pub const MD5: u8 = 19;
    /// TCP authentication option.
    pub const AO: u8 = 29;
    /// Multipath TCP.
    pub const MPTCP: u8 = 30;
    /// TCP Fast Open cookie.
    pub const FASTOPEN: u8 = 34;
}

/// Bits of [`SynOptions::ignored`]: unsupported options seen in a SYN.
pub mod ignored {
    /// MD5 signature.
    pub const MD5: u8 = 1 << 0;
    /// TCP-AO.
    pub const AO: u8 = 1 << 1;
    /// MPTCP.
    pub const MPTCP: u8 = 1 << 2;
    /// Fast Open.
    pub const FASTOPEN: u8 = 1 << 3;
    /// Any other kind (including SACK blocks, which have no meaning in a SYN).
    pub const OTHER: u8 = 1 << 4;
}

/// Bits of the flow entry's flags byte (word 0 bits 15:8).
pub mod flags {
    use splicenic_layout::entry_flags;
    /// Translate SACK edges.
    pub const SACK: u8 = entry_flags::SACK;
    /// Translate timestamps.
    pub const TIMESTAMPS: u8 = entry_flags::TIMESTAMPS;
    /// Rescale windows.
    pub const WINDOW_RESCALE: u8 = entry_flags::WINDOW_RESCALE;
}

/// Largest TCP options area (data offset 15 words minus the 20-byte header).
pub const MAX_OPTIONS_LEN: usize = 40;
/// MSS assumed when a SYN carries none (or 0): the IPv4 default. The value comes from
/// `registers/records.toml` (`splicenic_layout::DEFAULT_PEER_MSS`), shared with the gateware.
pub const DEFAULT_PEER_MSS: u16 = splicenic_layout::DEFAULT_PEER_MSS as u16;
/// Smallest MSS the card sends to or announces; smaller announced values are raised to it.
/// The value comes from `registers/records.toml` (`splicenic_layout::MIN_MSS`).
pub const MIN_MSS: u16 = splicenic_layout::MIN_MSS as u16;
/// Largest window shift (RFC 7323); a larger shift received is taken as this. The value
/// comes from `registers/records.toml` (`splicenic_layout::MAX_WSCALE`).
pub const MAX_WSCALE: u8 = splicenic_layout::MAX_WSCALE as u8;
// The narrowing casts above keep the values (checked at compile time).
const _: () = assert!(
    DEFAULT_PEER_MSS as u32 == splicenic_layout::DEFAULT_PEER_MSS
        && MIN_MSS as u32 == splicenic_layout::MIN_MSS
        && MAX_WSCALE as u32 == splicenic_layout::MAX_WSCALE
);

/// Errors of the option parser.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionsError {
    /// The options area is longer than [`MAX_OPTIONS_LEN`] bytes.
    TooLong(usize),
    /// The option starting at this offset runs past the end of the area.
    Truncated {
        /// Offset of the option's kind byte.
        offset: u8,
    },
    /// An option length below 2, or a wrong length for a known kind.
    BadLength {
        /// The option kind.
        kind: u8,
        /// The length byte.
        len: u8,
    },
    /// A known option appears twice.
    Duplicate(u8),
}

/// Errors of an [`OptionsPolicy`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PolicyError {
    /// The card's MSS is below [`MIN_MSS`].
    Mss(u16),
    /// The server-half window shift is above [`MAX_WSCALE`].
    Wscale(u8),
}

/// A feature the server declined although the client half uses it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Feature {
    /// SACK-permitted.
    Sack,
    /// Timestamps.
    Timestamps,
}

/// Errors when completing the splice from the server's SYN-ACK.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpliceOptionsError {
    /// The server did not accept a feature the client half has: it would be one-sided.
    Declined(Feature),
}

/// The timestamps option.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Timestamps {
    /// TSval.
    pub tsval: u32,
    /// TSecr.
    pub tsecr: u32,
}

/// The options of a SYN or SYN-ACK.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct SynOptions {
    /// MSS option value as sent.
    pub mss: Option<u16>,
    /// Window shift (above 14 taken as 14).
    pub wscale: Option<u8>,
    /// SACK-permitted present.
    pub sack_permitted: bool,
    /// Timestamps option.
    pub timestamps: Option<Timestamps>,
    /// Unsupported options seen ([`ignored`] bits).
    pub ignored: u8,
}

impl SynOptions {
    /// The MSS the sender of these options accepts: its MSS option, [`DEFAULT_PEER_MSS`]
    /// without one (or with 0), never below [`MIN_MSS`].
    pub fn peer_mss(&self) -> u16 {
        match self.mss {
            None | Some(0) => DEFAULT_PEER_MSS,
            Some(m) => m.max(MIN_MSS),
        }
    }
}

/// Parses the options area of a SYN or SYN-ACK (the bytes after the fixed 20-byte header).
pub fn parse_syn_options(bytes: &[u8]) -> Result<SynOptions, OptionsError> {
    if bytes.len() > MAX_OPTIONS_LEN {
        return Err(OptionsError::TooLong(bytes.len()));
    }
    let mut o = SynOptions::default();
    let mut i = 0;
    while i < bytes.len() {
        let k = bytes[i];
        match k {
            kind::EOL => break,
            kind::NOP => {
                i += 1;
                continue;
            }
            _ => {}
        }
        // i < 40, so it fits a u8.
        let truncated = OptionsError::Truncated { offset: i as u8 };
        let len = *bytes.get(i + 1).ok_or(truncated)?;
        if len < 2 {
            return Err(OptionsError::BadLength { kind: k, len });
        }
        let body = bytes.get(i + 2..i + usize::from(len)).ok_or(truncated)?;
        let want = match k {
            kind::MSS => Some(4),
            kind::WSCALE => Some(3),
            kind::SACK_PERM => Some(2),
            kind::TIMESTAMP => Some(10),
            _ => None,
        };
        if want.is_some_and(|w| w != len) {
            return Err(OptionsError::BadLength { kind: k, len });
        }
        let dup = match k {
            kind::MSS => o.mss.is_some(),
            kind::WSCALE => o.wscale.is_some(),
            kind::SACK_PERM => o.sack_permitted,
            kind::TIMESTAMP => o.timestamps.is_some(),
            _ => false,
        };
        if dup {
            return Err(OptionsError::Duplicate(k));
        }
        match k {
            kind::MSS => o.mss = Some(u16::from_be_bytes([body[0], body[1]])),
            kind::WSCALE => o.wscale = Some(body[0].min(MAX_WSCALE)),
            kind::SACK_PERM => o.sack_permitted = true,
            kind::TIMESTAMP => {
                o.timestamps = Some(Timestamps {
                    tsval: u32::from_be_bytes([body[0], body[1], body[2], body[3]]),
                    tsecr: u32::from_be_bytes([body[4], body[5], body[6], body[7]]),
                })
            }
            kind::MD5 => o.ignored |= ignored::MD5,
            kind::AO => o.ignored |= ignored::AO,
            kind::MPTCP => o.ignored |= ignored::MPTCP,
            kind::FASTOPEN => o.ignored |= ignored::FASTOPEN,
            _ => o.ignored |= ignored::OTHER,
        }
        i += usize::from(len);
    }
    Ok(o)
}

/// A built options area (at most 40 bytes, padded to a multiple of 4 with NOPs in front of
/// the options that need alignment).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionsBuf {
    bytes: [u8; MAX_OPTIONS_LEN],
    len: u8,
}

impl OptionsBuf {
    const fn new() -> Self {
        Self {
            bytes: [0; MAX_OPTIONS_LEN],
            len: 0,
        }
    }

    fn push(&mut self, b: &[u8]) {
        let l = usize::from(self.len);
        self.bytes[l..l + b.len()].copy_from_slice(b);
        // At most 20 bytes are ever built.
        self.len += b.len() as u8;
    }

    /// The option bytes.
    pub fn as_slice(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len)]
    }

    /// Length in bytes (a multiple of 4).
    pub const fn len(&self) -> usize {
        self.len as usize
    }

    /// True when no option was built.
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The TCP data offset (header words) for these options.
    pub const fn data_offset(&self) -> u8 {
        5 + self.len / 4
    }
}

/// Builds `MSS | [SACK_PERM TS | NOP NOP TS | NOP NOP SACK_PERM] | [NOP WS]` (20 bytes at
/// most, every option 4-byte aligned as the usual stacks lay them out).
pub fn build(mss: u16, sack: bool, ts: Option<Timestamps>, wscale: Option<u8>) -> OptionsBuf {
    let mut b = OptionsBuf::new();
    let m = mss.to_be_bytes();
    b.push(&[kind::MSS, 4, m[0], m[1]]);
    match (sack, ts) {
        (true, Some(_)) => b.push(&[kind::SACK_PERM, 2]),
        (false, Some(_)) => b.push(&[kind::NOP, kind::NOP]),
        (true, None) => b.push(&[kind::NOP, kind::NOP, kind::SACK_PERM, 2]),
        (false, None) => {}
    }
    if let Some(t) = ts {
        b.push(&[kind::TIMESTAMP, 10]);
        b.push(&t.tsval.to_be_bytes());
        b.push(&t.tsecr.to_be_bytes());
    }
    if let Some(w) = wscale {
        b.push(&[kind::NOP, kind::WSCALE, 3, w]);
    }
    b
}

/// What the card offers and accepts (per virtual service).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionsPolicy {
    /// The card's MSS: the largest segment the server side carries. Announced to clients.
    pub mss: u16,
    /// Offer window scaling (to clients that offer it).
    pub wscale: bool,
    /// The card's window shift on the server half; set it to the backends' own shift.
    pub server_wscale: u8,
    /// Offer SACK-permitted.
    pub sack: bool,
    /// Offer timestamps.
    pub timestamps: bool,
}

impl OptionsPolicy {
    /// MSS 1460 (Ethernet), window scaling with server shift 7 (Linux's usual), SACK and
    /// timestamps on.
    pub const DEFAULT: OptionsPolicy = OptionsPolicy {
        mss: 1460,
        wscale: true,
        server_wscale: 7,
        sack: true,
        timestamps: true,
    };

    /// Checks the ranges.
    pub const fn validate(&self) -> Result<(), PolicyError> {
        if self.mss < MIN_MSS {
            return Err(PolicyError::Mss(self.mss));
        }
        if self.server_wscale > MAX_WSCALE {
            return Err(PolicyError::Wscale(self.server_wscale));
        }
        Ok(())
    }
}

impl Default for OptionsPolicy {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// How the server's window reaches the client after rescaling.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WindowFit {
    /// Both directions exact (up to the 16-bit saturation).
    Exact,
    /// The server's window is announced this many shifts smaller than it is (safe).
    Understated(u8),
    /// The server's window is announced this many shifts larger than it is.
    Overstated(u8),
}

/// The client half as the card agreed it, and what the card offers the server.
///
/// It is a pure function of the policy and the client's SYN options, so the firmware may
/// recompute it from the stored SYN instead of keeping it per slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Handshake {
    /// The client's MSS (what the card and the server may send to it).
    pub client_mss: u16,
    /// MSS the card announces to the client.
    pub mss_to_client: u16,
    /// MSS the card announces to the server: `min(policy, client_mss)`.
    pub mss_to_server: u16,
    /// The client's window shift when the client half scales (the card announces the same).
    pub client_wscale: Option<u8>,
    /// The card's shift offered to the server (present iff `client_wscale` is).
    pub server_wscale: Option<u8>,
    /// SACK-permitted on the client half (and offered to the server).
    pub sack: bool,
    /// Timestamps on the client half (and offered to the server).
    pub timestamps: bool,
}

impl Handshake {
    /// Negotiates the client half from the client's SYN options under `policy`.
    pub fn from_client_syn(policy: &OptionsPolicy, syn: &SynOptions) -> Result<Self, PolicyError> {
        policy.validate()?;
        let client_mss = syn.peer_mss();
        let client_wscale = if policy.wscale { syn.wscale } else { None };
        Ok(Self {
            client_mss,
            mss_to_client: policy.mss,
            mss_to_server: policy.mss.min(client_mss),
            client_wscale,
            server_wscale: client_wscale.map(|_| policy.server_wscale),
            sack: policy.sack && syn.sack_permitted,
            timestamps: policy.timestamps && syn.timestamps.is_some(),
        })
    }

    /// Options of the card's SYN-ACK to the client. `tsval` is the card's timestamp, `tsecr`
    /// the client's TSval from its SYN (both ignored without timestamps).
    pub fn synack_to_client(&self, tsval: u32, tsecr: u32) -> OptionsBuf {
        let ts = self.timestamps.then_some(Timestamps { tsval, tsecr });
        build(self.mss_to_client, self.sack, ts, self.client_wscale)
    }

    /// Options of the card's SYN to the server; `client_tsval` is the client's latest TSval
    /// (so client TSvals pass unchanged, `docs/datapath.md`).
    pub fn syn_to_server(&self, client_tsval: u32) -> OptionsBuf {
        let ts = self.timestamps.then_some(Timestamps {
            tsval: client_tsval,
            tsecr: 0,
        });
        build(self.mss_to_server, self.sack, ts, self.server_wscale)
    }

    /// Checks the server's SYN-ACK options and computes what the flow entry needs.
    pub fn complete(&self, synack: &SynOptions) -> Result<Negotiated, SpliceOptionsError> {
        if self.timestamps && synack.timestamps.is_none() {
            return Err(SpliceOptionsError::Declined(Feature::Timestamps));
        }
        if self.sack && !synack.sack_permitted {
            return Err(SpliceOptionsError::Declined(Feature::Sack));
        }
        let (wscale_diff, window_fit) = match self.client_wscale {
            None => (0, WindowFit::Exact),
            Some(c) => {
                // A server that declines scaling leaves the whole server half unscaled.
                let (j, s) = match synack.wscale {
                    Some(s) => (self.server_wscale.unwrap_or(0), s),
                    None => (0, 0),
                };
                let fit = match s.cmp(&j) {
                    core::cmp::Ordering::Equal => WindowFit::Exact,
                    core::cmp::Ordering::Greater => WindowFit::Understated(s - j),
                    core::cmp::Ordering::Less => WindowFit::Overstated(j - s),
                };
                // Both are at most 14.
                (c as i8 - j as i8, fit)
            }
        };
        let server_mss = synack.peer_mss();
        Ok(Negotiated {
            sack: self.sack,
            timestamps: self.timestamps,
            window_rescale: wscale_diff != 0,
            wscale_diff,
            window_fit,
            server_mss,
            mss: self.client_mss.min(server_mss).min(self.mss_to_client),
            client_may_exceed_server_mss: self.mss_to_client > server_mss,
        })
    }
}

/// The result of both handshakes: what the data path translates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Negotiated {
    /// Translate SACK edges (both halves permit SACK).
    pub sack: bool,
    /// Translate timestamps (both halves use them).
    pub timestamps: bool,
    /// Rescale windows (`wscale_diff != 0`).
    pub window_rescale: bool,
    /// Shift difference for the flow entry: client shift - card's server-half shift.
    pub wscale_diff: i8,
    /// Accuracy of the server's window as the client sees it.
    pub window_fit: WindowFit,
    /// The server's MSS.
    pub server_mss: u16,
    /// `min(client MSS, server MSS, card MSS)`: a segment this size suits both ends.
    pub mss: u16,
    /// The card announced a larger MSS to the client than the server accepts: a full-size
    /// client segment is larger than the server's MSS (fine on the same MTU, counted).
    pub client_may_exceed_server_mss: bool,
}

impl Negotiated {
    /// The flow entry's flags byte ([`flags`] bits).
    pub const fn flags(&self) -> u8 {
        (if self.sack { flags::SACK } else { 0 })
            | (if self.timestamps {
                flags::TIMESTAMPS
            } else {
                0
            })
            | (if self.window_rescale {
                flags::WINDOW_RESCALE
            } else {
                0
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A Linux client SYN: MSS 1460, SACK_PERM, TS, NOP, WS 7.
    const LINUX_SYN: [u8; 20] = [
        2, 4, 0x05, 0xb4, 4, 2, 8, 10, 0x11, 0x22, 0x33, 0x44, 0, 0, 0, 0, 1, 3, 3, 7,
    ];

    #[test]
    fn parses_a_typical_syn() {
        let o = parse_syn_options(&LINUX_SYN).unwrap();
        assert_eq!(o.mss, Some(1460));
        assert_eq!(o.wscale, Some(7));
        assert!(o.sack_permitted);
        assert_eq!(
            o.timestamps,
            Some(Timestamps {
                tsval: 0x1122_3344,
                tsecr: 0
            })
        );
        assert_eq!(o.ignored, 0);
        assert_eq!(parse_syn_options(&[]), Ok(SynOptions::default()));
    }

    #[test]
    fn malformed_options_are_typed_errors() {
        use OptionsError::*;
        assert_eq!(parse_syn_options(&[2]), Err(Truncated { offset: 0 }));
        assert_eq!(
            parse_syn_options(&[1, 1, 2, 4, 5]),
            Err(Truncated { offset: 2 })
        );
        assert_eq!(
            parse_syn_options(&[1, 8, 10, 0, 0]),
            Err(Truncated { offset: 1 })
        );
        assert_eq!(
            parse_syn_options(&[2, 0, 0, 0]),
            Err(BadLength { kind: 2, len: 0 })
        );
        assert_eq!(
            parse_syn_options(&[99, 1, 0, 0]),
            Err(BadLength { kind: 99, len: 1 })
        );
        assert_eq!(
            parse_syn_options(&[2, 3, 5, 1]),
            Err(BadLength { kind: 2, len: 3 })
        );
        assert_eq!(
            parse_syn_options(&[3, 4, 7, 0]),
            Err(BadLength { kind: 3, len: 4 })
        );
        assert_eq!(
            parse_syn_options(&[4, 3, 0, 1]),
            Err(BadLength { kind: 4, len: 3 })
        );
        assert_eq!(
            parse_syn_options(&[8, 8, 0, 0, 0, 0, 0, 0]),
            Err(BadLength { kind: 8, len: 8 })
        );
        assert_eq!(
            parse_syn_options(&[2, 4, 5, 0xb4, 2, 4, 2, 0]),
            Err(Duplicate(2))
        );
        assert_eq!(parse_syn_options(&[4, 2, 4, 2]), Err(Duplicate(4)));
        assert_eq!(parse_syn_options(&[3, 3, 1, 3, 3, 2]), Err(Duplicate(3)));
        let mut two_ts = [1u8; 24];
        two_ts[2] = 8;
        two_ts[3] = 10;
        two_ts[14] = 8;
        two_ts[15] = 10;
        assert_eq!(parse_syn_options(&two_ts), Err(Duplicate(8)));
        assert_eq!(parse_syn_options(&[1; 41]), Err(TooLong(41)));
        assert!(parse_syn_options(&[1; 40]).is_ok());
    }

    #[test]
    fn eol_ends_the_list_and_unknown_options_are_skipped() {
        let o = parse_syn_options(&[2, 4, 1, 0, 0, 2, 0xff, 0xff]).unwrap();
        assert_eq!(o.mss, Some(256));
        let o = parse_syn_options(&[
            19, 18, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, // MD5
            34, 2, // TFO cookie request
            30, 4, 0, 0, // MPTCP
            29, 4, 0, 0, // AO
            200, 2, // unknown
            2, 4, 0x05, 0xb4,
        ])
        .unwrap();
        assert_eq!(o.mss, Some(1460));
        assert_eq!(
            o.ignored,
            ignored::MD5 | ignored::FASTOPEN | ignored::MPTCP | ignored::AO | ignored::OTHER
        );
    }

    #[test]
    fn window_shift_is_clamped_and_mss_has_defaults() {
        assert_eq!(parse_syn_options(&[3, 3, 15]).unwrap().wscale, Some(14));
        assert_eq!(parse_syn_options(&[3, 3, 255]).unwrap().wscale, Some(14));
        assert_eq!(SynOptions::default().peer_mss(), DEFAULT_PEER_MSS);
        let o = parse_syn_options(&[2, 4, 0, 0]).unwrap();
        assert_eq!((o.mss, o.peer_mss()), (Some(0), DEFAULT_PEER_MSS));
        assert_eq!(
            parse_syn_options(&[2, 4, 0, 10]).unwrap().peer_mss(),
            MIN_MSS
        );
        assert_eq!(
            parse_syn_options(&[2, 4, 0x23, 0x28]).unwrap().peer_mss(),
            9000
        );
    }

    #[test]
    fn builds_aligned_options_that_parse_back() {
        let client = parse_syn_options(&LINUX_SYN).unwrap();
        let hs = Handshake::from_client_syn(&OptionsPolicy::DEFAULT, &client).unwrap();
        let b = hs.synack_to_client(0xAABB_CCDD, 0x1122_3344);
        assert_eq!(
            b.as_slice(),
            &[
                2, 4, 0x05, 0xb4, 4, 2, 8, 10, 0xAA, 0xBB, 0xCC, 0xDD, 0x11, 0x22, 0x33, 0x44, 1,
                3, 3, 7
            ]
        );
        assert_eq!((b.len(), b.data_offset()), (20, 10));
        let back = parse_syn_options(b.as_slice()).unwrap();
        assert_eq!(back.wscale, Some(7));
        assert_eq!(back.mss, Some(1460));
        let s = parse_syn_options(hs.syn_to_server(0x5555_0000).as_slice()).unwrap();
        assert_eq!(
            s.timestamps,
            Some(Timestamps {
                tsval: 0x5555_0000,
                tsecr: 0
            })
        );
        assert_eq!(s.wscale, Some(7));
        // Sizes of the other layouts.
        let only_sack = build(1000, true, None, None);
        assert_eq!(only_sack.as_slice(), &[2, 4, 0x03, 0xe8, 1, 1, 4, 2]);
        assert_eq!(build(1000, false, None, None).len(), 4);
        assert_eq!(
            build(1000, false, Some(Timestamps::default()), Some(0)).len(),
            20
        );
        assert!(!only_sack.is_empty());
    }

    #[test]
    fn mss_policy_takes_the_smaller_values() {
        let mut p = OptionsPolicy::DEFAULT;
        p.mss = 1400;
        let client = parse_syn_options(&[2, 4, 0x05, 0xb4]).unwrap(); // 1460
        let hs = Handshake::from_client_syn(&p, &client).unwrap();
        assert_eq!((hs.mss_to_client, hs.mss_to_server), (1400, 1400));
        let small = parse_syn_options(&[2, 4, 0x02, 0x18]).unwrap(); // 536
        let hs = Handshake::from_client_syn(&p, &small).unwrap();
        assert_eq!((hs.mss_to_client, hs.mss_to_server), (1400, 536));
        let server = parse_syn_options(&[2, 4, 0x04, 0xb0]).unwrap(); // 1200
        let n = hs.complete(&server).unwrap();
        assert_eq!(
            (n.server_mss, n.mss, n.client_may_exceed_server_mss),
            (1200, 536, true)
        );
        p.mss = 10;
        assert_eq!(
            Handshake::from_client_syn(&p, &client),
            Err(PolicyError::Mss(10))
        );
        p.mss = 1460;
        p.server_wscale = 15;
        assert_eq!(p.validate(), Err(PolicyError::Wscale(15)));
        assert_eq!(OptionsPolicy::default(), OptionsPolicy::DEFAULT);
    }

    fn server_synack(wscale: Option<u8>, sack: bool, ts: bool) -> SynOptions {
        SynOptions {
            mss: Some(1460),
            wscale,
            sack_permitted: sack,
            timestamps: ts.then_some(Timestamps {
                tsval: 77,
                tsecr: 1,
            }),
            ignored: 0,
        }
    }

    #[test]
    fn window_scale_difference_and_fit() {
        let p = OptionsPolicy::DEFAULT; // server_wscale 7
        let mut c = parse_syn_options(&LINUX_SYN).unwrap();
        for (cw, sw, diff, fit) in [
            (7, Some(7), 0, WindowFit::Exact),
            (8, Some(7), 1, WindowFit::Exact),
            (2, Some(7), -5, WindowFit::Exact),
            (7, Some(9), 0, WindowFit::Understated(2)),
            (7, Some(4), 0, WindowFit::Overstated(3)),
            (6, None, 6, WindowFit::Exact),
            (0, None, 0, WindowFit::Exact),
        ] {
            c.wscale = Some(cw);
            let hs = Handshake::from_client_syn(&p, &c).unwrap();
            assert_eq!(hs.client_wscale, Some(cw));
            assert_eq!(hs.server_wscale, Some(7));
            let n = hs.complete(&server_synack(sw, true, true)).unwrap();
            assert_eq!(
                (n.wscale_diff, n.window_fit),
                (diff, fit),
                "c {cw} s {sw:?}"
            );
            assert_eq!(n.window_rescale, diff != 0);
            assert_eq!(n.flags() & flags::WINDOW_RESCALE != 0, diff != 0);
        }
        // No scaling offered by the client: none on either half, even if a server sends one.
        c.wscale = None;
        let hs = Handshake::from_client_syn(&p, &c).unwrap();
        assert_eq!((hs.client_wscale, hs.server_wscale), (None, None));
        let n = hs.complete(&server_synack(Some(9), true, true)).unwrap();
        assert_eq!((n.wscale_diff, n.window_rescale), (0, false));
    }

    /// Simulates window fields through the data path's rescale and checks the windows each
    /// end believes against the real ones.
    #[test]
    fn rescaled_windows_match_the_real_windows_when_exact() {
        fn dp_c2s(w: u16, d: i8) -> u16 {
            if d >= 0 {
                (u32::from(w) << d).min(0xFFFF) as u16
            } else {
                w >> -d
            }
        }
        fn dp_s2c(w: u16, d: i8) -> u16 {
            if d >= 0 {
                w >> d
            } else {
                (u32::from(w) << -d).min(0xFFFF) as u16
            }
        }
        let p = OptionsPolicy::DEFAULT;
        for c in 0..=14u8 {
            let syn = SynOptions {
                wscale: Some(c),
                ..SynOptions::default()
            };
            let hs = Handshake::from_client_syn(&p, &syn).unwrap();
            let n = hs.complete(&server_synack(Some(7), false, false)).unwrap();
            // Client window field 0x1234 in units of 2^c; the server reads it in 2^7.
            // Exact, or understated by the truncation of a right shift or the saturation.
            let f = dp_c2s(0x1234, n.wscale_diff);
            let (real, seen) = (0x1234u64 << c, u64::from(f) << 7);
            assert!(seen <= real, "c {c}");
            assert!(real - seen < 1 << 7 || f == 0xFFFF, "c {c}");
            // Server window field in units of 2^7; the client reads it in 2^c.
            let f = dp_s2c(0x0F00, n.wscale_diff);
            let (real, seen) = (0x0F00u64 << 7, u64::from(f) << c);
            assert!(seen <= real, "c {c}");
            assert!(real - seen < 1 << c || f == 0xFFFF, "c {c}");
            if c == 7 {
                assert_eq!((n.wscale_diff, n.window_rescale), (0, false));
            }
        }
    }

    #[test]
    fn both_halves_always_agree() {
        // Every client offer x policy x server answer.
        for bits in 0..(1u32 << 10) {
            let b = |i: u32| bits >> i & 1 != 0;
            let client = SynOptions {
                mss: b(0).then_some(1400),
                wscale: b(1).then_some(6),
                sack_permitted: b(2),
                timestamps: b(3).then_some(Timestamps { tsval: 5, tsecr: 0 }),
                ignored: 0,
            };
            let policy = OptionsPolicy {
                wscale: b(4),
                sack: b(5),
                timestamps: b(6),
                ..OptionsPolicy::DEFAULT
            };
            let hs = Handshake::from_client_syn(&policy, &client).unwrap();
            // What the client sees offered equals the client half; the server is offered the
            // same features.
            let to_client = parse_syn_options(hs.synack_to_client(1, 5).as_slice()).unwrap();
            let to_server = parse_syn_options(hs.syn_to_server(5).as_slice()).unwrap();
            assert_eq!(to_client.sack_permitted, hs.sack);
            assert_eq!(to_server.sack_permitted, hs.sack);
            assert_eq!(to_client.timestamps.is_some(), hs.timestamps);
            assert_eq!(to_server.timestamps.is_some(), hs.timestamps);
            assert_eq!(to_client.wscale.is_some(), to_server.wscale.is_some());
            assert_eq!(hs.sack, client.sack_permitted && policy.sack);
            assert_eq!(
                hs.timestamps,
                client.timestamps.is_some() && policy.timestamps
            );
            // The server answers with a subset of what it was offered.
            let server = server_synack(
                to_server.wscale.filter(|_| b(7)).map(|_| 7),
                to_server.sack_permitted && b(8),
                to_server.timestamps.is_some() && b(9),
            );
            match hs.complete(&server) {
                Ok(n) => {
                    assert_eq!(n.sack, hs.sack && server.sack_permitted);
                    assert_eq!(n.sack, hs.sack, "one-sided SACK");
                    assert_eq!(n.timestamps, hs.timestamps && server.timestamps.is_some());
                    assert_eq!(n.timestamps, hs.timestamps, "one-sided timestamps");
                    assert_eq!(n.window_rescale, n.wscale_diff != 0);
                }
                Err(SpliceOptionsError::Declined(Feature::Sack)) => {
                    assert!(hs.sack && !server.sack_permitted)
                }
                Err(SpliceOptionsError::Declined(Feature::Timestamps)) => {
                    assert!(hs.timestamps && server.timestamps.is_none())
                }
            }
        }
    }

    #[test]
    fn flags_byte_matches_the_flow_entry_layout() {
        let n = Negotiated {
            sack: true,
            timestamps: true,
            window_rescale: true,
            wscale_diff: -1,
            window_fit: WindowFit::Exact,
            server_mss: 1460,
            mss: 1460,
            client_may_exceed_server_mss: false,
        };
        assert_eq!(n.flags(), 0b111);
        let n = Negotiated {
            sack: false,
            window_rescale: false,
            ..n
        };
        assert_eq!(n.flags(), flags::TIMESTAMPS);
    }
}
