//! Flow-manager configuration and statistics through the mailbox (docs/interfaces.md,
//! "Flow manager commands").
//!
//! Virtual services, pools (one scheduler each, IPVS semantics), real servers, the IPVS TCP
//! state timeouts and the connection-setup timers are set with typed wrappers on [`FlowManager`] (`Card::flow_manager`);
//! [`FlowManager::flow_stats`] and [`FlowManager::server_stats`] read the counters back. Arguments are
//! checked on the host before anything is sent ([`DriverError::InvalidArgument`]); the
//! firmware's own refusals (`NOT_FOUND`, `BUSY`, `NO_SPACE`, `NO_DATAPATH`, `BAD_ARGUMENT`)
//! arrive as [`DriverError::MailboxStatus`].
//!
//! The control plane reads everything back, like `ipvsadm -L`: [`FlowManager::config_map`] says
//! which services, pools and servers exist, [`FlowManager::service_get`], [`FlowManager::pool_get`] and
//! [`FlowManager::server_get`] describe one each, [`FlowManager::timeouts`] lists the state timeouts,
//! [`FlowManager::flows`] lists the connections (`ipvsadm -Lnc`) and [`FlowManager::zero_counters`] is
//! `ipvsadm -Z`. [`FlowManager::ruleset_record_put`] / [`FlowManager::ruleset_record_get`] keep a record
//! of the loaded rule set on the card, and [`FlowManager::capture_read`] returns the punted frames
//! the firmware copies into its capture ring (read through the DMEM window).
//!
//! On the wire an IPv4 address is one word in host order (`192.168.0.1` is `0xC0A8_0001`)
//! and a MAC address is two words: bytes 0-3 big endian, then bytes 4-5 in bits 31:16.
//!
//! Files: `setup` (configuration commands), `heads`, `cycles` (the cycle profile), `readback`,
//! `conns`, `ruleset`, `capture_ring` (their types and decoders) and `control` (the control-plane
//! commands).

use std::fmt;
use std::net::{Ipv4Addr, SocketAddrV4};
use std::time::Duration;

use splicenic_fw_logic::mailbox::{cmd, status};
use splicenic_fw_logic::sched;
use splicenic_fw_logic::splicer::{capture, entry_flags, profile, record};
use splicenic_layout::{self as layout, pool_flags, service_mode, FlowState};

pub use crate::card::FlowManager;
use crate::datapath::Port;
use crate::error::DriverError;

/// IPVS TCP connection state whose timeout [`FlowManager::timeout_set`] changes; the wire code is
/// [`TcpTimeoutState::index`] (NONE 0 .. SYNACK 10, the kernel's order), then the card's own
/// LINGER 11 (a flow whose both FINs were acknowledged; 2 s by default).
pub use splicenic_fw_logic::flowmgr::timeouts::TcpState as TcpTimeoutState;

/// Number of virtual services (`DP.VIP_ADDR`/`VIP_PORT` entries).
pub const SERVICES: u8 = layout::SERVICES as u8;
/// Number of pools.
pub const POOLS: u8 = layout::POOLS as u8;
/// Number of card-wide real-server indices.
pub const REAL_SERVERS: u8 = layout::REAL_SERVERS as u8;
/// Largest real-server weight (ipvsadm's range).
pub const MAX_WEIGHT: u32 = sched::MAX_WEIGHT;
/// Response words of FLOW_STATS.
pub const FLOW_STATS_WORDS: usize = 16;
/// Response words of SERVER_STATS.
pub const SERVER_STATS_WORDS: usize = 6;
/// Response words of SVC_GET.
pub const SVC_GET_WORDS: usize = 5;
/// Response words of POOL_GET.
pub const POOL_GET_WORDS: usize = 6;
/// Response words of SERVER_GET.
pub const SERVER_GET_WORDS: usize = 12;
/// Response words of CONFIG_MAP.
pub const CONFIG_MAP_WORDS: usize = 4;
/// Response words of FLOW_GET.
pub const FLOW_GET_WORDS: usize = splicenic_fw_logic::splicer::FLOW_GET_WORDS;
/// FLOW_LIST cursor of a finished scan.
pub const FLOW_LIST_DONE: u32 = splicenic_fw_logic::splicer::FLOW_LIST_DONE;
/// Response words of RULESET_INFO.
pub const RULESET_INFO_WORDS: usize = 6;
/// Largest rule-set record the firmware keeps, in bytes.
pub const RULESET_RECORD_MAX: usize = record::RULESET_BYTES;
/// Response words of CAPTURE_INFO.
pub const CAPTURE_INFO_WORDS: usize = 10;
/// Largest capture snap length (CAPTURE_SET word 1).
pub const MAX_SNAPLEN: u32 = 0xFFFF;
/// Core address of DMEM (docs/interfaces.md, "Address maps").
const DMEM_BASE: u32 = layout::DMEM_BASE;
/// FLOW_GET "none" value of the real-server, service and timeout-class fields.
const NONE8: u32 = 0xFF;

// SVC_SET mode words and POOL_SET flags: `service_mode` and `pool_flags` (docs/records.md).
use pool_flags::{
    EXPIRE_QUIESCENT as POOL_FLAG_EXPIRE_QUIESCENT, FALLBACK as POOL_FLAG_FALLBACK,
    HASH_PORT as POOL_FLAG_HASH_PORT,
};
use service_mode::{DELETE as MODE_DELETE, L4 as MODE_L4, L7 as MODE_L7};

/// SERVER_STATS flag: the index holds a server.
const SERVER_FLAG_PRESENT: u32 = 1 << 0;
/// SERVER_STATS flag: the server is above its upper connection threshold.
const SERVER_FLAG_OVERLOADED: u32 = 1 << 1;

impl FlowManager<'_> {
    /// A mailbox request that requires status OK and at least `min_len` response words.
    fn call_ok(
        &mut self,
        command: u32,
        args: &[u32],
        min_len: usize,
    ) -> Result<Vec<u32>, DriverError> {
        self.card.mailbox().call_ok(command, args, min_len)
    }
}

mod capture_ring;
mod conns;
mod control;
mod cycles;
mod heads;
mod readback;
mod resets;
mod ruleset;
mod setup;
#[cfg(test)]
mod tests;

pub use capture_ring::*;
pub use conns::*;
pub use control::*;
pub use cycles::*;
pub use heads::*;
pub use readback::*;
pub use resets::*;
pub use ruleset::*;
pub use setup::*;
