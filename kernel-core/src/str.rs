// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! C strings and byte strings: `CStr`, `CStrExt`, `CString`, `BStr`.
//!
//! Kernel counterpart: `rust/kernel/str.rs` (Linux 7.3).

#[allow(unused_imports, unreachable_pub)] // Until the module has items in both worlds.
pub use crate::env::str::*;
