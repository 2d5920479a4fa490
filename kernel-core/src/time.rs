// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Points in time and spans of time.
//!
//! Kernel counterpart: `rust/kernel/time.rs` (Linux 7.3); C headers:
//! [`include/linux/ktime.h`](https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/include/linux/ktime.h),
//! [`include/linux/jiffies.h`](https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/include/linux/jiffies.h)
//! and
//! [`include/linux/timekeeping.h`](https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/include/linux/timekeeping.h).
//!
//! C uses one type, `ktime_t` (signed 64-bit nanoseconds), for both. Here, as in the kernel
//! crate, they are two:
//!
//! - [`Instant<C>`] is a reading of clock `C` (a [`ClockSource`]), in `0..=KTIME_MAX`.
//!   Subtracting two readings of the same clock gives a [`Delta`].
//! - [`Delta<U>`] is a signed span in the unit `U` (a [`TimeUnit`]): [`Nsec`], the default, or
//!   [`Jiffy`]. A plain `Delta` counts nanoseconds: conversions from coarser units saturate at
//!   the ends of `i64`, conversions to coarser units truncate toward zero, except
//!   [`Delta::as_micros_ceil`] and [`Delta::as_millis_ceil`], which round toward +∞.
//!
//! Everything here has the signature and the behaviour of Linux 7.3's `kernel::time`, on every
//! kernel and on the host, down to what is *not* implemented: an `Instant` of a kernel clock
//! cannot be compared or printed, exactly as in the kernel, whose derives need the clock type
//! to implement those traits. Fake clocks for tests are an addition and live in
//! [`extras::time`](crate::extras::time).
//!
//! # Clocks
//!
//! | clock | in the kernel | on the host (`std` feature, Linux) |
//! |---|---|---|
//! | [`Monotonic`] | `ktime_get()` | `clock_gettime(CLOCK_MONOTONIC)` |
//! | [`RealTime`] | `ktime_get_real()` | `clock_gettime(CLOCK_REALTIME)` |
//! | [`BootTime`] | `ktime_get_boottime()` | `clock_gettime(CLOCK_BOOTTIME)` |
//! | [`Tai`] | `ktime_get_clocktai()` | `clock_gettime(CLOCK_TAI)` |
//!
//! Without the `std` feature, or off Linux, the host has no kernel clock; fake clocks
//! ([`extras::time::FakeClock`](crate::extras::time::FakeClock)) work everywhere.
//!
//! ```
//! use kernel_core::time::{Delta, Instant};
//! use kernel_core::extras::time::FakeClock;
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
//! As in the kernel, the arithmetic operators on [`Delta`] (`+`, `-`, `*`) and `Instant ±
//! Delta` behave like Rust's integer operators: they panic on overflow when overflow checks
//! are on (`CONFIG_RUST_OVERFLOW_CHECKS=y` in the kernel; debug assertions on the host) and
//! wrap otherwise. With overflow checks on, `Instant ± Delta` also panics when the result is
//! negative; without them it wraps into a value outside `0..=KTIME_MAX`, as the kernel's does.
//! Division, and [`Delta::rem_nanos`], panic on a zero divisor in every build, as integer
//! division does, and on `i64::MIN / -1` (`% -1`) on 64-bit targets; every other function is
//! total: see each one.
//!
//! # 32-bit targets
//!
//! Where Linux 7.3 takes other paths without `CONFIG_64BIT`, so does kernel-core, on 32-bit
//! kernels (arm) and on 32-bit hosts (i686) alike: `Delta / Delta` calls the kernel's
//! `div64_s64()`, [`Delta::rem_nanos`] its `div_s64_rem()`, and [`Delta::as_micros_ceil`],
//! [`Delta::as_millis`] and [`Delta::as_millis_ceil`] its `ktime_to_us()` and `ktime_to_ms()`
//! (in the kernel through its functions, on the host computed as their C computes them). The
//! results are the same as on 64-bit targets except at the one overflow: there
//! `i64::MIN / -1` nanoseconds is `i64::MIN` and `rem_nanos(-1)` of `i64::MIN` is zero, where
//! 64-bit targets panic.
//!
//! # Waiting
//!
//! [`delay::fsleep`] sleeps and [`delay::udelay`] busy-waits for a [`Delta`], and
//! [`io::poll`](crate::io::poll) polls a register until a condition or a timeout; on the host,
//! with `std`, on the real clock, or in a test's virtual time
//! ([`extras::virtual_time`](crate::extras::virtual_time)), where a 3-second timeout takes
//! microseconds. [`msecs_to_jiffies`] converts milliseconds into the kernel's ticks.
//!
//! Not provided: the `hrtimer` module, which needs the kernel's timers. On Linux 7.1 and
//! later, a kernel-core [`Delta`] converts into the kernel's with `.into()` (and back), so it
//! reaches the hrtimer APIs directly.

