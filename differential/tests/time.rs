// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Differential tests of `kernel_core::time` against Linux 7.3's own `kernel::time`
//! (`linux7_3::time`, the kernel's `rust/kernel/time.rs` built on the host).
//!
//! kernel-core promises the same API and the same results as the kernel's code, call for call,
//! including where that code panics (overflow checks, division by zero) and where it wraps (no
//! overflow checks). These tests run every public function, operator and trait of `Delta`,
//! `Delta<Jiffy>`, `Instant` and the clocks on both sides, on the edges of every unit
//! conversion, on every value within 1 ms of `i64::MIN`, 0 and `i64::MAX`, and on random values,
//! and compare the results, or the panics and their messages. Run them both with and without
//! debug assertions (`cargo test` and `cargo test --release`): the kernel's overflow behaviour
//! depends on `CONFIG_RUST_OVERFLOW_CHECKS`, which `build.rs` sets from debug assertions as
//! kernel-core does.

#[macro_use]
mod common;

use core::{cell::Cell, ffi::c_int};

use common::{any_i64, i64_edges, outcome, same, Outcome};
use kernel_core::time as kc;
use linux7_3::time as lx;
use proptest::prelude::*;

/// Divisors for `rem_nanos`: the ends of `i32`, the units, small ones and their negations.
const DIVISORS: &[i32] = &[
    i32::MIN,
    i32::MIN + 1,
    -1_000_000_000,
    -1_000_000,
    -1000,
    -7,
    -2,
    -1,
    0,
    1,
    2,
    7,
    1000,
    1_000_000,
    1_000_000_000,
    i32::MAX - 1,
    i32::MAX,
];

fn ours(nanos: i64) -> kc::Delta {
    kc::Delta::from_nanos(nanos)
}

fn theirs(nanos: i64) -> lx::Delta {
    lx::Delta::from_nanos(nanos)
}

/// Every unary function of `Delta` and the constructors, on `n`.
fn check_delta(n: i64) {
    same(
        &format!("from_nanos({n}).as_nanos()"),
        || ours(n).as_nanos(),
        || theirs(n).as_nanos(),
    );
    same(
        &format!("from_micros({n})"),
        || kc::Delta::from_micros(n).as_nanos(),
        || lx::Delta::from_micros(n).as_nanos(),
    );
    same(
        &format!("from_millis({n})"),
        || kc::Delta::from_millis(n).as_nanos(),
        || lx::Delta::from_millis(n).as_nanos(),
    );
    same(
        &format!("from_secs({n})"),
        || kc::Delta::from_secs(n).as_nanos(),
        || lx::Delta::from_secs(n).as_nanos(),
    );
    same(
        &format!("from_nanos({n}).is_zero()"),
        || ours(n).is_zero(),
        || theirs(n).is_zero(),
    );
    same(
        &format!("from_nanos({n}).is_negative()"),
        || ours(n).is_negative(),
        || theirs(n).is_negative(),
    );
    same(
        &format!("from_nanos({n}).as_micros_ceil()"),
        || ours(n).as_micros_ceil(),
        || theirs(n).as_micros_ceil(),
    );
    same(
        &format!("from_nanos({n}).as_millis()"),
        || ours(n).as_millis(),
        || theirs(n).as_millis(),
    );
    same(
        &format!("from_nanos({n}).as_millis_ceil()"),
        || ours(n).as_millis_ceil(),
        || theirs(n).as_millis_ceil(),
    );
    same(
        &format!("{{:?}} of from_nanos({n})"),
        || format!("{:?}", ours(n)),
        || format!("{:?}", theirs(n)),
    );
    same(
        &format!("from_nanos({n}) == ZERO"),
        || ours(n) == kc::Delta::ZERO,
        || theirs(n) == lx::Delta::ZERO,
    );
}

/// `rem_nanos(d)` on `n`, panics included.
fn check_rem(n: i64, d: i32) {
    same(
        &format!("from_nanos({n}).rem_nanos({d})"),
        || ours(n).rem_nanos(d).as_nanos(),
        || theirs(n).rem_nanos(d).as_nanos(),
    );
}

