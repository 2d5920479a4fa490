// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The procedural macros, at the path the kernel crate has them: `kernel::macros`.
//!
//! Of the kernel's procedural macros, kernel-core mirrors three, [`paste!`](paste),
//! [`#[kunit_tests]`](kunit_tests) and [`fmt!`](fmt) (see [`crate::fmt`]); the others
//! (`module!`, `#[vtable]`, `#[export]`, `concat_idents!`, ...) belong to the kernel's module
//! machinery.
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
