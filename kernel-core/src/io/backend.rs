// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The kinds of I/O behind the views: [`IoBackend`] (a backend's views and how to narrow one to
//! a part of it), [`IoCapable`] (the widths it reads and writes) and [`IoCopyable`] (its byte
//! copies). Apart from [`Io`] so that several view types can share one backend.
//!
//! Kernel counterpart: the same traits in `rust/kernel/io.rs` of Linux 7.3.

use core::mem::MaybeUninit;

use super::IoBase;
use crate::extras::bytes::{FromBytes, IntoBytes};
use crate::ptr::KnownSize;

#[cfg(doc)]
use super::{Io, IoSysMapBackend, MmioBackend, SysMemBackend};

/// A kind of I/O (memory-mapped, system memory, a bus's configuration space, ...): its views
/// and how to narrow a view to a part of it.
///
/// Which widths a backend can read and write is said by [`IoCapable`]; this trait is apart from
/// [`Io`] so that several view types can share one backend.
///
/// # Examples
///
/// ```
/// use kernel_core::io::{IoBackend, SysMem, SysMemBackend};
///
/// let mut word = 7_u32;
/// // SAFETY: `word` is valid, aligned memory for as long as the view is used.
/// let view: SysMem<'_, u32> = unsafe { SysMem::new(&mut word) };
/// assert_eq!(SysMemBackend::as_ptr(view), view.as_ptr());
/// ```
pub trait IoBackend {
    /// The view of a `T` in this kind of I/O.
    type View<'a, T: ?Sized + KnownSize>: IoBase<'a, Backend = Self, Target = T>;

    /// The pointer behind `view`, for computing projections. It is the backend's business and
    /// need not be dereferenceable: never dereference it.
    fn as_ptr<'a, T: ?Sized + KnownSize>(view: Self::View<'a, T>) -> *mut T;

    /// The view of the part of `view` at `ptr`. The result is valid if `view` is.
    ///
    /// # Safety
    ///
    /// `ptr` must be a projection of `Self::as_ptr(view)`: inside it, and aligned.
    unsafe fn project_view<'a, T: ?Sized + KnownSize, U: ?Sized + KnownSize>(
        view: Self::View<'a, T>,
        ptr: *mut U,
    ) -> Self::View<'a, U>;
}

/// An [`IoBackend`] that can read and write values of type `T` (`u8`, `u16`, `u32`, `u64`).
///
/// A backend implements it for the widths it supports: MMIO and system memory for all four on
/// 64-bit targets and all but `u64` on 32-bit ones (as in Linux 7.3, whose 32-bit kernels have
/// no `readq()`), a PCI configuration space for all but `u64`.
///
/// # Examples
///
/// ```
/// use kernel_core::io::{IoCapable, SysMem, SysMemBackend};
///
/// let mut word = 0_u16;
/// // SAFETY: `word` is valid, aligned memory for as long as the view is used.
/// let view = unsafe { SysMem::new(&mut word) };
/// SysMemBackend::io_write(view, 0xbeef_u16);
/// assert_eq!(SysMemBackend::io_read(view), 0xbeef);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot access a `{T}` here",
    note = "64-bit accesses (`u64`) exist on 64-bit targets only, as in Linux 7.3 (`CONFIG_64BIT`)"
)]
pub trait IoCapable<T>: IoBackend {
    /// Reads the `T` that `view` covers.
    fn io_read<'a>(view: Self::View<'a, T>) -> T;

    /// Writes `value` to the `T` that `view` covers.
    fn io_write<'a>(view: Self::View<'a, T>, value: T);
}

