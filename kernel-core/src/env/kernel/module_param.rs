// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `kernel::module_param` in the kernel: the kernel's own from Linux 7.1 on (6.12's `module!`
//! takes no parameters).

#[cfg(kernel_core_linux_7_1)]
pub use kernel::module_param::{ModuleParam, ModuleParamAccess};
