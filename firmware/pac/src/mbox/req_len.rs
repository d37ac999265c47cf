#[doc = "Register `REQ_LEN` reader"]
pub type R = crate::R<ReqLenSpec>;
#[doc = "Register `REQ_LEN` writer"]
pub type W = crate::W<ReqLenSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
impl W {}
#[doc = "Number of REQ_DATA words used\n\nYou can [`read`](crate::Reg::read) this register and get [`req_len::R`](R). You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`req_len::W`](W). You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct ReqLenSpec;
impl crate::RegisterSpec for ReqLenSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`req_len::R`](R) reader structure"]
impl crate::Readable for ReqLenSpec {}
#[doc = "`write(|w| ..)` method takes [`req_len::W`](W) writer structure"]
impl crate::Writable for ReqLenSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets REQ_LEN to value 0"]
impl crate::Resettable for ReqLenSpec {}
