// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The one place where the host's `Kmalloc`, `Vmalloc` and `KVmalloc` get memory: every
//! allocation, reallocation and free of the three goes through [`realloc`], with its flags and
//! the location of the driver's call (`#[track_caller]` all the way from `KBox::new`,
//! `KVec::push`, `reserve`, ...).
//!
//! It plays the part of the kernel's `krealloc_node_align()`, `vrealloc_node_align()` and
//! `kvrealloc_node_align()` (`mm/slub.c`, `mm/vmalloc.c`) over the host's global allocator
//! (`alloc::alloc`, which needs no `std`), with the rules a driver can observe:
//!
//! - alignment: at least `ARCH_KMALLOC_MINALIGN` (8) for `Kmalloc` and `KVmalloc`, a page for
//!   `Vmalloc`, and the layout's own if larger;
//! - size limits: `Kmalloc` fails above `KMALLOC_MAX_SIZE` (4 MiB, `1 << (MAX_PAGE_ORDER +
//!   PAGE_SHIFT)` with 4 KiB pages), `KVmalloc` above `INT_MAX` (`kvmalloc()`'s "crazy sizes");
//! - `__GFP_ZERO` zeroes a new allocation, and on a reallocation the bytes it adds;
//! - a size of zero frees, and returns a dangling pointer without allocating;
//! - `Vmalloc` does not move an allocation to a larger alignment (`vrealloc()` warns and fails).
//!
//! # The seam of the host's detectors
//!
//! Three functions see every request: [`admit`] before memory is taken, where fault injection
//! fails the Nth allocation of a test, as `fail_nth` and `failslab` do (and where a
//! `GFP_KERNEL` request, which may sleep, is to be checked against atomic context, as
//! `might_alloc()` does before `should_failslab()` in the kernel's `slab_pre_alloc_hook()`);
//! [`forget`] before an allocation is freed or moved, and [`record`] after a request, where
//! leak tracking keeps the allocation site of each live block of a test, as kmemleak does.
//! With the `std` feature they are the detectors of `env/host/detect/` (which do nothing for
//! an allocation made outside every test's scope); without it, nothing. Nothing else in
//! kernel-core calls the host's allocator for the kernel's allocators.

extern crate alloc as rust_alloc;

use core::alloc::Layout;
use core::panic::Location;
use core::ptr::NonNull;

use super::{dangling_from_layout, flags, AllocError, Flags, NumaNode};

/// `ARCH_KMALLOC_MINALIGN`: `__alignof__(unsigned long long)` on the architectures without a
/// larger DMA alignment for `kmalloc()` (x86, arm64 and riscv with bounce buffers, ...).
pub(crate) const ARCH_KMALLOC_MINALIGN: usize = 8;

/// The page size of the host's model of the kernel: 4 KiB, as on x86 and most arm64 and riscv
/// kernels.
pub(crate) const PAGE_SIZE: usize = 4096;

/// `KMALLOC_MAX_SIZE`: `1 << (MAX_PAGE_ORDER + PAGE_SHIFT)`, with the default `MAX_PAGE_ORDER`
/// of 10 and 4 KiB pages.
pub(crate) const KMALLOC_MAX_SIZE: usize = 1 << (10 + 12);

/// `INT_MAX`: `kvmalloc()` refuses larger sizes.
const KVMALLOC_MAX_SIZE: usize = i32::MAX as usize;

/// Which of the kernel's allocators a request is for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Backend {
    /// `kmalloc()`: physically contiguous, from the slab caches or whole pages.
    Kmalloc,
    /// `vmalloc()`: pages mapped contiguously in the kernel's virtual address space.
    Vmalloc,
    /// `kvmalloc()`: `kmalloc()` first, `vmalloc()` if that fails.
    KVmalloc,
}

impl Backend {
    /// The alignment of every allocation, the allocator's `MIN_ALIGN`.
    #[inline]
    pub(crate) const fn min_align(self) -> usize {
        match self {
            Backend::Kmalloc | Backend::KVmalloc => ARCH_KMALLOC_MINALIGN,
            Backend::Vmalloc => PAGE_SIZE,
        }
    }

