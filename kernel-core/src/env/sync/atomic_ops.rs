// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The host's atomic operations under `kernel::sync::atomic`: [`AtomicImpl`], [`AtomicRepr`]
//! and the operation traits, over `core::sync::atomic`.
//!
//! Kernel counterpart: `rust/kernel/sync/atomic/internal.rs` (Linux 7.3), which maps each
//! operation to the C function of `include/linux/atomic/atomic-instrumented.h` (`atomic_read()`,
//! `atomic_xchg_acquire()`, `atomic64_fetch_add_relaxed()`, ...). Here each maps to `core`'s
//! atomic of the same width, with the orderings of the Linux kernel memory model expressed in
//! C11 terms:
//!
//! | LKMM | here |
//! |---|---|
//! | relaxed | `Relaxed` |
//! | acquire (a load, or the load of a read-modify-write) | `Acquire` |
//! | release (a store, or the store of a read-modify-write) | `Release` |
//! | fully ordered (a read-modify-write without suffix) | `SeqCst`, between two `SeqCst` fences (as `smp_mb()` on both sides) |
//!
//! A failed compare-and-exchange orders nothing (its load is relaxed), as in the kernel.
//! Hosts without 64-bit atomics (32-bit PowerPC, MIPS), and 32-bit x86 (whose `i64` is only
//! 4-byte aligned), make the `i64` operations atomic with a small table of spinlocks, as the
//! kernel's `lib/atomic64.c` does on machines without them.
//!
//! Inside a model of the host's model checker (feature `loom`, see
//! [`extras::model`](crate::extras::model)), every operation is also a point where the model
//! may run another thread first ([`schedule_point`]): the values stay `core`'s, so the model
//! interleaves these operations as sequentially consistent ones.

use core::cell::UnsafeCell;
use core::ffi::c_void;
use core::sync::atomic::{
    fence, AtomicI16, AtomicI32, AtomicI8, AtomicPtr, Ordering::Acquire, Ordering::Relaxed,
    Ordering::Release, Ordering::SeqCst,
};

mod private {
    /// Only the widths below implement the atomic traits.
    pub trait Sealed {}
}

impl private::Sealed for i8 {}
impl private::Sealed for i16 {}
impl private::Sealed for *const c_void {}
impl private::Sealed for i32 {}
impl private::Sealed for i64 {}

/// The types whose atomic operations exist: `i8`, `i16`, `i32` (the kernel's `atomic_t`),
/// `i64` (`atomic64_t`) and `*const c_void`; every [`AtomicType`](super::atomic::AtomicType)
/// is one of them in memory.
///
/// Sealed: no other type can implement it.
///
/// # Examples
///
/// ```
/// use kernel_core::sync::atomic::{AtomicImpl, AtomicType};
///
/// fn width<T: AtomicType>() -> usize {
///     core::mem::size_of::<T::Repr>()
/// }
/// assert_eq!(width::<u32>(), 4);
/// assert_eq!(width::<bool>(), 1);
/// # fn delta<T: AtomicImpl>() {}
/// # delta::<i64>();
/// ```
pub trait AtomicImpl: Sized + Copy + private::Sealed {
    /// What arithmetic adds to it: the type itself, or `isize` for a pointer.
    type Delta;
}

impl AtomicImpl for i8 {
    type Delta = Self;
}

impl AtomicImpl for i16 {
    type Delta = Self;
}

impl AtomicImpl for *const c_void {
    type Delta = isize;
}

impl AtomicImpl for i32 {
    type Delta = Self;
}

impl AtomicImpl for i64 {
    type Delta = Self;
}

/// The memory of an atomic `T`: a `T` that is only accessed atomically.
#[repr(transparent)]
pub struct AtomicRepr<T: AtomicImpl>(UnsafeCell<T>);

impl<T: AtomicImpl> AtomicRepr<T> {
    /// An atomic holding `v`.
    #[inline]
    pub const fn new(v: T) -> Self {
        Self(UnsafeCell::new(v))
    }

