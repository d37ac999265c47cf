#[doc = "Register `ABSORB_HEAD` reader"]
pub type R = crate::R<AbsorbHeadSpec>;
#[doc = "Field `SLOT` reader - The flow slot"]
pub type SlotR = crate::FieldReader<u16>;
#[doc = "Field `GEN` reader - The generation of the slot's use (SetupCtx.gen)"]
pub type GenR = crate::FieldReader;
#[doc = "Field `LEVEL` reader - Records in the queue"]
pub type LevelR = crate::FieldReader;
#[doc = "Field `VALID` reader - The queue is not empty (SLOT and GEN mean something)"]
pub type ValidR = crate::BitReader;
impl R {
    #[doc = "Bits 0:15 - The flow slot"]
    #[inline(always)]
    pub fn slot(&self) -> SlotR {
        SlotR::new((self.bits & 0xffff) as u16)
    }
    #[doc = "Bits 16:23 - The generation of the slot's use (SetupCtx.gen)"]
    #[inline(always)]
    pub fn gen_(&self) -> GenR {
        GenR::new(((self.bits >> 16) & 0xff) as u8)
    }
    #[doc = "Bits 24:30 - Records in the queue"]
    #[inline(always)]
    pub fn level(&self) -> LevelR {
        LevelR::new(((self.bits >> 24) & 0x7f) as u8)
    }
    #[doc = "Bit 31 - The queue is not empty (SLOT and GEN mean something)"]
    #[inline(always)]
    pub fn valid(&self) -> ValidR {
        ValidR::new(((self.bits >> 31) & 1) != 0)
    }
}
#[doc = "The absorber's done queue (ABSORB_QUEUE_DEPTH records): the oldest setup whose SYN-ACK the card absorbed and dropped (no punt); the firmware does its bookkeeping and removes it with ABSORB_POP. When the queue is full the SYN-ACK is punted with verdict ABSORBED instead (ABSORB_SPILLED)\n\nYou can [`read`](crate::Reg::read) this register and get [`absorb_head::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct AbsorbHeadSpec;
impl crate::RegisterSpec for AbsorbHeadSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`absorb_head::R`](R) reader structure"]
impl crate::Readable for AbsorbHeadSpec {}
#[doc = "`reset()` method sets ABSORB_HEAD to value 0"]
impl crate::Resettable for AbsorbHeadSpec {}
