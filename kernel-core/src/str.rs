// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! C strings and byte strings: [`CStr`] with [`CStrExt`], [`CString`], [`BStr`], the
//! formatters that write into buffers, [`kstrtobool`] and [`parse_int`].
//!
//! Kernel counterpart: `rust/kernel/str.rs` and `rust/kernel/str/parse_int.rs` (Linux 7.3); C:
//! [`lib/kstrtox.c`](https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/lib/kstrtox.c)
//! (`kstrtobool()`).
//!
//! Drivers name devices, firmware files and sysfs attributes with C strings. In Linux 7.3
//! [`CStr`] is `core::ffi::CStr`, so a literal `c"name"` is one, and the kernel's additions are
//! the methods of the [`CStrExt`] trait, which the prelude imports (`as _`). Linux 6.12 has its
//! own `CStr` type instead, with those methods inherent, and `c_str!` for literals.
//!
//! - **In the kernel** (7.2 and 7.3) these are the kernel's own items.
//! - **On the host** they are kernel-core's, with Linux 7.3's signatures and behaviour: the
//!   `Display` of [`CStr`] and [`BStr`] (printable ASCII, other bytes escaped), [`CString`]
//!   allocated with `KVec` and `GFP_KERNEL`, `kstrtobool` computed as the C does. One
//!   deliberate difference: [`Formatter::new`] ties the buffer's lifetime to the formatter's,
//!   which 7.3's signature forgets (see there).
//!
//! The macros [`c_str!`](crate::c_str) and [`b_str!`](crate::b_str) are at the crate root, as
//! in the kernel.
//!
//! # Examples
//!
//! ```
//! use kernel_core::b_str;
//! use kernel_core::macros::fmt;
//! use kernel_core::str::{kstrtobool, parse_int::ParseInt, BStr, CStr};
//!
//! let firmware: &CStr = c"nvidia/gsp.bin";
//! assert_eq!(format!("{}", fmt!("loading {firmware}")), "loading nvidia/gsp.bin");
//!
//! let param: &BStr = b_str!("0x40");
//! assert_eq!(u32::from_str(param), Ok(64));
//! assert_eq!(kstrtobool(c"on"), Ok(true));
//! ```

pub use crate::env::str::{
    as_char_ptr_in_const_context, kstrtobool, kstrtobool_bytes, parse_int, BStr, CStr, CStrExt,
    CString, Formatter, NullTerminatedFormatter, RawFormatter,
};
