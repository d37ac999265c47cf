#[doc = "Register `VIP_PORT[%s]` reader"]
pub type R = crate::R<VipPortSpec>;
#[doc = "Register `VIP_PORT[%s]` writer"]
pub type W = crate::W<VipPortSpec>;
#[doc = "Field `PORT` reader - TCP port"]
pub type PortR = crate::FieldReader<u16>;
#[doc = "Field `PORT` writer - TCP port"]
pub type PortW<'a, REG> = crate::FieldWriter<'a, REG, 16, u16>;
#[doc = "Field `ENABLE` reader - Virtual service in use"]
pub type EnableR = crate::BitReader;
#[doc = "Field `ENABLE` writer - Virtual service in use"]
pub type EnableW<'a, REG> = crate::BitWriter<'a, REG>;
impl R {
    #[doc = "Bits 0:15 - TCP port"]
    #[inline(always)]
    pub fn port(&self) -> PortR {
        PortR::new((self.bits & 0xffff) as u16)
    }
    #[doc = "Bit 31 - Virtual service in use"]
    #[inline(always)]
    pub fn enable(&self) -> EnableR {
        EnableR::new(((self.bits >> 31) & 1) != 0)
    }
}
impl W {
    #[doc = "Bits 0:15 - TCP port"]
    #[inline(always)]
    pub fn port(&mut self) -> PortW<'_, VipPortSpec> {
        PortW::new(self, 0)
    }
    #[doc = "Bit 31 - Virtual service in use"]
    #[inline(always)]
    pub fn enable(&mut self) -> EnableW<'_, VipPortSpec> {
        EnableW::new(self, 31)
    }
}
#[doc = "Virtual service TCP port and enable\n\nYou can [`read`](crate::Reg::read) this register and get [`vip_port::R`](R). You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`vip_port::W`](W). You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct VipPortSpec;
impl crate::RegisterSpec for VipPortSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`vip_port::R`](R) reader structure"]
impl crate::Readable for VipPortSpec {}
#[doc = "`write(|w| ..)` method takes [`vip_port::W`](W) writer structure"]
impl crate::Writable for VipPortSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets VIP_PORT[%s] to value 0"]
impl crate::Resettable for VipPortSpec {}
