// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `kernel::list`, shared code: Linux 7.3's intrusive, doubly linked, circular list of
//! [`ListArc`]s, written from scratch.
//!
//! Nothing here depends on the world: it is built on `crate::sync::{Arc, ArcBorrow,
//! UniqueArc}`, `crate::sync::atomic::AtomicFlag` and `crate::types::Opaque`, whatever those
//! are where it is compiled. The host builds it; a kernel whose `kernel::list` lacks 7.3's
//! forms could too.
//!
//! The parts:
//!
//! - this file: [`List`], the [`ListItem`] trait, [`ListLinks`] and [`ListLinksSelfPtr`];
//! - `list/cursor.rs`: [`Cursor`] and [`CursorPeek`];
//! - `list/iter.rs`: [`Iter`] and [`IntoIter`];
//! - `list/arc.rs`: [`ListArc`], [`ListArcSafe`], [`TryNewListArc`], [`AtomicTracker`] and
//!   `impl_list_arc_safe!`;
//! - `list/arc_field.rs`: [`ListArcField`] and `define_list_arc_field_getter!`;
//! - `list/item.rs`: [`HasListLinks`], [`HasSelfPtr`], `impl_has_list_links!`,
//!   `impl_has_list_links_self_ptr!` and `impl_list_item!`.
//!
//! # How a list is laid out
//!
//! Each element embeds a [`ListLinks`]: two pointers, `next` and `prev`, to the `ListLinks` of
//! its neighbours. The elements of a list form a cycle (the last one's `next` is the first, the
//! first one's `prev` is the last); the [`List`] itself holds only a pointer to its first
//! element's links, or null when it is empty. An element that is in no list has both pointers
//! null. This is C's `struct list_head` without a sentinel node in the list head, so that a
//! `List` is one pointer and can be moved.

use core::marker::PhantomData;
use core::ptr;

use pin_init::PinInit;

use crate::types::Opaque;

#[path = "list/arc.rs"]
mod arc;

#[path = "list/arc_field.rs"]
mod arc_field;

#[path = "list/cursor.rs"]
mod cursor;

#[path = "list/item.rs"]
mod item;

#[path = "list/iter.rs"]
mod iter;

pub use arc::{impl_list_arc_safe, AtomicTracker, ListArc, ListArcSafe, TryNewListArc};
pub use arc_field::{define_list_arc_field_getter, ListArcField};
pub use cursor::{Cursor, CursorPeek};
pub use item::{
    impl_has_list_links, impl_has_list_links_self_ptr, impl_list_item, HasListLinks, HasSelfPtr,
};
pub use iter::{IntoIter, Iter};

/// A list of [`ListArc<T, ID>`](ListArc): values in [`Arc`](crate::sync::Arc)s, linked through a
/// [`ListLinks<ID>`] field inside each of them.
///
/// The list owns the `ListArc` of each of its elements. A value has at most one `ListArc` for
/// each `ID`, so it is in at most one list per `ID`, and its `ListLinks<ID>` are written only by
/// the list it is in. `ID` (0 unless given) tells the lists of one type apart when a value is
/// to be in several at once: each has its own `ListLinks<ID>` field and its own `ID`.
///
/// Insertion and removal at both ends, at a [`Cursor`] and of a given element
/// ([`List::remove`]) take constant time, allocate nothing and cannot fail: the links are
/// inside the elements.
///
/// # Invariants
///
/// - `first` is null if the list is empty, and otherwise points at the [`ListLinks`] of its
///   first element.
/// - The `next` and `prev` pointers of the elements form one cycle through all of them.
/// - The list owns the [`ListArc`] of each element, and only it accesses their `ListLinks<ID>`.
///
/// # Examples
///
/// An element type with a [`ListLinks`] field, at both ends of a list:
///
/// ```
/// use kernel_core::list::{impl_list_arc_safe, impl_list_item, List, ListArc, ListLinks};
/// use kernel_core::prelude::*;
///
/// #[pin_data]
/// struct Request {
///     id: u32,
///     #[pin]
///     links: ListLinks,
/// }
///
/// impl Request {
///     fn new(id: u32) -> Result<ListArc<Self>> {
///         ListArc::pin_init(try_pin_init!(Self { id, links <- ListLinks::new() }), GFP_KERNEL)
///     }
/// }
///
/// impl_list_arc_safe! {
///     impl ListArcSafe<0> for Request { untracked; }
/// }
/// impl_list_item! {
///     impl ListItem<0> for Request { using ListLinks { self.links }; }
/// }
///
/// let mut queue = List::new();
/// assert!(queue.is_empty());
///
/// queue.push_back(Request::new(2)?);
/// queue.push_back(Request::new(3)?);
/// queue.push_front(Request::new(1)?); // [1, 2, 3]
/// assert!(queue.iter().map(|r| r.id).eq([1, 2, 3]));
///
/// assert_eq!(queue.pop_front().map(|r| r.id), Some(1));
/// assert_eq!(queue.pop_back().map(|r| r.id), Some(3));
///
/// // Another list's elements move over at once, in their order.
/// let mut more = List::new();
/// more.push_back(Request::new(4)?);
/// more.push_back(Request::new(5)?);
/// queue.push_all_back(&mut more);
/// assert!(more.is_empty());
/// assert!(queue.into_iter().map(|r| r.id).eq([2, 4, 5]));
/// # Ok::<(), Error>(())
/// ```
///
/// With a [`ListLinksSelfPtr`] instead, a list can hold values of different types behind one
/// trait object type. (On the host a `ListArc<Wrap<T>>` does not coerce to a
/// `ListArc<Wrap<dyn Trait>>` by itself, as the kernel's does: the raw pointer does, and
/// [`ListArc::from_raw`] takes it back, which builds with the kernel's `ListArc` too.)
///
/// ```
/// use kernel_core::list::{
///     impl_list_arc_safe, impl_list_item, List, ListArc, ListLinksSelfPtr,
/// };
/// use kernel_core::prelude::*;
///
/// trait Shape {
///     fn area(&self) -> u32;
/// }
///
/// struct Square(u32);
/// impl Shape for Square {
///     fn area(&self) -> u32 {
///         self.0 * self.0
///     }
/// }
///
/// struct Rectangle(u32, u32);
/// impl Shape for Rectangle {
///     fn area(&self) -> u32 {
///         self.0 * self.1
///     }
/// }
///
/// #[pin_data]
/// struct Wrap<T: ?Sized> {
///     #[pin]
///     links: ListLinksSelfPtr<Wrap<dyn Shape>>,
///     shape: T,
/// }
///
/// impl_list_arc_safe! {
///     impl{T: ?Sized} ListArcSafe<0> for Wrap<T> { untracked; }
/// }
/// impl_list_item! {
///     impl ListItem<0> for Wrap<dyn Shape> { using ListLinksSelfPtr { self.links }; }
/// }
///
/// fn wrap<T: Shape + 'static>(shape: T) -> Result<ListArc<Wrap<dyn Shape>>> {
///     let arc = ListArc::pin_init(
///         try_pin_init!(Wrap { links <- ListLinksSelfPtr::new(), shape }),
///         GFP_KERNEL,
///     )?;
///     let raw = ListArc::into_raw(arc) as *const Wrap<dyn Shape>;
///     // SAFETY: `raw` comes from `ListArc::into_raw`, and `Wrap<T>` and `Wrap<dyn Shape>` share
///     // the same (untracked) `ListArcSafe` implementation.
///     Ok(unsafe { ListArc::from_raw(raw) })
/// }
///
/// let mut shapes = List::<Wrap<dyn Shape>>::new();
/// shapes.push_back(wrap(Square(3))?);
/// shapes.push_back(wrap(Rectangle(2, 5))?);
/// shapes.push_front(wrap(Square(1))?);
///
/// assert!(shapes.iter().map(|w| w.shape.area()).eq([1, 9, 10]));
/// assert_eq!(shapes.pop_back().map(|w| w.shape.area()), Some(10));
/// # Ok::<(), Error>(())
/// ```
pub struct List<T: ?Sized + ListItem<ID>, const ID: u64 = 0> {
    first: *mut ListLinksFields,
    _ty: PhantomData<ListArc<T, ID>>,
}

