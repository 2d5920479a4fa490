// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Differential tests of `kernel_core::ptr` against Linux 7.3's own `kernel::ptr`
//! (`linux7_3::ptr`, the kernel's `rust/kernel/ptr.rs` built on the host).
//!
//! kernel-core promises the same `Alignment`, `Alignable`, `const_align_up` and `KnownSize` as
//! the kernel, with the same results. These tests build every power-of-two `Alignment` of the
//! target on both sides (with `new::<N>()` and `new_checked`), compare every public function of
//! it, `new_checked` on non-powers of two, `align_down`/`align_up` for each unsigned type at the
//! ends of its range and around every alignment, `const_align_up` likewise, `Alignment::of` and
//! `KnownSize` for sized types, arrays, an over-aligned struct and slices (including slice
//! lengths whose byte size overflows), plus random values.

#[macro_use]
mod common;

use std::hash::{DefaultHasher, Hash, Hasher};

use common::same;
use kernel_core::ptr as kc;
use linux7_3::ptr as lx;
use proptest::prelude::*;

fn hash_of(value: impl Hash) -> u64 {
    let mut hasher = DefaultHasher::new();
    value.hash(&mut hasher);
    hasher.finish()
}

/// Every public function of an alignment, on both sides.
fn check_alignment(ours: kc::Alignment, theirs: lx::Alignment) {
    let what = theirs.as_usize();
    assert_eq!(ours.as_usize(), theirs.as_usize(), "as_usize of {what}");
    assert_eq!(
        ours.as_nonzero(),
        theirs.as_nonzero(),
        "as_nonzero of {what}"
    );
    assert_eq!(ours.log2(), theirs.log2(), "log2 of {what}");
    assert_eq!(ours.mask(), theirs.mask(), "mask of {what}");
    assert_eq!(
        format!("{ours:?}"),
        format!("{theirs:?}"),
        "{{:?}} of {what}"
    );
    assert_eq!(hash_of(ours), hash_of(theirs), "hash of {what}");
}

/// `Alignment::new::<N>()` for every `1 << shift` given, compared with `new_checked`.
macro_rules! check_new {
    ($($shift:literal)*) => {$(
        let ours = kc::Alignment::new::<{ 1usize << $shift }>();
        let theirs = lx::Alignment::new::<{ 1usize << $shift }>();
        check_alignment(ours, theirs);
        assert_eq!(Some(ours), kc::Alignment::new_checked(1 << $shift));
        assert_eq!(Some(theirs), lx::Alignment::new_checked(1 << $shift));
    )*};
}

#[test]
fn new_every_power_of_two() {
    check_new!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31);
    #[cfg(target_pointer_width = "64")]
    {
        check_new!(32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63);
    }
}

/// Every power of two of `usize`, as both sides' alignments.
fn alignments() -> impl Iterator<Item = (kc::Alignment, lx::Alignment)> {
    (0..usize::BITS).map(|shift| {
        let align = 1usize << shift;
        (
            kc::Alignment::new_checked(align).expect("a power of two"),
            lx::Alignment::new_checked(align).expect("a power of two"),
        )
    })
}

fn check_new_checked(value: usize) {
    assert_eq!(
        kc::Alignment::new_checked(value).map(kc::Alignment::as_usize),
        lx::Alignment::new_checked(value).map(lx::Alignment::as_usize),
        "new_checked({value:#x})"
    );
}

#[test]
fn new_checked_edges() {
    for (ours, theirs) in alignments() {
        check_alignment(ours, theirs);
    }
    for shift in 0..usize::BITS {
        let power = 1usize << shift;
        for value in [power - 1, power, power + 1, power.wrapping_neg(), !power] {
            check_new_checked(value);
        }
    }
    for value in [0, 3, 5, 6, 7, 12, usize::MAX - 1, usize::MAX] {
        check_new_checked(value);
    }
}

/// Both sides' alignments compare the same, as each other's order.
#[test]
fn alignment_order() {
    for (a, (ours_a, theirs_a)) in alignments().enumerate() {
        for (b, (ours_b, theirs_b)) in alignments().enumerate() {
            assert_eq!(ours_a.cmp(&ours_b), theirs_a.cmp(&theirs_b), "{a} cmp {b}");
            assert_eq!(ours_a.partial_cmp(&ours_b), theirs_a.partial_cmp(&theirs_b));
            assert_eq!(ours_a == ours_b, theirs_a == theirs_b);
        }
    }
}

