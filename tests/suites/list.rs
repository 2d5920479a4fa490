// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `kernel_core::list`: intrusive lists of `ListArc`s, their cursors and iterators, `ListArc`
//! and its tracking, `ListArcField`, and the macros, as a driver uses them on one thread.
//!
//! Written against Linux 7.3's API only: the same file runs on the host (kernel-core's own
//! list) and in the kernel (the kernel's own `kernel::list` on 7.2 and 7.3, kernel-core's on
//! 6.12). Two things are written so that they build with both: a `ListArc` of a trait object is
//! made through its raw pointer (the host's does not coerce), and `define_list_arc_field_getter!`
//! accessors are called as `Type::getter(&list_arc)` (the host's take the `ListArc` as their
//! first argument). What needs threads or `std` is in the host-only `tests/list.rs`.

use kernel_core::macros::kunit_tests;

#[kunit_tests(kernel_core_list)]
mod tests {
    use core::cell::Cell;

    use kernel_core::list::{
        define_list_arc_field_getter, impl_list_arc_safe, impl_list_item, AtomicTracker, List,
        ListArc, ListArcField, ListItem, ListLinks, ListLinksSelfPtr, TryNewListArc,
    };
    use kernel_core::prelude::*;
    use kernel_core::sync::{new_spinlock, Arc, UniqueArc};

