// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `kernel_core::time`: `Delta` conversions at their saturation and rounding edges, and
//! `Instant` over fake and real clocks.
//!
//! Edges that panic (overflowing operators, a zero divisor, `i64::MIN % -1`) cannot run in the
//! kernel, where a panic is a crash: `panics.rs` checks them on the host.
//!
//! Written against the mirrored paths only (`kernel_core::time`, `kernel_core::macros`), plus
//! the fake clocks of `kernel_core::extras`, and with the assertion forms the kernel's own
//! `#[kunit_tests]` accepts: the switch-back check builds this file against Linux 7.3's
//! `kernel::` and runs it under the kernel's macro.

use kernel_core::macros::kunit_tests;

#[kunit_tests(kernel_core_time)]
mod tests {
    use kernel_core::extras::time::fake_clock;
    use kernel_core::time::{
        ClockSource, Delta, Instant, Jiffy, Monotonic, Nsec, NSEC_PER_MSEC, NSEC_PER_SEC,
        NSEC_PER_USEC,
    };

    fake_clock! {
        struct ElapsedClock;
    }
    fake_clock! {
        struct ArithmeticClock;
    }

    fn nanos(n: i64) -> Delta {
        Delta::from_nanos(n)
    }

    #[test]
    fn constants() {
        assert_eq!(NSEC_PER_USEC, 1_000);
        assert_eq!(NSEC_PER_MSEC, 1_000_000);
        assert_eq!(NSEC_PER_SEC, 1_000_000_000);
        assert_eq!(Delta::ZERO.as_nanos(), 0);
    }

    #[test]
    fn from_nanos_keeps_every_value() {
        for n in [i64::MIN, i64::MIN + 1, -1, 0, 1, i64::MAX - 1, i64::MAX] {
            assert_eq!(nanos(n).as_nanos(), n);
        }
    }

    #[test]
    fn from_micros_saturates_past_its_range() {
        let limit = i64::MAX / NSEC_PER_USEC; // 9_223_372_036_854_775
        assert_eq!(limit, 9_223_372_036_854_775);
        assert_eq!(Delta::from_micros(limit).as_nanos(), limit * 1_000);
        assert_eq!(Delta::from_micros(-limit).as_nanos(), -limit * 1_000);
        assert_eq!(Delta::from_micros(limit + 1).as_nanos(), i64::MAX);
        assert_eq!(Delta::from_micros(-limit - 1).as_nanos(), i64::MIN);
        assert_eq!(Delta::from_micros(i64::MAX).as_nanos(), i64::MAX);
        assert_eq!(Delta::from_micros(i64::MIN).as_nanos(), i64::MIN);
        assert_eq!(Delta::from_micros(0), Delta::ZERO);
        assert_eq!(Delta::from_micros(-1).as_nanos(), -1_000);
    }

    #[test]
    fn from_millis_saturates_past_its_range() {
        let limit = 9_223_372_036_854;
        assert_eq!(Delta::from_millis(limit).as_nanos(), limit * 1_000_000);
        assert_eq!(Delta::from_millis(-limit).as_nanos(), -limit * 1_000_000);
        assert_eq!(Delta::from_millis(limit + 1).as_nanos(), i64::MAX);
        assert_eq!(Delta::from_millis(-limit - 1).as_nanos(), i64::MIN);
        assert_eq!(Delta::from_millis(i64::MIN).as_nanos(), i64::MIN);
    }

    #[test]
    fn from_secs_saturates_past_its_range() {
        let limit = 9_223_372_036;
        assert_eq!(Delta::from_secs(limit).as_nanos(), limit * NSEC_PER_SEC);
        assert_eq!(Delta::from_secs(-limit).as_nanos(), -limit * NSEC_PER_SEC);
        assert_eq!(Delta::from_secs(limit + 1).as_nanos(), i64::MAX);
        assert_eq!(Delta::from_secs(-limit - 1).as_nanos(), i64::MIN);
        assert_eq!(Delta::from_secs(i64::MAX).as_nanos(), i64::MAX);
    }

