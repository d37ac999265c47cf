//! SYN-cookie style initial sequence numbers for the card's SYN-ACK.
//!
//! The card answers a client's SYN itself; its ISN (`isn_c`) is a keyed hash of the client
//! 4-tuple, the flow slot and a time window, so that
//!
//! * a retransmitted SYN within the same window gets the identical ISN (same inputs),
//! * nobody without the 128-bit secret can predict it (SipHash-2-4, [`crate::sched::siphash24`]),
//! * the client's final ACK is checked against it: `ack - 1` must equal the ISN of the
//!   current or of the previous window ([`IsnGen::verify_ack`]).
//!
//! Layout (see `docs/flowmgr.md`):
//!
//! ```text
//! w     = now >> window_shift                    (now: the 32-bit DP.NOW tick counter)
//! msg   = src_ip | dst_ip | src_port | dst_port | slot | 0u16 | w     (20 bytes, little endian)
//! h     = siphash24(msg, k0, k1)
//! isn_c = ((h ^ (h >> 32)) as u32 & !1) | (w & 1)
//! ```
//!
//! Bit 0 carries the parity of the window, so verification hashes once: the parity picks
//! which of the two accepted windows the ACK must belong to. The other 31 bits are the MAC.
//! The window counter wraps with `now` (`2^(32 - shift)` windows, an even number), so the
//! parity alternates across the wrap as well.

use super::Slot;
use crate::flowhash::FourTuple;
use crate::sched::siphash24;

/// Default window: `2^17` `DP.NOW` ticks, 54.98 s at 156.25 MHz (an ACK is accepted 55 to
/// 110 s after the SYN-ACK, close to the 60 s SYN_RECV timeout).
pub const DEFAULT_WINDOW_SHIFT: u32 = 17;
/// Largest window shift (`now >> 31` still leaves two windows).
pub const MAX_WINDOW_SHIFT: u32 = 31;

/// Errors of the ISN generator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IsnError {
    /// The window shift is above [`MAX_WINDOW_SHIFT`].
    BadWindowShift(u32),
    /// `ack - 1` is not an ISN issued for this flow in the current or previous window.
    Mismatch,
}

/// The ISN generator: the secret and the window length.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IsnGen {
    k0: u64,
    k1: u64,
    window_shift: u32,
}

impl IsnGen {
    /// A generator with the secret `(k0, k1)` and the default window
    /// ([`DEFAULT_WINDOW_SHIFT`]). The firmware draws the secret at boot from an entropy
    /// source (for example the low bits of free-running counters sampled at events).
    pub const fn new(k0: u64, k1: u64) -> Self {
        Self {
            k0,
            k1,
            window_shift: DEFAULT_WINDOW_SHIFT,
        }
    }

    /// The same generator with windows of `2^shift` ticks.
    pub const fn with_window_shift(self, shift: u32) -> Result<Self, IsnError> {
        if shift > MAX_WINDOW_SHIFT {
            return Err(IsnError::BadWindowShift(shift));
        }
        Ok(Self {
            window_shift: shift,
            ..self
        })
    }

    /// Replaces the secret. ISNs issued under the old secret no longer verify.
    pub fn rekey(&mut self, k0: u64, k1: u64) {
        self.k0 = k0;
        self.k1 = k1;
    }

    /// A 64-bit key derived from the secret: SipHash-2-4 of `counter` and `salt` (16 bytes,
    /// little endian; ISN messages are 20 bytes, so no derived key is an ISN's hash). The
    /// firmware draws the hardware SYN-cookie keys with it, `counter` counting the keys drawn
    /// and `salt` the cycle counter at the time (which main-loop timing makes unpredictable):
    /// without the secret the keys cannot be predicted, and no two draws repeat.
    pub fn derive_key(&self, counter: u64, salt: u64) -> u64 {
        let mut msg = [0u8; 16];
        msg[..8].copy_from_slice(&counter.to_le_bytes());
        msg[8..].copy_from_slice(&salt.to_le_bytes());
        siphash24(&msg, self.k0, self.k1)
    }

    /// The window shift in use.
    pub const fn window_shift(&self) -> u32 {
        self.window_shift
    }

    /// The time window of tick `now`.
    pub const fn window(&self, now: u32) -> u32 {
        now >> self.window_shift
    }

    /// The card's SYN-ACK ISN for the client 4-tuple `tuple` (source = client, destination =
    /// virtual service) on flow slot `slot` at tick `now`.
    pub fn isn(&self, tuple: &FourTuple, slot: Slot, now: u32) -> u32 {
        self.isn_in_window(tuple, slot, self.window(now))
    }

