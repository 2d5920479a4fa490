// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Polling until a condition, an error or a timeout.
//!
//! Kernel counterpart: `rust/kernel/io/poll.rs` (Linux 7.2 and 7.3); C header:
//! [`include/linux/iopoll.h`](https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/include/linux/iopoll.h).
//!
//! The two functions of Linux 7.3's `kernel::io::poll`, with its signatures and its loop, on
//! every kernel from 6.12 on: [`read_poll_timeout`] sleeps between reads with
//! [`fsleep`](crate::time::delay::fsleep) and gives up after a time measured on
//! [`Monotonic`](crate::time::Monotonic); [`read_poll_timeout_atomic`] busy-waits with
//! [`udelay`](crate::time::delay::udelay) and gives up after a number of reads. Both return
//! the [`Error`](crate::error::Error) of `op`, or [`ETIMEDOUT`](crate::error::code::ETIMEDOUT),
//! which in the kernel are the kernel's own `Error` values, so `?` works in kernel code.
//!
//! On the host (feature `std`, Linux) the polling waits on the real clock, or in the test's
//! virtual time ([`extras::virtual_time`](crate::extras::virtual_time)), where the timeout
//! logic of a driver runs deterministically, in microseconds:
//!
//! ```
//! # // The virtual clock needs feature `std`.
//! # #[cfg(feature = "std")] {
//! use kernel_core::error::{code::ETIMEDOUT, Result};
//! use kernel_core::extras::virtual_time::VirtualTime;
//! use kernel_core::io::poll::read_poll_timeout;
//! use kernel_core::time::{Delta, Instant, Monotonic};
//!
//! /// A status register whose READY bit (bit 0) sets 30 ms after `reset`.
//! struct Status {
//!     reset: Instant<Monotonic>,
//! }
//!
//! impl Status {
//!     fn read(&self) -> Result<u32> {
//!         Ok(u32::from(self.reset.elapsed() >= Delta::from_millis(30)))
//!     }
//! }
//!
//! /// The driver's logic: wait up to `timeout` for READY, checking every millisecond.
//! fn wait_ready(status: &Status, timeout: Delta) -> Result<u32> {
//!     read_poll_timeout(|| status.read(), |v| v & 1 == 1, Delta::from_millis(1), timeout)
//! }
//!
//! let time = VirtualTime::start();
//! let status = Status { reset: Instant::now() };
//! assert_eq!(wait_ready(&status, Delta::from_millis(20)), Err(ETIMEDOUT));
//! assert!(time.now() >= Delta::from_millis(20) && time.now() < Delta::from_millis(22));
//! assert_eq!(wait_ready(&status, Delta::from_secs(3)), Ok(1));
//! assert!(time.now() >= Delta::from_millis(30) && time.now() < Delta::from_millis(32));
//! # }
//! ```

// Unused on a host without `std`, which has no way to wait.
#[allow(unused_imports)]
use crate::{error::Result, time::Delta};

