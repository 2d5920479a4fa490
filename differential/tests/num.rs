// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Differential tests of `kernel_core::num` and `kernel_core::impl_flags!` against Linux 7.3's
//! own `kernel::num` (`num.rs`, `num/bounded.rs`, `num/casts.rs`) and `impl_flags.rs`, built on
//! the host as `linux7_3::num` and `linux7_3::impl_flags!`.
//!
//! `Bounded::try_new` for every width and every number of bits, with random values and the
//! edges of each bit count; the other constructors and methods, the operators, comparisons,
//! formatting and hashing; which conversions each side implements; every cast function at its
//! limits; `from_expr`'s panic with debug assertions; and every operator of two flag sets made
//! by each side's `impl_flags!`, over every combination of flags.

#[macro_use]
mod common;

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use common::same;
use kernel_core::num as kc;
use linux7_3::num as lx;
use proptest::prelude::*;

/// `try_new($v)` of both sides' `Bounded<$ty, n>`, for a run-time `n` among the listed ones.
macro_rules! by_bits {
    ($n:expr, $ty:ty, $v:expr; $($bits:literal)*) => {
        match $n {
            $($bits => (
                kc::Bounded::<$ty, $bits>::try_new($v).map(kc::Bounded::get),
                lx::Bounded::<$ty, $bits>::try_new($v).map(lx::Bounded::get),
            ),)*
            _ => unreachable!(),
        }
    };
}

/// Values of `$ty`, with the edges of every bit count (powers of two, `MAX >> s`, `MIN >> s`
/// and their neighbours) as often as uniform ones.
macro_rules! edgy {
    ($ty:ident) => {
        prop_oneof![
            any::<$ty>(),
            (0..$ty::BITS, -1..=1_i8)
                .prop_map(|(s, d)| (1 as $ty).wrapping_shl(s).wrapping_add(d as $ty)),
            (0..$ty::BITS, -1..=1_i8)
                .prop_map(|(s, d)| $ty::MAX.wrapping_shr(s).wrapping_add(d as $ty)),
            (0..$ty::BITS, -1..=1_i8)
                .prop_map(|(s, d)| $ty::MIN.wrapping_shr(s).wrapping_add(d as $ty)),
        ]
    };
}

