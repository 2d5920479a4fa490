// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `kernel::alloc` in the kernel: the kernel's own allocators, flags, `Box` and `Vec`, on every
//! kernel, so that a driver's `KBox` and `KVec` are the ones the kernel's APIs take.
//!
//! What Linux 7.3's `Vec` and `Box` have and older kernels lack comes from extension traits that
//! `kernel_core::prelude` imports (as `_`, so they take no name), written against each kernel's
//! public API:
//!
//! - Linux 7.2 lacks `Vec::zeroed`.
//! - Linux 6.12 (Debian's 6.12.118 backports `KBox` and `KVec`) lacks `Vec::{inc_len, pop,
//!   push_within_capacity, insert_within_capacity, remove, clear, truncate, drain_all, retain,
//!   resize, zeroed}` with the errors of `kvec::{PushError, InsertError, RemoveError}`, and
//!   `Box::{into_pin, zeroed}`.
//!
//! What no extension trait can give is listed in the migration guide: on 6.12, `len`,
//! `capacity`, `is_empty` and `as_ptr` are not `const fn`, `Box::pin_slice`, `KVVec::shrink_to`
//! and `NumaNode` do not exist, and the `Allocator` trait has no NUMA node argument.

#[cfg(kernel_core_linux_7_1)]
pub use kernel::alloc::*;

/// The trait that bounds `Box<T, A>` and `Vec<T, A>` in code shared with the host, which the
/// kernel world compiles only on 6.12 (`types` and `uaccess`): there, whose `Allocator` has no
/// `MIN_ALIGN`, the kernel's with it. From 7.1 on those modules are the kernel's own.
#[cfg(not(kernel_core_linux_7_1))]
pub(crate) use numa::BoxAllocator;

/// The extension traits, for code shared with the host that calls 7.3's methods.
#[allow(unused_imports)]
pub(crate) mod ext {
    #[cfg(not(kernel_core_linux_7_3))]
    pub(crate) use super::VecExt as _;
    #[cfg(not(kernel_core_linux_7_1))]
    pub(crate) use super::{ArrayLayoutExt as _, BoxExt as _, KVVecExt as _};
}

#[cfg(not(kernel_core_linux_7_1))]
pub use kernel::alloc::{
    allocator, flags, kbox, layout, AllocError, Box, Flags, KBox, KVBox, KVVec, KVec, VBox, VVec,
    Vec,
};

#[cfg(not(kernel_core_linux_7_1))]
pub use numa::{Allocator, NumaNode};

/// Linux 7.3's `NumaNode` and its `Allocator` trait, whose methods take one, on Linux 6.12,
/// whose `Allocator` has no node argument: implemented for 6.12's own `Kmalloc`, `Vmalloc` and
/// `KVmalloc`, which allocate on any node. 6.12's `Vec<T, A>` and `Box<T, A>` are bound by
/// 6.12's trait, so code generic over this one cannot name them (the migration guide says so).
#[cfg(not(kernel_core_linux_7_1))]
mod numa {
    use super::{allocator, AllocError, Flags};
    use crate::error::{code::EINVAL, Result};
    use core::{alloc::Layout, ptr::NonNull};
    use kernel::bindings;

    /// A NUMA node: Linux 7.3's `kernel::alloc::NumaNode`.
    #[derive(Clone, Copy, PartialEq)]
    pub struct NumaNode(i32);

    impl NumaNode {
        /// No node in particular: the allocator picks one.
        pub const NO_NODE: NumaNode = NumaNode(bindings::NUMA_NO_NODE);

        /// The node `node`, or `EINVAL` if it is not below `MAX_NUMNODES`.
        pub fn new(node: i32) -> Result<Self> {
            match u32::try_from(node) {
                Ok(n) if n < bindings::MAX_NUMNODES => Ok(Self(node)),
                _ => Err(EINVAL),
            }
        }
    }

    /// Linux 7.3's `kernel::alloc::Allocator`.
    ///
    /// # Safety
    ///
    /// As 7.3's: the memory `realloc` returns is valid for `layout` until freed, and freed only
    /// by this allocator.
    pub unsafe trait Allocator {
        /// The alignment every allocation has at least.
        const MIN_ALIGN: usize;

