// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Reference-counted pointers: [`Arc`], [`ArcBorrow`] and [`UniqueArc`].
//!
//! Kernel counterpart: `rust/kernel/sync/arc.rs` (Linux 7.3). Like the kernel's, and unlike
//! `std`'s `Arc`:
//!
//! 1. the count is a [`Refcount`] (the kernel's `refcount_t`), which saturates instead of
//!    aborting when it overflows;
//! 2. there are no weak references (an `Arc` is one pointer to a count and the value);
//! 3. the value is pinned: an `Arc` never hands out `&mut T`, so a value with a lock in it
//!    can live in one (made with [`Arc::pin_init`](crate::init::InPlaceInit::pin_init));
//! 4. the memory comes from [`KBox`], with the allocation flags the caller gives.
//!
//! On the host, `Arc` and its relatives are kernel-core's own, over kernel-core's `KBox` (so
//! its allocations reach the allocation seam of `env/host/alloc`, with the caller's location).
//! Stable Rust cannot coerce a custom pointer, so `Arc<T>` does not become `Arc<dyn Trait>`
//! on the host, and methods cannot take `self: Arc<Self>` (the kernel builds with the
//! `CoercePointee` and `arbitrary_self_types` features): see the
//! [migration guide](crate::guide::migrating).

use core::alloc::Layout;
use core::borrow::{Borrow, BorrowMut};
use core::fmt;
use core::marker::PhantomData;
use core::mem::{ManuallyDrop, MaybeUninit};
use core::ops::{Deref, DerefMut};
use core::pin::Pin;
use core::ptr::NonNull;

use pin_init::{InPlaceWrite, Init, PinInit};

use crate::alloc::{AllocError, Flags, KBox};
use crate::init::InPlaceInit;
use crate::sync::Refcount;

/// A pointer to a `T` that counts its owners, and drops (and frees) the `T` with the last.
///
/// Cloning an `Arc` takes another reference; dropping one gives it back. The `T` is shared, so
/// an `Arc` gives `&T` only (interior mutability, a lock, makes it writable), and pinned.
///
/// # Invariants
///
/// The count is never 0 while an `Arc` exists, and the `T` is pinned.
///
/// # Examples
///
/// ```
/// use kernel_core::prelude::*;
/// use kernel_core::sync::Arc;
///
/// struct Example {
///     a: u32,
///     b: u32,
/// }
///
/// let obj = Arc::new(Example { a: 10, b: 20 }, GFP_KERNEL)?;
/// let cloned = obj.clone(); // one more reference
/// assert!(core::ptr::eq(&*obj, &*cloned));
/// drop(obj); // one less: `cloned` still holds the value
/// assert_eq!(cloned.a + cloned.b, 30);
/// // The last reference goes with `cloned`, and the memory with it.
/// # Ok::<(), Error>(())
/// ```
///
/// A value with a lock in it, initialised in place:
///
/// ```
/// use kernel_core::prelude::*;
/// use kernel_core::sync::{new_mutex, Arc, Mutex};
///
/// let shared: Arc<Mutex<u32>> = Arc::pin_init(new_mutex!(0), GFP_KERNEL)?;
/// let other = shared.clone();
/// *other.lock() += 1;
/// assert_eq!(*shared.lock(), 1);
/// # Ok::<(), Error>(())
/// ```
#[repr(transparent)]
pub struct Arc<T: ?Sized> {
    ptr: NonNull<ArcInner<T>>,
    // Tells the drop checker that dropping an `Arc<T>` may drop an `ArcInner<T>`.
    _p: PhantomData<ArcInner<T>>,
}

/// What an [`Arc`] points to: the count, then the value.
#[repr(C)]
struct ArcInner<T: ?Sized> {
    refcount: Refcount,
    data: T,
}

