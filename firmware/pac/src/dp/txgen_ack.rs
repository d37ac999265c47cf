#[doc = "Register `TXGEN_ACK` reader"]
pub type R = crate::R<TxgenAckSpec>;
#[doc = "Register `TXGEN_ACK` writer"]
pub type W = crate::W<TxgenAckSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
impl W {}
#[doc = "Frame generator: acknowledgment number\n\nYou can [`read`](crate::Reg::read) this register and get [`txgen_ack::R`](R). You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`txgen_ack::W`](W). You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct TxgenAckSpec;
impl crate::RegisterSpec for TxgenAckSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`txgen_ack::R`](R) reader structure"]
impl crate::Readable for TxgenAckSpec {}
#[doc = "`write(|w| ..)` method takes [`txgen_ack::W`](W) writer structure"]
impl crate::Writable for TxgenAckSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets TXGEN_ACK to value 0"]
impl crate::Resettable for TxgenAckSpec {}
