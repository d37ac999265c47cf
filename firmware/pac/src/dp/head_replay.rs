#[doc = "Register `HEAD_REPLAY` writer"]
pub type W = crate::W<HeadReplaySpec>;
#[doc = "Field `MAX_LEN` writer - The most payload the segment may carry (the replay chunk)"]
pub type MaxLenW<'a, REG> = crate::FieldWriter<'a, REG, 16, u16>;
#[doc = "Field `ID` writer - The buffer"]
pub type IdW<'a, REG> = crate::FieldWriter<'a, REG, 8>;
impl W {
    #[doc = "Bits 0:15 - The most payload the segment may carry (the replay chunk)"]
    #[inline(always)]
    pub fn max_len(&mut self) -> MaxLenW<'_, HeadReplaySpec> {
        MaxLenW::new(self, 0)
    }
    #[doc = "Bits 24:31 - The buffer"]
    #[inline(always)]
    pub fn id(&mut self) -> IdW<'_, HeadReplaySpec> {
        IdW::new(self, 24)
    }
}
#[doc = "Send a buffer's head to the server port behind the handshake ACK staged in DP.TXGEN_* (its ACK form: addresses, ports, seq, ack, flags, window, timestamps; the TCP checksum from the buffer's running sum, PSH added when the head is not empty) and give the buffer back once read; a head longer than MAX_LEN sends nothing (HEAD_LONG; the buffer still comes back). Refused and counted in TXGEN_REFUSED while TXGEN_STATUS.BUSY, which covers the replay until it has taken the staged registers\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`head_replay::W`](W). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct HeadReplaySpec;
impl crate::RegisterSpec for HeadReplaySpec {
    type Ux = u32;
}
#[doc = "`write(|w| ..)` method takes [`head_replay::W`](W) writer structure"]
impl crate::Writable for HeadReplaySpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets HEAD_REPLAY to value 0"]
impl crate::Resettable for HeadReplaySpec {}
