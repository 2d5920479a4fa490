// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Host only: `kernel_core::list` against `std`'s `VecDeque` as the plain reference, on random
//! sequences of operations (pushes and pops at both ends, removal of any element, cursors that
//! move, peek, insert and remove on both sides, `push_all_back`, iteration both ways, draining
//! from both ends), with every element's drop counted; an element in two lists at once through
//! two `ListLinks` ids; `AtomicTracker` across threads; and `build_assert!` on equal ids.
//!
//! Every `unsafe` path of the list runs here, so Miri checks them:
//! `cargo +nightly miri test -p kernel-core-tests --test list` (with fewer, shorter cases).

use std::cell::Cell;
use std::collections::{BTreeSet, VecDeque};
use std::rc::Rc;
use std::sync::atomic::{AtomicUsize, Ordering};
// The prelude's `Vec` is the kernel's: the references use `std`'s.
use std::vec::Vec;

use kernel_core::list::{
    impl_list_arc_safe, impl_list_item, AtomicTracker, List, ListArc, ListLinks, TryNewListArc,
};
use kernel_core::prelude::*;
use kernel_core::sync::{new_spinlock, Arc, UniqueArc};
use proptest::prelude::*;
use proptest::test_runner::Config;

/// Counts the elements alive: incremented when made, decremented when dropped.
struct Alive(Rc<Cell<isize>>);

impl Alive {
    fn new(count: &Rc<Cell<isize>>) -> Self {
        count.set(count.get() + 1);
        Alive(Rc::clone(count))
    }
}

impl Drop for Alive {
    fn drop(&mut self) {
        self.0.set(self.0.get() - 1);
    }
}

/// An element of the lists `0` (links `a`) and `1` (links `b`).
#[pin_data]
struct Elem {
    value: u32,
    _alive: Alive,
    #[pin]
    a: ListLinks<0>,
    #[pin]
    b: ListLinks<1>,
}

impl_list_arc_safe! {
    impl ListArcSafe<0> for Elem { untracked; }
    impl ListArcSafe<1> for Elem { untracked; }
}
impl_list_item! {
    impl ListItem<0> for Elem { using ListLinks { self.a }; }
    impl ListItem<1> for Elem { using ListLinks { self.b }; }
}

fn elem_init(value: u32, alive: &Rc<Cell<isize>>) -> impl PinInit<Elem, Error> + '_ {
    try_pin_init!(Elem {
        value,
        _alive: Alive::new(alive),
        a <- ListLinks::new(),
        b <- ListLinks::new(),
    })
}

fn elem(value: u32, alive: &Rc<Cell<isize>>) -> ListArc<Elem> {
    ListArc::pin_init(elem_init(value, alive), GFP_KERNEL).expect("a small allocation")
}

/// One step of a cursor, on the list's cursor and on a position in the reference.
#[derive(Clone, Debug)]
enum Step {
    MoveNext,
    MovePrev,
    PeekNext,
    PeekPrev,
    InsertNext(u32),
    InsertPrev(u32),
    RemoveNext,
    RemovePrev,
    /// `peek_next()` then `CursorPeek::remove`, keeping an `ArcBorrow` of it first.
    PeekRemoveNext,
    PeekRemovePrev,
}

