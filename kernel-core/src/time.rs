// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Points in time and spans of time, in nanoseconds.
//!
//! Kernel counterpart: `rust/kernel/time.rs` (7.2); C headers:
//! [`include/linux/ktime.h`](https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/include/linux/ktime.h)
//! and
//! [`include/linux/timekeeping.h`](https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/include/linux/timekeeping.h).
//!
//! C uses one type, `ktime_t` (signed 64-bit nanoseconds), for both. Here, as in the kernel
//! crate, they are two:
//!
//! - [`Instant<C>`] is a reading of clock `C` (a [`ClockSource`]), always in `0..=KTIME_MAX`.
//!   Subtracting two readings of the same clock gives a [`Delta`].
//! - [`Delta`] is a signed span: conversions from coarser units saturate at the ends of `i64`,
//!   conversions to coarser units truncate toward zero, except [`Delta::as_micros_ceil`].
//!
//! # Clocks
//!
//! | clock | in the kernel | on the host (`std` feature, Linux) |
//! |---|---|---|
//! | [`Monotonic`] | `ktime_get()` | `clock_gettime(CLOCK_MONOTONIC)` |
//! | [`RealTime`] | `ktime_get_real()` | `clock_gettime(CLOCK_REALTIME)` |
//! | [`BootTime`] | `ktime_get_boottime()` | `clock_gettime(CLOCK_BOOTTIME)` |
//! | [`Tai`] | `ktime_get_clocktai()` | `clock_gettime(CLOCK_TAI)` |
//! | [`FakeClock`], or your own from [`fake_clock!`] | a value you set | a value you set |
//!
//! On the host the kernel's clocks come from the same timekeeping, read through the C library;
//! without the `std` feature, or off Linux, only fake clocks exist. Fake clocks make time-based
//! logic testable: set them, advance them, and read them through the same [`Instant`] API.
//!
//! ```
//! use kernel_core::time::{Delta, FakeClock, Instant};
//!
//! FakeClock::set(Delta::from_secs(10));
//! let start = Instant::<FakeClock>::now();
//! FakeClock::advance(Delta::from_millis(1_500));
//! assert_eq!(start.elapsed(), Delta::from_micros(1_500_000));
//! assert_eq!(start.elapsed().as_millis(), 1_500);
//! ```
//!
//! # Overflow
//!
//! The arithmetic operators on [`Delta`] (`+`, `-`, `*`) behave like the kernel's, that is like
//! Rust's integer operators: they panic on overflow when overflow checks are on (debug builds;
//! `CONFIG_RUST_OVERFLOW_CHECKS=y` in the kernel) and wrap otherwise. Division panics on a zero
//! divisor and on `i64::MIN / -1` in every build, as integer division does. `Instant ± Delta`
//! panics whenever the result would leave `0..=KTIME_MAX`, in every build, where the kernel
//! checks only with overflow checks on. Every other function is total: see each one.
//!
//! Not provided, because they only make sense inside the kernel: `Jiffies`,
//! `msecs_to_jiffies`, and the `delay` and `hrtimer` modules.

use core::cmp::Ordering;
use core::fmt;
use core::hash::{Hash, Hasher};
use core::marker::PhantomData;
use core::ops;

/// Nanoseconds per microsecond.
///
/// # Examples
///
/// ```
/// assert_eq!(kernel_core::time::NSEC_PER_USEC, 1_000);
/// ```
pub const NSEC_PER_USEC: i64 = 1_000;

/// Nanoseconds per millisecond.
///
/// # Examples
///
/// ```
/// use kernel_core::time::{NSEC_PER_MSEC, NSEC_PER_USEC};
///
/// assert_eq!(NSEC_PER_MSEC, 1_000 * NSEC_PER_USEC);
/// ```
pub const NSEC_PER_MSEC: i64 = 1_000_000;

/// Nanoseconds per second.
///
/// # Examples
///
/// ```
/// use kernel_core::time::{NSEC_PER_MSEC, NSEC_PER_SEC};
///
/// assert_eq!(NSEC_PER_SEC, 1_000 * NSEC_PER_MSEC);
/// ```
pub const NSEC_PER_SEC: i64 = 1_000_000_000;

