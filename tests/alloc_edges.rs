// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Host only: the edges of kernel-core's host allocators that the kernel's depend on its
//! configuration for (`KMALLOC_MAX_SIZE`, the page size), what the host's model of them does
//! (`__GFP_ZERO` on every growth, a reallocation to another alignment), and which requests
//! reach the host's allocator at all: a counting global allocator shows that zero-sized values
//! and empty vectors allocate nothing, that a size of zero frees, and that nothing leaks.
//!
//! Every test here also runs under Miri:
//! `cargo +nightly miri test -p kernel-core-tests --test alloc_edges`.

use core::alloc::{GlobalAlloc, Layout};
use core::cell::Cell;
use std::alloc::System;

use kernel_core::alloc::allocator::{KVmalloc, Kmalloc, Vmalloc};
use kernel_core::alloc::kvec::RemoveError;
use kernel_core::alloc::{AllocError, Allocator, NumaNode};
use kernel_core::error::code::{EINVAL, ENOMEM};
use kernel_core::error::Error;
use kernel_core::prelude::*;

/// `KMALLOC_MAX_SIZE` of the host's model: 4 MiB (`MAX_PAGE_ORDER` 10, 4 KiB pages).
const KMALLOC_MAX_SIZE: usize = 4 << 20;

/// The host's page size.
const PAGE_SIZE: usize = 4096;

std::thread_local! {
    /// The live allocations of this thread, and how many were made: tests run in parallel
    /// threads, each counting its own.
    static LIVE: Cell<isize> = const { Cell::new(0) };
    static MADE: Cell<usize> = const { Cell::new(0) };
}

/// The system allocator, counting per thread.
struct Counting;

// SAFETY: Every call is the system allocator's, with the caller's arguments.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: The caller's promises are `System`'s.
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            count(1);
        }
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: The caller's promises are `System`'s.
        let ptr = unsafe { System.alloc_zeroed(layout) };
        if !ptr.is_null() {
            count(1);
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: The caller's promises are `System`'s.
        unsafe { System.dealloc(ptr, layout) };
        count(-1);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: The caller's promises are `System`'s.
        let new = unsafe { System.realloc(ptr, layout, new_size) };
        if !new.is_null() {
            MADE.with(|made| made.set(made.get() + 1));
        }
        new
    }
}

