//! Hardware-independent part of the SpliceNIC firmware.
//!
//! Everything here is pure logic: it builds for the soft core (`no_std`, no allocation) and is
//! unit-tested on the host. The firmware binary (`firmware/app`) supplies the register access;
//! the host driver imports the mailbox constants from [`mailbox`].

#![cfg_attr(not(test), no_std)]
#![forbid(unsafe_code)]

pub mod flowhash;
pub mod flowmgr;
pub mod logring;
pub mod mailbox;
pub mod sched;
pub mod time;
