// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Differential tests of `kernel_core::alloc` against Linux 7.3's own `kernel::alloc`
//! (`linux7_3::alloc`: the kernel's `rust/kernel/alloc.rs`, `alloc/kvec.rs`,
//! `alloc/kvec/errors.rs` and `alloc/layout.rs` built on the host, over a mock of the kernel's
//! allocators that keeps their documented guarantees; see `src/lib.rs`).
//!
//! - `ArrayLayout::new` for element sizes 0 to 56 bytes at every length edge (`0`, `1`, the
//!   largest length within `isize::MAX` bytes and one beyond, `usize::MAX`), with `len`, `size`,
//!   `is_empty` and the `Layout` it converts into;
//! - `KVec<u32>` under random sequences of every length-changing method (`push`,
//!   `push_within_capacity`, `insert_within_capacity`, `pop`, `remove`, `truncate`, `resize`,
//!   `retain`, `extend_with`, `extend_from_slice`, `drain_all`, `clear`, `reserve`), each
//!   call's result (values and errors, as their `Debug` and their `Error`), and the contents,
//!   length and capacity after each;
//! - the errors of allocations too large for `kmalloc()` or for `isize::MAX` bytes, and of
//!   `zeroed`/`from_elem`;
//! - the signatures of those methods, as one template instantiated with each crate.

#[macro_use]
mod common;

use core::alloc::Layout;
use kernel_core::error::Error;
use proptest::prelude::*;

/// `ArrayLayout::<$ty>::new(len)` on each side, as `(len, size, is_empty, Layout)` or `Err(())`.
macro_rules! layouts {
    ($($ty:ty),*) => {$({
        let size = core::mem::size_of::<$ty>().max(1);
        let limit = isize::MAX as usize / size;
        for len in [0, 1, 2, 3, limit - 1, limit, limit + 1, limit.saturating_mul(2),
                    usize::MAX / size, (usize::MAX / size).saturating_add(1), usize::MAX - 1, usize::MAX] {
            let ours = kernel_core::alloc::layout::ArrayLayout::<$ty>::new(len)
                .map(|l| (l.len(), l.size(), l.is_empty(), Layout::from(l)))
                .map_err(|_| ());
            let theirs = linux7_3::alloc::layout::ArrayLayout::<$ty>::new(len)
                .map(|l| (l.len(), l.size(), l.is_empty(), Layout::from(l)))
                .map_err(|_| ());
            assert_eq!(
                ours, theirs,
                "ArrayLayout::<{}>::new({len}): kernel-core (left), Linux 7.3 (right)",
                stringify!($ty)
            );
        }
        let ours = kernel_core::alloc::layout::ArrayLayout::<$ty>::empty();
        let theirs = linux7_3::alloc::layout::ArrayLayout::<$ty>::empty();
        assert_eq!(
            (ours.len(), ours.size(), ours.is_empty(), Layout::from(ours)),
            (theirs.len(), theirs.size(), theirs.is_empty(), Layout::from(theirs)),
        );
    })*};
}

#[test]
fn array_layout() {
    layouts!((), u8, u16, u32, u64, u128, [u8; 3], [u16; 5], [u64; 7]);
}

/// One call on a `KVec<u32>`.
#[derive(Debug, Clone)]
enum Op {
    Push(u32),
    PushWithinCapacity(u32),
    InsertWithinCapacity(usize, u32),
    Pop,
    Remove(usize),
    Truncate(usize),
    Resize(usize, u32),
    Retain(u32),
    ExtendWith(usize, u32),
    ExtendFromSlice(Vec<u32>),
    DrainAll,
    Clear,
    Reserve(usize),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => any::<u32>().prop_map(Op::Push),
        2 => any::<u32>().prop_map(Op::PushWithinCapacity),
        2 => (0..40_usize, any::<u32>()).prop_map(|(i, v)| Op::InsertWithinCapacity(i, v)),
        2 => Just(Op::Pop),
        2 => (0..40_usize).prop_map(Op::Remove),
        1 => (0..40_usize).prop_map(Op::Truncate),
        1 => (0..40_usize, any::<u32>()).prop_map(|(n, v)| Op::Resize(n, v)),
        1 => (1..5_u32).prop_map(Op::Retain),
        1 => (0..20_usize, any::<u32>()).prop_map(|(n, v)| Op::ExtendWith(n, v)),
        1 => proptest::collection::vec(any::<u32>(), 0..10).prop_map(Op::ExtendFromSlice),
        1 => Just(Op::DrainAll),
        1 => Just(Op::Clear),
        1 => prop_oneof![0..40_usize, Just(usize::MAX), Just(usize::MAX / 4), Just(1 << 21)]
            .prop_map(Op::Reserve),
    ]
}

