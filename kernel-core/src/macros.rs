// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The procedural macros, at the path the kernel crate has them: `kernel::macros`.
//!
//! Of the kernel's procedural macros, kernel-core mirrors six: [`paste!`](paste),
//! [`#[kunit_tests]`](kunit_tests), [`fmt!`](fmt) (see [`crate::fmt`]), and [`module!`](module),
//! [`#[vtable]`](vtable) and [`#[export]`](export) (see [`crate::module`]); the others
//! (`concat_idents!`, `ForLt`, ...) are not mirrored.
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

// `module!`, `#[vtable]` and `#[export]`, whose expansions differ between the worlds.
#[doc(inline)]
pub use crate::env::module::macros::*;