/// A clock that [`Instant`] can read.
///
/// # Safety
///
/// [`ClockSource::ktime_get`] must return a value in `0..=KTIME_MAX`, where `KTIME_MAX` is
/// `i64::MAX`: [`Instant`] relies on it to subtract readings without overflow.
///
/// # Examples
///
/// A clock that counts calls, one nanosecond each:
///
/// ```
/// use core::sync::atomic::{AtomicI64, Ordering};
/// use kernel_core::time::{ClockSource, Delta, Instant};
///
/// static TICKS: AtomicI64 = AtomicI64::new(0);
///
/// struct Ticker;
///
/// // SAFETY: `TICKS` starts at 0 and only grows by one per call; it would take centuries of
/// // calls to get near `i64::MAX`.
/// unsafe impl ClockSource for Ticker {
///     const ID: core::ffi::c_int = -1;
///
///     fn ktime_get() -> i64 {
///         TICKS.fetch_add(1, Ordering::Relaxed)
///     }
/// }
///
/// let first = Instant::<Ticker>::now();
/// let second = Instant::<Ticker>::now();
/// assert_eq!(second - first, Delta::from_nanos(1));
/// ```
pub unsafe trait ClockSource {
    /// The clock's `clockid_t`, as in `include/uapi/linux/time.h` (`-1` for fake clocks).
    const ID: core::ffi::c_int;

    /// Reads the clock, in nanoseconds.
    fn ktime_get() -> i64;
}

