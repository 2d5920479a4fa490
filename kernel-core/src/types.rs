// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Kernel types: `Opaque`, `ForeignOwnable`, `ScopeGuard` and friends.
//!
//! Kernel counterpart: `rust/kernel/types.rs` (Linux 7.3).

#[allow(unused_imports, unreachable_pub)] // Until the module has items in both worlds.
pub use crate::env::types::*;
