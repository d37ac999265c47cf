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

/// State of a flow entry as the data path stores it (`docs/datapath.md`, word 0 bits 7:0).
///
/// The data path forwards only [`FlowState::Spliced`] and [`FlowState::Closing`]; the
/// firmware owns every transition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum FlowState {
    /// The slot is unused (on the free list).
    Free = 0,
    /// The card answered the client's SYN and waits for the final ACK.
    Handshake = 1,
    /// The client connection is established; the card waits for the request.
    Request = 2,
    /// The card opened the server connection and waits for its SYN-ACK.
    Connecting = 3,
    /// Spliced: the data path forwards the flow.
    Spliced = 4,
    /// A FIN or RST was seen; the data path still forwards until the flow is freed.
    Closing = 5,
}

impl FlowState {
    /// The state for a raw state byte, `None` for a value the data path does not define.
    pub const fn from_raw(raw: u8) -> Option<FlowState> {
        match raw {
            0 => Some(FlowState::Free),
            1 => Some(FlowState::Handshake),
            2 => Some(FlowState::Request),
            3 => Some(FlowState::Connecting),
            4 => Some(FlowState::Spliced),
            5 => Some(FlowState::Closing),
            _ => None,
        }
    }

    /// The raw state byte.
    pub const fn raw(self) -> u8 {
        self as u8
    }
}

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
