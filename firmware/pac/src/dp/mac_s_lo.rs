#[doc = "Register `MAC_S_LO` reader"]
pub type R = crate::R<MacSLoSpec>;
#[doc = "Register `MAC_S_LO` writer"]
pub type W = crate::W<MacSLoSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
impl W {}
#[doc = "Server-port MAC address bits 31:0 (the MAC as a 48-bit number: bits 47:40 are the first byte on the wire)\n\nYou can [`read`](crate::Reg::read) this register and get [`mac_s_lo::R`](R). You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`mac_s_lo::W`](W). You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct MacSLoSpec;
impl crate::RegisterSpec for MacSLoSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`mac_s_lo::R`](R) reader structure"]
impl crate::Readable for MacSLoSpec {}
#[doc = "`write(|w| ..)` method takes [`mac_s_lo::W`](W) writer structure"]
impl crate::Writable for MacSLoSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets MAC_S_LO to value 0"]
impl crate::Resettable for MacSLoSpec {}