impl<T: ?Sized> ArcInner<T> {
    /// The `ArcInner` whose `data` is at `ptr`.
    ///
    /// # Safety
    ///
    /// `ptr` came from [`Arc::into_raw`] or [`Arc::as_ptr`] of an `Arc` whose value is still
    /// alive.
    unsafe fn container_of(ptr: *const T) -> NonNull<ArcInner<T>> {
        // SAFETY: The caller promises `ptr` points to a live `T`.
        let data = Layout::for_value(unsafe { &*ptr });
        // SAFETY: The same layout computation made `ArcInner<T>`'s, so it did not overflow.
        let offset = unsafe { Layout::new::<Refcount>().extend(data).unwrap_unchecked().1 };
        // `data` is the last field: a pointer to the struct has the value's metadata.
        let inner = ptr as *const ArcInner<T>;
        // SAFETY: `offset` bytes back from the value is the start of its `ArcInner`, in the
        // same allocation.
        let inner = unsafe { inner.byte_sub(offset) };
        // SAFETY: The start of a live allocation is not null.
        unsafe { NonNull::new_unchecked(inner.cast_mut()) }
    }
}

// SAFETY: Sending an `Arc<T>` shares the `T` with the other references (`T: Sync`), and the last
// one may drop the `T` on the receiving thread (`T: Send`).
unsafe impl<T: ?Sized + Sync + Send> Send for Arc<T> {}

// SAFETY: A shared `Arc<T>` gives `&T` (`T: Sync`), and can be cloned into an owned one on
// another thread, which may drop the `T` there (`T: Send`).
unsafe impl<T: ?Sized + Sync + Send> Sync for Arc<T> {}

impl<T> InPlaceInit<T> for Arc<T> {
    type PinnedSelf = Self;

    #[inline]
    fn try_pin_init<E>(init: impl PinInit<T, E>, flags: Flags) -> Result<Self::PinnedSelf, E>
    where
        E: From<AllocError>,
    {
        UniqueArc::try_pin_init(init, flags).map(|u| u.into())
    }

    #[inline]
    fn try_init<E>(init: impl Init<T, E>, flags: Flags) -> Result<Self, E>
    where
        E: From<AllocError>,
    {
        UniqueArc::try_init(init, flags).map(|u| u.into())
    }
}

impl<T> Arc<T> {
    /// Allocates a count of 1 and `contents` with `flags`.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::prelude::*;
    /// use kernel_core::sync::Arc;
    ///
    /// let answer = Arc::new(42_u64, GFP_KERNEL)?;
    /// assert_eq!(*answer, 42);
    /// # Ok::<(), Error>(())
    /// ```
    #[track_caller]
    pub fn new(contents: T, flags: Flags) -> Result<Self, AllocError> {
        // INVARIANT: A count of 1, owned by the new `Arc`.
        let inner = KBox::new(
            ArcInner {
                refcount: Refcount::new(1),
                data: contents,
            },
            flags,
        )?;
        // SAFETY: A fresh allocation with a count of 1, handed to the `Arc`.
        Ok(unsafe { Self::from_inner(KBox::leak(inner).into()) })
    }

    /// Where the value is, from the start of the allocation.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::sync::Arc;
    ///
    /// // After the count (a 32-bit `refcount_t`), at the value's alignment.
    /// assert_eq!(Arc::<u64>::DATA_OFFSET, core::mem::align_of::<u64>().max(4));
    /// ```
    pub const DATA_OFFSET: usize = core::mem::offset_of!(ArcInner<T>, data);
}

impl<T: ?Sized> Arc<T> {
    /// The `Arc` of an allocation.
    ///
    /// # Safety
    ///
    /// `inner` points to a live `ArcInner` with a count that is not 0, one of which the new
    /// `Arc` owns.
    #[inline]
    unsafe fn from_inner(inner: NonNull<ArcInner<T>>) -> Self {
        // INVARIANT: The caller's promise.
        Arc {
            ptr: inner,
            _p: PhantomData,
        }
    }

