// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Differential tests of `kernel_core::bits` against Linux 7.3's own `kernel::bits`
//! (`linux7_3::bits`, the kernel's `rust/kernel/bits.rs` built on the host).
//!
//! kernel-core promises the same functions, with the same signatures, `const fn`-ness and
//! results. These tests check that kernel-core has every function the kernel's file declares
//! (`build.rs` lists them from its text), with the same signature on both sides; that the
//! `const fn`s are usable in constants on both sides; and compare every function for every
//! position from 0 to 200 and around `u32::MAX`, every range of two such positions, ranges that
//! an iterator moved or used up, and random values. The build-time checked functions are called
//! only where their assertions hold, behind a test the optimizer sees, so that optimized builds
//! link; with debug assertions the failing calls are compared too: both sides panic, with the
//! same message (the kernel's `CONFIG_RUST_BUILD_ASSERT_ALLOW=y` behaviour). Run them with and
//! without debug assertions (`cargo test` and `cargo test --release`).

#[macro_use]
mod common;

use core::ops::RangeInclusive;

use common::same;
use kernel_core::bits as kc;
use linux7_3::bits as lx;
use proptest::prelude::*;

include!(concat!(env!("OUT_DIR"), "/bits_declared.rs"));

/// Positions: 0 to 200 (every position of every width and well past it) and the top of `u32`.
fn positions() -> Vec<u32> {
    let mut positions: Vec<u32> = (0..=200).collect();
    positions.extend([
        255,
        256,
        (1 << 31) - 1,
        1 << 31,
        u32::MAX - 64,
        u32::MAX - 63,
        u32::MAX - 1,
        u32::MAX,
    ]);
    positions
}

/// Calls `$callback!` with the type and the four function names of every width.
macro_rules! with_widths {
    ($callback:ident $(, $arg:expr)*) => {
        $callback!(u8, bit_u8, checked_bit_u8, genmask_u8, genmask_checked_u8 $(, $arg)*);
        $callback!(u16, bit_u16, checked_bit_u16, genmask_u16, genmask_checked_u16 $(, $arg)*);
        $callback!(u32, bit_u32, checked_bit_u32, genmask_u32, genmask_checked_u32 $(, $arg)*);
        $callback!(u64, bit_u64, checked_bit_u64, genmask_u64, genmask_checked_u64 $(, $arg)*);
    };
}

/// Compares both sides at position `$n`: `checked_bit_*` always, `bit_*` where it holds.
macro_rules! check_bit {
    ($ty:ty, $bit:ident, $checked_bit:ident, $genmask:ident, $genmask_checked:ident, $n:expr) => {{
        let n: u32 = $n;
        let what = format!("{}({n})", stringify!($checked_bit));
        same(&what, || kc::$checked_bit(n), || lx::$checked_bit(n));
        // The test is seen by the optimizer, which then proves both assertions.
        if n < <$ty>::BITS {
            assert_eq!(kc::$bit(n), lx::$bit(n), "{}({n})", stringify!($bit));
        }
    }};
}

/// Compares both sides for `$start..=$end`: `genmask_checked_*` always, `genmask_*` where it
/// holds.
macro_rules! check_genmask {
    ($ty:ty, $bit:ident, $checked_bit:ident, $genmask:ident, $genmask_checked:ident, $range:expr) => {{
        let (start, end): (u32, u32) = $range;
        let what = format!("{}({start}..={end})", stringify!($genmask_checked));
        same(
            &what,
            || kc::$genmask_checked(start..=end),
            || lx::$genmask_checked(start..=end),
        );
        if start <= end && end < <$ty>::BITS {
            assert_eq!(
                kc::$genmask(start..=end),
                lx::$genmask(start..=end),
                "{}({start}..={end})",
                stringify!($genmask)
            );
        }
    }};
}

/// Every function the kernel's `bits.rs` declares, for every width it declares them for, is
/// covered here: the templates and the invocations, as `build.rs` read them.
#[test]
fn covers_every_declared_function() {
    let mut declared = BITS_DECLARED.to_vec();
    declared.sort();
    assert_eq!(
        declared,
        [
            ("bit_", true),
            ("checked_bit_", false),
            ("genmask_", true),
            ("genmask_checked_", false),
        ],
        "the functions of Linux 7.3's bits.rs (left), as (name prefix, const fn)"
    );
    let mut widths = BITS_WIDTHS.to_vec();
    widths.sort();
    let mut covered = Vec::new();
    for mac in ["impl_bit_fn", "impl_genmask_fn"] {
        for ty in ["u16", "u32", "u64", "u8"] {
            covered.push((mac, ty));
        }
    }
    assert_eq!(widths, covered, "the widths of Linux 7.3's bits.rs (left)");
}

/// The same signatures on both sides: each function coerces to the same function pointer type.
#[test]
fn signatures() {
    macro_rules! same_signatures {
        ($ty:ty, $bit:ident, $checked_bit:ident, $genmask:ident, $genmask_checked:ident) => {{
            let _: [fn(u32) -> $ty; 2] = [kc::$bit, lx::$bit];
            let _: [fn(u32) -> Option<$ty>; 2] = [kc::$checked_bit, lx::$checked_bit];
            let _: [fn(RangeInclusive<u32>) -> $ty; 2] = [kc::$genmask, lx::$genmask];
            let _: [fn(RangeInclusive<u32>) -> Option<$ty>; 2] =
                [kc::$genmask_checked, lx::$genmask_checked];
        }};
    }
    with_widths!(same_signatures);
}