/// Values worth aligning for a type of `bits` bits and an alignment `align`: the ends of the
/// type's range and the neighbourhoods of the alignment's multiples near them.
fn values(bits: u32, align: u128) -> Vec<u128> {
    let max = u128::MAX >> (128 - bits);
    let mut values = vec![0, 1, 2, max - 1, max];
    for base in [
        align,
        2 * align,
        max.wrapping_sub(align),
        max - (max % align),
    ] {
        values.extend([base.wrapping_sub(1), base, base.wrapping_add(1)]);
    }
    values.retain(|value| *value <= max);
    values
}

/// `align_down` and `align_up` for `$t`, on `value` and every alignment on both sides.
macro_rules! check_alignable {
    ($t:ty, $value:expr) => {{
        let value: $t = $value;
        for (ours, theirs) in alignments() {
            assert_eq!(
                <$t as kc::Alignable>::align_down(value, ours),
                <$t as lx::Alignable>::align_down(value, theirs),
                "{value:#x}_{}.align_down({:#x})",
                stringify!($t),
                theirs.as_usize(),
            );
            assert_eq!(
                <$t as kc::Alignable>::align_up(value, ours),
                <$t as lx::Alignable>::align_up(value, theirs),
                "{value:#x}_{}.align_up({:#x})",
                stringify!($t),
                theirs.as_usize(),
            );
        }
    }};
}

#[test]
fn alignable_edges() {
    macro_rules! for_types {
        ($($t:ty),*) => {$(
            for shift in 0..usize::BITS {
                for value in values(<$t>::BITS, 1u128 << shift) {
                    check_alignable!($t, <$t>::try_from(value).expect("in range"));
                }
            }
        )*};
    }
    for_types!(u8, u16, u32, u64, usize);
}

fn check_const_align_up(value: usize) {
    for (ours, theirs) in alignments() {
        assert_eq!(
            kc::const_align_up(value, ours),
            lx::const_align_up(value, theirs),
            "const_align_up({value:#x}, {:#x})",
            theirs.as_usize(),
        );
    }
}

#[test]
fn const_align_up_edges() {
    for shift in 0..usize::BITS {
        for value in values(usize::BITS, 1u128 << shift) {
            check_const_align_up(usize::try_from(value).expect("in range"));
        }
    }
}

/// `const_align_up` and the `const fn`s of `Alignment` are usable in constants on both sides.
#[test]
fn const_fns() {
    const OURS: (Option<usize>, Option<usize>, usize, u32, usize, usize) = (
        kc::const_align_up(0x4f, kc::Alignment::new::<16>()),
        kc::const_align_up(usize::MAX, kc::Alignment::new::<2>()),
        kc::Alignment::of::<u64>().as_usize(),
        kc::Alignment::new::<4096>().log2(),
        kc::Alignment::new::<4096>().mask(),
        kc::Alignment::new::<8>().as_nonzero().get(),
    );
    const THEIRS: (Option<usize>, Option<usize>, usize, u32, usize, usize) = (
        lx::const_align_up(0x4f, lx::Alignment::new::<16>()),
        lx::const_align_up(usize::MAX, lx::Alignment::new::<2>()),
        lx::Alignment::of::<u64>().as_usize(),
        lx::Alignment::new::<4096>().log2(),
        lx::Alignment::new::<4096>().mask(),
        lx::Alignment::new::<8>().as_nonzero().get(),
    );
    const OUR_CHECKED: Option<kc::Alignment> = kc::Alignment::new_checked(32);
    const THEIR_CHECKED: Option<lx::Alignment> = lx::Alignment::new_checked(32);
    assert_eq!(OURS, THEIRS);
    assert_eq!(
        OUR_CHECKED.map(kc::Alignment::as_usize),
        THEIR_CHECKED.map(lx::Alignment::as_usize)
    );
}

#[test]
fn trait_impls() {
    same_std_traits!(kc::Alignment, lx::Alignment);
}