        /// Allocates memory for `layout`.
        fn alloc(layout: Layout, flags: Flags, nid: NumaNode) -> Result<NonNull<[u8]>, AllocError> {
            // SAFETY: `None` asks for a new allocation, which is always allowed.
            unsafe { Self::realloc(None, layout, Layout::new::<()>(), flags, nid) }
        }

        /// Grows, shrinks, allocates (`ptr` is `None`) or frees (`layout` has size 0).
        ///
        /// # Safety
        ///
        /// As 7.3's: `ptr` is `None` or an allocation of this allocator made for `old_layout`.
        unsafe fn realloc(
            ptr: Option<NonNull<u8>>,
            layout: Layout,
            old_layout: Layout,
            flags: Flags,
            nid: NumaNode,
        ) -> Result<NonNull<[u8]>, AllocError>;

        /// Frees `ptr`.
        ///
        /// # Safety
        ///
        /// `ptr` is an allocation of this allocator made for `layout`, not used afterwards.
        unsafe fn free(ptr: NonNull<u8>, layout: Layout);
    }

    /// Implements 7.3's trait for one of 6.12's allocators, by its own methods (the node aside).
    macro_rules! allocator {
        ($($ty:ident: $min_align:expr;)*) => {$(
            // SAFETY: Every call goes to 6.12's own implementation of the same contract.
            unsafe impl Allocator for allocator::$ty {
                const MIN_ALIGN: usize = $min_align;

                #[inline]
                unsafe fn realloc(
                    ptr: Option<NonNull<u8>>,
                    layout: Layout,
                    old_layout: Layout,
                    flags: Flags,
                    _nid: NumaNode,
                ) -> Result<NonNull<[u8]>, AllocError> {
                    // SAFETY: The caller's promise is the same one.
                    unsafe {
                        <Self as kernel::alloc::Allocator>::realloc(ptr, layout, old_layout, flags)
                    }
                }

                #[inline]
                unsafe fn free(ptr: NonNull<u8>, layout: Layout) {
                    // SAFETY: The caller's promise is the same one.
                    unsafe { <Self as kernel::alloc::Allocator>::free(ptr, layout) }
                }
            }
        )*};
    }

    /// 6.12's `Allocator` with 7.3's `MIN_ALIGN`: what `Box<T, A>` and `Vec<T, A>` are bound by,
    /// for kernel-core's code generic over them.
    #[doc(hidden)]
    #[allow(unreachable_pub)]
    pub trait BoxAllocator: kernel::alloc::Allocator {
        /// As [`Allocator::MIN_ALIGN`].
        const MIN_ALIGN: usize;
    }

    /// Implements [`BoxAllocator`] with the same `MIN_ALIGN` as [`Allocator`].
    macro_rules! box_allocator {
        ($($ty:ident),*) => {$(
            impl BoxAllocator for allocator::$ty {
                const MIN_ALIGN: usize = <Self as Allocator>::MIN_ALIGN;
            }
        )*};
    }

    // `ARCH_KMALLOC_MINALIGN`, which 6.12's bindings do not carry: `__alignof__(unsigned long
    // long)` on the architectures 6.12 has Rust on (x86_64, arm64 since 6.5, riscv64,
    // loongarch64).
    allocator! {
        Kmalloc: core::mem::align_of::<u64>();
        Vmalloc: kernel::page::PAGE_SIZE;
        KVmalloc: core::mem::align_of::<u64>();
    }
    box_allocator!(Kmalloc, Vmalloc, KVmalloc);
}

/// The errors of 7.3's `Vec` methods that 6.12 lacks: kernel-core's, as on the host.
#[cfg(not(kernel_core_linux_7_1))]
#[path = "../kvec_errors.rs"]
mod kvec_errors;

/// `kernel::alloc::kvec` of Linux 6.12, with what 7.3 added to it.
#[cfg(not(kernel_core_linux_7_1))]
pub mod kvec {
    pub use super::kvec_errors::{InsertError, PushError, RemoveError};
    pub use super::DrainAll;
    pub use kernel::alloc::kvec::*;
}

#[cfg(not(kernel_core_linux_7_1))]
pub use kvec::{InsertError, PushError, RemoveError};

#[cfg(not(kernel_core_linux_7_3))]
pub use bridge::VecExt;
#[cfg(not(kernel_core_linux_7_1))]
pub use bridge::{ArrayLayoutExt, BoxExt, DrainAll, KVVecExt};

