#[doc = "Register `STATUS` reader"]
pub type R = crate::R<StatusSpec>;
#[doc = "Field `BUSY` reader - A command is running"]
pub type BusyR = crate::BitReader;
#[doc = "Field `INIT_DONE` reader - The table has been initialised after reset"]
pub type InitDoneR = crate::BitReader;
#[doc = "Result of the last command\n\nValue on reset: 0"]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Result {
    #[doc = "0: Done"]
    Ok = 0,
    #[doc = "1: INSERT: the key is already in the table"]
    Exists = 1,
    #[doc = "2: INSERT: every way of the bucket is used"]
    BucketFull = 2,
    #[doc = "3: LOOKUP or DELETE: the key is not in the table"]
    NotFound = 3,
}
impl From<Result> for u8 {
    #[inline(always)]
    fn from(variant: Result) -> Self {
        variant as _
    }
}
impl crate::FieldSpec for Result {
    type Ux = u8;
}
impl crate::IsEnum for Result {}
#[doc = "Field `RESULT` reader - Result of the last command"]
pub type ResultR = crate::FieldReader<Result>;
impl ResultR {
    #[doc = "Get enumerated values variant"]
    #[inline(always)]
    pub const fn variant(&self) -> Result {
        match self.bits {
            0 => Result::Ok,
            1 => Result::Exists,
            2 => Result::BucketFull,
            3 => Result::NotFound,
            _ => unreachable!(),
        }
    }
    #[doc = "Done"]
    #[inline(always)]
    pub fn is_ok(&self) -> bool {
        *self == Result::Ok
    }
    #[doc = "INSERT: the key is already in the table"]
    #[inline(always)]
    pub fn is_exists(&self) -> bool {
        *self == Result::Exists
    }
    #[doc = "INSERT: every way of the bucket is used"]
    #[inline(always)]
    pub fn is_bucket_full(&self) -> bool {
        *self == Result::BucketFull
    }
    #[doc = "LOOKUP or DELETE: the key is not in the table"]
    #[inline(always)]
    pub fn is_not_found(&self) -> bool {
        *self == Result::NotFound
    }
}
#[doc = "Field `WAY` reader - Way of the bucket the last command hit or used"]
pub type WayR = crate::FieldReader;
impl R {
    #[doc = "Bit 0 - A command is running"]
    #[inline(always)]
    pub fn busy(&self) -> BusyR {
        BusyR::new((self.bits & 1) != 0)
    }
    #[doc = "Bit 1 - The table has been initialised after reset"]
    #[inline(always)]
    pub fn init_done(&self) -> InitDoneR {
        InitDoneR::new(((self.bits >> 1) & 1) != 0)
    }
    #[doc = "Bits 8:9 - Result of the last command"]
    #[inline(always)]
    pub fn result(&self) -> ResultR {
        ResultR::new(((self.bits >> 8) & 3) as u8)
    }
    #[doc = "Bits 12:13 - Way of the bucket the last command hit or used"]
    #[inline(always)]
    pub fn way(&self) -> WayR {
        WayR::new(((self.bits >> 12) & 3) as u8)
    }
}
#[doc = "Flow table command status\n\nYou can [`read`](crate::Reg::read) this register and get [`status::R`](R). See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct StatusSpec;
impl crate::RegisterSpec for StatusSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`status::R`](R) reader structure"]
impl crate::Readable for StatusSpec {}
#[doc = "`reset()` method sets STATUS to value 0"]
impl crate::Resettable for StatusSpec {}
