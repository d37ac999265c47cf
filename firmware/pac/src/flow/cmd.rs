#[doc = "Register `CMD` writer"]
pub type W = crate::W<CmdSpec>;
#[doc = "Operation\n\nValue on reset: 0"]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Op {
    #[doc = "0: Look up KEY_*"]
    Lookup = 0,
    #[doc = "1: Insert KEY_* with VALUE"]
    Insert = 1,
    #[doc = "2: Delete KEY_*"]
    Delete = 2,
    #[doc = "3: Remove every entry"]
    Clear = 3,
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
pub type OpW<'a, REG> = crate::FieldWriter<'a, REG, 2, Op, crate::Safe>;
impl<'a, REG> OpW<'a, REG>
where
    REG: crate::Writable + crate::RegisterSpec,
    REG::Ux: From<u8>,
{
    #[doc = "Look up KEY_*"]
    #[inline(always)]
    pub fn lookup(self) -> &'a mut crate::W<REG> {
        self.variant(Op::Lookup)
    }
    #[doc = "Insert KEY_* with VALUE"]
    #[inline(always)]
    pub fn insert(self) -> &'a mut crate::W<REG> {
        self.variant(Op::Insert)
    }
    #[doc = "Delete KEY_*"]
    #[inline(always)]
    pub fn delete(self) -> &'a mut crate::W<REG> {
        self.variant(Op::Delete)
    }
    #[doc = "Remove every entry"]
    #[inline(always)]
    pub fn clear(self) -> &'a mut crate::W<REG> {
        self.variant(Op::Clear)
    }
}
impl W {
    #[doc = "Bits 0:1 - Operation"]
    #[inline(always)]
    pub fn op(&mut self) -> OpW<'_, CmdSpec> {
        OpW::new(self, 0)
    }
}
#[doc = "Flow table command: a write starts it (ignored while STATUS.BUSY)\n\nYou can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`cmd::W`](W). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct CmdSpec;
impl crate::RegisterSpec for CmdSpec {
    type Ux = u32;
}
#[doc = "`write(|w| ..)` method takes [`cmd::W`](W) writer structure"]
impl crate::Writable for CmdSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets CMD to value 0"]
impl crate::Resettable for CmdSpec {}
