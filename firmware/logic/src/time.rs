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
        assert_eq!(cycles_to_us(156_250_000, 156_250_000), 1_000_000);
        assert_eq!(cycles_to_us(15_625, 156_250_000), 100);
        assert_eq!(cycles_to_us(156, 156_250_000), 0);
        assert_eq!(cycles_to_us(157, 156_250_000), 1);
        // u64::MAX cycles: the straightforward cycles * 1e6 would overflow.
        let expect = (u128::from(u64::MAX) * 1_000_000 / 156_250_000) as u64;
        assert_eq!(cycles_to_us(u64::MAX, 156_250_000), expect);
        assert_eq!(cycles_to_us(10, 0), 10_000_000);
    }
}
