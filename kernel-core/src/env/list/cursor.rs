// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! [`Cursor`]: a position between two elements of a [`List`], to walk it both ways and to
//! insert and remove there; [`CursorPeek`]: the element on one side of a cursor.

use core::ops::Deref;
use core::ptr;

use super::{List, ListArc, ListItem, ListLinks, ListLinksFields};
use crate::sync::ArcBorrow;

/// A position in a [`List`], between two elements: it has a previous and a next element
/// (either may be missing, at the ends), and no current one. A cursor into an empty list is
/// both at the front and at the back.
///
/// Made by [`List::cursor_front`] and [`List::cursor_back`]; it borrows the list mutably, so
/// it can insert and remove elements.
///
/// # Invariants
///
/// `next` is null (the cursor is after the last element) or an element of `list`.
///
/// # Examples
///
/// A list kept sorted, and edited in the middle:
///
/// ```
/// use kernel_core::list::{impl_list_arc_safe, impl_list_item, List, ListArc, ListLinks};
/// use kernel_core::prelude::*;
///
/// #[pin_data]
/// struct Event {
///     time: u32,
///     #[pin]
///     links: ListLinks,
/// }
///
/// impl Event {
///     fn new(time: u32) -> Result<ListArc<Self>> {
///         ListArc::pin_init(try_pin_init!(Self { time, links <- ListLinks::new() }), GFP_KERNEL)
///     }
/// }
///
/// impl_list_arc_safe! {
///     impl ListArcSafe<0> for Event { untracked; }
/// }
/// impl_list_item! {
///     impl ListItem<0> for Event { using ListLinks { self.links }; }
/// }
///
/// /// Inserts `new` after every event that is not later.
/// fn schedule(list: &mut List<Event>, new: ListArc<Event>) {
///     let mut cursor = list.cursor_back();
///     while let Some(prev) = cursor.peek_prev() {
///         if prev.time <= new.time {
///             break;
///         }
///         cursor.move_prev();
///     }
///     cursor.insert(new);
/// }
///
/// /// Removes every event before `time`, and returns them in a list of their own.
/// fn expire(list: &mut List<Event>, time: u32) -> List<Event> {
///     let mut expired = List::new();
///     let mut cursor = list.cursor_front();
///     while let Some(next) = cursor.peek_next() {
///         if next.time >= time {
///             break;
///         }
///         expired.push_back(next.remove());
///     }
///     expired
/// }
///
/// /// Removes the last event at `time`, searching from the back.
/// fn cancel_last(list: &mut List<Event>, time: u32) -> Option<ListArc<Event>> {
///     let mut cursor = list.cursor_back();
///     while let Some(prev) = cursor.peek_prev() {
///         if prev.time == time {
///             return Some(prev.remove());
///         }
///         cursor.move_prev();
///     }
///     None
/// }
///
/// let mut timeline = List::new();
/// for time in [30, 10, 20, 10, 40] {
///     schedule(&mut timeline, Event::new(time)?);
/// }
/// fn times(list: &List<Event>) -> impl Iterator<Item = u32> + '_ {
///     list.iter().map(|e| e.time)
/// }
/// assert!(times(&timeline).eq([10, 10, 20, 30, 40]));
///
/// assert!(times(&expire(&mut timeline, 25)).eq([10, 10, 20]));
/// assert!(cancel_last(&mut timeline, 40).is_some());
/// assert!(cancel_last(&mut timeline, 99).is_none());
/// assert!(times(&timeline).eq([30]));
/// # Ok::<(), Error>(())
/// ```
pub struct Cursor<'a, T: ?Sized + ListItem<ID>, const ID: u64 = 0> {
    list: &'a mut List<T, ID>,
    /// The element after the cursor, or null at the back.
    next: *mut ListLinksFields,
}

impl<'a, T: ?Sized + ListItem<ID>, const ID: u64> Cursor<'a, T, ID> {
    /// The cursor before `next` in `list`.
    ///
    /// # Safety
    ///
    /// `next` is null or an element of `list`.
    #[inline]
    pub(super) unsafe fn new(list: &'a mut List<T, ID>, next: *mut ListLinksFields) -> Self {
        // INVARIANT: The caller's promise.
        Cursor { list, next }
    }

    /// The element before the cursor, or null at the front.
    fn prev_ptr(&self) -> *mut ListLinksFields {
        let first = self.list.first;
        if self.next == first {
            // At the front (of a list that may be empty): nothing before.
            return ptr::null_mut();
        }
        // At the back, the element before is the last, the first's `prev`.
        let next = if self.next.is_null() {
            first
        } else {
            self.next
        };
        // SAFETY: `next` is not null: a null `self.next` with a null `first` returned above, so
        // it is an element of the list (type invariant), whose links the list's borrow lets us
        // read.
        unsafe { (*next).prev }
    }