    /// A pointer to the value, valid and aligned for `T` while `self` lives.
    #[inline]
    pub const fn as_ptr(&self) -> *mut T {
        self.0.get()
    }
}

/// Loads and stores.
pub trait AtomicBasicOps: AtomicImpl {
    /// `atomic_read()`: a relaxed load.
    fn atomic_read(a: &AtomicRepr<Self>) -> Self;
    /// `atomic_read_acquire()`.
    fn atomic_read_acquire(a: &AtomicRepr<Self>) -> Self;
    /// `atomic_set()`: a relaxed store.
    fn atomic_set(a: &AtomicRepr<Self>, v: Self);
    /// `atomic_set_release()`.
    fn atomic_set_release(a: &AtomicRepr<Self>, v: Self);
}

/// Exchange and compare-and-exchange.
pub trait AtomicExchangeOps: AtomicImpl {
    /// `atomic_xchg()`, fully ordered: stores `v`, returns the old value.
    fn atomic_xchg(a: &AtomicRepr<Self>, v: Self) -> Self;
    /// `atomic_xchg_acquire()`.
    fn atomic_xchg_acquire(a: &AtomicRepr<Self>, v: Self) -> Self;
    /// `atomic_xchg_release()`.
    fn atomic_xchg_release(a: &AtomicRepr<Self>, v: Self) -> Self;
    /// `atomic_xchg_relaxed()`.
    fn atomic_xchg_relaxed(a: &AtomicRepr<Self>, v: Self) -> Self;
    /// `atomic_try_cmpxchg()`, fully ordered on success: stores `new` if the value is `*old`
    /// (`true`), else writes the value to `*old` (`false`).
    fn atomic_try_cmpxchg(a: &AtomicRepr<Self>, old: &mut Self, new: Self) -> bool;
    /// `atomic_try_cmpxchg_acquire()`.
    fn atomic_try_cmpxchg_acquire(a: &AtomicRepr<Self>, old: &mut Self, new: Self) -> bool;
    /// `atomic_try_cmpxchg_release()`.
    fn atomic_try_cmpxchg_release(a: &AtomicRepr<Self>, old: &mut Self, new: Self) -> bool;
    /// `atomic_try_cmpxchg_relaxed()`.
    fn atomic_try_cmpxchg_relaxed(a: &AtomicRepr<Self>, old: &mut Self, new: Self) -> bool;
}

/// Wrapping arithmetic.
pub trait AtomicArithmeticOps: AtomicImpl {
    /// `atomic_add()`: relaxed, returns nothing.
    fn atomic_add(a: &AtomicRepr<Self>, v: Self::Delta);
    /// `atomic_fetch_add()`, fully ordered: adds `v`, returns the old value.
    fn atomic_fetch_add(a: &AtomicRepr<Self>, v: Self::Delta) -> Self;
    /// `atomic_fetch_add_acquire()`.
    fn atomic_fetch_add_acquire(a: &AtomicRepr<Self>, v: Self::Delta) -> Self;
    /// `atomic_fetch_add_release()`.
    fn atomic_fetch_add_release(a: &AtomicRepr<Self>, v: Self::Delta) -> Self;
    /// `atomic_fetch_add_relaxed()`.
    fn atomic_fetch_add_relaxed(a: &AtomicRepr<Self>, v: Self::Delta) -> Self;
    /// `atomic_fetch_sub()`, fully ordered: subtracts `v`, returns the old value.
    fn atomic_fetch_sub(a: &AtomicRepr<Self>, v: Self::Delta) -> Self;
    /// `atomic_fetch_sub_acquire()`.
    fn atomic_fetch_sub_acquire(a: &AtomicRepr<Self>, v: Self::Delta) -> Self;
    /// `atomic_fetch_sub_release()`.
    fn atomic_fetch_sub_release(a: &AtomicRepr<Self>, v: Self::Delta) -> Self;
    /// `atomic_fetch_sub_relaxed()`.
    fn atomic_fetch_sub_relaxed(a: &AtomicRepr<Self>, v: Self::Delta) -> Self;
}

