#[doc = "Register `VIP_ADDR[%s]` reader"]
pub type R = crate::R<VipAddrSpec>;
#[doc = "Register `VIP_ADDR[%s]` writer"]
pub type W = crate::W<VipAddrSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
impl W {}
#[doc = "Virtual service IPv4 address (host order)\n\nYou can [`read`](crate::Reg::read) this register and get [`vip_addr::R`](R). You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`vip_addr::W`](W). You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct VipAddrSpec;
impl crate::RegisterSpec for VipAddrSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`vip_addr::R`](R) reader structure"]
impl crate::Readable for VipAddrSpec {}
#[doc = "`write(|w| ..)` method takes [`vip_addr::W`](W) writer structure"]
impl crate::Writable for VipAddrSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets VIP_ADDR[%s] to value 0"]
impl crate::Resettable for VipAddrSpec {}
