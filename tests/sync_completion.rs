// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Host only: kernel-core's `Completion` on real threads: waiters that sleep until
//! `complete_all()` on another thread, every later wait returning at once, and the work's
//! results visible to the waiters once they return (the completion orders them).
//!
//! Every test here also runs under Miri:
//! `cargo +nightly miri test -p kernel-core-tests --test sync_completion`.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;

use kernel_core::prelude::*;
use kernel_core::sync::{Arc, Completion, SpinLock};

/// Waiting threads.
const WAITERS: usize = if cfg!(miri) { 3 } else { 8 };

/// Some work, and the completion that says it is done.
#[pin_data]
struct Task {
    result: AtomicUsize,
    #[pin]
    done: Completion,
}

fn task() -> Result<Arc<Task>> {
    Arc::pin_init(
        pin_init!(Task {
            result: AtomicUsize::new(0),
            done <- Completion::new(),
        }),
        GFP_KERNEL,
    )
}

#[test]
fn complete_all_wakes_every_waiter_and_publishes_the_work() -> Result {
    let task = task()?;
    let woken = AtomicUsize::new(0);
    thread::scope(|s| {
        for _ in 0..WAITERS {
            let (task, woken) = (&task, &woken);
            s.spawn(move || {
                task.done.wait_for_completion();
                // Relaxed: the completion itself orders the worker's store before this load.
                assert_eq!(task.result.load(Ordering::Relaxed), 42);
                woken.fetch_add(1, Ordering::Relaxed);
            });
        }
        let worker = task.clone();
        s.spawn(move || {
            worker.result.store(42, Ordering::Relaxed);
            worker.done.complete_all();
        });
    });
    assert_eq!(woken.load(Ordering::Relaxed), WAITERS);
    // Completed for good.
    task.done.wait_for_completion();
    Ok(())
}

#[test]
fn a_waiter_that_comes_late_passes_at_once() -> Result {
    let task = task()?;
    let worker = task.clone();
    thread::spawn(move || worker.done.complete_all())
        .join()
        .expect("no panic");
    task.done.wait_for_completion();
    task.done.wait_for_completion();
    Ok(())
}

#[test]
fn a_completion_hands_over_between_threads_in_turn() -> Result {
    // A chain: each thread waits for the previous one's completion, then completes its own.
    let steps: std::vec::Vec<Arc<Task>> = (0..WAITERS).map(|_| task()).collect::<Result<_>>()?;
    let log = KBox::pin_init(kernel_core::new_spinlock!(KVec::<usize>::new()), GFP_KERNEL)?;
    let log: &SpinLock<KVec<usize>> = &log;
    thread::scope(|s| {
        for (i, step) in steps.iter().enumerate().rev() {
            let previous = i.checked_sub(1).map(|p| &steps[p]);
            s.spawn(move || {
                if let Some(previous) = previous {
                    previous.done.wait_for_completion();
                }
                log.lock().push(i, GFP_ATOMIC).expect("a small push");
                step.done.complete_all();
            });
        }
    });
    assert!(log.lock().iter().copied().eq(0..WAITERS));
    Ok(())
}
