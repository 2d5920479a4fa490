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
//!   with the kernel's headers) call them: the code that runs is the architecture's own,
//!   arm64's loads patched at load time (`ALTERNATIVE`), riscv64's writes keeping its per-CPU
//!   `mmiowb` state.
//! - Linux 7.3 (`kernel_core_linux_7_3`): the kernel's own views (`kernel::io::Mmio`, from
//!   `pci::Bar`, `platform::IoMem`, ...; `kernel::io::SysMem`) convert into kernel-core's, for
//!   registers declared with kernel-core's `register!`.

/// The pointer for MMIO address `addr`: only its address matters, since the kernel's
/// accessors are C functions (or inline assembly) that never dereference it from Rust.
#[inline]
pub(crate) fn ptr_from_addr<T>(addr: usize) -> *mut T {
    core::ptr::without_provenance_mut(addr)
}

/// The C accessors behind `Mmio`, one function per width and kind, with the signatures of the
/// kernel's bindings (`readl(addr: *const c_void) -> u32`, `writel(value: u32, addr: *mut
/// c_void)`, ...).
///
/// This is the one place that says where they come from on each kernel: on Linux 7.2 and 7.3
/// the kernel's own Rust helpers; on Linux 6.12, which has none, kernel-core's C helpers
/// (`kernel_core_helpers.c`, compiled into the module by `kernel-core.mk`) under the same names,
/// so the implementations below apply to both unchanged.
mod backend {
    /// On 6.12: `kernel_core_<name>` of kernel-core's C helpers, declared as `<name>`.
    #[cfg(not(kernel_core_linux_7_1))]
    macro_rules! helpers {
        ($($read:ident, $write:ident: $ty:ty;)*) => {
            unsafe extern "C" {$(
                #[link_name = concat!("kernel_core_", stringify!($read))]
                pub(super) fn $read(addr: *const core::ffi::c_void) -> $ty;
                #[link_name = concat!("kernel_core_", stringify!($write))]
                pub(super) fn $write(value: $ty, addr: *mut core::ffi::c_void);
            )*}
        };
    }
    #[cfg(not(kernel_core_linux_7_1))]
    helpers! {
        readb, writeb: u8;
        readw, writew: u16;
        readl, writel: u32;
        readb_relaxed, writeb_relaxed: u8;
        readw_relaxed, writew_relaxed: u16;
        readl_relaxed, writel_relaxed: u32;
    }
    #[cfg(all(not(kernel_core_linux_7_1), CONFIG_64BIT))]
    helpers! {
        readq, writeq: u64;
        readq_relaxed, writeq_relaxed: u64;
    }

    #[cfg(kernel_core_linux_7_1)]
    pub(super) use kernel::bindings::{
        readb, readb_relaxed, readl, readl_relaxed, readw, readw_relaxed, writeb, writeb_relaxed,
        writel, writel_relaxed, writew, writew_relaxed,
    };

    // 64-bit kernels only, as in Linux 7.3: 32-bit ones have no `readq()`.
    #[cfg(all(kernel_core_linux_7_1, CONFIG_64BIT))]
    pub(super) use kernel::bindings::{readq, readq_relaxed, writeq, writeq_relaxed};

    // `memcpy_fromio()` and `memcpy_toio()`: Linux 7.3 has Rust helpers for them.
    #[cfg(kernel_core_linux_7_3)]
    pub(super) use kernel::bindings::{memcpy_fromio, memcpy_toio};

    /// `memcpy_fromio()` on Linux 6.12 and 7.2, which have no Rust helper for it: byte by byte with
    /// `readb_relaxed()`, which reads what it reads (`memcpy_fromio()` uses the raw, unordered
    /// accessors too, in wider units where it can).
    ///
    /// # Safety
    ///
    /// `src` must be a valid, mapped MMIO range of `count` bytes, and `dst` valid for writes of
    /// `count` bytes.
    #[cfg(not(kernel_core_linux_7_3))]
    pub(super) unsafe fn memcpy_fromio(
        dst: *mut core::ffi::c_void,
        src: *const core::ffi::c_void,
        count: usize,
    ) {
        for i in 0..count {
            // SAFETY: The caller promises that byte `i` of `src` is mapped MMIO and byte `i` of
            // `dst` writable memory.
            unsafe {
                dst.cast::<u8>()
                    .add(i)
                    .write(readb_relaxed(src.cast::<u8>().wrapping_add(i).cast()))
            };
        }
    }