    /// The pointer to the value, with this `Arc`'s reference: [`Arc::from_raw`] takes it back.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::prelude::*;
    /// use kernel_core::sync::Arc;
    ///
    /// let raw: *const u32 = Arc::new(7_u32, GFP_KERNEL)?.into_raw();
    /// // SAFETY: `raw` comes from `into_raw`, once.
    /// let back = unsafe { Arc::from_raw(raw) };
    /// assert_eq!(*back, 7);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn into_raw(self) -> *const T {
        let ptr = ManuallyDrop::new(self).ptr.as_ptr();
        // SAFETY: `ptr` points to a live `ArcInner<T>`; this only computes the field's address.
        unsafe { core::ptr::addr_of!((*ptr).data) }
    }

    /// The pointer to the value; the `Arc` keeps its reference.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::prelude::*;
    /// use kernel_core::sync::Arc;
    ///
    /// let a = Arc::new(3_i16, GFP_KERNEL)?;
    /// assert!(core::ptr::eq(Arc::as_ptr(&a), &*a));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn as_ptr(this: &Self) -> *const T {
        let ptr = this.ptr.as_ptr();
        // SAFETY: `ptr` points to a live `ArcInner<T>`; this only computes the field's address.
        unsafe { core::ptr::addr_of!((*ptr).data) }
    }

    /// The `Arc` of a pointer that [`Arc::into_raw`] made, with the reference it carried.
    ///
    /// # Safety
    ///
    /// `ptr` came from [`Arc::into_raw`], and each such pointer is given back once.
    ///
    /// # Examples
    ///
    /// See [`Arc::into_raw`].
    pub unsafe fn from_raw(ptr: *const T) -> Self {
        // SAFETY: The caller promises `ptr` came from `into_raw`, so its value is alive.
        let inner = unsafe { ArcInner::container_of(ptr) };
        // SAFETY: The reference `into_raw` kept is handed over.
        unsafe { Self::from_inner(inner) }
    }

    /// An [`ArcBorrow`] of this `Arc`: a reference that can become an `Arc` again, without the
    /// double indirection of `&Arc<T>`.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::prelude::*;
    /// use kernel_core::sync::{Arc, ArcBorrow};
    ///
    /// fn keep(b: ArcBorrow<'_, u32>) -> Arc<u32> {
    ///     b.into()
    /// }
    /// let a = Arc::new(1_u32, GFP_KERNEL)?;
    /// let kept = keep(a.as_arc_borrow());
    /// assert!(Arc::ptr_eq(&a, &kept));
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn as_arc_borrow(&self) -> ArcBorrow<'_, T> {
        // SAFETY: `self` is borrowed for the `ArcBorrow`'s lifetime, so the value stays alive,
        // and an `Arc` never gives `&mut`.
        unsafe { ArcBorrow::new(self.ptr) }
    }

    /// Whether both point to the same allocation.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::prelude::*;
    /// use kernel_core::sync::Arc;
    ///
    /// let a = Arc::new(5, GFP_KERNEL)?;
    /// let b = Arc::new(5, GFP_KERNEL)?;
    /// assert!(Arc::ptr_eq(&a, &a.clone()));
    /// assert!(!Arc::ptr_eq(&a, &b));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn ptr_eq(this: &Self, other: &Self) -> bool {
        core::ptr::eq(this.ptr.as_ptr(), other.ptr.as_ptr())
    }

    /// This `Arc` as a [`UniqueArc`] if it is the only reference; otherwise drops it, and
    /// returns `None`.
    ///
    /// Never runs the value's destructor, even when another `Arc` is dropped concurrently: one
    /// of the two sees itself as the last, and only that one gets the value.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::prelude::*;
    /// use kernel_core::sync::Arc;
    ///
    /// let arc = Arc::new(42, GFP_KERNEL)?;
    /// let other = arc.clone();
    /// // Not unique: dropped.
    /// assert!(Arc::into_unique_or_drop(arc).is_none());
    /// // Now it is.
    /// let unique = Arc::into_unique_or_drop(other).expect("the last reference");
    /// assert_eq!(*unique, 42);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn into_unique_or_drop(this: Self) -> Option<Pin<UniqueArc<T>>> {
        // The count is handled here: no drop of `this`.
        let this = ManuallyDrop::new(this);
        // SAFETY: `this` holds a reference, so the `ArcInner` is alive.
        let refcount = unsafe { &this.ptr.as_ref().refcount };

        // Down to 0: no other `Arc` is left, and none can appear (they are made from `Arc`s);
        // the count goes back to 1 for the `UniqueArc`. Otherwise, another reference will free
        // it, and this one is gone.
        if refcount.dec_and_test() {
            refcount.set(1);
            // INVARIANT: The only reference. Pinned, since the value was in an `Arc`.
            Some(Pin::from(UniqueArc {
                inner: ManuallyDrop::into_inner(this),
            }))
        } else {
            None
        }
    }
}

