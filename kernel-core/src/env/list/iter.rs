// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The iterators of a [`List`]: [`Iter`] borrows it, [`IntoIter`] empties it.

use core::iter::{DoubleEndedIterator, FusedIterator};
use core::marker::PhantomData;
use core::ptr;

use super::{List, ListArc, ListItem, ListLinks, ListLinksFields};
use crate::sync::ArcBorrow;

/// An iterator over the elements of a [`List`], front to back, as
/// [`ArcBorrow`]s for as long as the list is borrowed. Made by [`List::iter`] and by a `for`
/// loop over a `&List`.
///
/// # Invariants
///
/// - A [`List`] is borrowed for `'a`;
/// - `current` is null (the end) or an element of that list;
/// - `stop` is that list's `first`.
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
/// use kernel_core::list::{Iter, List};
///
/// let mut list = List::new();
/// list.push_back(item(1)?);
/// list.push_back(item(2)?);
///
/// let mut sum = 0;
/// for i in &list {
///     sum += i.value;
/// }
/// assert_eq!(sum, 3);
///
/// let mut iter: Iter<'_, Item> = list.iter();
/// assert_eq!(iter.next().map(|i| i.value), Some(1));
/// assert_eq!(iter.next().map(|i| i.value), Some(2));
/// assert!(iter.next().is_none());
/// assert!(iter.next().is_none()); // and stays so
/// # Ok::<(), Error>(())
/// ```
#[derive(Clone)]
pub struct Iter<'a, T: ?Sized + ListItem<ID>, const ID: u64 = 0> {
    current: *mut ListLinksFields,
    stop: *mut ListLinksFields,
    _ty: PhantomData<&'a ListArc<T, ID>>,
}

impl<T: ?Sized + ListItem<ID>, const ID: u64> Iter<'_, T, ID> {
    /// An iterator from `first`, the first element of a list (or null).
    ///
    /// # Safety
    ///
    /// `first` is the `first` of a [`List`] borrowed for the iterator's lifetime.
    #[inline]
    pub(super) unsafe fn new(first: *mut ListLinksFields) -> Self {
        // INVARIANT: Starts at the first element (or at the end of an empty list), and stops
        // when the cycle comes back to it.
        Iter {
            current: first,
            stop: first,
            _ty: PhantomData,
        }
    }
}

impl<'a, T: ?Sized + ListItem<ID>, const ID: u64> Iterator for Iter<'a, T, ID> {
    type Item = ArcBorrow<'a, T>;

    fn next(&mut self) -> Option<ArcBorrow<'a, T>> {
        if self.current.is_null() {
            return None;
        }
        let current = self.current;
        // SAFETY: `current` is not null, so it is an element of the list, which is borrowed (no
        // one writes its links).
        let next = unsafe { (*current).next };
        // INVARIANT: Past the last element, the cycle reaches `stop`: the end.
        self.current = if next == self.stop {
            ptr::null_mut()
        } else {
            next
        };

        // SAFETY: `current` is an element of the list, so its links come from its
        // `prepare_to_insert`, not undone yet.
        let item = unsafe { T::view_value(ListLinks::from_fields(current)) };
        // SAFETY:
        // - the values of a list are in `Arc`s, and `item` is what `ListArc::into_raw` gave;
        // - the element stays in the list for `'a`: removing it takes the list mutably, and it
        //   is borrowed for `'a`;
        // - a value in a list has a `ListArc`, so no `UniqueArc`.
        Some(unsafe { ArcBorrow::from_raw(item) })
    }
}

impl<T: ?Sized + ListItem<ID>, const ID: u64> FusedIterator for Iter<'_, T, ID> {}

/// Iterates over the list's elements, front to back.
///
/// # Examples
///
/// See [`Iter`].
impl<'a, T: ?Sized + ListItem<ID>, const ID: u64> IntoIterator for &'a List<T, ID> {
    type IntoIter = Iter<'a, T, ID>;
    type Item = ArcBorrow<'a, T>;

    #[inline]
    fn into_iter(self) -> Iter<'a, T, ID> {
        self.iter()
    }
}

/// An iterator that takes the elements out of a [`List`], as their [`ListArc`]s: from the
/// front with `next`, from the back with `next_back`. Made by `into_iter` and a `for` loop
/// over a `List`; what it does not take is dropped with it.
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
/// use kernel_core::list::{IntoIter, List};
///
/// let mut list = List::new();
/// for value in 1..=4 {
///     list.push_back(item(value)?);
/// }
/// let mut items: IntoIter<Item> = list.into_iter();
/// assert_eq!(items.next().map(|i| i.value), Some(1));
/// assert_eq!(items.next_back().map(|i| i.value), Some(4));
/// assert!(items.map(|i| i.value).eq([2, 3]));
/// # Ok::<(), Error>(())
/// ```
pub struct IntoIter<T: ?Sized + ListItem<ID>, const ID: u64 = 0> {
    list: List<T, ID>,
}

impl<T: ?Sized + ListItem<ID>, const ID: u64> Iterator for IntoIter<T, ID> {
    type Item = ListArc<T, ID>;

    #[inline]
    fn next(&mut self) -> Option<ListArc<T, ID>> {
        self.list.pop_front()
    }
}

impl<T: ?Sized + ListItem<ID>, const ID: u64> FusedIterator for IntoIter<T, ID> {}

impl<T: ?Sized + ListItem<ID>, const ID: u64> DoubleEndedIterator for IntoIter<T, ID> {
    #[inline]
    fn next_back(&mut self) -> Option<ListArc<T, ID>> {
        self.list.pop_back()
    }
}

/// Takes the elements out of the list, front to back.
///
/// # Examples
///
/// See [`IntoIter`].
impl<T: ?Sized + ListItem<ID>, const ID: u64> IntoIterator for List<T, ID> {
    type IntoIter = IntoIter<T, ID>;
    type Item = ListArc<T, ID>;

    #[inline]
    fn into_iter(self) -> IntoIter<T, ID> {
        IntoIter { list: self }
    }
}
