#[doc = "Register `HEARTBEAT` reader"]
pub type R = crate::R<HeartbeatSpec>;
#[doc = "Register `HEARTBEAT` writer"]
pub type W = crate::W<HeartbeatSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
impl W {}
#[doc = "Incremented by the firmware on every main-loop pass; cleared when the core is put in reset\n\nYou can [`read`](crate::Reg::read) this register and get [`heartbeat::R`](R). You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`heartbeat::W`](W). You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct HeartbeatSpec;
impl crate::RegisterSpec for HeartbeatSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`heartbeat::R`](R) reader structure"]
impl crate::Readable for HeartbeatSpec {}
#[doc = "`write(|w| ..)` method takes [`heartbeat::W`](W) writer structure"]
impl crate::Writable for HeartbeatSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets HEARTBEAT to value 0"]
impl crate::Resettable for HeartbeatSpec {}
