// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `kernel::print` in the kernel: the kernel's printing, whose `pr_*!` macros `env::root_macros`
//! places at kernel-core's root. Linux 6.12 has no `OnceLite` and no `pr_*_once!`: there they
//! are kernel-core's (`env/print_once.rs`, over the kernel's `pr_*!`).

#[doc(hidden)]
pub use kernel::print::{call_printk, call_printk_cont, format_strings};

#[cfg(kernel_core_linux_7_1)]
pub use kernel::print::OnceLite;

#[cfg(not(kernel_core_linux_7_1))]
pub use super::print_once::OnceLite;
