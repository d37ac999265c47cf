#[doc = "Register `STATUS` reader"]
pub type R = crate::R<StatusSpec>;
#[doc = "Field `REQ_PENDING` reader - The host rang REQ_DOORBELL and the firmware has not answered"]
pub type ReqPendingR = crate::BitReader;
#[doc = "Field `RSP_READY` reader - The firmware answered and the host has not acknowledged"]
pub type RspReadyR = crate::BitReader;
impl R {
    #[doc = "Bit 0 - The host rang REQ_DOORBELL and the firmware has not answered"]
    #[inline(always)]
    pub fn req_pending(&self) -> ReqPendingR {
        ReqPendingR::new((self.bits & 1) != 0)
    }
    #[doc = "Bit 1 - The firmware answered and the host has not acknowledged"]
    #[inline(always)]
    pub fn rsp_ready(&self) -> RspReadyR {
        RspReadyR::new(((self.bits >> 1) & 1) != 0)
    }
}
#[doc = "Doorbell state\n\nYou can [`read`](crate::Reg::read) this register and get [`status::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct StatusSpec;
impl crate::RegisterSpec for StatusSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`status::R`](R) reader structure"]
impl crate::Readable for StatusSpec {}
#[doc = "`reset()` method sets STATUS to value 0"]
impl crate::Resettable for StatusSpec {}
