#[doc = "Register `LOAD_POOL` writer"]
pub type W = crate::W<LoadPoolSpec>;
#[doc = "Field `POOL` writer - Pool"]
pub type PoolW<'a, REG> = crate::FieldWriter<'a, REG, 3>;
#[doc = "Field `MODE` writer - LoadMode"]
pub type ModeW<'a, REG> = crate::FieldWriter<'a, REG, 3>;
#[doc = "Field `BEATS_M1` writer - Words a pick reads, minus 1 (slots 0 .. 2 * (BEATS_M1 + 1) - 1)"]
pub type BeatsM1W<'a, REG> = crate::FieldWriter<'a, REG, 5>;
impl W {
    #[doc = "Bits 0:2 - Pool"]
    #[inline(always)]
    pub fn pool(&mut self) -> PoolW<'_, LoadPoolSpec> {
        PoolW::new(self, 0)
    }
    #[doc = "Bits 8:10 - LoadMode"]
    #[inline(always)]
    pub fn mode(&mut self) -> ModeW<'_, LoadPoolSpec> {
        ModeW::new(self, 8)
    }
    #[doc = "Bits 16:20 - Words a pick reads, minus 1 (slots 0 .. 2 * (BEATS_M1 + 1) - 1)"]
    #[inline(always)]
    pub fn beats_m1(&mut self) -> BeatsM1W<'_, LoadPoolSpec> {
        BeatsM1W::new(self, 16)
    }
}
#[doc = "Set a pool's least-load descriptor\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`load_pool::W`](W). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct LoadPoolSpec;
impl crate::RegisterSpec for LoadPoolSpec {
    type Ux = u32;
}
#[doc = "`write(|w| ..)` method takes [`load_pool::W`](W) writer structure"]
impl crate::Writable for LoadPoolSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets LOAD_POOL to value 0"]
impl crate::Resettable for LoadPoolSpec {}
