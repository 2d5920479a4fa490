// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Property tests: random values against plain 128-bit reference arithmetic.
//!
//! Host only (proptest needs `std`). The fixed edge values live in `suites/`, which also run
//! in the kernel.

// Widening `as` casts are the point of a 128-bit reference, and `usize` has no `From` into
// `u128`, so the macro below could not use `From` for every width.
#![allow(clippy::cast_lossless)]

use kernel_core::extras::time::FakeClock;
use kernel_core::ptr::{const_align_up, Alignable, Alignment};
use kernel_core::time::{Delta, Instant};
use proptest::prelude::*;

/// `align_down`/`align_up` in 128-bit arithmetic, where nothing overflows.
fn reference_align(value: u128, align: u128, max: u128) -> (u128, Option<u128>) {
    let down = value / align * align;
    let up = value.div_ceil(align) * align;
    (down, (up <= max).then_some(up))
}

macro_rules! alignable_property {
    ($name:ident, $ty:ty) => {
        proptest! {
            #[test]
            fn $name(value: $ty, shift in 0..usize::BITS) {
                let align = Alignment::new_checked(1 << shift).unwrap();
                let (down, up) = reference_align(value as u128, 1 << shift, <$ty>::MAX as u128);
                prop_assert_eq!(value.align_down(align) as u128, down);
                prop_assert_eq!(value.align_up(align).map(|v| v as u128), up);
            }
        }
    };
}

alignable_property!(align_u8, u8);
alignable_property!(align_u16, u16);
alignable_property!(align_u32, u32);
alignable_property!(align_u64, u64);
alignable_property!(align_usize, usize);

/// Values near the ends of the range, where the edge cases are, as often as uniform ones.
fn edgy_usize() -> impl Strategy<Value = usize> {
    prop_oneof![
        any::<usize>(),
        (0..4096_usize),
        (0..4096_usize).prop_map(|d| usize::MAX - d)
    ]
}

fn edgy_i64() -> impl Strategy<Value = i64> {
    prop_oneof![
        any::<i64>(),
        (-4096..4096_i64),
        (0..4096_i64).prop_map(|d| i64::MAX - d),
        (0..4096_i64).prop_map(|d| i64::MIN + d),
    ]
}

proptest! {
    #[test]
    fn const_align_up_matches_reference(value in edgy_usize(), shift in 0..usize::BITS) {
        let align = Alignment::new_checked(1 << shift).unwrap();
        let (_, up) = reference_align(value as u128, 1 << shift, usize::MAX as u128);
        prop_assert_eq!(const_align_up(value, align).map(|v| v as u128), up);
    }

    #[test]
    fn new_checked_accepts_exactly_powers_of_two(value: usize) {
        prop_assert_eq!(Alignment::new_checked(value).is_some(), value.count_ones() == 1);
    }

    #[test]
    fn conversions_saturate_like_i128(value in edgy_i64()) {
        let clamp = |n: i128| n.clamp(i64::MIN as i128, i64::MAX as i128) as i64;
        prop_assert_eq!(Delta::from_micros(value).as_nanos(), clamp(value as i128 * 1_000));
        prop_assert_eq!(Delta::from_millis(value).as_nanos(), clamp(value as i128 * 1_000_000));
        prop_assert_eq!(Delta::from_secs(value).as_nanos(), clamp(value as i128 * 1_000_000_000));
    }

    #[test]
    fn roundings_match_i128(value in edgy_i64()) {
        let n = value as i128;
        // Ceiling: the smallest integer k with k * 1000 >= n.
        let ceil = n.div_euclid(1_000) + i128::from(n.rem_euclid(1_000) != 0);
        prop_assert_eq!(Delta::from_nanos(value).as_micros_ceil() as i128, ceil);
        prop_assert_eq!(Delta::from_nanos(value).as_millis() as i128, n / 1_000_000);
    }

    #[test]
    fn rem_nanos_matches_i128(value in edgy_i64(), divisor in any::<i32>().prop_filter("non-zero", |d| *d != 0)) {
        let expected = value as i128 % divisor as i128;
        prop_assert_eq!(Delta::from_nanos(value).rem_nanos(divisor).as_nanos() as i128, expected);
    }

    #[test]
    fn arithmetic_matches_i128_where_it_fits(a in edgy_i64(), b in edgy_i64()) {
        let (x, y) = (Delta::from_nanos(a), Delta::from_nanos(b));
        let fits = |n: i128| i64::try_from(n).ok();
        if let Some(sum) = fits(a as i128 + b as i128) {
            prop_assert_eq!((x + y).as_nanos(), sum);
        }
        if let Some(difference) = fits(a as i128 - b as i128) {
            prop_assert_eq!((x - y).as_nanos(), difference);
        }
        if let Some(product) = fits(a as i128 * b as i128) {
            prop_assert_eq!((x * b).as_nanos(), product);
        }
        if b != 0 {
            if let Some(quotient) = fits(a as i128 / b as i128) {
                prop_assert_eq!(x / y, quotient);
            }
        }
        prop_assert_eq!(x.cmp(&y), a.cmp(&b));
    }

    #[test]
    fn instant_plus_delta_stays_in_range_or_panics(start in 0..=i64::MAX, delta in edgy_i64()) {
        // As in the kernel: out of `0..=KTIME_MAX`, a panic with overflow checks (debug
        // assertions here), a wrapped value without them.
        FakeClock::set(Delta::from_nanos(start));
        let instant = Instant::<FakeClock>::now();
        let expected = start as i128 + delta as i128;
        let result = std::panic::catch_unwind(|| instant + Delta::from_nanos(delta));
        if (0..=i64::MAX as i128).contains(&expected) {
            let moved = result.expect("in range, so no panic");
            prop_assert_eq!((moved - instant).as_nanos() as i128, delta as i128);
        } else if cfg!(debug_assertions) {
            prop_assert!(result.is_err());
        } else {
            let moved = result.expect("overflow checks are off, so it wraps");
            prop_assert_eq!((moved - instant).as_nanos(), (start.wrapping_add(delta)).wrapping_sub(start));
        }
    }
}