    /// The element after the cursor, if any.
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
    /// let mut cursor = list.cursor_front();
    /// assert_eq!(cursor.peek_next().map(|next| next.value), Some(1));
    /// cursor.move_next();
    /// assert!(cursor.peek_next().is_none());
    /// # Ok::<(), Error>(())
    /// ```
    pub fn peek_next(&mut self) -> Option<CursorPeek<'_, 'a, T, true, ID>> {
        if self.next.is_null() {
            return None;
        }
        // INVARIANT: `self.next` is not null, so an element of the list, and it is the cursor's
        // next element.
        Some(CursorPeek {
            ptr: self.next,
            cursor: self,
        })
    }

    /// The element before the cursor, if any.
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
    /// let mut cursor = list.cursor_back();
    /// assert_eq!(cursor.peek_prev().map(|prev| prev.value), Some(1));
    /// cursor.move_prev();
    /// assert!(cursor.peek_prev().is_none());
    /// # Ok::<(), Error>(())
    /// ```
    pub fn peek_prev(&mut self) -> Option<CursorPeek<'_, 'a, T, false, ID>> {
        let prev = self.prev_ptr();
        if prev.is_null() {
            return None;
        }
        // INVARIANT: `prev` is not null, so an element of the list, and never the cursor's next
        // element (it is the one before it, which is another one, or `next` is null).
        Some(CursorPeek {
            ptr: prev,
            cursor: self,
        })
    }

    /// Moves the cursor one element towards the back; `false` if it was at the back already
    /// (and stays there).
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
    /// assert!(cursor.move_next());
    /// assert!(cursor.move_next());
    /// assert!(!cursor.move_next()); // at the back
    /// assert_eq!(cursor.peek_prev().map(|prev| prev.value), Some(2));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn move_next(&mut self) -> bool {
        if self.next.is_null() {
            return false;
        }
        // SAFETY: `self.next` is not null, so it is an element of the list, which the cursor
        // borrows.
        let after = unsafe { (*self.next).next };
        // INVARIANT: The element after `next`, or null if `next` was the last (the cycle comes
        // back to the first).
        self.next = if after == self.list.first {
            ptr::null_mut()
        } else {
            after
        };
        true
    }

    /// Moves the cursor one element towards the front; `false` if it was at the front already
    /// (and stays there).
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
    /// let mut cursor = list.cursor_back();
    /// assert!(cursor.move_prev());
    /// assert!(!cursor.move_prev()); // at the front
    /// assert_eq!(cursor.peek_next().map(|next| next.value), Some(1));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn move_prev(&mut self) -> bool {
        if self.next == self.list.first {
            return false;
        }
        // INVARIANT: `prev_ptr` is null or an element of the list.
        self.next = self.prev_ptr();
        true
    }

    /// Inserts `item` at the cursor, and returns its links.
    fn insert_inner(&mut self, item: ListArc<T, ID>) -> *mut ListLinksFields {
        // Before the cursor's next element, or at the back: before the first, in the cycle.
        let before = if self.next.is_null() {
            self.list.first
        } else {
            self.next
        };
        // SAFETY: `before` is an element of the list, or null: then `self.next` and
        // `self.list.first` are null, so the list is empty.
        let new = unsafe { self.list.insert_inner(item, before) };
        if self.next == self.list.first {
            // INVARIANT: The cursor was at the front, before which `new` went: it is the first
            // element now. (In an empty list both are null: `new` is already first.)
            self.list.first = new;
        }
        new
    }

    /// Inserts `item` at the cursor, and ends with the cursor: what to write when the insertion
    /// is the last thing done with it (it is [`Cursor::insert_prev`]).
    ///
    /// # Examples
    ///
    /// See [`Cursor`].
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
    /// list.push_back(item(3)?);
    /// let mut cursor = list.cursor_front();
    /// cursor.move_next();
    /// cursor.insert(item(2)?);
    /// assert!(list.iter().map(|i| i.value).eq([1, 2, 3]));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn insert(mut self, item: ListArc<T, ID>) {
        self.insert_inner(item);
    }

    /// Inserts `item` at the cursor, which ends up before it: `item` is the cursor's next
    /// element.
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
    /// let mut cursor = list.cursor_back();
    /// cursor.insert_next(item(2)?);
    /// cursor.insert_next(item(1)?);
    /// assert_eq!(cursor.peek_next().map(|next| next.value), Some(1));
    /// assert!(list.iter().map(|i| i.value).eq([1, 2]));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn insert_next(&mut self, item: ListArc<T, ID>) {
        // INVARIANT: The new element is in the list.
        self.next = self.insert_inner(item);
    }

    /// Inserts `item` at the cursor, which ends up after it: `item` is the cursor's previous
    /// element.
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
    /// let mut cursor = list.cursor_front();
    /// cursor.insert_prev(item(1)?);
    /// cursor.insert_prev(item(2)?);
    /// assert_eq!(cursor.peek_prev().map(|prev| prev.value), Some(2));
    /// assert!(list.iter().map(|i| i.value).eq([1, 2]));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn insert_prev(&mut self, item: ListArc<T, ID>) {
        self.insert_inner(item);
    }

    /// Removes the element after the cursor, if any.
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
    /// assert_eq!(cursor.remove_next().map(|i| i.value), Some(1));
    /// assert_eq!(cursor.remove_next().map(|i| i.value), Some(2));
    /// assert!(cursor.remove_next().is_none());
    /// assert!(list.is_empty());
    /// # Ok::<(), Error>(())
    /// ```
    pub fn remove_next(&mut self) -> Option<ListArc<T, ID>> {
        self.peek_next().map(CursorPeek::remove)
    }

    /// Removes the element before the cursor, if any.
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
    /// assert_eq!(cursor.remove_prev().map(|i| i.value), Some(2));
    /// assert_eq!(cursor.remove_prev().map(|i| i.value), Some(1));
    /// assert!(cursor.remove_prev().is_none());
    /// # Ok::<(), Error>(())
    /// ```
    pub fn remove_prev(&mut self) -> Option<ListArc<T, ID>> {
        self.peek_prev().map(CursorPeek::remove)
    }
}

