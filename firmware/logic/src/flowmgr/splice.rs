//! Sequence deltas and timestamp offset of a spliced flow (`docs/datapath.md`).
//!
//! Four ISNs meet in a splice: the client's (`isn_client`), the card's towards the client
//! (`isn_c`, from [`super::isn`]), the card's towards the server (by convention the client's
//! own, so client sequence numbers pass unchanged) and the server's (`isn_s`). Byte `k` of the
//! client's stream has sequence number `isn_client + 1 + k` on the client half and
//! `isn_to_server + 1 + k` on the server half; byte `k` of the server's stream has
//! `isn_s + 1 + k` on the server half and `isn_c + 1 + k` on the client half. Hence, modulo
//! 2^32:
//!
//! ```text
//! delta_cs = isn_to_server - isn_client     (0 under the ISN reuse convention)
//! delta_sc = isn_c - isn_s                  (the seed's A = A0 - A1)
//! C→S: seq += delta_cs, ack -= delta_sc      S→C: seq += delta_sc, ack -= delta_cs
//! ts_offset = latest card TSval sent to the client - server's TSval
//! C→S: TSecr -= ts_offset                    S→C: TSval += ts_offset
//! ```
//!
//! SACK edges are acknowledgement numbers and move with the ack delta of their direction.

use super::tcpopts::Negotiated;
use super::FlowState;
use splicenic_layout::FlowStatic;

/// The four initial sequence numbers of a splice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Isns {
    /// The client's ISN (from its SYN).
    pub client: u32,
    /// The card's ISN in its SYN-ACK to the client.
    pub card_to_client: u32,
    /// The card's ISN in its SYN to the server (normally equal to `client`).
    pub card_to_server: u32,
    /// The server's ISN (from its SYN-ACK).
    pub server: u32,
}

impl Isns {
    /// The ISNs under the convention that the card opens the server connection with the
    /// client's ISN.
    pub const fn reusing_client_isn(client: u32, card_to_client: u32, server: u32) -> Self {
        Self {
            client,
            card_to_client,
            card_to_server: client,
            server,
        }
    }
}

/// The two sequence deltas of a flow entry (words 2 and 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeqDeltas {
    /// Client to server: added to client `seq`, subtracted from server `ack`.
    pub cs: u32,
    /// Server to client: added to server `seq`, subtracted from client `ack`.
    pub sc: u32,
}

impl SeqDeltas {
    /// The deltas of a splice.
    pub const fn new(isns: &Isns) -> Self {
        Self {
            cs: isns.card_to_server.wrapping_sub(isns.client),
            sc: isns.card_to_client.wrapping_sub(isns.server),
        }
    }

    /// `(seq, ack)` of a client segment as the data path forwards it to the server.
    pub const fn c2s(&self, seq: u32, ack: u32) -> (u32, u32) {
        (seq.wrapping_add(self.cs), ack.wrapping_sub(self.sc))
    }

    /// `(seq, ack)` of a server segment as the data path forwards it to the client.
    pub const fn s2c(&self, seq: u32, ack: u32) -> (u32, u32) {
        (seq.wrapping_add(self.sc), ack.wrapping_sub(self.cs))
    }
}

/// The timestamp offset: `card_tsval - server_tsval` (mod 2^32), where `card_tsval` is the
/// latest TSval the card sent to the client (so the client never sees TSval go backwards)
/// and `server_tsval` the TSval of the server's SYN-ACK.
pub const fn ts_offset(card_tsval: u32, server_tsval: u32) -> u32 {
    card_tsval.wrapping_sub(server_tsval)
}

/// `a` is before `b` in sequence space (signed 32-bit difference).
pub const fn seq_before(a: u32, b: u32) -> bool {
    (a.wrapping_sub(b) as i32) < 0
}

/// `a` is after `b` in sequence space.
pub const fn seq_after(a: u32, b: u32) -> bool {
    seq_before(b, a)
}

/// Translation words 0-3 of the static flow entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpliceEntry {
    /// Flow state (SPLICED once written for forwarding).
    pub state: FlowState,
    /// Flags byte ([`super::tcpopts::flags`]).
    pub flags: u8,
    /// Window-scale shift difference.
    pub wscale_diff: i8,
    /// Real-server index (statistics).
    pub real_server: u8,
    /// Timestamp offset (0 without timestamp translation).
    pub ts_offset: u32,
    /// Sequence deltas.
    pub deltas: SeqDeltas,
}

