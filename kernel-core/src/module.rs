// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Kernel modules: the type that `module!` names, which the kernel initializes when the module
//! is loaded and drops when it is unloaded.
//!
//! Linux 7.3's `kernel::module` (`rust/kernel/module.rs`): [`Module`] (`module_init()` as a
//! constructor, `module_exit()` as `Drop`), [`InPlaceModule`] (a module initialized in place,
//! pinned), [`ModuleMetadata`] (the module's name and `THIS_MODULE`, which `module!`
//! implements) and [`this_module`]. [`ThisModule`] is C's `THIS_MODULE`, a pointer to the
//! module's `struct module` of
//! [`include/linux/module.h`](https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/include/linux/module.h).
//! As in 7.3, `Module`, `InPlaceModule`, `ModuleMetadata` and `ThisModule` are also at the
//! crate root, and `ThisModule` and `module!` in the [prelude](crate::prelude).
//!
//! - **In the kernel** these are the kernel's own, and `module!` makes a loadable module.
//! - **On the host** they are kernel-core's own, with 7.3's API, and `module!` declares what
//!   means something without a module loader: `__LOG_PREFIX`, `LocalModule` (the
//!   `OwnerModule` of the crate's `#[vtable]` impls), the type's `ModuleMetadata` (its
//!   `THIS_MODULE` points at a [`RawModule`](crate::extras::module::RawModule) of its own) and
//!   `module_parameters`. A test loads the module with
//!   [`extras::module::load`](crate::extras::module::load), which runs its `init` and returns
//!   a guard that unloads it (feature `std`). A crate whose `module!` is built by `cargo` thus
//!   runs its tests, `#[kunit_tests]` suites included, with the module declared.
//!
//! # Examples
//!
//! ```
//! use kernel_core::prelude::*;
//!
//! module! {
//!     type: RustMinimal,
//!     name: "rust_minimal",
//!     authors: ["Rust for Linux Contributors"],
//!     description: "Rust minimal sample",
//!     license: "GPL",
//! }
//!
//! struct RustMinimal {
//!     numbers: KVec<i32>,
//! }
//!
//! impl kernel_core::Module for RustMinimal {
//!     fn init(_module: &'static ThisModule) -> Result<Self> {
//!         pr_info!("Rust minimal sample (init)\n");
//!         let mut numbers = KVec::new();
//!         numbers.push(72, GFP_KERNEL)?;
//!         Ok(RustMinimal { numbers })
//!     }
//! }
//!
//! impl Drop for RustMinimal {
//!     fn drop(&mut self) {
//!         pr_info!("My numbers are {:?}\n", self.numbers);
//!     }
//! }
//!
//! # fn main() -> Result {
//! # #[cfg(feature = "std")] {
//! let module = kernel_core::extras::module::load::<RustMinimal>()?; // insmod
//! assert_eq!(module.numbers[0], 72);
//! drop(module); // rmmod
//! # }
//! # Ok(())
//! # }
//! ```

// By glob: Linux 6.12 has only `Module` and `ThisModule`, 7.2 no `this_module` (see the table of
// the migration guide); the host and 7.3 have all five.
pub use crate::env::module::items::*;
