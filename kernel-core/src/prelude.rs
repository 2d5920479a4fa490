// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! What most modules using kernel-core want in scope: `use kernel_core::prelude::*;`.
//!
//! Kernel counterpart: the kernel crate's `prelude`, of which this is the part kernel-core
//! provides: the assertion macros, the traits whose methods and constants need to be in scope,
//! and `#[kunit_tests]`.
//!
//! # Examples
//!
//! ```
//! use kernel_core::prelude::*;
//!
//! static_assert!(u32::SZ_4K == 4096);
//!
//! fn page_of(addr: u64) -> u64 {
//!     addr.align_down(kernel_core::ptr::Alignment::new::<4096>())
//! }
//! assert_eq!(page_of(0x1234), 0x1000);
//! assert_eq!(u64::SZ_8G, 8 << 30);
//! ```

#[doc(no_inline)]
pub use crate::build_assert::{build_assert, build_error, const_assert, static_assert};
#[doc(no_inline)]
pub use crate::kunit::kunit_tests;
#[doc(no_inline)]
pub use crate::ptr::Alignable;
#[doc(no_inline)]
pub use crate::sizes::{SizeConstants, SizeConstants64};