/// An `Arc` of `dyn Any`, with the value's type checked: the `Arc<T>` if it holds a `T`.
///
/// (On the host, stable Rust cannot make an `Arc<dyn Any + Send + Sync>` of an `Arc<T>`; the
/// method is here for code that names it.)
impl Arc<dyn core::any::Any + Send + Sync> {
    /// The `Arc<T>` if the value is a `T`, else `self` back.
    ///
    /// # Examples
    ///
    /// ```
    /// use core::any::Any;
    /// use kernel_core::sync::Arc;
    ///
    /// fn as_u32(a: Arc<dyn Any + Send + Sync>) -> Option<Arc<u32>> {
    ///     a.downcast::<u32>().ok()
    /// }
    /// # let _ = as_u32;
    /// ```
    pub fn downcast<T>(self) -> core::result::Result<Arc<T>, Self>
    where
        T: core::any::Any + Send + Sync,
    {
        if (*self).is::<T>() {
            let ptr = ManuallyDrop::new(self).ptr.cast::<ArcInner<T>>();
            // SAFETY: The value is a `T` (checked above), so this is an `ArcInner<T>`; its
            // reference moves to the new `Arc`.
            Ok(unsafe { Arc::from_inner(ptr) })
        } else {
            Err(self)
        }
    }
}

// An `Arc` is a pointer: moving it never moves the value, which stays pinned. The kernel's
// `Arc` is `Unpin` whatever `T` (its `ArcInner` is `#[pin_data]` with an unpinned `data`), so a
// lock's guard of a struct holding `Arc`s of `!Unpin` values (a `List` of them) gives `&mut`.
impl<T: ?Sized> Unpin for Arc<T> {}

impl<T: ?Sized> Deref for Arc<T> {
    type Target = T;

    fn deref(&self) -> &Self::Target {
        // SAFETY: The `Arc` holds a reference, so the value is alive; it is never borrowed
        // mutably while an `Arc` exists.
        unsafe { &self.ptr.as_ref().data }
    }
}

impl<T: ?Sized> AsRef<T> for Arc<T> {
    fn as_ref(&self) -> &T {
        self.deref()
    }
}

/// # Examples
///
/// ```
/// use core::borrow::Borrow;
/// use kernel_core::prelude::*;
/// use kernel_core::sync::Arc;
///
/// struct Foo<B: Borrow<u32>>(B);
///
/// let owned = Foo(1);
/// let shared = Foo(Arc::new(1, GFP_KERNEL)?);
/// let i = 1;
/// let borrowed = Foo(&i);
/// assert_eq!(*owned.0.borrow(), *shared.0.borrow());
/// # let _ = borrowed;
/// # Ok::<(), Error>(())
/// ```
impl<T: ?Sized> Borrow<T> for Arc<T> {
    fn borrow(&self) -> &T {
        self.deref()
    }
}

impl<T: ?Sized> Clone for Arc<T> {
    fn clone(&self) -> Self {
        // INVARIANT: The count saturates rather than wrap to 0.
        // SAFETY: `self` holds a reference, so the `ArcInner` is alive.
        unsafe { self.ptr.as_ref() }.refcount.inc();
        // SAFETY: The reference taken just above goes to the new `Arc`.
        unsafe { Self::from_inner(self.ptr) }
    }
}

