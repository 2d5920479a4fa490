// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! 6.12's C primitives, by the names kernel-core's shared `sync` code uses (its host twin is
//! `env/host/sync.rs`'s `raw`): the lock backends over `struct mutex` and `spinlock_t`, the wait
//! queues that `CondVar` sleeps on, completions and the atomic operations.
//!
//! C headers: [`include/linux/mutex.h`](https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/include/linux/mutex.h),
//! [`include/linux/spinlock.h`](https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/include/linux/spinlock.h),
//! [`include/linux/wait.h`](https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/include/linux/wait.h),
//! [`include/linux/completion.h`](https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/include/linux/completion.h).

use crate::ffi::c_char;
use crate::ffi::{c_int, c_long, c_ulong};
use kernel::bindings;

use super::lock::{Backend, Guard};

pub(crate) use bindings::{completion, wait_queue_head};

extern "C" {
    fn kernel_core_spin_trylock(lock: *mut bindings::spinlock_t) -> c_int;
    fn kernel_core_spin_lock_irqsave(lock: *mut bindings::spinlock_t) -> c_ulong;
    fn kernel_core_spin_trylock_irqsave(
        lock: *mut bindings::spinlock_t,
        flags: *mut c_ulong,
    ) -> c_int;
    fn kernel_core_spin_unlock_irqrestore(lock: *mut bindings::spinlock_t, flags: c_ulong);
    fn kernel_core_spin_assert_is_held(lock: *mut bindings::spinlock_t);
    fn kernel_core_mutex_assert_is_held(lock: *mut bindings::mutex);
    fn kernel_core_init_completion(x: *mut bindings::completion);
}

/// The backend of `Mutex`: the kernel's `struct mutex`.
pub struct MutexBackend;

// SAFETY: Every operation is the kernel's own on an initialised `struct mutex`, and `unlock` is
// only called by the holder.
unsafe impl Backend for MutexBackend {
    type State = bindings::mutex;
    type GuardState = ();

    unsafe fn init(ptr: *mut Self::State, name: *const c_char, key: *mut bindings::lock_class_key) {
        // SAFETY: The caller's promises are `__mutex_init()`'s.
        unsafe { bindings::__mutex_init(ptr, name, key) }
    }

    unsafe fn lock(ptr: *mut Self::State) -> Self::GuardState {
        // SAFETY: `ptr` is an initialised mutex.
        unsafe { bindings::mutex_lock(ptr) };
    }

    unsafe fn try_lock(ptr: *mut Self::State) -> Option<Self::GuardState> {
        // SAFETY: `ptr` is an initialised mutex.
        (unsafe { bindings::mutex_trylock(ptr) } != 0).then_some(())
    }

    unsafe fn unlock(ptr: *mut Self::State, _guard_state: &Self::GuardState) {
        // SAFETY: The caller holds the lock.
        unsafe { bindings::mutex_unlock(ptr) };
    }

    unsafe fn assert_is_held(ptr: *mut Self::State) {
        // SAFETY: `ptr` is an initialised mutex.
        unsafe { kernel_core_mutex_assert_is_held(ptr) };
    }
}

/// The backend of `SpinLock`: the kernel's `spinlock_t`.
pub struct SpinLockBackend;

// SAFETY: Every operation is the kernel's own on an initialised `spinlock_t`.
unsafe impl Backend for SpinLockBackend {
    type State = bindings::spinlock_t;
    type GuardState = ();

    unsafe fn init(ptr: *mut Self::State, name: *const c_char, key: *mut bindings::lock_class_key) {
        // SAFETY: The caller's promises are `__spin_lock_init()`'s.
        unsafe { bindings::__spin_lock_init(ptr, name, key) }
    }

    unsafe fn lock(ptr: *mut Self::State) -> Self::GuardState {
        // SAFETY: `ptr` is an initialised spinlock.
        unsafe { bindings::spin_lock(ptr) }
    }

    unsafe fn try_lock(ptr: *mut Self::State) -> Option<Self::GuardState> {
        // SAFETY: `ptr` is an initialised spinlock.
        (unsafe { kernel_core_spin_trylock(ptr) } != 0).then_some(())
    }

    unsafe fn unlock(ptr: *mut Self::State, _guard_state: &Self::GuardState) {
        // SAFETY: The caller holds the lock.
        unsafe { bindings::spin_unlock(ptr) }
    }

    unsafe fn assert_is_held(ptr: *mut Self::State) {
        // SAFETY: `ptr` is an initialised spinlock.
        unsafe { kernel_core_spin_assert_is_held(ptr) }
    }
}

/// The backend of `SpinLockIrq`: a `spinlock_t` taken with `spin_lock_irqsave()`, whose saved
/// interrupt state the guard carries back to `spin_unlock_irqrestore()`.
pub struct SpinLockIrqBackend;

// SAFETY: Every operation is the kernel's own on an initialised `spinlock_t`, and the state saved
// when the lock is taken is restored when it is released.
unsafe impl Backend for SpinLockIrqBackend {
    type State = bindings::spinlock_t;
    type GuardState = c_ulong;

    unsafe fn init(ptr: *mut Self::State, name: *const c_char, key: *mut bindings::lock_class_key) {
        // SAFETY: The caller's promises are `__spin_lock_init()`'s.
        unsafe { bindings::__spin_lock_init(ptr, name, key) }
    }

    unsafe fn lock(ptr: *mut Self::State) -> Self::GuardState {
        // SAFETY: `ptr` is an initialised spinlock.
        unsafe { kernel_core_spin_lock_irqsave(ptr) }
    }

