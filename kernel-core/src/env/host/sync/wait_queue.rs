// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The host's wait queue: the queue of sleeping threads under every `Mutex`, `CondVar` and
//! `Completion` of the host, as `struct wait_queue_head` of
//! [`include/linux/wait.h`](https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/include/linux/wait.h)
//! is in the kernel.
//!
//! A waiter is a [`WaitEntry`] on its own stack, linked into the queue (as the kernel's
//! `DEFINE_WAIT()` entry is), so waiting allocates nothing. Wake-ups go to the oldest entries
//! first, one at a time or all at once, as `__wake_up()` wakes exclusive waiters; a woken thread
//! is taken off the queue by its waker, so that no wake-up is spent twice, and a thread that
//! gives up (a timeout) takes itself off.
//!
//! The list is guarded by a small spinlock of its own (the kernel's `wait_queue_head.lock`),
//! held for a few instructions and never while a thread sleeps. Everything blocks through
//! [`platform`](super::platform).

use core::cell::{Cell, UnsafeCell};
use core::marker::PhantomPinned;
use core::pin::Pin;
use core::ptr;

#[cfg(feature = "std")]
use super::platform::Instant;
use super::platform::{self, AtomicBool, Backoff, Ordering, Thread};

/// A queue of sleeping threads.
///
/// # Invariants
///
/// - `head` and `tail` are both null (the queue is empty) or both point to the first and last
///   of a doubly-linked list of [`WaitEntry`]s, each of which has `queued` set and is alive
///   (a pinned entry takes itself off the queue before it is dropped).
/// - `head`, `tail`, and the `next`, `prev` and `queued` fields of every entry of this queue are
///   only accessed while `locked` is held.
pub(crate) struct WaitQueue {
    /// The queue's own spinlock.
    locked: AtomicBool,
    /// The oldest entry.
    head: UnsafeCell<*const WaitEntry<'static>>,
    /// The newest entry.
    tail: UnsafeCell<*const WaitEntry<'static>>,
}

// SAFETY: The raw pointers are only followed under `locked`, to entries that are alive (type
// invariants); the entries' threads are `Send`.
unsafe impl Send for WaitQueue {}

// SAFETY: As for `Send`: every shared access to the list goes through `locked`.
unsafe impl Sync for WaitQueue {}

impl WaitQueue {
    /// An empty queue (not a `const fn`: a model's atomics are made at run time).
    #[inline]
    pub(crate) fn new() -> Self {
        // INVARIANT: Empty.
        Self {
            locked: AtomicBool::new(false),
            head: UnsafeCell::new(ptr::null()),
            tail: UnsafeCell::new(ptr::null()),
        }
    }

    /// Takes the queue's spinlock.
    #[inline]
    pub(crate) fn lock(&self) -> QueueGuard<'_> {
        let mut backoff = Backoff::new();
        while self
            .locked
            .compare_exchange_weak(false, true, Ordering::Acquire, Ordering::Relaxed)
            .is_err()
        {
            while self.locked.load(Ordering::Relaxed) {
                // Unwinding out of a failed model, whose threads never run again: taken.
                if platform::model_failed() {
                    return QueueGuard { queue: self };
                }
                backoff.snooze();
            }
        }
        QueueGuard { queue: self }
    }

    /// Wakes the `nr` oldest waiters, or all of them if `nr` is 0 (`__wake_up()`'s
    /// `nr_exclusive`); returns how many were woken.
    #[inline]
    pub(crate) fn wake(&self, nr: usize) -> usize {
        self.lock().wake(nr)
    }
}

/// The queue's spinlock, held: the list can be read and changed.
pub(crate) struct QueueGuard<'a> {
    queue: &'a WaitQueue,
}

