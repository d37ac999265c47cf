#[doc = "Register `TXGEN_TSVAL` reader"]
pub type R = crate::R<TxgenTsvalSpec>;
#[doc = "Register `TXGEN_TSVAL` writer"]
pub type W = crate::W<TxgenTsvalSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
impl W {}
#[doc = "Frame generator: timestamp value (TS)\n\nYou can [`read`](crate::Reg::read) this register and get [`txgen_tsval::R`](R). You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`txgen_tsval::W`](W). You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct TxgenTsvalSpec;
impl crate::RegisterSpec for TxgenTsvalSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`txgen_tsval::R`](R) reader structure"]
impl crate::Readable for TxgenTsvalSpec {}
#[doc = "`write(|w| ..)` method takes [`txgen_tsval::W`](W) writer structure"]
impl crate::Writable for TxgenTsvalSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets TXGEN_TSVAL to value 0"]
impl crate::Resettable for TxgenTsvalSpec {}