// SAFETY: A `List` owns `ListArc<T, ID>`s and nothing else: moving it to another thread moves
// them.
unsafe impl<T, const ID: u64> Send for List<T, ID>
where
    ListArc<T, ID>: Send,
    T: ?Sized + ListItem<ID>,
{
}

// SAFETY: A shared `List` gives shared access to its `ListArc<T, ID>`s and nothing else.
unsafe impl<T, const ID: u64> Sync for List<T, ID>
where
    ListArc<T, ID>: Sync,
    T: ?Sized + ListItem<ID>,
{
}

/// A type whose values can be in a [`List<Self, ID>`](List): it says where their
/// [`ListLinks<ID>`] are, and how to get from the links back to the value.
///
/// Implement it with [`impl_list_item!`], which writes the four functions for a field of type
/// [`ListLinks`] or [`ListLinksSelfPtr`].
///
/// # Safety
///
/// The functions keep the promises of their "Guarantees" sections.
///
/// # Examples
///
/// ```
/// use kernel_core::list::{impl_list_arc_safe, impl_list_item, ListItem, ListLinks};
/// use kernel_core::prelude::*;
///
/// #[pin_data]
/// struct Timer {
///     expires: u64,
///     #[pin]
///     links: ListLinks,
/// }
/// impl_list_arc_safe! {
///     impl ListArcSafe<0> for Timer { untracked; }
/// }
/// impl_list_item! {
///     impl ListItem<0> for Timer { using ListLinks { self.links }; }
/// }
///
/// fn can_be_listed<T: ListItem>() {}
/// can_be_listed::<Timer>();
/// ```
pub unsafe trait ListItem<const ID: u64 = 0>: ListArcSafe<ID> {
    /// The [`ListLinks`] of the value at `me`.
    ///
    /// # Guarantees
    ///
    /// Between a call to `prepare_to_insert` and the next call to `post_remove`, the pointer
    /// that `prepare_to_insert` returned. Otherwise, a pointer to links that hold two null
    /// pointers and are not written.
    ///
    /// # Safety
    ///
    /// `me` points to a valid value (not necessarily in an `Arc`).
    unsafe fn view_links(me: *const Self) -> *mut ListLinks<ID>;

    /// The value whose [`ListLinks`] are at `me`, while it is in a list.
    ///
    /// # Guarantees
    ///
    /// The pointer that was given to the latest `prepare_to_insert`, valid until the next
    /// `post_remove`.
    ///
    /// # Safety
    ///
    /// - `me` was returned by the latest `prepare_to_insert`, or by a `view_links` after it;
    /// - `post_remove` has not been called since that `prepare_to_insert`.
    unsafe fn view_value(me: *mut ListLinks<ID>) -> *const Self;