proptest! {
    #[test]
    fn try_new_u8(v in edgy!(u8), n in 1..=u8::BITS) {
        let (ours, theirs) = by_bits!(n, u8, v; 1 2 3 4 5 6 7 8);
        prop_assert_eq!(ours, theirs);
    }

    #[test]
    fn try_new_u16(v in edgy!(u16), n in 1..=u16::BITS) {
        let (ours, theirs) = by_bits!(n, u16, v; 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16);
        prop_assert_eq!(ours, theirs);
    }

    #[test]
    fn try_new_u32(v in edgy!(u32), n in 1..=u32::BITS) {
        let (ours, theirs) = by_bits!(n, u32, v; 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32);
        prop_assert_eq!(ours, theirs);
    }

    #[test]
    fn try_new_u64(v in edgy!(u64), n in 1..=u64::BITS) {
        let (ours, theirs) = by_bits!(n, u64, v; 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64);
        prop_assert_eq!(ours, theirs);
    }

    #[test]
    fn try_new_u128(v in edgy!(u128), n in 1..=u128::BITS) {
        let (ours, theirs) = by_bits!(n, u128, v; 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79 80 81 82 83 84 85 86 87 88 89 90 91 92 93 94 95 96 97 98 99 100 101 102 103 104 105 106 107 108 109 110 111 112 113 114 115 116 117 118 119 120 121 122 123 124 125 126 127 128);
        prop_assert_eq!(ours, theirs);
    }

    #[test]
    fn try_new_i8(v in edgy!(i8), n in 1..=i8::BITS) {
        let (ours, theirs) = by_bits!(n, i8, v; 1 2 3 4 5 6 7 8);
        prop_assert_eq!(ours, theirs);
    }

    #[test]
    fn try_new_i16(v in edgy!(i16), n in 1..=i16::BITS) {
        let (ours, theirs) = by_bits!(n, i16, v; 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16);
        prop_assert_eq!(ours, theirs);
    }

    #[test]
    fn try_new_i32(v in edgy!(i32), n in 1..=i32::BITS) {
        let (ours, theirs) = by_bits!(n, i32, v; 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32);
        prop_assert_eq!(ours, theirs);
    }

    #[test]
    fn try_new_i64(v in edgy!(i64), n in 1..=i64::BITS) {
        let (ours, theirs) = by_bits!(n, i64, v; 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64);
        prop_assert_eq!(ours, theirs);
    }

    #[test]
    fn try_new_i128(v in edgy!(i128), n in 1..=i128::BITS) {
        let (ours, theirs) = by_bits!(n, i128, v; 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79 80 81 82 83 84 85 86 87 88 89 90 91 92 93 94 95 96 97 98 99 100 101 102 103 104 105 106 107 108 109 110 111 112 113 114 115 116 117 118 119 120 121 122 123 124 125 126 127 128);
        prop_assert_eq!(ours, theirs);
    }

    #[test]
    fn try_new_usize(v in edgy!(usize), n in 1..=usize::BITS) {
        #[cfg(target_pointer_width = "64")]
        let (ours, theirs) = by_bits!(n, usize, v; 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64);
        #[cfg(target_pointer_width = "32")]
        let (ours, theirs) = by_bits!(n, usize, v; 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32);
        prop_assert_eq!(ours, theirs);
    }

    #[test]
    fn try_new_isize(v in edgy!(isize), n in 1..=isize::BITS) {
        #[cfg(target_pointer_width = "64")]
        let (ours, theirs) = by_bits!(n, isize, v; 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64);
        #[cfg(target_pointer_width = "32")]
        let (ours, theirs) = by_bits!(n, isize, v; 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32);
        prop_assert_eq!(ours, theirs);
    }

    #[test]
    fn try_into_bounded_from_i128(v in edgy!(i128)) {
        let ours: Option<kc::Bounded<u16, 9>> = kc::TryIntoBounded::try_into_bounded(v);
        let theirs: Option<lx::Bounded<u16, 9>> = lx::TryIntoBounded::try_into_bounded(v);
        prop_assert_eq!(ours.map(|b| b.get()), theirs.map(|b| b.get()));
        let ours: Option<kc::Bounded<i64, 40>> = kc::TryIntoBounded::try_into_bounded(v);
        let theirs: Option<lx::Bounded<i64, 40>> = lx::TryIntoBounded::try_into_bounded(v);
        prop_assert_eq!(ours.map(|b| b.get()), theirs.map(|b| b.get()));
    }

    #[test]
    fn methods_operators_and_formatting(a in any::<i16>(), b in any::<i16>(), u in any::<u16>()) {
        let (x, y) = (kc::Bounded::<i32, 16>::from(a), kc::Bounded::<i32, 17>::from(b));
        let (p, q) = (lx::Bounded::<i32, 16>::from(a), lx::Bounded::<i32, 17>::from(b));
        prop_assert_eq!((x == y, x < y, x.partial_cmp(&y)), (p == q, p < q, p.partial_cmp(&q)));
        prop_assert_eq!((x == 3, x > 3, x.cmp(&x)), (p == 3, p > 3, p.cmp(&p)));
        prop_assert_eq!((x + y, x - y, x * y), (p + q, p - q, p * q));
        prop_assert_eq!((x & y, x | y, x ^ y, -x, !x), (p & q, p | q, p ^ q, -p, !p));
        if b != 0 {
            prop_assert_eq!((x / y, x % y, x / 7, x % 7), (p / q, p % q, p / 7, p % 7));
        }
        prop_assert_eq!((x + 1, x - 1, x * 2, x & 5, x | 5, x ^ 5), (p + 1, p - 1, p * 2, p & 5, p | 5, p ^ 5));
        prop_assert_eq!(x.shr::<4, 12>().get(), p.shr::<4, 12>().get());
        prop_assert_eq!(x.shr_exact::<4, 12>().map(|v| v.get()), p.shr_exact::<4, 12>().map(|v| v.get()));
        prop_assert_eq!(x.shl::<8, 24>().get(), p.shl::<8, 24>().get());
        prop_assert_eq!(x.try_shrink::<9>().map(|v| v.get()), p.try_shrink::<9>().map(|v| v.get()));
        prop_assert_eq!(x.extend::<32>().get(), p.extend::<32>().get());
        prop_assert_eq!(x.cast::<i16>().get(), p.cast::<i16>().get());
        prop_assert_eq!(i16::from(x), i16::from(p));
        prop_assert_eq!(*x, *p);
        let (x, p) = (kc::Bounded::<u64, 16>::from(u), lx::Bounded::<u64, 16>::from(u));
        prop_assert_eq!(
            format!("{x} {x:5} {x:x} {x:#X} {x:o} {x:b} {x:e} {x:E} {x:?} {x:#x?}"),
            format!("{p} {p:5} {p:x} {p:#X} {p:o} {p:b} {p:e} {p:E} {p:?} {p:#x?}")
        );
        prop_assert_eq!(hash_of(x), hash_of(p));
        prop_assert_eq!(u16::from(x), u16::from(p));
        prop_assert_eq!(x.shr_exact::<3, 13>().map(|v| v.get()), p.shr_exact::<3, 13>().map(|v| v.get()));
    }
}