use core::marker::PhantomData;
use core::ops;

pub mod delay;

/// A count of jiffies, the kernel's scheduler ticks: `HZ` per second. An `unsigned long`, as
/// in C (`usize`: the kernel crate's `c_ulong`).
///
/// How long a jiffy is depends on the kernel's `CONFIG_HZ` (100 to 1000); on the host, `HZ` is
/// 250, the default of `kernel/Kconfig.hz`.
///
/// # Examples
///
/// ```
/// use kernel_core::time::{msecs_to_jiffies, Jiffies};
///
/// let ticks: Jiffies = msecs_to_jiffies(1_000);
/// assert!(ticks >= 100 && ticks <= 1_000);
/// ```
pub type Jiffies = usize;

/// A count of milliseconds, as C's `unsigned int` (`u32`).
///
/// # Examples
///
/// ```
/// use kernel_core::time::Msecs;
///
/// let timeout: Msecs = 250;
/// # let _ = timeout;
/// ```
pub type Msecs = u32;

/// `msecs` milliseconds in jiffies, rounded up: the C side's `__msecs_to_jiffies()`.
///
/// A value above `i32::MAX` (a negative `int` in C) means an infinite timeout, and gives
/// `MAX_JIFFY_OFFSET` (`(LONG_MAX >> 1) - 1`), as does a result that would exceed it (only
/// possible when `HZ` is above 1000). In the kernel this calls the kernel's own function, for
/// its `HZ`; on the host `HZ` is 250, so a jiffy is 4 ms.
///
/// # Examples
///
/// ```
/// use kernel_core::time::msecs_to_jiffies;
///
/// assert_eq!(msecs_to_jiffies(0), 0);
/// assert!(msecs_to_jiffies(1) >= 1); // rounded up: never a shorter wait
/// assert_eq!(msecs_to_jiffies(u32::MAX), (isize::MAX as usize >> 1) - 1);
/// # // The host's HZ.
/// # assert_eq!(msecs_to_jiffies(1_000), 250);
/// ```
#[inline]
pub fn msecs_to_jiffies(msecs: Msecs) -> Jiffies {
    crate::env::delay::msecs_to_jiffies(msecs)
}

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
/// // `AtomicIsize`, which every target has (32-bit PowerPC has no `AtomicI64`).
/// use core::sync::atomic::{AtomicIsize, Ordering};
/// use kernel_core::time::{ClockSource, Delta, Instant};
///
/// static TICKS: AtomicIsize = AtomicIsize::new(0);
///
/// struct Ticker;
///
/// // SAFETY: `TICKS` starts at 0 and only grows by one per call; it would take billions of
/// // calls to get near `isize::MAX`, let alone `i64::MAX`.
/// unsafe impl ClockSource for Ticker {
///     const ID: core::ffi::c_int = -1;
///
///     fn ktime_get() -> i64 {
///         TICKS.fetch_add(1, Ordering::Relaxed) as i64
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
    /// assert!(!(later - start).is_negative());
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

