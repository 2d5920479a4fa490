// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! System memory as I/O: [`SysMem`], a view of ordinary memory accessed with volatile loads
//! and stores (memory a device may also access, or the memory that stands for a device in a
//! test on the host), and its backend.
//!
//! Kernel counterpart: `SysMem` and `SysMemBackend` in `rust/kernel/io.rs` of Linux 7.3.

use core::marker::PhantomData;

use super::{IoBackend, IoBase, IoCapable, IoCopyable};
use crate::extras::bytes::{FromBytes, IntoBytes};
use crate::ptr::KnownSize;

/// A view of a region of ordinary memory of type `T`, alive for `'a`, whose accesses are
/// volatile: memory that a device may also access (DMA), or, on the host, the memory that
/// stands for a device's registers in a test.
///
/// # Invariants
///
/// The `KnownSize::size(ptr)` bytes at `ptr` are valid, aligned memory for `'a`.
///
/// # Examples
///
/// ```
/// use kernel_core::io::{Io, Region, SysMem};
///
/// let mut words = [0_u32; 4];
/// let region = Region::<16>::ptr_try_from_raw_parts_mut(words.as_mut_ptr().cast(), 16)?;
/// // SAFETY: `words` is valid, aligned memory for as long as the view is used.
/// let io = unsafe { SysMem::new(region) };
/// io.write32(0xaa, 12);
/// assert_eq!(words[3], 0xaa);
/// # Ok::<(), kernel_core::error::Error>(())
/// ```
pub struct SysMem<'a, T: ?Sized> {
    ptr: *mut T,
    phantom: PhantomData<&'a ()>,
}

impl<T: ?Sized> Clone for SysMem<'_, T> {
    #[inline]
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: ?Sized> Copy for SysMem<'_, T> {}

// SAFETY: A `SysMem` is a shared reference to a `T`, so it is `Send` when `&T` is.
unsafe impl<T: ?Sized + Sync> Send for SysMem<'_, T> {}

// SAFETY: As for `Send`: a shared reference to a `T`.
unsafe impl<T: ?Sized + Sync> Sync for SysMem<'_, T> {}

impl<'a, T: ?Sized> SysMem<'a, T> {
    /// The view of the memory at `ptr`.
    ///
    /// # Safety
    ///
    /// The `KnownSize::size(ptr)` bytes at `ptr` must be valid, aligned memory for as long as
    /// `'a` lasts.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::io::{Io, SysMem};
    ///
    /// let mut flag = 0_u8;
    /// // SAFETY: `flag` is valid memory for as long as the view is used.
    /// let io = unsafe { SysMem::new(&raw mut flag) };
    /// io.write_val(1);
    /// assert_eq!(flag, 1);
    /// ```
    #[inline]
    pub unsafe fn new(ptr: *mut T) -> Self {
        // INVARIANT: The caller promises that `ptr` is valid memory for `'a`.
        Self {
            ptr,
            phantom: PhantomData,
        }
    }

    /// The pointer to the memory.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel_core::io::SysMem;
    ///
    /// let mut word = 0_u32;
    /// let ptr = &raw mut word;
    /// // SAFETY: `word` is valid memory for as long as the view is used.
    /// assert_eq!(unsafe { SysMem::new(ptr) }.as_ptr(), ptr);
    /// ```
    #[inline]
    pub fn as_ptr(self) -> *mut T {
        self.ptr
    }
}

impl<'a, T: ?Sized + KnownSize> IoBase<'a> for SysMem<'a, T> {
    type Backend = SysMemBackend;
    type Target = T;

    #[inline]
    fn as_view(self) -> SysMem<'a, T> {
        self
    }
}

