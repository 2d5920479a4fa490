// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `kernel::str` in the kernel: the kernel's own from Linux 7.1 on, where `CStr` is
//! `core::ffi::CStr` with `CStrExt`; on 6.12, whose `CStr` is its own `[u8]` wrapper (and whose
//! `c_str!` makes one), kernel-core's (the host's file), so that `c"..."`, `CStrExt` and
//! `CString::try_from_fmt` read as on 7.3.

#[cfg(kernel_core_linux_7_1)]
pub use kernel::str::*;

#[cfg(not(kernel_core_linux_7_1))]
#[path = "../str.rs"]
mod own;
#[cfg(not(kernel_core_linux_7_1))]
pub use own::*;