/// A fully ordered operation: `op` between two full fences.
#[inline(always)]
fn full<R>(op: impl FnOnce() -> R) -> R {
    fence(SeqCst);
    let r = op();
    fence(SeqCst);
    r
}

/// The operations of one type on `core`'s atomic of its width, which `$cell` returns.
macro_rules! impl_ops {
    ($ty:ty, |$a:ident| $cell:expr) => {
        impl AtomicBasicOps for $ty {
            #[inline(always)]
            fn atomic_read($a: &AtomicRepr<Self>) -> Self {
                $cell.load(Relaxed)
            }
            #[inline(always)]
            fn atomic_read_acquire($a: &AtomicRepr<Self>) -> Self {
                $cell.load(Acquire)
            }
            #[inline(always)]
            fn atomic_set($a: &AtomicRepr<Self>, v: Self) {
                $cell.store(v, Relaxed)
            }
            #[inline(always)]
            fn atomic_set_release($a: &AtomicRepr<Self>, v: Self) {
                $cell.store(v, Release)
            }
        }

        impl AtomicExchangeOps for $ty {
            #[inline(always)]
            fn atomic_xchg($a: &AtomicRepr<Self>, v: Self) -> Self {
                full(|| $cell.swap(v, SeqCst))
            }
            #[inline(always)]
            fn atomic_xchg_acquire($a: &AtomicRepr<Self>, v: Self) -> Self {
                $cell.swap(v, Acquire)
            }
            #[inline(always)]
            fn atomic_xchg_release($a: &AtomicRepr<Self>, v: Self) -> Self {
                $cell.swap(v, Release)
            }
            #[inline(always)]
            fn atomic_xchg_relaxed($a: &AtomicRepr<Self>, v: Self) -> Self {
                $cell.swap(v, Relaxed)
            }
            #[inline(always)]
            fn atomic_try_cmpxchg($a: &AtomicRepr<Self>, old: &mut Self, new: Self) -> bool {
                full(|| settle(old, $cell.compare_exchange(*old, new, SeqCst, Relaxed)))
            }
            #[inline(always)]
            fn atomic_try_cmpxchg_acquire(
                $a: &AtomicRepr<Self>,
                old: &mut Self,
                new: Self,
            ) -> bool {
                settle(old, $cell.compare_exchange(*old, new, Acquire, Relaxed))
            }
            #[inline(always)]
            fn atomic_try_cmpxchg_release(
                $a: &AtomicRepr<Self>,
                old: &mut Self,
                new: Self,
            ) -> bool {
                settle(old, $cell.compare_exchange(*old, new, Release, Relaxed))
            }
            #[inline(always)]
            fn atomic_try_cmpxchg_relaxed(
                $a: &AtomicRepr<Self>,
                old: &mut Self,
                new: Self,
            ) -> bool {
                settle(old, $cell.compare_exchange(*old, new, Relaxed, Relaxed))
            }
        }
    };
}

/// The arithmetic of one integer type on `core`'s atomic of its width.
macro_rules! impl_arithmetic {
    ($ty:ty, |$a:ident| $cell:expr) => {
        impl AtomicArithmeticOps for $ty {
            #[inline(always)]
            fn atomic_add($a: &AtomicRepr<Self>, v: Self) {
                $cell.fetch_add(v, Relaxed);
            }
            #[inline(always)]
            fn atomic_fetch_add($a: &AtomicRepr<Self>, v: Self) -> Self {
                full(|| $cell.fetch_add(v, SeqCst))
            }
            #[inline(always)]
            fn atomic_fetch_add_acquire($a: &AtomicRepr<Self>, v: Self) -> Self {
                $cell.fetch_add(v, Acquire)
            }
            #[inline(always)]
            fn atomic_fetch_add_release($a: &AtomicRepr<Self>, v: Self) -> Self {
                $cell.fetch_add(v, Release)
            }
            #[inline(always)]
            fn atomic_fetch_add_relaxed($a: &AtomicRepr<Self>, v: Self) -> Self {
                $cell.fetch_add(v, Relaxed)
            }
            #[inline(always)]
            fn atomic_fetch_sub($a: &AtomicRepr<Self>, v: Self) -> Self {
                full(|| $cell.fetch_sub(v, SeqCst))
            }
            #[inline(always)]
            fn atomic_fetch_sub_acquire($a: &AtomicRepr<Self>, v: Self) -> Self {
                $cell.fetch_sub(v, Acquire)
            }
            #[inline(always)]
            fn atomic_fetch_sub_release($a: &AtomicRepr<Self>, v: Self) -> Self {
                $cell.fetch_sub(v, Release)
            }
            #[inline(always)]
            fn atomic_fetch_sub_relaxed($a: &AtomicRepr<Self>, v: Self) -> Self {
                $cell.fetch_sub(v, Relaxed)
            }
        }
    };
}

