// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Kernel error codes: [`Error`], [`Result`], [`to_result`], [`from_err_ptr`], [`from_result`]
//! and the codes of [`code`].
//!
//! Kernel counterpart: `rust/kernel/error.rs` (Linux 7.3); C headers:
//! [`include/uapi/asm-generic/errno-base.h`](https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/include/uapi/asm-generic/errno-base.h),
//! [`include/uapi/asm-generic/errno.h`](https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/include/uapi/asm-generic/errno.h),
//! [`include/linux/errno.h`](https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/include/linux/errno.h)
//! and
//! [`include/linux/err.h`](https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/include/linux/err.h).
//!
//! What kernel-core's own functions return ([`io::poll`](crate::io::poll) returns
//! [`ETIMEDOUT`](code::ETIMEDOUT)), with Linux 7.3's types:
//!
//! - **in the kernel**, [`Error`], [`Result`], [`to_result`], [`from_err_ptr`], [`from_result`]
//!   and [`VTABLE_DEFAULT_ERROR`] *are* the kernel's own items of `kernel::error`, on 6.12, 7.2
//!   and 7.3: a driver's `?` moves an error between kernel-core and the kernel crate without a
//!   conversion, and an `op` closure for [`read_poll_timeout`](crate::io::poll::read_poll_timeout)
//!   can return what the kernel's MMIO accessors return. [`code`] holds all 153 codes of Linux
//!   7.3's `kernel::error::code`: the kernel's own items where the running kernel has them (all
//!   on 7.3, 56 on 7.2, 53 on 6.12, which lacks `ETIMEDOUT`), values of the kernel's `Error`
//!   otherwise.
//! - **on the host**, `Error` is kernel-core's own type with Linux 7.3's API: the codes,
//!   [`Error::from_errno`], [`Error::to_errno`], [`Error::to_ptr`], [`Error::name`], `Clone`,
//!   `Copy`, `==`, `Debug` (the code's name, `ETIMEDOUT`, as with `CONFIG_SYMBOLIC_ERRNAME=y`),
//!   `From` `core`'s `TryFromIntError`, `Utf8Error`, `fmt::Error` (all `EINVAL`) and
//!   `Infallible`, `From` [`AllocError`](crate::alloc::AllocError) and
//!   [`LayoutError`](crate::alloc::layout::LayoutError) (both `ENOMEM`), and [`from_err_ptr`],
//!   [`from_result`] and [`VTABLE_DEFAULT_ERROR`], computed as the kernel computes them
//!   (`IS_ERR()`, `PTR_ERR()`, `ERR_PTR()`, `errname()`).
//!
//! The prelude exports `Error`, `Result` and the codes, on the host as in the kernel (where they
//! are the kernel prelude's very items, so importing both does not clash):
//!
//! ```
//! use kernel_core::prelude::*;
//!
//! fn parse(raw: u32) -> Result<u8> {
//!     Ok(u8::try_from(raw)?) // `TryFromIntError` is `EINVAL`, as in the kernel
//! }
//!
//! assert_eq!(parse(300), Err(EINVAL));
//! assert_eq!(parse(7), Ok(7));
//! assert_eq!(Error::from_errno(-110), ETIMEDOUT);
//! assert_eq!(format!("{ETIMEDOUT:?}"), "ETIMEDOUT");
//! ```

pub use crate::env::error::{
    code, from_err_ptr, from_result, to_result, Error, Result, VTABLE_DEFAULT_ERROR,
};
