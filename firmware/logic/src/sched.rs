//! Linux Virtual Server (IPVS) connection schedulers, without allocation.
//!
//! The rules follow the kernel's `net/netfilter/ipvs/ip_vs_*.c` schedulers and
//! `docs/schedulers.md`: servers are scanned in insertion order, comparisons are strict so the
//! earlier server wins a tie, weight 0 quiesces a server, and the connection-count thresholds
//! set and clear an "overloaded" flag exactly as IPVS does when it binds and unbinds
//! connections.
//!
//! A pool is a [`ServerSet`] (the real servers and their connection counts) and a
//! [`Scheduler`] (the algorithm's state and the persistence table). Everything has a fixed
//! size, so both can live in static memory:
//!
//! * [`ServerSet`]: [`MAX_SERVERS`] slots.
//! * [`Scheduler<P, L>`]: `P` persistence entries and `L` lblc/lblcr entries, plus the
//!   scheduler's own table (256 slots for dh/sh, [`MH_TABLE_SIZE`] for mh).
//!
//! Time is counted in ticks supplied with [`Scheduler::set_now`]; the default timeouts
//! assume one tick per second.

use splicenic_layout::{LoadMode, SchedMode};

/// Largest number of real servers in one [`ServerSet`]: every real server of the card
/// (`splicenic_layout::REAL_SERVERS`) fits one pool.
pub const MAX_SERVERS: usize = splicenic_layout::REAL_SERVERS as usize;
// Slot numbers are kept in a `u8` (`ServerSet::order`).
const _: () = assert!(MAX_SERVERS <= 256);
/// Largest weight accepted (ipvsadm's range is 0..=65535).
pub const MAX_WEIGHT: u32 = 65_535;
/// Default persistence timeout in ticks (`ipvsadm -p` without a value: 360 s).
pub const DEFAULT_PERSIST_TIMEOUT: u32 = 360;
/// Default lblc/lblcr expiration in ticks (24 h).
pub const DEFAULT_LBL_EXPIRATION: u32 = 24 * 60 * 60;
/// Idle time in ticks after which a lblc/lblcr entry is the first to be evicted (6 min).
pub const LBL_ENTRY_TIMEOUT: u32 = 6 * 60;
/// Servers remembered per lblcr destination.
pub const LBLCR_SET_MAX: usize = 8;
/// Buckets of the dh and sh tables.
pub const HASH_TABLE_SIZE: usize = splicenic_layout::SCHED_HASH_TABLE as usize;
/// Size of the mh (Maglev) lookup table: the kernel's default prime.
pub const MH_TABLE_SIZE: usize = splicenic_layout::SCHED_MH_TABLE as usize;

/// A table entry without a server (also the card's, `SCHED_ENTRY_NONE`).
const NONE: u8 = splicenic_layout::SCHED_ENTRY_NONE as u8;
const _: () = assert!(HASH_TABLE_SIZE == 1 << SH_TAB_BITS);
const SH_TAB_BITS: u32 = 8;
const GOLDEN_RATIO_32: u32 = u32::from_be_bytes(splicenic_layout::SCHED_SH_MULT);
const DH_MULT: u32 = u32::from_be_bytes(splicenic_layout::SCHED_DH_MULT);
const MH_TAB_BITS: u32 = 6;
const MH_KEY1: u64 = u64::from_be_bytes(splicenic_layout::SCHED_MH_KEY);
const MH_KEY2: u64 = 2_654_446_892;

/// Errors of the configuration and bookkeeping calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SchedError {
    /// All [`MAX_SERVERS`] slots are in use.
    Full,
    /// No server with this id.
    NotFound,
    /// A server with the same address and port is already in the set.
    Duplicate,
    /// The weight is above [`MAX_WEIGHT`].
    WeightTooLarge,
    /// A close or state change was reported for a connection the counts do not hold.
    CountUnderflow,
}

/// Configuration of one real server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ServerConfig {
    /// IPv4 address, host order (hashed by mh).
    pub addr: u32,
    /// Port (hashed by mh).
    pub port: u16,
    /// Weight, 0..=[`MAX_WEIGHT`]; 0 quiesces the server.
    pub weight: u32,
    /// Upper connection threshold (`-x`); 0 = none.
    pub u_threshold: u32,
    /// Lower connection threshold (`-y`); 0 = three quarters of the upper one.
    pub l_threshold: u32,
}

impl ServerConfig {
    /// A server with `weight` and no thresholds.
    pub const fn new(addr: u32, port: u16, weight: u32) -> Self {
        Self {
            addr,
            port,
            weight,
            u_threshold: 0,
            l_threshold: 0,
        }
    }
}

/// One real server as the schedulers see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Server {
    addr: u32,
    port: u16,
    weight: u32,
    last_weight: u32,
    u_threshold: u32,
    l_threshold: u32,
    activeconns: u32,
    inactconns: u32,
    overloaded: bool,
    available: bool,
    present: bool,
    tag: u16,
}

impl Server {
    const EMPTY: Self = Self {
        addr: 0,
        port: 0,
        weight: 0,
        last_weight: 0,
        u_threshold: 0,
        l_threshold: 0,
        activeconns: 0,
        inactconns: 0,
        overloaded: false,
        available: false,
        present: false,
        tag: 0,
    };

    /// IPv4 address, host order.
    pub fn addr(&self) -> u32 {
        self.addr
    }
    /// Port.
    pub fn port(&self) -> u16 {
        self.port
    }
    /// Current weight.
    pub fn weight(&self) -> u32 {
        self.weight
    }
    /// Latest non-zero weight (what mh builds its table from).
    pub fn last_weight(&self) -> u32 {
        self.last_weight
    }
    /// Upper threshold (0 = none).
    pub fn u_threshold(&self) -> u32 {
        self.u_threshold
    }
    /// Lower threshold (0 = three quarters of the upper one).
    pub fn l_threshold(&self) -> u32 {
        self.l_threshold
    }
    /// Connections in ESTABLISHED (IPVS `activeconns`).
    pub fn activeconns(&self) -> u32 {
        self.activeconns
    }
    /// Connections in any other state (IPVS `inactconns`).
    pub fn inactconns(&self) -> u32 {
        self.inactconns
    }
    /// `activeconns * 256 + inactconns`, the load estimate of lc, wlc, lblc, lblcr and twos.
    pub fn overhead(&self) -> u64 {
        (u64::from(self.activeconns) << 8) + u64::from(self.inactconns)
    }
    /// True while the upper threshold has been reached and not yet cleared.
    pub fn is_overloaded(&self) -> bool {
        self.overloaded
    }
    /// The health flag: false removes the server from scheduling as if it were deleted.
    pub fn is_available(&self) -> bool {
        self.available
    }
    /// True while the server belongs to the set (false once removed, while its last
    /// connections drain).
    pub fn is_present(&self) -> bool {
        self.present
    }
    fn total(&self) -> u64 {
        u64::from(self.activeconns) + u64::from(self.inactconns)
    }
    /// Weight > 0 and not overloaded: may take a new connection.
    fn usable(&self) -> bool {
        self.weight > 0 && !self.overloaded
    }
}

/// A reference to a server slot that notices when the slot is reused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct ServerRef {
    slot: u8,
    tag: u16,
}

impl ServerRef {
    const NONE: Self = Self { slot: NONE, tag: 0 };
}

/// The real servers of one pool, in insertion order, with their IPVS connection counts.
///
/// Ids returned by [`ServerSet::add`] are slot numbers (< [`MAX_SERVERS`]); they stay valid
/// until [`ServerSet::remove`]. A removed server keeps its slot until its connections have
/// closed (IPVS keeps deleted servers in a "trash" list for the same reason).
#[derive(Clone, Debug)]
pub struct ServerSet {
    slots: [Server; MAX_SERVERS],
    order: [u8; MAX_SERVERS],
    len: usize,
    generation: u32,
}

impl Default for ServerSet {
    fn default() -> Self {
        Self::new()
    }
}

impl ServerSet {
    /// An empty set.
    pub const fn new() -> Self {
        Self {
            slots: [Server::EMPTY; MAX_SERVERS],
            order: [NONE; MAX_SERVERS],
            len: 0,
            generation: 0,
        }
    }

    /// Number of servers in the set.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when the set has no server.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Counter bumped by every change of a server's membership, weight, thresholds or
    /// availability (what makes wrr reset and dh/sh/mh rebuild their tables).
    pub fn generation(&self) -> u32 {
        self.generation
    }

    /// Server ids in insertion order.
    pub fn ids(&self) -> impl Iterator<Item = usize> + '_ {
        self.order[..self.len].iter().map(|&s| usize::from(s))
    }

    /// The server in slot `id` (also a removed one that is still draining).
    pub fn get(&self, id: usize) -> Option<&Server> {
        self.slots
            .get(id)
            .filter(|s| s.present || s.activeconns + s.inactconns > 0)
    }

    /// Appends a server (available, not overloaded, no connections) and returns its id.
    pub fn add(&mut self, cfg: ServerConfig) -> Result<usize, SchedError> {
        if cfg.weight > MAX_WEIGHT {
            return Err(SchedError::WeightTooLarge);
        }
        if self.ids().any(|i| {
            let s = &self.slots[i];
            s.addr == cfg.addr && s.port == cfg.port
        }) {
            return Err(SchedError::Duplicate);
        }
        let slot = self
            .slots
            .iter()
            .position(|s| !s.present && s.activeconns == 0 && s.inactconns == 0)
            .ok_or(SchedError::Full)?;
        let tag = self.slots[slot].tag.wrapping_add(1);
        self.slots[slot] = Server {
            addr: cfg.addr,
            port: cfg.port,
            weight: cfg.weight,
            last_weight: cfg.weight,
            u_threshold: cfg.u_threshold,
            l_threshold: cfg.l_threshold,
            activeconns: 0,
            inactconns: 0,
            overloaded: false,
            available: true,
            present: true,
            tag,
        };
        // `slot` < MAX_SERVERS (at most 256), so it fits a u8.
        self.order[self.len] = slot as u8;
        self.len += 1;
        self.changed();
        Ok(slot)
    }

    /// Removes a server from scheduling. Its open connections may still be closed with
    /// [`ServerSet::on_close`]; the slot is reused once they are gone.
    pub fn remove(&mut self, id: usize) -> Result<(), SchedError> {
        let pos = self.position(id).ok_or(SchedError::NotFound)?;
        self.order.copy_within(pos + 1..self.len, pos);
        self.len -= 1;
        self.order[self.len] = NONE;
        self.slots[id].present = false;
        self.changed();
        Ok(())
    }

    /// Sets the weight (`ipvsadm -e -w`). A non-zero weight is also remembered as the
    /// "last weight" that mh keeps its table slots with.
    pub fn set_weight(&mut self, id: usize, weight: u32) -> Result<(), SchedError> {
        if weight > MAX_WEIGHT {
            return Err(SchedError::WeightTooLarge);
        }
        let s = self.present_mut(id)?;
        if s.weight == weight {
            return Ok(());
        }
        s.weight = weight;
        if weight != 0 {
            s.last_weight = weight;
        }
        self.changed();
        Ok(())
    }

    /// Sets the thresholds (`-x`, `-y`). As in IPVS, the overload flag is cleared when the
    /// upper threshold is removed or raised.
    pub fn set_thresholds(&mut self, id: usize, upper: u32, lower: u32) -> Result<(), SchedError> {
        let s = self.present_mut(id)?;
        let old = (s.u_threshold, s.l_threshold);
        if old == (upper, lower) {
            return Ok(());
        }
        if thresholds_clear_overload(old, (upper, lower)) {
            s.overloaded = false;
        }
        s.u_threshold = upper;
        s.l_threshold = lower;
        self.changed();
        Ok(())
    }

    /// Sets the counts and the overload flag of server `id` (present or draining), as a
    /// restore or a takeover does; the card's COUNTS operation does the same.
    pub fn restore_counts(
        &mut self,
        id: usize,
        active: u32,
        inactive: u32,
        overloaded: bool,
    ) -> Result<(), SchedError> {
        let s = self.draining_mut(id)?;
        s.activeconns = active;
        s.inactconns = inactive;
        s.overloaded = overloaded;
        Ok(())
    }

    /// Sets the health flag. An unavailable server is treated as deleted by every scheduler
    /// (tables are rebuilt without it); its connections continue.
    pub fn set_available(&mut self, id: usize, available: bool) -> Result<(), SchedError> {
        let s = self.present_mut(id)?;
        if s.available == available {
            return Ok(());
        }
        s.available = available;
        self.changed();
        Ok(())
    }

    /// A new connection was bound to server `id`: it counts as inactive until ESTABLISHED.
    /// Sets the overload flag when active + inactive reaches the upper threshold.
    pub fn on_connect(&mut self, id: usize) -> Result<(), SchedError> {
        let s = self.present_mut(id)?;
        s.inactconns = s.inactconns.saturating_add(1);
        if s.u_threshold != 0 && s.total() >= u64::from(s.u_threshold) {
            s.overloaded = true;
        }
        Ok(())
    }

    /// A connection of server `id` reached ESTABLISHED (inactive -> active).
    pub fn on_established(&mut self, id: usize) -> Result<(), SchedError> {
        let s = self.draining_mut(id)?;
        if s.inactconns == 0 {
            return Err(SchedError::CountUnderflow);
        }
        s.inactconns -= 1;
        s.activeconns = s.activeconns.saturating_add(1);
        Ok(())
    }

    /// A connection of server `id` left ESTABLISHED (active -> inactive), e.g. on FIN.
    pub fn on_leave_established(&mut self, id: usize) -> Result<(), SchedError> {
        let s = self.draining_mut(id)?;
        if s.activeconns == 0 {
            return Err(SchedError::CountUnderflow);
        }
        s.activeconns -= 1;
        s.inactconns = s.inactconns.saturating_add(1);
        Ok(())
    }

    /// A connection of server `id` ended; `established` tells which count holds it. Clears
    /// the overload flag below the lower threshold (or below 3/4 of the upper one when the
    /// lower is 0), as IPVS does when it unbinds a connection.
    pub fn on_close(&mut self, id: usize, established: bool) -> Result<(), SchedError> {
        let s = self.draining_mut(id)?;
        let count = if established {
            &mut s.activeconns
        } else {
            &mut s.inactconns
        };
        if *count == 0 {
            return Err(SchedError::CountUnderflow);
        }
        *count -= 1;
        let total = s.total();
        if s.l_threshold != 0 {
            if total < u64::from(s.l_threshold) {
                s.overloaded = false;
            }
        } else if s.u_threshold != 0 {
            if total * 4 < u64::from(s.u_threshold) * 3 {
                s.overloaded = false;
            }
        } else {
            s.overloaded = false;
        }
        Ok(())
    }

    fn changed(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    fn position(&self, id: usize) -> Option<usize> {
        self.order[..self.len]
            .iter()
            .position(|&s| usize::from(s) == id)
    }

    fn present_mut(&mut self, id: usize) -> Result<&mut Server, SchedError> {
        match self.slots.get_mut(id) {
            Some(s) if s.present => Ok(s),
            _ => Err(SchedError::NotFound),
        }
    }

    fn draining_mut(&mut self, id: usize) -> Result<&mut Server, SchedError> {
        match self.slots.get_mut(id) {
            Some(s) if s.present || s.activeconns + s.inactconns > 0 => Ok(s),
            _ => Err(SchedError::NotFound),
        }
    }

    /// Servers taking part in scheduling (present and available), in insertion order.
    fn live(&self) -> impl Iterator<Item = (usize, &Server)> + '_ {
        self.order[..self.len]
            .iter()
            .map(|&s| (usize::from(s), &self.slots[usize::from(s)]))
            .filter(|(_, s)| s.available)
    }

    fn make_ref(&self, id: usize) -> ServerRef {
        ServerRef {
            slot: id as u8,
            tag: self.slots[id].tag,
        }
    }

    /// The server a reference points to, if the slot still holds it and it is available.
    fn resolve(&self, r: ServerRef) -> Option<(usize, &Server)> {
        let id = usize::from(r.slot);
        let s = self.slots.get(id)?;
        (s.present && s.tag == r.tag && s.available).then_some((id, s))
    }

    /// The server a reference points to while the slot still holds it (available or not).
    fn resolve_any(&self, r: ServerRef) -> Option<&Server> {
        let s = self.slots.get(usize::from(r.slot))?;
        (s.present && s.tag == r.tag).then_some(s)
    }
}