crate::env::delay::with_sleep! {
    /// Calls `op` until `cond` accepts its value, `op` fails, or `timeout_delta` has passed,
    /// sleeping `sleep_delta` between calls.
    ///
    /// Each round calls `op`: an error is returned at once; a value that `cond` accepts is
    /// returned at once. Otherwise, if more than `timeout_delta` has passed since the call
    /// began (on [`Monotonic`](crate::time::Monotonic)), the result is
    /// [`ETIMEDOUT`](crate::error::code::ETIMEDOUT), right after that last call to `op`
    /// (C's `read_poll_timeout()` would call it once more). Otherwise it sleeps `sleep_delta`
    /// with [`fsleep`](crate::time::delay::fsleep), unless it is zero, relaxes the CPU, and
    /// goes round again. So `op` is called at least once, and the timeout is checked only
    /// after a call.
    ///
    /// It may sleep, so only in a context that may: it calls `might_sleep()` first, always
    /// (C's does so only with a non-zero `sleep_delta`), which in the kernel reports the
    /// caller's location when `CONFIG_DEBUG_ATOMIC_SLEEP` catches an atomic context.
    ///
    /// # Errors
    ///
    /// The error of `op`, or [`ETIMEDOUT`](crate::error::code::ETIMEDOUT) when the timeout
    /// passed.
    ///
    /// # Examples
    ///
    /// ```
    /// use core::cell::Cell;
    /// use kernel_core::error::{code::{EIO, ETIMEDOUT}, Result};
    /// use kernel_core::io::poll::read_poll_timeout;
    /// use kernel_core::time::Delta;
    ///
    /// // A FIFO level that rises by one per read.
    /// let level = Cell::new(0_u32);
    /// let read = || -> Result<u32> {
    ///     level.set(level.get() + 1);
    ///     Ok(level.get())
    /// };
    /// let full = read_poll_timeout(read, |l| *l >= 4, Delta::ZERO, Delta::from_millis(100));
    /// assert_eq!(full, Ok(4));
    ///
    /// // An error of `op` ends the polling.
    /// let failing = read_poll_timeout(|| Err::<u32, _>(EIO), |_| true, Delta::ZERO, Delta::ZERO);
    /// assert_eq!(failing, Err(EIO));
    ///
    /// // A condition that never holds.
    /// let never = read_poll_timeout(
    ///     || Ok(0_u32),
    ///     |_| false,
    ///     Delta::from_micros(100),
    ///     Delta::from_millis(1),
    /// );
    /// assert_eq!(never, Err(ETIMEDOUT));
    /// ```
    #[track_caller]
    pub fn read_poll_timeout<Op, Cond, T>(
        mut op: Op,
        mut cond: Cond,
        sleep_delta: Delta,
        timeout_delta: Delta,
    ) -> Result<T>
    where
        Op: FnMut() -> Result<T>,
        Cond: FnMut(&T) -> bool,
    {
        let start = crate::time::Instant::<crate::time::Monotonic>::now();
        crate::env::delay::might_sleep();

        loop {
            let value = op()?;
            if cond(&value) {
                return Ok(value);
            }
            if start.elapsed() > timeout_delta {
                return Err(crate::error::code::ETIMEDOUT);
            }
            if !sleep_delta.is_zero() {
                crate::time::delay::fsleep(sleep_delta);
            }
            // `fsleep` may have busy-waited (for 10 µs or less).
            crate::env::delay::cpu_relax();
        }
    }

    /// Calls `op` until `cond` accepts its value, `op` fails, or it was called `retry` times,
    /// busy-waiting `delay_delta` between calls.
    ///
    /// Each round calls `op`: an error is returned at once; a value that `cond` accepts is
    /// returned at once. Otherwise it busy-waits `delay_delta` with
    /// [`udelay`](crate::time::delay::udelay), unless it is zero, relaxes the CPU, and goes
    /// round again, `retry` rounds in all; then the result is
    /// [`ETIMEDOUT`](crate::error::code::ETIMEDOUT). With `retry` 0, `op` is never called.
    /// `delay_delta` must be in `udelay`'s range.
    ///
    /// It never sleeps, so it is usable in atomic context.
    ///
    /// # Errors
    ///
    /// The error of `op`, or [`ETIMEDOUT`](crate::error::code::ETIMEDOUT) after `retry` calls.
    ///
    /// # Examples
    ///
    /// ```
    /// use core::cell::Cell;
    /// use kernel_core::error::{code::ETIMEDOUT, Result};
    /// use kernel_core::io::poll::read_poll_timeout_atomic;
    /// use kernel_core::time::Delta;
    ///
    /// let reads = Cell::new(0_usize);
    /// let read = || -> Result<u16> {
    ///     reads.set(reads.get() + 1);
    ///     Ok(0)
    /// };
    /// let busy = read_poll_timeout_atomic(read, |v| *v == 1, Delta::from_micros(1), 5);
    /// assert_eq!((busy, reads.get()), (Err(ETIMEDOUT), 5));
    /// ```
    pub fn read_poll_timeout_atomic<Op, Cond, T>(
        mut op: Op,
        mut cond: Cond,
        delay_delta: Delta,
        retry: usize,
    ) -> Result<T>
    where
        Op: FnMut() -> Result<T>,
        Cond: FnMut(&T) -> bool,
    {
        for _ in 0..retry {
            let value = op()?;
            if cond(&value) {
                return Ok(value);
            }
            if !delay_delta.is_zero() {
                crate::time::delay::udelay(delay_delta);
            }
            crate::env::delay::cpu_relax();
        }
        Err(crate::error::code::ETIMEDOUT)
    }
}

