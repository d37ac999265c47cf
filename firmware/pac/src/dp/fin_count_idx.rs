#[doc = "Register `FIN_COUNT_IDX` reader"]
pub type R = crate::R<FinCountIdxSpec>;
#[doc = "Register `FIN_COUNT_IDX` writer"]
pub type W = crate::W<FinCountIdxSpec>;
#[doc = "Field `RS` reader - Real-server index"]
pub type RsR = crate::FieldReader;
#[doc = "Field `RS` writer - Real-server index"]
pub type RsW<'a, REG> = crate::FieldWriter<'a, REG, 8>;
impl R {
    #[doc = "Bits 0:7 - Real-server index"]
    #[inline(always)]
    pub fn rs(&self) -> RsR {
        RsR::new((self.bits & 0xff) as u8)
    }
}
impl W {
    #[doc = "Bits 0:7 - Real-server index"]
    #[inline(always)]
    pub fn rs(&mut self) -> RsW<'_, FinCountIdxSpec> {
        RsW::new(self, 0)
    }
}
#[doc = "The real server FIN_COUNT reads (an entry's FlowStatic.real_server, below REAL_SERVERS)\n\nYou can [`read`](crate::Reg::read) this register and get [`fin_count_idx::R`](R). You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`fin_count_idx::W`](W). You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct FinCountIdxSpec;
impl crate::RegisterSpec for FinCountIdxSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`fin_count_idx::R`](R) reader structure"]
impl crate::Readable for FinCountIdxSpec {}
#[doc = "`write(|w| ..)` method takes [`fin_count_idx::W`](W) writer structure"]
impl crate::Writable for FinCountIdxSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets FIN_COUNT_IDX to value 0"]
impl crate::Resettable for FinCountIdxSpec {}
