// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! [`ListArc`]: the one [`Arc`] of a value (per list id) that may put it in a list, and the
//! tracking that makes it the one: [`ListArcSafe`], [`TryNewListArc`], [`AtomicTracker`] and
//! `impl_list_arc_safe!`.

use core::marker::PhantomPinned;
use core::mem::ManuallyDrop;
use core::ops::Deref;
use core::pin::Pin;
use core::ptr;

use pin_init::{Init, PinInit};

use crate::alloc::{AllocError, Flags};
use crate::build_assert::build_assert;
use crate::init::InPlaceInit;
use crate::sync::atomic::{ordering, AtomicFlag};
use crate::sync::{Arc, ArcBorrow, UniqueArc};

/// A type that keeps track of whether a [`ListArc<Self, ID>`](ListArc) exists, so that there
/// is never more than one: "the tracking inside `T`".
///
/// The tracking may believe a `ListArc` exists when none does (then making one fails when it
/// could have succeeded, which is safe), never the other way round (then two could be made,
/// and two lists would write the same links). So a type may track nothing at all and always
/// believe that a `ListArc` exists: its `ListArc`s can then only be made from a [`UniqueArc`],
/// when no other reference to the value exists. That is `impl_list_arc_safe!`'s `untracked`;
/// its `tracked_by` hands the tracking to a field, usually an [`AtomicTracker`].
///
/// # Examples
///
/// ```
/// use kernel_core::list::{impl_list_arc_safe, ListArc, ListArcSafe};
/// use kernel_core::prelude::*;
///
/// struct Token(u32);
/// impl_list_arc_safe! {
///     impl ListArcSafe<0> for Token { untracked; }
/// }
///
/// fn listable<T: ListArcSafe>() {}
/// listable::<Token>();
/// let token = ListArc::<Token>::new(Token(3), GFP_KERNEL)?;
/// assert_eq!(token.0, 3);
/// # Ok::<(), Error>(())
/// ```
pub trait ListArcSafe<const ID: u64 = 0> {
    /// Tells the tracking that a [`ListArc`] was made from a [`UniqueArc`] of the value.
    ///
    /// It may be called while the tracking believes a `ListArc` exists (but none does).
    ///
    /// # Safety
    ///
    /// No [`ListArc`] of the value exists.
    unsafe fn on_create_list_arc_from_unique(self: Pin<&mut Self>);

    /// Tells the tracking that the value's [`ListArc`] is gone.
    ///
    /// # Safety
    ///
    /// No [`ListArc`] of the value exists, and the tracking believes one does.
    unsafe fn on_drop_list_arc(&self);
}

/// A [`ListArcSafe`] type whose tracking can tell, at any time, whether a [`ListArc`] exists:
/// then one can be made from a shared [`Arc`] ([`ListArc::try_from_arc`]).
///
/// # Safety
///
/// `try_new_list_arc` keeps the promise of its "Guarantees" section.
///
/// # Examples
///
/// ```
/// use kernel_core::list::{impl_list_arc_safe, AtomicTracker, ListArc, TryNewListArc};
/// use kernel_core::prelude::*;
///
/// #[pin_data]
/// struct Job {
///     #[pin]
///     tracker: AtomicTracker,
/// }
/// impl_list_arc_safe! {
///     impl ListArcSafe<0> for Job { tracked_by tracker: AtomicTracker; }
/// }
///
/// let job = ListArc::pin_init(try_pin_init!(Job { tracker <- AtomicTracker::new() }), GFP_KERNEL)?;
/// // The tracking knows the `ListArc` exists: no second one.
/// assert!(!job.try_new_list_arc());
/// let arc = job.into_arc();
/// // Gone: one can be made again.
/// let again = ListArc::<Job>::try_from_arc(arc).ok().expect("no ListArc");
/// # let _ = again;
/// # Ok::<(), Error>(())
/// ```
pub unsafe trait TryNewListArc<const ID: u64 = 0>: ListArcSafe<ID> {
    /// Marks a [`ListArc`] as existing if none does: `true` if so. Call
    /// [`ListArc::try_from_arc`] rather than this.
    ///
    /// # Guarantees
    ///
    /// If it returns `true`, no [`ListArc`] of the value existed, and the tracking went from
    /// believing none exists to believing one does.
    fn try_new_list_arc(&self) -> bool;
}