    /// Called when the value at `me` goes into a [`List`]: its [`ListLinks`].
    ///
    /// # Guarantees
    ///
    /// The caller has exclusive access to the returned links until it calls `post_remove`.
    ///
    /// # Safety
    ///
    /// - `me` points to a valid value in an [`Arc`](crate::sync::Arc);
    /// - calls of `prepare_to_insert` and `post_remove` on one value alternate;
    /// - the caller owns the value's [`ListArc`], and keeps it until it has called
    ///   `post_remove` after this call.
    unsafe fn prepare_to_insert(me: *const Self) -> *mut ListLinks<ID>;

    /// Undoes the latest `prepare_to_insert`: the value leaves its list.
    ///
    /// # Guarantees
    ///
    /// The pointer that was given to that `prepare_to_insert`.
    ///
    /// # Safety
    ///
    /// `me` is the pointer that the latest `prepare_to_insert` returned.
    unsafe fn post_remove(me: *mut ListLinks<ID>) -> *const Self;
}

/// The two pointers of an element's links: to the `ListLinksFields` of the next and the
/// previous element of its list.
#[repr(C)]
#[derive(Copy, Clone)]
struct ListLinksFields {
    next: *mut ListLinksFields,
    prev: *mut ListLinksFields,
}

/// The `next` and `prev` pointers that put a value in a [`List<_, ID>`](List): a field of the
/// value, pinned, since a list points into it.
///
/// The value's [`ListArc`] (and the list that owns it) alone read and write them, so sharing
/// a `&ListLinks` gives nothing away: nothing can be done with one.
///
/// # Invariants
///
/// Both pointers are null exactly when the value is in no list.
///
/// # Examples
///
/// Two fields, for two lists a value can be in at the same time:
///
/// ```
/// use kernel_core::list::{impl_list_arc_safe, impl_list_item, List, ListArc, ListLinks};
/// use kernel_core::prelude::*;
/// use kernel_core::sync::UniqueArc;
///
/// #[pin_data]
/// struct Page {
///     number: u32,
///     #[pin]
///     lru: ListLinks<0>,
///     #[pin]
///     dirty: ListLinks<1>,
/// }
///
/// impl_list_arc_safe! {
///     impl ListArcSafe<0> for Page { untracked; }
///     impl ListArcSafe<1> for Page { untracked; }
/// }
/// impl_list_item! {
///     impl ListItem<0> for Page { using ListLinks { self.lru }; }
///     impl ListItem<1> for Page { using ListLinks { self.dirty }; }
/// }
///
/// let page = UniqueArc::pin_init(
///     try_pin_init!(Page { number: 7, lru <- ListLinks::new(), dirty <- ListLinks::new() }),
///     GFP_KERNEL,
/// )?;
/// let (for_lru, for_dirty) = ListArc::<Page, 0>::pair_from_pin_unique::<1>(page);
///
/// let mut lru = List::<Page, 0>::new();
/// let mut dirty = List::<Page, 1>::new();
/// lru.push_back(for_lru);
/// dirty.push_back(for_dirty);
/// assert_eq!(lru.iter().next().map(|p| p.number), Some(7));
/// assert_eq!(dirty.iter().next().map(|p| p.number), Some(7));
/// # Ok::<(), Error>(())
/// ```
#[repr(transparent)]
pub struct ListLinks<const ID: u64 = 0> {
    // `Opaque`: written through raw pointers while shared references to the value exist, and
    // `!Unpin`, since the neighbours point here.
    inner: Opaque<ListLinksFields>,
}

// SAFETY: The pointers are only touched by the holder of the value's `ListArc<T, ID>` (or the
// list that owns it), which is `Send` only when sending the value is allowed.
unsafe impl<const ID: u64> Send for ListLinks<ID> {}

// SAFETY: Nothing can be done with a `&ListLinks`: the pointers are opaque to its holders.
unsafe impl<const ID: u64> Sync for ListLinks<ID> {}

impl<const ID: u64> ListLinks<ID> {
    /// The initialiser of links that are in no list (two null pointers).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::list::ListLinks;
    /// use kernel_core::prelude::*;
    ///
    /// #[pin_data]
    /// struct Node {
    ///     key: u64,
    ///     #[pin]
    ///     links: ListLinks,
    /// }
    ///
    /// let node = KBox::pin_init(pin_init!(Node { key: 1, links <- ListLinks::new() }), GFP_KERNEL)?;
    /// assert_eq!(node.key, 1);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn new() -> impl PinInit<Self> {
        // INVARIANT: A pin-initialiser makes a new value, which cannot be in an `Arc` with a
        // `ListArc` yet, and so is in no list: both pointers are null.
        ListLinks {
            inner: Opaque::new(ListLinksFields {
                next: ptr::null_mut(),
                prev: ptr::null_mut(),
            }),
        }
    }

    /// The pointers inside the links at `me`.
    ///
    /// # Safety
    ///
    /// `me` is dereferenceable.
    #[inline]
    unsafe fn fields(me: *mut Self) -> *mut ListLinksFields {
        // SAFETY: The caller promises `me` is dereferenceable; this only computes an address.
        Opaque::cast_into(unsafe { ptr::addr_of!((*me).inner) })
    }

    /// The links around the pointers at `fields`: the opposite of [`ListLinks::fields`].
    ///
    /// # Safety
    ///
    /// `fields` is dereferenceable.
    #[inline]
    unsafe fn from_fields(fields: *mut ListLinksFields) -> *mut Self {
        // `ListLinks` is a transparent `Opaque`, itself a transparent cell of the fields.
        fields.cast()
    }
}

