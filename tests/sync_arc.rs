// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Host only: kernel-core's `Arc`, `ArcBorrow` and `UniqueArc` across threads: clones dropped
//! on many threads drop the value exactly once, on whichever thread held the last reference;
//! `into_unique_or_drop` racing on two threads gives the value to exactly one of them (never
//! dropping it); a `UniqueArc` filled on one thread and shared with others.
//!
//! Every test here also runs under Miri, which checks the reference counting's orderings (a
//! value freed before another thread's last use of it would be a data race or a use after
//! free): `cargo +nightly miri test -p kernel-core-tests --test sync_arc`.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;

use kernel_core::prelude::*;
use kernel_core::sync::{Arc, ArcBorrow, UniqueArc};

/// Threads.
const THREADS: usize = if cfg!(miri) { 3 } else { 8 };

/// Clones per thread.
const CLONES: usize = if cfg!(miri) { 5 } else { 1_000 };

/// A value that counts its drops.
struct Counted<'a> {
    drops: &'a AtomicUsize,
    value: u64,
}

impl Drop for Counted<'_> {
    fn drop(&mut self) {
        self.drops.fetch_add(1, Ordering::Relaxed);
    }
}

#[test]
fn clones_on_many_threads_drop_the_value_once() -> Result {
    let drops = AtomicUsize::new(0);
    let shared = Arc::new(
        Counted {
            drops: &drops,
            value: 7,
        },
        GFP_KERNEL,
    )?;
    thread::scope(|s| {
        for _ in 0..THREADS {
            let mine = shared.clone();
            s.spawn(move || {
                let mut held = std::vec::Vec::new();
                for _ in 0..CLONES {
                    held.push(mine.clone());
                }
                assert!(held.iter().all(|a| a.value == 7 && Arc::ptr_eq(a, &mine)));
                // Dropped here, with `mine`, concurrently with the other threads' clones.
            });
        }
        assert_eq!(drops.load(Ordering::Relaxed), 0);
        drop(shared);
    });
    assert_eq!(drops.load(Ordering::Relaxed), 1);
    Ok(())
}

#[test]
fn the_last_reference_drops_on_its_own_thread() -> Result {
    let drops = AtomicUsize::new(0);
    let a = Arc::new(
        Counted {
            drops: &drops,
            value: 1,
        },
        GFP_KERNEL,
    )?;
    let b = a.clone();
    drop(a);
    thread::scope(|s| {
        s.spawn(move || {
            assert_eq!(b.value, 1);
            drop(b);
        });
    });
    assert_eq!(drops.load(Ordering::Relaxed), 1);
    Ok(())
}

#[test]
fn into_unique_or_drop_races_give_the_value_to_one_thread() -> Result {
    for round in 0..if cfg!(miri) { 4 } else { 200 } {
        let drops = AtomicUsize::new(0);
        let a = Arc::new(
            Counted {
                drops: &drops,
                value: round,
            },
            GFP_KERNEL,
        )?;
        let b = a.clone();
        let winners = thread::scope(|s| {
            let first = s.spawn(move || Arc::into_unique_or_drop(a).map(|u| u.value));
            let second = s.spawn(move || Arc::into_unique_or_drop(b).map(|u| u.value));
            [
                first.join().expect("no panic"),
                second.join().expect("no panic"),
            ]
        });
        // Exactly one got it (and dropped it when its `UniqueArc` went).
        assert_eq!(
            winners.iter().flatten().collect::<std::vec::Vec<_>>(),
            [&round]
        );
        assert_eq!(drops.load(Ordering::Relaxed), 1);
    }
    Ok(())
}

#[test]
fn a_unique_arc_is_filled_then_shared() -> Result {
    let mut unique = UniqueArc::<[u64; 8]>::new_uninit(GFP_KERNEL)?.write([0; 8]);
    for (i, slot) in unique.iter_mut().enumerate() {
        *slot = i as u64 * 3;
    }
    let shared: Arc<[u64; 8]> = unique.into();
    let sums: std::vec::Vec<u64> = thread::scope(|s| {
        let handles: std::vec::Vec<_> = (0..THREADS)
            .map(|_| {
                let mine = shared.clone();
                s.spawn(move || mine.iter().sum::<u64>())
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("no panic"))
            .collect()
    });
    assert!(sums.iter().all(|&sum| sum == 84));
    Ok(())
}

/// An `Arc`'s raw pointer, sent to another thread.
#[derive(Clone, Copy)]
struct RawValue(*const u32);

// SAFETY: The pointer is only used through `ArcBorrow::from_raw`, whose callers keep the value
// alive; a `u32` may be read from any thread.
unsafe impl Send for RawValue {}

#[test]
fn borrows_become_arcs_on_other_threads() -> Result {
    let shared = Arc::new(5_u32, GFP_KERNEL)?;
    let borrowed: ArcBorrow<'_, u32> = shared.as_arc_borrow();
    assert_eq!(*borrowed, 5);
    let raw = RawValue(Arc::as_ptr(&shared));
    thread::scope(|s| {
        for _ in 0..THREADS {
            s.spawn(move || {
                let raw = raw;
                // SAFETY: `raw` is `as_ptr` of `shared`, which outlives the scope, and no
                // `UniqueArc` of it exists.
                let again = unsafe { ArcBorrow::from_raw(raw.0) };
                let owned: Arc<u32> = again.into();
                assert_eq!(*owned, 5);
            });
        }
    });
    // Every thread's reference is gone again: the last one is unique.
    assert!(Arc::into_unique_or_drop(shared).is_some());
    Ok(())
}
