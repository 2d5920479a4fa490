// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Synchronisation: locks, condition variables, completions, `Arc`, atomics.
//!
//! Kernel counterpart: `rust/kernel/sync.rs` (Linux 7.3).

pub use crate::env::sync::*;
