// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! `kernel::module` and the module macros in the kernel: the kernel's own.
//!
//! Linux 7.3 has `Module`, `InPlaceModule`, `ModuleMetadata` (with `THIS_MODULE`), `ThisModule`
//! and `this_module`, and the macros `module!`, `#[vtable]` and `#[export]`; 7.2 has all but
//! `this_module` (its `ModuleMetadata` has `NAME` only); 6.12 only `Module` and `ThisModule`, and
//! `module!` (with `author: ".."`) and `#[vtable]`. What a kernel lacks is absent, not
//! imitated: these are the kernel's entry points, which its own `module!` calls.

/// What `kernel_core::module` re-exports.
pub(crate) mod items {
    #[cfg(kernel_core_linux_7_3)]
    pub use kernel::module::{this_module, InPlaceModule, Module, ModuleMetadata, ThisModule};
    #[cfg(all(kernel_core_linux_7_1, not(kernel_core_linux_7_3)))]
    pub use kernel::{InPlaceModule, Module, ModuleMetadata, ThisModule};
    #[cfg(not(kernel_core_linux_7_1))]
    pub use kernel::{Module, ThisModule};
}

/// What Linux 7.3 has at its crate root of them.
pub(crate) mod root {
    #[cfg(kernel_core_linux_7_1)]
    pub use kernel::{InPlaceModule, Module, ModuleMetadata, ThisModule};
    #[cfg(not(kernel_core_linux_7_1))]
    pub use kernel::{Module, ThisModule};
}

/// The module macros, which `kernel_core::macros` re-exports.
pub(crate) mod macros {
    #[cfg(kernel_core_linux_7_1)]
    pub use kernel::macros::{export, module, vtable};
    #[cfg(not(kernel_core_linux_7_1))]
    pub use kernel::macros::{module, vtable};
}

/// Items that exist on the host only (the module loader of `extras::module`): nothing here.
macro_rules! host_only {
    ($($item:item)*) => {};
}
#[allow(unused_imports)]
pub(crate) use host_only;
