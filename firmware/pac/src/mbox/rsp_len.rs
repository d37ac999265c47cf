#[doc = "Register `RSP_LEN` reader"]
pub type R = crate::R<RspLenSpec>;
#[doc = "Register `RSP_LEN` writer"]
pub type W = crate::W<RspLenSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
impl W {}
#[doc = "Number of RSP_DATA words used\n\nYou can [`read`](crate::Reg::read) this register and get [`rsp_len::R`](R). You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`rsp_len::W`](W). You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct RspLenSpec;
impl crate::RegisterSpec for RspLenSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`rsp_len::R`](R) reader structure"]
impl crate::Readable for RspLenSpec {}
#[doc = "`write(|w| ..)` method takes [`rsp_len::W`](W) writer structure"]
impl crate::Writable for RspLenSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets RSP_LEN to value 0"]
impl crate::Resettable for RspLenSpec {}