/// Every binary operator and comparison of `Delta`, on `a` and `b`, panics included.
fn check_pair(a: i64, b: i64) {
    same(
        &format!("{a} + {b}"),
        || (ours(a) + ours(b)).as_nanos(),
        || (theirs(a) + theirs(b)).as_nanos(),
    );
    same(
        &format!("{a} += {b}"),
        || {
            let mut x = ours(a);
            x += ours(b);
            x.as_nanos()
        },
        || {
            let mut x = theirs(a);
            x += theirs(b);
            x.as_nanos()
        },
    );
    same(
        &format!("{a} - {b}"),
        || (ours(a) - ours(b)).as_nanos(),
        || (theirs(a) - theirs(b)).as_nanos(),
    );
    same(
        &format!("{a} -= {b}"),
        || {
            let mut x = ours(a);
            x -= ours(b);
            x.as_nanos()
        },
        || {
            let mut x = theirs(a);
            x -= theirs(b);
            x.as_nanos()
        },
    );
    same(
        &format!("{a} * {b}"),
        || (ours(a) * b).as_nanos(),
        || (theirs(a) * b).as_nanos(),
    );
    same(
        &format!("{a} *= {b}"),
        || {
            let mut x = ours(a);
            x *= b;
            x.as_nanos()
        },
        || {
            let mut x = theirs(a);
            x *= b;
            x.as_nanos()
        },
    );
    same(
        &format!("{a} / {b}"),
        || ours(a) / ours(b),
        || theirs(a) / theirs(b),
    );
    same(
        &format!("{a} cmp {b}"),
        || ours(a).cmp(&ours(b)),
        || theirs(a).cmp(&theirs(b)),
    );
    same(
        &format!("{a} partial_cmp {b}"),
        || ours(a).partial_cmp(&ours(b)),
        || theirs(a).partial_cmp(&theirs(b)),
    );
    same(
        &format!("{a} == {b}"),
        || (ours(a) == ours(b), ours(a) != ours(b)),
        || (theirs(a) == theirs(b), theirs(a) != theirs(b)),
    );
    same(
        &format!("{a} <, <=, >, >= {b}"),
        || {
            let (x, y) = (ours(a), ours(b));
            (
                x < y,
                x <= y,
                x > y,
                x >= y,
                x.max(y).as_nanos(),
                x.min(y).as_nanos(),
            )
        },
        || {
            let (x, y) = (theirs(a), theirs(b));
            (
                x < y,
                x <= y,
                x > y,
                x >= y,
                x.max(y).as_nanos(),
                x.min(y).as_nanos(),
            )
        },
    );
}

/// `Delta<Jiffy>` on `j`, and its order against `k`.
fn check_jiffies(j: isize, k: isize) {
    type OurJiffies = kc::Delta<kc::Jiffy>;
    type TheirJiffies = lx::Delta<lx::Jiffy>;

    same(
        &format!("from_jiffies({j}).as_jiffies()"),
        || OurJiffies::from_jiffies(j).as_jiffies(),
        || TheirJiffies::from_jiffies(j).as_jiffies(),
    );
    same(
        &format!("{{:?}} of from_jiffies({j})"),
        || format!("{:?}", OurJiffies::from_jiffies(j)),
        || format!("{:?}", TheirJiffies::from_jiffies(j)),
    );
    same(
        &format!("from_jiffies({j}) cmp from_jiffies({k})"),
        || {
            let (x, y) = (OurJiffies::from_jiffies(j), OurJiffies::from_jiffies(k));
            (x.cmp(&y), x.partial_cmp(&y), x == y, x < y)
        },
        || {
            let (x, y) = (TheirJiffies::from_jiffies(j), TheirJiffies::from_jiffies(k));
            (x.cmp(&y), x.partial_cmp(&y), x == y, x < y)
        },
    );
}

#[test]
fn constants() {
    assert_eq!(kc::NSEC_PER_USEC, lx::NSEC_PER_USEC);
    assert_eq!(kc::NSEC_PER_MSEC, lx::NSEC_PER_MSEC);
    assert_eq!(kc::NSEC_PER_SEC, lx::NSEC_PER_SEC);
    assert_eq!(kc::Delta::ZERO.as_nanos(), lx::Delta::ZERO.as_nanos());
    assert_eq!(
        format!("{:?}", kc::Delta::ZERO),
        format!("{:?}", lx::Delta::ZERO)
    );
}