/// The element on one side of a [`Cursor`] (after it if `ISNEXT`, before it otherwise): read
/// it through `Deref`, keep it as an [`ArcBorrow`] with [`CursorPeek::arc`], or take it out of
/// the list with [`CursorPeek::remove`].
///
/// # Invariants
///
/// - `ptr` is an element of `cursor.list`;
/// - `ptr == cursor.next` exactly when `ISNEXT`.
///
/// # Examples
///
/// See [`Cursor`].
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
/// list.push_back(item(7)?);
/// let mut cursor = list.cursor_front();
/// let peek = cursor.peek_next().expect("one element");
/// assert_eq!(peek.value, 7); // through `Deref`
/// # Ok::<(), Error>(())
/// ```
pub struct CursorPeek<'a, 'b, T: ?Sized + ListItem<ID>, const ISNEXT: bool, const ID: u64> {
    cursor: &'a mut Cursor<'b, T, ID>,
    ptr: *mut ListLinksFields,
}

impl<'a, 'b, T: ?Sized + ListItem<ID>, const ISNEXT: bool, const ID: u64>
    CursorPeek<'a, 'b, T, ISNEXT, ID>
{
    /// Removes the element from the list, and returns it. The cursor stays where it was,
    /// between the element's former neighbours.
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
    /// for value in 1..=3 {
    ///     list.push_back(item(value)?);
    /// }
    /// let mut cursor = list.cursor_front();
    /// cursor.move_next();
    /// let two = cursor.peek_next().expect("three elements").remove();
    /// assert_eq!(two.value, 2);
    /// assert_eq!(cursor.peek_prev().map(|p| p.value), Some(1));
    /// assert_eq!(cursor.peek_next().map(|p| p.value), Some(3));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn remove(self) -> ListArc<T, ID> {
        if ISNEXT {
            // The cursor's next element goes: the cursor's next is the one after it.
            self.cursor.move_next();
        }
        // INVARIANT: `self.ptr` is not `self.cursor.next` any more (moved past above), so the
        // cursor's invariant holds after the removal.
        // SAFETY: `self.ptr` is an element of the cursor's list (type invariant).
        unsafe { self.cursor.list.remove_internal(self.ptr) }
    }

    /// The element as an [`ArcBorrow`], for as long as this `CursorPeek` is borrowed.
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
    /// list.push_back(item(5)?);
    /// let mut cursor = list.cursor_front();
    /// let kept: Arc<Item> = cursor.peek_next().expect("one element").arc().into();
    /// drop(cursor);
    /// drop(list);
    /// assert_eq!(kept.value, 5);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn arc(&self) -> ArcBorrow<'_, T> {
        // SAFETY: `self.ptr` is an element of the cursor's list, so its links come from its
        // `prepare_to_insert`, not undone yet.
        let me = unsafe { T::view_value(ListLinks::from_fields(self.ptr)) };
        // SAFETY:
        // - the values of a list are in `Arc`s, and `me` is what `ListArc::into_raw` gave;
        // - the element stays in the list while the `ArcBorrow` lives: removing it takes the
        //   `CursorPeek`, the `Cursor` or the `List` mutably, and the `ArcBorrow` borrows this
        //   `CursorPeek`, which borrows the `Cursor` and the `List`;
        // - a value in a list has a `ListArc`, so no `UniqueArc`.
        unsafe { ArcBorrow::from_raw(me) }
    }
}

impl<'a, 'b, T: ?Sized + ListItem<ID>, const ISNEXT: bool, const ID: u64> Deref
    for CursorPeek<'a, 'b, T, ISNEXT, ID>
{
    // Not `ArcBorrow<'a, T>`: a borrow as long as `'a` would outlive `remove(self)`, which
    // drops the list's `ListArc`.
    type Target = T;

    fn deref(&self) -> &T {
        // SAFETY: `self.ptr` is an element of the cursor's list, so its links come from its
        // `prepare_to_insert`, not undone yet.
        let me = unsafe { T::view_value(ListLinks::from_fields(self.ptr)) };
        // SAFETY: The element stays in the list, and so alive, while `&T` borrows `self` (see
        // `arc`).
        unsafe { &*me }
    }
}
