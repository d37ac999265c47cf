//! Per-state connection timeouts with the IPVS defaults, in `DP.NOW` ticks.
//!
//! The table is the kernel's `tcp_timeouts[]` (`LVS_REFERENCE.md`), followed by one class of
//! the card's own, [`TcpState::Linger`] (2 s by default): a flow whose two FINs were both
//! acknowledged by the other side is freed that long after its last forwarded segment
//! instead of waiting out FIN_WAIT or TIME_WAIT (the endpoints keep their own TIME_WAIT;
//! the linger only covers late retransmits; `docs/flowmgr.md`, "Timeouts"). Values are kept
//! both in seconds (for reporting, as `ipvsadm --timeout` prints them) and in `DP.NOW` ticks
//! of `2^16` clock cycles (for the aging scan). Seconds convert to ticks rounding up, so a
//! flow never expires early.
//!
//! Setting a timeout: [`Timeouts::set`] rejects 0 (a zero timeout would free every flow in
//! that state at the next scan) and anything longer than [`Timeouts::max_secs`] (half the
//! tick counter's range, so the wrapping age comparison stays unambiguous: 10.4 days at
//! 156.25 MHz). [`Timeouts::set_tcp_tcpfin`] follows `ipvsadm --set tcp tcpfin udp`, where 0
//! means "unchanged".

use super::FlowState;

/// Clock cycles per `DP.NOW` tick, as a shift (`DP.NOW = cycles >> 16`).
pub const TICK_SHIFT: u32 = 16;
/// Largest timeout in ticks: half the range of the 32-bit tick counter.
pub const MAX_TIMEOUT_TICKS: u32 = i32::MAX as u32;
/// IPVS UDP timeout in seconds (reported by `--timeout`; the splicer carries TCP only).
pub const DEFAULT_UDP_SECS: u32 = 300;

/// IPVS TCP connection state (the index into the timeout table, in the kernel's order),
/// then the card's own [`TcpState::Linger`] class.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum TcpState {
    /// NONE: no state yet.
    None = 0,
    /// ESTABLISHED.
    Established = 1,
    /// SYN_SENT.
    SynSent = 2,
    /// SYN_RECV.
    SynRecv = 3,
    /// FIN_WAIT.
    FinWait = 4,
    /// TIME_WAIT.
    TimeWait = 5,
    /// CLOSE (after a RST).
    Close = 6,
    /// CLOSE_WAIT.
    CloseWait = 7,
    /// LAST_ACK.
    LastAck = 8,
    /// LISTEN.
    Listen = 9,
    /// SYNACK.
    Synack = 10,
    /// LINGER: not an IPVS state but the card's own class, a flow whose both FINs the other
    /// side acknowledged (`FlowDyn.teardown` has `ACKED_CS` and `ACKED_SC`) and that no RST
    /// ended. Its timeout counts from the last forwarded segment (the final ACK).
    Linger = 11,
}

/// Number of [`TcpState`]s (the 11 IPVS states and [`TcpState::Linger`]).
pub const STATES: usize = splicenic_layout::TIMEOUT_CLASSES as usize;

// The classes are the gateware's (`TimeoutClass` in registers/records.toml, aging_check).
const _: () = {
    use splicenic_layout::timeout_class as c;
    assert!(
        TcpState::None as u8 == c::NONE
            && TcpState::Established as u8 == c::ESTABLISHED
            && TcpState::SynSent as u8 == c::SYN_SENT
            && TcpState::SynRecv as u8 == c::SYN_RECV
            && TcpState::FinWait as u8 == c::FIN_WAIT
            && TcpState::TimeWait as u8 == c::TIME_WAIT
            && TcpState::Close as u8 == c::CLOSE
            && TcpState::CloseWait as u8 == c::CLOSE_WAIT
            && TcpState::LastAck as u8 == c::LAST_ACK
            && TcpState::Listen as u8 == c::LISTEN
            && TcpState::Synack as u8 == c::SYNACK
            && TcpState::Linger as u8 == c::LINGER
            && STATES == c::LINGER as usize + 1
    );
};

/// Default timeouts in seconds, indexed by [`TcpState`]: the IPVS table, then LINGER's 2 s.
pub const DEFAULT_SECS: [u32; STATES] = [2, 900, 120, 60, 120, 120, 10, 60, 30, 120, 120, 2];

impl TcpState {
    /// Every state, in table order.
    pub const ALL: [TcpState; STATES] = [
        TcpState::None,
        TcpState::Established,
        TcpState::SynSent,
        TcpState::SynRecv,
        TcpState::FinWait,
        TcpState::TimeWait,
        TcpState::Close,
        TcpState::CloseWait,
        TcpState::LastAck,
        TcpState::Listen,
        TcpState::Synack,
        TcpState::Linger,
    ];

