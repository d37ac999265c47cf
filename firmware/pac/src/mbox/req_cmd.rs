#[doc = "Register `REQ_CMD` reader"]
pub type R = crate::R<ReqCmdSpec>;
#[doc = "Register `REQ_CMD` writer"]
pub type W = crate::W<ReqCmdSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
impl W {}
#[doc = "Request command code\n\nYou can [`read`](crate::Reg::read) this register and get [`req_cmd::R`](R). You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`req_cmd::W`](W). You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct ReqCmdSpec;
impl crate::RegisterSpec for ReqCmdSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`req_cmd::R`](R) reader structure"]
impl crate::Readable for ReqCmdSpec {}
#[doc = "`write(|w| ..)` method takes [`req_cmd::W`](W) writer structure"]
impl crate::Writable for ReqCmdSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets REQ_CMD to value 0"]
impl crate::Resettable for ReqCmdSpec {}
