// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Formatting: the kernel's `Display` and the `fmt!` adapter.
//!
//! Kernel counterpart: `rust/kernel/fmt.rs` (Linux 7.3).

#[allow(unused_imports, unreachable_pub)] // Until the module has items in both worlds.
pub use crate::env::fmt::*;
