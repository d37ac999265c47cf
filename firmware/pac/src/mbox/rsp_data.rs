#[doc = "Register `RSP_DATA[%s]` reader"]
pub type R = crate::R<RspDataSpec>;
#[doc = "Register `RSP_DATA[%s]` writer"]
pub type W = crate::W<RspDataSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
impl W {}
#[doc = "Response data words\n\nYou can [`read`](crate::Reg::read) this register and get [`rsp_data::R`](R). You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`rsp_data::W`](W). You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct RspDataSpec;
impl crate::RegisterSpec for RspDataSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`rsp_data::R`](R) reader structure"]
impl crate::Readable for RspDataSpec {}
#[doc = "`write(|w| ..)` method takes [`rsp_data::W`](W) writer structure"]
impl crate::Writable for RspDataSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets RSP_DATA[%s] to value 0"]
impl crate::Resettable for RspDataSpec {}
