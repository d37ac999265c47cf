#[doc = "Register `SYN_CTRL` reader"]
pub type R = crate::R<SynCtrlSpec>;
#[doc = "Register `SYN_CTRL` writer"]
pub type W = crate::W<SynCtrlSpec>;
#[doc = "Field `VIP_MASK` reader - Virtual-service entries (bit i: VIP_ADDR\\[i\\]) whose SYNs the card answers with a cookie SYN-ACK in hardware; 0 punts them to the firmware"]
pub type VipMaskR = crate::FieldReader;
#[doc = "Field `VIP_MASK` writer - Virtual-service entries (bit i: VIP_ADDR\\[i\\]) whose SYNs the card answers with a cookie SYN-ACK in hardware; 0 punts them to the firmware"]
pub type VipMaskW<'a, REG> = crate::FieldWriter<'a, REG, 8>;
#[doc = "Field `OFFER_WSCALE` reader - Offer window scaling to clients that offer it (carried in the TSval)"]
pub type OfferWscaleR = crate::BitReader;
#[doc = "Field `OFFER_WSCALE` writer - Offer window scaling to clients that offer it (carried in the TSval)"]
pub type OfferWscaleW<'a, REG> = crate::BitWriter<'a, REG>;
#[doc = "Field `OFFER_SACK` reader - Offer SACK-permitted to clients that offer it (carried in the TSval)"]
pub type OfferSackR = crate::BitReader;
#[doc = "Field `OFFER_SACK` writer - Offer SACK-permitted to clients that offer it (carried in the TSval)"]
pub type OfferSackW<'a, REG> = crate::BitWriter<'a, REG>;
#[doc = "Field `OFFER_TS` reader - Offer timestamps to clients that offer them (without them the SYN-ACK offers the MSS only)"]
pub type OfferTsR = crate::BitReader;
#[doc = "Field `OFFER_TS` writer - Offer timestamps to clients that offer them (without them the SYN-ACK offers the MSS only)"]
pub type OfferTsW<'a, REG> = crate::BitWriter<'a, REG>;
#[doc = "Field `CUR_EPOCH` reader - Cookie key slot new cookies are made with (bit 0 of a cookie)"]
pub type CurEpochR = crate::BitReader;
#[doc = "Field `CUR_EPOCH` writer - Cookie key slot new cookies are made with (bit 0 of a cookie)"]
pub type CurEpochW<'a, REG> = crate::BitWriter<'a, REG>;
#[doc = "Field `PREV_VALID` reader - Cookies of the other key slot still check"]
pub type PrevValidR = crate::BitReader;
#[doc = "Field `PREV_VALID` writer - Cookies of the other key slot still check"]
pub type PrevValidW<'a, REG> = crate::BitWriter<'a, REG>;
impl R {
    #[doc = "Bits 0:7 - Virtual-service entries (bit i: VIP_ADDR\\[i\\]) whose SYNs the card answers with a cookie SYN-ACK in hardware; 0 punts them to the firmware"]
    #[inline(always)]
    pub fn vip_mask(&self) -> VipMaskR {
        VipMaskR::new((self.bits & 0xff) as u8)
    }
    #[doc = "Bit 16 - Offer window scaling to clients that offer it (carried in the TSval)"]
    #[inline(always)]
    pub fn offer_wscale(&self) -> OfferWscaleR {
        OfferWscaleR::new(((self.bits >> 16) & 1) != 0)
    }
    #[doc = "Bit 17 - Offer SACK-permitted to clients that offer it (carried in the TSval)"]
    #[inline(always)]
    pub fn offer_sack(&self) -> OfferSackR {
        OfferSackR::new(((self.bits >> 17) & 1) != 0)
    }
    #[doc = "Bit 18 - Offer timestamps to clients that offer them (without them the SYN-ACK offers the MSS only)"]
    #[inline(always)]
    pub fn offer_ts(&self) -> OfferTsR {
        OfferTsR::new(((self.bits >> 18) & 1) != 0)
    }
    #[doc = "Bit 24 - Cookie key slot new cookies are made with (bit 0 of a cookie)"]
    #[inline(always)]
    pub fn cur_epoch(&self) -> CurEpochR {
        CurEpochR::new(((self.bits >> 24) & 1) != 0)
    }
    #[doc = "Bit 25 - Cookies of the other key slot still check"]
    #[inline(always)]
    pub fn prev_valid(&self) -> PrevValidR {
        PrevValidR::new(((self.bits >> 25) & 1) != 0)
    }
}
impl W {
    #[doc = "Bits 0:7 - Virtual-service entries (bit i: VIP_ADDR\\[i\\]) whose SYNs the card answers with a cookie SYN-ACK in hardware; 0 punts them to the firmware"]
    #[inline(always)]
    pub fn vip_mask(&mut self) -> VipMaskW<'_, SynCtrlSpec> {
        VipMaskW::new(self, 0)
    }
    #[doc = "Bit 16 - Offer window scaling to clients that offer it (carried in the TSval)"]
    #[inline(always)]
    pub fn offer_wscale(&mut self) -> OfferWscaleW<'_, SynCtrlSpec> {
        OfferWscaleW::new(self, 16)
    }
    #[doc = "Bit 17 - Offer SACK-permitted to clients that offer it (carried in the TSval)"]
    #[inline(always)]
    pub fn offer_sack(&mut self) -> OfferSackW<'_, SynCtrlSpec> {
        OfferSackW::new(self, 17)
    }
    #[doc = "Bit 18 - Offer timestamps to clients that offer them (without them the SYN-ACK offers the MSS only)"]
    #[inline(always)]
    pub fn offer_ts(&mut self) -> OfferTsW<'_, SynCtrlSpec> {
        OfferTsW::new(self, 18)
    }
    #[doc = "Bit 24 - Cookie key slot new cookies are made with (bit 0 of a cookie)"]
    #[inline(always)]
    pub fn cur_epoch(&mut self) -> CurEpochW<'_, SynCtrlSpec> {
        CurEpochW::new(self, 24)
    }
    #[doc = "Bit 25 - Cookies of the other key slot still check"]
    #[inline(always)]
    pub fn prev_valid(&mut self) -> PrevValidW<'_, SynCtrlSpec> {
        PrevValidW::new(self, 25)
    }
}
#[doc = "Hardware SYN responder (docs/synresp.md): which virtual services it answers, what it offers, and the cookie key epoch\n\nYou can [`read`](crate::Reg::read) this register and get [`syn_ctrl::R`](R). You can [`reset`](crate::Reg::reset), [`write`](crate::Reg::write), [`write_with_zero`](crate::Reg::write_with_zero) this register using [`syn_ctrl::W`](W). You can also [`modify`](crate::Reg::modify) this register. See [API](https://docs.rs/svd2rust/#read--modify--write-api)."]
pub struct SynCtrlSpec;
impl crate::RegisterSpec for SynCtrlSpec {
    type Ux = u32;
}
#[doc = "`read()` method returns [`syn_ctrl::R`](R) reader structure"]
impl crate::Readable for SynCtrlSpec {}
#[doc = "`write(|w| ..)` method takes [`syn_ctrl::W`](W) writer structure"]
impl crate::Writable for SynCtrlSpec {
    type Safety = crate::Unsafe;
}
#[doc = "`reset()` method sets SYN_CTRL to value 0x0007_0000"]
impl crate::Resettable for SynCtrlSpec {
    const RESET_VALUE: u32 = 0x0007_0000;
}