    /// The largest size the allocator gives.
    #[inline]
    const fn max_size(self) -> usize {
        match self {
            Backend::Kmalloc => KMALLOC_MAX_SIZE,
            Backend::KVmalloc => KVMALLOC_MAX_SIZE,
            // `vmalloc()` is bounded by the machine's memory: here, by the host's allocator.
            Backend::Vmalloc => isize::MAX as usize,
        }
    }

    /// The layout of the host's allocation behind an allocation of `layout`: the same size
    /// (padded to the alignment for the slab allocator, as `Kmalloc::aligned_layout` does),
    /// aligned to at least [`Backend::min_align`]. A function of `layout` alone, so that a free
    /// or a reallocation finds the host layout of the allocation from the layout its caller
    /// passes.
    #[inline]
    fn host_layout(self, layout: Layout) -> Result<Layout, AllocError> {
        let size = match self {
            Backend::Kmalloc | Backend::KVmalloc => layout.pad_to_align().size(),
            Backend::Vmalloc => layout.size(),
        };
        let align = if layout.align() > self.min_align() {
            layout.align()
        } else {
            self.min_align()
        };
        Layout::from_size_align(size, align).map_err(|_| AllocError)
    }
}

/// One request, as the detectors' hooks see it.
#[cfg_attr(not(feature = "std"), allow(dead_code))] // Without `std`, there are no detectors.
pub(crate) struct Request {
    /// The allocator.
    pub(crate) backend: Backend,
    /// The existing allocation and its layout; `None` for a new allocation.
    pub(crate) old: Option<(NonNull<u8>, Layout)>,
    /// The layout asked for; a size of zero frees `old`.
    pub(crate) layout: Layout,
    /// The caller's flags.
    pub(crate) flags: Flags,
    /// The caller's NUMA node (ignored on the host).
    #[allow(dead_code)] // No detector looks at nodes.
    pub(crate) nid: NumaNode,
    /// Where the driver called: the first caller outside kernel-core's `#[track_caller]` chain.
    pub(crate) caller: &'static Location<'static>,
}

/// What became of a request, for [`record`].
#[cfg_attr(not(feature = "std"), allow(dead_code))] // Without `std`, there are no detectors.
pub(crate) enum Outcome {
    /// The memory now lives at this address (`old` was freed, or moved here).
    Allocated(NonNull<u8>),
    /// `old` was freed and nothing allocated (a size of zero).
    Freed,
    /// The request failed; `old`, if any, is untouched.
    Failed,
}

impl Backend {
    /// The allocator's name, as the detectors' reports give it.
    #[cfg(feature = "std")]
    fn name(self) -> &'static str {
        match self {
            Backend::Kmalloc => "kmalloc",
            Backend::Vmalloc => "vmalloc",
            Backend::KVmalloc => "kvmalloc",
        }
    }
}

impl Request {
    /// The request, as the detectors of `env/host/detect/` see it.
    #[cfg(feature = "std")]
    #[inline]
    fn alloc(&self) -> crate::env::scoped::faults::Alloc {
        crate::env::scoped::faults::Alloc {
            allocator: self.backend.name(),
            size: self.layout.size(),
            old_size: self.old.map(|(_, layout)| layout.size()),
            flags: self.flags,
            caller: self.caller,
        }
    }
}

/// What the leak detector keeps of a live allocation, taken by [`forget`] and handed back to
/// [`record`].
#[cfg(feature = "std")]
type Kept = crate::env::scoped::leaks::Tracked;
/// Without `std` nothing is kept.
#[cfg(not(feature = "std"))]
type Kept = core::convert::Infallible;

/// The hook before a request takes memory: an `Err` fails it as if the host were out of memory
/// (the existing allocation stays valid).
///
/// Fault injection (`extras::fault::fail_nth`, `KERNEL_CORE_FAIL_NTH`) fails the Nth request of
/// a test's scope here. The check of sleeping in atomic context (a request whose flags allow
/// direct reclaim, as `GFP_KERNEL` does, may sleep) belongs here too, before it: the kernel's
/// `slab_pre_alloc_hook()` calls `might_alloc()` before `should_failslab()`. Frees never come
/// here: they cannot fail, and never sleep.
#[inline(always)]
fn admit(_request: &Request) -> Result<(), AllocError> {
    // The sleep check first, as `slab_pre_alloc_hook()` calls `might_alloc()` before
    // `should_failslab()`: a `GFP_KERNEL` request under a spinlock is reported even in the
    // round that fails it.
    crate::env::sync::hooks::might_alloc(_request.flags, _request.caller);
    #[cfg(feature = "std")]
    crate::env::scoped::faults::admit(&_request.alloc())?;
    Ok(())
}

