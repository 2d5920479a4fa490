// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Unit tests that run on the host under `cargo` and in the kernel under KUnit, unchanged.
//!
//! Kernel counterpart: `rust/kernel/kunit.rs` and `#[kunit_tests]` in `rust/macros/kunit.rs`
//! (Linux 7.3; 6.12 has no such macro); C header:
//! [`include/kunit/test.h`](https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/include/kunit/test.h).
//!
//! Write a suite the way the kernel's `#[kunit_tests]` expects: an inline module of `#[test]`
//! functions that take no arguments and return `()` or a `Result`. This harness is kernel-core's
//! own, and accepts more than Linux 7.3's macro: assertion messages, `assert_ne!` and
//! `#[ignore]`. A suite that must also run under the kernel's macro, after switching back,
//! keeps to `assert!(c)` and `assert_eq!(a, b)` (see the [migration
//! guide](crate::guide::migrating)).
//!
//! | | host (`cargo test`, `cargo nextest`) | kernel (Kbuild, 6.12, 7.2 and 7.3) |
//! |---|---|---|
//! | module | renamed to the suite name | unchanged, built only with `CONFIG_KUNIT=y` |
//! | each `#[test]` | an ordinary test, `suite::case` | a KUnit case of the suite |
//! | `assert!`, `assert_eq!`, `assert_ne!` | the standard macros: a failure panics | reported to KUnit: the case fails and stops |
//! | `#[cfg(...)]` on a test | as usual | the case is reported as skipped |
//! | `#[ignore]` | ignored unless asked for | the case is reported as skipped |
//! | a returned `Err` | the test fails | the case fails |
//!
//! In the kernel the suite is registered in the module's `.kunit_test_suites` section, so it
//! runs when the module is loaded, and its KTAP results go to the kernel log. Only code in the
//! suite module itself sees the KUnit assertions; an `assert!` in a helper outside it panics,
//! as it would outside a test. `#[should_panic]` tests cannot run in the kernel, where a panic is
//! not recoverable: they are rejected there at compile time.
//!
//! # Examples
//!
//! ```
//! use kernel_core::prelude::*;
//!
//! fn checksum(bytes: &[u8]) -> u8 {
//!     bytes.iter().fold(0, |sum, b| sum.wrapping_add(*b))
//! }
//!
//! #[kunit_tests(driver_checksum)]
//! mod tests {
//!     use super::*;
//!
//!     #[test]
//!     fn empty_is_zero() {
//!         assert_eq!(checksum(&[]), 0);
//!     }
//!
//!     #[test]
//!     fn wraps_around() -> Result<(), &'static str> {
//!         if checksum(&[0xff, 2]) == 1 { Ok(()) } else { Err("no wrap-around") }
//!     }
//! }
//!
//! // On the host the module now has the suite's name; `tests` still names it.
//! # #[allow(unused_imports)]
//! use driver_checksum as _;
//! # #[allow(unused_imports)]
//! use tests as _;
//! ```

/// Turns an inline module of `#[test]` functions into a KUnit suite named by the argument.
///
/// See the [module documentation](self) for what it does on the host and in the kernel.
/// The suite name is an identifier of at most 255 bytes.
#[doc(inline)]
pub use kernel_core_macros::kunit_tests;

/// Run-time support for the kernel expansion of `#[kunit_tests]`; empty on the host.
#[doc(hidden)]
pub use crate::env::kunit::kunit_rt as __rt;

#[doc(hidden)]
pub use crate::{__kernel_core_if_host as __if_host, __kernel_core_if_kernel as __if_kernel};