/// [`ListLinks`] that also hold a pointer to the whole value, for lists of trait objects
/// (`List<Wrap<dyn Trait>>`), whose values' addresses cannot be computed back from their
/// links' address with an offset.
///
/// [`impl_list_item!`]'s `using ListLinksSelfPtr` form stores the pointer when the value goes
/// into a list and reads it back to find the value.
///
/// # Examples
///
/// See [`List`] (the second example) and [`impl_list_item!`].
///
/// ```
/// use kernel_core::list::ListLinksSelfPtr;
/// use kernel_core::prelude::*;
///
/// trait Job {}
///
/// #[pin_data]
/// struct Work<T: ?Sized> {
///     #[pin]
///     links: ListLinksSelfPtr<Work<dyn Job>>,
///     job: T,
/// }
///
/// struct Flush;
/// impl Job for Flush {}
///
/// let w = KBox::pin_init(pin_init!(Work { links <- ListLinksSelfPtr::new(), job: Flush }), GFP_KERNEL)?;
/// # let _ = w;
/// # Ok::<(), Error>(())
/// ```
#[repr(C)]
pub struct ListLinksSelfPtr<T: ?Sized, const ID: u64 = 0> {
    /// The links themselves.
    ///
    /// Public for [`impl_has_list_links!`], which names the `ListLinks` of a type by their
    /// field path; they are as opaque as any other `ListLinks`.
    pub inner: ListLinks<ID>,
    // Uninitialised until the value first goes into a list. `Opaque`, since a null `*const T`
    // does not exist when `T` is a trait object.
    self_ptr: Opaque<*const T>,
}

// SAFETY: The self pointer is only read by the holder of the value's `ListArc` (see
// `ListLinks`), so moving the links between threads is moving a pointer to a `T: Send`.
unsafe impl<T: ?Sized + Send, const ID: u64> Send for ListLinksSelfPtr<T, ID> {}

// SAFETY: Nothing can be done with a `&ListLinksSelfPtr`: `inner` is opaque (even though it is
// a public field) and `self_ptr` is private.
unsafe impl<T: ?Sized + Sync, const ID: u64> Sync for ListLinksSelfPtr<T, ID> {}

impl<T: ?Sized, const ID: u64> ListLinksSelfPtr<T, ID> {
    /// The initialiser of links that are in no list, without a self pointer yet.
    ///
    /// # Examples
    ///
    /// See [`ListLinksSelfPtr`].
    pub fn new() -> impl PinInit<Self> {
        // INVARIANT: A new value is in no list (see `ListLinks::new`).
        Self {
            inner: ListLinks {
                inner: Opaque::new(ListLinksFields {
                    next: ptr::null_mut(),
                    prev: ptr::null_mut(),
                }),
            },
            self_ptr: Opaque::uninit(),
        }
    }

    /// The pointer to the self pointer of the links at `me`.
    ///
    /// # Safety
    ///
    /// `me` points to a valid `ListLinksSelfPtr`.
    ///
    /// # Examples
    ///
    /// ```
    /// use core::pin::pin;
    /// use kernel_core::list::ListLinksSelfPtr;
    ///
    /// let mut place = core::mem::MaybeUninit::<ListLinksSelfPtr<u32>>::uninit();
    /// // SAFETY: `place` is valid for writes and is not moved while in use.
    /// unsafe { pin_init::raw_init(place.as_mut_ptr(), ListLinksSelfPtr::new()) };
    /// // SAFETY: `place` was just initialised.
    /// let slot = unsafe { ListLinksSelfPtr::raw_get_self_ptr(place.as_ptr()) };
    /// assert!(!slot.is_null());
    /// ```
    #[inline]
    pub unsafe fn raw_get_self_ptr(me: *const Self) -> *const Opaque<*const T> {
        // SAFETY: The caller promises `me` is valid; this only computes an address.
        unsafe { ptr::addr_of!((*me).self_ptr) }
    }
}

impl<T: ?Sized + ListItem<ID>, const ID: u64> List<T, ID> {
    /// An empty list.
    ///
    /// # Examples
    ///
    /// ```
    /// # use kernel_core::list::{impl_list_arc_safe, impl_list_item, ListLinks};
    /// # use kernel_core::prelude::*;
    /// # #[pin_data]
    /// # struct Item { #[pin] links: ListLinks }
    /// # impl_list_arc_safe! { impl ListArcSafe<0> for Item { untracked; } }
    /// # impl_list_item! { impl ListItem<0> for Item { using ListLinks { self.links }; } }
    /// use kernel_core::list::List;
    ///
    /// // A `const fn`: lists can be made in constants.
    /// const EMPTY: List<Item> = List::new();
    /// assert!(EMPTY.is_empty());
    /// ```
    #[inline]
    pub const fn new() -> Self {
        // INVARIANT: An empty list has a null `first`.
        Self {
            first: ptr::null_mut(),
            _ty: PhantomData,
        }
    }

