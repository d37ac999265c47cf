#[doc = "Register `RSP_STATUS` reader"]
pub type R = crate::R<RspStatusSpec>;
#[doc = "Register `RSP_STATUS` writer"]
pub type W = crate::W<RspStatusSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
impl W {}
#[doc = "Response status code (0 = OK)\n\nYou can [`read`](crate::Reg::read) this register and get [`rsp_status::R`](R). You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`rsp_status::W`](W). You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct RspStatusSpec;
impl crate::RegisterSpec for RspStatusSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`rsp_status::R`](R) reader structure"]
impl crate::Readable for RspStatusSpec {}
#[doc = "`write(|w| ..)` method takes [`rsp_status::W`](W) writer structure"]
impl crate::Writable for RspStatusSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets RSP_STATUS to value 0"]
impl crate::Resettable for RspStatusSpec {}
