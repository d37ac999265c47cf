#[doc = "Register `COMMIT` writer"]
pub type W = crate::W<CommitSpec>;
#[doc = "Field `L4_END` writer - End of the TCP segment in bytes (checksum range end)"]
pub type L4EndW<'a, REG> = crate::FieldWriter<'a, REG, 16, u16>;
impl W {
    #[doc = "Bits 0:15 - End of the TCP segment in bytes (checksum range end)"]
    #[inline(always)]
    pub fn l4_end(&mut self) -> L4EndW<'_, CommitSpec> {
        L4EndW::new(self, 0)
    }
}
#[doc = "Queues the frame with COMMIT_LEN and COMMIT_OFF; WR_PTR returns to 0\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`commit::W`](W). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct CommitSpec;
impl crate::RegisterSpec for CommitSpec {
    type Ux = u32;
}
#[doc = "`write(|w| ..)` method takes [`commit::W`](W) writer structure"]
impl crate::Writable for CommitSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets COMMIT to value 0"]
impl crate::Resettable for CommitSpec {}
