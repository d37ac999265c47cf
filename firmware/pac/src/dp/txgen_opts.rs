#[doc = "Register `TXGEN_OPTS` reader"]
pub type R = crate::R<TxgenOptsSpec>;
#[doc = "Register `TXGEN_OPTS` writer"]
pub type W = crate::W<TxgenOptsSpec>;
#[doc = "Field `MSS` reader - MSS option value (SYN form)"]
pub type MssR = crate::FieldReader<u16>;
#[doc = "Field `MSS` writer - MSS option value (SYN form)"]
pub type MssW<'a, REG> = crate::FieldWriter<'a, REG, 16, u16>;
#[doc = "Field `SYN_FORM` reader - 1: the SYN form; 0: the ACK form (MSS, SACK, WS ignored)"]
pub type SynFormR = crate::BitReader;
#[doc = "Field `SYN_FORM` writer - 1: the SYN form; 0: the ACK form (MSS, SACK, WS ignored)"]
pub type SynFormW<'a, REG> = crate::BitWriter<'a, REG>;
#[doc = "Field `SACK` reader - SACK permitted (SYN form)"]
pub type SackR = crate::BitReader;
#[doc = "Field `SACK` writer - SACK permitted (SYN form)"]
pub type SackW<'a, REG> = crate::BitWriter<'a, REG>;
#[doc = "Field `TS` reader - Timestamps option"]
pub type TsR = crate::BitReader;
#[doc = "Field `TS` writer - Timestamps option"]
pub type TsW<'a, REG> = crate::BitWriter<'a, REG>;
#[doc = "Field `WSCALE` reader - Window-scale option (SYN form)"]
pub type WscaleR = crate::BitReader;
#[doc = "Field `WSCALE` writer - Window-scale option (SYN form)"]
pub type WscaleW<'a, REG> = crate::BitWriter<'a, REG>;
#[doc = "Field `SCALE` reader - The window-scale option's shift (SYN form)"]
pub type ScaleR = crate::FieldReader;
#[doc = "Field `SCALE` writer - The window-scale option's shift (SYN form)"]
pub type ScaleW<'a, REG> = crate::FieldWriter<'a, REG, 4>;
impl R {
    #[doc = "Bits 0:15 - MSS option value (SYN form)"]
    #[inline(always)]
    pub fn mss(&self) -> MssR {
        MssR::new((self.bits & 0xffff) as u16)
    }
    #[doc = "Bit 16 - 1: the SYN form; 0: the ACK form (MSS, SACK, WS ignored)"]
    #[inline(always)]
    pub fn syn_form(&self) -> SynFormR {
        SynFormR::new(((self.bits >> 16) & 1) != 0)
    }
    #[doc = "Bit 17 - SACK permitted (SYN form)"]
    #[inline(always)]
    pub fn sack(&self) -> SackR {
        SackR::new(((self.bits >> 17) & 1) != 0)
    }
    #[doc = "Bit 18 - Timestamps option"]
    #[inline(always)]
    pub fn ts(&self) -> TsR {
        TsR::new(((self.bits >> 18) & 1) != 0)
    }
    #[doc = "Bit 19 - Window-scale option (SYN form)"]
    #[inline(always)]
    pub fn wscale(&self) -> WscaleR {
        WscaleR::new(((self.bits >> 19) & 1) != 0)
    }
    #[doc = "Bits 20:23 - The window-scale option's shift (SYN form)"]
    #[inline(always)]
    pub fn scale(&self) -> ScaleR {
        ScaleR::new(((self.bits >> 20) & 0x0f) as u8)
    }
}
impl W {
    #[doc = "Bits 0:15 - MSS option value (SYN form)"]
    #[inline(always)]
    pub fn mss(&mut self) -> MssW<'_, TxgenOptsSpec> {
        MssW::new(self, 0)
    }
    #[doc = "Bit 16 - 1: the SYN form; 0: the ACK form (MSS, SACK, WS ignored)"]
    #[inline(always)]
    pub fn syn_form(&mut self) -> SynFormW<'_, TxgenOptsSpec> {
        SynFormW::new(self, 16)
    }
    #[doc = "Bit 17 - SACK permitted (SYN form)"]
    #[inline(always)]
    pub fn sack(&mut self) -> SackW<'_, TxgenOptsSpec> {
        SackW::new(self, 17)
    }
    #[doc = "Bit 18 - Timestamps option"]
    #[inline(always)]
    pub fn ts(&mut self) -> TsW<'_, TxgenOptsSpec> {
        TsW::new(self, 18)
    }
    #[doc = "Bit 19 - Window-scale option (SYN form)"]
    #[inline(always)]
    pub fn wscale(&mut self) -> WscaleW<'_, TxgenOptsSpec> {
        WscaleW::new(self, 19)
    }
    #[doc = "Bits 20:23 - The window-scale option's shift (SYN form)"]
    #[inline(always)]
    pub fn scale(&mut self) -> ScaleW<'_, TxgenOptsSpec> {
        ScaleW::new(self, 20)
    }
}
#[doc = "Frame generator: options (docs/server-open.md): the SYN form MSS, SACK_PERM/NOP NOP, TS, NOP WS; the ACK form NOP NOP TS or none\n\nYou can [`read`](crate::Reg::read) this register and get [`txgen_opts::R`](R). You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`txgen_opts::W`](W). You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct TxgenOptsSpec;
impl crate::RegisterSpec for TxgenOptsSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`txgen_opts::R`](R) reader structure"]
impl crate::Readable for TxgenOptsSpec {}
#[doc = "`write(|w| ..)` method takes [`txgen_opts::W`](W) writer structure"]
impl crate::Writable for TxgenOptsSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets TXGEN_OPTS to value 0"]
impl crate::Resettable for TxgenOptsSpec {}
