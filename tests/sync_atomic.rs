// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Host only: kernel-core's `Atomic`, `AtomicFlag`, `SetOnce` and `Refcount` on real threads:
//! no lost update of `fetch_add`, `cmpxchg` loops and `add` under contention, one winner of a
//! `SetOnce` race whose value every thread then reads, a flag as a hand-rolled lock with
//! acquire and release orderings (Miri would report a data race if they were too weak), and a
//! `Refcount` that reaches 0 once.
//!
//! Every test here also runs under Miri:
//! `cargo +nightly miri test -p kernel-core-tests --test sync_atomic`.

use std::cell::UnsafeCell;
use std::thread;

use kernel_core::sync::atomic::{Acquire, Atomic, AtomicFlag, Full, Relaxed, Release};
use kernel_core::sync::barrier::{smp_mb, Read, Write};
use kernel_core::sync::{Refcount, SetOnce};

/// Threads.
const THREADS: usize = if cfg!(miri) { 3 } else { 8 };

/// Operations per thread.
const ROUNDS: usize = if cfg!(miri) { 30 } else { 10_000 };

#[test]
fn read_modify_writes_lose_no_update() {
    let adds = Atomic::new(0_u64);
    let fetches = Atomic::new(0_i32);
    let swaps = Atomic::new(0_usize);
    thread::scope(|s| {
        for _ in 0..THREADS {
            s.spawn(|| {
                for _ in 0..ROUNDS {
                    adds.add(1, Relaxed);
                    fetches.fetch_add(2, Full);
                    let mut seen = swaps.load(Relaxed);
                    while let Err(now) = swaps.cmpxchg(seen, seen + 1, Relaxed) {
                        seen = now;
                    }
                }
            });
        }
    });
    let total = THREADS * ROUNDS;
    assert_eq!(adds.load(Relaxed), total as u64);
    assert_eq!(fetches.load(Relaxed), 2 * total as i32);
    assert_eq!(swaps.load(Relaxed), total);
}

#[test]
fn one_thread_sets_a_set_once() {
    let slot = SetOnce::new();
    let winners = thread::scope(|s| {
        let handles: Vec<_> = (0..THREADS)
            .map(|i| {
                let slot = &slot;
                s.spawn(move || {
                    let won = slot.populate(i);
                    // A loser may get here while the winner still writes: `as_ref` is `None`
                    // until the value is complete, then the same for every thread.
                    let seen = loop {
                        if let Some(&v) = slot.as_ref() {
                            break v;
                        }
                        thread::yield_now();
                    };
                    (i, won, seen)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("no panic"))
            .collect::<Vec<_>>()
    });
    let value = slot.copy().expect("populated");
    // One winner, whose value every thread saw.
    let won: Vec<usize> = winners.iter().filter(|t| t.1).map(|t| t.0).collect();
    assert_eq!(won, [value]);
    assert!(winners.iter().all(|&(_, _, seen)| seen == value));
}

/// Data that a flag guards, as a lock does.
struct FlagLocked {
    flag: AtomicFlag,
    data: UnsafeCell<usize>,
}

// SAFETY: `data` is only accessed by the thread that set `flag` (acquire), until it clears it
// (release).
unsafe impl Sync for FlagLocked {}

#[test]
fn a_flag_with_acquire_and_release_guards_data() {
    let locked = FlagLocked {
        flag: AtomicFlag::new(false),
        data: UnsafeCell::new(0),
    };
    let shared = &locked;
    thread::scope(|s| {
        for _ in 0..THREADS {
            s.spawn(move || {
                let locked = shared;
                for _ in 0..ROUNDS / 10 {
                    while locked.flag.cmpxchg(false, true, Acquire).is_err() {
                        thread::yield_now();
                    }
                    // SAFETY: This thread set the flag.
                    unsafe { *locked.data.get() += 1 };
                    locked.flag.store(false, Release);
                }
            });
        }
    });
    assert_eq!(locked.data.into_inner(), THREADS * (ROUNDS / 10));
}

#[test]
fn barriers_publish_a_message() {
    let data = Atomic::new(0_u32);
    let ready = Atomic::new(false);
    thread::scope(|s| {
        s.spawn(|| {
            data.store(42, Relaxed);
            smp_mb(Write);
            ready.store(true, Relaxed);
        });
        s.spawn(|| {
            while !ready.load(Relaxed) {
                thread::yield_now();
            }
            smp_mb(Read);
            assert_eq!(data.load(Relaxed), 42);
        });
    });
}

#[test]
fn a_refcount_reaches_zero_once() {
    let refs = Refcount::new(1);
    let zeros = Atomic::new(0_u32);
    thread::scope(|s| {
        for _ in 0..THREADS {
            refs.inc();
        }
        for _ in 0..THREADS {
            s.spawn(|| {
                if refs.dec_and_test() {
                    zeros.fetch_add(1, Full);
                }
            });
        }
    });
    assert!(refs.dec_and_test());
    assert_eq!(zeros.load(Relaxed), 0);
}