/// Declares the kernel's clock types, which read [`crate::env::clock`].
macro_rules! kernel_clocks {
    ($($(#[$meta:meta])* $name:ident = $id:ident;)*) => {$(
        $(#[$meta])*
        // Documented everywhere, usable where a clock exists to read.
        #[cfg(any(kernel, all(feature = "std", target_os = "linux"), doc))]
        #[cfg_attr(docsrs, doc(cfg(any(kernel, all(feature = "std", target_os = "linux")))))]
        pub struct $name;

        #[cfg(any(kernel, all(feature = "std", target_os = "linux")))]
        // SAFETY: `clock::read` returns readings in `0..=KTIME_MAX` (the kernel's timekeeping
        // guarantees it; the host version checks it).
        unsafe impl ClockSource for $name {
            const ID: core::ffi::c_int = crate::env::clock::$id;

            #[inline]
            fn ktime_get() -> i64 {
                crate::env::clock::read(Self::ID)
            }
        }
    )*};
}

kernel_clocks! {
    /// The monotonic clock: time since boot, not counting suspend. The usual choice.
    ///
    /// It never jumps (unlike [`RealTime`]) but follows NTP frequency adjustments.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::time::{Instant, Monotonic};
    ///
    /// let start = Instant::<Monotonic>::now();
    /// let later = Instant::<Monotonic>::now();
    /// assert!(later >= start);
    /// assert!(!start.elapsed().is_negative());
    /// ```
    Monotonic = MONOTONIC;

    /// Wall-clock time since 1970-01-01 00:00:00 UTC, ignoring leap seconds.
    ///
    /// It jumps when the time is set, and may be smeared around leap seconds.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::time::{ClockSource, Delta, RealTime};
    ///
    /// // Later than 2020-01-01.
    /// assert!(RealTime::ktime_get() > Delta::from_secs(1_577_836_800).as_nanos());
    /// ```
    RealTime = REALTIME;

    /// Like [`Monotonic`], but also counting the time the system spent suspended.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::time::{BootTime, ClockSource, Monotonic};
    ///
    /// let mono = Monotonic::ktime_get();
    /// assert!(BootTime::ktime_get() >= mono);
    /// ```
    BootTime = BOOTTIME;

    /// International Atomic Time: [`RealTime`] plus the leap seconds.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::time::{ClockSource, Tai};
    ///
    /// assert!(Tai::ktime_get() > 0);
    /// ```
    Tai = TAI;
}

/// Declares a fake clock: a [`ClockSource`] whose time is whatever the test sets.
///
/// Each declared clock keeps its own time in a `static`, starting at zero, so tests that run in
/// parallel can each use their own. The type gets three associated functions:
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
/// use kernel_core::time::{fake_clock, Delta, Instant};
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
macro_rules! fake_clock {
    ($(#[$meta:meta])* $vis:vis struct $name:ident;) => {
        $(#[$meta])*
        $vis struct $name;

        impl $name {
            #[inline]
            fn __time() -> &'static ::core::sync::atomic::AtomicI64 {
                static TIME: ::core::sync::atomic::AtomicI64 = ::core::sync::atomic::AtomicI64::new(0);
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
                Self::__time().store(since_zero.as_nanos(), ::core::sync::atomic::Ordering::SeqCst);
            }

            /// Moves the clock by `delta` (backwards if it is negative).
            ///
            /// # Panics
            ///
            /// If the time would leave `0..=KTIME_MAX`.
            #[inline]
            #[allow(dead_code)]
            $vis fn advance(delta: $crate::time::Delta) {
                let time = Self::__time();
                let mut current = time.load(::core::sync::atomic::Ordering::SeqCst);
                loop {
                    let next = match current.checked_add(delta.as_nanos()) {
                        Some(next) if next >= 0 => next,
                        _ => ::core::panic!("a fake clock cannot leave 0..=KTIME_MAX"),
                    };
                    match time.compare_exchange_weak(
                        current,
                        next,
                        ::core::sync::atomic::Ordering::SeqCst,
                        ::core::sync::atomic::Ordering::SeqCst,
                    ) {
                        Ok(_) => return,
                        Err(actual) => current = actual,
                    }
                }
            }

            /// The time since the clock's zero.
            #[inline]
            #[allow(dead_code)]
            $vis fn now() -> $crate::time::Delta {
                $crate::time::Delta::from_nanos(Self::__time().load(::core::sync::atomic::Ordering::SeqCst))
            }
        }

        // SAFETY: `set` and `advance` keep the stored time in `0..=KTIME_MAX`, and it starts at 0.
        unsafe impl $crate::time::ClockSource for $name {
            const ID: ::core::ffi::c_int = -1;

            #[inline]
            fn ktime_get() -> i64 {
                Self::__time().load(::core::sync::atomic::Ordering::SeqCst)
            }
        }
    };
}

#[doc(inline)]
pub use crate::fake_clock;

fake_clock! {
    /// A ready-made fake clock, for tests that need only one (see [`fake_clock!`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::time::{Delta, FakeClock, Instant};
    ///
    /// FakeClock::set(Delta::from_millis(5));
    /// let reading = Instant::<FakeClock>::now();
    /// FakeClock::advance(Delta::from_nanos(-1_000));
    /// assert_eq!(Instant::<FakeClock>::now() - reading, Delta::from_micros(-1));
    /// ```
    pub struct FakeClock;
}

/// A reading of clock `C`.
///
/// # Invariants
///
/// `nanos` is in `0..=KTIME_MAX`.
///
/// # Examples
///
/// ```
/// use kernel_core::time::{Delta, FakeClock, Instant};
///
/// FakeClock::set(Delta::from_secs(1));
/// let start = Instant::<FakeClock>::now();
/// let deadline = start + Delta::from_millis(20);
/// FakeClock::advance(Delta::from_millis(25));
/// assert!(Instant::<FakeClock>::now() > deadline);
/// assert_eq!(deadline - start, Delta::from_millis(20));
/// ```
#[repr(transparent)]
pub struct Instant<C: ClockSource> {
    nanos: i64,
    _clock: PhantomData<C>,
}

impl<C: ClockSource> Instant<C> {
    /// Reads clock `C`.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::time::{Delta, FakeClock, Instant};
    ///
    /// FakeClock::set(Delta::from_nanos(7));
    /// assert_eq!(Instant::<FakeClock>::now() - Instant::<FakeClock>::now(), Delta::ZERO);
    /// ```
    #[inline]
    pub fn now() -> Self {
        // INVARIANT: `ClockSource` requires `ktime_get()` to return a value in `0..=KTIME_MAX`.
        Self {
            nanos: C::ktime_get(),
            _clock: PhantomData,
        }
    }

    /// The time that passed since `self` was read, as measured now.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::time::{Delta, FakeClock, Instant};
    ///
    /// let start = Instant::<FakeClock>::now();
    /// FakeClock::advance(Delta::from_micros(3));
    /// assert_eq!(start.elapsed().as_nanos(), 3_000);
    /// ```
    #[inline]
    pub fn elapsed(&self) -> Delta {
        Self::now() - *self
    }

    /// Builds the reading `nanos`, checking the invariant.
    #[inline]
    const fn from_checked(nanos: Option<i64>) -> Self {
        match nanos {
            // INVARIANT: checked to be in `0..=KTIME_MAX`.
            Some(nanos) if nanos >= 0 => Self {
                nanos,
                _clock: PhantomData,
            },
            _ => panic!("Instant arithmetic left 0..=KTIME_MAX"),
        }
    }
}

impl<C: ClockSource> Clone for Instant<C> {
    #[inline]
    fn clone(&self) -> Self {
        *self
    }
}

impl<C: ClockSource> Copy for Instant<C> {}

impl<C: ClockSource> PartialEq for Instant<C> {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        self.nanos == other.nanos
    }
}

impl<C: ClockSource> Eq for Instant<C> {}

impl<C: ClockSource> PartialOrd for Instant<C> {
    #[inline]
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<C: ClockSource> Ord for Instant<C> {
    #[inline]
    fn cmp(&self, other: &Self) -> Ordering {
        self.nanos.cmp(&other.nanos)
    }
}

impl<C: ClockSource> Hash for Instant<C> {
    #[inline]
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.nanos.hash(state);
    }
}

impl<C: ClockSource> fmt::Debug for Instant<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Instant")
            .field("nanos", &self.nanos)
            .finish()
    }
}

