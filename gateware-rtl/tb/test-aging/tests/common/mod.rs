//! The reference shared by the aging tests: the firmware's own decision on a slot, and
//! random timeout tables.

use rand::rngs::StdRng;
use rand::Rng;
use splicenic_fw_logic::flowmgr::aging::is_expired;
use splicenic_fw_logic::flowmgr::timeouts::STATES;
use splicenic_fw_logic::splicer::{Splicer, DYN_WORDS};
use splicenic_layout::{entry_flags, flow_state, teardown, FlowDyn, FlowStatic};
use splicenic_tb_aging::SlotView;

/// The firmware's decision on `s` under `table`: (class, expired).
pub fn firmware(s: &SlotView, table: &[u32; STATES]) -> (u8, bool) {
    let w0 = FlowStatic::STATE.place32(s.state.into()) | FlowStatic::FLAGS.place32(s.flags.into());
    let mut d = [0u32; DYN_WORDS];
    FlowDyn::TEARDOWN.put(&mut d, s.teardown.into());
    FlowDyn::LAST_SEEN.put(&mut d, s.last_seen.into());
    match Splicer::timeout_class(w0, &d) {
        None => (0, false),
        Some(c) => (c as u8, is_expired(s.now, s.last_seen, table[c as usize])),
    }
}

pub fn random_table(rng: &mut StdRng) -> [u32; STATES] {
    let mut t = [0u32; STATES];
    for v in &mut t {
        *v = match rng.gen_range(0..8) {
            0 => 0,
            1 => i32::MAX as u32,
            2 => rng.gen(),
            _ => rng.gen_range(1..1 << 20),
        };
    }
    t
}

/// A random slot whose age is around a random class's timeout (or random, negative, or near
/// 2^31) at a random `now`.
pub fn random_slot(rng: &mut StdRng, table: &[u32; STATES]) -> SlotView {
    let now: u32 = rng.gen();
    random_entry(rng, table, now)
}

/// A random slot as [`random_slot`], aged against `now`.
pub fn random_entry(rng: &mut StdRng, table: &[u32; STATES], now: u32) -> SlotView {
    let state = match rng.gen_range(0..10) {
        0..=3 => flow_state::SPLICED,
        4..=7 => flow_state::CLOSING,
        8 => rng.gen_range(0..=5),
        _ => rng.gen(),
    };
    let mut flags: u8 = rng.gen();
    if rng.gen_bool(0.5) {
        flags &= !entry_flags::RST;
    }
    let mut td: u8 = rng.gen();
    if rng.gen_bool(0.4) {
        td |= teardown::ACKED_CS | teardown::ACKED_SC;
    }
    // an age around the timeout of a random class (the class itself follows the fields)
    let t = table[rng.gen_range(0..STATES)];
    let age: u32 = match rng.gen_range(0..8) {
        0 => t.wrapping_sub(1),
        1 => t,
        2 => t.wrapping_add(1),
        3 => 0u32.wrapping_sub(rng.gen_range(1..1000)),
        4 => (1u32 << 31)
            .wrapping_add(rng.gen_range(0..3))
            .wrapping_sub(1),
        _ => rng.gen(),
    };
    SlotView {
        slot: rng.gen(),
        state,
        flags,
        teardown: td,
        last_seen: now.wrapping_sub(age),
        now,
    }
}