/// `try_cmpxchg`'s result from `compare_exchange`'s: on failure, `*old` gets the value seen.
#[inline(always)]
fn settle<T>(old: &mut T, result: Result<T, T>) -> bool {
    match result {
        Ok(_) => true,
        Err(seen) => {
            *old = seen;
            false
        }
    }
}

/// Where the host's model checker may run another thread (feature `loom`; see `platform.rs`).
#[cfg(feature = "loom")]
use crate::env::sync::platform::schedule_point;

/// Where a model checker may run another thread: nowhere, without one.
#[cfg(not(feature = "loom"))]
#[inline(always)]
fn schedule_point() {}

/// `core`'s atomic over an [`AtomicRepr`] of the same width, at a [`schedule_point`].
macro_rules! core_atomic {
    ($atomic:ty, $a:expr) => {{
        schedule_point();
        // SAFETY: `as_ptr` is valid and aligned for the value while `$a` lives (its type is
        // `repr(transparent)` over an `UnsafeCell` of it), every access to it is atomic (the
        // `Atomic` API's promise, and `from_ptr`'s callers'), and `core`'s atomic of the same
        // width has the same size, with an alignment that the value's meets on every host
        // kernel-core supports (checked below).
        unsafe { <$atomic>::from_ptr($a.as_ptr().cast()) }
    }};
}

// `core`'s atomics may be more aligned than the integers; the `from_ptr`s above need them not
// to be.
const _: () = {
    assert!(core::mem::align_of::<AtomicI8>() == core::mem::align_of::<i8>());
    assert!(core::mem::align_of::<AtomicI16>() == core::mem::align_of::<i16>());
    assert!(core::mem::align_of::<AtomicI32>() == core::mem::align_of::<i32>());
    assert!(core::mem::align_of::<AtomicPtr<c_void>>() == core::mem::align_of::<*const c_void>());
};

impl_ops!(i8, |a| core_atomic!(AtomicI8, a));
impl_ops!(i16, |a| core_atomic!(AtomicI16, a));
impl_ops!(i32, |a| core_atomic!(AtomicI32, a));
impl_arithmetic!(i32, |a| core_atomic!(AtomicI32, a));

/// Pointers: `core`'s `AtomicPtr<c_void>` holds a `*mut c_void`, the value here a `*const
/// c_void`; both have the same representation.
struct PtrCell<'a>(&'a AtomicPtr<c_void>);

impl PtrCell<'_> {
    #[inline(always)]
    fn load(&self, order: core::sync::atomic::Ordering) -> *const c_void {
        self.0.load(order)
    }
    #[inline(always)]
    fn store(&self, v: *const c_void, order: core::sync::atomic::Ordering) {
        self.0.store(v.cast_mut(), order)
    }
    #[inline(always)]
    fn swap(&self, v: *const c_void, order: core::sync::atomic::Ordering) -> *const c_void {
        self.0.swap(v.cast_mut(), order)
    }
    #[inline(always)]
    fn compare_exchange(
        &self,
        old: *const c_void,
        new: *const c_void,
        success: core::sync::atomic::Ordering,
        failure: core::sync::atomic::Ordering,
    ) -> Result<*const c_void, *const c_void> {
        self.0
            .compare_exchange(old.cast_mut(), new.cast_mut(), success, failure)
            .map(<*mut c_void>::cast_const)
            .map_err(<*mut c_void>::cast_const)
    }
}

