// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `kernel::alloc` on the host: kernel-core's own, with Linux 7.3's API.
//!
//! Its twin, `env/kernel/alloc.rs`, re-exports the kernel's own module. Here the three
//! allocators ([`Kmalloc`](allocator::Kmalloc), [`Vmalloc`](allocator::Vmalloc),
//! [`KVmalloc`](allocator::KVmalloc)) draw from the host's global allocator through one
//! module, `alloc/backend.rs`, which applies the kernel's rules (alignment, size limits,
//! `__GFP_ZERO`) and is the seam where the host's bug detectors will watch every request.
//! [`Box`] and [`Vec`] are written over the [`Allocator`] trait alone, as the kernel's are.

use core::alloc::Layout;
use core::ptr::NonNull;

use crate::error::{code::EINVAL, Result};

#[path = "alloc/allocator.rs"]
pub mod allocator;
#[path = "alloc/backend.rs"]
mod backend;
#[path = "alloc/kbox.rs"]
pub mod kbox;
#[path = "alloc/kvec.rs"]
pub mod kvec;
#[path = "alloc/layout.rs"]
pub mod layout;

pub use self::kbox::{Box, KBox, KVBox, VBox};
pub use self::kvec::{IntoIter, KVVec, KVec, VVec, Vec};

/// The trait that bounds `Box<T, A>` and `Vec<T, A>`, for code shared with the kernel side
/// (where Linux 6.12's `Box` is bound by its own trait, not by 7.3's `Allocator`).
pub(crate) use self::Allocator as BoxAllocator;

/// The extension traits that give older kernels 7.3's methods: none on the host, where the
/// methods are inherent.
pub(crate) mod ext {}

/// The error of a failed allocation.
///
/// A driver's `?` turns it into [`ENOMEM`](crate::error::code::ENOMEM), as in the kernel.
///
/// # Examples
///
/// ```
/// use core::alloc::Layout;
/// use kernel_core::alloc::{allocator::Kmalloc, flags::*, AllocError, Allocator, NumaNode};
/// use kernel_core::error::{code::ENOMEM, Error};
///
/// // 16 MiB: more than `kmalloc()` gives.
/// let huge = Layout::new::<[u8; 16 << 20]>();
/// let result = Kmalloc::alloc(huge, GFP_KERNEL | __GFP_NOWARN, NumaNode::NO_NODE);
/// assert_eq!(result.err(), Some(AllocError));
/// assert_eq!(Error::from(AllocError), ENOMEM);
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct AllocError;

/// The flags of an allocation (the C side's `gfp_t`): what the allocator may do to find memory
/// (sleep, reclaim, dip into reserves) and what it does with it (zero it, stay quiet on failure).
///
/// Combine them with `|`, `&` and `!`; the values are those of the [`flags`] module.
///
/// # Examples
///
/// ```
/// use kernel_core::alloc::flags::{GFP_KERNEL, __GFP_NOWARN, __GFP_ZERO};
///
/// let quiet_zeroed = GFP_KERNEL | __GFP_ZERO | __GFP_NOWARN;
/// assert!(quiet_zeroed.contains(GFP_KERNEL));
/// assert!(quiet_zeroed.contains(__GFP_ZERO | __GFP_NOWARN));
/// assert!(!GFP_KERNEL.contains(__GFP_ZERO));
/// assert!((quiet_zeroed & !__GFP_ZERO) == GFP_KERNEL | __GFP_NOWARN);
/// ```
#[derive(Clone, Copy, PartialEq)]
pub struct Flags(u32);

impl Flags {
    /// The raw `gfp_t` value.
    #[allow(dead_code)] // For kernel-core's own modules, as in the kernel; none needs it yet.
    #[inline]
    pub(crate) fn as_raw(self) -> u32 {
        self.0
    }

    /// Whether every flag of `flags` is set in `self`.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::alloc::flags::{GFP_ATOMIC, GFP_KERNEL, GFP_KERNEL_ACCOUNT};
    ///
    /// assert!(GFP_KERNEL_ACCOUNT.contains(GFP_KERNEL));
    /// assert!(!GFP_KERNEL.contains(GFP_KERNEL_ACCOUNT));
    /// assert!(!GFP_ATOMIC.contains(GFP_KERNEL));
    /// ```
    #[inline]
    pub fn contains(self, flags: Flags) -> bool {
        (self & flags) == flags
    }
}