/// One operation on the list and on the reference.
#[derive(Clone, Debug)]
enum Op {
    PushBack(u32),
    PushFront(u32),
    PopBack,
    PopFront,
    /// Removes the element at this index (modulo the length) with `List::remove`.
    Remove(usize),
    /// `List::remove` of an element in no list (from the pool): `None`.
    RemoveAbsent(usize),
    /// Pushes an element that was popped or removed earlier (from the pool) back.
    Reinsert {
        index: usize,
        front: bool,
    },
    /// A cursor from the front (`true`) or the back, and its steps; `Some` ends with `insert`.
    Cursor {
        front: bool,
        steps: Vec<Step>,
        insert: Option<u32>,
    },
    /// Appends a new list of these values.
    PushAllBack(Vec<u32>),
    /// Replaces the list by a new one holding it all, with `push_all_back` into an empty one.
    PushAllIntoEmpty,
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        3 => Just(Step::MoveNext),
        3 => Just(Step::MovePrev),
        1 => Just(Step::PeekNext),
        1 => Just(Step::PeekPrev),
        1 => any::<u32>().prop_map(Step::InsertNext),
        1 => any::<u32>().prop_map(Step::InsertPrev),
        1 => Just(Step::RemoveNext),
        1 => Just(Step::RemovePrev),
        1 => Just(Step::PeekRemoveNext),
        1 => Just(Step::PeekRemovePrev),
    ]
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => any::<u32>().prop_map(Op::PushBack),
        3 => any::<u32>().prop_map(Op::PushFront),
        1 => Just(Op::PopBack),
        1 => Just(Op::PopFront),
        1 => any::<usize>().prop_map(Op::Remove),
        1 => any::<usize>().prop_map(Op::RemoveAbsent),
        1 => (any::<usize>(), any::<bool>()).prop_map(|(index, front)| Op::Reinsert { index, front }),
        2 => (
            any::<bool>(),
            proptest::collection::vec(step(), 0..if cfg!(miri) { 6 } else { 16 }),
            proptest::option::of(any::<u32>()),
        )
            .prop_map(|(front, steps, insert)| Op::Cursor { front, steps, insert }),
        1 => proptest::collection::vec(any::<u32>(), 0..5).prop_map(Op::PushAllBack),
        1 => Just(Op::PushAllIntoEmpty),
    ]
}

/// Fewer, shorter cases under Miri, which is some thousand times slower.
fn config() -> Config {
    Config {
        // Under qemu-user (`KERNEL_CORE_EMULATED`, set by xtask) an eighth: 512 took 124 s
        // on qemu-ppc, which is there for the byte order and word size.
        cases: if cfg!(miri) {
            4
        } else if std::env::var_os("KERNEL_CORE_EMULATED").is_some() {
            64
        } else {
            512
        },
        failure_persistence: None,
        ..Config::default()
    }
}

fn ops() -> impl Strategy<Value = Vec<Op>> {
    proptest::collection::vec(op(), 0..if cfg!(miri) { 24 } else { 96 })
}

/// The values of the list, front to back through `iter`, and back to front through a cursor.
fn contents<const ID: u64>(list: &mut List<Elem, ID>) -> (Vec<u32>, Vec<u32>)
where
    Elem: kernel_core::list::ListItem<ID>,
{
    let forward = list.iter().map(|e| e.value).collect();
    let mut backward = Vec::new();
    let mut cursor = list.cursor_back();
    while let Some(prev) = cursor.peek_prev() {
        backward.push(prev.value);
        cursor.move_prev();
    }
    backward.reverse();
    (forward, backward)
}

/// Whether the list holds the reference's values, both ways, and says whether it is empty.
fn check<const ID: u64>(
    list: &mut List<Elem, ID>,
    reference: &VecDeque<u32>,
) -> Result<(), TestCaseError>
where
    Elem: kernel_core::list::ListItem<ID>,
{
    let expected: Vec<u32> = reference.iter().copied().collect();
    let (forward, backward) = contents(list);
    prop_assert_eq!(&forward, &expected);
    prop_assert_eq!(&backward, &expected);
    prop_assert_eq!(list.is_empty(), reference.is_empty());
    Ok(())
}

