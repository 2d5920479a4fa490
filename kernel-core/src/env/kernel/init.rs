// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `kernel::init` in the kernel: the kernel's own module on Linux 7.3.

#[cfg(kernel_core_linux_7_3)]
pub use kernel::init::*;
