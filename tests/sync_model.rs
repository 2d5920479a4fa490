// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Host only: the model checker of `kernel_core::extras::model` on kernel-core's `sync`. With
//! the feature `model` (kernel-core's `loom`), each test's closure runs once per interleaving
//! that loom explores: a lost update (an unlocked read-then-write of an `Atomic`; a read under
//! a lock and a write under a second acquisition of it) and a lost wake-up must be found, in
//! the model checker's words, and their fixes must pass every interleaving; lockdep and the
//! atomic-sleep check must see each modelled thread as a task of its own. Without it, the fixes
//! run once on real threads, and the bugs not at all (one run would rarely show them, and then
//! fail, or hang):
//!
//! `cargo test -p kernel-core-tests --test sync_model --features model`.

use std::sync::atomic::{AtomicUsize, Ordering};

use kernel_core::extras::detectors::{self, Detector, Report};
use kernel_core::extras::model::{self, model, thread};
use kernel_core::prelude::*;
use kernel_core::sync::atomic::{Atomic, Relaxed};
use kernel_core::sync::{
    new_condvar, new_mutex, new_spinlock, Arc, Completion, CondVar, Mutex, SpinLock,
};

/// Two threads (the closure's and one more) each run `increment` once on a counter that
/// `make` makes, and the closure's thread checks that it reached 2; counts the runs in `runs`.
fn two_increments<C: Send + Sync + 'static>(
    runs: &'static AtomicUsize,
    make: fn() -> Arc<C>,
    increment: fn(&C),
    read: fn(&C) -> u32,
) -> Result<(), Report> {
    detectors::catch(move || {
        model(move || {
            runs.fetch_add(1, Ordering::Relaxed);
            let counter = make();
            let other = counter.clone();
            let worker = thread::spawn(move || increment(&other));
            increment(&counter);
            worker.join().unwrap();
            assert_eq!(read(&counter), 2, "lost an update");
        })
    })
}

