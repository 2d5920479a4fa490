// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `kernel::page`'s constants on the host: a 4 KiB page, as on x86_64 and most kernels.
//!
//! Its kernel twin re-exports the kernel's own items, whose values are the architecture's.

/// A bitwise shift for the page size: `PAGE_SIZE == 1 << PAGE_SHIFT`.
///
/// On the host it is 12 (4 KiB pages), whatever the host's own page size (see the
/// [module documentation](crate::page)); in the kernel it is the architecture's `PAGE_SHIFT`.
///
/// # Examples
///
/// ```
/// use kernel_core::page::{PAGE_SHIFT, PAGE_SIZE};
///
/// assert_eq!(1 << PAGE_SHIFT, PAGE_SIZE);
/// ```
pub const PAGE_SHIFT: usize = 12;

/// The number of bytes in a page: 4096 on the host, the architecture's `PAGE_SIZE` in the kernel.
///
/// # Examples
///
/// ```
/// use kernel_core::page::PAGE_SIZE;
///
/// let buffer = [0_u8; PAGE_SIZE];
/// assert!(buffer.len().is_power_of_two());
/// ```
pub const PAGE_SIZE: usize = 1 << PAGE_SHIFT;

/// A bitwise mask that gives the page containing a given address: `addr & PAGE_MASK` is the
/// address of its page's first byte.
///
/// # Examples
///
/// ```
/// use kernel_core::page::{PAGE_MASK, PAGE_SIZE};
///
/// assert_eq!((PAGE_SIZE + 5) & PAGE_MASK, PAGE_SIZE);
/// assert_eq!(!PAGE_MASK, PAGE_SIZE - 1);
/// ```
pub const PAGE_MASK: usize = !(PAGE_SIZE - 1);

/// Rounds `addr` up to the next multiple of [`PAGE_SIZE`], or returns [`None`] if that
/// overflows `usize`.
///
/// # Examples
///
/// ```
/// use kernel_core::page::{page_align, PAGE_SIZE};
///
/// assert_eq!(page_align(0), Some(0));
/// assert_eq!(page_align(1), Some(PAGE_SIZE));
/// assert_eq!(page_align(PAGE_SIZE), Some(PAGE_SIZE));
/// assert_eq!(page_align(PAGE_SIZE + 1), Some(2 * PAGE_SIZE));
/// assert_eq!(page_align(usize::MAX - PAGE_SIZE / 2), None);
/// ```
#[inline(always)]
pub const fn page_align(addr: usize) -> Option<usize> {
    match addr.checked_add(PAGE_SIZE - 1) {
        Some(end) => Some(end & PAGE_MASK),
        None => None,
    }
}
