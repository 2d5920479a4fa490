// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `kernel::page`'s constants in the kernel: the kernel's own, with the architecture's page size.
//!
//! Linux 6.12 has `PAGE_SHIFT`, `PAGE_SIZE` and `PAGE_MASK` but not `page_align` (7.1 and
//! later): there it is kernel-core's, computed as the kernel's `PAGE_ALIGN()` with the
//! overflow reported as `None`, as 7.3's.

#[cfg(kernel_core_linux_7_1)]
pub use kernel::page::{page_align, PAGE_MASK, PAGE_SHIFT, PAGE_SIZE};

#[cfg(not(kernel_core_linux_7_1))]
pub use kernel::page::{PAGE_MASK, PAGE_SHIFT, PAGE_SIZE};

/// Rounds `addr` up to the next multiple of [`PAGE_SIZE`], or returns [`None`] if that
/// overflows `usize`: Linux 7.3's `kernel::page::page_align`, for Linux 6.12.
#[cfg(not(kernel_core_linux_7_1))]
#[inline(always)]
pub const fn page_align(addr: usize) -> Option<usize> {
    match addr.checked_add(PAGE_SIZE - 1) {
        Some(sum) => Some(sum & PAGE_MASK),
        None => None,
    }
}
