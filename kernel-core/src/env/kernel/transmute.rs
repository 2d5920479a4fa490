// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `kernel::transmute` in the kernel: the kernel's own from Linux 7.1 on; on 6.12, whose
//! `kernel::types::{FromBytes, AsBytes}` are markers without methods, kernel-core's own (the
//! host's file, written against `core` alone).

#[cfg(kernel_core_linux_7_1)]
pub use kernel::transmute::*;

#[cfg(not(kernel_core_linux_7_1))]
#[path = "../transmute.rs"]
mod own;
#[cfg(not(kernel_core_linux_7_1))]
pub use own::*;
