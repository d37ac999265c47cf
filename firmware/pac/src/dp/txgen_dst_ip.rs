#[doc = "Register `TXGEN_DST_IP` reader"]
pub type R = crate::R<TxgenDstIpSpec>;
#[doc = "Register `TXGEN_DST_IP` writer"]
pub type W = crate::W<TxgenDstIpSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
impl W {}
#[doc = "Frame generator: destination IPv4 address (host order)\n\nYou can [`read`](crate::Reg::read) this register and get [`txgen_dst_ip::R`](R). You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`txgen_dst_ip::W`](W). You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct TxgenDstIpSpec;
impl crate::RegisterSpec for TxgenDstIpSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`txgen_dst_ip::R`](R) reader structure"]
impl crate::Readable for TxgenDstIpSpec {}
#[doc = "`write(|w| ..)` method takes [`txgen_dst_ip::W`](W) writer structure"]
impl crate::Writable for TxgenDstIpSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets TXGEN_DST_IP to value 0"]
impl crate::Resettable for TxgenDstIpSpec {}