/// Runs a cursor's steps on both sides.
fn run_cursor(
    list: &mut List<Elem>,
    reference: &mut VecDeque<u32>,
    pool: &mut Vec<ListArc<Elem>>,
    (front, steps, insert): (bool, Vec<Step>, Option<u32>),
    alive: &Rc<Cell<isize>>,
) -> Result<(), TestCaseError> {
    // The reference's cursor: the index of the next element.
    let mut pos = if front { 0 } else { reference.len() };
    let mut cursor = if front {
        list.cursor_front()
    } else {
        list.cursor_back()
    };
    for step in steps {
        match step {
            Step::MoveNext => {
                let moved = pos < reference.len();
                pos += usize::from(moved);
                prop_assert_eq!(cursor.move_next(), moved);
            }
            Step::MovePrev => {
                let moved = pos > 0;
                pos -= usize::from(moved);
                prop_assert_eq!(cursor.move_prev(), moved);
            }
            Step::PeekNext => {
                let seen = cursor.peek_next().map(|p| p.value);
                prop_assert_eq!(seen, reference.get(pos).copied());
            }
            Step::PeekPrev => {
                let seen = cursor.peek_prev().map(|p| p.value);
                let expected = pos.checked_sub(1).map(|i| reference[i]);
                prop_assert_eq!(seen, expected);
            }
            Step::InsertNext(value) => {
                cursor.insert_next(elem(value, alive));
                reference.insert(pos, value);
                prop_assert_eq!(cursor.peek_next().map(|p| p.value), Some(value));
            }
            Step::InsertPrev(value) => {
                cursor.insert_prev(elem(value, alive));
                reference.insert(pos, value);
                pos += 1;
                prop_assert_eq!(cursor.peek_prev().map(|p| p.value), Some(value));
            }
            Step::RemoveNext => {
                let removed = cursor.remove_next();
                let expected = reference.remove(pos);
                prop_assert_eq!(removed.as_ref().map(|e| e.value), expected);
                pool.extend(removed);
            }
            Step::RemovePrev => {
                let removed = cursor.remove_prev();
                let expected = pos.checked_sub(1).and_then(|i| reference.remove(i));
                pos -= usize::from(expected.is_some());
                prop_assert_eq!(removed.as_ref().map(|e| e.value), expected);
                pool.extend(removed);
            }
            Step::PeekRemoveNext => {
                if let Some(peek) = cursor.peek_next() {
                    let kept: Arc<Elem> = peek.arc().into();
                    let removed = peek.remove();
                    prop_assert!(Arc::ptr_eq(removed.as_arc(), &kept));
                    prop_assert_eq!(Some(removed.value), reference.remove(pos));
                    pool.push(removed);
                } else {
                    prop_assert_eq!(pos, reference.len());
                }
            }
            Step::PeekRemovePrev => {
                if let Some(peek) = cursor.peek_prev() {
                    let value = peek.value;
                    let removed = peek.remove();
                    prop_assert_eq!(removed.value, value);
                    pos -= 1;
                    prop_assert_eq!(Some(value), reference.remove(pos));
                    pool.push(removed);
                } else {
                    prop_assert_eq!(pos, 0);
                }
            }
        }
    }
    if let Some(value) = insert {
        cursor.insert(elem(value, alive));
        reference.insert(pos, value);
    }
    Ok(())
}