    /// The IPVS name (as `ipvsadm -c` prints it); `LINGER` for the card's own class.
    pub const fn name(self) -> &'static str {
        match self {
            TcpState::None => "NONE",
            TcpState::Established => "ESTABLISHED",
            TcpState::SynSent => "SYN_SENT",
            TcpState::SynRecv => "SYN_RECV",
            TcpState::FinWait => "FIN_WAIT",
            TcpState::TimeWait => "TIME_WAIT",
            TcpState::Close => "CLOSE",
            TcpState::CloseWait => "CLOSE_WAIT",
            TcpState::LastAck => "LAST_ACK",
            TcpState::Listen => "LISTEN",
            TcpState::Synack => "SYNACK",
            TcpState::Linger => "LINGER",
        }
    }

    /// The state for a table index.
    pub const fn from_index(i: usize) -> Option<TcpState> {
        if i < STATES {
            Some(Self::ALL[i])
        } else {
            None
        }
    }

    /// The table index.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The default timeout class of a data-path flow state, for a firmware that keeps no
    /// finer state: HANDSHAKE is SYN_RECV, REQUEST and SPLICED are ESTABLISHED (the client
    /// has completed its handshake, as IPVS counts it), CONNECTING is SYN_SENT, CLOSING is
    /// FIN_WAIT. A FREE slot never expires (`None`). [`TcpState::Linger`] needs the flow's
    /// teardown flags, which this mapping does not see (the splicer's aging adds it).
    pub const fn for_flow(state: FlowState) -> Option<TcpState> {
        match state {
            FlowState::Free => None,
            FlowState::Handshake => Some(TcpState::SynRecv),
            FlowState::Request | FlowState::Spliced => Some(TcpState::Established),
            FlowState::Connecting => Some(TcpState::SynSent),
            FlowState::Closing => Some(TcpState::FinWait),
        }
    }
}

/// Errors of the timeout table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeoutError {
    /// A timeout of 0 seconds.
    Zero,
    /// The timeout is above the largest representable one (the value is that maximum, in s).
    TooLong {
        /// Largest accepted timeout in seconds at this clock.
        max_secs: u32,
    },
    /// A clock of 0 Hz, or one so fast that the default table does not fit the tick range.
    BadClock,
}

/// Seconds to `DP.NOW` ticks at `clk_hz`, rounded up; at most [`MAX_TIMEOUT_TICKS`].
pub fn secs_to_ticks(secs: u32, clk_hz: u32) -> Result<u32, TimeoutError> {
    if clk_hz == 0 {
        return Err(TimeoutError::BadClock);
    }
    if secs == 0 {
        return Err(TimeoutError::Zero);
    }
    let cycles = u64::from(secs) * u64::from(clk_hz);
    let ticks = cycles.div_ceil(1 << TICK_SHIFT);
    if ticks > u64::from(MAX_TIMEOUT_TICKS) {
        return Err(TimeoutError::TooLong {
            max_secs: max_secs(clk_hz),
        });
    }
    // Checked just above.
    Ok(ticks as u32)
}

/// `DP.NOW` ticks to whole seconds at `clk_hz` (rounded down; a 0 Hz clock counts as 1 Hz).
pub fn ticks_to_secs(ticks: u32, clk_hz: u32) -> u32 {
    let secs = (u64::from(ticks) << TICK_SHIFT) / u64::from(clk_hz.max(1));
    secs.min(u64::from(u32::MAX)) as u32
}

/// Largest timeout in seconds whose tick count is at most [`MAX_TIMEOUT_TICKS`].
pub fn max_secs(clk_hz: u32) -> u32 {
    ticks_to_secs(MAX_TIMEOUT_TICKS, clk_hz)
}

/// The timeout table of the firmware.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timeouts {
    clk_hz: u32,
    secs: [u32; STATES],
    ticks: [u32; STATES],
}

impl Timeouts {
    /// The IPVS defaults at a clock of `clk_hz` (`ID.CLK_HZ`, e.g. 156 250 000).
    pub fn new(clk_hz: u32) -> Result<Self, TimeoutError> {
        let mut ticks = [0; STATES];
        for (t, &s) in ticks.iter_mut().zip(DEFAULT_SECS.iter()) {
            *t = secs_to_ticks(s, clk_hz).map_err(|_| TimeoutError::BadClock)?;
        }
        Ok(Self {
            clk_hz,
            secs: DEFAULT_SECS,
            ticks,
        })
    }

    /// The clock the ticks are computed for.
    pub const fn clk_hz(&self) -> u32 {
        self.clk_hz
    }

    /// Largest timeout [`Timeouts::set`] accepts, in seconds.
    pub fn max_secs(&self) -> u32 {
        max_secs(self.clk_hz)
    }