fn hash_of<T: Hash>(value: T) -> u64 {
    let mut hasher = DefaultHasher::new();
    value.hash(&mut hasher);
    hasher.finish()
}

#[test]
fn constants_and_defaults() {
    assert_eq!(
        kc::Bounded::<u8, 4>::new::<15>().get(),
        lx::Bounded::<u8, 4>::new::<15>().get()
    );
    assert_eq!(
        kc::Bounded::<i8, 4>::new::<{ -8 }>().get(),
        lx::Bounded::<i8, 4>::new::<{ -8 }>().get()
    );
    assert_eq!(
        kc::Bounded::<isize, { isize::BITS }>::new::<{ isize::MIN }>().get(),
        lx::Bounded::<isize, { isize::BITS }>::new::<{ isize::MIN }>().get()
    );
    assert_eq!(
        kc::Bounded::<u64, 3>::default().get(),
        lx::Bounded::<u64, 3>::default().get()
    );
    assert_eq!(
        kc::Bounded::<u32, 8>::from_expr(0xff).get(),
        lx::Bounded::<u32, 8>::from_expr(0xff).get()
    );
    assert_eq!(
        bool::from(kc::Bounded::<u8, 1>::new::<1>()),
        bool::from(lx::Bounded::<u8, 1>::new::<1>())
    );
    assert_eq!(
        kc::Bounded::<u8, 1>::new::<0>().into_bool(),
        lx::Bounded::<u8, 1>::new::<0>().into_bool()
    );
    assert_eq!(
        kc::Bounded::<u16, 5>::from(true).get(),
        lx::Bounded::<u16, 5>::from(true).get()
    );
    // `usize` has 64 bits on 64-bit targets only.
    const USIZE_BITS: u32 = usize::BITS;
    assert_eq!(
        kc::Bounded::<usize, USIZE_BITS>::from(usize::MAX).get(),
        lx::Bounded::<usize, USIZE_BITS>::from(usize::MAX).get()
    );
    assert_eq!(<i128 as kc::Integer>::BITS, <i128 as lx::Integer>::BITS);
    assert_eq!(<usize as kc::Integer>::BITS, <usize as lx::Integer>::BITS);
}

/// Which conversions and traits each side implements, where the rules are subtle: the widening
/// `From`s need the same signedness and between 8 and 64 bits, the narrowing ones at most the
/// target's bits; `bool` only for unsigned types.
#[test]
fn the_same_conversions_exist() {
    // `$p` into `Bounded<$t, N>` and back, for each `N`, on both sides.
    macro_rules! same_from {
        ($p:ty, $t:ty; $($n:literal)*) => {$(
            let ours = implements!(kc::Bounded<$t, $n>: From<$p>);
            assert_eq!(ours, implements!(lx::Bounded<$t, $n>: From<$p>), "{} into Bounded<{}, {}>", stringify!($p), stringify!($t), $n);
            let ours = implements!($p: From<kc::Bounded<$t, $n>>);
            assert_eq!(ours, implements!($p: From<lx::Bounded<$t, $n>>), "Bounded<{}, {}> into {}", stringify!($t), $n, stringify!($p));
        )*};
    }
    macro_rules! every_pair {
        ($($p:ty)*; $t:tt) => {$(
            same_from!($p, $t; 1 7 8 9 15 16 17 31 32 33 63 64);
        )*};
    }
    every_pair!(u8 u16 u32 u64 usize i8 i16 i32 i64 isize bool; u64);
    every_pair!(u8 u16 u32 u64 usize i8 i16 i32 i64 isize bool; i64);
    every_pair!(u8 u16 u32 u64 usize i8 i16 i32 i64 isize bool; u128);
    every_pair!(u8 u16 u32 u64 usize i8 i16 i32 i64 isize bool; i128);
    same_from!(u8, u8; 1 7 8);
    same_from!(bool, u8; 1 2 8);
    same_from!(bool, i8; 1 2 8);
    same_from!(u16, u32; 15 16 17 32);
    // Not vacuous: some exist and some do not.
    assert!(implements!(kc::Bounded<u64, 8>: From<u8>));
    assert!(!implements!(kc::Bounded<u64, 7>: From<u8>));
    assert!(!implements!(kc::Bounded<u128, 100>: From<u64>));
    assert!(implements!(u8: From<kc::Bounded<u64, 8>>));
    assert!(!implements!(u8: From<kc::Bounded<u64, 9>>));
    assert!(!implements!(bool: From<kc::Bounded<i8, 1>>));
    assert!(!implements!(kc::Bounded<i8, 2>: From<bool>));
    // The standard traits of the type.
    assert_eq!(
        std_traits!(kc::Bounded<u32, 5>),
        std_traits!(lx::Bounded<u32, 5>)
    );
    assert_eq!(
        std_traits!(kc::Bounded<i128, 128>),
        std_traits!(lx::Bounded<i128, 128>)
    );
}