/// What a lost update must fail with: the model checker's report of the interleaving, whose
/// title holds the assertion.
fn assert_found(found: Result<(), Report>, runs: &AtomicUsize) {
    let report = found.expect_err("the model checker finds the lost update");
    assert_eq!(report.detector(), Detector::ModelChecker, "{report}");
    let title = report.title();
    assert!(
        title.starts_with("BUG: model checker: interleaving "),
        "{title}"
    );
    assert!(
        title.ends_with(" fails: assertion `left == right` failed: lost an update"),
        "{title}"
    );
    let run: usize = title["BUG: model checker: interleaving ".len()..]
        .split(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .expect("the interleaving's number");
    assert_eq!(run, runs.load(Ordering::Relaxed), "{title}");
    assert!(
        report.text().contains("\n  left: 1\n right: 2\n"),
        "{report}"
    );
    assert!(report.text().contains("LOOM_LOG=trace"), "{report}");
}

/// What the fix must do: pass, in more than one interleaving where they are explored.
fn assert_passes(found: Result<(), Report>, runs: &AtomicUsize) {
    if let Err(report) = found {
        panic!("the fix failed: {report}");
    }
    let runs = runs.load(Ordering::Relaxed);
    if model::EXPLORES {
        assert!(runs > 1, "only {runs} interleaving(s) explored");
    } else {
        assert_eq!(runs, 1);
    }
}

fn atomic_counter() -> Arc<Atomic<u32>> {
    Arc::new(Atomic::new(0), GFP_KERNEL).unwrap()
}

fn read_atomic(counter: &Atomic<u32>) -> u32 {
    counter.load(Relaxed)
}

#[test]
fn an_unlocked_read_then_write_of_an_atomic_loses_an_update() {
    if !model::EXPLORES {
        // One run on real threads would rarely lose the update, and then fail the test.
        return;
    }
    static RUNS: AtomicUsize = AtomicUsize::new(0);
    let found = two_increments(
        &RUNS,
        atomic_counter,
        // The bug: a load, then a store, where one `fetch_add` would do.
        |counter| counter.store(counter.load(Relaxed) + 1, Relaxed),
        read_atomic,
    );
    assert_found(found, &RUNS);
}

#[test]
fn fetch_add_loses_no_update() {
    static RUNS: AtomicUsize = AtomicUsize::new(0);
    let found = two_increments(
        &RUNS,
        atomic_counter,
        |counter| {
            counter.fetch_add(1, Relaxed);
        },
        read_atomic,
    );
    assert_passes(found, &RUNS);
}

fn mutex_counter() -> Arc<Mutex<u32>> {
    Arc::pin_init(new_mutex!(0, "model_counter"), GFP_KERNEL).unwrap()
}

#[test]
fn a_read_and_a_write_under_two_acquisitions_lose_an_update() {
    if !model::EXPLORES {
        // One run on real threads would rarely lose the update, and then fail the test.
        return;
    }
    static RUNS: AtomicUsize = AtomicUsize::new(0);
    let found = two_increments(
        &RUNS,
        mutex_counter,
        |counter| {
            // The bug: the lock is released between the read and the write.
            let value = *counter.lock();
            *counter.lock() = value + 1;
        },
        |counter| *counter.lock(),
    );
    assert_found(found, &RUNS);
}

#[test]
fn an_increment_under_one_acquisition_loses_no_update() {
    static RUNS: AtomicUsize = AtomicUsize::new(0);
    let found = two_increments(
        &RUNS,
        mutex_counter,
        |counter| {
            let mut value = counter.lock();
            *value += 1;
        },
        |counter| *counter.lock(),
    );
    assert_passes(found, &RUNS);
}

fn spinlock_counter() -> Arc<SpinLock<u32>> {
    Arc::pin_init(new_spinlock!(0, "model_spin_counter"), GFP_KERNEL).unwrap()
}

#[test]
fn a_spinlock_loses_an_update_across_two_acquisitions_and_none_in_one() {
    // On real threads, one run would rarely lose the update, and then fail the test.
    if model::EXPLORES {
        static BUG: AtomicUsize = AtomicUsize::new(0);
        let found = two_increments(
            &BUG,
            spinlock_counter,
            |counter| {
                let value = *counter.lock();
                *counter.lock() = value + 1;
            },
            |counter| *counter.lock(),
        );
        assert_found(found, &BUG);
    }
    static FIXED: AtomicUsize = AtomicUsize::new(0);
    let found = two_increments(
        &FIXED,
        spinlock_counter,
        |counter| *counter.lock() += 1,
        |counter| *counter.lock(),
    );
    assert_passes(found, &FIXED);
}

/// A flag and the condition variable its setter notifies.
#[pin_data]
struct Flag {
    #[pin]
    set: Mutex<bool>,
    #[pin]
    changed: CondVar,
    /// The flag, as a setter that skips the lock sees it.
    unlocked: Atomic<bool>,
}

impl Flag {
    fn new() -> Arc<Self> {
        Arc::pin_init(
            pin_init!(Self {
                set <- new_mutex!(false, "model_flag"),
                changed <- new_condvar!("model_flag_changed"),
                unlocked: Atomic::new(false),
            }),
            GFP_KERNEL,
        )
        .unwrap()
    }
}

#[test]
fn a_wake_up_outside_the_lock_is_lost_and_one_under_it_is_not() {
    // The bug: the setter sets the flag and notifies without the lock, so between the
    // waiter's check and its sleep (both under the lock) the notification may come, and
    // nobody wakes it again: every thread blocked, loom's deadlock. (On real threads, a run
    // that lost it would hang.)
    if model::EXPLORES {
        let found = detectors::catch(|| {
            model(|| {
                let flag = Flag::new();
                let setter = {
                    let flag = flag.clone();
                    thread::spawn(move || {
                        flag.unlocked.store(true, Relaxed);
                        flag.changed.notify_one();
                    })
                };
                let mut guard = flag.set.lock();
                while !flag.unlocked.load(Relaxed) {
                    flag.changed.wait(&mut guard);
                }
                drop(guard);
                setter.join().unwrap();
            })
        });
        let report = found.expect_err("the lost wake-up is found");
        assert_eq!(report.detector(), Detector::ModelChecker, "{report}");
        assert!(report.title().contains(" fails: deadlock"), "{report}");
    }
    // Fixed: the flag set and notified under the lock.
    model(|| {
        let flag = Flag::new();
        let setter = {
            let flag = flag.clone();
            thread::spawn(move || {
                *flag.set.lock() = true;
                flag.changed.notify_one();
            })
        };
        let mut guard = flag.set.lock();
        while !*guard {
            flag.changed.wait(&mut guard);
        }
        drop(guard);
        setter.join().unwrap();
    });
}

#[test]
fn a_completion_is_never_missed() {
    model(|| -> Result {
        let done = Arc::pin_init(Completion::new(), GFP_KERNEL)?;
        let worker = {
            let done = done.clone();
            thread::spawn(move || done.complete_all())
        };
        done.wait_for_completion();
        done.wait_for_completion();
        worker.join().unwrap();
        Ok(())
    })
    .unwrap();
}

#[test]
fn the_first_error_of_a_run_is_the_outcome() {
    static RUNS: AtomicUsize = AtomicUsize::new(0);
    let outcome = model(|| -> Result {
        let run = RUNS.fetch_add(1, Ordering::Relaxed);
        let counter = mutex_counter();
        let other = counter.clone();
        let worker = thread::spawn(move || *other.lock() += 1);
        let seen = *counter.lock();
        worker.join().unwrap();
        // Fails in the interleavings where the worker came first, and in one of them first.
        if seen == 1 {
            return Err(if run % 2 == 0 { EAGAIN } else { EBUSY });
        }
        Ok(())
    });
    if model::EXPLORES {
        assert!(
            matches!(outcome, Err(e) if e == EAGAIN || e == EBUSY),
            "{outcome:?}"
        );
    }
}

/// Two mutexes of two classes, in both orders, one order per modelled thread.
#[test]
fn lockdep_sees_a_cycle_between_modelled_threads() {
    let found = detectors::catch(|| {
        model(|| {
            let a = Arc::pin_init(new_mutex!((), "model_order_a"), GFP_KERNEL).unwrap();
            let b = Arc::pin_init(new_mutex!((), "model_order_b"), GFP_KERNEL).unwrap();
            let worker = {
                let (a, b) = (a.clone(), b.clone());
                thread::spawn(move || {
                    let _a = a.lock();
                    let _b = b.lock();
                })
            };
            worker.join().unwrap();
            let _b = b.lock();
            let _a = a.lock();
        })
    });
    if detectors::enabled() {
        let report = found.expect_err("lockdep finds the cycle");
        assert_eq!(report.detector(), Detector::CircularLocking, "{report}");
    }
}

/// A spinlock held by one modelled thread is not the atomic context of another, which takes
/// a mutex meanwhile (the threads of a model all run on the thread that runs it).
#[test]
fn each_modelled_thread_has_its_own_atomic_context() {
    model(|| {
        let spin = Arc::pin_init(new_spinlock!((), "model_own_spin"), GFP_KERNEL).unwrap();
        let mutex = Arc::pin_init(new_mutex!((), "model_own_mutex"), GFP_KERNEL).unwrap();
        // 1: the worker holds the spinlock; 2: the closure's thread took the mutex.
        let step = Arc::new(Atomic::new(0_u32), GFP_KERNEL).unwrap();
        let worker = {
            let (spin, step) = (spin.clone(), step.clone());
            thread::spawn(move || {
                let _held = spin.lock();
                step.store(1, Relaxed);
                while step.load(Relaxed) != 2 {
                    thread::yield_now();
                }
            })
        };
        while step.load(Relaxed) != 1 {
            thread::yield_now();
        }
        drop(mutex.lock());
        step.store(2, Relaxed);
        worker.join().unwrap();
    });
}

#[test]
#[cfg_attr(
    not(feature = "model"),
    ignore = "only the model checker refuses to nest models"
)]
fn a_model_inside_a_model_is_refused() {
    let nested = std::panic::catch_unwind(|| model(|| model(|| ())));
    let message = nested.unwrap_err();
    let message = message
        .downcast_ref::<String>()
        .map(String::as_str)
        .unwrap_or_default();
    assert!(message.contains("loom cannot nest them"), "{message}");
}

/// Outside a model the locks are real ones, with the feature as without it.
#[test]
fn outside_a_model_the_locks_run_on_real_threads() {
    let counter = mutex_counter();
    let workers: std::vec::Vec<_> = (0..4)
        .map(|_| {
            let counter = counter.clone();
            thread::spawn(move || {
                for _ in 0..100 {
                    *counter.lock() += 1;
                }
            })
        })
        .collect();
    for worker in workers {
        worker.join().unwrap();
    }
    assert_eq!(*counter.lock(), 400);
}
