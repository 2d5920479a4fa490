// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `kernel::io` on the host: what an MMIO address is, and what [`Mmio`](crate::io::Mmio)'s
//! accesses do when there is no device.
//!
//! An MMIO address here is the address of memory that a test owns and whose provenance it
//! exposed, and the accesses are volatile accesses to it, with no barrier: there is no device
//! to order them against. The relaxed accessors are the same accesses.
//!
//! Like the kernel's `readw()`..`readq()` and `writew()`..`writeq()` on every architecture,
//! the accesses are little-endian: on a big-endian host (s390x) a `u32` written through `Mmio`
//! lands in memory as its little-endian bytes, as it would on a device's bus. `SysMem`, which
//! is ordinary memory, stays native-endian, as in the kernel.

use crate::io::{
    IoBackend, IoCapable, IoCopyable, Mmio, MmioBackend, RelaxedMmio, RelaxedMmioBackend,
};

/// The pointer for MMIO address `addr`: on the host, to memory whose provenance the caller
/// exposed with `expose_provenance`.
#[inline]
pub(crate) fn ptr_from_addr<T>(addr: usize) -> *mut T {
    core::ptr::with_exposed_provenance_mut(addr)
}

/// Implements [`IoCapable`] for the MMIO backends: volatile, little-endian accesses on the host.
macro_rules! mmio_capable {
    ($($backend:ident $view:ident: $($ty:ty)*;)*) => {$($(
        impl IoCapable<$ty> for $backend {
            #[inline]
            fn io_read(view: $view<'_, $ty>) -> $ty {
                // SAFETY: By `Mmio`'s invariant, the view's pointer is valid and aligned for a
                // `$ty` (on the host: memory whose provenance was exposed), and every bit
                // pattern is a `$ty`.
                let raw = unsafe { $backend::as_ptr(view).read_volatile() };
                // The bus is little-endian, as `readl()` is on every architecture.
                <$ty>::from_le(raw)
            }

            #[inline]
            fn io_write(view: $view<'_, $ty>, value: $ty) {
                // SAFETY: As for `io_read`: the pointer is valid and aligned for a `$ty`.
                unsafe { $backend::as_ptr(view).write_volatile(value.to_le()) }
            }
        }
    )*)*};
}

mmio_capable! {
    MmioBackend Mmio: u8 u16 u32;
    RelaxedMmioBackend RelaxedMmio: u8 u16 u32;
}

// `readq()` and `writeq()` on 64-bit targets only, as in Linux 7.3 (`CONFIG_64BIT`): a 32-bit
// host stands for a 32-bit kernel, which has none.
#[cfg(target_pointer_width = "64")]
mmio_capable! {
    MmioBackend Mmio: u64;
    RelaxedMmioBackend RelaxedMmio: u64;
}

/// Copies `len` bytes from `src` to `dst` for `SysMem`'s `IoCopyable`: in the kernel its
/// `memcpy()`, here `copy_nonoverlapping`.
///
/// # Safety
///
/// `src` must be valid for reads and `dst` for writes of `len` bytes, and they must not
/// overlap.
#[inline]
pub(crate) unsafe fn sys_mem_copy(dst: *mut u8, src: *const u8, len: usize) {
    // SAFETY: The caller promises what `copy_nonoverlapping` requires.
    unsafe { core::ptr::copy_nonoverlapping(src, dst, len) }
}

/// `memcpy_fromio()` and `memcpy_toio()` on the host: byte by byte, volatile, with no byte
/// swapping (bytes have no byte order).
impl IoCopyable for MmioBackend {
    #[inline]
    unsafe fn copy_from_io(view: Mmio<'_, [u8]>, buffer: *mut u8) {
        let src = Self::as_ptr(view);
        for i in 0..src.len() {
            // SAFETY: By `Mmio`'s invariant the view's bytes are valid memory (exposed on the
            // host), and the caller promises that `buffer` is valid for as many bytes of
            // writes, apart from the view.
            unsafe { buffer.add(i).write(src.cast::<u8>().add(i).read_volatile()) };
        }
    }

    #[inline]
    unsafe fn copy_to_io(view: Mmio<'_, [u8]>, buffer: *const u8) {
        let dst = Self::as_ptr(view);
        for i in 0..dst.len() {
            // SAFETY: As for `copy_from_io`, with `buffer` valid for reads.
            unsafe { dst.cast::<u8>().add(i).write_volatile(buffer.add(i).read()) };
        }
    }
}

crate::io::io_sys_map_copyable!();
