// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The host half of `kernel_core::build_assert!`: a `const fn` that must never be reached.
//!
//! Inside the kernel tree, the kernel's own `build_error` crate plays this part: its object is
//! not linked into the kernel, so a call the optimizer could not remove is an undefined symbol
//! that modpost reports. On the host, cargo always links every crate, so this crate reaches the
//! same effect two other ways, in optimized builds on ELF targets (see `build.rs`):
//!
//! - **The call site, by name.** [`build_error_here!`], which kernel-core's macros expand to,
//!   declares at each call site an external function that exists nowhere, named after the site
//!   (`kernel-core: build_assert!() not proven at src/main.rs:16:5`), and passes it, uncalled,
//!   to [`build_error_at`]. A call the optimizer could not remove keeps that reference, so the
//!   linker's first error is an undefined symbol that names the file, line and column, and the
//!   linker adds the function that holds the call:
//!
//!   ```text
//!   rust-lld: error: undefined symbol: kernel-core: build_assert!() not proven at src/main.rs:16:5
//!   >>> referenced by main.rs:16 (src/main.rs:16)
//!   >>>               .../kc_link_unprovable-....rcgu.o:(kc_link_unprovable::main::h...)
//!   ```
//!
//!   GNU ld says ``in function `kc_link_unprovable::main': ... undefined reference to
//!   `kernel-core: build_assert!() not proven at src/main.rs:16:5'``. [`build_error_at`] lives in
//!   this crate rather than in the caller's so that the optimizer, which cannot see its body
//!   from there, must keep the argument it does not use.
//! - **Any surviving call, as a backstop.** [`build_error`] and [`build_error_at`] live in a
//!   section of their own next to a marker symbol, and a linker script that every downstream
//!   binary picks up fails the final link when that section survives garbage collection, that
//!   is when a call to either is still there. This catches what the first cannot: a direct
//!   call to [`build_error`], a link-time optimization that inlined [`build_error_at`] and
//!   dropped the site, or a shared library, whose undefined symbols the linker allows.
//!
//! | where | what a reachable [`build_error`] or [`build_error_at`] does |
//! |---|---|
//! | const evaluation | compile error carrying the message |
//! | optimized host build (ELF) | the final link fails, naming the site of each surviving [`build_error_here!`], or else `build_error` and the docs |
//! | unoptimized host build, or `KERNEL_CORE_BUILD_ASSERT=panic` | panics with the message |
//!
//! (kernel-core's macros do not even call this crate in crates built with debug assertions:
//! they panic directly, so that unoptimized code linked against an optimized build of this
//! crate still links.)
//!
//! The crate holds nothing else, so that its object file enters a link only when something
//! calls [`build_error`] or [`build_error_at`]. Use it through `kernel_core::build_assert`.
//!
//! # Known limitation
//!
//! GNU ld (not lld) combined with LTO merges this crate into the one object LTO produces, and
//! GNU ld's `DEFINED()` does not look at garbage collection: every such link fails. Link with
//! lld (`-Clink-arg=-fuse-ld=lld`, the default on x86_64 Linux since Rust 1.90), turn LTO off
//! for tests, or set `KERNEL_CORE_BUILD_ASSERT=panic`.

#![no_std]

/// `true` when this build fails the final link on a surviving [`build_error`] call.
///
/// It is `false` in unoptimized builds, under Miri, on non-ELF targets and with
/// `KERNEL_CORE_BUILD_ASSERT=panic`: there a reachable [`build_error`] panics at run time.
///
/// # Examples
///
/// ```
/// use kernel_core_build_error::LINK_CHECK;
///
/// if !LINK_CHECK {
///     // Only here may a test reach `build_error` on purpose.
///     let caught = std::panic::catch_unwind(|| kernel_core_build_error::build_error("boom"));
///     assert!(caught.is_err());
/// }
/// ```
pub const LINK_CHECK: bool = cfg!(kernel_core_link_check);

// The marker shares `build_error`'s section (same name and flags, so the assembler merges them),
// so it is defined in a final link exactly when linker garbage collection keeps that section.
// It is hidden so a shared object never exports it.
#[cfg(kernel_core_link_check)]
core::arch::global_asm!(
    ".pushsection .text.kernel_core_build_error,\"ax\",%progbits",
    ".globl kernel_core_build_error_linked",
    ".hidden kernel_core_build_error_linked",
    "kernel_core_build_error_linked:",
    ".popsection",
);

/// Panics if evaluated in const context; otherwise a call that survives optimization fails the
/// build.
///
/// This is what `build_assert!` and `build_error!` call where [`build_error_here!`] cannot name
/// the site: without the link-time check, and in code that calls it directly. It is
/// `#[inline(never)]` so that a call stays visible to the linker, and `#[track_caller]` so that
/// the run-time panic of an unoptimized build names the failing assertion rather than this
/// function.
///
/// # Examples
///
/// In const context a reached call is a compile error carrying the message:
///
/// ```compile_fail
/// const _: () = kernel_core_build_error::build_error("this is a compile error");
/// ```
///
/// A call the compiler can prove unreachable costs nothing and builds in every profile:
///
/// ```
/// #[inline(always)]
/// fn checked_index(i: usize) -> usize {
///     if i >= 4 {
///         kernel_core_build_error::build_error("index out of range");
///     }
///     i
/// }
///
/// assert_eq!(checked_index(3), 3);
/// ```
#[inline(never)]
#[cold]
#[track_caller]
#[cfg_attr(
    kernel_core_link_check,
    unsafe(link_section = ".text.kernel_core_build_error")
)]
pub const fn build_error(msg: &'static str) -> ! {
    panic!("{}", msg)
}