/// Implements [`ListArcSafe`] for a type, with one of two kinds of tracking:
///
/// - `untracked;`: none. The type's [`ListArc`]s can only be made from a [`UniqueArc`] (the
///   tracking always believes one exists).
/// - `tracked_by field: FieldType;`: by a field that implements [`ListArcSafe`] (usually an
///   [`AtomicTracker`]), which must be structurally pinned (`#[pin]` in a `#[pin_data]`
///   struct). If the field's type implements [`TryNewListArc`], so does the type (the macro
///   names `TryNewListArc` as written, so it must be in scope, as it must in the kernel).
///
/// Generic parameters go in braces after `impl`; several impls go in one invocation.
///
/// # Examples
///
/// ```
/// use kernel_core::list::{impl_list_arc_safe, AtomicTracker, ListArc, TryNewListArc};
/// use kernel_core::prelude::*;
/// use kernel_core::sync::Arc;
///
/// struct Plain;
///
/// #[pin_data]
/// struct Wrapper<T: ?Sized> {
///     #[pin]
///     tracker: AtomicTracker<1>,
///     inner: T,
/// }
///
/// impl_list_arc_safe! {
///     impl ListArcSafe<0> for Plain { untracked; }
///     impl{T: ?Sized} ListArcSafe<1> for Wrapper<T> { tracked_by tracker: AtomicTracker<1>; }
/// }
///
/// let w: Arc<Wrapper<u8>> = Arc::pin_init(
///     pin_init!(Wrapper { tracker <- AtomicTracker::new(), inner: 1_u8 }),
///     GFP_KERNEL,
/// )?;
/// let first = ListArc::<_, 1>::try_from_arc(w.clone()).ok().expect("none yet");
/// assert!(ListArc::<_, 1>::try_from_arc(w.clone()).is_err());
/// drop(first);
/// assert!(ListArc::<_, 1>::try_from_arc(w).is_ok());
/// # Ok::<(), Error>(())
/// ```
#[doc(hidden)]
#[macro_export]
macro_rules! __kernel_core_impl_list_arc_safe {
    (impl$({$($generics:tt)*})? ListArcSafe<$num:tt> for $t:ty { untracked; } $($rest:tt)*) => {
        impl$(<$($generics)*>)? $crate::list::ListArcSafe<$num> for $t {
            unsafe fn on_create_list_arc_from_unique(self: ::core::pin::Pin<&mut Self>) {}
            unsafe fn on_drop_list_arc(&self) {}
        }
        $crate::list::impl_list_arc_safe! { $($rest)* }
    };

    (impl$({$($generics:tt)*})? ListArcSafe<$num:tt> for $t:ty {
        tracked_by $field:ident : $fty:ty;
    } $($rest:tt)*) => {
        impl$(<$($generics)*>)? $crate::list::ListArcSafe<$num> for $t {
            unsafe fn on_create_list_arc_from_unique(self: ::core::pin::Pin<&mut Self>) {
                ::pin_init::assert_pinned!($t, $field, $fty, inline);

                // SAFETY: The field is structurally pinned (asserted above).
                let field = unsafe {
                    ::core::pin::Pin::map_unchecked_mut(self, |me| &mut me.$field)
                };
                // SAFETY: The caller promises that no `ListArc` exists.
                unsafe {
                    <$fty as $crate::list::ListArcSafe<$num>>::on_create_list_arc_from_unique(field)
                };
            }

            unsafe fn on_drop_list_arc(&self) {
                // SAFETY: The caller promises that no `ListArc` exists and that the tracking,
                // which is the field's, believes one does.
                unsafe { <$fty as $crate::list::ListArcSafe<$num>>::on_drop_list_arc(&self.$field) };
            }
        }

        // SAFETY: The field's `try_new_list_arc` keeps the promise, and it is the tracking.
        unsafe impl$(<$($generics)*>)? $crate::list::TryNewListArc<$num> for $t
        where
            $fty: TryNewListArc<$num>,
        {
            fn try_new_list_arc(&self) -> bool {
                <$fty as $crate::list::TryNewListArc<$num>>::try_new_list_arc(&self.$field)
            }
        }
        $crate::list::impl_list_arc_safe! { $($rest)* }
    };

    () => {};
}

pub use crate::__kernel_core_impl_list_arc_safe as impl_list_arc_safe;

