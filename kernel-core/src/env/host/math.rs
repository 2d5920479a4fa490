// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The kernel's 64-bit divisions for 32-bit targets, on the host: what Linux 7.3's `time.rs`
//! calls through `bindings` without `CONFIG_64BIT`, computed as the kernel's C computes it on
//! a 32-bit machine.
//!
//! A 32-bit kernel has no `s64 / s64` in C, and Rust's `i64` division there would call
//! compiler intrinsics the kernel does not provide, so 7.3 calls `div64_s64()`,
//! `div_s64_rem()` (`lib/math/div64.c`), `ktime_to_us()` and `ktime_to_ms()`
//! (`include/linux/ktime.h`, through its Rust helpers) instead. Their results differ from
//! Rust's operators where those overflow: `div64_s64(i64::MIN, -1)` is `i64::MIN` and
//! `div_s64_rem(i64::MIN, -1)` leaves 0, where Rust's `/` and `%` panic. The i686 host build
//! takes these paths, as a 32-bit kernel does; the kernel twin, `env/kernel/math.rs`, calls the
//! kernel's own functions.
//!
//! C's signed negation wraps here (the kernel builds with `-fno-strict-overflow`), and a
//! division by zero, which traps or warns in a kernel, panics with Rust's message.

/// Records the calls of the functions below, per thread, so that kernel-core's unit tests see
/// which path an operation took (`Delta::as_millis` calls `ktime_to_ms` on 32-bit targets
/// only, as in Linux 7.3).
#[cfg(test)]
pub(crate) mod calls {
    extern crate std;

    use core::cell::RefCell;
    use std::vec::Vec;

    std::thread_local! {
        static LOG: RefCell<Vec<&'static str>> = const { RefCell::new(Vec::new()) };
    }

    /// Records a call of `name`.
    pub(crate) fn record(name: &'static str) {
        LOG.with(|log| log.borrow_mut().push(name));
    }

    /// The calls recorded on this thread since the last `take`, oldest first.
    pub(crate) fn take() -> Vec<&'static str> {
        LOG.with(|log| core::mem::take(&mut *log.borrow_mut()))
    }
}

/// Records a call in unit tests; nothing otherwise.
macro_rules! called {
    ($name:literal) => {
        #[cfg(test)]
        calls::record($name);
    };
}

/// `div_u64_rem()` for a non-zero `divisor`: `dividend / divisor`, and the remainder.
///
/// # Panics
///
/// If `divisor` is 0, with the message of Rust's `%`.
#[inline]
fn div_u64_rem(dividend: u64, divisor: u32) -> (u64, u32) {
    let divisor = u64::from(divisor);
    // The remainder first, so that a zero divisor panics as `%` does. The remainder of a
    // division by a `u32` fits in a `u32`.
    let remainder = (dividend % divisor) as u32;
    (dividend / divisor, remainder)
}

/// `div64_s64()` of a 32-bit kernel (`lib/math/div64.c`): the quotient of the magnitudes,
/// with the sign of `dividend ^ divisor`, in two's complement that wraps.
///
/// # Panics
///
/// If `divisor` is 0, with the message of Rust's `/`.
#[inline]
pub(crate) fn div64_s64(dividend: i64, divisor: i64) -> i64 {
    called!("div64_s64");
    if divisor == 0 {
        panic!("attempt to divide by zero");
    }
    let magnitude = dividend.unsigned_abs() / divisor.unsigned_abs();
    let sign = (dividend ^ divisor) >> 63;
    // `(quot ^ t) - t` negates when `t` is -1; `as` keeps the bits, as C's conversion does.
    ((magnitude as i64) ^ sign).wrapping_sub(sign)
}

/// `div_s64_rem()` of a 32-bit kernel (`lib/math/div64.c`): the quotient and the remainder of
/// the magnitudes, each given the sign C gives it (the remainder that of `dividend`).
///
/// # Panics
///
/// If `divisor` is 0, with the message of Rust's `%`.
#[inline]
pub(crate) fn div_s64_rem(dividend: i64, divisor: i32) -> (i64, i32) {
    called!("div_s64_rem");
    let (quotient, remainder) = div_u64_rem(dividend.unsigned_abs(), divisor.unsigned_abs());
    let quotient = quotient as i64;
    let negative = (dividend < 0) != (divisor < 0);
    let quotient = if negative {
        quotient.wrapping_neg()
    } else {
        quotient
    };
    // A remainder below 2^31 in magnitude: `as` keeps it exact, and C negates it as is.
    let remainder = remainder as i32;
    let remainder = if dividend < 0 {
        remainder.wrapping_neg()
    } else {
        remainder
    };
    (quotient, remainder)
}

