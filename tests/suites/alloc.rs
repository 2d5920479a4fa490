// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `kernel_core::alloc` and `kernel_core::init`: the kernel's allocators, `KBox`, `KVec` and
//! their kin, `kvec!` and `InPlaceInit`, as a driver uses them.
//!
//! Written against Linux 7.3's API only, with behaviour the kernel's own types have: the same
//! file runs on the host (kernel-core's own allocators) and in the kernel (the kernel's `KBox`
//! and `KVec`, and on 6.12 kernel-core's bridges to them). So it asserts nothing that depends on
//! an allocator's slack: capacities are compared with `>=` unless 7.3 documents them exactly, and
//! no size limit is probed but one no architecture's `kmalloc()` gives (1 GiB). The host-only
//! edges (exact limits, `__GFP_ZERO` on every reallocation, properties against `std`'s `Vec`)
//! are in `tests/alloc_*.rs`.

use kernel_core::macros::kunit_tests;

#[kunit_tests(kernel_core_alloc)]
mod tests {
    use core::alloc::Layout;
    use core::cell::Cell;
    use core::mem::MaybeUninit;
    use core::ptr::NonNull;

    use kernel_core::alloc::allocator::{KVmalloc, Kmalloc, Vmalloc};
    use kernel_core::alloc::kvec::{InsertError, PushError, RemoveError};
    use kernel_core::alloc::layout::ArrayLayout;
    use kernel_core::alloc::{AllocError, Allocator, Flags, NumaNode};
    use kernel_core::prelude::*;
    use pin_init::InPlaceWrite;

    /// The initialiser of `result`'s value, or of its error: written as a closure, since
    /// Linux 6.12 (unlike 7.3) has no initialiser implementation for `Result` itself.
    fn value<T, E>(result: core::result::Result<T, E>) -> impl Init<T, E> {
        // SAFETY: On `Ok` the whole slot is written; on `Err` nothing is.
        unsafe {
            pin_init::init_from_closure(move |slot: *mut T| {
                slot.write(result?);
                Ok(())
            })
        }
    }

