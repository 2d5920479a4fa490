// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The host's `struct wait_queue_head` and the sleeping and waking that `CondVar` is made of:
//! the kernel's `prepare_to_wait_exclusive()`, `schedule_timeout()`, `finish_wait()`,
//! `__wake_up()` and `__wake_up_sync()`.
//!
//! Kernel counterparts: [`include/linux/wait.h`](https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/include/linux/wait.h)
//! and [`include/linux/sched.h`](https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/include/linux/sched.h).
//!
//! How the host's waits differ from the kernel's:
//!
//! - **signals**: a host thread never has a signal pending for the kernel's purposes, so an
//!   interruptible wait is only ended by a wake-up or its timeout, and [`signal_pending`] is
//!   `false`;
//! - **freezing**: the host has no freezer; a freezable wait is an interruptible one;
//! - **time**: a timeout counts jiffies of the host's `HZ` (250: 4 ms each) on the real
//!   monotonic clock; on a thread whose time is virtual
//!   ([`extras::virtual_time`](crate::extras::virtual_time)), a timed wait that nobody woke
//!   before it started to sleep times out at once, advancing the thread's clock by the whole
//!   timeout, as `fsleep()` does there; without `std` there is no clock, and such a wait times
//!   out at once, as it does inside a model ([`extras::model`](crate::extras::model));
//! - **spurious wake-ups**: none, although callers must allow for them as in the kernel (a
//!   host waiter returns only when woken or timed out).

use crate::ffi::{c_int, c_long};
use core::panic::Location;
use core::pin::{pin, Pin};

use super::class::{lock_class_key, LockClass};
use super::hooks;
use super::wait_queue::{WaitEntry, WaitQueue};
use crate::sync::lock::{Backend, Guard};

/// `TASK_INTERRUPTIBLE`: the wait ends on a signal too.
pub(crate) const TASK_INTERRUPTIBLE: c_int = 0x0001;
/// `TASK_UNINTERRUPTIBLE`: only a wake-up (or a timeout) ends the wait.
pub(crate) const TASK_UNINTERRUPTIBLE: c_int = 0x0002;
/// `TASK_FREEZABLE`: the freezer may freeze the waiter.
pub(crate) const TASK_FREEZABLE: c_int = 0x2000;
/// `MAX_SCHEDULE_TIMEOUT`: no timeout.
pub(crate) const MAX_SCHEDULE_TIMEOUT: c_long = c_long::MAX;

/// The host's `struct wait_queue_head`: what a `CondVar` is.
#[allow(non_camel_case_types)]
pub(crate) struct wait_queue_head {
    /// The sleeping threads.
    queue: WaitQueue,
    /// The queue's name and class (lockdep gives a wait queue's lock a class), for the
    /// detectors.
    #[allow(dead_code)]
    class: LockClass,
}

/// `__init_waitqueue_head()`.
///
/// # Safety
///
/// `ptr` is valid for writes; `name` and `key` stay valid for reads for as long as the queue is
/// used.
#[inline]
pub(crate) unsafe fn init_waitqueue_head(
    ptr: *mut wait_queue_head,
    name: *const crate::ffi::c_char,
    key: *mut lock_class_key,
) {
    // SAFETY: The caller's promises.
    unsafe {
        ptr.write(wait_queue_head {
            queue: WaitQueue::new(),
            class: LockClass::new(name, key),
        })
    };
}