    /// Counts its drops in a `Cell`.
    struct Counted<'d>(&'d Cell<usize>);

    impl Drop for Counted<'_> {
        fn drop(&mut self) {
            self.0.set(self.0.get() + 1);
        }
    }

    /// An element of the lists `0` (links `a`) and `1` (links `b`), whose drop is counted.
    #[pin_data]
    struct Item<'d> {
        value: u32,
        drops: Counted<'d>,
        #[pin]
        a: ListLinks<0>,
        #[pin]
        b: ListLinks<1>,
    }

    impl_list_arc_safe! {
        impl{'d} ListArcSafe<0> for Item<'d> { untracked; }
        impl{'d} ListArcSafe<1> for Item<'d> { untracked; }
    }
    impl_list_item! {
        impl{'d} ListItem<0> for Item<'d> { using ListLinks { self.a }; }
        impl{'d} ListItem<1> for Item<'d> { using ListLinks { self.b }; }
    }

    /// The initialiser of an `Item`.
    fn item_init(value: u32, drops: &Cell<usize>) -> impl PinInit<Item<'_>, Error> {
        try_pin_init!(Item {
            value,
            drops: Counted(drops),
            a <- ListLinks::new(),
            b <- ListLinks::new(),
        })
    }

    /// The initialiser of an `Item` that fails with `ENOSPC` after its first links.
    fn failing_init(drops: &Cell<usize>) -> impl PinInit<Item<'_>, Error> {
        try_pin_init!(Item {
            value: 0,
            drops: Counted(drops),
            a <- ListLinks::new(),
            b: Err(ENOSPC)?,
        })
    }

    /// A new `Item` with its `ListArc` for list `0`.
    fn item(value: u32, drops: &Cell<usize>) -> Result<ListArc<Item<'_>>> {
        ListArc::pin_init(item_init(value, drops), GFP_KERNEL)
    }

    /// A list of `values`, in their order.
    fn list_of<'d>(values: &[u32], drops: &'d Cell<usize>) -> Result<List<Item<'d>>> {
        let mut list = List::new();
        for &value in values {
            list.push_back(item(value, drops)?);
        }
        Ok(list)
    }

    /// Whether the list holds `expected`, front to back, and back to front through a cursor.
    fn holds<'d, const ID: u64>(list: &mut List<Item<'d>, ID>, expected: &[u32]) -> bool
    where
        Item<'d>: ListItem<ID>,
    {
        if !list.iter().map(|i| i.value).eq(expected.iter().copied()) {
            return false;
        }
        let mut cursor = list.cursor_back();
        let mut rest = expected.iter().rev();
        while let Some(prev) = cursor.peek_prev() {
            if Some(&prev.value) != rest.next() {
                return false;
            }
            cursor.move_prev();
        }
        rest.next().is_none() && list.is_empty() == expected.is_empty()
    }

    #[test]
    fn push_and_pop_at_both_ends() -> Result {
        let drops = Cell::new(0);
        let mut list = List::new();
        assert!(list.is_empty());
        assert!(list.pop_front().is_none());
        assert!(list.pop_back().is_none());

        list.push_back(item(2, &drops)?);
        list.push_front(item(1, &drops)?);
        list.push_back(item(3, &drops)?);
        assert!(holds(&mut list, &[1, 2, 3]));
        assert_eq!(list.iter().count(), 3);

        assert_eq!(list.pop_front().map(|i| i.value), Some(1));
        assert_eq!(list.pop_back().map(|i| i.value), Some(3));
        assert!(holds(&mut list, &[2]));
        assert_eq!(list.pop_back().map(|i| i.value), Some(2));
        assert!(list.is_empty());
        assert!(holds(&mut list, &[]));
        assert_eq!(drops.get(), 3);
        Ok(())
    }

    #[test]
    fn a_popped_element_can_go_back_into_a_list() -> Result {
        let drops = Cell::new(0);
        let mut list = list_of(&[1, 2], &drops)?;
        let one = list.pop_front().ok_or(EINVAL)?;
        list.push_back(one);
        assert!(holds(&mut list, &[2, 1]));
        let mut other = List::new();
        while let Some(i) = list.pop_back() {
            other.push_back(i);
        }
        assert!(holds(&mut other, &[1, 2]));
        assert!(list.is_empty());
        assert_eq!(drops.get(), 0);
        Ok(())
    }

    #[test]
    fn push_all_back_appends_and_empties_the_other() -> Result {
        let drops = Cell::new(0);
        let mut list = list_of(&[1, 2], &drops)?;
        let mut other = list_of(&[3, 4, 5], &drops)?;
        list.push_all_back(&mut other);
        assert!(holds(&mut list, &[1, 2, 3, 4, 5]));
        assert!(other.is_empty());

        // An empty list on either side.
        list.push_all_back(&mut other);
        assert!(holds(&mut list, &[1, 2, 3, 4, 5]));
        let mut empty = List::new();
        empty.push_all_back(&mut list);
        assert!(holds(&mut empty, &[1, 2, 3, 4, 5]));
        assert!(list.is_empty());

        // Still a well-formed list: both ends work.
        empty.push_front(item(0, &drops)?);
        empty.push_back(item(6, &drops)?);
        assert!(holds(&mut empty, &[0, 1, 2, 3, 4, 5, 6]));
        drop(empty);
        assert_eq!(drops.get(), 7);
        Ok(())
    }

    #[test]
    fn remove_takes_an_element_from_anywhere() -> Result {
        let drops = Cell::new(0);
        let mut list = List::new();
        let mut kept = KVec::new();
        for value in 1..=4 {
            let i = item(value, &drops)?;
            kept.push(i.clone_arc(), GFP_KERNEL)?;
            list.push_back(i);
        }
        // SAFETY: Every element is in `list` or in no list.
        unsafe {
            assert_eq!(list.remove(&kept[1]).map(|i| i.value), Some(2));
            assert!(list.remove(&kept[1]).is_none());
            assert_eq!(list.remove(&kept[0]).map(|i| i.value), Some(1));
            assert_eq!(list.remove(&kept[3]).map(|i| i.value), Some(4));
        }
        assert!(holds(&mut list, &[3]));
        // SAFETY: As above.
        assert_eq!(unsafe { list.remove(&kept[2]) }.map(|i| i.value), Some(3));
        assert!(list.is_empty());
        assert_eq!(drops.get(), 0);
        drop(kept);
        assert_eq!(drops.get(), 4);
        Ok(())
    }

    #[test]
    fn a_cursor_walks_both_ways_and_stops_at_the_ends() -> Result {
        let drops = Cell::new(0);
        let mut empty = List::<Item<'_>>::new();
        let mut cursor = empty.cursor_front();
        assert!(cursor.peek_next().is_none());
        assert!(cursor.peek_prev().is_none());
        assert!(!cursor.move_next());
        assert!(!cursor.move_prev());
        assert!(cursor.remove_next().is_none());
        assert!(cursor.remove_prev().is_none());

        let mut list = list_of(&[1, 2, 3], &drops)?;
        let mut cursor = list.cursor_front();
        assert!(!cursor.move_prev());
        let mut seen = 0;
        while let Some(next) = cursor.peek_next() {
            seen = seen * 10 + next.value;
            cursor.move_next();
        }
        assert_eq!(seen, 123);
        assert!(!cursor.move_next());
        assert_eq!(cursor.peek_prev().map(|p| p.value), Some(3));
        assert!(cursor.move_prev());
        assert!(cursor.move_prev());
        assert_eq!(cursor.peek_prev().map(|p| p.value), Some(1));
        assert_eq!(cursor.peek_next().map(|p| p.value), Some(2));

        let mut back = list.cursor_back();
        assert!(back.peek_next().is_none());
        assert_eq!(back.peek_prev().map(|p| p.value), Some(3));
        Ok(())
    }

    #[test]
    fn a_cursor_inserts_on_either_side() -> Result {
        let drops = Cell::new(0);
        let mut list = List::new();
        // Into an empty list, and at the back.
        let mut cursor = list.cursor_back();
        cursor.insert_prev(item(2, &drops)?);
        cursor.insert_prev(item(4, &drops)?);
        assert_eq!(cursor.peek_prev().map(|p| p.value), Some(4));
        assert!(cursor.peek_next().is_none());
        assert!(holds(&mut list, &[2, 4]));

        // At the front: the new element is the first.
        let mut cursor = list.cursor_front();
        cursor.insert_next(item(1, &drops)?);
        assert_eq!(cursor.peek_next().map(|p| p.value), Some(1));
        assert!(cursor.peek_prev().is_none());
        assert!(holds(&mut list, &[1, 2, 4]));

        // In the middle, both ways.
        let mut cursor = list.cursor_front();
        cursor.move_next();
        cursor.move_next();
        cursor.insert_next(item(3, &drops)?);
        assert_eq!(cursor.peek_prev().map(|p| p.value), Some(2));
        assert_eq!(cursor.peek_next().map(|p| p.value), Some(3));
        cursor.insert_prev(item(20, &drops)?);
        assert_eq!(cursor.peek_prev().map(|p| p.value), Some(20));
        cursor.insert(item(21, &drops)?);
        assert!(holds(&mut list, &[1, 2, 20, 21, 3, 4]));

        // `insert` at the front of an empty list and of a list.
        let mut other = List::new();
        other.cursor_front().insert(item(9, &drops)?);
        other.cursor_front().insert(item(8, &drops)?);
        other.cursor_back().insert(item(10, &drops)?);
        assert!(holds(&mut other, &[8, 9, 10]));
        drop((list, other));
        assert_eq!(drops.get(), 9);
        Ok(())
    }

    #[test]
    fn a_cursor_removes_on_either_side_and_stays_put() -> Result {
        let drops = Cell::new(0);
        let mut list = list_of(&[1, 2, 3, 4, 5], &drops)?;
        let mut cursor = list.cursor_front();
        cursor.move_next();
        cursor.move_next(); // between 2 and 3
        assert_eq!(cursor.remove_next().map(|i| i.value), Some(3));
        assert_eq!(cursor.peek_next().map(|p| p.value), Some(4));
        assert_eq!(cursor.remove_prev().map(|i| i.value), Some(2));
        assert_eq!(cursor.peek_prev().map(|p| p.value), Some(1));
        assert_eq!(cursor.peek_next().map(|p| p.value), Some(4));

        // Through a `CursorPeek`.
        let one = cursor.peek_prev().ok_or(EINVAL)?.remove();
        assert_eq!(one.value, 1);
        assert!(cursor.peek_prev().is_none());
        let peek = cursor.peek_next().ok_or(EINVAL)?;
        let kept: Arc<Item<'_>> = peek.arc().into();
        assert_eq!(peek.remove().value, 4);
        assert_eq!(kept.value, 4);
        assert!(holds(&mut list, &[5]));

        // The last element, from the back.
        let mut cursor = list.cursor_back();
        assert_eq!(cursor.remove_prev().map(|i| i.value), Some(5));
        assert!(cursor.remove_prev().is_none());
        assert!(list.is_empty());
        assert_eq!(drops.get(), 3); // 3, 2 and 5; 1 and 4 are still held
        drop((one, kept));
        assert_eq!(drops.get(), 5);
        Ok(())
    }

    #[test]
    fn iterators_borrow_or_take_the_elements() -> Result {
        let drops = Cell::new(0);
        let list = list_of(&[1, 2, 3, 4], &drops)?;
        let mut sum = 0;
        for i in &list {
            sum += i.value;
        }
        assert_eq!(sum, 10);
        let mut iter = list.iter();
        assert_eq!(iter.next().map(|i| i.value), Some(1));
        assert_eq!(iter.count(), 3);
        assert_eq!(list.iter().last().map(|i| i.value), Some(4));

        let mut taken = list.into_iter();
        assert_eq!(taken.next().map(|i| i.value), Some(1));
        assert_eq!(taken.next_back().map(|i| i.value), Some(4));
        assert_eq!(drops.get(), 2);
        drop(taken); // drops the two it still held
        assert_eq!(drops.get(), 4);
        Ok(())
    }

    #[test]
    fn a_dropped_list_drops_what_only_it_held() -> Result {
        let drops = Cell::new(0);
        let list = list_of(&[1, 2, 3], &drops)?;
        let kept = list.iter().nth(1).map(Arc::from).ok_or(EINVAL)?;
        drop(list);
        assert_eq!(drops.get(), 2);
        assert_eq!(kept.value, 2);
        drop(kept);
        assert_eq!(drops.get(), 3);
        Ok(())
    }

    #[test]
    fn one_element_in_two_lists() -> Result {
        let drops = Cell::new(0);
        let unique = UniqueArc::pin_init(item_init(7, &drops), GFP_KERNEL)?;
        let (in_a, in_b) = ListArc::<Item<'_>, 0>::pair_from_pin_unique::<1>(unique);
        assert!(core::ptr::eq(&*in_a, &*in_b));

        let mut a = list_of(&[1], &drops)?;
        let mut b = List::<Item<'_>, 1>::new();
        a.push_back(in_a);
        b.push_back(in_b);
        let other = UniqueArc::pin_init(item_init(8, &drops), GFP_KERNEL)?;
        let (other_a, other_b) = ListArc::<Item<'_>, 0>::pair_from_pin_unique::<1>(other);
        a.push_front(other_a);
        b.push_front(other_b);
        assert!(holds(&mut a, &[8, 1, 7]));
        assert!(holds(&mut b, &[8, 7]));

        // Out of one list, still in the other.
        let seven = a.pop_back().ok_or(EINVAL)?;
        assert!(holds(&mut b, &[8, 7]));
        drop(seven);
        assert_eq!(drops.get(), 0);
        drop(b);
        assert_eq!(drops.get(), 1); // 7: its last `ListArc`
        drop(a);
        assert_eq!(drops.get(), 3);
        Ok(())
    }

    #[test]
    fn a_list_under_a_spinlock() -> Result {
        let drops = Cell::new(0);
        let queue = KBox::pin_init(new_spinlock!(List::<Item<'_>>::new()), GFP_KERNEL)?;
        // Allocated before the lock is taken: no sleeping under a spinlock.
        let (one, two) = (item(1, &drops)?, item(2, &drops)?);
        queue.lock().push_back(one);
        queue.lock().push_back(two);
        let first = queue.lock().pop_front().map(|i| i.value);
        assert_eq!(first, Some(1));
        assert_eq!(queue.lock().iter().count(), 1);
        drop(queue);
        assert_eq!(drops.get(), 2);
        Ok(())
    }

    /// An element of a queue, queued at most once, tracked by an `AtomicTracker`.
    #[pin_data]
    struct Work {
        id: u32,
        #[pin]
        links: ListLinks,
        #[pin]
        queued: AtomicTracker,
    }

    impl_list_arc_safe! {
        impl ListArcSafe<0> for Work { tracked_by queued: AtomicTracker; }
    }
    impl_list_item! {
        impl ListItem<0> for Work { using ListLinks { self.links }; }
    }

    fn work(id: u32) -> Result<Arc<Work>> {
        Arc::pin_init(
            pin_init!(Work { id, links <- ListLinks::new(), queued <- AtomicTracker::new() }),
            GFP_KERNEL,
        )
    }

    #[test]
    fn a_tracked_value_has_one_list_arc_at_a_time() -> Result {
        let w = work(1)?;
        let list_arc = ListArc::<Work>::try_from_arc(w.clone()).map_err(|_| EINVAL)?;
        assert!(!w.try_new_list_arc());
        let refused = ListArc::<Work>::try_from_arc(w.clone());
        assert!(refused.is_err());
        assert!(ListArc::<Work>::try_from_arc_borrow(w.as_arc_borrow()).is_none());
        assert!(ListArc::<Work>::try_from_arc_or_drop(w.clone()).is_none());

        let mut queue = List::new();
        queue.push_back(list_arc);
        assert!(ListArc::<Work>::try_from_arc(w.clone()).is_err());
        let back = queue.pop_front().ok_or(EINVAL)?;
        // `into_arc` ends the `ListArc`: another can be made.
        let plain = back.into_arc();
        assert!(Arc::ptr_eq(&plain, &w));
        let again = ListArc::<Work>::try_from_arc_borrow(w.as_arc_borrow()).ok_or(EINVAL)?;
        drop(again);
        let last = ListArc::<Work>::try_from_arc_or_drop(plain).ok_or(EINVAL)?;
        assert_eq!(last.id, 1);
        Ok(())
    }

    #[test]
    fn try_from_arc_or_drop_takes_the_last_reference() -> Result {
        let w = work(2)?;
        let first = ListArc::<Work>::try_from_arc(w.clone()).map_err(|_| EINVAL)?;
        // The `ListArc`'s reference as a plain `Arc`, the tracker still set.
        // SAFETY: From `ListArc::into_raw`, which `Arc::from_raw` takes.
        let leftover = unsafe { Arc::from_raw(ListArc::into_raw(first)) };
        assert!(ListArc::<Work>::try_from_arc(leftover.clone()).is_err());
        drop(w);
        // The last reference: made a `ListArc` as a `UniqueArc` would be.
        let list_arc = ListArc::<Work>::try_from_arc_or_drop(leftover).ok_or(EINVAL)?;
        assert!(!list_arc.try_new_list_arc());
        Ok(())
    }

    #[test]
    fn list_arc_constructors_and_conversions() -> Result {
        let drops = Cell::new(0);
        let made = item(1, &drops)?;
        let arc = made.clone_arc();
        assert!(Arc::ptr_eq(made.as_arc(), &arc));
        assert!(core::ptr::eq(&*made.as_arc_borrow(), &*arc));
        assert!(ListArc::ptr_eq(&made, &made));

        let raw = ListArc::into_raw(made);
        assert!(core::ptr::eq(raw, &*arc));
        // SAFETY: From `into_raw`, once; no other `ListArc` exists.
        let made = unsafe { ListArc::<Item<'_>>::from_raw(raw) };
        let other = item(1, &drops)?;
        assert!(!ListArc::ptr_eq(&made, &other));
        drop((made, other, arc));
        assert_eq!(drops.get(), 2);

        struct Plain {
            v: u64,
        }
        impl_list_arc_safe! {
            impl ListArcSafe<0> for Plain { untracked; }
            impl ListArcSafe<1> for Plain { untracked; }
        }
        let plain = ListArc::<Plain>::new(Plain { v: 3 }, GFP_KERNEL)?;
        let init = ListArc::<Plain>::init(try_init!(Plain { v: 4 }), GFP_KERNEL)?;
        let unique = ListArc::<Plain>::from(UniqueArc::new(Plain { v: 5 }, GFP_KERNEL)?);
        assert_eq!(plain.v + init.v + unique.v, 12);
        let (zero, one) =
            ListArc::<Plain, 0>::pair_from_unique::<1>(UniqueArc::new(Plain { v: 6 }, GFP_KERNEL)?);
        assert!(core::ptr::eq(&*zero, &*one));
        let failed = ListArc::<Item<'_>>::pin_init(failing_init(&drops), GFP_KERNEL);
        assert_eq!(failed.err(), Some(ENOSPC));
        // What the initialiser had made is dropped.
        assert_eq!(drops.get(), 3);
        assert_eq!(plain.into_arc().v, 3);
        Ok(())
    }

    /// A trait object element, through `ListLinksSelfPtr`.
    trait Shape {
        fn area(&self) -> u32;
    }

    struct Square(u32);
    impl Shape for Square {
        fn area(&self) -> u32 {
            self.0 * self.0
        }
    }

    struct Rectangle(u32, u32);
    impl Shape for Rectangle {
        fn area(&self) -> u32 {
            self.0 * self.1
        }
    }

    #[pin_data]
    struct Wrap<T: ?Sized> {
        #[pin]
        links: ListLinksSelfPtr<Wrap<dyn Shape>>,
        shape: T,
    }

    impl_list_arc_safe! {
        impl{T: ?Sized} ListArcSafe<0> for Wrap<T> { untracked; }
    }
    impl_list_item! {
        impl ListItem<0> for Wrap<dyn Shape> { using ListLinksSelfPtr { self.links }; }
    }

    fn wrap<T: Shape + 'static>(shape: T) -> Result<ListArc<Wrap<dyn Shape>>> {
        let list_arc = ListArc::pin_init(
            try_pin_init!(Wrap { links <- ListLinksSelfPtr::new(), shape }),
            GFP_KERNEL,
        )?;
        let raw = ListArc::into_raw(list_arc) as *const Wrap<dyn Shape>;
        // SAFETY: From `ListArc::into_raw`; `Wrap<T>` and `Wrap<dyn Shape>` share one
        // (untracked) `ListArcSafe` implementation.
        Ok(unsafe { ListArc::from_raw(raw) })
    }

    #[test]
    fn a_list_of_trait_objects() -> Result {
        let mut shapes = List::<Wrap<dyn Shape>>::new();
        shapes.push_back(wrap(Square(3))?);
        shapes.push_back(wrap(Rectangle(2, 5))?);
        shapes.push_front(wrap(Square(1))?);
        assert!(shapes.iter().map(|w| w.shape.area()).eq([1, 9, 10]));

        let mut cursor = shapes.cursor_front();
        cursor.move_next();
        let nine = cursor.remove_next().ok_or(EINVAL)?;
        assert_eq!(nine.shape.area(), 9);
        // Back in, elsewhere: the self pointer is written again.
        shapes.push_front(nine);
        assert!(shapes.iter().map(|w| w.shape.area()).eq([9, 1, 10]));
        let kept = shapes.iter().nth(2).map(Arc::from).ok_or(EINVAL)?;
        // SAFETY: `kept` is in `shapes` and no other list.
        let removed = unsafe { shapes.remove(&kept) }.ok_or(EINVAL)?;
        assert_eq!(removed.shape.area(), 10);
        assert_eq!(shapes.pop_back().map(|w| w.shape.area()), Some(1));
        Ok(())
    }

    /// A value with fields that its `ListArc` owns.
    struct Reference {
        handle: u32,
        strong: ListArcField<u32>,
        weak: ListArcField<u32>,
    }

    impl Reference {
        define_list_arc_field_getter! {
            fn strong(&self) -> &u32 { strong }
            fn strong_mut(&mut self) -> &mut u32 { strong }
            fn weak_mut(&mut self<0>) -> &mut u32 { weak }
        }
    }

    impl_list_arc_safe! {
        impl ListArcSafe<0> for Reference { untracked; }
    }

    #[test]
    fn list_arc_fields_belong_to_the_list_arc() -> Result {
        let mut unique = UniqueArc::new(
            Reference {
                handle: 1,
                strong: ListArcField::new(0),
                weak: ListArcField::new(0),
            },
            GFP_KERNEL,
        )?;
        *unique.strong.get_mut() = 5;
        let mut list_arc = ListArc::<Reference>::from(unique);
        let shared = list_arc.clone_arc();
        *Reference::strong_mut(&mut list_arc) += 1;
        *Reference::weak_mut(&mut list_arc) += 2;
        assert_eq!(*Reference::strong(&list_arc), 6);
        // SAFETY: `list_arc` is borrowed while the references live.
        let (strong, weak) = unsafe { (*list_arc.strong.assert_ref(), *list_arc.weak.assert_ref()) };
        assert_eq!((strong, weak, shared.handle), (6, 2, 1));
        {
            let exclusive = &mut list_arc;
            // SAFETY: `list_arc` is borrowed exclusively while the reference lives.
            *unsafe { exclusive.weak.assert_mut() } = 9;
        }
        // SAFETY: As above, shared.
        assert_eq!(unsafe { *list_arc.weak.assert_ref() }, 9);
        Ok(())
    }
}
