//! defmt global logger writing rzcobs frames into the log ring (LOG / LOGBUF).
//!
//! Each frame's bytes (rzcobs encoded and `0x00` terminated by [`defmt::Encoder`]) go to
//! LOGBUF at byte offsets `WPTR + n mod SIZE` with byte-wide writes; `LOG.WPTR` is advanced
//! once, after the last byte of the frame. The writer never waits for the host: old bytes are
//! simply overwritten, and the host notices from `WPTR` that it fell behind.
//!
//! This module is the only user of the LOG and LOGBUF blocks.

use core::cell::UnsafeCell;

use splicenic_fw_logic::logring;
use splicenic_pac::{Log, Logbuf};

use crate::soc::write_reg;

/// Where the open frame's bytes go.
struct RingWriter {
    /// `WPTR` at the start of the frame.
    start: u32,
    /// Bytes written so far in this frame.
    pos: u32,
    /// `SIZE - 1`, or `None` when LOG.SIZE is unusable (the frame is dropped then).
    mask: Option<u32>,
}

struct Frame {
    /// Nesting depth of `acquire` (a log call made while a frame is open, e.g. from a panic
    /// inside the logger, is dropped instead of corrupting the open frame).
    depth: u8,
    restore: critical_section::RestoreState,
    encoder: defmt::Encoder,
    ring: RingWriter,
}

struct LoggerState(UnsafeCell<Frame>);

// SAFETY: the state is only touched between `critical_section::acquire` and `release` (from
// `Logger::acquire` to `Logger::release`), and the firmware runs on one hart without
// interrupts, so there is never more than one live reference to it.
unsafe impl Sync for LoggerState {}

static STATE: LoggerState = LoggerState(UnsafeCell::new(Frame {
    depth: 0,
    restore: critical_section::RestoreState::invalid(),
    encoder: defmt::Encoder::new(),
    ring: RingWriter {
        start: 0,
        pos: 0,
        mask: None,
    },
}));

impl RingWriter {
    fn put(&mut self, bytes: &[u8]) {
        let Some(mask) = self.mask else { return };
        let base = Logbuf::ptr() as *mut u8;
        for &b in bytes {
            let off = logring::byte_offset(self.start, self.pos, mask);
            // SAFETY: `off <= mask < SIZE`, and LOGBUF is SIZE bytes of byte-writable device
            // memory at a fixed address (docs/interfaces.md); nothing else writes it.
            unsafe { base.add(off as usize).write_volatile(b) };
            self.pos = self.pos.wrapping_add(1);
        }
    }
}

#[defmt::global_logger]
struct RingLogger;

// SAFETY: `acquire`/`release` bracket every frame in a critical section and frames never
// interleave (nested frames are dropped), which is what `defmt::Logger` requires.
unsafe impl defmt::Logger for RingLogger {
    fn acquire() {
        // SAFETY: paired with the `release` in `RingLogger::release` (or kept forever when a
        // panic ends the program inside a frame); see `SingleHartNoInterrupts`.
        let restore = unsafe { critical_section::acquire() };
        // SAFETY: inside the critical section; see `LoggerState`.
        let f = unsafe { &mut *STATE.0.get() };
        f.depth = f.depth.saturating_add(1);
        if f.depth > 1 {
            // Nested: the outer section stays held; this inner one ends at once.
            // SAFETY: releases the section acquired just above, innermost first.
            unsafe { critical_section::release(restore) };
            return;
        }
        f.restore = restore;
        // SAFETY: LOG is used by this module only, inside the critical section.
        let log = unsafe { Log::steal() };
        f.ring = RingWriter {
            start: log.wptr().read().bits(),
            pos: 0,
            mask: logring::mask(log.size().read().bits()).ok(),
        };
        let ring = &mut f.ring;
        f.encoder.start_frame(|b| ring.put(b));
    }

    unsafe fn flush() {}

    unsafe fn release() {
        // SAFETY: called by defmt after `acquire`, still inside the critical section.
        let f = unsafe { &mut *STATE.0.get() };
        if f.depth == 0 {
            return;
        }
        f.depth -= 1;
        if f.depth > 0 {
            return;
        }
        let ring = &mut f.ring;
        f.encoder.end_frame(|b| ring.put(b));
        if ring.mask.is_some() {
            // SAFETY: LOG is used by this module only, inside the critical section.
            let log = unsafe { Log::steal() };
            write_reg(log.wptr(), ring.start.wrapping_add(ring.pos));
        }
        let restore = f.restore;
        // SAFETY: ends the critical section begun in `acquire`, with its restore state.
        unsafe { critical_section::release(restore) };
    }

    unsafe fn write(bytes: &[u8]) {
        // SAFETY: called by defmt between `acquire` and `release`, inside the critical section.
        let f = unsafe { &mut *STATE.0.get() };
        if f.depth != 1 {
            return;
        }
        let ring = &mut f.ring;
        f.encoder.write(bytes, |b| ring.put(b));
    }
}
