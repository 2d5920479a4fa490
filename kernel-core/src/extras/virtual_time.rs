// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Virtual time for host tests: the monotonic clock, `fsleep`, `udelay` and the polling of
//! [`io::poll`](crate::io::poll) without real waiting, one thread at a time.
//!
//! An addition of kernel-core, for the host alone (feature `std`, Linux): the kernel's clock
//! cannot be made virtual, and the kernel crate has nothing like it. While a [`VirtualTime`]
//! lives, in the thread that started it:
//!
//! - [`Instant::<Monotonic>::now()`](crate::time::Instant::now) reads the virtual clock, which
//!   starts at zero (or where [`VirtualTime::start_at`] says) and moves only as below;
//! - [`fsleep`](crate::time::delay::fsleep) and [`udelay`](crate::time::delay::udelay) return
//!   at once, having moved the clock by exactly what they wait for at least: the span as the
//!   kernel receives it, clamped and rounded up to whole microseconds;
//! - a polling round of [`read_poll_timeout`](crate::io::poll::read_poll_timeout) or
//!   [`read_poll_timeout_atomic`](crate::io::poll::read_poll_timeout_atomic) that did not wait
//!   costs 1 µs ([`VirtualTime::set_spin`]), so a loop that never sleeps still reaches its
//!   timeout; a round that slept costs nothing more;
//! - [`VirtualTime::advance`] moves the clock, for what happens between calls.
//!
//! Other threads, and the other clocks (`RealTime`, `BootTime`, `Tai`), keep the real time.
//! The clock's readings depend on nothing but the calls, so a driver's timeouts are tested
//! deterministically: a 3-second timeout takes microseconds of real time, and its count of
//! register reads is the same on every run. Fake hardware reads the virtual clock too (see the
//! example).
//!
//! # Examples
//!
//! A register that becomes ready 30 ms after a reset, and a driver's wait for it:
//!
//! ```
//! use kernel_core::error::{code::ETIMEDOUT, Result};
//! use kernel_core::extras::virtual_time::VirtualTime;
//! use kernel_core::io::poll::read_poll_timeout;
//! use kernel_core::time::{Delta, Instant, Monotonic};
//!
//! struct FakeDevice {
//!     reset_at: Instant<Monotonic>,
//! }
//!
//! impl FakeDevice {
//!     /// The status register: bit 0 is READY.
//!     fn status(&self) -> Result<u32> {
//!         Ok(u32::from(self.reset_at.elapsed() >= Delta::from_millis(30)))
//!     }
//! }
//!
//! fn wait_ready(dev: &FakeDevice) -> Result {
//!     read_poll_timeout(|| dev.status(), |s| s & 1 != 0, Delta::from_millis(5), Delta::from_millis(100))?;
//!     Ok(())
//! }
//!
//! let time = VirtualTime::start();
//! let dev = FakeDevice { reset_at: Instant::now() };
//! assert_eq!(wait_ready(&dev), Ok(()));
//! assert_eq!(time.now(), Delta::from_millis(30)); // exactly: reads at 0, 5, ..., 30 ms
//!
//! time.advance(Delta::from_secs(1));
//! let late = FakeDevice { reset_at: Instant::now() + Delta::from_secs(1) }; // resets later
//! assert_eq!(wait_ready(&late), Err(ETIMEDOUT));
//! assert_eq!(time.now(), Delta::from_millis(1_135)); // the first read past 100 ms
//! ```

use core::marker::PhantomData;

use crate::time::Delta;

/// The current thread's virtual time: while it lives, the thread's monotonic clock, `fsleep`,
/// `udelay` and polling are virtual (see [the module documentation](self)).
///
/// Not `Send`: the time it controls is its thread's.
#[derive(Debug)]
pub struct VirtualTime {
    _thread: PhantomData<*const ()>,
}

impl VirtualTime {
    /// Makes the current thread's time virtual, with the monotonic clock at zero.
    ///
    /// # Panics
    ///
    /// If the thread's time is already virtual.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::extras::virtual_time::VirtualTime;
    /// use kernel_core::time::{ClockSource, Delta, Monotonic};
    ///
    /// let time = VirtualTime::start();
    /// assert_eq!(Monotonic::ktime_get(), 0);
    /// drop(time);
    /// assert!(Monotonic::ktime_get() > 0); // real again
    /// ```
    #[track_caller]
    pub fn start() -> Self {
        Self::start_at(Delta::ZERO)
    }

