// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Single bits and contiguous bit masks of `u8`, `u16`, `u32` and `u64`: `BIT()` and
//! `GENMASK()` for Rust.
//!
//! Kernel counterpart: `rust/kernel/bits.rs` (Linux 7.3, unchanged since it appeared before
//! 7.1; Linux 6.12 has no such module); C header:
//! [`include/linux/bits.h`](https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/include/linux/bits.h).
//!
//! Each width has four functions, with the kernel's names, signatures and results:
//!
//! | | out-of-range input | `const fn` |
//! |---|---|---|
//! | `bit_u*(n)`, `1 << n` | fails the build, with [`build_assert!`] | yes |
//! | `checked_bit_u*(n)` | `None` | no |
//! | `genmask_u*(start..=end)`, bits `start` to `end` set | fails the build, with [`build_assert!`] | yes |
//! | `genmask_checked_u*(start..=end)` | `None` | no |
//!
//! A bit position is out of range from the width of the type up (`8` for `u8`, `64` for
//! `u64`), and a range whose start is greater than its end is rejected rather than taken as
//! empty: the masks always have at least one bit set. Only the two ends of a range count
//! (`start()` and `end()`), not whether an iterator has used it up, as in the kernel.
//!
//! Use the build-time checked functions for positions known when the driver is compiled (in a
//! `const`, or through `#[inline(always)]` callers with constant arguments); a position that is
//! out of range there is a compile error in const evaluation and a build failure otherwise (see
//! [`build_assert!`] for what each build reports). Use the `checked_*` functions for positions
//! that are only known at run time. As in the kernel, the checked functions are not `const fn`.
//! In a loop, `bit_u32(n)` is proven by a bound such as `for n in 0..u32::BITS`, but the
//! optimizer may not deduce `start <= end < BITS` from two nested loops (Linux 7.3 built for
//! size did not, with either crate's functions): fill a table by const evaluation instead, or
//! use the checked function.
//!
//! [`build_assert!`]: crate::build_assert::build_assert
//!
//! # Examples
//!
//! ```
//! use kernel_core::bits::{bit_u32, checked_bit_u8, genmask_checked_u16, genmask_u32, genmask_u64};
//!
//! // A register layout, computed at compile time.
//! const ENABLE: u32 = bit_u32(31);
//! const CHANNEL: u32 = genmask_u32(4..=7);
//! const ADDRESS: u64 = genmask_u64(12..=51);
//!
//! assert_eq!(ENABLE, 0x8000_0000);
//! assert_eq!(CHANNEL, 0xf0);
//! assert_eq!(ADDRESS, 0x000f_ffff_ffff_f000);
//!
//! // Positions only known at run time.
//! let shift = 9;
//! assert_eq!(checked_bit_u8(shift), None);
//! assert_eq!(genmask_checked_u16(8..=shift), Some(0x0300));
//! ```
//!
//! An out-of-range position in const evaluation does not compile:
//!
//! ```compile_fail
//! const TOO_FAR: u32 = kernel_core::bits::bit_u32(32);
//! ```
//!
//! nor does a reversed range:
//!
//! ```compile_fail
//! const REVERSED: u8 = kernel_core::bits::genmask_u8(5..=2);
//! ```

use core::ops::RangeInclusive;

use crate::build_assert::build_assert;

