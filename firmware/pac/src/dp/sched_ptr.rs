#[doc = "Register `SCHED_PTR` reader"]
pub type R = crate::R<SchedPtrSpec>;
#[doc = "Register `SCHED_PTR` writer"]
pub type W = crate::W<SchedPtrSpec>;
#[doc = "Field `POOL` reader - Pool (write)"]
pub type PoolR = crate::FieldReader;
#[doc = "Field `POOL` writer - Pool (write)"]
pub type PoolW<'a, REG> = crate::FieldWriter<'a, REG, 3>;
#[doc = "Field `PTR` reader - The pool's pointer (read)"]
pub type PtrR = crate::FieldReader<u16>;
#[doc = "Field `PTR` writer - The pool's pointer (read)"]
pub type PtrW<'a, REG> = crate::FieldWriter<'a, REG, 13, u16>;
impl R {
    #[doc = "Bits 0:2 - Pool (write)"]
    #[inline(always)]
    pub fn pool(&self) -> PoolR {
        PoolR::new((self.bits & 7) as u8)
    }
    #[doc = "Bits 16:28 - The pool's pointer (read)"]
    #[inline(always)]
    pub fn ptr(&self) -> PtrR {
        PtrR::new(((self.bits >> 16) & 0x1fff) as u16)
    }
}
impl W {
    #[doc = "Bits 0:2 - Pool (write)"]
    #[inline(always)]
    pub fn pool(&mut self) -> PoolW<'_, SchedPtrSpec> {
        PoolW::new(self, 0)
    }
    #[doc = "Bits 16:28 - The pool's pointer (read)"]
    #[inline(always)]
    pub fn ptr(&mut self) -> PtrW<'_, SchedPtrSpec> {
        PtrW::new(self, 16)
    }
}
#[doc = "Write: the pool whose cycle pointer reads back here; read: that pointer\n\nYou can [`read`](crate::Reg::read) this register and get [`sched_ptr::R`](R). You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`sched_ptr::W`](W). You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct SchedPtrSpec;
impl crate::RegisterSpec for SchedPtrSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`sched_ptr::R`](R) reader structure"]
impl crate::Readable for SchedPtrSpec {}
#[doc = "`write(|w| ..)` method takes [`sched_ptr::W`](W) writer structure"]
impl crate::Writable for SchedPtrSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets SCHED_PTR to value 0"]
impl crate::Resettable for SchedPtrSpec {}
