#[doc = "Register `TXGEN_SRC_MAC_LO` reader"]
pub type R = crate::R<TxgenSrcMacLoSpec>;
#[doc = "Register `TXGEN_SRC_MAC_LO` writer"]
pub type W = crate::W<TxgenSrcMacLoSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
impl W {}
#[doc = "Frame generator: source MAC bits 31:0\n\nYou can [`read`](crate::Reg::read) this register and get [`txgen_src_mac_lo::R`](R). You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`txgen_src_mac_lo::W`](W). You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct TxgenSrcMacLoSpec;
impl crate::RegisterSpec for TxgenSrcMacLoSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`txgen_src_mac_lo::R`](R) reader structure"]
impl crate::Readable for TxgenSrcMacLoSpec {}
#[doc = "`write(|w| ..)` method takes [`txgen_src_mac_lo::W`](W) writer structure"]
impl crate::Writable for TxgenSrcMacLoSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets TXGEN_SRC_MAC_LO to value 0"]
impl crate::Resettable for TxgenSrcMacLoSpec {}