/// The IPVS scheduling algorithms (ipvsadm `-s` names): the one scheduler type of the
/// firmware, the host driver (`splicenic_driver::Scheduler`) and the tools. The wire code
/// (POOL_SET / POOL_GET) is the position in [`Kind::ALL`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Kind {
    /// Round robin.
    Rr,
    /// Weighted round robin.
    Wrr,
    /// Least connection.
    Lc,
    /// Weighted least connection (ipvsadm's default).
    #[default]
    Wlc,
    /// Shortest expected delay.
    Sed,
    /// Never queue.
    Nq,
    /// Locality-based least connection.
    Lblc,
    /// Locality-based least connection with replication.
    Lblcr,
    /// Destination hashing.
    Dh,
    /// Source hashing.
    Sh,
    /// Maglev hashing.
    Mh,
    /// Weighted failover.
    Fo,
    /// Weighted overflow.
    Ovf,
    /// Power of two choices.
    Twos,
}

impl Kind {
    /// Every kind, in the order above.
    pub const ALL: [Kind; 14] = [
        Kind::Rr,
        Kind::Wrr,
        Kind::Lc,
        Kind::Wlc,
        Kind::Sed,
        Kind::Nq,
        Kind::Lblc,
        Kind::Lblcr,
        Kind::Dh,
        Kind::Sh,
        Kind::Mh,
        Kind::Fo,
        Kind::Ovf,
        Kind::Twos,
    ];

    /// The ipvsadm name (`wlc`, ...).
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Rr => "rr",
            Kind::Wrr => "wrr",
            Kind::Lc => "lc",
            Kind::Wlc => "wlc",
            Kind::Sed => "sed",
            Kind::Nq => "nq",
            Kind::Lblc => "lblc",
            Kind::Lblcr => "lblcr",
            Kind::Dh => "dh",
            Kind::Sh => "sh",
            Kind::Mh => "mh",
            Kind::Fo => "fo",
            Kind::Ovf => "ovf",
            Kind::Twos => "twos",
        }
    }

    /// The kind with ipvsadm name `name` (exact, lower case).
    pub fn from_name(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// The POOL_SET scheduler word (the position in [`Kind::ALL`]).
    pub const fn code(self) -> u32 {
        self as u32
    }

    /// The kind with wire code `code`.
    pub fn from_code(code: u32) -> Option<Kind> {
        usize::try_from(code)
            .ok()
            .and_then(|i| Kind::ALL.get(i).copied())
    }
}

impl core::fmt::Display for Kind {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// A scheduler name that is not one of the ipvsadm names. Keeps the first
/// [`UnknownScheduler::KEPT`] bytes of the name for the message (no allocation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnknownScheduler {
    name: [u8; UnknownScheduler::KEPT],
    len: usize,
    cut: bool,
}

impl UnknownScheduler {
    /// Bytes of the name the error keeps.
    pub const KEPT: usize = 32;

    fn new(name: &str) -> UnknownScheduler {
        // Cut at a character boundary.
        let mut len = name.len().min(Self::KEPT);
        while !name.is_char_boundary(len) {
            len -= 1;
        }
        let mut buf = [0u8; Self::KEPT];
        buf[..len].copy_from_slice(&name.as_bytes()[..len]);
        UnknownScheduler {
            name: buf,
            len,
            cut: len < name.len(),
        }
    }

    /// The name given (its first [`UnknownScheduler::KEPT`] bytes).
    pub fn name(&self) -> &str {
        core::str::from_utf8(&self.name[..self.len]).unwrap_or("")
    }
}

impl core::fmt::Display for UnknownScheduler {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let more = if self.cut { "..." } else { "" };
        write!(
            f,
            "unknown scheduler `{}{more}`: expected one of ",
            self.name()
        )?;
        for (i, k) in Kind::ALL.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(k.name())?;
        }
        Ok(())
    }
}

impl core::error::Error for UnknownScheduler {}

impl core::str::FromStr for Kind {
    type Err = UnknownScheduler;

    /// Parses an ipvsadm scheduler name (exact, lower case).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Kind::from_name(s).ok_or_else(|| UnknownScheduler::new(s))
    }
}

/// Scheduler settings (ipvsadm `-s`, `-b`, `-p`, `-M`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SchedConfig {
    /// The algorithm.
    pub kind: Kind,
    /// sh/mh `sh-fallback`/`mh-fallback`: when the hashed server cannot take the
    /// connection, walk the table for one that can. Also honoured by dh (an extension:
    /// IPVS dh has no such flag).
    pub fallback: bool,
    /// sh/mh `sh-port`/`mh-port`: hash the client port too.
    pub hash_port: bool,
    /// Persistence timeout in ticks (`-p`); 0 disables persistence.
    pub persist_timeout: u32,
    /// Persistence netmask (`-M`), host order; clients equal under it share a server.
    pub persist_netmask: u32,
    /// Drop a persistence entry whose server has weight 0 (the kernel sysctl
    /// `expire_quiescent_template`, off by default).
    pub expire_quiescent: bool,
    /// lblc/lblcr expiration in ticks (sysctl `lblc_expiration`/`lblcr_expiration`).
    pub lbl_expiration: u32,
    /// Seed of the twos random generator (0 is replaced by a fixed non-zero value).
    pub seed: u32,
}

impl SchedConfig {
    /// Defaults for `kind`: no flags, no persistence, 24 h lblc expiration.
    pub const fn new(kind: Kind) -> Self {
        Self {
            kind,
            fallback: false,
            hash_port: false,
            persist_timeout: 0,
            persist_netmask: u32::MAX,
            expire_quiescent: false,
            lbl_expiration: DEFAULT_LBL_EXPIRATION,
            seed: 0x9E37_79B9,
        }
    }

    /// The same settings with persistence (`-p timeout -M netmask`).
    pub const fn with_persistence(mut self, timeout: u32, netmask: u32) -> Self {
        self.persist_timeout = timeout;
        self.persist_netmask = netmask;
        self
    }
}

/// The kernel's `hash_32`: multiplicative hash keeping the top `bits` bits.
pub fn hash_32(val: u32, bits: u32) -> u32 {
    val.wrapping_mul(GOLDEN_RATIO_32) >> (32 - bits)
}

/// dh bucket of a destination address (host order): `addr * 2654435761 mod 256`.
pub fn dh_hashkey(addr: u32, offset: u32) -> usize {
    (offset.wrapping_add(addr.wrapping_mul(DH_MULT)) & (HASH_TABLE_SIZE as u32 - 1)) as usize
}

/// sh bucket of a source address and port (both host order; port 0 unless `sh-port`).
pub fn sh_hashkey(addr: u32, port: u16, offset: u32) -> usize {
    let h = hash_32(u32::from(port).wrapping_add(addr), SH_TAB_BITS);
    (offset.wrapping_add(h) & (HASH_TABLE_SIZE as u32 - 1)) as usize
}

#[inline(always)]
fn sip_round(v: &mut [u64; 4]) {
    v[0] = v[0].wrapping_add(v[1]);
    v[1] = v[1].rotate_left(13) ^ v[0];
    v[0] = v[0].rotate_left(32);
    v[2] = v[2].wrapping_add(v[3]);
    v[3] = v[3].rotate_left(16) ^ v[2];
    v[0] = v[0].wrapping_add(v[3]);
    v[3] = v[3].rotate_left(21) ^ v[0];
    v[2] = v[2].wrapping_add(v[1]);
    v[1] = v[1].rotate_left(17) ^ v[2];
    v[2] = v[2].rotate_left(32);
}

/// SipHash-c-d of `data` with key `(k0, k1)`; returns the four state words before the final
/// fold so that both the 64-bit SipHash output and the kernel's truncated form can be taken.
fn siphash_state(data: &[u8], k0: u64, k1: u64, c: usize, d: usize) -> [u64; 4] {
    let mut v = [
        0x736f_6d65_7073_6575 ^ k0,
        0x646f_7261_6e64_6f6d ^ k1,
        0x6c79_6765_6e65_7261 ^ k0,
        0x7465_6462_7974_6573 ^ k1,
    ];
    let mut blocks = data.chunks_exact(8);
    for b in &mut blocks {
        let mut w = [0u8; 8];
        w.copy_from_slice(b);
        let m = u64::from_le_bytes(w);
        v[3] ^= m;
        for _ in 0..c {
            sip_round(&mut v);
        }
        v[0] ^= m;
    }
    let mut last = (data.len() as u64) << 56;
    for (i, &byte) in blocks.remainder().iter().enumerate() {
        last |= u64::from(byte) << (8 * i);
    }
    v[3] ^= last;
    for _ in 0..c {
        sip_round(&mut v);
    }
    v[0] ^= last;
    v[2] ^= 0xff;
    for _ in 0..d {
        sip_round(&mut v);
    }
    v
}