    /// `memcpy_toio()` on Linux 6.12 and 7.2: byte by byte with `writeb_relaxed()`.
    ///
    /// # Safety
    ///
    /// `dst` must be a valid, mapped MMIO range of `count` bytes, and `src` valid for reads of
    /// `count` bytes.
    #[cfg(not(kernel_core_linux_7_3))]
    pub(super) unsafe fn memcpy_toio(
        dst: *mut core::ffi::c_void,
        src: *const core::ffi::c_void,
        count: usize,
    ) {
        for i in 0..count {
            // SAFETY: The caller promises that byte `i` of `dst` is mapped MMIO and byte `i` of
            // `src` readable memory.
            unsafe {
                writeb_relaxed(
                    src.cast::<u8>().add(i).read(),
                    dst.cast::<u8>().wrapping_add(i).cast(),
                )
            };
        }
    }
}

/// `Mmio`'s and `RelaxedMmio`'s [`IoCapable`](crate::io::IoCapable) implementations, on the
/// accessors of [`backend`].
mod accessors {
    use super::backend;
    use crate::io::{
        IoBackend, IoCapable, IoCopyable, Mmio, MmioBackend, RelaxedMmio, RelaxedMmioBackend,
    };

    /// Implements [`IoCapable`] for an MMIO backend with the kernel's accessors.
    macro_rules! mmio_capable {
        ($backend:ident $view:ident: $($ty:ty => $read:ident, $write:ident;)*) => {$(
            impl IoCapable<$ty> for $backend {
                #[inline]
                fn io_read(view: $view<'_, $ty>) -> $ty {
                    // SAFETY: By `Mmio`'s invariant, the view's pointer is a valid, aligned,
                    // mapped MMIO location of a `$ty`, which is what the accessor needs.
                    unsafe { backend::$read($backend::as_ptr(view).cast_const().cast()) }
                }

                #[inline]
                fn io_write(view: $view<'_, $ty>, value: $ty) {
                    // SAFETY: As for `io_read`.
                    unsafe { backend::$write(value, $backend::as_ptr(view).cast()) }
                }
            }
        )*};
    }

    mmio_capable! {
        MmioBackend Mmio:
            u8 => readb, writeb;
            u16 => readw, writew;
            u32 => readl, writel;
    }
    mmio_capable! {
        RelaxedMmioBackend RelaxedMmio:
            u8 => readb_relaxed, writeb_relaxed;
            u16 => readw_relaxed, writew_relaxed;
            u32 => readl_relaxed, writel_relaxed;
    }

    // 64-bit accesses on 64-bit kernels only, as in Linux 7.3 (`CONFIG_64BIT`).
    #[cfg(CONFIG_64BIT)]
    mmio_capable! {
        MmioBackend Mmio:
            u64 => readq, writeq;
    }
    #[cfg(CONFIG_64BIT)]
    mmio_capable! {
        RelaxedMmioBackend RelaxedMmio:
            u64 => readq_relaxed, writeq_relaxed;
    }

    impl IoCopyable for MmioBackend {
        #[inline]
        unsafe fn copy_from_io(view: Mmio<'_, [u8]>, buffer: *mut u8) {
            let src = Self::as_ptr(view);
            // SAFETY: By `Mmio`'s invariant the view is a valid, mapped MMIO range of its length,
            // and the caller promises that `buffer` is valid for as many bytes of writes.
            unsafe { backend::memcpy_fromio(buffer.cast(), src.cast_const().cast(), src.len()) }
        }

        #[inline]
        unsafe fn copy_to_io(view: Mmio<'_, [u8]>, buffer: *const u8) {
            let dst = Self::as_ptr(view);
            // SAFETY: As for `copy_from_io`, with `buffer` valid for reads.
            unsafe { backend::memcpy_toio(dst.cast(), buffer.cast(), dst.len()) }
        }
    }

    crate::io::io_sys_map_copyable!();
}

/// The kernel's `memcpy()`, which every kernel exports.
mod string {
    unsafe extern "C" {
        pub(super) fn memcpy(
            dst: *mut core::ffi::c_void,
            src: *const core::ffi::c_void,
            len: usize,
        ) -> *mut core::ffi::c_void;
    }
}

/// Copies `len` bytes from `src` to `dst` for `SysMem`'s `IoCopyable`, with the kernel's
/// `memcpy()`, as Linux 7.3's `SysMem` does (a call the compiler cannot see into, for memory a
/// device may access).
///
/// # Safety
///
/// `src` must be valid for reads and `dst` for writes of `len` bytes, and they must not
/// overlap.
#[inline]
pub(crate) unsafe fn sys_mem_copy(dst: *mut u8, src: *const u8, len: usize) {
    // SAFETY: The caller promises what `memcpy()` requires.
    unsafe { string::memcpy(dst.cast(), src.cast(), len) };
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
