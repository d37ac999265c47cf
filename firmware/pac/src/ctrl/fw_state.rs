#[doc = "Register `FW_STATE` reader"]
pub type R = crate::R<FwStateSpec>;
#[doc = "Register `FW_STATE` writer"]
pub type W = crate::W<FwStateSpec>;
#[doc = "Firmware run state\n\nValue on reset: 0"]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum State {
    #[doc = "0: Not started"]
    Off = 0,
    #[doc = "1: Initialising"]
    Booting = 1,
    #[doc = "2: Serving the mailbox"]
    Ready = 2,
    #[doc = "3: Panicked; see the log"]
    Panic = 3,
}
impl From<State> for u8 {
    #[inline(always)]
    fn from(variant: State) -> Self {
        variant as _
    }
}
impl crate::FieldSpec for State {
    type Ux = u8;
}
impl crate::IsEnum for State {}
#[doc = "Field `STATE` reader - Firmware run state"]
pub type StateR = crate::FieldReader<State>;
impl StateR {
    #[doc = "Get enumerated values variant"]
    #[inline(always)]
    pub const fn variant(&self) -> Option<State> {
        match self.bits {
            0 => Some(State::Off),
            1 => Some(State::Booting),
            2 => Some(State::Ready),
            3 => Some(State::Panic),
            _ => None,
        }
    }
    #[doc = "Not started"]
    #[inline(always)]
    pub fn is_off(&self) -> bool {
        *self == State::Off
    }
    #[doc = "Initialising"]
    #[inline(always)]
    pub fn is_booting(&self) -> bool {
        *self == State::Booting
    }
    #[doc = "Serving the mailbox"]
    #[inline(always)]
    pub fn is_ready(&self) -> bool {
        *self == State::Ready
    }
    #[doc = "Panicked; see the log"]
    #[inline(always)]
    pub fn is_panic(&self) -> bool {
        *self == State::Panic
    }
}
#[doc = "Field `STATE` writer - Firmware run state"]
pub type StateW<'a, REG> = crate::FieldWriter<'a, REG, 8, State>;
impl<'a, REG> StateW<'a, REG>
where
    REG: crate::Writable + crate::RegisterSpec,
    REG::Ux: From<u8>,
{
    #[doc = "Not started"]
    #[inline(always)]
    pub fn off(self) -> &'a mut crate::W<REG> {
        self.variant(State::Off)
    }
    #[doc = "Initialising"]
    #[inline(always)]
    pub fn booting(self) -> &'a mut crate::W<REG> {
        self.variant(State::Booting)
    }
    #[doc = "Serving the mailbox"]
    #[inline(always)]
    pub fn ready(self) -> &'a mut crate::W<REG> {
        self.variant(State::Ready)
    }
    #[doc = "Panicked; see the log"]
    #[inline(always)]
    pub fn panic(self) -> &'a mut crate::W<REG> {
        self.variant(State::Panic)
    }
}
impl R {
    #[doc = "Bits 0:7 - Firmware run state"]
    #[inline(always)]
    pub fn state(&self) -> StateR {
        StateR::new((self.bits & 0xff) as u8)
    }
}
impl W {
    #[doc = "Bits 0:7 - Firmware run state"]
    #[inline(always)]
    pub fn state(&mut self) -> StateW<'_, FwStateSpec> {
        StateW::new(self, 0)
    }
}
#[doc = "Firmware state, written by the firmware; cleared when the core is put in reset\n\nYou can [`read`](crate::Reg::read) this register and get [`fw_state::R`](R). You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`fw_state::W`](W). You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct FwStateSpec;
impl crate::RegisterSpec for FwStateSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`fw_state::R`](R) reader structure"]
impl crate::Readable for FwStateSpec {}
#[doc = "`write(|w| ..)` method takes [`fw_state::W`](W) writer structure"]
impl crate::Writable for FwStateSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets FW_STATE to value 0"]
impl crate::Resettable for FwStateSpec {}
