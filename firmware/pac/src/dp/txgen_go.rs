#[doc = "Register `TXGEN_GO` writer"]
pub type W = crate::W<TxgenGoSpec>;
#[doc = "Field `PORT` writer - 0: the client port, 1: the server port"]
pub type PortW<'a, REG> = crate::BitWriter<'a, REG>;
impl W {
    #[doc = "Bit 0 - 0: the client port, 1: the server port"]
    #[inline(always)]
    pub fn port(&mut self) -> PortW<'_, TxgenGoSpec> {
        PortW::new(self, 0)
    }
}
#[doc = "Send the staged request's frame out of a port; refused and counted in TXGEN_REFUSED while TXGEN_STATUS.BUSY (the staged registers must not be written then)\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`txgen_go::W`](W). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct TxgenGoSpec;
impl crate::RegisterSpec for TxgenGoSpec {
    type Ux = u32;
}
#[doc = "`write(|w| ..)` method takes [`txgen_go::W`](W) writer structure"]
impl crate::Writable for TxgenGoSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets TXGEN_GO to value 0"]
impl crate::Resettable for TxgenGoSpec {}
