#[doc = "Register `AGE_STATUS` reader"]
pub type R = crate::R<AgeStatusSpec>;
#[doc = "Field `LEVEL` reader - Expired slots waiting in the queue"]
pub type LevelR = crate::FieldReader;
#[doc = "Field `DEPTH` reader - Slots the queue holds (AGE_QUEUE_DEPTH; 0: the card has no scanner)"]
pub type DepthR = crate::FieldReader;
#[doc = "Field `FREER` reader - The scanner frees LINGER slots itself when AGE_CTRL.FREE is set"]
pub type FreerR = crate::BitReader;
impl R {
    #[doc = "Bits 0:7 - Expired slots waiting in the queue"]
    #[inline(always)]
    pub fn level(&self) -> LevelR {
        LevelR::new((self.bits & 0xff) as u8)
    }
    #[doc = "Bits 8:15 - Slots the queue holds (AGE_QUEUE_DEPTH; 0: the card has no scanner)"]
    #[inline(always)]
    pub fn depth(&self) -> DepthR {
        DepthR::new(((self.bits >> 8) & 0xff) as u8)
    }
    #[doc = "Bit 16 - The scanner frees LINGER slots itself when AGE_CTRL.FREE is set"]
    #[inline(always)]
    pub fn freer(&self) -> FreerR {
        FreerR::new(((self.bits >> 16) & 1) != 0)
    }
}
#[doc = "Aging scanner state\n\nYou can [`read`](crate::Reg::read) this register and get [`age_status::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct AgeStatusSpec;
impl crate::RegisterSpec for AgeStatusSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`age_status::R`](R) reader structure"]
impl crate::Readable for AgeStatusSpec {}
#[doc = "`reset()` method sets AGE_STATUS to value 0"]
impl crate::Resettable for AgeStatusSpec {}