    #[test]
    fn as_micros_ceil_rounds_up() {
        let cases = [
            (0, 0),
            (1, 1),
            (999, 1),
            (1_000, 1),
            (1_001, 2),
            (-1, 0),
            (-999, 0),
            (-1_000, -1),
            (-1_001, -1),
            (i64::MAX, 9_223_372_036_854_776),
            (i64::MAX - 807, 9_223_372_036_854_775),
            (i64::MIN, -9_223_372_036_854_775),
            (i64::MIN + 1, -9_223_372_036_854_775),
        ];
        for (n, micros) in cases {
            assert_eq!(nanos(n).as_micros_ceil(), micros);
        }
    }

    #[test]
    fn as_millis_ceil_rounds_up() {
        let cases = [
            (0, 0),
            (1, 1),
            (999_999, 1),
            (1_000_000, 1),
            (1_000_001, 2),
            (-1, 0),
            (-999_999, 0),
            (-1_000_000, -1),
            (-1_000_001, -1),
            (i64::MAX, 9_223_372_036_855),
            (i64::MAX - 775_807, 9_223_372_036_854),
            (i64::MAX - 775_806, 9_223_372_036_855),
            (i64::MIN, -9_223_372_036_854),
            (i64::MIN + 1, -9_223_372_036_854),
        ];
        for (n, millis) in cases {
            assert_eq!(nanos(n).as_millis_ceil(), millis);
        }
        // Every value within a millisecond of `i64::MAX`, where `(n + 999_999) / 1_000_000`
        // would overflow: they round up to the last whole millisecond below or above it.
        let last_whole = 9_223_372_036_854_000_000;
        let mut n = i64::MAX;
        while n > i64::MAX - 1_000_000 {
            let expected = if n > last_whole {
                9_223_372_036_855
            } else {
                9_223_372_036_854
            };
            assert_eq!(nanos(n).as_millis_ceil(), expected);
            n -= 1;
        }
    }

    #[test]
    fn jiffies_keep_every_value() {
        for j in [
            isize::MIN,
            isize::MIN + 1,
            -1,
            0,
            1,
            isize::MAX - 1,
            isize::MAX,
        ] {
            let ticks: Delta<Jiffy> = Delta::from_jiffies(j);
            assert_eq!(ticks.as_jiffies(), j);
            assert!(ticks == Delta::from_jiffies(j));
        }
        assert!(Delta::from_jiffies(-1) < Delta::from_jiffies(0));
        let plain: Delta<Nsec> = Delta::from_nanos(3);
        assert_eq!(plain, Delta::from_nanos(3));
    }

    #[test]
    fn as_millis_truncates_toward_zero() {
        let cases = [
            (0, 0),
            (999_999, 0),
            (1_000_000, 1),
            (-999_999, 0),
            (-1_000_000, -1),
            (-1_999_999, -1),
            (i64::MAX, 9_223_372_036_854),
            (i64::MIN, -9_223_372_036_854),
        ];
        for (n, millis) in cases {
            assert_eq!(nanos(n).as_millis(), millis);
        }
    }

    #[test]
    fn rem_nanos_at_the_edges() {
        assert_eq!(nanos(10).rem_nanos(3), nanos(1));
        assert_eq!(nanos(-10).rem_nanos(3), nanos(-1));
        assert_eq!(nanos(10).rem_nanos(-3), nanos(1));
        assert_eq!(nanos(i64::MAX).rem_nanos(1), Delta::ZERO);
        assert_eq!(nanos(i64::MIN + 1).rem_nanos(-1), Delta::ZERO);
        assert_eq!(nanos(i64::MAX).rem_nanos(-1), Delta::ZERO);
        assert_eq!(nanos(i64::MIN).rem_nanos(i32::MIN), Delta::ZERO);
        assert_eq!(nanos(i64::MAX).rem_nanos(i32::MAX), nanos(1));
        assert_eq!(nanos(i64::MIN).rem_nanos(i32::MAX), nanos(-2));
        assert_eq!(
            nanos(i64::from(i32::MIN) + 1).rem_nanos(i32::MIN),
            nanos(i64::from(i32::MIN) + 1)
        );
    }

