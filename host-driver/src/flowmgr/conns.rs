//! Control plane: the connections (FLOW_LIST, FLOW_GET) and their IPVS states.

use super::*;

/// One connection as FLOW_GET reports it (a row of `ipvsadm -Lnc`, with counters).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FlowInfo {
    /// Flow slot.
    pub slot: u16,
    /// The data path's flow state.
    pub flow_state: FlowState,
    /// IPVS-style state name ([`ipvs_state`]).
    pub state: TcpTimeoutState,
    /// The flow entry's flags byte: data-path bits 2:0 (SACK, timestamp, window
    /// translation) and the firmware's bits 7:4 ([`entry_flags`]).
    pub flags: u8,
    /// Real-server index (`None` before a server is chosen).
    pub real_server: Option<u8>,
    /// Virtual-service index (`None` when no service has the flow's address any more).
    pub service: Option<u8>,
    /// The client.
    pub client: SocketAddrV4,
    /// The virtual service address the client connected to.
    pub vip: SocketAddrV4,
    /// The real server (`0.0.0.0:0` before a server is chosen).
    pub server: SocketAddrV4,
    /// The card's address on the server side.
    pub local: SocketAddrV4,
    /// Time until the flow expires under the current timeout of its state, or until the
    /// setup step's deadline of a flow being set up (`None`: the firmware keeps no timer).
    pub expires_in: Option<Duration>,
    /// Time since the last forwarded segment (or since the setup step started).
    pub idle: Duration,
    /// The IPVS state whose timeout applies, or the card's [`TcpTimeoutState::Linger`] once
    /// both FINs were acknowledged (`None` for flows being set up).
    pub timeout_class: Option<TcpTimeoutState>,
    /// Packets client → server.
    pub packets_to_server: u32,
    /// Packets server → client.
    pub packets_to_client: u32,
    /// Bytes client → server (48-bit counter).
    pub bytes_to_server: u64,
    /// Bytes server → client (48-bit counter).
    pub bytes_to_client: u64,
}

/// The IPVS-style state of a flow from its data-path state and flags byte: HANDSHAKE
/// SYN_RECV, REQUEST ESTABLISHED (the client connection is up, the card waits for the
/// request), CONNECTING SYN_SENT, SPLICED ESTABLISHED; CLOSING: CLOSE after a RST,
/// TIME_WAIT after both FINs, CLOSE_WAIT after the server's FIN alone, FIN_WAIT otherwise.
pub fn ipvs_state(state: FlowState, flags: u8) -> TcpTimeoutState {
    let fins = flags & (entry_flags::FIN_CLIENT | entry_flags::FIN_SERVER);
    match state {
        FlowState::Free => TcpTimeoutState::None,
        FlowState::Handshake => TcpTimeoutState::SynRecv,
        FlowState::Request | FlowState::Spliced => TcpTimeoutState::Established,
        FlowState::Connecting => TcpTimeoutState::SynSent,
        FlowState::Closing if flags & entry_flags::RST != 0 => TcpTimeoutState::Close,
        FlowState::Closing if fins == entry_flags::FIN_CLIENT | entry_flags::FIN_SERVER => {
            TcpTimeoutState::TimeWait
        }
        FlowState::Closing if fins == entry_flags::FIN_SERVER => TcpTimeoutState::CloseWait,
        FlowState::Closing => TcpTimeoutState::FinWait,
    }
}

pub(super) fn opt8(w: u32) -> Option<u8> {
    (w & 0xFF != NONE8).then_some(w as u8)
}

impl FlowInfo {
    /// Decodes the 16 FLOW_GET words of `slot`.
    pub fn from_words(slot: u16, w: &[u32]) -> Result<Self, DriverError> {
        const CMD: &str = "FLOW_GET";
        let w = w
            .get(..FLOW_GET_WORDS)
            .ok_or_else(|| short_response(CMD, w))?;
        let flow_state = FlowState::from_raw(w[0] as u8)
            .ok_or_else(|| bad_response(CMD, format!("unknown flow state {}", w[0] & 0xFF)))?;
        let flags = (w[0] >> 8) as u8;
        let addr = |ip: u32, port: u32| SocketAddrV4::new(Ipv4Addr::from(ip), port as u16);
        let ms = |v: u32| Duration::from_millis(v.into());
        Ok(Self {
            slot,
            flow_state,
            state: ipvs_state(flow_state, flags),
            flags,
            real_server: opt8(w[0] >> 16),
            service: opt8(w[0] >> 24),
            client: addr(w[1], w[2] >> 16),
            vip: addr(w[3], w[2] & 0xFFFF),
            server: addr(w[4], w[5] >> 16),
            local: addr(w[6], w[5] & 0xFFFF),
            expires_in: (w[7] != u32::MAX).then(|| ms(w[7])),
            idle: ms(w[8]),
            timeout_class: opt8(w[15]).and_then(|i| TcpTimeoutState::from_index(i.into())),
            packets_to_server: w[9],
            packets_to_client: w[10],
            bytes_to_server: u64::from(w[12] & 0xFFFF) << 32 | u64::from(w[11]),
            bytes_to_client: u64::from(w[14] & 0xFFFF) << 32 | u64::from(w[13]),
        })
    }

    /// The client sent FIN.
    pub fn fin_from_client(&self) -> bool {
        self.flags & entry_flags::FIN_CLIENT != 0
    }

    /// The server sent FIN.
    pub fn fin_from_server(&self) -> bool {
        self.flags & entry_flags::FIN_SERVER != 0
    }

    /// A RST went through.
    pub fn reset(&self) -> bool {
        self.flags & entry_flags::RST != 0
    }

    /// The flow counts as active on its server (IPVS ESTABLISHED).
    pub fn active(&self) -> bool {
        self.flags & entry_flags::ACTIVE != 0
    }
}
