// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `kernel_core::num` on the host: random values against 128-bit reference arithmetic, and what
//! needs `std` to test (formatting, hashing).
//!
//! The fixed edges of every width and bit count live in `suites/num.rs`, which also runs in the
//! kernel.

// Widening `as` casts into the 128-bit reference are the point, and `usize`/`isize` have no
// `From` into `u128`/`i128`.
#![allow(
    clippy::cast_lossless,
    clippy::cast_possible_wrap,
    clippy::unnecessary_cast
)]

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use kernel_core::num::{Bounded, TryIntoBounded};
use proptest::prelude::*;

/// Whether `value` is an unsigned `bits`-bit value: `value < 2^bits`.
fn fits_unsigned(value: u128, bits: u32) -> bool {
    bits >= 128 || value < 1 << bits
}

/// Whether `value` is a signed `bits`-bit value: `-2^(bits-1) <= value < 2^(bits-1)`.
fn fits_signed(value: i128, bits: u32) -> bool {
    bits >= 128 || (-(1 << (bits - 1))..1 << (bits - 1)).contains(&value)
}

/// `Bounded::<$ty, n>::try_new($v).map(Bounded::get)` for a run-time `n` among the listed ones.
macro_rules! by_bits {
    ($n:expr, $ty:ty, $v:expr; $($bits:literal)*) => {
        match $n {
            $($bits => Bounded::<$ty, $bits>::try_new($v).map(Bounded::get),)*
            _ => unreachable!(),
        }
    };
}

/// Values of `$ty`, with powers of two and their neighbours (the edges of every bit count) as
/// often as uniform ones.
macro_rules! edgy {
    ($ty:ident) => {
        prop_oneof![
            any::<$ty>(),
            (0..$ty::BITS, -1..=1_i8)
                .prop_map(|(shift, d)| { (1 as $ty).wrapping_shl(shift).wrapping_add(d as $ty) }),
            (0..$ty::BITS, -1..=1_i8)
                .prop_map(|(shift, d)| { ($ty::MAX.wrapping_shr(shift)).wrapping_add(d as $ty) }),
            (0..$ty::BITS, -1..=1_i8)
                .prop_map(|(shift, d)| { ($ty::MIN.wrapping_shr(shift)).wrapping_add(d as $ty) }),
        ]
    };
}

proptest! {
    #[test]
    fn try_new_u8(v in edgy!(u8), n in 1..=u8::BITS) {
            let got = by_bits!(n, u8, v; 1 2 3 4 5 6 7 8);
        prop_assert_eq!(got, fits_unsigned(v as u128, n).then_some(v));
    }
}

proptest! {
    #[test]
    fn try_new_u16(v in edgy!(u16), n in 1..=u16::BITS) {
            let got = by_bits!(n, u16, v; 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16);
        prop_assert_eq!(got, fits_unsigned(v as u128, n).then_some(v));
    }
}

proptest! {
    #[test]
    fn try_new_u32(v in edgy!(u32), n in 1..=u32::BITS) {
            let got = by_bits!(n, u32, v; 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32);
        prop_assert_eq!(got, fits_unsigned(v as u128, n).then_some(v));
    }
}

proptest! {
    #[test]
    fn try_new_u64(v in edgy!(u64), n in 1..=u64::BITS) {
            let got = by_bits!(n, u64, v; 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64);
        prop_assert_eq!(got, fits_unsigned(v as u128, n).then_some(v));
    }
}

proptest! {
    #[test]
    fn try_new_u128(v in edgy!(u128), n in 1..=u128::BITS) {
            let got = by_bits!(n, u128, v; 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79 80 81 82 83 84 85 86 87 88 89 90 91 92 93 94 95 96 97 98 99 100 101 102 103 104 105 106 107 108 109 110 111 112 113 114 115 116 117 118 119 120 121 122 123 124 125 126 127 128);
        prop_assert_eq!(got, fits_unsigned(v as u128, n).then_some(v));
    }
}

proptest! {
    #[test]
    fn try_new_usize(v in edgy!(usize), n in 1..=usize::BITS) {
            #[cfg(target_pointer_width = "64")]
            let got = by_bits!(n, usize, v; 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64);
            #[cfg(target_pointer_width = "32")]
            let got = by_bits!(n, usize, v; 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32);
        prop_assert_eq!(got, fits_unsigned(v as u128, n).then_some(v));
    }
}

proptest! {
    #[test]
    fn try_new_i8(v in edgy!(i8), n in 1..=i8::BITS) {
            let got = by_bits!(n, i8, v; 1 2 3 4 5 6 7 8);
        prop_assert_eq!(got, fits_signed(v as i128, n).then_some(v));
    }
}

proptest! {
    #[test]
    fn try_new_i16(v in edgy!(i16), n in 1..=i16::BITS) {
            let got = by_bits!(n, i16, v; 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16);
        prop_assert_eq!(got, fits_signed(v as i128, n).then_some(v));
    }
}

proptest! {
    #[test]
    fn try_new_i32(v in edgy!(i32), n in 1..=i32::BITS) {
            let got = by_bits!(n, i32, v; 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32);
        prop_assert_eq!(got, fits_signed(v as i128, n).then_some(v));
    }
}

proptest! {
    #[test]
    fn try_new_i64(v in edgy!(i64), n in 1..=i64::BITS) {
            let got = by_bits!(n, i64, v; 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64);
        prop_assert_eq!(got, fits_signed(v as i128, n).then_some(v));
    }
}