    /// Timeout of `state` in seconds.
    pub const fn secs(&self, state: TcpState) -> u32 {
        self.secs[state as usize]
    }

    /// Timeout of `state` in `DP.NOW` ticks.
    pub const fn ticks(&self, state: TcpState) -> u32 {
        self.ticks[state as usize]
    }

    /// Sets the timeout of `state` (0 and too long values are rejected; nothing changes then).
    pub fn set(&mut self, state: TcpState, secs: u32) -> Result<(), TimeoutError> {
        let ticks = secs_to_ticks(secs, self.clk_hz)?;
        self.secs[state as usize] = secs;
        self.ticks[state as usize] = ticks;
        Ok(())
    }

    /// Sets the timeout of `state` in milliseconds (for test rigs, where a simulated second
    /// is long): the tick count is rounded up, the seconds shown are rounded up. 0 and too
    /// long values are rejected; nothing changes then.
    pub fn set_ms(&mut self, state: TcpState, ms: u32) -> Result<(), TimeoutError> {
        if ms == 0 {
            return Err(TimeoutError::Zero);
        }
        let ticks = (u64::from(ms) * u64::from(self.clk_hz)).div_ceil(1000 << TICK_SHIFT);
        if ticks > u64::from(MAX_TIMEOUT_TICKS) {
            return Err(TimeoutError::TooLong {
                max_secs: max_secs(self.clk_hz),
            });
        }
        self.secs[state as usize] = ms.div_ceil(1000);
        // Checked just above.
        self.ticks[state as usize] = ticks as u32;
        Ok(())
    }

    /// Restores the IPVS default of `state`.
    pub fn reset(&mut self, state: TcpState) {
        let i = state as usize;
        self.secs[i] = DEFAULT_SECS[i];
        // Valid: `new` checked every default at this clock.
        self.ticks[i] = secs_to_ticks(DEFAULT_SECS[i], self.clk_hz).unwrap_or(MAX_TIMEOUT_TICKS);
    }

