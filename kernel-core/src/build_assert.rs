// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Assertions checked while building, not while running.
//!
//! Kernel counterpart: `rust/kernel/build_assert.rs` (Linux 7.3), whose C ancestors are
//! `static_assert()` and `BUILD_BUG_ON()` in
//! [`include/linux/build_bug.h`](https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/include/linux/build_bug.h).
//!
//! Three macros, from the most robust to the most expressive:
//!
//! | macro | may refer to | checked | where it may appear |
//! |---|---|---|---|
//! | [`static_assert!`] | constants only | always, when the crate is compiled | items and bodies |
//! | [`const_assert!`] | constants and generics | when a generic instance is compiled | bodies only |
//! | [`build_assert!`] | anything, run-time values included | by the optimizer | bodies only |
//!
//! # Choosing an assertion
//!
//! Take the first row that can express the condition:
//!
//! 1. The condition uses only constants: [`static_assert!`]. It is checked even if nothing
//!    uses the surrounding code, and it is the only one allowed outside a function.
//! 2. It uses generic parameters (`N`, `size_of::<T>()`), but no variables: [`const_assert!`].
//!    It is checked once per instantiation, so a generic function nobody instantiates is never
//!    checked.
//! 3. It uses values only the optimizer can see through, such as an argument of an
//!    `#[inline(always)]` function called with a constant: [`build_assert!`]. When it cannot be
//!    proven, the failure arrives late, at the link or at modpost (see below), so prefer the
//!    other two.
//!
//! ```
//! use kernel_core::build_assert::{build_assert, const_assert, static_assert};
//!
//! static_assert!(core::mem::size_of::<u32>() == 4); // Outside any body: only this one works.
//!
//! #[inline(always)]
//! fn scaled<const SHIFT: u32>(value: u64) -> u64 {
//!     static_assert!(u64::BITS == 64); // Constants only: the preferred form.
//!     const_assert!(SHIFT < 64, "SHIFT must be a valid shift amount"); // Uses a generic.
//!     build_assert!(value < 1 << 32); // Uses an argument: needs #[inline(always)].
//!     value << SHIFT
//! }
//!
//! assert_eq!(scaled::<4>(3), 48);
//! ```
//!
//! # What a failure looks like
//!
//! | | in const evaluation | host, release | host, debug assertions on | kernel |
//! |---|---|---|---|---|
//! | [`static_assert!`] | compile error | compile error | compile error | compile error |
//! | [`const_assert!`] | compile error | compile error | compile error | compile error |
//! | [`build_assert!`] false | compile error | link error | panic at the call | modpost error |
//! | [`build_assert!`] unprovable | — | link error | passes or panics | modpost error |
//!
//! The compile errors carry the message you gave. The others name the file, line and column
//! of each [`build_assert!`] or [`build_error!`] call that survived, in the name of an
//! undefined symbol that the macro declares at each site (in crates built without debug
//! assertions) and that no object defines:
//!
//! - **Kernel**: [`build_assert!`] calls the kernel's `build_error`, whose object is not linked
//!   unless `CONFIG_RUST_BUILD_ASSERT_ALLOW=y`, so a call the optimizer kept makes modpost fail
//!   with `ERROR: modpost: "rust_build_error" [driver.ko] undefined!`, exactly as
//!   `kernel::build_assert!` does, and with one more line per call,
//!   `ERROR: modpost: "kernel-core: build_assert!() not proven at drivers/x/main.rs:16:5" [driver.ko] undefined!`.
//!   With `CONFIG_RUST_BUILD_ASSERT_ALLOW=y` there is no site symbol, and the kernel panics
//!   when a call is reached, as it does for its own macro. Under
//!   `CONFIG_RUST_DEBUG_ASSERTIONS=y` the macros call the kernel's `build_error` directly, so
//!   only `rust_build_error` is named; the object's relocations show which functions call it
//!   (`cargo kernel-core why-build-error <object.o>` lists them).
//! - **Host, release build** (debug assertions off in the crate that uses the macro, and
//!   kernel-core built with an `opt-level` other than 0, on an ELF target): the final link of
//!   every binary that keeps such a call fails, and the linker's first lines name the site and
//!   the function that holds it:
//!   `rust-lld: error: undefined symbol: kernel-core: build_assert!() not proven at src/main.rs:16:5`,
//!   followed by `>>> referenced by ... (my_crate::main::...)`; GNU ld says
//!   ``in function `my_crate::main': ... undefined reference to `kernel-core: build_assert!() not proven at src/main.rs:16:5'``,
//!   after the backstop message `kernel-core: build_error was linked: ...`, which points back
//!   here. How this works, and the one combination it does not support (GNU ld with LTO), is
//!   described in the `kernel-core-build-error` crate.
//! - **Host, debug assertions on** (the `dev` profile, and unoptimized doctests even under
//!   `cargo test --release`): unoptimized code proves nothing, so nothing is checked at build
//!   time; a call that is reached panics instead, with its message and its location, and one
//!   whose condition holds in that run passes. This is what the kernel does with
//!   `CONFIG_RUST_BUILD_ASSERT_ALLOW=y`. The choice follows `cfg!(debug_assertions)` of the
//!   crate the macro expands in, so a profile with both optimizations and debug assertions also
//!   panics rather than failing its link.
//! - **Host, an unoptimized crate calling kernel-core's own checked functions**
//!   ([`genmask_u32`](crate::bits::genmask_u32) and the other `bits` functions,
//!   [`Bounded::from_expr`](crate::num::Bounded::from_expr)): their `build_assert!` expanded in
//!   kernel-core, so it follows kernel-core's profile. Doctests under `cargo test --release`
//!   are such crates (rustdoc does not optimize them): their link fails, naming kernel-core's
//!   file, even for a constant in range. Give rustdoc the optimizer, and debug assertions for
//!   the doctests' own macros, as kernel-core's CI does:
//!   `RUSTDOCFLAGS="-C opt-level=2 -C debug-assertions=on" cargo test --doc --release`.

