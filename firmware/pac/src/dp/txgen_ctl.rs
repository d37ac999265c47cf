#[doc = "Register `TXGEN_CTL` reader"]
pub type R = crate::R<TxgenCtlSpec>;
#[doc = "Register `TXGEN_CTL` writer"]
pub type W = crate::W<TxgenCtlSpec>;
#[doc = "Field `FLAGS` reader - TCP flags (FIN 0 .. CWR 7)"]
pub type FlagsR = crate::FieldReader;
#[doc = "Field `FLAGS` writer - TCP flags (FIN 0 .. CWR 7)"]
pub type FlagsW<'a, REG> = crate::FieldWriter<'a, REG, 8>;
#[doc = "Field `WINDOW` reader - Window field"]
pub type WindowR = crate::FieldReader<u16>;
#[doc = "Field `WINDOW` writer - Window field"]
pub type WindowW<'a, REG> = crate::FieldWriter<'a, REG, 16, u16>;
impl R {
    #[doc = "Bits 0:7 - TCP flags (FIN 0 .. CWR 7)"]
    #[inline(always)]
    pub fn flags(&self) -> FlagsR {
        FlagsR::new((self.bits & 0xff) as u8)
    }
    #[doc = "Bits 16:31 - Window field"]
    #[inline(always)]
    pub fn window(&self) -> WindowR {
        WindowR::new(((self.bits >> 16) & 0xffff) as u16)
    }
}
impl W {
    #[doc = "Bits 0:7 - TCP flags (FIN 0 .. CWR 7)"]
    #[inline(always)]
    pub fn flags(&mut self) -> FlagsW<'_, TxgenCtlSpec> {
        FlagsW::new(self, 0)
    }
    #[doc = "Bits 16:31 - Window field"]
    #[inline(always)]
    pub fn window(&mut self) -> WindowW<'_, TxgenCtlSpec> {
        WindowW::new(self, 16)
    }
}
#[doc = "Frame generator: TCP flags and window\n\nYou can [`read`](crate::Reg::read) this register and get [`txgen_ctl::R`](R). You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`txgen_ctl::W`](W). You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct TxgenCtlSpec;
impl crate::RegisterSpec for TxgenCtlSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`txgen_ctl::R`](R) reader structure"]
impl crate::Readable for TxgenCtlSpec {}
#[doc = "`write(|w| ..)` method takes [`txgen_ctl::W`](W) writer structure"]
impl crate::Writable for TxgenCtlSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets TXGEN_CTL to value 0"]
impl crate::Resettable for TxgenCtlSpec {}
