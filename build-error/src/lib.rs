// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The host half of `kernel_core::build_assert!`: a `const fn` that must never be reached.
//!
//! Inside the kernel tree, the kernel's own `build_error` crate plays this part: its object is
//! not linked into the kernel, so a call the optimizer could not remove is an undefined symbol
//! that modpost reports. On the host, cargo always links every crate, so this crate reaches the
//! same effect another way (see `build.rs`): in optimized builds on ELF targets, [`build_error`]
//! lives in a section of its own next to a marker symbol, and a linker script that every
//! downstream binary picks up fails the final link when that section survives garbage
//! collection, that is when a call to [`build_error`] is still there.
//!
//! | where | what a reachable [`build_error`] does |
//! |---|---|
//! | const evaluation | compile error carrying the message |
//! | optimized host build (ELF) | the final link fails, naming `build_error` and the docs |
//! | unoptimized host build, or `KERNEL_CORE_BUILD_ASSERT=panic` | panics with the message |
//!
//! (kernel-core's macros do not even call [`build_error`] in crates built with debug
//! assertions: they panic directly, so that unoptimized code linked against an optimized
//! build of this crate, such as doctests under `cargo test --release`, still links.)
//!
//! The crate holds nothing else, so that its object file enters a link only when something
//! calls [`build_error`]. Use it through `kernel_core::build_assert`.
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
/// This is what `build_assert!` and `build_error!` call. It is `#[inline(never)]` so that a call
/// stays visible to the linker, and `#[track_caller]` so that the run-time panic of an
/// unoptimized build names the failing assertion rather than this function.
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
