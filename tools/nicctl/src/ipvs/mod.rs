//! LVS-compatible administration of the card: `nicctl ipvsadm ...` accepts ipvsadm's
//! command line and prints what ipvsadm prints, so people who run LVS can run a SpliceNIC
//! card the same way.
//!
//! - [`args`]: ipvsadm's command line (and `-R` input) into an [`args::IpvsCommand`];
//! - [`model`]: a [`model::Snapshot`] of the card's table in IPVS terms;
//! - [`format`]: a snapshot printed as ipvsadm 1.31 prints it (`-L`, `--stats`, `--rate`,
//!   `-c`, `--timeout`, `-S`, and `--json`);
//! - [`memory`]: the commands' semantics on an in-memory table, as a reference;
//! - [`rate`]: IPVS's rate estimator, for `--rate`.

pub mod args;
pub mod format;
pub mod memory;
pub mod model;
pub mod rate;
