// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `kernel_core::build_assert`: the assertions that hold must cost nothing and build everywhere.
//!
//! The failing side is compile errors and link errors, which a running test cannot observe:
//! `ui-tests/` covers those.

use kernel_core::macros::kunit_tests;

#[kunit_tests(kernel_core_build_assert)]
mod tests {
    use kernel_core::prelude::*;

    static_assert!(usize::BITS >= 32);
    static_assert!(i64::MAX as u64 == u64::MAX >> 1, "i64::MAX is 2^63 - 1");

    /// `const_assert!` sees the generics of each instance.
    fn log2_of<const N: usize>() -> u32 {
        const_assert!(N.is_power_of_two(), "N must be a power of two");
        N.trailing_zeros()
    }

    /// `build_assert!` on an argument: provable once inlined into a caller with a constant.
    #[inline(always)]
    fn nibble(value: u8) -> u8 {
        build_assert!(value < 16, "a nibble holds 0..16");
        value
    }

    #[inline(always)]
    const fn const_nibble(value: u8) -> u8 {
        build_assert!(value < 16);
        value
    }

    #[inline(always)]
    fn checked_double(value: u32) -> u32 {
        match value.checked_mul(2) {
            Some(doubled) => doubled,
            None => build_error!("doubling overflowed"),
        }
    }

    #[test]
    fn static_assert_in_a_body() {
        static_assert!(core::mem::size_of::<u64>() == 8);
        static_assert!(core::mem::align_of::<u8>() == 1, "bytes are unaligned");
    }

    #[test]
    fn const_assert_checks_each_instance() {
        assert_eq!(log2_of::<1>(), 0);
        assert_eq!(log2_of::<2>(), 1);
        assert_eq!(log2_of::<4096>(), 12);
        assert_eq!(log2_of::<{ 1 << 31 }>(), 31);
    }

    #[test]
    fn build_assert_on_constant_arguments() {
        assert_eq!(nibble(0), 0);
        assert_eq!(nibble(15), 15);
        const LAST: u8 = const_nibble(15);
        assert_eq!(LAST, 15);
    }

    #[test]
    fn build_error_in_a_branch_the_optimizer_removes() {
        assert_eq!(checked_double(21), 42);
        assert_eq!(checked_double(u32::MAX / 2), u32::MAX - 1);
    }
}
