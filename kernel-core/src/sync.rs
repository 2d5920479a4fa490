// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Synchronisation: locks, condition variables, completions, `Arc`, atomics.
//!
//! Kernel counterpart: `rust/kernel/sync.rs` (Linux 7.3).

#[allow(unused_imports, unreachable_pub)] // Until the module has items in both worlds.
pub use crate::env::sync::*;
