// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Page constants: [`PAGE_SHIFT`], [`PAGE_SIZE`], [`PAGE_MASK`] and [`page_align`].
//!
//! Kernel counterpart: `rust/kernel/page.rs` (Linux 7.3); C header:
//! [`include/asm-generic/page.h`](https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/include/asm-generic/page.h)
//! and each architecture's `asm/page.h`.
//!
//! A driver sizes buffers and DMA regions in pages, and rounds lengths up to whole pages, with
//! these four items of Linux 7.3's `kernel::page`; the rest of that module (`Page`,
//! `BorrowedPage`, `AsPageIter`) owns real pages and stays with the kernel.
//!
//! - **In the kernel** they are the kernel's own: `PAGE_SHIFT` and `PAGE_SIZE` are the
//!   architecture's (`CONFIG_PAGE_SIZE_*`: 4 KiB on x86_64, 4, 16 or 64 KiB on arm64, ...).
//! - **On the host** the page is 4 KiB (`PAGE_SHIFT` is 12) whatever the host's own page size
//!   is: the host's memory is not the kernel's concern, and a fixed size gives the same results
//!   on every machine the tests run on. Code that must hold for every page size should not
//!   assume 4096: use the constants.
//!
//! # Examples
//!
//! ```
//! use kernel_core::page::{page_align, PAGE_MASK, PAGE_SHIFT, PAGE_SIZE};
//!
//! const RING_BYTES: usize = 3 * 1000;
//! const RING_PAGES: usize = match page_align(RING_BYTES) {
//!     Some(bytes) => bytes >> PAGE_SHIFT,
//!     None => panic!("ring too large"),
//! };
//! assert_eq!(RING_PAGES * PAGE_SIZE, page_align(RING_BYTES).unwrap());
//! assert_eq!(0x1234 & PAGE_MASK, 0x1234 - 0x1234 % PAGE_SIZE);
//! ```

pub use crate::env::page::{page_align, PAGE_MASK, PAGE_SHIFT, PAGE_SIZE};
