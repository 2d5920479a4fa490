// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Host only: `KVec`, `VVec` and `KVVec` against `std`'s `Vec` as the plain reference, on
//! random sequences of operations: after each, the same elements in the same order, a capacity
//! that holds them, the kernel's growth rule, and, at the end, every element dropped exactly
//! once on both sides.
//!
//! Under Miri (`cargo +nightly miri test -p kernel-core-tests --test alloc_properties`) the
//! number of cases is small, and every `unsafe` path of `Vec` is taken on the way.

use std::cell::Cell;
use std::rc::Rc;

use kernel_core::alloc::kvec::{InsertError, PushError, RemoveError};
use kernel_core::alloc::{Allocator, Vec as KernelVec};
use kernel_core::prelude::GFP_KERNEL;
use proptest::prelude::*;
use proptest::test_runner::Config;

/// An element that knows how many of its side's elements are alive.
#[derive(Debug)]
struct Tracked {
    value: u8,
    alive: Rc<Cell<isize>>,
}

impl Tracked {
    fn new(value: u8, alive: &Rc<Cell<isize>>) -> Self {
        alive.set(alive.get() + 1);
        Tracked {
            value,
            alive: Rc::clone(alive),
        }
    }
}

impl Clone for Tracked {
    fn clone(&self) -> Self {
        Tracked::new(self.value, &self.alive)
    }
}

impl Drop for Tracked {
    fn drop(&mut self) {
        self.alive.set(self.alive.get() - 1);
    }
}

impl PartialEq for Tracked {
    fn eq(&self, other: &Self) -> bool {
        self.value == other.value
    }
}

/// One operation on both vectors.
#[derive(Clone, Debug)]
enum Op {
    Push(u8),
    PushWithinCapacity(u8),
    InsertWithinCapacity(usize, u8),
    Pop,
    Remove(usize),
    Truncate(usize),
    Resize(usize, u8),
    RetainMultiplesOf(u8),
    ExtendFromSlice(std::vec::Vec<u8>),
    ExtendWith(usize, u8),
    Clear,
    Reserve(usize),
    /// `into_iter`, `next` this many times, then `IntoIter::collect`.
    CollectAfter(usize),
    /// `drain_all`, take this many, drop the rest.
    DrainAll(usize),
    /// `into_raw_parts` then `from_raw_parts`.
    RawParts,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => any::<u8>().prop_map(Op::Push),
        2 => any::<u8>().prop_map(Op::PushWithinCapacity),
        2 => (0..12_usize, any::<u8>()).prop_map(|(i, v)| Op::InsertWithinCapacity(i, v)),
        2 => Just(Op::Pop),
        2 => (0..12_usize).prop_map(Op::Remove),
        1 => (0..12_usize).prop_map(Op::Truncate),
        1 => (0..24_usize, any::<u8>()).prop_map(|(n, v)| Op::Resize(n, v)),
        1 => (1..4_u8).prop_map(Op::RetainMultiplesOf),
        1 => proptest::collection::vec(any::<u8>(), 0..8).prop_map(Op::ExtendFromSlice),
        1 => (0..8_usize, any::<u8>()).prop_map(|(n, v)| Op::ExtendWith(n, v)),
        1 => Just(Op::Clear),
        1 => (0..40_usize).prop_map(Op::Reserve),
        1 => (0..6_usize).prop_map(Op::CollectAfter),
        1 => (0..6_usize).prop_map(Op::DrainAll),
        1 => Just(Op::RawParts),
    ]
}