/// Sleeps on `head` in `state` (`TASK_*`) until woken, or for at most `timeout` jiffies,
/// releasing `guard`'s lock meanwhile; returns the jiffies left, 0 on a timeout, or
/// `MAX_SCHEDULE_TIMEOUT` for a wait without one: what `CondVar` does with
/// `prepare_to_wait_exclusive()`, `schedule_timeout()` and `finish_wait()`.
#[track_caller]
pub(crate) fn wait<T: ?Sized, B: Backend>(
    head: &wait_queue_head,
    state: c_int,
    guard: &mut Guard<'_, T, B>,
    timeout: c_long,
) -> c_long {
    // The host has no signals and no freezer: the state changes nothing.
    let _ = state;
    let at = Location::caller();
    let entry = pin!(WaitEntry::new(&head.queue));
    // Queued while the lock is held: a notification after the unlock finds the entry.
    entry.as_ref().enqueue_if(|| true);
    let left = guard.do_unlocked(|| {
        // After the unlock, as the kernel's `schedule()`: waiting on a condition variable
        // with a spinlock's guard is not sleeping in atomic context.
        hooks::might_sleep(at);
        schedule_timeout(entry.as_ref(), timeout)
    });
    entry.as_ref().finish();
    left
}

/// `schedule_timeout()` for a queued `entry`.
fn schedule_timeout(entry: Pin<&WaitEntry<'_>>, timeout: c_long) -> c_long {
    if timeout == MAX_SCHEDULE_TIMEOUT {
        entry.wait();
        return timeout;
    }
    // The kernel reports a negative timeout as a bug and does not sleep.
    let timeout = timeout.max(0);
    timed::sleep(entry, timeout)
}

#[cfg(feature = "std")]
mod timed {
    use crate::ffi::c_long;
    use core::pin::Pin;
    use core::time::Duration;

    use super::super::platform::Instant;
    use super::WaitEntry;
    use crate::env::delay::HZ;

    /// The length of a jiffy, in nanoseconds.
    const JIFFY_NANOS: u64 = 1_000_000_000 / HZ as u64;

    /// Sleeps for at most `timeout` (not negative) jiffies; returns those left.
    pub(super) fn sleep(entry: Pin<&WaitEntry<'_>>, timeout: c_long) -> c_long {
        if entry.woken() {
            return timeout;
        }
        // A model has no time: a wait that nobody woke before it began times out at once (the
        // model explores the wake-ups that come before).
        #[cfg(feature = "loom")]
        if super::super::platform::in_model() {
            return 0;
        }
        #[cfg(target_os = "linux")]
        if crate::env::delay::virtual_now().is_some() {
            let nanos = (timeout as u64).saturating_mul(JIFFY_NANOS);
            crate::env::delay::virtual_advance(nanos.min(i64::MAX as u64) as i64);
            return 0;
        }
        let start = Instant::now();
        let span = Duration::from_nanos((timeout as u64).saturating_mul(JIFFY_NANOS));
        let Some(deadline) = start.checked_add(span) else {
            // Past the clock's range: no timeout in practice.
            entry.wait();
            return timeout;
        };
        if !entry.wait_until(deadline) {
            return 0;
        }
        let gone = start.elapsed().as_nanos() / u128::from(JIFFY_NANOS);
        // Fewer than `timeout` whole jiffies passed, since the deadline was not reached.
        (timeout as u128).saturating_sub(gone) as c_long
    }
}

#[cfg(not(feature = "std"))]
mod timed {
    use crate::ffi::c_long;
    use core::pin::Pin;

    use super::WaitEntry;

    /// Without a clock: the jiffies left if already woken, else a timeout at once.
    pub(super) fn sleep(entry: Pin<&WaitEntry<'_>>, timeout: c_long) -> c_long {
        if entry.woken() {
            timeout
        } else {
            0
        }
    }
}

/// `__wake_up(head, TASK_NORMAL, nr, NULL)` (every waiter is `TASK_NORMAL` on the host): wakes the `nr` oldest waiters, all if `nr` is 0.
#[inline]
pub(crate) fn wake_up(head: &wait_queue_head, nr: c_int) {
    head.queue.wake(usize::try_from(nr).unwrap_or(0));
}

/// `__wake_up_sync(head, TASK_NORMAL)`: wakes one waiter (the host has no scheduler hint to
/// give).
#[inline]
pub(crate) fn wake_up_sync(head: &wait_queue_head) {
    head.queue.wake(1);
}

/// `signal_pending(current)`: never, on the host.
#[inline]
pub(crate) fn signal_pending() -> bool {
    false
}