/// The functions that are `const fn` in Linux 7.3 are usable in constants on both sides, with
/// the same values, at every position and for every range.
#[test]
fn const_fns() {
    macro_rules! tables {
        ($side:ident, $ty:ty, $bit:ident, $genmask:ident) => {{
            const BITS: usize = <$ty>::BITS as usize;
            const TABLE: ([$ty; BITS], [[$ty; BITS]; BITS]) = {
                let mut bits = [0; BITS];
                let mut masks = [[0; BITS]; BITS];
                let mut end = 0;
                while end < BITS {
                    bits[end] = $side::$bit(end as u32);
                    let mut start = 0;
                    while start <= end {
                        masks[start][end] = $side::$genmask(start as u32..=end as u32);
                        start += 1;
                    }
                    end += 1;
                }
                (bits, masks)
            };
            TABLE
        }};
    }
    macro_rules! compare {
        ($ty:ty, $bit:ident, $checked_bit:ident, $genmask:ident, $genmask_checked:ident) => {{
            assert_eq!(
                tables!(kc, $ty, $bit, $genmask),
                tables!(lx, $ty, $bit, $genmask),
                "{} and {} in constants",
                stringify!($bit),
                stringify!($genmask)
            );
        }};
    }
    with_widths!(compare);
}

#[test]
fn every_position() {
    for n in positions() {
        with_widths!(check_bit, n);
    }
}

#[test]
fn every_range() {
    let positions = positions();
    for &start in &positions {
        for &end in &positions {
            with_widths!(check_genmask, (start, end));
        }
    }
}

/// Ranges that an iterator moved or used up: only `start()` and `end()` count on both sides.
#[test]
fn iterated_ranges() {
    macro_rules! check {
        ($ty:ty, $bit:ident, $checked_bit:ident, $genmask:ident, $genmask_checked:ident) => {{
            for (start, end, steps) in [(0, 7, 1), (2, 5, 3), (2, 5, 4), (7, 7, 1), (0, 0, 1)] {
                let mut range = start..=end;
                for _ in 0..steps {
                    range.next();
                }
                same(
                    &format!(
                        "{}({start}..={end}) after {steps} steps",
                        stringify!($genmask_checked)
                    ),
                    || kc::$genmask_checked(range.clone()),
                    || lx::$genmask_checked(range.clone()),
                );
                let (moved_start, moved_end) = (*range.start(), *range.end());
                if moved_start <= moved_end && moved_end < <$ty>::BITS {
                    assert_eq!(
                        kc::$genmask(range.clone()),
                        lx::$genmask(range.clone()),
                        "{}({start}..={end}) after {steps} steps",
                        stringify!($genmask)
                    );
                }
            }
        }};
    }
    with_widths!(check);
}

/// With debug assertions, a build-time checked call reached with a failing input panics on
/// both sides, with the same message: the condition that failed, checked in the same order.
/// (Without them, the calls would fail the link, by design.)
#[cfg(debug_assertions)]
#[test]
fn failing_assertions_panic_alike() {
    use std::hint::black_box;

    macro_rules! check {
        ($ty:ty, $bit:ident, $checked_bit:ident, $genmask:ident, $genmask_checked:ident) => {{
            let width = <$ty>::BITS;
            for n in [width, width + 1, 64, 65, 200, u32::MAX] {
                same(
                    &format!("{}({n})", stringify!($bit)),
                    || kc::$bit(black_box(n)),
                    || lx::$bit(black_box(n)),
                );
            }
            for (start, end) in [
                (1, 0),
                (width - 1, 0),
                (width, width - 1),
                (0, width),
                (width, width),
                (width + 5, width + 2),
                (u32::MAX, 0),
                (0, u32::MAX),
                (u32::MAX, u32::MAX),
            ] {
                same(
                    &format!("{}({start}..={end})", stringify!($genmask)),
                    || kc::$genmask(black_box(start)..=black_box(end)),
                    || lx::$genmask(black_box(start)..=black_box(end)),
                );
            }
        }};
    }
    with_widths!(check);
    // The messages are the kernel's conditions, not anything kernel-core made up.
    let message = common::outcome(|| kc::bit_u8(black_box(8)));
    let common::Outcome::Panic(message) = message else {
        panic!("bit_u8(8) returned: {message:?}");
    };
    assert_eq!(message.replace(' ', ""), "assertionfailed:n<<u8>::BITS");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(5_000))]

    #[test]
    fn bit_random(n in any::<u32>(), small in 0..80_u32) {
        with_widths!(check_bit, n);
        with_widths!(check_bit, small);
    }

    #[test]
    fn genmask_random(
        start in any::<u32>(),
        end in any::<u32>(),
        small_start in 0..80_u32,
        small_end in 0..80_u32,
    ) {
        with_widths!(check_genmask, (start, end));
        with_widths!(check_genmask, (small_start, small_end));
        with_widths!(check_genmask, (small_start, end));
        with_widths!(check_genmask, (start, small_end));
    }
}
