// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Linux 7.3's `SpinLockIrq` on Linux 7.2: a spinlock that disables interrupts on the local CPU
//! while held, as a backend of 7.2's own `kernel::sync::lock::Lock`, over `spin_lock_irqsave()`
//! and `spin_unlock_irqrestore()` (kernel-core's C helpers, `kernel_core_helpers.c`).
//!
//! 7.3 disables interrupts through its nesting `local_interrupt_disable()`; here each guard
//! saves and restores the interrupt state itself, which nests the same way for guards dropped in
//! reverse order. 7.3's `lock_with`/`try_lock_with` (which take a `LocalInterruptDisabled`) do
//! not exist on 7.2.

use core::ffi::{c_int, c_ulong};
use kernel::bindings;
use kernel::ffi::c_char;
use kernel::sync::lock::{Backend, Guard, Lock};

extern "C" {
    fn kernel_core_spin_lock_irqsave(lock: *mut bindings::spinlock_t) -> c_ulong;
    fn kernel_core_spin_trylock_irqsave(
        lock: *mut bindings::spinlock_t,
        flags: *mut c_ulong,
    ) -> c_int;
    fn kernel_core_spin_unlock_irqrestore(lock: *mut bindings::spinlock_t, flags: c_ulong);
}

/// Makes a [`SpinLockIrq`] of its value, with a class and name of its own call site: Linux 7.3's
/// `new_spinlock_irq!`.
#[doc(hidden)]
#[macro_export]
macro_rules! __kernel_core_new_spinlock_irq {
    ($inner:expr $(, $name:literal)? $(,)?) => {
        $crate::sync::SpinLockIrq::new(
            $inner, ::kernel::optional_name!($($name)?), ::kernel::static_lock_class!())
    };
}
pub use crate::__kernel_core_new_spinlock_irq as new_spinlock_irq;

/// A spinlock that disables local interrupts while held: Linux 7.3's `SpinLockIrq`.
pub type SpinLockIrq<T> = Lock<T, SpinLockIrqBackend>;

/// A guard of a [`SpinLockIrq`].
pub type SpinLockIrqGuard<'a, T> = Guard<'a, T, SpinLockIrqBackend>;

/// The backend of [`SpinLockIrq`].
pub struct SpinLockIrqBackend;

// SAFETY: Every operation is the kernel's own spinlock one; the interrupt state saved when the
// lock is taken is restored when it is released, which is what the guard state carries.
unsafe impl Backend for SpinLockIrqBackend {
    type State = bindings::spinlock_t;
    type GuardState = c_ulong;

    unsafe fn init(ptr: *mut Self::State, name: *const c_char, key: *mut bindings::lock_class_key) {
        // SAFETY: The caller's promises are `__spin_lock_init()`'s.
        unsafe { bindings::__spin_lock_init(ptr, name, key) }
    }

    unsafe fn lock(ptr: *mut Self::State) -> Self::GuardState {
        // SAFETY: `ptr` is an initialised spinlock, as `Backend` promises.
        unsafe { kernel_core_spin_lock_irqsave(ptr) }
    }

    unsafe fn try_lock(ptr: *mut Self::State) -> Option<Self::GuardState> {
        let mut flags = 0;
        // SAFETY: `ptr` is an initialised spinlock; `flags` is a valid place for the state.
        (unsafe { kernel_core_spin_trylock_irqsave(ptr, &mut flags) } != 0).then_some(flags)
    }

    unsafe fn unlock(ptr: *mut Self::State, guard_state: &Self::GuardState) {
        // SAFETY: The lock is held by this guard, which saved `guard_state` when taking it.
        unsafe { kernel_core_spin_unlock_irqrestore(ptr, *guard_state) }
    }

    unsafe fn assert_is_held(ptr: *mut Self::State) {
        // SAFETY: `ptr` is an initialised spinlock.
        unsafe { bindings::spin_assert_is_held(ptr) }
    }
}
