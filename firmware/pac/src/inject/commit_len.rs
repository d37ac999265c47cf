#[doc = "Register `COMMIT_LEN` reader"]
pub type R = crate::R<CommitLenSpec>;
#[doc = "Register `COMMIT_LEN` writer"]
pub type W = crate::W<CommitLenSpec>;
#[doc = "Field `LEN` reader - Frame length in bytes"]
pub type LenR = crate::FieldReader<u16>;
#[doc = "Field `LEN` writer - Frame length in bytes"]
pub type LenW<'a, REG> = crate::FieldWriter<'a, REG, 16, u16>;
#[doc = "Field `CSUM_IP` reader - Fill in the IPv4 header checksum"]
pub type CsumIpR = crate::BitReader;
#[doc = "Field `CSUM_IP` writer - Fill in the IPv4 header checksum"]
pub type CsumIpW<'a, REG> = crate::BitWriter<'a, REG>;
#[doc = "Field `CSUM_TCP` reader - Fill in the TCP checksum"]
pub type CsumTcpR = crate::BitReader;
#[doc = "Field `CSUM_TCP` writer - Fill in the TCP checksum"]
pub type CsumTcpW<'a, REG> = crate::BitWriter<'a, REG>;
impl R {
    #[doc = "Bits 0:15 - Frame length in bytes"]
    #[inline(always)]
    pub fn len(&self) -> LenR {
        LenR::new((self.bits & 0xffff) as u16)
    }
    #[doc = "Bit 16 - Fill in the IPv4 header checksum"]
    #[inline(always)]
    pub fn csum_ip(&self) -> CsumIpR {
        CsumIpR::new(((self.bits >> 16) & 1) != 0)
    }
    #[doc = "Bit 17 - Fill in the TCP checksum"]
    #[inline(always)]
    pub fn csum_tcp(&self) -> CsumTcpR {
        CsumTcpR::new(((self.bits >> 17) & 1) != 0)
    }
}
impl W {
    #[doc = "Bits 0:15 - Frame length in bytes"]
    #[inline(always)]
    pub fn len(&mut self) -> LenW<'_, CommitLenSpec> {
        LenW::new(self, 0)
    }
    #[doc = "Bit 16 - Fill in the IPv4 header checksum"]
    #[inline(always)]
    pub fn csum_ip(&mut self) -> CsumIpW<'_, CommitLenSpec> {
        CsumIpW::new(self, 16)
    }
    #[doc = "Bit 17 - Fill in the TCP checksum"]
    #[inline(always)]
    pub fn csum_tcp(&mut self) -> CsumTcpW<'_, CommitLenSpec> {
        CsumTcpW::new(self, 17)
    }
}
#[doc = "Frame length and checksum offload for COMMIT\n\nYou can [`read`](crate::Reg::read) this register and get [`commit_len::R`](R). You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`commit_len::W`](W). You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct CommitLenSpec;
impl crate::RegisterSpec for CommitLenSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`commit_len::R`](R) reader structure"]
impl crate::Readable for CommitLenSpec {}
#[doc = "`write(|w| ..)` method takes [`commit_len::W`](W) writer structure"]
impl crate::Writable for CommitLenSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets COMMIT_LEN to value 0"]
impl crate::Resettable for CommitLenSpec {}
