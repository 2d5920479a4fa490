// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! In-place initialisation through the kernel's allocators: `InPlaceInit`, `try_init!`, `try_pin_init!`.
//!
//! Kernel counterpart: `rust/kernel/init.rs` (Linux 7.3).

#[allow(unused_imports, unreachable_pub)] // Until the module has items in both worlds.
pub use crate::env::init::*;
