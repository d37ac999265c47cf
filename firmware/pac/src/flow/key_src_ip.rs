#[doc = "Register `KEY_SRC_IP` reader"]
pub type R = crate::R<KeySrcIpSpec>;
#[doc = "Register `KEY_SRC_IP` writer"]
pub type W = crate::W<KeySrcIpSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
impl W {}
#[doc = "Command key: source IPv4 address (host order)\n\nYou can [`read`](crate::Reg::read) this register and get [`key_src_ip::R`](R). You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`key_src_ip::W`](W). You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct KeySrcIpSpec;
impl crate::RegisterSpec for KeySrcIpSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`key_src_ip::R`](R) reader structure"]
impl crate::Readable for KeySrcIpSpec {}
#[doc = "`write(|w| ..)` method takes [`key_src_ip::W`](W) writer structure"]
impl crate::Writable for KeySrcIpSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets KEY_SRC_IP to value 0"]
impl crate::Resettable for KeySrcIpSpec {}
