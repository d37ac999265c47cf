#[doc = "Register `STATE_DYN[%s]` reader"]
pub type R = crate::R<StateDynSpec>;
#[doc = "Register `STATE_DYN[%s]` writer"]
pub type W = crate::W<StateDynSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
impl W {}
#[doc = "Dynamic flow entry words (record FlowDyn): last seen, packets C to S, packets S to C, bytes C to S (48 bits), bytes S to C (48 bits), FIN ends, teardown flags\n\nYou can [`read`](crate::Reg::read) this register and get [`state_dyn::R`](R). You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`state_dyn::W`](W). You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct StateDynSpec;
impl crate::RegisterSpec for StateDynSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`state_dyn::R`](R) reader structure"]
impl crate::Readable for StateDynSpec {}
#[doc = "`write(|w| ..)` method takes [`state_dyn::W`](W) writer structure"]
impl crate::Writable for StateDynSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets STATE_DYN[%s] to value 0"]
impl crate::Resettable for StateDynSpec {}