/// The [`Arc`] of a value that may put it in a [`List<_, ID>`](super::List): a value has at
/// most one `ListArc` per `ID`.
///
/// A list's links are written by whoever holds the value's `ListArc`, and a [`List`] owns the
/// `ListArc` of each of its elements; since there is one `ListArc` (for the `ID`), that is one
/// list at a time. Plain `Arc`s of the value may exist besides it, and read the value.
///
/// The simplest way to make one is from a [`UniqueArc`] (or with [`ListArc::new`],
/// [`ListArc::pin_init`], [`ListArc::init`]): no other reference exists, so no other
/// `ListArc`. A type whose [`ListArcSafe`] tracking can tell whether one exists
/// ([`TryNewListArc`], for example with an [`AtomicTracker`]) can also make one from an `Arc`
/// ([`ListArc::try_from_arc`]).
///
/// On the host it does not coerce to a `ListArc<dyn Trait>` (the kernel's derives
/// `CoercePointee`): see [`List`]'s second example for the raw-pointer way, which builds with
/// both.
///
/// # Invariants
///
/// - A value has at most one `ListArc` for each `ID`;
/// - the tracking inside `T` believes that this `ListArc` exists.
///
/// # Examples
///
/// ```
/// use kernel_core::list::{impl_list_arc_safe, ListArc};
/// use kernel_core::prelude::*;
/// use kernel_core::sync::Arc;
///
/// struct Buffer {
///     len: usize,
/// }
/// impl_list_arc_safe! {
///     impl ListArcSafe<0> for Buffer { untracked; }
/// }
///
/// let list_arc = ListArc::<Buffer>::new(Buffer { len: 64 }, GFP_KERNEL)?;
/// let shared: Arc<Buffer> = list_arc.clone_arc(); // plain `Arc`s may exist besides it
/// assert_eq!((list_arc.len, shared.len), (64, 64));
/// assert!(Arc::ptr_eq(list_arc.as_arc(), &shared));
/// # Ok::<(), Error>(())
/// ```
///
/// [`List`]: super::List
#[repr(transparent)]
pub struct ListArc<T, const ID: u64 = 0>
where
    T: ListArcSafe<ID> + ?Sized,
{
    arc: Arc<T>,
}

impl<T: ListArcSafe<ID>, const ID: u64> ListArc<T, ID> {
    /// Allocates `contents` in a new `Arc`, with `flags`, and returns its `ListArc`.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::list::{impl_list_arc_safe, ListArc};
    /// use kernel_core::prelude::*;
    ///
    /// struct Sample(i16);
    /// impl_list_arc_safe! {
    ///     impl ListArcSafe<0> for Sample { untracked; }
    /// }
    /// let s = ListArc::<Sample>::new(Sample(-4), GFP_KERNEL)?;
    /// assert_eq!(s.0, -4);
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    #[track_caller]
    pub fn new(contents: T, flags: Flags) -> Result<Self, AllocError> {
        Ok(Self::from(UniqueArc::new(contents, flags)?))
    }

    /// Allocates a new `Arc` with `flags`, initialises the value in place with `init`, and
    /// returns its `ListArc`; or the error of the allocation or of `init`. The value is pinned
    /// (a `ListArc`, as an `Arc`, never moves it).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::list::{impl_list_arc_safe, impl_list_item, ListArc, ListLinks};
    /// use kernel_core::prelude::*;
    /// use kernel_core::sync::{new_mutex, Mutex};
    ///
    /// #[pin_data]
    /// struct Queue {
    ///     #[pin]
    ///     pending: Mutex<u32>,
    ///     #[pin]
    ///     links: ListLinks,
    /// }
    /// impl_list_arc_safe! {
    ///     impl ListArcSafe<0> for Queue { untracked; }
    /// }
    ///
    /// let q = ListArc::pin_init(
    ///     try_pin_init!(Queue { pending <- new_mutex!(0), links <- ListLinks::new() }),
    ///     GFP_KERNEL,
    /// )?;
    /// *q.pending.lock() += 1;
    /// assert_eq!(*q.pending.lock(), 1);
    ///
    /// // The initialiser's error comes back.
    /// let failed = ListArc::<Queue>::pin_init(
    ///     try_pin_init!(Queue { pending <- new_mutex!(0), links: Err(EBUSY)? }),
    ///     GFP_KERNEL,
    /// );
    /// assert_eq!(failed.err(), Some(EBUSY));
    /// # Ok::<(), Error>(())
    /// ```
    // Not `InPlaceInit`: a `ListArc` is always pinned, as an `Arc` is.
    #[inline]
    #[track_caller]
    pub fn pin_init<E>(init: impl PinInit<T, E>, flags: Flags) -> Result<Self, E>
    where
        E: From<AllocError>,
    {
        Ok(Self::from(UniqueArc::try_pin_init(init, flags)?))
    }

    /// As [`ListArc::pin_init`], with an initialiser that needs no pinning.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::list::{impl_list_arc_safe, ListArc};
    /// use kernel_core::prelude::*;
    ///
    /// struct Table {
    ///     slots: [u16; 8],
    /// }
    /// impl_list_arc_safe! {
    ///     impl ListArcSafe<0> for Table { untracked; }
    /// }
    ///
    /// let t = ListArc::<Table>::init(try_init!(Table { slots: [7; 8] }), GFP_KERNEL)?;
    /// assert_eq!(t.slots[7], 7);
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    #[track_caller]
    pub fn init<E>(init: impl Init<T, E>, flags: Flags) -> Result<Self, E>
    where
        E: From<AllocError>,
    {
        Ok(Self::from(UniqueArc::try_init(init, flags)?))
    }
}

