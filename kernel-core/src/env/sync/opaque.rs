// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The storage of a lock's, wait queue's or completion's state: memory that the world's
//! primitives initialise in place and use through raw pointers, as the kernel's
//! `types::Opaque` holds the C structs.
//!
//! Shared code of `kernel::sync` (built on the host, and on kernels whose `kernel::sync` lacks
//! 7.3's forms): kept private, so that the sync module depends on no other module's items.

use core::cell::UnsafeCell;
use core::marker::PhantomPinned;
use core::mem::MaybeUninit;

/// A `T` that may be uninitialised, written through shared references, and never moved once
/// initialised (it is `!Unpin`).
#[repr(transparent)]
pub(crate) struct Opaque<T> {
    value: UnsafeCell<MaybeUninit<T>>,
    _pin: PhantomPinned,
}

impl<T> Opaque<T> {
    /// Uninitialised memory for a `T`.
    #[inline]
    pub(crate) const fn uninit() -> Self {
        Self {
            value: UnsafeCell::new(MaybeUninit::uninit()),
            _pin: PhantomPinned,
        }
    }

    /// A pointer to the `T`, valid for reads and writes while `self` lives.
    #[inline]
    pub(crate) const fn get(&self) -> *mut T {
        UnsafeCell::raw_get(&self.value).cast()
    }

    /// [`get`](Self::get) from a pointer to the `Opaque`, which need not be initialised.
    #[inline]
    pub(crate) const fn cast_into(this: *mut Self) -> *mut T {
        this.cast()
    }
}
