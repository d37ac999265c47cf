//! Pure-logic core of the flow manager (`docs/flowmgr.md`).
//!
//! The firmware's connection-setup path is built from these pieces; none of them touches a
//! register, so all of them are unit-tested on the host:
//!
//! * [`freelist`]: the free list of flow slots (FIFO ring: a freed slot is reused last).
//! * [`isn`]: SYN-cookie style initial sequence numbers of the card's SYN-ACK and their check.
//! * [`timeouts`]: the per-state timeouts (IPVS defaults) in `DP.NOW` ticks.
//! * [`aging`]: the resumable aging scan that finds idle flows.
//! * [`tcpopts`]: the TCP options policy of the two halves (MSS, window scale, SACK,
//!   timestamps).
//! * [`splice`]: the sequence deltas and timestamp offset of the flow entry.

pub mod aging;
pub mod freelist;
pub mod isn;
pub mod splice;
pub mod tcpopts;
pub mod timeouts;

/// A flow slot number: the index of the flow entry in the data path's flow state memory
/// (punt records and events carry it in 16 bits).
pub type Slot = u16;

/// State of a flow entry as the data path stores it (`FlowStatic.state`, word 0 bits 7:0),
/// declared in `registers/records.toml`.
///
/// The data path forwards only [`FlowState::Spliced`] and [`FlowState::Closing`]; the
/// firmware owns every transition.
pub use splicenic_layout::FlowState;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flow_state_round_trips_and_rejects_undefined_values() {
        for raw in 0..=5u8 {
            assert_eq!(FlowState::from_raw(raw).map(FlowState::raw), Some(raw));
        }
        assert_eq!(FlowState::from_raw(6), None);
        assert_eq!(FlowState::from_raw(0xFF), None);
        assert_eq!(FlowState::Spliced.raw(), 4);
    }
}
