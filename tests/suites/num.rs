// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `kernel_core::num` and `kernel_core::impl_flags!`: `Bounded` at the edges of every width,
//! signed and unsigned, for every number of bits from 1 to the width; the lossless casts at
//! their limits; and the flag sets of `impl_flags!`.
//!
//! The references are shifts of `MIN` and `MAX` (the largest and smallest `N`-bit values are
//! `MAX >> (BITS - N)` and `MIN >> (BITS - N)`), a different route than the check under test;
//! `num_properties.rs` adds random values against 128-bit arithmetic on the host.

use kernel_core::macros::kunit_tests;

#[kunit_tests(kernel_core_num)]
mod tests {
    use kernel_core::num::casts::{self, FromSafeCast, IntoSafeCast};
    use kernel_core::num::{Bounded, Integer, Signed, TryIntoBounded, Unsigned};

    kernel_core::impl_flags!(
        /// A set of permissions.
        #[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
        pub struct Permissions(u16);

        /// One permission.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum Permission {
            /// The lowest bit.
            Read = 1 << 0,
            /// A middle bit.
            Write = 1 << 1,
            /// The highest bit of a `u16`.
            Execute = 1 << 15,
        }
    );

    /// Calls `$check::<N>()` for each listed `N`.
    macro_rules! every_width {
        ($check:ident: $($n:literal)*) => {
            $($check::<$n>();)*
        };
    }

    /// `$name::<N>()` checks `Bounded<$ty, N>` (unsigned) at the edges of `N` bits.
    macro_rules! unsigned_edges {
        ($($name:ident: $ty:ident, $wide:ident;)*) => {$(
            // Out of line: inlined together, hundreds of instances would overflow the kernel's
            // stack.
            #[inline(never)]
            fn $name<const N: u32>() {
                let max: $ty = $ty::MAX >> ($ty::BITS - N);
                for value in [0, 1 & max, max / 2, max - (max >> 1), max - 1 + (1 & !max), max] {
                    let bounded = Bounded::<$ty, N>::try_new(value).unwrap();
                    assert_eq!(bounded.get(), value);
                    assert_eq!(*bounded, value);
                    assert!(bounded == value);
                    assert_eq!(Bounded::<$ty, N>::from_expr(value & max).get(), value);
                    let wide = Bounded::<$ty, { $ty::BITS }>::try_new(value).unwrap();
                    assert_eq!(wide.try_shrink::<N>(), Some(bounded));
                    assert_eq!(bounded.extend::<{ $ty::BITS }>(), wide);
                    assert_eq!(bounded.cast::<$wide>().get(), $wide::try_from(value).unwrap());
                    let converted: Option<Bounded<$ty, N>> = value.try_into_bounded();
                    assert_eq!(converted, Some(bounded));
                }
                if N < $ty::BITS {
                    assert_eq!(Bounded::<$ty, N>::try_new(max + 1), None);
                    assert_eq!(Bounded::<$ty, N>::try_new($ty::MAX), None);
                    let wide = Bounded::<$ty, { $ty::BITS }>::try_new(max + 1).unwrap();
                    assert_eq!(wide.try_shrink::<N>(), None);
                    let converted: Option<Bounded<$ty, N>> = (max + 1).try_into_bounded();
                    assert_eq!(converted, None);
                }
            }
        )*};
    }

    unsigned_edges! {
        unsigned_u8: u8, u128;
        unsigned_u16: u16, u128;
        unsigned_u32: u32, u128;
        unsigned_u64: u64, u128;
        unsigned_u128: u128, u128;
        unsigned_usize: usize, u128;
    }

    /// `$name::<N>()` checks `Bounded<$ty, N>` (signed) at the edges of `N` bits.
    macro_rules! signed_edges {
        ($($name:ident: $ty:ident, $wide:ident;)*) => {$(
            #[inline(never)]
            fn $name<const N: u32>() {
                let max: $ty = $ty::MAX >> ($ty::BITS - N);
                let min: $ty = $ty::MIN >> ($ty::BITS - N);
                assert_eq!(min, -max - 1);
                for value in [min, min / 2, -1, 0, max / 2, max] {
                    let bounded = Bounded::<$ty, N>::try_new(value).unwrap();
                    assert_eq!(bounded.get(), value);
                    assert_eq!(*bounded, value);
                    let wide = Bounded::<$ty, { $ty::BITS }>::try_new(value).unwrap();
                    assert_eq!(wide.try_shrink::<N>(), Some(bounded));
                    assert_eq!(bounded.extend::<{ $ty::BITS }>(), wide);
                    assert_eq!(bounded.cast::<$wide>().get(), $wide::try_from(value).unwrap());
                    let converted: Option<Bounded<$ty, N>> = value.try_into_bounded();
                    assert_eq!(converted, Some(bounded));
                }
                if N < $ty::BITS {
                    for value in [min - 1, max + 1, $ty::MIN, $ty::MAX] {
                        assert_eq!(Bounded::<$ty, N>::try_new(value), None);
                        let wide = Bounded::<$ty, { $ty::BITS }>::try_new(value).unwrap();
                        assert_eq!(wide.try_shrink::<N>(), None);
                        let converted: Option<Bounded<$ty, N>> = value.try_into_bounded();
                        assert_eq!(converted, None);
                    }
                }
            }
        )*};
    }

    signed_edges! {
        signed_i8: i8, i128;
        signed_i16: i16, i128;
        signed_i32: i32, i128;
        signed_i64: i64, i128;
        signed_i128: i128, i128;
        signed_isize: isize, i128;
    }

    fn unsigned<T: Integer<Signedness = Unsigned>>() -> u32 {
        T::BITS
    }

    fn signed<T: Integer<Signedness = Signed>>() -> u32 {
        T::BITS
    }

    #[test]
    fn integer_bits_and_signedness() {
        assert_eq!(unsigned::<u8>(), 8);
        assert_eq!(unsigned::<u16>(), 16);
        assert_eq!(unsigned::<u32>(), 32);
        assert_eq!(unsigned::<u64>(), 64);
        assert_eq!(unsigned::<u128>(), 128);
        assert_eq!(unsigned::<usize>(), usize::BITS);
        assert_eq!(signed::<i8>(), 8);
        assert_eq!(signed::<i16>(), 16);
        assert_eq!(signed::<i32>(), 32);
        assert_eq!(signed::<i64>(), 64);
        assert_eq!(signed::<i128>(), 128);
        assert_eq!(signed::<isize>(), isize::BITS);
    }

    #[test]
    fn unsigned_every_width_and_bit_count() {
        every_width!(unsigned_u8:
            1 2 3 4 5 6 7 8);
        every_width!(unsigned_u16:
            1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16);
        every_width!(unsigned_u32:
            1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16
            17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32);
        every_width!(unsigned_u64:
            1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16
            17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32
            33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48
            49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64);
        every_width!(unsigned_u128:
            1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16
            17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32
            33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48
            49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64
            65 66 67 68 69 70 71 72 73 74 75 76 77 78 79 80
            81 82 83 84 85 86 87 88 89 90 91 92 93 94 95 96
            97 98 99 100 101 102 103 104 105 106 107 108 109 110 111 112
            113 114 115 116 117 118 119 120 121 122 123 124 125 126 127 128);
        every_width!(unsigned_usize:
            1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16
            17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32);
        #[cfg(target_pointer_width = "64")]
        every_width!(unsigned_usize:
            33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48
            49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64);
    }

    #[test]
    fn signed_every_width_and_bit_count() {
        every_width!(signed_i8:
            1 2 3 4 5 6 7 8);
        every_width!(signed_i16:
            1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16);
        every_width!(signed_i32:
            1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16
            17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32);
        every_width!(signed_i64:
            1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16
            17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32
            33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48
            49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64);
        every_width!(signed_i128:
            1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16
            17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32
            33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48
            49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64
            65 66 67 68 69 70 71 72 73 74 75 76 77 78 79 80
            81 82 83 84 85 86 87 88 89 90 91 92 93 94 95 96
            97 98 99 100 101 102 103 104 105 106 107 108 109 110 111 112
            113 114 115 116 117 118 119 120 121 122 123 124 125 126 127 128);
        every_width!(signed_isize:
            1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16
            17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32);
        #[cfg(target_pointer_width = "64")]
        every_width!(signed_isize:
            33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48
            49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64);
    }

    #[test]
    fn new_at_the_edges() {
        assert_eq!(Bounded::<u8, 8>::new::<{ u8::MAX }>().get(), u8::MAX);
        assert_eq!(Bounded::<u16, 16>::new::<{ u16::MAX }>().get(), u16::MAX);
        assert_eq!(Bounded::<u32, 32>::new::<{ u32::MAX }>().get(), u32::MAX);
        assert_eq!(Bounded::<u64, 64>::new::<{ u64::MAX }>().get(), u64::MAX);
        assert_eq!(Bounded::<usize, { usize::BITS }>::new::<{ usize::MAX }>().get(), usize::MAX);
        assert_eq!(Bounded::<i8, 8>::new::<{ i8::MIN }>().get(), i8::MIN);
        assert_eq!(Bounded::<i16, 16>::new::<{ i16::MAX }>().get(), i16::MAX);
        assert_eq!(Bounded::<i32, 32>::new::<{ i32::MIN }>().get(), i32::MIN);
        assert_eq!(Bounded::<i64, 64>::new::<{ i64::MAX }>().get(), i64::MAX);
        assert_eq!(Bounded::<isize, { isize::BITS }>::new::<{ isize::MIN }>().get(), isize::MIN);
        assert_eq!(Bounded::<u8, 1>::new::<1>().get(), 1);
        assert_eq!(Bounded::<u64, 1>::new::<0>().get(), 0);
        assert_eq!(Bounded::<i8, 1>::new::<{ -1 }>().get(), -1);
        assert_eq!(Bounded::<i64, 1>::new::<0>().get(), 0);
        assert_eq!(Bounded::<u32, 31>::new::<{ u32::MAX >> 1 }>().get(), u32::MAX >> 1);
        assert_eq!(Bounded::<i32, 31>::new::<{ i32::MIN >> 1 }>().get(), i32::MIN >> 1);
        assert_eq!(Bounded::<i32, 31>::new::<{ i32::MAX >> 1 }>().get(), i32::MAX >> 1);
        const CONST: Bounded<u16, 14> = Bounded::<u16, 12>::new::<0xfff>().extend::<13>().extend();
        assert_eq!(CONST.get(), 0xfff);
    }

    #[test]
    fn from_expr_with_provable_values() {
        assert_eq!(Bounded::<u8, 1>::from_expr(1).get(), 1);
        assert_eq!(Bounded::<u16, 8>::from_expr(0xff).get(), 0xff);
        assert_eq!(Bounded::<i32, 4>::from_expr(-8).get(), -8);
        assert_eq!(Bounded::<u64, 64>::from_expr(u64::MAX).get(), u64::MAX);
    }

    #[test]
    fn shifts() {
        let v = Bounded::<u32, 16>::new::<0xff00>();
        assert_eq!(v.shr::<8, 8>().get(), 0xff);
        assert_eq!(v.shr::<31, 1>().get(), 0);
        assert_eq!(v.shr_exact::<8, 8>().map(Bounded::get), Some(0xff));
        assert_eq!(v.shr_exact::<9, 7>(), None);
        assert_eq!(v.shl::<16, 32>().get(), 0xff00_0000);
        assert_eq!(v.shl::<0, 16>().get(), 0xff00);
        let n = Bounded::<i8, 8>::new::<{ i8::MIN }>();
        assert_eq!(n.shr::<7, 1>().get(), -1);
        assert_eq!(n.shr_exact::<7, 1>().map(Bounded::get), Some(-1));
        assert_eq!(Bounded::<i8, 8>::new::<{ -3 }>().shr_exact::<1, 7>(), None);
        assert_eq!(Bounded::<i16, 4>::new::<{ -8 }>().shl::<12, 16>().get(), i16::MIN);
        assert_eq!(Bounded::<u64, 1>::new::<1>().shl::<63, 64>().get(), 1 << 63);
    }

    #[test]
    fn comparisons_and_operators() {
        let a = Bounded::<u32, 8>::new::<4>();
        let b = Bounded::<u32, 4>::new::<15>();
        assert!(a != b);
        assert!(a < b);
        assert!(b > a);
        assert!(a <= b);
        assert!(b >= a);
        assert_eq!(a.cmp(&a.extend::<8>()), core::cmp::Ordering::Equal);
        assert_eq!(a.max(Bounded::<u32, 8>::new::<200>()).get(), 200);
        assert!(b == 15 && b != 14 && b > 12 && b < 16);
        assert_eq!(a + b, 19);
        assert_eq!(b - a, 11);
        assert_eq!(a * b, 60);
        assert_eq!(b / a, 3);
        assert_eq!(b % a, 3);
        assert_eq!(a & b, 4);
        assert_eq!(a | b, 15);
        assert_eq!(a ^ b, 11);
        assert_eq!(b + 5, 20);
        assert_eq!(b - 5, 10);
        assert_eq!(b * 2, 30);
        assert_eq!(b / 3, 5);
        assert_eq!(b % 4, 3);
        assert_eq!(b & 6, 6);
        assert_eq!(b | 16, 31);
        assert_eq!(b ^ 1, 14);
        assert_eq!(!b, !15_u32);
        let n = Bounded::<i16, 5>::new::<{ -16 }>();
        assert_eq!(-n, 16);
        assert_eq!(!n, 15);
        assert!(n < Bounded::<i16, 16>::new::<0>());
    }

    #[test]
    fn widening_conversions() {
        assert_eq!(Bounded::<u16, 8>::from(u8::MAX).get(), 255);
        assert_eq!(Bounded::<u128, 64>::from(u64::MAX).get(), u128::from(u64::MAX));
        assert_eq!(Bounded::<u32, 16>::from(u16::MAX).get(), 0xffff);
        assert_eq!(Bounded::<u64, 32>::from(u32::MAX).get(), 0xffff_ffff);
        assert_eq!(Bounded::<i16, 8>::from(i8::MIN).get(), -128);
        assert_eq!(Bounded::<i64, 16>::from(i16::MIN).get(), -32768);
        assert_eq!(Bounded::<i64, 33>::from(i32::MIN).get(), i64::from(i32::MIN));
        assert_eq!(Bounded::<i128, 64>::from(i64::MIN).get(), i128::from(i64::MIN));
        assert_eq!(Bounded::<usize, { usize::BITS }>::from(usize::MAX).get(), usize::MAX);
        assert_eq!(Bounded::<isize, { isize::BITS }>::from(isize::MIN).get(), isize::MIN);
        assert_eq!(u8::from(Bounded::<u64, 8>::new::<255>()), 255);
        assert_eq!(u16::from(Bounded::<u128, 16>::try_new(0xffff).unwrap()), 0xffff);
        assert_eq!(u32::from(Bounded::<u64, 1>::new::<1>()), 1);
        assert_eq!(u64::from(Bounded::<u128, 64>::from(u64::MAX)), u64::MAX);
        assert_eq!(i8::from(Bounded::<i64, 8>::new::<{ -128 }>()), -128);
        assert_eq!(i16::from(Bounded::<i32, 9>::new::<{ -256 }>()), -256);
        assert_eq!(i32::from(Bounded::<i64, 32>::new::<{ i32::MIN as i64 }>()), i32::MIN);
        assert_eq!(i64::from(Bounded::<i128, 64>::from(i64::MIN)), i64::MIN);
        assert_eq!(usize::from(Bounded::<u64, 32>::from(u32::MAX)), 0xffff_ffff);
        assert_eq!(isize::from(Bounded::<i64, 32>::from(i32::MIN)), -0x8000_0000);
    }

    #[test]
    fn bool_conversions() {
        assert!(bool::from(Bounded::<u8, 1>::new::<1>()));
        assert!(!bool::from(Bounded::<u128, 1>::try_new(0).unwrap()));
        assert!(Bounded::<usize, 1>::new::<1>().into_bool());
        assert!(!Bounded::<u16, 1>::new::<0>().into_bool());
        assert_eq!(Bounded::<u8, 1>::from(true).get(), 1);
        assert_eq!(Bounded::<u64, 64>::from(false).get(), 0);
        assert_eq!(Bounded::<u32, 7>::from(true).get(), 1);
    }

    #[test]
    fn copy_default_and_equality_across_widths() {
        let v = Bounded::<u32, 12>::new::<0x123>();
        let copy = v;
        assert_eq!(copy, v);
        assert_eq!(Bounded::<u32, 3>::default().get(), 0);
        assert_eq!(Bounded::<i8, 3>::default(), Bounded::<i8, 8>::new::<0>());
        assert_eq!(v.cast::<u16>(), v.cast::<u64>().cast::<u16>());
        assert_eq!(Bounded::<i32, 12>::new::<{ -2048 }>().cast::<i16>().get(), -2048);
    }

    #[test]
    fn lossless_casts() {
        assert_eq!(casts::u8_as_u16(u8::MAX), 0xff);
        assert_eq!(casts::u8_as_u32(u8::MAX), 0xff);
        assert_eq!(casts::u8_as_u64(u8::MAX), 0xff);
        assert_eq!(casts::u8_as_usize(u8::MAX), 0xff);
        assert_eq!(casts::u16_as_u32(u16::MAX), 0xffff);
        assert_eq!(casts::u16_as_u64(u16::MAX), 0xffff);
        assert_eq!(casts::u16_as_usize(u16::MAX), 0xffff);
        assert_eq!(casts::u32_as_u64(u32::MAX), 0xffff_ffff);
        assert_eq!(casts::u32_as_usize(u32::MAX), 0xffff_ffff);
        assert_eq!(casts::usize_as_u64(usize::MAX), u64::try_from(usize::MAX).unwrap());
        assert_eq!(casts::u8_as_u16(0), 0);
        assert_eq!(u64::from_safe_cast(usize::MAX), u64::try_from(usize::MAX).unwrap());
        assert_eq!(usize::from_safe_cast(u32::MAX), 0xffff_ffff);
        let v: u64 = 4096_usize.into_safe_cast();
        assert_eq!(v, 4096);
        let v: usize = 0xf00_u32.into_safe_cast();
        assert_eq!(v, 0xf00);
        const PAGE: usize = casts::u16_as_usize(4096);
        assert_eq!(PAGE, 4096);
    }

    #[test]
    fn constant_narrowing_casts() {
        assert_eq!(casts::usize_into_u8::<0xff>(), u8::MAX);
        assert_eq!(casts::usize_into_u16::<0xffff>(), u16::MAX);
        assert_eq!(casts::usize_into_u32::<0xffff_ffff>(), u32::MAX);
        assert_eq!(casts::u64_into_u8::<0xff>(), u8::MAX);
        assert_eq!(casts::u64_into_u16::<0xffff>(), u16::MAX);
        assert_eq!(casts::u64_into_u32::<0xffff_ffff>(), u32::MAX);
        assert_eq!(casts::u32_into_u8::<0xff>(), u8::MAX);
        assert_eq!(casts::u32_into_u16::<0xffff>(), u16::MAX);
        assert_eq!(casts::u16_into_u8::<0xff>(), u8::MAX);
        assert_eq!(casts::u64_into_u8::<0>(), 0);
        const BITS: u8 = casts::u32_into_u8::<40>();
        assert_eq!(BITS, 40);
    }

    #[test]
    fn flags_from_impl_flags() {
        use Permission::{Execute, Read, Write};

        assert_eq!(Permissions::all_bits(), 0x8003);
        assert_eq!(u16::from(Permissions::empty()), 0);
        assert_eq!(Permissions::empty(), Permissions::default());
        assert_eq!(u16::from(Permissions::from(Execute)), 0x8000);

        let mut set = Read | Write;
        assert_eq!(u16::from(set), 0x3);
        assert!(set.contains(Read) && set.contains(Write) && !set.contains(Execute));
        assert!(set.contains_any(Read | Execute));
        assert!(!set.contains_any(Permissions::from(Execute)));
        assert!(set.contains_all(Read | Write));
        assert!(!set.contains_all(Read | Execute));
        assert!(set.contains_all(Permissions::empty()));
        assert!(!set.contains_any(Permissions::empty()));

        set |= Execute;
        assert_eq!(u16::from(set), 0x8003);
        set &= Read | Execute;
        assert_eq!(u16::from(set), 0x8001);
        set ^= Read;
        assert_eq!(u16::from(set), 0x8000);
        set ^= Read | Write;
        assert_eq!(u16::from(set), 0x8003);
        set &= Write;
        assert_eq!(u16::from(set), 0x2);
        set |= Read | Execute;
        assert_eq!(u16::from(set), 0x8003);

        // `!` and `^` keep only the bits that flags name.
        assert_eq!(u16::from(!Permissions::empty()), 0x8003);
        assert_eq!(u16::from(!(Read | Write)), 0x8000);
        assert_eq!(u16::from(!Read), 0x8002);
        assert_eq!(u16::from(Read ^ Execute), 0x8001);
        assert_eq!(u16::from(Read ^ Read), 0);
        assert_eq!(u16::from(Read & Write), 0);
        assert_eq!(u16::from(Read & Read), 1);
        assert_eq!(u16::from((Read | Write) ^ Permissions::from(Write)), 1);
        assert_eq!(u16::from((Read | Write) & Write), 2);
        assert_eq!(u16::from((Read | Write) | Execute), 0x8003);
        assert_eq!(u16::from((Read | Write) | (Write | Execute)), 0x8003);
        assert_eq!(u16::from((Read | Write) & (Write | Execute)), 2);
        assert_eq!(Execute as u16, 0x8000);
    }
}
