// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Differential tests of `kernel_core::list` against Linux 7.3's own `kernel::list`
//! (`linux7_3::list`: the kernel's `rust/kernel/list.rs` and `list/{impl_list_item_mod,arc,
//! arc_field}.rs`, built on the host on kernel-core's `Arc`, `AtomicFlag`, `Opaque` and
//! `pin_init`; see `src/lib.rs`).
//!
//! The same item type is declared on each side with that side's own macros
//! (`impl_list_arc_safe!` with a tracker field, `impl_list_item!` with `ListLinks`), and the same
//! sequences of operations run on two lists of each side: `ListArc::try_from_arc` (which the
//! tracker refuses while the item is in a list) with `push_back` and `push_front`, `pop_back`,
//! `pop_front`, `remove` of any item, `push_all_back` from the second list, and cursors from
//! either end that move, peek, insert and remove. Every result, both lists' contents after every
//! operation, what a double-ended `IntoIter` yields, and which items can be listed again once the
//! lists are dropped must be the same, for the fixed sequences below and for random ones.

#[macro_use]
mod common;

use proptest::prelude::*;

/// The number of items each run has.
const ITEMS: usize = 6;

/// One step of a run.
#[derive(Debug, Clone)]
enum Op {
    /// `ListArc::try_from_arc` of the item, then `push_back` onto the first list (or the
    /// second).
    PushBack(usize, bool),
    /// The same with `push_front`, onto the first list.
    PushFront(usize),
    /// `pop_back` of the first list.
    PopBack,
    /// `pop_front` of the first list (or the second).
    PopFront(bool),
    /// `remove` of the item from the list it is in, if any (and from the first list otherwise,
    /// which must return `None`).
    Remove(usize),
    /// `push_all_back` of the second list onto the first.
    PushAllBack,
    /// A cursor on the first list, from its front (or back), moved by each `bool` (`true`:
    /// `move_next`), then acting.
    Cursor(bool, Vec<bool>, Act),
}

/// What a cursor does after its moves.
#[derive(Debug, Clone)]
enum Act {
    /// Reads the items it is between.
    Peek,
    /// `insert_next` / `insert_prev` / `insert` (which consumes it) of the item.
    InsertNext(usize),
    InsertPrev(usize),
    Insert(usize),
    /// `remove_next` / `remove_prev`.
    RemoveNext,
    RemovePrev,
    /// `peek_next().remove()` / `peek_prev().remove()`.
    PeekRemoveNext,
    PeekRemovePrev,
}