/// Defines the four functions of one width: `$bit`, `$checked_bit`, `$genmask` and
/// `$genmask_checked`, for the unsigned type `$ty`.
///
/// The two build-time checked functions assert what Linux 7.3's do, in the same order and with
/// the same condition text (`start <= end`, then `n < <$ty>::BITS` for the end and then for the
/// start), so that a failing assertion gives the same message with either crate.
macro_rules! bits {
    ($ty:ty, $bit:ident, $checked_bit:ident, $genmask:ident, $genmask_checked:ident) => {
        #[doc = concat!("`1 << n` as a `", stringify!($ty), "`, with `n` checked at build time.")]
        ///
        #[doc = concat!("`n` must be less than `", stringify!($ty), "::BITS`: otherwise, ")]
        /// in const evaluation, the build fails with `assertion failed: n < <...>::BITS`, and
        /// anywhere else the build fails unless the optimizer proves the call unreachable (with
        /// debug assertions on the host, the call panics instead; see
        /// [`build_assert!`](crate::build_assert::build_assert)). For a position known only at
        #[doc = concat!("run time, use [`", stringify!($checked_bit), "`].")]
        ///
        /// # Examples
        ///
        /// ```
        #[doc = concat!("use kernel_core::bits::", stringify!($bit), ";")]
        ///
        #[doc = concat!("const LOWEST: ", stringify!($ty), " = ", stringify!($bit), "(0);")]
        #[doc = concat!("const HIGHEST: ", stringify!($ty), " = ", stringify!($bit), "(", stringify!($ty), "::BITS - 1);")]
        /// assert_eq!(LOWEST, 1);
        #[doc = concat!("assert_eq!(HIGHEST, !(", stringify!($ty), "::MAX >> 1));")]
        #[doc = concat!("assert_eq!(", stringify!($bit), "(3), 0b1000);")]
        /// ```
        ///
        /// Out of range in const evaluation, it does not compile:
        ///
        /// ```compile_fail
        #[doc = concat!("const TOO_FAR: ", stringify!($ty), " = kernel_core::bits::", stringify!($bit), "(", stringify!($ty), "::BITS);")]
        /// ```
        // Always inlined, so that a constant argument lets the optimizer prove the assertion.
        #[inline(always)]
        pub const fn $bit(n: u32) -> $ty {
            build_assert!(n < <$ty>::BITS);
            (1 as $ty) << n
        }

        #[doc = concat!("`1 << n` as a `", stringify!($ty), "`, or `None` if `n` is not less than `", stringify!($ty), "::BITS`.")]
        ///
        #[doc = concat!("The run-time checked [`", stringify!($bit), "`]. Not a `const fn`, as in the kernel.")]
        ///
        /// # Examples
        ///
        /// ```
        #[doc = concat!("use kernel_core::bits::", stringify!($checked_bit), ";")]
        ///
        #[doc = concat!("assert_eq!(", stringify!($checked_bit), "(0), Some(1));")]
        #[doc = concat!("assert_eq!(", stringify!($checked_bit), "(", stringify!($ty), "::BITS - 1), Some(!(", stringify!($ty), "::MAX >> 1)));")]
        #[doc = concat!("assert_eq!(", stringify!($checked_bit), "(", stringify!($ty), "::BITS), None);")]
        #[doc = concat!("assert_eq!(", stringify!($checked_bit), "(u32::MAX), None);")]
        /// ```
        #[inline]
        pub fn $checked_bit(n: u32) -> Option<$ty> {
            if n < <$ty>::BITS {
                Some((1 as $ty) << n)
            } else {
                None
            }
        }

        #[doc = concat!("The `", stringify!($ty), "` whose bits `start` to `end` (both included) are set, with the range checked at build time.")]
        ///
        #[doc = concat!("`start <= end` and `end < ", stringify!($ty), "::BITS` must hold: otherwise, in const")]
        /// evaluation, the build fails with `assertion failed: start <= end` or
        /// `assertion failed: n < <...>::BITS`, and anywhere else the build fails unless the
        /// optimizer proves the call unreachable (with debug assertions on the host, the call
        /// panics instead; see [`build_assert!`](crate::build_assert::build_assert)). For a range
        #[doc = concat!("known only at run time, use [`", stringify!($genmask_checked), "`].")]
        ///
        /// # Examples
        ///
        /// ```
        #[doc = concat!("use kernel_core::bits::", stringify!($genmask), ";")]
        ///
        #[doc = concat!("const ALL: ", stringify!($ty), " = ", stringify!($genmask), "(0..=", stringify!($ty), "::BITS - 1);")]
        #[doc = concat!("assert_eq!(ALL, ", stringify!($ty), "::MAX);")]
        #[doc = concat!("assert_eq!(", stringify!($genmask), "(0..=0), 0b1);")]
        #[doc = concat!("assert_eq!(", stringify!($genmask), "(1..=3), 0b1110);")]
        #[doc = concat!("assert_eq!(", stringify!($genmask), "(", stringify!($ty), "::BITS - 2..=", stringify!($ty), "::BITS - 1), !(", stringify!($ty), "::MAX >> 2));")]
        /// ```
        ///
        /// A reversed or out-of-range range in const evaluation does not compile:
        ///
        /// ```compile_fail
        #[doc = concat!("const REVERSED: ", stringify!($ty), " = kernel_core::bits::", stringify!($genmask), "(3..=2);")]
        /// ```
        ///
        /// ```compile_fail
        #[doc = concat!("const TOO_WIDE: ", stringify!($ty), " = kernel_core::bits::", stringify!($genmask), "(0..=", stringify!($ty), "::BITS);")]
        /// ```
        // Always inlined, so that a constant range lets the optimizer prove the assertions.
        #[inline(always)]
        pub const fn $genmask(range: RangeInclusive<u32>) -> $ty {
            // Only the ends count, as in the kernel: not whether an iterator used the range up.
            let start = *range.start();
            let end = *range.end();
            build_assert!(start <= end);
            let high = $bit(end);
            let low = $bit(start);
            // `high - low` sets the bits from `start` up to `end`, `end` excluded.
            (high - low) | high
        }

        #[doc = concat!("The `", stringify!($ty), "` whose bits `start` to `end` (both included) are set, or `None` if `start > end` or `end >= ", stringify!($ty), "::BITS`.")]
        ///
        #[doc = concat!("The run-time checked [`", stringify!($genmask), "`]. Not a `const fn`, as in the kernel.")]
        ///
        /// # Examples
        ///
        /// ```
        /// # #![allow(clippy::reversed_empty_ranges)]
        #[doc = concat!("use kernel_core::bits::", stringify!($genmask_checked), ";")]
        ///
        #[doc = concat!("assert_eq!(", stringify!($genmask_checked), "(0..=", stringify!($ty), "::BITS - 1), Some(", stringify!($ty), "::MAX));")]
        #[doc = concat!("assert_eq!(", stringify!($genmask_checked), "(1..=3), Some(0b1110));")]
        #[doc = concat!("assert_eq!(", stringify!($genmask_checked), "(4..=4), Some(0b1_0000));")]
        ///
        /// // Out of range, and reversed.
        #[doc = concat!("assert_eq!(", stringify!($genmask_checked), "(0..=", stringify!($ty), "::BITS), None);")]
        #[doc = concat!("assert_eq!(", stringify!($genmask_checked), "(3..=2), None);")]
        /// ```
        #[inline]
        pub fn $genmask_checked(range: RangeInclusive<u32>) -> Option<$ty> {
            let (start, end) = range.into_inner();
            if start > end {
                return None;
            }
            let high = $checked_bit(end)?;
            let low = $checked_bit(start)?;
            Some((high - low) | high)
        }
    };
}

