// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The part of the kernel crate's prelude that kernel-core provides: `use
//! kernel_core::prelude::*;`.
//!
//! Kernel counterpart: `rust/kernel/prelude.rs` (Linux 7.3), which exports these same names
//! next to many that need the kernel (`module!`, `pr_info!`, `KBox`, ...): the assertion
//! macros [`build_assert!`], [`build_error!`], [`const_assert!`] and [`static_assert!`], and
//! [`#[kunit_tests]`](kunit_tests). Nothing else: traits such as
//! [`Alignable`](crate::ptr::Alignable) or [`SizeConstants`](crate::sizes::SizeConstants) are
//! imported from their modules, as with the kernel.
//!
//! # Examples
//!
//! ```
//! use kernel_core::prelude::*;
//! use kernel_core::ptr::{Alignable, Alignment};
//! use kernel_core::sizes::SizeConstants;
//!
//! static_assert!(u32::SZ_4K == 4096);
//!
//! fn page_of(addr: u64) -> u64 {
//!     addr.align_down(Alignment::new::<4096>())
//! }
//! assert_eq!(page_of(0x1234), 0x1000);
//! ```

#[doc(no_inline)]
pub use crate::build_assert::{build_assert, build_error, const_assert, static_assert};
#[doc(no_inline)]
pub use crate::macros::kunit_tests;