/// Runs `ops` on a `List` and a `VecDeque`, checking after each that they agree, and at the
/// end that every element was dropped once.
fn run(ops: Vec<Op>) -> Result<(), TestCaseError> {
    let alive = Rc::new(Cell::new(0));
    {
        let mut list = List::<Elem>::new();
        let mut reference = VecDeque::new();
        // Elements that left the list, in no list now.
        let mut pool: Vec<ListArc<Elem>> = Vec::new();
        for op in ops {
            match op {
                Op::PushBack(value) => {
                    list.push_back(elem(value, &alive));
                    reference.push_back(value);
                }
                Op::PushFront(value) => {
                    list.push_front(elem(value, &alive));
                    reference.push_front(value);
                }
                Op::PopBack => {
                    let popped = list.pop_back();
                    prop_assert_eq!(popped.as_ref().map(|e| e.value), reference.pop_back());
                    pool.extend(popped);
                }
                Op::PopFront => {
                    let popped = list.pop_front();
                    prop_assert_eq!(popped.as_ref().map(|e| e.value), reference.pop_front());
                    pool.extend(popped);
                }
                Op::Remove(index) => {
                    if reference.is_empty() {
                        continue;
                    }
                    let index = index % reference.len();
                    let target: Arc<Elem> = list.iter().nth(index).expect("in range").into();
                    // SAFETY: Every element is in `list` or in no list.
                    let removed = unsafe { list.remove(&target) };
                    prop_assert!(removed
                        .as_ref()
                        .is_some_and(|r| Arc::ptr_eq(r.as_arc(), &target)));
                    prop_assert_eq!(removed.as_ref().map(|e| e.value), reference.remove(index));
                    pool.extend(removed);
                }
                Op::RemoveAbsent(index) => {
                    if pool.is_empty() {
                        continue;
                    }
                    let absent = &pool[index % pool.len()];
                    // SAFETY: The pooled element is in no list.
                    let removed = unsafe { list.remove(absent) };
                    prop_assert!(removed.is_none());
                }
                Op::Reinsert { index, front } => {
                    if pool.is_empty() {
                        continue;
                    }
                    let back = pool.swap_remove(index % pool.len());
                    let value = back.value;
                    if front {
                        list.push_front(back);
                        reference.push_front(value);
                    } else {
                        list.push_back(back);
                        reference.push_back(value);
                    }
                }
                Op::Cursor {
                    front,
                    steps,
                    insert,
                } => run_cursor(
                    &mut list,
                    &mut reference,
                    &mut pool,
                    (front, steps, insert),
                    &alive,
                )?,
                Op::PushAllBack(values) => {
                    let mut other = List::new();
                    for &value in &values {
                        other.push_back(elem(value, &alive));
                    }
                    list.push_all_back(&mut other);
                    prop_assert!(other.is_empty());
                    reference.extend(values);
                }
                Op::PushAllIntoEmpty => {
                    let mut empty = List::new();
                    empty.push_all_back(&mut list);
                    prop_assert!(list.is_empty());
                    list = empty;
                }
            }
            check(&mut list, &reference)?;
            prop_assert_eq!(alive.get(), (reference.len() + pool.len()) as isize);
        }

        // Drains from both ends, alternately.
        let mut items = list.into_iter();
        let mut from_front = true;
        while !reference.is_empty() {
            let (got, expected) = if from_front {
                (items.next(), reference.pop_front())
            } else {
                (items.next_back(), reference.pop_back())
            };
            prop_assert_eq!(got.map(|e| e.value), expected);
            from_front = !from_front;
        }
        prop_assert!(items.next().is_none());
        prop_assert!(items.next_back().is_none());
        prop_assert_eq!(alive.get(), pool.len() as isize);
    }
    prop_assert_eq!(alive.get(), 0);
    Ok(())
}

/// One operation on an element in two lists, `A` (id 0) and `B` (id 1).
#[derive(Clone, Debug)]
enum PairOp {
    /// A new element at the back of both lists.
    New,
    /// A new element in `A` only.
    NewInA,
    PopA {
        front: bool,
    },
    PopB {
        front: bool,
    },
    /// Removes the element at this index (modulo the length) of `A` from `B`, if there.
    RemoveFromB(usize),
    /// Moves `A`'s element at this index (modulo the length) to the front of `A`.
    MoveToFrontOfA(usize),
}

fn pair_op() -> impl Strategy<Value = PairOp> {
    prop_oneof![
        3 => Just(PairOp::New),
        1 => Just(PairOp::NewInA),
        1 => any::<bool>().prop_map(|front| PairOp::PopA { front }),
        1 => any::<bool>().prop_map(|front| PairOp::PopB { front }),
        1 => any::<usize>().prop_map(PairOp::RemoveFromB),
        1 => any::<usize>().prop_map(PairOp::MoveToFrontOfA),
    ]
}

