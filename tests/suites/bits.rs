// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `kernel_core::bits`: single bits and masks of every width, at every position and for every
//! range, and `None` wherever the position or the range is out of bounds.
//!
//! In the kernel an assertion of `bit_*` or `genmask_*` that the optimizer cannot prove fails
//! modpost, so they are called only where it can: `bit_*` in loops over the valid positions
//! (whose bounds prove `n < BITS`), and `genmask_*` with constant ranges and in tables that
//! const evaluation fills (proving `start <= end < BITS` from a loop bound takes a deduction
//! that the kernel's optimized build does not always make). The `checked_*` functions are called
//! on every input at run time. The references use shifts of `MAX`, a different route to the same
//! numbers than the functions under test.

use kernel_core::macros::kunit_tests;

#[kunit_tests(kernel_core_bits)]
mod tests {
    use kernel_core::bits::*;

    /// Positions past the end of every width, or of some.
    const PAST: [u32; 10] = [8, 9, 16, 17, 32, 33, 64, 65, 1 << 31, u32::MAX];

    /// Checks `$bit` and `$checked_bit` of `$ty` at every position, and `$checked_bit` past the
    /// width.
    macro_rules! check_bits {
        ($ty:ty, $bit:ident, $checked_bit:ident) => {{
            let mut expected: $ty = 1;
            for n in 0..<$ty>::BITS {
                assert_eq!($bit(n), expected);
                assert_eq!($checked_bit(n), Some(expected));
                expected = expected.wrapping_add(expected);
            }
            assert_eq!(expected, 0);
            for n in PAST {
                assert_eq!($checked_bit(n).is_some(), n < <$ty>::BITS);
            }
            assert_eq!($checked_bit(<$ty>::BITS), None);
            assert_eq!($checked_bit(u32::MAX), None);
        }};
    }

    /// `$genmask(start..=end)` of `$ty` at `[start][end]` for every valid range (and `0`
    /// elsewhere), filled by const evaluation into a `static` (not on the kernel's small stack).
    macro_rules! mask_table {
        ($ty:ty, $genmask:ident) => {{
            const BITS: usize = <$ty>::BITS as usize;
            static TABLE: [[$ty; BITS]; BITS] = {
                let mut table = [[0; BITS]; BITS];
                let mut start = 0;
                while start < BITS {
                    let mut end = start;
                    while end < BITS {
                        table[start][end] = $genmask(start as u32..=end as u32);
                        end += 1;
                    }
                    start += 1;
                }
                table
            };
            &TABLE
        }};
    }

    /// Checks `$genmask` and `$genmask_checked` of `$ty` for every valid range, and
    /// `$genmask_checked` for reversed and out-of-range ones.
    macro_rules! check_masks {
        ($ty:ty, $genmask:ident, $genmask_checked:ident) => {{
            let bits = <$ty>::BITS;
            let table = mask_table!($ty, $genmask);
            for start in 0..bits {
                for end in start..bits {
                    let expected = (<$ty>::MAX >> (bits - 1 - end)) & (<$ty>::MAX << start);
                    assert_eq!(table[start as usize][end as usize], expected);
                    assert_eq!($genmask_checked(start..=end), Some(expected));
                    assert_eq!(expected.count_ones(), end - start + 1);
                    assert_eq!(expected.trailing_zeros(), start);
                }
                // Reversed, and ending past the width.
                for end in 0..start {
                    assert_eq!($genmask_checked(start..=end), None);
                }
                for end in PAST {
                    assert_eq!(
                        $genmask_checked(start..=end).is_some(),
                        start <= end && end < bits
                    );
                }
            }
            assert_eq!($genmask(0..=bits - 1), <$ty>::MAX);
            assert_eq!($genmask_checked(0..=bits), None);
            assert_eq!($genmask_checked(bits..=bits), None);
            assert_eq!($genmask_checked(u32::MAX..=u32::MAX), None);
            let (high, low) = (u32::MAX, 0);
            assert_eq!($genmask_checked(high..=low), None);
        }};
    }

    #[test]
    fn single_bits() {
        check_bits!(u8, bit_u8, checked_bit_u8);
        check_bits!(u16, bit_u16, checked_bit_u16);
        check_bits!(u32, bit_u32, checked_bit_u32);
        check_bits!(u64, bit_u64, checked_bit_u64);
    }

    #[test]
    fn masks_u8_u16() {
        check_masks!(u8, genmask_u8, genmask_checked_u8);
        check_masks!(u16, genmask_u16, genmask_checked_u16);
    }

    #[test]
    fn masks_u32_u64() {
        check_masks!(u32, genmask_u32, genmask_checked_u32);
        check_masks!(u64, genmask_u64, genmask_checked_u64);
    }

    #[test]
    fn register_fields() {
        assert_eq!(genmask_u64(21..=39), 0x0000_00ff_ffe0_0000);
        assert_eq!(genmask_u64(12..=51), 0x000f_ffff_ffff_f000);
        assert_eq!(genmask_u32(21..=31), 0xffe0_0000);
        assert_eq!(genmask_u16(6..=15), 0xffc0);
        assert_eq!(genmask_u8(6..=7), 0xc0);
        assert_eq!(genmask_u8(3..=3), bit_u8(3));
        assert_eq!(genmask_checked_u64(21..=80), None);
        assert_eq!(genmask_checked_u16(6..=20), None);
        // Reversed (written with variables, which clippy does not flag).
        let (fifteen, eight, five, two) = (15, 8, 5, 2);
        assert_eq!(genmask_checked_u32(fifteen..=eight), None);
        assert_eq!(genmask_checked_u8(five..=two), None);
    }

    #[test]
    fn usable_in_const_contexts() {
        const ENABLE: u32 = bit_u32(31);
        const CHANNEL: u32 = genmask_u32(4..=7);
        const ADDRESS: u64 = genmask_u64(12..=51);
        const TOP: u8 = bit_u8(7);
        const ALL: u16 = genmask_u16(0..=15);
        const TABLE: [u64; 64] = {
            let mut table = [0; 64];
            let mut n = 0;
            while n < 64 {
                table[n as usize] = genmask_u64(0..=n);
                n += 1;
            }
            table
        };
        assert_eq!(ENABLE, 0x8000_0000);
        assert_eq!(CHANNEL, 0xf0);
        assert_eq!(ADDRESS, 0x000f_ffff_ffff_f000);
        assert_eq!(TOP, 0x80);
        assert_eq!(ALL, u16::MAX);
        for (n, mask) in TABLE.into_iter().enumerate() {
            assert_eq!(mask.count_ones(), n as u32 + 1);
            assert_eq!(mask.trailing_zeros(), 0);
        }
        assert_eq!(TABLE[63], u64::MAX);
    }

    /// Only `start()` and `end()` of a range count: iterating it moves `start()`, and a range
    /// used up gives the mask of its ends, as in the kernel.
    #[test]
    fn ranges_after_iteration() {
        let mut range = 2..=5_u32;
        assert_eq!(range.next(), Some(2));
        assert_eq!(genmask_checked_u32(range.clone()), Some(0b11_1000));
        assert_eq!(genmask_u32(range.clone()), 0b11_1000);
        let mut single = 7..=7_u32;
        assert_eq!(single.next(), Some(7));
        assert!(single.is_empty());
        assert_eq!(genmask_checked_u8(single.clone()), Some(0x80));
        assert_eq!(genmask_u8(single), 0x80);
    }
}
