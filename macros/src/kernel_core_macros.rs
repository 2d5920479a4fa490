// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Procedural macros of `kernel-core`.
//!
//! The kernel build compiles this crate with one `rustc` call for the host (see the top-level
//! `Kbuild`), without cargo or crates.io, so it depends on `proc_macro` alone: no `syn`, no
//! `quote`. Its output is the same in both worlds; it wraps the host and kernel expansions in
//! `kernel_core::kunit::__if_host!` and `__if_kernel!`, and `kernel-core` decides which one
//! survives. Use the macros through `kernel_core`, which re-exports them.

// The `#[kunit_tests]` example must show `#[test]` functions, which doctests never run.
#![allow(clippy::test_attr_in_doctest)]

mod kunit;
mod tokens;

use proc_macro::TokenStream;

/// Turns an inline module of `#[test]` functions into a KUnit suite: KUnit cases in the kernel,
/// ordinary tests named `suite::case` on the host.
///
/// See `kernel_core::kunit` for the full description.
///
/// # Examples
///
/// ```
/// use kernel_core::kunit::kunit_tests;
///
/// #[kunit_tests(my_driver_parser)]
/// mod tests {
///     #[test]
///     fn parses_nothing() {
///         assert_eq!("".len(), 0);
///     }
/// }
/// ```
#[proc_macro_attribute]
pub fn kunit_tests(attr: TokenStream, item: TokenStream) -> TokenStream {
    match kunit::expand(attr, item) {
        Ok(expansion) => expansion,
        Err(error) => error.into_compile_error(),
    }
}