impl<T: ?Sized> Drop for Arc<T> {
    fn drop(&mut self) {
        // INVARIANT: If this was the last reference, no `Arc` is left to see a count of 0.
        // SAFETY: `self` holds a reference, so the `ArcInner` is alive.
        let last = unsafe { self.ptr.as_ref() }.refcount.dec_and_test();
        if last {
            // SAFETY: The allocation came from `KBox::leak` (in `new`, or `new_uninit`), and
            // nothing refers to it any more.
            unsafe { drop(KBox::from_raw(self.ptr.as_ptr())) };
        }
    }
}

impl<T: ?Sized> From<UniqueArc<T>> for Arc<T> {
    fn from(item: UniqueArc<T>) -> Self {
        item.inner
    }
}

impl<T: ?Sized> From<Pin<UniqueArc<T>>> for Arc<T> {
    fn from(item: Pin<UniqueArc<T>>) -> Self {
        // SAFETY: An `Arc` keeps its value pinned too.
        unsafe { Pin::into_inner_unchecked(item).inner }
    }
}

/// A borrowed [`Arc`]: a `&T` that can become an `Arc<T>` again (taking a reference), at the
/// cost of one pointer, not the two of a `&Arc<T>`.
///
/// # Invariants
///
/// The `Arc`'s value stays alive, and is not borrowed mutably, for `'a`.
///
/// # Examples
///
/// ```
/// use kernel_core::prelude::*;
/// use kernel_core::sync::{Arc, ArcBorrow};
///
/// struct Example;
///
/// fn do_something(e: ArcBorrow<'_, Example>) -> Arc<Example> {
///     e.into()
/// }
///
/// let obj = Arc::new(Example, GFP_KERNEL)?;
/// let cloned = do_something(obj.as_arc_borrow());
/// assert!(core::ptr::eq(&*obj, &*cloned));
/// # Ok::<(), Error>(())
/// ```
#[repr(transparent)]
pub struct ArcBorrow<'a, T: ?Sized + 'a> {
    inner: NonNull<ArcInner<T>>,
    _p: PhantomData<&'a ()>,
}

impl<T: ?Sized> Clone for ArcBorrow<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: ?Sized> Copy for ArcBorrow<'_, T> {}

impl<T: ?Sized> ArcBorrow<'_, T> {
    /// The borrow of an `ArcInner`.
    ///
    /// # Safety
    ///
    /// For the borrow's lifetime, `inner` stays alive and is not borrowed mutably.
    #[inline]
    unsafe fn new(inner: NonNull<ArcInner<T>>) -> Self {
        // INVARIANT: The caller's promise.
        Self {
            inner,
            _p: PhantomData,
        }
    }

    /// The borrow of the value at `ptr`, from [`Arc::into_raw`] or [`Arc::as_ptr`].
    ///
    /// # Safety
    ///
    /// - `ptr` came from [`Arc::into_raw`] or [`Arc::as_ptr`];
    /// - the count does not reach 0 for the borrow's lifetime;
    /// - no [`UniqueArc`] of the value exists for the borrow's lifetime.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::prelude::*;
    /// use kernel_core::sync::{Arc, ArcBorrow};
    ///
    /// let a = Arc::new(11_u8, GFP_KERNEL)?;
    /// // SAFETY: from `as_ptr`, and `a` outlives the borrow.
    /// let b = unsafe { ArcBorrow::from_raw(Arc::as_ptr(&a)) };
    /// assert_eq!(*b, 11);
    /// # Ok::<(), Error>(())
    /// ```
    pub unsafe fn from_raw(ptr: *const T) -> Self {
        // SAFETY: The caller promises `ptr` came from a live `Arc`.
        let inner = unsafe { ArcInner::container_of(ptr) };
        // SAFETY: The caller promises the value stays alive and is not borrowed mutably (that
        // would take a `UniqueArc`).
        unsafe { Self::new(inner) }
    }
}

/// Takes a reference.
impl<T: ?Sized> From<ArcBorrow<'_, T>> for Arc<T> {
    fn from(b: ArcBorrow<'_, T>) -> Self {
        // SAFETY: `b` proves the count is not 0. The temporary `Arc` is never dropped, so it
        // needs no reference of its own: its clone takes one.
        ManuallyDrop::new(unsafe { Arc::from_inner(b.inner) })
            .deref()
            .clone()
    }
}