/// Adds `delta` to this thread's live allocations (and one to those made, for a new one).
fn count(delta: isize) {
    // `try_with`: the thread's counters may be gone while it exits.
    let _ = LIVE.try_with(|live| live.set(live.get() + delta));
    if delta > 0 {
        let _ = MADE.try_with(|made| made.set(made.get() + 1));
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// This thread's live allocations and allocations made, so far.
fn counters() -> (isize, usize) {
    (LIVE.with(Cell::get), MADE.with(Cell::get))
}

/// Runs `f` and returns what it left allocated, and how many allocations (or reallocations) it
/// made.
fn measure(f: impl FnOnce()) -> (isize, usize) {
    let (live, made) = counters();
    f();
    let (live_after, made_after) = counters();
    (live_after - live, made_after - made)
}

/// Whether `ptr` is aligned to `align`.
fn aligned<T: ?Sized>(ptr: *const T, align: usize) -> bool {
    ptr.cast::<u8>().addr() % align == 0
}

#[test]
fn kmalloc_gives_up_to_kmalloc_max_size() {
    let largest = Layout::from_size_align(KMALLOC_MAX_SIZE, 1).unwrap();
    let ptr = Kmalloc::alloc(largest, GFP_KERNEL, NumaNode::NO_NODE).unwrap();
    assert_eq!(ptr.len(), KMALLOC_MAX_SIZE);
    // SAFETY: `ptr` is a `Kmalloc` allocation of `largest`, not used afterwards.
    unsafe { Kmalloc::free(ptr.cast(), largest) };

    let one_more = Layout::from_size_align(KMALLOC_MAX_SIZE + 1, 1).unwrap();
    assert_eq!(
        Kmalloc::alloc(one_more, GFP_KERNEL, NumaNode::NO_NODE).err(),
        Some(AllocError)
    );
    // Padding to the alignment counts, as `Kmalloc::aligned_layout` pads: one byte aligned to
    // 8 MiB is an 8 MiB `kmalloc()`.
    let padded = Layout::from_size_align(1, 2 * KMALLOC_MAX_SIZE).unwrap();
    assert_eq!(
        Kmalloc::alloc(padded, GFP_KERNEL, NumaNode::NO_NODE).err(),
        Some(AllocError)
    );

    assert!(KBox::<[u8; KMALLOC_MAX_SIZE + 1]>::new_uninit(GFP_KERNEL | __GFP_NOWARN).is_err());
    assert!(KBox::<[u8; KMALLOC_MAX_SIZE]>::new_uninit(GFP_KERNEL).is_ok());
    assert!(KVBox::<[u8; KMALLOC_MAX_SIZE + 1]>::new_uninit(GFP_KERNEL).is_ok());
    assert!(VBox::<[u8; KMALLOC_MAX_SIZE + 1]>::new_uninit(GFP_KERNEL).is_ok());
}

#[test]
fn a_failed_growth_keeps_the_buffer() {
    let mut v = KVec::<u8>::new();
    v.extend_from_slice(&[1, 2, 3], GFP_KERNEL).unwrap();
    let capacity = v.capacity();
    // Beyond `KMALLOC_MAX_SIZE`: `krealloc()` fails, the buffer stays.
    assert_eq!(v.reserve(KMALLOC_MAX_SIZE, GFP_KERNEL), Err(AllocError));
    assert_eq!(v, [1, 2, 3]);
    assert_eq!(v.capacity(), capacity);
    // `KVVec` takes it, from `vmalloc()`.
    let mut v = KVVec::<u8>::new();
    v.extend_from_slice(&[1, 2, 3], GFP_KERNEL).unwrap();
    v.reserve(KMALLOC_MAX_SIZE, GFP_KERNEL).unwrap();
    assert_eq!(v, [1, 2, 3]);
}

#[test]
fn kvmalloc_refuses_more_than_int_max() {
    // On 32-bit no layout is larger than `INT_MAX`: `Layout` stops at `isize::MAX`, the same.
    let Ok(crazy) = Layout::from_size_align(i32::MAX as usize + 1, 1) else {
        assert_eq!(usize::BITS, 32);
        return;
    };
    assert_eq!(
        KVmalloc::alloc(crazy, GFP_KERNEL, NumaNode::NO_NODE).err(),
        Some(AllocError)
    );
}

#[test]
fn capacity_overflow_is_an_alloc_error() {
    // More than `isize::MAX` bytes.
    assert_eq!(
        KVec::<u8>::with_capacity(isize::MAX as usize + 1, GFP_KERNEL).err(),
        Some(AllocError)
    );
    assert_eq!(
        KVec::<u32>::with_capacity(usize::MAX / 4 + 1, GFP_KERNEL).err(),
        Some(AllocError)
    );
    // The length plus the additional elements overflows a `usize`.
    let mut v = KVec::<u16>::new();
    v.push(1, GFP_KERNEL).unwrap();
    assert_eq!(v.reserve(usize::MAX, GFP_KERNEL), Err(AllocError));
    assert_eq!(v.extend_with(usize::MAX, 0, GFP_KERNEL), Err(AllocError));
    assert_eq!(v.resize(usize::MAX, 0, GFP_KERNEL), Err(AllocError));
    assert_eq!(v, [1]);
    // A zero-sized type's capacity is `usize::MAX`: only the length can overflow.
    let mut z = KVec::<()>::new();
    z.push((), GFP_KERNEL).unwrap();
    assert_eq!(z.reserve(usize::MAX - 1, GFP_KERNEL), Ok(()));
    assert_eq!(z.reserve(usize::MAX, GFP_KERNEL), Err(AllocError));
    // `?` makes it `ENOMEM`.
    let f = || -> kernel_core::error::Result<KVec<u64>> {
        Ok(KVec::with_capacity(usize::MAX, GFP_KERNEL)?)
    };
    assert_eq!(f().err(), Some(ENOMEM));
}

#[test]
fn remove_out_of_bounds() {
    let mut v = KVec::<String>::new();
    assert!(matches!(v.remove(0), Err(RemoveError)));
    v.push("a".to_owned(), GFP_KERNEL).unwrap();
    assert!(matches!(v.remove(1), Err(RemoveError)));
    assert_eq!(Error::from(v.remove(7).unwrap_err()), EINVAL);
    assert_eq!(v.remove(0).unwrap(), "a");
    assert!(v.is_empty());
}

/// Allocates `old` bytes with `A`, without `__GFP_ZERO`, fills them with `0xaa`, grows them to
/// `new` (aligned to `align`) with `__GFP_ZERO`, and returns the bytes.
fn grow_zeroed<A: Allocator>(old: usize, new: usize, align: usize) -> std::vec::Vec<u8> {
    let old_layout = Layout::from_size_align(old, 1).unwrap();
    let new_layout = Layout::from_size_align(new, align).unwrap();
    let ptr = A::alloc(old_layout, GFP_KERNEL, NumaNode::NO_NODE).unwrap();
    // SAFETY: `ptr` is valid for `old` bytes.
    unsafe { ptr.cast::<u8>().write_bytes(0xaa, old) };
    // SAFETY: `ptr` is an allocation of `A` with `old_layout`.
    let ptr = unsafe {
        A::realloc(
            Some(ptr.cast()),
            new_layout,
            old_layout,
            GFP_KERNEL | __GFP_ZERO,
            NumaNode::NO_NODE,
        )
    }
    .unwrap();
    assert!(aligned(ptr.as_ptr(), align));
    // SAFETY: `ptr` is valid for `new` bytes, all initialised (kept or zeroed).
    let bytes = unsafe { core::slice::from_raw_parts(ptr.cast::<u8>().as_ptr(), new) }.to_vec();
    // SAFETY: `ptr` is an allocation of `A` with `new_layout`, not used afterwards.
    unsafe { A::free(ptr.cast(), new_layout) };
    bytes
}

#[test]
fn gfp_zero_zeroes_what_a_reallocation_adds() {
    for bytes in [
        grow_zeroed::<Kmalloc>(5, 40, 1),
        grow_zeroed::<Kmalloc>(5, 40, 64),
        grow_zeroed::<KVmalloc>(5, 40, 1),
        grow_zeroed::<Vmalloc>(5, 5000, 1),
    ] {
        assert_eq!(bytes[..5], [0xaa; 5]);
        assert!(bytes[5..].iter().all(|&b| b == 0));
    }
    // Through a vector.
    let mut v = KVec::<u8>::new();
    v.extend_from_slice(&[9; 3], GFP_KERNEL).unwrap();
    v.reserve(100, GFP_KERNEL | __GFP_ZERO).unwrap();
    let spare = v.spare_capacity_mut();
    // SAFETY: `__GFP_ZERO` zeroed the spare capacity.
    assert!(spare.iter().all(|b| unsafe { b.assume_init() } == 0));
    // Shrinking with `__GFP_ZERO` keeps the first bytes.
    let layout = Layout::new::<[u8; 8]>();
    let ptr = Kmalloc::alloc(layout, GFP_KERNEL, NumaNode::NO_NODE).unwrap();
    // SAFETY: 8 bytes.
    unsafe { ptr.cast::<[u8; 8]>().write([1, 2, 3, 4, 5, 6, 7, 8]) };
    let small = Layout::new::<[u8; 3]>();
    // SAFETY: A `Kmalloc` allocation of `layout`.
    let ptr = unsafe {
        Kmalloc::realloc(
            Some(ptr.cast()),
            small,
            layout,
            GFP_KERNEL | __GFP_ZERO,
            NumaNode::NO_NODE,
        )
    }
    .unwrap();
    // SAFETY: 3 bytes, kept.
    assert_eq!(unsafe { ptr.cast::<[u8; 3]>().read() }, [1, 2, 3]);
    // SAFETY: A `Kmalloc` allocation of `small`, not used afterwards.
    unsafe { Kmalloc::free(ptr.cast(), small) };
}

#[test]
fn alignments() {
    for size in [1, 7, 64, 4095, 4096, 10_000] {
        let layout = Layout::from_size_align(size, 1).unwrap();
        let k = Kmalloc::alloc(layout, GFP_KERNEL, NumaNode::NO_NODE).unwrap();
        let v = Vmalloc::alloc(layout, GFP_KERNEL, NumaNode::NO_NODE).unwrap();
        let kv = KVmalloc::alloc(layout, GFP_KERNEL, NumaNode::NO_NODE).unwrap();
        assert!(aligned(k.as_ptr(), Kmalloc::MIN_ALIGN));
        assert!(aligned(v.as_ptr(), PAGE_SIZE));
        assert!(aligned(kv.as_ptr(), KVmalloc::MIN_ALIGN));
        // SAFETY: Each was allocated with `layout` by its allocator, and is not used afterwards.
        unsafe {
            Kmalloc::free(k.cast(), layout);
            Vmalloc::free(v.cast(), layout);
            KVmalloc::free(kv.cast(), layout);
        }
    }
    // Linux 7.3's `vmalloc()` and `kvmalloc()` honour an alignment beyond a page (6.12's refuse
    // it, which is why this is not in the suite, which runs on 6.12 too).
    #[repr(align(8192))]
    struct PageAndMore(#[allow(dead_code, reason = "only its size counts")] [u8; 16384]);
    let b = VBox::<PageAndMore>::new_uninit(GFP_KERNEL).unwrap();
    assert!(aligned(b.as_ptr(), 8192));
    let b = KVBox::<PageAndMore>::new_uninit(GFP_KERNEL).unwrap();
    assert!(aligned(b.as_ptr(), 8192));
    assert_eq!(Kmalloc::MIN_ALIGN, 8);
    assert_eq!(KVmalloc::MIN_ALIGN, 8);
    assert_eq!(Vmalloc::MIN_ALIGN, PAGE_SIZE);
    assert_eq!(
        Kmalloc::aligned_layout(Layout::from_size_align(24, 16).unwrap()),
        Layout::from_size_align(32, 16).unwrap()
    );
}

#[test]
fn vmalloc_does_not_move_to_a_larger_alignment() {
    let small = Layout::from_size_align(100, 1).unwrap();
    let ptr = Vmalloc::alloc(small, GFP_KERNEL, NumaNode::NO_NODE).unwrap();
    let huge_align = 1 << 20;
    let lucky = aligned(ptr.as_ptr(), huge_align);
    let big = Layout::from_size_align(200, huge_align).unwrap();
    // SAFETY: A `Vmalloc` allocation of `small`.
    let result =
        unsafe { Vmalloc::realloc(Some(ptr.cast()), big, small, GFP_KERNEL, NumaNode::NO_NODE) };
    // `vrealloc()` fails unless the allocation happens to have the alignment already; either
    // way, the right allocation is freed.
    assert_eq!(result.is_ok(), lucky);
    match result {
        // SAFETY: A `Vmalloc` allocation of `big`, not used afterwards.
        Ok(ptr) => unsafe { Vmalloc::free(ptr.cast(), big) },
        // SAFETY: Still the allocation of `small`, not used afterwards.
        Err(AllocError) => unsafe { Vmalloc::free(ptr.cast(), small) },
    }
    // `Kmalloc` moves the bytes to a new allocation.
    let bytes = grow_zeroed::<Kmalloc>(100, 200, huge_align);
    assert_eq!(bytes[..100], [0xaa; 100]);
}

#[test]
fn zero_sized_values_and_empty_vectors_allocate_nothing() {
    #[repr(align(4096))]
    struct Page;

    let (live, made) = measure(|| {
        let b = KBox::new((), GFP_KERNEL).unwrap();
        let p = VBox::new(Page, GFP_KERNEL).unwrap();
        assert!(aligned(&raw const *p, 4096));
        let mut v = KVec::<()>::new();
        for _ in 0..100 {
            v.push((), GFP_KERNEL).unwrap();
        }
        let e = KVec::<u64>::new();
        let w = KVec::<u64>::with_capacity(0, GFP_KERNEL).unwrap();
        let z = KVec::<u32>::zeroed(0, GFP_KERNEL).unwrap();
        let f = KVec::from_elem(1_u8, 0, GFP_KERNEL).unwrap();
        drop((b, p, v, e, w, z, f));
    });
    assert_eq!((live, made), (0, 0));
}

#[test]
fn a_size_of_zero_frees() {
    let (live, made) = measure(|| {
        let layout = Layout::new::<[u64; 4]>();
        let ptr = KVmalloc::alloc(layout, GFP_KERNEL, NumaNode::NO_NODE).unwrap();
        let empty = Layout::from_size_align(0, 32).unwrap();
        // SAFETY: A `KVmalloc` allocation of `layout`, not used afterwards.
        let dangling = unsafe {
            KVmalloc::realloc(
                Some(ptr.cast()),
                empty,
                layout,
                GFP_KERNEL,
                NumaNode::NO_NODE,
            )
        }
        .unwrap();
        assert_eq!(dangling.len(), 0);
        assert!(aligned(dangling.as_ptr(), 32));

        // A vector shrunk to nothing by `IntoIter::collect` frees its buffer.
        let v = kernel_core::kvec![1_u8, 2].unwrap();
        let mut it = v.into_iter();
        it.next();
        it.next();
        let v = it.collect(GFP_KERNEL);
        assert_eq!(v.capacity(), 0);
    });
    assert_eq!(live, 0);
    assert!(made >= 2);
}

#[test]
fn nothing_leaks() {
    let (live, made) = measure(|| {
        let b = KBox::new([7_u8; 100], GFP_KERNEL).unwrap();
        let mut v = KVVec::new();
        for i in 0..1000_u32 {
            v.push(i, GFP_KERNEL).unwrap();
        }
        v.retain(|x| *x % 3 == 0);
        let rest = {
            let mut it = v.into_iter();
            it.next();
            it.collect(GFP_KERNEL)
        };
        let pinned = KBox::<usize>::pin_slice(Ok::<_, AllocError>, 10, GFP_KERNEL).unwrap();
        let failed =
            KBox::<usize>::pin_slice(|i| if i < 5 { Ok(i) } else { Err(EIO) }, 10, GFP_KERNEL);
        assert_eq!(failed.err(), Some(EIO));
        let init = KBox::<u64>::try_init(Err::<u64, Error>(EBUSY), GFP_KERNEL);
        assert_eq!(init.err(), Some(EBUSY));
        drop((b, rest, pinned));
    });
    assert_eq!(live, 0);
    assert!(made > 3);
}

#[test]
fn vectors_grow_to_twice_their_capacity() {
    let mut v = KVec::<u32>::new();
    let mut capacities = std::vec::Vec::new();
    for i in 0..100 {
        v.push(i, GFP_KERNEL).unwrap();
        if capacities.last() != Some(&v.capacity()) {
            capacities.push(v.capacity());
        }
    }
    assert_eq!(capacities, [1, 2, 4, 8, 16, 32, 64, 128]);
    // Or to what is needed, if more.
    let mut v = KVec::<u8>::with_capacity(3, GFP_KERNEL).unwrap();
    assert_eq!(v.capacity(), 3);
    v.reserve(10, GFP_KERNEL).unwrap();
    assert_eq!(v.capacity(), 10);
    v.extend_with(10, 0, GFP_KERNEL).unwrap();
    v.reserve(1, GFP_KERNEL).unwrap();
    assert_eq!(v.capacity(), 20);
}

#[test]
fn kvvec_shrink_to_a_vmalloc_buffer_frees_pages() {
    // A buffer beyond `KMALLOC_MAX_SIZE` comes from `vmalloc()`.
    let mut v = KVVec::<u8>::with_capacity(KMALLOC_MAX_SIZE + PAGE_SIZE, GFP_KERNEL).unwrap();
    v.extend_from_slice(&[1, 2, 3], GFP_KERNEL).unwrap();
    // Not a page freed: nothing happens.
    v.shrink_to(KMALLOC_MAX_SIZE + 1, GFP_KERNEL).unwrap();
    assert_eq!(v.capacity(), KMALLOC_MAX_SIZE + PAGE_SIZE);
    // A page or more: copied into a buffer of the target capacity.
    v.shrink_to(PAGE_SIZE, GFP_KERNEL).unwrap();
    assert_eq!(v.capacity(), PAGE_SIZE);
    assert_eq!(v, [1, 2, 3]);
    // A `kmalloc()` buffer is reallocated to the target.
    v.shrink_to(0, GFP_KERNEL).unwrap();
    assert_eq!(v.capacity(), 3);
    assert_eq!(v, [1, 2, 3]);

    let mut empty = KVVec::<u16>::with_capacity(KMALLOC_MAX_SIZE, GFP_KERNEL).unwrap();
    empty.shrink_to(0, GFP_KERNEL).unwrap();
    assert_eq!(empty.capacity(), 0);
    // A vector of zero-sized elements has nothing to shrink.
    let mut z = KVVec::<()>::new();
    z.push((), GFP_KERNEL).unwrap();
    z.shrink_to(0, GFP_KERNEL).unwrap();
    assert_eq!(z.capacity(), usize::MAX);
}

#[test]
fn numa_nodes_up_to_max_numnodes() {
    assert!(NumaNode::new(1023).is_ok());
    assert!(NumaNode::new(1024).is_err());
    // The node is a preference the host ignores.
    let layout = Layout::new::<u8>();
    let ptr = Kmalloc::alloc(layout, GFP_KERNEL, NumaNode::new(3).unwrap()).unwrap();
    // SAFETY: A `Kmalloc` allocation of `layout`, not used afterwards.
    unsafe { Kmalloc::free(ptr.cast(), layout) };
}

#[test]
fn debug_and_display() {
    let b = KBox::new(42_u8, GFP_KERNEL).unwrap();
    assert_eq!(format!("{b} {b:?} {b:#x}", b = *b), "42 42 0x2a");
    // `{}` is the kernel's `Display`, which `fmt!` reads, as Linux 7.3's `Box` has it.
    assert_eq!(format!("{}", kernel_core::macros::fmt!("{b}")), "42");
    assert_eq!(format!("{b:?}"), "42");
    let v = kernel_core::kvec![1, 2].unwrap();
    assert_eq!(format!("{v:?}"), "[1, 2]");
    assert_eq!(format!("{:?}", AllocError), "AllocError");
    assert_eq!(
        format!("{:?}", kernel_core::alloc::kvec::PushError(1)),
        "Not enough capacity"
    );
    assert_eq!(format!("{RemoveError:?}"), "Index out of bounds");
}