    /// Checks the client's handshake-completing ACK number (the final ACK, or the first data
    /// segment when that ACK was lost) at tick `now`. Returns the ISN it acknowledges.
    pub fn verify_ack(
        &self,
        tuple: &FourTuple,
        slot: Slot,
        ack: u32,
        now: u32,
    ) -> Result<u32, IsnError> {
        let isn = ack.wrapping_sub(1);
        let cur = self.window(now);
        // The previous window, modulo the window counter's range.
        let prev = cur.wrapping_sub(1) & (u32::MAX >> self.window_shift);
        let w = if isn & 1 == cur & 1 { cur } else { prev };
        if self.isn_in_window(tuple, slot, w) == isn {
            Ok(isn)
        } else {
            Err(IsnError::Mismatch)
        }
    }

    fn isn_in_window(&self, tuple: &FourTuple, slot: Slot, window: u32) -> u32 {
        let mut msg = [0u8; 20];
        msg[0..4].copy_from_slice(&tuple.src_ip.to_le_bytes());
        msg[4..8].copy_from_slice(&tuple.dst_ip.to_le_bytes());
        msg[8..10].copy_from_slice(&tuple.src_port.to_le_bytes());
        msg[10..12].copy_from_slice(&tuple.dst_port.to_le_bytes());
        msg[12..14].copy_from_slice(&slot.to_le_bytes());
        msg[16..20].copy_from_slice(&window.to_le_bytes());
        let h = siphash24(&msg, self.k0, self.k1);
        // Folding keeps every output bit dependent on the whole hash; truncation is intended.
        let mac = (h ^ (h >> 32)) as u32;
        (mac & !1) | (window & 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TUPLE: FourTuple = FourTuple {
        src_ip: 0xC0A8_0A02,
        dst_ip: 0x0A00_0001,
        src_port: 40_000,
        dst_port: 80,
    };
    const GEN: IsnGen = IsnGen::new(0x0706_0504_0302_0100, 0x0f0e_0d0c_0b0a_0908);

    #[test]
    fn isn_is_the_documented_siphash_layout() {
        let now: u32 = 0x0123_4567;
        let w = now >> DEFAULT_WINDOW_SHIFT;
        let mut msg = Vec::new();
        msg.extend_from_slice(&TUPLE.src_ip.to_le_bytes());
        msg.extend_from_slice(&TUPLE.dst_ip.to_le_bytes());
        msg.extend_from_slice(&TUPLE.src_port.to_le_bytes());
        msg.extend_from_slice(&TUPLE.dst_port.to_le_bytes());
        msg.extend_from_slice(&7u16.to_le_bytes());
        msg.extend_from_slice(&[0, 0]);
        msg.extend_from_slice(&w.to_le_bytes());
        let h = siphash24(&msg, 0x0706_0504_0302_0100, 0x0f0e_0d0c_0b0a_0908);
        let want = ((h ^ (h >> 32)) as u32 & !1) | (w & 1);
        assert_eq!(GEN.isn(&TUPLE, 7, now), want);
    }

    #[test]
    fn derived_keys_are_the_documented_siphash_and_differ_per_draw() {
        let mut msg = Vec::new();
        msg.extend_from_slice(&5u64.to_le_bytes());
        msg.extend_from_slice(&0x1122_3344_5566_7788u64.to_le_bytes());
        let want = siphash24(&msg, 0x0706_0504_0302_0100, 0x0f0e_0d0c_0b0a_0908);
        assert_eq!(GEN.derive_key(5, 0x1122_3344_5566_7788), want);
        // Another counter, another salt or another secret: another key.
        let k = GEN.derive_key(5, 9);
        assert_ne!(GEN.derive_key(6, 9), k);
        assert_ne!(GEN.derive_key(5, 10), k);
        assert_ne!(IsnGen::new(1, 2).derive_key(5, 9), k);
    }

    #[test]
    fn retransmitted_syn_in_the_same_window_gets_the_same_isn() {
        let t0 = 5 << DEFAULT_WINDOW_SHIFT;
        let isn = GEN.isn(&TUPLE, 3, t0);
        // Linux retransmits the SYN after 1, 3, 7 ... s: ~2400, 7200, 16700 ticks.
        for dt in [0, 2_400, 7_200, 16_700, (1 << DEFAULT_WINDOW_SHIFT) - 1] {
            assert_eq!(GEN.isn(&TUPLE, 3, t0 + dt), isn);
        }
        assert_ne!(GEN.isn(&TUPLE, 3, t0 + (1 << DEFAULT_WINDOW_SHIFT)), isn);
    }

    #[test]
    fn every_input_and_the_secret_change_the_isn() {
        let base = GEN.isn(&TUPLE, 3, 1000);
        let mut t = TUPLE;
        t.src_port += 1;
        assert_ne!(GEN.isn(&t, 3, 1000), base);
        let mut t = TUPLE;
        t.src_ip ^= 1;
        assert_ne!(GEN.isn(&t, 3, 1000), base);
        let mut t = TUPLE;
        t.dst_port = 8080;
        assert_ne!(GEN.isn(&t, 3, 1000), base);
        assert_ne!(GEN.isn(&TUPLE, 4, 1000), base);
        let other = IsnGen::new(1, 2);
        assert_ne!(other.isn(&TUPLE, 3, 1000), base);
        let mut rekeyed = GEN;
        rekeyed.rekey(1, 2);
        assert_eq!(rekeyed.isn(&TUPLE, 3, 1000), other.isn(&TUPLE, 3, 1000));
    }

    #[test]
    fn final_ack_verifies_in_the_current_and_previous_window_only() {
        let win = 1u32 << DEFAULT_WINDOW_SHIFT;
        let t0 = 9 * win + 123;
        let isn = GEN.isn(&TUPLE, 11, t0);
        let ack = isn.wrapping_add(1);
        assert_eq!(GEN.verify_ack(&TUPLE, 11, ack, t0), Ok(isn));
        assert_eq!(GEN.verify_ack(&TUPLE, 11, ack, t0 + win), Ok(isn));
        assert_eq!(GEN.verify_ack(&TUPLE, 11, ack, 11 * win - 1), Ok(isn));
        assert_eq!(
            GEN.verify_ack(&TUPLE, 11, ack, 11 * win),
            Err(IsnError::Mismatch)
        );
        // An ACK from before the SYN-ACK's window does not verify either.
        assert_eq!(
            GEN.verify_ack(&TUPLE, 11, ack, t0 - win),
            Err(IsnError::Mismatch)
        );
        // Wrong number, slot or tuple.
        assert_eq!(GEN.verify_ack(&TUPLE, 11, isn, t0), Err(IsnError::Mismatch));
        assert_eq!(
            GEN.verify_ack(&TUPLE, 11, ack.wrapping_add(2), t0),
            Err(IsnError::Mismatch)
        );
        assert_eq!(GEN.verify_ack(&TUPLE, 12, ack, t0), Err(IsnError::Mismatch));
        let mut t = TUPLE;
        t.src_port ^= 0x100;
        assert_eq!(GEN.verify_ack(&t, 11, ack, t0), Err(IsnError::Mismatch));
    }

    #[test]
    fn verification_works_across_the_tick_counter_wrap() {
        let win = 1u32 << DEFAULT_WINDOW_SHIFT;
        let t0 = u32::MAX - 10; // last window before the wrap
        let isn = GEN.isn(&TUPLE, 0, t0);
        assert_eq!(isn & 1, GEN.window(t0) & 1);
        let t1 = t0.wrapping_add(20); // window 0 after the wrap
        assert_eq!(GEN.window(t1), 0);
        assert_eq!(GEN.verify_ack(&TUPLE, 0, isn.wrapping_add(1), t1), Ok(isn));
        assert_eq!(
            GEN.verify_ack(&TUPLE, 0, isn.wrapping_add(1), t1.wrapping_add(win)),
            Err(IsnError::Mismatch)
        );
        // An ISN whose ack wraps: isn = u32::MAX gives ack 0.
        let g = GEN.with_window_shift(0).unwrap();
        let mut found = false;
        for now in 0..200_000u32 {
            if g.isn(&TUPLE, 0, now) >> 16 == 0xFFFF {
                let isn = g.isn(&TUPLE, 0, now);
                assert_eq!(
                    g.verify_ack(&TUPLE, 0, isn.wrapping_add(1), now + 1),
                    Ok(isn)
                );
                found = true;
                break;
            }
        }
        assert!(found);
    }

    #[test]
    fn window_shift_is_validated_and_applied() {
        assert_eq!(GEN.with_window_shift(32), Err(IsnError::BadWindowShift(32)));
        let g = GEN.with_window_shift(31).unwrap();
        assert_eq!(g.window_shift(), 31);
        assert_eq!(g.window(u32::MAX), 1);
        let isn = g.isn(&TUPLE, 1, u32::MAX);
        // Window 1 -> previous 0 -> previous 1 (two windows in the whole range).
        assert_eq!(g.verify_ack(&TUPLE, 1, isn.wrapping_add(1), 5), Ok(isn));
    }

    #[test]
    fn isns_look_uniform_over_many_flows() {
        // Each output bit is set for roughly half of 4096 client ports (except bit 0, the
        // window parity), and no two ports collide on all 32 bits more than chance allows.
        let mut ones = [0u32; 32];
        let mut seen = std::collections::HashSet::new();
        for port in 0..4096u16 {
            let mut t = TUPLE;
            t.src_port = port;
            let isn = GEN.isn(&t, 0, 0);
            seen.insert(isn);
            for (b, n) in ones.iter_mut().enumerate() {
                *n += isn >> b & 1;
            }
        }
        assert_eq!(ones[0], 0);
        for &n in &ones[1..] {
            assert!((1800..2300).contains(&n), "bit count {n}");
        }
        assert!(seen.len() >= 4094);
    }
}
