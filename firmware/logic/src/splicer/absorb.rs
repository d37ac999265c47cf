//! The server's answer to the card's SYN (`docs/flowmgr.md`, "Connection life cycle"): what
//! it means for a connection in setup and, when it completes the server handshake,
//! everything the splice needs from it.
//!
//! [`absorb_synack`] is pure: [`super::Splicer`] acts on its result (the flow entry, the
//! handshake ACK, the replayed request), and it is the reference model of the gateware's
//! `synack_absorb` (`gateware-rtl/rtl/synack_absorb.v`, `docs/server-open.md`; the test
//! bench `test-open` runs both on random connections).

use super::frame::tcp_flags as tf;
use super::{entry_flags, with_field};
use crate::flowmgr::splice::{Isns, SpliceEntry};
use crate::flowmgr::tcpopts::{Feature, Handshake, Negotiated, SpliceOptionsError, SynOptions};
use crate::flowmgr::FlowState;
use splicenic_layout::FlowStatic;
pub use splicenic_layout::SynAckVerdict;

/// Smallest payload of a replayed request segment: the negotiated MSS less the timestamp
/// option, never below this. The value comes from `registers/records.toml`
/// (`splicenic_layout::REPLAY_MIN_CHUNK`).
pub const REPLAY_MIN_CHUNK: u16 = splicenic_layout::REPLAY_MIN_CHUNK as u16;
const _: () = assert!(REPLAY_MIN_CHUNK as u32 == splicenic_layout::REPLAY_MIN_CHUNK);

/// Length of the timestamps option on the card's segments to the server (NOP NOP TS).
pub const TS_OPTION_LEN: u16 = 12;

/// What the card knows of a connection in setup when the server answers its SYN (the card's
/// SYN reused the client's ISN).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SynAckContext {
    /// The client's ISN (also the ISN of the card's SYN to the server).
    pub client_isn: u32,
    /// The card's ISN in its SYN-ACK to the client.
    pub card_isn: u32,
    /// The latest TSval the card sent to the client.
    pub card_tsval: u32,
    /// The client's window field as last seen (in its own scale).
    pub client_win: u16,
    /// The client half's options and what the card offered the server.
    pub hs: Handshake,
    /// Real-server index (statistics; the entry's `REAL_SERVER`).
    pub real_server: u8,
    /// The client already sent FIN (acknowledged, replayed after the request).
    pub client_fin: bool,
}

/// The server's segment as far as the absorber reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SynAckSegment {
    /// TCP flags ([`super::frame::tcp_flags`]).
    pub flags: u8,
    /// Sequence number (the server's ISN in a SYN-ACK).
    pub seq: u32,
    /// Acknowledgement number.
    pub ack: u32,
    /// Its options (default when absent or malformed).
    pub opts: SynOptions,
}

impl SynAckSegment {
    /// The server's TSval, 0 without the timestamps option (the timestamp offset and the
    /// TSecr of the handshake ACK).
    pub fn tsval(&self) -> u32 {
        self.opts.timestamps.map_or(0, |t| t.tsval)
    }
}

/// The absorber's result. With a verdict other than [`SynAckVerdict::Splice`], `words`,
/// `window` and `chunk` are 0 and `neg` is `None` (as the gateware's outputs); `ack` is
/// always the server's seq + 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Absorbed {
    /// What the segment means.
    pub verdict: SynAckVerdict,
    /// [`FlowStatic`] words 0-3: state SPLICED with the `ACTIVE` flag, or CLOSING with
    /// `FIN_CLIENT` when the client already sent FIN; the timestamp offset; the sequence
    /// deltas.
    pub words: [u32; 4],
    /// The handshake ACK's ack: the server's seq + 1.
    pub ack: u32,
    /// The handshake ACK's window: the client's window rescaled to the server half (up by
    /// the client's shift, down by the card's server-half shift when the server scales), at
    /// most 0xFFFF.
    pub window: u16,
    /// Payload size of the replayed request's segments: the negotiated MSS less
    /// [`TS_OPTION_LEN`] with timestamps, at least [`REPLAY_MIN_CHUNK`].
    pub chunk: u16,
    /// What the data path translates, `Some` exactly with [`SynAckVerdict::Splice`] (its
    /// `mss` is the gateware's `m_mss`).
    pub neg: Option<Negotiated>,
}

