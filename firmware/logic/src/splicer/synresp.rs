//! The firmware side of the hardware SYN responder (DP.SYN_CTRL and the cookie key
//! registers, docs/registers.md; the cookie: docs/cookie.md, model [`crate::cookie`]).
//!
//! With the responder enabled for a virtual service the card answers a client's SYN in the
//! pipeline with a stateless cookie SYN-ACK; the firmware never sees the SYN, only the
//! client's ACK, punted without a flow, which [`Splicer::cookie_accept`] checks against the
//! keys kept here ([`hw_cookie`]).
//!
//! * **Bring-up** ([`Splicer::syn_start`]): a random key into each of the two slots,
//!   SYN_CTRL with epoch 0 and no previous epoch, the offers from the options policy, and
//!   SYN_MSS. A card whose SYN_PARAMS.UNITS reads 0 has no responder (an older bitstream
//!   reads 0 at the unknown offset): the firmware then enables no service on it, never
//!   rotates and checks no ACK against these keys.
//! * **VIP_MASK**: bit `i` is set while virtual-service entry `i` (DP.VIP_ADDR[i]) holds a
//!   service. SYN_CTRL is written whole from the value the firmware keeps
//!   ([`SynResp::ctrl`]), never read back and modified, so a service change and a rotation
//!   never undo each other.
//! * **Rotation** every [`ROTATE_MS`] (60 s): a new random key into the idle slot, then, in a
//!   later register write, SYN_CTRL with the epoch flipped and PREV_VALID set
//!   ([`crate::cookie::CookieKeys::rotate`]). A cookie therefore checks until the second
//!   rotation after it was made: 60 to 120 s (plus the main loop's latency in noticing the
//!   deadline), after which its slot holds another key.

use super::{find_timestamps, ms_to_ticks, tick_after, Hw, Splicer, TcpSeg, MAX_SERVICES};
use crate::cookie::{self, CookieKeys, CookieTuple, MSS_TABLE};
use crate::flowmgr::tcpopts::{OptionsPolicy, SynOptions};

/// Key rotation period in milliseconds: a cookie checks for 60 to 120 s.
pub const ROTATE_MS: u32 = 60_000;

// VIP_MASK has a bit per virtual-service entry.
const _: () = assert!(MAX_SERVICES <= 8);

/// DP.SYN_CTRL as the firmware writes it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SynCtrl {
    /// Virtual-service entries the card answers SYNs for (bit `i`: DP.VIP_ADDR[i]).
    pub vip_mask: u8,
    /// Offer window scaling to clients that offer it.
    pub offer_wscale: bool,
    /// Offer SACK-permitted to clients that offer it.
    pub offer_sack: bool,
    /// Offer timestamps to clients that offer them (without them only the MSS is offered).
    pub offer_ts: bool,
    /// The key slot new cookies are made with (0 or 1).
    pub cur_epoch: u8,
    /// Cookies of the other slot still check.
    pub prev_valid: bool,
}

/// The responder's state in the firmware: its keys (a copy of what the card holds; keys
/// cannot be read back) and the SYN_CTRL value last written.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct SynResp {
    /// SYN_PARAMS.UNITS read at bring-up: 0 when the card has no responder (or before
    /// bring-up).
    pub(super) units: u8,
    /// The two key slots and the current epoch, as written to the card.
    pub(super) keys: CookieKeys,
    /// SYN_CTRL as last written.
    pub(super) ctrl: SynCtrl,
    /// The next key rotation (DP.NOW tick).
    pub(super) rotate_at: u32,
    /// Keys drawn so far (the key derivation's counter).
    drawn: u64,
}

/// Checks a flowless ACK against the hardware cookie (`seq - 1` the client's ISN, `ack - 1`
/// the cookie) and gives the options of the client's SYN as far as the card's SYN-ACK kept
/// them, for [`Handshake::from_client_syn`](crate::flowmgr::tcpopts::Handshake::from_client_syn)
/// to negotiate from, as for a SYN the firmware answered. `opts` is the ACK's options area.
/// `None` when the card has no responder or the cookie does not check.
///
/// The MSS is the class's ([`MSS_TABLE`]). With a timestamps option in the ACK (and
/// timestamps in the policy, so the card offered them) the window scale and SACK-permitted
/// are those the card's TSval carried and the client echoed in its TSecr
/// ([`cookie::ts_decode`]), and the timestamps are the ACK's (TSval: the client's, TSecr:
/// the card's SYN-ACK TSval); without one neither (the card offered the MSS only).
pub(super) fn hw_cookie(
    syn: &SynResp,
    policy: &OptionsPolicy,
    seg: &TcpSeg,
    opts: &[u8],
) -> Option<SynOptions> {
    if syn.units == 0 {
        return None;
    }
    let tuple = CookieTuple {
        client_ip: seg.src_ip,
        vip: seg.dst_ip,
        client_port: seg.src_port,
        vip_port: seg.dst_port,
    };
    let class = cookie::cookie_check(
        &syn.keys,
        &tuple,
        seg.seq.wrapping_sub(1),
        seg.ack.wrapping_sub(1),
    )
    .ok()?;
    Some(hw_options(policy, class, opts))
}

