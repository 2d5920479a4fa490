// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! A container that can be initialized at most once: [`SetOnce`].
//!
//! Kernel counterpart: `rust/kernel/sync/set_once.rs` (Linux 7.3). Shared code, over
//! [`Atomic`].

use core::{cell::UnsafeCell, mem::MaybeUninit};

use super::atomic::{
    ordering::{Acquire, Relaxed, Release},
    Atomic,
};

/// A slot that is filled at most once, from any thread, and then keeps its value.
///
/// # Invariants
///
/// - `init` is 0, 1 or 2, and never goes down.
/// - 0: `value` is uninitialised.
/// - 1: one thread, the one that moved `init` to 1, is writing `value`; nobody else touches it.
/// - 2: `value` is initialised, and only read.
///
/// # Example
///
/// ```
/// use kernel_core::sync::SetOnce;
///
/// let value = SetOnce::new();
/// assert_eq!(None, value.as_ref());
///
/// assert!(value.populate(42u8));
/// assert_eq!(Some(&42u8), value.as_ref());
/// assert_eq!(Some(42u8), value.copy());
///
/// assert!(!value.populate(101u8));
/// assert_eq!(Some(&42u8), value.as_ref());
/// ```
pub struct SetOnce<T> {
    init: Atomic<u32>,
    value: UnsafeCell<MaybeUninit<T>>,
}

impl<T> Default for SetOnce<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T> SetOnce<T> {
    /// An empty slot.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::sync::SetOnce;
    ///
    /// static NAME: SetOnce<&str> = SetOnce::new();
    /// assert!(NAME.as_ref().is_none());
    /// ```
    pub const fn new() -> Self {
        // INVARIANT: 0, with `value` uninitialised.
        Self {
            value: UnsafeCell::new(MaybeUninit::uninit()),
            init: Atomic::new(0),
        }
    }

    /// The value, or `None` while the slot is empty.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::sync::SetOnce;
    ///
    /// let id = SetOnce::new();
    /// id.populate(7_u16);
    /// assert_eq!(id.as_ref(), Some(&7));
    /// ```
    pub fn as_ref(&self) -> Option<&T> {
        if self.init.load(Acquire) == 2 {
            // SAFETY: 2 (seen with `Acquire`, after the writer's `Release`): initialised, and
            // only read from now on.
            Some(unsafe { &*self.value.get().cast() })
        } else {
            None
        }
    }

    /// Fills the slot with `value` if it is empty (`true`); otherwise drops `value` (`false`).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::sync::SetOnce;
    ///
    /// let id = SetOnce::new();
    /// assert!(id.populate(1_u8));
    /// assert!(!id.populate(2_u8)); // the second value is dropped
    /// assert_eq!(id.copy(), Some(1));
    /// ```
    pub fn populate(&self, value: T) -> bool {
        // INVARIANT: A successful 0 -> 1 goes up, and only one thread can make it: that thread
        // alone writes `value`.
        if let Ok(0) = self.init.cmpxchg(0, 1, Relaxed) {
            // SAFETY: This thread moved `init` to 1, so it alone has access to `value`, which
            // is uninitialised.
            unsafe { core::ptr::write(self.value.get().cast(), value) };
            // INVARIANT: 1 -> 2 once `value` is written; `Release` publishes it to readers.
            self.init.store(2, Release);
            true
        } else {
            false
        }
    }

    /// A copy of the value, or `None` while the slot is empty.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::sync::SetOnce;
    ///
    /// let irq = SetOnce::<u32>::new();
    /// assert_eq!(irq.copy(), None);
    /// irq.populate(33);
    /// assert_eq!(irq.copy(), Some(33));
    /// ```
    pub fn copy(&self) -> Option<T>
    where
        T: Copy,
    {
        self.as_ref().copied()
    }
}

impl<T> Drop for SetOnce<T> {
    fn drop(&mut self) {
        if *self.init.get_mut() == 2 {
            let value = self.value.get_mut();
            // SAFETY: 2: initialised; `&mut self` is the last access, and it is exclusive.
            unsafe { value.assume_init_drop() };
        }
    }
}

// SAFETY: Moving the slot moves the `T` in it: `T: Send` allows that.
unsafe impl<T: Send> Send for SetOnce<T> {}

// SAFETY: Shared, it gives `&T` to many threads (`T: Sync`), and a `T` populated on one thread
// may be dropped on another (`T: Send`); the atomic `init` orders the one write before the
// reads.
unsafe impl<T: Send + Sync> Sync for SetOnce<T> {}
