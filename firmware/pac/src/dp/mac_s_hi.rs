#[doc = "Register `MAC_S_HI` reader"]
pub type R = crate::R<MacSHiSpec>;
#[doc = "Register `MAC_S_HI` writer"]
pub type W = crate::W<MacSHiSpec>;
#[doc = "Field `MAC` reader - MAC address bits 47:32"]
pub type MacR = crate::FieldReader<u16>;
#[doc = "Field `MAC` writer - MAC address bits 47:32"]
pub type MacW<'a, REG> = crate::FieldWriter<'a, REG, 16, u16>;
impl R {
    #[doc = "Bits 0:15 - MAC address bits 47:32"]
    #[inline(always)]
    pub fn mac(&self) -> MacR {
        MacR::new((self.bits & 0xffff) as u16)
    }
}
impl W {
    #[doc = "Bits 0:15 - MAC address bits 47:32"]
    #[inline(always)]
    pub fn mac(&mut self) -> MacW<'_, MacSHiSpec> {
        MacW::new(self, 0)
    }
}
#[doc = "Server-port MAC address bits 47:32 in 15:0\n\nYou can [`read`](crate::Reg::read) this register and get [`mac_s_hi::R`](R). You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`mac_s_hi::W`](W). You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct MacSHiSpec;
impl crate::RegisterSpec for MacSHiSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`mac_s_hi::R`](R) reader structure"]
impl crate::Readable for MacSHiSpec {}
#[doc = "`write(|w| ..)` method takes [`mac_s_hi::W`](W) writer structure"]
impl crate::Writable for MacSHiSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets MAC_S_HI to value 0"]
impl crate::Resettable for MacSHiSpec {}
