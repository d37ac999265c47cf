#[repr(C)]
#[doc = "Register block"]
pub struct RegisterBlock {
    blkid: Blkid,
    rule: Rule,
    word: Word,
    data: Data,
    switch: Switch,
    status: Status,
    params: Params,
    _reserved7: [u8; 0x04],
    buf_ptr: BufPtr,
    buf_data: BufData,
    cmd: Cmd,
    requests: Requests,
    commands: Commands,
    cmd_gen: CmdGen,
}
impl RegisterBlock {
    #[doc = "0x00 - Block type (31:16) and version (15:0)"]
    #[inline(always)]
    pub const fn blkid(&self) -> &Blkid {
        &self.blkid
    }
    #[doc = "0x04 - Rule index for DATA"]
    #[inline(always)]
    pub const fn rule(&self) -> &Rule {
        &self.rule
    }
    #[doc = "0x08 - Rule word index for DATA"]
    #[inline(always)]
    pub const fn word(&self) -> &Word {
        &self.word
    }
    #[doc = "0x0c - Writes word WORD of rule RULE in the inactive bank"]
    #[inline(always)]
    pub const fn data(&self) -> &Data {
        &self.data
    }
    #[doc = "0x10 - Bank switch"]
    #[inline(always)]
    pub const fn switch(&self) -> &Switch {
        &self.switch
    }
    #[doc = "0x14 - Rule bank and request buffer status"]
    #[inline(always)]
    pub const fn status(&self) -> &Status {
        &self.status
    }
    #[doc = "0x18 - L7 build parameters"]
    #[inline(always)]
    pub const fn params(&self) -> &Params {
        &self.params
    }
    #[doc = "0x20 - Request buffer write pointer"]
    #[inline(always)]
    pub const fn buf_ptr(&self) -> &BufPtr {
        &self.buf_ptr
    }
    #[doc = "0x24 - Writes a request buffer word at BUF_PTR, then BUF_PTR += 1 (bytes little-endian)"]
    #[inline(always)]
    pub const fn buf_data(&self) -> &BufData {
        &self.buf_data
    }
    #[doc = "0x28 - Matches the request buffer; the result arrives as an EVQ REQUEST_MATCHED event"]
    #[inline(always)]
    pub const fn cmd(&self) -> &Cmd {
        &self.cmd
    }
    #[doc = "0x2c - Request segments fed by the data path"]
    #[inline(always)]
    pub const fn requests(&self) -> &Requests {
        &self.requests
    }
    #[doc = "0x30 - Buffer match commands (CMD writes)"]
    #[inline(always)]
    pub const fn commands(&self) -> &Commands {
        &self.commands
    }
    #[doc = "0x34 - Slot generation of the next CMD, returned in its REQUEST_MATCHED event (EvtRequestMatched.flow_gen); the CMD that starts takes it and clears it, so a CMD without a CMD_GEN write carries 0"]
    #[inline(always)]
    pub const fn cmd_gen(&self) -> &CmdGen {
        &self.cmd_gen
    }
}
#[doc = "BLKID (r) register accessor: Block type (31:16) and version (15:0)\n\nYou can [`read`](crate::Reg::read) this register and get [`blkid::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@blkid`] module"]
#[doc(alias = "BLKID")]
pub type Blkid = crate::Reg<blkid::BlkidSpec>;
#[doc = "Block type (31:16) and version (15:0)"]
pub mod blkid;
#[doc = "RULE (rw) register accessor: Rule index for DATA\n\nYou can [`read`](crate::Reg::read) this register and get [`rule::R`]. You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`rule::W`]. You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@rule`] module"]
#[doc(alias = "RULE")]
pub type Rule = crate::Reg<rule::RuleSpec>;
#[doc = "Rule index for DATA"]
pub mod rule;
#[doc = "WORD (rw) register accessor: Rule word index for DATA\n\nYou can [`read`](crate::Reg::read) this register and get [`word::R`]. You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`word::W`]. You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@word`] module"]
#[doc(alias = "WORD")]
pub type Word = crate::Reg<word::WordSpec>;
#[doc = "Rule word index for DATA"]
pub mod word;
#[doc = "DATA (w) register accessor: Writes word WORD of rule RULE in the inactive bank\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`data::W`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@data`] module"]
#[doc(alias = "DATA")]
pub type Data = crate::Reg<data::DataSpec>;
#[doc = "Writes word WORD of rule RULE in the inactive bank"]
pub mod data;
#[doc = "SWITCH (w) register accessor: Bank switch\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`switch::W`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@switch`] module"]
#[doc(alias = "SWITCH")]
pub type Switch = crate::Reg<switch::SwitchSpec>;
#[doc = "Bank switch"]
pub mod switch;
#[doc = "STATUS (r) register accessor: Rule bank and request buffer status\n\nYou can [`read`](crate::Reg::read) this register and get [`status::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@status`] module"]
#[doc(alias = "STATUS")]
pub type Status = crate::Reg<status::StatusSpec>;
#[doc = "Rule bank and request buffer status"]
pub mod status;
#[doc = "PARAMS (r) register accessor: L7 build parameters\n\nYou can [`read`](crate::Reg::read) this register and get [`params::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@params`] module"]
#[doc(alias = "PARAMS")]
pub type Params = crate::Reg<params::ParamsSpec>;
#[doc = "L7 build parameters"]
pub mod params;
#[doc = "BUF_PTR (rw) register accessor: Request buffer write pointer\n\nYou can [`read`](crate::Reg::read) this register and get [`buf_ptr::R`]. You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`buf_ptr::W`]. You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@buf_ptr`] module"]
#[doc(alias = "BUF_PTR")]
pub type BufPtr = crate::Reg<buf_ptr::BufPtrSpec>;
#[doc = "Request buffer write pointer"]
pub mod buf_ptr;
#[doc = "BUF_DATA (w) register accessor: Writes a request buffer word at BUF_PTR, then BUF_PTR += 1 (bytes little-endian)\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`buf_data::W`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@buf_data`] module"]
#[doc(alias = "BUF_DATA")]
pub type BufData = crate::Reg<buf_data::BufDataSpec>;
#[doc = "Writes a request buffer word at BUF_PTR, then BUF_PTR += 1 (bytes little-endian)"]
pub mod buf_data;
#[doc = "CMD (w) register accessor: Matches the request buffer; the result arrives as an EVQ REQUEST_MATCHED event\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`cmd::W`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@cmd`] module"]
#[doc(alias = "CMD")]
pub type Cmd = crate::Reg<cmd::CmdSpec>;
#[doc = "Matches the request buffer; the result arrives as an EVQ REQUEST_MATCHED event"]
pub mod cmd;
#[doc = "REQUESTS (r) register accessor: Request segments fed by the data path\n\nYou can [`read`](crate::Reg::read) this register and get [`requests::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@requests`] module"]
#[doc(alias = "REQUESTS")]
pub type Requests = crate::Reg<requests::RequestsSpec>;
#[doc = "Request segments fed by the data path"]
pub mod requests;
#[doc = "COMMANDS (r) register accessor: Buffer match commands (CMD writes)\n\nYou can [`read`](crate::Reg::read) this register and get [`commands::R`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@commands`] module"]
#[doc(alias = "COMMANDS")]
pub type Commands = crate::Reg<commands::CommandsSpec>;
#[doc = "Buffer match commands (CMD writes)"]
pub mod commands;
#[doc = "CMD_GEN (w) register accessor: Slot generation of the next CMD, returned in its REQUEST_MATCHED event (EvtRequestMatched.flow_gen); the CMD that starts takes it and clears it, so a CMD without a CMD_GEN write carries 0\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`cmd_gen::W`]. See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\nFor information about available fields see [`mod@cmd_gen`] module"]
#[doc(alias = "CMD_GEN")]
pub type CmdGen = crate::Reg<cmd_gen::CmdGenSpec>;
#[doc = "Slot generation of the next CMD, returned in its REQUEST_MATCHED event (EvtRequestMatched.flow_gen); the CMD that starts takes it and clears it, so a CMD without a CMD_GEN write carries 0"]
pub mod cmd_gen;