/// An [`IoBackend`] that can copy bytes between its views and memory, as `memcpy_fromio()` and
/// `memcpy_toio()` do: byte for byte, in no particular width and with no byte swapping.
///
/// Implemented by [`SysMemBackend`] (a plain copy), [`MmioBackend`] (the kernel's
/// `memcpy_fromio()`/`memcpy_toio()` on Linux 7.3, byte accesses on 6.12 and 7.2; volatile
/// byte accesses on the host) and [`IoSysMapBackend`] where
/// both of its backends are. [`Io::copy_read`], [`Io::copy_write`], [`Io::copy_from_slice`] and
/// [`Io::copy_to_slice`] are the safe ways to use it.
///
/// # Examples
///
/// ```
/// use kernel_core::io::{IoCopyable, SysMem, SysMemBackend};
///
/// let mut bytes = [1_u8, 2, 3, 4];
/// // SAFETY: `bytes` is valid memory for as long as the view is used.
/// let view = unsafe { SysMem::new(&mut bytes[..]) };
/// let mut buffer = [0_u8; 4];
/// // SAFETY: `buffer` is valid for 4 bytes of writes, as many as the view has, and is not
/// // inside it.
/// unsafe { SysMemBackend::copy_from_io(view, buffer.as_mut_ptr()) };
/// assert_eq!(buffer, [1, 2, 3, 4]);
/// ```
pub trait IoCopyable: IoBackend {
    /// Copies the bytes of `view` into `buffer`.
    ///
    /// # Safety
    ///
    /// `buffer` must be valid for writes of as many bytes as `view` has, and must not overlap
    /// with `view`.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::io::{IoCopyable, SysMem, SysMemBackend};
    ///
    /// let mut status = [0x5a_u8, 0xa5];
    /// // SAFETY: `status` is valid memory for as long as the view is used.
    /// let view = unsafe { SysMem::new(&mut status[..]) };
    /// let mut copy = [0_u8; 2];
    /// // SAFETY: `copy` is valid for 2 bytes of writes and apart from `status`.
    /// unsafe { SysMemBackend::copy_from_io(view, copy.as_mut_ptr()) };
    /// assert_eq!(copy, [0x5a, 0xa5]);
    /// ```
    unsafe fn copy_from_io(view: Self::View<'_, [u8]>, buffer: *mut u8);

    /// Copies bytes from `buffer` into `view`.
    ///
    /// # Safety
    ///
    /// `buffer` must be valid for reads of as many bytes as `view` has, and must not overlap
    /// with `view`.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::io::{IoCopyable, SysMem, SysMemBackend};
    ///
    /// let mut command = [0_u8; 3];
    /// // SAFETY: `command` is valid memory for as long as the view is used.
    /// let view = unsafe { SysMem::new(&mut command[..]) };
    /// let bytes = [1_u8, 2, 3];
    /// // SAFETY: `bytes` is valid for 3 bytes of reads and apart from `command`.
    /// unsafe { SysMemBackend::copy_to_io(view, bytes.as_ptr()) };
    /// assert_eq!(command, [1, 2, 3]);
    /// ```
    unsafe fn copy_to_io(view: Self::View<'_, [u8]>, buffer: *const u8);

    /// Reads the `T` that `view` covers, as a copy of its bytes.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::io::{IoCopyable, SysMem, SysMemBackend};
    ///
    /// let mut mac = [0x02_u8, 0, 0, 0xab, 0xcd, 0xef];
    /// // SAFETY: `mac` is valid memory for as long as the view is used.
    /// let view = unsafe { SysMem::new(&raw mut mac) };
    /// assert_eq!(SysMemBackend::copy_read(view), [0x02, 0, 0, 0xab, 0xcd, 0xef]);
    /// ```
    #[inline]
    fn copy_read<T: FromBytes>(view: Self::View<'_, T>) -> T {
        let bytes =
            core::ptr::slice_from_raw_parts_mut(Self::as_ptr(view).cast::<u8>(), size_of::<T>());
        // SAFETY: The bytes of the `T` that `view` covers are `view` itself.
        let bytes = unsafe { Self::project_view(view, bytes) };
        let mut value = MaybeUninit::<T>::uninit();
        // SAFETY: `value` is valid for `size_of::<T>()` bytes of writes, as many as `bytes` has,
        // and, being local, is not inside it.
        unsafe { Self::copy_from_io(bytes, value.as_mut_ptr().cast()) };
        // SAFETY: Every byte of `value` was written, and any bytes are a `T` (`T: FromBytes`).
        unsafe { value.assume_init() }
    }

    /// Writes `value` into the `T` that `view` covers, as a copy of its bytes. `value` is not
    /// dropped (`FromBytes`/`IntoBytes` types have nothing to drop that its bytes do not say).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::io::{IoCopyable, SysMem, SysMemBackend};
    ///
    /// let mut words = [0_u32; 2];
    /// // SAFETY: `words` is valid memory for as long as the view is used.
    /// let view = unsafe { SysMem::new(&raw mut words) };
    /// SysMemBackend::copy_write(view, [7_u32, 9]);
    /// assert_eq!(words, [7, 9]);
    /// ```
    #[inline]
    fn copy_write<T: IntoBytes>(view: Self::View<'_, T>, value: T) {
        let bytes =
            core::ptr::slice_from_raw_parts_mut(Self::as_ptr(view).cast::<u8>(), size_of::<T>());
        // SAFETY: The bytes of the `T` that `view` covers are `view` itself.
        let bytes = unsafe { Self::project_view(view, bytes) };
        let value = core::mem::ManuallyDrop::new(value);
        // SAFETY: `value` is valid for `size_of::<T>()` bytes of reads, all initialized
        // (`T: IntoBytes`), and, being local, is not inside `bytes`.
        unsafe { Self::copy_to_io(bytes, (&raw const value).cast()) };
    }
}
