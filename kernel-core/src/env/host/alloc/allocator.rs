// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The kernel's allocators: [`Kmalloc`], [`Vmalloc`] and [`KVmalloc`].
//!
//! The kernel's "Memory Allocation Guide" says which to use, and what the GFP flags mean:
//! <https://docs.kernel.org/core-api/memory-allocation.html>.
//!
//! Kernel counterpart: `rust/kernel/alloc/allocator.rs` (Linux 7.3). On the host the three
//! draw from the host's global allocator, with the kernel's alignments and size limits (see
//! [`crate::alloc`]). Not on the host: `Vmalloc::to_page` and `VmallocPageIter`, which hand out
//! the kernel's `struct page`s.

use core::alloc::Layout;
use core::ptr::NonNull;

use super::backend::{self, Backend};
use super::{AllocError, Allocator, Flags, NumaNode};

/// The physically contiguous allocator, `kmalloc()`.
///
/// Usually for allocations up to a page, but it gives up to `KMALLOC_MAX_SIZE` (4 MiB with
/// 4 KiB pages; the kernel's value depends on the architecture and configuration), and fails
/// beyond.
///
/// See [the module](self) for the kernel's guide.
///
/// # Examples
///
/// ```
/// use core::alloc::Layout;
/// use kernel_core::alloc::{allocator::Kmalloc, flags::*, Allocator, NumaNode};
///
/// let layout = Layout::new::<[u64; 8]>();
/// let ptr = Kmalloc::alloc(layout, GFP_KERNEL, NumaNode::NO_NODE)?;
/// assert_eq!(ptr.len(), 64);
/// assert_eq!(ptr.cast::<u8>().as_ptr().addr() % Kmalloc::MIN_ALIGN, 0);
/// // SAFETY: `ptr` was allocated by `Kmalloc` with `layout`, and is not used afterwards.
/// unsafe { Kmalloc::free(ptr.cast(), layout) };
///
/// // 8 MiB: more than `kmalloc()` gives.
/// let huge = Layout::new::<[u8; 8 << 20]>();
/// assert!(Kmalloc::alloc(huge, GFP_KERNEL | __GFP_NOWARN, NumaNode::NO_NODE).is_err());
/// # Ok::<(), kernel_core::alloc::AllocError>(())
/// ```
pub struct Kmalloc;

/// The virtually contiguous allocator, `vmalloc()`: pages from the page allocator, mapped next to
/// each other in the kernel's virtual address space, but not physically contiguous.
///
/// Usually for large allocations. Every allocation is aligned to a page.
///
/// See [the module](self) for the kernel's guide.
///
/// # Examples
///
/// ```
/// use core::alloc::Layout;
/// use kernel_core::alloc::{allocator::Vmalloc, flags::GFP_KERNEL, Allocator, NumaNode};
///
/// let layout = Layout::new::<u32>();
/// let ptr = Vmalloc::alloc(layout, GFP_KERNEL, NumaNode::NO_NODE)?;
/// assert_eq!(ptr.cast::<u8>().as_ptr().addr() % Vmalloc::MIN_ALIGN, 0);
/// assert_eq!(Vmalloc::MIN_ALIGN, 4096);
/// // SAFETY: `ptr` was allocated by `Vmalloc` with `layout`, and is not used afterwards.
/// unsafe { Vmalloc::free(ptr.cast(), layout) };
/// # Ok::<(), kernel_core::alloc::AllocError>(())
/// ```
pub struct Vmalloc;

/// The `kvmalloc()` allocator: [`Kmalloc`] first, [`Vmalloc`] if that fails.
///
/// For allocations whose size is not known in advance, and may exceed what `kmalloc()` gives.
///
/// See [the module](self) for the kernel's guide.
///
/// # Examples
///
/// ```
/// use core::alloc::Layout;
/// use kernel_core::alloc::{allocator::KVmalloc, flags::GFP_KERNEL, Allocator, NumaNode};
///
/// // 8 MiB: more than `kmalloc()` gives, so this comes from `vmalloc()`.
/// let layout = Layout::new::<[u8; 8 << 20]>();
/// let ptr = KVmalloc::alloc(layout, GFP_KERNEL, NumaNode::NO_NODE)?;
/// // SAFETY: `ptr` was allocated by `KVmalloc` with `layout`, and is not used afterwards.
/// unsafe { KVmalloc::free(ptr.cast(), layout) };
/// # Ok::<(), kernel_core::alloc::AllocError>(())
/// ```
pub struct KVmalloc;