#[test]
fn casts_at_their_limits() {
    use kc::casts as k;
    use lx::casts as l;
    for v in [0, 1, u8::MAX / 2, u8::MAX] {
        assert_eq!(k::u8_as_u16(v), l::u8_as_u16(v));
        assert_eq!(k::u8_as_u32(v), l::u8_as_u32(v));
        assert_eq!(k::u8_as_u64(v), l::u8_as_u64(v));
        assert_eq!(k::u8_as_usize(v), l::u8_as_usize(v));
    }
    for v in [0, 1, u16::MAX / 2, u16::MAX] {
        assert_eq!(k::u16_as_u32(v), l::u16_as_u32(v));
        assert_eq!(k::u16_as_u64(v), l::u16_as_u64(v));
        assert_eq!(k::u16_as_usize(v), l::u16_as_usize(v));
    }
    for v in [0, 1, u32::MAX / 2, u32::MAX] {
        assert_eq!(k::u32_as_u64(v), l::u32_as_u64(v));
        assert_eq!(k::u32_as_usize(v), l::u32_as_usize(v));
        assert_eq!(
            <usize as k::FromSafeCast<u32>>::from_safe_cast(v),
            <usize as l::FromSafeCast<u32>>::from_safe_cast(v)
        );
        let (a, b): (usize, usize) = (
            k::IntoSafeCast::into_safe_cast(v),
            l::IntoSafeCast::into_safe_cast(v),
        );
        assert_eq!(a, b);
    }
    for v in [0, 1, usize::MAX / 2, usize::MAX] {
        assert_eq!(k::usize_as_u64(v), l::usize_as_u64(v));
        assert_eq!(
            <u64 as k::FromSafeCast<usize>>::from_safe_cast(v),
            <u64 as l::FromSafeCast<usize>>::from_safe_cast(v)
        );
    }
    #[cfg(target_pointer_width = "64")]
    for v in [0, 1, u64::MAX] {
        assert_eq!(k::arch::u64_as_usize(v), l::arch::u64_as_usize(v));
        assert_eq!(
            <usize as k::arch::FromSafeCastArch<u64>>::from_safe_cast_arch(v),
            <usize as l::arch::FromSafeCastArch<u64>>::from_safe_cast_arch(v)
        );
    }
    assert_eq!(k::usize_into_u8::<0xff>(), l::usize_into_u8::<0xff>());
    assert_eq!(k::usize_into_u16::<0xffff>(), l::usize_into_u16::<0xffff>());
    assert_eq!(
        k::usize_into_u32::<0xffff_ffff>(),
        l::usize_into_u32::<0xffff_ffff>()
    );
    assert_eq!(k::u64_into_u8::<0>(), l::u64_into_u8::<0>());
    assert_eq!(k::u64_into_u16::<0xffff>(), l::u64_into_u16::<0xffff>());
    assert_eq!(
        k::u64_into_u32::<0xffff_ffff>(),
        l::u64_into_u32::<0xffff_ffff>()
    );
    assert_eq!(k::u32_into_u8::<0xff>(), l::u32_into_u8::<0xff>());
    assert_eq!(k::u32_into_u16::<0x8000>(), l::u32_into_u16::<0x8000>());
    assert_eq!(k::u16_into_u8::<0x80>(), l::u16_into_u8::<0x80>());
}

/// With debug assertions, `from_expr` with a value that does not fit panics on both sides, with
/// the same message. (Without them, the call would fail the link, by design.)
#[cfg(debug_assertions)]
#[test]
fn from_expr_panics_alike() {
    use std::hint::black_box;
    for v in [16_u32, 17, u32::MAX] {
        same(
            &format!("Bounded::<u32, 4>::from_expr({v})"),
            || kc::Bounded::<u32, 4>::from_expr(black_box(v)).get(),
            || lx::Bounded::<u32, 4>::from_expr(black_box(v)).get(),
        );
    }
    for v in [-9_i8, 8, i8::MIN, i8::MAX] {
        same(
            &format!("Bounded::<i8, 4>::from_expr({v})"),
            || kc::Bounded::<i8, 4>::from_expr(black_box(v)).get(),
            || lx::Bounded::<i8, 4>::from_expr(black_box(v)).get(),
        );
    }
}