proptest! {
    #[test]
    fn try_new_i128(v in edgy!(i128), n in 1..=i128::BITS) {
            let got = by_bits!(n, i128, v; 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79 80 81 82 83 84 85 86 87 88 89 90 91 92 93 94 95 96 97 98 99 100 101 102 103 104 105 106 107 108 109 110 111 112 113 114 115 116 117 118 119 120 121 122 123 124 125 126 127 128);
        prop_assert_eq!(got, fits_signed(v as i128, n).then_some(v));
    }
}

proptest! {
    #[test]
    fn try_new_isize(v in edgy!(isize), n in 1..=isize::BITS) {
            #[cfg(target_pointer_width = "64")]
            let got = by_bits!(n, isize, v; 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64);
            #[cfg(target_pointer_width = "32")]
            let got = by_bits!(n, isize, v; 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32);
        prop_assert_eq!(got, fits_signed(v as i128, n).then_some(v));
    }
}

proptest! {
    #[test]
    fn try_into_bounded_from_i128(v in edgy!(i128)) {
        let got: Option<Bounded<u8, 5>> = v.try_into_bounded();
        prop_assert_eq!(got.map(Bounded::get).map(i128::from), (0..32).contains(&v).then_some(v));
        let got: Option<Bounded<i16, 9>> = v.try_into_bounded();
        prop_assert_eq!(got.map(Bounded::get).map(i128::from), fits_signed(v, 9).then_some(v));
        let got: Option<Bounded<u32, 32>> = v.try_into_bounded();
        prop_assert_eq!(got.map(Bounded::get).map(i128::from), (0..1 << 32).contains(&v).then_some(v));
        let got: Option<Bounded<i64, 40>> = v.try_into_bounded();
        prop_assert_eq!(got.map(Bounded::get).map(i128::from), fits_signed(v, 40).then_some(v));
    }

    #[test]
    fn shifts_against_arithmetic(v in any::<u16>(), s in any::<i16>()) {
        let b = Bounded::<u32, 16>::from(v);
        prop_assert_eq!(b.shr::<4, 12>().get(), u32::from(v) / 16);
        prop_assert_eq!(b.shr_exact::<4, 12>().map(Bounded::get), (v % 16 == 0).then_some(u32::from(v) / 16));
        prop_assert_eq!(b.shl::<16, 32>().get(), u32::from(v) * 65536);
        let b = Bounded::<i32, 16>::from(s);
        prop_assert_eq!(b.shr::<4, 12>().get(), i32::from(s).div_euclid(16));
        prop_assert_eq!(b.shr_exact::<4, 12>().map(Bounded::get), (s % 16 == 0).then_some(i32::from(s) / 16));
        prop_assert_eq!(b.shl::<16, 32>().get(), i32::from(s) * 65536);
    }

    #[test]
    fn operators_and_comparisons_are_the_values(a in any::<u8>(), b in 1..=u8::MAX) {
        let (x, y) = (Bounded::<u16, 8>::from(a), Bounded::<u16, 9>::from(b));
        let (a, b) = (u16::from(a), u16::from(b));
        prop_assert_eq!((x + y, x * y, x + 1), (a + b, a * b, a + 1));
        prop_assert_eq!(y.max(Bounded::try_new(a).unwrap()) - x, b.max(a) - a);
        prop_assert_eq!((x / y, x % y), (a / b, a % b));
        prop_assert_eq!((x & y, x | y, x ^ y, !x), (a & b, a | b, a ^ b, !a));
        prop_assert_eq!((x == y, x < y, x.partial_cmp(&y)), (a == b, a < b, a.partial_cmp(&b)));
        prop_assert_eq!((x == b, x < b, x >= b), (a == b, a < b, a >= b));
    }
}

#[test]
fn formatting_is_the_backing_types() {
    let v = Bounded::<u32, 12>::new::<0xabc>();
    assert_eq!(format!("{v}"), "2748");
    assert_eq!(format!("{v:>8}|{v:<6}|{v:+}"), "    2748|2748  |+2748");
    assert_eq!(
        format!("{v:x} {v:X} {v:#x} {v:08x}"),
        "abc ABC 0xabc 00000abc"
    );
    assert_eq!(format!("{v:o} {v:#o}"), "5274 0o5274");
    assert_eq!(format!("{v:b}"), "101010111100");
    assert_eq!(format!("{v:e} {v:E}"), "2.748e3 2.748E3");
    assert_eq!(
        format!("{v:?} {v:#x?}"),
        "Bounded(2748) Bounded(\n    0xabc,\n)"
    );
    let n = Bounded::<i8, 4>::new::<{ -8 }>();
    assert_eq!(format!("{n} {n:x} {n:?}"), "-8 f8 Bounded(-8)");
}

#[test]
fn hash_is_the_backing_types() {
    fn hash_of<T: Hash>(value: T) -> u64 {
        let mut hasher = DefaultHasher::new();
        value.hash(&mut hasher);
        hasher.finish()
    }
    assert_eq!(
        hash_of(Bounded::<u64, 40>::new::<12345>()),
        hash_of(12345_u64)
    );
    assert_eq!(hash_of(Bounded::<i16, 3>::new::<{ -4 }>()), hash_of(-4_i16));
}

#[test]
fn layout_is_the_backing_types() {
    assert_eq!(size_of::<Bounded<u8, 3>>(), 1);
    assert_eq!(size_of::<Bounded<u64, 33>>(), 8);
    assert_eq!(align_of::<Bounded<u128, 100>>(), align_of::<u128>());
    assert_eq!(size_of::<Option<Bounded<u32, 4>>>(), 8);
}