impl<T: ?Sized> Deref for ArcBorrow<'_, T> {
    type Target = T;

    fn deref(&self) -> &Self::Target {
        // SAFETY: Alive and not borrowed mutably for the borrow's lifetime (type invariants).
        unsafe { &self.inner.as_ref().data }
    }
}

/// An [`Arc`] known to be the only reference: its value can be changed (and initialised), and
/// it becomes a shared `Arc` with `into()`, which cannot fail.
///
/// # Invariants
///
/// The count is 1.
///
/// # Examples
///
/// Changed, then shared:
///
/// ```
/// use kernel_core::prelude::*;
/// use kernel_core::sync::{Arc, UniqueArc};
///
/// struct Example {
///     a: u32,
///     b: u32,
/// }
///
/// fn test() -> Result<Arc<Example>> {
///     let mut x = UniqueArc::new(Example { a: 10, b: 20 }, GFP_KERNEL)?;
///     x.a += 1;
///     x.b += 1;
///     Ok(x.into())
/// }
/// # assert_eq!(test()?.a, 11);
/// # Ok::<(), Error>(())
/// ```
///
/// Allocated in one place (where sleeping is allowed), written in another (an atomic one):
///
/// ```
/// use kernel_core::prelude::*;
/// use kernel_core::sync::{Arc, UniqueArc};
///
/// let slot = UniqueArc::<[u8; 4]>::new_uninit(GFP_KERNEL)?;
/// let shared: Arc<[u8; 4]> = slot.write([1, 2, 3, 4]).into();
/// assert_eq!(shared[3], 4);
/// # Ok::<(), Error>(())
/// ```
pub struct UniqueArc<T: ?Sized> {
    inner: Arc<T>,
}

impl<T> InPlaceInit<T> for UniqueArc<T> {
    type PinnedSelf = Pin<Self>;

    #[inline]
    fn try_pin_init<E>(init: impl PinInit<T, E>, flags: Flags) -> Result<Self::PinnedSelf, E>
    where
        E: From<AllocError>,
    {
        UniqueArc::new_uninit(flags)?.write_pin_init(init)
    }

    #[inline]
    fn try_init<E>(init: impl Init<T, E>, flags: Flags) -> Result<Self, E>
    where
        E: From<AllocError>,
    {
        UniqueArc::new_uninit(flags)?.write_init(init)
    }
}

impl<T> InPlaceWrite<T> for UniqueArc<MaybeUninit<T>> {
    type Initialized = UniqueArc<T>;

    #[inline]
    fn write_init<E>(mut self, init: impl Init<T, E>) -> Result<Self::Initialized, E> {
        let slot = self.as_mut_ptr();
        // SAFETY: `slot` is valid for writes; on an error the allocation is freed with `self`
        // without dropping the (uninitialised) value.
        unsafe { pin_init::raw_try_init(slot, init)? };
        // SAFETY: Initialised just above.
        Ok(unsafe { self.assume_init() })
    }

    #[inline]
    fn write_pin_init<E>(mut self, init: impl PinInit<T, E>) -> Result<Pin<Self::Initialized>, E> {
        let slot = self.as_mut_ptr();
        // SAFETY: `slot` is valid for writes, and the value is pinned below, never moved; on an
        // error the allocation is freed with `self` without dropping the value.
        unsafe { pin_init::raw_try_init(slot, init)? };
        // SAFETY: Initialised just above.
        Ok(unsafe { self.assume_init() }.into())
    }
}

impl<T> UniqueArc<T> {
    /// Allocates a count of 1 and `value` with `flags`.
    ///
    /// # Examples
    ///
    /// See [`UniqueArc`].
    #[track_caller]
    pub fn new(value: T, flags: Flags) -> Result<Self, AllocError> {
        Ok(Self {
            // INVARIANT: A new `Arc` has a count of 1.
            inner: Arc::new(value, flags)?,
        })
    }

