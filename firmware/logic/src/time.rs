//! Timer arithmetic.

/// Timer cycles at `clk_hz` to whole microseconds, for any 64-bit cycle count (no
/// intermediate overflow). A clock of 0 Hz is treated as 1 Hz.
pub fn cycles_to_us(cycles: u64, clk_hz: u32) -> u64 {
    let clk = u64::from(clk_hz.max(1));
    cycles / clk * 1_000_000 + cycles % clk * 1_000_000 / clk
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn converts_exactly_and_never_overflows() {
        const CLK: u32 = splicenic_layout::CLK_HZ;
        assert_eq!(cycles_to_us(u64::from(CLK), CLK), 1_000_000);
        // 156.25 MHz: 15 625 cycles are 100 us, one microsecond is 156.25 cycles.
        assert_eq!(cycles_to_us(15_625, CLK), 100);
        assert_eq!(cycles_to_us(156, CLK), 0);
        assert_eq!(cycles_to_us(157, CLK), 1);
        // u64::MAX cycles: the straightforward cycles * 1e6 would overflow.
        let expect = (u128::from(u64::MAX) * 1_000_000 / u128::from(CLK)) as u64;
        assert_eq!(cycles_to_us(u64::MAX, CLK), expect);
        assert_eq!(cycles_to_us(10, 0), 10_000_000);
    }
}
