#[doc = "Register `SETUP_HIST_IDX` reader"]
pub type R = crate::R<SetupHistIdxSpec>;
#[doc = "Register `SETUP_HIST_IDX` writer"]
pub type W = crate::W<SetupHistIdxSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
impl W {}
#[doc = "Bucket of the setup-latency histogram SETUP_HIST_DATA shows (write; ready for the next register access)\n\nYou can [`read`](crate::Reg::read) this register and get [`setup_hist_idx::R`](R). You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`setup_hist_idx::W`](W). You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct SetupHistIdxSpec;
impl crate::RegisterSpec for SetupHistIdxSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`setup_hist_idx::R`](R) reader structure"]
impl crate::Readable for SetupHistIdxSpec {}
#[doc = "`write(|w| ..)` method takes [`setup_hist_idx::W`](W) writer structure"]
impl crate::Writable for SetupHistIdxSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets SETUP_HIST_IDX to value 0"]
impl crate::Resettable for SetupHistIdxSpec {}
