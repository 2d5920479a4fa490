// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! A condition variable: [`CondVar`], [`CondVarTimeoutResult`] and [`new_condvar!`].
//!
//! Kernel counterpart: `rust/kernel/sync/condvar.rs` (Linux 7.3), over `struct
//! wait_queue_head` of
//! [`include/linux/wait.h`](https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/include/linux/wait.h).
//!
//! Shared code: the sleeping and waking are the world's (`super::raw`): the kernel's wait
//! queues, or the host's (`env/host/sync/wait.rs`, which says how the host's waits differ:
//! no signals, no freezer, jiffies of a 250 Hz clock).

use crate::ffi::{c_int, c_long};
use core::ffi::CStr;
use core::marker::PhantomPinned;
use core::pin::Pin;

use pin_init::PinInit;

use super::lock::{Backend, Guard};
use super::opaque::Opaque;
use super::raw::{
    self, MAX_SCHEDULE_TIMEOUT, TASK_FREEZABLE, TASK_INTERRUPTIBLE, TASK_UNINTERRUPTIBLE,
};
use super::LockClassKey;
use crate::time::Jiffies;

/// An initialiser of a [`CondVar`] with a lock class of its own (one per call site) and the
/// given name, or `"file.rs:line"` of the call without one.
///
/// # Examples
///
/// ```
/// use kernel_core::sync::{new_condvar, CondVar};
/// use pin_init::PinInit;
///
/// fn new_ready() -> impl PinInit<CondVar> {
///     new_condvar!("ready")
/// }
/// # use pin_init::stack_pin_init;
/// # stack_pin_init!(let ready = new_ready());
/// # ready.notify_all();
/// ```
#[macro_export]
macro_rules! new_condvar {
    ($($name:literal)?) => {
        $crate::sync::CondVar::new($crate::optional_name!($($name)?), $crate::static_lock_class!())
    };
}
pub use new_condvar;

/// A condition variable: the kernel's [`struct wait_queue_head`] used to wait for a change of
/// data under a lock.
///
/// A waiter gives up the lock and goes to sleep in one step (no notification in between is
/// missed), and holds the lock again when it returns. It returns when another thread calls
/// [`CondVar::notify_one`] or [`CondVar::notify_all`], when a signal arrives (interruptible
/// waits), or for no reason at all: callers check their condition in a loop.
///
/// A condition variable is pinned and has a lock class: make one with [`new_condvar!`],
/// usually as a field of a `pin_init!`.
///
/// On the host, a thread never receives a signal, and waits on real threads (with feature
/// `std`; without it, a waiter spins).
///
/// # Examples
///
/// The following is an example of using a condvar with a mutex:
///
/// ```
/// use kernel_core::sync::{CondVar, Mutex};
///
/// /// Waits for `value` to become `v`.
/// fn wait_for_value(value: &Mutex<u32>, changed: &CondVar, v: u32) {
///     let mut guard = value.lock();
///     while *guard != v {
///         changed.wait(&mut guard);
///     }
/// }
///
/// /// Increments `value` and notifies all potential waiters.
/// fn increment(value: &Mutex<u32>, changed: &CondVar) {
///     *value.lock() += 1;
///     changed.notify_all();
/// }
/// # use kernel_core::{new_condvar, new_mutex};
/// # use pin_init::stack_pin_init;
/// # stack_pin_init!(let value = new_mutex!(0));
/// # stack_pin_init!(let changed = new_condvar!());
/// # increment(&value, &changed);
/// # wait_for_value(&value, &changed, 1);
/// ```
///
/// [`struct wait_queue_head`]: https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/include/linux/wait.h
pub struct CondVar {
    pub(crate) wait_queue_head: Opaque<raw::wait_queue_head>,

    /// Pinned: the queue's [`struct list_head`] points to itself, and its waiters to it.
    ///
    /// [`struct list_head`]: https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/include/linux/types.h
    _pin: PhantomPinned,
}

// SAFETY: A wait queue belongs to no thread.
unsafe impl Send for CondVar {}

// SAFETY: A wait queue is made for concurrent use: its list has a lock of its own.
unsafe impl Sync for CondVar {}

impl CondVar {
    /// An initialiser of a condition variable named `name`, of the class `key`.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::sync::{static_lock_class, CondVar};
    /// use pin_init::PinInit;
    ///
    /// fn new_done() -> impl PinInit<CondVar> {
    ///     CondVar::new(c"done", static_lock_class!())
    /// }
    /// # let _ = new_done();
    /// ```
    pub fn new(name: &'static CStr, key: Pin<&'static LockClassKey>) -> impl PinInit<Self> {
        // SAFETY: The closure initialises the wait queue head in place in the pinned slot
        // (`_pin` is zero-sized) and cannot fail; `name` and `key` are `'static`.
        unsafe {
            pin_init::pin_init_from_closure(move |slot: *mut Self| {
                let head = Opaque::cast_into(core::ptr::addr_of_mut!((*slot).wait_queue_head));
                raw::init_waitqueue_head(head, name.as_ptr().cast(), key.as_ptr());
                Ok(())
            })
        }
    }