/// The hook before the allocation at `ptr` is freed or moved: the leak detector takes it out
/// of its books first, so that the address, once the host's allocator hands it out again, is
/// a new object.
#[inline(always)]
fn forget(_ptr: NonNull<u8>) -> Option<Kept> {
    #[cfg(feature = "std")]
    return crate::env::scoped::leaks::forget(_ptr);
    #[cfg(not(feature = "std"))]
    None
}

/// The hook after a request: the leak detector keeps each live allocation of a test with its
/// caller ([`Outcome::Allocated`]), and puts back one that a failed reallocation left
/// ([`Outcome::Failed`]); `kept` is what [`forget`] took of the request's existing allocation.
#[inline(always)]
fn record(request: &Request, outcome: &Outcome, kept: Option<Kept>) {
    #[cfg(test)]
    tests::note(request);
    #[cfg(feature = "std")]
    match (outcome, kept, request.old) {
        (Outcome::Allocated(ptr), kept, _) => {
            crate::env::scoped::leaks::record(*ptr, &request.alloc(), kept)
        }
        (Outcome::Failed, Some(kept), Some((old, _))) => {
            crate::env::scoped::leaks::restore(old, kept)
        }
        _ => {}
    }
    #[cfg(not(feature = "std"))]
    let _ = (request, outcome, kept);
}

/// Allocates, resizes or frees memory of `backend`, as the kernel's `*realloc_node_align()`
/// functions do, and returns the buffer (of `layout.size()` bytes, dangling for zero).
///
/// # Safety
///
/// As [`Allocator::realloc`](super::Allocator::realloc): `ptr`, unless `None` or of a
/// zero-sized `old_layout`, is a live allocation of `backend` made (or last resized) with
/// `old_layout`.
#[track_caller]
pub(crate) unsafe fn realloc(
    backend: Backend,
    ptr: Option<NonNull<u8>>,
    layout: Layout,
    old_layout: Layout,
    flags: Flags,
    nid: NumaNode,
) -> Result<NonNull<[u8]>, AllocError> {
    // As the kernel's Rust side: a pointer of a zero-sized layout was never allocated.
    let old = ptr
        .filter(|_| old_layout.size() != 0)
        .map(|ptr| (ptr, old_layout));
    let request = Request {
        backend,
        old,
        layout,
        flags,
        nid,
        caller: Location::caller(),
    };

    if layout.size() == 0 {
        if let Some((ptr, old_layout)) = old {
            let kept = forget(ptr);
            // SAFETY: `ptr` is a live allocation of `backend` with `old_layout`, as the caller
            // promises.
            unsafe { free(backend, ptr, old_layout) };
            record(&request, &Outcome::Freed, kept);
        }
        return Ok(NonNull::slice_from_raw_parts(
            dangling_from_layout(layout),
            0,
        ));
    }

    // Before the host's `realloc` may free the old allocation.
    let kept = old.and_then(|(ptr, _)| forget(ptr));
    // SAFETY: As the caller promises.
    let result = unsafe { resize(&request) };
    match result {
        Ok(ptr) => record(&request, &Outcome::Allocated(ptr), kept),
        Err(AllocError) => record(&request, &Outcome::Failed, kept),
    }
    Ok(NonNull::slice_from_raw_parts(result?, layout.size()))
}

