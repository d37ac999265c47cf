#[doc = "Register `LOAD_OP` writer"]
pub type W = crate::W<LoadOpSpec>;
#[doc = "Field `CODE` writer - LoadOp"]
pub type CodeW<'a, REG> = crate::FieldWriter<'a, REG, 3>;
#[doc = "Field `FLAG` writer - PICK: bind the winner; CLOSE: the connection was active; CONFIG: clear the overload flag"]
pub type FlagW<'a, REG> = crate::BitWriter<'a, REG>;
#[doc = "Field `POOL` writer - Pool"]
pub type PoolW<'a, REG> = crate::FieldWriter<'a, REG, 3>;
#[doc = "Field `SLOT` writer - Server slot 0-63 of the pool (all but PICK)"]
pub type SlotW<'a, REG> = crate::FieldWriter<'a, REG, 6>;
impl W {
    #[doc = "Bits 0:2 - LoadOp"]
    #[inline(always)]
    pub fn code(&mut self) -> CodeW<'_, LoadOpSpec> {
        CodeW::new(self, 0)
    }
    #[doc = "Bit 3 - PICK: bind the winner; CLOSE: the connection was active; CONFIG: clear the overload flag"]
    #[inline(always)]
    pub fn flag(&mut self) -> FlagW<'_, LoadOpSpec> {
        FlagW::new(self, 3)
    }
    #[doc = "Bits 8:10 - Pool"]
    #[inline(always)]
    pub fn pool(&mut self) -> PoolW<'_, LoadOpSpec> {
        PoolW::new(self, 8)
    }
    #[doc = "Bits 16:21 - Server slot 0-63 of the pool (all but PICK)"]
    #[inline(always)]
    pub fn slot(&mut self) -> SlotW<'_, LoadOpSpec> {
        SlotW::new(self, 16)
    }
}
#[doc = "Start an operation (LoadOp) with the staged values; refused and counted in LOAD_REFUSED while LOAD_RSP.BUSY\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`load_op::W`](W). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct LoadOpSpec;
impl crate::RegisterSpec for LoadOpSpec {
    type Ux = u32;
}
#[doc = "`write(|w| ..)` method takes [`load_op::W`](W) writer structure"]
impl crate::Writable for LoadOpSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets LOAD_OP to value 0"]
impl crate::Resettable for LoadOpSpec {}
