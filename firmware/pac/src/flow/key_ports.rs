#[doc = "Register `KEY_PORTS` reader"]
pub type R = crate::R<KeyPortsSpec>;
#[doc = "Register `KEY_PORTS` writer"]
pub type W = crate::W<KeyPortsSpec>;
#[doc = "Field `DST_PORT` reader - Destination port"]
pub type DstPortR = crate::FieldReader<u16>;
#[doc = "Field `DST_PORT` writer - Destination port"]
pub type DstPortW<'a, REG> = crate::FieldWriter<'a, REG, 16, u16>;
#[doc = "Field `SRC_PORT` reader - Source port"]
pub type SrcPortR = crate::FieldReader<u16>;
#[doc = "Field `SRC_PORT` writer - Source port"]
pub type SrcPortW<'a, REG> = crate::FieldWriter<'a, REG, 16, u16>;
impl R {
    #[doc = "Bits 0:15 - Destination port"]
    #[inline(always)]
    pub fn dst_port(&self) -> DstPortR {
        DstPortR::new((self.bits & 0xffff) as u16)
    }
    #[doc = "Bits 16:31 - Source port"]
    #[inline(always)]
    pub fn src_port(&self) -> SrcPortR {
        SrcPortR::new(((self.bits >> 16) & 0xffff) as u16)
    }
}
impl W {
    #[doc = "Bits 0:15 - Destination port"]
    #[inline(always)]
    pub fn dst_port(&mut self) -> DstPortW<'_, KeyPortsSpec> {
        DstPortW::new(self, 0)
    }
    #[doc = "Bits 16:31 - Source port"]
    #[inline(always)]
    pub fn src_port(&mut self) -> SrcPortW<'_, KeyPortsSpec> {
        SrcPortW::new(self, 16)
    }
}
#[doc = "Command key: TCP ports\n\nYou can [`read`](crate::Reg::read) this register and get [`key_ports::R`](R). You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`key_ports::W`](W). You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct KeyPortsSpec;
impl crate::RegisterSpec for KeyPortsSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`key_ports::R`](R) reader structure"]
impl crate::Readable for KeyPortsSpec {}
#[doc = "`write(|w| ..)` method takes [`key_ports::W`](W) writer structure"]
impl crate::Writable for KeyPortsSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets KEY_PORTS to value 0"]
impl crate::Resettable for KeyPortsSpec {}
