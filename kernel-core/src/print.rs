// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Printing to the kernel log: `pr_info!` and its siblings.
//!
//! Kernel counterpart: `rust/kernel/print.rs` (Linux 7.3).

#[allow(unused_imports, unreachable_pub)] // Until the module has items in both worlds.
pub use crate::env::print::*;
