// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Completion support: [`Completion`].
//!
//! Kernel counterpart: `rust/kernel/sync/completion.rs` (Linux 7.3); reference:
//! <https://docs.kernel.org/scheduler/completion.html>; C header:
//! [`include/linux/completion.h`](https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/include/linux/completion.h).
//!
//! Shared code over the world's `struct completion` (`super::raw`): the kernel's, or the
//! host's (`env/host/sync/completion.rs`), where waiters sleep on real threads with feature
//! `std` and spin without it.

use pin_init::PinInit;

use super::opaque::Opaque;
use super::raw;

/// A one-way signal that some work is done: threads wait for it, and once it is completed they
/// (and every later waiter) go on.
///
/// # Examples
///
/// ```
/// use kernel_core::sync::Completion;
/// # use pin_init::stack_pin_init;
///
/// # stack_pin_init!(let done = Completion::new());
/// let done: &Completion = &done;
/// std::thread::scope(|s| {
///     s.spawn(|| {
///         // process this task
///         done.complete_all();
///     });
///     done.wait_for_completion();
/// });
/// ```
pub struct Completion {
    inner: Opaque<raw::completion>,
}

// SAFETY: A completion belongs to no thread.
unsafe impl Send for Completion {}

// SAFETY: A completion is made for concurrent use: its count and queue have a lock.
unsafe impl Sync for Completion {}

impl Completion {
    /// An initialiser of a completion that is not completed yet.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::sync::Completion;
    /// use pin_init::PinInit;
    ///
    /// fn new_done() -> impl PinInit<Completion> {
    ///     Completion::new()
    /// }
    /// # let _ = new_done();
    /// ```
    #[allow(clippy::new_ret_no_self)]
    pub fn new() -> impl PinInit<Self> {
        // SAFETY: The closure initialises the completion in place in the pinned slot and cannot
        // fail.
        unsafe {
            pin_init::pin_init_from_closure(|slot: *mut Self| {
                raw::init_completion(Opaque::cast_into(core::ptr::addr_of_mut!((*slot).inner)));
                Ok(())
            })
        }
    }

    /// The world's completion.
    #[inline]
    fn as_raw(&self) -> &raw::completion {
        // SAFETY: `new` initialised it, and it is only used through shared references.
        unsafe { &*self.inner.get() }
    }

    /// Completes it for good: wakes every waiter, and every later wait returns at once.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::sync::Completion;
    /// # use pin_init::stack_pin_init;
    ///
    /// # stack_pin_init!(let done = Completion::new());
    /// done.complete_all();
    /// // Every later wait returns at once.
    /// done.wait_for_completion();
    /// done.wait_for_completion();
    /// ```
    #[inline]
    pub fn complete_all(&self) {
        raw::complete_all(self.as_raw());
    }

    /// Sleeps until the completion is completed ([`Completion::complete_all`]); neither a
    /// signal nor a timeout ends the wait.
    ///
    /// # Examples
    ///
    /// See [`Completion`].
    #[inline]
    #[track_caller]
    pub fn wait_for_completion(&self) {
        raw::wait_for_completion(self.as_raw());
    }
}