    /// Whether the list has no element.
    ///
    /// # Examples
    ///
    /// ```
    /// # use kernel_core::list::{impl_list_arc_safe, impl_list_item, ListArc, ListLinks};
    /// # use kernel_core::prelude::*;
    /// # #[pin_data]
    /// # struct Item { #[pin] links: ListLinks }
    /// # impl_list_arc_safe! { impl ListArcSafe<0> for Item { untracked; } }
    /// # impl_list_item! { impl ListItem<0> for Item { using ListLinks { self.links }; } }
    /// # fn item() -> Result<ListArc<Item>> {
    /// #     ListArc::pin_init(try_pin_init!(Item { links <- ListLinks::new() }), GFP_KERNEL)
    /// # }
    /// use kernel_core::list::List;
    ///
    /// let mut list = List::<Item>::new();
    /// assert!(list.is_empty());
    /// list.push_back(item()?);
    /// assert!(!list.is_empty());
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.first.is_null()
    }

    /// Links `item` in just before `next`, and returns its links. `self.first` changes only if
    /// the list was empty.
    ///
    /// # Safety
    ///
    /// `next` is an element of this list, or null if and only if the list is empty.
    unsafe fn insert_inner(
        &mut self,
        item: ListArc<T, ID>,
        next: *mut ListLinksFields,
    ) -> *mut ListLinksFields {
        // The list keeps the `ListArc`'s reference: `remove_internal_inner` makes it a
        // `ListArc` again.
        let raw = ListArc::into_raw(item);
        // SAFETY: `raw` is the value of a `ListArc`, so it is in an `Arc`; owning that `ListArc`
        // means any earlier `prepare_to_insert` was undone by `post_remove` (the list calls it
        // before handing the `ListArc` back); the list keeps the `ListArc` until it calls
        // `post_remove` in `remove_internal_inner`.
        let links = unsafe { T::prepare_to_insert(raw) };
        // SAFETY: `prepare_to_insert` returns valid links, ours until `post_remove`.
        let new = unsafe { ListLinks::fields(links) };

        if next.is_null() {
            // INVARIANT: The only element is a cycle of one, and the first.
            // SAFETY: The links are ours (above).
            unsafe {
                new.write(ListLinksFields {
                    next: new,
                    prev: new,
                })
            };
            self.first = new;
        } else {
            // SAFETY: `next` is an element of this list (the caller's promise), so its links are
            // valid, and the list's to write.
            let prev = unsafe { (*next).prev };
            // INVARIANT: `new` goes between `prev` and `next`, which stay in the cycle (they are
            // the same element if the list had one).
            // SAFETY: `prev` is an element of this list too; `new`'s links are ours (above).
            unsafe {
                new.write(ListLinksFields { next, prev });
                (*prev).next = new;
                (*next).prev = new;
            }
        }
        new
    }

    /// Adds `item` at the back of the list.
    ///
    /// # Examples
    ///
    /// ```
    /// # use kernel_core::list::{impl_list_arc_safe, impl_list_item, ListArc, ListLinks};
    /// # use kernel_core::prelude::*;
    /// # #[pin_data]
    /// # struct Item { value: u32, #[pin] links: ListLinks }
    /// # impl_list_arc_safe! { impl ListArcSafe<0> for Item { untracked; } }
    /// # impl_list_item! { impl ListItem<0> for Item { using ListLinks { self.links }; } }
    /// # fn item(value: u32) -> Result<ListArc<Item>> {
    /// #     ListArc::pin_init(try_pin_init!(Item { value, links <- ListLinks::new() }), GFP_KERNEL)
    /// # }
    /// use kernel_core::list::List;
    ///
    /// let mut list = List::new();
    /// list.push_back(item(1)?);
    /// list.push_back(item(2)?);
    /// assert!(list.iter().map(|i| i.value).eq([1, 2]));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn push_back(&mut self, item: ListArc<T, ID>) {
        // SAFETY: `first` is an element of this list, or null if it is empty (type invariant).
        // Linked in before the first element is linked in last.
        unsafe { self.insert_inner(item, self.first) };
    }

    /// Adds `item` at the front of the list.
    ///
    /// # Examples
    ///
    /// ```
    /// # use kernel_core::list::{impl_list_arc_safe, impl_list_item, ListArc, ListLinks};
    /// # use kernel_core::prelude::*;
    /// # #[pin_data]
    /// # struct Item { value: u32, #[pin] links: ListLinks }
    /// # impl_list_arc_safe! { impl ListArcSafe<0> for Item { untracked; } }
    /// # impl_list_item! { impl ListItem<0> for Item { using ListLinks { self.links }; } }
    /// # fn item(value: u32) -> Result<ListArc<Item>> {
    /// #     ListArc::pin_init(try_pin_init!(Item { value, links <- ListLinks::new() }), GFP_KERNEL)
    /// # }
    /// use kernel_core::list::List;
    ///
    /// let mut list = List::new();
    /// list.push_front(item(1)?);
    /// list.push_front(item(2)?);
    /// assert!(list.iter().map(|i| i.value).eq([2, 1]));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn push_front(&mut self, item: ListArc<T, ID>) {
        // SAFETY: `first` is an element of this list, or null if it is empty (type invariant).
        let new = unsafe { self.insert_inner(item, self.first) };
        // INVARIANT: Linked in before the first element, `new` is the first now.
        self.first = new;
    }

    /// Removes the last element, if any.
    ///
    /// # Examples
    ///
    /// ```
    /// # use kernel_core::list::{impl_list_arc_safe, impl_list_item, ListArc, ListLinks};
    /// # use kernel_core::prelude::*;
    /// # #[pin_data]
    /// # struct Item { value: u32, #[pin] links: ListLinks }
    /// # impl_list_arc_safe! { impl ListArcSafe<0> for Item { untracked; } }
    /// # impl_list_item! { impl ListItem<0> for Item { using ListLinks { self.links }; } }
    /// # fn item(value: u32) -> Result<ListArc<Item>> {
    /// #     ListArc::pin_init(try_pin_init!(Item { value, links <- ListLinks::new() }), GFP_KERNEL)
    /// # }
    /// use kernel_core::list::List;
    ///
    /// let mut list = List::new();
    /// list.push_back(item(1)?);
    /// list.push_back(item(2)?);
    /// assert_eq!(list.pop_back().map(|i| i.value), Some(2));
    /// assert_eq!(list.pop_back().map(|i| i.value), Some(1));
    /// assert!(list.pop_back().is_none());
    /// # Ok::<(), Error>(())
    /// ```
    pub fn pop_back(&mut self) -> Option<ListArc<T, ID>> {
        if self.is_empty() {
            return None;
        }
        // SAFETY: The list is not empty, so `first` is an element, whose `prev` is the last.
        let last = unsafe { (*self.first).prev };
        // SAFETY: `last` is an element of this list.
        Some(unsafe { self.remove_internal(last) })
    }

    /// Removes the first element, if any.
    ///
    /// # Examples
    ///
    /// ```
    /// # use kernel_core::list::{impl_list_arc_safe, impl_list_item, ListArc, ListLinks};
    /// # use kernel_core::prelude::*;
    /// # #[pin_data]
    /// # struct Item { value: u32, #[pin] links: ListLinks }
    /// # impl_list_arc_safe! { impl ListArcSafe<0> for Item { untracked; } }
    /// # impl_list_item! { impl ListItem<0> for Item { using ListLinks { self.links }; } }
    /// # fn item(value: u32) -> Result<ListArc<Item>> {
    /// #     ListArc::pin_init(try_pin_init!(Item { value, links <- ListLinks::new() }), GFP_KERNEL)
    /// # }
    /// use kernel_core::list::List;
    ///
    /// let mut list = List::new();
    /// list.push_back(item(1)?);
    /// list.push_back(item(2)?);
    /// assert_eq!(list.pop_front().map(|i| i.value), Some(1));
    /// assert_eq!(list.pop_front().map(|i| i.value), Some(2));
    /// assert!(list.pop_front().is_none());
    /// # Ok::<(), Error>(())
    /// ```
    pub fn pop_front(&mut self) -> Option<ListArc<T, ID>> {
        if self.is_empty() {
            return None;
        }
        // SAFETY: The list is not empty, so `first` is an element of it.
        Some(unsafe { self.remove_internal(self.first) })
    }

    /// Removes `item` from this list, and returns its [`ListArc`]; `None` if it is in no list.
    ///
    /// Which list an element is in cannot be told from the element, so the caller promises
    /// that it is not in another list of the same `ID`. (Beware of `mem::take` on the list
    /// between inserting and removing: the element is then in the other list.)
    ///
    /// # Safety
    ///
    /// `item` is not in another `List<T, ID>` than this one.
    ///
    /// # Examples
    ///
    /// ```
    /// # use kernel_core::list::{impl_list_arc_safe, impl_list_item, ListArc, ListLinks};
    /// # use kernel_core::prelude::*;
    /// # #[pin_data]
    /// # struct Item { value: u32, #[pin] links: ListLinks }
    /// # impl_list_arc_safe! { impl ListArcSafe<0> for Item { untracked; } }
    /// # impl_list_item! { impl ListItem<0> for Item { using ListLinks { self.links }; } }
    /// # fn item(value: u32) -> Result<ListArc<Item>> {
    /// #     ListArc::pin_init(try_pin_init!(Item { value, links <- ListLinks::new() }), GFP_KERNEL)
    /// # }
    /// use kernel_core::list::List;
    ///
    /// let mut list = List::new();
    /// let middle = item(2)?;
    /// let kept = middle.clone_arc(); // a plain `Arc` to name the element later
    /// list.push_back(item(1)?);
    /// list.push_back(middle);
    /// list.push_back(item(3)?);
    ///
    /// // SAFETY: `kept`'s value is in no other list.
    /// let removed = unsafe { list.remove(&kept) }.expect("in the list");
    /// assert_eq!(removed.value, 2);
    /// // SAFETY: As above.
    /// assert!(unsafe { list.remove(&kept) }.is_none());
    /// assert!(list.iter().map(|i| i.value).eq([1, 3]));
    /// # Ok::<(), Error>(())
    /// ```
    pub unsafe fn remove(&mut self, item: &T) -> Option<ListArc<T, ID>> {
        // SAFETY: `item` is a reference, so it points to a valid value.
        let links = unsafe { T::view_links(item) };
        // SAFETY: `view_links` returns valid links.
        let fields = unsafe { ListLinks::fields(links) };
        // SAFETY: The links are valid. No data race: in no list, the two pointers are null and
        // nobody writes them; in a list, it is this one (the caller's promise), which `&mut self`
        // gives us alone.
        let ListLinksFields { next, prev } = unsafe { fields.read() };

        debug_assert_eq!(next.is_null(), prev.is_null());
        if next.is_null() {
            return None;
        }
        // The element's own pointer, as its neighbour holds it: the same address as `fields`,
        // with the provenance the list was built with rather than that of the reference
        // `item` (which would not allow the writes to come under strict provenance).
        // SAFETY: In a list, `next` is a valid element of it.
        let item = unsafe { (*next).prev };
        debug_assert_eq!(item, fields);
        // SAFETY: `item` is in a list, which is this one (the caller's promise), and `next` and
        // `prev` are its pointers.
        Some(unsafe { self.remove_internal_inner(item, next, prev) })
    }

    /// Removes the element whose links are `item`.
    ///
    /// # Safety
    ///
    /// `item` is an element of this list.
    unsafe fn remove_internal(&mut self, item: *mut ListLinksFields) -> ListArc<T, ID> {
        // SAFETY: `item` is an element of this list (the caller's promise), whose links only the
        // list, borrowed mutably, accesses.
        let ListLinksFields { next, prev } = unsafe { item.read() };
        // SAFETY: The pointers were read from `item` just above.
        unsafe { self.remove_internal_inner(item, next, prev) }
    }

    /// Removes the element whose links are `item`, whose pointers are `next` and `prev`, and
    /// returns its `ListArc`.
    ///
    /// # Safety
    ///
    /// `item` is an element of this list, with `(*item).next == next` and
    /// `(*item).prev == prev`.
    unsafe fn remove_internal_inner(
        &mut self,
        item: *mut ListLinksFields,
        next: *mut ListLinksFields,
        prev: *mut ListLinksFields,
    ) -> ListArc<T, ID> {
        // INVARIANT: The neighbours close the gap: with three elements or more, `prev` and `next`
        // become adjacent; with two, the other one points at itself both ways; with one,
        // `next == prev == item`, and these writes change nothing (the list is emptied below).
        // SAFETY: The neighbours are elements of this list, whose links the list owns.
        unsafe {
            (*next).prev = prev;
            (*prev).next = next;
        }
        // INVARIANT: Out of the list, the element's pointers are null.
        // SAFETY: `item` is an element of this list, whose links the list owns until
        // `post_remove` below.
        unsafe {
            item.write(ListLinksFields {
                next: ptr::null_mut(),
                prev: ptr::null_mut(),
            })
        };
        if self.first == item {
            // INVARIANT: The first element left: its successor is first, read from `prev`,
            // which now points past `item`. If `item` was alone, `prev` is `item`, whose `next`
            // was just set to null: the list is empty.
            // SAFETY: `prev` was `item`'s neighbour, so it is an element of this list, or
            // `item` itself; both are valid.
            self.first = unsafe { (*prev).next };
        }

        // SAFETY: `item` was in the list, so it is dereferenceable.
        let links = unsafe { ListLinks::from_fields(item) };
        // SAFETY: The links of an element come from its `prepare_to_insert`, not undone yet.
        let raw = unsafe { T::post_remove(links) };
        // SAFETY: `raw` is what `insert_inner` gave `prepare_to_insert`, from
        // `ListArc::into_raw`; the tracking still counts that `ListArc`, and none was made
        // since (the list owned it).
        unsafe { ListArc::from_raw(raw) }
    }

    /// Moves all of `other`'s elements to the back of this list, in their order; `other` is
    /// left empty.
    ///
    /// # Examples
    ///
    /// ```
    /// # use kernel_core::list::{impl_list_arc_safe, impl_list_item, ListArc, ListLinks};
    /// # use kernel_core::prelude::*;
    /// # #[pin_data]
    /// # struct Item { value: u32, #[pin] links: ListLinks }
    /// # impl_list_arc_safe! { impl ListArcSafe<0> for Item { untracked; } }
    /// # impl_list_item! { impl ListItem<0> for Item { using ListLinks { self.links }; } }
    /// # fn item(value: u32) -> Result<ListArc<Item>> {
    /// #     ListArc::pin_init(try_pin_init!(Item { value, links <- ListLinks::new() }), GFP_KERNEL)
    /// # }
    /// use kernel_core::list::List;
    ///
    /// let mut a = List::new();
    /// a.push_back(item(1)?);
    /// let mut b = List::new();
    /// b.push_back(item(2)?);
    /// b.push_back(item(3)?);
    ///
    /// a.push_all_back(&mut b);
    /// assert!(b.is_empty());
    /// assert!(a.iter().map(|i| i.value).eq([1, 2, 3]));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn push_all_back(&mut self, other: &mut List<T, ID>) {
        if self.is_empty() {
            // INVARIANT: `other`'s cycle becomes this list's.
            self.first = other.first;
        } else if !other.is_empty() {
            let (self_first, other_first) = (self.first, other.first);
            // SAFETY: Both lists are not empty, so their `first` are elements, whose `prev` are
            // their last elements.
            let (self_last, other_last) = unsafe { ((*self_first).prev, (*other_first).prev) };
            // INVARIANT: One cycle: this list's last element is followed by `other`'s first, and
            // `other`'s last by this list's first, which stays first.
            // SAFETY: All four are elements of the two lists, both borrowed mutably.
            unsafe {
                (*self_last).next = other_first;
                (*other_first).prev = self_last;
                (*other_last).next = self_first;
                (*self_first).prev = other_last;
            }
        }
        // INVARIANT: Its elements are this list's now.
        other.first = ptr::null_mut();
    }

    /// A cursor before the first element (at the front: its next element is the first).
    ///
    /// # Examples
    ///
    /// ```
    /// # use kernel_core::list::{impl_list_arc_safe, impl_list_item, ListArc, ListLinks};
    /// # use kernel_core::prelude::*;
    /// # #[pin_data]
    /// # struct Item { value: u32, #[pin] links: ListLinks }
    /// # impl_list_arc_safe! { impl ListArcSafe<0> for Item { untracked; } }
    /// # impl_list_item! { impl ListItem<0> for Item { using ListLinks { self.links }; } }
    /// # fn item(value: u32) -> Result<ListArc<Item>> {
    /// #     ListArc::pin_init(try_pin_init!(Item { value, links <- ListLinks::new() }), GFP_KERNEL)
    /// # }
    /// use kernel_core::list::List;
    ///
    /// let mut list = List::new();
    /// list.push_back(item(1)?);
    /// list.push_back(item(2)?);
    /// let mut cursor = list.cursor_front();
    /// assert!(cursor.peek_prev().is_none());
    /// assert_eq!(cursor.peek_next().map(|p| p.value), Some(1));
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn cursor_front(&mut self) -> Cursor<'_, T, ID> {
        // SAFETY: `first` is null or an element of the list.
        unsafe { Cursor::new(self, self.first) }
    }

    /// A cursor after the last element (at the back: its previous element is the last).
    ///
    /// # Examples
    ///
    /// ```
    /// # use kernel_core::list::{impl_list_arc_safe, impl_list_item, ListArc, ListLinks};
    /// # use kernel_core::prelude::*;
    /// # #[pin_data]
    /// # struct Item { value: u32, #[pin] links: ListLinks }
    /// # impl_list_arc_safe! { impl ListArcSafe<0> for Item { untracked; } }
    /// # impl_list_item! { impl ListItem<0> for Item { using ListLinks { self.links }; } }
    /// # fn item(value: u32) -> Result<ListArc<Item>> {
    /// #     ListArc::pin_init(try_pin_init!(Item { value, links <- ListLinks::new() }), GFP_KERNEL)
    /// # }
    /// use kernel_core::list::List;
    ///
    /// let mut list = List::new();
    /// list.push_back(item(1)?);
    /// list.push_back(item(2)?);
    /// let mut cursor = list.cursor_back();
    /// assert!(cursor.peek_next().is_none());
    /// assert_eq!(cursor.peek_prev().map(|p| p.value), Some(2));
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn cursor_back(&mut self) -> Cursor<'_, T, ID> {
        // SAFETY: A null `next` is always allowed: the cursor is after the last element.
        unsafe { Cursor::new(self, ptr::null_mut()) }
    }

    /// An iterator over the elements, front to back, as [`ArcBorrow`](crate::sync::ArcBorrow)s.
    ///
    /// # Examples
    ///
    /// ```
    /// # use kernel_core::list::{impl_list_arc_safe, impl_list_item, ListArc, ListLinks};
    /// # use kernel_core::prelude::*;
    /// # #[pin_data]
    /// # struct Item { value: u32, #[pin] links: ListLinks }
    /// # impl_list_arc_safe! { impl ListArcSafe<0> for Item { untracked; } }
    /// # impl_list_item! { impl ListItem<0> for Item { using ListLinks { self.links }; } }
    /// # fn item(value: u32) -> Result<ListArc<Item>> {
    /// #     ListArc::pin_init(try_pin_init!(Item { value, links <- ListLinks::new() }), GFP_KERNEL)
    /// # }
    /// use kernel_core::list::List;
    /// use kernel_core::sync::Arc;
    ///
    /// let mut list = List::new();
    /// list.push_back(item(4)?);
    /// list.push_back(item(5)?);
    /// assert_eq!(list.iter().map(|i| i.value).sum::<u32>(), 9);
    ///
    /// // An element can be kept beyond the borrow of the list as an `Arc`.
    /// let first: Arc<Item> = list.iter().next().expect("not empty").into();
    /// drop(list);
    /// assert_eq!(first.value, 4);
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn iter(&self) -> Iter<'_, T, ID> {
        // SAFETY: `first` is null for an empty list, or its first element, and the list stays
        // borrowed for the iterator's lifetime.
        unsafe { Iter::new(self.first) }
    }
}