/// What a call returned, comparable across the two crates: the values, and each error as its
/// `Debug` text and the `Error` it converts into.
type Returned = (Vec<u32>, Option<(String, Error)>);

/// Applies `op` to a `KVec<u32>` of crate `$k`, returning what it returned.
macro_rules! apply {
    ($k:ident, $v:expr, $op:expr) => {{
        use $k::alloc::flags::GFP_KERNEL;
        let v = $v;
        let err = |text: String, code: Error| Some((text, code));
        let returned: Returned = match $op.clone() {
            Op::Push(x) => match v.push(x, GFP_KERNEL) {
                Ok(()) => (vec![], None),
                Err(e) => (vec![], err(format!("{e:?}"), Error::from(e))),
            },
            Op::PushWithinCapacity(x) => match v.push_within_capacity(x) {
                Ok(()) => (vec![], None),
                Err(e) => (vec![e.0], err(format!("{e:?}"), Error::from(e))),
            },
            Op::InsertWithinCapacity(i, x) => match v.insert_within_capacity(i, x) {
                Ok(()) => (vec![], None),
                Err(e) => {
                    let text = format!("{e:?}");
                    let value = match &e {
                        $k::alloc::kvec::InsertError::IndexOutOfBounds(x) => vec![0, *x],
                        $k::alloc::kvec::InsertError::OutOfCapacity(x) => vec![1, *x],
                    };
                    (value, Some((text, Error::from(e))))
                }
            },
            Op::Pop => (v.pop().into_iter().collect(), None),
            Op::Remove(i) => match v.remove(i) {
                Ok(x) => (vec![x], None),
                Err(e) => (vec![], err(format!("{e:?}"), Error::from(e))),
            },
            Op::Truncate(n) => {
                v.truncate(n);
                (vec![], None)
            }
            Op::Resize(n, x) => match v.resize(n, x, GFP_KERNEL) {
                Ok(()) => (vec![], None),
                Err(e) => (vec![], err(format!("{e:?}"), Error::from(e))),
            },
            Op::Retain(m) => {
                let mut seen = vec![];
                v.retain(|x| {
                    seen.push(*x);
                    *x % m == 0
                });
                (seen, None)
            }
            Op::ExtendWith(n, x) => match v.extend_with(n, x, GFP_KERNEL) {
                Ok(()) => (vec![], None),
                Err(e) => (vec![], err(format!("{e:?}"), Error::from(e))),
            },
            Op::ExtendFromSlice(s) => match v.extend_from_slice(&s, GFP_KERNEL) {
                Ok(()) => (vec![], None),
                Err(e) => (vec![], err(format!("{e:?}"), Error::from(e))),
            },
            Op::DrainAll => (v.drain_all().collect(), None),
            Op::Clear => {
                v.clear();
                (vec![], None)
            }
            Op::Reserve(n) => match v.reserve(n, GFP_KERNEL) {
                Ok(()) => (vec![], None),
                Err(e) => (vec![], err(format!("{e:?}"), Error::from(e))),
            },
        };
        (
            returned,
            v.as_slice().to_vec(),
            v.len(),
            v.capacity(),
            v.is_empty(),
        )
    }};
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(common::cases(2048)))]

    /// Random sequences of calls, from an empty vector or one with some capacity.
    #[test]
    fn kvec_calls(capacity in prop_oneof![Just(0_usize), 0..16_usize], ops in proptest::collection::vec(op(), 0..40)) {
        let mut ours = kernel_core::alloc::KVec::<u32>::with_capacity(
            capacity,
            kernel_core::alloc::flags::GFP_KERNEL,
        )
        .unwrap();
        let mut theirs = linux7_3::alloc::KVec::<u32>::with_capacity(
            capacity,
            linux7_3::alloc::flags::GFP_KERNEL,
        )
        .unwrap();
        prop_assert_eq!(ours.capacity(), theirs.capacity());
        for (step, op) in ops.iter().enumerate() {
            let a = apply!(kernel_core, &mut ours, op);
            let b = apply!(linux7_3, &mut theirs, op);
            prop_assert_eq!(a, b, "step {} ({:?}): kernel-core (left), Linux 7.3 (right)", step, op);
        }
    }
}

