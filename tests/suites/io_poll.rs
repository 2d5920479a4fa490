// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `kernel_core::{time::delay, io::poll, error}` and `msecs_to_jiffies`, with the example of a
//! driver's logic: waiting, with a timeout, for a status register to become ready.
//!
//! It runs on the real clock everywhere (the kernel's clock cannot be virtual), so its waits
//! are a few milliseconds. On the host, the same logic is also tested in virtual time, where a
//! 3-second timeout takes microseconds: see `kernel_core::extras::virtual_time` and the tests
//! of `kernel-core/src/io/poll.rs`.
//!
//! Written against the mirrored paths only, with the assertion forms the kernel's own
//! `#[kunit_tests]` accepts: the switch-back check runs it against Linux 7.3's
//! `kernel::{time, io, error}`.

use kernel_core::macros::kunit_tests;

#[kunit_tests(kernel_core_io_poll)]
mod tests {
    use core::cell::Cell;
    use kernel_core::error::code::{
        EAGAIN, EBUSY, EFSCORRUPTED, EFTYPE, EINVAL, EIO, ENOMEM, EOPNOTSUPP, EPERM, EPROBE_DEFER,
        ETIMEDOUT, EUCLEAN,
    };
    use kernel_core::error::{Error, Result};
    use kernel_core::io::poll::{read_poll_timeout, read_poll_timeout_atomic};
    use kernel_core::time::delay::{fsleep, udelay};
    use kernel_core::time::{msecs_to_jiffies, Delta, Instant, Jiffies, Monotonic, Msecs};

    /// The READY bit of the status register.
    const STATUS_READY: u32 = 1 << 0;

    /// A device whose status register shows READY once `ready_after` has passed since it was
    /// first read, and counts its reads.
    ///
    /// The time counts from the first read, not from the device's creation, so that a loaded
    /// machine (or Miri) pausing between the two cannot make the first read READY.
    struct FakeDevice {
        first_read: Cell<Option<Instant<Monotonic>>>,
        ready_after: Delta,
        reads: Cell<u32>,
    }

    impl FakeDevice {
        fn reset(ready_after: Delta) -> Self {
            FakeDevice {
                first_read: Cell::new(None),
                ready_after,
                reads: Cell::new(0),
            }
        }

        /// The time since the first read (zero before it).
        fn since_first_read(&self) -> Delta {
            match self.first_read.take() {
                Some(first) => {
                    let elapsed = first.elapsed();
                    self.first_read.set(Some(first));
                    elapsed
                }
                None => Delta::ZERO,
            }
        }

        fn status(&self) -> Result<u32> {
            self.reads.set(self.reads.get() + 1);
            let elapsed = self.since_first_read();
            if self.reads.get() == 1 {
                self.first_read.set(Some(Instant::now()));
            }
            if elapsed >= self.ready_after {
                Ok(STATUS_READY | 0x10)
            } else {
                Ok(0x10)
            }
        }
    }

    /// The driver's logic under test: poll every 500 µs until READY, for at most `timeout`.
    fn wait_ready(dev: &FakeDevice, timeout: Delta) -> Result<u32> {
        read_poll_timeout(
            || dev.status(),
            |status: &u32| status & STATUS_READY != 0,
            Delta::from_micros(500),
            timeout,
        )
    }

    #[test]
    fn a_ready_register_is_read_once() {
        let dev = FakeDevice::reset(Delta::ZERO);
        assert_eq!(wait_ready(&dev, Delta::from_millis(10)), Ok(0x11));
        assert_eq!(dev.reads.get(), 1);
    }

    #[test]
    fn the_register_becomes_ready_before_the_timeout() {
        let dev = FakeDevice::reset(Delta::from_millis(2));
        assert_eq!(wait_ready(&dev, Delta::from_secs(1)), Ok(0x11));
        assert!(dev.since_first_read() >= Delta::from_millis(2));
        assert!(dev.reads.get() >= 2);
    }

    /// Times out only after the timeout, sleeping between its reads. How many reads fit
    /// before the timeout depends on the machine (under Miri, or on a loaded host, the first
    /// read may already come after it), so the test asserts what does not: at least one read,
    /// and no more than one per 500 µs sleep.
    #[test]
    fn a_register_that_stays_busy_times_out() {
        let dev = FakeDevice::reset(Delta::from_secs(3_600));
        let start = Instant::<Monotonic>::now();
        assert_eq!(wait_ready(&dev, Delta::from_millis(3)), Err(ETIMEDOUT));
        let elapsed = start.elapsed();
        assert!(elapsed > Delta::from_millis(3));
        let reads = dev.reads.get();
        assert!(reads >= 1);
        assert!(Delta::from_micros(500 * (i64::from(reads) - 1)) <= elapsed);
    }

    #[test]
    fn an_error_of_the_read_ends_the_polling() {
        let reads = Cell::new(0_u32);
        let op = || -> Result<u32> {
            reads.set(reads.get() + 1);
            if reads.get() < 3 {
                Ok(0)
            } else {
                Err(EIO)
            }
        };
        let result = read_poll_timeout(op, |_| false, Delta::ZERO, Delta::from_secs(1));
        assert_eq!(result, Err(EIO));
        assert_eq!(reads.get(), 3);
    }

