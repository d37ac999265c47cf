#[doc = "Register `COMMANDS` reader"]
pub type R = crate::R<CommandsSpec>;
impl core::fmt::Debug for R {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{}", self.bits())
    }
}
#[doc = "Buffer match commands (CMD writes)\n\nYou can [`read`](crate::Reg::read) this register and get [`commands::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct CommandsSpec;
impl crate::RegisterSpec for CommandsSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`commands::R`](R) reader structure"]
impl crate::Readable for CommandsSpec {}
#[doc = "`reset()` method sets COMMANDS to value 0"]
impl crate::Resettable for CommandsSpec {}
