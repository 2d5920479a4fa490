// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! A wrapper for data protected by a lock that does not wrap it: [`LockedBy`].
//!
//! Kernel counterpart: `rust/kernel/sync/locked_by.rs` (Linux 7.3). Shared code: pure Rust over
//! [`Lock`].

use core::{cell::UnsafeCell, mem::size_of, ptr};

use super::lock::{Backend, Lock};
use crate::build_assert::build_assert;

/// Data guarded by a lock that lives elsewhere, typically a container's lock guarding part of
/// each element.
///
/// It remembers which lock (which `U`, the data of a [`Mutex`] or [`SpinLock`]) guards it, and
/// is reached only with a reference to that data, which only the lock's holder has. The wrong
/// lock's data is a bug, and panics.
///
/// [`Mutex`]: super::Mutex
/// [`SpinLock`]: super::SpinLock
///
/// # Examples
///
/// A file's byte count, kept consistent with its directory's total under the directory's
/// lock:
///
/// ```
/// use kernel_core::sync::{LockedBy, Mutex};
///
/// struct InnerFile {
///     bytes_used: u64,
/// }
///
/// struct File {
///     inner: LockedBy<InnerFile, InnerDirectory>,
/// }
///
/// struct InnerDirectory {
///     /// The sum of the bytes used by all files.
///     bytes_used: u64,
/// }
///
/// /// Increments `bytes_used` for both the directory and file.
/// fn inc_bytes_used(dir: &Mutex<InnerDirectory>, file: &File) {
///     let mut guard = dir.lock();
///     guard.bytes_used += 10;
///
///     let file_inner = file.inner.access_mut(&mut guard);
///     file_inner.bytes_used += 10;
/// }
/// # use pin_init::stack_pin_init;
/// # stack_pin_init!(let dir = kernel_core::new_mutex!(InnerDirectory { bytes_used: 0 }));
/// let file = File { inner: LockedBy::new(&dir, InnerFile { bytes_used: 0 }) };
/// inc_bytes_used(&dir, &file);
/// let guard = dir.lock();
/// assert_eq!(file.inner.access(&guard).bytes_used, guard.bytes_used);
/// ```
pub struct LockedBy<T: ?Sized, U: ?Sized> {
    owner: *const U,
    data: UnsafeCell<T>,
}

// SAFETY: Moving it moves the `T` (the owner pointer is never followed): `T: Send` allows it.
unsafe impl<T: ?Sized + Send, U: ?Sized> Send for LockedBy<T, U> {}

// SAFETY: Shared between threads, it gives `&mut T` to one lock holder at a time (`access_mut`),
// which is sending the `T` between them (`T: Send`), and `&T` to several (`access`) only when
// `T: Sync`.
unsafe impl<T: ?Sized + Send, U: ?Sized> Sync for LockedBy<T, U> {}

impl<T, U> LockedBy<T, U> {
    /// `data`, guarded by `owner`.
    ///
    /// Only `owner`'s address is kept, and only compared: if the lock goes away, the data can
    /// no longer be reached, until another lock of that type happens to live at that address.
    /// Either way at most one lock holder at a time reaches it, so this is safe.
    ///
    /// # Examples
    ///
    /// See [`LockedBy`].
    pub fn new<B: Backend>(owner: &Lock<U, B>, data: T) -> Self {
        build_assert!(
            size_of::<Lock<U, B>>() > 0,
            "The lock type cannot be a ZST because it may be impossible to distinguish instances"
        );
        Self {
            owner: owner.data.get(),
            data: UnsafeCell::new(data),
        }
    }
}

impl<T: ?Sized, U> LockedBy<T, U> {
    /// The data, for whoever shows `owner`: the guarded data of the lock, which only its holder
    /// can reach.
    ///
    /// `U` must not be zero-sized: a reference to a zero-sized value at any address can be made
    /// without the lock.
    ///
    /// # Panics
    ///
    /// Panics if `owner` is different from the data protected by the lock used in
    /// [`new`](LockedBy::new).
    ///
    /// # Examples
    ///
    /// See [`LockedBy`].
    pub fn access<'a>(&'a self, owner: &'a U) -> &'a T
    where
        T: Sync,
    {
        build_assert!(
            size_of::<U>() > 0,
            "`U` cannot be a ZST because `owner` wouldn't be unique"
        );
        if !ptr::eq(owner, self.owner) {
            panic!("mismatched owners");
        }

        // SAFETY: `owner` is the lock's data, borrowed shared for `'a`, so no `access_mut` can
        // run meanwhile; several threads may hold `&T` at once, which `T: Sync` allows.
        unsafe { &*self.data.get() }
    }

    /// The data, mutably, for whoever shows `owner` mutably: the guarded data of the lock,
    /// borrowed exclusively from its guard.
    ///
    /// `U` must not be zero-sized, as for [`access`](Self::access).
    ///
    /// # Panics
    ///
    /// Panics if `owner` is different from the data protected by the lock used in
    /// [`new`](LockedBy::new).
    ///
    /// # Examples
    ///
    /// See [`LockedBy`].
    pub fn access_mut<'a>(&'a self, owner: &'a mut U) -> &'a mut T {
        build_assert!(
            size_of::<U>() > 0,
            "`U` cannot be a ZST because `owner` wouldn't be unique"
        );
        if !ptr::eq(owner, self.owner) {
            panic!("mismatched owners");
        }

        // SAFETY: `owner` is the lock's data, borrowed exclusively for `'a`: no other access to
        // this data can happen meanwhile.
        unsafe { &mut *self.data.get() }
    }
}