impl<C: ClockSource> ops::Sub for Instant<C> {
    type Output = Delta;

    /// The span from `earlier` to `self`; it never overflows, as both are in `0..=KTIME_MAX`.
    #[inline]
    fn sub(self, earlier: Self) -> Delta {
        Delta::from_nanos(self.nanos - earlier.nanos)
    }
}

impl<C: ClockSource> ops::Add<Delta> for Instant<C> {
    type Output = Self;

    /// # Panics
    ///
    /// If the result is outside `0..=KTIME_MAX`.
    #[inline]
    fn add(self, delta: Delta) -> Self {
        Self::from_checked(self.nanos.checked_add(delta.nanos))
    }
}

impl<C: ClockSource> ops::Sub<Delta> for Instant<C> {
    type Output = Self;

    /// # Panics
    ///
    /// If the result is outside `0..=KTIME_MAX`.
    #[inline]
    fn sub(self, delta: Delta) -> Self {
        Self::from_checked(self.nanos.checked_sub(delta.nanos))
    }
}

/// A span of time: any `i64` number of nanoseconds, negative ones included.
///
/// # Examples
///
/// ```
/// use kernel_core::time::Delta;
///
/// let timeout = Delta::from_millis(250);
/// let slept = Delta::from_micros(180_000);
/// let left = timeout - slept;
/// assert_eq!(left.as_millis(), 70);
/// assert!(!left.is_negative());
/// assert_eq!((slept - timeout).as_micros_ceil(), -70_000);
/// ```
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Delta {
    nanos: i64,
}

// Written out, not derived, only to be `#[inline]`: a derived `Debug` is compiled into
// kernel-core's own object, which Kbuild links whole into every module (`cargo xtask bench`).
impl fmt::Debug for Delta {
    #[inline]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Delta").field("nanos", &self.nanos).finish()
    }
}

/// Converts `value` units of `nanos_per_unit` nanoseconds, saturating at the ends of `i64`.
#[inline]
const fn saturating_units(value: i64, nanos_per_unit: i64) -> Delta {
    Delta {
        nanos: value.saturating_mul(nanos_per_unit),
    }
}

impl Delta {
    /// No time at all.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::time::Delta;
    ///
    /// assert!(Delta::ZERO.is_zero());
    /// assert_eq!(Delta::ZERO, Delta::from_secs(0));
    /// ```
    pub const ZERO: Self = Self { nanos: 0 };

    /// A span of `nanos` nanoseconds.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::time::Delta;
    ///
    /// assert_eq!(Delta::from_nanos(1_500).as_micros_ceil(), 2);
    /// assert_eq!(Delta::from_nanos(i64::MIN).as_nanos(), i64::MIN);
    /// ```
    #[inline]
    pub const fn from_nanos(nanos: i64) -> Self {
        Self { nanos }
    }

    /// A span of `micros` microseconds, saturating at `i64::MIN`/`i64::MAX` nanoseconds.
    ///
    /// Exact for `-9_223_372_036_854_775..=9_223_372_036_854_775`.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::time::Delta;
    ///
    /// assert_eq!(Delta::from_micros(-3).as_nanos(), -3_000);
    /// assert_eq!(Delta::from_micros(9_223_372_036_854_775).as_nanos(), 9_223_372_036_854_775_000);
    /// assert_eq!(Delta::from_micros(9_223_372_036_854_776).as_nanos(), i64::MAX);
    /// assert_eq!(Delta::from_micros(i64::MIN).as_nanos(), i64::MIN);
    /// ```
    #[inline]
    pub const fn from_micros(micros: i64) -> Self {
        saturating_units(micros, NSEC_PER_USEC)
    }