/// The same run on one side's `list` module, `$k::list`.
macro_rules! side {
    ($name:ident, $k:ident) => {
        // `#[pin_data]`'s `project()` is never called here, which both sides' report.
        #[allow(dead_code)]
        mod $name {
            use super::{Act, Op, ITEMS};
            use kernel_core::{alloc::flags::GFP_KERNEL, sync::Arc};
            use kernel_core::init::InPlaceInit as _;
            use pin_init::{pin_data, pin_init};
            // `impl_list_arc_safe!`'s `tracked_by` names `TryNewListArc` unqualified, on both sides.
            use $k::list::{AtomicTracker, Cursor, List, ListArc, ListLinks, TryNewListArc};

            #[pin_data]
            pub struct Item {
                id: usize,
                #[pin]
                links: ListLinks<0>,
                #[pin]
                tracker: AtomicTracker<0>,
            }

            $k::list::impl_list_arc_safe! {
                impl ListArcSafe<0> for Item { tracked_by tracker: AtomicTracker<0>; }
            }
            $k::list::impl_list_item! {
                impl ListItem<0> for Item { using ListLinks { self.links }; }
            }

            fn ids(list: &List<Item>) -> Vec<usize> {
                list.iter().map(|item| item.id).collect()
            }

            /// Marks `item`, which left its list, as in none (`home`, see `run`); its id.
            fn gone(home: &mut [Option<bool>; ITEMS], item: Option<ListArc<Item>>) -> String {
                let id = item.map(|item| item.id);
                if let Some(id) = id {
                    home[id] = None;
                }
                format!("{id:?}")
            }

            /// The items the cursor is between.
            fn between(cursor: &mut Cursor<'_, Item>) -> String {
                let next = cursor.peek_next().map(|peek| peek.id);
                let prev = cursor.peek_prev().map(|peek| peek.id);
                format!("between {prev:?} and {next:?}")
            }

            /// Runs `ops` and returns what each did and the lists after each.
            pub fn run(ops: &[Op]) -> Vec<String> {
                let items: Vec<Arc<Item>> = (0..ITEMS)
                    .map(|id| {
                        // The kernel's `Arc` is always pinned: `pin_init` returns it as such.
                        Arc::pin_init(
                            pin_init!(Item {
                                id,
                                links <- ListLinks::new(),
                                tracker <- AtomicTracker::new(),
                            }),
                            GFP_KERNEL,
                        )
                        .expect("the host allocates")
                    })
                    .collect();
                // Which list each item is in, from this side's own results: `remove` needs the
                // item to be in that list or in none.
                let mut home: [Option<bool>; ITEMS] = [None; ITEMS];
                let mut log = Vec::new();
                let mut first = List::<Item>::new();
                let mut second = List::<Item>::new();
                let take = |i: usize, log: &mut Vec<String>| {
                    let list_arc = ListArc::try_from_arc(items[i].clone());
                    if list_arc.is_err() {
                        log.push(format!("{i} is listed already"));
                    }
                    list_arc.ok()
                };
                for op in ops {
                    match op {
                        &Op::PushBack(i, to_second) => {
                            if let Some(item) = take(i, &mut log) {
                                if to_second {
                                    second.push_back(item);
                                } else {
                                    first.push_back(item);
                                }
                                home[i] = Some(to_second);
                            }
                        }
                        &Op::PushFront(i) => {
                            if let Some(item) = take(i, &mut log) {
                                first.push_front(item);
                                home[i] = Some(false);
                            }
                        }
                        Op::PopBack => {
                            log.push(format!("pop_back {}", gone(&mut home, first.pop_back())));
                        }
                        &Op::PopFront(from_second) => {
                            let list = if from_second { &mut second } else { &mut first };
                            log.push(format!("pop_front {}", gone(&mut home, list.pop_front())));
                        }
                        &Op::Remove(i) => {
                            let list = if home[i] == Some(true) { &mut second } else { &mut first };
                            // SAFETY: The item is in this list or in none (`home`): both lists
                            // use its links with ID 0, and nothing else does.
                            let item = unsafe { list.remove(&items[i]) };
                            log.push(format!("remove {i}: {}", gone(&mut home, item)));
                        }
                        Op::PushAllBack => {
                            first.push_all_back(&mut second);
                            for place in home.iter_mut().flatten() {
                                *place = false;
                            }
                        }
                        Op::Cursor(from_front, moves, act) => 'cursor: {
                            let mut cursor = if *from_front {
                                first.cursor_front()
                            } else {
                                first.cursor_back()
                            };
                            let moved: Vec<bool> = moves
                                .iter()
                                .map(|&next| if next { cursor.move_next() } else { cursor.move_prev() })
                                .collect();
                            log.push(format!("cursor moves {moved:?}"));
                            log.push(between(&mut cursor));
                            let removed = match act {
                                Act::Peek => None,
                                &Act::InsertNext(i) => {
                                    if let Some(item) = take(i, &mut log) {
                                        cursor.insert_next(item);
                                        home[i] = Some(false);
                                    }
                                    None
                                }
                                &Act::InsertPrev(i) => {
                                    if let Some(item) = take(i, &mut log) {
                                        cursor.insert_prev(item);
                                        home[i] = Some(false);
                                    }
                                    None
                                }
                                &Act::Insert(i) => {
                                    if let Some(item) = take(i, &mut log) {
                                        cursor.insert(item);
                                        home[i] = Some(false);
                                    }
                                    // `insert` consumed the cursor.
                                    break 'cursor;
                                }
                                Act::RemoveNext => Some(cursor.remove_next()),
                                Act::RemovePrev => Some(cursor.remove_prev()),
                                Act::PeekRemoveNext => Some(cursor.peek_next().map(|peek| peek.remove())),
                                Act::PeekRemovePrev => Some(cursor.peek_prev().map(|peek| peek.remove())),
                            };
                            if let Some(removed) = removed {
                                log.push(format!("removed {}", gone(&mut home, removed)));
                            }
                            log.push(format!("then {}", between(&mut cursor)));
                        }
                    }
                    log.push(format!("lists {:?} {:?}", ids(&first), ids(&second)));
                }
                // Both ends of `IntoIter`, alternately, then `List`'s drop of what is left.
                let mut rest = first.into_iter();
                let mut ends = Vec::new();
                while let Some(item) = rest.next_back() {
                    ends.push(item.id);
                    match rest.next() {
                        Some(item) => ends.push(item.id),
                        None => break,
                    }
                }
                log.push(format!("into_iter from both ends {ends:?}"));
                drop(second);
                // Every item can be listed again: the lists gave back every `ListArc`.
                let free: Vec<bool> = items
                    .iter()
                    .map(|item| ListArc::<Item>::try_from_arc(item.clone()).is_ok())
                    .collect();
                log.push(format!("listable again {free:?}"));
                log
            }
        }
    };
}

