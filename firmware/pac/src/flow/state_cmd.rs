#[doc = "Register `STATE_CMD` writer"]
pub type W = crate::W<StateCmdSpec>;
#[doc = "Operation\n\nValue on reset: 0"]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Op {
    #[doc = "0: Read the slot into STATE_STATIC and STATE_DYN"]
    Read = 0,
    #[doc = "1: Write STATE_STATIC and STATE_DYN to the slot"]
    Write = 1,
    #[doc = "2: Write STATE_STATIC to the slot; the slot's counters are kept"]
    WriteStatic = 2,
}
impl From<Op> for u8 {
    #[inline(always)]
    fn from(variant: Op) -> Self {
        variant as _
    }
}
impl crate::FieldSpec for Op {
    type Ux = u8;
}
impl crate::IsEnum for Op {}
#[doc = "Field `OP` writer - Operation"]
pub type OpW<'a, REG> = crate::FieldWriter<'a, REG, 2, Op>;
impl<'a, REG> OpW<'a, REG>
where
    REG: crate::Writable + crate::RegisterSpec,
    REG::Ux: From<u8>,
{
    #[doc = "Read the slot into STATE_STATIC and STATE_DYN"]
    #[inline(always)]
    pub fn read(self) -> &'a mut crate::W<REG> {
        self.variant(Op::Read)
    }
    #[doc = "Write STATE_STATIC and STATE_DYN to the slot"]
    #[inline(always)]
    pub fn write(self) -> &'a mut crate::W<REG> {
        self.variant(Op::Write)
    }
    #[doc = "Write STATE_STATIC to the slot; the slot's counters are kept"]
    #[inline(always)]
    pub fn write_static(self) -> &'a mut crate::W<REG> {
        self.variant(Op::WriteStatic)
    }
}
impl W {
    #[doc = "Bits 0:1 - Operation"]
    #[inline(always)]
    pub fn op(&mut self) -> OpW<'_, StateCmdSpec> {
        OpW::new(self, 0)
    }
}
#[doc = "Flow state command: a write starts it (ignored while STATE_STATUS.BUSY)\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`state_cmd::W`](W). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct StateCmdSpec;
impl crate::RegisterSpec for StateCmdSpec {
    type Ux = u32;
}
#[doc = "`write(|w| ..)` method takes [`state_cmd::W`](W) writer structure"]
impl crate::Writable for StateCmdSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets STATE_CMD to value 0"]
impl crate::Resettable for StateCmdSpec {}