impl QueueGuard<'_> {
    /// Wakes the `nr` oldest waiters, or all of them if `nr` is 0; returns how many.
    pub(crate) fn wake(&mut self, nr: usize) -> usize {
        let mut woken = 0;
        while nr == 0 || woken < nr {
            // SAFETY: The lock is held (type invariants of `WaitQueue`).
            let first = unsafe { *self.queue.head.get() };
            if first.is_null() {
                break;
            }
            // SAFETY: `first` is alive while it is queued, and the lock is held.
            let entry = unsafe { &*first };
            self.unlink(entry);
            // The entry's thread may return as soon as it sees `woken`, but it takes the
            // queue's lock first (`finish`), so the entry outlives this use.
            entry.woken.store(true, Ordering::Release);
            entry.thread.unpark();
            woken += 1;
        }
        woken
    }

    /// Appends `entry`, which must be of this queue and not queued.
    fn push(&mut self, entry: Pin<&WaitEntry<'_>>) {
        let entry: &WaitEntry<'_> = entry.get_ref();
        debug_assert!(ptr::eq(entry.queue, self.queue) && !entry.queued.get());
        // Lifetimes are erased in the list: an entry is alive while queued.
        let this = ptr::from_ref(entry).cast::<WaitEntry<'static>>();
        // SAFETY: The lock is held.
        let tail = unsafe { *self.queue.tail.get() };
        entry.prev.set(tail);
        entry.next.set(ptr::null());
        if tail.is_null() {
            // SAFETY: The lock is held.
            unsafe { *self.queue.head.get() = this };
        } else {
            // SAFETY: `tail` is alive while queued, and the lock is held.
            unsafe { (*tail).next.set(this) };
        }
        // SAFETY: The lock is held.
        unsafe { *self.queue.tail.get() = this };
        // INVARIANT: `entry` is pinned, and its drop takes it off the queue.
        entry.queued.set(true);
    }

    /// Takes `entry`, which must be queued here, off the queue.
    fn unlink(&mut self, entry: &WaitEntry<'_>) {
        debug_assert!(entry.queued.get());
        let (prev, next) = (entry.prev.get(), entry.next.get());
        if prev.is_null() {
            // SAFETY: The lock is held.
            unsafe { *self.queue.head.get() = next };
        } else {
            // SAFETY: `prev` is alive while queued, and the lock is held.
            unsafe { (*prev).next.set(next) };
        }
        if next.is_null() {
            // SAFETY: The lock is held.
            unsafe { *self.queue.tail.get() = prev };
        } else {
            // SAFETY: `next` is alive while queued, and the lock is held.
            unsafe { (*next).prev.set(prev) };
        }
        entry.prev.set(ptr::null());
        entry.next.set(ptr::null());
        entry.queued.set(false);
    }
}

impl Drop for QueueGuard<'_> {
    #[inline]
    fn drop(&mut self) {
        self.queue.locked.store(false, Ordering::Release);
    }
}

/// One waiting thread's place in a [`WaitQueue`], on that thread's stack: the kernel's
/// `struct wait_queue_entry`.
///
/// Pin it (`core::pin::pin!`), queue it with [`enqueue_if`](Self::enqueue_if), sleep with
/// [`wait`](Self::wait) or [`wait_until`](Self::wait_until), and take it off with
/// [`finish`](Self::finish) (its drop does too).
pub(crate) struct WaitEntry<'q> {
    /// The queue this entry waits on.
    queue: &'q WaitQueue,
    /// The next (newer) entry, under the queue's lock.
    next: Cell<*const WaitEntry<'static>>,
    /// The previous (older) entry, under the queue's lock.
    prev: Cell<*const WaitEntry<'static>>,
    /// Whether the entry is in the queue, under the queue's lock.
    queued: Cell<bool>,
    /// Set by the waker, once it took the entry off the queue.
    woken: AtomicBool,
    /// The waiting thread.
    thread: Thread,
    /// Linked into the queue by address.
    _pin: PhantomPinned,
}

impl<'q> WaitEntry<'q> {
    /// An entry of the calling thread for `queue`, not queued yet.
    #[inline]
    pub(crate) fn new(queue: &'q WaitQueue) -> Self {
        Self {
            queue,
            next: Cell::new(ptr::null()),
            prev: Cell::new(ptr::null()),
            queued: Cell::new(false),
            woken: AtomicBool::new(false),
            thread: platform::current(),
            _pin: PhantomPinned,
        }
    }

    /// Queues the entry (at the tail) if `sleep()` says so, which runs under the queue's lock:
    /// what a waker changes under the same lock, `sleep()` sees. Returns whether it queued.
    /// An entry that is still queued stays where it is.
    pub(crate) fn enqueue_if(self: Pin<&Self>, sleep: impl FnOnce() -> bool) -> bool {
        let mut queue = self.queue.lock();
        // Unwinding out of a failed model, nobody would wake it.
        if platform::model_failed() || !sleep() {
            return false;
        }
        if !self.queued.get() {
            self.woken.store(false, Ordering::Relaxed);
            queue.push(self);
        }
        true
    }

    /// Sleeps until a waker takes the entry off the queue.
    pub(crate) fn wait(self: Pin<&Self>) {
        // Unwinding out of a failed model, nobody would wake it.
        while !self.woken.load(Ordering::Acquire) && !platform::model_failed() {
            platform::park();
        }
    }