/// SipHash-2-4 (64-bit output).
pub fn siphash24(data: &[u8], k0: u64, k1: u64) -> u64 {
    let v = siphash_state(data, k0, k1, 2, 4);
    v[0] ^ v[1] ^ v[2] ^ v[3]
}

/// The kernel's `hsiphash` on 64-bit machines: SipHash-1-3, output truncated to 32 bits.
pub fn hsiphash64(data: &[u8], k0: u64, k1: u64) -> u32 {
    let v = siphash_state(data, k0, k1, 1, 3);
    (v[0] ^ v[1] ^ v[2] ^ v[3]) as u32
}

/// The mh hash of an address and port with the given key word (both key halves equal, as
/// the kernel sets them): `hsiphash` of the little-endian `offset + port + addr`.
pub fn mh_hashkey(addr: u32, port: u16, key: u64, offset: u32) -> u32 {
    let v = offset.wrapping_add(u32::from(port)).wrapping_add(addr);
    hsiphash64(&v.to_le_bytes(), key, key)
}

fn gcd(mut a: u32, mut b: u32) -> u32 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// Weighted least load: the first usable server, replaced by a later non-overloaded one
/// whenever `loh * w_d > doh * w_least` (64-bit, strict: earlier server wins ties).
fn weighted_least(servers: &ServerSet, oh: fn(&Server) -> u64) -> Option<usize> {
    let mut it = servers.live();
    let (mut least, mut lsrv) = it.by_ref().find(|(_, s)| s.usable())?;
    let mut loh = oh(lsrv);
    for (id, s) in it {
        if s.overloaded {
            continue;
        }
        let doh = oh(s);
        if u128::from(loh) * u128::from(s.weight) > u128::from(doh) * u128::from(lsrv.weight) {
            least = id;
            lsrv = s;
            loh = doh;
        }
    }
    Some(least)
}

fn sed_overhead(s: &Server) -> u64 {
    u64::from(s.activeconns) + 1
}

/// lblc/lblcr's "overloaded": more active connections than the weight while some server
/// is below half of its weight.
fn lbl_overloaded(servers: &ServerSet, s: &Server) -> bool {
    s.activeconns > s.weight
        && servers
            .live()
            .any(|(_, d)| u64::from(d.activeconns) * 2 < u64::from(d.weight))
}

fn age(now: u32, then: u32) -> u32 {
    now.wrapping_sub(then)
}

#[derive(Clone, Copy, Debug)]
struct PersistEntry {
    used: bool,
    key: u32,
    server: ServerRef,
    last: u32,
    n_control: u16,
}

impl PersistEntry {
    const EMPTY: Self = Self {
        used: false,
        key: 0,
        server: ServerRef::NONE,
        last: 0,
        n_control: 0,
    };
}

#[derive(Clone, Copy, Debug)]
struct LblcEntry {
    used: bool,
    daddr: u32,
    server: ServerRef,
    lastuse: u32,
}

impl LblcEntry {
    const EMPTY: Self = Self {
        used: false,
        daddr: 0,
        server: ServerRef::NONE,
        lastuse: 0,
    };
}

#[derive(Clone, Copy, Debug)]
struct LblcrEntry {
    used: bool,
    daddr: u32,
    lastuse: u32,
    lastmod: u32,
    len: u8,
    /// Newest member first, as IPVS links new members at the head of the set.
    set: [ServerRef; LBLCR_SET_MAX],
}

impl LblcrEntry {
    const EMPTY: Self = Self {
        used: false,
        daddr: 0,
        lastuse: 0,
        lastmod: 0,
        len: 0,
        set: [ServerRef::NONE; LBLCR_SET_MAX],
    };

    fn members(&self) -> &[ServerRef] {
        &self.set[..usize::from(self.len)]
    }

    fn insert_front(&mut self, r: ServerRef, now: u32) {
        if self.members().contains(&r) {
            return;
        }
        let n = usize::from(self.len).min(LBLCR_SET_MAX - 1);
        self.set.copy_within(0..n, 1);
        self.set[0] = r;
        self.len = (n + 1) as u8;
        self.lastmod = now;
    }

    fn erase(&mut self, r: ServerRef, now: u32) {
        if let Some(p) = self.members().iter().position(|&m| m == r) {
            let n = usize::from(self.len);
            self.set.copy_within(p + 1..n, p);
            self.len -= 1;
            self.lastmod = now;
        }
    }

    /// Drops members whose slot was removed or reused (they can never be chosen again).
    fn purge(&mut self, servers: &ServerSet) {
        let mut n = 0;
        for i in 0..usize::from(self.len) {
            if servers.resolve_any(self.set[i]).is_some() {
                self.set[n] = self.set[i];
                n += 1;
            }
        }
        self.len = n as u8;
    }

    /// Weighted least-loaded available member.
    fn min(&self, servers: &ServerSet) -> Option<usize> {
        let mut it = self
            .members()
            .iter()
            .filter_map(|&r| servers.resolve_any(r).map(|s| (usize::from(r.slot), s)));
        let (mut least, mut lsrv) = it
            .by_ref()
            .find(|(_, s)| !s.overloaded && s.weight > 0 && s.available)?;
        let mut loh = lsrv.overhead();
        for (id, s) in it {
            if s.overloaded {
                continue;
            }
            let doh = s.overhead();
            if u128::from(loh) * u128::from(s.weight) > u128::from(doh) * u128::from(lsrv.weight)
                && s.available
            {
                least = id;
                lsrv = s;
                loh = doh;
            }
        }
        Some(least)
    }

    /// Weighted most-loaded member with weight > 0.
    fn max(&self, servers: &ServerSet) -> Option<ServerRef> {
        let mut it = self
            .members()
            .iter()
            .filter_map(|&r| servers.resolve_any(r).map(|s| (r, s)));
        let (mut most, mut msrv) = it.by_ref().find(|(_, s)| s.weight > 0)?;
        let mut moh = msrv.overhead();
        for (r, s) in it {
            let doh = s.overhead();
            if u128::from(moh) * u128::from(s.weight) < u128::from(doh) * u128::from(msrv.weight)
                && s.weight > 0
            {
                most = r;
                msrv = s;
                moh = doh;
            }
        }
        Some(most)
    }
}

/// Per-algorithm state.
// No heap: a scheduler is one fixed-size object, as large as its largest table (mh).
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
enum State<const L: usize> {
    Stateless,
    Rr {
        /// Last chosen server and its position in the order at that time.
        cursor: Option<(u8, u8)>,
    },
    Wrr {
        /// Position of the last chosen server; `None` = list head.
        cl: Option<usize>,
        cw: i64,
        mw: i64,
        di: i64,
        init: bool,
    },
    Lblc([LblcEntry; L]),
    Lblcr([LblcrEntry; L]),
    Hash([u8; HASH_TABLE_SIZE]),
    Mh([u8; MH_TABLE_SIZE]),
}

/// One pool's scheduler: the algorithm's state and a `P`-entry persistence table; lblc and
/// lblcr remember `L` destinations.
#[derive(Clone, Debug)]
pub struct Scheduler<const P: usize = 64, const L: usize = 64> {
    cfg: SchedConfig,
    now: u32,
    seen_generation: Option<u32>,
    rng: u32,
    state: State<L>,
    persist: [PersistEntry; P],
}

impl<const P: usize, const L: usize> Scheduler<P, L> {
    /// A scheduler with `cfg`, at tick 0.
    pub fn new(cfg: SchedConfig) -> Self {
        let state = match cfg.kind {
            Kind::Rr => State::Rr { cursor: None },
            Kind::Wrr => State::Wrr {
                cl: None,
                cw: 0,
                mw: 0,
                di: 1,
                init: false,
            },
            Kind::Lblc => State::Lblc([LblcEntry::EMPTY; L]),
            Kind::Lblcr => State::Lblcr([LblcrEntry::EMPTY; L]),
            Kind::Dh | Kind::Sh => State::Hash([NONE; HASH_TABLE_SIZE]),
            Kind::Mh => State::Mh([NONE; MH_TABLE_SIZE]),
            _ => State::Stateless,
        };
        Self {
            cfg,
            now: 0,
            seen_generation: None,
            rng: if cfg.seed == 0 { 0x9E37_79B9 } else { cfg.seed },
            state,
            persist: [PersistEntry::EMPTY; P],
        }
    }

    /// The settings.
    pub fn config(&self) -> &SchedConfig {
        &self.cfg
    }

    /// Sets the current tick (persistence and lblc/lblcr ages are measured in ticks; ages
    /// are computed with wrapping arithmetic, so the counter may wrap).
    pub fn set_now(&mut self, now: u32) {
        self.now = now;
    }

    /// The current tick.
    pub fn now(&self) -> u32 {
        self.now
    }

    /// Reseeds the twos random generator (0 is replaced by a fixed non-zero value).
    pub fn reseed(&mut self, seed: u32) {
        self.rng = if seed == 0 { 0x9E37_79B9 } else { seed };
    }

    /// Number of live persistence entries.
    pub fn persistence_len(&self) -> usize {
        let (now, timeout) = (self.now, self.cfg.persist_timeout);
        self.persist
            .iter()
            .filter(|e| e.used && (e.n_control > 0 || age(now, e.last) < timeout))
            .count()
    }

    /// Forgets every persistence entry and lblc/lblcr destination.
    pub fn flush(&mut self) {
        self.persist = [PersistEntry::EMPTY; P];
        match &mut self.state {
            State::Lblc(t) => *t = [LblcEntry::EMPTY; L],
            State::Lblcr(t) => *t = [LblcrEntry::EMPTY; L],
            _ => {}
        }
    }

    /// Chooses the server for a new connection from `client:client_port` to `dst` (all host
    /// order), or `None` when no server may take it (IPVS would answer ICMP port
    /// unreachable; see `docs/schedulers.md` for what the splicer does instead).
    ///
    /// `dst` is the key of dh, lblc and lblcr (the packet's destination address in IPVS).
    /// The choice is not counted: report the connection with [`Scheduler::on_connect`].
    pub fn pick(
        &mut self,
        servers: &ServerSet,
        client: u32,
        client_port: u16,
        dst: u32,
    ) -> Option<usize> {
        self.sync(servers);
        if self.cfg.persist_timeout == 0 {
            return self.schedule(servers, client, client_port, dst);
        }
        let key = client & self.cfg.persist_netmask;
        let (now, timeout, expire_quiescent) = (
            self.now,
            self.cfg.persist_timeout,
            self.cfg.expire_quiescent,
        );
        if let Some(i) = self.persist.iter().position(|e| e.used && e.key == key) {
            let e = &mut self.persist[i];
            let alive = e.n_control > 0 || age(now, e.last) < timeout;
            let target = servers
                .resolve(e.server)
                .filter(|(_, s)| !(expire_quiescent && s.weight == 0));
            match (alive, target) {
                (true, Some((id, _))) => {
                    e.last = now;
                    return Some(id);
                }
                _ => *e = PersistEntry::EMPTY,
            }
        }
        let id = self.schedule(servers, client, client_port, dst)?;
        if let Some(slot) = self.persist_slot(now, timeout) {
            self.persist[slot] = PersistEntry {
                used: true,
                key,
                server: servers.make_ref(id),
                last: now,
                n_control: 0,
            };
        }
        Some(id)
    }

    /// Counts a new connection of `client` on server `id` (the result of
    /// [`Scheduler::pick`]): inactive until ESTABLISHED, and holding the client's
    /// persistence entry open.
    pub fn on_connect(
        &mut self,
        servers: &mut ServerSet,
        id: usize,
        client: u32,
    ) -> Result<(), SchedError> {
        servers.on_connect(id)?;
        if let Some(e) = self.persist_entry_of(servers, id, client) {
            e.n_control = e.n_control.saturating_add(1);
        }
        Ok(())
    }

    /// Counts the end of a connection of `client` on server `id`; `established` says whether
    /// it was counted active. The client's persistence entry then lives for the timeout.
    pub fn on_close(
        &mut self,
        servers: &mut ServerSet,
        id: usize,
        client: u32,
        established: bool,
    ) -> Result<(), SchedError> {
        servers.on_close(id, established)?;
        let now = self.now;
        if let Some(e) = self.persist_entry_of(servers, id, client) {
            e.n_control = e.n_control.saturating_sub(1);
            e.last = now;
        }
        Ok(())
    }

