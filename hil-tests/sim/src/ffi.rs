//! Bindings to csrc/shim.cpp.

use std::ffi::{c_char, c_int, c_long, c_void};

pub const SNIC_OK: c_int = 0;
pub const SNIC_EMPTY: c_long = -2;

extern "C" {
    pub fn snic_sim_has_cpu(cpu: c_int) -> c_int;
    pub fn snic_sim_new(cpu: c_int, trace_path: *const c_char) -> *mut c_void;
    pub fn snic_sim_free(card: *mut c_void);
    pub fn snic_sim_tick(card: *mut c_void, n: u64);
    pub fn snic_sim_cycles(card: *const c_void) -> u64;
    pub fn snic_sim_read32(card: *mut c_void, addr: u32, out: *mut u32) -> c_int;
    pub fn snic_sim_write32(card: *mut c_void, addr: u32, value: u32) -> c_int;
    pub fn snic_sim_read_block(card: *mut c_void, addr: u32, out: *mut u32, n: usize) -> usize;
    pub fn snic_sim_write_block(card: *mut c_void, addr: u32, data: *const u32, n: usize) -> usize;
    pub fn snic_sim_push_frame(
        card: *mut c_void,
        port: c_int,
        data: *const u8,
        len: usize,
    ) -> c_int;
    pub fn snic_sim_tx_len(card: *const c_void, port: c_int) -> c_long;
    pub fn snic_sim_pop_frame(card: *mut c_void, port: c_int, buf: *mut u8, cap: usize) -> c_long;
    pub fn snic_sim_rx_pending(card: *const c_void, port: c_int) -> usize;
}
