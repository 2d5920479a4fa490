// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! A kernel mutex: [`Mutex`], [`MutexGuard`], [`MutexBackend`] and [`new_mutex!`].
//!
//! Kernel counterpart: `rust/kernel/sync/lock/mutex.rs` (Linux 7.3); C header:
//! [`include/linux/mutex.h`](https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/include/linux/mutex.h).
//!
//! A mutex sleeps: a thread that finds it taken is put to sleep until the holder unlocks it.
//! On the host, with feature `std`, the thread really sleeps (parked, in a queue of waiters);
//! without `std` it spins. Taking a mutex may sleep, so it is a "might sleep" point for the
//! host's detectors, as `mutex_lock()` calls `might_sleep()` in the kernel.

/// The world's `struct mutex` backend.
pub use super::super::raw::MutexBackend;

/// An initialiser of a [`Mutex`] guarding `$inner`, with a lock class of its own (one per call
/// site) and the given name, or `"file.rs:line"` of the call without one.
///
/// # Examples
///
/// ```
/// use kernel_core::sync::{new_mutex, Mutex};
/// use pin_init::PinInit;
///
/// fn new_counter() -> impl PinInit<Mutex<u64>> {
///     new_mutex!(0, "counter")
/// }
/// # use pin_init::stack_pin_init;
/// # stack_pin_init!(let counter = new_counter());
/// # assert_eq!(*counter.lock(), 0);
/// ```
#[macro_export]
macro_rules! new_mutex {
    ($inner:expr $(, $name:literal)? $(,)?) => {
        $crate::sync::Mutex::new(
            $inner, $crate::optional_name!($($name)?), $crate::static_lock_class!())
    };
}
pub use new_mutex;

/// A sleeping lock: the kernel's [`struct mutex`].
///
/// One thread at a time holds it; the others sleep until it is their turn. Taking it may
/// sleep, so never in atomic context (under a spinlock, in an interrupt handler).
///
/// A mutex is pinned and has a lock class: make one with [`new_mutex!`], usually as a field of
/// a `pin_init!`.
///
/// # Examples
///
/// Interior mutability through a shared reference:
///
/// ```
/// use kernel_core::sync::Mutex;
///
/// struct Example {
///     a: u32,
///     b: u32,
/// }
///
/// fn example(m: &Mutex<Example>) {
///     let mut guard = m.lock();
///     guard.a += 10;
///     guard.b += 20;
/// }
/// # use pin_init::stack_pin_init;
/// # stack_pin_init!(let m = kernel_core::new_mutex!(Example { a: 1, b: 2 }));
/// # example(&m);
/// # let guard = m.lock();
/// # assert_eq!((guard.a, guard.b), (11, 22));
/// ```
///
/// [`struct mutex`]: https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/include/linux/mutex.h
pub type Mutex<T> = super::Lock<T, MutexBackend>;

/// The [`Guard`] of a held [`Mutex`]; dropping it unlocks the mutex.
///
/// # Examples
///
/// ```
/// use kernel_core::sync::{Mutex, MutexGuard};
///
/// fn first(m: &Mutex<[u8; 2]>) -> MutexGuard<'_, [u8; 2]> {
///     m.lock()
/// }
/// # use pin_init::stack_pin_init;
/// # stack_pin_init!(let m = kernel_core::new_mutex!([4, 5]));
/// # assert_eq!(first(&m)[0], 4);
/// ```
///
/// [`Guard`]: super::Guard
pub type MutexGuard<'a, T> = super::Guard<'a, T, MutexBackend>;
