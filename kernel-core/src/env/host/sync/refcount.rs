// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Reference counts that saturate instead of wrapping: [`Refcount`], the kernel's `refcount_t`.
//!
//! Kernel counterpart: `rust/kernel/sync/refcount.rs` (Linux 7.3), over
//! [`include/linux/refcount.h`](https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/include/linux/refcount.h)
//! and `lib/refcount.c`, whose semantics the host's computes the same way: an increment of 0
//! (a use after free), a decrement to 0 by `dec()` (a leak), an underflow, or an overflow past
//! `i32::MAX` sets the count to `REFCOUNT_SATURATED` (`i32::MIN / 2`), where it stays, and
//! `WARN`s once per kind ("refcount_t: underflow; use-after-free."). On the host the warning is
//! printed to the standard error (with feature `std`) and the code goes on, as in the kernel.

use core::panic::Location;

use super::hooks::{self, WarnOnce};
use crate::build_assert::build_assert;
use crate::sync::atomic::{Atomic, Relaxed, Release};

/// `REFCOUNT_SATURATED`: where a count that went wrong stays.
const REFCOUNT_SATURATED: i32 = i32::MIN / 2;

/// An atomic reference count, with the kernel's saturation: the values that are negative as
/// an `i32` mean the count went wrong (saturated) and the object is leaked rather than freed
/// too early (see
/// [`include/linux/refcount.h`](https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/include/linux/refcount.h)).
///
/// The kernel's `refcount_t`.
///
/// # Examples
///
/// ```
/// use kernel_core::sync::Refcount;
///
/// let refs = Refcount::new(1);
/// refs.inc();
/// assert!(!refs.dec_and_test());
/// assert!(refs.dec_and_test()); // the last reference: free the object
/// ```
#[repr(transparent)]
pub struct Refcount(Atomic<i32>);

impl Refcount {
    /// A count of `value`, which must not be saturated (negative): a build error otherwise.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::sync::Refcount;
    ///
    /// let refs = Refcount::new(2);
    /// assert_eq!(refs.as_atomic().load(kernel_core::sync::atomic::Relaxed), 2);
    /// ```
    // Always inlined, so that the check of a constant `value` is gone before the link.
    #[inline(always)]
    pub fn new(value: i32) -> Self {
        build_assert!(value >= 0, "initial value saturated");
        Self(Atomic::new(value))
    }

    /// The atomic counter itself, bypassing the saturation checks: for what the other
    /// operations cannot do.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::sync::{atomic::Relaxed, Refcount};
    ///
    /// let refs = Refcount::new(3);
    /// assert_eq!(refs.as_atomic().load(Relaxed), 3);
    /// ```
    #[inline]
    pub fn as_atomic(&self) -> &Atomic<i32> {
        &self.0
    }

    /// Sets the count (`refcount_set()`).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::sync::{atomic::Relaxed, Refcount};
    ///
    /// let refs = Refcount::new(0);
    /// refs.set(1);
    /// assert!(refs.dec_and_test());
    /// ```
    #[inline]
    pub fn set(&self, value: i32) {
        self.0.store(value, Relaxed);
    }

    /// Adds one (`refcount_inc()`), without ordering: the caller holds a reference already.
    ///
    /// Saturates (and warns) on an overflow, and on an increment of 0, which is a use after
    /// free.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::sync::{atomic::Relaxed, Refcount};
    ///
    /// let refs = Refcount::new(1);
    /// refs.inc();
    /// assert_eq!(refs.as_atomic().load(Relaxed), 2);
    /// ```
    #[inline]
    #[track_caller]
    pub fn inc(&self) {
        let old = self.0.fetch_add(1, Relaxed);
        if old == 0 {
            self.saturate("refcount_t: addition on 0; use-after-free.", &UAF_ADD);
        } else if old < 0 || old.wrapping_add(1) < 0 {
            self.saturate("refcount_t: saturated; leaking memory.", &OVERFLOW);
        }
    }

