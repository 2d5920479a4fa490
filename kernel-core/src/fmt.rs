// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Formatting: the kernel's own [`Display`] and [`Pointer`] traits, [`HashedPtr`], and what the
//! [`fmt!`](crate::macros::fmt) macro wraps every argument in, [`Adapter`].
//!
//! Kernel counterpart: `rust/kernel/fmt.rs` and `rust/macros/fmt.rs` (Linux 7.3); C:
//! [`lib/vsprintf.c`](https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/lib/vsprintf.c)
//! (`%p`).
//!
//! Linux 7.3's printing goes through `fmt!`, its `format_args!` that wraps each argument in
//! `Adapter(&arg)`: `{}` then formats with [`Display`], the kernel's copy of `core`'s trait,
//! which the kernel can implement for other crates' types (`core::ffi::CStr`); `{:p}` formats
//! with [`Pointer`], which prints pointers hashed, as C's `%p`; the other traits (`{:?}`,
//! `{:x}`, ...) are `core`'s. nova-core implements `kernel::fmt::Display` for its register
//! types. Linux 6.12 has neither the module nor the macro (its `pr_info!` takes `core`'s
//! traits).
//!
//! In the kernel these are the kernel's own items. On the host they are kernel-core's, with
//! Linux 7.3's implementations, and `fmt!` is kernel-core's proc macro, which expands as 7.3's
//! does (to `::kernel_core::fmt::Adapter` where 7.3 names `::kernel::fmt::Adapter`). One host
//! difference: `%p` hashes with a key fixed in kernel-core, not a random one (see
//! [`HashedPtr`]).
//!
//! # Examples
//!
//! ```
//! use kernel_core::fmt::{self, Display};
//! use kernel_core::macros::fmt;
//!
//! /// A register value that prints as nova-core's do.
//! struct Boot0(u32);
//!
//! impl Display for Boot0 {
//!     fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
//!         write!(f, "BOOT0 {{ arch: {:#x}, impl: {} }}", self.0 >> 24, (self.0 >> 20) & 0xf)
//!     }
//! }
//!
//! let boot0 = Boot0(0x1b30_00a1);
//! let line = format!("{}", fmt!("chip: {boot0}, raw {:#010x}", boot0.0));
//! assert_eq!(line, "chip: BOOT0 { arch: 0x1b, impl: 3 }, raw 0x1b3000a1");
//! ```
//!
//! A type with only `core::fmt::Display` does not print with `fmt!`, as in the kernel:
//!
//! ```compile_fail,E0277
//! use kernel_core::macros::fmt;
//!
//! struct Plain;
//! impl core::fmt::Display for Plain {
//!     fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
//!         f.write_str("plain")
//!     }
//! }
//! let _ = format!("{}", fmt!("{}", Plain)); // error[E0277]: `Plain` is not `kernel_core::fmt::Display`
//! ```

pub use crate::env::fmt::{
    Adapter, Arguments, Debug, Display, Error, Formatter, HashedPtr, Pointer, Result, Write,
};
