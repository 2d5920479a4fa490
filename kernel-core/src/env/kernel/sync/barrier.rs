// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Linux 7.3's memory barriers (`kernel::sync::barrier`) on Linux 6.12, which has none in Rust,
//! and 7.2, whose take no ordering:
//! the kernel's own `mb()`, `smp_mb()`, `dma_mb()` and their read and write forms, through
//! kernel-core's C helpers, so that each is the architecture's instruction.
//!
//! C header: [`include/asm-generic/barrier.h`](https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/include/asm-generic/barrier.h).

/// The orderings a barrier takes: 7.3's `Full`, `Read` and `Write`.
pub mod ordering {
    pub use crate::sync::atomic::ordering::Full;

    /// Orders reads: `rmb()` and its kin.
    pub struct Read;

    /// Orders writes: `wmb()` and its kin.
    pub struct Write;
}

pub use ordering::{Full, Read, Write};

extern "C" {
    fn kernel_core_mb();
    fn kernel_core_rmb();
    fn kernel_core_wmb();
    fn kernel_core_smp_mb();
    fn kernel_core_smp_rmb();
    fn kernel_core_smp_wmb();
    fn kernel_core_dma_mb();
    fn kernel_core_dma_rmb();
    fn kernel_core_dma_wmb();
}

/// What a barrier of one flavour does for an ordering.
trait MemoryBarrier<Flavour> {
    /// Issues the barrier.
    fn run();
}

/// Mandatory barriers.
struct Mandatory;
/// SMP barriers.
struct Smp;
/// DMA barriers.
struct Dma;

/// Implements [`MemoryBarrier`] for each (ordering, flavour) with its C helper.
macro_rules! barriers {
    ($($ordering:ident, $flavour:ident => $helper:ident;)*) => {$(
        impl MemoryBarrier<$flavour> for $ordering {
            #[inline]
            fn run() {
                // SAFETY: A barrier may be issued in any context.
                unsafe { $helper() }
            }
        }
    )*};
}

barriers! {
    Full, Mandatory => kernel_core_mb;
    Read, Mandatory => kernel_core_rmb;
    Write, Mandatory => kernel_core_wmb;
    Full, Smp => kernel_core_smp_mb;
    Read, Smp => kernel_core_smp_rmb;
    Write, Smp => kernel_core_smp_wmb;
    Full, Dma => kernel_core_dma_mb;
    Read, Dma => kernel_core_dma_rmb;
    Write, Dma => kernel_core_dma_wmb;
}

/// A mandatory barrier: `mb()`, `rmb()` or `wmb()`.
#[inline]
#[allow(private_bounds)]
pub fn mb<T: MemoryBarrier<Mandatory>>(_: T) {
    T::run()
}

/// An SMP barrier: `smp_mb()`, `smp_rmb()` or `smp_wmb()`.
#[inline]
#[allow(private_bounds)]
pub fn smp_mb<T: MemoryBarrier<Smp>>(_: T) {
    T::run()
}

/// A DMA barrier: `dma_mb()`, `dma_rmb()` or `dma_wmb()`.
#[inline]
#[allow(private_bounds)]
pub fn dma_mb<T: MemoryBarrier<Dma>>(_: T) {
    T::run()
}
