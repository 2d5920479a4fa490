// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Page constants: `PAGE_SIZE`, `PAGE_SHIFT`, `PAGE_MASK`, `page_align`.
//!
//! Kernel counterpart: `rust/kernel/page.rs` (Linux 7.3).

#[allow(unused_imports, unreachable_pub)] // Until the module has items in both worlds.
pub use crate::env::page::*;