    /// Takes one away (`refcount_dec()`), with release ordering: earlier accesses come first.
    ///
    /// Saturates (and warns) if it reaches 0 (the object would leak: use
    /// [`dec_and_test`](Self::dec_and_test) to free it) or below, and does not move a
    /// saturated count.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::sync::{atomic::Relaxed, Refcount};
    ///
    /// let refs = Refcount::new(2);
    /// refs.dec();
    /// assert_eq!(refs.as_atomic().load(Relaxed), 1);
    /// ```
    #[inline]
    #[track_caller]
    pub fn dec(&self) {
        let old = self.0.fetch_sub(1, Release);
        if old <= 1 {
            self.saturate("refcount_t: decrement hit 0; leaking memory.", &LEAK);
        }
    }

    /// Takes one away and says whether it reached 0 (`refcount_dec_and_test()`), with release
    /// ordering, and acquire ordering when it returns `true`: what came before every other
    /// reference's drop comes before the caller frees the object.
    ///
    /// Saturates (and warns) on an underflow, and does not move a saturated count.
    ///
    /// The reference the caller used may be gone once this returns `false` (another thread
    /// freed the object): use it no more then.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::sync::Refcount;
    ///
    /// let refs = Refcount::new(2);
    /// assert!(!refs.dec_and_test());
    /// assert!(refs.dec_and_test());
    /// ```
    #[inline]
    #[track_caller]
    #[must_use = "use `dec` instead if you do not need to test if it is 0"]
    pub fn dec_and_test(&self) -> bool {
        let old = self.0.fetch_sub(1, Release);
        if old == 1 {
            // `smp_acquire__after_ctrl_dep()`: the free comes after every reference's release.
            core::sync::atomic::fence(core::sync::atomic::Ordering::Acquire);
            return true;
        }
        if old <= 0 {
            self.saturate("refcount_t: underflow; use-after-free.", &UAF_SUB);
        }
        false
    }

    /// `refcount_warn_saturate()`: pins the count at [`REFCOUNT_SATURATED`] and warns.
    #[cold]
    #[track_caller]
    fn saturate(&self, message: &str, once: &WarnOnce) {
        self.0.store(REFCOUNT_SATURATED, Relaxed);
        hooks::warn(message, Location::caller(), once);
    }
}

/// The `WARN_ONCE()`s of `lib/refcount.c`: once per kind, for the whole program.
static UAF_ADD: WarnOnce = WarnOnce::new();
static OVERFLOW: WarnOnce = WarnOnce::new();
static LEAK: WarnOnce = WarnOnce::new();
static UAF_SUB: WarnOnce = WarnOnce::new();

// The `Atomic<i32>` is `Send` and `Sync`, and so is `Refcount`, as `refcount_t` is.

#[cfg(all(test, feature = "std"))]
mod tests {
    use super::super::hooks::record::{take, Event};
    use super::*;

    fn value(r: &Refcount) -> i32 {
        r.as_atomic().load(Relaxed)
    }

    #[test]
    fn saturates_as_the_kernel_does() {
        take();
        let r = Refcount::new(0);
        r.inc(); // addition on 0
        assert_eq!(value(&r), REFCOUNT_SATURATED);
        r.inc();
        r.dec();
        assert!(!r.dec_and_test());
        assert_eq!(value(&r), REFCOUNT_SATURATED);

        let r = Refcount::new(i32::MAX);
        r.inc(); // overflow
        assert_eq!(value(&r), REFCOUNT_SATURATED);

        let r = Refcount::new(1);
        r.dec(); // hit 0
        assert_eq!(value(&r), REFCOUNT_SATURATED);

        let r = Refcount::new(0);
        assert!(!r.dec_and_test()); // underflow
        assert_eq!(value(&r), REFCOUNT_SATURATED);

        let warnings = take().iter().filter(|(e, _)| *e == Event::Warn).count();
        assert_eq!(warnings, 7);
    }
}