/// What the server's segment `seg` means for the connection `ctx` whose SYN went to it.
///
/// * A RST is [`SynAckVerdict::Refused`] when it has ACK and acknowledges the card's SYN
///   (ack = client ISN + 1), [`SynAckVerdict::Ignore`] otherwise.
/// * A segment without both SYN and ACK, or whose ack is another, is
///   [`SynAckVerdict::Ignore`].
/// * [`Handshake::complete`] declining decides [`SynAckVerdict::DeclinedTs`] (timestamps,
///   checked first) or [`SynAckVerdict::DeclinedSack`]. [`SpliceOptionsError::Declined`] is
///   its only error (the match is exhaustive: a new error must be given a verdict here).
/// * Else [`SynAckVerdict::Splice`], with every field of [`Absorbed`] filled.
// No #[inline]: the firmware's LTO inlines it into its only caller anyway, and with the hint
// (inlined before LTO into the generic `Splicer::on_server_seg`) the image came out about
// 650 bytes larger.
pub fn absorb_synack(ctx: &SynAckContext, seg: &SynAckSegment) -> Absorbed {
    let mut a = Absorbed {
        verdict: SynAckVerdict::Ignore,
        words: [0; 4],
        ack: seg.seq.wrapping_add(1),
        window: 0,
        chunk: 0,
        neg: None,
    };
    let has = |f: u8| seg.flags & f == f;
    let acks_syn = seg.ack == ctx.client_isn.wrapping_add(1);
    if has(tf::RST) {
        if has(tf::ACK) && acks_syn {
            a.verdict = SynAckVerdict::Refused;
        }
        return a;
    }
    if !has(tf::SYN | tf::ACK) || !acks_syn {
        return a;
    }
    let hs = &ctx.hs;
    let neg = match hs.complete(&seg.opts) {
        Ok(n) => n,
        Err(SpliceOptionsError::Declined(f)) => {
            a.verdict = match f {
                Feature::Timestamps => SynAckVerdict::DeclinedTs,
                Feature::Sack => SynAckVerdict::DeclinedSack,
            };
            return a;
        }
    };
    let isns = Isns::reusing_client_isn(ctx.client_isn, ctx.card_isn, seg.seq);
    let mut w = SpliceEntry::new(&isns, &neg, ctx.card_tsval, seg.tsval(), ctx.real_server).words();
    w[0] = if ctx.client_fin {
        // Already half-closed by the client: CLOSING, counted inactive from the start.
        with_field(w[0], FlowStatic::STATE, FlowState::Closing.raw().into())
            | FlowStatic::FLAGS.place32(entry_flags::FIN_CLIENT.into())
    } else {
        w[0] | FlowStatic::FLAGS.place32(entry_flags::ACTIVE.into())
    };
    // Both shifts are at most 14: the client's window shifted up fits 30 bits. A server that
    // declines scaling leaves its half unscaled.
    let c = hs.client_wscale.unwrap_or(0);
    let j = if seg.opts.wscale.is_some() {
        hs.server_wscale.unwrap_or(0)
    } else {
        0
    };
    let o_len = if neg.timestamps { TS_OPTION_LEN } else { 0 };
    a.verdict = SynAckVerdict::Splice;
    a.words = w;
    a.window = ((u32::from(ctx.client_win) << c) >> j).min(0xffff) as u16;
    a.chunk = neg.mss.saturating_sub(o_len).max(REPLAY_MIN_CHUNK);
    a.neg = Some(neg);
    a
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flowmgr::splice::ts_offset;
    use crate::flowmgr::tcpopts::{flags, OptionsPolicy, Timestamps};

    const SA: u8 = tf::SYN | tf::ACK;

    /// A Linux-like client half: MSS 1460, window shift 7, SACK and timestamps.
    fn hs(wscale: Option<u8>, sack: bool, ts: bool) -> Handshake {
        let syn = SynOptions {
            mss: Some(1460),
            wscale,
            sack_permitted: sack,
            timestamps: ts.then_some(Timestamps { tsval: 9, tsecr: 0 }),
            ignored: 0,
        };
        Handshake::from_client_syn(&OptionsPolicy::DEFAULT, &syn).unwrap()
    }

    fn ctx(h: Handshake) -> SynAckContext {
        SynAckContext {
            client_isn: 1000,
            card_isn: 5000,
            card_tsval: 700,
            client_win: 0x1000,
            hs: h,
            real_server: 3,
            client_fin: false,
        }
    }

    fn synack(
        flags: u8,
        seq: u32,
        ack: u32,
        wscale: Option<u8>,
        sack: bool,
        ts: bool,
    ) -> SynAckSegment {
        SynAckSegment {
            flags,
            seq,
            ack,
            opts: SynOptions {
                mss: Some(1460),
                wscale,
                sack_permitted: sack,
                timestamps: ts.then_some(Timestamps {
                    tsval: 200,
                    tsecr: 1000,
                }),
                ignored: 0,
            },
        }
    }

    /// The fields of a result without splice.
    fn not_spliced(verdict: SynAckVerdict, seq: u32) -> Absorbed {
        Absorbed {
            verdict,
            words: [0; 4],
            ack: seq.wrapping_add(1),
            window: 0,
            chunk: 0,
            neg: None,
        }
    }

    #[test]
    fn rst_is_refused_only_with_ack_of_the_syn() {
        let c = ctx(hs(Some(7), true, true));
        let r = |flags, ack| absorb_synack(&c, &synack(flags, 50, ack, None, false, false));
        let refused = not_spliced(SynAckVerdict::Refused, 50);
        let ignored = not_spliced(SynAckVerdict::Ignore, 50);
        assert_eq!(r(tf::RST | tf::ACK, 1001), refused);
        // A RST with SYN and ACK is still a RST.
        assert_eq!(r(tf::RST | SA, 1001), refused);
        assert_eq!(r(tf::RST | tf::ACK, 1000), ignored);
        assert_eq!(r(tf::RST | tf::ACK, 1002), ignored);
        assert_eq!(r(tf::RST, 1001), ignored);
    }

    #[test]
    fn only_a_synack_of_the_syn_is_absorbed() {
        let c = ctx(hs(Some(7), true, true));
        let r = |flags, ack| absorb_synack(&c, &synack(flags, 50, ack, Some(7), true, true));
        let ignored = not_spliced(SynAckVerdict::Ignore, 50);
        assert_eq!(r(SA, 1000), ignored);
        assert_eq!(r(SA, 0), ignored);
        assert_eq!(r(tf::SYN, 1001), ignored);
        assert_eq!(r(tf::ACK, 1001), ignored);
        assert_eq!(r(tf::ACK | tf::PSH, 1001), ignored);
        assert_eq!(r(SA, 1001).verdict, SynAckVerdict::Splice);
        // Other flags do not matter.
        assert_eq!(
            r(SA | tf::PSH | tf::FIN, 1001).verdict,
            SynAckVerdict::Splice
        );
    }

    #[test]
    fn declined_features() {
        let c = ctx(hs(Some(7), true, true));
        let r = |sack, ts| absorb_synack(&c, &synack(SA, 50, 1001, Some(7), sack, ts));
        assert_eq!(r(true, false), not_spliced(SynAckVerdict::DeclinedTs, 50));
        // Timestamps are checked first.
        assert_eq!(r(false, false), not_spliced(SynAckVerdict::DeclinedTs, 50));
        assert_eq!(r(false, true), not_spliced(SynAckVerdict::DeclinedSack, 50));
        assert_eq!(r(true, true).verdict, SynAckVerdict::Splice);
        // A client half without them accepts a server without them.
        let c = ctx(hs(Some(7), false, false));
        let a = absorb_synack(&c, &synack(SA, 50, 1001, Some(7), false, false));
        assert_eq!(a.verdict, SynAckVerdict::Splice);
        let n = a.neg.unwrap();
        assert!(!n.sack && !n.timestamps);
    }

    #[test]
    fn spliced_entry_words() {
        let c = ctx(hs(Some(7), true, true));
        let a = absorb_synack(&c, &synack(SA, 300, 1001, Some(7), true, true));
        let n =
            c.hs.complete(&synack(SA, 0, 0, Some(7), true, true).opts)
                .unwrap();
        assert_eq!(a.neg, Some(n));
        assert_eq!(a.ack, 301);
        let w0 = a.words[0];
        assert_eq!(FlowStatic::STATE.get32(w0), FlowState::Spliced.raw().into());
        assert_eq!(
            FlowStatic::FLAGS.get32(w0),
            u32::from(flags::SACK | flags::TIMESTAMPS | entry_flags::ACTIVE)
        );
        assert_eq!(FlowStatic::WSCALE_DIFF.get32(w0), 0);
        assert_eq!(FlowStatic::REAL_SERVER.get32(w0), 3);
        assert_eq!(a.words[1], ts_offset(700, 200));
        assert_eq!(a.words[1], 500);
        // delta_cs = 0 (the card's SYN reused the client's ISN), delta_sc = card - server.
        assert_eq!(&a.words[2..], &[0, 4700]);
        // Without timestamps there is no offset.
        let c = ctx(hs(Some(7), true, false));
        let a = absorb_synack(&c, &synack(SA, 300, 1001, Some(7), true, true));
        assert_eq!(a.words[1], 0);
        assert_eq!(
            FlowStatic::FLAGS.get32(a.words[0]),
            u32::from(flags::SACK | entry_flags::ACTIVE)
        );
    }

    #[test]
    fn isns_wrap_around() {
        let mut c = ctx(hs(Some(7), true, true));
        c.client_isn = u32::MAX;
        c.card_isn = 0x10;
        c.card_tsval = 5;
        let mut s = synack(SA, u32::MAX, 0, Some(7), true, true);
        s.opts.timestamps = Some(Timestamps {
            tsval: 0xFFFF_FFF0,
            tsecr: 0,
        });
        let a = absorb_synack(&c, &s);
        assert_eq!(a.verdict, SynAckVerdict::Splice);
        assert_eq!(a.ack, 0);
        assert_eq!(a.words[1], 0x15);
        assert_eq!(&a.words[2..], &[0, 0x11]);
        // A RST acknowledging the SYN across the wrap.
        s.flags = tf::RST | tf::ACK;
        assert_eq!(
            absorb_synack(&c, &s),
            not_spliced(SynAckVerdict::Refused, u32::MAX)
        );
        // ack = client ISN (without the + 1) is another.
        s.flags = SA;
        s.ack = u32::MAX;
        assert_eq!(absorb_synack(&c, &s).verdict, SynAckVerdict::Ignore);
    }

    #[test]
    fn client_fin_makes_the_entry_closing() {
        let mut c = ctx(hs(Some(7), true, true));
        let s = synack(SA, 300, 1001, Some(7), true, true);
        let open = absorb_synack(&c, &s);
        c.client_fin = true;
        let a = absorb_synack(&c, &s);
        assert_eq!(a.verdict, SynAckVerdict::Splice);
        let w0 = a.words[0];
        assert_eq!(FlowStatic::STATE.get32(w0), FlowState::Closing.raw().into());
        assert_eq!(
            FlowStatic::FLAGS.get32(w0),
            u32::from(flags::SACK | flags::TIMESTAMPS | entry_flags::FIN_CLIENT)
        );
        assert_eq!(FlowStatic::REAL_SERVER.get32(w0), 3);
        // Everything else is the same.
        assert_eq!(a.words[1..], open.words[1..]);
        assert_eq!(
            (a.ack, a.window, a.chunk, a.neg),
            (open.ack, open.window, open.chunk, open.neg)
        );
    }

    #[test]
    fn handshake_ack_window() {
        // (client shift, server's shift, client window, window to the server)
        for (cw, sw, win, want) in [
            // Client half scaled by 7, the card's server-half shift 7: unchanged.
            (Some(7), Some(7), 0x1000, 0x1000),
            (Some(7), Some(2), 0x1000, 0x1000),
            // Client shift 9 vs 7: up by 2.
            (Some(9), Some(7), 0x1000, 0x4000),
            (Some(9), Some(7), 0x8000, 0xFFFF),
            // Client shift 3 vs 7: down by 4.
            (Some(3), Some(7), 0x1234, 0x123),
            // The server declines scaling: only the client's shift, saturating.
            (Some(7), None, 0x10, 0x800),
            (Some(7), None, 0x1000, 0xFFFF),
            (Some(0), None, 0xFFFF, 0xFFFF),
            (Some(2), Some(14), 0xFFFF, 0xFFFF >> 5),
            (Some(14), Some(14), 0x3, 0x180),
            // No scaling on the client half: the window as it is.
            (None, Some(7), 0x1234, 0x1234),
            (None, None, 0xFFFF, 0xFFFF),
        ] {
            let mut c = ctx(hs(cw, true, true));
            c.client_win = win;
            let a = absorb_synack(&c, &synack(SA, 300, 1001, sw, true, true));
            assert_eq!(
                a.window, want,
                "client {cw:?} server {sw:?} window {win:#x}"
            );
        }
    }

    #[test]
    fn replay_chunk() {
        let chunk = |client_mss: u16, server_mss: Option<u16>, ts: bool| {
            let syn = SynOptions {
                mss: Some(client_mss),
                timestamps: ts.then_some(Timestamps::default()),
                ..SynOptions::default()
            };
            let h = Handshake::from_client_syn(&OptionsPolicy::DEFAULT, &syn).unwrap();
            let mut s = synack(SA, 300, 1001, None, false, ts);
            s.opts.mss = server_mss;
            absorb_synack(&ctx(h), &s).chunk
        };
        // min(client, server, card's 1460), less 12 with timestamps.
        assert_eq!(chunk(1460, Some(1460), true), 1448);
        assert_eq!(chunk(1460, Some(1460), false), 1460);
        assert_eq!(chunk(9000, Some(9000), false), 1460);
        assert_eq!(chunk(1200, Some(1460), true), 1188);
        assert_eq!(chunk(1460, Some(1000), false), 1000);
        // No server MSS: the default peer MSS.
        assert_eq!(
            chunk(1460, None, false),
            crate::flowmgr::tcpopts::DEFAULT_PEER_MSS
        );
        // The floor.
        assert_eq!(chunk(1460, Some(76), true), 64);
        assert_eq!(chunk(1460, Some(75), true), REPLAY_MIN_CHUNK);
        assert_eq!(chunk(48, Some(48), true), REPLAY_MIN_CHUNK);
        assert_eq!(chunk(1460, Some(10), false), REPLAY_MIN_CHUNK);
        assert_eq!(chunk(1460, Some(65), false), 65);
        assert_eq!(REPLAY_MIN_CHUNK, 64);
    }

    #[test]
    fn tsval_of_the_segment() {
        let s = synack(SA, 0, 0, None, false, true);
        assert_eq!(s.tsval(), 200);
        assert_eq!(synack(SA, 0, 0, None, false, false).tsval(), 0);
    }
}
