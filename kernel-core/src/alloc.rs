// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Memory allocation: the kernel's allocators ([`Kmalloc`](allocator::Kmalloc),
//! [`Vmalloc`](allocator::Vmalloc), [`KVmalloc`](allocator::KVmalloc)), their flags
//! ([`GFP_KERNEL`](flags::GFP_KERNEL), ...) and the collections over them: [`KBox`], [`KVec`]
//! and their `V`/`KV` forms.
//!
//! Kernel counterpart: `rust/kernel/alloc.rs` and `rust/kernel/alloc/` (Linux 7.3); C header:
//! [`include/linux/slab.h`](https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/include/linux/slab.h)
//! (`kmalloc()`, `krealloc()`, `kvmalloc()`), with
//! [`include/linux/vmalloc.h`](https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/include/linux/vmalloc.h)
//! and the flags of
//! [`include/linux/gfp_types.h`](https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/include/linux/gfp_types.h).
//!
//! Every allocation in the kernel can fail, and says how it may find memory: so a kernel `Box`
//! or `Vec` takes [`Flags`] wherever it allocates, and returns an [`AllocError`] (which `?` turns
//! into `ENOMEM`) instead of aborting as `std`'s do. A driver's error paths after a failed
//! allocation are code that runs on real machines under memory pressure; here they run under
//! `cargo test` and Miri.
//!
//! - **In the kernel** this module *is* the kernel's `kernel::alloc` on Linux 7.3 and 7.2 (the
//!   types a driver's `KVec` crosses into kernel APIs with are the kernel's own).
//! - **On the host** it is kernel-core's own, Linux 7.3's API over the host's allocator, without
//!   `std` (the `alloc` crate's global allocator): the three allocators keep the kernel's
//!   alignment (`ARCH_KMALLOC_MINALIGN`, a page for `Vmalloc`) and size limits
//!   (`KMALLOC_MAX_SIZE` is 4 MiB: a larger `KBox` fails as in the kernel; `KVBox` and `VBox`
//!   take it), `__GFP_ZERO` zeroes (on growth too), a size of zero frees, and zero-sized types
//!   never allocate. Every request of the three goes through one function with its flags and the
//!   driver's call site: where the host's fault injection and leak tracking hook in. The
//!   [migration guide](crate::guide::migrating) lists what the host cannot do as the kernel does.
//!
//! # Examples
//!
//! ```
//! use kernel_core::alloc::{flags::*, AllocError, KBox, KVec};
//! use kernel_core::error::{code::ENOMEM, Result};
//!
//! struct Ring {
//!     slots: KVec<u32>,
//!     head: KBox<usize>,
//! }
//!
//! fn ring(len: usize) -> Result<Ring> {
//!     let mut slots = KVec::with_capacity(len, GFP_KERNEL)?;
//!     slots.extend_with(len, 0, GFP_KERNEL)?;
//!     Ok(Ring { slots, head: KBox::new(0, GFP_KERNEL)? })
//! }
//!
//! let ring = ring(8)?;
//! assert_eq!(ring.slots, [0; 8]);
//! assert_eq!(*ring.head, 0);
//! // More than `kmalloc()` gives: the error path runs on the host too.
//! assert_eq!(scratch().err(), Some(ENOMEM));
//!
//! fn scratch() -> Result<KBox<core::mem::MaybeUninit<[u8; 16 << 20]>>> {
//!     Ok(KBox::new_uninit(GFP_KERNEL | __GFP_NOWARN)?)
//! }
//! # let _ = AllocError;
//! # Ok::<(), kernel_core::error::Error>(())
//! ```

#[allow(unused_imports, unreachable_pub)] // Until the module has items in both worlds.
pub use crate::env::alloc::*;
