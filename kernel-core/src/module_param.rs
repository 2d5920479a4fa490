// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Module parameters: the values a module is loaded with (`insmod m.ko name=value`), which
//! `module!`'s `params` declares.
//!
//! Linux 7.3's `kernel::module_param` (`rust/kernel/module_param.rs`), over
//! [`include/linux/moduleparam.h`](https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/include/linux/moduleparam.h):
//! [`ModuleParam`], the types a parameter can have, and [`ModuleParamAccess`], the static that
//! `module!` declares for each parameter in the crate's `module_parameters` module, whose
//! `value()` the module reads.
//!
//! - **In the kernel** these are the kernel's own: the module loader sets the values before
//!   `init`, from the command line or `insmod`'s arguments, once for the module's lifetime.
//! - **On the host** they are kernel-core's own, with 7.3's API, and
//!   [`extras::module::load_with`](crate::extras::module::load_with) is the loader: it sets the
//!   values, and unloading the module forgets them. `PARAM_OPS_*` and `KernelParam`, the
//!   kernel's C side of them, are left out.
//!
//! # Examples
//!
//! ```
//! use kernel_core::prelude::*;
//!
//! module! {
//!     type: Sampler,
//!     name: "sampler",
//!     license: "GPL",
//!     params: {
//!         period_ms: u32 {
//!             default: 100,
//!             description: "Sampling period",
//!         },
//!     },
//! }
//!
//! struct Sampler(u32);
//!
//! impl kernel_core::Module for Sampler {
//!     fn init(_module: &'static ThisModule) -> Result<Self> {
//!         Ok(Sampler(module_parameters::period_ms.value()))
//!     }
//! }
//!
//! # fn main() -> Result {
//! # #[cfg(feature = "std")] {
//! use kernel_core::extras::module::{load, load_with};
//! assert_eq!(load::<Sampler>()?.0, 100);
//! assert_eq!(load_with::<Sampler>("period_ms=250")?.0, 250);
//! # }
//! # Ok(())
//! # }
//! ```

#[allow(unused_imports, unreachable_pub)] // Linux 6.12 has none.
pub use crate::env::module_param::*;