    /// Allocates a count of 1 and room for a `T`, not initialised yet.
    ///
    /// # Examples
    ///
    /// See [`UniqueArc`].
    #[track_caller]
    pub fn new_uninit(flags: Flags) -> Result<UniqueArc<MaybeUninit<T>>, AllocError> {
        // SAFETY: The closure writes the count, and a `MaybeUninit<T>` needs nothing written;
        // it cannot fail, and relies on no pinning.
        let init = unsafe {
            pin_init::init_from_closure(|slot: *mut ArcInner<MaybeUninit<T>>| {
                // INVARIANT: A count of 1.
                core::ptr::addr_of_mut!((*slot).refcount).write(Refcount::new(1));
                Ok::<(), AllocError>(())
            })
        };
        let inner = KBox::try_init::<AllocError>(init, flags)?;
        Ok(UniqueArc {
            // INVARIANT: A count of 1, owned by the new `UniqueArc`.
            // SAFETY: A fresh allocation with a count of 1.
            inner: unsafe { Arc::from_inner(KBox::leak(inner).into()) },
        })
    }
}

impl<T: ?Sized> UniqueArc<T> {
    /// The pointer to the value.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::prelude::*;
    /// use kernel_core::sync::UniqueArc;
    ///
    /// let u = UniqueArc::new(2_u8, GFP_KERNEL)?;
    /// assert!(core::ptr::eq(UniqueArc::as_ptr(&u), &*u));
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn as_ptr(this: &Self) -> *const T {
        Arc::as_ptr(&this.inner)
    }
}

impl<T> UniqueArc<MaybeUninit<T>> {
    /// Writes `value` into the memory, which becomes a `UniqueArc<T>`.
    ///
    /// # Examples
    ///
    /// See [`UniqueArc`].
    pub fn write(mut self, value: T) -> UniqueArc<T> {
        self.deref_mut().write(value);
        // SAFETY: Initialised just above.
        unsafe { self.assume_init() }
    }

    /// The `UniqueArc<T>` of memory the caller initialised.
    ///
    /// # Safety
    ///
    /// The value is initialised: calling this otherwise is immediately undefined behaviour.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::prelude::*;
    /// use kernel_core::sync::UniqueArc;
    ///
    /// let mut u = UniqueArc::<u32>::new_uninit(GFP_KERNEL)?;
    /// (*u).write(9); // `MaybeUninit::write`, through `DerefMut`
    /// // SAFETY: written just above.
    /// let u = unsafe { u.assume_init() };
    /// assert_eq!(*u, 9);
    /// # Ok::<(), Error>(())
    /// ```
    pub unsafe fn assume_init(self) -> UniqueArc<T> {
        let inner = ManuallyDrop::new(self).inner.ptr;
        UniqueArc {
            // SAFETY: The new `Arc` takes the reference of `self`, which is not dropped;
            // `MaybeUninit<T>` has `T`'s layout, and the caller promises it holds a `T`.
            inner: unsafe { Arc::from_inner(inner.cast()) },
        }
    }

    /// Initialises the value with `init`: the `UniqueArc<T>`, or `init`'s error (the memory is
    /// freed with `self`).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::prelude::*;
    /// use kernel_core::sync::UniqueArc;
    ///
    /// let u = UniqueArc::<[u16; 2]>::new_uninit(GFP_KERNEL)?.init_with([3_u16; 2]);
    /// let Ok(u) = u;
    /// assert_eq!(*u, [3, 3]);
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn init_with<E>(mut self, init: impl Init<T, E>) -> core::result::Result<UniqueArc<T>, E> {
        // SAFETY: The memory is valid for writes.
        match unsafe { pin_init::raw_try_init(self.as_mut_ptr(), init) } {
            // SAFETY: Initialised.
            Ok(()) => Ok(unsafe { self.assume_init() }),
            Err(err) => Err(err),
        }
    }

