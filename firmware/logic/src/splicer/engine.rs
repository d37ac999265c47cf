//! The firmware's side of the hardware ACK validator (docs/engine.md): the free list it
//! keeps filled (DP.FREE_PUSH), the connections the validator hands over (verdict NEW: the
//! cookie checked, the slot taken, the key inserted, the entry written in state HANDSHAKE)
//! and the slots whose hand-over was lost.
//!
//! * **Ownership**: a slot the firmware pushes belongs to the engine until a NEW punt hands
//!   it back with the generation it was pushed with. The firmware keeps its pushes in order
//!   ([`Engine`]); the engine pops in the same order, so a NEW names the oldest push it
//!   matches, and every older push it passes was handed over by a NEW punt that never
//!   arrived (the punt ring was full): those slots are reclaimed (key deleted, entry
//!   cleared) and counted in `TcpStats::engine_lost`.
//! * **Not ours**: a NEW whose {slot, generation} is not among the pushes (the list was
//!   flushed, e.g. by a firmware restart, after the engine took it) has its key deleted and
//!   its entry cleared when the slot is free, and its ACK goes the firmware's own way
//!   (counted in `TcpStats::engine_stale`).
//! * **Bring-up** ([`Splicer::engine_start`], from [`Splicer::syn_start`]): the list is
//!   flushed (its slots, if any, go back to the firmware's free list) and ACK_CTRL enabled
//!   when the card has a validator (DP.FREE_STATUS.DEPTH > 0).

use super::*;

/// Slots the firmware keeps in the engine's free list at most.
pub const ENGINE_SLOTS: usize = 64;
/// Pushes per main-loop pass at most.
const PUSH_STEP: usize = 8;

/// The firmware's record of its pushes, oldest first.
pub(super) struct Engine {
    /// `gen << 16 | slot` per push, a ring from `head`.
    ring: [u32; ENGINE_SLOTS],
    head: usize,
    len: usize,
    /// Generation of the next push or firmware set-up (1..=255).
    gen: u8,
    /// Slots to keep in the list (0: no validator on this card).
    target: usize,
}

impl Engine {
    pub(super) const fn new() -> Self {
        Self {
            ring: [0; ENGINE_SLOTS],
            head: 0,
            len: 0,
            gen: 1,
            target: 0,
        }
    }

    fn at(&self, k: usize) -> u32 {
        self.ring[(self.head + k) % ENGINE_SLOTS]
    }

    /// The next slot generation (1..=255, 0 is a free entry's): of a push, or of a slot the
    /// firmware sets up itself.
    pub(super) fn next_gen(&mut self) -> u8 {
        let gen = self.gen;
        self.gen = if gen == u8::MAX { 1 } else { gen + 1 };
        gen
    }

    fn pop(&mut self) -> Slot {
        let w = self.at(0);
        self.head = (self.head + 1) % ENGINE_SLOTS;
        self.len -= 1;
        w as Slot
    }

    /// Slots in the engine's list as far as the firmware knows (pushed, not handed back).
    pub fn len(&self) -> usize {
        self.len
    }
}

impl Splicer<'_> {
    /// Flush the engine's free list (its slots come back) and enable the validator when
    /// the card has one; turn the card's SYN-ACK absorber on when it has one.
    pub(super) fn engine_start(&mut self, hw: &mut impl Hw) {
        hw.free_flush();
        while self.engine.len > 0 {
            let s = self.engine.pop();
            self.free_slot(s);
        }
        let depth = hw.free_depth();
        self.engine.target = if self.syn.units == 0 {
            0
        } else {
            depth.min(ENGINE_SLOTS)
        };
        hw.ack_ctrl_write(self.engine.target > 0);
        self.absorb_hw = hw.absorb_enable();
    }

    /// Keep the engine's free list filled (from [`Splicer::poll`]), leaving the firmware a
    /// quarter of the slots. Returns true when it pushed.
    pub(super) fn engine_refill(&mut self, hw: &mut impl Hw) -> bool {
        let mut pushed = 0;
        while self.engine.len < self.engine.target
            && pushed < PUSH_STEP
            && self.slots_taken() < self.limit - self.limit / 4
        {
            let Some(slot) = self.alloc_slot() else {
                break;
            };
            let e = &mut self.engine;
            let gen = e.next_gen();
            e.ring[(e.head + e.len) % ENGINE_SLOTS] = u32::from(gen) << 16 | u32::from(slot);
            e.len += 1;
            hw.free_push(slot, gen);
            pushed += 1;
        }
        pushed > 0
    }

    /// `slot` came back from the engine: with `Some(gen)` by a NEW verdict (true when it
    /// is one of the firmware's pushes; the slot is the firmware's now), with `None` by a
    /// segment that found the slot after its NEW punt was lost (true when it is one of the
    /// pushes; the slot is reclaimed too). The older pushes it passes are reclaimed.
    pub(super) fn engine_take(&mut self, hw: &mut impl Hw, slot: Slot, gen: Option<u8>) -> bool {
        let e = &self.engine;
        let Some(k) = (0..e.len).find(|&k| {
            let w = e.at(k);
            w as Slot == slot && gen.is_none_or(|g| (w >> 16) as u8 == g)
        }) else {
            return false;
        };
        for _ in 0..k + usize::from(gen.is_none()) {
            let lost = self.engine.pop();
            self.engine_clear(hw, lost);
            self.free_slot(lost);
            self.stats.tcp.engine_lost += 1;
        }
        if gen.is_some() {
            self.engine.pop();
        }
        true
    }

    /// Deletes the client key the engine inserted for `slot` and clears its entry, when the
    /// entry is still the engine's (state HANDSHAKE).
    fn engine_clear(&mut self, hw: &mut impl Hw, slot: Slot) {
        let mut w = [0u32; STATIC_WORDS];
        hw.state_read(slot, &mut w);
        if entry_state(w[0]) == Some(FlowState::Handshake) {
            hw.flow_delete(&decode_half(&w, CLIENT_HALF).key());
            hw.state_write(slot, &[0; STATIC_WORDS], Some(0));
        }
    }

    /// A connection the validator handed over that the firmware cannot take (no service
    /// any more, every setup entry busy): its key and entry go, the slot is free again.
    pub(super) fn engine_refuse(&mut self, hw: &mut impl Hw, seg: &TcpSeg, slot: Slot) {
        hw.flow_delete(&client_tuple(seg));
        self.engine_clear(hw, slot);
        self.free_slot(slot);
    }

    /// A NEW verdict that is not the firmware's (see the module documentation): the key
    /// the engine inserted (`key`, the ACK's client tuple) goes; the entry it wrote too when
    /// the slot is free (a slot in use keeps its flow's entry).
    pub(super) fn engine_stale(&mut self, hw: &mut impl Hw, slot: Slot, key: &FourTuple) {
        self.stats.tcp.engine_stale += 1;
        hw.flow_delete(key);
        if self.slot_is_free(slot) {
            self.engine_clear(hw, slot);
        }
    }
}