/// An empty list.
///
/// # Examples
///
/// ```
/// # use kernel_core::list::{impl_list_arc_safe, impl_list_item, ListArc, ListLinks};
/// # use kernel_core::prelude::*;
/// # #[pin_data]
/// # struct Item { value: u32, #[pin] links: ListLinks }
/// # impl_list_arc_safe! { impl ListArcSafe<0> for Item { untracked; } }
/// # impl_list_item! { impl ListItem<0> for Item { using ListLinks { self.links }; } }
/// # fn item(value: u32) -> Result<ListArc<Item>> {
/// #     ListArc::pin_init(try_pin_init!(Item { value, links <- ListLinks::new() }), GFP_KERNEL)
/// # }
/// use kernel_core::list::List;
///
/// let mut list = List::new();
/// list.push_back(item(1)?);
/// // Takes the elements, and leaves an empty list behind.
/// let taken = core::mem::take(&mut list);
/// assert!(list.is_empty());
/// assert_eq!(taken.iter().count(), 1);
/// # Ok::<(), Error>(())
/// ```
impl<T: ?Sized + ListItem<ID>, const ID: u64> Default for List<T, ID> {
    fn default() -> Self {
        List::new()
    }
}

/// Drops the list's `ListArc`s, front to back.
impl<T: ?Sized + ListItem<ID>, const ID: u64> Drop for List<T, ID> {
    fn drop(&mut self) {
        while let Some(item) = self.pop_front() {
            drop(item);
        }
    }
}
