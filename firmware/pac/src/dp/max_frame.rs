#[doc = "Register `MAX_FRAME` reader"]
pub type R = crate::R<MaxFrameSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "Longest frame in bytes; longer frames are cut by the length guard and dropped as malformed\n\nYou can [`read`](crate::Reg::read) this register and get [`max_frame::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct MaxFrameSpec;
impl crate::RegisterSpec for MaxFrameSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`max_frame::R`](R) reader structure"]
impl crate::Readable for MaxFrameSpec {}
#[doc = "`reset()` method sets MAX_FRAME to value 0x0800"]
impl crate::Resettable for MaxFrameSpec {
    const RESET_VALUE: u32 = 0x0800;
}
