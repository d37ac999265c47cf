#[doc = "Register `SEL` reader"]
pub type R = crate::R<SelSpec>;
#[doc = "Register `SEL` writer"]
pub type W = crate::W<SelSpec>;
#[doc = "Field `PORT` reader - 0 client port, 1 server port"]
pub type PortR = crate::BitReader;
#[doc = "Field `PORT` writer - 0 client port, 1 server port"]
pub type PortW<'a, REG> = crate::BitWriter<'a, REG>;
impl R {
    #[doc = "Bit 0 - 0 client port, 1 server port"]
    #[inline(always)]
    pub fn port(&self) -> PortR {
        PortR::new((self.bits & 1) != 0)
    }
}
impl W {
    #[doc = "Bit 0 - 0 client port, 1 server port"]
    #[inline(always)]
    pub fn port(&mut self) -> PortW<'_, SelSpec> {
        PortW::new(self, 0)
    }
}
#[doc = "Ring selection: the registers below act on that port's ring\n\nYou can [`read`](crate::Reg::read) this register and get [`sel::R`](R). You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`sel::W`](W). You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct SelSpec;
impl crate::RegisterSpec for SelSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`sel::R`](R) reader structure"]
impl crate::Readable for SelSpec {}
#[doc = "`write(|w| ..)` method takes [`sel::W`](W) writer structure"]
impl crate::Writable for SelSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets SEL to value 0"]
impl crate::Resettable for SelSpec {}
