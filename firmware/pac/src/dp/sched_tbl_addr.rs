#[doc = "Register `SCHED_TBL_ADDR` reader"]
pub type R = crate::R<SchedTblAddrSpec>;
#[doc = "Register `SCHED_TBL_ADDR` writer"]
pub type W = crate::W<SchedTblAddrSpec>;
#[doc = "Field `ADDR` reader - Table entry index"]
pub type AddrR = crate::FieldReader<u16>;
#[doc = "Field `ADDR` writer - Table entry index"]
pub type AddrW<'a, REG> = crate::FieldWriter<'a, REG, 13, u16>;
impl R {
    #[doc = "Bits 0:12 - Table entry index"]
    #[inline(always)]
    pub fn addr(&self) -> AddrR {
        AddrR::new((self.bits & 0x1fff) as u16)
    }
}
impl W {
    #[doc = "Bits 0:12 - Table entry index"]
    #[inline(always)]
    pub fn addr(&mut self) -> AddrW<'_, SchedTblAddrSpec> {
        AddrW::new(self, 0)
    }
}
#[doc = "Decision supply (sched_unit, docs/sched-unit.md): the table entry SCHED_TBL_DATA writes next\n\nYou can [`read`](crate::Reg::read) this register and get [`sched_tbl_addr::R`](R). You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`sched_tbl_addr::W`](W). You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct SchedTblAddrSpec;
impl crate::RegisterSpec for SchedTblAddrSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`sched_tbl_addr::R`](R) reader structure"]
impl crate::Readable for SchedTblAddrSpec {}
#[doc = "`write(|w| ..)` method takes [`sched_tbl_addr::W`](W) writer structure"]
impl crate::Writable for SchedTblAddrSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets SCHED_TBL_ADDR to value 0"]
impl crate::Resettable for SchedTblAddrSpec {}