/// The function behind [`build_error!`] and [`build_assert!`]: a `const fn` that panics during
/// const evaluation and must otherwise be optimized away.
///
/// Not for direct use; it is public because the macros expand to a call to it.
#[doc(hidden)]
pub use crate::env::build_error as build_error_fn;

/// What [`build_error!`] and [`build_assert!`] call in crates built with debug assertions: on
/// the host, a plain panic (the kernel's `CONFIG_RUST_BUILD_ASSERT_ALLOW=y` behaviour); in the
/// kernel, the same `build_error` as [`build_error_fn`].
///
/// The macros choose with `cfg!(debug_assertions)` of the crate they expand in, not of
/// kernel-core: an unoptimized doctest or test built against an optimized kernel-core (as
/// `cargo test --release` does) then panics instead of failing its link.
#[doc(hidden)]
pub use crate::env::build_error_debug;

/// What [`build_error!`] and [`build_assert!`] expand to in crates built without debug
/// assertions: a call to [`build_error_fn`] that, where the build can fail on it, also names
/// its call site in an undefined symbol, `kernel-core: build_assert!() not proven at
/// src/main.rs:16:5`, which the host's linker or the kernel's modpost then reports. Where a
/// failing build is not wanted (the host without the link-time check, the kernel with
/// `CONFIG_RUST_BUILD_ASSERT_ALLOW=y`), it is [`build_error_fn`] alone.
///
/// Not for direct use; it is public because the macros expand to it.
#[doc(hidden)]
pub use crate::env::build_error_here;

/// The function [`build_error_here!`] calls with the site: [`build_error_fn`] that also takes a
/// function pointer it never calls.
///
/// Not for direct use; it is public because the macros expand to a call to it.
#[doc(hidden)]
pub use crate::env::build_error_at;

#[doc(inline)]
pub use crate::{build_assert_macro as build_assert, build_error, const_assert, static_assert};

/// Asserts a condition on constants when the crate is compiled.
///
/// The counterpart of C11 `_Static_assert`. The condition must be a constant expression that
/// uses neither generics nor variables; an optional message must be a string literal (what
/// `assert!` accepts in const context). As in the kernel, a trailing comma is a syntax error. It is checked whether or not the code around it is used,
/// and it may stand outside any function, where the other two assertions cannot.
///
/// Use [`const_assert!`] to refer to generics and [`build_assert!`] to refer to variables; see
/// the [module documentation](self) for how to choose.
///
/// # Examples
///
/// ```
/// use kernel_core::static_assert;
///
/// const RING_ENTRIES: usize = 256;
/// static_assert!(RING_ENTRIES.is_power_of_two());
/// static_assert!(RING_ENTRIES * 16 <= 4096, "the ring must fit in one page");
///
/// const fn header_len(version: u8) -> usize {
///     if version < 2 { 8 } else { 16 }
/// }
/// static_assert!(header_len(2) == 16);
///
/// fn in_a_body() {
///     static_assert!(core::mem::size_of::<u64>() == 8);
/// }
/// # in_a_body();
/// ```
///
/// A false condition is a compile error carrying the message:
///
/// ```compile_fail
/// kernel_core::static_assert!(1 + 1 == 3, "arithmetic is broken");
/// ```
#[macro_export]
#[doc(hidden)]
macro_rules! static_assert {
    ($condition:expr) => {
        const _: () = ::core::assert!($condition);
    };
    ($condition:expr, $message:literal) => {
        const _: () = ::core::assert!($condition, $message);
    };
}

