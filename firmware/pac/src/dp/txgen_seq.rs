#[doc = "Register `TXGEN_SEQ` reader"]
pub type R = crate::R<TxgenSeqSpec>;
#[doc = "Register `TXGEN_SEQ` writer"]
pub type W = crate::W<TxgenSeqSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
impl W {}
#[doc = "Frame generator: sequence number\n\nYou can [`read`](crate::Reg::read) this register and get [`txgen_seq::R`](R). You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`txgen_seq::W`](W). You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct TxgenSeqSpec;
impl crate::RegisterSpec for TxgenSeqSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`txgen_seq::R`](R) reader structure"]
impl crate::Readable for TxgenSeqSpec {}
#[doc = "`write(|w| ..)` method takes [`txgen_seq::W`](W) writer structure"]
impl crate::Writable for TxgenSeqSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets TXGEN_SEQ to value 0"]
impl crate::Resettable for TxgenSeqSpec {}
