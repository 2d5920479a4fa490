// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! What `kernel_core::prelude` re-exports on the host, besides kernel-core's own items:
//! [`Zeroable`] only.
//!
//! Its kernel twin, `env/kernel/prelude.rs`, re-exports the kernel's whole prelude, so that
//! `use kernel_core::prelude::*;` is the only prelude line a driver needs. On the host there is
//! no kernel crate, and `kernel_core::prelude` is kernel-core's own items alone.
//!
//! The one exception is [`Zeroable`], which Linux 7.3's prelude exports from its `pin_init`
//! crate and which [`bitfield!`](crate::bitfield!) types implement: on the host it is
//! kernel-core's own trait, with `Zeroable::zeroed()` alone.

pub use super::zeroable::Zeroable;
