// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Fake clocks: time that a test sets and advances, read through [`Instant`].
//!
//! An addition of kernel-core (the kernel crate has no fake clock). Written against the
//! mirrored [`crate::time`] API alone (`ClockSource`, `Delta::from_nanos`, `as_nanos`,
//! `is_negative`), so this file also compiles on top of the kernel's own `kernel::time`: that
//! is how kernel-core's switch-back check builds it, and a fake clock then drives the
//! kernel's own `Instant`.
//!
//! # Examples
//!
//! ```
//! use kernel_core::extras::time::FakeClock;
//! use kernel_core::time::{Delta, Instant};
//!
//! FakeClock::set(Delta::from_secs(10));
//! let start = Instant::<FakeClock>::now();
//! FakeClock::advance(Delta::from_millis(1_500));
//! assert_eq!(start.elapsed().as_millis(), 1_500);
//! ```

#[cfg(doc)]
use crate::time::{ClockSource, Delta, Instant};

/// Declares a fake clock: a [`ClockSource`] whose time is whatever the test sets.
///
/// The clock type derives `Clone`, `Copy`, `Debug` and the comparisons, so that readings of it,
/// `Instant<YourClock>`, can be compared (the kernel's `Instant` derives its comparisons, which
/// need the clock type to implement them).
///
/// Each declared clock keeps its own time, starting at zero. With the `std` feature (on the
/// host), each thread has its own time for each clock: tests that `cargo test` runs in parallel
/// threads cannot disturb each other's clocks, and a thread a test spawns starts at zero. In
/// the kernel, and on the host without `std`, a clock has one time for all threads: KUnit runs
/// the cases of a suite one at a time. The type gets three associated functions:
///
/// - `set(Delta)` sets the time, which must not be negative;
/// - `advance(Delta)` moves it forward (or back, with a negative delta), panicking if it would
///   leave `0..=KTIME_MAX`;
/// - `now()` returns the current [`Delta`] since zero.
///
/// [`FakeClock`] is one such clock, ready to use.
///
/// # Examples
///
/// ```
/// use kernel_core::extras::time::fake_clock;
/// use kernel_core::time::{Delta, Instant};
///
/// fake_clock! {
///     /// The clock of the watchdog tests.
///     pub struct WatchdogClock;
/// }
///
/// let armed = Instant::<WatchdogClock>::now();
/// WatchdogClock::advance(Delta::from_secs(3));
/// assert_eq!(armed.elapsed(), Delta::from_secs(3));
/// assert_eq!(WatchdogClock::now(), Delta::from_secs(3));
/// ```
#[macro_export]
#[doc(hidden)]
macro_rules! __kernel_core_fake_clock {
    ($(#[$meta:meta])* $vis:vis struct $name:ident;) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
        $vis struct $name;

        impl $name {
            #[inline]
            fn __time() -> &'static $crate::extras::time::__FakeTime {
                static TIME: $crate::extras::time::__FakeTime = $crate::extras::time::__FakeTime::new();
                &TIME
            }

            /// Sets the clock to `since_zero` after its zero.
            ///
            /// # Panics
            ///
            /// If `since_zero` is negative.
            #[inline]
            #[allow(dead_code)]
            $vis fn set(since_zero: $crate::time::Delta) {
                ::core::assert!(
                    !since_zero.is_negative(),
                    "a fake clock cannot be set before its zero"
                );
                Self::__time().store(since_zero.as_nanos());
            }

            /// Moves the clock by `delta` (backwards if it is negative).
            ///
            /// # Panics
            ///
            /// If the time would leave `0..=KTIME_MAX`.
            #[inline]
            #[allow(dead_code)]
            $vis fn advance(delta: $crate::time::Delta) {
                Self::__time().advance(delta.as_nanos());
            }

            /// The time since the clock's zero.
            #[inline]
            #[allow(dead_code)]
            $vis fn now() -> $crate::time::Delta {
                $crate::time::Delta::from_nanos(Self::__time().load())
            }
        }

        // SAFETY: `set` and `advance` keep the stored time in `0..=KTIME_MAX`, and it starts at 0.
        unsafe impl $crate::time::ClockSource for $name {
            const ID: ::core::ffi::c_int = -1;

            #[inline]
            fn ktime_get() -> i64 {
                Self::__time().load()
            }
        }
    };
}

/// The time of one fake clock: one per thread with the `std` feature, one in all otherwise.
///
/// Used by [`fake_clock!`]; not an API.
#[doc(hidden)]
pub struct __FakeTime {
    #[cfg(not(feature = "std"))]
    nanos: Nanos,
    // Gives each clock's `static` its own address, the key of its per-thread times.
    #[cfg(feature = "std")]
    _key: u8,
}

impl __FakeTime {
    /// A time of zero.
    #[allow(clippy::new_without_default)]
    #[inline]
    pub const fn new() -> Self {
        Self {
            #[cfg(not(feature = "std"))]
            nanos: Nanos::new(0),
            #[cfg(feature = "std")]
            _key: 0,
        }
    }

    /// The time, in nanoseconds since the clock's zero.
    #[inline]
    pub fn load(&'static self) -> i64 {
        self.update(|nanos| nanos)
    }

    /// Sets the time.
    #[inline]
    pub fn store(&'static self, nanos: i64) {
        self.update(|_| nanos);
    }