impl core::ops::BitOr for Flags {
    type Output = Self;

    #[inline]
    fn bitor(self, rhs: Self) -> Self::Output {
        Self(self.0 | rhs.0)
    }
}

impl core::ops::BitAnd for Flags {
    type Output = Self;

    #[inline]
    fn bitand(self, rhs: Self) -> Self::Output {
        Self(self.0 & rhs.0)
    }
}

impl core::ops::Not for Flags {
    type Output = Self;

    #[inline]
    fn not(self) -> Self::Output {
        Self(!self.0)
    }
}

/// The allocation flags drivers use, with the values of `include/linux/gfp_types.h`.
///
/// # Examples
///
/// ```
/// use core::alloc::Layout;
/// use kernel_core::alloc::{allocator::Kmalloc, flags::*, Allocator, NumaNode};
///
/// let layout = Layout::new::<[u8; 16]>();
/// let zeroed = Kmalloc::alloc(layout, GFP_KERNEL | __GFP_ZERO, NumaNode::NO_NODE)?;
/// // SAFETY: `zeroed` is 16 bytes long, zeroed by `__GFP_ZERO`.
/// assert_eq!(unsafe { zeroed.as_ref() }, [0; 16]);
/// // SAFETY: `zeroed` was allocated by `Kmalloc` with `layout`, and is not used afterwards.
/// unsafe { Kmalloc::free(zeroed.cast(), layout) };
/// # Ok::<(), kernel_core::alloc::AllocError>(())
/// ```
pub mod flags {
    use super::Flags;

    // The bits of `include/linux/gfp_types.h`, in the order of its `___GFP_*_BIT` enum.
    const HIGHMEM: u32 = 1 << 1;
    const HIGH: u32 = 1 << 5;
    const IO: u32 = 1 << 6;
    const FS: u32 = 1 << 7;
    const ZERO: u32 = 1 << 8;
    const DIRECT_RECLAIM: u32 = 1 << 10;
    const KSWAPD_RECLAIM: u32 = 1 << 11;
    const NOWARN: u32 = 1 << 13;
    const ACCOUNT: u32 = 1 << 22;

    /// Zero the memory: a new allocation, and the bytes a reallocation adds.
    ///
    /// Usually or'ed with another flag, such as [`GFP_KERNEL`].
    ///
    /// # Examples
    ///
    /// ```
    /// use core::alloc::Layout;
    /// use kernel_core::alloc::{allocator::Vmalloc, flags::*, Allocator, NumaNode};
    ///
    /// let (small, big) = (Layout::new::<[u8; 4]>(), Layout::new::<[u8; 8]>());
    /// let ptr = Vmalloc::alloc(small, GFP_KERNEL, NumaNode::NO_NODE)?;
    /// // SAFETY: `ptr` is 4 bytes long.
    /// unsafe { ptr.cast::<[u8; 4]>().write([1, 2, 3, 4]) };
    /// // SAFETY: `ptr` is a `Vmalloc` allocation of `small`.
    /// let ptr = unsafe {
    ///     Vmalloc::realloc(Some(ptr.cast()), big, small, GFP_KERNEL | __GFP_ZERO, NumaNode::NO_NODE)?
    /// };
    /// // SAFETY: The first 4 bytes were kept, the next 4 zeroed.
    /// assert_eq!(unsafe { ptr.as_ref() }, [1, 2, 3, 4, 0, 0, 0, 0]);
    /// // SAFETY: `ptr` is a `Vmalloc` allocation of `big`, not used afterwards.
    /// unsafe { Vmalloc::free(ptr.cast(), big) };
    /// # Ok::<(), kernel_core::alloc::AllocError>(())
    /// ```
    pub const __GFP_ZERO: Flags = Flags(ZERO);

