// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The host's `spinlock_t`, and [`SpinLockBackend`] and [`SpinLockIrqBackend`], the backends of
//! `kernel::sync::SpinLock` and `SpinLockIrq`.
//!
//! Kernel counterpart: `spinlock_t` of
//! [`include/linux/spinlock.h`](https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/include/linux/spinlock.h)
//! and `rust/kernel/sync/lock/spinlock.rs` (Linux 7.3). A waiter spins (test and test-and-set),
//! yielding the processor after a few dozen rounds: a host thread that holds a spinlock can be
//! preempted, a kernel one cannot. Taking one enters atomic context for the host's detectors
//! (`preempt_disable()`, as `spin_lock()` does), and a `SpinLockIrq` also disables the (host's
//! notional) local interrupts, as `spin_lock_irq_disable()` does.

use core::panic::Location;

use super::class::{lock_class_key, LockClass};
use super::hooks::{self, Acquire, LockKind, LockRef};
use super::platform::{model_failed, AtomicBool, Backoff, Ordering};

/// The host's `spinlock_t`: the [`State`](crate::sync::lock::Backend::State) of
/// [`SpinLockBackend`] and [`SpinLockIrqBackend`].
#[allow(non_camel_case_types)]
pub struct spinlock_t {
    /// Whether a thread holds it.
    locked: AtomicBool,
    /// The lock's name and class.
    class: LockClass,
}

impl spinlock_t {
    /// `__spin_lock_init()`.
    ///
    /// # Safety
    ///
    /// As `Backend::init`.
    #[inline]
    unsafe fn init(ptr: *mut Self, name: *const crate::ffi::c_char, key: *mut lock_class_key) {
        // SAFETY: The caller gives a `ptr` valid for writes, and `name` and `key` that stay
        // valid, which `LockClass` needs.
        unsafe {
            ptr.write(Self {
                locked: AtomicBool::new(false),
                class: LockClass::new(name, key),
            })
        };
    }

    /// What the hooks are told about this lock.
    #[inline]
    fn as_lock_ref(&self, kind: LockKind) -> LockRef<'_> {
        LockRef {
            addr: core::ptr::from_ref(self).cast(),
            class: &self.class,
            kind,
        }
    }

    /// Takes the lock if it is free.
    #[inline]
    fn take(&self) -> bool {
        self.locked
            .compare_exchange(false, true, Ordering::Acquire, Ordering::Relaxed)
            .is_ok()
    }

    /// `spin_lock()` (with `kind` `SpinLock`) or `spin_lock_irq_disable()`.
    #[inline]
    #[track_caller]
    fn lock(&self, kind: LockKind) {
        let at = Location::caller();
        if kind == LockKind::SpinLockIrq {
            hooks::local_interrupt_disable(at);
        }
        hooks::preempt_disable(at);
        hooks::lock_acquire(self.as_lock_ref(kind), Acquire::Wait, at);
        if !self.take() {
            self.lock_contended();
        }
    }

    /// The slow path of [`lock`](Self::lock): spins until the lock is free, then takes it.
    #[cold]
    fn lock_contended(&self) {
        let mut backoff = Backoff::new();
        loop {
            while self.locked.load(Ordering::Relaxed) {
                // Unwinding out of a failed model, whose threads never run again: taken.
                if model_failed() {
                    return;
                }
                backoff.snooze();
            }
            if self.take() {
                return;
            }
        }
    }

    /// `spin_trylock()` or `spin_trylock_irq_disable()`.
    #[inline]
    #[track_caller]
    fn try_lock(&self, kind: LockKind) -> bool {
        let at = Location::caller();
        if kind == LockKind::SpinLockIrq {
            hooks::local_interrupt_disable(at);
        }
        hooks::preempt_disable(at);
        if self.take() {
            hooks::lock_acquire(self.as_lock_ref(kind), Acquire::Try, at);
            true
        } else {
            hooks::preempt_enable();
            if kind == LockKind::SpinLockIrq {
                hooks::local_interrupt_enable();
            }
            false
        }
    }

    /// `spin_unlock()` or `spin_unlock_irq_enable()`.
    #[inline]
    fn unlock(&self, kind: LockKind) {
        hooks::lock_release(self.as_lock_ref(kind));
        self.locked.store(false, Ordering::Release);
        hooks::preempt_enable();
        if kind == LockKind::SpinLockIrq {
            hooks::local_interrupt_enable();
        }
    }

    /// `spin_assert_is_held()`: with lockdep, whether this CPU holds it; here, whether anyone
    /// does.
    #[inline]
    #[track_caller]
    fn assert_is_held(&self, kind: LockKind) {
        let held = self.locked.load(Ordering::Relaxed);
        hooks::lock_assert_held(self.as_lock_ref(kind), held, Location::caller());
    }
}

