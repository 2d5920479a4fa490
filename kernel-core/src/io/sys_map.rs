// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Either kind of memory: [`IoSysMap`], a view that is an [`Mmio`] or a [`SysMem`] (C's
//! `struct iosys_map`), and its backend, which passes each access to the variant's.
//!
//! Kernel counterpart: `IoSysMap` and `IoSysMapBackend` in `rust/kernel/io.rs` of Linux 7.3.

use super::{IoBackend, IoBase, IoCapable, Mmio, MmioBackend, SysMem, SysMemBackend};
use crate::ptr::KnownSize;

#[cfg(doc)]
use super::IoCopyable;

/// A view that is either [`Mmio`] or [`SysMem`], for code that handles both without being
/// generic over the backend, as `struct iosys_map` (`include/linux/iosys-map.h`) in C.
///
/// # Examples
///
/// ```
/// use kernel_core::io::{Io, IoSysMap, SysMem};
///
/// let mut word = 0_u32;
/// // SAFETY: `word` is valid memory for as long as the view is used.
/// let map: IoSysMap<'_, u32> = unsafe { SysMem::new(&raw mut word) }.into();
/// map.write_val(0x77);
/// assert_eq!(map.read_val(), 0x77);
/// assert!(matches!(map, IoSysMap::Sys(_)));
/// ```
pub enum IoSysMap<'a, T: ?Sized> {
    /// I/O memory.
    Io(Mmio<'a, T>),
    /// System memory.
    Sys(SysMem<'a, T>),
}

impl<T: ?Sized> Clone for IoSysMap<'_, T> {
    #[inline]
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: ?Sized> Copy for IoSysMap<'_, T> {}

impl<'a, T: ?Sized> From<Mmio<'a, T>> for IoSysMap<'a, T> {
    #[inline]
    fn from(view: Mmio<'a, T>) -> Self {
        Self::Io(view)
    }
}

impl<'a, T: ?Sized> From<SysMem<'a, T>> for IoSysMap<'a, T> {
    #[inline]
    fn from(view: SysMem<'a, T>) -> Self {
        Self::Sys(view)
    }
}

impl<'a, T: ?Sized + KnownSize> IoBase<'a> for IoSysMap<'a, T> {
    type Backend = IoSysMapBackend;
    type Target = T;

    #[inline]
    fn as_view(self) -> IoSysMap<'a, T> {
        self
    }
}

/// The [`IoBackend`] of [`IoSysMap`]: each access goes to the backend of the variant.
///
/// # Examples
///
/// ```
/// use kernel_core::io::{IoBackend, IoSysMap, IoSysMapBackend, SysMem};
///
/// let mut word = 0_u32;
/// // SAFETY: `word` is valid memory for as long as the view is used.
/// let map = IoSysMap::from(unsafe { SysMem::new(&raw mut word) });
/// assert_eq!(IoSysMapBackend::as_ptr(map), &raw mut word);
/// ```
pub struct IoSysMapBackend;

impl IoBackend for IoSysMapBackend {
    type View<'a, T: ?Sized + KnownSize> = IoSysMap<'a, T>;

    #[inline]
    fn as_ptr<'a, T: ?Sized + KnownSize>(view: Self::View<'a, T>) -> *mut T {
        match view {
            IoSysMap::Io(view) => MmioBackend::as_ptr(view),
            IoSysMap::Sys(view) => SysMemBackend::as_ptr(view),
        }
    }

    #[inline]
    unsafe fn project_view<'a, T: ?Sized + KnownSize, U: ?Sized + KnownSize>(
        view: Self::View<'a, T>,
        ptr: *mut U,
    ) -> Self::View<'a, U> {
        match view {
            // SAFETY: The caller promises that `ptr` is a projection of the variant's view.
            IoSysMap::Io(view) => IoSysMap::Io(unsafe { MmioBackend::project_view(view, ptr) }),
            // SAFETY: As above.
            IoSysMap::Sys(view) => IoSysMap::Sys(unsafe { SysMemBackend::project_view(view, ptr) }),
        }
    }
}

impl<T> IoCapable<T> for IoSysMapBackend
where
    MmioBackend: IoCapable<T>,
    SysMemBackend: IoCapable<T>,
{
    #[inline]
    fn io_read(view: IoSysMap<'_, T>) -> T {
        match view {
            IoSysMap::Io(view) => MmioBackend::io_read(view),
            IoSysMap::Sys(view) => SysMemBackend::io_read(view),
        }
    }

    #[inline]
    fn io_write(view: IoSysMap<'_, T>, value: T) {
        match view {
            IoSysMap::Io(view) => MmioBackend::io_write(view, value),
            IoSysMap::Sys(view) => SysMemBackend::io_write(view, value),
        }
    }
}

/// Implements [`IoCopyable`] for [`IoSysMapBackend`]: the environments invoke it where
/// [`MmioBackend`] copies (everywhere).
macro_rules! io_sys_map_copyable {
    () => {
        impl $crate::io::IoCopyable for $crate::io::IoSysMapBackend {
            #[inline]
            unsafe fn copy_from_io(view: $crate::io::IoSysMap<'_, [u8]>, buffer: *mut u8) {
                match view {
                    // SAFETY: The caller's promises hold for the variant's view.
                    $crate::io::IoSysMap::Io(view) => unsafe {
                        <$crate::io::MmioBackend as $crate::io::IoCopyable>::copy_from_io(
                            view, buffer,
                        )
                    },
                    // SAFETY: As above.
                    $crate::io::IoSysMap::Sys(view) => unsafe {
                        <$crate::io::SysMemBackend as $crate::io::IoCopyable>::copy_from_io(
                            view, buffer,
                        )
                    },
                }
            }

            #[inline]
            unsafe fn copy_to_io(view: $crate::io::IoSysMap<'_, [u8]>, buffer: *const u8) {
                match view {
                    // SAFETY: The caller's promises hold for the variant's view.
                    $crate::io::IoSysMap::Io(view) => unsafe {
                        <$crate::io::MmioBackend as $crate::io::IoCopyable>::copy_to_io(
                            view, buffer,
                        )
                    },
                    // SAFETY: As above.
                    $crate::io::IoSysMap::Sys(view) => unsafe {
                        <$crate::io::SysMemBackend as $crate::io::IoCopyable>::copy_to_io(
                            view, buffer,
                        )
                    },
                }
            }

            #[inline]
            fn copy_read<T: $crate::extras::bytes::FromBytes>(
                view: $crate::io::IoSysMap<'_, T>,
            ) -> T {
                match view {
                    $crate::io::IoSysMap::Io(view) => {
                        <$crate::io::MmioBackend as $crate::io::IoCopyable>::copy_read(view)
                    }
                    $crate::io::IoSysMap::Sys(view) => {
                        <$crate::io::SysMemBackend as $crate::io::IoCopyable>::copy_read(view)
                    }
                }
            }

            #[inline]
            fn copy_write<T: $crate::extras::bytes::IntoBytes>(
                view: $crate::io::IoSysMap<'_, T>,
                value: T,
            ) {
                match view {
                    $crate::io::IoSysMap::Io(view) => {
                        <$crate::io::MmioBackend as $crate::io::IoCopyable>::copy_write(view, value)
                    }
                    $crate::io::IoSysMap::Sys(view) => {
                        <$crate::io::SysMemBackend as $crate::io::IoCopyable>::copy_write(
                            view, value,
                        )
                    }
                }
            }
        }
    };
}
pub(crate) use io_sys_map_copyable;