    /// The allocation may come from high memory, which is not mapped into the kernel's address
    /// space: not for `kmalloc` and its kind, which return mapped memory.
    ///
    /// Usually or'ed with another flag.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::alloc::flags::{GFP_KERNEL, __GFP_HIGHMEM};
    ///
    /// assert!(!GFP_KERNEL.contains(__GFP_HIGHMEM));
    /// ```
    pub const __GFP_HIGHMEM: Flags = Flags(HIGHMEM);

    /// For callers that must not sleep and need the allocation to succeed: it may use the
    /// "atomic reserves" below the usual watermark. Not for NMI context and a few other strictly
    /// non-preemptible contexts (a `raw_spin_lock` held), nor is [`GFP_NOWAIT`].
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::alloc::flags::{GFP_ATOMIC, GFP_KERNEL, __GFP_HIGHMEM};
    ///
    /// // Neither sleeps in reclaim nor does I/O to find memory.
    /// assert!(!GFP_ATOMIC.contains(GFP_KERNEL));
    /// assert!(!GFP_ATOMIC.contains(__GFP_HIGHMEM));
    /// ```
    pub const GFP_ATOMIC: Flags = Flags(HIGH | KSWAPD_RECLAIM);

    /// The usual flags of the kernel's own allocations: memory from `ZONE_NORMAL` or a lower
    /// zone, and the caller may sleep while the kernel reclaims some.
    ///
    /// # Examples
    ///
    /// ```
    /// use core::alloc::Layout;
    /// use kernel_core::alloc::{allocator::Kmalloc, flags::GFP_KERNEL, Allocator, NumaNode};
    ///
    /// let layout = Layout::new::<u64>();
    /// let ptr = Kmalloc::alloc(layout, GFP_KERNEL, NumaNode::NO_NODE)?;
    /// // SAFETY: `ptr` was allocated by `Kmalloc` with `layout`, and is not used afterwards.
    /// unsafe { Kmalloc::free(ptr.cast(), layout) };
    /// # Ok::<(), kernel_core::alloc::AllocError>(())
    /// ```
    pub const GFP_KERNEL: Flags = Flags(DIRECT_RECLAIM | KSWAPD_RECLAIM | IO | FS);

    /// [`GFP_KERNEL`], and the allocation is charged to the caller's memory cgroup (kmemcg).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::alloc::flags::{GFP_KERNEL, GFP_KERNEL_ACCOUNT};
    ///
    /// assert!(GFP_KERNEL_ACCOUNT.contains(GFP_KERNEL));
    /// assert!(GFP_KERNEL_ACCOUNT != GFP_KERNEL);
    /// ```
    pub const GFP_KERNEL_ACCOUNT: Flags =
        Flags(DIRECT_RECLAIM | KSWAPD_RECLAIM | IO | FS | ACCOUNT);

    /// For allocations that must not stall in direct reclaim, start physical I/O or call into
    /// a file system. Such an allocation fails easily, even a small one.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::alloc::flags::{GFP_NOWAIT, __GFP_NOWARN};
    ///
    /// // A failure is expected, so it is not reported either.
    /// assert!(GFP_NOWAIT.contains(__GFP_NOWARN));
    /// ```
    pub const GFP_NOWAIT: Flags = Flags(KSWAPD_RECLAIM | NOWARN);

    /// Do not report a failed allocation in the kernel's log.
    ///
    /// Usually or'ed with another flag.
    ///
    /// # Examples
    ///
    /// ```
    /// use core::alloc::Layout;
    /// use kernel_core::alloc::{allocator::Kmalloc, flags::*, Allocator, NumaNode};
    ///
    /// // Far beyond what `kmalloc()` can give: fails, and says nothing.
    /// let huge = Layout::new::<[u8; 1 << 30]>();
    /// assert!(Kmalloc::alloc(huge, GFP_KERNEL | __GFP_NOWARN, NumaNode::NO_NODE).is_err());
    /// ```
    pub const __GFP_NOWARN: Flags = Flags(NOWARN);
}

/// `MAX_NUMNODES` (`1 << CONFIG_NODES_SHIFT`): 1024, as with the `CONFIG_NODES_SHIFT=10` of
/// Debian's x86_64 kernels.
const MAX_NUMNODES: i32 = 1 << 10;