    #[test]
    fn predicates() {
        assert!(Delta::ZERO.is_zero());
        assert!(!Delta::ZERO.is_negative());
        assert!(nanos(-1).is_negative());
        assert!(!nanos(1).is_negative());
        assert!(!nanos(i64::MIN).is_zero());
    }

    #[test]
    fn arithmetic_within_range() {
        let mut d = Delta::from_millis(3);
        d += Delta::from_micros(500);
        assert_eq!(d, Delta::from_micros(3_500));
        d -= Delta::from_millis(4);
        assert_eq!(d, Delta::from_micros(-500));
        d *= -4;
        assert_eq!(d, Delta::from_millis(2));
        assert_eq!(d * 3, Delta::from_millis(6));
        assert_eq!(nanos(i64::MAX - 1) + nanos(1), nanos(i64::MAX));
        assert_eq!(nanos(i64::MIN + 1) - nanos(1), nanos(i64::MIN));
        assert_eq!(Delta::from_secs(1) / Delta::from_millis(3), 333);
        assert_eq!(Delta::from_secs(-1) / Delta::from_millis(3), -333);
        assert_eq!(nanos(i64::MIN) / nanos(1), i64::MIN);
        assert_eq!(nanos(i64::MIN) / nanos(i64::MIN), 1);
        assert!(nanos(-1) < Delta::ZERO);
        assert_eq!(core::cmp::max(nanos(5), nanos(-5)), nanos(5));
    }

    #[test]
    fn instants_of_a_fake_clock() {
        ArithmeticClock::set(Delta::from_secs(100));
        let start = Instant::<ArithmeticClock>::now();
        let deadline = start + Delta::from_millis(250);
        assert_eq!(deadline - start, Delta::from_millis(250));
        assert_eq!(start - deadline, Delta::from_millis(-250));
        assert!(deadline - Delta::from_millis(250) == start);
        assert!(deadline > start);
        assert!(start + Delta::from_secs(-100) - Delta::ZERO == start - Delta::from_secs(100));
        ArithmeticClock::set(Delta::from_nanos(i64::MAX));
        let end = Instant::<ArithmeticClock>::now();
        assert_eq!(
            end - (end - Delta::from_nanos(i64::MAX)),
            Delta::from_nanos(i64::MAX)
        );
    }

    #[test]
    fn elapsed_follows_the_clock() {
        let start = Instant::<ElapsedClock>::now();
        assert_eq!(start.elapsed(), Delta::ZERO);
        ElapsedClock::advance(Delta::from_micros(1_500));
        assert_eq!(start.elapsed(), Delta::from_micros(1_500));
        assert_eq!(start.elapsed().as_millis(), 1);
        assert_eq!(start.elapsed().as_micros_ceil(), 1_500);
        ElapsedClock::advance(Delta::from_nanos(-500_000));
        assert_eq!(start.elapsed(), Delta::from_millis(1));
        assert_eq!(ElapsedClock::now(), Delta::from_millis(1));
    }

    #[test]
    fn the_monotonic_clock_moves_forward() {
        let start = Instant::<Monotonic>::now();
        let mut spins = 0_u64;
        while start.elapsed().is_zero() && spins < 1_000_000_000 {
            spins += 1;
            core::hint::spin_loop();
        }
        let elapsed = start.elapsed();
        assert!(!elapsed.is_negative());
        assert!(!elapsed.is_zero());
        assert!(Monotonic::ktime_get() > 0);
        assert_eq!(Monotonic::ID, 1);
    }
}