    fn persist_entry_of(
        &mut self,
        servers: &ServerSet,
        id: usize,
        client: u32,
    ) -> Option<&mut PersistEntry> {
        if self.cfg.persist_timeout == 0 || id >= MAX_SERVERS {
            return None;
        }
        let key = client & self.cfg.persist_netmask;
        let r = ServerRef {
            slot: id as u8,
            tag: servers.slots[id].tag,
        };
        self.persist
            .iter_mut()
            .find(|e| e.used && e.key == key && e.server == r)
    }

    /// A free persistence slot: an unused or expired one, else the least recently used
    /// entry without open connections; `None` when every entry holds connections.
    fn persist_slot(&self, now: u32, timeout: u32) -> Option<usize> {
        if let Some(i) = self
            .persist
            .iter()
            .position(|e| !e.used || (e.n_control == 0 && age(now, e.last) >= timeout))
        {
            return Some(i);
        }
        self.persist
            .iter()
            .enumerate()
            .filter(|(_, e)| e.n_control == 0)
            .max_by_key(|(_, e)| age(now, e.last))
            .map(|(i, _)| i)
    }

    /// Brings the algorithm's state up to date after server changes.
    fn sync(&mut self, servers: &ServerSet) {
        let generation = servers.generation;
        if self.seen_generation == Some(generation) {
            return;
        }
        self.seen_generation = Some(generation);
        match &mut self.state {
            State::Wrr {
                cl,
                cw,
                mw,
                di,
                init,
            } => {
                let g = servers
                    .live()
                    .map(|(_, s)| s.weight)
                    .filter(|&w| w > 0)
                    .fold(0, gcd);
                let g = i64::from(g.max(1));
                let max = i64::from(servers.live().map(|(_, s)| s.weight).max().unwrap_or(0));
                *cl = None;
                *di = g;
                *mw = max - (g - 1);
                if !*init || *cw > *mw || *cw == 0 {
                    *cw = *mw;
                } else if g > 1 {
                    *cw = (*cw / g) * g + 1;
                }
                *init = true;
            }
            State::Hash(table) => {
                build_hash_table(servers, self.cfg.kind == Kind::Sh, table);
            }
            State::Mh(table) => build_mh_table(servers, table),
            _ => {}
        }
    }

    fn schedule(
        &mut self,
        servers: &ServerSet,
        client: u32,
        client_port: u16,
        dst: u32,
    ) -> Option<usize> {
        let now = self.now;
        let expiration = self.cfg.lbl_expiration;
        let fallback = self.cfg.fallback;
        let port = if self.cfg.hash_port { client_port } else { 0 };
        match self.cfg.kind {
            Kind::Lc => servers
                .live()
                .filter(|(_, s)| s.usable())
                .fold(None, |best: Option<(usize, u64)>, (id, s)| match best {
                    Some((_, l)) if s.overhead() >= l => best,
                    _ => Some((id, s.overhead())),
                })
                .map(|(id, _)| id),
            Kind::Wlc => weighted_least(servers, Server::overhead),
            Kind::Sed => weighted_least(servers, sed_overhead),
            Kind::Nq => {
                if let Some((id, _)) = servers
                    .live()
                    .filter(|(_, s)| s.usable())
                    .find(|(_, s)| s.activeconns == 0)
                {
                    return Some(id);
                }
                weighted_least(servers, sed_overhead)
            }
            Kind::Fo => {
                let mut best = None;
                let mut hw = 0;
                for (id, s) in servers.live() {
                    if !s.overloaded && s.weight > hw {
                        best = Some(id);
                        hw = s.weight;
                    }
                }
                best
            }
            Kind::Ovf => {
                let mut best: Option<(usize, u32)> = None;
                for (id, s) in servers.live() {
                    if s.overloaded || s.activeconns > s.weight || s.weight == 0 {
                        continue;
                    }
                    if best.is_none_or(|(_, w)| s.weight > w) {
                        best = Some((id, s.weight));
                    }
                }
                best.map(|(id, _)| id)
            }
            Kind::Twos => self.twos(servers),
            Kind::Rr => self.rr(servers),
            Kind::Wrr => self.wrr(servers),
            Kind::Dh | Kind::Sh => {
                let State::Hash(table) = &self.state else {
                    return None;
                };
                let hash = |offset: u32| {
                    if self.cfg.kind == Kind::Dh {
                        dh_hashkey(dst, offset)
                    } else {
                        sh_hashkey(client, port, offset)
                    }
                };
                table_lookup(servers, table, fallback, hash)
            }
            Kind::Mh => {
                let State::Mh(table) = &self.state else {
                    return None;
                };
                let size = MH_TABLE_SIZE as u32;
                table_lookup(servers, table, fallback, |offset| {
                    (mh_hashkey(client, port, MH_KEY1, offset) % size) as usize
                })
            }
            Kind::Lblc => {
                let State::Lblc(table) = &mut self.state else {
                    return None;
                };
                lblc(servers, table, dst, now, expiration)
            }
            Kind::Lblcr => {
                let State::Lblcr(table) = &mut self.state else {
                    return None;
                };
                lblcr(servers, table, dst, now, expiration)
            }
        }
    }

    fn rr(&mut self, servers: &ServerSet) -> Option<usize> {
        let State::Rr { cursor } = &mut self.state else {
            return None;
        };
        let n = servers.len;
        if n == 0 {
            return None;
        }
        // Scan starts after the last chosen server; if that one was removed, at the
        // position it had (its successor), as IPVS moves the cursor to the predecessor.
        let start = match *cursor {
            None => 0,
            Some((slot, pos)) => match servers.position(usize::from(slot)) {
                Some(p) => p + 1,
                None => usize::from(pos),
            },
        };
        for k in 0..n {
            let pos = (start + k) % n;
            let id = usize::from(servers.order[pos]);
            let s = &servers.slots[id];
            if s.available && s.usable() {
                *cursor = Some((id as u8, pos as u8));
                return Some(id);
            }
        }
        None
    }

    fn wrr(&mut self, servers: &ServerSet) -> Option<usize> {
        let State::Wrr { cl, cw, mw, di, .. } = &mut self.state else {
            return None;
        };
        if *mw <= 0 {
            return None;
        }
        let n = servers.len;
        let last = *cl;
        let mut cur = *cl;
        let mut stop: Option<usize> = None;
        let (mut last_pass, mut restarted) = (false, false);
        loop {
            let from = cur.map_or(0, |p| p + 1);
            for pos in from..n {
                let s = &servers.slots[usize::from(servers.order[pos])];
                if s.available && !s.overloaded && i64::from(s.weight) >= *cw {
                    *cl = Some(pos);
                    return Some(usize::from(servers.order[pos]));
                }
                if stop == Some(pos) {
                    *cl = Some(pos);
                    return None;
                }
            }
            cur = None;
            *cw -= *di;
            if *cw <= 0 {
                *cw = *mw;
                if last_pass || last.is_none() {
                    *cl = None;
                    return None;
                }
                restarted = true;
            }
            last_pass = *cw <= *di;
            if last_pass && restarted && last.is_some() {
                stop = last;
            }
        }
    }

    fn next_random(&mut self) -> u32 {
        // xorshift32
        let mut x = self.rng;
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        self.rng = x;
        x
    }

    fn twos(&mut self, servers: &ServerSet) -> Option<usize> {
        let total: u64 = servers
            .live()
            .filter(|(_, s)| s.usable())
            .map(|(_, s)| u64::from(s.weight))
            .sum();
        let fallback = servers.live().filter(|(_, s)| s.usable()).last()?.0;
        // Random weights in [0, total], inclusive, as the kernel draws them.
        let span = total + 1;
        let mut r1 = ((u64::from(self.next_random()) * span) >> 32) as i64;
        let mut r2 = ((u64::from(self.next_random()) * span) >> 32) as i64;
        let mut c1: Option<(usize, u64, u64)> = None;
        let mut c2: Option<(usize, u64, u64)> = None;
        for (id, s) in servers.live().filter(|(_, s)| s.usable()) {
            r1 -= i64::from(s.weight);
            r2 -= i64::from(s.weight);
            if r1 <= 0 && c1.is_none() {
                c1 = Some((id, u64::from(s.weight), s.overhead()));
            }
            if r2 <= 0 && c2.is_none() {
                c2 = Some((id, u64::from(s.weight), s.overhead()));
            }
            if c1.is_some() && c2.is_some() {
                break;
            }
        }
        let Some((id1, w1, oh1)) = c1 else {
            return Some(fallback);
        };
        match c2 {
            Some((id2, w2, oh2))
                if u128::from(w2) * u128::from(oh1) > u128::from(w1) * u128::from(oh2) =>
            {
                Some(id2)
            }
            _ => Some(id1),
        }
    }
}

/// Fills a dh/sh table: servers in order, each repeated `weight` times for sh (at least
/// once), once for dh, wrapping until all buckets are set.
fn build_hash_table(servers: &ServerSet, weighted: bool, table: &mut [u8; HASH_TABLE_SIZE]) {
    let mut live = [NONE; MAX_SERVERS];
    let mut count = 0;
    for (id, _) in servers.live() {
        live[count] = id as u8;
        count += 1;
    }
    if count == 0 {
        table.fill(NONE);
        return;
    }
    let (mut p, mut d_count) = (0, 0u32);
    for bucket in table.iter_mut() {
        *bucket = live[p];
        d_count += 1;
        if !weighted || d_count >= servers.slots[usize::from(live[p])].weight {
            p = (p + 1) % count;
            d_count = 0;
        }
    }
}

/// Looks `hash(0)` up; with `fallback`, walks `hash(ihash + k)` for k = 0.. until a usable
/// server turns up (the kernel's sh/mh fallback walk).
fn table_lookup(
    servers: &ServerSet,
    table: &[u8],
    fallback: bool,
    hash: impl Fn(u32) -> usize,
) -> Option<usize> {
    let usable = |slot: u8| {
        let s = &servers.slots[usize::from(slot)];
        s.present && s.available && s.usable()
    };
    let ihash = hash(0);
    let first = table[ihash];
    if first == NONE {
        return None;
    }
    if usable(first) {
        return Some(usize::from(first));
    }
    if !fallback {
        return None;
    }
    let size = table.len();
    for offset in 0..size {
        let roffset = ((offset + ihash) % size) as u32;
        let slot = table[hash(roffset)];
        if slot == NONE {
            break;
        }
        if usable(slot) {
            return Some(usize::from(slot));
        }
    }
    None
}

/// Builds the Maglev lookup table from the servers' last non-zero weights, as IPVS mh does.
fn build_mh_table(servers: &ServerSet, table: &mut [u8; MH_TABLE_SIZE]) {
    table.fill(NONE);
    let g = servers
        .live()
        .map(|(_, s)| s.last_weight)
        .filter(|&w| w > 0)
        .fold(0, gcd);
    if g == 0 {
        return;
    }
    let mw = servers
        .live()
        .map(|(_, s)| s.last_weight)
        .max()
        .unwrap_or(0)
        / g;
    let fls = 32 - mw.leading_zeros();
    let shift = fls.saturating_sub(MH_TAB_BITS);
    let size = MH_TABLE_SIZE as u32;

    let mut ids = [NONE; MAX_SERVERS];
    let mut skip = [0u32; MAX_SERVERS];
    let mut perm = [0u32; MAX_SERVERS];
    let mut turns = [0u32; MAX_SERVERS];
    let mut count = 0;
    for (id, s) in servers.live() {
        ids[count] = id as u8;
        perm[count] = mh_hashkey(s.addr, s.port, MH_KEY1, 0) % size;
        skip[count] = mh_hashkey(s.addr, s.port, MH_KEY2, 0) % (size - 1) + 1;
        let t = (s.last_weight / g) >> shift;
        turns[count] = if t != 0 {
            t
        } else {
            u32::from(s.last_weight != 0)
        };
        count += 1;
    }

    let mut n = 0;
    let mut dt_count = 0;
    'fill: while n < MH_TABLE_SIZE {
        let mut i = 0;
        while i < count {
            if turns[i] < 1 {
                i += 1;
                continue;
            }
            let mut c = perm[i];
            while table[c as usize] != NONE {
                perm[i] += skip[i];
                if perm[i] >= size {
                    perm[i] -= size;
                }
                c = perm[i];
            }
            table[c as usize] = ids[i];
            n += 1;
            if n == MH_TABLE_SIZE {
                break 'fill;
            }
            dt_count += 1;
            if dt_count >= turns[i] {
                dt_count = 0;
                i += 1;
            }
        }
    }
}

