#[doc = "Register `TXGEN_TSECR` reader"]
pub type R = crate::R<TxgenTsecrSpec>;
#[doc = "Register `TXGEN_TSECR` writer"]
pub type W = crate::W<TxgenTsecrSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
impl W {}
#[doc = "Frame generator: timestamp echo reply (TS)\n\nYou can [`read`](crate::Reg::read) this register and get [`txgen_tsecr::R`](R). You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`txgen_tsecr::W`](W). You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct TxgenTsecrSpec;
impl crate::RegisterSpec for TxgenTsecrSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`txgen_tsecr::R`](R) reader structure"]
impl crate::Readable for TxgenTsecrSpec {}
#[doc = "`write(|w| ..)` method takes [`txgen_tsecr::W`](W) writer structure"]
impl crate::Writable for TxgenTsecrSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets TXGEN_TSECR to value 0"]
impl crate::Resettable for TxgenTsecrSpec {}
