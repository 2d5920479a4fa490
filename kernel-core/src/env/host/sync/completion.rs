// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The host's `struct completion`: `init_completion()`, `complete_all()` and
//! `wait_for_completion()`.
//!
//! Kernel counterpart: [`include/linux/completion.h`](https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/include/linux/completion.h)
//! and `kernel/sched/completion.c`. As in the kernel, a completion is a count of "done"
//! events and a queue of waiters; `complete_all()` sets the count to `UINT_MAX`, for ever, and
//! wakes every waiter. Both change only under the queue's lock, where a waiter checks the
//! count before it sleeps, so no completion is missed.

use core::panic::Location;
use core::pin::pin;

use super::hooks;
use super::platform::{AtomicU32, Ordering};
use super::wait_queue::{WaitEntry, WaitQueue};

/// `UINT_MAX`: the count of a completion completed for all (`complete_all()`).
const COMPLETE_ALL: u32 = u32::MAX;

/// The host's `struct completion`: what a `Completion` is.
#[allow(non_camel_case_types)]
pub(crate) struct completion {
    /// How many waiters may still pass without waiting; [`COMPLETE_ALL`] for all of them.
    /// Changed only under `wait`'s lock.
    done: AtomicU32,
    /// The sleeping waiters.
    wait: WaitQueue,
}

/// `init_completion()`.
///
/// # Safety
///
/// `ptr` is valid for writes.
#[inline]
pub(crate) unsafe fn init_completion(ptr: *mut completion) {
    // SAFETY: The caller's promise.
    unsafe {
        ptr.write(completion {
            done: AtomicU32::new(0),
            wait: WaitQueue::new(),
        })
    };
}

/// `complete_all()`: every current and future waiter passes.
#[inline]
pub(crate) fn complete_all(x: &completion) {
    let mut queue = x.wait.lock();
    x.done.store(COMPLETE_ALL, Ordering::Release);
    queue.wake(0);
}

/// `wait_for_completion()`: sleeps (uninterruptibly, without timeout) until `x` is done, and
/// takes one "done" (none, after `complete_all()`).
#[track_caller]
pub(crate) fn wait_for_completion(x: &completion) {
    hooks::might_sleep(Location::caller());
    let entry = pin!(WaitEntry::new(&x.wait));
    // Checked and consumed under the queue's lock, where `complete_all` sets it.
    while entry.as_ref().enqueue_if(|| {
        let done = x.done.load(Ordering::Acquire);
        if done == 0 {
            return true;
        }
        if done != COMPLETE_ALL {
            x.done.store(done - 1, Ordering::Relaxed);
        }
        false
    }) {
        entry.as_ref().wait();
        entry.as_ref().finish();
    }
}