/// The non-zero-sized part of [`realloc`]: a new allocation, or a reallocation of
/// `request.old`.
///
/// # Safety
///
/// `request.old`, if any, is a live allocation of `request.backend` with its layout.
unsafe fn resize(request: &Request) -> Result<NonNull<u8>, AllocError> {
    let backend = request.backend;
    let zero = request.flags.contains(flags::__GFP_ZERO);
    let new = backend.host_layout(request.layout)?;
    // The kernel's allocators fail beyond their limits (with a warning in the log unless
    // `__GFP_NOWARN`).
    if new.size() > backend.max_size() {
        return Err(AllocError);
    }
    admit(request)?;

    let Some((ptr, old_layout)) = request.old else {
        // SAFETY: `new` has a non-zero size (the caller's layout has, and padding only grows it).
        let raw = unsafe {
            if zero {
                rust_alloc::alloc::alloc_zeroed(new)
            } else {
                rust_alloc::alloc::alloc(new)
            }
        };
        return NonNull::new(raw).ok_or(AllocError);
    };

    // `vrealloc()` keeps the address and refuses an alignment it does not have.
    if backend == Backend::Vmalloc && ptr.as_ptr().addr() & (request.layout.align() - 1) != 0 {
        return Err(AllocError);
    }

    let old = backend.host_layout(old_layout)?;
    let moved = if old.align() == new.align() {
        // SAFETY: `ptr` was allocated by the host's allocator with `old` (the caller's promise,
        // and `host_layout` is a function of the layout); `new.size()` is not zero, and
        // `Layout::from_size_align` checked that it does not overflow `isize` once rounded up
        // to the alignment.
        unsafe { rust_alloc::alloc::realloc(ptr.as_ptr(), old, new.size()) }
    } else {
        // The host's `realloc` keeps the alignment: move the bytes to a new allocation.
        // SAFETY: `new` has a non-zero size.
        let raw = unsafe { rust_alloc::alloc::alloc(new) };
        if !raw.is_null() {
            // SAFETY: Both are live allocations of at least this many bytes, and distinct.
            unsafe {
                core::ptr::copy_nonoverlapping(ptr.as_ptr(), raw, old.size().min(new.size()))
            };
            // SAFETY: `ptr` was allocated with `old`, and is not used afterwards.
            unsafe { rust_alloc::alloc::dealloc(ptr.as_ptr(), old) };
        }
        raw
    };
    let moved = NonNull::new(moved).ok_or(AllocError)?;

    // `__GFP_ZERO` zeroes what the reallocation adds past the caller's old size, as
    // `krealloc()` and `vrealloc()` do.
    if zero && new.size() > old_layout.size() {
        // SAFETY: The allocation is `new.size()` bytes long.
        unsafe {
            moved
                .as_ptr()
                .add(old_layout.size())
                .write_bytes(0, new.size() - old_layout.size())
        };
    }
    Ok(moved)
}

/// Frees an allocation.
///
/// # Safety
///
/// `ptr` is a live allocation of `backend` with `layout`, not used afterwards.
unsafe fn free(backend: Backend, ptr: NonNull<u8>, layout: Layout) {
    // The allocation was made with this very layout, so it exists.
    let Ok(host) = backend.host_layout(layout) else {
        return;
    };
    // SAFETY: `ptr` was allocated by the host's allocator with `host`, as the caller promises.
    unsafe { rust_alloc::alloc::dealloc(ptr.as_ptr(), host) };
}

/// Whether a `KVmalloc` allocation of `size` bytes is one of `vmalloc()`: `kvmalloc()` falls
/// back to it beyond what `kmalloc()` can give (the host's model of `is_vmalloc_addr()`).
#[inline]
pub(crate) fn kvmalloc_is_vmalloc(size: usize) -> bool {
    size > KMALLOC_MAX_SIZE
}

#[cfg(test)]
mod tests {
    extern crate std;

    use core::alloc::Layout;
    use core::cell::Cell;
    use core::panic::Location;

    use super::Request;
    use crate::alloc::allocator::{KVmalloc, Kmalloc, Vmalloc};
    use crate::alloc::flags::GFP_KERNEL;
    use crate::alloc::{AllocError, Allocator, KBox, KVVec, KVec, NumaNode, VBox};
    use crate::init::InPlaceInit;

    std::thread_local! {
        /// The caller of this thread's last request that reached `record`.
        static LAST: Cell<Option<&'static Location<'static>>> = const { Cell::new(None) };
    }

    /// What `record` shows the tests: the caller of each request.
    pub(super) fn note(request: &Request) {
        LAST.with(|last| last.set(Some(request.caller)));
    }

    /// The line of the last request's caller in this file, and forgets it.
    fn last_line() -> Option<u32> {
        LAST.with(|last| last.take())
            .filter(|caller| caller.file() == file!())
            .map(|caller| caller.line())
    }