/// A [`UniqueArc`] is the only reference to its value, so no `ListArc` exists: this makes the
/// `ListArc` (telling the tracking).
///
/// # Examples
///
/// ```
/// use kernel_core::list::{impl_list_arc_safe, ListArc};
/// use kernel_core::prelude::*;
/// use kernel_core::sync::UniqueArc;
///
/// struct Counter(u32);
/// impl_list_arc_safe! {
///     impl ListArcSafe<0> for Counter { untracked; }
/// }
///
/// let mut unique = UniqueArc::new(Counter(0), GFP_KERNEL)?;
/// unique.0 += 1; // still writable
/// let list_arc = ListArc::<Counter>::from(unique);
/// assert_eq!(list_arc.0, 1);
/// # Ok::<(), Error>(())
/// ```
impl<T, const ID: u64> From<UniqueArc<T>> for ListArc<T, ID>
where
    T: ListArcSafe<ID> + ?Sized,
{
    #[inline]
    fn from(unique: UniqueArc<T>) -> Self {
        Self::from(Pin::from(unique))
    }
}

/// As from a [`UniqueArc`], for a pinned one.
///
/// # Examples
///
/// ```
/// use kernel_core::list::{impl_list_arc_safe, AtomicTracker, ListArc, TryNewListArc};
/// use kernel_core::prelude::*;
/// use kernel_core::sync::UniqueArc;
///
/// #[pin_data]
/// struct Tracked {
///     #[pin]
///     tracker: AtomicTracker,
/// }
/// impl_list_arc_safe! {
///     impl ListArcSafe<0> for Tracked { tracked_by tracker: AtomicTracker; }
/// }
///
/// let unique = UniqueArc::pin_init(pin_init!(Tracked { tracker <- AtomicTracker::new() }), GFP_KERNEL)?;
/// let list_arc = ListArc::<Tracked>::from(unique);
/// assert!(!list_arc.try_new_list_arc()); // the tracker was told
/// # Ok::<(), Error>(())
/// ```
impl<T, const ID: u64> From<Pin<UniqueArc<T>>> for ListArc<T, ID>
where
    T: ListArcSafe<ID> + ?Sized,
{
    #[inline]
    fn from(mut unique: Pin<UniqueArc<T>>) -> Self {
        // SAFETY: A `UniqueArc` is the only reference, so there is no `ListArc`.
        unsafe { T::on_create_list_arc_from_unique(unique.as_mut()) };
        // SAFETY: The tracking was just told of this `ListArc`, and none existed.
        unsafe { Self::transmute_from_arc(Arc::from(unique)) }
    }
}

