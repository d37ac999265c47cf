#[doc = "Register `SCHED_TBL_DATA` writer"]
pub type W = crate::W<SchedTblDataSpec>;
#[doc = "Field `ENTRY` writer - Server id 0-63 of the pool, or 64-255 for no server (SCHED_ENTRY_NONE)"]
pub type EntryW<'a, REG> = crate::FieldWriter<'a, REG, 8>;
impl W {
    #[doc = "Bits 0:7 - Server id 0-63 of the pool, or 64-255 for no server (SCHED_ENTRY_NONE)"]
    #[inline(always)]
    pub fn entry(&mut self) -> EntryW<'_, SchedTblDataSpec> {
        EntryW::new(self, 0)
    }
}
#[doc = "Write a decision-table entry at SCHED_TBL_ADDR, then advance SCHED_TBL_ADDR by one\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`sched_tbl_data::W`](W). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct SchedTblDataSpec;
impl crate::RegisterSpec for SchedTblDataSpec {
    type Ux = u32;
}
#[doc = "`write(|w| ..)` method takes [`sched_tbl_data::W`](W) writer structure"]
impl crate::Writable for SchedTblDataSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets SCHED_TBL_DATA to value 0"]
impl crate::Resettable for SchedTblDataSpec {}
