// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! In-place initialisation of `std`'s `Box` and `Arc`, with feature `std`: what Linux 7.3's
//! `pin_init` crate has with its own `std` feature, for code that uses the crate outside the
//! kernel (its own documentation's examples among them).
//!
//! Kernel counterpart: `rust/pin-init/src/alloc.rs` (Linux 7.3). Without the unstable
//! `allocator_api`, `std`'s allocations cannot fail recoverably, so the allocation error is
//! [`Infallible`], as 7.3's is with `std` and without its nightly-only `alloc` feature. In the
//! kernel, `KBox`, `Arc` and the rest are initialised through `kernel::init::InPlaceInit`
//! instead (`kernel_core::init::InPlaceInit` here).

extern crate std;

use core::{convert::Infallible, mem::MaybeUninit, pin::Pin};
use std::{boxed::Box, sync::Arc};

use crate::{init_from_closure, pin_init_from_closure, raw_try_init, InPlaceWrite, Init, PinInit};

/// What allocating the memory of a smart pointer fails with: never, with `std`.
pub type AllocError = Infallible;

// SAFETY: `Option<Box<T>>` is of Rust's guaranteed `Option` layout optimisation: `None` is null.
unsafe impl<T> crate::ZeroableOption for Box<T> {}

/// Smart pointers of `std` that can be made from an initialiser: Linux 7.3's
/// `pin_init::InPlaceInit` (with its `std` feature).
///
/// # Examples
///
/// ```
/// # extern crate kernel_core_pin_init as pin_init;
/// use pin_init::{init, InPlaceInit};
///
/// struct Config {
///     retries: u32,
///     name: &'static str,
/// }
///
/// let config = Box::init(init!(Config { retries: 3, name: "eth0" })).unwrap();
/// assert_eq!((config.retries, config.name), (3, "eth0"));
/// ```
pub trait InPlaceInit<T>: Sized {
    /// A new pointer to a pinned `T`, initialised in place by `init`, or `init`'s error.
    fn try_pin_init<E>(init: impl PinInit<T, E>) -> Result<Pin<Self>, E>
    where
        E: From<AllocError>;

    /// A new pointer to a pinned `T`, initialised in place by an initialiser that cannot fail.
    #[inline]
    fn pin_init(init: impl PinInit<T>) -> Result<Pin<Self>, AllocError> {
        // SAFETY: The closure hands the slot to `init`, whose contract it keeps; only the
        // (uninhabited) error type changes.
        let init = unsafe {
            pin_init_from_closure(|slot| match raw_try_init(slot, init) {
                Ok(()) => Ok(()),
                Err(never) => match never {},
            })
        };
        Self::try_pin_init(init)
    }

    /// A new pointer to a `T`, initialised in place by `init`, or `init`'s error.
    fn try_init<E>(init: impl Init<T, E>) -> Result<Self, E>
    where
        E: From<AllocError>;

    /// A new pointer to a `T`, initialised in place by an initialiser that cannot fail.
    #[inline]
    fn init(init: impl Init<T>) -> Result<Self, AllocError> {
        // SAFETY: As in `pin_init`, and the closure relies on no pinning, as `init` does not.
        let init = unsafe {
            init_from_closure(|slot| match raw_try_init(slot, init) {
                Ok(()) => Ok(()),
                Err(never) => match never {},
            })
        };
        Self::try_init(init)
    }
}

impl<T> InPlaceInit<T> for Box<T> {
    #[inline]
    fn try_pin_init<E>(init: impl PinInit<T, E>) -> Result<Pin<Self>, E>
    where
        E: From<AllocError>,
    {
        Box::new_uninit().write_pin_init(init)
    }

    #[inline]
    fn try_init<E>(init: impl Init<T, E>) -> Result<Self, E>
    where
        E: From<AllocError>,
    {
        Box::new_uninit().write_init(init)
    }
}

impl<T> InPlaceInit<T> for Arc<T> {
    #[inline]
    fn try_pin_init<E>(init: impl PinInit<T, E>) -> Result<Pin<Self>, E>
    where
        E: From<AllocError>,
    {
        let mut this = Arc::<T>::new_uninit();
        let slot = Arc::get_mut(&mut this)
            .expect("a new Arc has no other reference")
            .as_mut_ptr();
        // SAFETY: `slot` is the new `Arc`'s memory, valid for writes; the `Arc` is pinned below
        // and never handed out unpinned, so the value does not move. On error the memory is
        // freed with the `Arc` without dropping a `T`, which is right for an uninitialised one.
        unsafe { raw_try_init(slot, init)? };
        // SAFETY: Initialised just above; this `Arc` is the only reference to it.
        Ok(unsafe { Pin::new_unchecked(this.assume_init()) })
    }

    #[inline]
    fn try_init<E>(init: impl Init<T, E>) -> Result<Self, E>
    where
        E: From<AllocError>,
    {
        let mut this = Arc::<T>::new_uninit();
        let slot = Arc::get_mut(&mut this)
            .expect("a new Arc has no other reference")
            .as_mut_ptr();
        // SAFETY: As in `try_pin_init`; an `Init` relies on no pinning.
        unsafe { raw_try_init(slot, init)? };
        // SAFETY: Initialised just above.
        Ok(unsafe { this.assume_init() })
    }
}

impl<T> InPlaceWrite<T> for Box<MaybeUninit<T>> {
    type Initialized = Box<T>;

    #[inline]
    fn write_init<E>(mut self, init: impl Init<T, E>) -> Result<Self::Initialized, E> {
        // SAFETY: The box's memory is valid for writes; on error it is freed without a `T`
        // being dropped, which is right for an uninitialised one.
        unsafe { raw_try_init(self.as_mut_ptr(), init)? };
        // SAFETY: Initialised just above.
        Ok(unsafe { self.assume_init() })
    }

    #[inline]
    fn write_pin_init<E>(mut self, init: impl PinInit<T, E>) -> Result<Pin<Self::Initialized>, E> {
        // SAFETY: As in `write_init`; the box is pinned below and the value never moves.
        unsafe { raw_try_init(self.as_mut_ptr(), init)? };
        // SAFETY: Initialised just above.
        Ok(unsafe { self.assume_init() }.into())
    }
}
