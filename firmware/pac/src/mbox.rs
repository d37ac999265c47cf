#[repr(C)]
#[doc = "Register block"]
pub struct RegisterBlock {
    blkid: Blkid,
    status: Status,
    req_doorbell: ReqDoorbell,
    rsp_doorbell: RspDoorbell,
    rsp_ack: RspAck,
    req_tag: ReqTag,
    rsp_tag: RspTag,
    _reserved7: [u8; 0x04],
    req_cmd: ReqCmd,
    req_len: ReqLen,
    rsp_status: RspStatus,
    rsp_len: RspLen,
    _reserved11: [u8; 0x10],
    req_data: [ReqData; 16],
    rsp_data: [RspData; 16],
}
impl RegisterBlock {
    #[doc = "0x00 - Block type (31:16) and version (15:0)"]
    #[inline(always)]
    pub const fn blkid(&self) -> &Blkid {
        &self.blkid
    }
    #[doc = "0x04 - Doorbell state"]
    #[inline(always)]
    pub const fn status(&self) -> &Status {
        &self.status
    }
    #[doc = "0x08 - Host writes a tag here after filling REQ_*: sets REQ_PENDING, clears RSP_READY"]
    #[inline(always)]
    pub const fn req_doorbell(&self) -> &ReqDoorbell {
        &self.req_doorbell
    }
    #[doc = "0x0c - Firmware writes the request tag here after filling RSP_*: clears REQ_PENDING, sets RSP_READY"]
    #[inline(always)]
    pub const fn rsp_doorbell(&self) -> &RspDoorbell {
        &self.rsp_doorbell
    }
    #[doc = "0x10 - Host writes any value to clear RSP_READY"]
    #[inline(always)]
    pub const fn rsp_ack(&self) -> &RspAck {
        &self.rsp_ack
    }
    #[doc = "0x14 - Last value written to REQ_DOORBELL"]
    #[inline(always)]
    pub const fn req_tag(&self) -> &ReqTag {
        &self.req_tag
    }
    #[doc = "0x18 - Last value written to RSP_DOORBELL"]
    #[inline(always)]
    pub const fn rsp_tag(&self) -> &RspTag {
        &self.rsp_tag
    }
    #[doc = "0x20 - Request command code"]
    #[inline(always)]
    pub const fn req_cmd(&self) -> &ReqCmd {
        &self.req_cmd
    }
    #[doc = "0x24 - Number of REQ_DATA words used"]
    #[inline(always)]
    pub const fn req_len(&self) -> &ReqLen {
        &self.req_len
    }
    #[doc = "0x28 - Response status code (0 = OK)"]
    #[inline(always)]
    pub const fn rsp_status(&self) -> &RspStatus {
        &self.rsp_status
    }
    #[doc = "0x2c - Number of RSP_DATA words used"]
    #[inline(always)]
    pub const fn rsp_len(&self) -> &RspLen {
        &self.rsp_len
    }
    #[doc = "0x40..0x80 - Request argument words"]
    #[inline(always)]
    pub const fn req_data(&self, n: usize) -> &ReqData {
        &self.req_data[n]
    }
    #[doc = "Iterator for array of:"]
    #[doc = "0x40..0x80 - Request argument words"]
    #[inline(always)]
    pub fn req_data_iter(&self) -> impl Iterator<Item = &ReqData> {
        self.req_data.iter()
    }
    #[doc = "0x80..0xc0 - Response data words"]
    #[inline(always)]
    pub const fn rsp_data(&self, n: usize) -> &RspData {
        &self.rsp_data[n]
    }
    #[doc = "Iterator for array of:"]
    #[doc = "0x80..0xc0 - Response data words"]
    #[inline(always)]
    pub fn rsp_data_iter(&self) -> impl Iterator<Item = &RspData> {
        self.rsp_data.iter()
    }
}
#[doc = "BLKID (r) register accessor: Block type (31:16) and version (15:0)\n\nYou can [`read`](crate::Reg::read) this register and get [`blkid::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@blkid`] module"]
#[doc(alias = "BLKID")]
pub type Blkid = crate::Reg<blkid::BlkidSpec>;
#[doc = "Block type (31:16) and version (15:0)"]
pub mod blkid;
#[doc = "STATUS (r) register accessor: Doorbell state\n\nYou can [`read`](crate::Reg::read) this register and get [`status::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@status`] module"]
#[doc(alias = "STATUS")]
pub type Status = crate::Reg<status::StatusSpec>;
#[doc = "Doorbell state"]
pub mod status;
#[doc = "REQ_DOORBELL (w) register accessor: Host writes a tag here after filling REQ_*: sets REQ_PENDING, clears RSP_READY\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`req_doorbell::W`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@req_doorbell`] module"]
#[doc(alias = "REQ_DOORBELL")]
pub type ReqDoorbell = crate::Reg<req_doorbell::ReqDoorbellSpec>;
#[doc = "Host writes a tag here after filling REQ_*: sets REQ_PENDING, clears RSP_READY"]
pub mod req_doorbell;
#[doc = "RSP_DOORBELL (w) register accessor: Firmware writes the request tag here after filling RSP_*: clears REQ_PENDING, sets RSP_READY\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`rsp_doorbell::W`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@rsp_doorbell`] module"]
#[doc(alias = "RSP_DOORBELL")]
pub type RspDoorbell = crate::Reg<rsp_doorbell::RspDoorbellSpec>;
#[doc = "Firmware writes the request tag here after filling RSP_*: clears REQ_PENDING, sets RSP_READY"]
pub mod rsp_doorbell;
#[doc = "RSP_ACK (w) register accessor: Host writes any value to clear RSP_READY\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`rsp_ack::W`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@rsp_ack`] module"]
#[doc(alias = "RSP_ACK")]
pub type RspAck = crate::Reg<rsp_ack::RspAckSpec>;
#[doc = "Host writes any value to clear RSP_READY"]
pub mod rsp_ack;
#[doc = "REQ_TAG (r) register accessor: Last value written to REQ_DOORBELL\n\nYou can [`read`](crate::Reg::read) this register and get [`req_tag::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@req_tag`] module"]
#[doc(alias = "REQ_TAG")]
pub type ReqTag = crate::Reg<req_tag::ReqTagSpec>;
#[doc = "Last value written to REQ_DOORBELL"]
pub mod req_tag;
#[doc = "RSP_TAG (r) register accessor: Last value written to RSP_DOORBELL\n\nYou can [`read`](crate::Reg::read) this register and get [`rsp_tag::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@rsp_tag`] module"]
#[doc(alias = "RSP_TAG")]
pub type RspTag = crate::Reg<rsp_tag::RspTagSpec>;
#[doc = "Last value written to RSP_DOORBELL"]
pub mod rsp_tag;
#[doc = "REQ_CMD (rw) register accessor: Request command code\n\nYou can [`read`](crate::Reg::read) this register and get [`req_cmd::R`]. You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`req_cmd::W`]. You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@req_cmd`] module"]
#[doc(alias = "REQ_CMD")]
pub type ReqCmd = crate::Reg<req_cmd::ReqCmdSpec>;
#[doc = "Request command code"]
pub mod req_cmd;
#[doc = "REQ_LEN (rw) register accessor: Number of REQ_DATA words used\n\nYou can [`read`](crate::Reg::read) this register and get [`req_len::R`]. You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`req_len::W`]. You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@req_len`] module"]
#[doc(alias = "REQ_LEN")]
pub type ReqLen = crate::Reg<req_len::ReqLenSpec>;
#[doc = "Number of REQ_DATA words used"]
pub mod req_len;
#[doc = "RSP_STATUS (rw) register accessor: Response status code (0 = OK)\n\nYou can [`read`](crate::Reg::read) this register and get [`rsp_status::R`]. You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`rsp_status::W`]. You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@rsp_status`] module"]
#[doc(alias = "RSP_STATUS")]
pub type RspStatus = crate::Reg<rsp_status::RspStatusSpec>;
#[doc = "Response status code (0 = OK)"]
pub mod rsp_status;
#[doc = "RSP_LEN (rw) register accessor: Number of RSP_DATA words used\n\nYou can [`read`](crate::Reg::read) this register and get [`rsp_len::R`]. You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`rsp_len::W`]. You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@rsp_len`] module"]
#[doc(alias = "RSP_LEN")]
pub type RspLen = crate::Reg<rsp_len::RspLenSpec>;
#[doc = "Number of RSP_DATA words used"]
pub mod rsp_len;
#[doc = "REQ_DATA (rw) register accessor: Request argument words\n\nYou can [`read`](crate::Reg::read) this register and get [`req_data::R`]. You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`req_data::W`]. You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@req_data`] module"]
#[doc(alias = "REQ_DATA")]
pub type ReqData = crate::Reg<req_data::ReqDataSpec>;
#[doc = "Request argument words"]
pub mod req_data;
#[doc = "RSP_DATA (rw) register accessor: Response data words\n\nYou can [`read`](crate::Reg::read) this register and get [`rsp_data::R`]. You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`rsp_data::W`]. You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@rsp_data`] module"]
#[doc(alias = "RSP_DATA")]
pub type RspData = crate::Reg<rsp_data::RspDataSpec>;
#[doc = "Response data words"]
pub mod rsp_data;
