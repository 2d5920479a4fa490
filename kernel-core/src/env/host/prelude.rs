// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! What `kernel_core::prelude` re-exports on the host, besides kernel-core's own items:
//! nothing.
//!
//! Its kernel twin, `env/kernel/prelude.rs`, re-exports the kernel's whole prelude, so that
//! `use kernel_core::prelude::*;` is the only prelude line a driver needs. On the host there is
//! no kernel crate, and `kernel_core::prelude` is kernel-core's own items alone.