impl Kmalloc {
    /// The layout that makes [`Kmalloc`] meet `layout`'s size and alignment: the same, with the
    /// size padded to a multiple of the alignment.
    ///
    /// `kmalloc()` aligns an object to the largest power of two that divides its size (at least
    /// `ARCH_KMALLOC_MINALIGN`), so a size that is a multiple of the alignment gets it.
    ///
    /// # Examples
    ///
    /// ```
    /// use core::alloc::Layout;
    /// use kernel_core::alloc::allocator::Kmalloc;
    ///
    /// let layout = Layout::from_size_align(24, 16).unwrap();
    /// assert_eq!(Kmalloc::aligned_layout(layout), Layout::from_size_align(32, 16).unwrap());
    /// ```
    #[inline]
    pub fn aligned_layout(layout: Layout) -> Layout {
        layout.pad_to_align()
    }
}

// SAFETY: `realloc` hands the request to the host's backend, which returns memory of the host's
// global allocator that stays valid until it is freed through the same backend, accepts any
// allocation this allocator made, and keeps `Allocator::realloc`'s guarantees: at least
// `ARCH_KMALLOC_MINALIGN` and `layout`'s alignment, the contents up to the smaller size, the old
// buffer untouched on failure.
unsafe impl Allocator for Kmalloc {
    const MIN_ALIGN: usize = backend::ARCH_KMALLOC_MINALIGN;

    #[inline]
    #[track_caller]
    unsafe fn realloc(
        ptr: Option<NonNull<u8>>,
        layout: Layout,
        old_layout: Layout,
        flags: Flags,
        nid: NumaNode,
    ) -> Result<NonNull<[u8]>, AllocError> {
        let layout = Kmalloc::aligned_layout(layout);
        // SAFETY: The caller keeps `Allocator::realloc`'s promises, which are `backend::realloc`'s.
        unsafe { backend::realloc(Backend::Kmalloc, ptr, layout, old_layout, flags, nid) }
    }
}

// SAFETY: As for `Kmalloc`, with a page's alignment at least.
unsafe impl Allocator for Vmalloc {
    const MIN_ALIGN: usize = backend::PAGE_SIZE;

    #[inline]
    #[track_caller]
    unsafe fn realloc(
        ptr: Option<NonNull<u8>>,
        layout: Layout,
        old_layout: Layout,
        flags: Flags,
        nid: NumaNode,
    ) -> Result<NonNull<[u8]>, AllocError> {
        // SAFETY: The caller keeps `Allocator::realloc`'s promises, which are `backend::realloc`'s.
        unsafe { backend::realloc(Backend::Vmalloc, ptr, layout, old_layout, flags, nid) }
    }
}

// SAFETY: As for `Kmalloc`.
unsafe impl Allocator for KVmalloc {
    const MIN_ALIGN: usize = backend::ARCH_KMALLOC_MINALIGN;

    #[inline]
    #[track_caller]
    unsafe fn realloc(
        ptr: Option<NonNull<u8>>,
        layout: Layout,
        old_layout: Layout,
        flags: Flags,
        nid: NumaNode,
    ) -> Result<NonNull<[u8]>, AllocError> {
        // `kvmalloc()` may take the memory from `kmalloc()`, whose layout rules apply.
        let layout = Kmalloc::aligned_layout(layout);
        // SAFETY: The caller keeps `Allocator::realloc`'s promises, which are `backend::realloc`'s.
        unsafe { backend::realloc(Backend::KVmalloc, ptr, layout, old_layout, flags, nid) }
    }
}