impl_ops!(*const c_void, |a| PtrCell(core_atomic!(
    AtomicPtr<c_void>,
    a
)));

// 32-bit x86 has 64-bit atomics, but aligns an `i64` to 4 bytes, where `AtomicI64` needs 8.
#[cfg(all(target_has_atomic = "64", not(target_arch = "x86")))]
mod wide {
    use core::sync::atomic::AtomicI64;

    use super::*;

    const _: () = assert!(core::mem::align_of::<AtomicI64>() == core::mem::align_of::<i64>());

    impl_ops!(i64, |a| core_atomic!(AtomicI64, a));
    impl_arithmetic!(i64, |a| core_atomic!(AtomicI64, a));
}

#[cfg(any(not(target_has_atomic = "64"), target_arch = "x86"))]
mod wide {
    //! `i64` atomics of hosts without them (or whose `i64` is not aligned for them): each operation runs under one of a few spinlocks,
    //! chosen by address, as `lib/atomic64.c` does for such kernels.

    use core::sync::atomic::{AtomicBool, Ordering};

    use super::*;

    /// How many locks: enough that unrelated atomics rarely share one.
    const LOCKS: usize = 16;

    /// The locks.
    static LOCK: [AtomicBool; LOCKS] = [const { AtomicBool::new(false) }; LOCKS];

    /// An `i64` reached under its lock.
    struct Locked64 {
        ptr: *mut i64,
        lock: &'static AtomicBool,
    }

    impl Locked64 {
        /// Locks `a`'s lock.
        fn new(a: &AtomicRepr<i64>) -> Self {
            schedule_point();
            let ptr = a.as_ptr();
            let lock = &LOCK[(ptr.addr() >> 3) % LOCKS];
            while lock
                .compare_exchange_weak(false, true, Ordering::Acquire, Ordering::Relaxed)
                .is_err()
            {
                core::hint::spin_loop();
            }
            Self { ptr, lock }
        }

        fn get(&self) -> i64 {
            // SAFETY: Valid and aligned (`AtomicRepr::as_ptr`); every access to it holds this
            // lock, so this read races with no write.
            unsafe { self.ptr.read() }
        }

        fn set(&self, v: i64) {
            // SAFETY: As for `get`.
            unsafe { self.ptr.write(v) }
        }
    }

    impl Drop for Locked64 {
        fn drop(&mut self) {
            self.lock.store(false, Ordering::Release);
        }
    }

    /// The value's operations under its lock, with `core`'s method names.
    struct Cell64<'a>(&'a AtomicRepr<i64>);

    impl Cell64<'_> {
        fn update(&self, f: impl FnOnce(i64) -> Option<i64>) -> i64 {
            let locked = Locked64::new(self.0);
            let old = locked.get();
            if let Some(new) = f(old) {
                locked.set(new);
            }
            old
        }
        fn load(&self, _: Ordering) -> i64 {
            self.update(|_| None)
        }
        fn store(&self, v: i64, _: Ordering) {
            self.update(|_| Some(v));
        }
        fn swap(&self, v: i64, _: Ordering) -> i64 {
            self.update(|_| Some(v))
        }
        fn compare_exchange(
            &self,
            old: i64,
            new: i64,
            _: Ordering,
            _: Ordering,
        ) -> Result<i64, i64> {
            let seen = self.update(|v| (v == old).then_some(new));
            if seen == old {
                Ok(seen)
            } else {
                Err(seen)
            }
        }
        fn fetch_add(&self, v: i64, _: Ordering) -> i64 {
            self.update(|old| Some(old.wrapping_add(v)))
        }
        fn fetch_sub(&self, v: i64, _: Ordering) -> i64 {
            self.update(|old| Some(old.wrapping_sub(v)))
        }
    }

    impl_ops!(i64, |a| Cell64(a));
    impl_arithmetic!(i64, |a| Cell64(a));
}