#[cfg(not(kernel_core_linux_7_3))]
mod bridge {
    #[cfg(kernel_core_linux_7_1)]
    use super::Allocator;
    use super::{flags::__GFP_ZERO, AllocError, Flags, Vec};
    #[cfg(not(kernel_core_linux_7_1))]
    use kernel::alloc::Allocator;
    use pin_init::Zeroable;

    #[cfg(not(kernel_core_linux_7_1))]
    use super::{Box, InsertError, PushError, RemoveError};
    #[cfg(not(kernel_core_linux_7_1))]
    use core::{marker::PhantomData, pin::Pin, ptr, ptr::NonNull};

    /// Linux 7.3's `Vec` methods that this kernel's `Vec` lacks, with 7.3's signatures and
    /// behaviour; `kernel_core::prelude` imports it, so `v.pop()` reads as on 7.3.
    #[doc(hidden)]
    pub trait VecExt<T>: Sized {
        /// 7.3's `Vec::zeroed`: `n` elements of all zero bits.
        fn zeroed(n: usize, flags: Flags) -> Result<Self, AllocError>
        where
            T: Zeroable;

        /// 7.3's `Vec::inc_len`.
        ///
        /// # Safety
        ///
        /// `additional <= capacity - len`, and the `additional` elements after the current
        /// ones are initialised.
        #[cfg(not(kernel_core_linux_7_1))]
        unsafe fn inc_len(&mut self, additional: usize);

        /// 7.3's `Vec::pop`.
        #[cfg(not(kernel_core_linux_7_1))]
        fn pop(&mut self) -> Option<T>;

        /// 7.3's `Vec::push_within_capacity`.
        #[cfg(not(kernel_core_linux_7_1))]
        fn push_within_capacity(&mut self, v: T) -> Result<(), PushError<T>>;

        /// 7.3's `Vec::insert_within_capacity`.
        #[cfg(not(kernel_core_linux_7_1))]
        fn insert_within_capacity(
            &mut self,
            index: usize,
            element: T,
        ) -> Result<(), InsertError<T>>;

        /// 7.3's `Vec::remove`.
        #[cfg(not(kernel_core_linux_7_1))]
        fn remove(&mut self, i: usize) -> Result<T, RemoveError>;

        /// 7.3's `Vec::clear`.
        #[cfg(not(kernel_core_linux_7_1))]
        fn clear(&mut self);

        /// 7.3's `Vec::truncate`.
        #[cfg(not(kernel_core_linux_7_1))]
        fn truncate(&mut self, len: usize);

        /// 7.3's `Vec::drain_all`.
        #[cfg(not(kernel_core_linux_7_1))]
        fn drain_all(&mut self) -> DrainAll<'_, T>;

        /// 7.3's `Vec::retain`.
        #[cfg(not(kernel_core_linux_7_1))]
        fn retain(&mut self, f: impl FnMut(&mut T) -> bool);

        /// 7.3's `Vec::resize`.
        #[cfg(not(kernel_core_linux_7_1))]
        fn resize(&mut self, new_len: usize, value: T, flags: Flags) -> Result<(), AllocError>
        where
            T: Clone;
    }

    impl<T, A: Allocator> VecExt<T> for Vec<T, A> {
        fn zeroed(n: usize, flags: Flags) -> Result<Self, AllocError>
        where
            T: Zeroable,
        {
            let mut v = Self::with_capacity(n, flags | __GFP_ZERO)?;
            // SAFETY: `with_capacity(n)` made room for `n` elements, and `__GFP_ZERO` zeroed them,
            // which is a valid `T` since `T: Zeroable`. (7.2 names the method `inc_len`, 6.12
            // `set_len`.)
            #[cfg(kernel_core_linux_7_1)]
            unsafe {
                v.inc_len(n)
            };
            #[cfg(not(kernel_core_linux_7_1))]
            unsafe {
                v.set_len(n)
            };
            Ok(v)
        }

        #[cfg(not(kernel_core_linux_7_1))]
        #[inline]
        unsafe fn inc_len(&mut self, additional: usize) {
            // SAFETY: The caller's promise is `set_len`'s requirement for `len + additional`.
            unsafe { self.set_len(self.len() + additional) };
        }

