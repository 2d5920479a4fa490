// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The edges of `kernel_core::time` that panic, checked on the host only: in the kernel a
//! panic is a crash, not a test result.
//!
//! Overflowing `+`, `-` and `*` on `Delta` panic only where overflow checks are on (debug
//! builds here, `CONFIG_RUST_OVERFLOW_CHECKS=y` in the kernel) and wrap elsewhere, exactly like
//! integer arithmetic and like the kernel's `Delta`. `Instant ± Delta` follows the kernel too:
//! it panics outside `0..=KTIME_MAX` with overflow checks and wraps without them. The other
//! panics (division, remainder) happen in every build.

use kernel_core::extras::time::{fake_clock, FakeClock};
use kernel_core::time::{Delta, Instant};

// Tests run on parallel threads under `cargo test`: the one that needs time 0 gets its own clock.
fake_clock! {
    struct ZeroClock;
}

fn nanos(n: i64) -> Delta {
    Delta::from_nanos(n)
}

#[test]
#[should_panic(expected = "divisor of zero")]
fn rem_nanos_by_zero() {
    let _ = nanos(1).rem_nanos(0);
}

// On 64-bit targets the kernel's `rem_nanos` panics here too: `i64::MIN % -1` overflows. On
// 32-bit ones Linux 7.3 calls `div_s64_rem()`, which gives 0 (checked in `time`'s unit tests).
#[cfg(target_pointer_width = "64")]
#[test]
#[should_panic(expected = "overflow")]
fn rem_nanos_of_min_by_minus_one() {
    let _ = nanos(i64::MIN).rem_nanos(-1);
}

#[test]
#[should_panic(expected = "divide by zero")]
fn division_by_zero() {
    let _ = nanos(1) / Delta::ZERO;
}

// On 32-bit targets Linux 7.3 calls `div64_s64()`, which gives `i64::MIN` (checked in `time`'s
// unit tests).
#[cfg(target_pointer_width = "64")]
#[test]
#[should_panic(expected = "overflow")]
fn division_of_min_by_minus_one() {
    let _ = nanos(i64::MIN) / nanos(-1);
}

#[test]
#[should_panic(expected = "cannot be set before its zero")]
fn fake_clock_before_zero() {
    ZeroClock::set(nanos(-1));
}

#[cfg(debug_assertions)]
mod with_overflow_checks {
    use super::{nanos, FakeClock, Instant, ZeroClock};

    #[test]
    #[should_panic(expected = "overflow")]
    fn add() {
        let _ = nanos(i64::MAX) + nanos(1);
    }

    #[test]
    #[should_panic(expected = "overflow")]
    fn sub() {
        let _ = nanos(i64::MIN) - nanos(1);
    }

    #[test]
    #[should_panic(expected = "overflow")]
    fn mul() {
        let _ = nanos(i64::MAX / 2 + 1) * 2;
    }

    #[test]
    #[should_panic(expected = "overflow")]
    fn instant_above_ktime_max() {
        FakeClock::set(nanos(i64::MAX));
        let _ = Instant::<FakeClock>::now() + nanos(1);
    }

    #[test]
    #[should_panic(expected = "assertion failed: res >= 0")]
    fn instant_below_zero() {
        let _ = Instant::<ZeroClock>::now() - nanos(1);
    }

    #[test]
    #[should_panic(expected = "overflow")]
    fn add_assign() {
        let mut d = nanos(i64::MIN);
        d += nanos(-1);
    }
}

#[cfg(not(debug_assertions))]
mod without_overflow_checks {
    use super::{nanos, FakeClock, Instant, ZeroClock};

    #[test]
    fn operators_wrap() {
        assert_eq!(nanos(i64::MAX) + nanos(1), nanos(i64::MIN));
        assert_eq!(nanos(i64::MIN) - nanos(1), nanos(i64::MAX));
        assert_eq!(nanos(i64::MAX / 2 + 1) * 2, nanos(i64::MIN));
    }

    #[test]
    fn instant_arithmetic_wraps_as_in_the_kernel() {
        FakeClock::set(nanos(i64::MAX));
        let max = Instant::<FakeClock>::now();
        let zero = Instant::<ZeroClock>::now();
        // Out of `0..=KTIME_MAX`, unchecked: the spans show the wrapped values.
        assert_eq!(
            (max + nanos(1)) - max,
            nanos(i64::MIN.wrapping_sub(i64::MAX))
        );
        assert_eq!(zero - (zero - nanos(1)), nanos(1));
    }
}
