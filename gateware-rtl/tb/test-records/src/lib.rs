//! Round-trip bench of the shared records: the Verilated module `records_rt` (generated from
//! `registers/records.toml` with the records' Verilog field selects and pack functions) at
//! DATA_WIDTH 64 and 512, behind a safe wrapper (csrc/shim.cpp).

use std::ffi::{c_int, c_void};
use std::ptr::NonNull;

use splicenic_layout::{MAX_RECORD_LEAVES, MAX_RECORD_WORDS};

mod ffi {
    use std::ffi::{c_int, c_void};
    extern "C" {
        pub fn rt_new(width: u32) -> *mut c_void;
        pub fn rt_free(h: *mut c_void, width: u32);
        #[allow(clippy::too_many_arguments)]
        pub fn rt_eval(
            h: *mut c_void,
            width: u32,
            sel: u32,
            rec: *const u32,
            rec_words: usize,
            beat: u32,
            leaves: *mut u32,
            leaf_words: usize,
            beat_out: *mut u32,
            beat_words: usize,
        ) -> c_int;
    }
}

/// What the RTL made of one record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RtlView {
    /// Leaf values unpacked by the Verilog field selects.
    pub leaves: Vec<u64>,
    /// The record packed again by its Verilog pack function, reassembled from DATA_WIDTH beats.
    pub packed: Vec<u32>,
    /// Beats read.
    pub beats: usize,
}

/// The round-trip module at one DATA_WIDTH.
pub struct RoundTrip {
    h: NonNull<c_void>,
    width: u32,
}

impl RoundTrip {
    /// The model at DATA_WIDTH `width` (64 or 512).
    pub fn new(width: u32) -> Option<RoundTrip> {
        // SAFETY: rt_new has no preconditions; it returns null for a width without a model.
        let h = unsafe { ffi::rt_new(width) };
        NonNull::new(h).map(|h| RoundTrip { h, width })
    }

    /// Runs record `sel` (index in `splicenic_layout::RECORDS`) of `bits` bits through the
    /// module: `words` in, the unpacked leaves and every beat of the repacked record out.
    pub fn run(&mut self, sel: usize, bits: usize, words: &[u32]) -> RtlView {
        let mut rec = [0u32; MAX_RECORD_WORDS];
        for (d, s) in rec.iter_mut().zip(words) {
            *d = *s;
        }
        let beat_words = (self.width / 32) as usize;
        let beats = bits.div_ceil(self.width as usize);
        let mut packed = Vec::new();
        let mut leaf_words = vec![0u32; 2 * MAX_RECORD_LEAVES];
        for b in 0..beats {
            let mut beat = vec![0u32; beat_words];
            // SAFETY: `h` came from rt_new for this width and is freed only in drop; every
            // pointer is valid for the length passed with it for the duration of the call.
            let rc: c_int = unsafe {
                ffi::rt_eval(
                    self.h.as_ptr(),
                    self.width,
                    sel as u32,
                    rec.as_ptr(),
                    rec.len(),
                    b as u32,
                    leaf_words.as_mut_ptr(),
                    leaf_words.len(),
                    beat.as_mut_ptr(),
                    beat.len(),
                )
            };
            assert_eq!(rc, 0, "rt_eval refused its arguments");
            packed.extend_from_slice(&beat);
        }
        packed.truncate(bits.div_ceil(32));
        let leaves = leaf_words
            .chunks(2)
            .map(|c| u64::from(c[0]) | u64::from(c[1]) << 32)
            .collect();
        RtlView {
            leaves,
            packed,
            beats,
        }
    }
}

impl Drop for RoundTrip {
    fn drop(&mut self) {
        // SAFETY: `h` came from rt_new with this width and is not used after this.
        unsafe { ffi::rt_free(self.h.as_ptr(), self.width) }
    }
}
