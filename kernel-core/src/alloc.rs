// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Memory allocation: the kernel's allocators, their flags and `KBox`/`KVec`.
//!
//! Kernel counterpart: `rust/kernel/alloc.rs` (Linux 7.3).

#[allow(unused_imports, unreachable_pub)] // Until the module has items in both worlds.
pub use crate::env::alloc::*;
