#[doc = "Register `RD_DATA` reader"]
pub type R = crate::R<RdDataSpec>;
impl core::fmt::Debug for crate::generic::Reg<RdDataSpec> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "(not readable)")
    }
}
#[doc = "Word at RD_PTR; each read advances RD_PTR.WORD\n\nYou can [`read`](crate::Reg::read) this register and get [`rd_data::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api).\n\n<div class=\"warning\">The register is <b>modified</b> in some way after a read operation.</div>"]
pub struct RdDataSpec;
impl crate::RegisterSpec for RdDataSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`rd_data::R`](R) reader structure"]
impl crate::Readable for RdDataSpec {}
#[doc = "`reset()` method sets RD_DATA to value 0"]
impl crate::Resettable for RdDataSpec {}
