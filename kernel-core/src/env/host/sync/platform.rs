// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The threading primitives that the host's `kernel::sync` is built on, in one module: atomics,
//! parking a thread and waking it, yielding, a busy-wait step, thread identity and a clock for
//! timeouts.
//!
//! Every lock, wait queue and completion of `env/host/sync/` blocks, spins and synchronises
//! through what this module exports, and through nothing else of `std` or `core::sync`. That is
//! what lets a model checker take their place, the way tokio's `loom` facade does: with the
//! feature `loom`, the atomics, [`Thread`], [`park`], [`yield_now`] and [`thread_id`] are
//! those of `model.rs`, which are loom's inside a model
//! ([`extras::model`](crate::extras::model)) and `core`'s and `std`'s outside one, and
//! [`Backoff::snooze`] yields at once inside one (loom explores the interleavings of a spin
//! loop only if it yields). The rest of the module tree does not change, but for timed waits,
//! which time out at once inside a model (loom has no time: `wait.rs`).
//!
//! Not routed through here, on purpose: the kernel's [`Atomic<T>`](crate::sync::atomic::Atomic)
//! (it is `repr(transparent)` over its value and has `from_ptr`, which loom's atomics cannot
//! give, so it keeps `core`'s; inside a model each of its operations is a point where loom may
//! switch threads, [`schedule_point`]), and the bookkeeping words that statics hold (a
//! `LockClassKey`'s, the "once" of a warning), which are made in constant context and are not
//! synchronisation to explore.
//!
//! What each configuration gets:
//!
//! | | feature `std` | no `std` |
//! |---|---|---|
//! | atomics | `core::sync::atomic` | `core::sync::atomic` |
//! | [`park`] | `std::thread::park` (a real sleep) | one spin-loop hint (the caller's loop spins) |
//! | [`Thread::unpark`] | `std::thread::Thread::unpark` | nothing to do |
//! | [`yield_now`] | `std::thread::yield_now` | one spin-loop hint |
//! | [`thread_id`] | one number per live thread | the same number for every thread |
//! | [`Instant`] | `std::time::Instant` | none: timed waits that nobody woke time out at once |
//!
//! With the feature `loom` (which implies `std`), the same outside a model; inside one, the
//! atomics made there are loom's (one made outside stays `core`'s), parking, yielding and
//! thread identity are loom's, [`Backoff::snooze`] always yields, and there is no clock.

pub(crate) use core::sync::atomic::Ordering;
#[cfg(not(feature = "loom"))]
pub(crate) use core::sync::atomic::{AtomicBool, AtomicU32, AtomicUsize};

#[cfg(feature = "loom")]
pub(crate) use super::model::{
    current, failed as model_failed, in_model, park, park_timeout, schedule_point, thread_id,
    yield_now, AtomicBool, AtomicU32, AtomicUsize, Thread,
};

/// Whether the calling thread unwinds out of a model that failed, where waiting must give up
/// (`model.rs`): never, without the model checker.
#[cfg(not(feature = "loom"))]
#[inline(always)]
pub(crate) const fn model_failed() -> bool {
    false
}

/// How many times [`Backoff::snooze`] spins before it yields the processor instead.
const SPINS_BEFORE_YIELD: u32 = 64;

/// The busy-wait step of a spin loop: a processor hint first, then, past a few dozen rounds,
/// giving the processor away. On the host a lock holder can be preempted (a kernel spinlock
/// holder cannot), and on a machine with fewer cores than spinning threads, spinning alone would
/// wait for the scheduler's next tick.
#[derive(Default)]
pub(crate) struct Backoff {
    spins: u32,
}

impl Backoff {
    /// A new wait, which spins first.
    #[inline]
    pub(crate) const fn new() -> Self {
        Self { spins: 0 }
    }

    /// Waits a little.
    #[inline]
    pub(crate) fn snooze(&mut self) {
        // Inside a model, a spin is a yield: loom sees a spin loop that does not yield as a
        // thread that never lets the others run.
        #[cfg(feature = "loom")]
        if in_model() {
            yield_now();
            return;
        }
        if self.spins < SPINS_BEFORE_YIELD {
            self.spins += 1;
            core::hint::spin_loop();
        } else {
            yield_now();
        }
    }
}

#[cfg(feature = "std")]
#[cfg_attr(feature = "loom", allow(dead_code))] // `model.rs` calls them outside a model.
pub(crate) mod imp {
    use std::cell::Cell;

    /// A handle to a thread, which another thread can wake from [`park`].
    #[derive(Clone)]
    pub(crate) struct Thread(std::thread::Thread);

    impl Thread {
        /// Wakes the thread from [`park`], or makes its next `park` return at once.
        #[inline]
        pub(crate) fn unpark(&self) {
            self.0.unpark();
        }
    }

    /// The calling thread.
    #[inline]
    pub(crate) fn current() -> Thread {
        Thread(std::thread::current())
    }

    /// Sleeps until [`Thread::unpark`], or spuriously: callers loop on their own condition.
    #[inline]
    pub(crate) fn park() {
        std::thread::park();
    }

    /// [`park`], for at most `timeout`.
    #[inline]
    pub(crate) fn park_timeout(timeout: core::time::Duration) {
        std::thread::park_timeout(timeout);
    }

    /// Gives the processor to another thread.
    #[inline]
    pub(crate) fn yield_now() {
        std::thread::yield_now();
    }

    /// A number that no other live thread has.
    #[inline]
    pub(crate) fn thread_id() -> usize {
        std::thread_local! {
            static ME: Cell<u8> = const { Cell::new(0) };
        }
        // The address of a thread-local: distinct between live threads, never 0.
        ME.with(|me| core::ptr::from_ref(me).addr())
    }

    /// The clock of timed waits.
    pub(crate) use std::time::Instant;
}

#[cfg(not(feature = "std"))]
mod imp {
    /// A thread, which nothing can wake without `std`: waiters spin.
    #[derive(Clone)]
    pub(crate) struct Thread;

    impl Thread {
        /// Nothing to do: the thread spins in [`park`].
        #[inline]
        pub(crate) fn unpark(&self) {}
    }

    /// The calling thread.
    #[inline]
    pub(crate) fn current() -> Thread {
        Thread
    }

    /// One spin-loop hint: callers loop on their own condition.
    #[inline]
    pub(crate) fn park() {
        core::hint::spin_loop();
    }

    /// One spin-loop hint.
    #[inline]
    pub(crate) fn yield_now() {
        core::hint::spin_loop();
    }

    /// Without `std` the threads cannot be told apart: the same number for every one.
    #[inline]
    pub(crate) fn thread_id() -> usize {
        1
    }
}

#[cfg(feature = "loom")]
pub(crate) use imp::Instant;
#[cfg(not(feature = "loom"))]
pub(crate) use imp::*;

#[cfg(all(test, feature = "std"))]
mod tests {
    extern crate std;

    use super::*;

    #[test]
    fn thread_ids_differ_between_live_threads() {
        let here = thread_id();
        assert_ne!(here, 0);
        assert_eq!(here, thread_id());
        let there = std::thread::spawn(thread_id).join().unwrap();
        // The other thread may have exited, but it was alive with `here` alive too.
        assert_ne!(here, there);
    }

    #[test]
    fn unpark_before_park_is_not_lost() {
        current().unpark();
        park(); // returns at once: the token is set
        let mut backoff = Backoff::new();
        for _ in 0..SPINS_BEFORE_YIELD + 2 {
            backoff.snooze();
        }
    }
}
