// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Input and output: [`poll`], polling a register until a condition or a timeout.
//!
//! Kernel counterpart: `rust/kernel/io.rs` (Linux 7.3), of which kernel-core has the `poll`
//! module; the MMIO accessors (`Io`, `Mmio`, `register!`) need the kernel and are not here.
//! A driver's `op` closure can read a register through them, in the kernel, or a fake register
//! in a host test.

pub mod poll;
