// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Host only: fake clocks under parallel tests.
//!
//! `cargo test` runs the tests of one binary as threads of one process, so a fake clock with
//! one time for all threads makes tests that set it disturb each other. With the `std`
//! feature each thread has its own time. The first test proves it deterministically (threads
//! that set their clocks, wait for each other, then read); the others are many ordinary tests
//! that use the ready-made `FakeClock` at once, as a driver's suites would.

use kernel_core::extras::time::{fake_clock, FakeClock};
use kernel_core::time::{Delta, Instant};
use std::sync::Barrier;

fake_clock! {
    /// A clock of this file's own, beside the ready-made one.
    struct SharedByName;
}

#[test]
fn every_thread_reads_its_own_time() {
    const THREADS: i64 = 16;
    const ROUNDS: i64 = 50;
    let barrier = Barrier::new(THREADS as usize);
    std::thread::scope(|scope| {
        for thread in 0..THREADS {
            let barrier = &barrier;
            scope.spawn(move || {
                assert_eq!(FakeClock::now(), Delta::ZERO, "a new thread starts at zero");
                for round in 0..ROUNDS {
                    let mine = Delta::from_nanos(thread * 1_000 + round);
                    FakeClock::set(mine);
                    SharedByName::set(mine + Delta::from_nanos(1));
                    // Every thread has set its clocks before any reads them.
                    barrier.wait();
                    assert_eq!(FakeClock::now(), mine);
                    assert_eq!(SharedByName::now(), mine + Delta::from_nanos(1));
                    FakeClock::advance(Delta::from_nanos(7));
                    assert_eq!(Instant::<FakeClock>::now().elapsed(), Delta::ZERO);
                    barrier.wait();
                    assert_eq!(FakeClock::now(), mine + Delta::from_nanos(7));
                }
            });
        }
    });
}

#[test]
fn a_failed_advance_leaves_the_time_as_it_was() {
    FakeClock::set(Delta::from_nanos(5));
    let failed = std::panic::catch_unwind(|| FakeClock::advance(Delta::from_nanos(-6)));
    assert!(failed.is_err());
    assert_eq!(FakeClock::now(), Delta::from_nanos(5));
}

/// Many tests that each set the same clock, advance it in steps, and expect to see only their
/// own steps: run in parallel threads, they would see each other's with one global time.
macro_rules! parallel_tests {
    ($($name:ident = $start:literal),* $(,)?) => {$(
        #[test]
        fn $name() {
            FakeClock::set(Delta::from_millis($start));
            let start = Instant::<FakeClock>::now();
            for step in 1..=2_000 {
                FakeClock::advance(Delta::from_micros(1));
                assert_eq!(start.elapsed(), Delta::from_micros(step));
                std::thread::yield_now();
            }
            assert_eq!(FakeClock::now(), Delta::from_millis($start + 2));
        }
    )*};
}

parallel_tests! {
    parallel_0 = 0, parallel_1 = 10, parallel_2 = 20, parallel_3 = 30, parallel_4 = 40,
    parallel_5 = 50, parallel_6 = 60, parallel_7 = 70, parallel_8 = 80, parallel_9 = 90,
    parallel_10 = 100, parallel_11 = 110, parallel_12 = 120, parallel_13 = 130,
    parallel_14 = 140, parallel_15 = 150,
}
