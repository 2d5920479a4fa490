// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `OnceLite`, `do_once_lite!` and the `pr_*_once!` macros: printing something once, as the
//! kernel's `DO_ONCE_LITE()` does.
//!
//! Kernel counterpart: the end of `rust/kernel/print.rs` (Linux 7.3);
//! [`include/linux/once_lite.h`](https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/include/linux/once_lite.h).
//! Shared by the host and by Linux 6.12, which has none of these (7.2 and 7.3 have the kernel's):
//! written against `core`'s atomics and kernel-core's `pr_*!` alone. The macros are exported
//! under hidden names and renamed by `env::root_macros`.

use core::sync::atomic::{AtomicBool, Ordering::Relaxed};

/// A lightweight `call_once`: the kernel's `DO_ONCE_LITE`, behind [`do_once_lite!`] and the
/// `pr_*_once!` macros.
///
/// [`call_once`](OnceLite::call_once) runs its closure on the first call only, without further
/// synchronization: a call that returns `false` does not prove that the first one has finished.
///
/// # Examples
///
/// ```
/// use kernel_core::print::OnceLite;
///
/// static WARNED: OnceLite = OnceLite::new();
/// let mut runs = 0;
/// assert!(WARNED.call_once(|| runs += 1));
/// assert!(!WARNED.call_once(|| runs += 1));
/// assert_eq!(runs, 1);
/// ```
///
/// [`do_once_lite!`]: crate::do_once_lite
pub struct OnceLite(AtomicBool);

impl OnceLite {
    /// A [`OnceLite`] that has not run.
    #[inline(always)]
    #[allow(clippy::new_without_default)] // As in the kernel, which has no `Default` either.
    pub const fn new() -> Self {
        Self(AtomicBool::new(false))
    }

    /// Calls `f` if this is the first call, and returns whether it did.
    #[inline]
    pub fn call_once<F>(&self, f: F) -> bool
    where
        F: FnOnce(),
    {
        // ORDERING: Only one caller must run `f`; nothing else is synchronized, as in the kernel.
        if self.0.load(Relaxed) || self.0.swap(true, Relaxed) {
            return false;
        }
        f();
        true
    }
}

/// Runs the statements once per call site: the kernel's `DO_ONCE_LITE`, with a static
/// [`OnceLite`].
///
/// # Examples
///
/// ```
/// let mut runs = 0;
/// for _ in 0..3 {
///     kernel_core::do_once_lite! {
///         runs += 1;
///     };
/// }
/// assert_eq!(runs, 1);
/// ```
#[doc(hidden)]
#[macro_export]
macro_rules! __kernel_core_do_once_lite {
    { $($e:tt)* } => {{
        static ONCE: $crate::print::OnceLite = $crate::print::OnceLite::new();
        ONCE.call_once(|| { $($e)* });
    }};
}

/// Prints an emergency-level message (level 0) at the first call from this call site only, as
/// [`pr_emerg!`](crate::pr_emerg) does: the kernel's `pr_emerg_once`.
///
/// # Examples
///
/// ```
/// for attempt in 0..3 {
///     kernel_core::pr_emerg_once!("printed once, at attempt {attempt}\n");
/// }
/// ```
#[doc(hidden)]
#[macro_export]
macro_rules! __kernel_core_pr_emerg_once (
    ($($arg:tt)*) => (
        $crate::__kernel_core_do_once_lite! { $crate::pr_emerg!($($arg)*) }
    )
);

/// Prints an alert-level message (level 1) at the first call from this call site only, as
/// [`pr_alert!`](crate::pr_alert) does: the kernel's `pr_alert_once`.
///
/// # Examples
///
/// ```
/// for attempt in 0..3 {
///     kernel_core::pr_alert_once!("printed once, at attempt {attempt}\n");
/// }
/// ```
#[doc(hidden)]
#[macro_export]
macro_rules! __kernel_core_pr_alert_once (
    ($($arg:tt)*) => (
        $crate::__kernel_core_do_once_lite! { $crate::pr_alert!($($arg)*) }
    )
);

/// Prints a critical-level message (level 2) at the first call from this call site only, as
/// [`pr_crit!`](crate::pr_crit) does: the kernel's `pr_crit_once`.
///
/// # Examples
///
/// ```
/// for attempt in 0..3 {
///     kernel_core::pr_crit_once!("printed once, at attempt {attempt}\n");
/// }
/// ```
#[doc(hidden)]
#[macro_export]
macro_rules! __kernel_core_pr_crit_once (
    ($($arg:tt)*) => (
        $crate::__kernel_core_do_once_lite! { $crate::pr_crit!($($arg)*) }
    )
);

/// Prints an error-level message (level 3) at the first call from this call site only, as
/// [`pr_err!`](crate::pr_err) does: the kernel's `pr_err_once`.
///
/// # Examples
///
/// ```
/// for attempt in 0..3 {
///     kernel_core::pr_err_once!("printed once, at attempt {attempt}\n");
/// }
/// ```
#[doc(hidden)]
#[macro_export]
macro_rules! __kernel_core_pr_err_once (
    ($($arg:tt)*) => (
        $crate::__kernel_core_do_once_lite! { $crate::pr_err!($($arg)*) }
    )
);

/// Prints a warning-level message (level 4) at the first call from this call site only, as
/// [`pr_warn!`](crate::pr_warn) does: the kernel's `pr_warn_once`.
///
/// # Examples
///
/// ```
/// for attempt in 0..3 {
///     kernel_core::pr_warn_once!("printed once, at attempt {attempt}\n");
/// }
/// ```
#[doc(hidden)]
#[macro_export]
macro_rules! __kernel_core_pr_warn_once (
    ($($arg:tt)*) => (
        $crate::__kernel_core_do_once_lite! { $crate::pr_warn!($($arg)*) }
    )
);

/// Prints a notice-level message (level 5) at the first call from this call site only, as
/// [`pr_notice!`](crate::pr_notice) does: the kernel's `pr_notice_once`.
///
/// # Examples
///
/// ```
/// for attempt in 0..3 {
///     kernel_core::pr_notice_once!("printed once, at attempt {attempt}\n");
/// }
/// ```
#[doc(hidden)]
#[macro_export]
macro_rules! __kernel_core_pr_notice_once (
    ($($arg:tt)*) => (
        $crate::__kernel_core_do_once_lite! { $crate::pr_notice!($($arg)*) }
    )
);

/// Prints an info-level message (level 6) at the first call from this call site only, as
/// [`pr_info!`](crate::pr_info) does: the kernel's `pr_info_once`.
///
/// # Examples
///
/// ```
/// for attempt in 0..3 {
///     kernel_core::pr_info_once!("printed once, at attempt {attempt}\n");
/// }
/// ```
#[doc(hidden)]
#[macro_export]
macro_rules! __kernel_core_pr_info_once (
    ($($arg:tt)*) => (
        $crate::__kernel_core_do_once_lite! { $crate::pr_info!($($arg)*) }
    )
);