    /// Sleeps until a waker takes the entry off the queue (`true`), or until `deadline`
    /// (`false`; the entry may have been woken meanwhile: [`finish`](Self::finish) says).
    #[cfg(feature = "std")]
    pub(crate) fn wait_until(self: Pin<&Self>, deadline: Instant) -> bool {
        loop {
            if self.woken.load(Ordering::Acquire) {
                return true;
            }
            let now = Instant::now();
            if now >= deadline {
                return false;
            }
            platform::park_timeout(deadline - now);
        }
    }

    /// Whether a waker took the entry off the queue already.
    #[inline]
    pub(crate) fn woken(&self) -> bool {
        self.woken.load(Ordering::Acquire)
    }

    /// Takes the entry off the queue if it is still queued (the kernel's `finish_wait()`);
    /// returns whether it was woken.
    pub(crate) fn finish(self: Pin<&Self>) -> bool {
        let mut queue = self.queue.lock();
        if self.queued.get() {
            queue.unlink(&self);
        }
        self.woken.load(Ordering::Acquire)
    }
}

impl Drop for WaitEntry<'_> {
    fn drop(&mut self) {
        // SAFETY: `self` is not moved: it is only passed on as a pinned shared reference, and
        // dropped in place right after.
        let this = unsafe { Pin::new_unchecked(&*self) };
        // INVARIANT: Off the queue before its memory goes.
        this.finish();
    }
}

#[cfg(all(test, feature = "std"))]
mod tests {
    extern crate std;

    use core::pin::pin;
    use std::sync::Arc;

    use super::*;

    #[test]
    fn wakes_in_order_and_counts() {
        let queue = WaitQueue::new();
        let a = pin!(WaitEntry::new(&queue));
        let b = pin!(WaitEntry::new(&queue));
        let c = pin!(WaitEntry::new(&queue));
        assert!(a.as_ref().enqueue_if(|| true));
        assert!(b.as_ref().enqueue_if(|| true));
        assert!(!c.as_ref().enqueue_if(|| false));
        assert!(c.as_ref().enqueue_if(|| true));
        // Already queued: stays.
        assert!(b.as_ref().enqueue_if(|| true));
        assert_eq!(queue.wake(1), 1);
        assert!(a.woken() && !b.woken() && !c.woken());
        // `b` gives up: off the middle... of a list of two.
        assert!(!b.as_ref().finish());
        assert_eq!(queue.wake(0), 1);
        assert!(c.woken());
        assert_eq!(queue.wake(0), 0);
        a.as_ref().wait(); // returns at once
        assert!(a.as_ref().finish());
    }

    #[test]
    fn entries_leave_from_the_middle_and_when_dropped() {
        let queue = WaitQueue::new();
        {
            let first = pin!(WaitEntry::new(&queue));
            let second = pin!(WaitEntry::new(&queue));
            let third = pin!(WaitEntry::new(&queue));
            first.as_ref().enqueue_if(|| true);
            second.as_ref().enqueue_if(|| true);
            third.as_ref().enqueue_if(|| true);
            // The middle one gives up.
            assert!(!second.as_ref().finish());
            // `third`, then `first`, are dropped while queued.
        }
        assert_eq!(queue.wake(0), 0);
    }

    #[test]
    fn a_timed_wait_times_out_and_a_woken_one_does_not() {
        let queue = WaitQueue::new();
        let entry = pin!(WaitEntry::new(&queue));
        entry.as_ref().enqueue_if(|| true);
        let deadline = Instant::now() + core::time::Duration::from_millis(1);
        assert!(!entry.as_ref().wait_until(deadline));
        assert!(!entry.as_ref().finish());

        entry.as_ref().enqueue_if(|| true);
        queue.wake(1);
        assert!(entry.as_ref().wait_until(Instant::now()));
        assert!(entry.as_ref().finish());
    }

    #[test]
    fn wakes_sleeping_threads() {
        let queue = Arc::new(WaitQueue::new());
        let asleep = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let threads: std::vec::Vec<_> = (0..3)
            .map(|_| {
                let (queue, asleep) = (queue.clone(), asleep.clone());
                std::thread::spawn(move || {
                    let entry = pin!(WaitEntry::new(&queue));
                    entry.as_ref().enqueue_if(|| {
                        asleep.fetch_add(1, Ordering::Relaxed);
                        true
                    });
                    entry.as_ref().wait();
                    assert!(entry.as_ref().finish());
                })
            })
            .collect();
        while asleep.load(Ordering::Relaxed) < 3 {
            platform::yield_now();
        }
        let mut woken = 0;
        while woken < 3 {
            woken += queue.wake(1);
            platform::yield_now();
        }
        for thread in threads {
            thread.join().unwrap();
        }
    }
}