/// Runs `ops` on two lists sharing elements: each list agrees with its reference, and an
/// element lives exactly as long as it is in one of them.
fn run_pair(ops: Vec<PairOp>) -> Result<(), TestCaseError> {
    let alive = Rc::new(Cell::new(0));
    {
        let mut a = List::<Elem, 0>::new();
        let mut b = List::<Elem, 1>::new();
        let (mut ref_a, mut ref_b) = (VecDeque::new(), VecDeque::new());
        // Values are unique, so that "in one of the lists" can be counted by value.
        let mut next_value = 0;
        for op in ops {
            match op {
                PairOp::New => {
                    let unique = UniqueArc::pin_init(elem_init(next_value, &alive), GFP_KERNEL)
                        .expect("a small allocation");
                    let (in_a, in_b) = ListArc::<Elem, 0>::pair_from_pin_unique::<1>(unique);
                    a.push_back(in_a);
                    b.push_back(in_b);
                    ref_a.push_back(next_value);
                    ref_b.push_back(next_value);
                    next_value += 1;
                }
                PairOp::NewInA => {
                    a.push_back(elem(next_value, &alive));
                    ref_a.push_back(next_value);
                    next_value += 1;
                }
                PairOp::PopA { front } => {
                    let popped = if front { a.pop_front() } else { a.pop_back() };
                    let expected = if front {
                        ref_a.pop_front()
                    } else {
                        ref_a.pop_back()
                    };
                    prop_assert_eq!(popped.map(|e| e.value), expected);
                }
                PairOp::PopB { front } => {
                    let popped = if front { b.pop_front() } else { b.pop_back() };
                    let expected = if front {
                        ref_b.pop_front()
                    } else {
                        ref_b.pop_back()
                    };
                    prop_assert_eq!(popped.map(|e| e.value), expected);
                }
                PairOp::RemoveFromB(index) => {
                    if ref_a.is_empty() {
                        continue;
                    }
                    let target: Arc<Elem> =
                        a.iter().nth(index % ref_a.len()).expect("in range").into();
                    // SAFETY: An element's `ListLinks<1>` are in `b` or in no list.
                    let removed = unsafe { b.remove(&target) };
                    let position = ref_b.iter().position(|&v| v == target.value);
                    prop_assert_eq!(removed.is_some(), position.is_some());
                    if let Some(position) = position {
                        ref_b.remove(position);
                    }
                }
                PairOp::MoveToFrontOfA(index) => {
                    if ref_a.is_empty() {
                        continue;
                    }
                    let index = index % ref_a.len();
                    let target: Arc<Elem> = a.iter().nth(index).expect("in range").into();
                    // SAFETY: An element's `ListLinks<0>` are in `a` or in no list.
                    let moved = unsafe { a.remove(&target) }.expect("in `a`");
                    a.push_front(moved);
                    let value = ref_a.remove(index).expect("in range");
                    ref_a.push_front(value);
                }
            }
            check(&mut a, &ref_a)?;
            check(&mut b, &ref_b)?;
            let mut live: BTreeSet<u32> = ref_a.iter().copied().collect();
            live.extend(ref_b.iter().copied());
            prop_assert_eq!(alive.get(), live.len() as isize);
        }
        drop(a);
        let live: BTreeSet<u32> = ref_b.iter().copied().collect();
        prop_assert_eq!(alive.get(), live.len() as isize);
    }
    prop_assert_eq!(alive.get(), 0);
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn list_matches_vec_deque(ops in ops()) {
        run(ops)?;
    }

    #[test]
    fn an_element_in_two_lists(ops in proptest::collection::vec(pair_op(), 0..if cfg!(miri) { 24 } else { 96 })) {
        run_pair(ops)?;
    }
}

/// A value that threads queue, tracked by an `AtomicTracker`.
#[pin_data]
struct Work {
    id: usize,
    #[pin]
    links: ListLinks,
    #[pin]
    tracker: AtomicTracker,
}

impl_list_arc_safe! {
    impl ListArcSafe<0> for Work { tracked_by tracker: AtomicTracker; }
}
impl_list_item! {
    impl ListItem<0> for Work { using ListLinks { self.links }; }
}

fn work(id: usize) -> Arc<Work> {
    Arc::pin_init(
        pin_init!(Work { id, links <- ListLinks::new(), tracker <- AtomicTracker::new() }),
        GFP_KERNEL,
    )
    .expect("a small allocation")
}

const THREADS: usize = if cfg!(miri) { 3 } else { 8 };
const ROUNDS: usize = if cfg!(miri) { 20 } else { 5_000 };