impl SpliceEntry {
    /// The entry of a spliced flow. `card_tsval` and `server_tsval` are used only when
    /// timestamps were negotiated.
    pub const fn new(
        isns: &Isns,
        opts: &Negotiated,
        card_tsval: u32,
        server_tsval: u32,
        real_server: u8,
    ) -> Self {
        Self {
            state: FlowState::Spliced,
            flags: opts.flags(),
            wscale_diff: opts.wscale_diff,
            real_server,
            ts_offset: if opts.timestamps {
                ts_offset(card_tsval, server_tsval)
            } else {
                0
            },
            deltas: SeqDeltas::new(isns),
        }
    }

    /// Words 0-3 as `flow_state_mem` stores them ([`FlowStatic`] bits 127:0): word 0 =
    /// state, flags, shift difference, real server; word 1 timestamp offset; words 2-3
    /// deltas.
    pub const fn words(&self) -> [u32; 4] {
        [
            FlowStatic::STATE.place32(self.state as u32)
                | FlowStatic::FLAGS.place32(self.flags as u32)
                | FlowStatic::WSCALE_DIFF.place32(self.wscale_diff as u8 as u32)
                | FlowStatic::REAL_SERVER.place32(self.real_server as u32),
            self.ts_offset,
            self.deltas.cs,
            self.deltas.sc,
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flowmgr::tcpopts::{flags, WindowFit};

    fn negotiated(ts: bool) -> Negotiated {
        Negotiated {
            sack: true,
            timestamps: ts,
            window_rescale: true,
            wscale_diff: -2,
            window_fit: WindowFit::Exact,
            server_mss: 1460,
            mss: 1460,
            client_may_exceed_server_mss: false,
        }
    }

    #[test]
    fn deltas_follow_the_definitions() {
        let i = Isns::reusing_client_isn(1000, 5000, 300);
        let d = SeqDeltas::new(&i);
        assert_eq!(d, SeqDeltas { cs: 0, sc: 4700 });
        // Seed example shape: A = A0 - A1, crossing 2^32.
        let i = Isns::reusing_client_isn(7, 0x0000_0010, 0xFFFF_FFF0);
        assert_eq!(SeqDeltas::new(&i).sc, 0x20);
        let i = Isns {
            client: 0xFFFF_FFFF,
            card_to_client: 0,
            card_to_server: 2,
            server: 1,
        };
        assert_eq!(
            SeqDeltas::new(&i),
            SeqDeltas {
                cs: 3,
                sc: u32::MAX
            }
        );
    }

    #[test]
    fn handshake_numbers_translate_into_each_other() {
        let i = Isns::reusing_client_isn(0xFFFF_FF00, 0xFFFF_FFFE, 0x7FFF_FFFF);
        let d = SeqDeltas::new(&i);
        // The client's ACK of the card's SYN-ACK becomes the ACK of the server's SYN-ACK.
        let (seq, ack) = d.c2s(i.client.wrapping_add(1), i.card_to_client.wrapping_add(1));
        assert_eq!(seq, i.card_to_server.wrapping_add(1));
        assert_eq!(ack, i.server.wrapping_add(1));
        // The server's first segment looks like the card's to the client.
        let (seq, ack) = d.s2c(i.server.wrapping_add(1), i.card_to_server.wrapping_add(1));
        assert_eq!(seq, i.card_to_client.wrapping_add(1));
        assert_eq!(ack, i.client.wrapping_add(1));
    }

    /// A tiny xorshift generator for the property tests.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u32 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 >> 16) as u32
        }
        /// A number near a wrap point often, otherwise anywhere.
        fn isn(&mut self) -> u32 {
            match self.next() % 4 {
                0 => u32::MAX - self.next() % 3000,
                1 => self.next() % 3000,
                _ => self.next(),
            }
        }
    }