/// Applies `op` to the kernel's vector and to the reference, and checks that they agree.
fn apply<A: Allocator>(
    kernel: &mut KernelVec<Tracked, A>,
    reference: &mut std::vec::Vec<Tracked>,
    op: Op,
    kernel_alive: &Rc<Cell<isize>>,
    reference_alive: &Rc<Cell<isize>>,
) -> Result<(), TestCaseError> {
    let k = |v: u8| Tracked::new(v, kernel_alive);
    let r = |v: u8| Tracked::new(v, reference_alive);
    match op {
        Op::Push(v) => {
            kernel.push(k(v), GFP_KERNEL).unwrap();
            reference.push(r(v));
        }
        Op::PushWithinCapacity(v) => {
            let fits = kernel.len() < kernel.capacity();
            match kernel.push_within_capacity(k(v)) {
                Ok(()) => {
                    prop_assert!(fits);
                    reference.push(r(v));
                }
                Err(PushError(back)) => {
                    prop_assert!(!fits);
                    prop_assert_eq!(back.value, v);
                }
            }
        }
        Op::InsertWithinCapacity(index, v) => {
            let (len, capacity) = (kernel.len(), kernel.capacity());
            match kernel.insert_within_capacity(index, k(v)) {
                Ok(()) => {
                    prop_assert!(index <= len && len < capacity);
                    reference.insert(index, r(v));
                }
                Err(InsertError::IndexOutOfBounds(back)) => {
                    prop_assert!(index > len);
                    prop_assert_eq!(back.value, v);
                }
                Err(InsertError::OutOfCapacity(back)) => {
                    prop_assert!(index <= len && len == capacity);
                    prop_assert_eq!(back.value, v);
                }
            }
        }
        Op::Pop => prop_assert_eq!(kernel.pop(), reference.pop()),
        Op::Remove(index) => match kernel.remove(index) {
            Ok(removed) => prop_assert_eq!(removed, reference.remove(index)),
            Err(RemoveError) => prop_assert!(index >= reference.len()),
        },
        Op::Truncate(len) => {
            kernel.truncate(len);
            reference.truncate(len);
        }
        Op::Resize(len, v) => {
            kernel.resize(len, k(v), GFP_KERNEL).unwrap();
            reference.resize(len, r(v));
        }
        Op::RetainMultiplesOf(m) => {
            kernel.retain(|t| t.value % m == 0);
            reference.retain(|t| t.value % m == 0);
        }
        Op::ExtendFromSlice(values) => {
            let ks: std::vec::Vec<_> = values.iter().map(|&v| k(v)).collect();
            kernel.extend_from_slice(&ks, GFP_KERNEL).unwrap();
            reference.extend(values.iter().map(|&v| r(v)));
        }
        Op::ExtendWith(n, v) => {
            kernel.extend_with(n, k(v), GFP_KERNEL).unwrap();
            reference.extend((0..n).map(|_| r(v)));
        }
        Op::Clear => {
            let capacity = kernel.capacity();
            kernel.clear();
            reference.clear();
            prop_assert_eq!(kernel.capacity(), capacity);
        }
        Op::Reserve(additional) => {
            let (len, capacity) = (kernel.len(), kernel.capacity());
            kernel.reserve(additional, GFP_KERNEL).unwrap();
            // The kernel's growth rule: nothing if it fits, else the larger of twice the
            // capacity and what is needed.
            let expected = if capacity - len >= additional {
                capacity
            } else {
                (2 * capacity).max(len + additional)
            };
            prop_assert_eq!(kernel.capacity(), expected);
        }
        Op::CollectAfter(skip) => {
            let mut it = core::mem::take(kernel).into_iter();
            for _ in 0..skip {
                let expected = (!reference.is_empty()).then(|| reference.remove(0));
                prop_assert_eq!(it.next(), expected);
            }
            prop_assert_eq!(it.size_hint(), (reference.len(), Some(reference.len())));
            *kernel = it.collect(GFP_KERNEL);
        }
        Op::DrainAll(take) => {
            let capacity = kernel.capacity();
            let mut expected = core::mem::take(reference).into_iter();
            let mut drain = kernel.drain_all();
            for _ in 0..take {
                prop_assert_eq!(drain.next(), expected.next());
            }
            drop(drain);
            prop_assert!(kernel.is_empty());
            prop_assert_eq!(kernel.capacity(), capacity);
        }
        Op::RawParts => {
            let (ptr, len, capacity) = core::mem::take(kernel).into_raw_parts();
            // SAFETY: The raw parts of a vector of this allocator, unchanged.
            *kernel = unsafe { KernelVec::from_raw_parts(ptr, len, capacity) };
        }
    }
    prop_assert_eq!(kernel.as_slice(), reference.as_slice());
    prop_assert!(kernel.len() <= kernel.capacity());
    prop_assert_eq!(kernel_alive.get(), reference_alive.get());
    Ok(())
}

/// Runs `ops` on a fresh vector of `A` and a fresh reference.
fn run<A: Allocator>(ops: std::vec::Vec<Op>) -> Result<(), TestCaseError> {
    let kernel_alive = Rc::new(Cell::new(0));
    let reference_alive = Rc::new(Cell::new(0));
    {
        let mut kernel = KernelVec::<Tracked, A>::new();
        let mut reference = std::vec::Vec::new();
        for op in ops {
            apply(
                &mut kernel,
                &mut reference,
                op,
                &kernel_alive,
                &reference_alive,
            )?;
        }
    }
    // Every element was dropped exactly once.
    prop_assert_eq!(kernel_alive.get(), 0);
    prop_assert_eq!(reference_alive.get(), 0);
    Ok(())
}

/// Fewer, shorter cases under Miri, which is some thousand times slower.
fn config() -> Config {
    Config {
        cases: if cfg!(miri) { 4 } else { 512 },
        failure_persistence: None,
        ..Config::default()
    }
}

fn ops() -> impl Strategy<Value = std::vec::Vec<Op>> {
    proptest::collection::vec(op(), 0..if cfg!(miri) { 20 } else { 64 })
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn kvec_matches_std_vec(ops in ops()) {
        run::<kernel_core::alloc::allocator::Kmalloc>(ops)?;
    }

    #[test]
    fn vvec_matches_std_vec(ops in ops()) {
        run::<kernel_core::alloc::allocator::Vmalloc>(ops)?;
    }

    #[test]
    fn kvvec_matches_std_vec(ops in ops()) {
        run::<kernel_core::alloc::allocator::KVmalloc>(ops)?;
    }

    /// A vector of a zero-sized type allocates nothing and keeps its length.
    #[test]
    fn zero_sized_elements(pushes in 0..200_usize, pops in 0..250_usize) {
        let mut v = kernel_core::alloc::KVec::<()>::new();
        for _ in 0..pushes {
            v.push((), GFP_KERNEL).unwrap();
        }
        let mut popped = 0;
        for _ in 0..pops {
            if v.pop().is_some() {
                popped += 1;
            }
        }
        prop_assert_eq!(popped, pops.min(pushes));
        prop_assert_eq!(v.len(), pushes - popped);
        prop_assert_eq!(v.capacity(), usize::MAX);
        prop_assert_eq!(v.into_iter().count(), pushes - popped);
    }
}