    /// A value that counts how often it is dropped.
    struct Counted<'a> {
        drops: &'a Cell<usize>,
        value: u32,
    }

    impl<'a> Counted<'a> {
        fn new(drops: &'a Cell<usize>, value: u32) -> Self {
            Counted { drops, value }
        }
    }

    impl Drop for Counted<'_> {
        fn drop(&mut self) {
            self.drops.set(self.drops.get() + 1);
        }
    }

    /// Whether `ptr` is aligned to `align`.
    fn aligned<T: ?Sized>(ptr: *const T, align: usize) -> bool {
        ptr.cast::<u8>().addr() % align == 0
    }

    #[test]
    fn flags_combine_as_gfp_masks() {
        let flags: Flags = GFP_KERNEL | __GFP_ZERO | __GFP_NOWARN;
        assert!(flags.contains(GFP_KERNEL));
        assert!(flags.contains(__GFP_ZERO | __GFP_NOWARN));
        assert!((flags & !__GFP_ZERO) == (GFP_KERNEL | __GFP_NOWARN));
        assert!(!GFP_KERNEL.contains(__GFP_ZERO));
        assert!(GFP_KERNEL_ACCOUNT.contains(GFP_KERNEL));
        assert!(!GFP_KERNEL.contains(GFP_KERNEL_ACCOUNT));
        // Neither atomic flag set allows direct reclaim, which `GFP_KERNEL` does.
        assert!(!GFP_ATOMIC.contains(GFP_KERNEL));
        assert!(!GFP_NOWAIT.contains(GFP_KERNEL));
        assert!(GFP_NOWAIT.contains(__GFP_NOWARN));
        assert!(!GFP_KERNEL.contains(__GFP_HIGHMEM));
        assert!((GFP_ATOMIC & GFP_NOWAIT) != GFP_ATOMIC);
    }

    #[test]
    fn numa_nodes() {
        assert!(NumaNode::new(0).is_ok());
        assert!(NumaNode::new(-1) == Err(EINVAL));
        // `MAX_NUMNODES` is at most 1 << 10.
        assert!(NumaNode::new(1 << 10) == Err(EINVAL));
        assert!(NumaNode::new(i32::MIN) == Err(EINVAL));
        assert!(NumaNode::new(0).ok() != Some(NumaNode::NO_NODE));
    }

    #[test]
    fn an_allocation_error_is_enomem() {
        assert_eq!(Error::from(AllocError), ENOMEM);
        assert_eq!(Error::from(PushError(1_u8)), EINVAL);
        assert_eq!(Error::from(RemoveError), EINVAL);
        assert_eq!(Error::from(InsertError::OutOfCapacity(1_u8)), EINVAL);
        assert_eq!(Error::from(InsertError::IndexOutOfBounds(1_u8)), EINVAL);
    }

    #[test]
    fn allocators_allocate_resize_and_free() -> Result {
        let small = Layout::new::<[u32; 4]>();
        let big = Layout::new::<[u32; 64]>();

        let ptr = Kmalloc::alloc(small, GFP_KERNEL, NumaNode::NO_NODE)?;
        assert!(ptr.len() >= 16);
        // SAFETY: `ptr` is valid for 16 bytes, aligned for `u32`.
        unsafe { ptr.cast::<[u32; 4]>().write([1, 2, 3, 4]) };
        // SAFETY: `ptr` is a `Kmalloc` allocation of `small`.
        let ptr = unsafe {
            Kmalloc::realloc(Some(ptr.cast()), big, small, GFP_KERNEL, NumaNode::NO_NODE)?
        };
        assert!(ptr.len() >= 256);
        // SAFETY: `realloc` kept the first 16 bytes.
        assert_eq!(unsafe { ptr.cast::<[u32; 4]>().read() }, [1, 2, 3, 4]);
        // SAFETY: `ptr` is a `Kmalloc` allocation of `big`, not used afterwards.
        unsafe { Kmalloc::free(ptr.cast(), big) };

        for_each_allocator_zeroes::<Kmalloc>()?;
        for_each_allocator_zeroes::<Vmalloc>()?;
        for_each_allocator_zeroes::<KVmalloc>()?;
        Ok(())
    }

    /// `__GFP_ZERO` zeroes a new allocation and, on a reallocation of memory that was zeroed
    /// from the start, every byte up to the new size.
    fn for_each_allocator_zeroes<A: Allocator>() -> Result {
        let small = Layout::new::<[u8; 24]>();
        let big = Layout::new::<[u8; 3000]>();
        let ptr = A::alloc(small, GFP_KERNEL | __GFP_ZERO, NumaNode::NO_NODE)?;
        // SAFETY: `ptr` is valid for 24 bytes, zeroed.
        let zeroed = unsafe { ptr.cast::<[u8; 24]>().read() } == [0; 24];
        // SAFETY: `ptr` is an allocation of `A` with `small`.
        let ptr = unsafe {
            A::realloc(Some(ptr.cast()), big, small, GFP_KERNEL | __GFP_ZERO, NumaNode::NO_NODE)?
        };
        // SAFETY: `ptr` is valid for 3000 bytes, all zeroed.
        let grown = unsafe { ptr.cast::<[u8; 3000]>().read() };
        // SAFETY: `ptr` is an allocation of `A` with `big`, not used afterwards.
        unsafe { A::free(ptr.cast(), big) };
        if zeroed && grown.iter().all(|&b| b == 0) {
            Ok(())
        } else {
            Err(EINVAL)
        }
    }

    #[test]
    fn realloc_to_zero_frees_and_returns_a_dangling_pointer() -> Result {
        let layout = Layout::new::<u64>();
        let ptr = KVmalloc::alloc(layout, GFP_KERNEL, NumaNode::NO_NODE)?;
        // SAFETY: `ptr` is a `KVmalloc` allocation of `layout`, not used afterwards.
        let freed = unsafe {
            KVmalloc::realloc(
                Some(ptr.cast()),
                Layout::new::<()>(),
                layout,
                GFP_KERNEL,
                NumaNode::NO_NODE,
            )?
        };
        assert_eq!(freed.len(), 0);
        // A zero-sized allocation needs no memory, and gets an aligned dangling pointer.
        let zst = Layout::from_size_align(0, 64).map_err(|_| EINVAL)?;
        let ptr = Kmalloc::alloc(zst, GFP_KERNEL, NumaNode::NO_NODE)?;
        assert_eq!(ptr.len(), 0);
        assert!(aligned(ptr.as_ptr(), 64));
        // SAFETY: A zero-sized layout: `free` does nothing.
        unsafe { Kmalloc::free(ptr.cast(), zst) };
        Ok(())
    }

    #[test]
    fn allocations_are_aligned() -> Result {
        // Never read: only their layouts matter.
        #[allow(dead_code)]
        #[repr(align(128))]
        struct Blob([u8; 1024]);
        #[allow(dead_code)]
        #[repr(align(8192))]
        struct LargeAlignBlob([u8; 16384]);

        let b = KBox::<Blob>::new_uninit(GFP_KERNEL)?;
        assert!(aligned(b.as_ptr(), 128));
        let b = KBox::<LargeAlignBlob>::new_uninit(GFP_KERNEL)?;
        assert!(aligned(b.as_ptr(), 8192));
        let b = VBox::<Blob>::new_uninit(GFP_KERNEL)?;
        assert!(aligned(b.as_ptr(), 128));
        assert!(aligned(b.as_ptr(), Vmalloc::MIN_ALIGN));
        // (A `VBox` or `KVBox` aligned beyond a page is 7.3's, which Linux 6.12's `vmalloc()`
        // and `kvmalloc()` refuse: `tests/alloc_edges.rs` checks it on the host.)
        let b = KVBox::<Blob>::new_uninit(GFP_KERNEL)?;
        assert!(aligned(b.as_ptr(), 128));
        // Every allocation is aligned to the allocator's minimum.
        let b = KBox::new(1_u8, GFP_KERNEL)?;
        assert!(aligned(&raw const *b, Kmalloc::MIN_ALIGN));
        let b = VBox::new(1_u8, GFP_KERNEL)?;
        assert!(aligned(&raw const *b, Vmalloc::MIN_ALIGN));
        Ok(())
    }

    #[test]
    fn kmalloc_fails_beyond_what_it_gives() {
        // 1 GiB: more than any architecture's `KMALLOC_MAX_SIZE`.
        assert!(KBox::<[u8; 1 << 30]>::new_uninit(GFP_KERNEL | __GFP_NOWARN).is_err());
        // More elements than fit in `isize::MAX` bytes: the layout fails before the allocator.
        assert!(KVec::<u64>::with_capacity(usize::MAX / 4, GFP_KERNEL).err() == Some(AllocError));
        assert!(KVVec::<u8>::with_capacity(usize::MAX, GFP_KERNEL).is_err());
        let mut v = KVec::<u16>::new();
        v.push(1, GFP_KERNEL).unwrap_or(());
        assert!(v.reserve(usize::MAX, GFP_KERNEL).err() == Some(AllocError));
        assert_eq!(v, [1]);
    }

    #[test]
    fn kbox_owns_and_drops_its_value_once() -> Result {
        let drops = Cell::new(0);
        let b = KBox::new(Counted::new(&drops, 7), GFP_KERNEL)?;
        assert_eq!(b.value, 7);
        drop(b);
        assert_eq!(drops.get(), 1);

        let b = VBox::new(Counted::new(&drops, 8), GFP_KERNEL)?;
        let inner = VBox::into_inner(b);
        assert_eq!(drops.get(), 1);
        assert_eq!(inner.value, 8);
        drop(inner);
        assert_eq!(drops.get(), 2);

        let b = KVBox::new(Counted::new(&drops, 9), GFP_KERNEL)?;
        let empty = KVBox::drop_contents(b);
        assert_eq!(drops.get(), 3);
        let b = KVBox::write(empty, Counted::new(&drops, 10));
        assert_eq!(b.value, 10);
        drop(b);
        assert_eq!(drops.get(), 4);
        Ok(())
    }

    #[test]
    fn kbox_raw_round_trips() -> Result {
        let drops = Cell::new(0);
        let raw = KBox::into_raw(KBox::new(Counted::new(&drops, 1), GFP_KERNEL)?);
        assert_eq!(drops.get(), 0);
        // SAFETY: `raw` comes from `KBox::into_raw`.
        let b = unsafe { KBox::from_raw(raw) };
        assert_eq!(b.value, 1);
        drop(b);
        assert_eq!(drops.get(), 1);

        let leaked: &mut u32 = KBox::leak(KBox::new(5, GFP_KERNEL)?);
        *leaked += 1;
        // SAFETY: `leaked` comes from `KBox::leak`, which is `into_raw`.
        let b = unsafe { KBox::from_raw(leaked) };
        assert_eq!(*b, 6);
        Ok(())
    }

    #[test]
    fn kbox_uninit_zeroed_and_pinned() -> Result {
        let b = KBox::<[u64; 4]>::new_uninit(GFP_KERNEL)?;
        let b = KBox::write(b, [1, 2, 3, 4]);
        assert_eq!(*b, [1, 2, 3, 4]);

        let mut b: KBox<MaybeUninit<u32>> = KBox::new_uninit(GFP_KERNEL)?;
        (*b).write(12);
        // SAFETY: Written just above.
        let b = unsafe { b.assume_init() };
        assert_eq!(*b, 12);

        assert_eq!(*KBox::<[u8; 300]>::zeroed(GFP_KERNEL)?, [0; 300]);
        assert_eq!(*VBox::<[u32; 64]>::zeroed(GFP_KERNEL)?, [0; 64]);
        assert_eq!(*KVBox::<u64>::zeroed(GFP_KERNEL)?, 0);

        let pinned = KBox::pin(3_u16, GFP_KERNEL)?;
        assert_eq!(*pinned, 3);
        let pinned = KBox::into_pin(KBox::new(4_u16, GFP_KERNEL)?);
        assert_eq!(*pinned, 4);
        let pinned: Pin<KBox<u16>> = KBox::new(5_u16, GFP_KERNEL)?.into();
        assert_eq!(*pinned, 5);
        Ok(())
    }

    #[test]
    fn kbox_of_zero_sized_values() -> Result {
        #[repr(align(64))]
        struct Marker;

        let drops = Cell::new(0);
        struct Token<'a>(&'a Cell<usize>);
        impl Drop for Token<'_> {
            fn drop(&mut self) {
                self.0.set(self.0.get() + 1);
            }
        }

        let b = KBox::new(Marker, GFP_KERNEL)?;
        assert!(aligned(&raw const *b, 64));
        let b = VBox::new((), GFP_KERNEL)?;
        assert_eq!(*b, ());
        let t = KVBox::new(Token(&drops), GFP_KERNEL)?;
        drop(t);
        assert_eq!(drops.get(), 1);
        let raw = KBox::into_raw(KBox::new(Marker, GFP_KERNEL)?);
        // SAFETY: `raw` comes from `KBox::into_raw` (a dangling, aligned pointer).
        drop(unsafe { KBox::from_raw(raw) });
        Ok(())
    }

    #[test]
    fn kbox_slices_and_trait_objects_from_raw() -> Result {
        trait Shape {
            fn area(&self) -> u32;
        }
        struct Square(u32);
        impl Shape for Square {
            fn area(&self) -> u32 {
                self.0 * self.0
            }
        }

        let raw = KBox::into_raw(KBox::new(Square(4), GFP_KERNEL)?) as *mut dyn Shape;
        // SAFETY: `raw` comes from `KBox::into_raw`, unsized to the trait object.
        let shape: KBox<dyn Shape> = unsafe { KBox::from_raw(raw) };
        assert_eq!(shape.area(), 16);

        let raw = KBox::into_raw(KBox::new([1_u8, 2, 3], GFP_KERNEL)?) as *mut [u8];
        // SAFETY: `raw` comes from `KBox::into_raw`, unsized to the slice.
        let slice: KBox<[u8]> = unsafe { KBox::from_raw(raw) };
        assert_eq!(&*slice, &[1, 2, 3]);
        Ok(())
    }

    #[test]
    fn pin_slice_initialises_in_place_and_cleans_up_on_error() -> Result {
        let drops = Cell::new(0);
        let s = KBox::<Counted<'_>>::pin_slice(
            |i| value(Ok::<_, Error>(Counted::new(&drops, i as u32 * 2))),
            4,
            GFP_KERNEL,
        )?;
        assert_eq!(s.len(), 4);
        assert_eq!(s[3].value, 6);
        drop(s);
        assert_eq!(drops.get(), 4);

        let failed = KBox::<Counted<'_>>::pin_slice(
            |i| {
                value(if i < 3 {
                    Ok(Counted::new(&drops, 0))
                } else {
                    Err(EIO)
                })
            },
            5,
            GFP_KERNEL,
        );
        assert!(failed.err() == Some(EIO));
        // The three made before the error were dropped.
        assert_eq!(drops.get(), 7);

        let empty = KBox::<u8>::pin_slice(|_| value(Ok::<u8, Error>(0)), 0, GFP_KERNEL)?;
        assert!(empty.is_empty());
        Ok(())
    }

    #[test]
    fn in_place_init_of_a_kbox() -> Result {
        let b: Pin<KBox<u32>> = KBox::try_pin_init(value(Ok::<u32, Error>(8)), GFP_KERNEL)?;
        assert_eq!(*b, 8);
        let failed = KBox::<u32>::try_pin_init(value(Err::<u32, Error>(EBUSY)), GFP_KERNEL);
        assert!(failed.err() == Some(EBUSY));

        let b = KBox::<[u8; 4]>::try_init(value(Ok::<_, Error>([7; 4])), GFP_KERNEL)?;
        assert_eq!(*b, [7; 4]);
        let failed = KBox::<u8>::try_init(value(Err::<u8, Error>(EAGAIN)), GFP_KERNEL);
        assert!(failed.err() == Some(EAGAIN));

        // The `Error`-returning forms convert the initialiser's error.
        // The error type named: Linux 6.12's values initialise with any error type.
        let b = KBox::pin_init::<core::convert::Infallible>(10_u64, GFP_KERNEL)?;
        assert_eq!(*b, 10);
        let b = VBox::init(pin_init::init_zeroed::<[u64; 8]>(), GFP_KERNEL)?;
        assert_eq!(*b, [0; 8]);
        let failed = KBox::<u8>::init(value(Err::<u8, RemoveError>(RemoveError)), GFP_KERNEL);
        assert!(failed.err() == Some(EINVAL));

        // `InPlaceWrite`: initialise the memory of an uninitialised `KBox`.
        let b = KBox::<u16>::new_uninit(GFP_KERNEL)?.write_init::<core::convert::Infallible>(9_u16);
        assert!(b.is_ok_and(|b| *b == 9));
        let failed = KBox::<u16>::new_uninit(GFP_KERNEL)?.write_pin_init(value(Err::<u16, Error>(EIO)));
        assert!(failed.err() == Some(EIO));
        Ok(())
    }

    /// A device's state, initialised in place: a pinned register block and a name.
    #[pin_data]
    struct Device<'a> {
        #[pin]
        regs: [u32; 4],
        first: Counted<'a>,
        name: KVec<u8>,
    }

    fn device<'a>(drops: &'a Cell<usize>, name: &'a [u8]) -> impl PinInit<Device<'a>, Error> + 'a {
        try_pin_init!(Device {
            regs <- pin_init::init_zeroed(),
            first: Counted::new(drops, 1),
            name: {
                if name.is_empty() {
                    return Err(EINVAL);
                }
                let mut v = KVec::new();
                v.extend_from_slice(name, GFP_KERNEL)?;
                v
            },
        })
    }

    /// The same fields, not pinned, with another error type.
    struct Config<'a> {
        first: Counted<'a>,
        table: KBox<[u16; 16]>,
    }

    fn config<'a>(drops: &'a Cell<usize>, fail: bool) -> impl Init<Config<'a>, AllocError> + 'a {
        try_init!(Config {
            first: Counted::new(drops, 2),
            table: if fail {
                return Err(AllocError);
            } else {
                KBox::new([0; 16], GFP_KERNEL)?
            },
        }? AllocError)
    }

    #[test]
    fn try_init_and_try_pin_init_macros() -> Result {
        let drops = Cell::new(0);
        let d = KBox::pin_init(device(&drops, b"dma0"), GFP_KERNEL)?;
        assert_eq!(d.regs, [0; 4]);
        assert_eq!(d.first.value, 1);
        assert_eq!(d.name, [b'd', b'm', b'a', b'0']);
        drop(d);
        assert_eq!(drops.get(), 1);
        // A field fails: the fields already initialised are dropped, the memory freed.
        let failed = KBox::pin_init(device(&drops, b""), GFP_KERNEL);
        assert!(failed.err() == Some(EINVAL));
        assert_eq!(drops.get(), 2);

        let c = KBox::init(config(&drops, false), GFP_KERNEL)?;
        assert_eq!(c.first.value, 2);
        assert_eq!(*c.table, [0; 16]);
        drop(c);
        assert_eq!(drops.get(), 3);
        let failed = KBox::init(config(&drops, true), GFP_KERNEL);
        assert!(failed.err() == Some(ENOMEM));
        assert_eq!(drops.get(), 4);
        Ok(())
    }

    #[test]
    fn kvec_grows_and_shrinks() -> Result {
        let mut v = KVec::new();
        assert!(v.is_empty());
        assert_eq!(v.capacity(), 0);
        for i in 0..100_u32 {
            v.push(i, GFP_KERNEL)?;
        }
        assert_eq!(v.len(), 100);
        assert!(v.capacity() >= 100);
        assert_eq!(v[99], 99);
        assert_eq!(v.pop(), Some(99));
        assert_eq!(v.remove(0)?, 0);
        assert_eq!(v.first(), Some(&1));
        assert_eq!(v.len(), 98);

        v.truncate(10);
        assert_eq!(v, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
        v.truncate(20);
        assert_eq!(v.len(), 10);
        v.resize(12, 0, GFP_KERNEL)?;
        assert_eq!(v[10..], [0, 0]);
        v.resize(2, 0, GFP_KERNEL)?;
        assert_eq!(v, [1, 2]);
        v.extend_from_slice(&[3, 4], GFP_KERNEL)?;
        v.extend_with(2, 5, GFP_KERNEL)?;
        v.extend_with(0, 6, GFP_KERNEL)?;
        assert_eq!(v, [1, 2, 3, 4, 5, 5]);
        v.retain(|x| *x % 2 == 1);
        assert_eq!(v, [1, 3, 5, 5]);
        let capacity = v.capacity();
        v.clear();
        assert!(v.is_empty());
        assert_eq!(v.capacity(), capacity);
        assert_eq!(v.pop(), None);
        Ok(())
    }

    #[test]
    fn kvec_reserve_and_capacity() -> Result {
        let mut v = KVec::<u64>::with_capacity(10, GFP_KERNEL)?;
        assert!(v.capacity() >= 10);
        for i in 0..10 {
            assert!(v.push_within_capacity(i).is_ok());
        }
        // `with_capacity(10)` of an empty vector makes room for exactly 10.
        assert!(matches!(v.push_within_capacity(10), Err(PushError(10))));
        v.reserve(5, GFP_KERNEL)?;
        let capacity = v.capacity();
        assert!(capacity >= 15);
        v.reserve(5, GFP_KERNEL)?;
        assert_eq!(v.capacity(), capacity);
        assert_eq!(v.spare_capacity_mut().len(), capacity - 10);
        Ok(())
    }

    #[test]
    fn kvec_insert_within_capacity() -> Result {
        let mut v = KVec::with_capacity(5, GFP_KERNEL)?;
        for i in 0..5 {
            assert!(v.insert_within_capacity(0, i).is_ok());
        }
        assert!(matches!(
            v.insert_within_capacity(0, 5),
            Err(InsertError::OutOfCapacity(5))
        ));
        assert!(matches!(
            v.insert_within_capacity(1000, 6),
            Err(InsertError::IndexOutOfBounds(6))
        ));
        assert_eq!(v, [4, 3, 2, 1, 0]);
        assert!(v.remove(2).is_ok());
        assert!(v.insert_within_capacity(4, 9).is_ok());
        assert_eq!(v, [4, 3, 1, 0, 9]);
        Ok(())
    }

    #[test]
    fn kvec_remove_out_of_bounds_keeps_the_vector() -> Result {
        let mut v = kernel_core::kvec![1, 2, 3]?;
        assert!(matches!(v.remove(3), Err(RemoveError)));
        assert!(matches!(v.remove(usize::MAX), Err(RemoveError)));
        assert_eq!(v, [1, 2, 3]);
        assert_eq!(v.remove(2)?, 3);
        assert_eq!(v.remove(0)?, 1);
        assert_eq!(v.remove(0)?, 2);
        assert!(matches!(v.remove(0), Err(RemoveError)));
        Ok(())
    }

    #[test]
    fn kvec_drops_each_element_once() -> Result {
        let drops = Cell::new(0);
        let mut v = KVec::new();
        for i in 0..8 {
            v.push(Counted::new(&drops, i), GFP_KERNEL)?;
        }
        drop(v.pop());
        assert_eq!(drops.get(), 1);
        drop(v.remove(0)?);
        assert_eq!(drops.get(), 2);
        v.truncate(4);
        assert_eq!(drops.get(), 4);
        v.retain(|c| c.value % 2 == 0);
        assert_eq!(drops.get(), 6);
        assert_eq!(v.len(), 2);
        drop(v);
        assert_eq!(drops.get(), 8);

        let mut v = KVVec::new();
        for i in 0..4 {
            v.push(Counted::new(&drops, i), GFP_KERNEL)?;
        }
        v.clear();
        assert_eq!(drops.get(), 12);
        Ok(())
    }

    #[test]
    fn kvec_iterators_move_and_drop_the_rest() -> Result {
        let drops = Cell::new(0);
        let mut v = KVec::new();
        for i in 0..6 {
            v.push(Counted::new(&drops, i), GFP_KERNEL)?;
        }
        let mut it = v.into_iter();
        assert_eq!(it.size_hint(), (6, Some(6)));
        let first = it.next();
        assert!(first.as_ref().is_some_and(|c| c.value == 0));
        drop(first);
        assert_eq!(drops.get(), 1);
        drop(it);
        assert_eq!(drops.get(), 6);

        let v = kernel_core::kvec![1, 2, 3, 4]?;
        let mut it = v.into_iter();
        assert_eq!(it.next(), Some(1));
        assert_eq!(it.next(), Some(2));
        let rest = it.collect(GFP_KERNEL);
        assert_eq!(rest, [3, 4]);
        let all = rest.into_iter().collect(GFP_KERNEL);
        assert_eq!(all, [3, 4]);
        let mut it = all.into_iter();
        assert_eq!(it.next(), Some(3));
        assert_eq!(it.next(), Some(4));
        assert_eq!(it.next(), None);
        assert!(it.collect(GFP_KERNEL).is_empty());

        let mut v = KVec::new();
        for i in 0..5 {
            v.push(Counted::new(&drops, i), GFP_KERNEL)?;
        }
        let capacity = v.capacity();
        let mut drain = v.drain_all();
        assert_eq!(drain.size_hint(), (5, Some(5)));
        drop(drain.next());
        drop(drain);
        assert_eq!(drops.get(), 11);
        assert!(v.is_empty());
        assert_eq!(v.capacity(), capacity);

        let v = kernel_core::kvec![5_u8, 6]?;
        let mut sum = 0;
        for x in &v {
            sum += *x;
        }
        assert_eq!(sum, 11);
        let mut v = v;
        for x in &mut v {
            *x += 1;
        }
        assert_eq!(v, [6, 7]);
        Ok(())
    }

    #[test]
    fn kvec_of_zero_sized_elements() -> Result {
        let mut v = KVec::<()>::new();
        assert_eq!(v.capacity(), usize::MAX);
        for _ in 0..1000 {
            v.push((), GFP_KERNEL)?;
        }
        assert_eq!(v.len(), 1000);
        assert_eq!(v.capacity(), usize::MAX);
        assert!(v.reserve(usize::MAX, GFP_KERNEL).err() == Some(AllocError));
        assert_eq!(v.pop(), Some(()));
        assert!(v.remove(999).is_err());
        assert!(v.remove(0).is_ok());
        let (ptr, len, capacity) = v.into_raw_parts();
        assert_eq!(len, 998);
        assert_eq!(capacity, usize::MAX);
        // SAFETY: The raw parts of a `KVec` of a zero-sized type.
        let v = unsafe { KVec::<()>::from_raw_parts(ptr, len, capacity) };
        assert_eq!(v.into_iter().count(), 998);

        let drops = Cell::new(0);
        struct Token<'a>(&'a Cell<usize>);
        impl Drop for Token<'_> {
            fn drop(&mut self) {
                self.0.set(self.0.get() + 1);
            }
        }
        let mut v = VVec::new();
        for _ in 0..3 {
            v.push(Token(&drops), GFP_KERNEL)?;
        }
        drop(v);
        assert_eq!(drops.get(), 3);
        Ok(())
    }

    #[test]
    fn kvec_constructors() -> Result {
        let v = KVec::<u32>::zeroed(20, GFP_KERNEL)?;
        assert_eq!(v.len(), 20);
        assert!(v.iter().all(|&x| x == 0));
        let v = VVec::<u8>::zeroed(5000, GFP_KERNEL)?;
        assert!(v.iter().all(|&x| x == 0));
        let v = KVec::from_elem(7_u8, 3, GFP_KERNEL)?;
        assert_eq!(v, [7, 7, 7]);
        let v: KVec<i32> = kernel_core::kvec![];
        assert!(v.is_empty());
        let v = kernel_core::kvec![1; 3]?;
        assert_eq!(v, [1, 1, 1]);
        let v = kernel_core::kvec![1, 2, 3,]?;
        assert_eq!(v, [1, 2, 3]);
        let v = KVec::from(KBox::new([4_u16, 5], GFP_KERNEL)?);
        assert_eq!(v, [4, 5]);
        assert_eq!(v.capacity(), 2);
        let v = KVVec::<u8>::new();
        assert!(v.is_empty());

        let mut v = kernel_core::kvec![1, 2, 3]?;
        v.reserve(1, GFP_KERNEL)?;
        let (ptr, mut len, capacity) = v.into_raw_parts();
        // SAFETY: One more element was reserved.
        unsafe { ptr.add(len).write(4) };
        len += 1;
        // SAFETY: The raw parts of a `KVec`, with one more element written after its length.
        let v = unsafe { KVec::from_raw_parts(ptr, len, capacity) };
        assert_eq!(v, [1, 2, 3, 4]);
        // SAFETY: An empty vector: a dangling pointer, no length, no capacity.
        let v = unsafe { KVec::<u64>::from_raw_parts(NonNull::dangling().as_ptr(), 0, 0) };
        assert!(v.is_empty());
        Ok(())
    }

    #[test]
    fn kvec_spare_capacity_and_inc_len() -> Result {
        let mut v = KVec::<u32>::with_capacity(4, GFP_KERNEL)?;
        v.push(1, GFP_KERNEL)?;
        let spare = v.spare_capacity_mut();
        spare[0].write(2);
        spare[1].write(3);
        // SAFETY: Two elements after the length were just written.
        unsafe { v.inc_len(2) };
        assert_eq!(v, [1, 2, 3]);
        v.as_mut_slice()[0] = 9;
        assert_eq!(v.as_slice(), &[9, 2, 3]);
        // SAFETY: The vector holds three elements.
        assert_eq!(unsafe { *v.as_ptr().add(2) }, 3);
        // SAFETY: As above.
        unsafe { *v.as_mut_ptr() = 8 };
        assert_eq!(v[0], 8);
        v[1] = 7;
        assert_eq!(v[..2], [8, 7]);
        Ok(())
    }

    #[test]
    fn kvec_compares_with_slices_arrays_and_vectors() -> Result {
        let k = kernel_core::kvec![1_u8, 2, 3]?;
        // The comparisons with references are the point: each is an impl of its own.
        let mut buffer = [1_u8, 2, 3];
        let (array, slice) = (&[1_u8, 2, 3], &[1_u8, 2, 3][..]);
        let mut_slice: &mut [u8] = &mut buffer;
        let mut v = VVec::new();
        v.extend_from_slice(&[1_u8, 2, 3], GFP_KERNEL)?;
        assert!(k == v);
        assert!(k == [1, 2, 3]);
        assert!(k == array);
        assert!(k == [1_u8, 2, 3][..]);
        assert!(k == slice);
        assert!(k == mut_slice);
        assert!([1_u8, 2, 3][..] == k);
        assert!(slice == k);
        assert!(mut_slice == k);
        assert!(k != [1, 2]);
        assert!(k != [1, 2, 4]);
        Ok(())
    }

    #[test]
    fn kvvec_shrink_to() -> Result {
        let mut v = KVVec::<u8>::with_capacity(4 * 4096, GFP_KERNEL)?;
        v.push(1, GFP_KERNEL)?;
        v.push(2, GFP_KERNEL)?;
        v.push(3, GFP_KERNEL)?;
        let initial = v.capacity();
        assert!(initial >= 4 * 4096);
        v.shrink_to(4096, GFP_KERNEL)?;
        assert!(v.capacity() < initial);
        assert!(v.capacity() >= 4096);
        v.shrink_to(0, GFP_KERNEL)?;
        assert!(v.capacity() >= 3);
        assert_eq!(v, [1, 2, 3]);
        let capacity = v.capacity();
        v.shrink_to(capacity + 100, GFP_KERNEL)?;
        assert_eq!(v.capacity(), capacity);

        let mut empty = KVVec::<u8>::with_capacity(4 * 4096, GFP_KERNEL)?;
        empty.shrink_to(0, GFP_KERNEL)?;
        assert_eq!(empty.capacity(), 0);
        assert!(empty.is_empty());
        Ok(())
    }

    #[test]
    fn array_layouts() -> Result {
        let layout = ArrayLayout::<u32>::new(15).map_err(|_| EINVAL)?;
        assert_eq!(layout.len(), 15);
        assert_eq!(layout.size(), 60);
        assert!(!layout.is_empty());
        assert!(ArrayLayout::<u32>::empty().is_empty());
        assert!(Layout::from(layout) == Layout::new::<[u32; 15]>());
        assert!(ArrayLayout::<i32>::new(isize::MAX as usize).is_err());
        assert!(ArrayLayout::<i32>::new(isize::MAX as usize / 2).is_err());
        assert!(ArrayLayout::<()>::new(usize::MAX).is_ok());
        assert!(ArrayLayout::<u64>::new(usize::MAX).is_err());
        Ok(())
    }
}
