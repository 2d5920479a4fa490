// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `kernel::types` in the kernel: the kernel's own from Linux 7.1 on; on 6.12, kernel-core's own
//! (the host's file): 6.12's `ForeignOwnable` is a safe trait with other methods, its `Opaque`
//! has no `zeroed`, `try_ffi_init`, `cast_into` or `cast_from`, and it has no `NotThreadSafe`.

#[cfg(kernel_core_linux_7_1)]
pub use kernel::types::*;

#[cfg(not(kernel_core_linux_7_1))]
#[path = "../types.rs"]
mod own;
#[cfg(not(kernel_core_linux_7_1))]
pub use own::*;