/// `NUMA_NO_NODE` of `include/linux/nodemask_types.h`.
const NUMA_NO_NODE: i32 = -1;

/// A NUMA (Non-Uniform Memory Access) node: the memory an allocation should come from.
///
/// # Examples
///
/// ```
/// use kernel_core::alloc::NumaNode;
/// use kernel_core::error::code::EINVAL;
///
/// assert!(NumaNode::new(0).is_ok());
/// assert_eq!(NumaNode::new(-1).err(), Some(EINVAL));
/// assert!(NumaNode::new(0).ok() != Some(NumaNode::NO_NODE));
/// ```
#[derive(Clone, Copy, PartialEq)]
pub struct NumaNode(i32);

impl NumaNode {
    /// The node `node`, a number from 0 to `MAX_NUMNODES - 1`; [`EINVAL`] for another value.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::alloc::NumaNode;
    ///
    /// assert!(NumaNode::new(1).is_ok());
    /// assert!(NumaNode::new(i32::MAX).is_err());
    /// ```
    pub fn new(node: i32) -> Result<Self> {
        // `MAX_NUMNODES` is at most 1 << 10: `CONFIG_NODES_SHIFT` is 0..=10.
        if !(0..MAX_NUMNODES).contains(&node) {
            return Err(EINVAL);
        }
        Ok(Self(node))
    }
}

/// The node of callers without a preference.
impl NumaNode {
    /// No preference: the allocator picks the node.
    ///
    /// # Examples
    ///
    /// ```
    /// use core::alloc::Layout;
    /// use kernel_core::alloc::{allocator::Kmalloc, flags::GFP_KERNEL, Allocator, NumaNode};
    ///
    /// let layout = Layout::new::<u64>();
    /// let ptr = Kmalloc::alloc(layout, GFP_KERNEL, NumaNode::NO_NODE)?;
    /// // SAFETY: `ptr` was allocated by `Kmalloc` with `layout`, and is not used afterwards.
    /// unsafe { Kmalloc::free(ptr.cast(), layout) };
    /// # Ok::<(), kernel_core::alloc::AllocError>(())
    /// ```
    pub const NO_NODE: NumaNode = NumaNode(NUMA_NO_NODE);
}

/// An allocator of the kernel: allocates, resizes and frees memory described by a [`Layout`].
///
/// Implementers are zero-sized types whose functions take no `self`: a [`Box`] or [`Vec`] names
/// its allocator in its type and never holds an instance (so that `#[derive(CoercePointee)]`
/// can apply to them).
///
/// On the host, the entry points take the caller's location (`#[track_caller]`), which a
/// driver's `KBox::new`, `KVec::push`, `reserve` and the like pass on: the host's allocation
/// detectors report allocation sites with it.
///
/// # Safety
///
/// - Memory an allocator returns stays valid until it is freed explicitly.
/// - Any pointer to a valid allocation may be passed to any other function of the same
///   allocator.
/// - The functions keep the promises of their `# Guarantees` sections.
///
/// # Examples
///
/// ```
/// use core::alloc::Layout;
/// use kernel_core::alloc::{allocator::Vmalloc, flags::*, Allocator, NumaNode};
///
/// let small = Layout::array::<u32>(4).unwrap();
/// let big = Layout::array::<u32>(1024).unwrap();
/// let ptr = Vmalloc::alloc(small, GFP_KERNEL | __GFP_ZERO, NumaNode::NO_NODE)?;
/// assert_eq!(ptr.len(), 16);
/// // SAFETY: `ptr` is a `Vmalloc` allocation of `small`.
/// let ptr = unsafe { Vmalloc::realloc(Some(ptr.cast()), big, small, GFP_KERNEL, NumaNode::NO_NODE)? };
/// assert_eq!(ptr.len(), 4096);
/// // SAFETY: the first 16 bytes were zeroed, and `realloc` keeps them.
/// assert_eq!(unsafe { ptr.cast::<[u32; 4]>().read() }, [0; 4]);
/// // SAFETY: `ptr` is a `Vmalloc` allocation of `big`, not used afterwards.
/// unsafe { Vmalloc::free(ptr.cast(), big) };
/// # Ok::<(), kernel_core::alloc::AllocError>(())
/// ```
pub unsafe trait Allocator {
    /// The alignment of every allocation, whatever smaller alignment the layout asked for.
    ///
    /// # Guarantees
    ///
    /// Every pointer the allocator returns is aligned to `MIN_ALIGN`.
    const MIN_ALIGN: usize;