    /// Every entry point of a driver passes its own call site down to the seam: the detectors of
    /// issue 40 will report allocation sites with it.
    #[test]
    fn the_seam_sees_the_drivers_call_site() {
        let b = KBox::new(1_u32, GFP_KERNEL).unwrap();
        assert_eq!(last_line(), Some(line!() - 1));
        let p = VBox::pin([1_u8; 8], GFP_KERNEL).unwrap();
        assert_eq!(last_line(), Some(line!() - 1));
        let z = KBox::<[u64; 2]>::zeroed(GFP_KERNEL).unwrap();
        assert_eq!(last_line(), Some(line!() - 1));
        let s = KBox::<u8>::pin_slice(|_| Ok::<u8, AllocError>(0), 3, GFP_KERNEL).unwrap();
        assert_eq!(last_line(), Some(line!() - 1));
        let i = KBox::<u16>::pin_init(3_u16, GFP_KERNEL).unwrap();
        assert_eq!(last_line(), Some(line!() - 1));
        let t = KBox::<u16>::try_init(Ok::<u16, AllocError>(3), GFP_KERNEL).unwrap();
        assert_eq!(last_line(), Some(line!() - 1));

        let mut v = KVec::new();
        v.push(1_u8, GFP_KERNEL).unwrap();
        assert_eq!(last_line(), Some(line!() - 1));
        v.reserve(100, GFP_KERNEL).unwrap();
        assert_eq!(last_line(), Some(line!() - 1));
        v.extend_from_slice(&[0; 200], GFP_KERNEL).unwrap();
        assert_eq!(last_line(), Some(line!() - 1));
        v.extend_with(1000, 0, GFP_KERNEL).unwrap();
        assert_eq!(last_line(), Some(line!() - 1));
        v.resize(5000, 0, GFP_KERNEL).unwrap();
        assert_eq!(last_line(), Some(line!() - 1));
        let w = KVVec::<u8>::with_capacity(10_000, GFP_KERNEL).unwrap();
        assert_eq!(last_line(), Some(line!() - 1));
        let f = KVec::from_elem(0_u8, 10, GFP_KERNEL).unwrap();
        assert_eq!(last_line(), Some(line!() - 1));
        let z2 = KVec::<u32>::zeroed(10, GFP_KERNEL).unwrap();
        assert_eq!(last_line(), Some(line!() - 1));
        let k = crate::kvec![1, 2, 3].unwrap();
        assert_eq!(last_line(), Some(line!() - 1));
        let mut w = w;
        w.push(1, GFP_KERNEL).unwrap();
        w.shrink_to(0, GFP_KERNEL).unwrap();
        assert_eq!(last_line(), Some(line!() - 1));
        let mut it = k.into_iter();
        it.next();
        let k = it.collect(GFP_KERNEL);
        assert_eq!(last_line(), Some(line!() - 1));

        let layout = Layout::new::<u64>();
        let a = Kmalloc::alloc(layout, GFP_KERNEL, NumaNode::NO_NODE).unwrap();
        assert_eq!(last_line(), Some(line!() - 1));
        let no_node = NumaNode::NO_NODE;
        // SAFETY: A `Kmalloc` allocation of `layout`.
        let a = unsafe { Kmalloc::realloc(Some(a.cast()), layout, layout, GFP_KERNEL, no_node) };
        assert_eq!(last_line(), Some(line!() - 1));
        let a = a.unwrap();
        // SAFETY: A `Kmalloc` allocation of `layout`, not used afterwards.
        unsafe { Kmalloc::free(a.cast(), layout) };
        assert_eq!(last_line(), Some(line!() - 1));
        let a = Vmalloc::alloc(layout, GFP_KERNEL, NumaNode::NO_NODE).unwrap();
        assert_eq!(last_line(), Some(line!() - 1));
        // SAFETY: A `Vmalloc` allocation of `layout`, not used afterwards.
        unsafe { Vmalloc::free(a.cast(), layout) };
        let a = KVmalloc::alloc(layout, GFP_KERNEL, NumaNode::NO_NODE).unwrap();
        assert_eq!(last_line(), Some(line!() - 1));
        // SAFETY: A `KVmalloc` allocation of `layout`, not used afterwards.
        unsafe { KVmalloc::free(a.cast(), layout) };

        drop((b, p, z, s, i, t, v, w, f, z2, k));
    }
}
