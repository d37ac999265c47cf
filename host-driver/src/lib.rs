//! SpliceNIC host driver.
#![deny(clippy::undocumented_unsafe_blocks)]

pub mod bar;
pub use bar::{Bar, BarError};
