// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Objects that count their own references: [`AlwaysRefCounted`] and [`ARef`].
//!
//! Kernel counterpart: `rust/kernel/sync/aref.rs` (Linux 7.3). Many C objects carry their own
//! reference count (`get_device()`/`put_device()`, `get_task_struct()`, ...). [`ARef<T>`] owns
//! one reference of such a count, as [`Arc`](crate::sync::Arc) owns one of its own: cloning
//! takes another, dropping gives it back. A type opts in with [`AlwaysRefCounted`], which says
//! how to take and give back a reference.
//!
//! The same on the host as in the kernel: this is plain Rust over the type's own functions.

use core::marker::PhantomData;
use core::mem::ManuallyDrop;
use core::ops::Deref;
use core::ptr::NonNull;

/// A type whose every instance is reference counted, by the type itself.
///
/// Usually a wrapper of a C structure with its own count; Rust code of its own uses
/// [`Arc`](crate::sync::Arc) instead. It lets a `&T` become an owned [`ARef<T>`].
///
/// # Safety
///
/// - A reference taken with [`inc_ref`](Self::inc_ref) keeps the object in memory until the
///   matching [`dec_ref`](Self::dec_ref).
/// - Every instance is reference counted (one on the stack, say, could not be kept alive).
///
/// # Examples
///
/// ```
/// use core::{cell::Cell, ptr::NonNull};
/// use kernel_core::sync::aref::{ARef, AlwaysRefCounted};
///
/// struct Node {
///     refs: Cell<usize>,
/// }
///
/// // SAFETY: this example's nodes live in a `static`, for ever.
/// unsafe impl AlwaysRefCounted for Node {
///     fn inc_ref(&self) {
///         self.refs.set(self.refs.get() + 1);
///     }
///     unsafe fn dec_ref(obj: NonNull<Self>) {
///         // SAFETY: the caller holds a reference, so `obj` is alive.
///         let node = unsafe { obj.as_ref() };
///         node.refs.set(node.refs.get() - 1);
///     }
/// }
///
/// let node: &'static Node = Box::leak(Box::new(Node { refs: Cell::new(1) }));
/// let owned = ARef::from(node);
/// assert_eq!(node.refs.get(), 2);
/// drop(owned);
/// assert_eq!(node.refs.get(), 1);
/// ```
pub unsafe trait AlwaysRefCounted {
    /// Takes a reference.
    fn inc_ref(&self);

    /// Gives a reference back; frees the object when it was the last.
    ///
    /// # Safety
    ///
    /// The caller took the reference it gives back (with [`inc_ref`](Self::inc_ref), or
    /// otherwise owns it), and uses `obj` no more afterwards, unless it holds another
    /// reference.
    unsafe fn dec_ref(obj: NonNull<Self>);
}

/// One owned reference of an [`AlwaysRefCounted`] object: cloning takes another reference,
/// dropping gives this one back.
///
/// # Invariants
///
/// `ptr` points to a valid `T`, and this `ARef` owns one of its references.
///
/// # Examples
///
/// See [`AlwaysRefCounted`].
pub struct ARef<T: AlwaysRefCounted> {
    ptr: NonNull<T>,
    _p: PhantomData<T>,
}

// SAFETY: Sending an `ARef<T>` shares the `T` with the sender's other references (`T: Sync`),
// and the last reference may drop the `T` on the receiving thread (`T: Send`).
unsafe impl<T: AlwaysRefCounted + Sync + Send> Send for ARef<T> {}

// SAFETY: A shared `ARef<T>` gives `&T` (`T: Sync`), and can be cloned into an owned one on
// another thread, which may drop the `T` there (`T: Send`).
unsafe impl<T: AlwaysRefCounted + Sync + Send> Sync for ARef<T> {}

// The pointer moves, not the object: an `ARef` is `Unpin` even when `T` is not.
impl<T: AlwaysRefCounted> Unpin for ARef<T> {}

impl<T: AlwaysRefCounted> ARef<T> {
    /// The `ARef` that owns a reference the caller took already.
    ///
    /// # Safety
    ///
    /// The caller owns a reference of `*ptr` and hands it over: if it was its only one, it
    /// uses the object only through the new `ARef` from now on.
    ///
    /// # Examples
    ///
    /// ```
    /// use core::ptr::NonNull;
    /// use kernel_core::sync::aref::{ARef, AlwaysRefCounted};
    ///
    /// struct Static;
    ///
    /// // SAFETY: a `Static` lives for ever; its count is notional.
    /// unsafe impl AlwaysRefCounted for Static {
    ///     fn inc_ref(&self) {}
    ///     unsafe fn dec_ref(_obj: NonNull<Self>) {}
    /// }
    ///
    /// static S: Static = Static;
    /// S.inc_ref();
    /// // SAFETY: the reference taken just above is handed over.
    /// let s = unsafe { ARef::from_raw(NonNull::from(&S)) };
    /// assert_eq!(ARef::into_raw(s), NonNull::from(&S));
    /// ```
    #[inline]
    pub unsafe fn from_raw(ptr: NonNull<T>) -> Self {
        // INVARIANT: The caller hands over a reference of the valid `*ptr`.
        Self {
            ptr,
            _p: PhantomData,
        }
    }

    /// The object's pointer, with the reference this `ARef` owned: the caller gives it back
    /// later (with [`ARef::from_raw`] or [`AlwaysRefCounted::dec_ref`]).
    ///
    /// # Examples
    ///
    /// See [`ARef::from_raw`].
    #[inline]
    pub fn into_raw(me: Self) -> NonNull<T> {
        ManuallyDrop::new(me).ptr
    }
}

impl<T: AlwaysRefCounted> Clone for ARef<T> {
    fn clone(&self) -> Self {
        self.inc_ref();
        // SAFETY: The reference taken just above is handed over.
        unsafe { Self::from_raw(self.ptr) }
    }
}

impl<T: AlwaysRefCounted> Deref for ARef<T> {
    type Target = T;

    fn deref(&self) -> &Self::Target {
        // SAFETY: The `ARef` owns a reference, so the object is alive (type invariants).
        unsafe { self.ptr.as_ref() }
    }
}

/// Takes a reference of the borrowed object.
impl<T: AlwaysRefCounted> From<&T> for ARef<T> {
    fn from(b: &T) -> Self {
        b.inc_ref();
        // SAFETY: The reference taken just above is handed over.
        unsafe { Self::from_raw(NonNull::from(b)) }
    }
}

impl<T: AlwaysRefCounted> Drop for ARef<T> {
    fn drop(&mut self) {
        // SAFETY: The `ARef` owns the reference it gives back, and is not used afterwards.
        unsafe { T::dec_ref(self.ptr) };
    }
}

/// Compares the objects.
impl<T, U> PartialEq<ARef<U>> for ARef<T>
where
    T: AlwaysRefCounted + PartialEq<U>,
    U: AlwaysRefCounted,
{
    #[inline]
    fn eq(&self, other: &ARef<U>) -> bool {
        T::eq(&**self, &**other)
    }
}

impl<T: AlwaysRefCounted + Eq> Eq for ARef<T> {}

/// Compares the object with a borrowed one.
impl<T, U> PartialEq<&'_ U> for ARef<T>
where
    T: AlwaysRefCounted + PartialEq<U>,
{
    #[inline]
    fn eq(&self, other: &&U) -> bool {
        T::eq(&**self, other)
    }
}
