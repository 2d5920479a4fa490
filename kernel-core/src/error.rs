// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Kernel error codes: [`Error`], [`Result`], [`to_result`] and the codes of [`code`].
//!
//! Kernel counterpart: `rust/kernel/error.rs` (Linux 7.3); C headers:
//! [`include/uapi/asm-generic/errno-base.h`](https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/include/uapi/asm-generic/errno-base.h),
//! [`include/uapi/asm-generic/errno.h`](https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/include/uapi/asm-generic/errno.h)
//! and
//! [`include/linux/errno.h`](https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/include/linux/errno.h).
//!
//! What kernel-core's own functions return ([`io::poll`](crate::io::poll) returns
//! [`ETIMEDOUT`](code::ETIMEDOUT)), with Linux 7.3's types:
//!
//! - **in the kernel**, [`Error`], [`Result`] and [`to_result`] *are* the kernel's own
//!   `kernel::error::{Error, Result, to_result}`, on 6.12, 7.2 and 7.3: a driver's `?` moves an
//!   error between kernel-core and the kernel crate without a conversion, and an `op` closure
//!   for [`read_poll_timeout`](crate::io::poll::read_poll_timeout) can return what the kernel's
//!   MMIO accessors return. [`code`] holds all 153 codes of Linux 7.3's `kernel::error::code`:
//!   the kernel's own items where the running kernel has them (all on 7.3, 56 on 7.2, 53 on
//!   6.12, which lacks `ETIMEDOUT`), values of the kernel's `Error` otherwise.
//! - **on the host**, `Error` is kernel-core's own type with the part of the kernel's API that
//!   needs no C: the codes, [`Error::from_errno`], [`Error::to_errno`], `Clone`, `Copy`, `==`,
//!   `Debug` (the code's name, `ETIMEDOUT`, as with `CONFIG_SYMBOLIC_ERRNAME=y`), and `From`
//!   `core`'s `TryFromIntError`, `Utf8Error`, `fmt::Error` (all `EINVAL`) and `Infallible`.
//!   Not on the host: `Error::name`, `Error::to_ptr`, `from_err_ptr` and the `From`
//!   conversions of kernel types (`AllocError`, ...).
//!
//! In a module, the kernel's prelude already exports `Error`, `Result` and the codes; they are
//! the same items as these, so importing both does not clash. Code that is also built on the
//! host imports them from here:
//!
//! ```
//! use kernel_core::error::{code::{EINVAL, ETIMEDOUT}, Error, Result};
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

pub use crate::env::error::{code, to_result, Error, Result};
