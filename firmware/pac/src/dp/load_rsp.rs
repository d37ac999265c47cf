#[doc = "Register `LOAD_RSP` reader"]
pub type R = crate::R<LoadRspSpec>;
#[doc = "Field `SERVER` reader - Server slot (status PICK or DATA)"]
pub type ServerR = crate::FieldReader;
#[doc = "Field `STATUS` reader - LoadStatus"]
pub type StatusR = crate::FieldReader;
#[doc = "Field `UNDERFLOW` reader - The last operation found its count at 0 and changed nothing"]
pub type UnderflowR = crate::BitReader;
#[doc = "Field `BUSY` reader - An operation is pending or running: LOAD_OP is refused"]
pub type BusyR = crate::BitReader;
#[doc = "Field `DONE` reader - The answer to the last PICK or READ is here (cleared by a LOAD_OP write)"]
pub type DoneR = crate::BitReader;
impl R {
    #[doc = "Bits 0:5 - Server slot (status PICK or DATA)"]
    #[inline(always)]
    pub fn server(&self) -> ServerR {
        ServerR::new((self.bits & 0x3f) as u8)
    }
    #[doc = "Bits 8:9 - LoadStatus"]
    #[inline(always)]
    pub fn status(&self) -> StatusR {
        StatusR::new(((self.bits >> 8) & 3) as u8)
    }
    #[doc = "Bit 12 - The last operation found its count at 0 and changed nothing"]
    #[inline(always)]
    pub fn underflow(&self) -> UnderflowR {
        UnderflowR::new(((self.bits >> 12) & 1) != 0)
    }
    #[doc = "Bit 30 - An operation is pending or running: LOAD_OP is refused"]
    #[inline(always)]
    pub fn busy(&self) -> BusyR {
        BusyR::new(((self.bits >> 30) & 1) != 0)
    }
    #[doc = "Bit 31 - The answer to the last PICK or READ is here (cleared by a LOAD_OP write)"]
    #[inline(always)]
    pub fn done(&self) -> DoneR {
        DoneR::new(((self.bits >> 31) & 1) != 0)
    }
}
#[doc = "State of the last operation and the answer to the last PICK or READ\n\nYou can [`read`](crate::Reg::read) this register and get [`load_rsp::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct LoadRspSpec;
impl crate::RegisterSpec for LoadRspSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`load_rsp::R`](R) reader structure"]
impl crate::Readable for LoadRspSpec {}
#[doc = "`reset()` method sets LOAD_RSP to value 0"]
impl crate::Resettable for LoadRspSpec {}