/// Asserts a condition on constants and generic parameters, once per instantiation.
///
/// It may appear wherever a statement may, and its condition may use the generic parameters of
/// the surrounding function or `impl`, but no variables (function arguments included, even in a
/// `const fn`). Because it is evaluated when an instance is compiled, an instance nobody uses is
/// never checked: prefer [`static_assert!`] for conditions without generics.
///
/// The optional message must be a string literal. As in the kernel, a trailing comma is a
/// syntax error.
///
/// # Examples
///
/// ```
/// use kernel_core::const_assert;
///
/// fn ring<const N: usize>() -> [u8; N] {
///     const_assert!(N.is_power_of_two(), "ring sizes must be powers of two");
///     [0; N]
/// }
///
/// fn not_zero_sized<T>() -> usize {
///     const_assert!(core::mem::size_of::<T>() > 0);
///     core::mem::size_of::<T>()
/// }
///
/// assert_eq!(ring::<8>().len(), 8);
/// assert_eq!(not_zero_sized::<u16>(), 2);
/// ```
///
/// An instance that breaks the condition does not compile:
///
/// ```compile_fail
/// fn ring<const N: usize>() -> [u8; N] {
///     kernel_core::const_assert!(N.is_power_of_two(), "ring sizes must be powers of two");
///     [0; N]
/// }
/// let _ = ring::<6>();
/// ```
#[macro_export]
#[doc(hidden)]
macro_rules! const_assert {
    ($condition:expr) => {
        const { ::core::assert!($condition) }
    };
    ($condition:expr, $message:literal) => {
        const { ::core::assert!($condition, $message) }
    };
}

/// Fails the build if the code path that reaches it cannot be proven dead.
///
/// In const context, reaching it is a compile error carrying the message. Otherwise the
/// optimizer must remove the call, or the build fails (see the [module documentation](self)
/// for the error you get on the host and in the kernel). The message is a `&'static str`
/// and defaults to an empty one. As in the kernel, a trailing comma is a syntax error.
///
/// # Examples
///
/// ```
/// use kernel_core::build_error;
///
/// #[inline(always)]
/// fn increment(a: u32) -> u32 {
///     match a.checked_add(1) {
///         Some(b) => b,
///         None => build_error!("increment overflows"),
///     }
/// }
///
/// assert_eq!(increment(41), 42); // Provably fine: builds in every profile.
/// // increment(u32::MAX) fails to build when optimized, and panics when not.
/// ```
///
/// Reached during const evaluation it is a compile error:
///
/// ```compile_fail
/// const BAD: u8 = kernel_core::build_error!("no value is good");
/// ```
#[macro_export]
#[doc(hidden)]
macro_rules! build_error {
    () => {
        $crate::build_error!("")
    };
    // A block whose statements diverge has type `!`, whichever of the two `#[cfg]` keeps.
    ($message:expr) => {{
        #[cfg(debug_assertions)]
        $crate::build_assert::build_error_debug($message);
        #[cfg(not(debug_assertions))]
        $crate::build_assert::build_error_here!("build_error!() not proven unreachable", $message);
    }};
}