impl<T, const ID: u64> ListArc<T, ID>
where
    T: ListArcSafe<ID> + ?Sized,
{
    /// The two `ListArc`s of a [`UniqueArc`]'s value, for the lists `ID` and `ID2`, which must
    /// differ (checked at build time, with [`build_assert!`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::list::{impl_list_arc_safe, ListArc};
    /// use kernel_core::prelude::*;
    /// use kernel_core::sync::UniqueArc;
    ///
    /// struct Both(u8);
    /// impl_list_arc_safe! {
    ///     impl ListArcSafe<0> for Both { untracked; }
    ///     impl ListArcSafe<1> for Both { untracked; }
    /// }
    ///
    /// let (zero, one) = ListArc::<Both, 0>::pair_from_unique::<1>(UniqueArc::new(Both(9), GFP_KERNEL)?);
    /// assert!(core::ptr::eq(&*zero, &*one));
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn pair_from_unique<const ID2: u64>(unique: UniqueArc<T>) -> (Self, ListArc<T, ID2>)
    where
        T: ListArcSafe<ID2>,
    {
        Self::pair_from_pin_unique(Pin::from(unique))
    }

    /// As [`ListArc::pair_from_unique`], from a pinned [`UniqueArc`].
    ///
    /// # Examples
    ///
    /// See [`ListLinks`](super::ListLinks).
    ///
    /// ```
    /// use kernel_core::list::{impl_list_arc_safe, ListArc};
    /// use kernel_core::prelude::*;
    /// use kernel_core::sync::UniqueArc;
    ///
    /// struct Both(u8);
    /// impl_list_arc_safe! {
    ///     impl ListArcSafe<2> for Both { untracked; }
    ///     impl ListArcSafe<5> for Both { untracked; }
    /// }
    ///
    /// let pinned = UniqueArc::pin_init(Both(1), GFP_KERNEL)?;
    /// let (two, five) = ListArc::<Both, 2>::pair_from_pin_unique::<5>(pinned);
    /// assert_eq!(two.0 + five.0, 2);
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn pair_from_pin_unique<const ID2: u64>(
        mut unique: Pin<UniqueArc<T>>,
    ) -> (Self, ListArc<T, ID2>)
    where
        T: ListArcSafe<ID2>,
    {
        build_assert!(ID != ID2);

        // SAFETY: A `UniqueArc` is the only reference, so there is no `ListArc` for `ID`.
        unsafe { <T as ListArcSafe<ID>>::on_create_list_arc_from_unique(unique.as_mut()) };
        // SAFETY: Nor for `ID2`.
        unsafe { <T as ListArcSafe<ID2>>::on_create_list_arc_from_unique(unique.as_mut()) };

        let first = Arc::from(unique);
        let second = first.clone();
        // SAFETY: The tracking of both ids (which differ) was just told of these `ListArc`s, and
        // none existed.
        unsafe {
            (
                Self::transmute_from_arc(first),
                ListArc::transmute_from_arc(second),
            )
        }
    }

    /// The `ListArc` of `arc`'s value, if it has none (its tracking says); otherwise `arc`
    /// back.
    ///
    /// # Examples
    ///
    /// See [`TryNewListArc`] and [`impl_list_arc_safe!`].
    ///
    /// ```
    /// use kernel_core::list::{impl_list_arc_safe, AtomicTracker, ListArc, TryNewListArc};
    /// use kernel_core::prelude::*;
    /// use kernel_core::sync::Arc;
    ///
    /// #[pin_data]
    /// struct Job {
    ///     #[pin]
    ///     tracker: AtomicTracker,
    /// }
    /// impl_list_arc_safe! {
    ///     impl ListArcSafe<0> for Job { tracked_by tracker: AtomicTracker; }
    /// }
    ///
    /// let job = Arc::pin_init(pin_init!(Job { tracker <- AtomicTracker::new() }), GFP_KERNEL)?;
    /// let list_arc = ListArc::<Job>::try_from_arc(job.clone()).ok().expect("none yet");
    /// let refused = ListArc::<Job>::try_from_arc(job.clone()).err().expect("one exists");
    /// assert!(Arc::ptr_eq(&refused, &job));
    /// # let _ = list_arc;
    /// # Ok::<(), Error>(())
    /// ```
    pub fn try_from_arc(arc: Arc<T>) -> Result<Self, Arc<T>>
    where
        T: TryNewListArc<ID>,
    {
        if arc.try_new_list_arc() {
            // SAFETY: `try_new_list_arc` returned `true`: none existed, and the tracking now
            // believes this one does.
            Ok(unsafe { Self::transmute_from_arc(arc) })
        } else {
            Err(arc)
        }
    }

    /// As [`ListArc::try_from_arc`], from an [`ArcBorrow`]: the new `ListArc` takes a reference
    /// of its own.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::list::{impl_list_arc_safe, AtomicTracker, ListArc, TryNewListArc};
    /// use kernel_core::prelude::*;
    /// use kernel_core::sync::Arc;
    ///
    /// #[pin_data]
    /// struct Job {
    ///     #[pin]
    ///     tracker: AtomicTracker,
    /// }
    /// impl_list_arc_safe! {
    ///     impl ListArcSafe<0> for Job { tracked_by tracker: AtomicTracker; }
    /// }
    ///
    /// let job = Arc::pin_init(pin_init!(Job { tracker <- AtomicTracker::new() }), GFP_KERNEL)?;
    /// let list_arc = ListArc::<Job>::try_from_arc_borrow(job.as_arc_borrow()).expect("none yet");
    /// assert!(ListArc::<Job>::try_from_arc_borrow(job.as_arc_borrow()).is_none());
    /// drop(list_arc);
    /// assert!(ListArc::<Job>::try_from_arc_borrow(job.as_arc_borrow()).is_some());
    /// # Ok::<(), Error>(())
    /// ```
    pub fn try_from_arc_borrow(arc: ArcBorrow<'_, T>) -> Option<Self>
    where
        T: TryNewListArc<ID>,
    {
        if arc.try_new_list_arc() {
            // SAFETY: `try_new_list_arc` returned `true`: none existed, and the tracking now
            // believes this one does.
            Some(unsafe { Self::transmute_from_arc(Arc::from(arc)) })
        } else {
            None
        }
    }

    /// As [`ListArc::try_from_arc`], but when the value has a `ListArc`, `arc` is dropped; if
    /// `arc` was the last reference, though, the `ListArc` is made from it as from a
    /// [`UniqueArc`] (so the value's destructor never runs here).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::list::{impl_list_arc_safe, AtomicTracker, ListArc, TryNewListArc};
    /// use kernel_core::prelude::*;
    /// use kernel_core::sync::Arc;
    ///
    /// #[pin_data]
    /// struct Job {
    ///     #[pin]
    ///     tracker: AtomicTracker,
    /// }
    /// impl_list_arc_safe! {
    ///     impl ListArcSafe<0> for Job { tracked_by tracker: AtomicTracker; }
    /// }
    ///
    /// let job = Arc::pin_init(pin_init!(Job { tracker <- AtomicTracker::new() }), GFP_KERNEL)?;
    /// let first = ListArc::<Job>::try_from_arc_or_drop(job.clone()).expect("none yet");
    /// // One exists and `job` is still there: the clone is dropped.
    /// assert!(ListArc::<Job>::try_from_arc_or_drop(job.clone()).is_none());
    ///
    /// // A `ListArc`'s reference as a plain `Arc`, the tracking left believing in the `ListArc`
    /// // (as `into_raw` leaves it): when that `Arc` is the last reference, the `ListArc` is
    /// // made from it as from a `UniqueArc`.
    /// // SAFETY: The pointer comes from `ListArc::into_raw`, which `Arc::from_raw` takes.
    /// let arc = unsafe { Arc::from_raw(ListArc::into_raw(first)) };
    /// assert!(ListArc::<Job>::try_from_arc(arc.clone()).is_err());
    /// drop(job);
    /// assert!(ListArc::<Job>::try_from_arc_or_drop(arc).is_some());
    /// # Ok::<(), Error>(())
    /// ```
    pub fn try_from_arc_or_drop(arc: Arc<T>) -> Option<Self>
    where
        T: TryNewListArc<ID>,
    {
        match Self::try_from_arc(arc) {
            Ok(list_arc) => Some(list_arc),
            Err(arc) => Arc::into_unique_or_drop(arc).map(Self::from),
        }
    }

    /// The `ListArc` of `arc`, leaving the tracking alone.
    ///
    /// # Safety
    ///
    /// - The value has no `ListArc` (for `ID`);
    /// - the tracking believes it has one.
    #[inline]
    unsafe fn transmute_from_arc(arc: Arc<T>) -> Self {
        // INVARIANT: The caller's promises are the invariants.
        Self { arc }
    }

    /// The `Arc` of this `ListArc`, leaving the tracking alone: it still believes the
    /// `ListArc` exists.
    #[inline]
    fn transmute_to_arc(self) -> Arc<T> {
        // Without the `Drop` of `ListArc`, which would tell the tracking.
        let this = ManuallyDrop::new(self);
        // SAFETY: `this.arc` is read once, and `this` is never used nor dropped again.
        unsafe { ptr::read(&this.arc) }
    }

    /// The pointer to the value, with this `ListArc`'s reference, as [`Arc::into_raw`] gives
    /// it; the tracking still believes the `ListArc` exists. [`ListArc::from_raw`] takes it
    /// back.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::list::{impl_list_arc_safe, ListArc};
    /// use kernel_core::prelude::*;
    ///
    /// struct Value(u64);
    /// impl_list_arc_safe! {
    ///     impl ListArcSafe<0> for Value { untracked; }
    /// }
    ///
    /// let raw: *const Value = ListArc::into_raw(ListArc::<Value>::new(Value(8), GFP_KERNEL)?);
    /// // SAFETY: `raw` comes from `into_raw`, once, and no other `ListArc` was made.
    /// let back = unsafe { ListArc::<Value>::from_raw(raw) };
    /// assert_eq!(back.0, 8);
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn into_raw(self) -> *const T {
        Arc::into_raw(Self::transmute_to_arc(self))
    }

    /// The `ListArc` of a pointer from [`ListArc::into_raw`] (or from [`Arc::into_raw`], when
    /// the tracking believes in a `ListArc` that does not exist).
    ///
    /// # Safety
    ///
    /// - `ptr` meets the requirements of [`Arc::from_raw`];
    /// - the value has no `ListArc` (for `ID`);
    /// - the tracking believes it has one.
    ///
    /// # Examples
    ///
    /// See [`ListArc::into_raw`].
    #[inline]
    pub unsafe fn from_raw(ptr: *const T) -> Self {
        // SAFETY: The caller promises that `ptr` may be given to `Arc::from_raw`.
        let arc = unsafe { Arc::from_raw(ptr) };
        // SAFETY: The caller promises there is no `ListArc`, and the tracking believes there is.
        unsafe { Self::transmute_from_arc(arc) }
    }

    /// This `ListArc` as a plain [`Arc`]: the tracking is told that it is gone.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::list::{impl_list_arc_safe, ListArc};
    /// use kernel_core::prelude::*;
    /// use kernel_core::sync::Arc;
    ///
    /// struct Value(u64);
    /// impl_list_arc_safe! {
    ///     impl ListArcSafe<0> for Value { untracked; }
    /// }
    ///
    /// let arc: Arc<Value> = ListArc::<Value>::new(Value(2), GFP_KERNEL)?.into_arc();
    /// let other = arc.clone();
    /// assert_eq!(other.0, 2);
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn into_arc(self) -> Arc<T> {
        let arc = Self::transmute_to_arc(self);
        // SAFETY: The `ListArc` is gone, and the tracking believes it exists.
        unsafe { T::on_drop_list_arc(&arc) };
        arc
    }

    /// A new plain [`Arc`] of the value (another reference).
    ///
    /// # Examples
    ///
    /// See [`ListArc`].
    ///
    /// ```
    /// use kernel_core::list::{impl_list_arc_safe, ListArc};
    /// use kernel_core::prelude::*;
    ///
    /// struct Value(u64);
    /// impl_list_arc_safe! {
    ///     impl ListArcSafe<0> for Value { untracked; }
    /// }
    ///
    /// let list_arc = ListArc::<Value>::new(Value(5), GFP_KERNEL)?;
    /// let arc = list_arc.clone_arc();
    /// drop(list_arc);
    /// assert_eq!(arc.0, 5);
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn clone_arc(&self) -> Arc<T> {
        self.arc.clone()
    }

    /// The [`Arc`] inside, for what takes a `&Arc<T>`.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::list::{impl_list_arc_safe, ListArc};
    /// use kernel_core::prelude::*;
    /// use kernel_core::sync::Arc;
    ///
    /// struct Value(u64);
    /// impl_list_arc_safe! {
    ///     impl ListArcSafe<0> for Value { untracked; }
    /// }
    ///
    /// fn read(v: &Arc<Value>) -> u64 {
    ///     v.0
    /// }
    /// let list_arc = ListArc::<Value>::new(Value(6), GFP_KERNEL)?;
    /// assert_eq!(read(list_arc.as_arc()), 6);
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn as_arc(&self) -> &Arc<T> {
        &self.arc
    }

    /// An [`ArcBorrow`] of the value, for what takes one.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::list::{impl_list_arc_safe, ListArc};
    /// use kernel_core::prelude::*;
    /// use kernel_core::sync::ArcBorrow;
    ///
    /// struct Value(u64);
    /// impl_list_arc_safe! {
    ///     impl ListArcSafe<0> for Value { untracked; }
    /// }
    ///
    /// fn read(v: ArcBorrow<'_, Value>) -> u64 {
    ///     v.0
    /// }
    /// let list_arc = ListArc::<Value>::new(Value(7), GFP_KERNEL)?;
    /// assert_eq!(read(list_arc.as_arc_borrow()), 7);
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn as_arc_borrow(&self) -> ArcBorrow<'_, T> {
        self.arc.as_arc_borrow()
    }

    /// Whether both point to the same value.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::list::{impl_list_arc_safe, ListArc};
    /// use kernel_core::prelude::*;
    ///
    /// struct Value(u64);
    /// impl_list_arc_safe! {
    ///     impl ListArcSafe<0> for Value { untracked; }
    /// }
    ///
    /// let a = ListArc::<Value>::new(Value(1), GFP_KERNEL)?;
    /// let b = ListArc::<Value>::new(Value(1), GFP_KERNEL)?;
    /// assert!(ListArc::ptr_eq(&a, &a));
    /// assert!(!ListArc::ptr_eq(&a, &b));
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn ptr_eq(this: &Self, other: &Self) -> bool {
        Arc::ptr_eq(&this.arc, &other.arc)
    }
}

