// SPDX-License-Identifier: GPL-2.0-only OR MIT

//! What `kernel_core::prelude` re-exports on the host, besides kernel-core's own items: the
//! part of Linux 7.3's prelude that means something without a kernel.
//!
//! Its kernel twin, `env/kernel/prelude.rs`, re-exports the kernel's whole prelude, so that
//! `use kernel_core::prelude::*;` is the only prelude line a driver needs. On the host there is
//! no kernel crate; these are the items of Linux 7.3's prelude that a driver's kernel-independent
//! code and its doc examples use, so that they read the same in both worlds:
//!
//! - `Error`, `Result` and the error codes (`EINVAL`, ...), from [`crate::error`];
//! - the C types `c_char` .. `c_ulonglong`, mapped as the kernel's `ffi` crate maps them
//!   (`c_char` is `u8`, `c_long` is `isize`, `c_ulong` is `usize`), and `c_void` and `CStr`,
//!   which are `core::ffi`'s in the kernel too;
//! - `core::mem::{align_of, align_of_val, size_of, size_of_val}` and `core::pin::Pin`;
//! - [`Zeroable`], which `bitfield!` types implement: Linux 7.3's prelude exports
//!   `pin_init::Zeroable`; here it is kernel-core's own trait, with `Zeroable::zeroed()` alone;
//! - `FromBytes` and `IntoBytes`, the bounds of `io`'s byte copies: Linux 7.3's prelude exports
//!   `zerocopy`'s, here they are kernel-core's own ([`crate::extras::bytes`]), without the
//!   derive macros.
//!
//! Left out, as they need the kernel: its allocator and collections (`KBox`, `KVec`, the `GFP_*`
//! flags, ...), printing (`pr_info!`, `dev_info!`, `dbg!`, `fmt!`), `module!`, `vtable`,
//! `export`, `ThisModule`, `current!`, `UserPtr`, and `pin_init`'s initialisers (`init!`,
//! `pin_data`, `PinInit`, `InPlaceInit`, ...).

pub use super::zeroable::Zeroable;

pub use crate::extras::bytes::{FromBytes, IntoBytes};

pub use crate::error::{code::*, Error, Result};

pub use core::ffi::{c_void, CStr};

/// Declares the C integer types as the kernel's `ffi` crate maps them (`rust/ffi.rs`), which is
/// not always as `core::ffi` does: `c_char` is `u8` (the kernel builds with
/// `-funsigned-char`), `c_long` is `isize` and `c_ulong` `usize` (the kernel's `long` is
/// pointer-sized everywhere). So `let n: isize = some_c_long;` builds on the host as it does in
/// the kernel.
macro_rules! c_types {
    ($($(#[$doc:meta])* $name:ident = $ty:ty;)*) => {$(
        $(#[$doc])*
        #[allow(non_camel_case_types)]
        pub type $name = $ty;

        // The same size as C's, as the kernel's `ffi` crate checks.
        const _: () = assert!(size_of::<$name>() == size_of::<core::ffi::$name>());
    )*};
}

c_types! {
    /// C's `char`: unsigned in the kernel (`-funsigned-char`).
    c_char = u8;
    /// C's `signed char`.
    c_schar = i8;
    /// C's `unsigned char`.
    c_uchar = u8;
    /// C's `short`.
    c_short = i16;
    /// C's `unsigned short`.
    c_ushort = u16;
    /// C's `int`.
    c_int = i32;
    /// C's `unsigned int`.
    c_uint = u32;
    /// C's `long`: pointer-sized in the kernel (`intptr_t` is `long`).
    c_long = isize;
    /// C's `unsigned long`: pointer-sized in the kernel.
    c_ulong = usize;
    /// C's `long long`.
    c_longlong = i64;
    /// C's `unsigned long long`.
    c_ulonglong = u64;
}

pub use core::mem::{align_of, align_of_val, size_of, size_of_val};

pub use core::pin::Pin;
