// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Unit tests that run on the host under `cargo` and in the kernel under KUnit, unchanged.
//!
//! Kernel counterpart: `rust/kernel/kunit.rs` and `#[kunit_tests]` in `rust/macros/kunit.rs`
//! (Linux 7.3; 6.12 has no such macro); C header:
//! [`include/kunit/test.h`](https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/include/kunit/test.h).
//!
//! Write a suite the way the kernel's `#[kunit_tests]` expects: an inline module of `#[test]`
//! functions that take no arguments and return `()` or any `Result<T, E>`. The same file
//! builds and gives the same verdicts in both worlds: `cargo xtask test` checks that on a
//! corpus of suites (`corpus/suites/`) that holds every form a suite may contain.
//!
//! | | host (`cargo test`, `cargo nextest`) | kernel (Kbuild, 6.12, 7.2 and 7.3) |
//! |---|---|---|
//! | module | keeps its name; built only with `cfg(test)`, so no other build sees or warns about it | keeps its name; built only with `CONFIG_KUNIT=y` |
//! | each `#[test]` | a test of the same name, `module::case` | a KUnit case of the suite, `suite.case` |
//! | `assert!` | the standard macro: a failure panics | reported to KUnit: the case fails and stops |
//! | `assert_eq!`, `assert_ne!` | as the standard ones, but operands need no `Debug` | reported to KUnit, with both values where they have `Debug` |
//! | assertions in const contexts (`const` items, `const fn`, `const { }`) | the standard macros | the standard macros: const evaluation cannot report to KUnit |
//! | `#[cfg(...)]` off on a test | listed as ignored | reported as skipped |
//! | `#[ignore]` | ignored unless asked for | reported as skipped |
//! | a returned `Err(e)` | the test fails, showing `e` if it has `Debug` | the case fails, the same |
//! | `#[should_panic]`, arguments, generics, `async` | compile error | the same compile error |
//!
//! In the kernel the suite is registered in the module's `.kunit_test_suites` section, so it
//! runs when the module is loaded, and its KTAP results go to the kernel log. Code anywhere in
//! the suite module (helpers and nested modules included) sees the KUnit assertions; an
//! `assert!` in a helper outside it panics, as it would outside a test.
//!
//! # Against Linux 7.3's own `#[kunit_tests]`
//!
//! This harness is kernel-core's own. After switching back to `kernel::prelude::kunit_tests`,
//! a suite builds and gives the same verdicts if it keeps to what 7.3's macro handles too:
//!
//! - `assert!(c)` and `assert_eq!(a, b)` only: 7.3 rejects a message (`assert!(c, "msg")`),
//!   and leaves `assert_ne!` the standard macro, whose failure panics the kernel;
//! - no `#[ignore]`: 7.3 keeps the attribute and runs the test;
//! - no assertion in a const context after the first test, and no helper after it whose
//!   failure should panic: 7.3 shadows the assertions from the first test to the end of the
//!   module, so such a `const` fails to build (E0015), and before the first test a helper's
//!   `assert!` panics;
//! - no `#[should_panic]`: 7.3 runs the test, and its panic is an Oops.
//!
//! kernel-core's own suites keep to these (the switch-back check runs them under 7.3's
//! macro); see also the [migration guide](crate::guide::migrating).
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
//! ```

// The macro's own documentation is shown; a doc comment here would repeat it.
#[doc(inline)]
pub use kernel_core_macros::kunit_tests;

/// Run-time support for the expansions of `#[kunit_tests]`, one per world.
#[doc(hidden)]
pub use crate::env::kunit::kunit_rt as __rt;

/// The expansion of a parsed `#[kunit_tests]` module: a host and a kernel definition, in
/// `env/{host,kernel}/kunit.rs`.
#[doc(hidden)]
pub use crate::__kernel_core_kunit_suite as __suite;

/// What a test function may return: `()` or any `Result<T, E>`, as in the kernel.
///
/// Used by the expansions of `#[kunit_tests]`; `E` needs no `Debug` (an error that has one is
/// shown).
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a KUnit test returns `()` or a `Result<T, E>`, not `{Self}`",
    label = "this test returns `{Self}`"
)]
pub trait TestResult {
    /// The error type: `E` of `Result<T, E>`.
    type Error;

    /// The error, if the test failed.
    fn error(&self) -> Option<&Self::Error>;
}

impl TestResult for () {
    type Error = core::convert::Infallible;

    #[inline]
    fn error(&self) -> Option<&Self::Error> {
        None
    }
}

impl<T, E> TestResult for Result<T, E> {
    type Error = E;

    #[inline]
    fn error(&self) -> Option<&E> {
        self.as_ref().err()
    }
}

/// `Debug` where a value has it, a placeholder where it has not: assertion operands and test
/// errors need no `Debug` in either world, as with the kernel's own `kunit_assert_eq!`.
///
/// `(&MaybeDebug(&value)).__kunit_debug()`, with both traits in scope, picks `ViaDebug` when
/// the value's type implements `Debug` and `ViaOpaque` otherwise (method lookup tries the
/// receiver `&MaybeDebug` before `&&MaybeDebug`). The choice is made where the type is known:
/// at the assertion. Unsized operands (`str`, slices) are passed as a reference to their
/// reference.
#[doc(hidden)]
pub mod __debug {
    use core::fmt;

    /// A value to show, if its type can be shown.
    pub struct MaybeDebug<'a, T>(pub &'a T);

    /// What stands for a value whose type has no `Debug`.
    pub struct NoDebug;

    impl fmt::Debug for NoDebug {
        #[inline]
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("(no Debug)")
        }
    }

    /// Chosen for types with `Debug`.
    pub trait ViaDebug<'a> {
        /// The value, shown with its `Debug`.
        fn __kunit_debug(&self) -> &'a dyn fmt::Debug;
    }

    impl<'a, T: fmt::Debug> ViaDebug<'a> for MaybeDebug<'a, T> {
        #[inline]
        fn __kunit_debug(&self) -> &'a dyn fmt::Debug {
            self.0
        }
    }

    /// Chosen for types without `Debug`.
    pub trait ViaOpaque<'a> {
        /// A placeholder.
        fn __kunit_debug(&self) -> &'a dyn fmt::Debug;
    }

    impl<'a, T> ViaOpaque<'a> for &MaybeDebug<'a, T> {
        #[inline]
        fn __kunit_debug(&self) -> &'a dyn fmt::Debug {
            &NoDebug
        }
    }
}

/// `&dyn Debug` for `$value` (a reference), whether or not its type implements `Debug`.
#[doc(hidden)]
#[macro_export]
macro_rules! __kernel_core_kunit_debug {
    ($value:expr) => {{
        #[allow(unused_imports)]
        use $crate::kunit::__debug::{ViaDebug as _, ViaOpaque as _};
        (&$crate::kunit::__debug::MaybeDebug($value)).__kunit_debug()
    }};
}