/// Asserts a condition that the compiler must prove at build time, run-time values included.
///
/// The counterpart of C's `BUILD_BUG_ON()`. A false condition during const evaluation is a
/// compile error carrying the message. Anywhere else the check is left to the optimizer: if it
/// cannot prove the condition true, the build fails (see the [module documentation](self)).
/// When the condition depends on a function's arguments, mark that function
/// `#[inline(always)]`; otherwise it may not be inlined into callers whose arguments are known,
/// and the condition cannot be proven.
///
/// The message is any `&'static str` expression; without one, it is
/// `"assertion failed: <condition>"`. As in the kernel, a trailing comma is accepted after
/// the condition alone (`build_assert!(c,)`) but not after a message. Prefer [`static_assert!`] and [`const_assert!`] whenever
/// they can express the condition.
///
/// # Examples
///
/// ```
/// use kernel_core::build_assert::build_assert;
///
/// #[inline(always)]
/// fn register_offset(index: usize) -> usize {
///     build_assert!(index < 16, "only 16 registers");
///     0x100 + index * 4
/// }
///
/// #[inline(always)]
/// const fn const_register_offset(index: usize) -> usize {
///     build_assert!(index < 16);
///     0x100 + index * 4
/// }
///
/// assert_eq!(register_offset(3), 0x10c);
/// const LAST: usize = const_register_offset(15);
/// assert_eq!(LAST, 0x13c);
/// ```
///
/// A false condition met in const evaluation does not compile:
///
/// ```compile_fail
/// const fn checked_shift(shift: u32) -> u32 {
///     kernel_core::build_assert::build_assert!(shift < 32, "shift too large");
///     1 << shift
/// }
/// const BAD: u32 = checked_shift(40);
/// ```
#[macro_export]
#[doc(hidden)]
macro_rules! build_assert_macro {
    // One call per site, chosen by `#[cfg]` on the statement, which is settled while the macro
    // expands in the user's crate: no anonymous const to evaluate per site, and no second call
    // to leave out later. Both arms go to their call directly rather than through
    // `build_error!` or each other: fewer expansions per assertion, which `cargo xtask bench`
    // counts. The site-naming declaration lives in `build_error_here!`, whose call `#[cfg]`
    // strips unexpanded under debug assertions, so the debug build does not pay for it.
    ($condition:expr $(,)?) => {
        if !$condition {
            #[cfg(debug_assertions)]
            $crate::build_assert::build_error_debug(::core::concat!(
                "assertion failed: ",
                ::core::stringify!($condition)
            ));
            #[cfg(not(debug_assertions))]
            $crate::build_assert::build_error_here!(
                "build_assert!() not proven",
                ::core::concat!("assertion failed: ", ::core::stringify!($condition))
            );
        }
    };
    ($condition:expr, $message:expr) => {
        if !$condition {
            #[cfg(debug_assertions)]
            $crate::build_assert::build_error_debug($message);
            #[cfg(not(debug_assertions))]
            $crate::build_assert::build_error_here!("build_assert!() not proven", $message);
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    static_assert!(true);
    static_assert!(u8::MAX as u32 == 255, "with a message");

    #[inline(always)]
    fn provable(n: usize) -> usize {
        build_assert!(n > 1);
        build_assert!(n < 100, "n must be small");
        n * 2
    }

    #[inline(always)]
    const fn const_provable(n: usize) -> usize {
        build_assert!(n.is_power_of_two());
        n - 1
    }

    fn generic<const N: usize>() -> usize {
        const_assert!(N > 0);
        const_assert!(N < 10, "N must stay small");
        N
    }

    #[test]
    fn provable_assertions_pass() {
        assert_eq!(provable(2), 4);
        assert_eq!(provable(99), 198);
        assert_eq!(generic::<1>(), 1);
        assert_eq!(generic::<9>(), 9);
        const MASK: usize = const_provable(64);
        assert_eq!(MASK, 63);
    }

    #[test]
    fn build_error_in_a_dead_branch_costs_nothing() {
        let value = 3_u8;
        let doubled = match value.checked_mul(2) {
            Some(v) => v,
            None => build_error!("3 * 2 overflowed a u8"),
        };
        assert_eq!(doubled, 6);
    }

    // With debug assertions, a reached assertion panics with its message, like the kernel under
    // CONFIG_RUST_BUILD_ASSERT_ALLOW. Without them these calls would fail the link on purpose,
    // so the test returns early, and the optimizer drops them.
    mod run_time {
        extern crate std;
        use super::*;
        use std::{panic::catch_unwind, string::String};

        fn panic_message(f: impl FnOnce() + std::panic::UnwindSafe) -> String {
            let payload = catch_unwind(f).expect_err("the assertion should have panicked");
            match payload.downcast::<String>() {
                Ok(s) => *s,
                Err(p) => String::from(*p.downcast::<&'static str>().unwrap()),
            }
        }

        #[test]
        fn reached_assertions_panic_with_their_message() {
            if !cfg!(debug_assertions) {
                return;
            }
            let runtime = std::hint::black_box(1_usize);
            assert_eq!(
                panic_message(|| {
                    build_assert!(runtime > 1);
                }),
                "assertion failed: runtime > 1"
            );
            assert_eq!(
                panic_message(|| {
                    build_assert!(runtime > 1, "custom message");
                }),
                "custom message"
            );
            assert_eq!(panic_message(|| build_error!("boom")), "boom");
            assert_eq!(panic_message(|| build_error!()), "");
        }
    }
}