/// `ktime_divns()` of a 32-bit kernel with a constant divisor (`include/linux/ktime.h`): the
/// magnitude divided by `div` (`do_div()`), given the sign of `kt`.
#[inline]
fn ktime_divns(kt: i64, div: u32) -> i64 {
    let (magnitude, _) = div_u64_rem(kt.unsigned_abs(), div);
    let magnitude = magnitude as i64;
    if kt < 0 {
        magnitude.wrapping_neg()
    } else {
        magnitude
    }
}

/// `ktime_to_us()`: `ktime_divns(kt, NSEC_PER_USEC)`.
#[inline]
pub(crate) fn ktime_to_us(kt: i64) -> i64 {
    called!("ktime_to_us");
    ktime_divns(kt, 1_000)
}

/// `ktime_to_ms()`: `ktime_divns(kt, NSEC_PER_MSEC)`.
#[inline]
pub(crate) fn ktime_to_ms(kt: i64) -> i64 {
    called!("ktime_to_ms");
    ktime_divns(kt, 1_000_000)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn div64_s64_is_c_division_that_wraps() {
        assert_eq!(div64_s64(7, 2), 3);
        assert_eq!(div64_s64(-7, 2), -3);
        assert_eq!(div64_s64(7, -2), -3);
        assert_eq!(div64_s64(-7, -2), 3);
        assert_eq!(div64_s64(i64::MIN, -1), i64::MIN);
        assert_eq!(div64_s64(i64::MIN, 1), i64::MIN);
        assert_eq!(div64_s64(i64::MIN, i64::MIN), 1);
        assert_eq!(div64_s64(i64::MAX, i64::MIN), 0);
        assert_eq!(div64_s64(i64::MIN, 2), i64::MIN / 2);
        for (a, b) in [
            (1_i64, 3),
            (-1_000_000_007, 1_000),
            (i64::MAX, -7),
            (5, i64::MAX),
        ] {
            assert_eq!(div64_s64(a, b), a / b);
        }
    }

    #[test]
    #[should_panic(expected = "attempt to divide by zero")]
    fn div64_s64_by_zero_panics() {
        let _ = div64_s64(1, 0);
    }

    #[test]
    fn div_s64_rem_is_c_division_with_remainder() {
        assert_eq!(div_s64_rem(7, 2), (3, 1));
        assert_eq!(div_s64_rem(-7, 2), (-3, -1));
        assert_eq!(div_s64_rem(7, -2), (-3, 1));
        assert_eq!(div_s64_rem(-7, -2), (3, -1));
        assert_eq!(div_s64_rem(i64::MIN, -1), (i64::MIN, 0));
        assert_eq!(div_s64_rem(i64::MIN, i32::MIN), (1 << 32, 0));
        assert_eq!(
            div_s64_rem(i64::MAX, i32::MIN),
            (-((1 << 32) - 1), i32::MAX)
        );
        for (a, b) in [
            (1_i64, 3_i32),
            (-1_000_000_007, 1_000),
            (i64::MAX, -7),
            (i64::MIN + 1, 16),
        ] {
            assert_eq!(
                div_s64_rem(a, b),
                (a / i64::from(b), (a % i64::from(b)) as i32)
            );
        }
    }

    #[test]
    #[should_panic(expected = "attempt to calculate the remainder with a divisor of zero")]
    fn div_s64_rem_by_zero_panics() {
        let _ = div_s64_rem(1, 0);
    }

    #[test]
    fn ktime_conversions_truncate_toward_zero() {
        for kt in [
            0,
            1,
            999,
            1_000,
            1_001,
            -1,
            -999,
            -1_000,
            -1_001,
            i64::MAX,
            i64::MIN,
        ] {
            assert_eq!(ktime_to_us(kt), kt / 1_000);
            assert_eq!(ktime_to_ms(kt), kt / 1_000_000);
        }
        let _ = calls::take();
        let _ = ktime_to_ms(ktime_to_us(div64_s64(1, 1)));
        assert_eq!(calls::take(), ["div64_s64", "ktime_to_us", "ktime_to_ms"]);
    }
}