        #[cfg(not(kernel_core_linux_7_1))]
        fn pop(&mut self) -> Option<T> {
            let len = self.len().checked_sub(1)?;
            // SAFETY: Shrinking the length is always allowed; the last element is no longer
            // counted, and is read out exactly once below.
            unsafe { self.set_len(len) };
            // SAFETY: Element `len` was initialised and is now outside the vector: moved out.
            Some(unsafe { self.as_mut_ptr().add(len).read() })
        }

        #[cfg(not(kernel_core_linux_7_1))]
        fn push_within_capacity(&mut self, v: T) -> Result<(), PushError<T>> {
            let len = self.len();
            if len == self.capacity() {
                return Err(PushError(v));
            }
            // SAFETY: `len < capacity`: the slot after the elements is allocated and free.
            unsafe { self.as_mut_ptr().add(len).write(v) };
            // SAFETY: The element at `len` was just initialised.
            unsafe { self.set_len(len + 1) };
            Ok(())
        }

        #[cfg(not(kernel_core_linux_7_1))]
        fn insert_within_capacity(
            &mut self,
            index: usize,
            element: T,
        ) -> Result<(), InsertError<T>> {
            let len = self.len();
            if index > len {
                return Err(InsertError::IndexOutOfBounds(element));
            }
            if len == self.capacity() {
                return Err(InsertError::OutOfCapacity(element));
            }
            // SAFETY: `index <= len < capacity`: shifting `len - index` elements up by one stays
            // within the allocation, and the freed slot at `index` is written at once.
            unsafe {
                let at = self.as_mut_ptr().add(index);
                ptr::copy(at, at.add(1), len - index);
                at.write(element);
                self.set_len(len + 1);
            }
            Ok(())
        }

        #[cfg(not(kernel_core_linux_7_1))]
        fn remove(&mut self, i: usize) -> Result<T, RemoveError> {
            let len = self.len();
            if i >= len {
                return Err(RemoveError);
            }
            // SAFETY: `i < len`: the element is read out once, the ones after it move down over
            // its slot, and the length then counts one fewer.
            unsafe {
                let at = self.as_mut_ptr().add(i);
                let value = at.read();
                ptr::copy(at.add(1), at, len - i - 1);
                self.set_len(len - 1);
                Ok(value)
            }
        }

        #[cfg(not(kernel_core_linux_7_1))]
        #[inline]
        fn clear(&mut self) {
            self.truncate(0);
        }

        #[cfg(not(kernel_core_linux_7_1))]
        fn truncate(&mut self, len: usize) {
            let old = self.len();
            if len >= old {
                return;
            }
            let tail = ptr::slice_from_raw_parts_mut(
                // SAFETY: `len < old`: within the initialised elements.
                unsafe { self.as_mut_ptr().add(len) },
                old - len,
            );
            // SAFETY: Shrinking the length is always allowed; the tail is dropped after it, so a
            // panicking `Drop` cannot leave dropped elements counted.
            unsafe { self.set_len(len) };
            // SAFETY: The tail's elements were initialised and are no longer in the vector.
            unsafe { ptr::drop_in_place(tail) };
        }

        #[cfg(not(kernel_core_linux_7_1))]
        fn drain_all(&mut self) -> DrainAll<'_, T> {
            let len = self.len();
            // SAFETY: The elements now belong to the `DrainAll`, which moves out or drops each
            // once; the vector counts none of them.
            unsafe { self.set_len(0) };
            DrainAll {
                next: self.as_mut_ptr(),
                left: len,
                vec: PhantomData,
            }
        }

        #[cfg(not(kernel_core_linux_7_1))]
        fn retain(&mut self, mut f: impl FnMut(&mut T) -> bool) {
            let len = self.len();
            let base = self.as_mut_ptr();
            // SAFETY: Nothing is counted while elements move and drop, so that a panic in `f`
            // (an abort in the kernel) could only leak them, never drop one twice.
            unsafe { self.set_len(0) };
            let mut kept = 0;
            for i in 0..len {
                // SAFETY: `i < len`: an initialised element, not moved yet.
                let element = unsafe { &mut *base.add(i) };
                if f(element) {
                    if i != kept {
                        // SAFETY: `kept < i`: the slot at `kept` was vacated before.
                        unsafe { ptr::copy_nonoverlapping(base.add(i), base.add(kept), 1) };
                    }
                    kept += 1;
                } else {
                    // SAFETY: The element is dropped once and its slot is vacated.
                    unsafe { ptr::drop_in_place(base.add(i)) };
                }
            }
            // SAFETY: The first `kept` elements are the retained ones, initialised.
            unsafe { self.set_len(kept) };
        }

