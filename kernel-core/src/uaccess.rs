// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Slices of user memory: what a driver reads from and writes to the process that called it
//! (an `ioctl`'s argument, a `write()`'s buffer), with every access checked.
//!
//! Linux 7.3's `kernel::uaccess` (`rust/kernel/uaccess.rs`), over the C functions of
//! [`include/linux/uaccess.h`](https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/include/linux/uaccess.h)
//! (`copy_from_user()`, `copy_to_user()`, `strncpy_from_user()`): a [`UserPtr`] is a user
//! address, a [`UserSlice`] a region there, read once from its start by a [`UserSliceReader`]
//! and written by a [`UserSliceWriter`]. Every method is safe: an access past the region, or at
//! an address the process has not mapped, is [`EFAULT`](crate::error::code::EFAULT).
//!
//! - **In the kernel** these are the kernel's own types (Linux 7.2 and 7.3), so a driver's
//!   `UserSlice` goes to the kernel's APIs that take one (`miscdevice`'s `ioctl`, `debugfs`).
//! - **On the host** they are kernel-core's own, with 7.3's API and results, over a model of the
//!   calling process's memory: the thread's
//!   [`extras::uaccess::UserMemory`](crate::extras::uaccess::UserMemory) (feature `std`), which
//!   a test maps bytes into and reads back. Without it, every access faults, as it does in a
//!   kernel thread. The differences: `UserSliceWriter::write_dma` is left out (it copies from a
//!   `dma::Coherent`, a DMA allocation of a device), and `read_slice_file`/`write_slice_file`
//!   take the `i64` that `kernel::fs::file::Offset` names.
//!
//! # Examples
//!
//! ```
//! use kernel_core::prelude::*;
//! use kernel_core::uaccess::{UserPtr, UserSlice};
//!
//! /// An `ioctl` that takes a NUL-terminated name of at most 15 bytes.
//! fn set_name(arg: UserPtr, len: usize, name: &mut [u8; 16]) -> Result<usize> {
//!     let name = UserSlice::new(arg, len).reader().strcpy_into_buf(name)?;
//!     Ok(name.to_bytes().len())
//! }
//!
//! let mut name = [0; 16];
//! assert_eq!(set_name(UserPtr::from_addr(0x1000), 16, &mut name), Err(EFAULT)); // unmapped
//! # #[cfg(feature = "std")] {
//! let mut user = kernel_core::extras::uaccess::UserMemory::new();
//! let arg = user.map(b"eth0\0");
//! assert_eq!(set_name(arg, 5, &mut name), Ok(4));
//! assert_eq!(&name[..5], b"eth0\0");
//! # }
//! ```

pub use crate::env::uaccess::{UserPtr, UserSlice, UserSliceReader, UserSliceWriter};