/// A reading of clock `C`.
///
/// Comparisons (`==`, `<`, ...) are derived, as in the kernel: they exist for `Instant<C>`
/// when `C` implements them, which the kernel's clocks ([`Monotonic`], ...) do not, and
/// kernel-core's fake clocks do. Compare spans instead: `(later - start).is_negative()`.
///
/// # Invariants
///
/// `inner` is in `0..=KTIME_MAX`, unless `Instant ± Delta` wrapped with overflow checks off
/// (see [the module documentation](self#overflow)).
///
/// # Examples
///
/// ```
/// use kernel_core::extras::time::FakeClock;
/// use kernel_core::time::{Delta, Instant};
///
/// FakeClock::set(Delta::from_secs(1));
/// let start = Instant::<FakeClock>::now();
/// let deadline = start + Delta::from_millis(20);
/// FakeClock::advance(Delta::from_millis(25));
/// assert!(Instant::<FakeClock>::now() > deadline);
/// assert_eq!(deadline - start, Delta::from_millis(20));
/// ```
#[repr(transparent)]
#[derive(PartialEq, PartialOrd, Eq, Ord)]
pub struct Instant<C: ClockSource> {
    inner: i64,
    _c: PhantomData<C>,
}

impl<C: ClockSource> Clone for Instant<C> {
    #[inline]
    fn clone(&self) -> Self {
        *self
    }
}

impl<C: ClockSource> Copy for Instant<C> {}

impl<C: ClockSource> Instant<C> {
    /// Reads clock `C`.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::extras::time::FakeClock;
    /// use kernel_core::time::{Delta, Instant};
    ///
    /// FakeClock::set(Delta::from_nanos(7));
    /// assert_eq!(Instant::<FakeClock>::now() - Instant::<FakeClock>::now(), Delta::ZERO);
    /// ```
    #[inline]
    pub fn now() -> Self {
        // INVARIANT: `ClockSource` requires `ktime_get()` to return a value in `0..=KTIME_MAX`.
        Self {
            inner: C::ktime_get(),
            _c: PhantomData,
        }
    }

    /// The time that passed since `self` was read, as measured now.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::extras::time::FakeClock;
    /// use kernel_core::time::{Delta, Instant};
    ///
    /// let start = Instant::<FakeClock>::now();
    /// FakeClock::advance(Delta::from_micros(3));
    /// assert_eq!(start.elapsed().as_nanos(), 3_000);
    /// ```
    #[inline]
    pub fn elapsed(&self) -> Delta {
        Self::now() - *self
    }

    /// `res`, after the kernel's check that `Instant ± Delta` stayed non-negative, made only
    /// when overflow checks are on (`CONFIG_RUST_OVERFLOW_CHECKS`), as in the kernel, and with
    /// the kernel's message, `assertion failed: res >= 0`.
    #[inline]
    fn checked(res: i64) -> Self {
        if crate::env::OVERFLOW_CHECKS {
            assert!(res >= 0);
        }
        // INVARIANT: checked above with overflow checks on; without them, the kernel (and so
        // this crate) lets the value wrap, as the type documents.
        Self {
            inner: res,
            _c: PhantomData,
        }
    }
}

impl<C: ClockSource> ops::Sub for Instant<C> {
    type Output = Delta;

    /// The span from `earlier` to `self`; it cannot overflow while both are in
    /// `0..=KTIME_MAX`.
    #[inline]
    fn sub(self, earlier: Self) -> Delta {
        Delta {
            value: self.inner - earlier.inner,
        }
    }
}

impl<C: ClockSource> ops::Add<Delta> for Instant<C> {
    type Output = Self;

    /// # Panics
    ///
    /// With overflow checks on, if the result is outside `0..=KTIME_MAX`; without them, it
    /// wraps (see [the module documentation](self#overflow)).
    #[inline]
    fn add(self, delta: Delta) -> Self {
        Self::checked(self.inner + delta.value)
    }
}

impl<C: ClockSource> ops::Sub<Delta> for Instant<C> {
    type Output = Self;

