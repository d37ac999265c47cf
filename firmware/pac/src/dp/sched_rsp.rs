#[doc = "Register `SCHED_RSP` reader"]
pub type R = crate::R<SchedRspSpec>;
#[doc = "Field `SERVER` reader - Server id (status PICK)"]
pub type ServerR = crate::FieldReader;
#[doc = "Field `STATUS` reader - SchedStatus"]
pub type StatusR = crate::FieldReader;
#[doc = "Field `DONE` reader - The answer is here (cleared by a SCHED_REQ write)"]
pub type DoneR = crate::BitReader;
impl R {
    #[doc = "Bits 0:5 - Server id (status PICK)"]
    #[inline(always)]
    pub fn server(&self) -> ServerR {
        ServerR::new((self.bits & 0x3f) as u8)
    }
    #[doc = "Bits 8:9 - SchedStatus"]
    #[inline(always)]
    pub fn status(&self) -> StatusR {
        StatusR::new(((self.bits >> 8) & 3) as u8)
    }
    #[doc = "Bit 31 - The answer is here (cleared by a SCHED_REQ write)"]
    #[inline(always)]
    pub fn done(&self) -> DoneR {
        DoneR::new(((self.bits >> 31) & 1) != 0)
    }
}
#[doc = "The answer to the last SCHED_REQ\n\nYou can [`read`](crate::Reg::read) this register and get [`sched_rsp::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct SchedRspSpec;
impl crate::RegisterSpec for SchedRspSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`sched_rsp::R`](R) reader structure"]
impl crate::Readable for SchedRspSpec {}
#[doc = "`reset()` method sets SCHED_RSP to value 0"]
impl crate::Resettable for SchedRspSpec {}