    /// The world's wait queue head.
    #[inline]
    fn head(&self) -> &raw::wait_queue_head {
        // SAFETY: `new` initialised it, and it is only used through shared references.
        unsafe { &*self.wait_queue_head.get() }
    }

    #[track_caller]
    fn wait_internal<T: ?Sized, B: Backend>(
        &self,
        wait_state: c_int,
        guard: &mut Guard<'_, T, B>,
        timeout_in_jiffies: c_long,
    ) -> c_long {
        raw::wait(self.head(), wait_state, guard, timeout_in_jiffies)
    }

    /// Gives up `guard`'s lock and sleeps until notified (or spuriously), then takes the lock
    /// again; signals do not end the wait.
    ///
    /// # Examples
    ///
    /// See [`CondVar`].
    #[track_caller]
    pub fn wait<T: ?Sized, B: Backend>(&self, guard: &mut Guard<'_, T, B>) {
        self.wait_internal(TASK_UNINTERRUPTIBLE, guard, MAX_SCHEDULE_TIMEOUT);
    }

    /// [`CondVar::wait`], which a signal also ends; returns whether a signal is pending (on the
    /// host, never).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::error::{code::ERESTARTSYS, Result};
    /// use kernel_core::sync::{CondVar, SpinLock};
    ///
    /// fn wait_nonzero(value: &SpinLock<u32>, changed: &CondVar) -> Result<u32> {
    ///     let mut guard = value.lock();
    ///     while *guard == 0 {
    ///         if changed.wait_interruptible(&mut guard) {
    ///             return Err(ERESTARTSYS);
    ///         }
    ///     }
    ///     Ok(*guard)
    /// }
    /// # use kernel_core::{new_condvar, new_spinlock};
    /// # use pin_init::stack_pin_init;
    /// # stack_pin_init!(let value = new_spinlock!(3));
    /// # stack_pin_init!(let changed = new_condvar!());
    /// # assert_eq!(wait_nonzero(&value, &changed), Ok(3));
    /// ```
    #[must_use = "wait_interruptible returns if a signal is pending, so the caller must check the return value"]
    #[track_caller]
    pub fn wait_interruptible<T: ?Sized, B: Backend>(&self, guard: &mut Guard<'_, T, B>) -> bool {
        self.wait_internal(TASK_INTERRUPTIBLE, guard, MAX_SCHEDULE_TIMEOUT);
        raw::signal_pending()
    }

    /// [`CondVar::wait_interruptible`], during which the freezer may freeze the thread (for
    /// suspend); returns whether a signal is pending.
    ///
    /// Hold no other lock across it (the kernel checks with lockdep): a frozen thread holding a
    /// lock deadlocks against one that needs the lock before it can freeze. The host has no
    /// freezer: there this is [`CondVar::wait_interruptible`].
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::sync::{CondVar, Mutex};
    ///
    /// fn wait_work(pending: &Mutex<u32>, queued: &CondVar) -> Option<u32> {
    ///     let mut guard = pending.lock();
    ///     while *guard == 0 {
    ///         if queued.wait_interruptible_freezable(&mut guard) {
    ///             return None;
    ///         }
    ///     }
    ///     Some(core::mem::take(&mut *guard))
    /// }
    /// # use kernel_core::{new_condvar, new_mutex};
    /// # use pin_init::stack_pin_init;
    /// # stack_pin_init!(let pending = new_mutex!(2));
    /// # stack_pin_init!(let queued = new_condvar!());
    /// # assert_eq!(wait_work(&pending, &queued), Some(2));
    /// ```
    #[must_use = "wait_interruptible_freezable returns if a signal is pending, so the caller must check the return value"]
    #[track_caller]
    pub fn wait_interruptible_freezable<T: ?Sized, B: Backend>(
        &self,
        guard: &mut Guard<'_, T, B>,
    ) -> bool {
        self.wait_internal(
            TASK_INTERRUPTIBLE | TASK_FREEZABLE,
            guard,
            MAX_SCHEDULE_TIMEOUT,
        );
        raw::signal_pending()
    }