impl<T, const ID: u64> Deref for ListArc<T, ID>
where
    T: ListArcSafe<ID> + ?Sized,
{
    type Target = T;

    #[inline]
    fn deref(&self) -> &Self::Target {
        self.arc.deref()
    }
}

/// Tells the tracking that the `ListArc` is gone, and drops its reference.
impl<T, const ID: u64> Drop for ListArc<T, ID>
where
    T: ListArcSafe<ID> + ?Sized,
{
    #[inline]
    fn drop(&mut self) {
        // SAFETY: This `ListArc` is going, and the tracking believes it exists (type invariant).
        unsafe { T::on_drop_list_arc(&self.arc) };
    }
}

/// # Examples
///
/// ```
/// use kernel_core::list::{impl_list_arc_safe, ListArc};
/// use kernel_core::prelude::*;
/// use kernel_core::sync::Arc;
///
/// struct Value(u64);
/// impl_list_arc_safe! {
///     impl ListArcSafe<0> for Value { untracked; }
/// }
///
/// fn read(v: impl AsRef<Arc<Value>>) -> u64 {
///     v.as_ref().0
/// }
/// assert_eq!(read(ListArc::<Value>::new(Value(3), GFP_KERNEL)?), 3);
/// # Ok::<(), Error>(())
/// ```
impl<T, const ID: u64> AsRef<Arc<T>> for ListArc<T, ID>
where
    T: ListArcSafe<ID> + ?Sized,
{
    #[inline]
    fn as_ref(&self) -> &Arc<T> {
        self.as_arc()
    }
}

