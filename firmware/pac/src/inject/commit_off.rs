#[doc = "Register `COMMIT_OFF` reader"]
pub type R = crate::R<CommitOffSpec>;
#[doc = "Register `COMMIT_OFF` writer"]
pub type W = crate::W<CommitOffSpec>;
#[doc = "Field `IP_OFF` reader - IPv4 header offset in bytes"]
pub type IpOffR = crate::FieldReader<u16>;
#[doc = "Field `IP_OFF` writer - IPv4 header offset in bytes"]
pub type IpOffW<'a, REG> = crate::FieldWriter<'a, REG, 16, u16>;
#[doc = "Field `L4_OFF` reader - TCP header offset in bytes"]
pub type L4OffR = crate::FieldReader<u16>;
#[doc = "Field `L4_OFF` writer - TCP header offset in bytes"]
pub type L4OffW<'a, REG> = crate::FieldWriter<'a, REG, 16, u16>;
impl R {
    #[doc = "Bits 0:15 - IPv4 header offset in bytes"]
    #[inline(always)]
    pub fn ip_off(&self) -> IpOffR {
        IpOffR::new((self.bits & 0xffff) as u16)
    }
    #[doc = "Bits 16:31 - TCP header offset in bytes"]
    #[inline(always)]
    pub fn l4_off(&self) -> L4OffR {
        L4OffR::new(((self.bits >> 16) & 0xffff) as u16)
    }
}
impl W {
    #[doc = "Bits 0:15 - IPv4 header offset in bytes"]
    #[inline(always)]
    pub fn ip_off(&mut self) -> IpOffW<'_, CommitOffSpec> {
        IpOffW::new(self, 0)
    }
    #[doc = "Bits 16:31 - TCP header offset in bytes"]
    #[inline(always)]
    pub fn l4_off(&mut self) -> L4OffW<'_, CommitOffSpec> {
        L4OffW::new(self, 16)
    }
}
#[doc = "Header offsets for checksum offload\n\nYou can [`read`](crate::Reg::read) this register and get [`commit_off::R`](R). You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`commit_off::W`](W). You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct CommitOffSpec;
impl crate::RegisterSpec for CommitOffSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`commit_off::R`](R) reader structure"]
impl crate::Readable for CommitOffSpec {}
#[doc = "`write(|w| ..)` method takes [`commit_off::W`](W) writer structure"]
impl crate::Writable for CommitOffSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets COMMIT_OFF to value 0"]
impl crate::Resettable for CommitOffSpec {}