/// The functions that are `const fn` in Linux 7.3 are usable in constants on both sides.
#[test]
fn const_fns() {
    const OURS: (i64, i64, i64, i64, i64, isize) = (
        kc::Delta::from_nanos(-5).as_nanos(),
        kc::Delta::from_micros(i64::MAX).as_nanos(),
        kc::Delta::from_millis(-3).as_nanos(),
        kc::Delta::from_secs(i64::MIN / 2).as_nanos(),
        kc::Delta::ZERO.as_nanos(),
        kc::Delta::<kc::Jiffy>::from_jiffies(isize::MIN).as_jiffies(),
    );
    const THEIRS: (i64, i64, i64, i64, i64, isize) = (
        lx::Delta::from_nanos(-5).as_nanos(),
        lx::Delta::from_micros(i64::MAX).as_nanos(),
        lx::Delta::from_millis(-3).as_nanos(),
        lx::Delta::from_secs(i64::MIN / 2).as_nanos(),
        lx::Delta::ZERO.as_nanos(),
        lx::Delta::<lx::Jiffy>::from_jiffies(isize::MIN).as_jiffies(),
    );
    assert_eq!(OURS, THEIRS);
}

/// The time units' representations and `Delta`'s default unit are the same types.
#[test]
fn types() {
    let nsec: <kc::Nsec as kc::TimeUnit>::Repr = 1_i64;
    let _: <lx::Nsec as lx::TimeUnit>::Repr = nsec;
    let jiffy: <kc::Jiffy as kc::TimeUnit>::Repr = 1_isize;
    let _: <lx::Jiffy as lx::TimeUnit>::Repr = jiffy;
    let _: kc::Delta<kc::Nsec> = kc::Delta::ZERO;
    let _: lx::Delta<lx::Nsec> = lx::Delta::ZERO;
    let _: fn(kc::Delta) -> kc::Delta<kc::Nsec> = core::convert::identity;
    let _: fn(lx::Delta) -> lx::Delta<lx::Nsec> = core::convert::identity;
}

/// The same standard traits on every type of the module, including the bounds derived on
/// `Instant`'s clock parameter.
#[test]
fn trait_impls() {
    same_std_traits!(kc::Delta, lx::Delta);
    same_std_traits!(kc::Delta<kc::Jiffy>, lx::Delta<lx::Jiffy>);
    same_std_traits!(kc::Nsec, lx::Nsec);
    same_std_traits!(kc::Jiffy, lx::Jiffy);
    same_std_traits!(kc::Monotonic, lx::Monotonic);
    same_std_traits!(kc::RealTime, lx::RealTime);
    same_std_traits!(kc::BootTime, lx::BootTime);
    same_std_traits!(kc::Tai, lx::Tai);
    same_std_traits!(kc::Instant<kc::Monotonic>, lx::Instant<lx::Monotonic>);
    same_std_traits!(kc::Instant<kc::Tai>, lx::Instant<lx::Tai>);
    same_std_traits!(kc::Instant<OurClock>, lx::Instant<TheirClock>);
}

#[test]
fn delta_edges() {
    for n in i64_edges() {
        check_delta(n);
        for d in DIVISORS {
            check_rem(n, *d);
        }
    }
}

#[test]
fn delta_pairs_edges() {
    let edges = i64_edges();
    for &a in &edges {
        for &b in &edges {
            check_pair(a, b);
        }
    }
}

/// Every value within 1 ms of `i64::MIN`, zero and `i64::MAX`, where the rounding conversions
/// change their result.
#[test]
fn conversions_near_the_ends_and_zero() {
    let regions = [
        i64::MIN..=i64::MIN + 1_000_000,
        -1_000_001..=1_000_001,
        i64::MAX - 1_000_000..=i64::MAX,
    ];
    for n in regions.into_iter().flatten() {
        let (o, t) = (ours(n), theirs(n));
        let ours = (
            o.as_micros_ceil(),
            o.as_millis(),
            o.as_millis_ceil(),
            o.is_zero(),
            o.is_negative(),
        );
        let theirs = (
            t.as_micros_ceil(),
            t.as_millis(),
            t.as_millis_ceil(),
            t.is_zero(),
            t.is_negative(),
        );
        assert_eq!(
            ours, theirs,
            "(as_micros_ceil, as_millis, as_millis_ceil, is_zero, is_negative) of {n}: \
             kernel-core (left), Linux 7.3 (right)"
        );
    }
}

