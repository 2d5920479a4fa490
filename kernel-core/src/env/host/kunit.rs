// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The host half of `#[kunit_tests]`: each suite becomes a module of ordinary tests.
//!
//! Its kernel twin is `env/kernel/kunit.rs`. The proc macro parses the suite and hands it to
//! [`__kernel_core_kunit_suite!`](crate::kunit::__suite), whose host definition is here:
//!
//! - the module keeps its name, and is built only with `cfg(test)`: nothing of it is left in,
//!   or warns in, a build that runs no tests;
//! - each `#[test]` fn becomes a test of the same name that calls it and fails on any returned
//!   `Err`: any `Result<T, E>` works, as in the kernel, where the standard harness wants
//!   `E: Debug` and `T = ()`;
//! - with the `std` feature, each test runs in a scope of its own
//!   ([`extras::scope`](crate::extras::scope)): what it allocates is checked for leaks when it
//!   ends (kmemleak's report), and `KERNEL_CORE_FAIL_NTH` or
//!   [`extras::fault::fail_nth`](crate::extras::fault::fail_nth) fails one of its allocations
//!   (see [`kunit_rt::run_case`]);
//! - a test whose `#[cfg]` is off is still listed, as ignored, as the kernel reports it
//!   skipped;
//! - `assert_eq!`/`assert_ne!` accept operands without `Debug`, as the kernel's do.

/// Run-time support of the host expansion.
pub mod kunit_rt {
    extern crate alloc;

    use alloc::string::String;
    use core::fmt;

    /// Fails the running test: `assert_eq!` or `assert_ne!` found `left op right` false.
    #[cold]
    #[track_caller]
    pub fn assert_failed_binary(
        op: &str,
        left: &dyn fmt::Debug,
        right: &dyn fmt::Debug,
        message: Option<fmt::Arguments<'_>>,
    ) -> ! {
        match message {
            Some(message) => panic!(
                "assertion `left {op} right` failed: {message}\n  left: {left:?}\n right: {right:?}"
            ),
            None => {
                panic!("assertion `left {op} right` failed\n  left: {left:?}\n right: {right:?}")
            }
        }
    }

    /// Fails the running test: it returned `Err(error)`.
    #[cold]
    #[track_caller]
    pub fn result_failed(error: &dyn fmt::Debug) -> ! {
        panic!("the test function returned an error: {error:?}")
    }

    /// The `Debug` of the error a test returned, taken before the error is dropped (and with
    /// it, what the test allocated).
    pub struct ErrorText(String);

    /// The `Debug` of `error`.
    #[cold]
    pub fn error_text(error: &dyn fmt::Debug) -> ErrorText {
        ErrorText(alloc::format!("{error:?}"))
    }

    /// Runs the test whose path is `path` (`crate::module::case`): calls `case`, which returns
    /// the error its function returned, if any, and fails the test on it.
    ///
    /// With the `std` feature, the test runs in a scope of its own (see
    /// [`extras::scope`](crate::extras::scope)): its allocations are its own, its fault
    /// injection too, and its end checks for leaks. An error returned after an injected
    /// allocation failure is what an error path must do: the test passes (if nothing else
    /// fails it); a panic after one fails it with `FAULT_INJECTION: forcing a failure.`. The
    /// scope is named after the test as `cargo test` lists it: `module::case`; its report also
    /// gives `kunit`, the case's KUnit name (`suite::case`), as a cell's results name it.
    #[track_caller]
    pub fn run_case(
        path: &'static str,
        kunit: &'static str,
        case: impl FnOnce() -> Option<ErrorText>,
    ) {
        #[cfg(feature = "std")]
        {
            let name = path.split_once("::").map_or(path, |(_, rest)| rest);
            crate::env::scoped::scope::run_case(name, kunit, || case().map(|error| error.0));
        }
        #[cfg(not(feature = "std"))]
        {
            let _ = (path, kunit);
            if let Some(ErrorText(error)) = case() {
                panic!("the test function returned an error: {error}")
            }
        }
    }
}

