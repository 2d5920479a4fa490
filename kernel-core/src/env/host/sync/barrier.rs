// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Memory barriers: [`mb`], [`smp_mb`] and [`dma_mb`], each with a [`Read`], [`Write`] or
//! [`Full`] ordering.
//!
//! Kernel counterpart: `rust/kernel/sync/barrier.rs` (Linux 7.3), over `mb()`, `rmb()`,
//! `wmb()`, `smp_*()` and `dma_*()` of
//! [`include/asm-generic/barrier.h`](https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/include/asm-generic/barrier.h);
//! their meaning is the Linux kernel memory model's
//! ([LKMM](https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/tools/memory-model/)).
//!
//! On the host they are `core`'s fences: a full barrier is a `SeqCst` fence, a read barrier
//! (loads before loads) an `Acquire` fence, a write barrier (stores before stores) a `Release`
//! fence, each at least as strong as the kernel's. The host is always SMP, so [`smp_mb`] is a
//! real barrier, as on a `CONFIG_SMP=y` kernel; and the host has no devices, so [`dma_mb`] is
//! the same barrier as [`mb`].

use core::sync::atomic::{fence, Ordering};

/// The orderings a barrier can have: [`Read`], [`Write`] and [`Full`].
///
/// - [`Read`]: earlier loads before later loads;
/// - [`Write`]: earlier stores before later stores;
/// - [`Full`]: every earlier access before every later one.
pub mod ordering {
    pub use crate::sync::atomic::ordering::Full;

    /// A read barrier's ordering: loads before loads.
    ///
    /// # Examples
    ///
    /// ```
    /// kernel_core::sync::barrier::smp_mb(kernel_core::sync::barrier::Read);
    /// ```
    pub struct Read;

    /// A write barrier's ordering: stores before stores.
    ///
    /// # Examples
    ///
    /// ```
    /// kernel_core::sync::barrier::smp_mb(kernel_core::sync::barrier::Write);
    /// ```
    pub struct Write;
}

pub use ordering::{Full, Read, Write};

/// The flavour of [`smp_mb`].
struct Smp;
/// The flavour of [`dma_mb`].
struct Dma;

/// A compiler barrier: the compiler moves no memory access across it.
#[allow(dead_code)] // For the kernel's users of `barrier()` that come next.
#[inline(always)]
pub(crate) fn barrier() {
    core::sync::atomic::compiler_fence(Ordering::SeqCst);
}

/// A barrier of one ordering, in one flavour (plain, SMP, DMA).
trait MemoryBarrier<Flavour = ()> {
    /// The barrier.
    fn run();
}

/// The fence of each ordering, in every flavour.
macro_rules! barriers {
    ($($ordering:ident => $fence:ident),*) => {$(
        impl MemoryBarrier for $ordering {
            #[inline]
            fn run() {
                fence(Ordering::$fence);
            }
        }
        impl MemoryBarrier<Smp> for $ordering {
            #[inline]
            fn run() {
                fence(Ordering::$fence);
            }
        }
        impl MemoryBarrier<Dma> for $ordering {
            #[inline]
            fn run() {
                fence(Ordering::$fence);
            }
        }
    )*};
}

barriers!(Full => SeqCst, Read => Acquire, Write => Release);

/// A memory barrier: neither the compiler nor the processor moves memory accesses across it,
/// as its ordering says (`mb()`, `rmb()`, `wmb()`).
///
/// # Examples
///
/// ```
/// use kernel_core::sync::barrier::{mb, Full, Read, Write};
///
/// mb(Read);
/// mb(Write);
/// mb(Full);
/// ```
#[inline]
#[doc(alias = "rmb")]
#[doc(alias = "wmb")]
#[allow(private_bounds)] // Sealed: the three orderings are the only ones.
pub fn mb<T: MemoryBarrier>(_: T) {
    T::run()
}

/// A memory barrier between CPUs (`smp_mb()`, `smp_rmb()`, `smp_wmb()`): orders accesses as
/// other CPUs see them, not as devices do.
///
/// # Examples
///
/// ```
/// use kernel_core::sync::atomic::{Atomic, Relaxed};
/// use kernel_core::sync::barrier::{smp_mb, Write};
///
/// let data = Atomic::new(0);
/// let ready = Atomic::new(false);
/// data.store(42, Relaxed);
/// smp_mb(Write); // `data` before `ready`, for a reader that pairs it with `smp_mb(Read)`
/// ready.store(true, Relaxed);
/// ```
#[inline]
#[doc(alias = "smp_rmb")]
#[doc(alias = "smp_wmb")]
#[allow(private_bounds)] // Sealed: the three orderings are the only ones.
pub fn smp_mb<T: MemoryBarrier<Smp>>(_: T) {
    T::run()
}

/// A memory barrier between this CPU and devices that access memory (`dma_mb()`, `dma_rmb()`,
/// `dma_wmb()`): orders accesses as devices see them, not as other CPUs do.
///
/// # Examples
///
/// ```
/// use kernel_core::sync::barrier::{dma_mb, Write};
///
/// // Fill a descriptor, then hand it to the device.
/// dma_mb(Write);
/// ```
#[inline]
#[doc(alias = "dma_rmb")]
#[doc(alias = "dma_wmb")]
#[allow(private_bounds)] // Sealed: the three orderings are the only ones.
pub fn dma_mb<T: MemoryBarrier<Dma>>(_: T) {
    T::run()
}
