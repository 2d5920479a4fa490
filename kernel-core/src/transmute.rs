// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Reinterpreting bytes: `FromBytes` and `AsBytes`.
//!
//! Kernel counterpart: `rust/kernel/transmute.rs` (Linux 7.3).

#[allow(unused_imports, unreachable_pub)] // Until the module has items in both worlds.
pub use crate::env::transmute::*;