bits! { u64, bit_u64, checked_bit_u64, genmask_u64, genmask_checked_u64 }
bits! { u32, bit_u32, checked_bit_u32, genmask_u32, genmask_checked_u32 }
bits! { u16, bit_u16, checked_bit_u16, genmask_u16, genmask_checked_u16 }
bits! { u8, bit_u8, checked_bit_u8, genmask_u8, genmask_checked_u8 }

#[cfg(test)]
// Reversed ranges are among the inputs under test.
#[allow(clippy::reversed_empty_ranges)]
mod tests {
    extern crate std;

    use super::*;
    use std::vec::Vec;

    /// Bit positions: every one of the widest type and past it, and the top of `u32`.
    fn positions() -> Vec<u32> {
        let mut positions: Vec<u32> = (0..=130).collect();
        positions.extend([
            255,
            256,
            i32::MAX as u32,
            1 << 31,
            u32::MAX - 64,
            u32::MAX - 1,
            u32::MAX,
        ]);
        positions
    }

    /// The reference: bits `start..=end` of a `u128`, by setting them one by one.
    fn reference_mask(start: u32, end: u32) -> u128 {
        (start..=end).fold(0, |mask, bit| mask | (1_u128 << bit))
    }

    /// Checks the four functions of one width against `u128` references, at every position and
    /// for every pair of positions from [`positions`].
    macro_rules! check_width {
        ($ty:ty, $bit:ident, $checked_bit:ident, $genmask:ident, $genmask_checked:ident) => {{
            let width = <$ty>::BITS;
            for n in positions() {
                let expected = (n < width).then(|| (1_u128 << n) as $ty);
                assert_eq!(
                    $checked_bit(n),
                    expected,
                    "{}({n})",
                    stringify!($checked_bit)
                );
                if n < width {
                    assert_eq!($bit(n), expected.unwrap(), "{}({n})", stringify!($bit));
                }
            }
            for start in positions() {
                for end in positions() {
                    let valid = start <= end && end < width;
                    let expected = valid.then(|| reference_mask(start, end) as $ty);
                    assert_eq!(
                        $genmask_checked(start..=end),
                        expected,
                        "{}({start}..={end})",
                        stringify!($genmask_checked)
                    );
                    // Without debug assertions, `genmask_*` must be proven at build time, and
                    // whether the optimizer proves it from `valid` depends on the compiler (Rust
                    // 1.85's does not): the release runs check it on constants below and in the
                    // bits suite's const-filled tables instead.
                    if valid && cfg!(debug_assertions) {
                        assert_eq!($genmask(start..=end), expected.unwrap());
                        assert_eq!(
                            $genmask(start..=end).count_ones(),
                            end - start + 1,
                            "{}({start}..={end})",
                            stringify!($genmask)
                        );
                    }
                }
            }
            assert_eq!($genmask(0..=width - 1), <$ty>::MAX);
            assert_eq!($genmask_checked(0..=width - 1), Some(<$ty>::MAX));
            assert_eq!($genmask(width - 1..=width - 1), $bit(width - 1));
            assert_eq!($genmask_checked(0..=width), None);
            assert_eq!($genmask_checked(width..=width), None);
            assert_eq!($genmask_checked(u32::MAX..=u32::MAX), None);
            assert_eq!($genmask_checked(u32::MAX..=0), None);
            assert_eq!($genmask_checked(1..=0), None);
        }};
    }