    /// Initialises the value, pinned, with `init`: the pinned `UniqueArc<T>`, or `init`'s error
    /// (the memory is freed with `self`).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::prelude::*;
    /// use kernel_core::sync::{new_spinlock, SpinLock, UniqueArc};
    ///
    /// let u = UniqueArc::<SpinLock<u8>>::new_uninit(GFP_KERNEL)?.pin_init_with(new_spinlock!(1));
    /// let Ok(u) = u;
    /// assert_eq!(*u.lock(), 1);
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn pin_init_with<E>(
        mut self,
        init: impl PinInit<T, E>,
    ) -> core::result::Result<Pin<UniqueArc<T>>, E> {
        // SAFETY: The memory is valid for writes, and pinned below (the value never moves).
        match unsafe { pin_init::raw_try_init(self.as_mut_ptr(), init) } {
            // SAFETY: Initialised.
            Ok(()) => Ok(unsafe { self.assume_init() }.into()),
            Err(err) => Err(err),
        }
    }
}

impl<T: ?Sized> From<UniqueArc<T>> for Pin<UniqueArc<T>> {
    fn from(obj: UniqueArc<T>) -> Self {
        // SAFETY: A `Pin<UniqueArc<T>>` gives `&mut T` only if `T: Unpin`, so the value cannot
        // be moved out of it.
        unsafe { Pin::new_unchecked(obj) }
    }
}

impl<T: ?Sized> Deref for UniqueArc<T> {
    type Target = T;

    fn deref(&self) -> &Self::Target {
        self.inner.deref()
    }
}

impl<T: ?Sized> DerefMut for UniqueArc<T> {
    fn deref_mut(&mut self) -> &mut Self::Target {
        // SAFETY: The value is alive (the `Arc` holds a reference), and the count is 1, so this
        // `&mut self` is the only way to it.
        unsafe { &mut self.inner.ptr.as_mut().data }
    }
}

/// # Examples
///
/// ```
/// use core::borrow::Borrow;
/// use kernel_core::prelude::*;
/// use kernel_core::sync::UniqueArc;
///
/// struct Foo<B: Borrow<u32>>(B);
///
/// fn get<B: Borrow<u32>>(foo: &Foo<B>) -> u32 {
///     *foo.0.borrow()
/// }
/// let shared = Foo(UniqueArc::new(1, GFP_KERNEL)?);
/// assert_eq!(get(&shared), 1);
/// # Ok::<(), Error>(())
/// ```
impl<T: ?Sized> Borrow<T> for UniqueArc<T> {
    fn borrow(&self) -> &T {
        self.deref()
    }
}

/// # Examples
///
/// ```
/// use core::borrow::BorrowMut;
/// use kernel_core::prelude::*;
/// use kernel_core::sync::UniqueArc;
///
/// struct Foo<B: BorrowMut<u32>>(B);
///
/// fn bump<B: BorrowMut<u32>>(foo: &mut Foo<B>) {
///     *foo.0.borrow_mut() += 1;
/// }
/// let mut unique = Foo(UniqueArc::new(1, GFP_KERNEL)?);
/// bump(&mut unique);
/// assert_eq!(*unique.0, 2);
/// # Ok::<(), Error>(())
/// ```
impl<T: ?Sized> BorrowMut<T> for UniqueArc<T> {
    fn borrow_mut(&mut self) -> &mut T {
        self.deref_mut()
    }
}

// The kernel's `Display` (`kernel::fmt::Display`), as Linux 7.3's `Arc` and `UniqueArc`
// implement it, which `{}` in `fmt!` and `pr_*!` reads; not `core`'s, which they do not have.
impl<T: crate::fmt::Display + ?Sized> crate::fmt::Display for UniqueArc<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::fmt::Display::fmt(self.deref(), f)
    }
}

impl<T: crate::fmt::Display + ?Sized> crate::fmt::Display for Arc<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::fmt::Display::fmt(self.deref(), f)
    }
}

impl<T: fmt::Debug + ?Sized> fmt::Debug for UniqueArc<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.deref(), f)
    }
}

impl<T: fmt::Debug + ?Sized> fmt::Debug for Arc<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.deref(), f)
    }
}
