// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The procedural macros, at the path the kernel crate has them: `kernel::macros`.
//!
//! Of the kernel's procedural macros, kernel-core mirrors seven: [`paste!`](paste),
//! [`concat_idents!`](concat_idents), [`#[kunit_tests]`](kunit_tests), [`fmt!`](fmt) (see
//! [`crate::fmt`]), and [`module!`](module), [`#[vtable]`](vtable) and [`#[export]`](export)
//! (see [`crate::module`]); the others (`ForLt`, ...) are not mirrored.
//!
//! # Examples
//!
//! ```
//! kernel_core::macros::paste! {
//!     const [<SZ_ 4 K>]: usize = 4096;
//! }
//! assert_eq!(SZ_4K, 4096);
//! ```

#[doc(inline)]
pub use kernel_core_macros::{fmt, kunit_tests, paste};

/// The kernel's own in a module (6.12, 7.2 and 7.3 all have it); kernel-core's on the host.
#[cfg(kernel)]
pub use kernel::macros::concat_idents;
#[cfg(not(kernel))]
#[doc(inline)]
pub use kernel_core_macros::concat_idents;

// `module!`, `#[vtable]` and `#[export]`, whose expansions differ between the worlds.
#[doc(inline)]
pub use crate::env::module::macros::*;
