// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Host only: kernel-core's `Mutex`, `SpinLock`, `SpinLockIrq` and global locks on real
//! threads: mutual exclusion under contention (a counter incremented by many threads, each
//! increment a read and a later write that any overlap would lose), `try_lock` against a
//! holder on another thread, a sleeping `Mutex` waiter woken by the unlock, and locks shared
//! through `Arc`.
//!
//! Every test here also runs under Miri, which checks the locks' `unsafe` code and reports any
//! data race on the data they guard:
//! `cargo +nightly miri test -p kernel-core-tests --test sync_locks`.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread;

use kernel_core::prelude::*;
use kernel_core::sync::lock::{Backend, Lock};
use kernel_core::sync::{new_mutex, new_spinlock, new_spinlock_irq, Arc, Mutex, SpinLock};

/// Threads that contend for a lock.
const THREADS: usize = if cfg!(miri) { 3 } else { 8 };

/// Increments per thread.
const ROUNDS: usize = if cfg!(miri) { 20 } else { 2_000 };

/// A counter whose increment is not atomic: a read, a pause, a write.
#[derive(Default)]
struct Counter {
    value: usize,
    /// Set while a thread is between the read and the write: two at a time is a failed lock.
    inside: bool,
}

impl Counter {
    fn increment(&mut self) {
        assert!(!self.inside, "two threads inside the critical section");
        self.inside = true;
        let value = self.value;
        std::hint::spin_loop();
        if value % 7 == 0 {
            thread::yield_now(); // let others try while this one holds the lock
        }
        self.value = value + 1;
        self.inside = false;
    }
}

/// `THREADS` threads, each incrementing the counter `ROUNDS` times under `lock`.
fn contend<B: Backend>(lock: &Lock<Counter, B>)
where
    Lock<Counter, B>: Sync,
{
    thread::scope(|s| {
        for _ in 0..THREADS {
            s.spawn(|| {
                for _ in 0..ROUNDS {
                    lock.lock().increment();
                }
            });
        }
    });
    assert_eq!(lock.lock().value, THREADS * ROUNDS);
}

#[test]
fn a_mutex_excludes_under_contention() -> Result {
    let m = KBox::pin_init(new_mutex!(Counter::default()), GFP_KERNEL)?;
    contend(&m);
    Ok(())
}

#[test]
fn a_spinlock_excludes_under_contention() -> Result {
    let s = KBox::pin_init(new_spinlock!(Counter::default()), GFP_KERNEL)?;
    contend(&s);
    Ok(())
}

#[test]
fn a_spinlock_irq_excludes_under_contention() -> Result {
    let s = KBox::pin_init(new_spinlock_irq!(Counter::default()), GFP_KERNEL)?;
    contend(&s);
    Ok(())
}

#[test]
fn try_lock_takes_turns_with_another_thread() -> Result {
    let m = KBox::pin_init(new_mutex!(Counter::default()), GFP_KERNEL)?;
    let m: &Mutex<Counter> = &m;
    thread::scope(|s| {
        for _ in 0..THREADS {
            s.spawn(|| {
                let mut done = 0;
                while done < ROUNDS {
                    match m.try_lock() {
                        Some(mut guard) => {
                            guard.increment();
                            done += 1;
                        }
                        None => thread::yield_now(),
                    }
                }
            });
        }
    });
    assert_eq!(m.lock().value, THREADS * ROUNDS);
    Ok(())
}

#[test]
fn try_lock_fails_while_another_thread_holds_the_lock() -> Result {
    let s = KBox::pin_init(new_spinlock!(0_u32), GFP_KERNEL)?;
    let s: &SpinLock<u32> = &s;
    let held = AtomicBool::new(false);
    let release = AtomicBool::new(false);
    thread::scope(|scope| {
        scope.spawn(|| {
            let mut guard = s.lock();
            *guard = 1;
            held.store(true, Ordering::Release);
            while !release.load(Ordering::Acquire) {
                thread::yield_now();
            }
        });
        while !held.load(Ordering::Acquire) {
            thread::yield_now();
        }
        assert!(s.try_lock().is_none());
        release.store(true, Ordering::Release);
    });
    assert_eq!(s.try_lock().map(|g| *g), Some(1));
    Ok(())
}

#[test]
fn a_sleeping_mutex_waiter_is_woken_by_the_unlock() -> Result {
    let m = KBox::pin_init(new_mutex!(KVec::<u32>::new()), GFP_KERNEL)?;
    let m: &Mutex<KVec<u32>> = &m;
    let started = AtomicUsize::new(0);
    let mut guard = m.lock();
    thread::scope(|s| {
        for i in 0..THREADS as u32 {
            let started = &started;
            s.spawn(move || {
                started.fetch_add(1, Ordering::Relaxed);
                // Blocks (sleeps, in the mutex's queue) until the main thread unlocks.
                m.lock().push(i, GFP_KERNEL).expect("a small push");
            });
        }
        while started.load(Ordering::Relaxed) < THREADS {
            thread::yield_now();
        }
        guard.push(u32::MAX, GFP_KERNEL).expect("a small push");
        drop(guard);
    });
    let mut values = m.lock();
    assert_eq!(values[0], u32::MAX);
    values.remove(0).expect("the first");
    values.sort_unstable();
    assert!(values.iter().copied().eq(0..THREADS as u32));
    Ok(())
}

#[test]
fn locks_in_an_arc_are_shared_by_threads() -> Result {
    let shared: Arc<Mutex<usize>> = Arc::pin_init(new_mutex!(0), GFP_KERNEL)?;
    let handles: std::vec::Vec<_> = (0..THREADS)
        .map(|_| {
            let shared = shared.clone();
            thread::spawn(move || {
                for _ in 0..ROUNDS {
                    *shared.lock() += 1;
                }
            })
        })
        .collect();
    for handle in handles {
        handle.join().expect("no panic");
    }
    assert_eq!(*shared.lock(), THREADS * ROUNDS);
    Ok(())
}

kernel_core::sync::global_lock! {
    // SAFETY: `global_spinlock_excludes` initialises it once, before any other use.
    unsafe(uninit) static GLOBAL: SpinLock<usize> = 0;
}

#[test]
fn global_spinlock_excludes() {
    // SAFETY: The only call; no other test uses `GLOBAL`.
    unsafe { GLOBAL.init() };
    thread::scope(|s| {
        for _ in 0..THREADS {
            s.spawn(|| {
                for _ in 0..ROUNDS {
                    let mut guard = GLOBAL.lock();
                    let v = *guard;
                    std::hint::spin_loop();
                    *guard = v + 1;
                }
            });
        }
    });
    assert_eq!(*GLOBAL.lock(), THREADS * ROUNDS);
}