/// A kernel `spinlock_t` lock backend.
///
/// # Examples
///
/// ```
/// use kernel_core::sync::lock::{spinlock::SpinLockBackend, Lock};
///
/// fn peek(lock: &Lock<u32, SpinLockBackend>) -> Option<u32> {
///     lock.try_lock().map(|guard| *guard)
/// }
/// # use pin_init::stack_pin_init;
/// # stack_pin_init!(let l = kernel_core::new_spinlock!(5));
/// assert_eq!(peek(&l), Some(5));
/// ```
pub struct SpinLockBackend;

/// The `Backend` of a host `spinlock_t` taken as `$kind`: the two spinlock backends differ in
/// nothing else (the kind tells the detectors whether local interrupts are notionally off).
macro_rules! spinlock_backend {
    ($backend:ident, $kind:expr) => {
        // SAFETY: The host's `spinlock_t` lets one thread at a time hold it, between `lock` (or
        // a successful `try_lock`) and `unlock`; `relock` is the default, `lock` (for
        // `SpinLockIrq`, which notionally disables local interrupts again).
        unsafe impl crate::sync::lock::Backend for $backend {
            type State = spinlock_t;
            type GuardState = ();

            #[inline]
            unsafe fn init(
                ptr: *mut Self::State,
                name: *const crate::ffi::c_char,
                key: *mut lock_class_key,
            ) {
                // SAFETY: The caller's promises are `spinlock_t::init`'s.
                unsafe { spinlock_t::init(ptr, name, key) };
            }

            #[inline]
            #[track_caller]
            unsafe fn lock(ptr: *mut Self::State) -> Self::GuardState {
                // SAFETY: The caller promises that `init` initialised `*ptr`, which is only used
                // shared.
                unsafe { &*ptr }.lock($kind);
            }

            #[inline]
            #[track_caller]
            unsafe fn try_lock(ptr: *mut Self::State) -> Option<Self::GuardState> {
                // SAFETY: The caller promises that `init` initialised `*ptr`.
                unsafe { &*ptr }.try_lock($kind).then_some(())
            }

            #[inline]
            unsafe fn unlock(ptr: *mut Self::State, _guard_state: &Self::GuardState) {
                // SAFETY: The caller owns the lock, so `*ptr` is initialised.
                unsafe { &*ptr }.unlock($kind);
            }

            #[inline]
            #[track_caller]
            unsafe fn assert_is_held(ptr: *mut Self::State) {
                // SAFETY: The caller promises that `init` initialised `*ptr`.
                unsafe { &*ptr }.assert_is_held($kind);
            }
        }
    };
}

spinlock_backend!(SpinLockBackend, LockKind::SpinLock);

/// A kernel `spinlock_t` lock backend that can only be acquired in interrupt disabled
/// contexts.
///
/// # Examples
///
/// ```
/// use kernel_core::sync::lock::{spinlock::SpinLockIrqBackend, Lock};
///
/// fn peek(lock: &Lock<u32, SpinLockIrqBackend>) -> Option<u32> {
///     lock.try_lock().map(|guard| *guard)
/// }
/// # use pin_init::stack_pin_init;
/// # stack_pin_init!(let l = kernel_core::new_spinlock_irq!(6));
/// assert_eq!(peek(&l), Some(6));
/// ```
pub struct SpinLockIrqBackend;

spinlock_backend!(SpinLockIrqBackend, LockKind::SpinLockIrq);
