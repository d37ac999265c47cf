#[doc = "Register `CTRL` reader"]
pub type R = crate::R<CtrlSpec>;
#[doc = "Register `CTRL` writer"]
pub type W = crate::W<CtrlSpec>;
#[doc = "Field `SNAPSHOT` reader - Write 1: copy every counter into the snapshot (reads 0)"]
pub type SnapshotR = crate::BitReader;
#[doc = "Field `SNAPSHOT` writer - Write 1: copy every counter into the snapshot (reads 0)"]
pub type SnapshotW<'a, REG> = crate::BitWriter<'a, REG>;
#[doc = "Field `CLEAR_ON_SNAPSHOT` reader - A snapshot also clears the counters"]
pub type ClearOnSnapshotR = crate::BitReader;
#[doc = "Field `CLEAR_ON_SNAPSHOT` writer - A snapshot also clears the counters"]
pub type ClearOnSnapshotW<'a, REG> = crate::BitWriter<'a, REG>;
#[doc = "Field `CLEAR_ALL` reader - Write 1: clear every counter (reads 0)"]
pub type ClearAllR = crate::BitReader;
#[doc = "Field `CLEAR_ALL` writer - Write 1: clear every counter (reads 0)"]
pub type ClearAllW<'a, REG> = crate::BitWriter<'a, REG>;
impl R {
    #[doc = "Bit 0 - Write 1: copy every counter into the snapshot (reads 0)"]
    #[inline(always)]
    pub fn snapshot(&self) -> SnapshotR {
        SnapshotR::new((self.bits & 1) != 0)
    }
    #[doc = "Bit 1 - A snapshot also clears the counters"]
    #[inline(always)]
    pub fn clear_on_snapshot(&self) -> ClearOnSnapshotR {
        ClearOnSnapshotR::new(((self.bits >> 1) & 1) != 0)
    }
    #[doc = "Bit 2 - Write 1: clear every counter (reads 0)"]
    #[inline(always)]
    pub fn clear_all(&self) -> ClearAllR {
        ClearAllR::new(((self.bits >> 2) & 1) != 0)
    }
}
impl W {
    #[doc = "Bit 0 - Write 1: copy every counter into the snapshot (reads 0)"]
    #[inline(always)]
    pub fn snapshot(&mut self) -> SnapshotW<'_, CtrlSpec> {
        SnapshotW::new(self, 0)
    }
    #[doc = "Bit 1 - A snapshot also clears the counters"]
    #[inline(always)]
    pub fn clear_on_snapshot(&mut self) -> ClearOnSnapshotW<'_, CtrlSpec> {
        ClearOnSnapshotW::new(self, 1)
    }
    #[doc = "Bit 2 - Write 1: clear every counter (reads 0)"]
    #[inline(always)]
    pub fn clear_all(&mut self) -> ClearAllW<'_, CtrlSpec> {
        ClearAllW::new(self, 2)
    }
}
#[doc = "Snapshot control\n\nYou can [`read`](crate::Reg::read) this register and get [`ctrl::R`](R). You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`ctrl::W`](W). You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct CtrlSpec;
impl crate::RegisterSpec for CtrlSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`ctrl::R`](R) reader structure"]
impl crate::Readable for CtrlSpec {}
#[doc = "`write(|w| ..)` method takes [`ctrl::W`](W) writer structure"]
impl crate::Writable for CtrlSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets CTRL to value 0"]
impl crate::Resettable for CtrlSpec {}