/// The options of the client's SYN as far as the card's cookie SYN-ACK kept them, for an ACK
/// whose cookie checked with MSS class `class` (in the firmware, [`hw_cookie`], or in the
/// ACK validator, `PuntMeta.mss_class`). `opts` is the ACK's options area.
pub(super) fn hw_options(policy: &OptionsPolicy, class: u8, opts: &[u8]) -> SynOptions {
    let ts = find_timestamps(opts).filter(|_| policy.timestamps);
    let carried = ts.map(|t| cookie::ts_decode(t.tsecr)).unwrap_or_default();
    SynOptions {
        mss: Some(MSS_TABLE[usize::from(class) % MSS_TABLE.len()]),
        wscale: carried.wscale,
        sack_permitted: carried.sack_ok,
        timestamps: ts,
        ignored: 0,
    }
}

impl Splicer<'_> {
    /// Bring-up of the hardware SYN responder, once the data path is there (the firmware
    /// calls it at boot, before the host configures services): SYN_CTRL with no service,
    /// epoch 0 and no previous epoch; a fresh random key into both slots; SYN_MSS; then the
    /// services already configured, if any; then the ACK validator and the aging scanner,
    /// when the card has them. Returns SYN_PARAMS.UNITS (0: no responder on this card, which
    /// then answers no SYN in hardware).
    pub fn syn_start(&mut self, hw: &mut impl Hw) -> u8 {
        let units = hw.syn_units();
        let p = self.policy;
        self.syn.units = units;
        self.syn.ctrl = SynCtrl {
            vip_mask: 0,
            offer_wscale: p.wscale,
            offer_sack: p.sack,
            offer_ts: p.timestamps,
            cur_epoch: 0,
            prev_valid: false,
        };
        // No SYN is answered while the keys change (after a firmware restart the card may
        // still answer with the old ones).
        hw.syn_ctrl_write(&self.syn.ctrl);
        let slots = [self.draw_key(hw), self.draw_key(hw)];
        for (slot, &key) in slots.iter().enumerate() {
            hw.cookie_key_write(slot as u8, key);
        }
        self.syn.keys = CookieKeys {
            slots,
            current: 0,
            previous_valid: false,
        };
        hw.syn_mss_write(p.mss);
        self.syn.rotate_at = hw.now().wrapping_add(ms_to_ticks(ROTATE_MS, self.clk_hz));
        self.syn_mask_update(hw);
        self.engine_start(hw);
        self.age_start(hw);
        units
    }

    /// Writes SYN_CTRL with VIP_MASK = the entries holding a service (none without a
    /// responder), when that changes it.
    pub(super) fn syn_mask_update(&mut self, hw: &mut impl Hw) {
        let mask = if self.syn.units == 0 {
            0
        } else {
            self.services
                .iter()
                .enumerate()
                .filter(|(_, s)| s.present)
                .fold(0u8, |m, (i, _)| m | 1 << i)
        };
        if mask != self.syn.ctrl.vip_mask {
            self.syn.ctrl.vip_mask = mask;
            hw.syn_ctrl_write(&self.syn.ctrl);
        }
    }

    /// The periodic key rotation (from [`Splicer::poll`]): at the deadline a new key goes
    /// into the idle slot, then SYN_CTRL flips the epoch and marks the previous one valid.
    /// Returns true when it rotated.
    pub(super) fn syn_rotate_step(&mut self, hw: &mut impl Hw, now: u32) -> bool {
        if self.syn.units == 0 || !tick_after(now, self.syn.rotate_at) {
            return false;
        }
        let key = self.draw_key(hw);
        hw.cookie_key_write(self.syn.keys.current ^ 1, key);
        self.syn.keys.rotate(key);
        self.syn.ctrl.cur_epoch = self.syn.keys.current;
        self.syn.ctrl.prev_valid = true;
        hw.syn_ctrl_write(&self.syn.ctrl);
        // From now, not from the missed deadline: two rotations in a row would refuse the
        // cookies of the epoch that just ended.
        self.syn.rotate_at = now.wrapping_add(ms_to_ticks(ROTATE_MS, self.clk_hz));
        fw_log!(
            debug,
            "SYN cookie keys rotated: epoch {=u8}",
            self.syn.keys.current
        );
        true
    }

    /// A random key `[k0, k1]`: derived from the ISN secret (seeded at boot) and the cycle
    /// counter now.
    fn draw_key(&mut self, hw: &mut impl Hw) -> [u32; 2] {
        let k = self.isn.derive_key(self.syn.drawn, hw.cycles());
        self.syn.drawn += 1;
        // The low and the high half of the 64-bit key.
        [k as u32, (k >> 32) as u32]
    }
}
