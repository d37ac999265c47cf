#[doc = "Register `SYN_MSS` reader"]
pub type R = crate::R<SynMssSpec>;
#[doc = "Register `SYN_MSS` writer"]
pub type W = crate::W<SynMssSpec>;
#[doc = "Field `MSS` reader - MSS option value"]
pub type MssR = crate::FieldReader<u16>;
#[doc = "Field `MSS` writer - MSS option value"]
pub type MssW<'a, REG> = crate::FieldWriter<'a, REG, 16, u16>;
impl R {
    #[doc = "Bits 0:15 - MSS option value"]
    #[inline(always)]
    pub fn mss(&self) -> MssR {
        MssR::new((self.bits & 0xffff) as u16)
    }
}
impl W {
    #[doc = "Bits 0:15 - MSS option value"]
    #[inline(always)]
    pub fn mss(&mut self) -> MssW<'_, SynMssSpec> {
        MssW::new(self, 0)
    }
}
#[doc = "MSS the hardware SYN responder announces to clients\n\nYou can [`read`](crate::Reg::read) this register and get [`syn_mss::R`](R). You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`syn_mss::W`](W). You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct SynMssSpec;
impl crate::RegisterSpec for SynMssSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`syn_mss::R`](R) reader structure"]
impl crate::Readable for SynMssSpec {}
#[doc = "`write(|w| ..)` method takes [`syn_mss::W`](W) writer structure"]
impl crate::Writable for SynMssSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets SYN_MSS to value 0x05b4"]
impl crate::Resettable for SynMssSpec {
    const RESET_VALUE: u32 = 0x05b4;
}