/// Index of a free lblc/lblcr slot: unused or expired first, else the least recently used.
fn lbl_victim(used_lastuse: impl Iterator<Item = (bool, u32)>, now: u32, expiration: u32) -> usize {
    let mut best = (0usize, 0u32);
    for (i, (used, lastuse)) in used_lastuse.enumerate() {
        if !used || age(now, lastuse) >= expiration {
            return i;
        }
        let a = age(now, lastuse);
        if i == 0 || a > best.1 {
            best = (i, a);
        }
    }
    best.0
}

fn lblc<const L: usize>(
    servers: &ServerSet,
    table: &mut [LblcEntry; L],
    dst: u32,
    now: u32,
    expiration: u32,
) -> Option<usize> {
    if L == 0 {
        return weighted_least(servers, Server::overhead);
    }
    let hit = table
        .iter()
        .position(|e| e.used && e.daddr == dst && age(now, e.lastuse) < expiration);
    if let Some(i) = hit {
        table[i].lastuse = now;
        if let Some((id, s)) = servers.resolve(table[i].server) {
            if s.weight > 0 && !lbl_overloaded(servers, s) {
                return Some(id);
            }
        }
    }
    let id = weighted_least(servers, Server::overhead)?;
    let r = servers.make_ref(id);
    match hit {
        Some(i) if table[i].server == r => {}
        Some(i) => {
            table[i].server = r;
            table[i].lastuse = now;
        }
        None => {
            let v = lbl_victim(table.iter().map(|e| (e.used, e.lastuse)), now, expiration);
            table[v] = LblcEntry {
                used: true,
                daddr: dst,
                server: r,
                lastuse: now,
            };
        }
    }
    Some(id)
}

fn lblcr<const L: usize>(
    servers: &ServerSet,
    table: &mut [LblcrEntry; L],
    dst: u32,
    now: u32,
    expiration: u32,
) -> Option<usize> {
    if L == 0 {
        return weighted_least(servers, Server::overhead);
    }
    let hit = table
        .iter()
        .position(|e| e.used && e.daddr == dst && age(now, e.lastuse) < expiration);
    if let Some(i) = hit {
        let e = &mut table[i];
        e.purge(servers);
        e.lastuse = now;
        let dest = e.min(servers);
        if e.len > 1 && age(now, e.lastmod) > expiration {
            if let Some(m) = e.max(servers) {
                e.erase(m, now);
            }
        }
        if let Some(id) = dest {
            if !lbl_overloaded(servers, &servers.slots[id]) {
                return Some(id);
            }
        }
        let id = weighted_least(servers, Server::overhead)?;
        e.insert_front(servers.make_ref(id), now);
        return Some(id);
    }
    let id = weighted_least(servers, Server::overhead)?;
    let v = lbl_victim(table.iter().map(|e| (e.used, e.lastuse)), now, expiration);
    let mut e = LblcrEntry::EMPTY;
    e.used = true;
    e.daddr = dst;
    e.lastuse = now;
    e.insert_front(servers.make_ref(id), now);
    table[v] = e;
    Some(id)
}

/// What [`Scheduler::hw_program`] compiled for the card's decision supply (`sched_unit`,
/// docs/sched-unit.md): the pool's descriptor and eligibility mask; the table entries are at
/// the start of the slice it was given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HwProgram {
    /// How the card answers the pool's requests (`Off`: the firmware picks).
    pub mode: SchedMode,
    /// An entry whose server is not eligible is punted to the firmware instead of being
    /// answered "no server" (sh/mh fallback; every cycle, whose entries are stale then).
    pub fallback: bool,
    /// sh/mh hash the client port too.
    pub hash_port: bool,
    /// Entries written (0 when `mode` is `Off`).
    pub len: usize,
    /// `Cycle`: the first entry of the period; the pointer goes back to it after the last.
    pub loop_start: usize,
    /// Bit `id` set when server `id` may take a new connection
    /// ([`ServerSet::eligible_mask`]).
    pub eligible: u64,
}

impl ServerSet {
    /// The servers that may take a new connection as a bit mask of ids (the card's
    /// eligibility mask): present, available, weight > 0 and not overloaded.
    pub fn eligible_mask(&self) -> u64 {
        self.ids()
            .filter(|&id| {
                let s = &self.slots[id];
                s.present && s.available && s.usable()
            })
            .fold(0, |m, id| m | 1 << id)
    }
}

impl<const P: usize, const L: usize> Scheduler<P, L> {
    /// Compiles the pool for the card's decision supply: the table entries go into `table`
    /// (the pool's region of the card's table), the descriptor is returned.
    ///
    /// rr/wrr become a `Cycle`: the picks this scheduler would make from its current state,
    /// as a prefix and a period (found by Brent's cycle detection over the algorithm's
    /// state), so the card answers exactly the sequence IPVS would; sh/dh/mh copy their
    /// table. Everything else is `Off` (the firmware picks): persistence, lblc, lblcr, twos,
    /// the least-connection schedulers, and a cycle or table larger than `table`.
    /// The scheduler itself does not move: after the card has answered some requests of a
    /// cycle, [`Scheduler::hw_advance`] brings it to the card's position.
    pub fn hw_program(&mut self, servers: &ServerSet, table: &mut [u8]) -> HwProgram {
        self.sync(servers);
        let off = HwProgram {
            mode: SchedMode::Off,
            fallback: false,
            hash_port: false,
            len: 0,
            loop_start: 0,
            eligible: servers.eligible_mask(),
        };
        if self.cfg.persist_timeout != 0 {
            return off;
        }
        let (fallback, hash_port) = (self.cfg.fallback, self.cfg.hash_port);
        let copy = |t: &[u8], table: &mut [u8], mode, hash_port| match table.get_mut(..t.len()) {
            Some(dst) => {
                dst.copy_from_slice(t);
                HwProgram {
                    mode,
                    fallback,
                    hash_port,
                    len: t.len(),
                    ..off
                }
            }
            None => off,
        };
        match &self.state {
            State::Hash(t) if self.cfg.kind == Kind::Sh => copy(t, table, SchedMode::Sh, hash_port),
            State::Hash(t) => copy(t, table, SchedMode::Dh, false),
            State::Mh(t) => copy(t, table, SchedMode::Mh, hash_port),
            State::Rr { .. } | State::Wrr { .. } => match self.compile_cycle(servers, table) {
                Some((len, loop_start)) => HwProgram {
                    mode: SchedMode::Cycle,
                    fallback: true,
                    len,
                    loop_start,
                    ..off
                },
                None => off,
            },
            _ => off,
        }
    }

    /// Moves a `Cycle` pool's state to the card's: the `ptr` picks from the state it was
    /// compiled in (the card's pointer, read back while the pool is `Off`). Call it with the
    /// servers as they were compiled, before applying a change, and with no pick of the
    /// firmware's own in between (the card's position in the prefix or the period is the
    /// number of picks from the compiled state, whatever the laps of the period).
    pub fn hw_advance(&mut self, servers: &ServerSet, ptr: usize) {
        for _ in 0..ptr {
            let _ = self.pick(servers, 0, 0, 0);
        }
    }

    /// The rr/wrr state that decides the next picks while the servers do not change.
    fn cycle_state(&self) -> (u16, i64) {
        match self.state {
            State::Rr { cursor } => (
                cursor.map_or(u16::MAX, |(s, p)| u16::from(s) << 8 | u16::from(p)),
                0,
            ),
            State::Wrr { cl, cw, .. } => (cl.map_or(u16::MAX, |p| p as u16), cw),
            _ => (0, 0),
        }
    }

    /// rr/wrr: writes the picks from the current state into `table` as a prefix and a
    /// period; returns (entries, start of the period), `None` when they do not fit.
    fn compile_cycle(&self, servers: &ServerSet, table: &mut [u8]) -> Option<(usize, usize)> {
        let cap = table.len();
        let step = |s: &mut Self| {
            let _ = s.pick(servers, 0, 0, 0);
        };
        // Brent: the period
        let (mut power, mut lam) = (1usize, 1usize);
        let mut tortoise = self.cycle_state();
        let mut hare = self.clone();
        step(&mut hare);
        while hare.cycle_state() != tortoise {
            if power == lam {
                tortoise = hare.cycle_state();
                power *= 2;
                lam = 0;
            }
            step(&mut hare);
            lam += 1;
            if lam > cap || power > 2 * cap {
                return None;
            }
        }
        // the prefix
        let (mut t, mut h) = (self.clone(), self.clone());
        for _ in 0..lam {
            step(&mut h);
        }
        let mut mu = 0;
        while t.cycle_state() != h.cycle_state() {
            step(&mut t);
            step(&mut h);
            mu += 1;
            if mu + lam > cap {
                return None;
            }
        }
        let mut c = self.clone();
        for e in table.get_mut(..mu + lam)? {
            *e = c.pick(servers, 0, 0, 0).map_or(NONE, |id| id as u8);
        }
        Some((mu + lam, mu))
    }
}

/// One server as the card's least-load decision supply holds it (`load_sched`,
/// docs/load-sched.md; written with its CONFIG operation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LoadSlot {
    /// Present and available: takes part in picks.
    pub live: bool,
    /// Weight (0..=[`MAX_WEIGHT`]).
    pub weight: u16,
    /// Position in the pool's order (the IPVS destination list): the lower wins a tie.
    pub rank: u8,
    /// Upper threshold, clamped to `LOAD_THRESHOLD_MAX`.
    pub upper: u32,
    /// Lower threshold, clamped to `LOAD_THRESHOLD_MAX`.
    pub lower: u32,
}

/// What [`Scheduler::hw_load`] compiled for `load_sched`: the pool's descriptor and every
/// slot's configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoadProgram {
    /// How the card answers the pool's picks (`Off`: the firmware picks).
    pub mode: LoadMode,
    /// Words a pick reads (1..=32): slots 0 .. 2 * beats hold every live server.
    pub beats: u8,
    /// The configuration of each slot (id).
    pub slots: [LoadSlot; MAX_SERVERS],
}

/// True when changing a server's thresholds from `old` to `new` (upper, lower) clears its
/// overload flag, as IPVS does when the upper threshold is removed or raised.
pub fn thresholds_clear_overload(old: (u32, u32), new: (u32, u32)) -> bool {
    old != new && (new.0 == 0 || new.0 > old.0)
}

/// A threshold as `load_sched` holds it: larger ones become `LOAD_THRESHOLD_MAX`, which no
/// total of two `LOAD_COUNT_BITS` counts reaches in either of IPVS's comparisons
/// (total >= upper, total * 4 < upper * 3).
pub fn hw_threshold(t: u32) -> u32 {
    t.min(splicenic_layout::LOAD_THRESHOLD_MAX)
}

const _: () = assert!(MAX_SERVERS <= 64);
const _: () = assert!(
    (splicenic_layout::LOAD_THRESHOLD_MAX as u64 + 1)
        == 1 << (splicenic_layout::LOAD_COUNT_BITS + 2)
);

impl ServerSet {
    /// Every slot as `load_sched` holds it: live (present and available), weight, its rank
    /// in the order, clamped thresholds. A removed server that still drains keeps its
    /// weight and thresholds (its closes clear the overload flag by them) and is not live;
    /// a free slot is all zero.
    pub fn load_slots(&self) -> [LoadSlot; MAX_SERVERS] {
        let mut out = [LoadSlot::default(); MAX_SERVERS];
        for (id, s) in self.slots.iter().enumerate() {
            if s.present || s.activeconns + s.inactconns > 0 {
                out[id] = LoadSlot {
                    live: false,
                    weight: s.weight.min(MAX_WEIGHT) as u16,
                    rank: 0,
                    upper: hw_threshold(s.u_threshold),
                    lower: hw_threshold(s.l_threshold),
                };
            }
        }
        for (rank, id) in self.ids().enumerate() {
            out[id].live = self.slots[id].available;
            out[id].rank = rank as u8;
        }
        out
    }
}