/// Allocations that fail: beyond `kmalloc()`'s 4 MiB, beyond `isize::MAX` bytes, in each
/// constructor.
#[test]
fn failed_allocations() {
    macro_rules! outcomes {
        ($k:ident) => {{
            use $k::alloc::{flags::GFP_KERNEL, KVec};
            let n = |r: Result<KVec<u32>, $k::alloc::AllocError>| {
                r.map(|v| {
                    (
                        v.len(),
                        v.capacity(),
                        v.as_slice().iter().map(|x| u64::from(*x)).sum::<u64>(),
                    )
                })
                .map_err(|e| (format!("{e:?}"), Error::from(e)))
            };
            let sizes = [
                0,
                1,
                1 << 20,
                (1 << 20) + 1,
                usize::MAX / 4,
                usize::MAX / 4 + 1,
                usize::MAX,
            ];
            sizes
                .iter()
                .map(|&len| {
                    (
                        n(KVec::with_capacity(len, GFP_KERNEL)),
                        n(KVec::zeroed(len, GFP_KERNEL)),
                        n(KVec::from_elem(3, len.min(1 << 21), GFP_KERNEL)),
                    )
                })
                .collect::<Vec<_>>()
        }};
    }
    assert_eq!(outcomes!(kernel_core), outcomes!(linux7_3));
}

/// The signatures of 7.3's `KVec` methods and `ArrayLayout`, as one template instantiated with
/// each crate: each line compiles only if that crate's item coerces to the function pointer type
/// written (the list is hand-written, from 7.3's `kvec.rs` and `layout.rs`).
#[test]
fn signatures() {
    macro_rules! probe {
        ($k:ident) => {{
            use core::mem::MaybeUninit;
            use $k::alloc::{
                kvec::{DrainAll, InsertError, PushError, RemoveError},
                layout::{ArrayLayout, LayoutError},
                AllocError, Flags, KVec,
            };
            type V = KVec<u32>;
            let _: fn(&V) -> usize = V::capacity;
            let _: fn(&V) -> usize = V::len;
            let _: unsafe fn(&mut V, usize) = V::inc_len;
            let _: fn(&V) -> &[u32] = V::as_slice;
            let _: fn(&mut V) -> &mut [u32] = V::as_mut_slice;
            let _: fn(&mut V) -> *mut u32 = V::as_mut_ptr;
            let _: fn(&V) -> *const u32 = V::as_ptr;
            let _: fn(&V) -> bool = V::is_empty;
            let _: fn() -> V = V::new;
            let _: fn(&mut V) -> &mut [MaybeUninit<u32>] = V::spare_capacity_mut;
            let _: fn(&mut V, u32, Flags) -> Result<(), AllocError> = V::push;
            let _: fn(&mut V, u32) -> Result<(), PushError<u32>> = V::push_within_capacity;
            let _: fn(&mut V, usize, u32) -> Result<(), InsertError<u32>> =
                V::insert_within_capacity;
            let _: fn(&mut V) -> Option<u32> = V::pop;
            let _: fn(&mut V, usize) -> Result<u32, RemoveError> = V::remove;
            let _: fn(usize, Flags) -> Result<V, AllocError> = V::with_capacity;
            let _: fn(usize, Flags) -> Result<V, AllocError> = V::zeroed;
            let _: unsafe fn(*mut u32, usize, usize) -> V = V::from_raw_parts;
            let _: fn(V) -> (*mut u32, usize, usize) = V::into_raw_parts;
            let _: fn(&mut V) = V::clear;
            let _: fn(&mut V, usize, Flags) -> Result<(), AllocError> = V::reserve;
            let _: fn(&mut V, usize) = V::truncate;
            let _: fn(&mut V) -> DrainAll<'_, u32> = V::drain_all;
            let _: fn(&mut V, fn(&mut u32) -> bool) = V::retain;
            let _: fn(&mut V, usize, u32, Flags) -> Result<(), AllocError> = V::extend_with;
            let _: fn(&mut V, &[u32], Flags) -> Result<(), AllocError> = V::extend_from_slice;
            let _: fn(u32, usize, Flags) -> Result<V, AllocError> = V::from_elem;
            let _: fn(&mut V, usize, u32, Flags) -> Result<(), AllocError> = V::resize;
            let _: fn(<V as IntoIterator>::IntoIter, Flags) -> V =
                <V as IntoIterator>::IntoIter::collect;
            type L = ArrayLayout<u64>;
            let _: fn() -> L = L::empty;
            let _: fn(usize) -> Result<L, LayoutError> = L::new;
            let _: unsafe fn(usize) -> L = L::new_unchecked;
            let _: fn(&L) -> usize = L::len;
            let _: fn(&L) -> bool = L::is_empty;
            let _: fn(&L) -> usize = L::size;
            let _: fn(Flags, Flags) -> bool = Flags::contains;
        }};
    }
    probe!(kernel_core);
    probe!(linux7_3);
}
