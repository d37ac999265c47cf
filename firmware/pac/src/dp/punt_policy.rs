#[doc = "Register `PUNT_POLICY` reader"]
pub type R = crate::R<PuntPolicySpec>;
#[doc = "Register `PUNT_POLICY` writer"]
pub type W = crate::W<PuntPolicySpec>;
#[doc = "Field `ARP` reader - ARP frames"]
pub type ArpR = crate::BitReader;
#[doc = "Field `ARP` writer - ARP frames"]
pub type ArpW<'a, REG> = crate::BitWriter<'a, REG>;
#[doc = "Field `ICMP` reader - ICMP frames"]
pub type IcmpR = crate::BitReader;
#[doc = "Field `ICMP` writer - ICMP frames"]
pub type IcmpW<'a, REG> = crate::BitWriter<'a, REG>;
#[doc = "Field `OTHER` reader - Other well-formed frames (other EtherTypes and IP protocols)"]
pub type OtherR = crate::BitReader;
#[doc = "Field `OTHER` writer - Other well-formed frames (other EtherTypes and IP protocols)"]
pub type OtherW<'a, REG> = crate::BitWriter<'a, REG>;
#[doc = "Field `MALFORMED` reader - Frames the parser rejects as malformed (including frames cut by the length guard)"]
pub type MalformedR = crate::BitReader;
#[doc = "Field `MALFORMED` writer - Frames the parser rejects as malformed (including frames cut by the length guard)"]
pub type MalformedW<'a, REG> = crate::BitWriter<'a, REG>;
#[doc = "Field `NOMATCH` reader - TCP frames for no virtual service and no card-owned address"]
pub type NomatchR = crate::BitReader;
#[doc = "Field `NOMATCH` writer - TCP frames for no virtual service and no card-owned address"]
pub type NomatchW<'a, REG> = crate::BitWriter<'a, REG>;
impl R {
    #[doc = "Bit 1 - ARP frames"]
    #[inline(always)]
    pub fn arp(&self) -> ArpR {
        ArpR::new(((self.bits >> 1) & 1) != 0)
    }
    #[doc = "Bit 2 - ICMP frames"]
    #[inline(always)]
    pub fn icmp(&self) -> IcmpR {
        IcmpR::new(((self.bits >> 2) & 1) != 0)
    }
    #[doc = "Bit 3 - Other well-formed frames (other EtherTypes and IP protocols)"]
    #[inline(always)]
    pub fn other(&self) -> OtherR {
        OtherR::new(((self.bits >> 3) & 1) != 0)
    }
    #[doc = "Bit 4 - Frames the parser rejects as malformed (including frames cut by the length guard)"]
    #[inline(always)]
    pub fn malformed(&self) -> MalformedR {
        MalformedR::new(((self.bits >> 4) & 1) != 0)
    }
    #[doc = "Bit 5 - TCP frames for no virtual service and no card-owned address"]
    #[inline(always)]
    pub fn nomatch(&self) -> NomatchR {
        NomatchR::new(((self.bits >> 5) & 1) != 0)
    }
}
impl W {
    #[doc = "Bit 1 - ARP frames"]
    #[inline(always)]
    pub fn arp(&mut self) -> ArpW<'_, PuntPolicySpec> {
        ArpW::new(self, 1)
    }
    #[doc = "Bit 2 - ICMP frames"]
    #[inline(always)]
    pub fn icmp(&mut self) -> IcmpW<'_, PuntPolicySpec> {
        IcmpW::new(self, 2)
    }
    #[doc = "Bit 3 - Other well-formed frames (other EtherTypes and IP protocols)"]
    #[inline(always)]
    pub fn other(&mut self) -> OtherW<'_, PuntPolicySpec> {
        OtherW::new(self, 3)
    }
    #[doc = "Bit 4 - Frames the parser rejects as malformed (including frames cut by the length guard)"]
    #[inline(always)]
    pub fn malformed(&mut self) -> MalformedW<'_, PuntPolicySpec> {
        MalformedW::new(self, 4)
    }
    #[doc = "Bit 5 - TCP frames for no virtual service and no card-owned address"]
    #[inline(always)]
    pub fn nomatch(&mut self) -> NomatchW<'_, PuntPolicySpec> {
        NomatchW::new(self, 5)
    }
}
#[doc = "What happens to frames that are not virtual-service or server-side TCP: 1 punts to the firmware, 0 drops\n\nYou can [`read`](crate::Reg::read) this register and get [`punt_policy::R`](R). You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`punt_policy::W`](W). You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct PuntPolicySpec;
impl crate::RegisterSpec for PuntPolicySpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`punt_policy::R`](R) reader structure"]
impl crate::Readable for PuntPolicySpec {}
#[doc = "`write(|w| ..)` method takes [`punt_policy::W`](W) writer structure"]
impl crate::Writable for PuntPolicySpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets PUNT_POLICY to value 0x26"]
impl crate::Resettable for PuntPolicySpec {
    const RESET_VALUE: u32 = 0x26;
}