#[test]
fn jiffies_edges() {
    let edges = [
        isize::MIN,
        isize::MIN + 1,
        -1,
        0,
        1,
        isize::MAX - 1,
        isize::MAX,
    ];
    for &j in &edges {
        for &k in &edges {
            check_jiffies(j, k);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    #[test]
    fn delta_random(n in any_i64(), d in any::<i32>()) {
        check_delta(n);
        check_rem(n, d);
        for d in DIVISORS {
            check_rem(n, *d);
        }
    }

    #[test]
    fn delta_pairs_random(a in any_i64(), b in any_i64()) {
        check_pair(a, b);
    }

    /// `Delta * i64` with small factors, where most products do not overflow.
    #[test]
    fn delta_mul_small(a in any_i64(), b in -2_000_i64..=2_000) {
        check_pair(a, b);
    }

    #[test]
    fn jiffies_random(j in any::<isize>(), k in any::<isize>()) {
        check_jiffies(j, k);
    }
}

thread_local! {
    /// The reading of the test clocks, shared by both sides; per thread, as the tests run in
    /// parallel.
    static NOW: Cell<i64> = const { Cell::new(0) };
}

/// Sets the test clocks' reading, which must be in `0..=KTIME_MAX` as `ClockSource` requires.
fn set_now(nanos: i64) {
    assert!(nanos >= 0, "a clock reading must be in 0..=KTIME_MAX");
    NOW.set(nanos);
}

/// kernel-core's side of the test clock. It derives the comparison traits so that
/// `Instant<OurClock>` gets the derived ones (Linux 7.3 derives them with bounds on the clock).
#[derive(PartialEq, Eq, PartialOrd, Ord)]
struct OurClock;

// SAFETY: `NOW` only ever holds values in `0..=KTIME_MAX` (`set_now` checks it).
unsafe impl kc::ClockSource for OurClock {
    const ID: c_int = -1;

    fn ktime_get() -> i64 {
        NOW.get()
    }
}

/// Linux 7.3's side of the test clock.
#[derive(PartialEq, Eq, PartialOrd, Ord)]
struct TheirClock;

// SAFETY: `NOW` only ever holds values in `0..=KTIME_MAX` (`set_now` checks it).
unsafe impl lx::ClockSource for TheirClock {
    const ID: linux7_3::bindings::clockid_t = -1;

    fn ktime_get() -> linux7_3::bindings::ktime_t {
        NOW.get()
    }
}

fn our_instant(at: i64) -> kc::Instant<OurClock> {
    set_now(at);
    kc::Instant::now()
}

fn their_instant(at: i64) -> lx::Instant<TheirClock> {
    set_now(at);
    lx::Instant::now()
}

/// The reading held by an `Instant`, through the public API only: the `Delta` from an `Instant`
/// read at 0 (which never overflows, even for a wrapped, negative reading).
fn our_nanos(instant: kc::Instant<OurClock>) -> i64 {
    (instant - our_instant(0)).as_nanos()
}

fn their_nanos(instant: lx::Instant<TheirClock>) -> i64 {
    (instant - their_instant(0)).as_nanos()
}

/// `Instant` read at `t`, and `Instant ± Delta::from_nanos(d)`, panics included.
fn check_instant_delta(t: i64, d: i64) {
    same(
        &format!("Instant::now() at {t}"),
        || our_nanos(our_instant(t)),
        || their_nanos(their_instant(t)),
    );
    same(
        &format!("Instant({t}) + Delta({d})"),
        || our_nanos(our_instant(t) + ours(d)),
        || their_nanos(their_instant(t) + theirs(d)),
    );
    same(
        &format!("Instant({t}) - Delta({d})"),
        || our_nanos(our_instant(t) - ours(d)),
        || their_nanos(their_instant(t) - theirs(d)),
    );
}

/// `Instant - Instant`, `elapsed()` and the comparisons, for readings `t` and `u`.
fn check_instant_pair(t: i64, u: i64) {
    same(
        &format!("Instant({t}) - Instant({u})"),
        || (our_instant(t) - our_instant(u)).as_nanos(),
        || (their_instant(t) - their_instant(u)).as_nanos(),
    );
    same(
        &format!("Instant({t}).elapsed() at {u}"),
        || {
            let start = our_instant(t);
            set_now(u);
            start.elapsed().as_nanos()
        },
        || {
            let start = their_instant(t);
            set_now(u);
            start.elapsed().as_nanos()
        },
    );
    same(
        &format!("Instant({t}) cmp Instant({u})"),
        || {
            let (x, y) = (our_instant(t), our_instant(u));
            let copy = x;
            (x.cmp(&y), x.partial_cmp(&y), x == y, x < y, copy == x)
        },
        || {
            let (x, y) = (their_instant(t), their_instant(u));
            let copy = x;
            (x.cmp(&y), x.partial_cmp(&y), x == y, x < y, copy == x)
        },
    );
}

/// Clock readings at the ends of `0..=KTIME_MAX` and in between.
const READINGS: &[i64] = &[
    0,
    1,
    2,
    999,
    1_000_000,
    i64::MAX / 2,
    i64::MAX - 1_000_000,
    i64::MAX - 1,
    i64::MAX,
];

#[test]
fn instant_edges() {
    for &t in READINGS {
        for d in i64_edges() {
            check_instant_delta(t, d);
        }
        for &u in READINGS {
            check_instant_pair(t, u);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    #[test]
    fn instant_random(
        t in prop_oneof![0..=i64::MAX, 0_i64..=3_000_000, (i64::MAX - 3_000_000)..=i64::MAX],
        u in 0..=i64::MAX,
        d in any_i64(),
    ) {
        check_instant_delta(t, d);
        check_instant_pair(t, u);
    }
}

/// Both sides' clocks have the kernel's clock ids, and read the same host clock: a reading of
/// Linux 7.3's clock (whose mock `ktime_get*()` read the host's `clock_gettime` with the
/// kernel's ids) lies between two readings of kernel-core's.
#[test]
fn real_clocks() {
    fn check<O: kc::ClockSource, T: lx::ClockSource>(name: &str) {
        assert_eq!(O::ID, T::ID, "{name}::ID");
        // A clock that is stepped (the wall clock, by NTP or an administrator) may jump between
        // the readings; a few attempts make that harmless.
        for _ in 0..10 {
            let before = O::ktime_get();
            let theirs = T::ktime_get();
            let after = O::ktime_get();
            if before <= theirs && theirs <= after {
                return;
            }
        }
        panic!("{name}: kernel-core's clock does not read the same host clock as Linux 7.3's");
    }

    check::<kc::Monotonic, lx::Monotonic>("Monotonic");
    check::<kc::RealTime, lx::RealTime>("RealTime");
    check::<kc::BootTime, lx::BootTime>("BootTime");
    check::<kc::Tai, lx::Tai>("Tai");

    // `Instant::now()` and `elapsed()` on the real clocks: elapsed time is never negative.
    let ours = kc::Instant::<kc::Monotonic>::now();
    let theirs = lx::Instant::<lx::Monotonic>::now();
    assert!(!ours.elapsed().is_negative());
    assert!(!theirs.elapsed().is_negative());
}

/// The configuration both sides were built for: Linux 7.3 takes other paths without
/// `CONFIG_64BIT` (`div64_s64()`, `div_s64_rem()`, `ktime_to_us()`, `ktime_to_ms()`), and so
/// does kernel-core on 32-bit targets. Where the two configurations differ, at the one
/// overflowing division, each side must do what its configuration does: run this on i686 for
/// the 32-bit one.
#[test]
fn the_overflowing_division_follows_the_configuration() {
    let min = i64::MIN;
    let (quotient, remainder) = if cfg!(CONFIG_64BIT) {
        (
            Outcome::Panic("attempt to divide with overflow".to_owned()),
            Outcome::Panic("attempt to calculate the remainder with overflow".to_owned()),
        )
    } else {
        (Outcome::Value(i64::MIN), Outcome::Value(0))
    };
    assert_eq!(outcome(|| ours(min) / ours(-1)), quotient);
    assert_eq!(outcome(|| theirs(min) / theirs(-1)), quotient);
    assert_eq!(outcome(|| ours(min).rem_nanos(-1).as_nanos()), remainder);
    assert_eq!(outcome(|| theirs(min).rem_nanos(-1).as_nanos()), remainder);
    assert_eq!(
        cfg!(CONFIG_64BIT),
        cfg!(target_pointer_width = "64"),
        "build.rs sets CONFIG_64BIT on 64-bit targets only"
    );
}