        #[cfg(not(kernel_core_linux_7_1))]
        fn resize(&mut self, new_len: usize, value: T, flags: Flags) -> Result<(), AllocError>
        where
            T: Clone,
        {
            match new_len.checked_sub(self.len()) {
                Some(more) => self.extend_with(more, value, flags),
                None => {
                    self.truncate(new_len);
                    Ok(())
                }
            }
        }
    }

    /// Linux 7.3's `KVVec::shrink_to`, which 6.12's `Vec<T, KVmalloc>` lacks; imported by
    /// `kernel_core::prelude`.
    #[cfg(not(kernel_core_linux_7_1))]
    #[doc(hidden)]
    pub trait KVVecExt {
        /// 7.3's `Vec<T, KVmalloc>::shrink_to`: a capacity of at least `max(len, min_capacity)`,
        /// reallocated when the memory came from `kmalloc()`, and when it came from
        /// `vmalloc()` only if that frees at least a page.
        fn shrink_to(&mut self, min_capacity: usize, flags: Flags) -> Result<(), AllocError>;
    }

    #[cfg(not(kernel_core_linux_7_1))]
    impl<T> KVVecExt for Vec<T, super::allocator::KVmalloc> {
        fn shrink_to(&mut self, min_capacity: usize, flags: Flags) -> Result<(), AllocError> {
            use super::{allocator::KVmalloc, layout::ArrayLayout};
            use core::alloc::Layout;

            let target = core::cmp::max(self.len(), min_capacity);
            let size = core::mem::size_of::<T>();
            if self.capacity() <= target || size == 0 {
                return Ok(());
            }
            let old_layout =
                Layout::from(ArrayLayout::<T>::new(self.capacity()).map_err(|_| AllocError)?);
            let new_layout = Layout::from(ArrayLayout::<T>::new(target).map_err(|_| AllocError)?);
            // SAFETY: The vector's memory is a `KVmalloc` allocation while its capacity is not
            // zero, which it is not here (`capacity > target`).
            let from_vmalloc = unsafe { kernel::bindings::is_vmalloc_addr(self.as_ptr().cast()) };
            let pages = |bytes: usize| bytes.div_ceil(kernel::page::PAGE_SIZE);
            if from_vmalloc && pages(old_layout.size()) <= pages(new_layout.size()) {
                return Ok(());
            }
            let len = self.len();
            let (ptr, _, _) = core::mem::replace(self, Vec::new()).into_raw_parts();
            // SAFETY: `ptr` is the `KVmalloc` allocation of `old_layout`, which `realloc` keeps
            // (with its first `len <= target` elements) on success and leaves alone on failure.
            let result = unsafe {
                <KVmalloc as kernel::alloc::Allocator>::realloc(
                    NonNull::new(ptr.cast()),
                    new_layout,
                    old_layout,
                    flags,
                )
            };
            let (ptr, capacity) = match result {
                Ok(new) => (new.as_ptr().cast::<T>(), target),
                Err(_) => (ptr, old_layout.size() / size),
            };
            // SAFETY: `ptr` holds `len` initialised elements in an allocation of `KVmalloc` for
            // `capacity` of them (a zero capacity is the dangling pointer `realloc` returns).
            *self = unsafe { Vec::from_raw_parts(ptr, len, capacity) };
            result.map(|_| ())
        }
    }

    /// Linux 7.3's `ArrayLayout::size`, which 6.12's lacks; imported by `kernel_core::prelude`.
    #[cfg(not(kernel_core_linux_7_1))]
    #[doc(hidden)]
    pub trait ArrayLayoutExt {
        /// The size of the array in bytes.
        fn size(&self) -> usize;
    }

    #[cfg(not(kernel_core_linux_7_1))]
    impl<T> ArrayLayoutExt for super::layout::ArrayLayout<T> {
        #[inline]
        fn size(&self) -> usize {
            // `ArrayLayout::new` checked that this does not overflow `isize`.
            self.len() * core::mem::size_of::<T>()
        }
    }

    /// 7.3's `kvec::DrainAll`: the elements of a vector, moved out by `drain_all`, which the
    /// iterator drops if they are not taken.
    #[cfg(not(kernel_core_linux_7_1))]
    pub struct DrainAll<'vec, T> {
        next: *mut T,
        left: usize,
        vec: PhantomData<&'vec mut T>,
    }

    #[cfg(not(kernel_core_linux_7_1))]
    impl<T> Iterator for DrainAll<'_, T> {
        type Item = T;

        fn next(&mut self) -> Option<T> {
            self.left = self.left.checked_sub(1)?;
            // SAFETY: `next` points to one of the `left` elements that are still owned by the
            // iterator; it is moved out once and the pointer moves past it.
            unsafe {
                let value = self.next.read();
                self.next = self.next.add(1);
                Some(value)
            }
        }

        fn size_hint(&self) -> (usize, Option<usize>) {
            (self.left, Some(self.left))
        }
    }

    #[cfg(not(kernel_core_linux_7_1))]
    impl<T> Drop for DrainAll<'_, T> {
        fn drop(&mut self) {
            // SAFETY: The `left` elements from `next` are initialised and owned by the iterator.
            unsafe { ptr::drop_in_place(ptr::slice_from_raw_parts_mut(self.next, self.left)) };
        }
    }

    /// Linux 7.3's `Box` methods that 6.12's `Box` lacks; `kernel_core::prelude` imports it.
    #[cfg(not(kernel_core_linux_7_1))]
    #[doc(hidden)]
    pub trait BoxExt<T, A: Allocator>: Sized {
        /// 7.3's `Box::zeroed`.
        fn zeroed(flags: Flags) -> Result<Self, AllocError>
        where
            T: Zeroable;

        /// 7.3's `Box::into_pin`.
        fn into_pin(this: Self) -> Pin<Self>;

        /// 7.3's `Box::pin_slice`: `len` elements, element `i` pin-initialised by `init(i)`; on
        /// an error the elements made so far are dropped and the memory freed.
        fn pin_slice<Func, Item, E>(
            init: Func,
            len: usize,
            flags: Flags,
        ) -> Result<Pin<Box<[T], A>>, E>
        where
            Func: FnMut(usize) -> Item,
            Item: pin_init::PinInit<T, E>,
            E: From<AllocError>;
    }

    #[cfg(not(kernel_core_linux_7_1))]
    impl<T, A: Allocator> BoxExt<T, A> for Box<T, A> {
        fn pin_slice<Func, Item, E>(
            mut init: Func,
            len: usize,
            flags: Flags,
        ) -> Result<Pin<Box<[T], A>>, E>
        where
            Func: FnMut(usize) -> Item,
            Item: pin_init::PinInit<T, E>,
            E: From<AllocError>,
        {
            // The elements are made in a vector of exactly `len`, which counts each as it is
            // made (so an error drops those and frees the memory), then becomes the box.
            let mut elements = Vec::<T, A>::with_capacity(len, flags)?;
            for i in 0..len {
                // SAFETY: `i < len <= capacity`: the slot after the `i` elements made so far is
                // allocated, free and never moves (the vector does not grow); on error it is
                // left uninitialised and not counted.
                unsafe { pin_init::raw_try_init(elements.as_mut_ptr().add(i), init(i))? };
                // SAFETY: The element at `i` was just initialised.
                unsafe { elements.set_len(i + 1) };
            }
            let (ptr, len, _capacity) = elements.into_raw_parts();
            // SAFETY: `ptr` is an allocation of `A` holding `len` initialised elements, made for
            // `len` of them (`with_capacity` allocates exactly), which the box now owns; the
            // elements were initialised in place and are never moved out of it.
            Ok(unsafe {
                Pin::new_unchecked(Box::from_raw(ptr::slice_from_raw_parts_mut(ptr, len)))
            })
        }

        fn zeroed(flags: Flags) -> Result<Self, AllocError>
        where
            T: Zeroable,
        {
            let uninit = Box::<T, A>::new_uninit(flags | __GFP_ZERO)?;
            // SAFETY: `__GFP_ZERO` zeroed the memory, a valid `T` since `T: Zeroable`.
            Ok(unsafe { uninit.assume_init() })
        }

        #[inline]
        fn into_pin(this: Self) -> Pin<Self> {
            this.into()
        }
    }
}
