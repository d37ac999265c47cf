#[doc = "Register `BUF_PTR` reader"]
pub type R = crate::R<BufPtrSpec>;
#[doc = "Register `BUF_PTR` writer"]
pub type W = crate::W<BufPtrSpec>;
#[doc = "Field `WORD` reader - 32-bit word index in the 1 KiB request buffer"]
pub type WordR = crate::FieldReader;
#[doc = "Field `WORD` writer - 32-bit word index in the 1 KiB request buffer"]
pub type WordW<'a, REG> = crate::FieldWriter<'a, REG, 8>;
impl R {
    #[doc = "Bits 0:7 - 32-bit word index in the 1 KiB request buffer"]
    #[inline(always)]
    pub fn word(&self) -> WordR {
        WordR::new((self.bits & 0xff) as u8)
    }
}
impl W {
    #[doc = "Bits 0:7 - 32-bit word index in the 1 KiB request buffer"]
    #[inline(always)]
    pub fn word(&mut self) -> WordW<'_, BufPtrSpec> {
        WordW::new(self, 0)
    }
}
#[doc = "Request buffer write pointer\n\nYou can [`read`](crate::Reg::read) this register and get [`buf_ptr::R`](R). You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`buf_ptr::W`](W). You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct BufPtrSpec;
impl crate::RegisterSpec for BufPtrSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`buf_ptr::R`](R) reader structure"]
impl crate::Readable for BufPtrSpec {}
#[doc = "`write(|w| ..)` method takes [`buf_ptr::W`](W) writer structure"]
impl crate::Writable for BufPtrSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets BUF_PTR to value 0"]
impl crate::Resettable for BufPtrSpec {}
