#[doc = "Register `TXGEN_SRC_MAC_HI` reader"]
pub type R = crate::R<TxgenSrcMacHiSpec>;
#[doc = "Register `TXGEN_SRC_MAC_HI` writer"]
pub type W = crate::W<TxgenSrcMacHiSpec>;
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
    pub fn mac(&mut self) -> MacW<'_, TxgenSrcMacHiSpec> {
        MacW::new(self, 0)
    }
}
#[doc = "Frame generator: source MAC bits 47:32\n\nYou can [`read`](crate::Reg::read) this register and get [`txgen_src_mac_hi::R`](R). You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`txgen_src_mac_hi::W`](W). You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct TxgenSrcMacHiSpec;
impl crate::RegisterSpec for TxgenSrcMacHiSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`txgen_src_mac_hi::R`](R) reader structure"]
impl crate::Readable for TxgenSrcMacHiSpec {}
#[doc = "`write(|w| ..)` method takes [`txgen_src_mac_hi::W`](W) writer structure"]
impl crate::Writable for TxgenSrcMacHiSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets TXGEN_SRC_MAC_HI to value 0"]
impl crate::Resettable for TxgenSrcMacHiSpec {}