    /// # Panics
    ///
    /// With overflow checks on, if the result is outside `0..=KTIME_MAX`; without them, it
    /// wraps (see [the module documentation](self#overflow)).
    #[inline]
    fn sub(self, delta: Delta) -> Self {
        Self::checked(self.inner - delta.value)
    }
}

/// Keeps [`TimeUnit`] closed: the units are the kernel's two.
mod private {
    pub trait Sealed {}

    impl Sealed for super::Nsec {}
    impl Sealed for super::Jiffy {}
}

/// The unit of a [`Delta`]: [`Nsec`] or [`Jiffy`]. Sealed, as in the kernel.
///
/// # Examples
///
/// ```
/// use kernel_core::time::{Delta, Jiffy, Nsec, TimeUnit};
///
/// fn raw<U: TimeUnit>(value: U::Repr) -> U::Repr {
///     value
/// }
/// assert_eq!(raw::<Nsec>(-5_i64), -5);
/// assert_eq!(raw::<Jiffy>(250_isize), Delta::from_jiffies(250).as_jiffies());
/// ```
pub trait TimeUnit: private::Sealed {
    /// The integer a span in this unit is stored as.
    type Repr: Copy + Clone + PartialEq + PartialOrd + Eq + Ord + core::fmt::Debug;
}

/// Nanoseconds, stored as `i64`: the unit of a plain [`Delta`].
///
/// # Examples
///
/// ```
/// use kernel_core::time::{Delta, Nsec};
///
/// let span: Delta<Nsec> = Delta::from_micros(2);
/// assert_eq!(span, Delta::from_nanos(2_000));
/// ```
#[derive(Copy, Clone, PartialEq, PartialOrd, Eq, Ord, Debug)]
pub enum Nsec {}

impl TimeUnit for Nsec {
    type Repr = i64;
}

/// Jiffies, the kernel's scheduler ticks, stored as `isize`.
///
/// A `Delta<Jiffy>` only holds and returns its count: how long a jiffy is depends on the
/// kernel's `HZ`.
///
/// # Examples
///
/// ```
/// use kernel_core::time::{Delta, Jiffy};
///
/// let ticks: Delta<Jiffy> = Delta::from_jiffies(-3);
/// assert_eq!(ticks.as_jiffies(), -3);
/// ```
#[derive(Copy, Clone, PartialEq, PartialOrd, Eq, Ord, Debug)]
pub enum Jiffy {}

impl TimeUnit for Jiffy {
    type Repr = isize;
}

/// A span of time in unit `U`: any value of `U::Repr`, negative ones included.
///
/// A plain `Delta` is `Delta<Nsec>`, a span of `i64` nanoseconds; the arithmetic operators and
/// the conversions exist for it only. `Delta<Jiffy>` counts jiffies. Its `Debug` output is the
/// kernel's: `Delta { value: 5 }`.
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
/// assert_eq!(format!("{:?}", Delta::from_nanos(5)), "Delta { value: 5 }");
/// ```
#[derive(Copy, Clone, PartialEq, PartialOrd, Eq, Ord, Debug)]
pub struct Delta<U: TimeUnit = Nsec> {
    value: U::Repr,
}

impl Delta<Jiffy> {
    /// A span of `jiffies` jiffies.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::time::Delta;
    ///
    /// assert_eq!(Delta::from_jiffies(isize::MIN).as_jiffies(), isize::MIN);
    /// ```
    #[inline]
    pub const fn from_jiffies(jiffies: isize) -> Self {
        Self { value: jiffies }
    }

    /// The span in jiffies.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::time::Delta;
    ///
    /// const TICK: isize = Delta::from_jiffies(1).as_jiffies();
    /// assert_eq!(TICK, 1);
    /// ```
    #[inline]
    pub const fn as_jiffies(self) -> isize {
        self.value
    }
}