/// A type whose alignment exceeds its size.
#[repr(align(64))]
struct Aligned64 {
    _byte: u8,
}

/// A zero-sized type.
struct Zst;

/// `KnownSize` and `Alignment::of` for a sized type, on both sides.
macro_rules! check_sized {
    ($($t:ty),*) => {$(
        assert_eq!(
            <$t as kc::KnownSize>::MIN_SIZE,
            <$t as lx::KnownSize>::MIN_SIZE,
            "MIN_SIZE of {}", stringify!($t),
        );
        assert_eq!(
            <$t as kc::KnownSize>::MIN_ALIGN.as_usize(),
            <$t as lx::KnownSize>::MIN_ALIGN.as_usize(),
            "MIN_ALIGN of {}", stringify!($t),
        );
        assert_eq!(
            <$t as kc::KnownSize>::size(core::ptr::null::<$t>()),
            <$t as lx::KnownSize>::size(core::ptr::null::<$t>()),
            "size of {}", stringify!($t),
        );
        assert_eq!(
            kc::Alignment::of::<$t>().as_usize(),
            lx::Alignment::of::<$t>().as_usize(),
            "Alignment::of::<{}>()", stringify!($t),
        );
    )*};
}

#[test]
fn known_size_sized() {
    check_sized!(
        u8,
        u16,
        u32,
        u64,
        u128,
        (),
        [u8; 0],
        [u64; 3],
        Aligned64,
        Zst,
        usize,
        char
    );
}

/// Slice lengths: small ones, and those around where the byte size overflows for elements of
/// 1, 4 and 64 bytes.
fn slice_lengths() -> Vec<usize> {
    let mut lengths = vec![0, 1, 2, 3, 1000];
    for size in [1, 4, 64] {
        let edge = usize::MAX / size;
        lengths.extend([
            edge - 1,
            edge,
            edge.saturating_add(1),
            edge.saturating_add(2),
        ]);
    }
    lengths.push(usize::MAX);
    lengths
}

/// `KnownSize` for `[$t]` with `len` elements, on both sides; the size may overflow, which
/// panics with overflow checks and wraps without, on both sides alike.
macro_rules! check_slice {
    ($t:ty, $len:expr) => {{
        let len: usize = $len;
        let slice = core::ptr::slice_from_raw_parts(core::ptr::null::<$t>(), len);
        same(
            &format!("size of [{}] of length {len}", stringify!($t)),
            || <[$t] as kc::KnownSize>::size(slice),
            || <[$t] as lx::KnownSize>::size(slice),
        );
    }};
}

#[test]
fn known_size_slices() {
    macro_rules! for_types {
        ($($t:ty),*) => {$(
            assert_eq!(
                <[$t] as kc::KnownSize>::MIN_SIZE,
                <[$t] as lx::KnownSize>::MIN_SIZE,
                "MIN_SIZE of [{}]", stringify!($t),
            );
            assert_eq!(
                <[$t] as kc::KnownSize>::MIN_ALIGN.as_usize(),
                <[$t] as lx::KnownSize>::MIN_ALIGN.as_usize(),
                "MIN_ALIGN of [{}]", stringify!($t),
            );
            for len in slice_lengths() {
                check_slice!($t, len);
            }
        )*};
    }
    for_types!(u8, u32, Zst, Aligned64, [u8; 0]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1_000))]

    #[test]
    fn new_checked_random(value in any::<usize>(), shift in 0..usize::BITS) {
        check_new_checked(value);
        check_new_checked(1 << shift);
        check_new_checked((1usize << shift) ^ (value & !(1 << shift)));
    }

    #[test]
    fn alignable_random(a in any::<u8>(), b in any::<u16>(), c in any::<u32>(), d in any::<u64>(), e in any::<usize>()) {
        check_alignable!(u8, a);
        check_alignable!(u16, b);
        check_alignable!(u32, c);
        check_alignable!(u64, d);
        check_alignable!(usize, e);
        check_const_align_up(e);
    }

    #[test]
    fn known_size_random(len in any::<usize>(), small in 0..4096_usize) {
        check_slice!(u8, len);
        check_slice!(u32, len);
        check_slice!(u32, small);
        check_slice!(Aligned64, small);
        check_slice!(Zst, len);
    }
}