#[cfg(all(test, feature = "std", target_os = "linux"))]
mod tests {
    use super::{read_poll_timeout, read_poll_timeout_atomic};
    use crate::error::code::{EBUSY, ETIMEDOUT};
    use crate::extras::virtual_time::VirtualTime;
    use crate::time::{Delta, Instant, Monotonic};
    use core::cell::Cell;

    #[test]
    fn times_out_after_the_timeout_in_virtual_time() {
        let time = VirtualTime::start();
        let calls = Cell::new(0);
        let result = read_poll_timeout(
            || {
                calls.set(calls.get() + 1);
                Ok(0_u8)
            },
            |_| false,
            Delta::from_millis(10),
            Delta::from_secs(3),
        );
        assert_eq!(result, Err(ETIMEDOUT));
        // Reads at 0, 10 ms, ..., 3 s (not yet past), 3.01 s: 302 reads.
        assert_eq!(calls.get(), 302);
        assert_eq!(time.now(), Delta::from_millis(3_010));
    }

    #[test]
    fn zero_sleep_still_reaches_the_timeout() {
        let time = VirtualTime::start();
        let result = read_poll_timeout(|| Ok(()), |_| false, Delta::ZERO, Delta::from_millis(2));
        assert_eq!(result, Err(ETIMEDOUT));
        assert_eq!(time.now(), Delta::from_micros(2_001));
    }

    #[test]
    fn first_read_is_checked_before_the_timeout() {
        let _time = VirtualTime::start();
        let result = read_poll_timeout(|| Ok(7), |v| *v == 7, Delta::ZERO, Delta::from_nanos(-1));
        assert_eq!(result, Ok(7));
        let result = read_poll_timeout(|| Ok(7), |_| false, Delta::ZERO, Delta::from_nanos(-1));
        assert_eq!(result, Err(ETIMEDOUT));
    }

    #[test]
    fn errors_of_op_end_the_polling() {
        let _time = VirtualTime::start();
        let calls = Cell::new(0);
        let op = || {
            calls.set(calls.get() + 1);
            if calls.get() == 3 {
                Err(EBUSY)
            } else {
                Ok(())
            }
        };
        let result = read_poll_timeout(op, |_| false, Delta::from_millis(1), Delta::from_secs(1));
        assert_eq!((result, calls.get()), (Err(EBUSY), 3));
    }

    #[test]
    fn atomic_polling_counts_rounds_and_delays() {
        let time = VirtualTime::start();
        let calls = Cell::new(0_usize);
        let op = || {
            calls.set(calls.get() + 1);
            Ok(calls.get())
        };
        assert_eq!(
            read_poll_timeout_atomic(op, |_| false, Delta::from_micros(10), 4),
            Err(ETIMEDOUT)
        );
        assert_eq!(calls.get(), 4);
        assert_eq!(time.now(), Delta::from_micros(40));
        assert_eq!(
            read_poll_timeout_atomic(|| Ok(1), |_| true, Delta::ZERO, 0),
            Err(ETIMEDOUT)
        );
        assert_eq!(
            read_poll_timeout_atomic(|| Ok(1), |_| true, Delta::ZERO, 1),
            Ok(1)
        );
    }

    #[test]
    fn real_time_polling_waits_on_the_clock() {
        let start = Instant::<Monotonic>::now();
        let result = read_poll_timeout(
            || Ok(()),
            |_| false,
            Delta::from_micros(200),
            Delta::from_millis(1),
        );
        assert_eq!(result, Err(ETIMEDOUT));
        assert!(start.elapsed() > Delta::from_millis(1));
    }
}
