#[doc = "Register `AGE_HEAD` reader"]
pub type R = crate::R<AgeHeadSpec>;
#[doc = "Field `SLOT` reader - The flow slot"]
pub type SlotR = crate::FieldReader<u16>;
#[doc = "Field `RS` reader - FREED only: the real-server index of the freed entry (FlowStatic.real_server; 0 otherwise)"]
pub type RsR = crate::FieldReader;
#[doc = "Field `CLASS` reader - Its timeout class when it was found expired (enum TimeoutClass)"]
pub type ClassR = crate::FieldReader;
#[doc = "Field `ACTIVE` reader - FREED only: the freed entry had EntryFlags ACTIVE (its server counted it active)"]
pub type ActiveR = crate::BitReader;
#[doc = "Field `FREED` reader - The scanner freed the slot itself (AGE_CTRL.FREE, class LINGER): its keys are deleted and its entry is FREE; the firmware only takes the slot back and releases the server's count"]
pub type FreedR = crate::BitReader;
#[doc = "Field `VALID` reader - The queue is not empty (SLOT and CLASS mean something)"]
pub type ValidR = crate::BitReader;
impl R {
    #[doc = "Bits 0:15 - The flow slot"]
    #[inline(always)]
    pub fn slot(&self) -> SlotR {
        SlotR::new((self.bits & 0xffff) as u16)
    }
    #[doc = "Bits 16:23 - FREED only: the real-server index of the freed entry (FlowStatic.real_server; 0 otherwise)"]
    #[inline(always)]
    pub fn rs(&self) -> RsR {
        RsR::new(((self.bits >> 16) & 0xff) as u8)
    }
    #[doc = "Bits 24:27 - Its timeout class when it was found expired (enum TimeoutClass)"]
    #[inline(always)]
    pub fn class(&self) -> ClassR {
        ClassR::new(((self.bits >> 24) & 0x0f) as u8)
    }
    #[doc = "Bit 28 - FREED only: the freed entry had EntryFlags ACTIVE (its server counted it active)"]
    #[inline(always)]
    pub fn active(&self) -> ActiveR {
        ActiveR::new(((self.bits >> 28) & 1) != 0)
    }
    #[doc = "Bit 29 - The scanner freed the slot itself (AGE_CTRL.FREE, class LINGER): its keys are deleted and its entry is FREE; the firmware only takes the slot back and releases the server's count"]
    #[inline(always)]
    pub fn freed(&self) -> FreedR {
        FreedR::new(((self.bits >> 29) & 1) != 0)
    }
    #[doc = "Bit 31 - The queue is not empty (SLOT and CLASS mean something)"]
    #[inline(always)]
    pub fn valid(&self) -> ValidR {
        ValidR::new(((self.bits >> 31) & 1) != 0)
    }
}
#[doc = "The oldest expired slot the scanner queued; AGE_POP removes it\n\nYou can [`read`](crate::Reg::read) this register and get [`age_head::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct AgeHeadSpec;
impl crate::RegisterSpec for AgeHeadSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`age_head::R`](R) reader structure"]
impl crate::Readable for AgeHeadSpec {}
#[doc = "`reset()` method sets AGE_HEAD to value 0"]
impl crate::Resettable for AgeHeadSpec {}