    #[test]
    fn atomic_polling_counts_its_reads() {
        let reads = Cell::new(0_usize);
        let op = || -> Result<usize> {
            reads.set(reads.get() + 1);
            Ok(reads.get())
        };
        let result = read_poll_timeout_atomic(op, |_| false, Delta::from_micros(2), 5);
        assert_eq!(result, Err(ETIMEDOUT));
        assert_eq!(reads.get(), 5);

        reads.set(0);
        let result = read_poll_timeout_atomic(op, |n: &usize| *n == 3, Delta::ZERO, 10);
        assert_eq!(result, Ok(3));
        assert_eq!(reads.get(), 3);

        reads.set(0);
        assert_eq!(
            read_poll_timeout_atomic(op, |_| true, Delta::ZERO, 0),
            Err(ETIMEDOUT)
        );
        assert_eq!(reads.get(), 0);
        assert_eq!(
            read_poll_timeout_atomic(|| Err::<u8, Error>(EBUSY), |_| true, Delta::ZERO, 3),
            Err(EBUSY)
        );
    }

    #[test]
    fn fsleep_sleeps_at_least_its_span() {
        // Above 10 us, `fsleep` sleeps on a timer, which the monotonic clock sees: a
        // high-resolution one below four jiffies, never early. From four jiffies on it is
        // `msleep()`, which counts jiffies from the last tick the kernel took: under an
        // emulator that runs a vCPU late, that tick lags the monotonic clock, and the sleep
        // can end up to a jiffy short of its span by that clock (seen on ppc32 under QEMU).
        // At least 1 Hz, which the compiler then knows: a division that could panic on zero
        // would end this function in a call objtool does not know as noreturn, reported on
        // x86_64 as "falls through to next function".
        let jiffy = 1_000_000 / msecs_to_jiffies(1_000).max(1) as i64;
        for micros in [11, 50, 1_500, 20_000, 21_000] {
            let least = if micros >= 4 * jiffy {
                micros - jiffy
            } else {
                micros
            };
            let start = Instant::<Monotonic>::now();
            fsleep(Delta::from_micros(micros));
            assert!(start.elapsed() >= Delta::from_micros(least));
        }
        // Up to 10 us it busy-waits with `udelay`, whose loop calibration under an emulator
        // (QEMU without KVM) can wait less than the clock measures: only that it returns.
        let start = Instant::<Monotonic>::now();
        for micros in [0, 1, 5, 10] {
            fsleep(Delta::from_micros(micros));
        }
        fsleep(Delta::from_nanos(1));
        assert!(!start.elapsed().is_negative());
    }

    #[test]
    fn udelay_busy_waits() {
        // `udelay` counts calibrated loops, not the clock; under an emulator they can take less
        // time than asked: only that it returns, and that time did not go backwards.
        let start = Instant::<Monotonic>::now();
        udelay(Delta::from_micros(20));
        udelay(Delta::from_nanos(1));
        udelay(Delta::ZERO);
        udelay(Delta::from_millis(1));
        assert!(!start.elapsed().is_negative());
    }

    #[test]
    fn msecs_to_jiffies_rounds_up() {
        let max_jiffy_offset: Jiffies = (isize::MAX as usize >> 1) - 1;
        assert_eq!(msecs_to_jiffies(0), 0);
        assert!(msecs_to_jiffies(1) >= 1);
        // HZ is between 100 and 1000.
        let second: Jiffies = msecs_to_jiffies(1_000);
        assert!((100..=1_000).contains(&second));
        assert_eq!(msecs_to_jiffies(10_000), 10 * second);
        let mut previous = 0;
        for msecs in [1, 2, 3, 4, 5, 9, 10, 11, 99, 100, 101, 1_000, 65_536] {
            let jiffies = msecs_to_jiffies(msecs);
            assert!(jiffies >= previous);
            // Never shorter than asked: `jiffies` ticks of 1000 / HZ ms cover `msecs`.
            assert!(jiffies * 1_000 >= msecs as usize * second);
            previous = jiffies;
        }
        let infinite: Msecs = i32::MAX as u32 + 1;
        assert_eq!(msecs_to_jiffies(infinite), max_jiffy_offset);
        assert_eq!(msecs_to_jiffies(u32::MAX), max_jiffy_offset);
        assert!(msecs_to_jiffies(i32::MAX as u32) < max_jiffy_offset);
    }

    #[test]
    fn error_codes_have_the_kernels_values() {
        let codes = [
            (EPERM, -1),
            (EIO, -5),
            (EAGAIN, -11),
            (ENOMEM, -12),
            (EBUSY, -16),
            (EINVAL, -22),
            (EOPNOTSUPP, -95),
            (ETIMEDOUT, -110),
            (EUCLEAN, -117),
            (EFTYPE, -134),
            (EPROBE_DEFER, -517),
        ];
        for (code, errno) in codes {
            assert_eq!(code.to_errno(), errno);
            assert!(Error::from_errno(errno) == code);
        }
        assert!(EFSCORRUPTED == EUCLEAN);
        assert!(ETIMEDOUT != EINVAL);
    }
}