/// The [`IoBackend`] of [`SysMem`].
///
/// # Examples
///
/// ```
/// use kernel_core::io::{IoBackend, SysMem, SysMemBackend};
///
/// let mut word = 0_u32;
/// // SAFETY: `word` is valid memory for as long as the view is used.
/// let view = unsafe { SysMem::new(&raw mut word) };
/// assert_eq!(SysMemBackend::as_ptr(view), &raw mut word);
/// ```
pub struct SysMemBackend;

impl IoBackend for SysMemBackend {
    type View<'a, T: ?Sized + KnownSize> = SysMem<'a, T>;

    #[inline]
    fn as_ptr<'a, T: ?Sized + KnownSize>(view: Self::View<'a, T>) -> *mut T {
        view.ptr
    }

    #[inline]
    unsafe fn project_view<'a, T: ?Sized + KnownSize, U: ?Sized + KnownSize>(
        view: Self::View<'a, T>,
        ptr: *mut U,
    ) -> Self::View<'a, U> {
        // INVARIANT: The caller promises that `ptr` lies inside `view`'s memory, so it is valid
        // memory for `'a` too. `view` is not otherwise needed: `ptr` derives from its pointer.
        let _ = view;
        SysMem {
            ptr,
            phantom: PhantomData,
        }
    }
}

/// Implements [`IoCapable`] for [`SysMemBackend`]: volatile accesses.
macro_rules! sys_mem_capable {
    ($($ty:ty)*) => {$(
        impl IoCapable<$ty> for SysMemBackend {
            #[inline]
            fn io_read(view: SysMem<'_, $ty>) -> $ty {
                // SAFETY: By the view's invariant, `view.ptr` is valid and aligned for a
                // `$ty`, every bit pattern of which is a value. The access is volatile so that
                // a device writing the memory meanwhile is defined behaviour; a race with
                // another CPU is left to the kernel's memory model, as for any volatile access.
                unsafe { view.ptr.read_volatile() }
            }

            #[inline]
            fn io_write(view: SysMem<'_, $ty>, value: $ty) {
                // SAFETY: As for `io_read`: `view.ptr` is valid and aligned for a `$ty`.
                unsafe { view.ptr.write_volatile(value) }
            }
        }
    )*};
}

sys_mem_capable!(u8 u16 u32);
// 64-bit accesses on 64-bit targets only, as in Linux 7.3 (`CONFIG_64BIT`): a 32-bit kernel
// (or a 32-bit host, which stands for one) has no single 64-bit access.
#[cfg(target_pointer_width = "64")]
sys_mem_capable!(u64);

impl IoCopyable for SysMemBackend {
    #[inline]
    unsafe fn copy_from_io(view: SysMem<'_, [u8]>, buffer: *mut u8) {
        // SAFETY: By the view's invariant `view.ptr` is valid for reads of its length, and the
        // caller promises that `buffer` is valid for writes of as many bytes, apart from it.
        unsafe { crate::env::io::sys_mem_copy(buffer, view.ptr.cast(), view.ptr.len()) }
    }

    #[inline]
    unsafe fn copy_to_io(view: SysMem<'_, [u8]>, buffer: *const u8) {
        // SAFETY: By the view's invariant `view.ptr` is valid for writes of its length, and the
        // caller promises that `buffer` is valid for reads of as many bytes, apart from it.
        unsafe { crate::env::io::sys_mem_copy(view.ptr.cast(), buffer, view.ptr.len()) }
    }

    #[inline]
    fn copy_read<T: FromBytes>(view: SysMem<'_, T>) -> T {
        // SAFETY: By the view's invariant `view.ptr` is valid and aligned for a `T`, any bytes
        // of which are a value (`T: FromBytes`). Volatile, as for the primitives: a device may
        // write the memory meanwhile.
        unsafe { view.ptr.read_volatile() }
    }

    #[inline]
    fn copy_write<T: IntoBytes>(view: SysMem<'_, T>, value: T) {
        // SAFETY: By the view's invariant `view.ptr` is valid and aligned for a `T`.
        unsafe { view.ptr.write_volatile(value) }
    }
}