/// A [`ListArcSafe`] and [`TryNewListArc`] tracking in an atomic flag: `true` while a
/// [`ListArc`] exists. A field of the value, pinned, that `impl_list_arc_safe!`'s `tracked_by`
/// hands the tracking to; its `ID` is the list's. With it, a `ListArc` can be made from any
/// `Arc` of the value when none exists ([`ListArc::try_from_arc`]), on any thread.
///
/// # Invariants
///
/// If the flag is `false`, the value has no [`ListArc`] (for `ID`).
///
/// # Examples
///
/// See [`TryNewListArc`] and [`impl_list_arc_safe!`].
///
/// ```
/// use kernel_core::list::{impl_list_arc_safe, AtomicTracker, ListArc, TryNewListArc};
/// use kernel_core::prelude::*;
/// use kernel_core::sync::Arc;
///
/// #[pin_data]
/// struct Thread {
///     id: u32,
///     #[pin]
///     ready: AtomicTracker,
/// }
/// impl_list_arc_safe! {
///     impl ListArcSafe<0> for Thread { tracked_by ready: AtomicTracker; }
/// }
///
/// let thread = Arc::pin_init(pin_init!(Thread { id: 1, ready <- AtomicTracker::new() }), GFP_KERNEL)?;
/// // Queued once at most, however many `Arc`s try.
/// let queued = ListArc::<Thread>::try_from_arc(thread.clone()).ok();
/// assert!(queued.is_some());
/// assert!(ListArc::<Thread>::try_from_arc(thread.clone()).is_err());
/// # Ok::<(), Error>(())
/// ```
#[repr(transparent)]
pub struct AtomicTracker<const ID: u64 = 0> {
    inner: AtomicFlag,
    // Pinned, so that no value moves a flag of `true` somewhere a `ListArc` does not refer to
    // (see `AtomicTracker::new`).
    _pin: PhantomPinned,
}

