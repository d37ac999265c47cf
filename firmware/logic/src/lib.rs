//! Hardware-independent part of the SpliceNIC firmware.
//!
//! Everything here is pure logic: it builds for the soft core (`no_std`, no allocation) and is
//! unit-tested on the host. The firmware binary (`firmware/app`) supplies the register access;
//! the host driver imports the mailbox constants from [`mailbox`].

#![cfg_attr(not(test), no_std)]
#![forbid(unsafe_code)]

/// Log macros: defmt on the soft core (feature `defmt`), nothing on the host.
#[cfg(feature = "defmt")]
macro_rules! fw_log {
    ($level:ident, $($t:tt)*) => { defmt::$level!($($t)*) };
}
#[cfg(not(feature = "defmt"))]
macro_rules! fw_log {
    ($level:ident, $fmt:literal $(, $arg:expr)* $(,)?) => {{
        $( let _ = &$arg; )*
    }};
}

pub mod canon;
pub mod cookie;
pub mod flowhash;
pub mod flowmgr;
pub mod logring;
pub mod mailbox;
pub mod sched;
pub mod splicer;
pub mod time;