    /// A span of `millis` milliseconds, saturating at `i64::MIN`/`i64::MAX` nanoseconds.
    ///
    /// Exact for `-9_223_372_036_854..=9_223_372_036_854`.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::time::Delta;
    ///
    /// assert_eq!(Delta::from_millis(2).as_nanos(), 2_000_000);
    /// assert_eq!(Delta::from_millis(-9_223_372_036_855).as_nanos(), i64::MIN);
    /// ```
    #[inline]
    pub const fn from_millis(millis: i64) -> Self {
        saturating_units(millis, NSEC_PER_MSEC)
    }

    /// A span of `secs` seconds, saturating at `i64::MIN`/`i64::MAX` nanoseconds.
    ///
    /// Exact for `-9_223_372_036..=9_223_372_036`.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::time::Delta;
    ///
    /// assert_eq!(Delta::from_secs(1), Delta::from_millis(1_000));
    /// assert_eq!(Delta::from_secs(9_223_372_037).as_nanos(), i64::MAX);
    /// ```
    #[inline]
    pub const fn from_secs(secs: i64) -> Self {
        saturating_units(secs, NSEC_PER_SEC)
    }

    /// Whether the span is empty.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::time::Delta;
    ///
    /// assert!(Delta::from_nanos(0).is_zero());
    /// assert!(!Delta::from_nanos(-1).is_zero());
    /// ```
    #[inline]
    pub const fn is_zero(self) -> bool {
        self.nanos == 0
    }

    /// Whether the span is negative.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::time::Delta;
    ///
    /// assert!(Delta::from_nanos(-1).is_negative());
    /// assert!(!Delta::ZERO.is_negative());
    /// ```
    #[inline]
    pub const fn is_negative(self) -> bool {
        self.nanos < 0
    }

    /// The span in nanoseconds.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::time::Delta;
    ///
    /// assert_eq!(Delta::from_micros(2).as_nanos(), 2_000);
    /// ```
    #[inline]
    pub const fn as_nanos(self) -> i64 {
        self.nanos
    }

    /// The smallest whole number of microseconds that is not shorter than the span.
    ///
    /// Rounds toward positive infinity, so negative spans round toward zero. Total: there is no
    /// value it cannot convert (the `(n + 999) / 1000` shortcut would overflow near `i64::MAX`).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::time::Delta;
    ///
    /// assert_eq!(Delta::from_nanos(1).as_micros_ceil(), 1);
    /// assert_eq!(Delta::from_nanos(1_000).as_micros_ceil(), 1);
    /// assert_eq!(Delta::from_nanos(-1_999).as_micros_ceil(), -1);
    /// assert_eq!(Delta::from_nanos(i64::MAX).as_micros_ceil(), 9_223_372_036_854_776);
    /// ```
    #[inline]
    pub const fn as_micros_ceil(self) -> i64 {
        // Truncating division rounds toward zero, which is already up for negative spans;
        // a positive remainder means one more. Neither step can overflow, and the optimizer
        // turns the pair into one multiply-high and a compare, without a branch.
        let micros = self.nanos / NSEC_PER_USEC;
        if self.nanos % NSEC_PER_USEC > 0 {
            micros + 1
        } else {
            micros
        }
    }

    /// The span in whole milliseconds, truncated toward zero.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::time::Delta;
    ///
    /// assert_eq!(Delta::from_micros(1_999).as_millis(), 1);
    /// assert_eq!(Delta::from_micros(-1_999).as_millis(), -1);
    /// ```
    #[inline]
    pub const fn as_millis(self) -> i64 {
        self.nanos / NSEC_PER_MSEC
    }

    /// `self % divisor`, with `divisor` in nanoseconds: what is left of the span after whole
    /// multiples of `divisor`.
    ///
    /// The divisor is an `i32` because 32-bit kernels have no `s64 % s64`. The result has the
    /// sign of `self`, like Rust's `%`. A divisor of `-1` always leaves [`Delta::ZERO`], for
    /// `i64::MIN` too, where a plain `%` (and the kernel's version) would panic.
    ///
    /// # Panics
    ///
    /// If `divisor` is 0.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::time::{Delta, NSEC_PER_MSEC};
    ///
    /// let frame = NSEC_PER_MSEC as i32 * 16;
    /// assert_eq!(Delta::from_millis(100).rem_nanos(frame), Delta::from_millis(4));
    /// assert_eq!(Delta::from_millis(-100).rem_nanos(frame), Delta::from_millis(-4));
    /// assert_eq!(Delta::from_nanos(i64::MIN).rem_nanos(-1), Delta::ZERO);
    /// ```
    #[inline]
    pub const fn rem_nanos(self, divisor: i32) -> Self {
        // `as` widens losslessly; `i64::from` is not callable in a `const fn`.
        #[allow(clippy::cast_lossless)]
        let divisor = divisor as i64;
        // `x % -1` is 0 for every `x`; answering it here keeps `i64::MIN % -1`, the one case
        // where `%` overflows, from panicking. A zero divisor still panics in `%`.
        Self {
            nanos: if divisor == -1 {
                0
            } else {
                self.nanos % divisor
            },
        }
    }
}

