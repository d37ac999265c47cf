#[doc = "Register `REQ_DATA[%s]` reader"]
pub type R = crate::R<ReqDataSpec>;
#[doc = "Register `REQ_DATA[%s]` writer"]
pub type W = crate::W<ReqDataSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
impl W {}
#[doc = "Request argument words\n\nYou can [`read`](crate::Reg::read) this register and get [`req_data::R`](R). You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`req_data::W`](W). You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct ReqDataSpec;
impl crate::RegisterSpec for ReqDataSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`req_data::R`](R) reader structure"]
impl crate::Readable for ReqDataSpec {}
#[doc = "`write(|w| ..)` method takes [`req_data::W`](W) writer structure"]
impl crate::Writable for ReqDataSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets REQ_DATA[%s] to value 0"]
impl crate::Resettable for ReqDataSpec {}
