#[doc = "Register `LOCAL_ADDR[%s]` reader"]
pub type R = crate::R<LocalAddrSpec>;
#[doc = "Register `LOCAL_ADDR[%s]` writer"]
pub type W = crate::W<LocalAddrSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
impl W {}
#[doc = "Card-owned server-side IPv4 address (host order): the source of server connections\n\nYou can [`read`](crate::Reg::read) this register and get [`local_addr::R`](R). You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`local_addr::W`](W). You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct LocalAddrSpec;
impl crate::RegisterSpec for LocalAddrSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`local_addr::R`](R) reader structure"]
impl crate::Readable for LocalAddrSpec {}
#[doc = "`write(|w| ..)` method takes [`local_addr::W`](W) writer structure"]
impl crate::Writable for LocalAddrSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets LOCAL_ADDR[%s] to value 0"]
impl crate::Resettable for LocalAddrSpec {}