    /// [`CondVar::wait_interruptible`] for at most `jiffies`: says whether it timed out, was
    /// woken, or saw a signal, and how many jiffies were left.
    ///
    /// On the host, the jiffies are of a 250 Hz clock (4 ms each), and a thread whose time is
    /// virtual times out at once if nobody notified it before it went to sleep.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::sync::{CondVar, CondVarTimeoutResult, Mutex};
    ///
    /// fn wait_ready(ready: &Mutex<bool>, changed: &CondVar) -> bool {
    ///     let mut guard = ready.lock();
    ///     let mut jiffies = 2;
    ///     while !*guard {
    ///         match changed.wait_interruptible_timeout(&mut guard, jiffies) {
    ///             CondVarTimeoutResult::Timeout => return false,
    ///             CondVarTimeoutResult::Signal { .. } => return false,
    ///             CondVarTimeoutResult::Woken { jiffies: left } => jiffies = left,
    ///         }
    ///     }
    ///     true
    /// }
    /// # use kernel_core::{new_condvar, new_mutex};
    /// # use pin_init::stack_pin_init;
    /// # stack_pin_init!(let ready = new_mutex!(false));
    /// # stack_pin_init!(let changed = new_condvar!());
    /// // Nobody sets it: the wait times out.
    /// assert!(!wait_ready(&ready, &changed));
    /// ```
    #[must_use = "wait_interruptible_timeout returns if a signal is pending, so the caller must check the return value"]
    #[track_caller]
    pub fn wait_interruptible_timeout<T: ?Sized, B: Backend>(
        &self,
        guard: &mut Guard<'_, T, B>,
        jiffies: Jiffies,
    ) -> CondVarTimeoutResult {
        let jiffies = jiffies.try_into().unwrap_or(MAX_SCHEDULE_TIMEOUT);
        let res = self.wait_internal(TASK_INTERRUPTIBLE, guard, jiffies);

        match (res as Jiffies, raw::signal_pending()) {
            (jiffies, true) => CondVarTimeoutResult::Signal { jiffies },
            (0, false) => CondVarTimeoutResult::Timeout,
            (jiffies, false) => CondVarTimeoutResult::Woken { jiffies },
        }
    }

    /// Wakes up to `count` waiters, or all of them if `count` is 0.
    #[inline]
    fn notify(&self, count: c_int) {
        raw::wake_up(self.head(), count);
    }

    /// [`CondVar::notify_one`], telling the scheduler that the caller is about to sleep, so
    /// that the woken thread may run on this CPU (the host has no such hint).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::sync::{CondVar, Mutex};
    ///
    /// fn hand_over(slot: &Mutex<Option<u32>>, filled: &CondVar, v: u32) {
    ///     *slot.lock() = Some(v);
    ///     filled.notify_sync();
    /// }
    /// # use kernel_core::{new_condvar, new_mutex};
    /// # use pin_init::stack_pin_init;
    /// # stack_pin_init!(let slot = new_mutex!(None));
    /// # stack_pin_init!(let filled = new_condvar!());
    /// # hand_over(&slot, &filled, 4);
    /// # assert_eq!(*slot.lock(), Some(4));
    /// ```
    #[inline]
    pub fn notify_sync(&self) {
        raw::wake_up_sync(self.head());
    }

    /// Wakes the oldest waiter, if there is one. A notification with nobody waiting is lost: it
    /// does not wake a later waiter.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::sync::{CondVar, SpinLock};
    ///
    /// fn push(queue: &SpinLock<u32>, more: &CondVar) {
    ///     *queue.lock() += 1;
    ///     more.notify_one(); // one consumer is enough for one item
    /// }
    /// # use kernel_core::{new_condvar, new_spinlock};
    /// # use pin_init::stack_pin_init;
    /// # stack_pin_init!(let queue = new_spinlock!(0));
    /// # stack_pin_init!(let more = new_condvar!());
    /// # push(&queue, &more);
    /// ```
    #[inline]
    pub fn notify_one(&self) {
        self.notify(1);
    }

    /// Wakes every waiter there is. A notification with nobody waiting is lost.
    ///
    /// # Examples
    ///
    /// See [`CondVar`].
    #[inline]
    pub fn notify_all(&self) {
        self.notify(0);
    }
}

/// How a [`CondVar::wait_interruptible_timeout`] ended.
///
/// # Examples
///
/// See [`CondVar::wait_interruptible_timeout`].
pub enum CondVarTimeoutResult {
    /// The time ran out.
    Timeout,
    /// A notification (or a spurious wake-up) ended it.
    Woken {
        /// The jiffies that were left.
        jiffies: Jiffies,
    },
    /// A signal ended it.
    Signal {
        /// The jiffies that were left.
        jiffies: Jiffies,
    },
}
