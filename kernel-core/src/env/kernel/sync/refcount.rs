// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Linux 7.3's `Refcount` on Linux 6.12: the kernel's own `refcount_t`, with its saturation and
//! warnings, through kernel-core's C helpers (`refcount_set()` and the rest are `static inline`).
//!
//! C header: [`include/linux/refcount.h`](https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/include/linux/refcount.h).

use core::cell::UnsafeCell;
use kernel::bindings;

use crate::sync::atomic::Atomic;

extern "C" {
    fn kernel_core_refcount_set(r: *mut bindings::refcount_t, n: i32);
    fn kernel_core_refcount_inc(r: *mut bindings::refcount_t);
    fn kernel_core_refcount_dec(r: *mut bindings::refcount_t);
    fn kernel_core_refcount_dec_and_test(r: *mut bindings::refcount_t) -> bool;
}

/// A reference count that saturates instead of overflowing: Linux 7.3's `kernel::sync::Refcount`.
#[repr(transparent)]
pub struct Refcount(UnsafeCell<bindings::refcount_t>);

// SAFETY: `refcount_t` is updated atomically.
unsafe impl Sync for Refcount {}
// SAFETY: As above.
unsafe impl Send for Refcount {}

impl Refcount {
    /// A count of `value`, which must not be saturated (negative).
    #[inline(always)]
    pub fn new(value: i32) -> Self {
        crate::build_assert::build_assert!(value >= 0, "initial value saturated");
        // SAFETY: `refcount_t` is `atomic_t`, an `int`, valid for every bit pattern.
        let count: bindings::refcount_t = unsafe { core::mem::zeroed() };
        let this = Self(UnsafeCell::new(count));
        this.set(value);
        this
    }

    #[inline]
    fn as_ptr(&self) -> *mut bindings::refcount_t {
        self.0.get()
    }

    /// The count as an atomic `i32`, as 7.3's `as_atomic`.
    #[inline]
    pub fn as_atomic(&self) -> &Atomic<i32> {
        // SAFETY: `refcount_t` is `atomic_t`, one `int` updated atomically, which is the layout
        // of `Atomic<i32>`; both are only ever accessed atomically.
        unsafe { &*self.as_ptr().cast::<Atomic<i32>>() }
    }

    /// Sets the count.
    #[inline]
    pub fn set(&self, value: i32) {
        // SAFETY: `self` is a valid `refcount_t`.
        unsafe { kernel_core_refcount_set(self.as_ptr(), value) }
    }

    /// Increments the count, saturating (with a warning) on overflow or from zero.
    #[inline]
    pub fn inc(&self) {
        // SAFETY: `self` is a valid `refcount_t`.
        unsafe { kernel_core_refcount_inc(self.as_ptr()) }
    }

    /// Decrements the count, warning if it reaches zero.
    #[inline]
    pub fn dec(&self) {
        // SAFETY: `self` is a valid `refcount_t`.
        unsafe { kernel_core_refcount_dec(self.as_ptr()) }
    }

    /// Decrements the count; whether it reached zero.
    #[inline]
    #[must_use = "use `dec` instead if you do not need to test if the count reached zero"]
    pub fn dec_and_test(&self) -> bool {
        // SAFETY: `self` is a valid `refcount_t`.
        unsafe { kernel_core_refcount_dec_and_test(self.as_ptr()) }
    }
}
