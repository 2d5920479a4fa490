// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Sleeping and busy-waiting for a [`Delta`].
//!
//! Kernel counterpart: `rust/kernel/time/delay.rs` (Linux 7.2 and 7.3); C header:
//! [`include/linux/delay.h`](https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/include/linux/delay.h).
//!
//! The same two functions as Linux 7.3's `kernel::time::delay`, with its contract: both wait
//! *at least* the span, rounded up to whole microseconds, and a span out of range is a bug that
//! waits for the longest span in range. In the kernel they call the running kernel's C
//! `fsleep()` and `udelay()`; on Linux 6.12, whose `fsleep()` and `udelay()` are `static
//! inline`, they do what 6.12's inlines do with the functions 6.12 exports (`__udelay()`, or
//! `udelay()` on riscv, `usleep_range_state()` and `msleep()`).
//!
//! On the host (feature `std`, Linux), [`fsleep`] sleeps the thread and [`udelay`] spins on the
//! monotonic clock; in a thread whose time is virtual
//! ([`extras::virtual_time`](crate::extras::virtual_time)), both advance the virtual clock by
//! exactly the span they wait, at once.
//!
//! ```
//! # // The virtual clock needs feature `std`.
//! # #[cfg(feature = "std")] {
//! use kernel_core::extras::virtual_time::VirtualTime;
//! use kernel_core::time::{delay::fsleep, Delta, Instant, Monotonic};
//!
//! let _time = VirtualTime::start();
//! let start = Instant::<Monotonic>::now();
//! fsleep(Delta::from_secs(2)); // no real waiting
//! assert_eq!(start.elapsed(), Delta::from_secs(2));
//! # }
//! ```

// Unused on a host without `std`, which has no way to wait.
#[allow(unused_imports)]
use super::Delta;

crate::env::delay::with_sleep! {
    /// Sleeps for at least `delta`: the C side's `fsleep()`, which picks `udelay()`,
    /// `usleep_range()` or `msleep()` by the length.
    ///
    /// `delta` must be within `0..=i32::MAX` microseconds (about 35 minutes). Another value is
    /// a bug: the function then sleeps for that maximum, as Linux 7.3's does (C's `fsleep()`
    /// would take an out-of-range value as an infinite timeout). The span is rounded up to
    /// whole microseconds.
    ///
    /// Only in a context that may sleep.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::time::{delay::fsleep, Delta, Instant, Monotonic};
    ///
    /// let start = Instant::<Monotonic>::now();
    /// fsleep(Delta::from_micros(50));
    /// assert!(start.elapsed() >= Delta::from_micros(50));
    /// ```
    // Inline: kernel-core's object keeps no code for a module that does not sleep. The
    // caller's location reaches the host's sleeping-in-atomic check.
    #[inline]
    #[track_caller]
    pub fn fsleep(delta: Delta) {
        // `i32::MAX` microseconds: more would overflow inside C's `fsleep()`.
        const MAX_DELTA: Delta = Delta::from_micros(i32::MAX as i64);

        let delta = if delta.is_negative() || delta > MAX_DELTA {
            MAX_DELTA
        } else {
            delta
        };
        // Rounded up: `fsleep()` waits at least what it is given.
        crate::env::delay::fsleep(delta.as_micros_ceil() as usize);
    }

    /// Busy-waits for at least `delta`: the C side's `udelay()`.
    ///
    /// `delta` must be within `0..=MAX_UDELAY_MS` milliseconds (`MAX_UDELAY_MS` is the
    /// architecture's: 5 on x86, arm64, riscv and on the host; on loongarch, `1000 / HZ` up to
    /// 5). Another value is a bug: with debug assertions (`CONFIG_RUST_DEBUG_ASSERTIONS` in the
    /// kernel) it panics, otherwise it waits for that maximum, as Linux 7.3's does. The span is
    /// rounded up to whole microseconds.
    ///
    /// Usable in atomic context.
    ///
    /// # Panics
    ///
    /// With debug assertions, if `delta` is out of range.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::time::{delay::udelay, Delta, Instant, Monotonic};
    ///
    /// let start = Instant::<Monotonic>::now();
    /// udelay(Delta::from_micros(20));
    /// assert!(start.elapsed() >= Delta::from_micros(20));
    /// ```
    // Inline: kernel-core's object keeps no code for a module that does not sleep.
    #[inline]
    pub fn udelay(delta: Delta) {
        const MAX_UDELAY_DELTA: Delta = Delta::from_millis(crate::env::delay::MAX_UDELAY_MS);

        debug_assert!(delta.as_nanos() >= 0);
        debug_assert!(delta <= MAX_UDELAY_DELTA);

        let delta = if delta.is_negative() || delta > MAX_UDELAY_DELTA {
            MAX_UDELAY_DELTA
        } else {
            delta
        };
        // Rounded up: `udelay()` waits at least what it is given.
        crate::env::delay::udelay(delta.as_micros_ceil() as usize);
    }
}