    /// Makes the current thread's time virtual, with the monotonic clock at `since_boot`.
    ///
    /// # Panics
    ///
    /// If `since_boot` is negative, or if the thread's time is already virtual.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::extras::virtual_time::VirtualTime;
    /// use kernel_core::time::{Delta, Instant, Monotonic};
    ///
    /// let time = VirtualTime::start_at(Delta::from_secs(60));
    /// let now = Instant::<Monotonic>::now();
    /// assert_eq!(time.now(), Delta::from_secs(60));
    /// # let _ = now;
    /// ```
    #[track_caller]
    pub fn start_at(since_boot: Delta) -> Self {
        assert!(
            !since_boot.is_negative(),
            "virtual time cannot start before zero"
        );
        assert!(
            crate::env::delay::virtual_enter(since_boot.as_nanos(), 1_000),
            "this thread's time is already virtual"
        );
        Self {
            _thread: PhantomData,
        }
    }

    /// The monotonic clock's virtual reading, as a span since its zero.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::extras::virtual_time::VirtualTime;
    /// use kernel_core::time::{delay::udelay, Delta};
    ///
    /// let time = VirtualTime::start();
    /// udelay(Delta::from_nanos(1_500)); // rounded up to 2 µs, as the kernel does
    /// assert_eq!(time.now(), Delta::from_micros(2));
    /// ```
    pub fn now(&self) -> Delta {
        Delta::from_nanos(crate::env::delay::virtual_now().unwrap_or_default())
    }

    /// Moves the virtual clock by `delta`, which may be negative.
    ///
    /// # Panics
    ///
    /// If the clock would leave `0..=KTIME_MAX`.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::extras::virtual_time::VirtualTime;
    /// use kernel_core::time::{Delta, Instant, Monotonic};
    ///
    /// let time = VirtualTime::start();
    /// let start = Instant::<Monotonic>::now();
    /// time.advance(Delta::from_millis(7));
    /// assert_eq!(start.elapsed(), Delta::from_millis(7));
    /// ```
    pub fn advance(&self, delta: Delta) {
        crate::env::delay::virtual_advance(delta.as_nanos());
    }

    /// Sets what a polling round that did not wait costs: 1 µs unless set.
    ///
    /// # Panics
    ///
    /// If `spin` is not positive: a polling loop without sleeps would never time out.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::error::code::ETIMEDOUT;
    /// use kernel_core::extras::virtual_time::VirtualTime;
    /// use kernel_core::io::poll::read_poll_timeout;
    /// use kernel_core::time::Delta;
    ///
    /// let time = VirtualTime::start();
    /// time.set_spin(Delta::from_micros(100));
    /// let r = read_poll_timeout(|| Ok(()), |_| false, Delta::ZERO, Delta::from_millis(1));
    /// assert_eq!(r, Err(ETIMEDOUT));
    /// assert_eq!(time.now(), Delta::from_micros(1_100));
    /// ```
    pub fn set_spin(&self, spin: Delta) {
        assert!(
            !spin.is_negative() && !spin.is_zero(),
            "a polling round must cost some virtual time"
        );
        crate::env::delay::virtual_set_spin(spin.as_nanos());
    }
}

impl Drop for VirtualTime {
    fn drop(&mut self) {
        crate::env::delay::virtual_leave();
    }
}

#[cfg(test)]
mod tests {
    use super::VirtualTime;
    use crate::time::delay::{fsleep, udelay};
    use crate::time::{Delta, Instant, Monotonic};

    #[test]
    fn sleeps_move_the_clock_by_what_the_kernel_receives() {
        let time = VirtualTime::start();
        fsleep(Delta::from_nanos(1));
        assert_eq!(time.now(), Delta::from_micros(1));
        fsleep(Delta::from_nanos(-1)); // out of range: the maximum, i32::MAX µs
        assert_eq!(
            time.now(),
            Delta::from_micros(1) + Delta::from_micros(i64::from(i32::MAX))
        );
    }

    #[test]
    #[cfg_attr(debug_assertions, ignore = "debug assertions panic on the range")]
    fn udelay_out_of_range_waits_the_maximum() {
        let time = VirtualTime::start();
        udelay(Delta::from_secs(1));
        assert_eq!(time.now(), Delta::from_millis(5));
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "delta <= MAX_UDELAY_DELTA")]
    fn udelay_out_of_range_panics_with_debug_assertions() {
        let _time = VirtualTime::start();
        udelay(Delta::from_millis(6));
    }

    #[test]
    #[should_panic(expected = "already virtual")]
    fn one_virtual_time_per_thread() {
        let _first = VirtualTime::start();
        let _second = VirtualTime::start();
    }

    #[test]
    fn other_threads_keep_the_real_clock() {
        let time = VirtualTime::start_at(Delta::from_secs(1));
        let real = std::thread::spawn(|| Instant::<Monotonic>::now().elapsed())
            .join()
            .unwrap();
        assert!(!real.is_negative());
        assert_eq!(time.now(), Delta::from_secs(1));
        drop(time);
        // Real again: the host has been up for more than the virtual second, or not; either
        // way the clock reads without panicking.
        let _ = Instant::<Monotonic>::now();
    }
}
