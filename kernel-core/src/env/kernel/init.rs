// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `kernel::init` in the kernel: the kernel's own module on Linux 7.3 and 7.2 (whose only item
//! is `InPlaceInit`, as 7.3's); on 6.12, whose `kernel::init` is also the older `pin_init` (its
//! traits, `macro_rules` and helpers), the kernel's own `InPlaceInit` alone: its methods are
//! 7.3's (`try_pin_init`, `pin_init`, `try_init`, `init`, `PinnedSelf`).

#[cfg(kernel_core_linux_7_1)]
pub use kernel::init::*;

#[cfg(not(kernel_core_linux_7_1))]
pub use kernel::init::InPlaceInit;
