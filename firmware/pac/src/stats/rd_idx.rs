#[doc = "Register `RD_IDX` reader"]
pub type R = crate::R<RdIdxSpec>;
#[doc = "Register `RD_IDX` writer"]
pub type W = crate::W<RdIdxSpec>;
#[doc = "Field `INDEX` reader - Counter index, below PARAMS.COUNTERS (docs/datapath.md)"]
pub type IndexR = crate::FieldReader<u16>;
#[doc = "Field `INDEX` writer - Counter index, below PARAMS.COUNTERS (docs/datapath.md)"]
pub type IndexW<'a, REG> = crate::FieldWriter<'a, REG, 9, u16>;
impl R {
    #[doc = "Bits 0:8 - Counter index, below PARAMS.COUNTERS (docs/datapath.md)"]
    #[inline(always)]
    pub fn index(&self) -> IndexR {
        IndexR::new((self.bits & 0x01ff) as u16)
    }
}
impl W {
    #[doc = "Bits 0:8 - Counter index, below PARAMS.COUNTERS (docs/datapath.md)"]
    #[inline(always)]
    pub fn index(&mut self) -> IndexW<'_, RdIdxSpec> {
        IndexW::new(self, 0)
    }
}
#[doc = "Snapshot read: a write reads that counter from the snapshot into RD_LO and RD_HI\n\nYou can [`read`](crate::Reg::read) this register and get [`rd_idx::R`](R). You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`rd_idx::W`](W). You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct RdIdxSpec;
impl crate::RegisterSpec for RdIdxSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`rd_idx::R`](R) reader structure"]
impl crate::Readable for RdIdxSpec {}
#[doc = "`write(|w| ..)` method takes [`rd_idx::W`](W) writer structure"]
impl crate::Writable for RdIdxSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets RD_IDX to value 0"]
impl crate::Resettable for RdIdxSpec {}
