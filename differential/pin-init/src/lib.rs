// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! Linux 7.3's own `pin_init` crate (`rust/pin-init/src/lib.rs` and its modules, read from the
//! tree in `KERNEL_CORE_LINUX_SRC` by `build.rs`), built on the host as the kernel builds it:
//! `cfg(kernel)`, no features, its own proc macros (`pin_init_internal`, Linux 7.3's too).
//!
//! The inner attributes here are those of the kernel's file that apply without its features.

#![no_std]
#![forbid(missing_docs, unsafe_op_in_unsafe_fn)]
// The file's `#[macro_export]` macros (`stack_pin_init!`, ...) are reached by absolute paths
// from within it, which rustc warns of for macros that come out of a macro expansion, here
// `include!` (rust-lang/rust#52234); in the kernel the file is the crate root itself.
#![allow(macro_expanded_macro_exports_accessed_by_absolute_paths)]
// The file's `#[expect(clippy::...)]`s are met under the kernel's own lint set (`make CLIPPY=1`),
// not always under clippy's defaults, which a path dependency is checked with here.
#![allow(unfulfilled_lint_expectations)]

include!(concat!(env!("OUT_DIR"), "/lib.rs"));