    #[test]
    fn every_width_every_position_every_range() {
        check_width!(u8, bit_u8, checked_bit_u8, genmask_u8, genmask_checked_u8);
        check_width!(
            u16,
            bit_u16,
            checked_bit_u16,
            genmask_u16,
            genmask_checked_u16
        );
        check_width!(
            u32,
            bit_u32,
            checked_bit_u32,
            genmask_u32,
            genmask_checked_u32
        );
        check_width!(
            u64,
            bit_u64,
            checked_bit_u64,
            genmask_u64,
            genmask_checked_u64
        );
    }

    #[test]
    fn usable_in_const_contexts() {
        const TOP: u64 = bit_u64(63);
        const LOW_NIBBLE: u8 = genmask_u8(0..=3);
        const FIELD: u32 = genmask_u32(21..=31);
        const HALF: u16 = genmask_u16(8..=15);
        static_assertions();
        assert_eq!(TOP, 1 << 63);
        assert_eq!(LOW_NIBBLE, 0xf);
        assert_eq!(FIELD, 0xffe0_0000);
        assert_eq!(HALF, 0xff00);

        fn static_assertions() {
            crate::static_assert!(genmask_u64(0..=63) == u64::MAX);
            crate::static_assert!(genmask_u64(21..=39) == 0x0000_00ff_ffe0_0000);
            crate::static_assert!(bit_u8(7) == 0x80);
            crate::static_assert!(genmask_u16(6..=15) == 0xffc0);
        }
    }

    /// Only `start()` and `end()` of the range count, not whether it is exhausted, as in the
    /// kernel. Iterating moves `start()` (up to `end()`, where the range becomes exhausted).
    #[test]
    fn only_the_ends_of_the_range_count() {
        let mut range = 2..=5_u32;
        assert_eq!(range.next(), Some(2));
        assert_eq!(*range.start(), 3);
        assert_eq!(genmask_checked_u32(range.clone()), Some(0b11_1000));
        assert_eq!(genmask_u32(range.clone()), 0b11_1000);

        range.by_ref().for_each(drop);
        assert!(range.is_empty());
        let (start, end) = (*range.start(), *range.end());
        assert_eq!(
            genmask_checked_u32(range.clone()),
            genmask_checked_u32(start..=end)
        );
        assert_eq!(genmask_u32(range), genmask_u32(start..=end));

        let mut single = 7..=7_u32;
        assert_eq!(single.next(), Some(7));
        assert!(single.is_empty());
        assert_eq!(genmask_checked_u8(single.clone()), Some(0x80));
        assert_eq!(genmask_u8(single), 0x80);
    }

    // With debug assertions, an out-of-range position reached at run time panics with the
    // kernel's message, as under `CONFIG_RUST_BUILD_ASSERT_ALLOW`. Without them these calls
    // would fail the link on purpose, so the test returns before them, and the optimizer drops
    // them.
    #[test]
    fn out_of_range_positions_panic_with_debug_assertions() {
        use std::{panic::catch_unwind, string::String};

        /// The panic message of `f`, without its spaces: the compiler decides how to space
        /// the condition it prints (the differential tests compare it with the kernel's).
        fn message(f: impl FnOnce() + std::panic::UnwindSafe) -> String {
            let payload = catch_unwind(f).expect_err("the call should have panicked");
            let message = match payload.downcast::<String>() {
                Ok(s) => *s,
                Err(p) => String::from(*p.downcast::<&'static str>().unwrap()),
            };
            message.chars().filter(|c| *c != ' ').collect()
        }

        if !cfg!(debug_assertions) {
            return;
        }
        let at = |n: u32| std::hint::black_box(n);
        assert_eq!(
            message(|| {
                let _ = bit_u8(at(8));
            }),
            "assertionfailed:n<<u8>::BITS"
        );
        assert_eq!(
            message(|| {
                let _ = bit_u64(at(u32::MAX));
            }),
            "assertionfailed:n<<u64>::BITS"
        );
        assert_eq!(
            message(|| {
                let _ = genmask_u16(at(3)..=at(2));
            }),
            "assertionfailed:start<=end"
        );
        assert_eq!(
            message(|| {
                let _ = genmask_u32(at(0)..=at(32));
            }),
            "assertionfailed:n<<u32>::BITS"
        );
        // In the kernel's order: a reversed range is reported first.
        assert_eq!(
            message(|| {
                let _ = genmask_u8(at(40)..=at(9));
            }),
            "assertionfailed:start<=end"
        );
    }
}
