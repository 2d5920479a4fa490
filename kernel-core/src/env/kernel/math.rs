// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The kernel's 64-bit divisions on 32-bit kernels (no `CONFIG_64BIT`): what Linux 7.3's
//! `time.rs` calls through `bindings` there, called the same way.
//!
//! A 32-bit kernel has no `s64 / s64` in C, and Rust's `i64` division would call compiler
//! intrinsics it does not provide (`__aeabi_ldivmod` on arm), so `Delta`'s divisions and
//! conversions go through the exported `div64_s64()` and `div_s64_rem()` (`lib/math/div64.c`)
//! and the Rust helpers of `ktime_to_us()` and `ktime_to_ms()` (`rust/helpers/time.c`), as the
//! kernel crate's own do. Linux 6.12 has Rust on no 32-bit architecture; 7.2 and 7.3 have it on
//! 32-bit arm. Its host twin, `env/host/math.rs`, computes what these compute.

use kernel::bindings;

/// `div64_s64()`.
#[inline]
pub(crate) fn div64_s64(dividend: i64, divisor: i64) -> i64 {
    // SAFETY: `div64_s64()` may be called with any values.
    unsafe { bindings::div64_s64(dividend, divisor) }
}

/// `div_s64_rem()`: the quotient and the remainder.
#[inline]
pub(crate) fn div_s64_rem(dividend: i64, divisor: i32) -> (i64, i32) {
    let mut remainder = 0;
    // SAFETY: `remainder` is a valid `s32` on the stack for the duration of the call.
    let quotient = unsafe { bindings::div_s64_rem(dividend, divisor, &mut remainder) };
    (quotient, remainder)
}

/// `ktime_to_us()`.
#[inline]
pub(crate) fn ktime_to_us(kt: i64) -> i64 {
    // SAFETY: `ktime_to_us()` may be called with any value.
    unsafe { bindings::ktime_to_us(kt) }
}

/// `ktime_to_ms()`.
#[inline]
pub(crate) fn ktime_to_ms(kt: i64) -> i64 {
    // SAFETY: `ktime_to_ms()` may be called with any value.
    unsafe { bindings::ktime_to_ms(kt) }
}
