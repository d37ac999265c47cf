#[repr(C)]
#[doc = "Register block"]
pub struct RegisterBlock {
    blkid: Blkid,
    key_src_ip: KeySrcIp,
    key_dst_ip: KeyDstIp,
    key_ports: KeyPorts,
    value: Value,
    cmd: Cmd,
    status: Status,
    result: Result,
    bucket: Bucket,
    entries: Entries,
    inserts: Inserts,
    deletes: Deletes,
    exists: Exists,
    bucket_full: BucketFull,
    not_found: NotFound,
    _reserved15: [u8; 0x04],
    state_slot: StateSlot,
    state_cmd: StateCmd,
    state_status: StateStatus,
    _reserved18: [u8; 0xb4],
    state_static: [StateStatic; 15],
    _reserved19: [u8; 0x04],
    state_dyn: [StateDyn; 9],
}
impl RegisterBlock {
    #[doc = "0x00 - Block type (31:16) and version (15:0)"]
    #[inline(always)]
    pub const fn blkid(&self) -> &Blkid {
        &self.blkid
    }
    #[doc = "0x04 - Command key: source IPv4 address (host order)"]
    #[inline(always)]
    pub const fn key_src_ip(&self) -> &KeySrcIp {
        &self.key_src_ip
    }
    #[doc = "0x08 - Command key: destination IPv4 address (host order)"]
    #[inline(always)]
    pub const fn key_dst_ip(&self) -> &KeyDstIp {
        &self.key_dst_ip
    }
    #[doc = "0x0c - Command key: TCP ports"]
    #[inline(always)]
    pub const fn key_ports(&self) -> &KeyPorts {
        &self.key_ports
    }
    #[doc = "0x10 - INSERT value: flow state slot and half"]
    #[inline(always)]
    pub const fn value(&self) -> &Value {
        &self.value
    }
    #[doc = "0x14 - Flow table command: a write starts it (ignored while STATUS.BUSY)"]
    #[inline(always)]
    pub const fn cmd(&self) -> &Cmd {
        &self.cmd
    }
    #[doc = "0x18 - Flow table command status"]
    #[inline(always)]
    pub const fn status(&self) -> &Status {
        &self.status
    }
    #[doc = "0x1c - Entry found by the last LOOKUP (on EXISTS: the entry already stored)"]
    #[inline(always)]
    pub const fn result(&self) -> &Result {
        &self.result
    }
    #[doc = "0x20 - Bucket (hash) of the last command's key"]
    #[inline(always)]
    pub const fn bucket(&self) -> &Bucket {
        &self.bucket
    }
    #[doc = "0x24 - Entries in the table"]
    #[inline(always)]
    pub const fn entries(&self) -> &Entries {
        &self.entries
    }
    #[doc = "0x28 - Successful INSERT commands"]
    #[inline(always)]
    pub const fn inserts(&self) -> &Inserts {
        &self.inserts
    }
    #[doc = "0x2c - Successful DELETE commands"]
    #[inline(always)]
    pub const fn deletes(&self) -> &Deletes {
        &self.deletes
    }
    #[doc = "0x30 - INSERT commands refused with EXISTS"]
    #[inline(always)]
    pub const fn exists(&self) -> &Exists {
        &self.exists
    }
    #[doc = "0x34 - INSERT commands refused with BUCKET_FULL"]
    #[inline(always)]
    pub const fn bucket_full(&self) -> &BucketFull {
        &self.bucket_full
    }
    #[doc = "0x38 - LOOKUP and DELETE commands that ended with NOT_FOUND"]
    #[inline(always)]
    pub const fn not_found(&self) -> &NotFound {
        &self.not_found
    }
    #[doc = "0x40 - Flow state slot for STATE_CMD"]
    #[inline(always)]
    pub const fn state_slot(&self) -> &StateSlot {
        &self.state_slot
    }
    #[doc = "0x44 - Flow state command: a write starts it (ignored while STATE_STATUS.BUSY)"]
    #[inline(always)]
    pub const fn state_cmd(&self) -> &StateCmd {
        &self.state_cmd
    }
    #[doc = "0x48 - Flow state command status"]
    #[inline(always)]
    pub const fn state_status(&self) -> &StateStatus {
        &self.state_status
    }
    #[doc = "0x100..0x13c - Static flow entry words (state, translation, both halves; layout in docs/datapath.md)"]
    #[inline(always)]
    pub const fn state_static(&self, n: usize) -> &StateStatic {
        &self.state_static[n]
    }
    #[doc = "Iterator for array of:"]
    #[doc = "0x100..0x13c - Static flow entry words (state, translation, both halves; layout in docs/datapath.md)"]
    #[inline(always)]
    pub fn state_static_iter(&self) -> impl Iterator<Item = &StateStatic> {
        self.state_static.iter()
    }
    #[doc = "0x140..0x164 - Dynamic flow entry words (record FlowDyn): last seen, packets C to S, packets S to C, bytes C to S (48 bits), bytes S to C (48 bits), FIN ends, teardown flags"]
    #[inline(always)]
    pub const fn state_dyn(&self, n: usize) -> &StateDyn {
        &self.state_dyn[n]
    }
    #[doc = "Iterator for array of:"]
    #[doc = "0x140..0x164 - Dynamic flow entry words (record FlowDyn): last seen, packets C to S, packets S to C, bytes C to S (48 bits), bytes S to C (48 bits), FIN ends, teardown flags"]
    #[inline(always)]
    pub fn state_dyn_iter(&self) -> impl Iterator<Item = &StateDyn> {
        self.state_dyn.iter()
    }
}
#[doc = "BLKID (r) register accessor: Block type (31:16) and version (15:0)\n\nYou can [`read`](crate::Reg::read) this register and get [`blkid::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@blkid`] module"]
#[doc(alias = "BLKID")]
pub type Blkid = crate::Reg<blkid::BlkidSpec>;
#[doc = "Block type (31:16) and version (15:0)"]
pub mod blkid;
#[doc = "KEY_SRC_IP (rw) register accessor: Command key: source IPv4 address (host order)\n\nYou can [`read`](crate::Reg::read) this register and get [`key_src_ip::R`]. You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`key_src_ip::W`]. You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@key_src_ip`] module"]
#[doc(alias = "KEY_SRC_IP")]
pub type KeySrcIp = crate::Reg<key_src_ip::KeySrcIpSpec>;
#[doc = "Command key: source IPv4 address (host order)"]
pub mod key_src_ip;
#[doc = "KEY_DST_IP (rw) register accessor: Command key: destination IPv4 address (host order)\n\nYou can [`read`](crate::Reg::read) this register and get [`key_dst_ip::R`]. You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`key_dst_ip::W`]. You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@key_dst_ip`] module"]
#[doc(alias = "KEY_DST_IP")]
pub type KeyDstIp = crate::Reg<key_dst_ip::KeyDstIpSpec>;
#[doc = "Command key: destination IPv4 address (host order)"]
pub mod key_dst_ip;
#[doc = "KEY_PORTS (rw) register accessor: Command key: TCP ports\n\nYou can [`read`](crate::Reg::read) this register and get [`key_ports::R`]. You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`key_ports::W`]. You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@key_ports`] module"]
#[doc(alias = "KEY_PORTS")]
pub type KeyPorts = crate::Reg<key_ports::KeyPortsSpec>;
#[doc = "Command key: TCP ports"]
pub mod key_ports;
#[doc = "VALUE (rw) register accessor: INSERT value: flow state slot and half\n\nYou can [`read`](crate::Reg::read) this register and get [`value::R`]. You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`value::W`]. You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@value`] module"]
#[doc(alias = "VALUE")]
pub type Value = crate::Reg<value::ValueSpec>;
#[doc = "INSERT value: flow state slot and half"]
pub mod value;
#[doc = "CMD (w) register accessor: Flow table command: a write starts it (ignored while STATUS.BUSY)\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`cmd::W`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@cmd`] module"]
#[doc(alias = "CMD")]
pub type Cmd = crate::Reg<cmd::CmdSpec>;
#[doc = "Flow table command: a write starts it (ignored while STATUS.BUSY)"]
pub mod cmd;
#[doc = "STATUS (r) register accessor: Flow table command status\n\nYou can [`read`](crate::Reg::read) this register and get [`status::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@status`] module"]
#[doc(alias = "STATUS")]
pub type Status = crate::Reg<status::StatusSpec>;
#[doc = "Flow table command status"]
pub mod status;
#[doc = "RESULT (r) register accessor: Entry found by the last LOOKUP (on EXISTS: the entry already stored)\n\nYou can [`read`](crate::Reg::read) this register and get [`result::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@result`] module"]
#[doc(alias = "RESULT")]
pub type Result = crate::Reg<result::ResultSpec>;
#[doc = "Entry found by the last LOOKUP (on EXISTS: the entry already stored)"]
pub mod result;
#[doc = "BUCKET (r) register accessor: Bucket (hash) of the last command's key\n\nYou can [`read`](crate::Reg::read) this register and get [`bucket::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@bucket`] module"]
#[doc(alias = "BUCKET")]
pub type Bucket = crate::Reg<bucket::BucketSpec>;
#[doc = "Bucket (hash) of the last command's key"]
pub mod bucket;
#[doc = "ENTRIES (r) register accessor: Entries in the table\n\nYou can [`read`](crate::Reg::read) this register and get [`entries::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@entries`] module"]
#[doc(alias = "ENTRIES")]
pub type Entries = crate::Reg<entries::EntriesSpec>;
#[doc = "Entries in the table"]
pub mod entries;
#[doc = "INSERTS (r) register accessor: Successful INSERT commands\n\nYou can [`read`](crate::Reg::read) this register and get [`inserts::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@inserts`] module"]
#[doc(alias = "INSERTS")]
pub type Inserts = crate::Reg<inserts::InsertsSpec>;
#[doc = "Successful INSERT commands"]
pub mod inserts;
#[doc = "DELETES (r) register accessor: Successful DELETE commands\n\nYou can [`read`](crate::Reg::read) this register and get [`deletes::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@deletes`] module"]
#[doc(alias = "DELETES")]
pub type Deletes = crate::Reg<deletes::DeletesSpec>;
#[doc = "Successful DELETE commands"]
pub mod deletes;
#[doc = "EXISTS (r) register accessor: INSERT commands refused with EXISTS\n\nYou can [`read`](crate::Reg::read) this register and get [`exists::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@exists`] module"]
#[doc(alias = "EXISTS")]
pub type Exists = crate::Reg<exists::ExistsSpec>;
#[doc = "INSERT commands refused with EXISTS"]
pub mod exists;
#[doc = "BUCKET_FULL (r) register accessor: INSERT commands refused with BUCKET_FULL\n\nYou can [`read`](crate::Reg::read) this register and get [`bucket_full::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@bucket_full`] module"]
#[doc(alias = "BUCKET_FULL")]
pub type BucketFull = crate::Reg<bucket_full::BucketFullSpec>;
#[doc = "INSERT commands refused with BUCKET_FULL"]
pub mod bucket_full;
#[doc = "NOT_FOUND (r) register accessor: LOOKUP and DELETE commands that ended with NOT_FOUND\n\nYou can [`read`](crate::Reg::read) this register and get [`not_found::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@not_found`] module"]
#[doc(alias = "NOT_FOUND")]
pub type NotFound = crate::Reg<not_found::NotFoundSpec>;
#[doc = "LOOKUP and DELETE commands that ended with NOT_FOUND"]
pub mod not_found;
#[doc = "STATE_SLOT (rw) register accessor: Flow state slot for STATE_CMD\n\nYou can [`read`](crate::Reg::read) this register and get [`state_slot::R`]. You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`state_slot::W`]. You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@state_slot`] module"]
#[doc(alias = "STATE_SLOT")]
pub type StateSlot = crate::Reg<state_slot::StateSlotSpec>;
#[doc = "Flow state slot for STATE_CMD"]
pub mod state_slot;
#[doc = "STATE_CMD (w) register accessor: Flow state command: a write starts it (ignored while STATE_STATUS.BUSY)\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`state_cmd::W`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@state_cmd`] module"]
#[doc(alias = "STATE_CMD")]
pub type StateCmd = crate::Reg<state_cmd::StateCmdSpec>;
#[doc = "Flow state command: a write starts it (ignored while STATE_STATUS.BUSY)"]
pub mod state_cmd;
#[doc = "STATE_STATUS (r) register accessor: Flow state command status\n\nYou can [`read`](crate::Reg::read) this register and get [`state_status::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@state_status`] module"]
#[doc(alias = "STATE_STATUS")]
pub type StateStatus = crate::Reg<state_status::StateStatusSpec>;
#[doc = "Flow state command status"]
pub mod state_status;
#[doc = "STATE_STATIC (rw) register accessor: Static flow entry words (state, translation, both halves; layout in docs/datapath.md)\n\nYou can [`read`](crate::Reg::read) this register and get [`state_static::R`]. You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`state_static::W`]. You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@state_static`] module"]
#[doc(alias = "STATE_STATIC")]
pub type StateStatic = crate::Reg<state_static::StateStaticSpec>;
#[doc = "Static flow entry words (state, translation, both halves; layout in docs/datapath.md)"]
pub mod state_static;
#[doc = "STATE_DYN (rw) register accessor: Dynamic flow entry words (record FlowDyn): last seen, packets C to S, packets S to C, bytes C to S (48 bits), bytes S to C (48 bits), FIN ends, teardown flags\n\nYou can [`read`](crate::Reg::read) this register and get [`state_dyn::R`]. You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`state_dyn::W`]. You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@state_dyn`] module"]
#[doc(alias = "STATE_DYN")]
pub type StateDyn = crate::Reg<state_dyn::StateDynSpec>;
#[doc = "Dynamic flow entry words (record FlowDyn): last seen, packets C to S, packets S to C, bytes C to S (48 bits), bytes S to C (48 bits), FIN ends, teardown flags"]
pub mod state_dyn;
