// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The C types, as the kernel maps them: `c_char` is `u8` (the kernel builds with
//! `-funsigned-char`), `c_long` is `isize` and `c_ulong` `usize` (the kernel's `long` is
//! pointer-sized everywhere), the others as in C, and `c_void` and `CStr` are `core::ffi`'s.
//!
//! Kernel counterpart: `kernel::ffi`, the kernel's `ffi` crate (`rust/ffi.rs`, Linux 7.3), whose
//! types the prelude exports too. In the kernel these *are* its items; on the host they are
//! the same types, so `let n: isize = some_c_long;` builds in both worlds.
//!
//! # Examples
//!
//! ```
//! use kernel_core::ffi::{c_char, c_int, c_long, c_ulong, c_void, CStr};
//!
//! let ch: c_char = b'k';
//! let ret: c_int = -22;
//! let jiffies: c_ulong = usize::MAX;
//! let offset: isize = c_long::MIN;
//! let name: &CStr = c"kernel-core";
//! let opaque: *const c_void = name.as_ptr().cast();
//! assert_eq!((ch, ret, jiffies, offset), (107, -22, usize::MAX, isize::MIN));
//! assert!(!opaque.is_null());
//! ```

pub use crate::env::ffi::*;
