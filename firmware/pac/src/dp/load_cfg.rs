#[doc = "Register `LOAD_CFG` writer"]
pub type W = crate::W<LoadCfgSpec>;
#[doc = "Field `WEIGHT` writer - Weight 0-65535"]
pub type WeightW<'a, REG> = crate::FieldWriter<'a, REG, 16, u16>;
#[doc = "Field `RANK` writer - Position in the pool's order (the lower wins a tie)"]
pub type RankW<'a, REG> = crate::FieldWriter<'a, REG, 6>;
#[doc = "Field `LIVE` writer - Present and available: takes part in picks"]
pub type LiveW<'a, REG> = crate::BitWriter<'a, REG>;
impl W {
    #[doc = "Bits 0:15 - Weight 0-65535"]
    #[inline(always)]
    pub fn weight(&mut self) -> WeightW<'_, LoadCfgSpec> {
        WeightW::new(self, 0)
    }
    #[doc = "Bits 16:21 - Position in the pool's order (the lower wins a tie)"]
    #[inline(always)]
    pub fn rank(&mut self) -> RankW<'_, LoadCfgSpec> {
        RankW::new(self, 16)
    }
    #[doc = "Bit 24 - Present and available: takes part in picks"]
    #[inline(always)]
    pub fn live(&mut self) -> LiveW<'_, LoadCfgSpec> {
        LiveW::new(self, 24)
    }
}
#[doc = "Least-load decision supply (load_sched, docs/load-sched.md): server configuration staged for a CONFIG operation\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`load_cfg::W`](W). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct LoadCfgSpec;
impl crate::RegisterSpec for LoadCfgSpec {
    type Ux = u32;
}
#[doc = "`write(|w| ..)` method takes [`load_cfg::W`](W) writer structure"]
impl crate::Writable for LoadCfgSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets LOAD_CFG to value 0"]
impl crate::Resettable for LoadCfgSpec {}