    /// Both ends exchange segments through the translation; each receiver must see the
    /// sender's bytes contiguous in its own sequence space and acks for exactly the bytes it
    /// sent.
    #[test]
    fn simulated_transfer_is_consistent_on_both_halves_across_the_wrap() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        for _ in 0..2000 {
            let reuse = rng.next() % 4 != 0;
            let client = rng.isn();
            let i = Isns {
                client,
                card_to_client: rng.isn(),
                card_to_server: if reuse { client } else { rng.isn() },
                server: rng.isn(),
            };
            let d = SeqDeltas::new(&i);
            // Bytes sent (both ends start after their SYN).
            let (mut c_sent, mut s_sent) = (0u32, 0u32);
            // What each end has received in order.
            let (mut c_rcvd, mut s_rcvd) = (0u32, 0u32);
            for _ in 0..20 {
                if rng.next() % 2 == 0 {
                    // Client sends len bytes, acking everything it received so far.
                    let len = rng.next() % 70_000;
                    let seq = i.client.wrapping_add(1).wrapping_add(c_sent);
                    let ack = i.card_to_client.wrapping_add(1).wrapping_add(c_rcvd);
                    let (seq2, ack2) = d.c2s(seq, ack);
                    // The server expects the next byte at isn_to_server + 1 + s_rcvd.
                    assert_eq!(seq2, i.card_to_server.wrapping_add(1).wrapping_add(s_rcvd));
                    // The ack covers exactly the server bytes the client got.
                    assert_eq!(ack2.wrapping_sub(i.server.wrapping_add(1)), c_rcvd);
                    assert!(!seq_after(
                        ack2,
                        i.server.wrapping_add(1).wrapping_add(s_sent)
                    ));
                    c_sent = c_sent.wrapping_add(len);
                    s_rcvd = c_sent;
                } else {
                    let len = rng.next() % 70_000;
                    let seq = i.server.wrapping_add(1).wrapping_add(s_sent);
                    let ack = i.card_to_server.wrapping_add(1).wrapping_add(s_rcvd);
                    let (seq2, ack2) = d.s2c(seq, ack);
                    assert_eq!(seq2, i.card_to_client.wrapping_add(1).wrapping_add(c_rcvd));
                    assert_eq!(ack2.wrapping_sub(i.client.wrapping_add(1)), s_rcvd);
                    s_sent = s_sent.wrapping_add(len);
                    c_rcvd = s_sent;
                }
            }
        }
    }

    #[test]
    fn sack_edges_move_with_the_ack_delta() {
        let i = Isns::reusing_client_isn(0xFFFF_0000, 0xFFFF_FFF0, 0x0000_0100);
        let d = SeqDeltas::new(&i);
        // The client SACKs server bytes 1000..2000 (client-half numbers).
        let left = i.card_to_client.wrapping_add(1 + 1000);
        let right = i.card_to_client.wrapping_add(1 + 2000);
        let (_, l2) = d.c2s(0, left);
        let (_, r2) = d.c2s(0, right);
        assert_eq!(l2, i.server.wrapping_add(1 + 1000));
        assert_eq!(r2, i.server.wrapping_add(1 + 2000));
        assert!(seq_before(l2, r2));
    }

    #[test]
    fn timestamps_stay_monotonic_and_echo_back() {
        // The card sent the client TSvals up to 0xFFFF_FFF0; the server's clock is at 5.
        let off = ts_offset(0xFFFF_FFF0, 5);
        let mut last = 0xFFFF_FFF0u32;
        for server_ts in [5u32, 6, 100, 1 << 20] {
            let seen = server_ts.wrapping_add(off); // S→C TSval += off
            assert!(!seq_before(seen, last));
            last = seen;
            // The client echoes it; C→S TSecr -= off gives the server its own value back.
            assert_eq!(seen.wrapping_sub(off), server_ts);
        }
        assert_eq!(ts_offset(10, 10), 0);
    }

    #[test]
    fn seq_comparisons_are_signed() {
        assert!(seq_before(u32::MAX, 0));
        assert!(seq_after(0, u32::MAX));
        assert!(seq_before(1, 2) && !seq_before(2, 2) && !seq_after(2, 2));
        assert!(seq_after(0x8000_0000, 1));
        // More than half the space ahead counts as behind.
        assert!(!seq_after(0x8000_0002, 1) && seq_before(0x8000_0002, 1));
    }

    #[test]
    fn entry_words_match_the_flow_state_layout() {
        let i = Isns::reusing_client_isn(10, 20, 5);
        let e = SpliceEntry::new(&i, &negotiated(true), 1000, 400, 9);
        assert_eq!(e.ts_offset, 600);
        assert_eq!(
            e.flags,
            flags::SACK | flags::TIMESTAMPS | flags::WINDOW_RESCALE
        );
        assert_eq!(e.words(), [0x09FE_0704, 600, 0, 15]);
        let e = SpliceEntry::new(&i, &negotiated(false), 1000, 400, 0);
        assert_eq!(e.ts_offset, 0);
        assert_eq!(e.words()[0], 0x00FE_0504);
    }
}