impl<const P: usize, const L: usize> Scheduler<P, L> {
    /// Compiles the pool for the card's least-load decision supply: lc, wlc, sed, nq, fo
    /// and ovf pick in hardware from the card's connection counts; everything else
    /// (persistence, the table and cycle schedulers, lblc, lblcr, twos) is `Off`.
    pub fn hw_load(&self, servers: &ServerSet) -> LoadProgram {
        let mode = match self.cfg.kind {
            _ if self.cfg.persist_timeout != 0 => LoadMode::Off,
            Kind::Lc => LoadMode::Lc,
            Kind::Wlc => LoadMode::Wlc,
            Kind::Sed => LoadMode::Sed,
            Kind::Nq => LoadMode::Nq,
            Kind::Fo => LoadMode::Fo,
            Kind::Ovf => LoadMode::Ovf,
            _ => LoadMode::Off,
        };
        let slots = servers.load_slots();
        let top = slots.iter().rposition(|s| s.live).map_or(1, |i| i + 1);
        LoadProgram {
            mode,
            beats: top.div_ceil(2) as u8,
            slots,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_have_names_codes_and_a_default() {
        for (i, k) in Kind::ALL.into_iter().enumerate() {
            assert_eq!(k.code(), i as u32);
            assert_eq!(Kind::from_code(i as u32), Some(k));
            assert_eq!(k.to_string().parse::<Kind>(), Ok(k));
        }
        assert_eq!(Kind::from_code(14), None);
        assert_eq!(Kind::default(), Kind::Wlc);
        let e = "WLC".parse::<Kind>().unwrap_err();
        assert_eq!(e.name(), "WLC");
        let msg = e.to_string();
        assert!(
            msg.contains("`WLC`") && msg.contains("rr, wrr, lc, wlc, sed"),
            "{msg}"
        );
        let long = "x".repeat(40) + "é";
        let e = long.parse::<Kind>().unwrap_err();
        assert_eq!(e.name().len(), UnknownScheduler::KEPT);
        assert!(e.to_string().contains("...`"));
    }
    use std::vec::Vec;

    const A: usize = 0;
    const B: usize = 1;
    const C: usize = 2;

    fn set(weights: &[u32]) -> ServerSet {
        let mut s = ServerSet::new();
        for (i, &w) in weights.iter().enumerate() {
            let id = s
                .add(ServerConfig::new(0x0A00_0001 + i as u32, 80, w))
                .unwrap();
            assert_eq!(id, i);
        }
        s
    }

    fn sched(kind: Kind) -> Scheduler<16, 16> {
        Scheduler::new(SchedConfig::new(kind))
    }

    fn picks(s: &mut Scheduler<16, 16>, servers: &ServerSet, n: usize) -> Vec<Option<usize>> {
        (0..n).map(|_| s.pick(servers, 1, 1, 1)).collect()
    }

    /// Sets a server's counts to `active` established and `inactive` other connections.
    fn load(servers: &mut ServerSet, id: usize, active: u32, inactive: u32) {
        for _ in 0..active + inactive {
            servers.on_connect(id).unwrap();
        }
        for _ in 0..active {
            servers.on_established(id).unwrap();
        }
    }

    #[test]
    fn kind_names_round_trip() {
        for k in Kind::ALL {
            assert_eq!(Kind::from_name(k.name()), Some(k));
        }
        assert_eq!(Kind::from_name("WLC"), None);
    }

    #[test]
    fn server_set_errors_and_slot_reuse() {
        let mut s = ServerSet::new();
        assert_eq!(
            s.add(ServerConfig::new(1, 80, MAX_WEIGHT + 1)),
            Err(SchedError::WeightTooLarge)
        );
        let a = s.add(ServerConfig::new(1, 80, 1)).unwrap();
        assert_eq!(
            s.add(ServerConfig::new(1, 80, 2)),
            Err(SchedError::Duplicate)
        );
        assert_eq!(s.on_close(a, false), Err(SchedError::CountUnderflow));
        assert_eq!(s.on_established(a), Err(SchedError::CountUnderflow));
        assert_eq!(s.set_weight(5, 1), Err(SchedError::NotFound));
        // A removed server with a connection keeps its slot until it closes.
        s.on_connect(a).unwrap();
        s.remove(a).unwrap();
        assert_eq!(s.remove(a), Err(SchedError::NotFound));
        assert!(s.is_empty());
        let b = s.add(ServerConfig::new(2, 80, 1)).unwrap();
        assert_ne!(a, b);
        s.on_close(a, false).unwrap();
        assert!(s.get(a).is_none());
        let c = s.add(ServerConfig::new(3, 80, 1)).unwrap();
        assert_eq!(c, a);
        for i in 0..MAX_SERVERS as u32 - 2 {
            s.add(ServerConfig::new(100 + i, 80, 1)).unwrap();
        }
        assert_eq!(s.add(ServerConfig::new(7, 7, 1)), Err(SchedError::Full));
    }

    #[test]
    fn connection_counts_follow_ipvs_states() {
        let mut s = set(&[1]);
        s.on_connect(A).unwrap();
        assert_eq!(
            (
                s.get(A).unwrap().activeconns(),
                s.get(A).unwrap().inactconns()
            ),
            (0, 1)
        );
        s.on_established(A).unwrap();
        assert_eq!(
            (
                s.get(A).unwrap().activeconns(),
                s.get(A).unwrap().inactconns()
            ),
            (1, 0)
        );
        assert_eq!(s.get(A).unwrap().overhead(), 256);
        s.on_leave_established(A).unwrap();
        assert_eq!(
            (
                s.get(A).unwrap().activeconns(),
                s.get(A).unwrap().inactconns()
            ),
            (0, 1)
        );
        s.on_close(A, false).unwrap();
        assert_eq!(s.get(A).unwrap().overhead(), 0);
    }

    #[test]
    fn overload_with_default_lower_threshold() {
        // -x 4, -y 0: set at 4 connections, cleared once total * 4 < 4 * 3, i.e. below 3.
        let mut s = set(&[1]);
        s.set_thresholds(A, 4, 0).unwrap();
        for _ in 0..3 {
            s.on_connect(A).unwrap();
        }
        assert!(!s.get(A).unwrap().is_overloaded());
        s.on_connect(A).unwrap();
        assert!(s.get(A).unwrap().is_overloaded());
        s.on_close(A, false).unwrap(); // 3: 12 < 12 is false
        assert!(s.get(A).unwrap().is_overloaded());
        s.on_close(A, false).unwrap(); // 2: 8 < 12
        assert!(!s.get(A).unwrap().is_overloaded());
    }

    #[test]
    fn overload_with_lower_threshold_and_threshold_edits() {
        let mut s = set(&[1, 1]);
        s.set_thresholds(A, 4, 2).unwrap();
        load(&mut s, A, 2, 2);
        assert!(s.get(A).unwrap().is_overloaded());
        // Overloaded servers are skipped even by rr / wlc.
        let mut rr = sched(Kind::Rr);
        assert_eq!(picks(&mut rr, &s, 2), [Some(B), Some(B)]);
        s.on_close(A, true).unwrap(); // 3
        s.on_close(A, true).unwrap(); // 2: not < 2
        assert!(s.get(A).unwrap().is_overloaded());
        s.on_close(A, false).unwrap(); // 1 < 2
        assert!(!s.get(A).unwrap().is_overloaded());
        // Raising the upper threshold clears the flag at once; lowering it does not.
        load(&mut s, A, 0, 3);
        assert!(s.get(A).unwrap().is_overloaded());
        s.set_thresholds(A, 3, 0).unwrap();
        assert!(s.get(A).unwrap().is_overloaded());
        s.set_thresholds(A, 10, 0).unwrap();
        assert!(!s.get(A).unwrap().is_overloaded());
    }

    #[test]
    fn rr_cycles_and_skips_quiesced_overloaded_unavailable() {
        let mut s = set(&[1, 1, 1]);
        let mut rr = sched(Kind::Rr);
        assert_eq!(picks(&mut rr, &s, 4), [Some(A), Some(B), Some(C), Some(A)]);
        s.set_weight(B, 0).unwrap();
        assert_eq!(picks(&mut rr, &s, 3), [Some(C), Some(A), Some(C)]);
        s.set_weight(B, 1).unwrap();
        s.set_available(C, false).unwrap();
        assert_eq!(picks(&mut rr, &s, 3), [Some(A), Some(B), Some(A)]);
        s.set_weight(A, 0).unwrap();
        s.set_weight(B, 0).unwrap();
        assert_eq!(rr.pick(&s, 1, 1, 1), None);
    }

    #[test]
    fn rr_continues_after_removed_cursor() {
        let mut s = set(&[1, 1, 1]);
        let mut rr = sched(Kind::Rr);
        assert_eq!(picks(&mut rr, &s, 2), [Some(A), Some(B)]);
        s.remove(B).unwrap();
        assert_eq!(picks(&mut rr, &s, 2), [Some(C), Some(A)]);
    }

    /// The picks the card answers for a compiled cycle: the pointer walks the table and goes
    /// back to the loop start after the last entry.
    fn hw_walk(prog: &HwProgram, table: &[u8], n: usize) -> Vec<Option<usize>> {
        let mut ptr = 0;
        (0..n)
            .map(|_| {
                let e = table[ptr];
                ptr = if ptr + 1 == prog.len {
                    prog.loop_start
                } else {
                    ptr + 1
                };
                (e != NONE).then_some(usize::from(e))
            })
            .collect()
    }

    #[test]
    fn hw_program_compiles_rr_and_wrr_into_their_exact_sequence() {
        for (kind, weights) in [
            (Kind::Wrr, &[4u32, 3, 2][..]),
            (Kind::Wrr, &[4, 2]),
            (Kind::Wrr, &[0, 5, 0, 7, 3]),
            (Kind::Rr, &[1, 0, 1, 1]),
            (Kind::Wrr, &[0, 0]),
        ] {
            let s = set(weights);
            let mut fw = sched(kind);
            let mut table = [0u8; 64];
            let prog = fw.hw_program(&s, &mut table);
            assert_eq!(prog.mode, SchedMode::Cycle, "{kind} {weights:?}");
            assert!(prog.fallback && prog.loop_start < prog.len);
            let mut reference = sched(kind);
            let want = picks(&mut reference, &s, 60);
            assert_eq!(hw_walk(&prog, &table, 60), want, "{kind} {weights:?}");
            // the firmware's scheduler did not move; hw_advance brings it to the card's place
            let at = 7.min(prog.len - 1);
            fw.hw_advance(&s, at);
            let mut again = sched(kind);
            let _ = picks(&mut again, &s, at);
            assert_eq!(picks(&mut fw, &s, 20), picks(&mut again, &s, 20));
        }
        // 4/3/2: the first pick, then the period of 9
        let mut table = [0u8; 64];
        let prog = sched(Kind::Wrr).hw_program(&set(&[4, 3, 2]), &mut table);
        assert_eq!((prog.len, prog.loop_start), (10, 1));
        assert_eq!(prog.eligible, 0b111);
    }

    #[test]
    fn hw_program_leaves_what_does_not_fit_or_is_not_a_table_to_the_firmware() {
        // a cycle longer than the region
        let s = set(&[1000, 999]);
        let mut table = [0u8; 256];
        assert_eq!(
            sched(Kind::Wrr).hw_program(&s, &mut table).mode,
            SchedMode::Off
        );
        // persistence, least connection, an mh table larger than the region
        let s = set(&[1, 2]);
        let cfg = SchedConfig::new(Kind::Rr).with_persistence(360, u32::MAX);
        let p = Scheduler::<4, 4>::new(cfg).hw_program(&s, &mut table);
        assert_eq!((p.mode, p.len), (SchedMode::Off, 0));
        assert_eq!(
            sched(Kind::Wlc).hw_program(&s, &mut table).mode,
            SchedMode::Off
        );
        assert_eq!(
            sched(Kind::Mh).hw_program(&s, &mut table).mode,
            SchedMode::Off
        );
        // sh copies its table; mh with room does too
        let p = sched(Kind::Sh).hw_program(&s, &mut table);
        assert_eq!((p.mode, p.len), (SchedMode::Sh, HASH_TABLE_SIZE));
        let mut big = [0u8; MH_TABLE_SIZE];
        let p = sched(Kind::Mh).hw_program(&s, &mut big);
        assert_eq!((p.mode, p.len), (SchedMode::Mh, MH_TABLE_SIZE));
        assert!(big.iter().all(|&e| e < 2));
    }

    #[test]
    fn hw_load_compiles_the_least_load_kinds_with_ranks_and_clamped_thresholds() {
        let mut s = set(&[3, 0, 5]);
        s.set_thresholds(2, 1_000_000, 7).unwrap();
        s.remove(0).unwrap();
        let id = s.add(ServerConfig::new(9, 80, 2)).unwrap();
        s.set_available(1, false).unwrap();
        let p = sched(Kind::Sed).hw_load(&s);
        assert_eq!(p.mode, LoadMode::Sed);
        // order: 1, 2, then the new server in the freed slot 0
        assert_eq!(id, 0);
        let ranks: Vec<_> = s.ids().map(|i| p.slots[i].rank).collect();
        assert_eq!(ranks, [0, 1, 2]);
        assert!(p.slots[0].live && !p.slots[1].live && p.slots[2].live);
        assert_eq!(p.slots[2].upper, splicenic_layout::LOAD_THRESHOLD_MAX);
        assert_eq!(p.slots[2].lower, 7);
        assert_eq!(p.beats, 2);
        for k in [Kind::Lc, Kind::Wlc, Kind::Nq, Kind::Fo, Kind::Ovf] {
            assert_ne!(sched(k).hw_load(&s).mode, LoadMode::Off, "{k}");
        }
        for k in [
            Kind::Rr,
            Kind::Wrr,
            Kind::Sh,
            Kind::Mh,
            Kind::Lblc,
            Kind::Twos,
        ] {
            assert_eq!(sched(k).hw_load(&s).mode, LoadMode::Off, "{k}");
        }
        let cfg = SchedConfig::new(Kind::Wlc).with_persistence(360, u32::MAX);
        let p = Scheduler::<4, 4>::new(cfg).hw_load(&s);
        assert_eq!(p.mode, LoadMode::Off);
        assert_eq!(sched(Kind::Lc).hw_load(&ServerSet::new()).beats, 1);
    }

    #[test]
    fn wrr_sequences_from_the_reference() {
        let s = set(&[4, 3, 2]);
        let mut w = sched(Kind::Wrr);
        let seq = [A, A, B, A, B, C, A, B, C];
        let got: Vec<usize> = picks(&mut w, &s, 18)
            .into_iter()
            .map(Option::unwrap)
            .collect();
        assert_eq!(&got[..9], &seq);
        assert_eq!(&got[9..], &seq);

        let s = set(&[4, 2]);
        let mut w = sched(Kind::Wrr);
        let got: Vec<usize> = picks(&mut w, &s, 6)
            .into_iter()
            .map(Option::unwrap)
            .collect();
        assert_eq!(got, [A, A, B, A, A, B]);
    }

    #[test]
    fn wrr_skips_weight_zero_and_overloaded_and_resets_on_change() {
        let mut s = set(&[2, 0, 1]);
        let mut w = sched(Kind::Wrr);
        let got: Vec<usize> = picks(&mut w, &s, 6)
            .into_iter()
            .map(Option::unwrap)
            .collect();
        assert_eq!(got, [A, A, C, A, A, C]);
        // Overloaded A: only C, and never the quiesced B.
        s.set_thresholds(A, 1, 0).unwrap();
        s.on_connect(A).unwrap();
        let got: Vec<usize> = picks(&mut w, &s, 3)
            .into_iter()
            .map(Option::unwrap)
            .collect();
        assert_eq!(got, [C, C, C]);
        s.set_weight(C, 0).unwrap();
        assert_eq!(w.pick(&s, 1, 1, 1), None);
        // Any change restarts the scan from the head of the list.
        s.set_thresholds(A, 0, 0).unwrap();
        s.set_weight(C, 1).unwrap();
        let mut w = sched(Kind::Wrr);
        assert_eq!(picks(&mut w, &s, 2), [Some(A), Some(A)]);
        s.set_weight(B, 2).unwrap(); // weights 2/2/1, cw stays 1 -> scan resumes from head
        assert_eq!(picks(&mut w, &s, 3), [Some(A), Some(B), Some(C)]);
        assert_eq!(
            picks(&mut w, &s, 5),
            [Some(A), Some(B), Some(A), Some(B), Some(C)]
        );
    }

    #[test]
    fn lc_lowest_overhead_earlier_wins_ties() {
        let mut s = set(&[1, 5, 5]);
        load(&mut s, A, 1, 0); // 256
        load(&mut s, B, 0, 10); // 10
        load(&mut s, C, 0, 10); // 10
        let mut lc = sched(Kind::Lc);
        assert_eq!(lc.pick(&s, 1, 1, 1), Some(B));
        s.on_connect(B).unwrap(); // 11
        assert_eq!(lc.pick(&s, 1, 1, 1), Some(C));
        // The weight only excludes at 0.
        let mut s = set(&[0, 1, 100]);
        load(&mut s, C, 0, 1);
        assert_eq!(lc.pick(&s, 1, 1, 1), Some(B));
    }

    #[test]
    fn wlc_uses_overhead_over_weight() {
        let mut s = set(&[1, 3]);
        load(&mut s, A, 1, 0); // 256 / 1
        load(&mut s, B, 2, 0); // 512 / 3
        let mut wlc = sched(Kind::Wlc);
        // 256 * 3 = 768 > 512 * 1 = 512 -> B
        assert_eq!(wlc.pick(&s, 1, 1, 1), Some(B));
        let mut s = set(&[1, 2]);
        load(&mut s, A, 1, 0); // 256 / 1
        load(&mut s, B, 2, 0); // 512 / 2: tie -> A
        assert_eq!(wlc.pick(&s, 1, 1, 1), Some(A));
        // Inactive connections count 1/256 of an active one.
        let mut s = set(&[1, 1]);
        load(&mut s, A, 0, 255);
        load(&mut s, B, 1, 0);
        assert_eq!(wlc.pick(&s, 1, 1, 1), Some(A));
        s.on_connect(A).unwrap(); // 256 vs 256: tie -> A
        assert_eq!(wlc.pick(&s, 1, 1, 1), Some(A));
        s.on_connect(A).unwrap(); // 257 > 256
        assert_eq!(wlc.pick(&s, 1, 1, 1), Some(B));
    }

    #[test]
    fn sed_and_nq() {
        let mut s = set(&[1, 3]);
        load(&mut s, A, 0, 50); // (0 + 1) / 1 = 1, inactive ignored
        load(&mut s, B, 1, 0); // (1 + 1) / 3
        let mut sed = sched(Kind::Sed);
        assert_eq!(sed.pick(&s, 1, 1, 1), Some(B));
        // nq: A is idle (activeconns == 0) -> A, whatever the weights.
        let mut nq = sched(Kind::Nq);
        assert_eq!(nq.pick(&s, 1, 1, 1), Some(A));
        let mut s = set(&[1, 3]);
        load(&mut s, A, 2, 0); // 3 / 1
        load(&mut s, B, 3, 0); // 4 / 3
        assert_eq!(nq.pick(&s, 1, 1, 1), Some(B));
        assert_eq!(sed.pick(&s, 1, 1, 1), Some(B));
        let mut s = set(&[1, 2]);
        load(&mut s, A, 1, 0); // 2 / 1
        load(&mut s, B, 3, 0); // 4 / 2: tie -> A
        assert_eq!(sed.pick(&s, 1, 1, 1), Some(A));
        assert_eq!(nq.pick(&s, 1, 1, 1), Some(A));
    }

    #[test]
    fn fo_highest_weight_first_wins() {
        let mut s = set(&[2, 5, 5]);
        let mut fo = sched(Kind::Fo);
        assert_eq!(fo.pick(&s, 1, 1, 1), Some(B));
        s.set_thresholds(B, 1, 0).unwrap();
        s.on_connect(B).unwrap();
        assert_eq!(fo.pick(&s, 1, 1, 1), Some(C));
        s.set_available(C, false).unwrap();
        assert_eq!(fo.pick(&s, 1, 1, 1), Some(A));
    }

    #[test]
    fn ovf_highest_weight_with_room() {
        let mut s = set(&[5, 3, 3]);
        let mut ovf = sched(Kind::Ovf);
        load(&mut s, A, 5, 0);
        assert_eq!(ovf.pick(&s, 1, 1, 1), Some(A)); // 5 <= 5
        s.on_connect(A).unwrap();
        s.on_established(A).unwrap();
        assert_eq!(ovf.pick(&s, 1, 1, 1), Some(B)); // A has 6 > 5; B before C
        load(&mut s, B, 4, 0);
        assert_eq!(ovf.pick(&s, 1, 1, 1), Some(C));
        load(&mut s, C, 4, 0);
        assert_eq!(ovf.pick(&s, 1, 1, 1), None);
    }

    #[test]
    fn twos_prefers_the_less_loaded_and_never_picks_ineligible() {
        let mut s = set(&[1, 1, 0]);
        load(&mut s, A, 10, 0);
        let mut t = sched(Kind::Twos);
        let mut count = [0usize; 3];
        for _ in 0..1000 {
            count[t.pick(&s, 1, 1, 1).unwrap()] += 1;
        }
        assert_eq!(count[C], 0);
        // B wins whenever it is one of the two choices. The kernel draws in [0, total]
        // inclusive and the first server takes the 0, so with weights 1/1 each draw is A
        // with probability 2/3 and B wins 1 - (2/3)^2 = 5/9 of the picks.
        assert!((500..620).contains(&count[B]), "{count:?}");
        s.set_available(B, false).unwrap();
        assert_eq!(t.pick(&s, 1, 1, 1), Some(A));
        s.set_weight(A, 0).unwrap();
        assert_eq!(t.pick(&s, 1, 1, 1), None);
    }

    #[test]
    fn dh_maps_destinations_stably_and_fails_or_falls_back() {
        let mut s = set(&[1, 1, 1]);
        let mut dh = sched(Kind::Dh);
        // Buckets hold A, B, C, A, ... (dh ignores weights).
        assert_eq!(dh_hashkey(1, 0), 177);
        assert_eq!(dh.pick(&s, 9, 9, 1), Some(177 % 3));
        assert_eq!(dh_hashkey(2, 0), 98);
        assert_eq!(dh.pick(&s, 9, 9, 2), Some(98 % 3));
        for dst in 0..200u32 {
            let want = dh_hashkey(dst, 0) % 3;
            assert_eq!(dh.pick(&s, 7, 7, dst), Some(want));
            assert_eq!(dh.pick(&s, 8, 8, dst), Some(want), "client does not matter");
        }
        // Quiesced target: no server (IPVS dh has no fallback) ...
        s.set_weight(177 % 3, 0).unwrap();
        assert_eq!(dh.pick(&s, 9, 9, 1), None);
        // ... unless the fallback extension is on.
        let mut cfg = SchedConfig::new(Kind::Dh);
        cfg.fallback = true;
        let mut dhf: Scheduler<4, 4> = Scheduler::new(cfg);
        let got = dhf.pick(&s, 9, 9, 1).unwrap();
        assert_ne!(got, 177 % 3);
        // Unavailable = deleted: the table is rebuilt over the two others.
        s.set_weight(177 % 3, 1).unwrap();
        s.set_available(A, false).unwrap();
        for dst in 0..50u32 {
            let want = [B, C][dh_hashkey(dst, 0) % 2];
            assert_eq!(dh.pick(&s, 7, 7, dst), Some(want));
        }
    }

    #[test]
    fn sh_weighted_table_port_and_fallback() {
        let mut s = set(&[3, 1]);
        let mut sh = sched(Kind::Sh);
        let mut count = [0usize; 2];
        for client in 0..4096u32 {
            let b = sh_hashkey(client, 0, 0);
            let want = if b % 4 < 3 { A } else { B };
            let got = sh.pick(&s, client, 1234, 0).unwrap();
            assert_eq!(got, want);
            assert_eq!(
                sh.pick(&s, client, 999, 5),
                Some(want),
                "port and dst ignored"
            );
            count[got] += 1;
        }
        assert!(count[A] > 2 * count[B], "{count:?}");
        assert_eq!(sh_hashkey(1, 0, 0), 0x61);
        // sh-port: the port takes part in the hash.
        let mut cfg = SchedConfig::new(Kind::Sh);
        cfg.hash_port = true;
        let mut shp: Scheduler<4, 4> = Scheduler::new(cfg);
        let differs = (0..64u16).any(|p| shp.pick(&s, 1, p, 0) != sh.pick(&s, 1, p, 0));
        assert!(differs);
        assert_eq!(
            shp.pick(&s, 10, 20, 0),
            Some(if sh_hashkey(10, 20, 0) % 4 < 3 { A } else { B })
        );
        // Hashed server quiesced: None, or another one with sh-fallback.
        let client = (0..).find(|&c| sh_hashkey(c, 0, 0) % 4 == 3).unwrap();
        s.set_weight(B, 0).unwrap();
        assert_eq!(sh.pick(&s, client, 0, 0), None);
        let mut cfg = SchedConfig::new(Kind::Sh);
        cfg.fallback = true;
        let mut shf: Scheduler<4, 4> = Scheduler::new(cfg);
        assert_eq!(shf.pick(&s, client, 0, 0), Some(A));
    }

    #[test]
    fn siphash_matches_reference_vectors() {
        let key0 = 0x0706_0504_0302_0100;
        let key1 = 0x0f0e_0d0c_0b0a_0908;
        let msg: Vec<u8> = (0u8..16).collect();
        assert_eq!(siphash24(&msg[..0], key0, key1), 0x726f_db47_dd0e_0e31);
        assert_eq!(siphash24(&msg[..15], key0, key1), 0xa129_ca61_49be_45e5);
        let hsip = [
            0x050f_c4dc,
            0x7d57_ca93,
            0x4dc7_d44d,
            0xe7dd_f7fb,
            0x88d3_8328,
            0x4953_3b67,
            0xc59f_22a7,
            0x9bb1_1140,
            0x8d29_9a8e,
        ];
        for (len, &want) in hsip.iter().enumerate() {
            assert_eq!(hsiphash64(&msg[..len], key0, key1), want, "len {len}");
        }
    }

    fn mh_set(weights: &[u32]) -> ServerSet {
        let mut s = ServerSet::new();
        for (i, &w) in weights.iter().enumerate() {
            s.add(ServerConfig::new(0xC0A8_0001 + i as u32, 8080, w))
                .unwrap();
        }
        s
    }

    fn mh_counts(servers: &ServerSet) -> [usize; 4] {
        let mut table = [NONE; MH_TABLE_SIZE];
        build_mh_table(servers, &mut table);
        let mut c = [0usize; 4];
        for &slot in table.iter() {
            c[usize::from(slot)] += 1;
        }
        c
    }

    #[test]
    fn mh_spreads_evenly_and_by_weight() {
        let c = mh_counts(&mh_set(&[1, 1, 1, 1]));
        assert_eq!(c.iter().sum::<usize>(), MH_TABLE_SIZE);
        for &n in &c {
            assert!((1013..=1034).contains(&n), "{c:?}");
        }
        let c = mh_counts(&mh_set(&[2, 1, 1, 0]));
        assert_eq!(c[3], 0);
        assert!(c[0] > 1900 && c[1] > 950 && c[2] > 950, "{c:?}");
    }

    #[test]
    fn mh_is_stable_and_quiescing_keeps_other_slots() {
        let mut s = mh_set(&[1, 1, 1, 1]);
        let mut mh = sched(Kind::Mh);
        let before: Vec<Option<usize>> =
            (0..2000u32).map(|c| mh.pick(&s, c * 7919, 0, 0)).collect();
        assert!(before.iter().all(Option::is_some));
        let again: Vec<Option<usize>> = (0..2000u32).map(|c| mh.pick(&s, c * 7919, 0, 0)).collect();
        assert_eq!(before, again);
        // Weight 0 keeps the table (last weight): clients of the others do not move and the
        // quiesced server's clients fail without mh-fallback.
        s.set_weight(B, 0).unwrap();
        for (c, &was) in before.iter().enumerate() {
            let now = mh.pick(&s, c as u32 * 7919, 0, 0);
            if was == Some(B) {
                assert_eq!(now, None);
            } else {
                assert_eq!(now, was);
            }
        }
        let mut cfg = SchedConfig::new(Kind::Mh);
        cfg.fallback = true;
        let mut mhf: Scheduler<4, 4> = Scheduler::new(cfg);
        for (c, &was) in before.iter().enumerate() {
            let now = mhf.pick(&s, c as u32 * 7919, 0, 0);
            assert!(now.is_some() && now != Some(B));
            if was != Some(B) {
                assert_eq!(now, was);
            }
        }
        // Deleting (unavailable) rebuilds the table with little disruption.
        s.set_weight(B, 1).unwrap();
        s.set_available(D_MH, false).unwrap();
        let mut kept = 0;
        let mut others = 0;
        for (c, &was) in before.iter().enumerate() {
            let now = mh.pick(&s, c as u32 * 7919, 0, 0);
            assert!(now.is_some() && now != Some(D_MH));
            if was != Some(D_MH) {
                others += 1;
                kept += usize::from(now == was);
            }
        }
        assert!(kept * 100 >= others * 90, "{kept}/{others}");
    }

    const D_MH: usize = 3;

    #[test]
    fn lblc_keeps_destination_until_overloaded() {
        let mut s = set(&[2, 2]);
        let mut l = sched(Kind::Lblc);
        assert_eq!(l.pick(&s, 1, 1, 0xAAAA), Some(A));
        load(&mut s, A, 2, 0);
        // wlc would now choose B, but the destination stays on A (2 active, not > weight 2).
        assert_eq!(l.pick(&s, 1, 1, 0xAAAA), Some(A));
        assert_eq!(l.pick(&s, 1, 1, 0xBBBB), Some(B));
        // 3 active > weight 2 while B has 0 * 2 < 2: rescheduled with wlc, entry moves.
        load(&mut s, A, 1, 0);
        assert_eq!(l.pick(&s, 1, 1, 0xAAAA), Some(B));
        load(&mut s, B, 5, 0);
        assert_eq!(
            l.pick(&s, 1, 1, 0xAAAA),
            Some(B),
            "nobody below half weight"
        );
        // Quiesced: rescheduled.
        s.set_weight(B, 0).unwrap();
        assert_eq!(l.pick(&s, 1, 1, 0xAAAA), Some(A));
        assert_eq!(l.pick(&s, 1, 1, 0xBBBB), Some(A));
    }

    #[test]
    fn lblc_entries_expire() {
        let mut s = set(&[1, 1]);
        let mut cfg = SchedConfig::new(Kind::Lblc);
        cfg.lbl_expiration = 100;
        let mut l: Scheduler<4, 4> = Scheduler::new(cfg);
        assert_eq!(l.pick(&s, 1, 1, 7), Some(A));
        load(&mut s, A, 0, 1);
        l.set_now(99);
        assert_eq!(l.pick(&s, 1, 1, 7), Some(A));
        l.set_now(198);
        assert_eq!(l.pick(&s, 1, 1, 7), Some(A), "use refreshes the entry");
        l.set_now(298);
        assert_eq!(l.pick(&s, 1, 1, 7), Some(B), "expired: scheduled afresh");
    }

    #[test]
    fn lblcr_grows_and_shrinks_its_set() {
        let mut s = set(&[2, 2, 2]);
        let mut cfg = SchedConfig::new(Kind::Lblcr);
        cfg.lbl_expiration = 100;
        let mut l: Scheduler<4, 4> = Scheduler::new(cfg);
        assert_eq!(l.pick(&s, 1, 1, 9), Some(A));
        load(&mut s, A, 3, 0); // 3 > 2 and B has 0 * 2 < 2: add the wlc pick
        assert_eq!(l.pick(&s, 1, 1, 9), Some(B));
        let State::Lblcr(t) = &l.state else { panic!() };
        assert_eq!(t[0].len, 2);
        // Least loaded member is used while it is not overloaded.
        load(&mut s, B, 1, 0);
        load(&mut s, C, 0, 1);
        assert_eq!(l.pick(&s, 1, 1, 9), Some(B));
        // Set unchanged for longer than the expiration (while the entry stays in use): the
        // most loaded member (A) goes.
        l.set_now(60);
        assert_eq!(l.pick(&s, 1, 1, 9), Some(B));
        l.set_now(101);
        assert_eq!(l.pick(&s, 1, 1, 9), Some(B));
        let State::Lblcr(t) = &l.state else { panic!() };
        assert_eq!(t[0].members(), &[s.make_ref(B)]);
    }

    #[test]
    fn persistence_honours_netmask_and_timeout() {
        let s = set(&[1, 1, 1]);
        let cfg = SchedConfig::new(Kind::Rr).with_persistence(360, 0xFFFF_FF00);
        let mut p: Scheduler<8, 4> = Scheduler::new(cfg);
        let c1 = 0xC633_6401; // 198.51.100.1
        let c2 = 0xC633_6402; // same /24
        let c3 = 0xC633_6501; // other /24
        assert_eq!(p.pick(&s, c1, 1000, 0), Some(A));
        assert_eq!(p.pick(&s, c2, 1001, 0), Some(A));
        assert_eq!(p.pick(&s, c3, 1002, 0), Some(B));
        p.set_now(359);
        assert_eq!(p.pick(&s, c1, 1003, 0), Some(A));
        assert_eq!(p.persistence_len(), 2);
        // 360 ticks after its last use the entry is gone: rr continues.
        p.set_now(359 + 360);
        assert_eq!(p.pick(&s, c1, 1004, 0), Some(C));
    }

    #[test]
    fn persistence_lives_while_connections_are_open() {
        let mut s = set(&[1, 1]);
        let cfg = SchedConfig::new(Kind::Rr).with_persistence(10, u32::MAX);
        let mut p: Scheduler<8, 4> = Scheduler::new(cfg);
        let id = p.pick(&s, 5, 1, 0).unwrap();
        p.on_connect(&mut s, id, 5).unwrap();
        p.set_now(1000);
        assert_eq!(p.pick(&s, 5, 2, 0), Some(id));
        p.on_close(&mut s, id, 5, false).unwrap();
        p.set_now(1009);
        assert_eq!(p.pick(&s, 5, 3, 0), Some(id));
        p.set_now(1019);
        assert_ne!(p.pick(&s, 5, 4, 0), Some(id));
    }

    #[test]
    fn persistence_and_quiesced_or_failed_servers() {
        let mut s = set(&[1, 1]);
        let cfg = SchedConfig::new(Kind::Wlc).with_persistence(DEFAULT_PERSIST_TIMEOUT, u32::MAX);
        let mut p: Scheduler<8, 4> = Scheduler::new(cfg);
        assert_eq!(p.pick(&s, 5, 1, 0), Some(A));
        // Weight 0: existing clients keep going (expire_quiescent_template = 0) ...
        s.set_weight(A, 0).unwrap();
        assert_eq!(p.pick(&s, 5, 1, 0), Some(A));
        assert_eq!(p.pick(&s, 6, 1, 0), Some(B));
        // ... unless expire_quiescent is set.
        let mut cfg_q = cfg;
        cfg_q.expire_quiescent = true;
        let mut q: Scheduler<8, 4> = Scheduler::new(cfg_q);
        s.set_weight(A, 1).unwrap();
        assert_eq!(q.pick(&s, 5, 1, 0), Some(A));
        s.set_weight(A, 0).unwrap();
        assert_eq!(q.pick(&s, 5, 1, 0), Some(B));
        // A failed server drops its clients' entries.
        s.set_weight(A, 1).unwrap();
        s.set_available(A, false).unwrap();
        assert_eq!(p.pick(&s, 5, 1, 0), Some(B));
        s.set_available(A, true).unwrap();
        assert_eq!(p.pick(&s, 5, 1, 0), Some(B));
    }

    #[test]
    fn persistence_table_full_evicts_oldest_idle() {
        let s = set(&[1, 1]);
        let cfg = SchedConfig::new(Kind::Rr).with_persistence(1000, u32::MAX);
        let mut p: Scheduler<2, 1> = Scheduler::new(cfg);
        assert_eq!(p.pick(&s, 1, 0, 0), Some(A));
        p.set_now(1);
        assert_eq!(p.pick(&s, 2, 0, 0), Some(B));
        p.set_now(2);
        assert_eq!(p.pick(&s, 3, 0, 0), Some(A)); // evicts client 1
        assert_eq!(p.pick(&s, 2, 0, 0), Some(B));
        assert_eq!(p.pick(&s, 1, 0, 0), Some(B)); // rescheduled by rr
    }

    #[test]
    fn no_server_means_none_for_every_kind() {
        let empty = ServerSet::new();
        let quiesced = set(&[0, 0]);
        for k in Kind::ALL {
            let mut sch: Scheduler<4, 4> = Scheduler::new(SchedConfig::new(k));
            assert_eq!(sch.pick(&empty, 1, 1, 1), None, "{}", k.name());
            assert_eq!(sch.pick(&quiesced, 1, 1, 1), None, "{}", k.name());
        }
    }

    #[test]
    fn every_kind_picks_a_usable_server() {
        let mut s = set(&[1, 0, 3]);
        s.set_thresholds(A, 1, 0).unwrap();
        s.on_connect(A).unwrap();
        for k in Kind::ALL {
            let mut cfg = SchedConfig::new(k);
            cfg.fallback = true;
            let mut sch: Scheduler<4, 4> = Scheduler::new(cfg);
            for c in 0..20u32 {
                assert_eq!(sch.pick(&s, c, c as u16, c), Some(C), "{}", k.name());
            }
        }
    }
}