side!(ours, kernel_core);
side!(theirs, linux7_3);

/// Asserts that both sides did the same.
#[track_caller]
fn same_run(ops: &[Op]) {
    common::same(&format!("{ops:?}"), || ours::run(ops), || theirs::run(ops));
}

#[test]
fn pushing_popping_and_removing_agree() {
    use Op::*;
    same_run(&[]);
    same_run(&[
        PushBack(0, false),
        PushBack(1, false),
        PushFront(2),
        PopBack,
        PopFront(false),
    ]);
    same_run(&[
        PushBack(0, false),
        PushBack(0, false),
        PushBack(0, true),
        Remove(0),
        Remove(0),
    ]);
    same_run(&[
        PushBack(0, false),
        PushBack(1, true),
        PushBack(2, true),
        Remove(1),
        PushAllBack,
        PushAllBack,
        Remove(2),
        PopFront(true),
    ]);
    // The first list's items, removed from the middle, the ends, and again.
    let mut ops: Vec<Op> = (0..ITEMS).map(|i| PushBack(i, false)).collect();
    ops.extend([
        Remove(3),
        Remove(0),
        Remove(5),
        Remove(3),
        PopBack,
        PopFront(false),
    ]);
    same_run(&ops);
}

#[test]
fn cursors_agree() {
    use Op::*;
    let filled: Vec<Op> = (0..4).map(|i| PushBack(i, false)).collect();
    let acts = [
        Act::Peek,
        Act::InsertNext(5),
        Act::InsertPrev(5),
        Act::Insert(5),
        Act::InsertNext(1),
        Act::RemoveNext,
        Act::RemovePrev,
        Act::PeekRemoveNext,
        Act::PeekRemovePrev,
    ];
    let moves: [&[bool]; 6] = [
        &[],
        &[true],
        &[false],
        &[true, true, true, true, true],
        &[false, false],
        &[true, false, false],
    ];
    for from_front in [true, false] {
        for moves in moves {
            for act in &acts {
                let cursor = Cursor(from_front, moves.to_vec(), act.clone());
                // On the empty list, and on four items.
                same_run(std::slice::from_ref(&cursor));
                let mut ops = filled.clone();
                ops.push(cursor);
                same_run(&ops);
            }
        }
    }
}

/// The runs record something: a probe whose runs recorded nothing would agree vacuously.
#[test]
fn the_runs_record_what_happens() {
    let log = theirs::run(&[
        Op::PushBack(1, false),
        Op::PushFront(2),
        Op::PushBack(1, true),
    ]);
    assert_eq!(
        log,
        [
            "lists [1] []",
            "lists [2, 1] []",
            "1 is listed already",
            "lists [2, 1] []",
            "into_iter from both ends [1, 2]",
            "listable again [true, true, true, true, true, true]",
        ]
    );
}

fn op() -> impl Strategy<Value = Op> {
    let item = 0..ITEMS;
    let act = prop_oneof![
        Just(Act::Peek),
        item.clone().prop_map(Act::InsertNext),
        item.clone().prop_map(Act::InsertPrev),
        item.clone().prop_map(Act::Insert),
        Just(Act::RemoveNext),
        Just(Act::RemovePrev),
        Just(Act::PeekRemoveNext),
        Just(Act::PeekRemovePrev),
    ];
    prop_oneof![
        3 => (item.clone(), any::<bool>()).prop_map(|(i, second)| Op::PushBack(i, second)),
        2 => item.clone().prop_map(Op::PushFront),
        1 => Just(Op::PopBack),
        1 => any::<bool>().prop_map(Op::PopFront),
        2 => item.prop_map(Op::Remove),
        1 => Just(Op::PushAllBack),
        3 => (any::<bool>(), proptest::collection::vec(any::<bool>(), 0..8), act)
            .prop_map(|(front, moves, act)| Op::Cursor(front, moves, act)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(common::cases(2048)))]

    /// Random sequences of every operation.
    #[test]
    fn random_runs_agree(ops in proptest::collection::vec(op(), 0..40)) {
        same_run(&ops);
    }
}
