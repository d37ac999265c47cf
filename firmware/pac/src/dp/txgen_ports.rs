#[doc = "Register `TXGEN_PORTS` reader"]
pub type R = crate::R<TxgenPortsSpec>;
#[doc = "Register `TXGEN_PORTS` writer"]
pub type W = crate::W<TxgenPortsSpec>;
#[doc = "Field `DPORT` reader - Destination port"]
pub type DportR = crate::FieldReader<u16>;
#[doc = "Field `DPORT` writer - Destination port"]
pub type DportW<'a, REG> = crate::FieldWriter<'a, REG, 16, u16>;
#[doc = "Field `SPORT` reader - Source port"]
pub type SportR = crate::FieldReader<u16>;
#[doc = "Field `SPORT` writer - Source port"]
pub type SportW<'a, REG> = crate::FieldWriter<'a, REG, 16, u16>;
impl R {
    #[doc = "Bits 0:15 - Destination port"]
    #[inline(always)]
    pub fn dport(&self) -> DportR {
        DportR::new((self.bits & 0xffff) as u16)
    }
    #[doc = "Bits 16:31 - Source port"]
    #[inline(always)]
    pub fn sport(&self) -> SportR {
        SportR::new(((self.bits >> 16) & 0xffff) as u16)
    }
}
impl W {
    #[doc = "Bits 0:15 - Destination port"]
    #[inline(always)]
    pub fn dport(&mut self) -> DportW<'_, TxgenPortsSpec> {
        DportW::new(self, 0)
    }
    #[doc = "Bits 16:31 - Source port"]
    #[inline(always)]
    pub fn sport(&mut self) -> SportW<'_, TxgenPortsSpec> {
        SportW::new(self, 16)
    }
}
#[doc = "Frame generator: TCP ports\n\nYou can [`read`](crate::Reg::read) this register and get [`txgen_ports::R`](R). You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`txgen_ports::W`](W). You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct TxgenPortsSpec;
impl crate::RegisterSpec for TxgenPortsSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`txgen_ports::R`](R) reader structure"]
impl crate::Readable for TxgenPortsSpec {}
#[doc = "`write(|w| ..)` method takes [`txgen_ports::W`](W) writer structure"]
impl crate::Writable for TxgenPortsSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets TXGEN_PORTS to value 0"]
impl crate::Resettable for TxgenPortsSpec {}