/// However many threads try at once, one `ListArc` exists at a time, and what its holder did
/// happens before the next holder starts (a plain counter, read and written only by holders,
/// ends at the number of successful attempts).
#[test]
fn atomic_tracker_gives_one_list_arc_at_a_time_across_threads() {
    /// Written only by the holder of the `ListArc`: a data race if two held it at once, which
    /// Miri would report.
    struct Unsynchronised(std::cell::UnsafeCell<usize>);
    // SAFETY: Accessed only by the one holder of the `ListArc` at a time (what is tested).
    unsafe impl Sync for Unsynchronised {}

    impl Unsynchronised {
        fn get(&self) -> *mut usize {
            self.0.get()
        }
    }

    let w = work(0);
    let holders = AtomicUsize::new(0);
    let successes = AtomicUsize::new(0);
    let counter = Unsynchronised(std::cell::UnsafeCell::new(0));
    std::thread::scope(|s| {
        for _ in 0..THREADS {
            s.spawn(|| {
                for _ in 0..ROUNDS {
                    match ListArc::<Work>::try_from_arc(w.clone()) {
                        Ok(list_arc) => {
                            assert_eq!(holders.fetch_add(1, Ordering::Relaxed), 0);
                            // SAFETY: This thread holds the one `ListArc`.
                            unsafe { *counter.get() += 1 };
                            // Held for a while, for the others to try meanwhile.
                            for _ in 0..3 {
                                std::thread::yield_now();
                                assert_eq!(holders.load(Ordering::Relaxed), 1);
                            }
                            successes.fetch_add(1, Ordering::Relaxed);
                            holders.fetch_sub(1, Ordering::Relaxed);
                            drop(list_arc);
                        }
                        Err(arc) => drop(arc),
                    }
                    std::thread::yield_now();
                }
            });
        }
    });
    // SAFETY: The threads are done.
    assert_eq!(unsafe { *counter.get() }, successes.load(Ordering::Relaxed));
    assert!(successes.load(Ordering::Relaxed) >= 1);
    assert!(w.try_new_list_arc(), "the last ListArc was dropped");
}

/// Threads queue works on a shared, locked list, each at most once at a time, while another
/// takes them off: every work is queued once, then once again after it was taken.
#[test]
fn threads_queue_each_work_once() {
    let works: Vec<Arc<Work>> = (0..THREADS * 2).map(work).collect();
    let queue = KBox::pin_init(new_spinlock!(List::<Work>::new()), GFP_KERNEL).expect("alloc");
    let queued = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..THREADS {
            s.spawn(|| {
                for w in &works {
                    if let Ok(list_arc) = ListArc::try_from_arc(w.clone()) {
                        queue.lock().push_back(list_arc);
                        queued.fetch_add(1, Ordering::Relaxed);
                    }
                }
            });
        }
    });
    // Each work went in once, whatever the races.
    assert_eq!(queued.load(Ordering::Relaxed), works.len());
    let mut ids: Vec<usize> = queue.lock().iter().map(|w| w.id).collect();
    ids.sort_unstable();
    assert_eq!(ids, (0..works.len()).collect::<Vec<_>>());

    // Taken off by another thread: they can be queued again.
    std::thread::scope(|s| {
        s.spawn(|| {
            let mut guard = queue.lock();
            while let Some(taken) = guard.pop_front() {
                drop(taken.into_arc());
            }
        });
    });
    for w in &works {
        let list_arc = ListArc::try_from_arc(w.clone())
            .ok()
            .expect("not queued any more");
        queue.lock().push_back(list_arc);
    }
    assert_eq!(queue.lock().iter().count(), works.len());
}

/// A host `Arc` is `Unpin` whatever its value, as the kernel's: a lock's guard of a `List` of
/// `!Unpin` values gives `&mut`.
#[test]
fn arcs_and_lists_of_pinned_values_are_unpin() {
    fn unpin<T: Unpin>() {}
    unpin::<Arc<Work>>();
    unpin::<ListArc<Work>>();
    unpin::<List<Work>>();
}

/// `pair_from_unique` with one id twice is refused by `build_assert!`: a link error in an
/// optimized build (never seen here: the test is compiled out of those), a panic with debug
/// assertions.
#[cfg(debug_assertions)]
#[test]
#[should_panic(expected = "ID != ID2")]
fn a_pair_with_one_id_twice_panics() {
    let alive = Rc::new(Cell::new(0));
    let unique = UniqueArc::pin_init(elem_init(1, &alive), GFP_KERNEL).expect("alloc");
    let _ = ListArc::<Elem, 0>::pair_from_pin_unique::<0>(unique);
}
