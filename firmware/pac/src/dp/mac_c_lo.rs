#[doc = "Register `MAC_C_LO` reader"]
pub type R = crate::R<MacCLoSpec>;
#[doc = "Register `MAC_C_LO` writer"]
pub type W = crate::W<MacCLoSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
impl W {}
#[doc = "Client-port MAC address bits 31:0 (the MAC as a 48-bit number: bits 47:40 are the first byte on the wire)\n\nYou can [`read`](crate::Reg::read) this register and get [`mac_c_lo::R`](R). You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`mac_c_lo::W`](W). You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct MacCLoSpec;
impl crate::RegisterSpec for MacCLoSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`mac_c_lo::R`](R) reader structure"]
impl crate::Readable for MacCLoSpec {}
#[doc = "`write(|w| ..)` method takes [`mac_c_lo::W`](W) writer structure"]
impl crate::Writable for MacCLoSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets MAC_C_LO to value 0"]
impl crate::Resettable for MacCLoSpec {}
