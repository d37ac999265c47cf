#[doc = "Register `SCHED_REQ` writer"]
pub type W = crate::W<SchedReqSpec>;
#[doc = "Field `PORT` writer - Client TCP port"]
pub type PortW<'a, REG> = crate::FieldWriter<'a, REG, 16, u16>;
#[doc = "Field `DST` writer - Low byte of the destination (VIP) address: dh's key"]
pub type DstW<'a, REG> = crate::FieldWriter<'a, REG, 8>;
#[doc = "Field `POOL` writer - Pool"]
pub type PoolW<'a, REG> = crate::FieldWriter<'a, REG, 3>;
impl W {
    #[doc = "Bits 0:15 - Client TCP port"]
    #[inline(always)]
    pub fn port(&mut self) -> PortW<'_, SchedReqSpec> {
        PortW::new(self, 0)
    }
    #[doc = "Bits 16:23 - Low byte of the destination (VIP) address: dh's key"]
    #[inline(always)]
    pub fn dst(&mut self) -> DstW<'_, SchedReqSpec> {
        DstW::new(self, 16)
    }
    #[doc = "Bits 24:26 - Pool"]
    #[inline(always)]
    pub fn pool(&mut self) -> PoolW<'_, SchedReqSpec> {
        PoolW::new(self, 24)
    }
}
#[doc = "Ask the decision supply for a pool's server; SCHED_RSP shows the answer to the last request written (a sequence bit travels with each request, so a late answer to an earlier one is not shown)\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`sched_req::W`](W). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct SchedReqSpec;
impl crate::RegisterSpec for SchedReqSpec {
    type Ux = u32;
}
#[doc = "`write(|w| ..)` method takes [`sched_req::W`](W) writer structure"]
impl crate::Writable for SchedReqSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets SCHED_REQ to value 0"]
impl crate::Resettable for SchedReqSpec {}