    /// `ipvsadm --set tcp tcpfin`: ESTABLISHED and FIN_WAIT, 0 = unchanged. Both values are
    /// checked before either is applied.
    pub fn set_tcp_tcpfin(&mut self, tcp: u32, tcpfin: u32) -> Result<(), TimeoutError> {
        for v in [tcp, tcpfin] {
            if v != 0 {
                secs_to_ticks(v, self.clk_hz)?;
            }
        }
        if tcp != 0 {
            self.set(TcpState::Established, tcp)?;
        }
        if tcpfin != 0 {
            self.set(TcpState::FinWait, tcpfin)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn millisecond_timeouts_round_up_and_are_checked() {
        let mut t = Timeouts::new(splicenic_layout::CLK_HZ).unwrap();
        t.set_ms(TcpState::Close, 5).unwrap();
        // 5 ms = 781 250 cycles = 11.92 ticks -> 12.
        assert_eq!(t.ticks(TcpState::Close), 12);
        assert_eq!(t.secs(TcpState::Close), 1);
        assert_eq!(t.set_ms(TcpState::Close, 0), Err(TimeoutError::Zero));
        assert!(t.set_ms(TcpState::Close, u32::MAX).is_err());
        assert_eq!(t.ticks(TcpState::Close), 12);
    }

    const CLK: u32 = splicenic_layout::CLK_HZ;

    #[test]
    fn default_table_is_the_ipvs_table() {
        let t = Timeouts::new(CLK).unwrap();
        let want = [
            ("NONE", 2),
            ("ESTABLISHED", 900),
            ("SYN_SENT", 120),
            ("SYN_RECV", 60),
            ("FIN_WAIT", 120),
            ("TIME_WAIT", 120),
            ("CLOSE", 10),
            ("CLOSE_WAIT", 60),
            ("LAST_ACK", 30),
            ("LISTEN", 120),
            ("SYNACK", 120),
            ("LINGER", 2),
        ];
        for (i, (name, secs)) in want.into_iter().enumerate() {
            let s = TcpState::from_index(i).unwrap();
            assert_eq!(s.index(), i);
            assert_eq!((s.name(), t.secs(s)), (name, secs));
        }
        assert_eq!(STATES, 12);
        assert_eq!(TcpState::from_index(STATES), None);
        assert_eq!(TcpState::from_index(11), Some(TcpState::Linger));
        assert_eq!(DEFAULT_UDP_SECS, 300);
    }

    #[test]
    fn seconds_convert_to_ticks_rounding_up() {
        // 900 s * 156.25e6 / 65536 = 2_145_767.21...
        assert_eq!(secs_to_ticks(900, CLK), Ok(2_145_768));
        assert_eq!(secs_to_ticks(1, CLK), Ok(2385)); // 2384.18...
        assert_eq!(secs_to_ticks(1, 65_536), Ok(1));
        assert_eq!(secs_to_ticks(3, 65_536 * 2), Ok(6));
        assert_eq!(secs_to_ticks(1, 1), Ok(1));
        assert_eq!(secs_to_ticks(0, CLK), Err(TimeoutError::Zero));
        assert_eq!(secs_to_ticks(10, 0), Err(TimeoutError::BadClock));
        let t = Timeouts::new(CLK).unwrap();
        assert_eq!(t.ticks(TcpState::Established), 2_145_768);
        assert!(ticks_to_secs(t.ticks(TcpState::Established), CLK) >= 900);
        assert_eq!(ticks_to_secs(2_145_768, CLK), 900);
        assert_eq!(ticks_to_secs(2384, CLK), 0);
        assert_eq!(ticks_to_secs(u32::MAX, 1), u32::MAX);
    }

    #[test]
    fn longest_timeout_is_half_the_tick_range() {
        let max = max_secs(CLK);
        // 2^31 ticks * 2^16 / 156.25e6 = 900 719.9 s
        assert_eq!(max, 900_719);
        assert!(secs_to_ticks(max, CLK).unwrap() <= MAX_TIMEOUT_TICKS);
        assert_eq!(
            secs_to_ticks(max + 1, CLK),
            Err(TimeoutError::TooLong { max_secs: max })
        );
        assert_eq!(
            secs_to_ticks(u32::MAX, u32::MAX),
            Err(TimeoutError::TooLong {
                max_secs: max_secs(u32::MAX)
            })
        );
    }

    #[test]
    fn set_validates_and_leaves_the_table_unchanged_on_error() {
        let mut t = Timeouts::new(CLK).unwrap();
        t.set(TcpState::SynRecv, 5).unwrap();
        assert_eq!(t.secs(TcpState::SynRecv), 5);
        assert_eq!(t.ticks(TcpState::SynRecv), secs_to_ticks(5, CLK).unwrap());
        let before = t;
        assert_eq!(t.set(TcpState::SynRecv, 0), Err(TimeoutError::Zero));
        assert!(matches!(
            t.set(TcpState::Established, 2_000_000),
            Err(TimeoutError::TooLong { .. })
        ));
        assert_eq!(t, before);
        t.reset(TcpState::SynRecv);
        assert_eq!(t, Timeouts::new(CLK).unwrap());
        // The card's own LINGER class is set like any other.
        t.set(TcpState::Linger, 5).unwrap();
        assert_eq!(t.ticks(TcpState::Linger), secs_to_ticks(5, CLK).unwrap());
        t.reset(TcpState::Linger);
        assert_eq!(t.secs(TcpState::Linger), 2);
    }

    #[test]
    fn ipvsadm_set_treats_zero_as_unchanged_and_is_atomic() {
        let mut t = Timeouts::new(CLK).unwrap();
        t.set_tcp_tcpfin(3600, 0).unwrap();
        assert_eq!(t.secs(TcpState::Established), 3600);
        assert_eq!(t.secs(TcpState::FinWait), 120);
        t.set_tcp_tcpfin(0, 30).unwrap();
        assert_eq!(
            (t.secs(TcpState::Established), t.secs(TcpState::FinWait)),
            (3600, 30)
        );
        let before = t;
        assert!(t.set_tcp_tcpfin(100, 5_000_000).is_err());
        assert_eq!(t, before);
        t.set_tcp_tcpfin(0, 0).unwrap();
        assert_eq!(t, before);
    }

    #[test]
    fn clock_is_validated() {
        assert_eq!(Timeouts::new(0), Err(TimeoutError::BadClock));
        // 900 s must fit 2^31 ticks: clocks above ~156 GHz do not.
        assert_eq!(Timeouts::new(u32::MAX).map(|t| t.clk_hz()), Ok(u32::MAX));
        assert_eq!(Timeouts::new(1).unwrap().ticks(TcpState::Established), 1);
    }

    #[test]
    fn flow_states_map_to_timeout_classes() {
        assert_eq!(TcpState::for_flow(FlowState::Free), None);
        assert_eq!(
            TcpState::for_flow(FlowState::Handshake),
            Some(TcpState::SynRecv)
        );
        assert_eq!(
            TcpState::for_flow(FlowState::Request),
            Some(TcpState::Established)
        );
        assert_eq!(
            TcpState::for_flow(FlowState::Connecting),
            Some(TcpState::SynSent)
        );
        assert_eq!(
            TcpState::for_flow(FlowState::Spliced),
            Some(TcpState::Established)
        );
        assert_eq!(
            TcpState::for_flow(FlowState::Closing),
            Some(TcpState::FinWait)
        );
    }
}