impl ops::Add for Delta {
    type Output = Self;

    #[inline]
    fn add(self, rhs: Self) -> Self {
        Self {
            nanos: self.nanos + rhs.nanos,
        }
    }
}

impl ops::AddAssign for Delta {
    #[inline]
    fn add_assign(&mut self, rhs: Self) {
        self.nanos += rhs.nanos;
    }
}

impl ops::Sub for Delta {
    type Output = Self;

    #[inline]
    fn sub(self, rhs: Self) -> Self {
        Self {
            nanos: self.nanos - rhs.nanos,
        }
    }
}

impl ops::SubAssign for Delta {
    #[inline]
    fn sub_assign(&mut self, rhs: Self) {
        self.nanos -= rhs.nanos;
    }
}

impl ops::Mul<i64> for Delta {
    type Output = Self;

    #[inline]
    fn mul(self, rhs: i64) -> Self {
        Self {
            nanos: self.nanos * rhs,
        }
    }
}

impl ops::MulAssign<i64> for Delta {
    #[inline]
    fn mul_assign(&mut self, rhs: i64) {
        self.nanos *= rhs;
    }
}

impl ops::Div for Delta {
    type Output = i64;

    /// How many times `rhs` fits in `self`, truncated toward zero.
    ///
    /// # Panics
    ///
    /// If `rhs` is zero, or for `i64::MIN` nanoseconds divided by `-1` nanosecond.
    #[inline]
    fn div(self, rhs: Self) -> i64 {
        self.nanos / rhs.nanos
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        UnitClock::advance(Delta::from_nanos(-i64::MAX));
        assert_eq!(Instant::<UnitClock>::now(), zero);
    }

    #[test]
    #[should_panic(expected = "cannot leave 0..=KTIME_MAX")]
    fn fake_clock_refuses_to_go_negative() {
        NegativeClock::advance(Delta::from_nanos(-1));
    }

    #[test]
    #[should_panic(expected = "Instant arithmetic left 0..=KTIME_MAX")]
    fn instant_add_overflow_panics() {
        let _ = Instant::<FakeClock> {
            nanos: i64::MAX,
            _clock: PhantomData,
        } + Delta::from_nanos(1);
    }

    #[test]
    #[should_panic(expected = "Instant arithmetic left 0..=KTIME_MAX")]
    fn instant_sub_below_zero_panics() {
        let _ = Instant::<FakeClock> {
            nanos: 0,
            _clock: PhantomData,
        } - Delta::from_nanos(1);
    }

    #[test]
    fn instant_extremes() {
        let max = Instant::<FakeClock> {
            nanos: i64::MAX,
            _clock: PhantomData,
        };
        let min = max - Delta::from_nanos(i64::MAX);
        assert_eq!(max - min, Delta::from_nanos(i64::MAX));
        assert_eq!(min - max, Delta::from_nanos(-i64::MAX));
        assert_eq!(min + Delta::from_nanos(i64::MAX), max);
    }

    #[cfg(all(feature = "std", target_os = "linux"))]
    #[test]
    fn host_clocks_are_readable_and_ordered() {
        let mono = Instant::<Monotonic>::now();
        assert!(Instant::<Monotonic>::now() >= mono);
        // 2020-01-01 in nanoseconds since the epoch.
        assert!(RealTime::ktime_get() > 1_577_836_800 * NSEC_PER_SEC);
    }

    // Miri knows only the realtime and monotonic clocks.
    #[cfg(all(feature = "std", target_os = "linux", not(miri)))]
    #[test]
    fn host_boot_and_tai_clocks() {
        let mono = Monotonic::ktime_get();
        assert!(BootTime::ktime_get() >= mono);
        assert!(Tai::ktime_get() >= RealTime::ktime_get() - NSEC_PER_SEC);
    }
}
