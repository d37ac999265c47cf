#[doc = "Register `FRAMES` reader"]
pub type R = crate::R<FramesSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "Frames sent\n\nYou can [`read`](crate::Reg::read) this register and get [`frames::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct FramesSpec;
impl crate::RegisterSpec for FramesSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`frames::R`](R) reader structure"]
impl crate::Readable for FramesSpec {}
#[doc = "`reset()` method sets FRAMES to value 0"]
impl crate::Resettable for FramesSpec {}