    unsafe fn try_lock(ptr: *mut Self::State) -> Option<Self::GuardState> {
        let mut flags = 0;
        // SAFETY: `ptr` is an initialised spinlock; `flags` is a valid place for the state.
        (unsafe { kernel_core_spin_trylock_irqsave(ptr, &mut flags) } != 0).then_some(flags)
    }

    unsafe fn unlock(ptr: *mut Self::State, guard_state: &Self::GuardState) {
        // SAFETY: The caller holds the lock, taken with the state it saved.
        unsafe { kernel_core_spin_unlock_irqrestore(ptr, *guard_state) }
    }

    unsafe fn assert_is_held(ptr: *mut Self::State) {
        // SAFETY: `ptr` is an initialised spinlock.
        unsafe { kernel_core_spin_assert_is_held(ptr) }
    }
}

/// `TASK_INTERRUPTIBLE`.
pub(crate) const TASK_INTERRUPTIBLE: c_int = bindings::TASK_INTERRUPTIBLE as c_int;
/// `TASK_UNINTERRUPTIBLE`.
pub(crate) const TASK_UNINTERRUPTIBLE: c_int = bindings::TASK_UNINTERRUPTIBLE as c_int;
/// `TASK_FREEZABLE`.
pub(crate) const TASK_FREEZABLE: c_int = bindings::TASK_FREEZABLE as c_int;
/// `MAX_SCHEDULE_TIMEOUT`: `LONG_MAX`.
pub(crate) const MAX_SCHEDULE_TIMEOUT: c_long = c_long::MAX;

/// `init_waitqueue_head()` with the wait queue's lock class.
///
/// # Safety
///
/// `ptr` is valid for writes and pinned; `name` and `key` outlive the queue.
pub(crate) unsafe fn init_waitqueue_head(
    ptr: *mut wait_queue_head,
    name: *const c_char,
    key: *mut bindings::lock_class_key,
) {
    // SAFETY: The caller's promises are `__init_waitqueue_head()`'s.
    unsafe { bindings::__init_waitqueue_head(ptr, name, key) }
}

/// Sleeps on `head` in `state` until woken, or for at most `timeout` jiffies, with `guard`'s
/// lock released meanwhile: `prepare_to_wait_exclusive()`, `schedule_timeout()` and
/// `finish_wait()`, as the kernel's own `CondVar` does. Returns the jiffies left.
pub(crate) fn wait<T: ?Sized, B: Backend>(
    head: &wait_queue_head,
    state: c_int,
    guard: &mut Guard<'_, T, B>,
    timeout: c_long,
) -> c_long {
    let head = core::ptr::from_ref(head).cast_mut();
    let mut entry = core::mem::MaybeUninit::<bindings::wait_queue_entry>::uninit();
    let entry = entry.as_mut_ptr();
    // SAFETY: `entry` is valid for writes and stays on this stack frame until `finish_wait()`
    // took it off the queue; `head` is an initialised wait queue (inside an `Opaque`, whose
    // contents C may change through a shared reference).
    unsafe {
        bindings::init_wait(entry);
        bindings::prepare_to_wait_exclusive(head, entry, state);
    }
    // SAFETY: Any context that may sleep may call `schedule_timeout()`.
    let left = guard.do_unlocked(|| unsafe { bindings::schedule_timeout(timeout) });
    // SAFETY: `entry` was queued on `head` above.
    unsafe { bindings::finish_wait(head, entry) };
    left
}

/// Wakes up to `nr` exclusive waiters of `head` (`0`: all).
pub(crate) fn wake_up(head: &wait_queue_head, nr: c_int) {
    // SAFETY: `head` is an initialised wait queue; a null key is allowed.
    unsafe {
        bindings::__wake_up(
            core::ptr::from_ref(head).cast_mut(),
            bindings::TASK_NORMAL,
            nr,
            core::ptr::null_mut(),
        )
    };
}

/// Wakes one waiter of `head`, as a hint that the waker sleeps next.
pub(crate) fn wake_up_sync(head: &wait_queue_head) {
    // SAFETY: `head` is an initialised wait queue.
    unsafe {
        bindings::__wake_up_sync(core::ptr::from_ref(head).cast_mut(), bindings::TASK_NORMAL)
    };
}

/// Whether the current task has a signal pending.
pub(crate) fn signal_pending() -> bool {
    // SAFETY: `get_current()` is the running task, valid while it runs.
    unsafe { bindings::signal_pending(bindings::get_current()) != 0 }
}

/// `init_completion()`.
///
/// # Safety
///
/// `ptr` is valid for writes and pinned.
pub(crate) unsafe fn init_completion(ptr: *mut completion) {
    // SAFETY: The caller's promise.
    unsafe { kernel_core_init_completion(ptr) }
}

/// `complete_all()`.
pub(crate) fn complete_all(x: &completion) {
    // SAFETY: `x` is an initialised completion.
    unsafe { bindings::complete_all(core::ptr::from_ref(x).cast_mut()) }
}

/// `wait_for_completion()`.
pub(crate) fn wait_for_completion(x: &completion) {
    // SAFETY: `x` is an initialised completion; this context may sleep, as the caller's is.
    unsafe { bindings::wait_for_completion(core::ptr::from_ref(x).cast_mut()) }
}

/// The atomic operations: `core`'s, which are the machine's own on every architecture 6.12 has
/// Rust on (x86_64, arm64, riscv64, loongarch64), mapped to the kernel memory model's orderings
/// as on the host.
pub(crate) mod atomic {
    pub use super::super::atomic_ops::AtomicImpl;
    pub(crate) use super::super::atomic_ops::{
        AtomicArithmeticOps, AtomicBasicOps, AtomicExchangeOps, AtomicRepr,
    };
}
