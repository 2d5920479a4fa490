// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The host's `struct mutex` and [`MutexBackend`], the backend of `kernel::sync::Mutex`.
//!
//! Kernel counterpart: `struct mutex` of
//! [`include/linux/mutex.h`](https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/include/linux/mutex.h)
//! and `rust/kernel/sync/lock/mutex.rs` (Linux 7.3). Like the kernel's, the host's mutex has an
//! owner and a queue of sleeping waiters. It is a classic three-state lock: unlocked, locked,
//! and locked with (possible) waiters, so that an uncontended unlock wakes nobody. A waiter
//! that finds it locked queues itself (with the state checked under the queue's lock, so no
//! wake-up is lost) and sleeps; each unlock of a contended mutex wakes the oldest waiter, which
//! then competes for it again (a running thread may take it first, as in the kernel).

use core::panic::Location;

use super::class::{lock_class_key, LockClass};
use super::hooks::{self, Acquire, LockKind, LockRef};
use super::platform::{self, AtomicU32, AtomicUsize, Ordering};
use super::wait_queue::{WaitEntry, WaitQueue};

/// Unlocked.
const UNLOCKED: u32 = 0;
/// Locked, and no thread sleeps on it.
const LOCKED: u32 = 1;
/// Locked, and threads may sleep on it: its unlock wakes one.
const CONTENDED: u32 = 2;

/// The host's `struct mutex`: the [`State`](crate::sync::lock::Backend::State) of a
/// [`MutexBackend`].
#[allow(non_camel_case_types)]
pub struct mutex {
    /// [`UNLOCKED`], [`LOCKED`] or [`CONTENDED`].
    state: AtomicU32,
    /// The holder's [`platform::thread_id`], 0 when unlocked (the kernel's `owner`).
    owner: AtomicUsize,
    /// The sleeping waiters.
    waiters: WaitQueue,
    /// The lock's name and class.
    class: LockClass,
}

impl mutex {
    /// What the hooks are told about this lock.
    #[inline]
    fn as_lock_ref(&self) -> LockRef<'_> {
        LockRef {
            addr: core::ptr::from_ref(self).cast(),
            class: &self.class,
            kind: LockKind::Mutex,
        }
    }

    /// Whether the calling thread holds the mutex.
    #[inline]
    fn is_owned_by_me(&self) -> bool {
        self.owner.load(Ordering::Relaxed) == platform::thread_id()
    }

    /// `mutex_lock()`.
    #[inline]
    #[track_caller]
    fn lock(&self) {
        let at = Location::caller();
        hooks::might_sleep(at);
        hooks::lock_acquire(self.as_lock_ref(), Acquire::Wait, at);
        if self
            .state
            .compare_exchange(UNLOCKED, LOCKED, Ordering::Acquire, Ordering::Relaxed)
            .is_err()
        {
            self.lock_contended();
        }
        self.owner.store(platform::thread_id(), Ordering::Relaxed);
    }

    /// The slow path of [`lock`](Self::lock): sleeps until the mutex is free, then takes it.
    #[cold]
    fn lock_contended(&self) {
        let entry = core::pin::pin!(WaitEntry::new(&self.waiters));
        loop {
            // Unwinding out of a failed model, whose threads never run again: taken.
            if platform::model_failed() {
                return;
            }
            // Taken as contended: other threads may be asleep, and this one cannot tell.
            if self.state.swap(CONTENDED, Ordering::Acquire) == UNLOCKED {
                return;
            }
            // Sleeps only if the mutex is still marked contended once the queue is locked (a
            // futex wait on `CONTENDED`): its unlock, which comes after this check, then wakes
            // from the queue, which holds this entry. Not if it is merely locked: a holder that
            // took it by the fast path (`LOCKED`, after the unlock that this thread's `swap`
            // saw) would not wake anyone; the next round marks it contended first.
            if entry
                .as_ref()
                .enqueue_if(|| self.state.load(Ordering::Relaxed) == CONTENDED)
            {
                entry.as_ref().wait();
                entry.as_ref().finish();
            }
        }
    }

    /// `mutex_trylock()`.
    #[inline]
    #[track_caller]
    fn try_lock(&self) -> bool {
        let taken = self
            .state
            .compare_exchange(UNLOCKED, LOCKED, Ordering::Acquire, Ordering::Relaxed)
            .is_ok();
        if taken {
            self.owner.store(platform::thread_id(), Ordering::Relaxed);
            hooks::lock_acquire(self.as_lock_ref(), Acquire::Try, Location::caller());
        }
        taken
    }

    /// `mutex_unlock()`.
    #[inline]
    fn unlock(&self) {
        hooks::lock_release(self.as_lock_ref());
        self.owner.store(0, Ordering::Relaxed);
        if self.state.swap(UNLOCKED, Ordering::Release) == CONTENDED {
            self.waiters.wake(1);
        }
    }
}

/// A kernel `struct mutex` lock backend.
///
/// # Examples
///
/// ```
/// use kernel_core::sync::lock::{mutex::MutexBackend, Lock};
///
/// fn held_twice(m: &Lock<u32, MutexBackend>) -> bool {
///     let _guard = m.lock();
///     m.try_lock().is_some()
/// }
/// # use pin_init::stack_pin_init;
/// # stack_pin_init!(let m = kernel_core::new_mutex!(0));
/// assert!(!held_twice(&m));
/// ```
pub struct MutexBackend;

// SAFETY: The host's `mutex` lets one thread at a time hold it, between `lock` (or a successful
// `try_lock`) and `unlock`; `relock` is the default, `lock`.
unsafe impl crate::sync::lock::Backend for MutexBackend {
    type State = mutex;
    type GuardState = ();

    #[inline]
    unsafe fn init(
        ptr: *mut Self::State,
        name: *const crate::ffi::c_char,
        key: *mut lock_class_key,
    ) {
        // SAFETY: The caller gives a `ptr` valid for writes, and `name` and `key` that stay
        // valid, which `LockClass` needs.
        unsafe {
            ptr.write(mutex {
                state: AtomicU32::new(UNLOCKED),
                owner: AtomicUsize::new(0),
                waiters: WaitQueue::new(),
                class: LockClass::new(name, key),
            })
        };
    }

    #[inline]
    #[track_caller]
    unsafe fn lock(ptr: *mut Self::State) -> Self::GuardState {
        // SAFETY: The caller promises that `init` initialised `*ptr`, which is only used shared.
        unsafe { &*ptr }.lock();
    }

    #[inline]
    #[track_caller]
    unsafe fn try_lock(ptr: *mut Self::State) -> Option<Self::GuardState> {
        // SAFETY: The caller promises that `init` initialised `*ptr`.
        unsafe { &*ptr }.try_lock().then_some(())
    }

    #[inline]
    unsafe fn unlock(ptr: *mut Self::State, _guard_state: &Self::GuardState) {
        // SAFETY: The caller owns the lock, so `*ptr` is initialised.
        unsafe { &*ptr }.unlock();
    }

    #[inline]
    #[track_caller]
    unsafe fn assert_is_held(ptr: *mut Self::State) {
        // SAFETY: The caller promises that `init` initialised `*ptr`.
        let this = unsafe { &*ptr };
        hooks::lock_assert_held(
            this.as_lock_ref(),
            this.is_owned_by_me(),
            Location::caller(),
        );
    }
}
