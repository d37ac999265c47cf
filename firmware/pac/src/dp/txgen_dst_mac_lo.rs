#[doc = "Register `TXGEN_DST_MAC_LO` reader"]
pub type R = crate::R<TxgenDstMacLoSpec>;
#[doc = "Register `TXGEN_DST_MAC_LO` writer"]
pub type W = crate::W<TxgenDstMacLoSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
impl W {}
#[doc = "Frame generator (tcp_tx_gen), staged request: destination MAC bits 31:0\n\nYou can [`read`](crate::Reg::read) this register and get [`txgen_dst_mac_lo::R`](R). You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`txgen_dst_mac_lo::W`](W). You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct TxgenDstMacLoSpec;
impl crate::RegisterSpec for TxgenDstMacLoSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`txgen_dst_mac_lo::R`](R) reader structure"]
impl crate::Readable for TxgenDstMacLoSpec {}
#[doc = "`write(|w| ..)` method takes [`txgen_dst_mac_lo::W`](W) writer structure"]
impl crate::Writable for TxgenDstMacLoSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets TXGEN_DST_MAC_LO to value 0"]
impl crate::Resettable for TxgenDstMacLoSpec {}
