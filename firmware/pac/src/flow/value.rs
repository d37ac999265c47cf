#[doc = "Register `VALUE` reader"]
pub type R = crate::R<ValueSpec>;
#[doc = "Register `VALUE` writer"]
pub type W = crate::W<ValueSpec>;
#[doc = "Field `SLOT` reader - Flow state slot"]
pub type SlotR = crate::FieldReader<u16>;
#[doc = "Field `SLOT` writer - Flow state slot"]
pub type SlotW<'a, REG> = crate::FieldWriter<'a, REG, 16, u16>;
#[doc = "Field `DIR` reader - Flow half: 0 client, 1 server"]
pub type DirR = crate::BitReader;
#[doc = "Field `DIR` writer - Flow half: 0 client, 1 server"]
pub type DirW<'a, REG> = crate::BitWriter<'a, REG>;
impl R {
    #[doc = "Bits 0:15 - Flow state slot"]
    #[inline(always)]
    pub fn slot(&self) -> SlotR {
        SlotR::new((self.bits & 0xffff) as u16)
    }
    #[doc = "Bit 16 - Flow half: 0 client, 1 server"]
    #[inline(always)]
    pub fn dir(&self) -> DirR {
        DirR::new(((self.bits >> 16) & 1) != 0)
    }
}
impl W {
    #[doc = "Bits 0:15 - Flow state slot"]
    #[inline(always)]
    pub fn slot(&mut self) -> SlotW<'_, ValueSpec> {
        SlotW::new(self, 0)
    }
    #[doc = "Bit 16 - Flow half: 0 client, 1 server"]
    #[inline(always)]
    pub fn dir(&mut self) -> DirW<'_, ValueSpec> {
        DirW::new(self, 16)
    }
}
#[doc = "INSERT value: flow state slot and half\n\nYou can [`read`](crate::Reg::read) this register and get [`value::R`](R). You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`value::W`](W). You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct ValueSpec;
impl crate::RegisterSpec for ValueSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`value::R`](R) reader structure"]
impl crate::Readable for ValueSpec {}
#[doc = "`write(|w| ..)` method takes [`value::W`](W) writer structure"]
impl crate::Writable for ValueSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets VALUE to value 0"]
impl crate::Resettable for ValueSpec {}
