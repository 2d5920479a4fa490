// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `kernel::io` in the kernel: what an MMIO address is, and [`Mmio`](crate::io::Mmio)'s
//! accessors, through what each kernel exports.
//!
//! - Linux 7.2 and 7.3 (`kernel_core_linux_7_1`): the kernel's Rust helpers for `readb()` ..
//!   `readq()`, `writeb()` .. `writeq()` and their `_relaxed` forms (`rust/helpers/io.c`),
//!   which are what `kernel::io::Mmio` calls.
//! - Linux 6.12: these are `static inline` C (`include/asm-generic/io.h` and each
//!   architecture's `asm/io.h`) with no Rust helper. kernel-core's own C helpers
//!   (`kernel_core_helpers.c`, one-line wrappers compiled into each module by `kernel-core.mk`
//!   with the kernel's headers) call them: the code that runs is the architecture's own, arm64's
//!   loads patched at load time (`ALTERNATIVE`), riscv64's writes keeping its per-CPU `mmiowb`
//!   state.
//! - Linux 7.3 (`kernel_core_linux_7_3`): the kernel's own views (`kernel::io::Mmio`, from
//!   `pci::Bar`, `platform::IoMem`, ...; `kernel::io::SysMem`) convert into kernel-core's, for
//!   registers declared with kernel-core's `register!`.

/// The pointer for MMIO address `addr`: only its address matters, since the kernel's
/// accessors are C functions (or inline assembly) that never dereference it from Rust.
#[inline]
pub(crate) fn ptr_from_addr<T>(addr: usize) -> *mut T {
    core::ptr::without_provenance_mut(addr)
}

mod accessors {
    use crate::io::{IoBackend, IoCapable, Mmio, MmioBackend, RelaxedMmio, RelaxedMmioBackend};
    #[cfg(kernel_core_linux_7_1)]
    use kernel::bindings;

    /// On 6.12, the accessors of kernel-core's C helpers, under the names of the kernel's
    /// Rust helpers of 7.1 and later, so that one table serves both.
    #[cfg(not(kernel_core_linux_7_1))]
    mod bindings {
        /// Declares `kernel_core_<name>` as `<name>`.
        macro_rules! helpers {
            ($($read:ident, $write:ident: $ty:ty;)*) => {
                unsafe extern "C" {$(
                    #[link_name = concat!("kernel_core_", stringify!($read))]
                    pub(crate) fn $read(addr: *const core::ffi::c_void) -> $ty;
                    #[link_name = concat!("kernel_core_", stringify!($write))]
                    pub(crate) fn $write(value: $ty, addr: *mut core::ffi::c_void);
                )*}
            };
        }
        helpers! {
            readb, writeb: u8;
            readw, writew: u16;
            readl, writel: u32;
            readb_relaxed, writeb_relaxed: u8;
            readw_relaxed, writew_relaxed: u16;
            readl_relaxed, writel_relaxed: u32;
        }
        #[cfg(CONFIG_64BIT)]
        helpers! {
            readq, writeq: u64;
            readq_relaxed, writeq_relaxed: u64;
        }
    }

    /// Implements [`IoCapable`] for an MMIO backend with the kernel's accessors.
    macro_rules! mmio_capable {
        ($backend:ident $view:ident: $($ty:ty => $read:ident, $write:ident;)*) => {$(
            impl IoCapable<$ty> for $backend {
                #[inline]
                fn io_read(view: $view<'_, $ty>) -> $ty {
                    // SAFETY: By `Mmio`'s invariant, the view's pointer is a valid, aligned,
                    // mapped MMIO location of a `$ty`, which is what the accessor needs.
                    unsafe { bindings::$read($backend::as_ptr(view).cast_const().cast()) }
                }

                #[inline]
                fn io_write(view: $view<'_, $ty>, value: $ty) {
                    // SAFETY: As for `io_read`.
                    unsafe { bindings::$write(value, $backend::as_ptr(view).cast()) }
                }
            }
        )*};
    }

    // kernel-core builds for 64-bit kernels only (see `env/kernel.rs`), which all have the
    // `q` accessors.
    mmio_capable! {
        MmioBackend Mmio:
            u8 => readb, writeb;
            u16 => readw, writew;
            u32 => readl, writel;
            u64 => readq, writeq;
    }
    mmio_capable! {
        RelaxedMmioBackend RelaxedMmio:
            u8 => readb_relaxed, writeb_relaxed;
            u16 => readw_relaxed, writew_relaxed;
            u32 => readl_relaxed, writel_relaxed;
            u64 => readq_relaxed, writeq_relaxed;
    }
}

/// The kernel's own views convert into kernel-core's, keeping the region they cover.
#[cfg(kernel_core_linux_7_3)]
mod conversions {
    use crate::io::{Mmio, MmioRaw, Region, SysMem};
    use kernel::io::IoBackend as _;

    impl<'a, const SIZE: usize> From<kernel::io::Mmio<'a, kernel::io::Region<SIZE>>>
        for Mmio<'a, Region<SIZE>>
    {
        #[inline]
        fn from(view: kernel::io::Mmio<'a, kernel::io::Region<SIZE>>) -> Self {
            // Both `Region`s are 4-aligned byte slices with the same invariants, so the
            // pointer keeps its address and length.
            let ptr = kernel::io::MmioBackend::as_ptr(view) as *mut Region<SIZE>;
            // SAFETY: `view` is a valid mapped region for `'a` (its type's invariant), and
            // `ptr` covers exactly it.
            unsafe { Mmio::from_raw(MmioRaw { ptr }) }
        }
    }

    impl<'a, const SIZE: usize> From<kernel::io::SysMem<'a, kernel::io::Region<SIZE>>>
        for SysMem<'a, Region<SIZE>>
    {
        #[inline]
        fn from(view: kernel::io::SysMem<'a, kernel::io::Region<SIZE>>) -> Self {
            let ptr = view.as_ptr() as *mut Region<SIZE>;
            // SAFETY: `view` is valid memory for `'a` (its type's invariant), and `ptr` covers
            // exactly it.
            unsafe { SysMem::new(ptr) }
        }
    }
}
