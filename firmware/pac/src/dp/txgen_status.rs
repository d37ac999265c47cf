#[doc = "Register `TXGEN_STATUS` reader"]
pub type R = crate::R<TxgenStatusSpec>;
#[doc = "Field `BUSY` reader - A request is staged and not yet taken by the generator: TXGEN_GO is refused"]
pub type BusyR = crate::BitReader;
#[doc = "Field `PRESENT` reader - The card has the frame generator"]
pub type PresentR = crate::BitReader;
impl R {
    #[doc = "Bit 0 - A request is staged and not yet taken by the generator: TXGEN_GO is refused"]
    #[inline(always)]
    pub fn busy(&self) -> BusyR {
        BusyR::new((self.bits & 1) != 0)
    }
    #[doc = "Bit 1 - The card has the frame generator"]
    #[inline(always)]
    pub fn present(&self) -> PresentR {
        PresentR::new(((self.bits >> 1) & 1) != 0)
    }
}
#[doc = "Frame generator state\n\nYou can [`read`](crate::Reg::read) this register and get [`txgen_status::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct TxgenStatusSpec;
impl crate::RegisterSpec for TxgenStatusSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`txgen_status::R`](R) reader structure"]
impl crate::Readable for TxgenStatusSpec {}
#[doc = "`reset()` method sets TXGEN_STATUS to value 0"]
impl crate::Resettable for TxgenStatusSpec {}
