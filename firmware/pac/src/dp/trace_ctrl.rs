#[doc = "Register `TRACE_CTRL` reader"]
pub type R = crate::R<TraceCtrlSpec>;
#[doc = "Register `TRACE_CTRL` writer"]
pub type W = crate::W<TraceCtrlSpec>;
#[doc = "Field `ENABLE` reader - Record the engine's decisions (on at reset)"]
pub type EnableR = crate::BitReader;
#[doc = "Field `ENABLE` writer - Record the engine's decisions (on at reset)"]
pub type EnableW<'a, REG> = crate::BitWriter<'a, REG>;
#[doc = "Field `DEPTH_LOG2` reader - log2 of the ring's entries, the build parameter (read)"]
pub type DepthLog2R = crate::FieldReader;
#[doc = "Field `DEPTH_LOG2` writer - log2 of the ring's entries, the build parameter (read)"]
pub type DepthLog2W<'a, REG> = crate::FieldWriter<'a, REG, 5>;
impl R {
    #[doc = "Bit 0 - Record the engine's decisions (on at reset)"]
    #[inline(always)]
    pub fn enable(&self) -> EnableR {
        EnableR::new((self.bits & 1) != 0)
    }
    #[doc = "Bits 8:12 - log2 of the ring's entries, the build parameter (read)"]
    #[inline(always)]
    pub fn depth_log2(&self) -> DepthLog2R {
        DepthLog2R::new(((self.bits >> 8) & 0x1f) as u8)
    }
}
impl W {
    #[doc = "Bit 0 - Record the engine's decisions (on at reset)"]
    #[inline(always)]
    pub fn enable(&mut self) -> EnableW<'_, TraceCtrlSpec> {
        EnableW::new(self, 0)
    }
    #[doc = "Bits 8:12 - log2 of the ring's entries, the build parameter (read)"]
    #[inline(always)]
    pub fn depth_log2(&mut self) -> DepthLog2W<'_, TraceCtrlSpec> {
        DepthLog2W::new(self, 8)
    }
}
#[doc = "Engine trace ring control (docs/engine.md, \"Trace ring\")\n\nYou can [`read`](crate::Reg::read) this register and get [`trace_ctrl::R`](R). You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`trace_ctrl::W`](W). You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct TraceCtrlSpec;
impl crate::RegisterSpec for TraceCtrlSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`trace_ctrl::R`](R) reader structure"]
impl crate::Readable for TraceCtrlSpec {}
#[doc = "`write(|w| ..)` method takes [`trace_ctrl::W`](W) writer structure"]
impl crate::Writable for TraceCtrlSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets TRACE_CTRL to value 0x01"]
impl crate::Resettable for TraceCtrlSpec {
    const RESET_VALUE: u32 = 0x01;
}