    /// Allocates memory for `layout` with `flags`, preferably on node `nid`: [`realloc`] of
    /// `None`.
    ///
    /// # Guarantees
    ///
    /// On `Ok(ptr)`, `ptr` is
    /// - valid for reads and writes of `layout.size()` bytes until it is passed to
    ///   [`Allocator::free`] or [`Allocator::realloc`],
    /// - aligned to `layout.align()`,
    ///
    /// and `flags` are honoured as
    /// <https://docs.kernel.org/core-api/mm-api.html#mm-api-gfp-flags> describes.
    ///
    /// [`realloc`]: Allocator::realloc
    #[track_caller]
    fn alloc(layout: Layout, flags: Flags, nid: NumaNode) -> Result<NonNull<[u8]>, AllocError> {
        // SAFETY: `None` asks for a new allocation, which `realloc` always allows.
        unsafe { Self::realloc(None, layout, Layout::new::<()>(), flags, nid) }
    }

    /// Resizes the allocation `ptr` (of `old_layout`) to `layout`, preferably on node `nid`, or
    /// makes a new one if `ptr` is `None`.
    ///
    /// `nid` is a NUMA node (a set of processors, memory and buses close to each other), or
    /// [`NumaNode::NO_NODE`] for no preference.
    ///
    /// - A size of zero frees the allocation, as [`Allocator::free`] does.
    /// - A larger size gives at least `layout.size()` bytes, maybe more.
    /// - A smaller size may or may not shrink the buffer: the allocator decides.
    /// - On failure, the existing buffer, if any, stays valid.
    ///
    /// # Safety
    ///
    /// - If `ptr` is `Some(p)`, `p` points to a valid allocation made by this allocator; if
    ///   `old_layout` has size zero, `p` need not come from this allocator.
    /// - `ptr` may be `None`, which asks for a new allocation; `old_layout` is then ignored.
    /// - `old_layout` is the layout the allocation was made with.
    ///
    /// # Guarantees
    ///
    /// Those of [`Allocator::alloc`], and, when `ptr` is `Some(p)`:
    /// - the first `min(layout.size(), old_layout.size())` bytes are those of `p`;
    /// - on `Err(AllocError)`, `p` is still valid.
    #[track_caller]
    unsafe fn realloc(
        ptr: Option<NonNull<u8>>,
        layout: Layout,
        old_layout: Layout,
        flags: Flags,
        nid: NumaNode,
    ) -> Result<NonNull<[u8]>, AllocError>;

    /// Frees the allocation `ptr`, which was made with `layout`.
    ///
    /// # Safety
    ///
    /// - `ptr` points to a valid allocation made by this allocator; if `layout` has size zero,
    ///   `ptr` need not come from this allocator.
    /// - `layout` is the layout the allocation was made with.
    /// - Nothing reads or writes the memory at `ptr` afterwards.
    #[track_caller]
    unsafe fn free(ptr: NonNull<u8>, layout: Layout) {
        // SAFETY: The caller promises that `ptr` is a valid allocation of this allocator, made
        // with `layout`; the new layout's alignment, 1, is at most the allocation's.
        let _ = unsafe {
            Self::realloc(
                Some(ptr),
                Layout::new::<()>(),
                layout,
                Flags(0),
                NumaNode::NO_NODE,
            )
        };
    }
}

/// A well-aligned dangling pointer for `layout`: where a zero-sized allocation lives.
#[inline]
pub(crate) fn dangling_from_layout(layout: Layout) -> NonNull<u8> {
    let ptr = core::ptr::without_provenance_mut(layout.align());
    // SAFETY: An alignment is a power of two, so `ptr` is not null. It has no provenance, which
    // no access of zero bytes needs.
    unsafe { NonNull::new_unchecked(ptr) }
}