/// [`build_error`] with the call site attached: `site` is a function that exists nowhere, named
/// after the site, which a call that survives optimization keeps referring to.
///
/// `site` is only passed, never called, so const evaluation fails with the message exactly as
/// [`build_error`] does. The function lives in this crate, not in the caller's, so that the
/// optimizer of the caller cannot see that `site` goes unused and must keep the reference; it is
/// `#[inline(never)]` so that the call stays visible to the linker, and shares
/// [`build_error`]'s section, so the marker check (see the [crate documentation](crate)) still
/// fires if link-time optimization drops the reference. Use it through [`build_error_here!`],
/// which declares `site`.
///
/// # Examples
///
/// Any `unsafe extern "C" fn()` will do as the site when the call is provably dead:
///
/// ```
/// unsafe extern "C" fn no_site() {}
///
/// #[inline(always)]
/// fn checked_index(i: usize) -> usize {
///     if i >= 4 {
///         kernel_core_build_error::build_error_at("index out of range", no_site);
///     }
///     i
/// }
///
/// assert_eq!(checked_index(3), 3);
/// ```
///
/// In const context a reached call is a compile error carrying the message:
///
/// ```compile_fail
/// unsafe extern "C" fn no_site() {}
/// const _: () = kernel_core_build_error::build_error_at("this is a compile error", no_site);
/// ```
#[inline(never)]
#[cold]
#[track_caller]
#[cfg_attr(
    kernel_core_link_check,
    unsafe(link_section = ".text.kernel_core_build_error")
)]
pub const fn build_error_at(msg: &'static str, site: unsafe extern "C" fn()) -> ! {
    // Only passed: the reference it carries is the point. Where the compiler allows it in a
    // `const fn` (1.86 and later), `black_box` keeps it even when link-time optimization sees
    // this body; otherwise LTO may drop it and leave the marker check to fail the link.
    #[cfg(kernel_core_const_black_box)]
    // Only compiled by rustc 1.86 and later (see build.rs).
    #[allow(clippy::incompatible_msrv)]
    core::hint::black_box(site);
    #[cfg(not(kernel_core_const_black_box))]
    let _ = site;
    panic!("{}", msg)
}

/// The documentation of [`build_error_here!`], which has one definition per setting of
/// [`LINK_CHECK`] and shows whichever this build has.
macro_rules! build_error_here_doc {
    () => {
        r#"Calls [`build_error`] in a way that makes a surviving call name its site when the link fails.

`build_error_here!("build_assert!() not proven", message)` is what kernel-core's
`build_assert!` and `build_error!` expand to in crates built without debug assertions. It is
an expression of type `!`, allowed in `const fn`s. Where the link-time check is armed (see
[`LINK_CHECK`]), it declares an external function named
`kernel-core: <what> at <file>:<line>:<column>`, after the outermost macro call that leads
to it, which no object defines, and calls [`build_error_at`] with the message and that
function. Elsewhere it calls [`build_error`] alone, since an undefined symbol would fail
builds that are meant to panic instead.

`what` must be a string literal, `message` a `&'static str` expression.

# Examples

```
use kernel_core_build_error::build_error_here;

#[inline(always)]
fn lane(index: usize) -> usize {
    if index >= 8 {
        build_error_here!("lane() index not proven", "only 8 lanes");
    }
    index * 8
}

assert_eq!(lane(3), 24); // Provably in range: builds in every profile.
```

Reached during const evaluation, it is a compile error carrying the message:

```compile_fail
const BAD: u8 = kernel_core_build_error::build_error_here!("never", "no value is good");
```"#
    };
}

#[cfg(kernel_core_link_check)]
#[doc = build_error_here_doc!()]
#[macro_export]
macro_rules! build_error_here {
    ($what:literal, $message:expr) => {{
        unsafe extern "C" {
            // Named after the site, for the linker's "undefined symbol" error. The name is
            // not one Rust code can spell, so it cannot clash with a real function. It stays on
            // one line: split, rustfmt indents it further on every run.
            #[link_name = ::core::concat!("kernel-core: ", $what, " at ", ::core::file!(), ":", ::core::line!(), ":", ::core::column!())]
            fn __kernel_core_build_error_site();
        }
        $crate::build_error_at($message, __kernel_core_build_error_site)
    }};
}

#[cfg(not(kernel_core_link_check))]
#[doc = build_error_here_doc!()]
#[macro_export]
macro_rules! build_error_here {
    ($what:literal, $message:expr) => {
        $crate::build_error($message)
    };
}