/// Converts `value` units of `nanos_per_unit` nanoseconds, saturating at the ends of `i64`.
#[inline]
const fn saturating_units(value: i64, nanos_per_unit: i64) -> Delta {
    Delta {
        value: value.saturating_mul(nanos_per_unit),
    }
}

/// `nanos` divided by a positive `unit`, rounded toward +∞, for any `nanos`.
///
/// Truncating division already rounds negative values up; a positive remainder means one
/// more. Neither step can overflow (`(n + unit - 1) / unit` would, near `i64::MAX`), and the
/// optimizer turns the pair into one multiply-high and a compare, without a branch. The kernel
/// computes `(n - 1) / unit + 1` for positive `n`, which gives the same result for every `n`
/// (the differential tests compare every value within a unit of both ends of `i64`). 32-bit
/// targets take 7.3's way, through the kernel's `ktime_to_us()` and `ktime_to_ms()`.
#[cfg(target_pointer_width = "64")]
#[inline]
fn div_ceil(nanos: i64, unit: i64) -> i64 {
    let quotient = nanos / unit;
    if nanos % unit > 0 {
        quotient + 1
    } else {
        quotient
    }
}

/// `(n - 1, 1)` for a positive `n`, `(n, 0)` otherwise: Linux 7.3's way to round up with a
/// truncating division on 32-bit kernels, `(n - 1) / unit + 1`, which cannot overflow.
#[cfg(not(target_pointer_width = "64"))]
#[inline]
fn positive_minus_one(n: i64) -> (i64, i64) {
    if n > 0 {
        (n - 1, 1)
    } else {
        (n, 0)
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
    pub const ZERO: Self = Self { value: 0 };

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
        Self { value: nanos }
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
    /// Not a `const fn`, as in the kernel.
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
    pub fn is_zero(self) -> bool {
        self.value == 0
    }

    /// Whether the span is negative.
    ///
    /// Not a `const fn`, as in the kernel.
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
    pub fn is_negative(self) -> bool {
        self.value < 0
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
        self.value
    }

    /// The smallest whole number of microseconds that is not shorter than the span.
    ///
    /// Rounds toward positive infinity, so negative spans round toward zero. Total: there is no
    /// value it cannot convert, `i64::MAX` included.
    ///
    /// On 32-bit targets, the kernel's `ktime_to_us()` does the division, as in Linux 7.3.
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
    pub fn as_micros_ceil(self) -> i64 {
        #[cfg(target_pointer_width = "64")]
        {
            div_ceil(self.value, NSEC_PER_USEC)
        }
        #[cfg(not(target_pointer_width = "64"))]
        {
            // As 7.3 does it: one less than a positive value, truncated, plus one.
            let (n, add) = positive_minus_one(self.value);
            crate::env::math::ktime_to_us(n) + add
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
    pub fn as_millis(self) -> i64 {
        #[cfg(target_pointer_width = "64")]
        {
            self.value / NSEC_PER_MSEC
        }
        #[cfg(not(target_pointer_width = "64"))]
        {
            crate::env::math::ktime_to_ms(self.value)
        }
    }

    /// The smallest whole number of milliseconds that is not shorter than the span.
    ///
    /// Rounds toward positive infinity, so negative spans round toward zero. Total: there is no
    /// value it cannot convert, `i64::MAX` included (where `(n + 999_999) / 1_000_000` would
    /// overflow).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::time::Delta;
    ///
    /// assert_eq!(Delta::from_nanos(1).as_millis_ceil(), 1);
    /// assert_eq!(Delta::from_micros(2_000).as_millis_ceil(), 2);
    /// assert_eq!(Delta::from_nanos(-1_999_999).as_millis_ceil(), -1);
    /// assert_eq!(Delta::from_nanos(i64::MAX).as_millis_ceil(), 9_223_372_036_855);
    /// assert_eq!(Delta::from_nanos(i64::MIN).as_millis_ceil(), -9_223_372_036_854);
    /// ```
    #[inline]
    pub fn as_millis_ceil(self) -> i64 {
        #[cfg(target_pointer_width = "64")]
        {
            div_ceil(self.value, NSEC_PER_MSEC)
        }
        #[cfg(not(target_pointer_width = "64"))]
        {
            let (n, add) = positive_minus_one(self.value);
            crate::env::math::ktime_to_ms(n) + add
        }
    }

    /// `self % divisor`, with `divisor` in nanoseconds: what is left of the span after whole
    /// multiples of `divisor`.
    ///
    /// The divisor is an `i32` because 32-bit kernels have no `s64 % s64`. The result has the
    /// sign of `self`, like Rust's `%`.
    ///
    /// On 32-bit targets the kernel's `div_s64_rem()` computes it, as in Linux 7.3: the same
    /// remainders, and zero for `i64::MIN` nanoseconds with a divisor of `-1`.
    ///
    /// # Panics
    ///
    /// If `divisor` is 0, in every build; on 64-bit targets also for `i64::MIN` nanoseconds
    /// with a divisor of `-1` (the one remainder that overflows), as in the kernel.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::time::{Delta, NSEC_PER_MSEC};
    ///
    /// let frame = NSEC_PER_MSEC as i32 * 16;
    /// assert_eq!(Delta::from_millis(100).rem_nanos(frame), Delta::from_millis(4));
    /// assert_eq!(Delta::from_millis(-100).rem_nanos(frame), Delta::from_millis(-4));
    /// assert_eq!(Delta::from_nanos(i64::MAX).rem_nanos(-1), Delta::ZERO);
    /// ```
    #[inline]
    pub fn rem_nanos(self, divisor: i32) -> Self {
        #[cfg(target_pointer_width = "64")]
        {
            Self {
                value: self.value % i64::from(divisor),
            }
        }
        #[cfg(not(target_pointer_width = "64"))]
        {
            let (_, remainder) = crate::env::math::div_s64_rem(self.value, divisor);
            Self {
                value: i64::from(remainder),
            }
        }
    }
}

impl ops::Add for Delta {
    type Output = Self;

    #[inline]
    fn add(self, rhs: Self) -> Self {
        Self {
            value: self.value + rhs.value,
        }
    }
}

impl ops::AddAssign for Delta {
    #[inline]
    fn add_assign(&mut self, rhs: Self) {
        self.value += rhs.value;
    }
}

impl ops::Sub for Delta {
    type Output = Self;

    #[inline]
    fn sub(self, rhs: Self) -> Self {
        Self {
            value: self.value - rhs.value,
        }
    }
}

impl ops::SubAssign for Delta {
    #[inline]
    fn sub_assign(&mut self, rhs: Self) {
        self.value -= rhs.value;
    }
}

impl ops::Mul<i64> for Delta {
    type Output = Self;

    #[inline]
    fn mul(self, rhs: i64) -> Self {
        Self {
            value: self.value * rhs,
        }
    }
}

impl ops::MulAssign<i64> for Delta {
    #[inline]
    fn mul_assign(&mut self, rhs: i64) {
        self.value *= rhs;
    }
}

impl ops::Div for Delta {
    type Output = i64;

    /// How many times `rhs` fits in `self`, truncated toward zero. On 32-bit targets the
    /// kernel's `div64_s64()` computes it, as in Linux 7.3.
    ///
    /// # Panics
    ///
    /// If `rhs` is zero; on 64-bit targets also for `i64::MIN` nanoseconds divided by `-1`
    /// nanosecond (which is `i64::MIN` on 32-bit ones, as C's `div64_s64()` computes it).
    #[inline]
    fn div(self, rhs: Self) -> i64 {
        #[cfg(target_pointer_width = "64")]
        {
            self.value / rhs.value
        }
        #[cfg(not(target_pointer_width = "64"))]
        {
            crate::env::math::div64_s64(self.value, rhs.value)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extras::time::FakeClock;

    fn at(inner: i64) -> Instant<FakeClock> {
        Instant {
            inner,
            _c: PhantomData,
        }
    }

    #[test]
    #[cfg_attr(not(debug_assertions), ignore = "overflow checks are off")]
    #[should_panic(expected = "overflow")]
    fn instant_add_overflow_panics_with_overflow_checks() {
        let _ = at(i64::MAX) + Delta::from_nanos(1);
    }

    #[test]
    #[cfg_attr(not(debug_assertions), ignore = "overflow checks are off")]
    #[should_panic(expected = "assertion failed: res >= 0")]
    fn instant_sub_below_zero_panics_with_overflow_checks() {
        let _ = at(0) - Delta::from_nanos(1);
    }

    #[test]
    #[cfg_attr(debug_assertions, ignore = "overflow checks are on")]
    fn instant_arithmetic_wraps_without_overflow_checks() {
        assert_eq!((at(i64::MAX) + Delta::from_nanos(1)).inner, i64::MIN);
        assert_eq!((at(0) - Delta::from_nanos(1)).inner, -1);
    }

    #[test]
    fn instant_extremes() {
        let max = at(i64::MAX);
        let min = max - Delta::from_nanos(i64::MAX);
        assert_eq!(max - min, Delta::from_nanos(i64::MAX));
        assert_eq!(min - max, Delta::from_nanos(-i64::MAX));
        assert!(min + Delta::from_nanos(i64::MAX) == max);
        assert!(min < max);
    }

    #[test]
    fn ceilings_near_the_ends() {
        for n in [
            i64::MAX,
            i64::MAX - 1,
            i64::MAX - 999_999,
            i64::MIN,
            i64::MIN + 1,
        ] {
            let d = Delta::from_nanos(n);
            assert_eq!(
                i128::from(d.as_millis_ceil()),
                i128::from(n).div_euclid(1_000_000) + i128::from(n.rem_euclid(1_000_000) != 0)
            );
            assert_eq!(
                i128::from(d.as_micros_ceil()),
                i128::from(n).div_euclid(1_000) + i128::from(n.rem_euclid(1_000) != 0)
            );
        }
    }

    /// The operations that Linux 7.3 computes through the kernel's C without `CONFIG_64BIT`
    /// call it on 32-bit targets, and only there; on 64-bit ones they are Rust's operators.
    #[test]
    fn thirty_two_bit_paths_call_the_kernels_divisions() {
        use crate::env::math::calls;

        let d = Delta::from_nanos(1_500_001);
        let _ = calls::take();
        let results = (
            d.as_micros_ceil(),
            d.as_millis(),
            d.as_millis_ceil(),
            d.rem_nanos(1_000),
            d / Delta::from_micros(1),
        );
        assert_eq!(results, (1_501, 1, 2, Delta::from_nanos(1), 1_500));
        let expected: &[&str] = if cfg!(target_pointer_width = "64") {
            &[]
        } else {
            &[
                "ktime_to_us",
                "ktime_to_ms",
                "ktime_to_ms",
                "div_s64_rem",
                "div64_s64",
            ]
        };
        assert_eq!(calls::take(), expected);
    }

    /// The one overflow of a division: a panic on 64-bit targets, C's wrapping result on 32-bit
    /// ones, as in Linux 7.3.
    #[test]
    fn the_overflowing_division_follows_the_kernel() {
        extern crate std;
        let min = Delta::from_nanos(i64::MIN);
        let div = std::panic::catch_unwind(|| min / Delta::from_nanos(-1));
        let rem = std::panic::catch_unwind(|| min.rem_nanos(-1));
        if cfg!(target_pointer_width = "64") {
            assert!(div.is_err() && rem.is_err());
        } else {
            assert_eq!((div.ok(), rem.ok()), (Some(i64::MIN), Some(Delta::ZERO)));
        }
    }

    #[cfg(all(feature = "std", target_os = "linux"))]
    #[test]
    fn host_clocks_are_readable_and_ordered() {
        let mono = Instant::<Monotonic>::now();
        assert!(!(Instant::<Monotonic>::now() - mono).is_negative());
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