/// The host expansion of a `#[kunit_tests]` suite, from what the proc macro parsed.
#[doc(hidden)]
#[macro_export]
macro_rules! __kernel_core_kunit_suite {
    (
        dollar: $d:tt,
        suite: $suite:ident,
        module: [$($module:tt)*],
        inner: [$($inner:tt)*],
        items: [$($item:tt)*],
        tests: [$({
            name: $name:ident,
            cfg: [$($cfg:tt)*],
            ignore: [$($ignore:tt)*],
            attrs: [$($attr:tt)*],
            item: [$($function:tt)*],
        })*],
    ) => {
        #[cfg(test)]
        $($module)* {
            $($inner)*

            #[allow(unused_macros)]
            macro_rules! assert_eq {
                ($d($d arguments:tt)*) => {
                    $crate::__kernel_core_kunit_host_assert!(==, $d($d arguments)*)
                };
            }
            #[allow(unused_macros)]
            macro_rules! assert_ne {
                ($d($d arguments:tt)*) => {
                    $crate::__kernel_core_kunit_host_assert!(!=, $d($d arguments)*)
                };
            }

            $($item)*

            $(
                $crate::__kernel_core_kunit_host_case! {
                    suite: $suite,
                    name: $name,
                    cfg: [$($cfg)*],
                    ignore: [$($ignore)*],
                    attrs: [$($attr)*],
                    item: [$($function)*],
                }
            )*
        }
    };
}

/// One host test: the user's function, inside a test of the same name that checks its result.
#[doc(hidden)]
#[macro_export]
macro_rules! __kernel_core_kunit_host_case {
    (
        suite: $suite:ident,
        name: $name:ident,
        cfg: [$($cfg:tt)*],
        ignore: [],
        attrs: [$($attr:tt)*],
        item: [$($function:tt)*],
    ) => {
        #[test]
        #[cfg_attr(not(all($($cfg)*)), ignore = "its #[cfg] is off")]
        fn $name() {
            $crate::__kernel_core_kunit_host_case!(@body $suite, $name, [$($cfg)*], [$($attr)*], [$($function)*]);
        }
    };
    (
        suite: $suite:ident,
        name: $name:ident,
        cfg: [$($cfg:tt)*],
        ignore: [$($ignore:tt)+],
        attrs: [$($attr:tt)*],
        item: [$($function:tt)*],
    ) => {
        #[test]
        $($ignore)+
        fn $name() {
            $crate::__kernel_core_kunit_host_case!(@body $suite, $name, [$($cfg)*], [$($attr)*], [$($function)*]);
        }
    };
    (@body $suite:ident, $name:ident, [$($cfg:tt)*], [$($attr:tt)*], [$($function:tt)*]) => {
        #[cfg(all($($cfg)*))]
        {
            $($attr)*
            $($function)*

            $crate::kunit::__rt::run_case(
                ::core::concat!(::core::module_path!(), "::", ::core::stringify!($name)),
                ::core::concat!(::core::stringify!($suite), "::", ::core::stringify!($name)),
                || {
                    let result = $name();
                    let error = $crate::kunit::TestResult::error(&result).map(|error| {
                        $crate::kunit::__rt::error_text($crate::__kernel_core_kunit_debug!(error))
                    });
                    error
                },
            );
        }
    };
}

/// `assert_eq!`/`assert_ne!` in a suite on the host: the standard macros' behaviour, without
/// their `Debug` bound.
#[doc(hidden)]
#[macro_export]
macro_rules! __kernel_core_kunit_host_assert {
    ($op:tt, $left:expr, $right:expr $(,)?) => {
        $crate::__kernel_core_kunit_host_assert!(@ $op, $left, $right, ::core::option::Option::None)
    };
    ($op:tt, $left:expr, $right:expr, $($message:tt)+) => {
        $crate::__kernel_core_kunit_host_assert!(
            @ $op, $left, $right, ::core::option::Option::Some(::core::format_args!($($message)+))
        )
    };
    (@ $op:tt, $left:expr, $right:expr, $message:expr) => {
        match (&$left, &$right) {
            (left, right) => {
                if !(*left $op *right) {
                    $crate::kunit::__rt::assert_failed_binary(
                        ::core::stringify!($op),
                        $crate::__kernel_core_kunit_debug!(&left),
                        $crate::__kernel_core_kunit_debug!(&right),
                        $message,
                    );
                }
            }
        }
    };
}
