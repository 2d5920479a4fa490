// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The initialiser traits in a module built for Linux 6.12, which has no `pin_init` crate: the
//! kernel's own `kernel::init::{PinInit, Init}`, its closure constructors and its `InPlaceWrite`,
//! so that the initialisers this crate's macros make go to the kernel's `KBox::pin_init`,
//! `Arc::pin_init` and everything else of 6.12 that takes one, and the kernel's initialisers
//! (`kernel::sync::Mutex::new`, ...) go into `field <- init` here.
//!
//! Its twin, `env/host.rs`, defines them on the host. What 6.12's traits do otherwise than 7.3's,
//! and which kernel-core cannot change (the migration guide lists them):
//!
//! - a value is an `Init<T, E>` for every `E`, not only `Infallible` (more code builds);
//! - a `Result<T, E>` is no initialiser;
//! - `&'static mut MaybeUninit<T>` has no `InPlaceWrite`;
//! - the method is `__pinned_init`, which only [`raw_try_init`] and [`raw_init`] call.

pub use kernel::init::{
    init_array_from_fn, init_from_closure, pin_init_array_from_fn, pin_init_from_closure, uninit,
    ChainInit, ChainPinInit, InPlaceWrite, Init, PinInit,
};

use crate::__internal::AlwaysFail;

/// Initialises `slot` with an initialiser that cannot fail: Linux 7.3's `pin_init::raw_init`.
///
/// # Safety
///
/// `slot` is valid for writes of a `T`, properly aligned, and stays pinned until the `T` in it
/// is dropped (unless `init` is an [`Init`]).
#[inline(always)]
pub unsafe fn raw_init<T>(slot: *mut T, init: impl PinInit<T>) {
    // SAFETY: The caller's promise is what `__pinned_init` requires; the error is uninhabited.
    match unsafe { init.__pinned_init(slot) } {
        Ok(()) => {}
        Err(never) => match never {},
    }
}

/// Initialises `slot`, or returns the initialiser's error with `*slot` left uninitialised:
/// Linux 7.3's `pin_init::raw_try_init`.
///
/// # Safety
///
/// As [`raw_init`]; on `Err`, `*slot` is uninitialised.
#[inline(always)]
pub unsafe fn raw_try_init<T: ?Sized, E>(slot: *mut T, init: impl PinInit<T, E>) -> Result<(), E> {
    // SAFETY: The caller's promise is what `__pinned_init` requires.
    unsafe { init.__pinned_init(slot) }
}

// SAFETY: `__pinned_init` always fails without writing anything, which leaves the slot
// uninitialised.
unsafe impl<T: ?Sized> PinInit<T, ()> for AlwaysFail<T> {
    #[inline]
    unsafe fn __pinned_init(self, _slot: *mut T) -> Result<(), ()> {
        Err(())
    }
}