    /// Moves the time by `delta` nanoseconds.
    ///
    /// # Panics
    ///
    /// If the time would leave `0..=KTIME_MAX`.
    #[inline]
    pub fn advance(&'static self, delta: i64) {
        self.update(|nanos| match nanos.checked_add(delta) {
            Some(next) if next >= 0 => next,
            _ => panic!("a fake clock cannot leave 0..=KTIME_MAX"),
        });
    }

    /// Replaces the time with `f(time)` and returns the new time.
    #[cfg(feature = "std")]
    fn update(&'static self, f: impl Fn(i64) -> i64) -> i64 {
        use std::cell::RefCell;
        use std::collections::BTreeMap;

        std::thread_local! {
            static TIMES: RefCell<BTreeMap<usize, i64>> = const { RefCell::new(BTreeMap::new()) };
        }
        let key = core::ptr::from_ref(self) as usize;
        // `f` runs outside the borrow: a panic in it leaves the time as it was.
        let current = TIMES.with(|times| times.borrow().get(&key).copied().unwrap_or(0));
        let next = f(current);
        TIMES.with(|times| times.borrow_mut().insert(key, next));
        next
    }

    /// Replaces the time with `f(time)` and returns the new time.
    #[cfg(not(feature = "std"))]
    fn update(&'static self, f: impl Fn(i64) -> i64) -> i64 {
        use core::sync::atomic::Ordering::SeqCst;
        let mut current = self.nanos.load(SeqCst);
        loop {
            let next = f(current);
            match self
                .nanos
                .compare_exchange_weak(current, next, SeqCst, SeqCst)
            {
                Ok(_) => return next,
                Err(actual) => current = actual,
            }
        }
    }
}

/// The time of a fake clock without `std`: an `AtomicI64` where the target has 64-bit atomics.
#[cfg(all(not(feature = "std"), target_has_atomic = "64"))]
type Nanos = core::sync::atomic::AtomicI64;

/// The time of a fake clock without `std` on a target without 64-bit atomics (32-bit
/// PowerPC: its kernel is the one of the matrix whose Rust has no `AtomicI64`): the value
/// behind a lock word, with the two operations `__FakeTime` uses.
#[cfg(all(not(feature = "std"), not(target_has_atomic = "64")))]
struct Nanos {
    busy: core::sync::atomic::AtomicBool,
    value: core::cell::UnsafeCell<i64>,
}

// SAFETY: `value` is only read or written while `busy` is held (see `locked`).
#[cfg(all(not(feature = "std"), not(target_has_atomic = "64")))]
unsafe impl Sync for Nanos {}

#[cfg(all(not(feature = "std"), not(target_has_atomic = "64")))]
impl Nanos {
    const fn new(value: i64) -> Self {
        Self {
            busy: core::sync::atomic::AtomicBool::new(false),
            value: core::cell::UnsafeCell::new(value),
        }
    }

    /// Runs `f` on the value with the lock held (`f` is a load or a store: it cannot panic).
    fn locked<R>(&self, f: impl FnOnce(&mut i64) -> R) -> R {
        use core::sync::atomic::Ordering::{Acquire, Relaxed, Release};
        while self
            .busy
            .compare_exchange_weak(false, true, Acquire, Relaxed)
            .is_err()
        {
            core::hint::spin_loop();
        }
        // SAFETY: the lock is held: no other reference to the value exists until it is
        // released below.
        let result = f(unsafe { &mut *self.value.get() });
        self.busy.store(false, Release);
        result
    }

    fn load(&self, _: core::sync::atomic::Ordering) -> i64 {
        self.locked(|value| *value)
    }

    fn compare_exchange_weak(
        &self,
        current: i64,
        new: i64,
        _: core::sync::atomic::Ordering,
        _: core::sync::atomic::Ordering,
    ) -> Result<i64, i64> {
        self.locked(|value| {
            if *value == current {
                *value = new;
                Ok(current)
            } else {
                Err(*value)
            }
        })
    }
}

#[doc(inline)]
pub use crate::__kernel_core_fake_clock as fake_clock;

fake_clock! {
    /// A ready-made fake clock, for tests that need only one (see [`fake_clock!`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::extras::time::FakeClock;
    /// use kernel_core::time::{Delta, Instant};
    ///
    /// FakeClock::set(Delta::from_millis(5));
    /// let reading = Instant::<FakeClock>::now();
    /// FakeClock::advance(Delta::from_nanos(-1_000));
    /// assert_eq!(Instant::<FakeClock>::now() - reading, Delta::from_micros(-1));
    /// ```
    pub struct FakeClock;
}

#[cfg(test)]
mod tests {
    use super::fake_clock;
    use crate::time::{Delta, Instant};

    // One clock per test: `cargo test` runs tests on parallel threads.
    fake_clock! {
        struct UnitClock;
    }
    fake_clock! {
        struct NegativeClock;
    }

    #[test]
    fn fake_clock_set_and_advance() {
        assert_eq!(UnitClock::now(), Delta::ZERO);
        let zero = Instant::<UnitClock>::now();
        UnitClock::set(Delta::from_nanos(i64::MAX));
        assert_eq!(
            Instant::<UnitClock>::now() - zero,
            Delta::from_nanos(i64::MAX)
        );
        assert!(Instant::<UnitClock>::now() > zero);
        UnitClock::advance(Delta::from_nanos(-i64::MAX));
        assert!(Instant::<UnitClock>::now() == zero);
    }

    #[test]
    #[should_panic(expected = "cannot leave 0..=KTIME_MAX")]
    fn fake_clock_refuses_to_go_negative() {
        NegativeClock::advance(Delta::from_nanos(-1));
    }
}