kernel_core::impl_flags!(
    /// kernel-core's set.
    #[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
    pub struct OurSet(u8);

    /// kernel-core's flag.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum OurFlag {
        /// Bit 0.
        A = 1 << 0,
        /// Bits 2 and 3.
        B = 0b1100,
        /// Bit 7.
        C = 1 << 7,
    }
);

linux7_3::impl_flags!(
    /// Linux 7.3's set.
    #[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
    pub struct TheirSet(u8);

    /// Linux 7.3's flag.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum TheirFlag {
        /// Bit 0.
        A = 1 << 0,
        /// Bits 2 and 3.
        B = 0b1100,
        /// Bit 7.
        C = 1 << 7,
    }
);

/// Every operator and method of `impl_flags!`, on every pair of sets (all 8 unions of flags)
/// and every flag; the multi-bit flag `B` checks that `contains` wants all of its bits.
#[test]
fn impl_flags_alike() {
    let ours = [OurFlag::A, OurFlag::B, OurFlag::C];
    let theirs = [TheirFlag::A, TheirFlag::B, TheirFlag::C];
    let our_set = |mask: u8| {
        (0..3)
            .filter(|i| mask & (1 << i) != 0)
            .fold(OurSet::empty(), |s, i| s | ours[i])
    };
    let their_set = |mask: u8| {
        (0..3)
            .filter(|i| mask & (1 << i) != 0)
            .fold(TheirSet::empty(), |s, i| s | theirs[i])
    };
    assert_eq!(OurSet::all_bits(), TheirSet::all_bits());
    assert_eq!(u8::from(OurSet::default()), u8::from(TheirSet::default()));
    // A set with bits no flag names, made through `From<u8>`-free paths: only `|` of flags.
    for m in 0..8 {
        let (o, t) = (our_set(m), their_set(m));
        assert_eq!(u8::from(o), u8::from(t));
        assert_eq!(u8::from(!o), u8::from(!t));
        for i in 0..3 {
            let (f, g) = (ours[i], theirs[i]);
            assert_eq!(o.contains(f), t.contains(g));
            assert_eq!(u8::from(o | f), u8::from(t | g));
            assert_eq!(u8::from(o & f), u8::from(t & g));
            assert_eq!(u8::from(o ^ f), u8::from(t ^ g));
            assert_eq!(u8::from(!f), u8::from(!g));
            assert_eq!(u8::from(OurSet::from(f)), u8::from(TheirSet::from(g)));
            for j in 0..3 {
                assert_eq!(u8::from(f | ours[j]), u8::from(g | theirs[j]));
                assert_eq!(u8::from(f & ours[j]), u8::from(g & theirs[j]));
                assert_eq!(u8::from(f ^ ours[j]), u8::from(g ^ theirs[j]));
            }
            let (mut o2, mut t2) = (o, t);
            o2 |= f;
            t2 |= g;
            assert_eq!(u8::from(o2), u8::from(t2));
            o2 &= f;
            t2 &= g;
            assert_eq!(u8::from(o2), u8::from(t2));
            o2 ^= f;
            t2 ^= g;
            assert_eq!(u8::from(o2), u8::from(t2));
        }
        for n in 0..8 {
            let (p, q) = (our_set(n), their_set(n));
            assert_eq!(u8::from(o | p), u8::from(t | q));
            assert_eq!(u8::from(o & p), u8::from(t & q));
            assert_eq!(u8::from(o ^ p), u8::from(t ^ q));
            assert_eq!(o.contains_any(p), t.contains_any(q));
            assert_eq!(o.contains_all(p), t.contains_all(q));
            assert_eq!(o == p, t == q);
            let (mut o2, mut t2) = (o, t);
            o2 ^= p;
            t2 ^= q;
            o2 &= p;
            t2 &= q;
            o2 |= p;
            t2 |= q;
            assert_eq!(u8::from(o2), u8::from(t2));
        }
    }
    assert_eq!(OurFlag::B as u8, TheirFlag::B as u8);
    assert_eq!(size_of::<OurSet>(), size_of::<TheirSet>());
    assert_eq!(size_of::<OurFlag>(), size_of::<TheirFlag>());
}
