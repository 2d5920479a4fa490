// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! The macros of Linux 7.3's `pin_init` crate: `#[pin_data]`, `#[pinned_drop]`,
//! `#[derive(Zeroable)]`, `#[derive(MaybeZeroable)]`, `pin_init!` and `init!`.
//!
//! Kernel counterpart: `rust/pin-init/internal/` (Linux 7.3), the `pin_init_internal` crate,
//! which is written with `syn` and `quote`. These are written from scratch against
//! `proc_macro` alone, because Kbuild builds this crate with one `rustc` call and no crates.io
//! (Linux 6.12 has no pin-init crate: its macros were `macro_rules!` in `kernel::init`). The
//! users reach them through the `kernel-core-pin-init` crate, named `pin_init`, which
//! re-exports them under 7.3's names and documents them.
//!
//! The expansions are 7.3's, item for item: the same generated types and traits, reached by
//! the same absolute paths (`::pin_init::__internal::...`, `::core::...`), the same
//! compile-time checks, and the same hygiene (the macros' own locals are `Span::mixed_site()`,
//! so the user's code cannot name them; the fields' bindings are the user's). The generated
//! code calls the pin-init crate's functions and slots, never `PinInit`'s methods: on Linux
//! 6.12 the kernel's trait names them differently.

mod init;
mod pin_data;
mod pinned_drop;
pub(crate) mod syntax;
pub(crate) mod template;
mod zeroable;

use proc_macro::TokenStream;

/// `#[pin_data]`, `#[pin_data(PinnedDrop)]`.
pub(crate) fn pin_data(args: TokenStream, item: TokenStream) -> TokenStream {
    pin_data::expand(args, item).unwrap_or_else(|e| e.into_compile_error())
}

/// `#[pinned_drop]`.
pub(crate) fn pinned_drop(args: TokenStream, item: TokenStream) -> TokenStream {
    pinned_drop::expand(args, item).unwrap_or_else(|e| e.into_compile_error())
}

/// `#[derive(Zeroable)]`, or `#[derive(MaybeZeroable)]` with `maybe`.
pub(crate) fn derive_zeroable(item: TokenStream, maybe: bool) -> TokenStream {
    zeroable::derive(item, maybe).unwrap_or_else(|e| e.into_compile_error())
}

/// `pin_init!`, or `init!` without `pinned`.
pub(crate) fn init(input: TokenStream, pinned: bool) -> TokenStream {
    init::expand(input, pinned).unwrap_or_else(|e| e.into_compile_error())
}