impl<const ID: u64> AtomicTracker<ID> {
    /// The initialiser of a tracker that knows of no [`ListArc`].
    ///
    /// # Examples
    ///
    /// See [`AtomicTracker`].
    ///
    /// ```
    /// use kernel_core::list::AtomicTracker;
    /// use kernel_core::prelude::*;
    ///
    /// let tracker = KBox::pin_init(AtomicTracker::<3>::new(), GFP_KERNEL)?;
    /// # let _ = tracker;
    /// # Ok::<(), Error>(())
    /// ```
    pub fn new() -> impl PinInit<Self> {
        // INVARIANT: A pin-initialiser makes a new value, which cannot be in an `Arc` with a
        // `ListArc` yet.
        Self {
            inner: AtomicFlag::new(false),
            _pin: PhantomPinned,
        }
    }

    /// The flag, which is not structurally pinned.
    fn project_inner(self: Pin<&mut Self>) -> &mut AtomicFlag {
        // SAFETY: `inner` is not structurally pinned: it may be borrowed mutably from a pinned
        // tracker (nothing here moves the tracker).
        unsafe { &mut Pin::into_inner_unchecked(self).inner }
    }
}

impl<const ID: u64> ListArcSafe<ID> for AtomicTracker<ID> {
    unsafe fn on_create_list_arc_from_unique(self: Pin<&mut Self>) {
        // INVARIANT: A `ListArc` was just made.
        *self.project_inner().get_mut() = true;
    }

    unsafe fn on_drop_list_arc(&self) {
        // INVARIANT: The `ListArc` is gone. `Release`: what its holder did happens before the
        // next `try_new_list_arc` that sees `false`.
        self.inner.store(false, ordering::Release);
    }
}

// SAFETY: `try_new_list_arc` returns `true` only if it turned the flag from `false` (no
// `ListArc`, by the type invariant) to `true`. Its `Acquire` pairs with the `Release` of
// `on_drop_list_arc`: the end of the previous `ListArc` happens before the new one.
unsafe impl<const ID: u64> TryNewListArc<ID> for AtomicTracker<ID> {
    fn try_new_list_arc(&self) -> bool {
        // INVARIANT: On success the flag was `false` and is `true`: the caller may make the
        // `ListArc`.
        self.inner.cmpxchg(false, true, ordering::Acquire).is_ok()
    }
}
