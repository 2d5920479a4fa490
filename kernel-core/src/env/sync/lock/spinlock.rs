// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! A kernel spinlock: [`SpinLock`], [`SpinLockIrq`], their guards and backends, and
//! [`new_spinlock!`] and [`new_spinlock_irq!`].
//!
//! Kernel counterpart: `rust/kernel/sync/lock/spinlock.rs` (Linux 7.3); C header:
//! [`include/linux/spinlock.h`](https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/include/linux/spinlock.h).
//!
//! A spinlock spins: a thread that finds it taken busy-waits until the holder unlocks it, and
//! its holder is in atomic context (preemption disabled; with [`SpinLockIrq`], local interrupts
//! too), where it must not sleep. On the host it spins too (yielding the processor after a few
//! dozen rounds, since a host thread holding it can be preempted), and holding it is atomic
//! context for the host's detectors. With `PREEMPT_RT` a kernel spinlock is a sleeping lock
//! instead (see the [module documentation](crate::sync)).

/// The world's `spinlock_t` backend.
pub use super::super::raw::SpinLockBackend;

/// The world's `spinlock_t` backend that keeps local interrupts disabled.
pub use super::super::raw::SpinLockIrqBackend;

/// An initialiser of a [`SpinLock`] guarding `$inner`, with a lock class of its own (one per
/// call site) and the given name, or `"file.rs:line"` of the call without one.
///
/// # Examples
///
/// ```
/// use kernel_core::sync::{new_spinlock, SpinLock};
/// use pin_init::PinInit;
///
/// fn new_head() -> impl PinInit<SpinLock<usize>> {
///     new_spinlock!(0, "ring_head")
/// }
/// # use pin_init::stack_pin_init;
/// # stack_pin_init!(let head = new_head());
/// # assert_eq!(*head.lock(), 0);
/// ```
#[macro_export]
macro_rules! new_spinlock {
    ($inner:expr $(, $name:literal)? $(,)?) => {
        $crate::sync::SpinLock::new(
            $inner, $crate::optional_name!($($name)?), $crate::static_lock_class!())
    };
}
pub use new_spinlock;

/// A busy-waiting lock: the kernel's [`spinlock_t`].
///
/// One CPU at a time holds it; the others spin until it is free. Its holder is in atomic
/// context and must not sleep.
///
/// A spinlock is pinned and has a lock class: make one with [`new_spinlock!`], usually as a
/// field of a `pin_init!`.
///
/// # Examples
///
/// ```
/// use kernel_core::sync::SpinLock;
///
/// struct Example {
///     a: u32,
///     b: u32,
/// }
///
/// fn example(m: &SpinLock<Example>) {
///     let mut guard = m.lock();
///     guard.a += 10;
///     guard.b += 20;
/// }
/// # use pin_init::stack_pin_init;
/// # stack_pin_init!(let m = kernel_core::new_spinlock!(Example { a: 0, b: 0 }));
/// # example(&m);
/// # assert_eq!(m.lock().b, 20);
/// ```
///
/// [`spinlock_t`]: https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/include/linux/spinlock.h
pub type SpinLock<T> = super::Lock<T, SpinLockBackend>;

/// The [`Guard`] of a held [`SpinLock`]; dropping it unlocks the spinlock.
///
/// # Examples
///
/// ```
/// use kernel_core::sync::{SpinLock, SpinLockGuard};
///
/// fn held(lock: &SpinLock<u8>) -> SpinLockGuard<'_, u8> {
///     lock.lock()
/// }
/// # use pin_init::stack_pin_init;
/// # stack_pin_init!(let l = kernel_core::new_spinlock!(9));
/// # assert_eq!(*held(&l), 9);
/// ```
///
/// [`Guard`]: super::Guard
pub type SpinLockGuard<'a, T> = super::Guard<'a, T, SpinLockBackend>;

/// An initialiser of a [`SpinLockIrq`] guarding `$inner`, with a lock class of its own (one per
/// call site) and the given name, or `"file.rs:line"` of the call without one.
///
/// # Examples
///
/// ```
/// use kernel_core::sync::{new_spinlock_irq, SpinLockIrq};
/// use pin_init::PinInit;
///
/// fn new_status() -> impl PinInit<SpinLockIrq<u32>> {
///     new_spinlock_irq!(0)
/// }
/// # use pin_init::stack_pin_init;
/// # stack_pin_init!(let status = new_status());
/// # assert_eq!(*status.lock(), 0);
/// ```
#[macro_export]
macro_rules! new_spinlock_irq {
    ($inner:expr $(, $name:literal)? $(,)?) => {
        $crate::sync::SpinLockIrq::new(
            $inner, $crate::optional_name!($($name)?), $crate::static_lock_class!())
    };
}
pub use new_spinlock_irq;

/// A [`SpinLock`] whose holder also has the local CPU's interrupts disabled.
///
/// [`lock()`](super::Lock::lock) disables them for as long as the [`SpinLockIrqGuard`] lives;
/// the disabling is counted, so with several such locks held, the interrupts come back with
/// the last guard. The host has no interrupts: holding one is atomic context with
/// "interrupts off" for the host's detectors, and is otherwise a [`SpinLock`].
///
/// # Examples
///
/// ```
/// use kernel_core::sync::{new_spinlock_irq, SpinLockIrq};
///
/// struct Inner {
///     a: u32,
///     b: u32,
/// }
///
/// fn both(c: &SpinLockIrq<Inner>, d: &SpinLockIrq<Inner>) -> u32 {
///     let c_guard = c.lock(); // interrupts are disabled now
///     let d_guard = d.lock(); // no change: the count goes up
///     c_guard.a + d_guard.b
///     // Dropped in reverse order; interrupts are enabled again with the last guard.
/// }
/// # use pin_init::stack_pin_init;
/// # stack_pin_init!(let c = new_spinlock_irq!(Inner { a: 0, b: 10 }));
/// # stack_pin_init!(let d = new_spinlock_irq!(Inner { a: 20, b: 30 }));
/// # assert_eq!(both(&c, &d), 30);
/// ```
pub type SpinLockIrq<T> = super::Lock<T, SpinLockIrqBackend>;

/// The [`Guard`] of a [`SpinLockIrq`] taken with [`lock()`]; dropping it unlocks the lock and
/// takes one off the count of interrupt disablings.
///
/// # Examples
///
/// ```
/// use kernel_core::sync::{SpinLockIrq, SpinLockIrqGuard};
///
/// fn held(lock: &SpinLockIrq<u8>) -> SpinLockIrqGuard<'_, u8> {
///     lock.lock()
/// }
/// # use pin_init::stack_pin_init;
/// # stack_pin_init!(let l = kernel_core::new_spinlock_irq!(9));
/// # assert_eq!(*held(&l), 9);
/// ```
///
/// [`Guard`]: super::Guard
/// [`lock()`]: super::Lock::lock
pub type SpinLockIrqGuard<'a, T> = super::Guard<'a, T, SpinLockIrqBackend>;
